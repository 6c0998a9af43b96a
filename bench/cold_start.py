"""The first format in a fresh process, right after ``import deerflow_memory`` (goal ≤ 100 ms).

Each run is a new interpreter that imports ``deerflow_memory`` and builds a
200-fact document, then times only the first ``format_memory_for_injection``:

- ``blocking``: nothing warmed: the first count builds the o200k encoding
  from the bundled vocabulary (decode + tiktoken's encoder) and waits for it;
- ``service-warmed``: as when a ``MemoryService`` starts: the counter's
  ``warm()`` loads the vocabulary on a background thread and the first
  format, called at once, counts with the character estimate meanwhile.

Medians of several runs are printed. Run: ``python bench/cold_start.py``
"""

from __future__ import annotations

import statistics
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
RUNS = 7

SCRIPT = """
import sys, time
sys.path.insert(0, {bench!r})
import deerflow_memory
from deerflow_memory.inject.format import format_memory_for_injection
from deerflow_memory.inject.tokens import get_token_counter
from injection import build_document
doc = build_document(200)
if {warm}:
    get_token_counter("tiktoken").warm()
start = time.perf_counter()
format_memory_for_injection(doc, token_counting="tiktoken")
print(time.perf_counter() - start)
"""


def first_format_ms(warm: bool) -> float:
    code = SCRIPT.format(bench=str(ROOT / "bench"), warm=warm)
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    return float(out.stdout.strip()) * 1000


def main() -> None:
    for label, warm in (("blocking", False), ("service-warmed", True)):
        runs = [first_format_ms(warm) for _ in range(RUNS)]
        print(
            f"first format after import, {label:<15} median {statistics.median(runs):7.1f} ms"
            f"  (min {min(runs):6.1f}, max {max(runs):6.1f}, {RUNS} runs)"
        )
    print("goal: ≤ 100 ms median")


if __name__ == "__main__":
    main()
