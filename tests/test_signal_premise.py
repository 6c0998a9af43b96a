"""A premise of the reply denied corrects it: the user has no thing the reply counts on.

Before: "There's no blue cable in the box." after "Plug in the blue cable.", "I don't have an
oven." after "Bake it in the oven…", "我家没有烤箱。" after "用烤箱烤二十分钟。" were no
correction. Near misses stay none: an offer answered ("No questions."), a thing the reply did
not name ("There's no parking though."), a question, an answer to a question. Sentences are
this project's own.
"""

from __future__ import annotations

import pytest

from deerflow_memory.capture.premise import premise_denied
from tests.test_signal_kinds import verdict


@pytest.mark.parametrize(
    ("assistant", "user"),
    [
        ("Plug in the blue cable.", "There is no blue cable in the box."),
        ("Bake it in the oven for 20 minutes.", "I don't have an oven."),
        ("Open the Settings app and tap Privacy.", "There's no Privacy option."),
        ("Take the 42 bus to the station.", "There are no buses on Sundays."),
        ("Add two eggs and a cup of milk.", "I have no eggs."),
        ("Wear your reading glasses for this.", "I don't have glasses."),
        ("Put the cards back in their cases.", "Sadly there are no cases in the box."),
        ("用烤箱烤二十分钟。", "我家没有烤箱。"),
        ("你可以坐地铁去。", "我们这里没有地铁。"),
    ],
)
def test_a_thing_the_reply_counts_on_said_not_there_corrects(assistant: str, user: str) -> None:
    assert verdict(assistant, user) == "correction"


@pytest.mark.parametrize(
    ("assistant", "user"),
    [
        ("Let me know if you have questions.", "No questions."),
        ("Let me know if you have any questions.", "I don't have any questions."),
        ("The restaurant is on Main Street.", "There's no parking though."),
        ("有问题随时问我。", "没有问题。"),
        ("Here's the plan.", "I have no idea what to pack."),
        ("I can recommend a hotel.", "I don't have a budget yet."),
        ("Do you have a car?", "I don't have a car."),
        ("Use the blue cable.", "Is there no blue cable?"),
        ("You need to leave now.", "I don't have to."),
        ("Pack a lunch for the hike.", "I don't have much time."),
    ],
)
def test_their_near_misses_are_no_correction(assistant: str, user: str) -> None:
    assert verdict(assistant, user) != "correction"


def test_a_long_turn_or_reply_is_read_in_bounded_time() -> None:
    """Only short turns are read, and only the reply's first 800 characters."""
    assert not premise_denied("I don't have an oven. " * 5_000, "oven " * 50_000)
    assert not premise_denied("I don't have an oven.", "x " * 50_000 + "oven")
