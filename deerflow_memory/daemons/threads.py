"""Daemon threads that block the process's stop and control signals while they run our code.

Which signals: those an application installs Python handlers for to stop,
reload or poke a process, all sent to the whole process (``kill``, a terminal,
a process manager, ``alarm``/``setitimer(ITIMER_REAL)``): SIGTERM, SIGINT,
SIGHUP, SIGQUIT, SIGUSR1, SIGUSR2, SIGALRM. Left alone on purpose:

- the signals a thread raises itself by what it does (SIGSEGV, SIGBUS, SIGFPE,
  SIGILL, SIGPIPE, SIGXFSZ) go to that thread whatever its mask, and blocking
  them hides a crash from ``faulthandler``;
- SIGPROF and SIGVTALRM, which native sampling profilers use to sample any thread;
- SIGKILL and SIGSTOP, which cannot be blocked.

When they are blocked:

- **Our code** (queue scheduler and workers, outbox writer, pollers, lease
  renewer, access recorder, tenant pool, shutdown flush, token warm-up): a
  thread from :func:`daemon_thread` blocks :data:`HELD_SIGNALS` before its
  target runs. A thread it starts inherits the mask, and one started by
  :func:`daemon_thread` knows which signals its ancestor held.
- **App code called from our threads** (the extractor or chat model, the
  embedder, a LangGraph store): the call runs inside :func:`signals_unheld`,
  which gives the thread back the mask it had before the hold for
  :data:`HELD_SIGNALS` and blocks them again afterwards. A blocked mask
  survives ``fork`` *and* ``exec``: a ``subprocess`` child, a multiprocessing
  worker or forkserver, a local model binary started there would otherwise
  ignore SIGTERM and Ctrl-C (``terminate()`` does nothing, ``join()`` hangs)
  and never see its ``alarm()``. While such a call runs, a signal sent to the
  process may land on that thread too (Linux still prefers a main thread that
  does not block it); CPython then runs the handler on the main thread at its
  next bytecode, as in any app that calls a model from a thread of its own.
- **After ``os.fork``** from one of our threads (``os.fork``, multiprocessing's
  ``fork`` start method) the child unblocks the held signals at once: its
  only thread is its main thread. (``subprocess`` and the ``spawn`` /
  ``forkserver`` start methods run no Python in the child before ``exec``;
  :func:`signals_unheld` covers them.)

Where ``signal.pthread_sigmask`` does not exist (Windows) none of this blocks anything.
"""

from __future__ import annotations

import os
import signal
import threading
from collections.abc import Callable, Iterable
from types import TracebackType
from typing import Any

__all__ = ["HELD_SIGNALS", "daemon_thread", "hold_signals", "signals_unheld"]

_NAMES = ("SIGTERM", "SIGINT", "SIGHUP", "SIGQUIT", "SIGUSR1", "SIGUSR2", "SIGALRM")

#: The signals a thread from :func:`daemon_thread` blocks (those this platform has).
HELD_SIGNALS: frozenset[signal.Signals] = frozenset(
    getattr(signal, name) for name in _NAMES if hasattr(signal, name)
)

_sigmask = getattr(signal, "pthread_sigmask", None)


class _Held(threading.local):
    """Per thread: which signals the hold blocked (empty = none) and how deep the unholds nest."""

    released: frozenset[signal.Signals] = frozenset()
    depth: int = 0


_held = _Held()


def hold_signals() -> None:
    """Block :data:`HELD_SIGNALS` on the calling thread, unless it is the main thread.

    The main thread is the one that must receive them (Python runs every signal
    handler there), so this never blocks anything on it. The thread remembers
    which of them it did not block before, for :func:`signals_unheld`. A no-op
    where ``signal.pthread_sigmask`` does not exist (Windows).
    """
    _hold(None)


def _hold(inherited: frozenset[signal.Signals] | None) -> None:
    """Block :data:`HELD_SIGNALS`; ``inherited``: what the starting thread of ours released."""
    if _sigmask is None or threading.current_thread() is threading.main_thread():
        return
    before = _sigmask(signal.SIG_BLOCK, HELD_SIGNALS)
    if inherited is not None:  # started by one of ours: its mask came in held already
        _held.released = inherited
    elif not _held.released:
        _held.released = HELD_SIGNALS - frozenset(before)


class _Unheld:
    """The context manager :func:`signals_unheld` returns (one object for every thread)."""

    __slots__ = ()

    def __enter__(self) -> None:
        released = _held.released
        if released and _sigmask is not None:
            _held.depth += 1
            if _held.depth == 1:
                _sigmask(signal.SIG_UNBLOCK, released)

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        trace: TracebackType | None,
    ) -> None:
        released = _held.released
        if released and _sigmask is not None and _held.depth:
            _held.depth -= 1
            if not _held.depth:
                _sigmask(signal.SIG_BLOCK, released)


_UNHELD = _Unheld()


def signals_unheld() -> _Unheld:
    """A context manager: inside it, this thread's held signals are unblocked again.

    Wrap every call from our threads into code that is not ours (a chat model,
    an embedder, an app's store), so the processes it starts do not inherit a
    blocked SIGTERM. On leaving, the signals are blocked again, also when the
    call raised. Nested uses unblock once and block again at the outermost exit.
    A no-op (two attribute reads) on the main thread, on a thread where
    :func:`hold_signals` never ran, and where ``signal.pthread_sigmask`` does
    not exist. Synchronous calls only: the mask belongs to the thread, not to a
    coroutine.

    Example::

        with signals_unheld():
            answer = model.invoke(prompt)
    """
    return _UNHELD


def _unhold_in_forked_child() -> None:
    """``os.fork`` from a holding thread: the child's only thread is its main thread."""
    released = _held.released
    _held.released = frozenset()
    _held.depth = 0
    if released and _sigmask is not None:
        _sigmask(signal.SIG_UNBLOCK, released)


if _sigmask is not None and hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_unhold_in_forked_child)


class _HoldingThread(threading.Thread):
    """A :class:`threading.Thread` whose ``run`` blocks :data:`HELD_SIGNALS` before the target."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        # Read on the starting thread: a holding one passes on what it released.
        self._inherited: frozenset[signal.Signals] | None = _held.released or None

    def run(self) -> None:
        _hold(self._inherited)
        super().run()


def daemon_thread(
    target: Callable[..., object], name: str, args: Iterable[Any] = ()
) -> threading.Thread:
    """A daemon thread (not started) that blocks :data:`HELD_SIGNALS`, then runs ``target(*args)``.

    The one way the package makes a thread: start it with ``.start()``; join,
    ``is_alive`` and ``name`` are those of :class:`threading.Thread`. Calls
    into app code from ``target`` go inside :func:`signals_unheld`.

    Args:
        target: what the thread runs.
        name: the thread's name (shown in logs and tracebacks).
        args: positional arguments for ``target``.
    """
    return _HoldingThread(target=target, name=name, args=tuple(args), daemon=True)
