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
