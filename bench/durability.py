"""Nothing lost: the issue-11 figures with real processes, on file, SQLite and Postgres.

- SIGKILL with N updates pending (captured, debounced for an hour), then a new
  process constructs a MemoryService and flushes: how many of N are stored.
- P processes × T threads × U updates on one user at once: facts lost.
- 4 processes opening a new SQLite file at the same moment, 30 times: failures.

Postgres: ``DEERFLOW_MEMORY_TEST_PG_DSN`` or a throwaway server (tests/pg.py).
The offline extractor plays the model, so the figures measure storage, locks
and the outbox, not a model.

Run: ``python bench/durability.py`` (a few minutes; ``--quick`` for small sizes).
"""

from __future__ import annotations

import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.pg import drop_prefix, shared_postgres, shared_postgres_store  # noqa: E402
from tests.test_contention import hammer, stored_tools  # noqa: E402
from tests.test_outbox import kill_with_pending_then_drain  # noqa: E402


def configs(tmp: Path, dsn: str | None) -> dict[str, dict[str, object]]:
    found: dict[str, dict[str, object]] = {
        "file": {"storage": "file", "storage_path": str(tmp / "files")},
        "sqlite": {"storage": "sqlite", "storage_path": str(tmp / "memory.sqlite")},
    }
    if dsn:
        found["postgres"] = {"storage": "postgres", "storage_dsn": dsn}
    return found


def fresh(config: dict[str, object], tag: str, tmp: Path) -> dict[str, object]:
    if config["storage"] == "postgres":
        drop_prefix(str(config["storage_dsn"]), ("deerflow_memory",))
        return dict(config)
    path = Path(str(config["storage_path"]))
    target = path.with_name(f"{path.stem}-{tag}{path.suffix}")
    return {**config, "storage_path": str(target)}


def main() -> None:
    quick = "--quick" in sys.argv
    try:
        dsn: str | None = shared_postgres().dsn
        shared_postgres_store(dsn)
    except Exception as e:  # report and go on without Postgres
        print(f"(no Postgres: {e})")
        dsn = None
    sizes = (20, 200) if quick else (20, 200, 2000)
    updates = 5 if quick else 50
    with tempfile.TemporaryDirectory() as raw:
        tmp = Path(raw)
        print("SIGKILL with N pending, then a new process: applied / N  (seconds)")
        for name, base in configs(tmp, dsn).items():
            for n in sizes:
                start = time.monotonic()
                applied = kill_with_pending_then_drain(fresh(base, f"kill{n}", tmp), n)
                took = time.monotonic() - start
                print(f"  {name:<8} N={n:<5} {applied}/{n}  ({took:.1f} s)")
        print(f"4 processes x 5 threads x {updates} updates on one user: facts lost  (seconds)")
        for name, base in configs(tmp, dsn).items():
            config = {**fresh(base, "hammer", tmp), "max_facts": 5000}
            start = time.monotonic()
            hammer(config, 4, 5, updates)
            took = time.monotonic() - start
            stored = len(stored_tools(config))
            print(
                f"  {name:<8} {4 * 5 * updates - stored} lost of {4 * 5 * updates}  ({took:.1f} s)"
            )
    print("4 processes opening a new SQLite file at once x 30: see")
    print("  pytest -q -o addopts='' tests/test_contention.py -k sqlite_file  (asserts 0 failures)")


if __name__ == "__main__":
    main()
