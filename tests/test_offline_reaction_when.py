"""A reaction said with when it comes, and a pregnancy said with its details, are needs.

Before: "I get hives if I eat kiwi", "If I drink milk I get sick" stored nothing (the "if"
was read as a hypothetical, which drops the sentence); "I throw up whenever I eat eggs" and
"I break out in hives when I eat shellfish" were stored as plain statements, not needs, so
they were not guaranteed a place in the memory block; "I'm 20 weeks pregnant", "I'm pregnant
with twins" and "I'm breastfeeding" stored nothing. Now a reaction on contact with a thing
("if/when/whenever/every time I eat/drink/touch/take X") is read as the rules read a
reaction ("Kiwi gives me hives"), and the pregnancy rule takes its details. When it comes
with no thing ("when I eat too fast", "when I eat late") stays no need. Sentences are this
project's own.
"""

from __future__ import annotations

import pytest

from deerflow_memory.inject.constraints import is_constraint
from deerflow_memory.models import MemoryDocument
from tests.test_quality_kinds import facts_after, remember


@pytest.mark.parametrize(
    ("said", "stored"),
    [
        ("I get hives if I eat kiwi", "User reacts to kiwi: it gives them hives"),
        ("If I drink milk I get sick.", "User reacts to milk: it makes them sick"),
        ("Whenever I eat eggs, I throw up", "User reacts to eggs: they make them throw up"),
        ("I swell up when I touch latex", "User reacts to latex: it makes them swell up"),
        ("I get a rash every time I touch nickel", "User reacts to nickel: it gives them a rash"),
        (
            "I can't breathe when I eat prawns",
            "User reacts to prawns: they make them short of breath",
        ),
        (
            "I break out in hives when I eat shellfish.",
            "User reacts to shellfish: it makes them break out in hives",
        ),
        (
            "I feel nauseous whenever I eat mushrooms",
            "User reacts to mushrooms: they make them nauseous",
        ),
    ],
)
def test_a_reaction_on_contact_is_a_need(said: str, stored: str) -> None:
    facts = remember(MemoryDocument(), said).facts
    assert [fact.content for fact in facts] == [stored]
    assert is_constraint(facts[0])


@pytest.mark.parametrize(
    "said",
    [
        "I feel sick when I eat too fast",
        "I get bloated when I eat too much",
        "I get sick if I eat too much candy",
    ],
)
def test_when_it_comes_with_no_thing_is_no_need(said: str) -> None:
    assert not any(is_constraint(fact) for fact in remember(MemoryDocument(), said).facts)


@pytest.mark.parametrize(
    ("said", "stored"),
    [
        ("I'm 20 weeks pregnant", ["User is 20 weeks pregnant"]),
        ("I'm pregnant with twins.", ["User is pregnant with twins"]),
        ("I'm breastfeeding", ["User is breastfeeding"]),
        ("I'm nursing my newborn", ["User is nursing their newborn"]),
        ("I'm nursing a grudge", []),
    ],
)
def test_a_pregnancy_said_with_its_details(said: str, stored: list[str]) -> None:
    assert facts_after(said) == stored
    assert all(is_constraint(fact) for fact in remember(MemoryDocument(), said).facts)


@pytest.mark.parametrize(
    ("said", "stored"),
    [
        ("如果我吃芒果就会过敏", ["用户对芒果过敏"]),
        ("吃芒果的话我会过敏", ["用户对芒果过敏"]),
        ("我只要吃芒果就过敏", ["用户对芒果过敏"]),  # (was "用户对只要吃芒果就过敏")
        ("每次喝豆浆我都拉肚子", ["用户喝豆浆会拉肚子"]),
        ("只要碰到猫毛我就打喷嚏", ["用户碰猫毛会打喷嚏"]),
        # when it comes with no thing
        ("如果我吃太多就会胃疼", []),
        ("每次吃完饭我都想吐", []),
    ],
)
def test_a_chinese_reaction_said_with_when_it_comes(said: str, stored: list[str]) -> None:
    assert facts_after(said) == stored


@pytest.mark.parametrize(
    ("said", "stored"),
    [
        ("Gluten and I don't get along", ["User reacts to gluten: it doesn't agree with them"]),
        ("Fried food and I don't mix.", ["User reacts to fried food: it doesn't agree with them"]),
        (
            "Dairy and I really don't get along",
            ["User reacts to dairy: it doesn't agree with them"],
        ),
        # a person, a time of day or a subject is no thing one eats or reacts to
        ("My cousin and I don't get along", []),
        ("Mondays and I don't get along", []),
        ("Chemistry and I don't get along", []),
    ],
)
def test_a_thing_the_user_does_not_get_along_with(said: str, stored: list[str]) -> None:
    assert facts_after(said) == stored
