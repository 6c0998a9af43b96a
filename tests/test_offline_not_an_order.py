"""Someone's habit is not an order to the assistant.

"My grandpa, always wears a hat" and "我外婆，总是说闽南话" were stored as the
user's standing instructions ("User's standing instruction: always wears a
hat"), put in front of the model on every turn.
"""

from __future__ import annotations

import pytest

from deerflow_memory.update.offline.text import candidates_from_text


def _contents(text: str) -> list[str]:
    return [c.content for c in candidates_from_text(text) if c.content]


def _a_standing_order(said: str) -> bool:
    """Whether ``said`` is stored as a standing instruction (English or Chinese)."""
    return any("instruction" in c or "长期要求" in c for c in _contents(said))


@pytest.mark.parametrize(
    "said",
    [
        "My grandpa, always wears a hat",
        "My boss never answers emails",
        "always forgets her keys",
        "我外婆，总是说闽南话",
        "我室友，从来不关灯",
    ],
)
def test_a_habit_said_of_someone_is_no_standing_instruction(said: str) -> None:
    assert not _a_standing_order(said)


@pytest.mark.parametrize(
    ("said", "order"),
    [
        ("Always show the units", "User's standing instruction: always show the units"),
        ("Never skip the edge cases", "User's standing instruction: never skip the edge cases"),
        (
            "Always discuss the trade-offs",
            "User's standing instruction: always discuss the trade-offs",
        ),
        ("我外婆不识字，以后回答用简单的词", "用户的长期要求：以后回答用简单的词"),
        ("我外婆，总是说闽南话，请用英文回答我", "用户的长期要求：请用英文回答我"),
        ("总是用繁体字回答", "用户的长期要求：总是用繁体字回答"),
    ],
)
def test_an_order_to_the_assistant_is_still_one(said: str, order: str) -> None:
    assert order in _contents(said)


# A forecast after "from now on" is about the world, not how to answer: "Going forward,
# fares will go up" was stored as the user's standing instruction.
@pytest.mark.parametrize(
    "said",
    [
        "Going forward, fares will go up",
        "From now on the trains are going to run less often",
        "Moving forward, the rent will probably climb",
        "In the future, most jobs might disappear",
        "From now on, things will get worse.",
        "Going forward, the market is likely to shrink",
        "Going forward, it'll be colder in the mornings",
        "以后房租会越来越贵",
        "从现在开始天气可能会转凉",
        "今后油价估计还要涨",
        "往后公司恐怕得裁员",
        "以后菜价会越来越贵",
    ],
)
def test_a_forecast_after_from_now_on_is_no_fact(said: str) -> None:
    assert _contents(said) == []


@pytest.mark.parametrize(
    ("said", "order"),
    [
        (
            "Going forward, answers should include a source",
            "User's standing instruction: going forward, answers should include a source",
        ),
        (
            "Going forward, replies should stay under 100 words",
            "User's standing instruction: going forward, replies should stay under 100 words",
        ),
        (
            "From now on, all temperatures should be in Celsius",
            "User's standing instruction: from now on, all temperatures should be in Celsius",
        ),
        ("以后回答要简短一点", "用户的长期要求：以后回答要简短一点"),
        ("以后每次开会都给我写纪要", "用户的长期要求：以后每次开会都给我写纪要"),
        ("以后尽可能用表格回答", "用户的长期要求：以后尽可能用表格回答"),
        ("从现在开始你会用英文回答我", "用户的长期要求：从现在开始你会用英文回答我"),
    ],
)
def test_an_order_after_from_now_on_is_still_one(said: str, order: str) -> None:
    assert order in _contents(said)


# Attacker 75: a modal anywhere in the first words, or "会" inside another word, made an order
# a forecast.
@pytest.mark.parametrize(
    "said",
    [
        "Going forward, ping me whenever a deploy could fail.",
        "From now on, each answer will end with a short recap.",
        "Next time, estimate how long the build will take.",
        "Going forward, all of our invoices will need a VAT line, so add one.",
        "以后开完周会都帮我整理要点",
        "以后把我不会念的字标上拼音",
        "以后给我估计一下每步要多久",
        "以后例会的纪要发我一份",
        "以后每次会后都提醒我写总结",
    ],
)
def test_an_order_with_a_modal_or_a_meeting_in_it_is_still_one(said: str) -> None:
    assert _a_standing_order(said)


