"""Benchmark the storage backends side by side: inject-path read and update write latency.

Run: ``python bench/store.py`` (1,000 users x 100 facts) or
``python bench/store.py --users 100 --facts 20`` for a quick run.

Backends: file, InMemoryStore, SqliteStore and PostgreSQL (a throwaway server
started with tests/pg.py, or ``DEERFLOW_MEMORY_TEST_PG_DSN``; skipped with a
note when neither works). Each backend is populated once, then for a random
sample of users (one warm-up pass first, as for users active in a session):

- ``load``: ``storage.load(user)``;
- ``inject``: ``load`` + ``format_memory_for_injection`` — what the inject node does;
- ``update``: ``save`` of the loaded document plus one new fact, with the revision check.

Figures are median and p95 in milliseconds; nothing here is asserted.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import tempfile
import time
import uuid
from collections.abc import Callable, Iterator
from contextlib import ExitStack, contextmanager
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from langgraph.store.memory import InMemoryStore

from deerflow_memory.config import MemoryConfig
from deerflow_memory.models import (
    Fact,
    FactCategory,
    MemoryDocument,
    Section,
    UserContext,
)
from deerflow_memory.storage.base import MemoryStorage
from deerflow_memory.storage.factory import open_storage
from deerflow_memory.storage.file import FileMemoryStorage
from deerflow_memory.storage.store import StoreMemoryStorage

try:
    from deerflow_memory.inject.format import format_memory_for_injection
except ImportError:  # injection not available: measure the load alone
    format_memory_for_injection = None  # type: ignore[assignment]

_TEXTS = [
    "Prefers concise answers with code examples",
    "Works as a backend engineer on payment systems",
    "Is allergic to peanuts and does not eat seafood",
    "喜欢简洁的回答，最好带代码示例",
    "计划明年春天搬到里斯本",
    "Runs a half marathon every October",
]


def make_document(user: int, n_facts: int, rng: random.Random) -> MemoryDocument:
    categories = list(FactCategory)
    facts = tuple(
        Fact(
            content=f"{rng.choice(_TEXTS)} (#{user}-{i})",
            category=categories[i % len(categories)],
            confidence=round(rng.uniform(0.5, 1.0), 2),
            source=f"thread-{user}",
        )
        for i in range(n_facts)
    )
    user_context = UserContext(work_context=Section(summary=f"User {user} builds agents."))
    return MemoryDocument(user=user_context, facts=facts)


@contextmanager
def backends(root: Path, skipped: list[str]) -> Iterator[list[tuple[str, MemoryStorage]]]:
    """Yield (name, storage) for every backend that can run here."""
    with ExitStack() as stack:
        found: list[tuple[str, MemoryStorage]] = [
            ("file", FileMemoryStorage(root / "files")),
            ("inmemory", StoreMemoryStorage(InMemoryStore())),
        ]
        sqlite_config = MemoryConfig(storage="sqlite", storage_path=root / "memory.sqlite")
        found.append(("sqlite", stack.enter_context(open_storage(sqlite_config))))
        try:
            from tests.pg import PostgresUnavailable, shared_postgres

            try:
                dsn = shared_postgres().dsn
                pg_config = MemoryConfig(storage="postgres", storage_dsn=dsn)
                prefix = ("dfm_bench", uuid.uuid4().hex)
                pg = stack.enter_context(open_storage(pg_config, namespace_prefix=prefix))
                found.append(("postgres", pg))
            except PostgresUnavailable as e:
                skipped.append(f"postgres: {e}")
        except ImportError as e:
            skipped.append(f"postgres: {e}")
        yield found


def timed(fn: Callable[[], object]) -> float:
    start = time.perf_counter()
    fn()
    return (time.perf_counter() - start) * 1000.0


def summary(samples: list[float]) -> str:
    p95 = statistics.quantiles(samples, n=20)[18] if len(samples) >= 20 else max(samples)
    return f"{statistics.median(samples):8.3f} {p95:8.3f}"


def run(users: int, n_facts: int, samples: int, seed: int) -> None:
    rng = random.Random(seed)
    documents = [make_document(u, n_facts, rng) for u in range(users)]
    skipped: list[str] = []
    rows: list[tuple[str, str, str, str, float]] = []
    with (
        tempfile.TemporaryDirectory(prefix="dfm-bench-") as tmp,
        backends(Path(tmp), skipped) as found,
    ):
        for name, storage in found:
            start = time.perf_counter()
            for u, document in enumerate(documents):
                storage.save(f"user{u}@example.com", None, document)
            populate = time.perf_counter() - start
            sample = [f"user{rng.randrange(users)}@example.com" for _ in range(samples)]

            def inject(user: str, storage: MemoryStorage = storage) -> None:
                document = storage.load(user)
                if format_memory_for_injection is not None:
                    format_memory_for_injection(document)

            for user in sample:  # warm-up: caches, connections, token counts
                inject(user)
            load_ms = [timed(lambda u=user, s=storage: s.load(u)) for user in sample]
            inject_ms = [timed(lambda u=user: inject(u)) for user in sample]
            update_ms = []
            for i, user in enumerate(sample):
                current = storage.load(user)
                new = Fact(content=f"bench fact {i}", confidence=0.9, source="bench")
                updated = current.model_copy(update={"facts": (*current.facts, new)})
                update_ms.append(
                    timed(
                        lambda u=user, d=updated, r=current.revision, s=storage: s.save(
                            u, None, d, r
                        )
                    )
                )
            rows.append((name, summary(load_ms), summary(inject_ms), summary(update_ms), populate))
            print(
                f"  {name}: populated {users} users x {n_facts} facts in {populate:.1f} s",
                file=sys.stderr,
            )

    what = (
        "load + format"
        if format_memory_for_injection is not None
        else "load only (no injection module)"
    )
    print(f"\n{users} users x {n_facts} facts, {samples} sampled operations; ms median / p95")
    print(f"inject = {what}; update = save(+1 fact, expected_revision)\n")
    header = f"{'backend':10} {'load med':>8} {'load p95':>8} {'inject med':>10} {'p95':>8} "
    header += f"{'update med':>10} {'p95':>8} {'populate s':>10}"
    print(header)
    for name, load, inj, upd, populate in rows:
        lm, lp = load.split()
        im, ip = inj.split()
        um, up = upd.split()
        print(f"{name:10} {lm:>8} {lp:>8} {im:>10} {ip:>8} {um:>10} {up:>8} {populate:10.1f}")
    for note in skipped:
        print(f"skipped {note}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--users", type=int, default=1000)
    parser.add_argument("--facts", type=int, default=100)
    parser.add_argument("--samples", type=int, default=300)
    parser.add_argument("--seed", type=int, default=7)
    args = parser.parse_args()
    run(args.users, args.facts, args.samples, args.seed)


if __name__ == "__main__":
    main()
