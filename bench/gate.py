"""The extraction gate: how many model calls it saves and what it keeps (issue 10).

On the table of ``tests/gate_turns.py`` (zh/en, half self-statements in varied
phrasings): recall on self-statements (goal 100 %: a real preference is never
skipped) and the skip rate on the rest. Then the skip rate on a realistic
stream: the same 100+ turns shuffled, with the stand-in model's replies,
updated after every turn, every 2 turns and every 5 turns.

Run: ``python bench/gate.py``
"""

from __future__ import annotations

import random
import sys
from pathlib import Path

from langchain_core.messages import AIMessage, BaseMessage, HumanMessage

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from deerflow_memory.capture.gate import burst_needs_model, is_self_referential
from deerflow_memory.standin import OfflineStandInModel
from tests.gate_turns import OTHER, SELF, TABLE


def main() -> None:
    kept = [t for t in SELF if is_self_referential(t)]
    skipped = [t for t in OTHER if not is_self_referential(t)]
    print(f"table: {len(TABLE)} turns ({len(SELF)} self-statements, {len(OTHER)} others)")
    print(f"  recall on self-statements: {len(kept)}/{len(SELF)} (goal: all)")
    print(f"  skipped among the others:  {len(skipped)}/{len(OTHER)}")
    for text in sorted(set(SELF) - set(kept)):
        print(f"  MISSED: {text}")
    turns = [text for text, _ in TABLE]
    random.Random(7).shuffle(turns)
    standin = OfflineStandInModel()
    history: list[BaseMessage] = []
    for i, text in enumerate(turns):
        history.append(HumanMessage(text, id=f"h{i}"))
        history.append(AIMessage(str(standin.invoke(history).content), id=f"a{i}"))
    for every in (1, 2, 5):
        bursts = [history[i : i + 2 * every] for i in range(0, len(history), 2 * every)]
        needed = sum(
            burst_needs_model(burst, context=history[max(0, 2 * every * k - 1) : 2 * every * k])
            for k, burst in enumerate(bursts)
        )
        print(
            f"stream, an update every {every} turn(s): {len(bursts) - needed}/{len(bursts)}"
            f" updates skip the model ({(len(bursts) - needed) / len(bursts):.0%})"
        )


if __name__ == "__main__":
    main()
