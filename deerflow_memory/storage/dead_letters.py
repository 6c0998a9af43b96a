"""Dead letters: memory updates that failed for good, kept so nothing is lost silently.

A :class:`DeadLetter` is written by the updater once a job has used up its
attempts (transient model failures retried with backoff and requeued, one
retry for an unparsable answer). It holds everything needed to run the update
again later: the key ``(thread_id, user_id, agent_name)``, the messages
(LangChain's ``messages_to_dict`` JSON, so this layer needs no message types),
the signals, the last error, how many attempts were made and when.

There is at most one letter per key: :func:`dead_letter_id` is a stable hash
of the key, so a second failure for the same conversation replaces (the caller
merges) the first instead of piling up. Every storage backend keeps letters
next to the documents (files under ``dead_letters/``, store items under
``(*prefix, "dead_letters")``); ``deerflow-memory pending`` lists them and
``deerflow-memory retry`` runs them again.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError
from pydantic.alias_generators import to_camel

from deerflow_memory.models import first_problem, utc_now_iso
from deerflow_memory.storage.names import same_name

__all__ = [
    "DEAD_LETTER_ID",
    "DeadLetter",
    "Owner",
    "UnreadableDeadLetter",
    "dead_letter_id",
    "misplaced",
    "owner_of",
    "parse_letter",
    "readable_letters",
]

# What a letter id looks like (:func:`dead_letter_id` makes 24 hex digits): safe as a file name.
DEAD_LETTER_ID = re.compile(r"dl_[0-9a-f]{8,64}")


def dead_letter_id(thread_id: str, user_id: str, agent_name: str | None) -> str:
    """Stable id of one key's letter: ``dl_`` + 24 hex digits of a SHA-256 (file-name safe)."""
    raw = "\x1f".join((thread_id, user_id, agent_name if agent_name is not None else "\x00"))
    return "dl_" + hashlib.sha256(raw.encode("utf-8")).hexdigest()[:24]


class DeadLetter(BaseModel):
    """One failed memory update (camelCase JSON like the memory document).

    Attributes:
        id: :func:`dead_letter_id` of the key (``dl_`` + 8 to 64 hex digits).
        thread_id, user_id, agent_name: the job's key.
        error: ``"<ErrorType>: message"`` of the last failure.
        attempts: model/apply attempts made in total, across requeues.
        first_failed_at, last_attempt_at: ISO-8601 UTC times.
        message_ids: ids (or content hashes) of the messages, for a quick look.
        message_ids_are: what ``message_ids`` and the messages' ids are:
            ``"keys"``, the messages' keys (the updater's letters; an id-less
            message carries the id ``with_keys`` gave it); ``"ids"``, the ids
            as the client sent them (the outbox's letters; an id-less message
            has none). ``None``: a letter written before this field, read as
            those versions wrote it (see ``restore_keyed_ids``).
        messages: the messages as ``langchain_core.messages.messages_to_dict`` JSON.
        correction_detected, reinforcement_detected: the job's signals.
    """

    model_config = ConfigDict(
        alias_generator=to_camel,
        populate_by_name=True,
        frozen=True,
        extra="ignore",
    )

    id: str = Field(pattern=f"^{DEAD_LETTER_ID.pattern}$")
    thread_id: str
    user_id: str
    agent_name: str | None = None
    error: str = ""
    attempts: int = Field(default=0, ge=0)
    first_failed_at: str = Field(default_factory=utc_now_iso)
    last_attempt_at: str = Field(default_factory=utc_now_iso)
    message_ids: tuple[str, ...] = ()
    message_ids_are: Literal["keys", "ids"] | None = None
    messages: tuple[dict[str, Any], ...] = ()
    correction_detected: bool = False
    reinforcement_detected: bool = False

    @classmethod
    def for_key(
        cls, thread_id: str, user_id: str, agent_name: str | None, **fields: Any
    ) -> DeadLetter:
        """A letter whose ``id`` is derived from the key."""
        return cls(
            id=dead_letter_id(thread_id, user_id, agent_name),
            thread_id=thread_id,
            user_id=user_id,
            agent_name=agent_name,
            **fields,
        )

    def to_json(self) -> str:
        """camelCase JSON text."""
        return self.model_dump_json(by_alias=True)

    def to_dict(self) -> dict[str, Any]:
        """camelCase JSON-ready mapping."""
        return self.model_dump(mode="json", by_alias=True)


Owner = tuple[str, str | None]
"""Whose memory a letter is for: ``(user_id, agent_name)``."""


