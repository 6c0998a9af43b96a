"""One bound for several caches: a storage, its tenants' views and each of their caches.

A storage's bound on what it keeps parsed (``max_cached_documents``,
``max_cached_facts``) is what the process holds for that storage, however many
tenants it serves: each view and each cache draws on one :class:`CacheBudget`,
and the least recently used entry of any of them goes first. Each cache gets
a :class:`BudgetCache` handle with its own name; its keys never meet another
cache's.

Thread-safe: one lock, held only for dictionary work (no I/O, no other lock is
taken under it, values dropped by an eviction are released after it), so any
caller may hold its own locks around these calls without a lock-order risk.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable
from typing import Any, Generic, TypeVar, cast

__all__ = ["BudgetCache", "CacheBudget"]

K = TypeVar("K", bound=Hashable)
V = TypeVar("V")


class CacheBudget:
    """At most ``max_entries`` entries weighing ``max_weight`` together, over every cache on it.

    Past either bound the least recently used entries go, whichever cache
    holds them; the newest entry always stays, even when it alone weighs more
    than ``max_weight``. ``max_entries`` 0 keeps nothing.

    Args:
        max_entries: most entries kept, over all caches.
        max_weight: most total weight kept, over all caches (beyond the newest entry).

    Raises:
        ValueError: a bound that is negative or not a whole number.
    """

    def __init__(self, max_entries: int, max_weight: int) -> None:
        for name, value in (("max_entries", max_entries), ("max_weight", max_weight)):
            if isinstance(value, bool) or not isinstance(value, int) or value < 0:
                raise ValueError(f"{name} must be a whole number >= 0, got {value!r}")
        self.max_entries, self.max_weight = max_entries, max_weight
        self._lock = threading.Lock()
        # (cache name, key) -> (value, its weight), least recently used first.
        self._entries: OrderedDict[tuple[Hashable, Hashable], tuple[object, int]] = OrderedDict()
        self._weight = 0

    @property
    def weight(self) -> int:
        """The weights of every entry held, added up (at most ``max_weight`` but for the newest)."""
        return self._weight

    def __len__(self) -> int:
        """Entries held, over all caches."""
        return len(self._entries)

    def cache(self, name: Hashable, weigh: Callable[[V], int]) -> BudgetCache[Any, V]:
        """A cache drawing on this budget; ``weigh(value)`` is a value's weight (>= 0).

        Caches with the same ``name`` see the same entries (a view made again
        for a tenant finds what the previous one cached).
        """
        return BudgetCache(self, name, weigh)


class BudgetCache(Generic[K, V]):
    """One cache on a :class:`CacheBudget`: a map that the budget may shrink at any :meth:`put`.

    Reads do not reorder (:meth:`get`) unless asked to (:meth:`use`).
    """

    __slots__ = ("_budget", "_entries", "_lock", "_name", "_weigh")

    def __init__(self, budget: CacheBudget, name: Hashable, weigh: Callable[[V], int]) -> None:
        self._budget = budget
        self._name = name
        self._weigh = weigh
        self._lock = budget._lock
        self._entries = budget._entries

    @property
    def budget(self) -> CacheBudget:
        """The budget this cache draws on."""
        return self._budget

    @property
    def name(self) -> Hashable:
        """This cache's name on its budget."""
        return self._name

    def get(self, key: K) -> V | None:
        """The value under ``key``, or None; not marked as used."""
        with self._lock:
            found = self._entries.get((self._name, key))
        return None if found is None else cast(V, found[0])

    def use(self, key: K) -> V | None:
        """The value under ``key``, or None; marked as the most recently used."""
        slot = (self._name, key)
        with self._lock:
            found = self._entries.get(slot)
            if found is None:
                return None
            self._entries.move_to_end(slot)
        return cast(V, found[0])

    def put(self, key: K, value: V) -> None:
        """Keep ``value`` under ``key`` as the newest entry; the oldest go past the bounds."""
        weight = self._weigh(value)
        slot = (self._name, key)
        budget, entries = self._budget, self._entries
        dropped = []  # released after the lock: dropping a value runs no code under it
        with self._lock:
            old = entries.pop(slot, None)
            if old is not None:
                budget._weight -= old[1]
                dropped.append(old)
            entries[slot] = (value, weight)
            budget._weight += weight
            while len(entries) > budget.max_entries or (
                budget._weight > budget.max_weight and len(entries) > 1
            ):
                _, gone = entries.popitem(last=False)
                budget._weight -= gone[1]
                dropped.append(gone)
        del dropped

    def discard(self, key: K) -> V | None:
        """Remove ``key``'s entry; its value, or None when there was none."""
        with self._lock:
            found = self._entries.pop((self._name, key), None)
            if found is None:
                return None
            self._budget._weight -= found[1]
        return cast(V, found[0])

    def items(self) -> list[tuple[K, V]]:
        """This cache's ``(key, value)`` pairs, least recently used first (a copy)."""
        name = self._name
        with self._lock:
            return [(cast(K, k), cast(V, v[0])) for (n, k), v in self._entries.items() if n == name]

    def values(self) -> list[V]:
        """This cache's values, least recently used first (a copy)."""
        return [value for _, value in self.items()]
