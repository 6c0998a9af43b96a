"""Attacker 52's findings: no correction of any shape removes a stored need; hedges stay out."""

from __future__ import annotations

import pytest

from tests.test_offline_attacker51 import _run


@pytest.mark.parametrize(
    "said",
    [
        "Not almonds, it's cashews",
        "Sorry, I meant cashews, not almonds",
        "Not almonds, the kids want crisps",
        "Not milk, oat milk please",
    ],
)
def test_a_short_correction_or_an_order_keeps_a_stored_allergy(said: str) -> None:
    _, removed = _run(said, stored=("User is allergic to almonds", "User is allergic to milk"))
    assert removed == []


@pytest.mark.parametrize(
    "said", ["不是花生，是腰果", "我不是对花生过敏，是对芝麻过敏", "不是花生，是芝麻"]
)
def test_a_chinese_correction_keeps_a_stored_allergy(said: str) -> None:
    assert _run(said, stored=("用户对花生过敏",))[1] == []


def test_a_correction_of_a_place_still_replaces_it() -> None:
    assert _run("Not Leeds, it's Sheffield", stored=("User lives in Leeds",))[1] == ["f0"]


@pytest.mark.parametrize(
    "said",
    ["I think I'm a terrible cook", "I'm a terrible cook", "I reckon I'm a decent baker"],
)
def test_a_self_judgement_is_no_job(said: str) -> None:
    assert _run(said, stored=("User works as a nurse",))[1] == []


@pytest.mark.parametrize("said", ["I think I'm pregnant", "I think I'm allergic to cats"])
def test_i_think_is_too_unsure_to_store(said: str) -> None:
    assert _run(said) == ([], [])


def test_a_retraction_is_not_undone_by_a_hedged_restatement() -> None:
    _, removed = _run(
        "I'm no longer vegetarian",
        "I'm vegetarian, or so my mum thinks",
        stored=("User is vegetarian",),
    )
    assert removed == ["f0"]


@pytest.mark.parametrize(
    ("said", "stored"),
    [
        ("I used to live in Leeds, now I visit it yearly", []),
        ("I'm 在上海工作", ["用户在上海工作"]),
    ],
)
def test_now_and_mixed_openings(said: str, stored: list[str]) -> None:
    assert _run(said)[0] == stored


@pytest.mark.parametrize(
    ("said", "stored"),
    [
        # someone else after "是" (attacker 52, G5; before this session too)
        ("我不是老师，是我姐姐", []),
        ("我对芒果不过敏，是我女儿过敏", ["用户对芒果不过敏"]),
        ("我不喝酒，是我同事要喝", ["用户不喝酒"]),
    ],
)
def test_someone_else_after_shi_is_not_the_user(said: str, stored: list[str]) -> None:
    assert _run(said)[0] == stored


def test_someone_else_after_shi_rewrites_no_stored_job() -> None:
    assert _run("我不是老师，是我姐姐", stored=("用户是老师",)) == ([], [])
