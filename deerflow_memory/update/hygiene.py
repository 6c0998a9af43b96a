"""Memory hygiene after each update: confirmations, expiry, merges, staleness review.

:func:`tidy` runs on the document the update produced (after
:func:`~deerflow_memory.update.apply.apply_update_detailed`), in this order:

1. **confirm** — facts the model listed in ``factsToConfirm`` and facts the
   conversation restated get ``lastConfirmedAt = now``;
2. **expire** — facts whose ``expiresAt`` has passed move to
   ``supersededFacts`` with reason ``"expired"``;
3. **merge** — groups the model proposed in ``factsToMerge`` that
   :mod:`~deerflow_memory.update.merges` admits (one category, similar text,
   no constraint merged into a non-constraint), then near-duplicates found by
   :mod:`~deerflow_memory.update.consolidate` (lexical, or cosine when an
   embedder is given) and not stating other numbers or people
   (:func:`~deerflow_memory.update.merges.different_facts`), become one fact each;
4. **count** — the document's running :class:`~deerflow_memory.models.HygieneCounts`
   (merged, expired, retired: due facts the model removed) are raised.

:func:`due_for_review` picks the facts the model is asked to review in the
same update call: not confirmed for ``staleness_age_days``, neither in a
protected (guaranteed) category, nor a constraint, nor ``sourceType: manual``, listed only when
at least ``staleness_min_due`` are due.

Manual facts are never merged, expired by the model's removal, or retired
here. Everything is pure: ``now`` is passed in; nothing raises on odd input.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass

from deerflow_memory.caching import TextCache
from deerflow_memory.models import (
    Fact,
    FactCategory,
    HygieneCounts,
    MemoryDocument,
    MemoryUpdate,
    SourceType,
    SupersededFact,
    iso_from_timestamp,
    parse_timestamp,
    stored_timestamp,
)
from deerflow_memory.update.consolidate import (
    DEFAULT_THRESHOLD,
    Similarity,
    duplicate_groups,
    fact_similarity,
    lexical_keys,
    merge_group,
)
from deerflow_memory.update.merges import (
    CONSTRAINT_MERGE_FLOOR,
    MODEL_MERGE_FLOOR,
    IsConstraint,
    different_facts,
    flagged_constraint,
    merge_members,
    merge_problem,
)

__all__ = ["EXPIRED_REASON", "TidyResult", "due_for_review", "is_protected", "text_key", "tidy"]

EXPIRED_REASON = "expired"
_DAY = 86_400.0
MAX_REVIEW_LISTED = 20
RESTATED_CONFIRMS_AFTER_DAYS = 1.0
# Every pair is compared up to this many facts; above it, only pairs with a fact the update touched.
FULL_PASS_MAX_FACTS = 50


def is_manual(fact: Fact) -> bool:
    """True for facts the user wrote by hand (``sourceType: manual``)."""
    return fact.source_type == SourceType.MANUAL


def is_protected(fact: Fact, protected_categories: Collection[FactCategory]) -> bool:
    """True when staleness review may never retire ``fact`` (constraints, manual, protected)."""
    return fact.constraint or fact.category in protected_categories or is_manual(fact)


def due_for_review(
    document: MemoryDocument,
    now: float,
    *,
    age_days: float = 90.0,
    min_due: int = 3,
    protected_categories: Collection[FactCategory] = (FactCategory.CORRECTION,),
    max_listed: int = MAX_REVIEW_LISTED,
) -> tuple[Fact, ...]:
    """Facts to list for review in this update's model call, oldest confirmation first.

    Args:
        document: the stored document.
        now: epoch seconds.
        age_days: a fact not confirmed (or created) for this long is due.
        min_due: fewer due facts than this → nothing is listed (a review per
            stale fact would cost a long prompt for little).
        protected_categories: never listed, nor are manual facts.
        max_listed: at most this many, the stalest.

    Returns:
        The due facts, or ``()``.
    """
    cutoff = now - age_days * _DAY
    protected = frozenset(protected_categories)
    due: list[tuple[float, Fact]] = []
    # One tight pass per update over every fact: memoised timestamps, the cheap tests first.
    for fact in document.facts:
        stamp = stored_timestamp(fact.last_confirmed_at) or stored_timestamp(fact.created_at)
        if stamp is None or stamp > cutoff:
            continue
        if fact.constraint or fact.category in protected or is_manual(fact):
            continue
        due.append((stamp, fact))
    if len(due) < min_due:
        return ()
    due.sort(key=lambda item: item[0])
    return tuple(fact for _, fact in due[:max_listed])


@dataclass(frozen=True, slots=True)
class TidyResult:
    """The tidied document and what changed."""

    document: MemoryDocument
    confirmed: int = 0
    expired: int = 0
    merged: int = 0
    retired: int = 0
    judged_out: int = 0

    @property
    def changed(self) -> bool:
        """True when any fact was confirmed, expired, merged, retired or judged out."""
        return bool(
            self.confirmed or self.expired or self.merged or self.retired or self.judged_out
        )


def _text_key(text: str) -> str:
    """``text`` with whitespace runs collapsed and case folded: equal keys, same fact text.

    Cached: stored facts are compared on every update, their text rarely changes.
    """
    return " ".join(text.split()).casefold()


# Bounded by characters too: 65,536 texts of 500 characters kept ~140 MB (texts and keys).
text_key = TextCache(_text_key, max_entries=65_536, max_chars=2_000_000)


def tidy(
    document: MemoryDocument,
    *,
    now: str,
    update: MemoryUpdate | None = None,
    reviewed: Collection[str] = (),
    threshold: float = DEFAULT_THRESHOLD,
    similarity: Similarity | None = None,
    touched: Collection[str] | None = None,
    max_superseded_facts: int = 100,
    merge_floor: float = MODEL_MERGE_FLOOR,
    is_constraint: IsConstraint = flagged_constraint,
    constraint_floor: float = CONSTRAINT_MERGE_FLOOR,
) -> TidyResult:
    """Confirm, expire and merge facts of ``document`` (see the module docstring).

    Args:
        document: the document after the update was applied.
        now: ISO-8601 time of this update.
        update: the applied update (its confirmations, merges, removals, restated facts).
        reviewed: ids listed for review in this update's prompt; the ones the
            update removed count as retired.
        threshold: similarity at or above which same-category facts merge (> 1: never).
        similarity: pairwise similarity; default lexical.
        touched: ids added or changed by the update; with more than
            ``FULL_PASS_MAX_FACTS`` facts only pairs with one of them are compared.
        max_superseded_facts: history entries kept, newest.
        merge_floor: a merge the model proposed is applied only when
            :func:`~deerflow_memory.update.merges.merge_problem` finds no problem
            at this similarity (or ``threshold`` when lower); refused ones are
            skipped here (the updater reports them, :func:`~.merges.screen_merges`).
        is_constraint: whether a fact is a constraint, for the same check.
        constraint_floor: the least similarity of a proposed merge touching a
            constraint (the config's ``consolidation_threshold``), same check.

    Returns:
        The new document (unchanged object when nothing happened) and counts.
    """
    now_ts = parse_timestamp(now)
    facts = list(document.facts)
    history: list[SupersededFact] = []
    confirmed = 0

    # 1. confirmations: the model's, and facts the conversation restated.
    confirm_ids: set[str] = set()
    restated: set[str] = set()
    if update is not None:
        confirm_ids.update(update.facts_to_confirm)
        restated = {text_key(f.content) for f in update.new_facts}
    recent = (now_ts or 0.0) - RESTATED_CONFIRMS_AFTER_DAYS * _DAY
    for i, fact in enumerate(facts if confirm_ids or restated else ()):
        # Restating confirms a fact, but a restatement within a day is not worth a save.
        restated_here = text_key(fact.content) in restated and (
            (stored_timestamp(fact.last_confirmed_at) or stored_timestamp(fact.created_at) or 0.0)
            < recent
        )
        if (fact.id in confirm_ids or restated_here) and fact.last_confirmed_at != now:
            facts[i] = fact.model_copy(update={"last_confirmed_at": now})
            confirmed += 1

    # 2. expiry (most facts have no end date: the common case costs one attribute read).
    expired = 0
    if now_ts is not None:
        ending = [
            i
            for i, fact in enumerate(facts)
            if fact.expires_at is not None
            and (stamp := stored_timestamp(fact.expires_at)) is not None
            and stamp <= now_ts
            and not is_manual(fact)
        ]
        if ending:
            gone = set(ending)
            for i in ending:
                history.append(_superseded(facts[i], now, EXPIRED_REASON))
            expired = len(ending)
            facts = [f for i, f in enumerate(facts) if i not in gone]

    # 3. merges: proposed by the model, then found by similarity.
    merged = 0
    groups: list[list[Fact]] = []
    if update is not None and update.facts_to_merge:
        free = list(facts)
        for proposal in update.facts_to_merge:
            members = merge_members(free, proposal.ids)
            if len(members) > 1 and not merge_problem(
                members,
                similarity=similarity,
                floor=min(threshold, merge_floor),
                is_constraint=is_constraint,
                constraint_floor=constraint_floor,
            ):
                groups.append(members)
                taken_ids = {f.id for f in members}
                free = [f for f in free if f.id not in taken_ids]
    if threshold <= 1.0:
        taken = {f.id for g in groups for f in g}
        only = None
        if touched is not None and len(facts) > FULL_PASS_MAX_FACTS:
            only = frozenset(touched)
        groups.extend(
            duplicate_groups(
                [f for f in facts if f.id not in taken] if taken else facts,
                threshold,
                similarity=similarity or fact_similarity,
                only=only,
                skip=is_manual,
                # the lexical similarity is 0 between facts sharing no term (compare only those)
                # and never above the Dice coefficient of their terms
                keys=lexical_keys if similarity is None else None,
                dice_bound=similarity is None,
                # nobody judged these pairs: never one fact of "2 children" and "3 children"
                apart=lambda a, b: different_facts(a, b) is not None,
            )
        )
    if groups:
        replaced: dict[str, Fact | None] = {}
        for group in groups:
            merge = merge_group(group, now)
            history.extend(merge.superseded)
            merged += len(merge.superseded)
            for f in group:
                replaced[f.id] = None
            replaced[merge.kept.id] = merge.kept
        out: list[Fact] = []
        for f in facts:
            if f.id not in replaced:
                out.append(f)
            elif (kept_fact := replaced[f.id]) is not None:
                out.append(kept_fact)
        facts = out

    # 4. retired: due facts the model removed in this update; candidates the judge dropped.
    retired = judged_out = 0
    if update is not None and reviewed:
        removed = {r.id for r in update.facts_to_remove}
        retired = len(removed.intersection(reviewed))
    if update is not None:
        judged_out = sum(r.reason.startswith("judge:") for r in update.rejected)

    result = TidyResult(document, confirmed, expired, merged, retired, judged_out)
    if not result.changed:
        return result
    counts = document.hygiene or HygieneCounts()
    counts = counts.model_copy(
        update={
            "merged": counts.merged + merged,
            "expired": counts.expired + expired,
            "retired": counts.retired + retired,
            "judged_out": counts.judged_out + judged_out,
        }
    )
    superseded = (*document.superseded_facts, *history)
    superseded = superseded[-max_superseded_facts:] if max_superseded_facts else ()
    new_document = document.model_copy(
        update={"facts": tuple(facts), "superseded_facts": superseded, "hygiene": counts}
    )
    return TidyResult(new_document, confirmed, expired, merged, retired, judged_out)


def _superseded(fact: Fact, now: str, reason: str) -> SupersededFact:
    data = {**fact.model_dump(), "superseded_at": now, "reason": reason}
    return SupersededFact.model_validate(data)


def normalise_expiry(value: str | None) -> str | None:
    """``expiresAt`` in canonical ISO-8601 UTC form; ``None`` when absent or unparsable."""
    stamp = parse_timestamp(value)
    return None if stamp is None else iso_from_timestamp(stamp)


def review_ids(facts: Sequence[Fact]) -> frozenset[str]:
    """The ids of ``facts`` (what :func:`tidy` takes as ``reviewed``)."""
    return frozenset(f.id for f in facts)
