"""Model calls given up on: at most a few left running, and none once they end."""

from __future__ import annotations

import contextvars
import threading
import time

import pytest

from deerflow_memory.update.call_deadline import (
    AbandonedCalls,
    ModelCallTimeoutError,
    call_within,
)


def test_a_model_that_never_answers_leaves_at_most_the_limit_of_threads() -> None:
    release = threading.Event()
    started: list[int] = []

    def hang() -> str:
        started.append(1)
        release.wait(60)
        return "late"

    abandoned = AbandonedCalls(limit=3)
    for _ in range(10):
        with pytest.raises(ModelCallTimeoutError):
            call_within(hang, 0.01, abandoned)
    assert len(started) == 3 and abandoned.running == 3  # 7 refused without a thread
    release.set()
    deadline = time.monotonic() + 30  # a hang guard
    while abandoned.running and time.monotonic() < deadline:
        time.sleep(0.01)
    assert abandoned.running == 0
    assert call_within(lambda: "ok", 5, abandoned) == "ok"  # calls start again


def test_a_call_that_ends_in_time_is_not_counted() -> None:
    abandoned = AbandonedCalls(limit=1)
    for _ in range(5):
        assert call_within(lambda: 42, 5, abandoned) == 42
    assert abandoned.running == 0


_TRACE = contextvars.ContextVar("trace", default="none")


def test_the_call_runs_with_the_callers_context_variables_on_a_named_thread() -> None:
    # Callbacks and tracing of LangChain live in context variables of the calling thread.
    token = _TRACE.set("update-7")
    try:
        seen = call_within(lambda: (_TRACE.get(), threading.current_thread().name), 5)
    finally:
        _TRACE.reset(token)
    assert seen == ("update-7", f"{threading.current_thread().name}/model-call")
