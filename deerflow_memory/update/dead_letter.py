"""Turning failed jobs into dead letters and dead letters back into updates.

A job becomes a :class:`~deerflow_memory.storage.dead_letters.DeadLetter`
when its retries are used up (or it failed for a reason retrying cannot fix).
The letter keeps only the messages the document's watermark says were not yet
extracted (plus what an older letter of the same key held), so a retry sends
the model exactly what is missing. :func:`retry_dead_letters` runs letters
again through a :class:`MemoryUpdater` (watermark bypassed: the messages are
known to be missing) and deletes each one whose update went through. The
letters of one key (one may be a letter of its own, written while the update
lock was busy, repeating turns of the other) run as one update, each message
once; a memory's letters are claimed by one retry at a time (see
:mod:`~deerflow_memory.update.letter_claims`).

A letter says what its ids are (``message_ids_are``; see
:mod:`~deerflow_memory.update.letter_keys`).
"""

from __future__ import annotations

from collections.abc import Callable, Container, Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Literal, Protocol

from langchain_core.messages import BaseMessage

from deerflow_memory.arguments import expect, expect_items, expect_text, wrong_type
from deerflow_memory.capture.messages import filter_checked_messages
from deerflow_memory.config import MemoryConfig
from deerflow_memory.errors import CorruptMemoryError, InvalidNameError
from deerflow_memory.logs import package_logger
from deerflow_memory.models import MemoryDocument, utc_now_iso
from deerflow_memory.storage.base import MemoryStorage, validate_name
from deerflow_memory.storage.dead_letters import DeadLetter, dead_letter_id
from deerflow_memory.update.encoding import encode_messages
from deerflow_memory.update.incremental import (
    select_new_indices,
    watermark_for,
    with_keys,
)
from deerflow_memory.update.letter_claims import claim_letters
from deerflow_memory.update.letter_keys import as_letter_of_keys, messages_of
from deerflow_memory.update.letter_writes import held_update_lock
from deerflow_memory.update.queue import UpdateJob
from deerflow_memory.update.timeouts import check_timeout
from deerflow_memory.update.union import merge_messages
from deerflow_memory.update.updater import WITHDRAWN, MemoryUpdater, UpdateResult, UpdateStatus

__all__ = ["RetriedLetter", "dead_letter_for", "job_from_dead_letter", "retry_dead_letters"]

logger = package_logger(__name__)


def dead_letter_for(
    job: UpdateJob,
    error: str,
    *,
    attempts: int,
    document: MemoryDocument | None = None,
    existing: DeadLetter | None = None,
    now: str | None = None,
    fenced: Container[str] | None = None,
    letter_id: str | None = None,
) -> DeadLetter:
    """The letter for ``job``: its not-yet-extracted messages merged into ``existing``.

    ``fenced``: the thread's message keys a delete sealed (not kept either).
    ``letter_id``: the id to store it under; default the key's (:func:`dead_letter_id`).
    """
    messages, keys = with_keys(filter_checked_messages(job.messages))
    if document is not None:
        mark = watermark_for(document, job.thread_id)
        _, new = select_new_indices(messages, mark, context_messages=0, fenced=fenced, keys=keys)
        messages, keys = [messages[i] for i in new], [keys[i] for i in new]
    encoded = encode_messages(messages)
    kind: Literal["keys", "ids"] | None = "keys"
    if existing is not None:
        old_keys, old_encoded, kind = as_letter_of_keys(existing)
        known = set(old_keys)
        fresh = [(k, e) for k, e in zip(keys, encoded, strict=True) if k not in known]
        keys = old_keys + [k for k, _ in fresh]
        encoded = old_encoded + [e for _, e in fresh]
    stamp = now or utc_now_iso()
    return DeadLetter(
        id=letter_id or dead_letter_id(job.thread_id, job.user_id, job.agent_name),
        thread_id=job.thread_id,
        user_id=job.user_id,
        agent_name=job.agent_name,
        error=error,
        attempts=attempts + (existing.attempts if existing else 0),
        first_failed_at=existing.first_failed_at if existing else stamp,
        last_attempt_at=stamp,
        message_ids=tuple(keys),
        message_ids_are=kind,
        messages=tuple(encoded),
        correction_detected=job.correction_detected
        or bool(existing and existing.correction_detected),
        reinforcement_detected=job.reinforcement_detected
        or bool(existing and existing.reinforcement_detected),
    )


