"""Retrying a flaky memory model: which errors are transient, how long to wait, how often.

:func:`transient_delay` looks at an error (and its ``__cause__`` chain) by duck
typing, so no provider SDK is imported: an HTTP status of 429 or 5xx (OpenAI's
``APIStatusError.status_code``, httpx's ``response.status_code``), a timeout or
a connection error is transient; so is a body the client cannot read as a
completion at all (:func:`no_completion`: a proxy's or captive portal's HTML
page answered with status 200 — the model never answered); anything else
(400, 401, an answer that is not a valid update) is not. A ``Retry-After``
header (seconds or an HTTP date) is honoured.

:class:`RetryPolicy` holds the numbers: exponential backoff with full jitter
inside one update (``call_retries`` extra calls), then the updater puts the job
back on the queue, at most ``max_attempts`` times and for at most
``max_total_seconds`` since the first failure, before the job becomes a dead
letter. Sleep and randomness are injected so tests do not wait.
"""

from __future__ import annotations

import email.utils
import json
import math
import random
import re
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from deerflow_memory.errors import ModelCallError, error_chain

__all__ = [
    "MAX_REQUEUE_SECONDS",
    "RetryPolicy",
    "TransientModelError",
    "no_completion",
    "retry_after_seconds",
    "transient_delay",
]

_TRANSIENT_NAMES = ("timeout", "connect", "connection", "ratelimit", "serviceunavailable")

MAX_REQUEUE_SECONDS = 900.0
"""The longest wait before a requeued update runs again (15 minutes), whatever the
backoff or the server's ``Retry-After`` says."""


class TransientModelError(ModelCallError):
    """The model call failed in a way that may pass (429, 5xx, timeout, connection).

    Attributes:
        retry_after: seconds the server asked to wait, or None.
    """

    def __init__(self, message: str, retry_after: float | None = None) -> None:
        super().__init__(message)
        self.retry_after = retry_after


@dataclass(frozen=True)
class RetryPolicy:
    """Backoff and bounds for transient model failures.

    Attributes:
        call_retries: extra model calls within one update (after the first).
        base_seconds: first backoff; doubled per retry, full jitter.
        max_backoff_seconds: cap of one wait, and of an honoured ``Retry-After``.
        max_attempts: updates tried in all (each with its call retries) before dead-lettering.
        max_total_seconds: time since the first failure after which the job is dead-lettered.
        requeue_base_seconds: wait before the first requeued attempt; doubles per attempt
            (capped at 15 minutes), full jitter on the upper half, ``Retry-After`` honoured.
        sleep: how to wait (tests pass a no-op or a recorder).
        random: jitter source in ``[0, 1)``.
    """

    call_retries: int = 3
    base_seconds: float = 1.0
    max_backoff_seconds: float = 60.0
    max_attempts: int = 8
    max_total_seconds: float = 3600.0
    requeue_base_seconds: float = 30.0
    sleep: Callable[[float], None] = field(default=time.sleep, repr=False, compare=False)
    random: Callable[[], float] = field(default=random.random, repr=False, compare=False)

    def backoff(self, retry: int, retry_after: float | None = None) -> float:
        """Seconds to wait before retry number ``retry`` (1-based).

        ``Retry-After`` wins when given (capped); otherwise full jitter over
        ``base * 2**(retry-1)``, capped, never below a tenth of the base.
        """
        if retry_after is not None:
            return min(max(0.0, retry_after), self.max_backoff_seconds)
        ceiling = min(self.max_backoff_seconds, self.base_seconds * 2 ** (retry - 1))
        return max(self.base_seconds / 10, ceiling * self.random())

    def requeue_delay(self, attempt: int, retry_after: float | None = None) -> float:
        """Seconds before requeued attempt number ``attempt`` (1-based) runs.

        A ``Retry-After`` longer than the backoff wins, up to
        :data:`MAX_REQUEUE_SECONDS` like the backoff itself: a server asking
        for a year (or ``1e308``) is asked again in 15 minutes, and the job
        becomes a dead letter once ``max_attempts`` or ``max_total_seconds``
        run out, its words kept.
        """
        ceiling = min(MAX_REQUEUE_SECONDS, self.requeue_base_seconds * 2 ** (attempt - 1))
        delay = ceiling / 2 + ceiling / 2 * self.random()
        return max(delay, min(retry_after or 0.0, MAX_REQUEUE_SECONDS))

    def gives_up(self, attempts: int, first_failed_at: float, now: float) -> bool:
        """True when a job with ``attempts`` made since ``first_failed_at`` is dead-lettered."""
        return attempts >= self.max_attempts or now - first_failed_at >= self.max_total_seconds

    def call(self, fn: Callable[[], Any]) -> Any:
        """Call ``fn``; retry it on transient errors with backoff, ``call_retries`` times.

        Raises:
            TransientModelError: still transient after the retries (with the last ``retry_after``).
            Exception: a non-transient error of ``fn``, unchanged.
        """
        retry = 0
        while True:
            try:
                return fn()
            except Exception as e:
                delay = transient_delay(e)
                if delay is None:
                    raise
                retry_after = delay if delay > 0 else None
                if retry >= self.call_retries:
                    raise TransientModelError(
                        f"memory model call failed {_times(retry + 1)}: {type(e).__name__}: {e}",
                        retry_after,
                    ) from e
                retry += 1
                self.sleep(self.backoff(retry, retry_after))


