"""Every thread the package starts leaves the process's stop signals to the main thread.

The kernel hands a signal sent to the process (``kill PID``, Ctrl-C) to any
thread that does not block it. When that is one of our helper threads, CPython
only notes it: the Python handler runs on the main thread at its next bytecode,
so a main thread inside one long blocking call (``time.sleep(600)``, a socket
read) does not wake and :func:`~deerflow_memory.install_shutdown_handler`
flushes late or never. A thread started with :func:`daemon_thread` blocks those
signals from its first instruction, and so do the native thread pools the
package causes (created inside :func:`signals_held`), so the kernel picks the
main thread, whose call then ends with EINTR and the handler runs.
They hold them only while they run our code: a call into app code (a model,
an embedder, a store) goes inside :func:`signals_unheld`, so a process it
starts does not inherit blocked stop signals (a mask survives fork and exec).

- :mod:`~deerflow_memory.daemons.threads`: :func:`daemon_thread`,
  :data:`HELD_SIGNALS`, :func:`hold_signals`, :func:`signals_held` and
  :func:`signals_unheld`.
- :mod:`~deerflow_memory.daemons.forks`: what a forked child may not use of its
  parent's (:func:`~deerflow_memory.daemons.forks.fork_count`,
  :func:`~deerflow_memory.daemons.forks.after_fork_in_child`).

This is a leaf: it imports nothing from the package, and every layer may use it.
"""

from __future__ import annotations

from deerflow_memory.daemons.threads import (
    HELD_SIGNALS,
    daemon_thread,
    hold_signals,
    signals_held,
    signals_unheld,
)

__all__ = ["HELD_SIGNALS", "daemon_thread", "hold_signals", "signals_held", "signals_unheld"]
