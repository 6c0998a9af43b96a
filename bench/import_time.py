"""What importing deerflow_memory adds over importing langgraph itself (target ≤ 0.3 s).

Each variant runs in a fresh interpreter that has already imported langgraph;
only the deerflow_memory import is timed (subtracting two noisy ~1.5 s totals
hides a 0.1 s difference). The median of several runs is printed. Run it with
bytecode caching on (``PYTHONDONTWRITEBYTECODE`` unset), as users import.

Run: ``python bench/import_time.py``
"""

from __future__ import annotations

import statistics
import subprocess
import sys

BASELINE = "import langgraph.graph, langchain_core.messages"
VARIANTS = {
    "import deerflow_memory": "import deerflow_memory",
    "graph API (nodes, service, storage)": (
        "from deerflow_memory import add_memory_nodes, MemoryService, create_memory_agent"
    ),
}
RUNS = 7


def timed(code: str, before: str = "") -> float:
    prefix = f"{before}\n" if before else ""
    script = f"{prefix}import time\nt = time.perf_counter()\n{code}\nprint(time.perf_counter() - t)"
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True)
    return float(out.stdout.strip())


def main() -> None:
    base = statistics.median(timed(BASELINE) for _ in range(RUNS))
    print(f"langgraph alone: {base * 1000:7.1f} ms")
    for label, code in VARIANTS.items():
        added = statistics.median(timed(code, before=BASELINE) for _ in range(RUNS))
        print(f"{label:<38} adds {added * 1000:7.1f} ms")
    print("target: ≤ 300 ms over langgraph")


if __name__ == "__main__":
    main()
