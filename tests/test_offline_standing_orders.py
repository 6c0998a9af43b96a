"""A standing order said last in the sentence ("… from now on", "… with me") is kept."""

from __future__ import annotations

import pytest

from deerflow_memory.update.offline.text import candidates_from_text


def _contents(text: str) -> list[str]:
    return [c.content for c in candidates_from_text(text) if c.content]


@pytest.mark.parametrize(
    ("said", "fact"),
    [
        ("Can you keep replies under 80 words from now on?",
         "User's standing instruction: keep replies under 80 words"),
        ("Use Celsius going forward.", "User's standing instruction: use Celsius"),
        ("Could you write in plain English from now on, please?",
         "User's standing instruction: write in plain English"),
        ("Don't use exclamation marks with me.",
         "User's standing instruction: don't use exclamation marks"),
        ("Don't send voice notes when you reply to me.",
         "User's standing instruction: don't send voice notes"),
    ],
)  # fmt: skip
def test_a_standing_order_said_last_is_kept(said: str, fact: str) -> None:
    assert _contents(said) == [fact]


@pytest.mark.parametrize(
    "said",
    [
        "Use the green one for me.",  # one request, not every answer
        "Can you help me with my thesis from now on?",  # a request for help, no format
        "Can you check this for me?",
    ],
)
def test_a_one_off_request_is_no_standing_order(said: str) -> None:
    assert not any("standing instruction" in c for c in _contents(said))


@pytest.mark.parametrize(
    "said",
    [
        "Will you give me a discount in future?",  # favours and errands, not how to answer
        "Keep an eye on the kids from now on.",
        "Can you add my wife to the booking from now on?",
        "Answer the door from now on.",
    ],
)
def test_a_favour_or_an_errand_said_for_the_future_is_no_standing_order(said: str) -> None:
    assert not any("standing instruction" in c for c in _contents(said))


def test_a_standing_order_speaks_of_the_user_in_the_third_person() -> None:
    assert _contents("Can you keep my replies short from now on?") == [
        "User's standing instruction: keep their replies short"
    ]


@pytest.mark.parametrize(
    ("said", "fact"),
    [
        # how answers should sound, said by an adverb
        ("Could you please reply concisely from now on?",
         "User's standing instruction: reply concisely"),
        ("Please write formally going forward.", "User's standing instruction: write formally"),
        # the time frame before a comma, the order after it
        ("Moving forward, please give prices in euros.",
         "User's standing instruction: moving forward, please give prices in euros"),
        ("从现在起，回答里不要用表情。", "用户的长期要求：从现在起，回答里不要用表情"),
        # "I'd like you to …"
        ("I'd like you to reply in German from now on.",
         "User's standing instruction: reply in German"),
        ("I'd like you to always include sources.",
         "User's standing instruction: always include sources"),
    ],
)  # fmt: skip
def test_more_ways_of_saying_a_standing_order(said: str, fact: str) -> None:
    assert _contents(said) == [fact]


@pytest.mark.parametrize(
    "said",
    [
        "From now on, I will walk to work.",  # the user's own plan, not an order
        "Going forward, my brother pays the rent.",
        "I'd like you to fetch my parcel from now on.",  # an errand
        "从现在起，学校要求穿校服。",  # news, not an order to the assistant (attacker 69)
        "以后，油价会涨。",
    ],
)
def test_a_time_frame_before_a_statement_is_no_standing_order(said: str) -> None:
    assert not any("standing instruction" in c or "长期要求" in c for c in _contents(said))
