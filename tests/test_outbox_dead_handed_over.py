"""A dead letter the backend could not take is kept in the outbox, and stored at the next start."""

from __future__ import annotations

from pathlib import Path

from langchain_core.messages import AIMessage, HumanMessage

from deerflow_memory.config import MemoryConfig
from deerflow_memory.identity import MemoryIdentity
from deerflow_memory.service import MemoryService


class Broken:
    def extract(self, request: object) -> object:
        raise RuntimeError("model exploded")


def test_a_letter_kept_in_the_outbox_reaches_the_backend_at_the_next_start(tmp_path: Path) -> None:
    config = MemoryConfig(storage_path=tmp_path, debounce_seconds=3600)
    (tmp_path / "dead_letters").write_text("not a folder")  # the backend cannot take a letter
    who = MemoryIdentity("alice", None, "t1")
    turn = [HumanMessage("I am a welder and allergic to shellfish."), AIMessage("Noted.")]
    with MemoryService(config, extractor=Broken(), register_atexit=False) as memory:  # type: ignore[arg-type]
        memory.enqueue(who, turn)
        memory.flush(timeout=30)
    (tmp_path / "dead_letters").unlink()  # the fault is gone
    with MemoryService(config, register_atexit=False) as memory:
        letters = memory.dead_letters()
        assert [letter.thread_id for letter in letters] == ["t1"]
        assert "model exploded" in letters[0].error
        # Retried with a working extractor (the offline one), the words are learned.
        assert [r.removed for r in memory.retry_dead_letters()] == [True]
        facts = [f.content for f in memory.load(who).facts]
        assert any("shellfish" in fact for fact in facts), facts
    with MemoryService(config, register_atexit=False) as memory:  # handed over once
        assert memory.dead_letters() == []
