"""A second outbox dead letter of one key is merged into the first, never replacing it."""

from __future__ import annotations

from pathlib import Path

from langchain_core.messages import AIMessage, HumanMessage

from deerflow_memory import MemoryConfig, MemoryService
from deerflow_memory.identity import MemoryIdentity


class Broken:
    def extract(self, request: object) -> object:
        raise RuntimeError("model down")


def test_two_failed_turns_of_a_thread_without_history_are_both_kept_and_learned(
    tmp_path: Path,
) -> None:
    config = MemoryConfig(storage_path=tmp_path / "memory", debounce_seconds=3600)
    who = MemoryIdentity("eve", None, "unknown")  # no thread id: each capture is its own turn
    said = ["I'm allergic to peanuts.", "I live in Oslo."]
    with MemoryService(config, extractor=Broken(), register_atexit=False) as failing:  # type: ignore[arg-type]
        for text in said:
            failing.enqueue(who, [HumanMessage(text), AIMessage("Noted.")])
            assert [f.outcome for f in failing.flush(timeout=30).failed] == ["dead_letter"]
        [letter] = failing.dead_letters("eve")
        assert [m["data"]["content"] for m in letter.messages] == [
            said[0],
            "Noted.",
            said[1],
            "Noted.",
        ]
        assert letter.attempts >= 2
    with MemoryService(config, register_atexit=False) as memory:
        [retried] = memory.retry_dead_letters()
        assert retried.removed, retried.result
        facts = " ".join(f.content for f in memory.load(who).facts)
    assert "peanut" in facts and "Oslo" in facts, facts
