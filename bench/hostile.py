"""Bad input never corrupts memory: figures of the hostile-answer fuzz run (issue 12).

Sends a table of generated hostile memory-model answers (floods at impossible
confidences, control/bidi characters, placeholders, oversized text, removal
floods, tag and turn forgeries, wrong types, broken JSON), each with a user turn
that tries to forge turns with one of 8 line separators, through the local
OpenAI-compatible server → real ``ChatOpenAI`` → queue → updater → file storage
→ injection, and prints what must be 0.

Run: ``python bench/hostile.py [cases]`` (default 1000).
"""

from __future__ import annotations

import logging
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tests.hostile import fuzz_config, hostile_answers, run_pipeline


def main() -> None:
    count = int(sys.argv[1]) if len(sys.argv) > 1 else 1000
    logging.disable(logging.CRITICAL)  # thousands of expected rejection warnings
    cases = hostile_answers(count)
    with tempfile.TemporaryDirectory() as root:
        started = time.perf_counter()
        figures = run_pipeline(Path(root), cases, fuzz_config())
        total = time.perf_counter() - started
    print(f"hostile answers sent through the server:  {figures.requests} ({dict(figures.kinds)})")
    print(f"update outcomes:                          {dict(figures.statuses)}")
    print(f"proposed parts rejected (with a reason):  {figures.rejected_parts}")
    print(f"unwanted stored-memory changes:           {len(figures.memory_violations)}  (goal 0)")
    forged = {sep: figures.forged_turns[sep] for sep in figures.turns_checked}
    print(f"forged turns per separator:               {forged}  (goal 0 each)")
    print(f"escapes from model-facing blocks:         {len(figures.block_escapes)}  (goal 0)")
    print(f"pipeline time: {figures.seconds:.1f} s; with seeding and checks: {total:.1f} s")
    for line in (figures.memory_violations + figures.block_escapes)[:10]:
        print("  ", line)


if __name__ == "__main__":
    main()
