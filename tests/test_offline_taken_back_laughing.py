"""A withdrawal taken back with a laugh after it ("Just kidding 😂", "jk lol").

Before: "I stopped taking warfarin." and then "Just kidding 😂" (or "jk lol", "开玩笑的哈哈哈")
left the medication withdrawn: the words that take a withdrawal back had to end the message,
and a laugh or a laughing face after them did not. Now any number of them may follow, read
in linear time. A laugh alone ("lol", "😂") still takes nothing back.

Sentences are this project's own.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from deerflow_memory.update.offline.retractions import WITHDRAWAL_UNDONE
from tests.test_offline_context import _said_in_turns
from tests.test_quality_kinds import facts_of_one_update


@pytest.mark.parametrize(
    ("need", "stop", "back"),
    [
        ("I take sertraline.", "I stopped taking sertraline.", "Just kidding 😂"),
        ("I'm pescatarian.", "I'm not pescatarian anymore.", "jk lol"),
        ("I'm allergic to figs.", "I'm not allergic to figs anymore.", "Kidding!! 🤣🤣"),
        ("我吃素。", "我不吃素了。", "开玩笑的哈哈哈"),
    ],
)
def test_taken_back_with_a_laugh_in_the_next_update(
    tmp_path: Path, need: str, stop: str, back: str
) -> None:
    stored = _said_in_turns(tmp_path, need)
    assert stored
    assert _said_in_turns(tmp_path / "2", need, stop) == []
    assert _said_in_turns(tmp_path / "3", need, stop, back) == stored


def test_taken_back_with_a_laugh_in_the_same_update() -> None:
    said = ("I'm pescatarian.", "I'm not pescatarian anymore.", "jk lol")
    assert facts_of_one_update(*said) == ["User is pescatarian"]


@pytest.mark.parametrize("laugh", ["lol", "😂", "haha"])
def test_a_laugh_alone_takes_nothing_back(tmp_path: Path, laugh: str) -> None:
    assert _said_in_turns(tmp_path, "I'm pescatarian.", "I'm not pescatarian anymore.", laugh) == []


def test_a_long_run_of_laughs_is_no_taking_back_when_more_follows() -> None:
    # (possessive repeats: a backtracking reading of 20,000 of them would not end)
    # ("Jk, I still am" + laughs: the laughs are read once, after "I still am", not split
    # between two places they might stand, which was quadratic without possessive repeats)
    for text in (
        "jk" + " lol," * 20_000 + " x",
        "jk" + " 😂" * 20_000 + "?",
        "jk" + " haha" * 20_000 + " x",
        "jk, I still am" + " lol" * 20_000 + " x",
    ):
        assert WITHDRAWAL_UNDONE.fullmatch(text) is None
    assert WITHDRAWAL_UNDONE.fullmatch("jk" + " lol" * 20_000) is not None
