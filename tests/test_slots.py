"""The same-slot rule alone: typed values compared between the reply and a short user turn."""

from __future__ import annotations

import pytest

from deerflow_memory.capture.slots import MAX_REPLY_CHARS, slot_correction


@pytest.mark.parametrize(
    ("reply", "text"),
    [
        ("Your train is at 9:40.", "9:14, actually"),
        ("The meeting is at 19:00.", "8pm"),  # 19:00 is 7 pm: the hour differs
        ("Alarm set for 7 AM.", "PM"),
        ("Booked for the 3rd.", "the 4th"),
        ("I set the table for five.", "seven people, I told you"),
        ("Hi Jon!", "It's John, with an h"),
        ("I've sent the invite to Kathryn.", "Katherine"),
        ("会议定在周二。", "周三"),
        ("订了两间房。", "三间，我刚才说了"),
        ("李医生下午有空。", "是黎医生"),
        ("闹钟定在早上七点。", "晚上七点"),
        ("已经订了15号的票。", "16号"),
        ("Here's the code in Java.", "Python, I said"),  # a kind of word value
        ("The route is 30 miles.", "kilometers"),
        ("Here is the CSV export.", "PDF"),
        ("我选了红色的沙发。", "蓝色"),
        ("这是法语的翻译。", "英文"),
        ("I've ordered the medium size.", "large"),
        ("给你点了中杯。", "大杯"),
        ("订了下周一的会议室。", "下周二"),
        ("下周一见。", "这周一"),  # the same weekday of another week
    ],
)
def test_another_value_for_a_stated_slot_is_a_correction(reply: str, text: str) -> None:
    assert slot_correction(text, reply)


@pytest.mark.parametrize(
    ("reply", "text"),
    [
        ("Your train is at 9:40.", "9:40"),  # the same value
        ("Your train is at 9:40.", "7"),  # another kind: a count is no time
        ("I set the table for 5.", "maybe 7"),  # a hedge
        ("Want a table at 7:30?", "8:00"),  # asked, not stated
        ("Tables at 6, 7 and 8 are free.", "9"),  # options, not one stated value
        ("There are five rooms left.", "seven people"),  # rooms and people
        ("I put you on floor 3.", "question 2"),
        ("Hi Jon!", "Thanks, Bob"),
        ("会议定在周二。", "周三也行吗"),
        ("便宜了三块钱。", "再便宜一点"),  # 一点 is "a bit", no time
        ("订了两间房。", "我们一共三个人，两个大人一个孩子"),  # too long to be a bare value
        ("", "周三"),  # no reply
        ("I picked the red sofa.", "red"),
        ("Here's the code in Java.", "Thanks, Python next"),
        ("Which language do you want, Java?", "Python"),  # asked, not stated
    ],
)
def test_same_values_other_kinds_options_and_additions_are_not(reply: str, text: str) -> None:
    assert not slot_correction(text, reply)


def test_a_user_turn_longer_than_the_limit_is_never_read() -> None:
    # Filler the value comparison would otherwise read past: only the length stops it.
    text = "9:14, " + "actually " * 9
    assert len(text) > MAX_REPLY_CHARS
    assert slot_correction("9:14, actually", "Your train is at 9:40.")
    assert not slot_correction(text, "Your train is at 9:40.")


def test_a_value_far_into_a_long_reply_is_not_read() -> None:
    reply = "Here is everything about your trip. " * 40 + "Your train is at 9:40."
    assert not slot_correction("9:14", reply)
    assert slot_correction("9:14", "Your train is at 9:40. " + "More details follow. " * 40)
