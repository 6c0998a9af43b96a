"""A cache of ``compute(text)`` bounded by entries and by the characters of its keys."""

from __future__ import annotations

import functools
import threading
from collections.abc import Callable
from typing import Generic, NamedTuple, TypeVar

__all__ = ["TextCache", "TextCacheInfo"]

V = TypeVar("V")
_MISSING = object()


class TextCacheInfo(NamedTuple):
    """What a :class:`TextCache` holds: entries and their keys' characters, and both bounds."""

    currsize: int
    maxsize: int
    chars: int
    maxchars: int


class TextCache(Generic[V]):
    """``compute(text)``, remembered for at most ``max_entries`` texts of ``max_chars`` in all.

    A drop-in for ``functools.lru_cache`` on a function of one ``str`` whose
    result grows with the text: ``cache(text)``, :meth:`cache_clear`,
    :meth:`cache_info`. Thread-safe; a hit is one dictionary lookup, no lock.
    The oldest entries go first (insertion order: a hit does not reorder, which
    keeps hits lock-free; a dropped text still in use is computed once more).
    A text longer than ``max_chars`` is computed every time, never kept.

    Args:
        compute: a pure function of the text (its result is shared: never mutate it).
        max_entries: most texts kept; 0 keeps none.
        max_chars: most characters of all kept texts together; 0 keeps none.

    Raises:
        ValueError: a negative bound.
    """

    def __init__(self, compute: Callable[[str], V], *, max_entries: int, max_chars: int) -> None:
        if max_entries < 0 or max_chars < 0:
            raise ValueError(
                f"TextCache bounds must be >= 0, got max_entries={max_entries}, "
                f"max_chars={max_chars}"
            )
        self._compute = compute
        self._max_entries = max_entries
        self._max_chars = max_chars
        self._data: dict[str, V] = {}
        self._chars = 0
        self._lock = threading.Lock()
        functools.update_wrapper(self, compute)

    def __call__(self, text: str) -> V:
        """``compute(text)``, from the cache when kept.

        A ``text`` that cannot be a key (a list) goes straight to ``compute``,
        which gives its own error for what is not text; what it raises is never kept.
        """
        try:
            found = self._data.get(text, _MISSING)
        except TypeError:  # unhashable
            return self._compute(text)
        if found is not _MISSING:
            return found  # type: ignore[return-value]
        value = self._compute(text)
        size = len(text)
        if size > self._max_chars or self._max_entries == 0:
            return value
        with self._lock:
            data = self._data
            if text in data:
                return value
            while data and (len(data) >= self._max_entries or self._chars + size > self._max_chars):
                oldest = next(iter(data))
                del data[oldest]
                self._chars -= len(oldest)
            data[text] = value
            self._chars += size
        return value

    def cache_clear(self) -> None:
        """Forget every kept text."""
        with self._lock:
            self._data.clear()
            self._chars = 0

    def cache_info(self) -> TextCacheInfo:
        """How many texts and characters are kept now, and the bounds."""
        with self._lock:
            return TextCacheInfo(len(self._data), self._max_entries, self._chars, self._max_chars)
