"""Capture cost on the agent's hot path: filter + signal detection + ``queue.add``.

Target (SPEC §14): ≤ 50 µs median on a 20-message turn. The queue's scheduler
never fires during the run (long debounce), so only the enqueue is measured.

A second figure runs the same capture through ``MemoryService.enqueue`` on the
file backend with the durable outbox on (the default): the capture only
appends to the outbox's buffer; a background writer group-commits it
(target ≤ 100 µs median).

Run: ``python bench/capture.py``
"""

from __future__ import annotations

import statistics
import tempfile
import time

from langchain_core.messages import AIMessage, BaseMessage, HumanMessage, ToolMessage

from deerflow_memory.capture.messages import (
    filter_messages_for_memory,
    filter_recent_messages,
    has_minimum_dialogue,
)
from deerflow_memory.capture.signals import SIGNAL_WINDOW, SignalDetector
from deerflow_memory.update.queue import MemoryUpdateQueue


def conversation(n: int) -> list[BaseMessage]:
    """``n`` messages: user turns, tool-calling AI steps, tool results and final replies.

    Each has an id, as in a LangGraph state (``add_messages`` gives every message one).
    """
    messages: list[BaseMessage] = []
    i = 0
    while len(messages) < n:
        messages.append(
            HumanMessage(content=f"Question {i}: can you plan a 3-day trip to Kyoto? 我不吃海鲜。")
        )
        messages.append(
            AIMessage(
                content="", tool_calls=[{"name": "search", "args": {"q": "kyoto"}, "id": f"c{i}"}]
            )
        )
        messages.append(ToolMessage(content="Kyoto results " * 20, tool_call_id=f"c{i}"))
        messages.append(
            AIMessage(content="Here is a plan for day one, day two and day three. " * 4)
        )
        i += 1
    return [m.model_copy(update={"id": f"m{j}"}) for j, m in enumerate(messages[:n])]


def measure(n_messages: int, iterations: int = 5000) -> tuple[float, float]:
    detector = SignalDetector()
    messages = conversation(n_messages)
    assert isinstance(messages[-4], HumanMessage)
    fresh = [
        HumanMessage(content=f"Turn {k}: and what about Osaka? 也不要花生。", id=f"h{k}")
        for k in range(iterations)
    ]
    queue = MemoryUpdateQueue(lambda job: None, debounce_seconds=3600, max_wait_seconds=7200)
    # A checkpointed thread per iteration whose previous capture (all but the last turn,
    # copies as a checkpointer hands them back) is queued: each add extends it.
    queued = tuple(m.model_copy() for m in messages[:-4])
    for k in range(iterations):
        queue.add(f"thread-{k}", f"user-{k % 50}", None, queued)
    samples: list[float] = []
    try:
        for k in range(iterations):
            # A new turn each time: the latest user message has not been seen before.
            messages[-4] = fresh[k]
            start = time.perf_counter_ns()
            # What the capture node does: filter the tail only, enqueue the raw turn.
            recent = filter_recent_messages(messages, SIGNAL_WINDOW)
            if has_minimum_dialogue(recent):
                signals = detector.detect(recent)
                queue.add(
                    f"thread-{k}",
                    f"user-{k % 50}",
                    None,
                    tuple(messages),
                    correction_detected=signals.correction,
                    reinforcement_detected=signals.reinforcement,
                )
            samples.append((time.perf_counter_ns() - start) / 1000)
    finally:
        queue.shutdown(timeout=5)
    samples = samples[iterations // 10 :]  # warm-up
    return statistics.median(samples), statistics.quantiles(samples, n=20)[18]


def measure_add_only(iterations: int = 20000) -> tuple[float, float]:
    messages = conversation(20)
    queue = MemoryUpdateQueue(lambda job: None, debounce_seconds=3600, max_wait_seconds=7200)
    samples: list[float] = []
    try:
        for k in range(iterations):
            start = time.perf_counter_ns()
            queue.add(f"thread-{k % 50}", f"user-{k % 50}", None, messages)
            samples.append((time.perf_counter_ns() - start) / 1000)
    finally:
        queue.shutdown(timeout=5)
    samples = samples[iterations // 10 :]
    return statistics.median(samples), statistics.quantiles(samples, n=20)[18]


def measure_parts(n_messages: int, iterations: int = 2000) -> dict[str, float]:
    """Median µs of each step alone, to show where the capture time goes."""
    detector = SignalDetector()
    messages = conversation(n_messages)
    recent = filter_recent_messages(messages, SIGNAL_WINDOW)
    parts: dict[str, float] = {}
    for name, step in (
        ("filter tail", lambda: filter_recent_messages(messages, SIGNAL_WINDOW)),
        ("full filter (updater side)", lambda: filter_messages_for_memory(messages)),
        ("signals", lambda: detector.detect(recent)),
    ):
        samples = []
        for _ in range(iterations):
            start = time.perf_counter_ns()
            step()
            samples.append((time.perf_counter_ns() - start) / 1000)
        parts[name] = statistics.median(samples[iterations // 10 :])
    return parts


def measure_service(n_messages: int, outbox: bool, iterations: int = 5000) -> tuple[float, float]:
    """``MemoryService.enqueue`` (filter + signals + queue + outbox record) on the file backend."""
    from deerflow_memory import MemoryConfig, MemoryIdentity, MemoryService

    messages = conversation(n_messages)
    fresh = [
        HumanMessage(content=f"Turn {k}: and what about Osaka? 也不要花生。", id=f"h{k}")
        for k in range(iterations)
    ]
    samples: list[float] = []
    with tempfile.TemporaryDirectory() as root:
        config = MemoryConfig(
            storage_path=root, debounce_seconds=3600, max_wait_seconds=7200, outbox=outbox
        )
        memory = MemoryService(config, register_atexit=False)
        # As in measure(): each thread's previous capture is queued and this turn extends it.
        queued = [m.model_copy() for m in messages[:-4]]
        for k in range(iterations):
            memory.enqueue(MemoryIdentity(f"user-{k % 50}", None, f"thread-{k}"), queued)
        try:
            for k in range(iterations):
                messages[-4] = fresh[k]
                who = MemoryIdentity(f"user-{k % 50}", None, f"thread-{k}")
                start = time.perf_counter_ns()
                recent = filter_recent_messages(messages, SIGNAL_WINDOW)
                if has_minimum_dialogue(recent):
                    memory.enqueue(who, messages, recent=recent)
                samples.append((time.perf_counter_ns() - start) / 1000)
        finally:
            memory.close(timeout=0)
    samples = samples[iterations // 10 :]
    return statistics.median(samples), statistics.quantiles(samples, n=20)[18]


def main() -> None:
    print("capture = filter + signals + queue.add  (µs)")
    for n in (20, 200):
        median, p95 = measure(n)
        print(f"  {n:>3}-message turn: median {median:7.1f}  p95 {p95:7.1f}")
        parts = measure_parts(n)
        print("       of which (median): " + ", ".join(f"{k} {v:.1f}" for k, v in parts.items()))
    median, p95 = measure_add_only()
    print(f"  queue.add alone:    median {median:7.1f}  p95 {p95:7.1f}")
    print("target: ≤ 50 µs median for the 20-message turn")
    print("MemoryService.enqueue on the file backend (µs)")
    for outbox in (False, True):
        median, p95 = measure_service(20, outbox)
        label = "outbox on " if outbox else "outbox off"
        print(f"  20-message turn, {label}: median {median:7.1f}  p95 {p95:7.1f}")
    print("target: ≤ 100 µs median with the outbox on (group commit every 5 ms)")


if __name__ == "__main__":
    main()
