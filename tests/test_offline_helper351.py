"""Bad-input forms next to the recent request/colon, bare-reaction and short-diet readings
(helper 351). Sentences are this project's own.

- A request then a full-width colon, a run of colons, or a colon with no space after it
  ("No nuts：I'm allergic", "No sesame:: I'm allergic") lost the need.
- A bare reaction then a line break and more text ("No shrimp, I'm allergic\\nThanks")
  lost the need.
- Diets said short and listed with slashes ("I'm GF/DF/NF") stored nothing.
- "从今天起/开始" (from today on) was read as one day, and the need said with it was lost.
- A bare reaction with a thing more said on ("No prawns, I'm allergic to them and kiwi
  fruit", "…to them & sesame") lost both needs.
"""

from __future__ import annotations

import pytest

from deerflow_memory.update.offline.text import candidates_from_text
from tests.test_quality_kinds import facts_after


def contents(text: str) -> list[str]:
    return [c.content for c in candidates_from_text(text)]


@pytest.mark.parametrize(
    ("said", "need"),
    [
        ("Skip the peanuts：I'm allergic.", "User is allergic to peanuts"),
        ("No peanuts:I'm allergic.", "User is allergic to peanuts"),
        ("Leave out the sesame:: I'm allergic.", "User is allergic to sesame"),
        ("Hold the mayo :::  I'm allergic to eggs.", "User is allergic to eggs"),
    ],
)
def test_a_request_then_odd_colons_keeps_the_need(said: str, need: str) -> None:
    assert facts_after(said) == [need]


@pytest.mark.parametrize(
    ("said", "need"),
    [
        ("No prawns on mine, I'm allergic\nThanks a lot", "User is allergic to prawns"),
        ("Skip the walnuts, I'm allergic to them\nCheers", "User is allergic to walnuts"),
        (
            "No prawns please, I'm allergic to them and kiwi\nThank you",
            "User is allergic to prawns and kiwi",
        ),
    ],
)
def test_a_bare_reaction_then_a_line_break_keeps_the_need(said: str, need: str) -> None:
    assert facts_after(said) == [need]


@pytest.mark.parametrize(
    ("said", "diets"),
    [
        ("I'm GF/DF/NF.", ["User is gluten-free", "User is dairy-free", "User is nut-free"]),
        ("I'm DF / NF.", ["User is dairy-free", "User is nut-free"]),
        ("I'm vegan/GF.", ["User is vegan", "User is gluten-free"]),
    ],
)
def test_diets_said_short_with_slashes_are_each_said(said: str, diets: list[str]) -> None:
    assert facts_after(said) == diets


def test_a_slash_without_a_short_diet_is_read_as_before() -> None:
    assert not any("gluten" in said for said in contents("My GF/partner is vegan."))
    assert not any("gluten" in said for said in contents("I'm tired/sleepy, GF is cooking."))


@pytest.mark.parametrize(
    ("said", "fact"),
    [
        ("从今天起我吃素。", "用户从今天起吃素"),
        ("从今天开始，我吃素。", "用户从今天开始吃素"),
        ("我从今天起吃素。", "用户从今天起吃素"),
        ("从今天起我对芝麻过敏。", "用户对芝麻过敏"),
    ],
)
def test_from_today_on_is_no_single_day(said: str, fact: str) -> None:
    assert facts_after(said) == [fact]


@pytest.mark.parametrize("said", ["今天我吃素。", "我今天吃素。"])
def test_today_alone_is_still_a_day(said: str) -> None:
    assert facts_after(said) == []


@pytest.mark.parametrize(
    ("said", "need"),
    [
        (
            "Skip the prawns, I'm allergic to them and kiwi fruit.",
            "User is allergic to prawns and kiwi fruit",
        ),
        (
            "Hold the walnuts, I'm allergic to them & sesame.",
            "User is allergic to walnuts & sesame",
        ),
        (
            "No lobster please, I'm allergic to it and mango (badly).",
            "User is allergic to lobster and mango (badly)",
        ),
    ],
)
def test_a_bare_reaction_with_more_said_on_keeps_the_needs(said: str, need: str) -> None:
    assert facts_after(said) == [need]
