"""What a process keeps per live object, keyed by the object itself, not by its equality."""

from __future__ import annotations

import threading
import weakref
from collections.abc import Callable
from typing import Generic, TypeVar

__all__ = ["PerObject"]

V = TypeVar("V")


class PerObject(Generic[V]):
    """One value per live object, made on first use and dropped when the object is collected.

    Keyed by identity: an object that defines ``__eq__`` without ``__hash__`` (a
    dataclass store), or two objects that compare equal, each get their own value,
    which a :class:`weakref.WeakKeyDictionary` (keyed by equality) refuses or shares.
    The objects are held weakly, so they are not kept alive. Thread-safe.

    Args:
        make: builds the value of an object the first time it is asked for.

    Raises:
        TypeError: (from :meth:`get`) the object cannot be weakly referenced.
    """

    def __init__(self, make: Callable[[], V]) -> None:
        self._make = make
        self._values: dict[int, tuple[weakref.ref[object], V]] = {}
        self._dead: list[weakref.ref[object]] = []  # appended by collection, purged under the lock
        self._lock = threading.Lock()

    def get(self, obj: object) -> V:
        """The value of ``obj``, made now if it has none."""
        key = id(obj)
        with self._lock:
            self._purge()
            entry = self._values.get(key)
            if entry is not None and entry[0]() is obj:
                return entry[1]
            value = self._make()
            # The callback only notes the death: it may run in a collection on any
            # thread, this one included, while the lock is held.
            self._values[key] = (weakref.ref(obj, self._dead.append), value)
            return value

    def _purge(self) -> None:
        while self._dead:
            dead = self._dead.pop()
            for key, (ref, _) in list(self._values.items()):
                if ref is dead:
                    del self._values[key]
                    break

    def __len__(self) -> int:
        """Objects with a value now."""
        with self._lock:
            self._purge()
            return len(self._values)
