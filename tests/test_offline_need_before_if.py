"""A need said before a clause of "if", "maybe" or "might" stands.

Before: a hypothetical word anywhere in a sentence dropped the whole sentence, so "I'm
allergic to penicillin, so check if the drug has it", "I'm allergic to peanuts, maybe
shrimp", "I'm vegan, if that's okay" and "我对花生过敏，如果菜里有花生请告诉我" lost the need
said first. Now the clauses before the hypothetical one are read for needs (no other fact,
no withdrawal); a sentence that opens with the hypothetical is still nothing. Sentences
are this project's own.
"""

from __future__ import annotations

import pytest

from tests.test_quality_kinds import facts_after


@pytest.mark.parametrize(
    ("said", "stored"),
    [
        (
            "I'm allergic to penicillin, so check if the drug has it.",
            ["User is allergic to penicillin"],
        ),
        (
            "I'm allergic to walnuts and I might be allergic to pecans.",
            ["User is allergic to walnuts"],
        ),
        ("I'm allergic to walnuts, maybe pecans.", ["User is allergic to walnuts"]),
        ("I'm vegan, if that's okay.", ["User is vegan"]),
        ("I'm allergic to cats, I wish I weren't.", ["User is allergic to cats"]),
        ("I can't eat gluten, so tell me if a dish has it.", ["User cannot eat gluten"]),
        ("我对花生过敏，如果菜里有花生请告诉我。", ["用户对花生过敏"]),
        ("我对花生过敏，也许还有虾。", ["用户对花生过敏"]),
    ],
)
def test_the_need_before_a_hypothetical_stands(said: str, stored: list[str]) -> None:
    assert facts_after(said) == stored


@pytest.mark.parametrize(
    "said",
    [
        "If I were vegan I'd eat tofu.",
        "I might be allergic to walnuts.",
        "Maybe I'm allergic to walnuts.",
        "I'd go vegan if I could.",
        "I live in Oslo, but I might move.",  # no need: nothing, as before
        "如果我吃素的话，我会很瘦。",
    ],
)
def test_a_hypothetical_alone_is_nothing(said: str) -> None:
    assert facts_after(said) == []


def test_a_withdrawal_before_a_hypothetical_withdraws_nothing() -> None:
    assert facts_after("I'm vegan.", "I'm no longer vegan, maybe I'll go back.") == [
        "User is vegan"
    ]
