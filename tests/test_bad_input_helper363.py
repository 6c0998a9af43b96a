"""Camping said among other pastimes, or alone (helper 363).

Before: "camp" was a second pastime only right after another verb ("I hike and camp"): the
last item of a list with a comma before "and" ("I swim, hike, and camp.") was left with no
subject and dropped, and "I camp." stored nothing. Sentences are this project's own.
"""

from __future__ import annotations

import pytest
from langchain_core.messages import AIMessage, HumanMessage

from deerflow_memory.update.offline.extractor import OfflineExtractor


def _stored(said: str) -> list[str]:
    messages = [HumanMessage(said), AIMessage("Noted.")]
    return [c.content for c in OfflineExtractor.candidates(messages)]


@pytest.mark.parametrize(
    ("said", "stored"),
    [
        ("I swim, hike, and camp.", ["User swims", "User hikes", "User camps"]),
        ("I kayak, and camp", ["User kayaks", "User camps"]),
        ("I camp.", ["User camps"]),
        # (unchanged: right after another verb, and with more said)
        ("I hike and camp", ["User hikes and camps"]),
        ("I swim, hike and camp", ["User swims", "User hikes and camps"]),
    ],
)
def test_camping_is_kept_wherever_it_stands(said: str, stored: list[str]) -> None:
    assert _stored(said) == stored


@pytest.mark.parametrize(
    "said",
    [
        "I swim, hike, and camp\u0000.",
        "I swim,\u200f hike, and camp.",
        "I swim\uff0c hike\uff0c and camp\u3002",
    ],
)
def test_hostile_spellings_of_the_list_raise_nothing(said: str) -> None:
    assert all(isinstance(fact, str) for fact in _stored(said))


# Before: only ' ’ ‘ were apostrophes. "Iʼm from Canada" (U+02BC, a modifier letter some
# keyboards type) stored nothing; "I＇m from Canada" (full width), "I´m", "I′m" and "I`m"
# stored the sentence as said ("User: I＇m from Canada").
@pytest.mark.parametrize("mark", ["\u02bc", "\uff07", "\u00b4", "\u2032", "`"])
def test_an_apostrophe_typed_another_way_is_one(mark: str) -> None:
    assert _stored(f"I{mark}m from Canada.") == ["User is from Canada"]
    assert _stored(f"I don{mark}t eat pork.") == _stored("I don't eat pork.")


def test_a_name_after_a_modifier_apostrophe_is_kept() -> None:
    assert _stored("I\u02bcm Dan.") == ["User's name is Dan"]
