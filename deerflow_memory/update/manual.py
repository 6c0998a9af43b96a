"""Edits by hand: add, change and delete facts as the user's own word (``sourceType: manual``).

The HTTP API, the ``remember`` / ``forget`` tools and the CLI change memory
through these functions. The document changes are pure
(:func:`add_manual_fact`, :func:`edit_fact`, :func:`delete_fact`); one I/O
shell, :func:`save_edit`, loads, applies and saves with ``expected_revision``
exactly like the updater, so an edit and a background update never lose each
other's work.

Rules:

- text goes through :func:`~deerflow_memory.update.validate.check_fact_text`
  (NFC, control and bidi characters removed, not empty, not a placeholder, at
  most ``max_fact_chars``); confidence through
  :func:`~deerflow_memory.models.proposed_confidence`. Bad input raises
  :class:`InvalidFactError` and changes nothing;
- adding text that is already stored (same words, case and spacing aside)
  makes the stored fact manual instead of adding a copy;
- an edit keeps the fact's id and moves the old version to
  ``supersededFacts`` (reason ``"edited by the user"``); the result is manual.
  New wording is dated now and told in the editor's thread (``source``;
  :data:`MANUAL_SOURCE` from the HTTP API), so "when did I say that" answers
  with the edit, while the old wording keeps its own date and thread in history;
- a delete moves the fact to ``supersededFacts`` with
  :data:`~deerflow_memory.models.USER_DELETED_REASON`; extraction never adds
  that text back (see :mod:`deerflow_memory.update.apply`).

Failure behaviour of :func:`save_edit`: a client that names the revision it
edited gets :class:`RevisionConflictError` when the facts or summaries changed
since (nothing is written: an edit never overwrites what its author did not
see). Saves that only moved bookkeeping (use counts written after the agent
injected facts, extraction watermarks) are not such a change
(:meth:`~deerflow_memory.models.MemoryDocument.same_content_since`). A conflict
with a concurrent writer between load and save is retried on the fresh
document, with the same check, up to ``retries`` times.
"""

from __future__ import annotations

import difflib
import unicodedata
from collections import Counter
from collections.abc import Callable
from typing import Any, TypeVar

from deerflow_memory.arguments import (
    expect,
    expect_document,
    expect_number,
    expect_text,
    wrong_type,
)
from deerflow_memory.errors import FactNotFoundError, InvalidFactError, RevisionConflictError
from deerflow_memory.models import (
    USER_DELETED_REASON,
    Fact,
    FactCategory,
    MemoryDocument,
    SourceType,
    SupersededFact,
    new_fact_id,
    proposed_confidence,
    utc_now_iso,
)
from deerflow_memory.storage.base import MemoryStorage
from deerflow_memory.update.validate import check_fact_text, without_invisible

__all__ = [
    "EDITED_REASON",
    "MANUAL_SOURCE",
    "add_manual_fact",
    "delete_fact",
    "edit_fact",
    "save_edit",
]

EDITED_REASON = "edited by the user"
MANUAL_SOURCE = "manual"
"""``source`` (thread id) of facts written by hand, when the caller names no thread."""

T = TypeVar("T")


def _category(value: FactCategory | str) -> FactCategory:
    try:
        return FactCategory(str(value).strip().lower())
    except ValueError:
        allowed = ", ".join(c.value for c in FactCategory)
        shown = str(value)[:40]
        raise InvalidFactError(f"unknown category {shown!r}; use one of {allowed}") from None


def _confidence(value: Any) -> float:
    try:
        return proposed_confidence(value)
    except ValueError as e:
        raise InvalidFactError(str(e)) from None


def _key(text: str) -> str:
    return " ".join(text.split()).casefold()


def _supersede(
    document: MemoryDocument, fact: Fact, reason: str, now: str, keep: int
) -> tuple[SupersededFact, ...]:
    data = {**fact.model_dump(), "superseded_at": now, "reason": reason}
    entry = SupersededFact.model_validate(data)
    combined = (*document.superseded_facts, entry)
    return combined[-keep:] if keep else ()


