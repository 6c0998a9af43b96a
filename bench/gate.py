"""The extraction gate: how many model calls it saves and what it keeps (issue 10).

Three tables of user turns, zh/en, about half of them self-statements:

* in-sample (``tests/gate_turns.py``): the table the first gate was written on;
* held-out (``tests/gate_heldout.py`` ``HELDOUT``): written before the gate was
  touched again and measured as it stood (the "before" figure below, recorded
  at the commit named there), then used to fix the gate by kind of failure;
* fresh (``tests/gate_heldout.py`` ``FRESH``): written after those fixes and
  never tuned on — the honest out-of-sample figure.

Each turn is decided as the update pipeline decides it: the user's turn is the
burst, the assistant turn it answers (if any) is the context, and the
correction / reinforcement signals are detected on both. Recall is the share
of self-statements that reach the model (goal: all); the skip rate is the
share of the others that do not. Then the skip rate on a stream: all turns
shuffled, with the stand-in model's replies, updated after every turn, every
2 turns and every 5 turns.

Run: ``python bench/gate.py``
"""

from __future__ import annotations

import random
import sys
import time
from collections.abc import Sequence
from pathlib import Path

from langchain_core.messages import AIMessage, BaseMessage, HumanMessage

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from deerflow_memory.capture.gate import burst_needs_model, is_self_referential
from deerflow_memory.capture.signals import SignalDetector
from deerflow_memory.standin import OfflineStandInModel
from tests.gate_heldout import FRESH, HELDOUT, GateTurn, gate_keeps
from tests.gate_turns import TABLE

# Measured with this script at the commit that added the held-out table, before any fix.
BEFORE_COMMIT = "4d58ca4"
BEFORE = "recall 15/95 on self-statements, others skipped 64/91 (70%)"

IN_SAMPLE = tuple(GateTurn(text, about) for text, about in TABLE)


def report(name: str, turns: Sequence[GateTurn], detector: SignalDetector) -> None:
    selfs = [t for t in turns if t.about_user]
    others = [t for t in turns if not t.about_user]
    missed = [t for t in selfs if not gate_keeps(t, detector)]
    kept = [t for t in others if gate_keeps(t, detector)]
    zh = sum(any("\u4e00" <= c <= "\u9fff" for c in t.text) for t in turns)
    print(f"{name}: {len(turns)} turns ({zh} with Chinese), {len(selfs)} self-statements")
    print(f"  recall on self-statements: {len(selfs) - len(missed)}/{len(selfs)} (goal: all)")
    print(
        f"  others skipped: {len(others) - len(kept)}/{len(others)}"
        f" ({(len(others) - len(kept)) / len(others):.0%})"
    )
    for t in missed:
        print(f"  MISSED: {t.text!r}" + (f" (after {t.asked!r})" if t.asked else ""))


def stream(name: str, turns: Sequence[GateTurn], detector: SignalDetector) -> None:
    texts = [t.text for t in turns]
    random.Random(7).shuffle(texts)
    standin = OfflineStandInModel()
    history: list[BaseMessage] = []
    for i, text in enumerate(texts):
        history.append(HumanMessage(text, id=f"h{i}"))
        history.append(AIMessage(str(standin.invoke(history).content), id=f"a{i}"))
    print(f"stream, {name}: {len(texts)} turns shuffled, stand-in replies")
    for every in (1, 2, 5):
        size = 2 * every
        needed = 0
        bursts = [history[i : i + size] for i in range(0, len(history), size)]
        for k, burst in enumerate(bursts):
            context = history[max(0, size * k - 1) : size * k]
            signals = detector.detect(history[: size * k + len(burst)])
            needed += burst_needs_model(
                burst,
                context=context,
                correction=signals.correction,
                reinforcement=signals.reinforcement,
            )
        skipped = len(bursts) - needed
        print(
            f"  an update every {every} turn(s): {skipped}/{len(bursts)} updates skip the"
            f" model ({skipped / len(bursts):.0%})"
        )


def main() -> None:
    detector = SignalDetector()
    report("in-sample table", IN_SAMPLE, detector)
    print(f"held-out table before the fixes (gate of commit {BEFORE_COMMIT}): {BEFORE}")
    report("held-out table, now", HELDOUT, detector)
    report("fresh held-out set (written after the fixes, never tuned on)", FRESH, detector)
    every = IN_SAMPLE + HELDOUT + FRESH
    stream("all tables (half self-statements)", every, detector)
    others = [t for t in every if not t.about_user]
    selves = random.Random(3).sample([t for t in every if t.about_user], len(others) // 3)
    stream("1 turn in 4 about the user", others + selves, detector)
    texts = [t.text for t in every]
    start = time.perf_counter()
    for text in texts:
        is_self_referential(text)
    per_turn = (time.perf_counter() - start) / len(texts) * 1e6
    print(f"gate cost: {per_turn:.0f} µs per user turn (runs on the update worker, not in capture)")


if __name__ == "__main__":
    main()