def job_from_dead_letter(letter: DeadLetter) -> UpdateJob:
    """The :class:`UpdateJob` that runs ``letter`` again.

    Raises:
        CorruptMemoryError: the letter names an unsafe user or agent, or holds a
            message that cannot be decoded (an unknown type...); it is left as is.
    """
    where = f"dead letter {letter.id}"
    try:
        user_id = validate_name(letter.user_id, "user_id")
        agent = letter.agent_name
        agent = None if agent is None else validate_name(agent, "agent_name")
    except InvalidNameError as e:
        raise CorruptMemoryError(where, str(e)) from None
    try:
        messages = tuple(messages_of(letter))
    except (ValueError, KeyError, TypeError, AttributeError) as e:
        raise CorruptMemoryError(where, f"a message cannot be decoded: {e}") from None
    return UpdateJob(
        letter.thread_id,
        user_id,
        agent,
        messages,
        letter.correction_detected,
        letter.reinforcement_detected,
    )


@dataclass(frozen=True, slots=True)
class RetriedLetter:
    """One dead letter run again: the letter, the update's result, and whether it was removed.

    The letters of one conversation (one key: its letter, a ``<id>01`` slot,
    letters of their own written while the update lock was busy) run as one
    update: each of their outcomes holds that update's ``result``.

    ``removed``: what the letter held went through and none of it is stored
    any more (also when a later part of its conversation's run failed: the
    letter's own messages all went first).
    ``left``: the letter stored under its id afterwards, when one is: the one
    that failed again (attempts, error and time updated), or, when the
    update went through, a letter of only the messages another failure of
    the thread merged into it while it ran (they were not run). None when
    nothing is left, or when the letter was left untouched (see below).
    ``unrunnable`` is why the letter could not be run at all (see
    :func:`job_from_dead_letter`; it is left as it was), else None.
    ``busy``: another retry was running the letters of this memory (see
    :func:`~deerflow_memory.update.letter_claims.claim_letters`): not run
    here, left to that retry (``result`` is ``retry`` with the reason).
    """

    letter: DeadLetter
    result: UpdateResult
    removed: bool
    unrunnable: str | None = None
    left: DeadLetter | None = None
    busy: bool = False


Key = tuple[str, str, str | None]


def _key_of(letter: DeadLetter) -> Key:
    return (letter.thread_id, letter.user_id, letter.agent_name)


