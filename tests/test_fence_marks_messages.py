"""A delete's fence marks the messages it holds as old, one by one: never what came before them.

A client that numbers its messages per session ("m1", "m2", … again on the
same thread id) or a new session that repeats lines of the old one word for
word sends messages whose keys (id and text) the fence holds, after or around
what the user says anew. Those words are learned; only the fenced messages
themselves (said before the delete) are not. A fence holds a thread's newest
keys only: for a thread longer than that, a whole run of fenced messages
still stands for the older ones before it.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from langchain_core.messages import AIMessage, BaseMessage, HumanMessage

from deerflow_memory import MemoryConfig, MemoryIdentity, MemoryService
from deerflow_memory.errors import ModelCallError
from deerflow_memory.models import MemoryUpdate
from deerflow_memory.update.extraction import ExtractionRequest
from deerflow_memory.update.incremental import (
    MAX_KEYS_PER_THREAD,
    select_new_messages,
    with_keys,
)
from deerflow_memory.update.offline.extractor import OfflineExtractor

WHO = MemoryIdentity("alice", None, "t1")
OLD = ("I live in Oslo.", "I am a vegetarian.")  # said before the delete


def session(*texts: str, ids: bool = True, reply: str = "Noted.") -> list[BaseMessage]:
    """One session: each text and the reply to it, numbered m1, m2, … from the start."""
    history: list[BaseMessage] = []
    for text in texts:
        n = len(history)
        history += [
            HumanMessage(text, id=f"m{n + 1}" if ids else None),
            AIMessage(reply, id=f"m{n + 2}" if ids else None),
        ]
    return history


class Switch:
    """The offline extractor, failing for good (ModelCallError) while ``down``."""

    def __init__(self) -> None:
        self.inner, self.down = OfflineExtractor(), False
        self.sent: list[str] = []

    def extract(self, request: ExtractionRequest) -> MemoryUpdate:
        if self.down:
            raise ModelCallError("model down")
        self.sent += [str(m.content) for m in request.messages]
        return self.inner.extract(request)


def service(path: Path, extractor: Switch) -> MemoryService:
    config = MemoryConfig(storage_path=path, debounce_seconds=3600)
    return MemoryService(config, extractor=extractor, register_atexit=False)


def facts(memory: MemoryService) -> list[str]:
    return [f.content for f in memory.load(WHO).facts]


def cleared_after(memory: MemoryService, old: list[BaseMessage]) -> None:
    memory.enqueue(WHO, old)
    assert memory.flush(timeout=30)
    assert any("Oslo" in f for f in facts(memory))
    assert memory.clear_memory("alice") is True


def assert_learned_only_the_new(learned: list[str], *new: str) -> None:
    for word in new:
        assert any(word in f for f in learned), (word, learned)
    assert not any("Oslo" in f or "vegetarian" in f for f in learned), learned


@pytest.mark.parametrize("ids", [True, False], ids=["ids per session", "id-less"])
def test_a_new_session_reusing_the_ids_of_a_cleared_one_has_its_new_facts_learned(
    tmp_path: Path, ids: bool
) -> None:
    extractor = Switch()
    with service(tmp_path / "m", extractor) as memory:
        cleared_after(memory, session(*OLD, ids=ids))
        # m2 and m4 are "Noted." again: the same id and text as before the delete.
        memory.enqueue(WHO, session("I'm allergic to peanuts.", "I work as a nurse.", ids=ids))
        assert memory.flush(timeout=30)
        assert_learned_only_the_new(facts(memory), "peanuts", "nurse")


@pytest.mark.parametrize("ids", [True, False], ids=["ids per session", "id-less"])
def test_old_lines_repeated_word_for_word_after_a_new_fact_hide_nothing_and_are_not_learned(
    tmp_path: Path, ids: bool
) -> None:
    extractor = Switch()
    with service(tmp_path / "m", extractor) as memory:
        cleared_after(memory, session(*OLD, ids=ids))
        extractor.sent.clear()
        # The old session's last exchange said again (at the same ids), between new facts.
        again = session("I'm allergic to peanuts.", OLD[1], "I work as a nurse.", ids=ids)
        memory.enqueue(WHO, again)
        assert memory.flush(timeout=30)
        assert_learned_only_the_new(facts(memory), "peanuts", "nurse")
        assert OLD[1] not in extractor.sent  # the fenced line was not sent again


def test_a_dead_letter_of_a_new_session_after_the_delete_keeps_and_learns_its_new_facts(
    tmp_path: Path,
) -> None:
    extractor = Switch()
    with service(tmp_path / "m", extractor) as memory:
        cleared_after(memory, session(*OLD))
        extractor.down = True
        again = session("I'm allergic to peanuts.", OLD[1], "I work as a nurse.")
        memory.enqueue(WHO, again)
        memory.flush(timeout=30)
        [letter] = memory.dead_letters()
        kept = [m["data"]["content"] for m in letter.messages]
        assert "I'm allergic to peanuts." in kept
        extractor.down = False
        extractor.sent.clear()
        [outcome] = memory.retry_dead_letters()
        assert outcome.removed
        assert_learned_only_the_new(facts(memory), "peanuts", "nurse")
        assert OLD[1] not in extractor.sent


def test_a_copy_of_a_letter_run_after_the_delete_learns_only_what_the_fence_does_not_hold(
    tmp_path: Path,
) -> None:
    # The retry's own path (a letter's messages, watermark bypassed) takes the fence the same way.
    from deerflow_memory.update.queue import UpdateJob

    extractor = Switch()
    with service(tmp_path / "m", extractor) as memory:
        cleared_after(memory, session(*OLD))
        again = session("I'm allergic to peanuts.", OLD[1], "I work as a nurse.")
        job = UpdateJob("t1", "alice", None, tuple(again))
        memory.updater.update(job, incremental=False)
        assert_learned_only_the_new(facts(memory), "peanuts", "nurse")


def test_a_thread_longer_than_its_fence_going_on_after_the_delete_learns_only_the_new_turn(
    tmp_path: Path,
) -> None:
    extractor = Switch()
    with service(tmp_path / "m", extractor) as memory:
        old = [*session(*OLD), *long_session(20)[4:]]  # 40 messages: the fence keeps 16
        cleared_after(memory, old)
        extractor.sent.clear()
        new = [HumanMessage("I work as a nurse.", id="m41"), AIMessage("Noted.", id="m42")]
        memory.enqueue(WHO, [*old, *new])
        assert memory.flush(timeout=30)
        assert_learned_only_the_new(facts(memory), "nurse")
        assert extractor.sent == ["I work as a nurse.", "Noted."]


# --- the selection itself --------------------------------------------------------------------


def texts(messages: list[BaseMessage]) -> list[str]:
    return [str(m.content) for m in messages]


def long_session(turns: int) -> list[BaseMessage]:
    return session(*(f"I have hobby number {i}." for i in range(turns)), reply="Okay.")


def fence_of(messages: list[BaseMessage]) -> set[str]:
    """What a delete keeps of a thread: its newest keys, at most MAX_KEYS_PER_THREAD."""
    return set(with_keys(messages)[1][-MAX_KEYS_PER_THREAD:])


def test_a_few_fenced_messages_are_old_one_by_one_and_cut_off_nothing() -> None:
    old = session(*OLD)
    new = session("I'm allergic to peanuts.", OLD[1])  # m2, m3, m4 as before the delete
    _, sent = select_new_messages(with_keys(new)[0], None, context_messages=0, fenced=fence_of(old))
    assert texts(sent) == ["I'm allergic to peanuts."]


def test_a_whole_run_of_a_full_fence_stands_for_the_older_messages_before_it() -> None:
    old = long_session(20)  # 40 messages: the fence holds the newest 16
    history = [*old, *session("I work as a nurse.")[:1]]
    history[-1] = history[-1].model_copy(update={"id": "m41"})
    _, sent = select_new_messages(
        with_keys(history)[0], None, context_messages=0, fenced=fence_of(old)
    )
    assert texts(sent) == ["I work as a nurse."]


def test_a_short_run_of_a_full_fence_in_a_new_session_cuts_off_nothing() -> None:
    old = long_session(20)
    # A new session on the thread, numbered from m1 again: m27..m30 happen to read as before.
    new = session(*(f"I like sport number {i}." for i in range(15)), reply="Okay.")
    new[24:28] = old[24:28]
    _, sent = select_new_messages(with_keys(new)[0], None, context_messages=0, fenced=fence_of(old))
    assert "I like sport number 0." in texts(sent)
    assert not set(texts(sent)) & {str(m.content) for m in old[24:28] if m.type == "human"}


def test_an_id_the_fence_holds_with_other_text_is_new_before_a_run() -> None:
    old = long_session(20)
    history = [*old, *session("I work as a nurse.")[:1]]
    history[-1] = history[-1].model_copy(update={"id": "m41"})
    history[0] = HumanMessage("I'm allergic to peanuts.", id="m1")  # m1 edited since
    fenced = fence_of(old) | set(with_keys(old)[1][:1])  # the fence still holds m1's old key
    _, sent = select_new_messages(with_keys(history)[0], None, context_messages=0, fenced=fenced)
    assert texts(sent) == ["I'm allergic to peanuts.", "I work as a nurse."]


def test_a_sealed_fence_tells_a_fenced_message_from_its_id_reused_with_other_text() -> None:
    from deerflow_memory.models import ExtractionWatermark, MemoryDocument
    from deerflow_memory.update.sealing import seal, seal_watermarks, sealed_keys_for

    key = b"k" * 32
    old = session(*OLD)
    _, keys = with_keys(old)
    mark = ExtractionWatermark(thread_id="t1", message_keys=tuple(keys), updated_at="1")
    sealed = seal_watermarks(MemoryDocument(extraction_watermarks=(mark,)), key)
    fence = sealed_keys_for(sealed, "t1", key)
    assert fence is not None and not fence.full
    reused = HumanMessage("I'm allergic to peanuts.", id="m1")
    assert keys[0] in fence and fence.holds_id("m1")
    assert with_keys([reused])[1][0] not in fence
    _, sent = select_new_messages([reused, old[1]], None, context_messages=0, fenced=fence)
    assert texts(sent) == ["I'm allergic to peanuts."]
    # A fence written before ids were sealed (each key's seal alone) still matches its keys.
    before = mark.model_copy(
        update={
            "thread_id": seal(key, "t1"),
            "message_keys": tuple(seal(key, k) for k in keys),
            "sealed": True,
        }
    )
    older = sealed_keys_for(MemoryDocument(extraction_watermarks=(before,)), "t1", key)
    assert older is not None and keys[1] in older and not older.holds_id("m2")
