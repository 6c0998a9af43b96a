"""Writing a key's dead letter without losing what another writer or a damaged letter holds.

A key's letter is read, merged with the new failure and written back (the
outbox's writer and the service's). Two things must not lose a turn:

- Another writer between the read and the write (the outbox of another
  process, a retry settling the letter): :func:`write_letter` does the read,
  merge and write under the user's update lock
  (:meth:`MemoryStorage.update_lock`), the lock retries and deletes of memory
  take too. Writers run after an update, never inside one, so the lock is
  free of them. A lock not had in time does not lose the failure either: it
  is written as a letter of its own, under an id nobody else writes (a lock
  that cannot be taken at all is no reason to lose it: merged without it).
- A letter stored under the key's id that cannot be read (another version, a
  hand edit): it is kept as it is and reported (SPEC §15); :func:`letter_slot`
  gives the key's next id, ``<id>01``, ``<id>02``..., and a warning names it.
"""

from __future__ import annotations

import secrets
from collections.abc import Callable, Iterator
from contextlib import ExitStack, contextmanager

from deerflow_memory.errors import UpdateLockTimeoutError
from deerflow_memory.logs import package_logger
from deerflow_memory.storage.base import MemoryStorage
from deerflow_memory.storage.dead_letters import DeadLetter, UnreadableDeadLetter, dead_letter_id

__all__ = ["held_update_lock", "letter_slot", "stray_letter_id", "write_letter"]

logger = package_logger(__name__)

_SLOTS = 256  # the key's id, then <id>01 .. <id>ff (a letter id has 8 to 64 hex digits)


def letter_slot(
    storage: MemoryStorage, thread_id: str, user_id: str, agent_name: str | None
) -> tuple[str, DeadLetter | None]:
    """The id the key's next letter is written under, and the key's readable letter stored there.

    The key's id (:func:`dead_letter_id`) unless what is stored there cannot
    be read or is another key's letter: then the first of ``<id>01``,
    ``<id>02``... that is free or holds this key's letter (logged as a
    warning; what cannot be read stays listed by ``deerflow-memory pending``).
    None as the letter: nothing is stored under that id yet.
    """
    primary = dead_letter_id(thread_id, user_id, agent_name)
    stored: dict[str, DeadLetter | UnreadableDeadLetter] = {
        x.id if isinstance(x, DeadLetter) else x.name: x
        for x in storage.all_dead_letters()
        if (x.id if isinstance(x, DeadLetter) else x.name).startswith(primary)
    }
    taken: list[str] = []
    for n in range(_SLOTS):
        letter_id = primary if n == 0 else f"{primary}{n:02x}"
        found = stored.get(letter_id)
        if found is None or (
            isinstance(found, DeadLetter)
            and (found.thread_id, found.user_id, found.agent_name)
            == (thread_id, user_id, agent_name)
        ):
            if taken:
                _warn_kept(taken, stored, letter_id)
            return letter_id, found
        taken.append(letter_id)
    letter_id = stray_letter_id(thread_id, user_id, agent_name)
    _warn_kept(taken, stored, letter_id)
    return letter_id, None


def _warn_kept(
    taken: list[str], stored: dict[str, DeadLetter | UnreadableDeadLetter], letter_id: str
) -> None:
    reasons = "; ".join(f"{x}: {_why_taken(stored[x])}" for x in taken)
    logger.warning(
        "dead letter(s) under this key's id kept as they are (%s); the new failure is kept as "
        "dead letter %s (deerflow-memory pending lists both)",
        reasons,
        letter_id,
    )


def _why_taken(found: DeadLetter | UnreadableDeadLetter) -> str:
    return found.reason if isinstance(found, UnreadableDeadLetter) else "another key's letter"


def stray_letter_id(thread_id: str, user_id: str, agent_name: str | None) -> str:
    """A fresh id for one of the key's letters that no other writer will pick (random suffix)."""
    return dead_letter_id(thread_id, user_id, agent_name) + secrets.token_hex(8)


@contextmanager
def held_update_lock(
    storage: MemoryStorage, user_id: str, agent_name: str | None, timeout: float
) -> Iterator[tuple[bool, str | None]]:
    """Hold the update lock of ``(user_id, agent_name)`` if it can be had.

    Yields ``(busy, why)``: ``why`` is None when the lock is held, else why it
    is not, ``busy`` True when it was not had within ``timeout`` seconds (held
    by someone else) and False when taking it failed (an unusable lock folder...).
    Only taking the lock is caught; what the block raises goes through.
    """
    busy, why = False, None
    with ExitStack() as stack:
        try:
            stack.enter_context(storage.update_lock(user_id, agent_name, timeout))
        except UpdateLockTimeoutError:
            busy, why = True, f"no update lock within {timeout:g} s"
        except Exception as e:
            why = f"the update lock failed ({type(e).__name__}: {e})"
        yield busy, why


def write_letter(
    storage: MemoryStorage,
    key: tuple[str, str, str | None],
    make: Callable[[str | None], DeadLetter],
    timeout: float,
) -> DeadLetter:
    """Store the letter ``make`` builds, under the update lock of the key's user and agent.

    Args:
        key: ``(thread_id, user_id, agent_name)`` of the failed update.
        make: builds the letter. Given None, it merges into the key's letter it
            finds itself (see :func:`letter_slot`): that read, the merge and the
            write are done under the lock. Given an id (the lock was busy for
            ``timeout`` seconds), it builds a letter of the failure alone under
            that id (:func:`stray_letter_id`), so nothing another writer holds
            is overwritten. A lock that cannot be taken at all (it failed, not
            busy) protects nothing: the merge is done without it, with a warning.
        timeout: seconds to wait for the lock (``update_lock_timeout_seconds``).

    Must not be called while this thread holds that lock (it is not reentrant):
    writers run after an update has released it.

    Raises:
        StorageError: the write failed (the caller keeps the failure).
    """
    thread_id, user_id, agent_name = key
    with held_update_lock(storage, user_id, agent_name, timeout) as (busy, why):
        letter = make(stray_letter_id(thread_id, user_id, agent_name) if busy else None)
        storage.put_dead_letter(letter)
    if why is not None:
        logger.warning(
            "dead letter %s of %r written without the update lock: %s%s",
            letter.id,
            user_id,
            why,
            " (kept as a letter of its own, not merged)" if busy else "",
        )
    return letter
