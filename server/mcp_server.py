"""The MCP layer: the SDK's ``MCPServer`` with one thin adapter per tool.

Each adapter takes the current snapshot once, runs the shared tool function and returns its
markdown as the one text block (``isError`` for an ``error`` outcome). Each tool publishes its
own JSON Schema (tools/spec.py) and takes its arguments as they come, so the shared validator
gives the same message over MCP, the JSON API and the CLI. This leans on two names of the SDK's
mcpserver package (``Tool``, ``FuncMetadata``/``ArgModelBase``), pinned by mcp==2.3.0.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

from mcp.server import MCPServer
from mcp.server.mcpserver.tools import Tool
from mcp.server.mcpserver.utilities.func_metadata import ArgModelBase, FuncMetadata
from mcp.types import CallToolResult, TextContent, ToolAnnotations
from pydantic import ConfigDict

from v8atlas import __version__

from . import tools
from .dispatch import run_tool
from .observe import current_request_id
from .tools.spec import ToolSpec

if TYPE_CHECKING:
    from .state import ServerState


class _Arguments(ArgModelBase):
    """Accept the call's arguments as they are; ``tools/spec.py`` checks them (one validator
    for every transport, so an unknown or mistyped argument gets the same message)."""
    model_config = ConfigDict(extra="allow", arbitrary_types_allowed=True)

    def model_dump_one_level(self) -> dict[str, Any]:
        return dict(self.model_extra or {})


# One argument model for all tools: building a pydantic model per tool from a signature cost
# ~11 ms of the server's start, and its schema would be replaced by the tool's own anyway.
_PASS_THROUGH = FuncMetadata(arg_model=_Arguments)


def _adapter(spec: ToolSpec, state: "ServerState") -> Any:
    name = spec.name

    async def run(**kwargs: Any) -> CallToolResult:
        # An HTTP request carries a correlation id; stdio calls have none.
        transport = "mcp_http" if current_request_id() else "mcp_stdio"
        result = await run_tool(state, name, kwargs, from_text=False, transport=transport)
        return CallToolResult(content=[TextContent(type="text", text=result.text)],
                              is_error=result.is_error)

    run.__name__ = name
    return run


class _V8AtlasMCP(MCPServer):
    async def call_tool(self, name: str, arguments: dict[str, Any], context: Any = None) -> Any:
        # An unknown tool gets the documented ``unknown_tool`` error, not the SDK's own text.
        if name not in tools.tool_table():
            result = tools.call(None, name, arguments)
            return CallToolResult(content=[TextContent(type="text", text=result.text)], is_error=True)
        return await super().call_tool(name, arguments, context)


def build_mcp(state: "ServerState") -> MCPServer:
    """Configure logging before calling this: the SDK sets up the root logger otherwise."""
    registered = [
        Tool(fn=_adapter(spec, state), name=spec.name, title=spec.title, description=spec.description,
             parameters=spec.input_schema(), fn_metadata=_PASS_THROUGH, is_async=True,
             annotations=ToolAnnotations(read_only_hint=True, open_world_hint=False))
        for spec in tools.tool_table().values()]
    return _V8AtlasMCP("v8atlas", version=__version__, instructions=tools.INSTRUCTIONS, tools=registered)
