"""Attacker 51's findings on this session's extractor changes, each pinned."""

from __future__ import annotations

import pytest

from deerflow_memory.models import MemoryDocument
from tests.test_offline_extractor import _extract, _fact


def _run(*said: str, stored: tuple[str, ...] = ()) -> tuple[list[str], list[str]]:
    document = MemoryDocument(facts=tuple(_fact(f"f{i}", c) for i, c in enumerate(stored)))
    update = _extract(*said, document=document)
    return [f.content for f in update.new_facts], [r.id for r in update.facts_to_remove]


@pytest.mark.parametrize(
    "said",
    [
        "I'm not allergic to almonds, it's complicated",
        "I'm not allergic to almonds, it's severe",
        "I'm not allergic to almonds, it's eczema",
        "I'm not allergic to almonds, it's hives sometimes",
    ],
)
def test_its_with_no_allergen_after_it_stores_and_removes_nothing(said: str) -> None:
    assert _run(said, stored=("User is allergic to almonds",)) == ([], [])


@pytest.mark.parametrize(
    ("said", "stored"),
    [
        ("I don't work at Boots, it's Sunday", ["User does not work at Boots"]),
        ("I don't live in Seville, it's nearby", ["User does not live in Seville"]),
    ],
)
def test_its_with_no_name_after_it_is_no_new_place(said: str, stored: list[str]) -> None:
    assert _run(said)[0] == stored


@pytest.mark.parametrize(
    "then", ["Actually I'm allergic to both", "wait no, almonds as well", "both, actually"]
)
def test_a_stored_allergy_survives_a_correction_and_any_way_of_taking_it_back(then: str) -> None:
    _, removed = _run(
        "I'm not allergic to almonds, it's sesame", then, stored=("User is allergic to almonds",)
    )
    assert removed == []


def test_a_slip_corrected_back_and_forth_keeps_both_allergies() -> None:
    facts, _ = _run(
        "I'm allergic to prawns",
        "Actually I'm allergic to crab, not prawns",
        "no wait, prawns, not crab",
    )
    assert "User is allergic to prawns" in facts


@pytest.mark.parametrize(
    "said",
    [
        "I'm back home in Quebec. Visiting my parents for two weeks.",
        "My parents used to live in Lyon, now I'm in Quebec",
    ],
)
def test_a_visit_or_someone_elses_old_home_moves_no_one(said: str) -> None:
    assert _run(said, stored=("User lives in Ottawa",))[1] == []


@pytest.mark.parametrize(
    "said",
    [
        "Please keep explanations simple for my son",
        "Please don't use emojis when you reply to my boss",
        "I'd like to get an answer eventually lol",
        "I'd like to get this working eventually",
        "I read somewhere that figs contain wasps",
        "I read mostly your summaries",
        "The app used to crash, now I can't log in",
        "Write a cake recipe (I'm making it for my mom)",
        "发给我吧（我在用手机）",
    ],
)
def test_one_off_wishes_chat_and_others_pasts_store_nothing(said: str) -> None:
    assert _run(said)[0] == []


@pytest.mark.parametrize(
    ("said", "stored"),
    [
        ("Excel用得很熟", ["用户Excel用得很熟"]),
        ("35岁了还没结婚", ["用户35岁了还没结婚"]),
        ("I'm married and we have a toddler.", ["User is married and we have a toddler"]),
    ],
)
def test_what_the_user_said_before_stays(said: str, stored: list[str]) -> None:
    assert _run(said)[0] == stored


def test_not_only_is_no_correction() -> None:
    assert (
        _run("I meant I also live in Paris, not only in Nice", stored=("User lives in Nice",))[1]
        == []
    )
