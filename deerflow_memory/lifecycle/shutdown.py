"""Flush pending memory updates on shutdown, whatever runs the process.

Servers (uvicorn, hypercorn, LangGraph Server) stop on SIGTERM without running
``atexit`` handlers, but they do run the ASGI lifespan's shutdown: use
:func:`memory_lifespan` (every open service) or :func:`lifespan_for` (given
services). Plain processes: :func:`install_shutdown_handler` flushes on
SIGTERM, then lets the signal do what it did before (exit by default).

Each flush waits at most ``shutdown_flush_timeout_seconds`` (or the timeout
given). Updates still pending then are not lost: they stay in the durable
outbox and run in the next process that opens the same storage.

A signal handler runs on the main thread between two of its bytecodes, maybe
while that thread holds one of the service's locks (in the middle of an
``enqueue``), so :func:`install_shutdown_handler` flushes on a thread of its
own and waits a bounded time for it: the process exits even when the flush
cannot take a lock (Python's ``signal`` documentation warns about exactly this).
"""

from __future__ import annotations

import asyncio
import os
import signal
import threading
import time
from collections.abc import AsyncIterator, Callable, Iterable, Sequence
from contextlib import AbstractAsyncContextManager, asynccontextmanager
from types import FrameType
from typing import Any

from deerflow_memory.daemons import daemon_thread
from deerflow_memory.errors import ConfigError
from deerflow_memory.logs import package_logger
from deerflow_memory.service import MemoryService, check_service, close_services, open_services
from deerflow_memory.update.timeouts import check_timeout

__all__ = ["install_shutdown_handler", "lifespan_for", "memory_lifespan"]

logger = package_logger(__name__)

# What a signal handler waits beyond the flush timeouts: joining the services'
# helper threads and closing their storage.
_GRACE_SECONDS = 5.0
# How often the wait looks whether a second signal asked to stop waiting.
_POLL_SECONDS = 0.1


def _chosen(services: Iterable[MemoryService] | None) -> list[MemoryService]:
    """``services``, or every open service of the process (at this moment) when None."""
    return list(services) if services is not None else open_services()


def _check_services(services: tuple[object, ...]) -> None:
    for index, service in enumerate(services):
        check_service(service, f"services[{index}]")


@asynccontextmanager
async def memory_lifespan(app: Any = None) -> AsyncIterator[None]:
    """ASGI lifespan that flushes and closes every open :class:`MemoryService` on shutdown.

    Use it as the app's lifespan, or enter it inside your own. A service whose
    close fails is logged and the others are still closed.

    Example:
        >>> from starlette.applications import Starlette
        >>> app = Starlette(lifespan=memory_lifespan)

        >>> @asynccontextmanager
        ... async def lifespan(app):
        ...     async with memory_lifespan(app):
        ...         yield
    """
    yield
    # Off the event loop: draining runs sync model calls and file writes.
    await asyncio.to_thread(lambda: close_services(_chosen(None), None, "shutdown"))


def lifespan_for(
    *services: MemoryService, timeout: float | None = None
) -> Callable[[Any], AbstractAsyncContextManager[None]]:
    """An ASGI lifespan that closes exactly ``services`` on shutdown, one after the other.

    A service whose close fails is logged and the next ones are still closed.

    Args:
        services: the services to flush and close.
        timeout: seconds each may wait; default its ``shutdown_flush_timeout_seconds``.

    Raises:
        ConfigError: ``timeout`` is not seconds (>= 0) or None.
        InvalidArgumentError: one of ``services`` is not a :class:`MemoryService`.

    Example:
        >>> memory = MemoryService(config)  # doctest: +SKIP
        >>> app = FastAPI(lifespan=lifespan_for(memory))  # doctest: +SKIP
    """
    _check_services(services)
    timeout = check_timeout(timeout)
    chosen = _chosen(services)

    @asynccontextmanager
    async def lifespan(app: Any = None) -> AsyncIterator[None]:
        yield
        await asyncio.to_thread(close_services, chosen, timeout, "shutdown")

    return lifespan