def add_manual_fact(
    document: MemoryDocument,
    content: str,
    category: FactCategory | str = FactCategory.CONTEXT,
    confidence: Any = 1.0,
    *,
    source: str = MANUAL_SOURCE,
    max_fact_chars: int = 500,
    now: str | None = None,
) -> tuple[MemoryDocument, Fact]:
    """``document`` with one more manual fact, and that fact.

    Raises:
        InvalidDocumentError: ``document`` is not a :class:`MemoryDocument`.
        InvalidFactError: bad text, category or confidence.
    """
    expect_document(document)
    expect_text(content, "content", InvalidFactError)
    text = check_fact_text(content, max_chars=max_fact_chars)
    kind = _category(category)
    score = _confidence(confidence)
    now = now or utc_now_iso()
    facts = list(document.facts)
    for index, stored in enumerate(facts):
        if _key(stored.content) == _key(text):
            # The user restating a stored fact makes it theirs (no copy).
            fact = stored.model_copy(
                update={
                    "category": kind,
                    "confidence": score,
                    "source_type": SourceType.MANUAL,
                    "last_confirmed_at": now,
                }
            )
            facts[index] = fact
            break
    else:
        taken = {f.id for f in facts} | {f.id for f in document.superseded_facts}
        fact = Fact(
            id=new_fact_id(taken),
            content=text,
            category=kind,
            confidence=score,
            created_at=now,
            source=source,
            source_type=SourceType.MANUAL,
        )
        facts.append(fact)
    return document.model_copy(update={"facts": tuple(facts), "last_updated": now}), fact


def _find(document: MemoryDocument, fact_id: str) -> int:
    expect_document(document)
    expect_text(fact_id, "fact_id")
    for index, fact in enumerate(document.facts):
        if fact.id == fact_id:
            return index
    # The nearest first: an id that differs only in spacing or case (" 1" for "1")
    # before one that also lacks the prefix ("fact_1"), whatever their order.
    why = None
    for loosen, reason in ((_loose_id, None), (_without_prefix, _PREFIX_COUNTS)):
        loose = loosen(fact_id)
        near = next((fact.id for fact in document.facts if loosen(fact.id) == loose), None)
        if near is not None:
            why = reason
            break
    if near is None and len(fact_id) <= _TYPO_CHARS and len(document.facts) <= _TYPO_FACTS:
        near, why = _typo_of(fact_id, [f.id for f in document.facts])
    said = _key(fact_id)  # the fact's text given for its id
    text_of = next((fact.id for fact in document.facts if _key(fact.content) == said), None)
    # …or a part of it ("green tea" for "Likes green tea")
    holding = (
        []
        if text_of or len(said) < 3
        else [f.id for f in document.facts if said in _key(f.content)]
    )
    gone = any(fact.id == fact_id for fact in document.superseded_facts)
    raise FactNotFoundError(
        fact_id,
        near=near,
        text_of=text_of,
        text_in=tuple(holding),
        in_history=gone,
        why=why,
    )


# A typed id this close to a stored one (difflib's ratio) is named as meant: one character
# off in "fact_" and eight hex digits is 0.96; two stored ids share about 0.5.
_TYPO_RATIO = 0.9
_TYPO_MEASURED = 50  # edit distances worked out at most (each O(length²))
# Longer input is no id typed by hand: not compared (difflib takes ~2 ms for two ids of
# 199 characters; the ids this package makes have 13).
_TYPO_CHARS = 64
# One character off ("fact_264d96c") is looked for among this many facts at most: difflib
# compares each, and 5,000 similar 128-character ids took 4.5 s (attacker 86).
_TYPO_FACTS = 1000


_PREFIX_COUNTS = "the 'fact_' prefix is part of the id"


