"""A moment said after a time, and someone else's reaction, are no facts of the user's.

Before (attacker 348's list and nearby forms): "现在我吃晚饭。" and "现在我有个问题。"
were stored ("用户现在吃晚饭": the English moment rule had no Chinese side); "Since 2019 my
son has asthma." stored "User: since 2019 their son has asthma" and "For a moment I thought
I had lost my keys." a fact of the same shape (the own-words reading of something acting on
"me"/"my" took a subject before "my son" or an "I" among the words); and "Dairy makes my
daughter sick." stored "User reacts to dairy: …" (the reaction rule read "my daughter" as a
part of the user's body). Sentences are this project's own.
"""

from __future__ import annotations

import pytest

from tests.test_quality_kinds import facts_after


@pytest.mark.parametrize(
    "said",
    [
        "现在我吃午饭。",
        "目前我有个小问题。",
        "Since 2020 my wife has eczema.",
        "Lately my dad gets migraines from red wine.",
        "For a second I thought I had lost my passport.",
        "Gluten makes my husband ill.",
        "Shrimp gives my toddler hives.",
    ],
)
def test_no_fact_of_the_users(said: str) -> None:
    assert facts_after(said) == []


@pytest.mark.parametrize(
    ("said", "thing"),
    [
        ("现在我对菠萝过敏。", "菠萝"),
        ("目前我在吃阿司匹林。", "阿司匹林"),
        ("Walnuts make my throat itch.", "walnuts"),
        ("Once a week migraines knock me flat.", "migraines"),
    ],
)
def test_the_users_own_is_still_stored(said: str, thing: str) -> None:
    assert any(thing in fact for fact in facts_after(said))