def _flush_before_exit(
    services: Sequence[MemoryService] | None,
    timeout: float | None,
    reason: str,
    give_up: threading.Event,
) -> None:
    """Close ``services`` (default: every open one) on a thread; wait a bounded time.

    The bound is the services' flush timeouts added up (they close one after
    the other) plus :data:`_GRACE_SECONDS`. The wait also ends when
    ``give_up`` is set (a second signal). When the closing thread is still
    running then, an error says so and the caller goes on: what is pending
    stays in the outbox for the next start.
    """
    chosen = _chosen(services)
    if not chosen:
        return
    bound = min(
        threading.TIMEOUT_MAX,
        _GRACE_SECONDS
        + sum(
            service.config.shutdown_flush_timeout_seconds if timeout is None else timeout
            for service in chosen
        ),
    )

    closer = daemon_thread(close_services, "memory-shutdown-flush", (chosen, timeout, reason))
    closer.start()
    end = time.monotonic() + bound
    while closer.is_alive() and not give_up.is_set():
        left = end - time.monotonic()
        if left <= 0:
            break
        closer.join(min(left, _POLL_SECONDS))  # a second signal's handler runs in between
    if closer.is_alive():
        logger.error(
            "flushing memory on %s did not end %s (the signal may have come while this "
            "thread held a memory lock); updates still pending stay in the outbox for "
            "the next start",
            reason,
            "before a second signal" if give_up.is_set() else f"within {bound:.1f} s",
        )


def _signals(signals: Iterable[object]) -> list[signal.Signals]:
    """``signals`` as :class:`signal.Signals` that a handler can catch, all checked first."""
    catchable = signal.valid_signals() - {signal.SIGKILL, signal.SIGSTOP}
    chosen = []
    try:
        listed = list(signals)
    except TypeError as e:
        raise ConfigError(f"signals must be an iterable of signal numbers, got {signals!r}") from e
    for sig in listed:
        if isinstance(sig, bool) or not isinstance(sig, int) or sig not in catchable:
            raise ConfigError(f"cannot install a shutdown handler for signal {sig!r}")
        chosen.append(signal.Signals(sig))
    return chosen


def install_shutdown_handler(
    *services: MemoryService,
    signals: Iterable[signal.Signals] = (signal.SIGTERM,),
    timeout: float | None = None,
) -> None:
    """On ``signals``, flush and close memory services, then let the signal act as before.

    With no ``services`` every open service of the process is closed. The
    flush runs on a thread of its own, and the handler waits for it at most
    the services' timeouts added up plus 5 s: a signal that comes while the
    main thread holds a memory lock still ends the process (what is pending
    stays in the outbox). A second signal during the flush ends the wait and
    acts as before at once (whatever the previous handler is). The previous
    handler runs afterwards, once per signal (a Python handler is called; the
    default action is restored and the signal raised again, so the process
    exits with the usual status), even when the flush failed. Must be called
    from the main thread.

    Args:
        services: the services to close (default: all open ones).
        signals: which signals (default SIGTERM; add ``signal.SIGINT`` for Ctrl-C).
        timeout: seconds to wait per service; default ``shutdown_flush_timeout_seconds``.

    Raises:
        ValueError: not called from the main thread (Python's signal rule).
        ConfigError: a signal that cannot be caught or is not a signal (``SIGKILL``,
            ``"SIGTERM"``), or ``timeout`` is not seconds (>= 0) or None; nothing
            is installed then.
    """
    if threading.current_thread() is not threading.main_thread():
        raise ValueError("install_shutdown_handler must be called from the main thread")
    timeout = check_timeout(timeout)
    chosen = services or None
    flushing = threading.Event()  # set by the first signal
    give_up = threading.Event()  # set by a second signal during the flush
    for sig in _signals(signals):
        previous = signal.getsignal(sig)

        def handler(
            signum: int, frame: FrameType | None, previous: Any = previous, sig: Any = sig
        ) -> None:
            if not flushing.is_set():
                flushing.set()
                try:
                    _flush_before_exit(chosen, timeout, signal.Signals(signum).name, give_up)
                except Exception:  # never keep the signal from acting
                    logger.exception("flushing memory on %s failed", signal.Signals(signum).name)
            else:
                give_up.set()  # the first signal's wait ends when this handler returns
            if callable(previous):
                previous(signum, frame)
                return
            if previous == signal.SIG_IGN:
                return
            signal.signal(sig, signal.SIG_DFL)
            os.kill(os.getpid(), signum)

        signal.signal(sig, handler)
