"""Daemon threads that block the process's stop and control signals (see the package doc).

Which signals: those an application installs Python handlers for to stop,
reload or poke a process, all sent to the whole process (``kill``, a terminal,
a process manager, ``alarm``/``setitimer(ITIMER_REAL)``): SIGTERM, SIGINT,
SIGHUP, SIGQUIT, SIGUSR1, SIGUSR2, SIGALRM. Left alone on purpose:

- the signals a thread raises itself by what it does (SIGSEGV, SIGBUS, SIGFPE,
  SIGILL, SIGPIPE, SIGXFSZ) go to that thread whatever its mask, and blocking
  them hides a crash from ``faulthandler``;
- SIGPROF and SIGVTALRM, which native sampling profilers use to sample any thread;
- SIGKILL and SIGSTOP, which cannot be blocked.

A thread inherits the mask of the thread that starts it, so a thread started
from one of these (by the package or by a model client it calls) blocks them too.
Where ``signal.pthread_sigmask`` does not exist (Windows) this blocks nothing.
"""

from __future__ import annotations

import signal
import threading
from collections.abc import Callable, Iterable
from typing import Any

__all__ = ["HELD_SIGNALS", "daemon_thread", "hold_signals"]

_NAMES = ("SIGTERM", "SIGINT", "SIGHUP", "SIGQUIT", "SIGUSR1", "SIGUSR2", "SIGALRM")

#: The signals a thread from :func:`daemon_thread` blocks (those this platform has).
HELD_SIGNALS: frozenset[signal.Signals] = frozenset(
    getattr(signal, name) for name in _NAMES if hasattr(signal, name)
)


def hold_signals() -> None:
    """Block :data:`HELD_SIGNALS` on the calling thread, unless it is the main thread.

    The main thread is the one that must receive them (Python runs every signal
    handler there), so this never blocks anything on it. A no-op where
    ``signal.pthread_sigmask`` does not exist (Windows).
    """
    block = getattr(signal, "pthread_sigmask", None)
    if block is None or threading.current_thread() is threading.main_thread():
        return
    block(signal.SIG_BLOCK, HELD_SIGNALS)


class _HoldingThread(threading.Thread):
    """A :class:`threading.Thread` whose ``run`` blocks :data:`HELD_SIGNALS` before the target."""

    def run(self) -> None:
        hold_signals()
        super().run()


def daemon_thread(
    target: Callable[..., object], name: str, args: Iterable[Any] = ()
) -> threading.Thread:
    """A daemon thread (not started) that blocks :data:`HELD_SIGNALS`, then runs ``target(*args)``.

    The one way the package makes a thread: start it with ``.start()``; join,
    ``is_alive`` and ``name`` are those of :class:`threading.Thread`.

    Args:
        target: what the thread runs.
        name: the thread's name (shown in logs and tracebacks).
        args: positional arguments for ``target``.
    """
    return _HoldingThread(target=target, name=name, args=tuple(args), daemon=True)
