"""A list of medications whose first is known only by its name's ending.

Before: "I take ramipril, warfarin and insulin" stored "User takes ramipril" only, and "I
take ramipril, rosuvastatin and warfarin daily" stored "User rosuvastatins and warfarin
daily" beside it (the rest read as a clause with the user dropped). "I take ramipril" alone
stays no medical need (attacker 311: drug-like junk words). Sentences are this project's own.
"""

from __future__ import annotations

import pytest

from tests.test_quality_kinds import facts_after


@pytest.mark.parametrize(
    ("said", "stored"),
    [
        ("I take ramipril, warfarin and insulin.", ["User takes ramipril, warfarin and insulin"]),
        ("I take ramipril and warfarin.", ["User takes ramipril and warfarin"]),
        (
            "I take ramipril, rosuvastatin and warfarin daily.",
            ["User takes ramipril, rosuvastatin and warfarin daily"],
        ),
        # a known one first was read whole before, and still is
        ("I take warfarin, ramipril and insulin.", ["User takes warfarin, ramipril and insulin"]),
        # a form's field keeps its supplements last
        ("Meds: cod liver oil, warfarin, zinc", ["User takes warfarin, cod liver oil and zinc"]),
    ],
)
def test_the_whole_list_is_stored(said: str, stored: list[str]) -> None:
    assert facts_after(said) == stored


def test_a_drug_known_by_its_ending_is_a_need_only_in_a_list_with_a_known_one() -> None:
    from deerflow_memory.update.offline.text import candidates_from_text

    (alone,) = candidates_from_text("I take ramipril.")
    (listed,) = candidates_from_text("I take ramipril and warfarin.")
    assert not alone.constraint
    assert listed.constraint


@pytest.mark.parametrize(
    ("said", "stored"),
    [
        # the middle items of a serial-comma list were dropped before its last one came
        (
            "I take candesartan, pravastatin, and warfarin.",
            ["User takes candesartan, pravastatin, and warfarin"],
        ),
        (
            "I take enalapril, simvastatin, omeprazole, and insulin.",
            ["User takes enalapril, simvastatin, omeprazole, and insulin"],
        ),
        # semicolons between the items of a list
        (
            "I'm allergic to almonds; lobster; and mustard.",
            ["User is allergic to almonds, lobster, and mustard"],
        ),
        ("I take insulin; metformin; and aspirin.", ["User takes insulin, metformin, and aspirin"]),
        (
            "Meds: candesartan; pravastatin; warfarin.",
            ["User takes candesartan, pravastatin and warfarin"],
        ),
    ],
)
def test_a_list_written_out_keeps_every_item(said: str, stored: list[str]) -> None:
    assert facts_after(said) == stored


@pytest.mark.parametrize(
    ("said", "stored"),
    [
        # someone else's clause after the list is no item of it
        (
            "I take candesartan, pravastatin, and my husband takes insulin.",
            ["User takes candesartan"],
        ),
        # a clause of its own after a semicolon stays one
        ("I'm pescatarian; my husband isn't.", ["User is pescatarian"]),
        (
            "I live in Derby; I work in Leicester.",
            ["User lives in Derby", "User works in Leicester"],
        ),
        # "too" makes each a sentence of its own, read as before
        (
            "I'm allergic to almonds; lobster too; and also to mustard",
            [
                "User is allergic to almonds",
                "User is allergic to lobster",
                "User is allergic to mustard",
            ],
        ),
    ],
)
def test_what_is_no_item_of_a_list_stays_apart(said: str, stored: list[str]) -> None:
    assert facts_after(said) == stored