def retry_dead_letters(
    storage: MemoryStorage,
    updater: MemoryUpdater,
    letter_ids: Iterable[str] | None = None,
    *,
    user_id: str | None = None,
    lock_timeout: float | None = None,
) -> list[RetriedLetter]:
    """Run dead letters again, oldest first; remove each one that went through.

    The letters of one conversation (one key ``(thread_id, user_id,
    agent_name)``: a failure written while the update lock was busy has a
    letter of its own, which may repeat turns of the key's letter) run as one
    update: every message of them once, in order (see
    :func:`~deerflow_memory.update.union.merge_messages`). A letter that fails
    again stays, with its attempts, error and time updated. A letter that
    cannot be run (unsafe user id, undecodable message) is not run and stays
    as it was; its outcome says why (``unrunnable``).

    A retry claims the letters of a memory ``(user_id, agent_name)`` before
    it reads them and until they are settled (see
    :func:`~deerflow_memory.update.letter_claims.claim_letters`: shared by
    every process on the storage, released when its holder dies). Another
    retry running them meanwhile (``deerflow-memory retry`` beside a
    service's) does not wait: their outcomes are ``busy`` and nothing is sent.
    A claim that cannot be taken at all (not busy) is logged and the letters
    run without it.

    Each conversation's letters are read again under the user's update lock
    before each update of their run (see :meth:`MemoryUpdater.update`,
    ``withdrawn``): when one was removed since this retry read it (its memory
    was cleared), nothing of the copy held here is sent or saved; the removed
    letters' outcomes say ``removed``, the conversation's others stay as they
    are for the next retry. They are read again after the run too, under the
    user's update lock (the one every letter writer takes, not held during
    the run itself): messages another failure of the thread merged into one
    meanwhile stay in it, and a letter removed meanwhile (its memory deleted)
    is not written back. A lock not had within ``update_lock_timeout_seconds``
    leaves the letters untouched (they run again next time; ``removed`` is
    False), and so does a lock that cannot be taken at all.

    Args:
        storage: where the letters (and the documents) live.
        updater: runs each update (its model, retry policy and budgets).
        letter_ids: only these letters, and the other letters of their
            conversations (run with them, so no message is sent twice);
            default every letter (of ``user_id`` when given).
        lock_timeout: seconds to wait for the update lock after a run; default
            the updater's ``update_lock_timeout_seconds``.

    Returns:
        One outcome per letter run (or found busy or unrunnable); a letter
        another retry settled between this one's listing and its claim has none.

    Raises:
        InvalidArgumentError: ``storage`` is not a :class:`MemoryStorage`,
            ``updater`` has no ``update(job)``, or
            ``letter_ids`` is not a list of ids (one bare id as a string, ...);
            nothing was run.
        InvalidNameError: ``user_id`` is not text (or None).
        ConfigError: ``lock_timeout`` is not seconds (>= 0) or None.
    """
    expect(storage, MemoryStorage, "storage", "a MemoryStorage")
    # A stand-in with update(job) will do; a dict's or a set's update is no updater's.
    if type(updater).__module__ == "builtins" or not callable(getattr(updater, "update", None)):
        wrong_type("updater", "a MemoryUpdater (with update(job))", updater)
    wanted = set(_letter_ids(letter_ids)) if letter_ids is not None else None
    expect_text(user_id, "user_id", InvalidNameError, optional=True)
    lock_timeout = check_timeout(lock_timeout, "lock_timeout")
    timeout = _lock_timeout(updater) if lock_timeout is None else lock_timeout
    listed = storage.list_dead_letters(user_id)
    keys = {_key_of(x) for x in listed if wanted is None or x.id in wanted}
    owners = dict.fromkeys((x.user_id, x.agent_name) for x in listed if _key_of(x) in keys)
    outcomes: list[RetriedLetter] = []
    for owner in owners:
        mine = [x for x in listed if _key_of(x) in keys and (x.user_id, x.agent_name) == owner]
        outcomes += _retry_memory(storage, updater, mine, timeout)
    return outcomes


def _letter_ids(letter_ids: object) -> tuple[str, ...]:
    """``letter_ids`` as a tuple of ids: any iterable of text (a list, a set), not one bare id.

    Raises:
        InvalidArgumentError: a string, bytes, a mapping, something not iterable, or an
            item that is not text.
    """
    if isinstance(letter_ids, Iterable) and not isinstance(letter_ids, Sequence | Mapping):
        letter_ids = tuple(letter_ids)  # a set or a generator: read once
    return expect_items(letter_ids, str, "letter_ids", "letter id (a str)")


def _retry_memory(
    storage: MemoryStorage,
    updater: MemoryUpdater,
    listed: list[DeadLetter],
    timeout: float,
) -> list[RetriedLetter]:
    """Run one memory's ``listed`` letters under its claim, each read again first.

    A letter written after the listing runs with the next retry.
    """
    user_id, agent_name = listed[0].user_id, listed[0].agent_name
    with claim_letters(storage, user_id, agent_name) as (state, why):
        if state == "busy":
            logger.info("dead letter(s) of %r not run: %s", user_id, why)
            busy = UpdateResult(UpdateStatus.RETRY, error=why)
            return [RetriedLetter(x, busy, False, busy=True) for x in listed]
        if state == "unclaimed":
            logger.warning("dead letters of %r retried without a claim: %s", user_id, why)
        # Read again under the claim: another retry may have settled some since the listing.
        # Each one alone (a listing per memory would make a whole retry quadratic).
        groups: dict[Key, list[DeadLetter]] = {}
        for listed_letter in listed:
            letter = storage.read_dead_letter(listed_letter.id)
            if letter is not None and _key_of(letter) == _key_of(listed_letter):
                groups.setdefault(_key_of(letter), []).append(letter)
        outcomes: list[RetriedLetter] = []
        for group in groups.values():
            outcomes += _retry_conversation(storage, updater, group, timeout)
        return outcomes


