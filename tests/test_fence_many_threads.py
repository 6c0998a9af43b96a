"""A delete fences every thread it knows of, however many; a retry sees a delete that ran meanwhile.

Plain watermarks are bounded (the least recently updated threads compacted,
then dropped). A delete's sealed marks are not: the bound would drop the fence of
threads beyond it, and a retry holding copies of their dead letters would
learn the cleared words again. A retry also reads its letters again under
the update lock before it calls the model: a letter removed meanwhile (its
memory cleared) runs no more.
"""

from __future__ import annotations

import threading
from pathlib import Path
from typing import Any

import pytest
from langchain_core.messages import AIMessage, HumanMessage

import deerflow_memory.update.dead_letter as dead_letter_module
from deerflow_memory import MemoryConfig, MemoryService
from deerflow_memory.models import ExtractionWatermark, MemoryDocument
from deerflow_memory.update.dead_letter import dead_letter_for
from deerflow_memory.update.extraction import ExtractionRequest
from deerflow_memory.update.forget import fence
from deerflow_memory.update.incremental import MAX_THREADS, advance_watermark, with_keys
from deerflow_memory.update.offline.extractor import OfflineExtractor
from deerflow_memory.update.queue import UpdateJob
from deerflow_memory.update.sealing import sealed_keys_for

THREADS = 250  # more than MAX_THREADS
KEY = b"k" * 32


def conversation(n: int) -> tuple[HumanMessage | AIMessage, ...]:
    return (HumanMessage(f"I have hobby number {n}.", id=f"h{n}"), AIMessage("Okay.", id=f"a{n}"))


class Recording:
    """The offline extractor, recording every user line sent."""

    def __init__(self) -> None:
        self.inner, self.sent = OfflineExtractor(), []

    def extract(self, request: ExtractionRequest) -> Any:
        self.sent += [str(m.content) for m in request.messages if m.type == "human"]
        return self.inner.extract(request)


def test_a_plain_update_never_drops_a_sealed_mark_however_many_threads_were_cleared() -> None:
    sealed = tuple(
        ExtractionWatermark(
            thread_id=f"s{i}", message_keys=("x",), updated_at=f"{i:04}", sealed=True
        )
        for i in range(THREADS)
    )
    document = MemoryDocument(extraction_watermarks=sealed)
    for t in range(MAX_THREADS + 10):  # no compact marks: the oldest plain ones are dropped
        document = advance_watermark(document, f"t{t}", [f"k{t}"], f"9{t:04}", max_compact=0)
    marks = document.extraction_watermarks
    assert sum(m.sealed for m in marks) == THREADS
    plain = [m.thread_id for m in marks if not m.sealed]
    assert len(plain) == MAX_THREADS and plain[-1] == f"t{MAX_THREADS + 9}"


def test_a_delete_fences_the_letters_of_every_thread() -> None:
    letters = [(f"t{n}", with_keys(list(conversation(n)))[1]) for n in range(THREADS)]
    fenced = fence(MemoryDocument(), [], KEY, letters=letters)
    for n in range(THREADS):
        found = sealed_keys_for(fenced, f"t{n}", KEY)
        assert found is not None, n
        assert all(key in found for key in letters[n][1])


def test_a_retry_holding_letters_of_many_threads_learns_nothing_of_a_memory_cleared_meanwhile(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    extractor = Recording()
    config = MemoryConfig(storage_path=tmp_path / "m", debounce_seconds=3600)
    with MemoryService(config, extractor=extractor, register_atexit=False) as memory:
        storage = memory.storage
        for n in range(THREADS):
            job = UpdateJob(f"t{n}", "ana", None, conversation(n))
            storage.put_dead_letter(dead_letter_for(job, "ModelCallError: 503", attempts=1))
        seen: dict[str, Any] = {}
        real_run = dead_letter_module._run

        def run(updater: Any, job: UpdateJob) -> Any:
            if "cleared" not in seen:  # the retry has read every letter: the clear runs now
                worker = threading.Thread(
                    target=lambda: seen.update(cleared=memory.clear_memory("ana"))
                )
                worker.start()
                worker.join(60)
            return real_run(updater, job)

        monkeypatch.setattr(dead_letter_module, "_run", run)
        outcomes = memory.retry_dead_letters(user_id="ana")

        assert seen["cleared"] is True
        assert len(outcomes) == THREADS and all(x.removed for x in outcomes)
        assert extractor.sent == []  # nothing cleared reached the model again
        document = storage.load("ana", None)
        assert document is None or document.facts == ()
        assert memory.dead_letters() == []


def test_a_letter_removed_while_a_retry_holds_it_is_not_run(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    extractor = Recording()
    config = MemoryConfig(storage_path=tmp_path / "m", debounce_seconds=3600)
    with MemoryService(config, extractor=extractor, register_atexit=False) as memory:
        storage = memory.storage
        job = UpdateJob("t1", "ana", None, conversation(1))
        letter = dead_letter_for(job, "ModelCallError: 503", attempts=1)
        storage.put_dead_letter(letter)
        real_run = dead_letter_module._run

        def run(updater: Any, job: UpdateJob) -> Any:
            storage.delete_dead_letter(letter.id)  # dropped by hand while the retry held it
            return real_run(updater, job)

        monkeypatch.setattr(dead_letter_module, "_run", run)
        [outcome] = memory.retry_dead_letters()

        assert outcome.left is None and not outcome.unrunnable
        assert extractor.sent == []
        assert memory.dead_letters() == []
