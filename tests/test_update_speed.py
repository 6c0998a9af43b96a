"""The shortcuts that keep an update cheap on large documents find what the slow way finds.

Consolidation compares only candidate pairs (facts sharing a term with a touched
fact, Dice of the terms at least the threshold); these tests compare its groups
with a brute-force pass over every pair on documents full of near-duplicates.
"""

from __future__ import annotations

import random

import pytest

from deerflow_memory.models import Fact, FactCategory, SourceType
from deerflow_memory.update.consolidate import (
    DEFAULT_THRESHOLD,
    duplicate_groups,
    lexical_keys,
    lexical_similarity,
)
from deerflow_memory.update.hygiene import is_manual

SUBJECTS = ["peanuts", "shellfish", "Berlin", "Munich", "tea", "coffee", "Python", "Rust"]
FRAMES = [
    "is allergic to {}",
    "User is allergic to {}.",
    "has an allergy to {}",
    "lives in {}",
    "User lives in {} now",
    "prefers {} over decaf",
    "likes {}",
    "loves {}",
    "does not like {}",
    "works with {} every day",
    "{}",
    "喜欢{}",
]
CATEGORIES = [FactCategory.PREFERENCE, FactCategory.CONTEXT, FactCategory.KNOWLEDGE]


def random_facts(rng: random.Random, n: int) -> list[Fact]:
    return [
        Fact(
            id=f"fact_{i:05d}",
            content=rng.choice(FRAMES).format(rng.choice(SUBJECTS)),
            category=rng.choice(CATEGORIES),
            source_type=SourceType.MANUAL if rng.random() < 0.1 else SourceType.INFERRED,
        )
        for i in range(n)
    ]


def brute_force_groups(
    facts: list[Fact], threshold: float, only: frozenset[str] | None
) -> list[list[str]]:
    parent = list(range(len(facts)))

    def root(i: int) -> int:
        while parent[i] != i:
            i = parent[i]
        return i

    for a in range(len(facts)):
        for b in range(a + 1, len(facts)):
            fa, fb = facts[a], facts[b]
            if fa.category != fb.category or is_manual(fa) or is_manual(fb):
                continue
            if only is not None and fa.id not in only and fb.id not in only:
                continue
            if root(a) != root(b) and lexical_similarity(fa.content, fb.content) >= threshold:
                parent[root(b)] = root(a)
    groups: dict[int, list[str]] = {}
    for i, fact in enumerate(facts):
        groups.setdefault(root(i), []).append(fact.id)
    return [g for g in groups.values() if len(g) > 1]


@pytest.mark.parametrize("seed", range(6))
@pytest.mark.parametrize("threshold", [DEFAULT_THRESHOLD, 0.6])
def test_the_pass_over_touched_facts_finds_the_groups_of_a_brute_force_pass(
    seed: int, threshold: float
) -> None:
    rng = random.Random(seed)
    facts = random_facts(rng, 160)
    only = frozenset(f.id for f in rng.sample(facts, 5))
    found = duplicate_groups(
        facts, threshold, only=only, skip=is_manual, keys=lexical_keys, dice_bound=True
    )
    expected = brute_force_groups(facts, threshold, only)
    assert expected, "the random document should hold near-duplicates of the touched facts"
    assert [[f.id for f in g] for g in found] == expected


@pytest.mark.parametrize("seed", range(3))
def test_the_full_pass_with_blocking_keys_finds_the_groups_of_a_brute_force_pass(
    seed: int,
) -> None:
    facts = random_facts(random.Random(100 + seed), 90)
    found = duplicate_groups(facts, skip=is_manual, keys=lexical_keys, dice_bound=True)
    expected = brute_force_groups(facts, DEFAULT_THRESHOLD, None)
    assert len(expected) > 3
    assert [[f.id for f in g] for g in found] == expected
