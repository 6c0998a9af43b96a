"""Consolidation: near-duplicate facts of one category merged into one.

"Is allergic to peanuts", "User is allergic to peanuts." and "has an allergy
to peanuts" are one fact; "allergic to peanuts" and "allergic to tree nuts"
are two. :func:`lexical_similarity` compares the *content terms* of two fact
texts (English: light stemming, stop words and a leading "User" dropped,
negations kept as one term ``not``; Chinese: character bigrams after
dropping particles) with the Dice coefficient, and scales it down when each
side has a term the other lacks (a substituted value: Berlin → Munich, April
→ May) — that is how look-alikes differ. With an embedder the cosine of the
two texts is used instead.

:func:`duplicate_groups` finds groups above a threshold within each category
(union of pairs); :func:`merge_group` turns one group into the kept fact plus
superseded entries: the highest confidence is kept (ties: the earliest
``createdAt``), with the earliest ``createdAt`` of the group, the latest
``lastConfirmedAt`` / ``lastAccessedAt``, the summed ``accessCount``, and
``user_stated`` if any member was. The others are superseded with reason
``"merged into <kept id>"``.

The threshold (``consolidation_threshold``, default 0.85) was calibrated on
``bench/data/duplicate_pairs.csv`` by ``python bench/consolidation.py``.
Everything here is pure; nothing raises on odd text.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass

from deerflow_memory.arguments import expect_text
from deerflow_memory.caching import TextCache
from deerflow_memory.models import Fact, FactCategory, SourceType, SupersededFact

__all__ = [
    "DEFAULT_THRESHOLD",
    "Similarity",
    "cosine_similarity_of",
    "duplicate_groups",
    "fact_similarity",
    "keeper_of",
    "lexical_similarity",
    "merge_group",
    "terms",
    "text_similarity",
]

DEFAULT_THRESHOLD = 0.85
Similarity = Callable[[Fact, Fact], float]

_CJK_RUN = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]+")
_WORD = re.compile(r"[a-z0-9]+(?:'[a-z]+)?")
_LEAD = re.compile(r"^\s*(?:(?:the\s+)?user(?:'s)?\b|该?用户)\s*", re.IGNORECASE)
_STOP_EN = frozenset(
    {
        "a",
        "an",
        "the",
        "is",
        "are",
        "am",
        "be",
        "been",
        "being",
        "was",
        "were",
        "has",
        "have",
        "had",
        "having",
        "do",
        "does",
        "did",
        "to",
        "of",
        "in",
        "on",
        "at",
        "for",
        "with",
        "and",
        "or",
        "as",
        "by",
        "from",
        "that",
        "it",
        "its",
        "their",
        "they",
        "them",
        "he",
        "she",
        "his",
        "her",
        "my",
        "i",
        "me",
        "user",
        "user's",
        "also",
        "very",
        "really",
        "any",
        "who",
        "which",
        "when",
        "while",
        "about",
        "then",
        "there",
        "currently",
        "usually",
        "would",
        "will",
        "shall",
        "should",
        "can",
        "could",
    }
)
_NEGATIONS = frozenset({"not", "no", "never", "without", "nor"})
# Words whose two sides must not swap: "tea over coffee", "Anne not Ann".
_RELATIONS = frozenset({"over", "before", "after", "instead", "than", "rather", "not", "vs", "to"})
# Words that mean the same thing for deduplication: stem → canonical terms.
_SYNONYMS = {
    "dislike": ("not", "like"),
    "hate": ("not", "like"),
    "love": ("like",),
    "enjoy": ("like",),
    "fond": ("like",),
}
# No "ed": "lived in Berlin" is not "lives in Berlin"; no "e": "Anne" is not "Ann".
_SUFFIXES = ("ational", "ation", "ies", "ing", "ly", "ic", "s", "y")
_CONTRACTIONS = {"n't": " not", "'m": " am", "'re": " are", "'ve": " have", "'ll": " will"}
_CONTRACTION = re.compile(r"n't|'m\b|'re\b|'ve\b|'ll\b")
# Chinese particles and fillers that do not change what a fact says.
_ZH_DROP = str.maketrans("", "", "的了是很对在也都把被着过呢吧啊嘛呀")
_ZH_NEGATION = re.compile(r"[不没别]")
# Each side has a term the other lacks (a value was substituted): Berlin → Munich.
_SUBSTITUTION_FACTOR = 0.8
# One side only adds terms: "allergic to peanuts" → "… and shellfish" says more.
_ADDITION_FACTOR = 0.9
# One side negated, or the two sides of "over" / "not" / "before" swapped.
_CONFLICT_FACTOR = 0.5


def _stem(word: str) -> str:
    if len(word) <= 3 or word.isdigit():
        return word
    for suffix in _SUFFIXES:
        if word.endswith(suffix) and len(word) - len(suffix) >= 3:
            if suffix == "y" and word[-2] in "aeiou":
                break  # "play", "enjoy": "plays" keeps its y too, so both are "play"
            return word[: -len(suffix)]
    return word


@dataclass(frozen=True, slots=True)
class _Terms:
    words: frozenset[str]
    sides: tuple[str, frozenset[str], frozenset[str]] | None  # relation, before, after


def _compute_terms(text: str) -> _Terms:
    text = _LEAD.sub("", text.casefold().replace("\u2019", "'"))
    found: set[str] = set()
    sequence: list[str] = []
    for run in _CJK_RUN.findall(text):
        run = run.removeprefix("用户").removeprefix("该用户").translate(_ZH_DROP)
        if _ZH_NEGATION.search(run):
            found.add("not")
        if len(run) == 1:
            found.add(run)
        found.update(run[i : i + 2] for i in range(len(run) - 1))
    latin = _CJK_RUN.sub(" ", text)
    latin = _CONTRACTION.sub(lambda m: _CONTRACTIONS[m.group()], latin)
    for word in _WORD.findall(latin):
        if word in _NEGATIONS:
            sequence.append("not")
            continue
        if word == "to" and sequence and sequence[0] == "prefer":
            sequence.append("to")  # "prefers trains to planes": a relation, sides matter
            continue
        if word in _STOP_EN:
            continue
        if word in _RELATIONS:
            sequence.append(word)
            continue
        stem = _stem(word)
        sequence.extend(_SYNONYMS.get(stem, (stem,)))
    found.update(sequence)
    sides = None
    for i, word in enumerate(sequence):
        if word in _RELATIONS and i > 0:
            sides = (word, frozenset(sequence[:i]), frozenset(sequence[i + 1 :]))
            break
    return _Terms(frozenset(found), sides)


# Bounded by characters too: the terms of a 500-character Chinese fact of rare
# bigrams cost ~53 KB, so 16,384 entries alone let this process-wide cache hold
# ~870 MB; half a million characters is ~55 MB at most, ~10,000 facts of 50 characters.
_terms = TextCache(_compute_terms, max_entries=16_384, max_chars=500_000)


def terms(text: str) -> frozenset[str]:
    """The content terms of a fact text (see the module docstring)."""
    return _terms(text).words


def lexical_similarity(a: str, b: str) -> float:
    """Similarity of two fact texts in 0..1 (1: the same content terms, same polarity).

    Dice coefficient of :func:`terms`, times 0.8 when each side has a term
    the other lacks, 0.9 when one only adds terms, and 0.5 when one side is
    negated and the other not, or the two sides of a relation word ("tea
    over coffee", "Anne not Ann") are swapped.

    Example:
        >>> lexical_similarity("Is allergic to peanuts", "has an allergy to peanuts")
        1.0
        >>> round(lexical_similarity("allergic to peanuts", "allergic to tree nuts"), 2)
        0.32

    Raises:
        InvalidArgumentError: ``a`` or ``b`` is not text.
    """
    expect_text(a, "a")
    expect_text(b, "b")
    return text_similarity(a, b)


def fact_similarity(a: Fact, b: Fact) -> float:
    """:func:`text_similarity` of two facts' contents: the lexical :data:`Similarity`."""
    return text_similarity(a.content, b.content)


def text_similarity(a: str, b: str) -> float:
    """:func:`lexical_similarity` without its argument check, for loops over fact texts."""
    ta, tb = _terms(a), _terms(b)
    wa, wb = ta.words, tb.words
    if not wa or not wb:
        return 1.0 if a.strip().casefold() == b.strip().casefold() else 0.0
    shared = len(wa & wb)
    score = 2 * shared / (len(wa) + len(wb))
    if shared < len(wa) and shared < len(wb):
        score *= _SUBSTITUTION_FACTOR
    elif shared < len(wa) or shared < len(wb):
        score *= _ADDITION_FACTOR
    negated = ("not" in wa) != ("not" in wb)
    swapped = bool(ta.sides and tb.sides and ta.sides[0] == tb.sides[0] and ta.sides != tb.sides)
    if negated or swapped:
        score *= _CONFLICT_FACTOR
    return score


def cosine_similarity_of(vectors: dict[str, Sequence[float]]) -> Similarity:
    """A :data:`Similarity` over vectors ``{fact id: vector}`` (cosine; 0 when missing or of
    different lengths)."""

    def similarity(a: Fact, b: Fact) -> float:
        va, vb = vectors.get(a.id), vectors.get(b.id)
        if not va or not vb or len(va) != len(vb):  # none, or another embedder size
            return 0.0
        dot = sum(x * y for x, y in zip(va, vb, strict=True))
        norm = math.sqrt(sum(x * x for x in va)) * math.sqrt(sum(y * y for y in vb))
        return dot / norm if norm else 0.0

    return similarity


def lexical_keys(fact: Fact) -> frozenset[str]:
    """Blocking keys of :func:`lexical_similarity`: a fact's content terms (its text if none)."""
    words = _terms(fact.content).words
    return words or frozenset({"\x00" + fact.content.strip().casefold()})


def _candidates(
    facts: Sequence[Fact],
    only: frozenset[str],
    skip: Callable[[Fact], bool] | None,
    keys: Callable[[Fact], Iterable[str]],
) -> list[int]:
    """Indexes of the touched facts and of the facts sharing a key with one of the same category.

    One pass over ``facts`` whatever their number, so an update that touched a
    few facts costs little even when the document holds thousands.
    """
    wanted: dict[FactCategory, set[str]] = {}
    for fact in facts:
        if fact.id in only and (skip is None or not skip(fact)):
            wanted.setdefault(fact.category, set()).update(keys(fact))
    if not wanted:
        return []
    return [
        i
        for i, fact in enumerate(facts)
        if (want := wanted.get(fact.category)) is not None
        and not want.isdisjoint(keys(fact))
        and (skip is None or not skip(fact))
    ]


def _pairs(
    facts: Sequence[Fact],
    members: list[int],
    only: frozenset[str] | None,
    keys: dict[int, frozenset[str]] | None,
) -> Iterator[tuple[int, int]]:
    """Index pairs ``a < b`` of one category to compare (see :func:`duplicate_groups`)."""
    touched = members if only is None else [i for i in members if facts[i].id in only]
    if keys is None:
        if only is None:
            yield from ((a, b) for n, a in enumerate(members) for b in members[n + 1 :])
        else:
            yield from ((a, b) for a in touched for b in members if b != a)
        return
    if only is not None:  # few touched facts: test each against the members directly
        done: set[int] = set()
        for a in touched:
            ka = keys[a]
            for b in members:
                if b != a and b not in done and not ka.isdisjoint(keys[b]):
                    yield (a, b) if a < b else (b, a)
            done.add(a)
        return
    postings: dict[str, list[int]] = {}
    for i in members:
        for key in keys[i]:
            postings.setdefault(key, []).append(i)
    seen: set[tuple[int, int]] = set()
    for a in touched:
        for key in keys[a]:
            for b in postings.get(key, ()):
                pair = (a, b) if a < b else (b, a)
                if b != a and pair not in seen:
                    seen.add(pair)
                    yield pair


def duplicate_groups(
    facts: Sequence[Fact],
    threshold: float = DEFAULT_THRESHOLD,
    *,
    similarity: Similarity = fact_similarity,
    only: frozenset[str] | None = None,
    skip: Callable[[Fact], bool] | None = None,
    keys: Callable[[Fact], Iterable[str]] | None = None,
    dice_bound: bool = False,
    apart: Callable[[Fact, Fact], bool] | None = None,
) -> list[list[Fact]]:
    """Groups (2 or more) of same-category facts whose similarity is at least ``threshold``.

    Args:
        facts: the document's facts.
        threshold: 0..1; above 1 finds nothing.
        similarity: pairwise similarity (default :func:`lexical_similarity` of the texts).
        only: compare only pairs involving these ids (the facts an update touched);
            ``None`` compares every pair.
        skip: facts never merged (e.g. manual ones).
        keys: blocking keys: only facts sharing a key are compared (e.g.
            :func:`lexical_keys` for the lexical similarity, which is 0 for
            texts sharing no term); ``None`` compares every pair of a category.
        dice_bound: the similarity never exceeds the Dice coefficient of the
            two facts' ``keys`` (true of :func:`lexical_similarity` with
            :func:`lexical_keys`): pairs whose Dice is below ``threshold`` are
            not compared at all.
        apart: facts that never share a group however similar (e.g. other
            numbers, :func:`~deerflow_memory.update.merges.different_facts`):
            two groups are joined only when no member of one is apart from a
            member of the other, so no third fact links "2 children" to "3".

    Returns:
        Groups in the order their first member appears in ``facts``.
    """
    if threshold > 1.0 or len(facts) < 2:
        return []
    if only is not None and keys is not None:
        # Only facts sharing a key with a touched one can join a group: look at those alone.
        indexes = _candidates(facts, only, skip, keys)
    else:
        indexes = [i for i, fact in enumerate(facts) if skip is None or not skip(fact)]
    keysets = None if keys is None else {i: frozenset(keys(facts[i])) for i in indexes}
    parent: dict[int, int] = {}  # union-find over the facts joined so far (absent: a root)
    joined: set[int] = set()
    component: dict[int, list[int]] = {}  # root -> its members, kept only when ``apart`` is given

    def root(i: int) -> int:
        while (up := parent.get(i, i)) != i:
            parent[i] = parent.get(up, up)
            i = up
        return i

    by_category: dict[FactCategory, list[int]] = {}
    for i in indexes:
        by_category.setdefault(facts[i].category, []).append(i)
    for members in by_category.values():
        for a, b in _pairs(facts, members, only, keysets):
            if keysets is not None and dice_bound:
                ka, kb = keysets[a], keysets[b]
                if 2 * len(ka & kb) < threshold * (len(ka) + len(kb)):
                    continue
            ra, rb = root(a), root(b)
            if ra == rb or not similarity(facts[a], facts[b]) >= threshold:
                continue
            if apart is not None:
                left, right = component.get(ra, [ra]), component.get(rb, [rb])
                if any(apart(facts[x], facts[y]) for x in left for y in right):
                    continue
                component[ra] = left + right
                component.pop(rb, None)
            parent[rb] = ra
            joined.update((a, b))
    groups: dict[int, list[Fact]] = {}
    for i in sorted(joined):
        groups.setdefault(root(i), []).append(facts[i])
    return [g for g in groups.values() if len(g) > 1]


@dataclass(frozen=True, slots=True)
class Merge:
    """One merged group: the fact kept and the superseded entries of the others."""

    kept: Fact
    superseded: tuple[SupersededFact, ...]


def keeper_of(group: Sequence[Fact]) -> Fact:
    """The fact :func:`merge_group` keeps: the highest confidence, then the earliest, then the id.

    Raises:
        ValueError: ``group`` is empty.
    """
    return min(group, key=lambda f: (-f.confidence, f.created_at, f.id))


def merge_group(group: Sequence[Fact], now: str) -> Merge:
    """Merge near-duplicates into the highest-confidence one (see the module docstring).

    Args:
        group: two or more facts.
        now: ISO-8601 time stamped as ``supersededAt``.
    """
    keeper = keeper_of(group)
    confirmed = [f.last_confirmed_at for f in group if f.last_confirmed_at]
    accessed = [f.last_accessed_at for f in group if f.last_accessed_at]
    expiries = [f.expires_at for f in group]
    kept = keeper.model_copy(
        update={
            "created_at": min(f.created_at for f in group),
            "last_confirmed_at": max(confirmed) if confirmed else None,
            "last_accessed_at": max(accessed) if accessed else None,
            "access_count": sum(f.access_count for f in group),
            # A member without an end date keeps the merged fact open-ended.
            "expires_at": None if None in expiries else max(e for e in expiries if e),
            "constraint": any(f.constraint for f in group),
            "source_type": (
                SourceType.USER_STATED
                if any(f.source_type is SourceType.USER_STATED for f in group)
                else keeper.source_type
            ),
        }
    )
    reason = f"merged into {keeper.id}"
    superseded = tuple(
        SupersededFact.model_validate({**f.model_dump(), "superseded_at": now, "reason": reason})
        for f in group
        if f is not keeper
    )
    return Merge(kept, superseded)
