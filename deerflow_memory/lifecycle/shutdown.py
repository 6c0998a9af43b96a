"""Flush pending memory updates on shutdown, whatever runs the process.

Servers (uvicorn, hypercorn, LangGraph Server) stop on SIGTERM without running
``atexit`` handlers, but they do run the ASGI lifespan's shutdown: use
:func:`memory_lifespan` (every open service) or :func:`lifespan_for` (given
services). Plain processes: :func:`install_shutdown_handler` flushes on
SIGTERM, then lets the signal do what it did before (exit by default).

Each flush waits at most ``shutdown_flush_timeout_seconds`` (or the timeout
given). Updates still pending then are not lost: they stay in the durable
outbox and run in the next process that opens the same storage.
"""

from __future__ import annotations

import asyncio
import os
import signal
import threading
from collections.abc import AsyncIterator, Callable, Iterable
from contextlib import AbstractAsyncContextManager, asynccontextmanager
from types import FrameType
from typing import Any

from deerflow_memory.logs import package_logger
from deerflow_memory.service import MemoryService, close_open_services

__all__ = ["install_shutdown_handler", "lifespan_for", "memory_lifespan"]

logger = package_logger(__name__)


def _closer(services: Iterable[MemoryService] | None, timeout: float | None) -> Callable[[], bool]:
    chosen = None if services is None else list(services)

    def close() -> bool:
        if chosen is None:
            return close_open_services(timeout)
        return all([service.close(timeout) for service in chosen])

    return close


@asynccontextmanager
async def memory_lifespan(app: Any = None) -> AsyncIterator[None]:
    """ASGI lifespan that flushes and closes every open :class:`MemoryService` on shutdown.

    Use it as the app's lifespan, or enter it inside your own.

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
    await asyncio.to_thread(_closer(None, None))


def lifespan_for(
    *services: MemoryService, timeout: float | None = None
) -> Callable[[Any], AbstractAsyncContextManager[None]]:
    """An ASGI lifespan that closes exactly ``services`` on shutdown.

    Args:
        services: the services to flush and close.
        timeout: seconds each may wait; default its ``shutdown_flush_timeout_seconds``.

    Example:
        >>> memory = MemoryService(config)  # doctest: +SKIP
        >>> app = FastAPI(lifespan=lifespan_for(memory))  # doctest: +SKIP
    """
    close = _closer(services, timeout)

    @asynccontextmanager
    async def lifespan(app: Any = None) -> AsyncIterator[None]:
        yield
        await asyncio.to_thread(close)

    return lifespan


def install_shutdown_handler(
    *services: MemoryService,
    signals: Iterable[signal.Signals] = (signal.SIGTERM,),
    timeout: float | None = None,
) -> None:
    """On ``signals``, flush and close memory services, then let the signal act as before.

    With no ``services`` every open service of the process is closed. The
    previous handler runs afterwards (a Python handler is called; the default
    action is restored and the signal raised again, so the process exits with
    the usual status). Must be called from the main thread.

    Args:
        services: the services to close (default: all open ones).
        signals: which signals (default SIGTERM; add ``signal.SIGINT`` for Ctrl-C).
        timeout: seconds to wait per service; default ``shutdown_flush_timeout_seconds``.

    Raises:
        ValueError: not called from the main thread (Python's signal rule).
    """
    if threading.current_thread() is not threading.main_thread():
        raise ValueError("install_shutdown_handler must be called from the main thread")
    close = _closer(services or None, timeout)
    for sig in signals:
        previous = signal.getsignal(sig)

        def handler(
            signum: int, frame: FrameType | None, previous: Any = previous, sig: Any = sig
        ) -> None:
            try:
                close()
            except Exception:
                logger.exception("flushing memory on %s failed", signal.Signals(signum).name)
            if callable(previous):
                previous(signum, frame)
                return
            if previous == signal.SIG_IGN:
                return
            signal.signal(sig, signal.SIG_DFL)
            os.kill(os.getpid(), signum)

        signal.signal(sig, handler)