def _typo_of(fact_id: str, ids: list[str]) -> tuple[str | None, str | None]:
    """The one stored id ``fact_id`` is a typo of, and how many characters differ.

    Of the ids as close as difflib's ratio >= :data:`_TYPO_RATIO`, the one with the
    fewest characters changed, added or removed (the edit distance) is named. When two
    differ by as few ("fact_aaaa1113" for "…1111" and "…1112"), none is: ``forget``
    deletes, and a guess between them may name the wrong one. An id whose characters
    alone show it differs by more than the best so far is not measured; when more than
    :data:`_TYPO_MEASURED` must be, none is named either (too many look alike to tell).
    """
    matcher = difflib.SequenceMatcher(b=fact_id)
    close: list[tuple[float, str]] = []
    for stored in ids:
        matcher.set_seq1(stored)
        if matcher.real_quick_ratio() >= _TYPO_RATIO and matcher.quick_ratio() >= _TYPO_RATIO:
            ratio = matcher.ratio()
            if ratio >= _TYPO_RATIO:
                close.append((ratio, stored))
    typed = Counter(fact_id)
    fewest: list[str] = []
    least = 0
    measured = 0
    for _, stored in sorted(close, reverse=True):  # the likeliest first: the bound bites sooner
        held = Counter(stored)
        floor = max(sum((typed - held).values()), sum((held - typed).values()))
        if fewest and floor > least:
            continue
        measured += 1
        if measured > _TYPO_MEASURED:
            return None, None
        differ = _edits(fact_id, stored)
        if not fewest or differ < least:
            fewest, least = [stored], differ
        elif differ == least:
            fewest.append(stored)
    if len(fewest) != 1:
        return None, None
    return fewest[0], f"{least} character{' differs' if least == 1 else 's differ'}"


def _edits(a: str, b: str) -> int:
    """The Levenshtein distance of ``a`` and ``b`` (one row at a time: O(len(a) * len(b)))."""
    row = list(range(len(b) + 1))
    for i, char in enumerate(a, 1):
        previous, row[0] = row[0], i
        for j, other in enumerate(b, 1):
            previous, row[j] = row[j], min(row[j] + 1, row[j - 1] + 1, previous + (char != other))
    return row[-1]


def _loose_id(fact_id: str) -> str:
    # What a person reading an id back may get wrong: case, whitespace, Unicode form,
    # invisible characters a copy picked up ("fact_1\u200b").
    return " ".join(unicodedata.normalize("NFC", without_invisible(fact_id)).casefold().split())


def _without_prefix(fact_id: str) -> str:
    # ...and the "fact_" prefix left off ("2d9689f6" for "fact_2d9689f6").
    return _loose_id(fact_id).removeprefix("fact_")


def edit_fact(
    document: MemoryDocument,
    fact_id: str,
    *,
    content: str | None = None,
    category: FactCategory | str | None = None,
    confidence: Any = None,
    max_fact_chars: int = 500,
    max_superseded_facts: int = 100,
    now: str | None = None,
    source: str = MANUAL_SOURCE,
) -> tuple[MemoryDocument, Fact]:
    """``document`` with fact ``fact_id`` changed (and made manual), and the new fact.

    When its text changes, the old version goes to ``supersededFacts`` and the
    new one is dated ``now`` (``createdAt``) and told in thread ``source``; a
    change of category or confidence alone keeps both.

    Raises:
        InvalidDocumentError: ``document`` is not a :class:`MemoryDocument`.
        InvalidArgumentError: ``fact_id`` is not text.
        FactNotFoundError: no current fact has that id.
        InvalidFactError: bad text, category or confidence, or nothing to change.
    """
    if content is None and category is None and confidence is None:
        raise InvalidFactError("nothing to change: give content, category or confidence")
    index = _find(document, fact_id)
    old = document.facts[index]
    now = now or utc_now_iso()
    changes: dict[str, Any] = {"source_type": SourceType.MANUAL, "last_confirmed_at": now}
    if content is not None:
        expect_text(content, "content", InvalidFactError)
        changes["content"] = check_fact_text(content, max_chars=max_fact_chars)
    if category is not None:
        changes["category"] = _category(category)
    if confidence is not None:
        changes["confidence"] = _confidence(confidence)
    superseded = document.superseded_facts
    if changes.get("content", old.content) != old.content:
        # New wording, told now (the old one keeps its own date and thread in history).
        changes.update(created_at=now, source=source)
        superseded = _supersede(document, old, EDITED_REASON, now, max_superseded_facts)
    fact = old.model_copy(update=changes)
    facts = list(document.facts)
    facts[index] = fact
    updated = document.model_copy(
        update={"facts": tuple(facts), "superseded_facts": superseded, "last_updated": now}
    )
    return updated, fact


