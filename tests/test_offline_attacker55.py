"""Attacker 55's findings on the short-correction path, each pinned."""

from __future__ import annotations

import pytest

from tests.test_offline_attacker51 import _run


@pytest.mark.parametrize("times", [2, 3])
def test_a_clarification_said_again_is_not_rewritten_by_itself(times: int) -> None:
    said = ["Not almonds, it's pecans"] * times
    assert _run(*said) == (["User clarified: pecans, not almonds"], [])
    assert _run(" ".join(s + "." for s in said), stored=("User is allergic to almonds",)) == (
        ["User clarified: pecans, not almonds"],
        [],
    )


def test_a_place_said_wrong_twice_is_still_corrected() -> None:
    facts, removed = _run(
        "Not Derby, it's Hull", "Not Derby, it's Hull", stored=("User lives in Derby",)
    )
    assert facts[0] == "User lives in Hull" and removed == ["f0"]
    assert not any("not Hull" in f or "Hull, not Hull" in f for f in facts)
