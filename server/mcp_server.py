"""The MCP layer: the SDK's ``MCPServer`` with one thin adapter per tool.

Each adapter takes the current snapshot once, runs the shared tool function and returns its
markdown as the one text block (``isError`` for an ``error`` outcome). Parameters are
declared with the tool's own JSON Schema and accepted as-is, so the shared validator in
``tools/spec.py`` gives the same message over MCP, the JSON API and the CLI.
"""
from __future__ import annotations

import inspect
from typing import TYPE_CHECKING, Annotated, Any

import anyio.to_thread
from mcp.server import MCPServer
from mcp.server.mcpserver.tools import Tool
from mcp.types import CallToolResult, TextContent, ToolAnnotations
from pydantic import WithJsonSchema

from v8atlas import __version__

from . import tools
from .tools.spec import ToolSpec

if TYPE_CHECKING:
    from .state import ServerState

# Tools that may take tens of milliseconds on big bundles run on a worker thread.
THREADED = {"compare_configurations"}


def _adapter(spec: ToolSpec, state: "ServerState") -> Any:
    name = spec.name

    async def run(**kwargs: Any) -> CallToolResult:
        snap = state.current
        args = {k: v for k, v in kwargs.items() if v is not None}
        if name in THREADED:
            result = await anyio.to_thread.run_sync(tools.call, snap, name, args)
        else:
            result = tools.call(snap, name, args)
        return CallToolResult(content=[TextContent(type="text", text=result.text)],
                              is_error=result.is_error)

    params = [inspect.Parameter(p.name, inspect.Parameter.KEYWORD_ONLY,
                                default=inspect.Parameter.empty if p.required else None,
                                annotation=Annotated[Any, WithJsonSchema(p.schema())])
              for p in spec.params]
    run.__signature__ = inspect.Signature(params, return_annotation=CallToolResult)  # type: ignore[attr-defined]
    run.__name__ = name
    return run


def build_mcp(state: "ServerState") -> MCPServer:
    """Configure logging before calling this: the SDK sets up the root logger otherwise."""
    registered = []
    for spec in tools.TOOLS.values():
        tool = Tool.from_function(_adapter(spec, state), name=spec.name, title=spec.title,
                                  description=spec.description,
                                  annotations=ToolAnnotations(read_only_hint=True, open_world_hint=False),
                                  structured_output=False)
        # Publish the tool's own compact schema (pydantic would add titles and null defaults);
        # arguments are still checked by the shared validator.
        registered.append(tool.model_copy(update={"parameters": spec.input_schema()}))
    return MCPServer("v8atlas", version=__version__, instructions=tools.INSTRUCTIONS, tools=registered)
