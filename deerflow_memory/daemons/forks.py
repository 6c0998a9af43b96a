"""What a process made is not its forked child's to use.

A :class:`~deerflow_memory.MemoryService` holds threads, locks and open files
(the file outbox's journal and its ``flock``). ``os.fork`` copies the memory
but not the threads, so a child that used its parent's service would queue
turns no thread runs, and write, truncate and delete the parent's journal as if
it were its own: a gunicorn ``--preload`` master's workers erased each other's
pending turns (attacker 67). So objects made here count the forks since:

- :func:`fork_count` is the number of forks this process's line went through
  (0 in the process that imported the package; each child adds one), read as
  one integer on the hot path;
- :func:`after_fork_in_child` registers an object whose
  ``after_fork_in_child()`` runs in the child at once (while it has one thread),
  to give up what belongs to the parent (the outbox closes its inherited file
  descriptors, so the parent's lock is the parent's alone).

This is a leaf: it imports nothing from the package.
"""

from __future__ import annotations

import contextlib
import os
import weakref
from typing import Protocol

__all__ = ["ForkAware", "after_fork_in_child", "fork_count"]


class ForkAware(Protocol):
    def after_fork_in_child(self) -> None:
        """Give up, in the child, what belongs to the parent (no I/O beyond closing)."""


_forks = 0
_inherited: weakref.WeakSet[ForkAware] = weakref.WeakSet()


def fork_count() -> int:
    """How many forks made this process from the one that imported the package."""
    return _forks


def after_fork_in_child(thing: ForkAware) -> None:
    """Run ``thing.after_fork_in_child()`` in every child forked from now on."""
    _inherited.add(thing)


def _in_child() -> None:
    global _forks
    _forks += 1
    for thing in list(_inherited):
        with contextlib.suppress(Exception):  # a child's start is never broken by it
            thing.after_fork_in_child()


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_in_child)