def delete_fact(
    document: MemoryDocument,
    fact_id: str,
    *,
    reason: str = USER_DELETED_REASON,
    max_superseded_facts: int = 100,
    now: str | None = None,
) -> tuple[MemoryDocument, SupersededFact]:
    """``document`` without fact ``fact_id``, which moves to history; and the history entry.

    Every copy is removed: a document built through the Python API may list
    an id twice (stored documents are resolved on load, see
    :func:`~deerflow_memory.models.unique_fact_ids`); a copy with other text
    goes to history too, so it is not learned again either.

    Raises:
        InvalidDocumentError: ``document`` is not a :class:`MemoryDocument`.
        InvalidArgumentError: ``fact_id`` is not text.
        FactNotFoundError: no current fact has that id.
    """
    index = _find(document, fact_id)
    now = now or utc_now_iso()
    gone = document.facts[index]
    keep = max(max_superseded_facts, 1)
    superseded = _supersede(document, gone, reason, now, keep)
    entry = superseded[-1]
    rest = document.facts[index + 1 :]
    copies = [fact for fact in rest if fact.id == fact_id]
    for copy in copies:
        if copy.content != gone.content:
            history = document.model_copy(update={"superseded_facts": superseded})
            superseded = _supersede(history, copy, reason, now, keep)
    if copies:
        rest = tuple(fact for fact in rest if fact.id != fact_id)
    facts = document.facts[:index] + rest
    updated = document.model_copy(
        update={"facts": facts, "superseded_facts": superseded, "last_updated": now}
    )
    return updated, entry


def save_edit(
    storage: MemoryStorage,
    user_id: str,
    agent_name: str | None,
    change: Callable[[MemoryDocument], tuple[MemoryDocument, T]],
    *,
    expected_revision: int | None = None,
    retries: int = 3,
) -> tuple[MemoryDocument, T]:
    """Load, apply ``change`` and save with the loaded revision; the saved document and ``T``.

    Args:
        storage: where the document lives.
        user_id: whose memory.
        agent_name: which agent's (None: the default agent).
        change: pure function from the current document to the new one and a result.
        expected_revision: the revision the caller saw; when given, a document
            whose facts or summaries changed since answers
            :class:`RevisionConflictError` (bookkeeping-only saves do not count).
        retries: saves tried when another writer got in between.

    Raises:
        RevisionConflictError: the content changed since ``expected_revision``, or
            the document kept moving.
        FactNotFoundError, InvalidFactError: from ``change``; nothing was written.
        StorageError: the document cannot be read (corrupt: left untouched) or written.
        InvalidNameError: ``user_id`` or ``agent_name`` is unsafe or not text.
        InvalidArgumentError: ``storage`` is not a :class:`MemoryStorage`, ``change``
            not callable, or ``expected_revision``/``retries`` not an int.
    """
    expect(storage, MemoryStorage, "storage", "a MemoryStorage")
    if not callable(change):
        wrong_type("change", "a function of the document", change)
    expect_number(expected_revision, "expected_revision", integer=True, optional=True)
    expect_number(retries, "retries", integer=True)
    for attempt in range(1, retries + 1):
        document = storage.load(user_id, agent_name)
        if expected_revision is not None and not document.same_content_since(expected_revision):
            raise RevisionConflictError(user_id, agent_name, expected_revision, document.revision)
        updated, result = change(document)
        try:
            saved = storage.save(user_id, agent_name, updated, expected_revision=document.revision)
        except RevisionConflictError:
            # Reload and check again: a use-count save in between is no reason to refuse.
            if attempt == retries:
                raise
            continue
        return saved, result
    raise AssertionError("unreachable")  # pragma: no cover
