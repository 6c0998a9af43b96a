"""The store backends' outbox: one item per job key, claimed under a lease by any process.

Items live under ``(*prefix, "outbox")`` with key ``ob_<hash of the job key>``
and value ``{"update": <PendingUpdate JSON>, "leaseOwner": ..., "leaseUntil": ...}``.
Every read-modify-write of an item holds the storage's cross-process write
lock of that item (a PostgreSQL advisory lock; a ``flock`` beside a SQLite
file), which is what makes the claim atomic.

Why keyed by job, not by process: replicas of one LangGraph server share the
database, and a user's burst may land on two of them. Both record into the
*same* item (the captures are merged, message by message, so neither
replica's clock error can drop the other's turns; the later one's due time
wins), and whichever replica's timer fires after the last capture claims it:
one model call per debounce window. A replica whose own capture was replaced
by another's skips the item until it is due (its owner runs it then).

Claims carry a lease (``outbox_lease_seconds``): a worker that dies mid-update
leaves a lease that ends, after which any process's poller (every
``outbox_poll_seconds``) or the next process to start retakes the item.
A new process starts with every unleased item (the ones whose process died
before claiming them) and runs them when due.

Times stored in items (due, captured, lease end) are on the *database's*
clock where it has one (Postgres ``clock_timestamp()``): each process measures
its offset from it at recovery and at every poll, so replicas whose wall
clocks disagree still agree on when a lease ends or which capture is newer.
Other stores use the process's clock.
"""

from __future__ import annotations

import hashlib
import math
import time
import uuid
from collections.abc import Callable
from dataclasses import replace
from typing import Any

from langgraph.store.base import GetOp, PutOp, SearchOp

from deerflow_memory.logs import package_logger
from deerflow_memory.storage.names import of_memory
from deerflow_memory.storage.outbox import (
    DEFAULT_COMMIT_INTERVAL,
    Decode,
    Encode,
    GroupCommitOutbox,
    Merge,
    PendingUpdate,
    finite_time,
    merge_captures,
)
from deerflow_memory.storage.store import StoreMemoryStorage

__all__ = ["DEFAULT_LEASE_SECONDS", "StoreOutbox", "outbox_key"]

logger = package_logger(__name__)

DEFAULT_LEASE_SECONDS = 300.0
_OUTBOX = "outbox"
_PAGE = 1000


def outbox_key(thread_id: str, user_id: str, agent_name: str | None) -> str:
    """Item key of one job key: ``ob_`` + 32 hex digits."""
    raw = "\x1f".join((thread_id, user_id, agent_name if agent_name is not None else "\x00"))
    return "ob_" + hashlib.sha256(raw.encode("utf-8")).hexdigest()[:32]


