"""A wait's ``timeout``: seconds or None; infinity waits as long as it takes; else refused."""

from __future__ import annotations

import math
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from langchain_core.messages import AIMessage, HumanMessage

from deerflow_memory import MemoryConfig, MemoryService, lifespan_for
from deerflow_memory.errors import ConfigError
from deerflow_memory.identity import MemoryIdentity
from deerflow_memory.service import close_open_services
from deerflow_memory.update.queue import MemoryUpdateQueue
from deerflow_memory.update.timeouts import check_timeout

BAD = [math.nan, -1, -0.5, "5", True, [1], b"5"]
EVE = MemoryIdentity("eve", None, "t1")
TURN = [HumanMessage("I'm allergic to shellfish.", id="h"), AIMessage("Noted.", id="a")]


@pytest.mark.parametrize(
    ("timeout", "seconds"),
    [
        (None, None),
        (0, 0.0),
        (2, 2.0),
        (0.25, 0.25),
        (math.inf, threading.TIMEOUT_MAX),
        (1e300, threading.TIMEOUT_MAX),
        (10**400, threading.TIMEOUT_MAX),  # an int too large for a float
    ],
)
def test_a_timeout_in_seconds_is_kept_and_an_endless_one_is_the_longest_wait(
    timeout: object, seconds: float | None
) -> None:
    assert check_timeout(timeout) == seconds


@pytest.mark.parametrize("timeout", BAD, ids=repr)
def test_a_timeout_that_is_not_seconds_is_a_config_error_naming_it(timeout: object) -> None:
    with pytest.raises(ConfigError, match="wait_seconds"):
        check_timeout(timeout, "wait_seconds")


def service(tmp_path: Path, **config: Any) -> MemoryService:
    settings = MemoryConfig(
        storage_path=tmp_path, debounce_seconds=600, max_wait_seconds=600, **config
    )
    return MemoryService(settings, register_atexit=False)


def stored(memory: MemoryService) -> list[str]:
    return [fact.content for fact in memory.load(EVE).facts]


CALLS: dict[str, Callable[[MemoryService, object], object]] = {
    "flush": lambda m, t: m.flush(t),  # type: ignore[arg-type]
    "flush_tenant": lambda m, t: m.flush_tenant("shop", t),  # type: ignore[arg-type]
    "flush_user": lambda m, t: m.flush_user("eve", t),  # type: ignore[arg-type]
    "clear_memory": lambda m, t: m.clear_memory("eve", timeout=t),  # type: ignore[arg-type]
    "close": lambda m, t: m.close(t),  # type: ignore[arg-type]
}


@pytest.mark.parametrize("call", CALLS.values(), ids=CALLS.keys())
@pytest.mark.parametrize("timeout", [math.nan, -1, "5"], ids=repr)
def test_a_service_call_with_a_bad_timeout_is_refused_before_it_does_anything(
    tmp_path: Path, call: Callable[[MemoryService, object], object], timeout: object
) -> None:
    memory = service(tmp_path, outbox=False)  # the queued turn lives only in this process
    memory.enqueue(EVE, TURN)
    with pytest.raises(ConfigError, match="timeout"):
        call(memory, timeout)
    assert memory.queue.pending_count == 1  # nothing ran, nothing was dropped
    result = memory.close()  # and the service still closes as it should: the turn is learned
    assert result and result.pending == 0
    assert stored(memory) == ["User is allergic to shellfish"]


@pytest.mark.parametrize("timeout", [math.inf, 1e300])
def test_an_endless_timeout_waits_as_long_as_it_takes(tmp_path: Path, timeout: float) -> None:
    memory = service(tmp_path)
    memory.enqueue(EVE, TURN)
    assert memory.flush(timeout)
    memory.enqueue(EVE, [*TURN, HumanMessage("I live in Oslo.", id="h2"), AIMessage("Ok.")])
    assert memory.close(timeout)
    assert any("Oslo" in fact for fact in stored(memory))


def test_closing_every_open_service_checks_its_timeout_first(tmp_path: Path) -> None:
    settings = MemoryConfig(storage_path=tmp_path, debounce_seconds=600, outbox=False)
    memory = MemoryService(settings)  # registered: close_open_services would close it
    try:
        memory.enqueue(EVE, TURN)
        with pytest.raises(ConfigError, match="timeout"):
            close_open_services(-3)
        assert memory.queue.pending_count == 1  # refused before anything was closed
    finally:
        assert memory.close()
    assert stored(memory) == ["User is allergic to shellfish"]
    with pytest.raises(ConfigError, match="timeout"):
        lifespan_for(timeout=math.nan)


QUEUE_CALLS: dict[str, Callable[[MemoryUpdateQueue], object]] = {
    "flush": lambda q: q.flush(math.nan),
    "shutdown": lambda q: q.shutdown(math.nan),
    "wait_idle": lambda q: q.wait_idle(math.nan),
    "wait_user_idle": lambda q: q.wait_user_idle("eve", -1),
}


@pytest.mark.parametrize("call", QUEUE_CALLS.values(), ids=QUEUE_CALLS.keys())
def test_the_queue_refuses_a_bad_timeout(call: Callable[[MemoryUpdateQueue], object]) -> None:
    queue = MemoryUpdateQueue(lambda job: None)
    try:
        with pytest.raises(ConfigError, match="timeout"):
            call(queue)
    finally:
        queue.shutdown(5)


@pytest.mark.parametrize("flush", ["flush", "flush_user"])
def test_a_flush_shares_one_timeout_between_its_steps(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, flush: str
) -> None:
    memory = service(tmp_path)
    assert memory.durable is not None
    given: list[float | None] = []

    def slow_recovery(timeout: float | None = None) -> bool:  # uses its whole share
        assert timeout is not None
        time.sleep(min(timeout, 0.3))
        return True

    def queue_flush(timeout: float | None = None, **_: object) -> bool:
        given.append(timeout)
        return True

    monkeypatch.setattr(memory.durable, "wait_recovered", slow_recovery)
    monkeypatch.setattr(memory.queue, "flush", queue_flush)
    try:
        getattr(memory, flush)(*(["eve"] if flush == "flush_user" else []), 1.0)
        (left,) = given
        assert left is not None and left <= 0.7 + 0.05  # what recovery left, not 1.0 again
    finally:
        monkeypatch.undo()
        memory.close()
