"""How many memory-model calls the debounced queue makes for realistic traffic, and how late.

Replays 100 users × 10 turns (one thread per user) with 5–90 s between turns
and occasional longer pauses (2–30 min), against a FakeClock with the default
debounce 30 s / max_wait 120 s. The real scheduler and worker threads run;
time only moves when the replay advances the clock (to the next turn or the
next due update, whichever comes first), so the figures are exact.

Prints handler (LLM) calls vs one call per turn (1000), and the delay from a
turn to the update that included it (worst, median).

Run: ``python bench/debounce.py [seed]``
"""

from __future__ import annotations

import random
import statistics
import sys
import threading

from langchain_core.messages import AIMessage, HumanMessage

from deerflow_memory.update.queue import FakeClock, MemoryUpdateQueue, UpdateJob

USERS = 100
TURNS = 10
DEBOUNCE = 30.0
MAX_WAIT = 120.0


def schedule(rng: random.Random) -> list[tuple[float, int, int]]:
    """``(time, user, turn)`` for every turn, sorted by time."""
    events = []
    for user in range(USERS):
        t = rng.uniform(0, 600)  # users arrive over ten minutes
        for turn in range(TURNS):
            events.append((t, user, turn))
            gap = rng.uniform(5, 90)
            if rng.random() < 0.1:
                gap = rng.uniform(120, 1800)  # the user goes away for a while
            t += gap
    return sorted(events)


def main() -> None:
    seed = int(sys.argv[1]) if len(sys.argv) > 1 else 7
    rng = random.Random(seed)
    events = schedule(rng)
    clock = FakeClock()
    processed_at: dict[tuple[int, int], float] = {}
    calls = 0
    lock = threading.Lock()

    def handler(job: UpdateJob) -> None:
        nonlocal calls
        user = int(job.user_id.removeprefix("user-"))
        last_turn = int(str(job.messages[0].content).removeprefix("turn "))
        now = clock.monotonic()
        with lock:
            calls += 1
            for turn in range(last_turn + 1):
                processed_at.setdefault((user, turn), now)

    turn_time = {(user, turn): t for t, user, turn in events}
    queue = MemoryUpdateQueue(
        handler, debounce_seconds=DEBOUNCE, max_wait_seconds=MAX_WAIT, max_workers=2, clock=clock
    )
    try:
        for t, user, turn in events:
            # Step through every deadline before this turn so each update runs on time.
            while (due := queue.next_deadline) is not None and due <= t:
                clock.advance(due - clock.monotonic())
                assert queue.wait_idle(timeout=10)
            clock.advance(t - clock.monotonic())
            messages = (HumanMessage(content=f"turn {turn}"), AIMessage(content="ok"))
            queue.add(f"thread-{user}", f"user-{user}", None, messages)
        while (due := queue.next_deadline) is not None:
            clock.advance(max(0.0, due - clock.monotonic()))
            assert queue.wait_idle(timeout=10)
    finally:
        queue.shutdown(timeout=10)

    delays = [processed_at[key] - turn_time[key] for key in turn_time]
    total = USERS * TURNS
    print(
        f"{USERS} users x {TURNS} turns, debounce {DEBOUNCE:.0f} s, "
        f"max_wait {MAX_WAIT:.0f} s (seed {seed})"
    )
    print(f"  handler (LLM) calls: {calls}  vs one per turn: {total}  ({calls / total:.0%})")
    print(
        f"  turn -> processed delay: worst {max(delays):.1f} s, "
        f"median {statistics.median(delays):.1f} s"
    )
    assert len(processed_at) == total, "some turns were never processed"


if __name__ == "__main__":
    main()
