"""A MemoryIdentity built by hand is checked like one resolve_identity builds, at the call."""

from __future__ import annotations

from pathlib import Path

import pytest
from langchain_core.messages import AIMessage, HumanMessage

from deerflow_memory import MemoryConfig, MemoryService
from deerflow_memory.errors import InvalidNameError
from deerflow_memory.identity import MemoryIdentity

UNSAFE = ["../x", "a/b", "x\x00", "a\u202eb", "u" * 5000, ""]


@pytest.mark.parametrize("name", UNSAFE)
@pytest.mark.parametrize("field", ["user_id", "agent_name", "tenant_id"])
def test_an_unsafe_name_is_refused_when_queued_not_on_the_worker(
    tmp_path: Path, field: str, name: str
) -> None:
    fields = {"user_id": "alice", "agent_name": None, "thread_id": "t", "tenant_id": None}
    fields[field] = name
    identity = MemoryIdentity(**fields)  # type: ignore[arg-type]
    with MemoryService(MemoryConfig(storage_path=tmp_path), register_atexit=False) as memory:
        with pytest.raises(InvalidNameError, match=field):
            memory.enqueue(identity, [HumanMessage("I'm vegan"), AIMessage("Noted.")])
        with pytest.raises(InvalidNameError, match=field):
            memory.load(identity)
        assert memory.queue.pending_count == 0 and memory.dead_letters() == []
