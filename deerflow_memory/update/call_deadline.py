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

__all__ = ["ModelCallTimeoutError", "call_within"]

T = TypeVar("T")


class ModelCallTimeoutError(TimeoutError):
    """A model call did not end within its seconds (``model_timeout_seconds``)."""


def call_within(fn: Callable[[], T], seconds: float | None) -> T:
    """``fn()``, given up after ``seconds`` in all.

    Args:
        fn: the call (a model's synchronous ``invoke``).
        seconds: the bound, > 0; None calls ``fn`` on this thread, unbounded.

    Returns:
        What ``fn`` returned.

    Raises:
        ModelCallTimeoutError: ``fn`` had not returned after ``seconds``.
        BaseException: what ``fn`` raised, unchanged.
    """
    if seconds is None:
        return fn()
    outcome: list[T] = []
    failure: list[BaseException] = []
    done = threading.Event()
    context = contextvars.copy_context()

    def run() -> None:
        try:
            with signals_unheld():  # app code (the model), as on the calling thread
                outcome.append(context.run(fn))
        except BaseException as e:  # handed to the caller, who still waits (or dropped)
            failure.append(e)
        finally:
            done.set()

    name = f"{threading.current_thread().name}/model-call"
    daemon_thread(run, name).start()
    if not done.wait(seconds):
        raise ModelCallTimeoutError(
            f"memory model call did not end within {seconds:g} s (model_timeout_seconds); given up"
        )
    if failure:
        raise failure[0]
    return outcome[0]
