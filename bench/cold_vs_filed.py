"""The cold-cache format at 1,000 facts against the code as issue 15 found it (goal: >= 5x).

``bench/injection.py`` compares the cold render with the same code run with
its cost floors off (``floors=False``): the algorithm before issue 15, but
with every later change to escaping and ordering in both. This script times
the code itself as it stood when the issue was filed (commit ``de316cb``,
taken from this checkout's git history with ``git archive``) on the same
document in the same way, so the ratio is the one the issue asks about.

Each side runs in its own interpreter (its own ``deerflow_memory``): the
vocabulary is loaded and one render made first, then each timed render gets
a fresh copy of the document and an emptied per-text count cache. The sides
alternate over several rounds; CPU-time medians (steadier than wall time on
a shared machine) are printed with their ratio.

Run: ``python bench/cold_vs_filed.py`` (needs ``git`` and the repository's history).
"""

from __future__ import annotations

import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
FILED = "de316cb"  # main when issue 15 was filed: its first commit (1c66723) came next
FACTS = 1000
ROUNDS = 4
RUNS = 40

CHILD = """
import statistics, sys, time
sys.path.insert(0, {tree!r})
from deerflow_memory.inject.format import format_memory_for_injection
from deerflow_memory.inject.tokens import get_token_counter
from deerflow_memory.models import MemoryDocument
doc = MemoryDocument.model_validate_json(open({doc!r}, encoding="utf-8").read())
counter = get_token_counter("tiktoken")
counter.count("load the vocabulary before timing")
format_memory_for_injection(doc.model_copy())
times = []
for _ in range({runs}):
    counter.clear_cache()
    fresh = doc.model_copy()
    start = time.process_time()
    format_memory_for_injection(fresh)
    times.append(time.process_time() - start)
print(statistics.median(times) * 1000.0)
"""


def _median_ms(tree: Path, document: Path) -> float:
    script = CHILD.format(tree=str(tree), doc=str(document), runs=RUNS)
    done = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, check=True
    )
    return float(done.stdout.strip().splitlines()[-1])


def main() -> None:
    """Print the cold CPU medians (ms) of the filed code and of this checkout, and their ratio."""
    sys.path.insert(0, str(ROOT / "bench"))
    from injection import build_document

    with tempfile.TemporaryDirectory() as scratch:
        filed = Path(scratch) / "filed"
        filed.mkdir()
        archive = subprocess.run(
            ["git", "-C", str(ROOT), "archive", FILED, "deerflow_memory"],
            capture_output=True,
            check=True,
        )
        subprocess.run(["tar", "-x", "-C", str(filed)], input=archive.stdout, check=True)
        document = Path(scratch) / "doc.json"
        document.write_text(build_document(FACTS).model_dump_json(by_alias=True), "utf-8")
        old: list[float] = []
        new: list[float] = []
        for _ in range(ROUNDS):
            old.append(_median_ms(filed, document))
            new.append(_median_ms(ROOT, document))
    before, now = statistics.median(old), statistics.median(new)
    print(f"cold format, {FACTS} facts, CPU-time medians of {ROUNDS} rounds x {RUNS} renders")
    print(f"  code as filed ({FILED}): {before:.2f} ms   rounds: {_rounded(old)}")
    print(f"  this checkout:           {now:.2f} ms   rounds: {_rounded(new)}")
    print(f"  this checkout is {before / now:.1f}x faster than the code as filed (goal: >= 5x)")


def _rounded(values: list[float]) -> str:
    return " ".join(f"{value:.2f}" for value in values)


if __name__ == "__main__":
    main()