def _retry_conversation(
    storage: MemoryStorage, updater: MemoryUpdater, letters: list[DeadLetter], timeout: float
) -> list[RetriedLetter]:
    """Run the letters of one key as one update, then settle each of them."""
    outcomes: dict[str, RetriedLetter] = {}
    ran: list[DeadLetter] = []
    jobs: list[UpdateJob] = []
    for letter in letters:
        try:
            jobs.append(job_from_dead_letter(letter))
        except CorruptMemoryError as e:
            failed = UpdateResult(UpdateStatus.FAILED, error=f"CorruptMemoryError: {e.reason}")
            outcomes[letter.id] = RetriedLetter(letter, failed, False, unrunnable=e.reason)
            continue
        ran.append(letter)
    if ran:
        job = _one_job(jobs)
        gone: list[DeadLetter] = []
        result, done = _run(_Guarded(updater, _withdrawn(storage, ran, gone)), job)
        if result.reason == WITHDRAWN:  # nothing ran: what is stored stays as it is
            outcomes.update((x.id, RetriedLetter(x, result, x in gone)) for x in ran)
            return [outcomes[x.id] for x in letters]
        went_through = result.status in (UpdateStatus.SAVED, UpdateStatus.SKIPPED)
        with held_update_lock(storage, job.user_id, job.agent_name, timeout) as (_, why):
            left = _settle(storage, ran, result, went_through, done) if why is None else None
        if left is None:
            names = ", ".join(x.id for x in ran)
            logger.warning("dead letter(s) %s left as they were after their retry: %s", names, why)
            outcomes.update((x.id, RetriedLetter(x, result, False)) for x in ran)
        else:
            outcomes.update(
                (x.id, RetriedLetter(x, result, removed, left=kept))
                for x, (kept, removed) in zip(ran, left, strict=True)
            )
    return [outcomes[x.id] for x in letters]


def _withdrawn(
    storage: MemoryStorage, ran: list[DeadLetter], gone: list[DeadLetter]
) -> Callable[[], bool]:
    """Asked under the update lock before each run: is a letter of ``ran`` gone (into ``gone``)?

    A letter removed since it was read (its memory cleared, in this process
    or another) must not be learned from the copy held here: the whole run
    is withdrawn, and the letters still stored run with the next retry.
    """

    def withdrawn() -> bool:
        gone[:] = [x for x in ran if not _still_stored(storage, x)]
        return bool(gone)

    return withdrawn


def _still_stored(storage: MemoryStorage, letter: DeadLetter) -> bool:
    stored = storage.read_dead_letter(letter.id)
    return stored is not None and _key_of(stored) == _key_of(letter)


def _one_job(jobs: list[UpdateJob]) -> UpdateJob:
    """The jobs of one key's letters (oldest first) as one: each message once, in order.

    Its messages are the ones the updater reads (filtered), each with the id
    :func:`with_keys` gives, so a part of them keys as the whole does.
    """
    first = jobs[0]
    keyed = [with_keys(filter_checked_messages(job.messages))[0] for job in jobs]
    messages: tuple[BaseMessage, ...] = tuple(keyed[0])
    for more in keyed[1:]:
        messages = merge_messages(messages, more)
    return UpdateJob(
        first.thread_id,
        first.user_id,
        first.agent_name,
        messages,
        any(job.correction_detected for job in jobs),
        any(job.reinforcement_detected for job in jobs),
    )


class _Updates(Protocol):
    def update(self, job: UpdateJob, *, incremental: bool = True) -> UpdateResult: ...


class _Guarded:
    """``updater``, each of its updates asking ``withdrawn`` under the update lock first."""

    def __init__(self, updater: MemoryUpdater, withdrawn: Callable[[], bool]) -> None:
        self.updater, self.withdrawn = updater, withdrawn

    def update(self, job: UpdateJob, *, incremental: bool = True) -> UpdateResult:
        return self.updater.update(job, incremental=incremental, withdrawn=self.withdrawn)


def _run(updater: _Updates, job: UpdateJob) -> tuple[UpdateResult, set[str] | None]:
    """Run ``job`` (keyed: see :func:`_one_job`) until none of it is left; what went.

    Returns the last result, and the keys that went (see below). An update
    that was withdrawn (see :class:`_Guarded`) ends the runs.

    A run that stops at ``max_model_calls_per_update`` (``deferred`` chunks)
    is followed by one of the rest at once (nothing queues it later). What
    went: None when all of the job did, else the keys the runs saved (an
    update that failed after some chunks, or one that saved none of the rest).
    """
    done: set[str] = set()
    while True:
        result = updater.update(job, incremental=False)
        if result.reason == WITHDRAWN:
            return result, done
        done.update(result.completed)
        went_through = result.status in (UpdateStatus.SAVED, UpdateStatus.SKIPPED)
        if went_through and not result.deferred:
            return result, None
        keys = with_keys(job.messages)[1]
        rest = tuple(m for m, key in zip(job.messages, keys, strict=True) if key not in done)
        if not went_through or len(rest) == len(job.messages):
            return result, done
        job = replace(job, messages=rest)