def _times(count: int) -> str:
    return "once" if count == 1 else f"{count} times"


def transient_delay(error: BaseException) -> float | None:
    """None when ``error`` is permanent, else the server's ``Retry-After`` (0.0 when absent)."""
    for current in error_chain(error):
        if isinstance(current, TransientModelError):
            return current.retry_after or 0.0
        if no_completion(current):  # before the status: such an answer says 200
            return 0.0
        status = _status_code(current)
        if status is not None:
            if status == 429 or status == 408 or 500 <= status < 600:
                return retry_after_seconds(_headers(current)) or 0.0
            return None
        name = type(current).__name__.lower()
        if isinstance(current, TimeoutError | ConnectionError) or any(
            word in name for word in _TRANSIENT_NAMES
        ):
            return 0.0
    return None


def no_completion(error: BaseException) -> bool:
    """True when a model client failed to read the answer's body as a completion at all.

    What a client raises when a 2xx body is not JSON (a proxy's or captive
    portal's ``<html>`` page answered with status 200): a
    ``json.JSONDecodeError``; the OpenAI SDK's ``APIResponseValidationError``;
    langchain-openai's ``ValueError`` "Unexpected response type ... got str";
    the SDK's parser meeting that text (``'str' object has no attribute ...``).
    Only errors of a model call are asked about (:meth:`RetryPolicy.call`): the
    memory model's *answer text* is parsed elsewhere (``update/answer.py``).
    """
    if isinstance(error, json.JSONDecodeError):
        return True
    if type(error).__name__ == "APIResponseValidationError":
        return True
    message = str(error)
    if isinstance(error, ValueError) and message.startswith("Unexpected response type"):
        return "got str" in message
    return isinstance(error, AttributeError) and message.startswith("'str' object has no attribute")


def _status_code(error: BaseException) -> int | None:
    status = getattr(error, "status_code", None)
    if status is None:
        response = getattr(error, "response", None)
        status = getattr(response, "status_code", None)
    return status if isinstance(status, int) else None


def _headers(error: BaseException) -> Any:
    response = getattr(error, "response", None)
    return getattr(response, "headers", None)


def retry_after_seconds(headers: Any, *, now: datetime | None = None) -> float | None:
    """Seconds from a ``Retry-After`` (or ``retry-after-ms``) header; None if absent/invalid.

    ``retry-after-ms`` wins when it is a valid number; an invalid one (``"abc"``,
    ``"inf"``) falls through to ``retry-after``. A number is plain ASCII (``"1_0"`` and
    Arabic-Indic digits are invalid); not a finite number of seconds (``inf``,
    ``nan``, ``1e999``) is invalid. An HTTP date that does not parse, or whose
    year no datetime holds (``OverflowError``), is invalid: the caller then
    backs off as for a 429 without the header. Never raises.
    """
    if headers is None:
        return None
    try:
        millis = headers.get("retry-after-ms")
        value = headers.get("retry-after")
    except Exception:
        return None
    seconds = _number(millis)
    if seconds is not None and (delay := _finite(seconds / 1000)) is not None:
        return delay
    if not isinstance(value, str):
        return None
    seconds = _number(value)
    if seconds is not None:
        return _finite(seconds)
    try:
        when = email.utils.parsedate_to_datetime(value)
        if when.tzinfo is None:
            when = when.replace(tzinfo=UTC)
        return _finite((when - (now or datetime.now(UTC))).total_seconds())
    except Exception:  # TypeError, ValueError, OverflowError (a year like 99999999999), ...
        return None


_NUMBER = re.compile(r"[+-]?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][+-]?[0-9]+)?", re.ASCII)


def _number(value: Any) -> float | None:
    """A header's plain ASCII decimal number, or None (absent, not a string, not a number)."""
    if not isinstance(value, str) or not _NUMBER.fullmatch(value.strip()):
        return None
    return float(value)


def _finite(seconds: float) -> float | None:
    return max(0.0, seconds) if math.isfinite(seconds) else None
