"""Apply a parsed :class:`MemoryUpdate` to a :class:`MemoryDocument`: pure, fast, never mutating.

Rules (SPEC §6):

- a summary section is replaced only when ``shouldUpdate`` is set and the new
  text, once upload mentions are stripped, is non-empty; it is stamped ``now``;
- when ``topOfMind`` is replaced, the old text sinks into
  ``history.recentMonths`` (prepended) instead of vanishing, unless the same
  update rewrites ``recentMonths`` itself;
- ``factsToRemove`` removes existing ids only; unknown ids are counted and ignored;
  a removed fact moves to ``supersededFacts`` with when and why, keeping its
  ``createdAt`` and source thread (newest ``max_superseded_facts`` kept);
- new facts are deduplicated (whitespace- and case-insensitive) against the
  stored facts and each other; restating a stored fact raises its confidence
  (and upgrades ``inferred`` to ``user_stated``, and marks it a ``constraint``
  when the restatement is marked) instead of adding a copy;
- new facts below ``fact_confidence_threshold`` are dropped;
- ``max_facts`` is enforced by evicting the lowest confidence first, then the
  least fresh and used (``lastConfirmedAt``, ``accessCount``; a bounded
  tie-breaker), then the oldest; facts of guaranteed categories and constraints go last; one update
  evicts at most ``max_evictions`` stored facts (the document may stay over
  ``max_facts`` until later updates), and never a stored ``user_stated`` fact
  while a new ``inferred`` fact is kept; evicted facts move to
  ``supersededFacts`` with the reason ``evicted: memory full``;
- upload mentions ("uploaded a file", ``/mnt/user-data/uploads/...``,
  "上传了文件", ...) are stripped from new text; a fact only about an upload is dropped.

Manual facts (``sourceType: manual``, written by the user through the API, the
CLI or a tool) are the user's word, so extraction cannot touch them: removals
naming one are ignored (counted in ``protected_manual``), a restatement leaves
it as it is, eviction never picks one, and a model cannot mint one (a proposed
``manual`` fact is stored as ``user_stated``). A fact the user deleted
(superseded with :data:`~deerflow_memory.models.USER_DELETED_REASON`) is never
added back by extraction, even when a later update re-reads the old messages
that stated it (``skipped_deleted``), nor is a close paraphrase of it
(:func:`~deerflow_memory.update.consolidate.lexical_similarity` at least
:data:`DELETED_SIMILARITY`: "lives in Oslo now" after "lives in Oslo" was
deleted); the user can add it again by hand.

Nothing here raises on odd input: the update was validated when parsed.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Sequence
from dataclasses import dataclass, field

from deerflow_memory.arguments import expect, expect_document, expect_text
from deerflow_memory.errors import InvalidNameError, UpdateParseError
from deerflow_memory.models import (
    USER_DELETED_REASON,
    Fact,
    FactCategory,
    MemoryDocument,
    MemoryUpdate,
    Section,
    SectionUpdate,
    SourceType,
    SupersededFact,
    new_fact_id,
    parse_timestamp,
)
from deerflow_memory.update.consolidate import text_similarity
from deerflow_memory.update.hygiene import normalise_expiry, text_key
from deerflow_memory.update.usage import retention_score

__all__ = [
    "ApplyResult",
    "apply_update",
    "apply_update_detailed",
    "deleted_again",
    "strip_upload_mentions",
]

# recentMonths holds 4–6 sentences; the model condenses it on its next update,
# this cap only stops repeated topOfMind rollovers from growing it without bound.
RECENT_MONTHS_MAX_CHARS = 1200
DELETED_SIMILARITY = 0.7
"""A new fact this similar to one the user deleted is not learned (0.72: one word added)."""


def deleted_again(content: str, deleted: Sequence[str], keys: Collection[str] = ()) -> bool:
    """Whether ``content`` is a fact the user deleted, said again (extraction never learns it).

    The same text case and spacing aside (:func:`~deerflow_memory.update.hygiene.text_key`),
    or one at least :data:`DELETED_SIMILARITY` similar ("Lives in Oslo." for "Lives in Oslo").

    Args:
        content: the fact's text.
        deleted: texts of the facts the user deleted.
        keys: their ``text_key`` values, when the caller has them (else computed).
    """
    keys = keys or {text_key(text) for text in deleted}
    return text_key(content) in keys or any(
        text_similarity(content, text) >= DELETED_SIMILARITY for text in deleted
    )


_UPLOAD_PATTERNS = re.compile(
    "|".join(
        [
            # "uploaded a file", "uploads two images", "has uploaded the attached PDF"
            r"\buploa(?:d|ds|ded|ding)\s+(?:(?:a|an|the|some|one|two|three|several|multiple|\d+)\s+)?"
            r"(?:(?:new|attached|following)\s+)?"
            r"(?:files?|images?|documents?|photos?|pictures?|attachments?|pdfs?|screenshots?|"
            r"spreadsheets?|csvs?|videos?)\b",
            r"/mnt/user-data/uploads\b",
            r"</?uploaded_files>",
            # 上传了文件 / 上传了一张图片 / 上传的文档
            r"上传(?:了|的)?(?:一个|一份|一张|几个|几张|多个|多张|\d+\s*[个份张])?"
            r"(?:新的)?(?:文件|图片|文档|照片|附件|截图|表格|视频|PDF|pdf)",
        ]
    ),
    re.IGNORECASE,
)

# Clause boundaries: whitespace after . ! ? (so "report.pdf" stays whole), or
# one of ; , and the CJK stops (kept as delimiters so the text can be rebuilt).
_CLAUSE_SPLIT = re.compile(r"((?<=[.!?])\s+|\s*[;,，；。！？]\s*)")


def strip_upload_mentions(text: str) -> str:
    """Remove the clauses of ``text`` that mention a file upload; '' when nothing else is left.

    Example:
        >>> strip_upload_mentions("Prefers tables; uploaded a file /mnt/user-data/uploads/a.csv")
        'Prefers tables'
    """
    if not _UPLOAD_PATTERNS.search(text):
        return text.strip()
    parts = _CLAUSE_SPLIT.split(text)
    kept: list[str] = []
    # parts alternates clause, delimiter, clause, ...
    for i in range(0, len(parts), 2):
        clause = parts[i]
        delimiter = parts[i + 1] if i + 1 < len(parts) else ""
        if _UPLOAD_PATTERNS.search(clause) or not clause.strip():
            continue
        kept.append(clause + delimiter)
    result = "".join(kept).strip()
    result = result.rstrip(",;，；").strip()
    return result if re.search(r"\w", result) else ""


@dataclass(frozen=True, slots=True)
class ApplyResult:
    """The new document and what happened to reach it."""

    document: MemoryDocument
    sections_updated: tuple[str, ...] = ()
    facts_added: int = 0
    facts_removed: int = 0
    facts_reinforced: int = 0
    facts_evicted: int = 0
    unknown_removals: int = 0
    skipped_duplicates: int = 0
    skipped_low_confidence: int = 0
    skipped_uploads: int = 0
    protected_manual: int = 0
    skipped_deleted: int = 0
    added_ids: tuple[str, ...] = field(default=())

    @property
    def changed(self) -> bool:
        """True when the document differs from the input in anything but ``lastUpdated``."""
        return bool(
            self.sections_updated
            or self.facts_added
            or self.facts_removed
            or self.facts_reinforced
            or self.facts_evicted
        )


def apply_update(
    document: MemoryDocument,
    update: MemoryUpdate,
    *,
    thread_id: str,
    now: str,
    max_facts: int = 200,
    fact_confidence_threshold: float = 0.7,
    guaranteed_categories: Collection[FactCategory] = (FactCategory.CORRECTION,),
    max_superseded_facts: int = 100,
    max_evictions: int | None = None,
) -> MemoryDocument:
    """Return ``document`` with ``update`` applied (see the module docstring for the rules).

    Args:
        document: the stored document; not modified.
        update: the parsed model (or offline extractor) answer.
        thread_id: stamped as ``source`` of new facts.
        now: ISO-8601 timestamp for ``createdAt``, ``updatedAt`` and ``lastUpdated``.
        max_facts: facts kept at most.
        fact_confidence_threshold: new facts below it are dropped.
        guaranteed_categories: categories evicted only after every other fact.
        max_superseded_facts: removed facts kept as history, newest first.
        max_evictions: stored facts one update may evict (None = no bound).

    Returns:
        The new document (same ``revision``; the storage increments it on save).

    Raises:
        InvalidDocumentError: ``document`` is not a :class:`MemoryDocument`.
        UpdateParseError: ``update`` is not a :class:`MemoryUpdate`.
        InvalidNameError: ``thread_id`` is not text.
        InvalidArgumentError: ``now`` is not text.
    """
    expect_document(document)
    expect(update, MemoryUpdate, "update", "a MemoryUpdate", UpdateParseError)
    expect_text(thread_id, "thread_id", InvalidNameError)
    expect_text(now, "now")
    return apply_update_detailed(
        document,
        update,
        thread_id=thread_id,
        now=now,
        max_facts=max_facts,
        fact_confidence_threshold=fact_confidence_threshold,
        guaranteed_categories=guaranteed_categories,
        max_superseded_facts=max_superseded_facts,
        max_evictions=max_evictions,
    ).document


def apply_update_detailed(
    document: MemoryDocument,
    update: MemoryUpdate,
    *,
    thread_id: str,
    now: str,
    max_facts: int = 200,
    fact_confidence_threshold: float = 0.7,
    guaranteed_categories: Collection[FactCategory] = (FactCategory.CORRECTION,),
    max_superseded_facts: int = 100,
    max_evictions: int | None = None,
) -> ApplyResult:
    """Like :func:`apply_update`, returning an :class:`ApplyResult` with counts."""
    sections: list[str] = []

    # --- summaries -----------------------------------------------------------------
    user = document.user
    history = document.history
    user_changes: dict[str, Section] = {}
    history_changes: dict[str, Section] = {}
    for name in ("work_context", "personal_context", "top_of_mind"):
        section = _new_section(getattr(update.user, name), now)
        if section is not None and section.summary != getattr(user, name).summary:
            user_changes[name] = section
    for name in ("recent_months", "earlier_context", "long_term_background"):
        section = _new_section(getattr(update.history, name), now)
        if section is not None and section.summary != getattr(history, name).summary:
            history_changes[name] = section
    old_top = user.top_of_mind.summary.strip()
    if "top_of_mind" in user_changes and old_top and "recent_months" not in history_changes:
        # The old current focus becomes recent history instead of vanishing.
        merged = _prepend(old_top, history.recent_months.summary)
        if merged != history.recent_months.summary:
            history_changes["recent_months"] = Section(summary=merged, updated_at=now)
    if user_changes:
        user = user.model_copy(update=user_changes)
        sections.extend(f"user.{n}" for n in user_changes)
    if history_changes:
        history = history.model_copy(update=history_changes)
        sections.extend(f"history.{n}" for n in history_changes)

    # --- removals --------------------------------------------------------------------
    facts = list(document.facts)
    superseded = document.superseded_facts
    removed = unknown = protected = 0
    if update.facts_to_remove:
        reasons = {r.id: r.reason for r in update.facts_to_remove}
        named = [f for f in facts if f.id in reasons]  # one pass over the stored facts
        manual_ids = {f.id for f in named if f.source_type is SourceType.MANUAL}
        protected = len(manual_ids)
        reasons = {k: v for k, v in reasons.items() if k not in manual_ids}
        unknown = len(reasons.keys() - {f.id for f in named})
        gone = [f for f in named if f.id in reasons]
        if gone:
            facts = [f for f in facts if f.id not in reasons]
            removed = len(gone)
            superseded = _supersede(superseded, gone, reasons, now, max_superseded_facts)

    # --- additions -------------------------------------------------------------------
    stored_count = len(facts)
    index_by_key = {text_key(f.content): i for i, f in enumerate(facts)} if update.new_facts else {}
    reinforced_ids: set[str] = set()
    added_ids: list[str] = []
    deleted_texts = (
        [f.content for f in superseded if f.reason == USER_DELETED_REASON]
        if update.new_facts
        else []
    )
    deleted_keys = {text_key(text) for text in deleted_texts}
    dup = low = uploads = deleted = 0
    taken: set[str] | None = None  # ids in use, stored or history: a new id is none of them
    for new in update.new_facts:
        content = strip_upload_mentions(new.content)
        if not content:
            uploads += 1
            continue
        if new.confidence < fact_confidence_threshold:
            low += 1
            continue
        key = text_key(content)
        if deleted_again(content, deleted_texts, deleted_keys):
            deleted += 1
            continue
        index = index_by_key.get(key)
        if index is not None:
            current = facts[index]
            raised = _reinforce(current, new.confidence, new.source_type, new.constraint)
            if raised is current:
                dup += 1
            else:
                facts[index] = raised
                # A fact added earlier in this same update is not "reinforced", just merged.
                if current.id not in added_ids:
                    reinforced_ids.add(current.id)
            continue
        if taken is None:
            taken = {f.id for f in facts} | {f.id for f in superseded}
        fact = Fact(
            id=new_fact_id(taken),
            content=content,
            category=new.category,
            confidence=new.confidence,
            created_at=now,
            source=thread_id,
            # Only the user writes manual facts (through the API, CLI or a tool).
            source_type=(
                SourceType.USER_STATED if new.source_type is SourceType.MANUAL else new.source_type
            ),
            source_error=new.source_error,
            constraint=new.constraint,
            expires_at=normalise_expiry(new.expires_at),
        )
        index_by_key[key] = len(facts)
        facts.append(fact)
        added_ids.append(fact.id)
        taken.add(fact.id)

    # --- capacity ------------------------------------------------------------------------
    evicted = _over_capacity(
        facts, max_facts, frozenset(guaranteed_categories), stored_count, max_evictions, now
    )
    evicted_ids = {facts[i].id for i in evicted}
    if evicted:
        gone = [f for i, f in enumerate(facts) if i in evicted and i < stored_count]
        if gone:
            why = dict.fromkeys(evicted_ids, f"evicted: memory full (max_facts={max_facts})")
            superseded = _supersede(superseded, gone, why, now, max_superseded_facts)
        facts = [f for i, f in enumerate(facts) if i not in evicted]
    added = [i for i in added_ids if i not in evicted_ids]
    reinforced = len(reinforced_ids - evicted_ids)

    new_document = document.model_copy(
        update={
            "user": user,
            "history": history,
            "facts": tuple(facts),
            "superseded_facts": superseded,
            "last_updated": now,
        }
    )
    return ApplyResult(
        document=new_document,
        sections_updated=tuple(sections),
        facts_added=len(added),
        facts_removed=removed,
        facts_reinforced=reinforced,
        facts_evicted=len(evicted),
        unknown_removals=unknown,
        skipped_duplicates=dup,
        skipped_low_confidence=low,
        skipped_uploads=uploads,
        protected_manual=protected,
        skipped_deleted=deleted,
        added_ids=tuple(added),
    )


def _supersede(
    history: tuple[SupersededFact, ...],
    gone: list[Fact],
    reasons: dict[str, str],
    now: str,
    keep: int,
) -> tuple[SupersededFact, ...]:
    """``history`` with ``gone`` appended (stamped ``now`` and their reason), newest ``keep``."""
    entries = [
        SupersededFact.model_validate(
            {**fact.model_dump(), "superseded_at": now, "reason": reasons.get(fact.id, "")}
        )
        for fact in gone
    ]
    combined = (*history, *entries)
    return combined[-keep:] if keep else ()


def _new_section(proposal: SectionUpdate | None, now: str) -> Section | None:
    if proposal is None or not proposal.should_update:
        return None
    summary = strip_upload_mentions(proposal.summary)
    if not summary:
        return None
    return Section(summary=summary, updated_at=now)


def _prepend(text: str, existing: str) -> str:
    existing = existing.strip()
    if text_key(text) in text_key(existing):
        return existing
    merged = f"{text} {existing}".strip() if existing else text
    if len(merged) <= RECENT_MONTHS_MAX_CHARS:
        return merged
    # Drop the oldest sentences (at the end, since newer text is prepended).
    sentences = re.split(r"(?<=[.!?。！？])\s*", merged)
    kept = ""
    for sentence in sentences:
        candidate = f"{kept} {sentence}".strip() if kept else sentence
        if len(candidate) > RECENT_MONTHS_MAX_CHARS:
            break
        kept = candidate
    return kept or merged[:RECENT_MONTHS_MAX_CHARS]


def _reinforce(
    fact: Fact, confidence: float, source_type: SourceType, constraint: bool = False
) -> Fact:
    if fact.source_type is SourceType.MANUAL:  # the user's own wording and numbers stay
        return fact
    changes: dict[str, object] = {}
    if constraint and not fact.constraint:  # a restated need marked as one is marked from now on
        changes["constraint"] = True
    if confidence > fact.confidence:
        changes["confidence"] = confidence
    if source_type is SourceType.USER_STATED and fact.source_type is not SourceType.USER_STATED:
        changes["source_type"] = SourceType.USER_STATED
    return fact.model_copy(update=changes) if changes else fact


def _over_capacity(
    facts: list[Fact],
    max_facts: int,
    guaranteed: frozenset[FactCategory],
    stored_count: int | None = None,
    max_evictions: int | None = None,
    now: str = "",
) -> set[int]:
    """Indexes to evict: lowest confidence, then least fresh and used, then oldest.

    Guaranteed categories and constraints go last; manual facts are never evicted. Freshness and use
    (:func:`retention_score`, bounded 0..1, from ``lastConfirmedAt`` and
    ``accessCount``) only order facts of equal confidence.

    ``facts[:stored_count]`` were stored before this update, the rest are new.
    Two bounds then limit evictions of stored facts: a stored ``user_stated``
    fact is never evicted while a new ``inferred`` fact stays (that new fact
    goes instead), and at most ``max_evictions`` stored facts go; past that
    cap the stored facts stay and the document is over capacity until later
    updates, because dropping a new fact instead would lose it without a trace.
    """
    excess = len(facts) - max_facts
    if excess <= 0:
        return set()
    now_ts = parse_timestamp(now) or 0.0
    ranks = [
        (
            f.source_type is SourceType.MANUAL,
            f.constraint or f.category in guaranteed,
            f.confidence,
            retention_score(f, now_ts),
            f.created_at,
            i,
        )
        for i, f in enumerate(facts)
    ]
    if excess == 1 and stored_count is None:  # the common case: one new fact over a full document
        lowest = min(ranks)
        return set() if lowest[0] else {lowest[-1]}
    ranks.sort()
    evicted = {rank[-1] for rank in ranks[:excess] if not rank[0]}
    if stored_count is None:
        return evicted
    limit = len(facts) if max_evictions is None else max_evictions
    position = {rank[-1]: n for n, rank in enumerate(ranks)}
    # Stored facts chosen for eviction, most valuable first; new facts kept, least valuable first.
    stored_out = sorted((i for i in evicted if i < stored_count), key=position.__getitem__)[::-1]
    new_in = sorted(
        (i for i in range(stored_count, len(facts)) if i not in evicted), key=position.__getitem__
    )
    stored_evicted = len(stored_out)
    for i in stored_out:
        too_many = stored_evicted > limit
        inferred_in = [j for j in new_in if facts[j].source_type is SourceType.INFERRED]
        protected = facts[i].source_type is SourceType.USER_STATED and bool(inferred_in)
        if not (too_many or protected):
            continue
        evicted.discard(i)
        stored_evicted -= 1
        # Over the cap the stored fact simply stays (later updates evict more): a new fact is
        # never dropped to make up for it, since nothing would record what the user said.
        if protected:
            replacement = inferred_in[0]
            new_in.remove(replacement)
            evicted.add(replacement)
    return evicted
