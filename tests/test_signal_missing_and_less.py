"""What the answer left out, and a quantity of the answer put down, correct it.

Before: "The query is missing the join.", "You're missing a step." after an answer that gave
them, and "没那么久吧" / "哪有那么远，一个小时就到了" after a reply that stated how long or far,
were no correction. Near misses (the user's own thing missing, "you're missing out", a
question, the user's own "没那么多时间", an answer to a question) stay none. Sentences are this
project's own.
"""

from __future__ import annotations

import pytest

from tests.test_signal_kinds import verdict


@pytest.mark.parametrize(
    ("assistant", "user"),
    [
        ("Here is the SQL: SELECT name FROM orders;", "The query is missing the join."),
        ("Here are the steps to reset it.", "You're missing a step."),
        ("Here's your itinerary for the week.", "The itinerary is missing day three."),
        ("Here is the function.", "It's still missing the return statement."),
        ("北京到上海的高铁大概需要8小时。", "没那么久吧"),
        ("这段路开车要三个小时。", "哪有那么远，一个小时就到了"),
        ("这件外套大概要两千块。", "没那么贵，才几百块。"),
        ("你需要准备十份材料。", "嗯，没有那么多吧。"),
    ],
)
def test_what_is_left_out_or_a_quantity_put_down_corrects(assistant: str, user: str) -> None:
    assert verdict(assistant, user) == "correction"


@pytest.mark.parametrize(
    ("assistant", "user"),
    [
        ("Here's the plan.", "You're missing out if you skip Kyoto."),
        ("Here's the plan.", "I'm missing my keys, can we start later?"),
        ("Here is the code.", "Is it missing a semicolon?"),
        ("The Louvre is huge.", "My cat is missing."),
        ("你最近忙吗？", "没那么忙。"),
        ("我帮你查了三家酒店。", "我没那么多时间看。"),
        ("路程大概两个小时。", "没那么远吗？"),
    ],
)
def test_their_near_misses_are_no_correction(assistant: str, user: str) -> None:
    assert verdict(assistant, user) != "correction"
