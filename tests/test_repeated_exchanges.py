"""Messages without ids: an exchange said again later is not taken for the one already extracted.

An id-less message keys as a hash of its text and its predecessor's text, so a
repeated "yes" / "Done." keys as the recorded one. The updater must not take
it for the end of what was extracted: the turns before it would never be learned.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from langchain_core.messages import AIMessage, BaseMessage, HumanMessage

from deerflow_memory import MemoryConfig, MemoryService
from deerflow_memory.identity import MemoryIdentity, resolve_identity
from deerflow_memory.models import MemoryDocument
from deerflow_memory.update.incremental import (
    advance_watermark,
    message_key,
    select_new_messages,
    watermark_for,
    with_keys,
)


def said(*texts: str) -> list[BaseMessage]:
    """User and assistant turns without ids, alternating, the user first."""
    return [
        (HumanMessage if k % 2 == 0 else AIMessage)(content=text) for k, text in enumerate(texts)
    ]


def keys_of(messages: list[BaseMessage]) -> list[str]:
    return with_keys(messages)[1]  # as the updater records them


def extracted(messages: list[BaseMessage]) -> MemoryDocument:
    return advance_watermark(MemoryDocument(), "t1", keys_of(messages), "2026-12-01T00:00:00Z")


Learned = Callable[..., list[str]]  # the ``learned`` fixture (tests/conftest.py)
FIRST = said("I'm allergic to peanuts.", "Shall I save that?", "yes", "Done.")


def test_a_new_turn_before_a_repeated_exchange_is_new() -> None:
    history = FIRST + said("I live in Oslo.", "Shall I save that?", "yes", "Done.")
    mark = watermark_for(extracted(FIRST), "t1")
    _, new = select_new_messages(with_keys(history)[0], mark, context_messages=0)
    # The new turn is sent; the repeated exchange after it is already recorded; the old
    # turn stays old.
    assert [m.content for m in new] == ["I live in Oslo.", "Shall I save that?"]


def test_a_history_that_only_grew_still_sends_only_what_is_new() -> None:
    history = FIRST + said("I live in Oslo.", "Noted.")
    mark = watermark_for(extracted(FIRST), "t1")
    context, new = select_new_messages(with_keys(history)[0], mark, context_messages=1)
    assert [m.content for m in new] == ["I live in Oslo.", "Noted."]
    assert [m.content for m in context] == ["Done."]


def test_a_conversation_ending_like_an_earlier_one_is_learned(learned: Learned) -> None:
    # Two conversations without a thread id share the "unknown" thread's watermark.
    who = resolve_identity({"configurable": {"user_id": "eve"}})  # no thread id
    closing = ("Please remember this for our next chat.", "Certainly, I will remember it.")
    facts = learned(
        who,
        said("I'm allergic to peanuts.", "Noted.", *closing),
        said("I work as a nurse.", "Got it.", *closing),
    )
    assert any("nurse" in fact for fact in facts), facts
    assert sum("peanut" in fact for fact in facts) == 1


def test_a_repeated_exchange_through_the_service_is_learned(learned: Learned) -> None:
    later = said("I live in Oslo.", "Shall I save that?", "yes", "Done.")
    facts = learned(MemoryIdentity("eve", None, "t1"), FIRST, FIRST + later)
    assert any("Oslo" in fact for fact in facts), facts
    assert sum("peanut" in fact for fact in facts) == 1


def test_after_a_delete_a_new_turn_before_a_repeated_exchange_is_learned(tmp_path: Path) -> None:
    # The delete's fence holds the old exchange's keys, in no order: a repeat of it is
    # not the end of what was said before the delete unless what precedes it is fenced too.
    config = MemoryConfig(storage_path=tmp_path, debounce_seconds=3600)
    who = MemoryIdentity("eve", None, "t1")
    later = said("I live in Oslo.", "Shall I save that?", "yes", "Done.")
    with MemoryService(config, register_atexit=False) as memory:
        memory.enqueue(who, FIRST)
        assert memory.flush(timeout=30)
        assert memory.clear_memory("eve")
        memory.enqueue(who, FIRST + later)
        assert memory.flush(timeout=30)
        facts = [fact.content for fact in memory.load(who).facts]
    assert any("Oslo" in fact for fact in facts), facts
    assert not any("peanut" in fact for fact in facts)  # said before the delete: not again


def test_a_repeat_of_the_oldest_key_a_full_watermark_kept_is_not_the_boundary() -> None:
    turns = [text for k in range(10) for text in (f"Step {k} is planned.", "Shall I go on?")]
    earlier = said(*turns)  # 20 messages: the watermark keeps the newest 16 keys
    mark = watermark_for(extracted(earlier), "t1")
    assert mark is not None and len(mark.message_keys) == 16
    oldest = with_keys(earlier)[0][4]  # the message whose key is the oldest kept
    assert message_key(oldest) == mark.message_keys[0]
    history = earlier + said("I live in Oslo.", "Noted.") + earlier[3:5]
    _, new = select_new_messages(with_keys(history)[0], mark, context_messages=0)
    assert "I live in Oslo." in [m.content for m in new]