class StoreOutbox(GroupCommitOutbox):
    """Outbox items in the store of a :class:`StoreMemoryStorage`, shared by every process.

    Args:
        storage: the storage (its store, namespace prefix and write locks are used).
        encode, decode: turn messages into JSON values and back.
        lease_seconds: how long a claim holds an item before others may retake it.
        commit_interval: group-commit window in seconds.
        clock: this process's clock (epoch seconds); the database's is preferred.
        merge: how two processes' captures of one thread become one
            (:func:`~deerflow_memory.storage.outbox.merge_captures`); required:
            the service passes the update queue's own rule
            (``update.union.merge_messages``), so that what a shared record
            keeps once is what the updater sends once.
    """

    shared = True

    def __init__(
        self,
        storage: StoreMemoryStorage,
        encode: Encode,
        decode: Decode,
        *,
        merge: Merge,
        lease_seconds: float = DEFAULT_LEASE_SECONDS,
        commit_interval: float = DEFAULT_COMMIT_INTERVAL,
        clock: Callable[[], float] = time.time,
    ) -> None:
        super().__init__(commit_interval=commit_interval)
        self._merge = merge
        self._clock = clock
        self._offset = 0.0  # database clock minus this process's clock
        self._storage = storage
        self._encode, self._decode = encode, decode
        self._ns = (*storage.namespace_prefix, _OUTBOX)
        self._lease = self.lease_seconds = lease_seconds
        self.owner = uuid.uuid4().hex
        self._unreadable: set[str] = set()  # keys of items already warned about

    # --- item helpers (each under the item's cross-process lock) ------------------------

    def _key(self, update: PendingUpdate) -> str:
        return outbox_key(update.thread_id, update.user_id, update.agent_name)

    def _hold(self, key: str) -> Any:
        return self._storage.hold_lock("deerflow_memory:outbox:" + "\x1f".join((*self._ns, key)))

    def _get(self, key: str) -> dict[str, Any] | None:
        (item,) = self._storage.run_ops([GetOp(self._ns, key, refresh_ttl=False)])
        return dict(item.value) if item is not None else None

    def _put(self, key: str, value: dict[str, Any] | None) -> None:
        self._storage.run_ops([PutOp(self._ns, key, value, index=False)])

    def _parse(self, value: dict[str, Any], key: str) -> PendingUpdate | None:
        """The item's record, or None when it cannot be read (warned once per item key)."""
        try:
            update = PendingUpdate.from_json(value["update"], self._decode)
        except (KeyError, TypeError, ValueError) as e:
            if key not in self._unreadable:  # every poll reads it again: say it once
                self._unreadable.add(key)
                logger.warning("skipping an unreadable memory outbox item %s: %s", key, e)
            return None
        off = self._offset  # stored on the database clock; this process runs on its own
        return replace(update, due_at=update.due_at - off, captured_at=update.captured_at - off)

    def _stored(self, update: PendingUpdate) -> dict[str, Any]:
        """``update`` as an item stores it: times on the database clock."""
        data = update.to_json(self._encode)
        off = self._offset
        data["due"], data["captured"] = update.due_at + off, update.captured_at + off
        return data

    # --- the database clock -----------------------------------------------------------

    def sync_clock(self, samples: int = 3) -> None:
        """Measure the offset of the database's clock from this process's (no-op without one).

        Each reading bounds the offset to ``[database - after, database - before]``
        (the round trip's ends); the bounds of ``samples`` readings are
        intersected, and the offset kept is the point of that interval nearest
        zero. So clocks that agree within what a round trip can measure (one
        machine, NTP-synced hosts) get no correction at all, instead of a few
        milliseconds of measuring noise that would differ between replicas and
        reorder their captures; a real skew beyond it is corrected.
        """
        low, high = -math.inf, math.inf
        for _ in range(max(1, samples)):
            before = self._clock()
            try:
                database = self._storage.database_time()
            except Exception as e:
                logger.warning("could not read the database clock; keeping the last offset: %s", e)
                return
            if database is None:
                return
            after = self._clock()
            if database - after > high or database - before < low:
                low = high = database - (before + after) / 2  # a clock stepped: trust this one
            else:
                low, high = max(low, database - after), min(high, database - before)
        self._offset = min(max(0.0, low), high)

    def _now(self) -> tuple[float, float]:
        """This process's time, and the same moment on the database clock."""
        local = self._clock()
        return local, local + self._offset

    # --- group commit -------------------------------------------------------------------

    def _commit(self, batch: list[tuple[str, PendingUpdate]]) -> None:
        for op, update in batch:
            key = self._key(update)
            with self._hold(key):
                current = self._get(key)
                held = current.get("update") if current is not None else None
                same = isinstance(held, dict) and held.get("id") == update.record_id
                mine = current is not None and current.get("leaseOwner") == self.owner
                if op == "put":
                    stored = self._parse(current, key) if current is not None else None
                    if stored is not None and stored.error is None:
                        merged = merge_captures(stored, update, self._merge)
                        if merged is None:
                            continue  # an older capture (another replica's) holds all of ours
                        update = merged
                    elif stored is not None and stored.captured_at > update.captured_at:
                        continue  # a dead letter kept here is replaced only by a later capture
                    value = {
                        "update": self._stored(update),
                        # A running claim keeps its lease; it will see the newer id.
                        "leaseOwner": current.get("leaseOwner") if current else None,
                        "leaseUntil": current.get("leaseUntil") if current else None,
                    }
                    self._put(key, value)
                elif current is None:
                    continue
                elif op == "done" and same:
                    self._put(key, None)
                elif op == "dead" and same:
                    current["update"] = self._stored(update)
                    current["leaseOwner"] = current["leaseUntil"] = None
                    self._put(key, current)
                elif mine:  # done/dead of a replaced capture, or release: give the lease back
                    current["leaseOwner"] = current["leaseUntil"] = None
                    self._put(key, current)

    # --- claiming -----------------------------------------------------------------------

    def claim(self, update: PendingUpdate) -> PendingUpdate | None:
        """Lease the item if it is ours to run now; the stored (possibly newer) record, or None."""
        self.sync_key(update, timeout=60)  # this key's own writes must be stored before we look
        key = self._key(update)
        local, now = self._now()
        with self._hold(key):
            current = self._get(key)
            if current is None:
                return None  # done already (by us or another process)
            stored = self._parse(current, key)
            if stored is None or stored.error is not None:
                return None
            if self._held_by(current, now) not in (None, self.owner):
                return None  # another process is running it
            if stored.record_id != update.record_id and stored.due_at > local:
                return None  # a newer capture (another process's) is not due yet
            current["leaseOwner"], current["leaseUntil"] = self.owner, now + self._lease
            self._put(key, current)
            return stored

    def renew(self, update: PendingUpdate) -> bool:
        """Push this process's lease on the item of ``update`` to now + lease."""
        key = self._key(update)
        with self._hold(key):
            current = self._get(key)
            if current is None or current.get("leaseOwner") != self.owner:
                return False
            current["leaseUntil"] = self._now()[1] + self._lease
            self._put(key, current)
            return True

    # --- discovery ----------------------------------------------------------------------

    def _scan(self) -> list[tuple[PendingUpdate, dict[str, Any]]]:
        self.sync(timeout=60)
        # A full page is read again whole with a larger limit (offset pages of
        # PostgresStore can skip or repeat items; see the store backend).
        limit = _PAGE
        while True:
            (page,) = self._storage.run_ops([SearchOp(self._ns, limit=limit, refresh_ttl=False)])
            if len(page) < limit:
                break
            limit *= 16
        found: list[tuple[PendingUpdate, dict[str, Any]]] = []
        for item in page:
            update = self._parse(item.value, item.key)
            if update is not None:
                found.append((update, item.value))
        return found

    def _held_by(self, value: dict[str, Any], now: float) -> str | None:
        """The owner of the item's live lease, or None (no lease, an ended or unreadable one).

        A lease is only what this outbox writes (an owner's text and a finite
        time); anything else holds nothing, so a damaged item is run, not
        stuck.
        """
        owner, until = value.get("leaseOwner"), value.get("leaseUntil")
        if not isinstance(owner, str):
            return None
        try:
            return owner if finite_time(until, "leaseUntil") > now else None
        except ValueError:
            return None

    def _claimable(self, value: dict[str, Any], now: float) -> bool:
        return self._held_by(value, now) is None

    def recover(self) -> list[PendingUpdate]:
        """Every pending item nobody holds a live lease on (run at its due time)."""
        return self.recover_all()[0]

    def recover_all(self) -> tuple[list[PendingUpdate], list[PendingUpdate]]:
        """:meth:`recover` and :meth:`dead_letters` from one read of the outbox."""
        self.sync_clock()
        now = self._now()[1]
        found = self._scan()
        pending = [u for u, v in found if u.error is None and self._claimable(v, now)]
        return pending, [u for u, _ in found if u.error is not None]

    def poll(self) -> list[PendingUpdate]:
        """Items due now that nobody holds a live lease on (another process died, or is late)."""
        self.sync_clock()
        local, now = self._now()
        return [
            u
            for u, v in self._scan()
            if u.error is None and u.due_at <= local and self._claimable(v, now)
        ]

    def leased(self) -> list[PendingUpdate]:
        """Pending items a process holds a live lease on (running them now); only reads."""
        self.sync_clock()
        now = self._now()[1]
        return [u for u, v in self._scan() if u.error is None and not self._claimable(v, now)]

    def discard(self, user_id: str, agent_name: str | None) -> list[PendingUpdate]:
        """Delete the items of one memory, whoever captured them (a deleted memory's)."""
        gone = []
        for update, _ in self._scan():
            if not of_memory(update.user_id, update.agent_name, user_id, agent_name):
                continue
            key = self._key(update)
            with self._hold(key):
                current = self._get(key)  # what is stored now (a capture may have merged in)
                if current is not None:
                    self._put(key, None)
                    gone.append(self._parse(current, key) or update)
        return gone

    def dead_letters(self) -> list[PendingUpdate]:
        return [u for u, _ in self._scan() if u.error is not None]
