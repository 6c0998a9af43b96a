"""One model call bounded in all: connect, send, wait, and every byte of the answer.

An HTTP client's timeout (``ChatOpenAI(timeout=...)``, httpx's) bounds each
socket operation, not the call: a server or proxy that trickles a byte every
second never trips it, and would hold an update worker for as long as it
trickles. :func:`call_within` runs the call on a helper thread and stops
waiting when the seconds are up, raising :class:`ModelCallTimeoutError` (a
``TimeoutError``: transient, so the call is retried with backoff, the update
requeued and at last kept as a dead letter, like any timeout; see
:mod:`deerflow_memory.update.retry`).

Thread boundary: the helper is a :func:`~deerflow_memory.daemons.daemon_thread`
named after the calling one (``memory-queue-worker-1/model-call``) that runs
the call inside :func:`~deerflow_memory.daemons.signals_unheld` (app code) with
a copy of the caller's context variables (callbacks, tracing). The call stays synchronous
(no event loop: DeerFlow issue #2615). A call given up on cannot be stopped
from outside: it runs on until its client gives up or the server ends the
answer, and its result or error is dropped.
"""

from __future__ import annotations

import contextvars
import threading
from collections.abc import Callable
from typing import TypeVar

from deerflow_memory.daemons import daemon_thread, signals_unheld
from deerflow_memory.errors import ConfigError
from deerflow_memory.update.timeouts import check_timeout

__all__ = ["AbandonedCalls", "ModelCallTimeoutError", "call_within", "check_call_timeout"]

T = TypeVar("T")


class ModelCallTimeoutError(TimeoutError):
    """A model call did not end within its seconds (``model_timeout_seconds``)."""


class AbandonedCalls:
    """Calls given up on that still run (their threads), at most ``limit`` at a time.

    A model that never answers would otherwise leave one more thread (and its
    connection) behind on every try. Past the limit no new call starts until one
    of them ends: :func:`call_within` raises :class:`ModelCallTimeoutError` at
    once, so the update is retried later and at last kept as a dead letter.

    Args:
        limit: most abandoned calls running together (>= 1).
    """

    def __init__(self, limit: int = 8) -> None:
        self.limit = limit
        self._running = 0
        self._lock = threading.Lock()

    @property
    def running(self) -> int:
        """Abandoned calls whose threads still run."""
        return self._running

    def _add(self) -> None:
        with self._lock:
            self._running += 1

    def _ended(self) -> None:
        with self._lock:
            self._running -= 1


def check_call_timeout(seconds: object, what: str = "call_timeout") -> float | None:
    """``seconds`` as :func:`call_within` takes it: > 0, or None (unbounded).

    Raises:
        ConfigError: not a number, NaN, negative or 0 (every call would time out).
    """
    checked = check_timeout(seconds, what)
    if checked == 0:
        raise ConfigError(f"{what} must be > 0 seconds or None, got 0")
    return checked


def call_within(
    fn: Callable[[], T], seconds: float | None, abandoned: AbandonedCalls | None = None
) -> T:
    """``fn()``, given up after ``seconds`` in all.

    Args:
        fn: the call (a model's synchronous ``invoke``).
        seconds: the bound, > 0; None calls ``fn`` on this thread, unbounded.
        abandoned: the calls given up on so far (one per model); when it is
            full, no call starts.

    Returns:
        What ``fn`` returned.

    Raises:
        ModelCallTimeoutError: ``fn`` had not returned after ``seconds``, or
            ``abandoned`` is full (the model's earlier calls still hang).
        BaseException: what ``fn`` raised, unchanged.
    """
    if seconds is None:
        return fn()
    if abandoned is not None and abandoned.running >= abandoned.limit:
        raise ModelCallTimeoutError(
            f"{abandoned.running} memory model calls given up on are still running; "
            "not starting another until one ends"
        )
    outcome: list[T] = []
    failure: list[BaseException] = []
    done = threading.Event()
    given_up = False
    state = threading.Lock()  # orders "given up" against "ended"
    context = contextvars.copy_context()

    def run() -> None:
        try:
            with signals_unheld():  # app code (the model), as on the calling thread
                outcome.append(context.run(fn))
        except BaseException as e:  # handed to the caller, who still waits (or dropped)
            failure.append(e)
        finally:
            with state:
                done.set()
                if given_up and abandoned is not None:
                    abandoned._ended()

    name = f"{threading.current_thread().name}/model-call"
    daemon_thread(run, name).start()
    if not done.wait(seconds):
        with state:
            if not done.is_set():
                given_up = True
                if abandoned is not None:
                    abandoned._add()
        if given_up:
            raise ModelCallTimeoutError(
                f"memory model call did not end within {seconds:g} s "
                "(model_timeout_seconds); given up"
            )
    if failure:
        raise failure[0]
    return outcome[0]
