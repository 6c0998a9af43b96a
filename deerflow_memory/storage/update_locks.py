"""Update locks: one memory update of a (user, agent) at a time, across threads and processes.

An update holds its document's update lock from ``load`` through the model
call and ``apply`` to ``save``, so two processes updating one user wait for
each other instead of racing and retrying on revision conflicts. These locks
are separate from the short write locks ``save`` takes itself, so holding one
never deadlocks a save.

- :class:`LocalUpdateLocks`: per-key ``threading.Lock`` (one process only).
- :class:`FlockUpdateLocks`: adds an exclusive ``flock`` on one small file per
  key in a folder (the file backend; SQLite databases on a local disk).
- Postgres stores use a session advisory lock (see ``store_locks``).

How it fails: a lock not had within ``timeout`` seconds raises
:class:`UpdateLockTimeoutError`; the updater turns that into a dead letter.
"""

from __future__ import annotations

import contextlib
import hashlib
import importlib
import os
import threading
import time
import unicodedata
import weakref
from collections.abc import Callable, Iterator
from pathlib import Path
from types import ModuleType

from deerflow_memory.errors import UpdateLockTimeoutError

__all__ = ["HAS_FLOCK", "FlockUpdateLocks", "LocalUpdateLocks", "lock_name", "poll_flock"]

_fcntl: ModuleType | None
try:
    _fcntl = importlib.import_module("fcntl")
except ImportError:  # pragma: no cover - Windows
    _fcntl = None

HAS_FLOCK = _fcntl is not None
_POLL_MIN, _POLL_MAX = 0.001, 0.01


def lock_name(user_id: str, agent_name: str | None) -> str:
    """A file-name-safe, fixed-length name for one document's lock."""
    # NFC: ids spelled NFC or NFD name one document (see validate_name), so one lock.
    names = (user_id, agent_name if agent_name is not None else "\x00")
    raw = unicodedata.normalize("NFC", "\x1f".join(names))
    return hashlib.sha256(raw.encode("utf-8")).hexdigest()[:32]


class _Lock:
    __slots__ = ("__weakref__", "lock")

    def __init__(self) -> None:
        self.lock = threading.Lock()


class LocalUpdateLocks:
    """Per-(user, agent) thread locks; shared by every update of this object."""

    def __init__(self) -> None:
        self._locks: weakref.WeakValueDictionary[str, _Lock] = weakref.WeakValueDictionary()
        self._guard = threading.Lock()

    def _lock(self, name: str) -> _Lock:
        with self._guard:
            lock = self._locks.get(name)
            if lock is None:
                lock = self._locks[name] = _Lock()
            return lock

    @contextlib.contextmanager
    def hold(self, user_id: str, agent_name: str | None, timeout: float) -> Iterator[None]:
        """Hold the document's lock; :class:`UpdateLockTimeoutError` after ``timeout`` s."""
        end = time.monotonic() + timeout
        lock = self._lock(lock_name(user_id, agent_name))  # strong reference while held
        if not lock.lock.acquire(timeout=timeout):
            raise UpdateLockTimeoutError(user_id, agent_name, timeout)
        try:
            with self._cross_process(user_id, agent_name, end, timeout):
                yield
        finally:
            lock.lock.release()

    @contextlib.contextmanager
    def _cross_process(
        self, user_id: str, agent_name: str | None, end: float, timeout: float
    ) -> Iterator[None]:
        yield


class FlockUpdateLocks(LocalUpdateLocks):
    """Thread locks plus an ``flock`` on ``{folder}/{lock_name}.lock`` (POSIX; local disks).

    ``check``, when given, is called with each lock file's path before it is
    opened and raises to refuse it (a tenant's view refuses a path reached
    through a link, so two tenants never share or steal each other's locks).
    A lock file that is itself a symbolic link is never opened.
    """

    def __init__(
        self, folder: str | os.PathLike[str], *, check: Callable[[Path], object] | None = None
    ) -> None:
        super().__init__()
        self.folder = Path(os.fspath(folder))
        self._check = check

    @contextlib.contextmanager
    def _cross_process(
        self, user_id: str, agent_name: str | None, end: float, timeout: float
    ) -> Iterator[None]:
        if _fcntl is None:  # pragma: no cover - Windows: thread locks only
            yield
            return
        path = self.folder / f"{lock_name(user_id, agent_name)}.lock"
        if self._check is not None:
            self._check(path)  # before mkdir: nothing is made through a link
        self.folder.mkdir(parents=True, exist_ok=True, mode=0o700)
        fd = poll_flock(str(path), end)
        if fd is None:
            raise UpdateLockTimeoutError(user_id, agent_name, timeout)
        try:
            yield
        finally:
            os.close(fd)  # releases the flock


def poll_flock(path: str, end: float) -> int | None:
    """Open ``path`` and take an exclusive flock by ``end`` (monotonic); the fd or None.

    Lock files are never deleted, so the file locked is always the one at ``path``.
    """
    assert _fcntl is not None
    flags = os.O_RDWR | os.O_CREAT | getattr(os, "O_CLOEXEC", 0) | getattr(os, "O_NOFOLLOW", 0)
    fd = os.open(path, flags, 0o600)
    delay = _POLL_MIN
    while True:
        try:
            _fcntl.flock(fd, _fcntl.LOCK_EX | _fcntl.LOCK_NB)
            return fd
        except BlockingIOError:
            pass
        except BaseException:
            os.close(fd)
            raise
        remaining = end - time.monotonic()
        if remaining <= 0:
            os.close(fd)
            return None
        time.sleep(min(delay, remaining))
        delay = min(delay * 2, _POLL_MAX)
