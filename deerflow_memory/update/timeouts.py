"""How long a caller waits: the ``timeout`` argument of flush, close and the queue's waits."""

from __future__ import annotations

import math
import threading
import time

from deerflow_memory.errors import ConfigError

__all__ = ["check_timeout", "seconds_left"]


def check_timeout(timeout: object, what: str = "timeout") -> float | None:
    """``timeout`` in seconds as a wait can use it; None stays None (the caller's default).

    Infinity, and anything beyond the longest wait a lock accepts, becomes
    that longest wait (``threading.TIMEOUT_MAX``, about 292 years: as long
    as it takes); either would otherwise overflow the platform's clock
    inside the wait.

    Args:
        timeout: None, or seconds as an int or float (not a bool).
        what: the argument's name, for the error message.

    Returns:
        None, or ``float(timeout)`` between 0 and ``threading.TIMEOUT_MAX``.

    Raises:
        ConfigError: not a number, NaN, or negative (a ``ValueError``).
    """
    if timeout is None:
        return None
    if isinstance(timeout, bool) or not isinstance(timeout, (int, float)):
        raise ConfigError(f"{what} must be seconds (a number) or None, got {timeout!r}")
    if (isinstance(timeout, float) and math.isnan(timeout)) or timeout < 0:
        raise ConfigError(f"{what} must be >= 0 seconds or None, got {timeout!r}")
    if timeout >= threading.TIMEOUT_MAX:  # compared before float(): 10**400 is an int
        return threading.TIMEOUT_MAX
    return float(timeout)


def seconds_left(end: float | None) -> float | None:
    """Seconds until ``end`` on ``time.monotonic()`` (at least 0); None when there is no end."""
    return None if end is None else max(0.0, end - time.monotonic())
