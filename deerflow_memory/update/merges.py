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
  accessibility need) is merged away only into a fact that is a constraint too;
- **a constraint only into its own restatement**: when either fact is a
  constraint the pair must be near-identical — similarity at least
  ``constraint_floor`` (the config's ``consolidation_threshold``, default
  :data:`CONSTRAINT_MERGE_FLOOR`), the same numbers (digit runs, and Chinese
  numerals before a unit: 1型 = 一型) and the same people (a kin word,
  "daughter", "女儿", in one and not the other refuses). "Is severely
  allergic to peanuts" and "…to penicillin" score 0.53, above the floor, and
  are two allergies; "User takes 10mg of warfarin" and "…50mg…" two doses;
  "User's daughter is allergic to eggs" is not the user's allergy (attack 21 F3).

Manual facts are taken out of a group before these checks (they are never
merged; :mod:`~deerflow_memory.update.hygiene`). A refused group is reported
in ``MemoryUpdate.rejected`` as ``factsToMerge[i]`` with the reason, like any
other rejected part; its facts stay as they were. Consolidation by similarity
still merges any pair at or above ``consolidation_threshold`` on its own, but
never two facts of other numbers or people (:func:`different_facts`, for
every fact there: nobody has judged that pair).

:data:`MODEL_MERGE_FLOOR` (0.5) is lower than the automatic threshold (0.85)
because the model has judged the pair too: on ``bench/data/duplicate_pairs.csv``
it admits 54 of 58 duplicate pairs (20 of 21 in the holdout table; "Prefers
short answers" / "Prefers concise answers" scores 0.53), while facts about
different things share no term and score 0. Everything is pure; nothing raises.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence

from deerflow_memory.capture.kin import KIN_EN, KIN_EN_CHAT, KIN_ZH
from deerflow_memory.capture.slot_words import CN_DIGITS
from deerflow_memory.models import Fact, MemoryUpdate, Rejection, SourceType
from deerflow_memory.update.consolidate import Similarity, fact_similarity, keeper_of
from deerflow_memory.update.validate import original_positions

__all__ = [
    "CONSTRAINT_MERGE_FLOOR",
    "MODEL_MERGE_FLOOR",
    "different_facts",
    "flagged_constraint",
    "merge_problem",
    "screen_merges",
]

MODEL_MERGE_FLOOR = 0.5
CONSTRAINT_MERGE_FLOOR = 0.85
"""The default ``consolidation_threshold``: the least similarity of a merge with a constraint."""
_PREVIEW_CHARS = 80

IsConstraint = Callable[[Fact], bool]


def flagged_constraint(fact: Fact) -> bool:
    """The constraint test without the wording rules: the fact's ``constraint`` flag."""
    return fact.constraint


# A Chinese numeral is read from where its run starts, and the run is taken whole
# (possessive): only a whole run can precede a unit, and thousands of 十 no longer
# cost a scan from every character of the run.
_NUMBER = re.compile(
    r"\d+(?:[.,]\d+)*"
    r"|(?<![零〇一二两三四五六七八九十百千万])(?P<zh>[零〇一二两三四五六七八九十百千万]++)"
    r"(?=型|级|期|度|岁|次|片|粒|颗|毫克|克|毫升|升|个|天|周|年|月|小时|分钟|杯|瓶|支|针|单位|mg|ml)",
    re.IGNORECASE,
)
# (what chat calls them, "hubby", "MIL", only after a possessive: "User's hubby", "my bf")
_KIN = re.compile(
    rf"\b({KIN_EN})\b|\b(?:my|our|your|his|her|their|user's|users')\s+({KIN_EN_CHAT})|({KIN_ZH})",
    re.IGNORECASE,
)


def _zh_number(text: str) -> str:
    """``text`` (Chinese numerals) as digits when it is 0..99 ("十二" -> "12"), else itself."""
    if all(c in CN_DIGITS for c in text):
        return "".join(str(CN_DIGITS[c]) for c in text)
    tens, sep, ones = text.partition("十")
    if sep and len(tens) <= 1 and len(ones) <= 1 and all(c in CN_DIGITS for c in tens + ones):
        return str((CN_DIGITS[tens] if tens else 1) * 10 + (CN_DIGITS[ones] if ones else 0))
    return text


def _numbers(text: str) -> list[str]:
    """The numbers ``text`` states, sorted: digit runs (leading zeros aside) and zh numerals."""
    found = []
    for match in _NUMBER.finditer(text):
        zh = match.group("zh")
        found.append(_zh_number(zh) if zh else match.group().lstrip("0") or "0")
    return sorted(found)


# Kin words naming the same people: "2 children" and "2 kids" are one fact, "妈妈" is "母亲".
_SAME_PEOPLE = {
    "kid": "child", "children": "child", "babie": "baby", "toddler": "baby",
    "mom": "mother", "mum": "mother", "mommy": "mother", "grandma": "grandmother",
    "dad": "father", "daddy": "father", "grandpa": "grandfather",
    "coworker": "colleague", "neighbour": "neighbor",
    "妈妈": "母亲", "妈": "母亲", "爸爸": "父亲", "爸": "父亲", "爸妈": "父母",
    "老婆": "妻子", "太太": "妻子", "老公": "丈夫", "男朋友": "男友", "女朋友": "女友",
    "小孩": "孩子", "娃": "孩子", "宝宝": "孩子", "哥哥": "哥", "姐姐": "姐", "弟弟": "弟",
    "妹妹": "妹", "姥姥": "外婆", "姥爷": "外公",
}  # fmt: skip


def _people(text: str) -> set[str]:
    """The kin words of ``text`` (lower case, a final "s" dropped, one word per kin): whom it
    is about."""
    words = ("".join(found) for found in _KIN.findall(text))  # (one group of three is set)
    people = (word.lower().removesuffix("s") for word in words)
    return {_SAME_PEOPLE.get(word, word) for word in people}


def different_facts(a: Fact, b: Fact) -> str | None:
    """Why two facts state different things however similar their words, or ``None``.

    Other numbers ("Has 2 children" / "Has 3 children", 1型 / 2型) or other
    people ("Sister lives in Berlin" / "Brother lives in Berlin", a kin word
    in one only). Checked for a model's merge touching a constraint
    (:func:`merge_problem`) and for every merge found by similarity
    (:func:`~deerflow_memory.update.hygiene.tidy`).
    """
    if _numbers(a.content) != _numbers(b.content):
        return f"{a.id} and {b.id} state different numbers"
    if _people(a.content) != _people(b.content):
        return f"{a.id} and {b.id} are about different people"
    return None


def merge_members(facts: Sequence[Fact], ids: Sequence[str]) -> list[Fact]:
    """The stored, non-manual facts named by ``ids``, each once, in the order named."""
    by_id = {f.id: f for f in facts}
    members = [by_id[i] for i in dict.fromkeys(ids) if i in by_id]
    return [f for f in members if f.source_type != SourceType.MANUAL]


def merge_problem(
    group: Sequence[Fact],
    *,
    similarity: Similarity | None = None,
    floor: float = MODEL_MERGE_FLOOR,
    is_constraint: IsConstraint = flagged_constraint,
    constraint_floor: float = CONSTRAINT_MERGE_FLOOR,
) -> str | None:
    """Why the proposed ``group`` may not become one fact, or ``None`` when it may.

    Args:
        group: two or more stored facts (fewer: ``None``, nothing to merge).
        similarity: pairwise similarity in 0..1; default lexical.
        floor: the least similarity of each member to the fact kept.
        is_constraint: whether a fact is a constraint (default: its flag).
        constraint_floor: the least similarity when the member or the fact
            kept is a constraint (which must also state the same numbers and
            people); above 1: constraints are never merged.
    """
    if len(group) < 2:
        return None
    similar = similarity or fact_similarity
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
        fact_is_constraint = is_constraint(fact)
        if not kept_is_constraint and fact_is_constraint:
            return f"{fact.id} is a constraint and {kept.id}, the fact kept, is not"
        if not (kept_is_constraint or fact_is_constraint):
            continue
        if not score >= constraint_floor:
            return (
                f"{fact.id} and {kept.id} are constraints that are not near-identical "
                f"(similarity {score:.2f} < {constraint_floor})"
            )
        problem = different_facts(fact, kept)
        if problem is not None:
            return problem
    return None


def screen_merges(
    update: MemoryUpdate,
    facts: Sequence[Fact],
    *,
    similarity: Similarity | None = None,
    floor: float = MODEL_MERGE_FLOOR,
    is_constraint: IsConstraint = flagged_constraint,
    constraint_floor: float = CONSTRAINT_MERGE_FLOOR,
) -> MemoryUpdate:
    """``update`` without the merges :func:`merge_problem` refuses; those go to ``rejected``.

    Args:
        update: a validated update.
        facts: the stored facts the update applies to.
        similarity, floor, is_constraint, constraint_floor: as :func:`merge_problem`.

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
            group,
            similarity=similarity,
            floor=floor,
            is_constraint=is_constraint,
            constraint_floor=constraint_floor,
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
