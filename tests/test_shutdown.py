"""A clean exit loses nothing pending: queued updates are flushed at interpreter exit."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

SCRIPT = textwrap.dedent(
    """
    import sys
    from langgraph.checkpoint.memory import InMemorySaver
    from deerflow_memory import MemoryConfig, MemoryService, create_memory_agent

    config = MemoryConfig(storage_path=sys.argv[1], debounce_seconds=600, max_wait_seconds=600)
    memory = MemoryService(config)  # registers the exit-time flush
    graph = create_memory_agent(service=memory, checkpointer=InMemorySaver())
    graph.invoke(
        {"messages": [("user", "I'm allergic to shellfish.")]},
        {"configurable": {"user_id": "eve", "thread_id": "1"}},
    )
    assert memory.queue.pending_count == 1  # a 10-minute debounce: nothing ran yet
    # no flush(), no close(): the interpreter exits here
    """
)


def test_pending_updates_are_saved_when_the_process_exits_cleanly(tmp_path: Path) -> None:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("OPENAI_", "DEERFLOW_"))}
    result = subprocess.run(
        [sys.executable, "-c", SCRIPT, str(tmp_path)],
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 0, result.stderr
    stored = json.loads((tmp_path / "users/eve/memory.json").read_text("utf-8"))
    assert any("shellfish" in fact["content"] for fact in stored["facts"])