def _lock_timeout(updater: MemoryUpdater) -> float:
    """The updater's ``update_lock_timeout_seconds`` (the default for one without a config)."""
    config = getattr(updater, "config", None)  # a stand-in updater may have none
    if isinstance(config, MemoryConfig):
        return config.update_lock_timeout_seconds
    return float(MemoryConfig.model_fields["update_lock_timeout_seconds"].default)


def _settle(
    storage: MemoryStorage,
    ran: list[DeadLetter],
    result: UpdateResult,
    went_through: bool,
    done: set[str] | None,
) -> list[tuple[DeadLetter | None, bool]]:
    """Remove or update the letters ``ran`` (one key's, under its update lock); what stays of each.

    Per letter: what is stored under its id afterwards (None: nothing), and
    whether none of the letter's own messages is left there (it was
    ``removed``: a letter whose messages all went before a later part of the
    run failed is removed too; one of a run that went through in part is not).

    Read again first: a failure of the thread may have merged messages into
    one while they ran. Went through: the messages none of ``ran`` held stay
    (else the letter is removed). Failed: the stored letter (with them) gets
    the attempt, never a letter of ``ran`` written over it. Either way, of a
    run that went only in part (``done``: the keys that went), only the
    messages that did not go stay. Gone: nothing is written back.
    """
    stored = {x.id: letter for x in ran if (letter := storage.read_dead_letter(x.id))}
    sent = done
    if done is None:
        sent = {key for letter in ran for key in as_letter_of_keys(letter)[0]}
    return [
        _settle_one(storage, x, stored.get(x.id), result, went_through, sent, done is None)
        for x in ran
    ]


def _settle_one(
    storage: MemoryStorage,
    ran: DeadLetter,
    stored: DeadLetter | None,
    result: UpdateResult,
    went_through: bool,
    sent: set[str] | None,
    whole: bool,
) -> tuple[DeadLetter | None, bool]:
    """:func:`_settle` of one letter: ``sent`` the keys that went (``whole``: all ``ran`` held)."""
    if stored is None:  # gone meanwhile (its memory deleted): removed if the run went through
        return None, went_through
    if not went_through:
        left = _added_since(sent, stored) if sent else stored
        if left is None:  # every message went before a later part failed
            storage.delete_dead_letter(ran.id)
            return None, True
        left = left.model_copy(
            update={
                "attempts": stored.attempts + 1,
                "error": result.error or stored.error,
                "last_attempt_at": utc_now_iso(),
            }
        )
        storage.put_dead_letter(left)
        return left, _holds_none_of(ran, left)
    assert sent is not None
    added = None if whole and stored == ran else _added_since(sent, stored)
    if added is None:
        storage.delete_dead_letter(ran.id)
    else:
        storage.put_dead_letter(added)
        logger.info(
            "dead letter %s went through; %d message(s) merged into it meanwhile stay in it",
            ran.id,
            len(added.messages),
        )
    return added, _holds_none_of(ran, added)


def _holds_none_of(ran: DeadLetter, left: DeadLetter | None) -> bool:
    """True when ``left``, stored under a letter's id afterwards, has none of ``ran``'s messages."""
    return left is None or not set(as_letter_of_keys(left)[0]) & set(as_letter_of_keys(ran)[0])


def _added_since(sent: set[str], stored: DeadLetter) -> DeadLetter | None:
    """``stored`` with only the messages whose keys are not in ``sent``; None if none are left."""
    keys, encoded, kind = as_letter_of_keys(stored)
    if len(keys) != len(encoded):  # ids not one per message (a hand edit): keep it all
        return stored
    fresh = [(k, e) for k, e in zip(keys, encoded, strict=True) if k not in sent]
    if not fresh:
        return None
    return stored.model_copy(
        update={
            "message_ids": tuple(k for k, _ in fresh),
            "messages": tuple(e for _, e in fresh),
            "message_ids_are": kind,
        }
    )