# Attacker 76: an order said with "will"/"would" about what the answers hold was a forecast;
# a forecast needs a change that comes by itself, and (attacker 78: "the recipes will be less
# spicy", "the font should change to Arial") a subject of the world's own.
@pytest.mark.parametrize(
    "said",
    [
        "From now on, the dinners will need to be dairy-free.",
        "Going forward, distances will be in miles.",
        "From now on, snacks won't include sesame.",
        "Next time, a table would help.",
        "From now on, shorter ones would be better.",
        "以后报价都会用美元显示",
        "以后菜谱会避开花生",
    ],
)
def test_an_order_said_with_will_or_would_is_still_one(said: str) -> None:
    assert _a_standing_order(said)


@pytest.mark.parametrize(
    "said",
    [
        "Going forward, bus fares could rise.",
        "Next time, the flights will be late.",
        "接下来要下雪了",
        "以后电费还得涨",
    ],
)
def test_a_forecast_of_a_change_is_no_order(said: str) -> None:
    assert _contents(said) == []


# Attacker 78: "should be <comparative>" and "要<comparative>" are how an order is said.
@pytest.mark.parametrize(
    "said",
    [
        "From now on, the soups should be less salty.",
        "以后推荐的民宿要安静一点",
        "From now on, the portions will be smaller.",
        "Going forward, the font should change to Georgia.",
        "以后周报会越来越短",
    ],
)
def test_an_order_for_something_to_be_otherwise_is_still_one(said: str) -> None:
    assert _a_standing_order(said)


# Attacker 80: "everything", "should" and an opening "估计"/"肯定" are how orders are said.
@pytest.mark.parametrize(
    "said",
    [
        "From now on, everything will be shorter and simpler.",
        "Going forward, things should change: use bullet points.",
        "以后肯定要用中文回答",
        "以后估计工作量时多留点余量",
    ],
)
def test_an_order_said_as_if_of_the_world_is_still_one(said: str) -> None:
    assert _a_standing_order(said)


# Attacker 81: "be more/less …", "lower", "closed" after a subject of the world are orders too.
@pytest.mark.parametrize(
    "said",
    [
        "From now on, things will be less formal between us.",
        "Going forward, all invoices will be closed after thirty days.",
        "From now on, cost will be lower priority than speed.",
    ],
)
def test_an_order_about_a_subject_of_the_world_is_still_one(said: str) -> None:
    assert any("instruction" in c for c in _contents(said))


# Attacker 83: a change word with somewhere to go after it, a "when" and an opening "迟早".
@pytest.mark.parametrize(
    "said",
    [
        "From now on, the invoices will go up to my manager for sign-off.",
        "Going forward, prices will drop out of my weekly digest.",
        "以后机票会贵的时候提前两周提醒我",
        "以后迟早要出差，用英文回答吧",
    ],
)
def test_an_order_with_a_change_word_in_it_is_still_one(said: str) -> None:
    assert _a_standing_order(said)


# Attacker 84: an order after a forecast's words, and a hedged Chinese order without a subject.
@pytest.mark.parametrize(
    "said",
    [
        "From now on, the ferry will run late so book me the earlier one.",
        "Going forward, fares will rise: always show me the cheapest seat.",
        "以后可能要控制血脂，推荐清淡的菜",
    ],
)
def test_an_order_after_words_of_the_future_is_still_one(said: str) -> None:
    assert _a_standing_order(said)


# Attacker 85: a placement after the change ("later in the thread", "next to each item"), an
# order after it in the same clause, and a Chinese order after a forecast.
@pytest.mark.parametrize(
    "said",
    [
        "From now on, tickets will go up later in the channel.",
        "Going forward, prices will go up next to each photo.",
        "From now on, the tram will run late again so leave me ten extra minutes.",
        "以后会降温，推荐衣服时考虑一下",
    ],
)
def test_an_order_said_with_a_forecasts_words_is_still_one(said: str) -> None:
    assert _a_standing_order(said)


@pytest.mark.parametrize(
    "said", ["From now on, rent will go up by 5% next year.", "以后电费会越来越贵。"]
)
def test_a_forecast_with_how_much_and_when_is_no_order(said: str) -> None:
    assert _contents(said) == []
