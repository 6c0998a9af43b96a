"""A statement of the user's own in brackets inside a sentence is read on its own (surveyor 1)."""

from __future__ import annotations

import pytest

from tests.test_offline_extractor import _extract


@pytest.mark.parametrize(
    ("said", "stored"),
    [
        (
            "Back from a night at the station (I'm a firefighter) and I'm starving.",
            ["User is a firefighter"],
        ),
        ("Any ideas for the picnic (I'm coeliac)?", ["User is coeliac"]),
        (
            "We're hosting a barbecue (I'm allergic to sesame) on Sunday.",
            ["User is allergic to sesame"],
        ),
        ("帮我推荐几道菜（我对虾过敏）", ["用户对虾过敏"]),
        (
            "I'm a midwife (I work nights) and I live in Derby",
            ["User is a midwife", "User lives in Derby", "User works nights"],
        ),
        # a hedge, a taking back or an aside about something else stays where it is
        ("I'm allergic to kiwi (I think)", ["User is allergic to kiwi (they think)"]),
        ("I'm a surgeon (I'm kidding)", []),
        ("I'm allergic to nuts (all kinds)", ["User is allergic to nuts (all kinds)"]),
    ],
)
def test_an_aside_of_the_users_own_is_a_statement(said: str, stored: list[str]) -> None:
    assert [f.content for f in _extract(said).new_facts] == stored


@pytest.mark.parametrize(
    ("said", "stored"),
    [
        ("I'm a midwife", "User is a midwife"),
        ("I'm a social worker in Leeds", "User is a social worker in Leeds"),
        ("I'm a hairdresser", "User is a hairdresser"),
    ],
)
def test_more_everyday_jobs_are_jobs(said: str, stored: str) -> None:
    assert [f.content for f in _extract(said).new_facts] == [stored]
