"""A thread the memory has read is never read again in full because many newer threads came after.

The :data:`MAX_THREADS` most recently updated threads keep their watermark
whole; the :data:`MAX_COMPACT_THREADS` before them keep a compact mark (their
newest keys only), which still ends what was extracted. So a user with
hundreds of conversations who reopens an old one has only its new messages
sent ("I live in Berlin" said there never overrides a later "Munich now"),
and a delete fences the old threads too. Only threads older than all those
lose their mark.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from langchain_core.messages import AIMessage, BaseMessage, HumanMessage

from deerflow_memory import MemoryConfig, MemoryIdentity, MemoryService
from deerflow_memory.models import ExtractionWatermark, MemoryDocument, MemoryUpdate
from deerflow_memory.update.extraction import ExtractionRequest
from deerflow_memory.update.forget import fence
from deerflow_memory.update.import_check import import_onto, read_import
from deerflow_memory.update.incremental import (
    COMPACT_KEYS,
    MAX_COMPACT_THREADS,
    MAX_KEYS_PER_THREAD,
    MAX_THREADS,
    advance_watermark,
    select_new_messages,
    watermark_for,
    with_keys,
)
from deerflow_memory.update.offline.extractor import OfflineExtractor
from deerflow_memory.update.sealing import sealed_keys_for

KEY = b"k" * 32
NEWER = MAX_THREADS + 5  # threads updated after the old one: more than keep a whole watermark


class Recording:
    """The offline extractor, recording every message text sent to the model."""

    def __init__(self) -> None:
        self.inner = OfflineExtractor()
        self.sent: list[str] = []

    def extract(self, request: ExtractionRequest) -> MemoryUpdate:
        self.sent += [str(m.content) for m in request.messages]
        return self.inner.extract(request)


def who(thread: str) -> MemoryIdentity:
    return MemoryIdentity("alice", None, thread)


def chat(name: str, *texts: str, ids: bool = True) -> list[BaseMessage]:
    """Each text and a reply to it (ids ``{name}-1``, ``{name}-2``, … or none)."""
    history: list[BaseMessage] = []
    for text in texts:
        n = len(history)
        history += [
            HumanMessage(text, id=f"{name}-{n + 1}" if ids else None),
            AIMessage(f"Noted ({n // 2}).", id=f"{name}-{n + 2}" if ids else None),
        ]
    return history


# Long enough that a compact mark drops keys of it (more than COMPACT_KEYS messages).
OLD = ("I live in Berlin.", "I'm allergic to peanuts.", "What a day.", "Good night.")


def facts(memory: MemoryService) -> list[str]:
    return [f.content for f in memory.load(who("any")).facts]


def newer_threads(memory: MemoryService, count: int = NEWER) -> None:
    for n in range(count):
        memory.enqueue(who(f"chat{n}"), chat(f"c{n}", f"Tell me joke number {n}."))
        if n % 50 == 49:
            assert memory.flush(timeout=60)
    assert memory.flush(timeout=60)


@pytest.mark.parametrize("ids", [True, False], ids=["ids", "id-less"])
def test_an_old_thread_reopened_after_hundreds_of_newer_ones_sends_only_its_new_messages(
    tmp_path: Path, ids: bool
) -> None:
    extractor = Recording()
    config = MemoryConfig(storage_path=tmp_path / "m", debounce_seconds=3600)
    with MemoryService(config, extractor=extractor, register_atexit=False) as memory:
        old = chat("o", *OLD, ids=ids)
        memory.enqueue(who("old"), old)
        assert memory.flush(timeout=30)
        memory.enqueue(who("move"), chat("v", "I moved, I live in Munich now."))
        assert memory.flush(timeout=30)
        assert any("Munich" in f for f in facts(memory))
        newer_threads(memory)
        mark = watermark_for(memory.storage.load("alice", None), "old")
        assert mark is not None and mark.truncated and len(mark.message_keys) <= COMPACT_KEYS

        extractor.sent.clear()
        reopened = chat("o", *OLD, "Thanks, and I have a dog named Rex.", ids=ids)
        memory.enqueue(who("old"), reopened)
        assert memory.flush(timeout=30)

        assert not any(text in extractor.sent for text in OLD)  # nothing old read again
        assert "Thanks, and I have a dog named Rex." in extractor.sent
        learned = facts(memory)
        assert any("Munich" in f for f in learned), learned
        assert not any("Berlin" in f for f in learned), learned
        assert any("Rex" in f for f in learned), learned


@pytest.mark.parametrize("ids", [True, False], ids=["ids", "id-less"])
def test_a_clear_after_hundreds_of_threads_fences_the_older_ones_too(
    tmp_path: Path, ids: bool
) -> None:
    extractor = Recording()
    config = MemoryConfig(storage_path=tmp_path / "m", debounce_seconds=3600)
    with MemoryService(config, extractor=extractor, register_atexit=False) as memory:
        memory.enqueue(who("first"), chat("f", *OLD, ids=ids))
        assert memory.flush(timeout=30)
        memory.enqueue(who("short"), chat("s", "I play the cello."))
        assert memory.flush(timeout=30)
        newer_threads(memory)
        assert memory.clear_memory("alice") is True

        extractor.sent.clear()
        memory.enqueue(who("first"), chat("f", *OLD, "By the way, I have a dog.", ids=ids))
        memory.enqueue(who("short"), chat("s", "I play the cello.", "I also sing."))
        assert memory.flush(timeout=30)

        assert not any(text in extractor.sent for text in (*OLD, "I play the cello."))
        learned = facts(memory)
        assert not any(w in f for f in learned for w in ("Berlin", "peanuts", "cello")), learned
        assert any("dog" in f for f in learned) and any("sing" in f for f in learned), learned


def test_a_document_of_thousands_of_threads_stays_bounded() -> None:
    threads = MAX_THREADS + MAX_COMPACT_THREADS + 300
    document = MemoryDocument()
    for t in range(threads):
        keys = [f"{t:08}-0000-4000-8000-{i:012}~{i:012x}" for i in range(20)]
        document = advance_watermark(
            document, f"{t:08}-1111-4000-8000-000000000000", keys, f"{t:06}"
        )
    marks = document.extraction_watermarks
    assert len(marks) == MAX_THREADS + MAX_COMPACT_THREADS  # the oldest 300 dropped
    assert marks[0].thread_id.startswith(f"{300:08}")
    whole, compact = marks[-MAX_THREADS:], marks[:-MAX_THREADS]
    assert all(len(m.message_keys) == MAX_KEYS_PER_THREAD and not m.truncated for m in whole)
    assert all(m.truncated and len(m.message_keys) <= COMPACT_KEYS for m in compact)
    # 36-character thread and message ids: a compact mark costs about 300 bytes of memory.json.
    per_mark = (
        len(document.to_json())
        - len(document.model_copy(update={"extraction_watermarks": whole}).to_json())
    ) / MAX_COMPACT_THREADS
    assert per_mark < 320, per_mark


def keyed(messages: list[BaseMessage]) -> list[str]:
    return with_keys(messages)[1]


def pushed_out(document: MemoryDocument) -> MemoryDocument:
    for n in range(MAX_THREADS):
        document = advance_watermark(document, f"other{n}", [f"x{n}~{n:012x}"], f"9{n:05}")
    return document


@pytest.mark.parametrize("ids", [True, False], ids=["ids", "id-less"])
def test_a_compact_mark_still_ends_what_was_extracted(ids: bool) -> None:
    old = chat("o", *OLD, ids=ids)
    document = pushed_out(advance_watermark(MemoryDocument(), "old", keyed(old), "0"))
    mark = watermark_for(document, "old")
    assert mark is not None and mark.truncated and len(mark.message_keys) < len(old)

    reopened, keys = with_keys(chat("o", *OLD, "I have a dog.", ids=ids))
    _, new = select_new_messages(reopened, mark, keys=keys)
    assert [m.content for m in new] == ["I have a dog.", "Noted (4)."]


def test_a_compact_mark_lines_up_with_a_history_re_sent_under_new_ids() -> None:
    old = chat("o", *OLD)
    document = pushed_out(advance_watermark(MemoryDocument(), "old", keyed(old), "0"))
    mark = watermark_for(document, "old")
    assert mark is not None and mark.truncated
    # Without a checkpointer, LangGraph gives the re-sent messages new random ids.
    again = [m.model_copy(update={"id": f"new-{i}"}) for i, m in enumerate(chat("o", *OLD, "Hi."))]
    _, new = select_new_messages(again, mark)
    assert [m.content for m in new] == ["Hi.", "Noted (4)."]


def test_a_compact_mark_reopened_stays_truncated_until_it_holds_a_whole_watermark() -> None:
    old = chat("o", *OLD)
    document = pushed_out(advance_watermark(MemoryDocument(), "old", keyed(old), "0"))
    document = advance_watermark(document, "old", ["o-9~00000000000a"], "99")
    mark = watermark_for(document, "old")
    assert mark is not None and mark.truncated and mark.message_keys[-1] == "o-9~00000000000a"
    more = [f"o-{n}~{n:012x}" for n in range(10, 10 + MAX_KEYS_PER_THREAD)]
    mark = watermark_for(advance_watermark(document, "old", more, "999"), "old")
    assert mark is not None and not mark.truncated
    assert len(mark.message_keys) == MAX_KEYS_PER_THREAD


@pytest.mark.parametrize("ids", [True, False], ids=["ids", "id-less"])
def test_the_fence_of_a_compact_mark_stands_for_the_older_messages_of_its_thread(
    ids: bool,
) -> None:
    old = chat("o", *OLD, ids=ids)
    document = pushed_out(advance_watermark(MemoryDocument(), "old", keyed(old), "0"))
    fenced = fence(document, [], KEY)
    sealed = sealed_keys_for(fenced, "old", KEY)
    assert sealed is not None and sealed.full

    reopened = chat("o", *OLD, "I have a dog.", ids=ids)
    _, new = select_new_messages(reopened, None, fenced=sealed, keys=keyed(reopened))
    assert [m.content for m in new] == ["I have a dog.", "Noted (4)."]


def test_a_second_clear_after_a_thread_went_compact_fences_what_it_said_between_the_clears() -> (
    None
):
    first = chat("o", "I live in Berlin.")
    document = fence(advance_watermark(MemoryDocument(), "old", keyed(first), "0"), [], KEY)
    # After the first clear the thread goes on (its fence is the start of it), is pushed out…
    between = chat("o", "I live in Berlin.", *OLD[1:], "I work as a nurse.")
    document = advance_watermark(document, "old", keyed(between)[2:], "1")
    document = pushed_out(document)
    mark = watermark_for(document, "old")
    assert mark is not None and mark.truncated
    # … and the memory is cleared again: what was said between the clears is fenced too.
    sealed = sealed_keys_for(fence(document, [], KEY), "old", KEY)
    assert sealed is not None
    reopened = [*between, *chat("z", "I have a dog.")]
    _, new = select_new_messages(reopened, None, fenced=sealed, keys=keyed(reopened))
    assert [m.content for m in new] == ["I have a dog.", "Noted (0)."]


def test_a_second_clear_after_a_compact_mark_was_fenced_still_stands_for_its_older_messages() -> (
    None
):
    old = chat("o", *OLD)
    # The thread went compact before the first clear: its fence holds only its newest keys…
    document = fence(
        pushed_out(advance_watermark(MemoryDocument(), "old", keyed(old), "0")), [], KEY
    )
    # … the thread goes on, and the memory is cleared again: the fence of both is still partial.
    between = chat("o", *OLD, "I work as a nurse.")
    document = advance_watermark(document, "old", keyed(between)[len(old) :], "1")
    sealed = sealed_keys_for(fence(document, [], KEY), "old", KEY)
    assert sealed is not None and sealed.full
    reopened = [*between, *chat("z", "I have a dog.")]
    _, new = select_new_messages(reopened, None, fenced=sealed, keys=keyed(reopened))
    assert [m.content for m in new] == ["I have a dog.", "Noted (0)."]


def test_compact_marks_round_trip_through_json_export_and_import() -> None:
    old = chat("o", *OLD)
    document = pushed_out(advance_watermark(MemoryDocument(), "old", keyed(old), "0"))
    text = document.to_json()
    data = json.loads(text)
    [stored] = [m for m in data["extractionWatermarks"] if m["threadId"] == "old"]
    assert stored["truncated"] is True
    assert all("truncated" not in m for m in data["extractionWatermarks"] if m is not stored)

    assert MemoryDocument.from_json(text) == document
    imported = import_onto(MemoryDocument(), read_import(text.encode(), name="export"))
    assert watermark_for(imported, "old") == watermark_for(document, "old")


def test_a_mark_written_before_compact_marks_loads_as_a_whole_one() -> None:
    data = {"extractionWatermarks": [{"threadId": "t", "messageKeys": ["a"], "updatedAt": "1"}]}
    [mark] = MemoryDocument.from_json(json.dumps(data)).extraction_watermarks
    assert mark == ExtractionWatermark(thread_id="t", message_keys=("a",), updated_at="1")
    assert not mark.truncated
