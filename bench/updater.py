"""One memory update without the model call: parse + apply + durable save, 200-fact document.

Target (SPEC §14): ≤ 3 ms median. Also reports each step alone and the whole
``MemoryUpdater.update`` (filter, load, parse, apply, tidy, save) with an extractor
that parses a canned answer instead of calling a model, at 50 / 200 / 1,000 /
5,000 facts (issue 10: ≤ 3 ms at 200, ≤ 10 ms at 5,000). The file backend's
save appends to the journal and fsyncs it; compactions (whole ``memory.json``
rewrites) happen within the runs and are part of the figures.

Run: ``python bench/updater.py``
"""

from __future__ import annotations

import json
import os
import statistics
import tempfile
import time

from langchain_core.messages import AIMessage, HumanMessage

from deerflow_memory.config import MemoryConfig
from deerflow_memory.models import (
    Fact,
    FactCategory,
    MemoryDocument,
    MemoryUpdate,
    Section,
    UserContext,
)
from deerflow_memory.storage.file import FileMemoryStorage
from deerflow_memory.update.apply import apply_update
from deerflow_memory.update.extraction import ExtractionRequest
from deerflow_memory.update.prompt import parse_update
from deerflow_memory.update.queue import UpdateJob
from deerflow_memory.update.updater import MemoryUpdater, UpdateStatus

ITERATIONS = 300
CATEGORIES = list(FactCategory)


def document_with_facts(n: int) -> MemoryDocument:
    facts = tuple(
        Fact(
            content=f"Fact number {i}: the user prefers option {i} for recurring task {i % 17}",
            category=CATEGORIES[i % len(CATEGORIES)],
            confidence=0.7 + (i % 30) / 100,
            source=f"thread-{i % 40}",
        )
        for i in range(n)
    )
    user = UserContext(
        work_context=Section(summary="Data engineer at Acme, builds pipelines in Python.")
    )
    return MemoryDocument(user=user, facts=facts)


def answer_for(document: MemoryDocument, k: int) -> str:
    """A realistic model answer: a section rewrite, 3 new facts, 2 removals of stored ids."""
    return json.dumps(
        {
            "user": {
                "topOfMind": {"summary": f"Working on migration step {k}.", "shouldUpdate": True}
            },
            "history": {},
            "newFacts": [
                {
                    "content": f"New fact {k}-{j} about the user",
                    "category": "preference",
                    "confidence": 0.9,
                }
                for j in range(3)
            ],
            "factsToRemove": [{"id": f.id, "reason": "outdated"} for f in document.facts[:2]],
        }
    )


def stats(samples: list[float]) -> str:
    p95 = statistics.quantiles(samples, n=20)[18]
    return f"median {statistics.median(samples):6.3f}  p95 {p95:6.3f}"


def bench_steps(root: str) -> None:
    storage = FileMemoryStorage(root)
    storage.save("alice", None, document_with_facts(200))
    parse_ms: list[float] = []
    apply_ms: list[float] = []
    save_ms: list[float] = []
    total_ms: list[float] = []
    for k in range(ITERATIONS):
        document = storage.load("alice")
        text = answer_for(document, k)
        t0 = time.perf_counter()
        update = parse_update(text)
        t1 = time.perf_counter()
        new = apply_update(document, update, thread_id="t", now="2026-07-01T10:00:00Z")
        t2 = time.perf_counter()
        storage.save("alice", None, new, expected_revision=document.revision)
        t3 = time.perf_counter()
        parse_ms.append((t1 - t0) * 1000)
        apply_ms.append((t2 - t1) * 1000)
        save_ms.append((t3 - t2) * 1000)
        total_ms.append((t3 - t0) * 1000)
    facts = len(storage.load("alice").facts)
    print(f"steps on a {facts}-fact document (ms):")
    print(f"  parse               {stats(parse_ms)}")
    print(f"  apply               {stats(apply_ms)}")
    print(f"  durable save        {stats(save_ms)}")
    print(f"  parse+apply+save    {stats(total_ms)}")


class CannedExtractor:
    """Parses a prepared answer: everything an update does except the model call."""

    def __init__(self) -> None:
        self.text = ""

    def extract(self, request: ExtractionRequest) -> MemoryUpdate:
        return parse_update(self.text)


def bench_updater(root: str) -> None:
    storage = FileMemoryStorage(root)
    storage.save("bob", None, document_with_facts(200))
    extractor = CannedExtractor()
    updater = MemoryUpdater(storage, extractor)
    messages = (HumanMessage(content="I moved to Lyon last month."), AIMessage(content="Noted!"))
    samples: list[float] = []
    for k in range(ITERATIONS):
        extractor.text = answer_for(storage.load("bob"), k)
        t0 = time.perf_counter()
        result = updater.update(UpdateJob(f"thread-{k}", "bob", None, messages))
        samples.append((time.perf_counter() - t0) * 1000)
        assert result.status is UpdateStatus.SAVED, result
    print(f"  MemoryUpdater.update without the model call {stats(samples)}")


def bench_sizes(root: str, sizes: tuple[int, ...] = (50, 200, 1000, 5000)) -> None:
    """The whole ``MemoryUpdater.update`` (no model) at several document sizes (issue 10)."""
    print("MemoryUpdater.update without the model call, file backend, fsync on (ms):")
    for n in sizes:
        storage = FileMemoryStorage(root)
        user = f"size-{n}"
        storage.save(user, None, document_with_facts(n))
        extractor = CannedExtractor()
        config = MemoryConfig(max_facts=n + 10_000, max_new_facts_per_update=50)
        updater = MemoryUpdater(storage, extractor, config)
        iterations = max(60, min(ITERATIONS, 60_000 // n))
        samples: list[float] = []
        for k in range(iterations):
            messages = (
                HumanMessage(content=f"I moved to Lyon {k} months ago.", id=f"h{k}"),
                AIMessage(content="Noted!", id=f"a{k}"),
            )
            extractor.text = answer_for(storage.load(user), k)
            t0 = time.perf_counter()
            result = updater.update(UpdateJob("thread-1", user, None, messages))
            samples.append((time.perf_counter() - t0) * 1000)
            assert result.status is UpdateStatus.SAVED, result
        print(f"  {n:5d} facts  {stats(samples)}  ({iterations} updates)")
    print("targets (issue 10): ≤ 3 ms median at 200 facts, ≤ 10 ms at 5,000")


def main() -> None:
    if hasattr(os, "getloadavg"):
        print("load average (1, 5, 15 min): {:.2f} {:.2f} {:.2f}".format(*os.getloadavg()))
    with tempfile.TemporaryDirectory() as root:
        bench_steps(root)
        bench_updater(root)
        bench_sizes(root)
    print("target: ≤ 3 ms median for parse + apply + durable save")


if __name__ == "__main__":
    main()
