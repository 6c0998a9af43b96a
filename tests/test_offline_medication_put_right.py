"""A medication put right as soon as it was said, or in the next turn.

Before: "I take insulin." then "Sorry, I meant metformin." kept insulin and stored nothing of
metformin (only things one reacts to were read after "I meant"); "I'm on warfarin. I mean
apixaban." likewise. Now a medication need is put right as an allergy is: by another
medication only ("…, I meant twice a day" is no medication), in its place when it was one
thing, beside a list (which item was wrong is not said). Sentences are this project's own.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.test_offline_context import _said_in_turns
from tests.test_quality_kinds import facts_of_one_update


@pytest.mark.parametrize(
    ("told", "meant", "stored"),
    [
        ("I take warfarin.", "Sorry, I meant apixaban.", ["User takes apixaban"]),
        ("I'm on heparin.", "I mean enoxaparin.", ["User is on enoxaparin"]),
        # a list: which one was wrong is not said, so all stay and the one meant is added
        (
            "I take ramipril and insulin.",
            "Oops, I meant candesartan.",
            ["User takes ramipril and insulin", "User takes candesartan"],
        ),
        # no medication: nothing is put right
        ("I take warfarin.", "Sorry, I meant every morning.", ["User takes warfarin"]),
    ],
)
def test_a_medication_put_right_in_the_same_update(
    told: str, meant: str, stored: list[str]
) -> None:
    assert facts_of_one_update(told, meant) == stored


def test_a_medication_put_right_in_the_next_update_is_added_beside_it(tmp_path: Path) -> None:
    # (a need put right in a later update is kept beside the one meant, as an allergy is)
    said = ("I take warfarin.", "Sorry, I meant apixaban.")
    assert _said_in_turns(tmp_path, *said) == ["User takes warfarin", "User takes apixaban"]


def test_a_chinese_medication_is_a_need_put_right_as_one(tmp_path: Path) -> None:
    # "我在吃氯吡格雷" was read in the user's own words, no need: "说错了，是阿哌沙班" put
    # nothing right and stored "用户是阿哌沙班"
    said = ("我在吃氯吡格雷。", "说错了，是阿哌沙班。")
    assert facts_of_one_update(*said) == ["用户在吃阿哌沙班"]
    assert _said_in_turns(tmp_path, *said) == ["用户在吃氯吡格雷", "用户在吃阿哌沙班"]
