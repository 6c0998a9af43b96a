"""Claiming a memory's dead letters for one retry, so two retries never send them both.

Two ``retry_dead_letters`` over the same letters at once (``deerflow-memory
retry`` beside a service retrying them, two processes of one app) would both
send them to the model: the user's update lock is held only around a run and
around settling a letter, never between them. :func:`claim_letters` is held
by a retry from before it reads a memory's letters until it has settled them.

The claim is an update lock under a name no user id can take (a NUL is
refused in user ids), so it is exactly as shared as the storage's update
lock: an ``flock`` on a file of the storage's ``locks/`` folder (file
storage, SQLite beside its database), a PostgreSQL session advisory lock
(Postgres stores), a thread lock for storages of one process (in-memory
stores). The OS or the database drops it with its holder: a retrier that
crashed or was killed never leaves it held, so no lease or expiry is needed.
It is distinct from the update lock itself (which the run and the settling
take inside it), so it never waits on an update.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Literal

from deerflow_memory.storage.base import MemoryStorage
from deerflow_memory.update.letter_writes import held_update_lock

__all__ = ["CLAIM_PREFIX", "ClaimState", "claim_letters"]

CLAIM_PREFIX = "\x00dead letter retry\x1f"
"""Prefixed to a user id, names the claim's lock: no user id starts with a NUL."""

ClaimState = Literal["claimed", "busy", "unclaimed"]


@contextmanager
def claim_letters(
    storage: MemoryStorage, user_id: str, agent_name: str | None, timeout: float = 0.0
) -> Iterator[tuple[ClaimState, str | None]]:
    """Hold the claim on the dead letters of ``(user_id, agent_name)`` while the block runs.

    Yields ``(state, why)``:

    - ``("claimed", None)``: held; no other retry runs these letters meanwhile.
    - ``("busy", why)``: another retry (this process or another) holds it and
      did not let go within ``timeout`` seconds (default 0: one try): the
      caller must not run the letters.
    - ``("unclaimed", why)``: the lock could not be taken at all (an unusable
      lock folder...): nothing is held. The caller may run the letters as
      before claims existed (the settling still takes the update lock).

    Must not be nested for the same memory in one thread (the lock is not
    reentrant: the inner claim is ``busy``).
    """
    with held_update_lock(storage, CLAIM_PREFIX + user_id, agent_name, timeout) as (busy, why):
        if why is None:
            yield "claimed", None
        elif busy:
            yield "busy", "another retry is running these dead letters"
        else:
            yield "unclaimed", why
