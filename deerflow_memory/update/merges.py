"""Which merges proposed by the memory model may be applied.

The model's ``factsToMerge`` names stored facts it says mean the same. Applied
unchecked, one answer (a confused model, or a conversation that steers it)
could merge "Is severely allergic to peanuts" into "Enjoys hiking in the Alps":
the allergy is superseded and never injected again, and the kept text says
nothing of it. A proposed group is applied only when it is plausibly one fact:

- **same category**: every member has the category of the fact kept;
- **similar text**: every member's similarity to the kept fact (the one
  :func:`~deerflow_memory.update.consolidate.merge_group` keeps) is at least
  :data:`MODEL_MERGE_FLOOR`, by the similarity consolidation uses (lexical,
  or the embedder-guarded one of :mod:`~deerflow_memory.update.similarity`);
- **no constraint lost**: a constraint (an allergy, diet, medical or
  accessibility need) is merged away only into a fact that is a constraint too.

Manual facts are taken out of a group before these checks (they are never
merged; :mod:`~deerflow_memory.update.hygiene`). A refused group is reported
in ``MemoryUpdate.rejected`` as ``factsToMerge[i]`` with the reason, like any
other rejected part; its facts stay as they were. Consolidation by similarity
still merges any pair at or above ``consolidation_threshold`` on its own.

:data:`MODEL_MERGE_FLOOR` (0.5) is lower than the automatic threshold (0.85)
because the model has judged the pair too: on ``bench/data/duplicate_pairs.csv``
it admits 54 of 58 duplicate pairs (20 of 21 in the holdout table; "Prefers
short answers" / "Prefers concise answers" scores 0.53), while facts about
different things share no term and score 0. Everything is pure; nothing raises.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from deerflow_memory.models import Fact, MemoryUpdate, Rejection
from deerflow_memory.update.consolidate import Similarity, keeper_of, text_similarity
from deerflow_memory.update.validate import original_positions

__all__ = ["MODEL_MERGE_FLOOR", "flagged_constraint", "merge_problem", "screen_merges"]

MODEL_MERGE_FLOOR = 0.5
MANUAL = "manual"  # SourceType.MANUAL, compared as text (a StrEnum equals its text)
_PREVIEW_CHARS = 80

IsConstraint = Callable[[Fact], bool]


def flagged_constraint(fact: Fact) -> bool:
    """The constraint test without the wording rules: the fact's ``constraint`` flag."""
    return fact.constraint


def _lexical(a: Fact, b: Fact) -> float:
    return text_similarity(a.content, b.content)


def merge_members(facts: Sequence[Fact], ids: Sequence[str]) -> list[Fact]:
    """The stored, non-manual facts named by ``ids``, each once, in the order named."""
    by_id = {f.id: f for f in facts}
    members = [by_id[i] for i in dict.fromkeys(ids) if i in by_id]
    return [f for f in members if f.source_type != MANUAL]


def merge_problem(
    group: Sequence[Fact],
    *,
    similarity: Similarity | None = None,
    floor: float = MODEL_MERGE_FLOOR,
    is_constraint: IsConstraint = flagged_constraint,
) -> str | None:
    """Why the proposed ``group`` may not become one fact, or ``None`` when it may.

    Args:
        group: two or more stored facts (fewer: ``None``, nothing to merge).
        similarity: pairwise similarity in 0..1; default lexical.
        floor: the least similarity of each member to the fact kept.
        is_constraint: whether a fact is a constraint (default: its flag).
    """
    if len(group) < 2:
        return None
    similar = similarity or _lexical
    kept = keeper_of(group)
    kept_is_constraint = is_constraint(kept)
    for fact in group:
        if fact is kept:
            continue
        if fact.category != kept.category:
            return f"{fact.id} is {fact.category.value}, {kept.id} is {kept.category.value}"
        score = similar(fact, kept)
        if not score >= floor:  # NaN too
            return f"{fact.id} and {kept.id} do not say the same (similarity {score:.2f} < {floor})"
        if not kept_is_constraint and is_constraint(fact):
            return f"{fact.id} is a constraint and {kept.id}, the fact kept, is not"
    return None


def screen_merges(
    update: MemoryUpdate,
    facts: Sequence[Fact],
    *,
    similarity: Similarity | None = None,
    floor: float = MODEL_MERGE_FLOOR,
    is_constraint: IsConstraint = flagged_constraint,
) -> MemoryUpdate:
    """``update`` without the merges :func:`merge_problem` refuses; those go to ``rejected``.

    Args:
        update: a validated update.
        facts: the stored facts the update applies to.
        similarity, floor, is_constraint: as :func:`merge_problem`.

    Returns:
        ``update`` itself when every proposed merge may be applied.
    """
    if not update.facts_to_merge:
        return update
    rejected = list(update.rejected)
    positions = original_positions(rejected, "factsToMerge", len(update.facts_to_merge))
    kept = []
    for index, merge in zip(positions, update.facts_to_merge, strict=True):
        group = merge_members(facts, merge.ids)
        problem = merge_problem(
            group, similarity=similarity, floor=floor, is_constraint=is_constraint
        )
        if problem is None:
            kept.append(merge)
            continue
        preview = " | ".join(f.content for f in group)[:_PREVIEW_CHARS]
        rejected.append(
            Rejection(item=f"factsToMerge[{index}]", reason=f"not merged: {problem}", text=preview)
        )
    if len(kept) == len(update.facts_to_merge):
        return update
    return update.model_copy(update={"facts_to_merge": tuple(kept), "rejected": tuple(rejected)})
