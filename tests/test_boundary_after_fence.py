"""A repeat of the first keys a watermark records is not the boundary when nothing vouches for it.

After a delete, a thread's plain watermark starts again with the turn that
followed the fenced messages: its first keys have no recorded key before
them. An id-less exchange said again later keys as those (same texts, same
predecessor texts); only messages before it that the fence holds (as the
true one's are) make it the boundary.
"""

from __future__ import annotations

from pathlib import Path

from langchain_core.messages import AIMessage, BaseMessage, HumanMessage

from deerflow_memory import MemoryConfig, MemoryService
from deerflow_memory.identity import MemoryIdentity
from deerflow_memory.models import ExtractionWatermark
from deerflow_memory.update.incremental import select_new_messages, with_keys

BEFORE_DELETE = [HumanMessage("I'm allergic to peanuts."), AIMessage("Shall I save that?")]
CONSENT = [HumanMessage("yes"), AIMessage("Done.")]
NEW_TURN = [HumanMessage("I live in Oslo."), AIMessage("Shall I save that?")]


def keys(messages: list[BaseMessage]) -> list[str]:
    return with_keys(messages)[1]


def split(recorded: int) -> list[str]:
    """The new texts of the history re-sent after the repeat, with ``recorded`` keys kept."""
    earlier = [*BEFORE_DELETE, *CONSENT[:recorded]]
    fenced = set(keys(BEFORE_DELETE))
    mark = ExtractionWatermark(thread_id="t", message_keys=tuple(keys(earlier)[2:]))
    history = [*earlier, *NEW_TURN, *CONSENT[:recorded]]
    _, new = select_new_messages(with_keys(history)[0], mark, context_messages=0, fenced=fenced)
    return [str(m.content) for m in new]


def test_a_repeat_of_the_only_key_recorded_after_a_delete_hides_no_new_turn() -> None:
    assert "I live in Oslo." in split(recorded=1)


def test_a_repeat_of_the_two_keys_recorded_after_a_delete_hides_no_new_turn() -> None:
    assert "I live in Oslo." in split(recorded=2)


def test_the_turn_after_a_delete_is_still_the_boundary_when_nothing_is_repeated() -> None:
    for recorded in (1, 2):
        earlier = [*BEFORE_DELETE, *CONSENT[:recorded]]
        fenced = set(keys(BEFORE_DELETE))
        mark = ExtractionWatermark(thread_id="t", message_keys=tuple(keys(earlier)[2:]))
        history = [*earlier, HumanMessage("I have two kids.")]
        _, new = select_new_messages(with_keys(history)[0], mark, context_messages=0, fenced=fenced)
        assert [m.content for m in new] == ["I have two kids."]


def test_a_turn_before_a_repeated_consent_after_a_delete_is_learned(tmp_path: Path) -> None:
    # A client without a checkpointer re-sends the whole history, without ids.
    config = MemoryConfig(storage_path=tmp_path / "memory", debounce_seconds=3600)
    who = MemoryIdentity("eve", None, "t1")
    with MemoryService(config, register_atexit=False) as memory:
        memory.enqueue(who, BEFORE_DELETE)
        assert memory.flush(timeout=30)
        memory.clear_memory("eve")
        history = [*BEFORE_DELETE, *CONSENT]
        memory.enqueue(who, history)
        assert memory.flush(timeout=30)
        memory.enqueue(who, [*history, *NEW_TURN, *CONSENT])
        assert memory.flush(timeout=30)
        facts = [fact.content for fact in memory.load(who).facts]
    assert any("Oslo" in fact for fact in facts), facts
    assert not any("peanut" in fact for fact in facts), facts
