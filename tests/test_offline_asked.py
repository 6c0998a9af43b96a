"""A question that takes the user's trip or move as known says it ("What should I pack for my
trip to Norway next month?" → "User is planning a trip to Norway next month"); a bare count
that stands for a thing named before ("…for cats? I have two.") is no fact.

Before: the question stored nothing, and "I have two." stored "User has two".

Sentences are this project's own.
"""

from __future__ import annotations

import pytest

from deerflow_memory.update.offline.text import candidates_from_text


def _contents(text: str) -> list[str]:
    return [c.content for c in candidates_from_text(text) if c.content]


@pytest.mark.parametrize(
    ("said", "fact"),
    [
        (
            "Which coat should I pack for my trip to Iceland in March?",
            "User is planning a trip to Iceland in March",
        ),
        ("Any snorkelling spots for my honeymoon to Fiji?", "User is planning a honeymoon to Fiji"),
        (
            "Is a van cheaper for my move to Glasgow next month?",
            "User is moving to Glasgow next month",
        ),
        (
            "I'm gluten-free. Where can I eat on my week-long trip to Buenos Aires?",
            "User is planning a trip to Buenos Aires",
        ),
    ],
)
def test_a_trip_or_move_a_question_takes_as_known_is_stored(said: str, fact: str) -> None:
    assert fact in _contents(said)


@pytest.mark.parametrize(
    "said",
    [
        "How was the weather on my trip to Iceland last March?",  # gone by
        "Do you think my trip to Fiji was worth it?",
        "What should I buy for my trip to the shops?",  # no named place
        "Can you help with my move to the new database?",
    ],
)
def test_a_trip_gone_by_or_to_no_named_place_is_not(said: str) -> None:
    assert _contents(said) == []


@pytest.mark.parametrize("said", ["Which toys suit rabbits? I have three.", "I have two."])
def test_a_bare_count_is_no_fact(said: str) -> None:
    assert _contents(said) == []


def test_a_count_of_a_thing_is_still_a_fact() -> None:
    assert _contents("I have three rabbits.") == ["User has three rabbits"]


@pytest.mark.parametrize(
    ("said", "fact"),
    [
        ("我去成都旅游吃什么好？", "用户去成都旅游"),
        ("我暑假去英国留学要准备什么？", "用户暑假去英国留学"),
        ("我下个月要领证了，要带什么材料？", "用户下个月要领证了"),
        ("我年底准备搬家。", "用户年底准备搬家"),
    ],
)
def test_a_chinese_trip_asked_about_or_a_step_of_life_to_come_is_stored(
    said: str, fact: str
) -> None:
    assert fact in _contents(said)


@pytest.mark.parametrize(
    "said", ["我去超市买什么好？", "我去公园玩要带什么？", "我下个月要不要搬家？"]
)
def test_a_chinese_errand_or_a_doubt_is_not(said: str) -> None:
    assert _contents(said) == []
