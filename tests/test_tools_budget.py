"""tools/list + instructions stay within the per-turn token budget (real tokenizer, offline)."""
from __future__ import annotations

import json

import pytest

from v8atlas.server.budget import TOKEN_BUDGET, count_tokens, tools_list_payload


def test_tool_list_is_small_and_valid_json_schema():
    wire, instructions = tools_list_payload()
    listed = json.loads(wire)["tools"]
    assert len(listed) == 10   # seven of round 1, check_query, search_code, get_procedure
    for t in listed:
        assert t["inputSchema"]["type"] == "object"
        assert t["annotations"] == {"readOnlyHint": True, "openWorldHint": False}
        assert len(t["description"]) <= 200
        for prop in t["inputSchema"]["properties"].values():
            assert prop["type"] in ("string", "integer", "boolean")
            assert "title" not in prop


@pytest.mark.parametrize("encoding", ["o200k_base", "cl100k_base"])
def test_tool_list_plus_instructions_within_budget(encoding):
    pytest.importorskip("bpe_openai")
    counted = count_tokens(encoding)
    print(counted)
    assert counted["total"] <= TOKEN_BUDGET
