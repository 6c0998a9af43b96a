"""Attacker 280 against the fixes of attacker 278 (6f2f752).

Each stored case lost its need there (c139965 kept it): a field read only when every item
was a known thing ("Allergies: morphine", "cat dander, dust mites", "shellfish (shrimp,
crab)"); "Allergic to morphine." needed a known thing; anyone named in the sentence took
the need away ("Vegan, like my mom", "Allergic to peanuts, my son is too"); words of the
next sentence about something else were doubts ("I'm confused about which cheese to buy");
a laugh before an "if" took the need back ("I'm vegan haha, if you're asking"); and
"different" anywhere made "My wife and I are both allergic to penicillin" the two's. A
real doubt two sentences on was missed. Sentences are this project's own.
"""

from __future__ import annotations

import pytest

from tests.test_quality_kinds import facts_after


@pytest.mark.parametrize(
    ("said", "stored"),
    [
        ("Allergies: morphine", ["User is allergic to morphine"]),
        ("Allergies: cat dander, dust mites", ["User is allergic to cat dander, dust mites"]),
        ("Allergies: shellfish (shrimp, crab)", ["User is allergic to shellfish (shrimp, crab)"]),
        ("Intolerances: fructose", ["User is intolerant to fructose"]),
        ("Allergic to morphine.", ["User is allergic to morphine"]),
        ("Vegan, like my mom.", ["User is vegan"]),
        ("Allergic to peanuts, my son is too.", ["User is allergic to peanuts"]),
        (
            "My doctor told me I'm lactose intolerant. I'm confused about which cheese to buy.",
            ["User is lactose intolerant"],
        ),
        ("I'm vegan haha, if you're asking.", ["User is vegan"]),
        (
            "My wife and I are both allergic to penicillin, different reactions though.",
            ["User is allergic to penicillin, different reactions (with their wife)"],
        ),
    ],
)
def test_the_need_is_kept(said: str, stored: list[str]) -> None:
    assert facts_after(said) == stored


@pytest.mark.parametrize(
    "said",
    [
        "My doctor says I'm allergic to peanuts. So that's that. But honestly I doubt it.",
        "Diet: starts Monday",
        "Allergies: not that I know of",
        "Allergic to commitment.",
        "Diabetic, my dad.",
        "For my daughter: allergic to eggs, lactose intolerant.",
        "My wife is vegan, allergic to nuts.",
    ],
)
def test_nothing_is_stored(said: str) -> None:
    assert facts_after(said) == []


@pytest.mark.parametrize(
    "said",
    [
        # attacker 281 (against 38fc170): a joke or someone in a field, a joke after "Allergic to"
        "Allergies: commitment",
        "Allergies: taxes",
        "Allergies: nuts lmao",
        "Allergies: peanuts (son)",
        "Allergies: eggs, baby",
        "Allergic to small talk.",
        "Allergic to Tuesdays.",
    ],
)
def test_a_joke_or_someone_else_is_no_need(said: str) -> None:
    assert facts_after(said) == []


@pytest.mark.parametrize(
    ("said", "stored"),
    [
        # attacker 283: each opener left open was closed in the fact, 2N characters long
        ("I'm allergic to peanuts " + "(" * 20_000, ["User is allergic to peanuts"]),
        (
            "Allergies: peanuts, shellfish " + "([" * 3_000,
            ["User is allergic to peanuts, shellfish"],
        ),
        ("I am vegan (no dairy)", ["User is vegan (no dairy)"]),
    ],
)
def test_a_run_of_brackets_is_no_part_of_a_fact(said: str, stored: list[str]) -> None:
    assert facts_after(said) == stored