@dataclass(frozen=True, slots=True)
class UnreadableDeadLetter:
    """A stored dead letter that cannot be read: kept as it is, listed so it is not lost from view.

    Attributes:
        location: its file path (file backend) or store namespace and key.
        reason: why it cannot be read, one line.
        name: its file name without ``.json`` or its store key (what
            :meth:`MemoryStorage.delete_unreadable_dead_letter` removes); ``""``
            when unknown.
        owner: ``(user_id, agent_name)`` read from what of it parses (see
            :func:`owner_of`), so deleting a memory deletes it too; None when
            whose it is cannot be told.
    """

    location: str
    reason: str
    name: str = ""
    owner: Owner | None = None


def misplaced(letter: DeadLetter, stored_as: str) -> str | None:
    """Why ``letter``, stored under the name ``stored_as`` (file stem or store key), cannot be used.

    A letter is found, replaced and removed by its id, so one kept under another
    name (a restored backup copy ``dl_<x>.json`` holding ``{"id": "dl_<y>"}``)
    would be run on every retry and never removed. Backends list such a letter
    as unreadable instead. None when the names agree.

    The advice is to remove it: storing it under its id again would bring
    back what it holds, even after its user's memory was deleted (a delete
    removes such copies of that memory, but not a copy restored later).
    """
    if letter.id == stored_as:
        return None
    return (
        f"its id {letter.id!r} is not its name {stored_as!r}: a copy, never run (remove it; "
        "store it under its id to retry it only if its memory was not deleted since)"
    )


# What of a damaged letter's text names its owner (camelCase as written, snake_case accepted).
_JSON_STRING = r'"((?:[^"\\]|\\.)*)"'
_USER_FIELD = re.compile(r'"(?:userId|user_id)"\s*:\s*' + _JSON_STRING)
_AGENT_FIELD = re.compile(r'"(?:agentName|agent_name)"\s*:\s*(?:null\b|' + _JSON_STRING + ")")


def owner_of(raw: Any) -> Owner | None:
    """Whose memory a damaged letter is for, from what of it can be parsed; None when unknown.

    Args:
        raw: the stored value: a mapping (a store item), or the bytes or text
            of a file. JSON that parses is read by its ``userId``/``agentName``
            fields (a missing ``agentName`` is the default agent, as in
            :class:`DeadLetter`); text that does not parse is searched for those
            two fields, and both must be found.

    Returns:
        ``(user_id, agent_name)``, or None when the user id is missing or not a
        string, or the agent name is not a string or null.
    """
    if isinstance(raw, bytes | bytearray):
        raw = bytes(raw).decode("utf-8", errors="replace")
    if isinstance(raw, str):
        try:
            raw = json.loads(raw)
        except ValueError:
            return _owner_in_text(raw)
    if not isinstance(raw, dict):
        return None
    user = raw.get("userId", raw.get("user_id"))
    agent = raw.get("agentName", raw.get("agent_name"))
    if not isinstance(user, str) or not (agent is None or isinstance(agent, str)):
        return None
    return (user, agent)


def _owner_in_text(text: str) -> Owner | None:
    user, agent = _USER_FIELD.search(text), _AGENT_FIELD.search(text)
    if user is None or agent is None:
        return None
    try:
        user_id = json.loads(f'"{user.group(1)}"')
        agent_name = None if agent.group(1) is None else json.loads(f'"{agent.group(1)}"')
    except ValueError:
        return None
    return (user_id, agent_name)


def parse_letter(raw: Any, stored_as: str, location: str) -> DeadLetter | UnreadableDeadLetter:
    """The letter stored under ``stored_as`` (file stem or store key), or why it cannot be used.

    Args:
        raw: the stored value: a file's bytes, or a store item's mapping.
        stored_as: the name it is stored under (see :func:`misplaced`).
        location: where it is, for :attr:`UnreadableDeadLetter.location`.

    Returns:
        The :class:`DeadLetter`, or an :class:`UnreadableDeadLetter` (with its
        owner when that can be read) when it does not parse or is a copy
        kept under another name.
    """
    try:
        if isinstance(raw, bytes | bytearray | str):
            letter = DeadLetter.model_validate_json(raw)
        else:
            letter = DeadLetter.model_validate(raw)
    except ValidationError as e:
        whole = "file" if isinstance(raw, bytes | bytearray | str) else "value"
        return UnreadableDeadLetter(location, first_problem(e, whole), stored_as, owner_of(raw))
    wrong = misplaced(letter, stored_as)
    if wrong is None:
        return letter
    return UnreadableDeadLetter(location, wrong, stored_as, (letter.user_id, letter.agent_name))


def readable_letters(
    found: Iterable[DeadLetter | UnreadableDeadLetter], user_id: str | None = None
) -> list[DeadLetter]:
    """The letters of ``found`` that can be read (only ``user_id``'s when given), oldest first."""
    letters = [
        letter
        for letter in found
        if isinstance(letter, DeadLetter)
        and (user_id is None or same_name(letter.user_id, user_id))
    ]
    letters.sort(key=lambda letter: (letter.first_failed_at, letter.id))
    return letters
