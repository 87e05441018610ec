"""What the tool set costs an agent on every turn: tools/list plus the instructions, in tokens.

Counted with a real BPE tokenizer that works offline (``bpe-openai`` ships the o200k_base and
cl100k_base vocabularies in its wheel). Used by tools/bench_server.py and the tests.
"""
from __future__ import annotations

import json
from typing import Any

TOKEN_BUDGET = 2000


def tools_list_payload() -> tuple[str, str]:
    """(tools/list result as sent on the wire, instructions) without starting a server."""
    import asyncio

    from . import tools
    from .mcp_server import build_mcp
    from .state import ServerState

    state = ServerState.__new__(ServerState)   # the adapters never run here
    state.current = None
    listed = asyncio.run(build_mcp(state).list_tools())
    wire = json.dumps({"tools": [t.model_dump(by_alias=True, exclude_none=True, mode="json")
                                 for t in listed]}, ensure_ascii=False, separators=(",", ":"))
    return wire, tools.INSTRUCTIONS


def count_tokens(encoding: str = "o200k_base") -> dict[str, Any]:
    import bpe_openai

    enc = bpe_openai.get_encoding(encoding)
    wire, instructions = tools_list_payload()
    n_tools, n_instr = len(enc.encode(wire)), len(enc.encode(instructions))
    return {"encoding": encoding, "tools_list": n_tools, "instructions": n_instr,
            "total": n_tools + n_instr, "budget": TOKEN_BUDGET, "chars": len(wire) + len(instructions)}
