"""An LRU map bounded by its entries and by the total weight of its values."""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Callable
from typing import TypeVar

__all__ = ["WeightedLRU"]

K = TypeVar("K")
V = TypeVar("V")


class WeightedLRU(OrderedDict[K, V]):
    """An ``OrderedDict``, oldest first, that :meth:`put` keeps within two bounds.

    Past ``max_entries`` entries, or past ``max_weight`` for the values'
    ``weigh(value)`` added up, the oldest entries go; the newest always stays,
    even when it alone weighs more. Reads are the dict's own (``get`` does
    not reorder: ``move_to_end`` marks a use). Not thread-safe: the owner
    holds its own lock. Add and remove only with :meth:`put` and :meth:`discard`,
    which keep :attr:`weight`.

    Args:
        max_entries: most entries kept.
        max_weight: most total weight kept (beyond the newest entry).
        weigh: a value's weight (e.g. the facts a parsed document holds).
    """

    def __init__(self, max_entries: int, max_weight: int, weigh: Callable[[V], int]) -> None:
        super().__init__()
        self.max_entries, self.max_weight = max_entries, max_weight
        self._weigh = weigh
        self.weight = 0
        """The values' weights added up."""

    def put(self, key: K, value: V) -> None:
        """Keep ``value`` under ``key`` as the newest entry; drop the oldest past the bounds."""
        self.discard(key)
        self[key] = value
        self.weight += self._weigh(value)
        while len(self) > self.max_entries or (self.weight > self.max_weight and len(self) > 1):
            _, dropped = self.popitem(last=False)
            self.weight -= self._weigh(dropped)

    def discard(self, key: K) -> V | None:
        """Remove ``key``'s entry; its value, or None when there was none."""
        value = self.pop(key, None)
        if value is not None:
            self.weight -= self._weigh(value)
        return value
