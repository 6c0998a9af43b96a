"""A home, workplace, job or name put right said short ("York, not Leeds.").

Before: after "I live in Leeds.", "York, not Leeds." or "Sorry, I meant York." stored
nothing of York and kept Leeds, in the same message, the next one or the next update:
only a need's thing was put right so ("Pecans, not walnuts."). Now a short correction puts
right the value of the home, workplace, job or name said last, when it names that value as
the wrong one (not after a reply asking something, which it may answer) or is said in the
user's own words ("Sorry, I meant…", "Oops, …", "Make that…", "不对，是…").

Sentences are this project's own.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.test_offline_context import _said_in_turns
from tests.test_quality_kinds import facts_of_one_update


@pytest.mark.parametrize(
    ("said", "correction", "stored"),
    [
        ("I live in Bath.", "Wells, not Bath.", "User lives in Wells"),
        ("I live in Bath.", "Sorry, I meant Wells.", "User lives in Wells"),
        ("I work at Lidl.", "Make that Asda.", "User works at Asda"),
        ("I'm a plumber.", "Oops, electrician.", "User is an electrician"),
        ("I live in Santa Fe.", "santa cruz, not santa fe.", "User lives in Santa Cruz"),
        ("我住在杭州。", "不对，是苏州。", "用户住在苏州"),
    ],
)
def test_a_short_correction_puts_the_value_right(said: str, correction: str, stored: str) -> None:
    assert facts_of_one_update(said, correction) == [stored]


def test_in_the_same_message_too() -> None:
    assert facts_of_one_update("I live in Bath. Wells, not Bath.") == ["User lives in Wells"]


def test_in_the_next_update_the_stored_value_goes(tmp_path: Path) -> None:
    assert _said_in_turns(tmp_path, "I work at Lidl.", "Asda, not Lidl.") == ["User works at Asda"]


@pytest.mark.parametrize(
    ("reply", "correction"),
    [
        ("AI: Bath or Wells?", "Wells, not Bath."),  # an answer to the question
        ("AI: Noted.", "Wells, not Frome."),  # another value named as wrong
        ("AI: Noted.", "Me, not Bath."),
        ("AI: Noted.", "Sorry, peanuts."),  # a need's thing: no home
        ("AI: Noted.", "Wells."),  # neither named wrong nor a slip of the user's
    ],
)
def test_what_is_no_correction_of_it_leaves_the_value(reply: str, correction: str) -> None:
    assert "User lives in Bath" in facts_of_one_update("I live in Bath.", reply, correction)
