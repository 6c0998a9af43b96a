"""A delete fences every thread it knows of, however many; a retry sees a delete that ran meanwhile.

Plain watermarks are bounded (the least recently updated threads dropped
first). A delete's sealed marks are not: the bound would drop the fence of
threads beyond it, and a retry holding copies of their dead letters would
learn the cleared words again. A retry also reads its letters again under
the update lock before it calls the model: a letter removed meanwhile (its
memory cleared) runs no more.
"""

from __future__ import annotations

from typing import Any

from langchain_core.messages import AIMessage, HumanMessage

from deerflow_memory.models import ExtractionWatermark, MemoryDocument
from deerflow_memory.update.extraction import ExtractionRequest
from deerflow_memory.update.forget import fence
from deerflow_memory.update.incremental import MAX_THREADS, advance_watermark, with_keys
from deerflow_memory.update.offline.extractor import OfflineExtractor
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
    for t in range(MAX_THREADS + 10):
        document = advance_watermark(document, f"t{t}", [f"k{t}"], f"9{t:04}")
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
