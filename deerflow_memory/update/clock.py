"""Time sources of the update queue: the real clock and a fake one for tests.

The queue asks a clock for the time and waits on its condition through the
clock, so a :class:`FakeClock` can move time forward and wake the real
scheduler thread without any test sleeping through a 30 s debounce.
"""

from __future__ import annotations

import threading
import time
import weakref
from typing import Protocol

__all__ = ["Clock", "FakeClock", "SystemClock"]


class Clock(Protocol):
    """Time source of the queue; a fake one lets tests move time without sleeping."""

    def monotonic(self) -> float:
        """Seconds on a monotonic scale."""
        ...

    def wait_until(self, condition: threading.Condition, deadline: float | None) -> None:
        """Wait on ``condition`` (held by the caller) until notified or ``monotonic() >= deadline``.

        ``deadline=None`` waits for a notification only. Spurious wake-ups are allowed.
        """
        ...


class SystemClock:
    """The real clock: ``time.monotonic`` and a timed condition wait."""

    def monotonic(self) -> float:
        """Seconds from ``time.monotonic``."""
        return time.monotonic()

    def wait_until(self, condition: threading.Condition, deadline: float | None) -> None:
        """Wait on ``condition`` until notified or until ``deadline``."""
        if deadline is None:
            condition.wait()
            return
        remaining = deadline - time.monotonic()
        if remaining > 0:  # threading refuses a timeout over TIMEOUT_MAX (OverflowError)
            condition.wait(min(remaining, threading.TIMEOUT_MAX))


class FakeClock:
    """A manually advanced clock for tests and simulations.

    :meth:`advance` wakes every queue waiting on this clock, so the real
    scheduler thread reacts to the new time at once; pair it with
    :meth:`MemoryUpdateQueue.wait_idle` to wait until the due jobs have run.

    Example:
        >>> clock = FakeClock()
        >>> clock.advance(30.0)
        >>> clock.monotonic()
        30.0
    """

    def __init__(self, start: float = 0.0) -> None:
        self._now = start
        self._lock = threading.Lock()
        self._conditions: weakref.WeakSet[threading.Condition] = weakref.WeakSet()

    def monotonic(self) -> float:
        """The current fake time."""
        with self._lock:
            return self._now

    def advance(self, seconds: float) -> None:
        """Move time forward by ``seconds`` and wake the waiting queues.

        Raises:
            ValueError: ``seconds`` is negative (a monotonic clock never goes back).
        """
        if seconds < 0:
            raise ValueError(f"a monotonic clock cannot go back (advance by {seconds})")
        with self._lock:
            self._now += seconds
            conditions = list(self._conditions)
        # Notify outside our own lock: the waiter checked the time under our lock
        # while holding its condition, so this notify cannot slip in before it waits.
        for condition in conditions:
            with condition:
                condition.notify_all()

    def wait_until(self, condition: threading.Condition, deadline: float | None) -> None:
        """Wait on ``condition`` until notified (by anyone, or by :meth:`advance`)."""
        with self._lock:
            self._conditions.add(condition)
            if deadline is not None and self._now >= deadline:
                return
        condition.wait()
