"""A correction of a detail of the task at hand is no memory.

"It's $40, not $50" or "Tuesday, not Monday" that names no stored fact was stored as a
lasting correction (shown first on every turn), and "其实是周二不是周一" as "用户是周二不是
周一", the user being a Tuesday (attacker 68). A correction that names something stored, or
a thing rather than an amount or a time, is kept as before.
"""

from __future__ import annotations

import pytest

from tests.test_quality_kinds import facts_after


@pytest.mark.parametrize(
    "said",
    [
        "No, it's €25, not €35",
        "actually it's wednesday not thursday",
        "I said 9am, not 10am",
        "I meant the green one, not the grey one",
        "其实是周五不是周四",
        "是下午，不是上午",
    ],
)
def test_a_passing_detail_put_right_is_not_stored(said: str) -> None:
    assert facts_after(said) == []


@pytest.mark.parametrize(
    ("first", "later", "now"),
    [
        ("我叫王芳。", "其实是王方不是王芳", ["用户叫王方"]),
        ("I'm allergic to plums.", "I said apricots, not plums", None),
        ("", "I said Rust, not Go", ["User clarified: Rust, not Go"]),
    ],
)
def test_a_correction_of_something_else_is_kept(
    first: str, later: str, now: list[str] | None
) -> None:
    facts = facts_after(*[t for t in (first, later) if t])
    if now is None:  # a need stays, with what was meant beside it
        assert "User is allergic to plums" in facts and len(facts) == 2
    else:
        assert facts == now
