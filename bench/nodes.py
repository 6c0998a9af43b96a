"""Hot-path cost of the memory graph nodes themselves, called as LangGraph calls them.

* inject node, warm, 200-fact document with all summaries (target ≤ 0.3 ms median);
* capture node on a 20-message turn of a checkpointed thread whose previous capture is
  queued, a new user message each turn (target ≤ 50 µs median); and a 2-message turn of a
  stateless client merged with the queued one (no target; shown for comparison).

Both without a tenant and with ``tenant_id`` (routed to the tenant's service); and the
inject node for a tenant that is not open and has no data (read through an empty view).

The nodes are called directly with a ``Runtime`` (no graph overhead), on file
storage in a temp folder; the queue's debounce is long so no update runs.

Run: ``python bench/nodes.py``
"""

from __future__ import annotations

import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from langchain_core.messages import AIMessage, BaseMessage, HumanMessage, ToolMessage
from langgraph.runtime import Runtime

sys.path.insert(0, str(Path(__file__).parent))

from injection import build_document

from deerflow_memory.config import MemoryConfig
from deerflow_memory.nodes import create_capture_memory_node, create_inject_memory_node
from deerflow_memory.service import MemoryService


def timed(step: Callable[[int], object], iterations: int) -> tuple[float, float]:
    samples = []
    for k in range(iterations):
        start = time.perf_counter_ns()
        step(k)
        samples.append((time.perf_counter_ns() - start) / 1000)
    samples = samples[iterations // 10 :]
    return statistics.median(samples), statistics.quantiles(samples, n=20)[18]


def turn(n: int) -> list[BaseMessage]:
    messages: list[BaseMessage] = []
    i = 0
    while len(messages) < n:
        messages += [
            HumanMessage(content=f"Question {i}: plan a slow day in Kyoto? 我不吃海鲜。"),
            AIMessage(
                content="", tool_calls=[{"name": "search", "args": {"q": "k"}, "id": f"c{i}"}]
            ),
            ToolMessage(content="Kyoto results " * 20, tool_call_id=f"c{i}"),
            AIMessage(content="Here is a plan for the morning and the afternoon. " * 4),
        ]
        i += 1
    return messages[:n]


def main() -> None:
    for tenant in (None, "shop"):
        run(tenant)
    run_tenant_without_data()


def run_tenant_without_data() -> None:
    """The inject node for a tenant whose service is not open and that has no folder.

    Read through ``storage.reader(t)``: the storage's one empty view (no target).
    """
    runtime: Runtime[None] = Runtime(context=None, store=None, stream_writer=lambda _: None)
    config = {"configurable": {"user_id": "bench", "thread_id": "t", "tenant_id": "unseen"}}
    with tempfile.TemporaryDirectory() as root:
        settings = MemoryConfig(storage_path=Path(root), debounce_seconds=3600)
        with MemoryService(settings, register_atexit=False) as service:
            inject = create_inject_memory_node(service)
            state = {"messages": turn(20), "memory_context": ""}
            median, p95 = timed(lambda k: inject(state, config, runtime), 5000)  # type: ignore[arg-type]
            print(
                f"inject node, tenant not open and without data: median {median:6.1f} µs"
                f"  p95 {p95:6.1f} µs"
            )


def run(tenant: str | None) -> None:
    runtime: Runtime[None] = Runtime(context=None, store=None, stream_writer=lambda _: None)
    config = {"configurable": {"user_id": "bench", "thread_id": "t", "tenant_id": tenant}}
    label = f"tenant {tenant}" if tenant else "no tenant"
    with tempfile.TemporaryDirectory() as root:
        settings = MemoryConfig(
            storage_path=Path(root), debounce_seconds=3600, max_wait_seconds=7200
        )
        with MemoryService(settings, register_atexit=False) as service:
            service.for_tenant(tenant).storage.save("bench", None, build_document(200))
            # "warm": the tiktoken vocabulary the service loads in the background is ready
            # (until then turns count with the estimate and renders are not cached).
            while not getattr(service.counter, "ready", True):
                time.sleep(0.01)
            inject = create_inject_memory_node(service)
            capture = create_capture_memory_node(service)
            state = {"messages": turn(20), "memory_context": ""}
            block = inject(state, config, runtime)["memory_context"]  # type: ignore[arg-type]
            median, p95 = timed(lambda k: inject(state, config, runtime), 5000)  # type: ignore[arg-type]
            print(
                f"inject node, 200 facts, warm, {label}: median {median:6.1f} µs"
                f"  p95 {p95:6.1f} µs"
                f"  ({len(block)} chars injected)   target ≤ 300 µs"
            )

            # A checkpointed thread: its previous capture (16 messages) is queued, and
            # this turn's 20 messages hold copies of those (as a checkpointer hands
            # them back) plus a new turn. One thread per call, so every call meets a
            # queued capture that it extends (the queue's cheap replacement).
            # Built and queued up front so only the capture of the new turn is timed.
            base = [m.model_copy(update={"id": f"m{i}"}) for i, m in enumerate(turn(20))]
            configs = [
                {"configurable": {**config["configurable"], "thread_id": f"t{k}"}}
                for k in range(5000)
            ]
            queued = [m.model_copy() for m in base[:-4]]
            for k in range(5000):
                capture({"messages": queued}, configs[k], runtime)  # type: ignore[arg-type]
            turns = [
                [
                    *base[:-4],
                    HumanMessage(content=f"Turn {k}: and Osaka? 也不要花生。", id=f"h{k}"),
                    *base[-3:],
                ]
                for k in range(5000)
            ]

            def capture_turn(k: int) -> None:
                capture({"messages": turns[k]}, configs[k], runtime)  # type: ignore[arg-type]

            median, p95 = timed(capture_turn, 5000)
            print(
                f"capture node, 20 messages, {label}: median {median:6.1f} µs"
                f"  p95 {p95:6.1f} µs"
                "   target ≤ 50 µs"
            )

            # A stateless client (or a graph without a checkpointer): each turn holds
            # only its own messages, so it is merged with the queued one.
            lone = [
                [
                    HumanMessage(content=f"Turn {k}: I'm allergic to peanuts.", id=f"x{k}"),
                    AIMessage(content="Noted.", id=f"y{k}"),
                ]
                for k in range(5000)
            ]
            for k in range(5000):
                capture({"messages": lone[k]}, configs[k], runtime)  # type: ignore[arg-type]
            median, p95 = timed(
                lambda k: capture({"messages": lone[(k + 1) % 5000]}, configs[k], runtime),  # type: ignore[arg-type]
                5000,
            )
            print(
                f"capture node, 2-message turn merged with a queued one, {label}: "
                f"median {median:6.1f} µs  p95 {p95:6.1f} µs"
            )
            service.close(timeout=0)  # the queued updates are not part of the benchmark


if __name__ == "__main__":
    main()
