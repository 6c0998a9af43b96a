"""Messages that mix English and Chinese are read in the language of their sentence (surveyor 1)."""

from __future__ import annotations

import pytest

from tests.test_offline_extractor import _extract


@pytest.mark.parametrize(
    ("said", "stored"),
    [
        # an English sentence with a Chinese word in it
        ("I'm allergic to 芒果, please remember.", ["User is allergic to 芒果"]),
        (
            "I don't eat 羊肉 for religious reasons.",
            ["User does not eat 羊肉 for religious reasons"],
        ),
        ("my name is 李娜, I'm from Chengdu", ["User's name is 李娜", "User is from Chengdu"]),
        # a Chinese sentence with an English word in it: a space there is a word space
        ("我对 lactose 过敏，有什么 milk 推荐？", ["用户对 lactose 过敏"]),
        ("我住在 Munich 我是护士", ["用户住在 Munich", "用户是护士"]),
        ("我喜欢猫 我住在苏州", ["用户喜欢猫", "用户住在苏州"]),
    ],
)
def test_a_mixed_message_is_read_in_its_sentences_language(said: str, stored: list[str]) -> None:
    assert [f.content for f in _extract(said).new_facts] == stored


@pytest.mark.parametrize(
    "said",
    [
        "Python 里 len([1, 2]) 会返回 2。",
        "12公里大约等于7英里。",
        "代码里用 i = 0 作为起点。",
        "我的 deadline 是周三，帮我排一下 plan",  # a date of the week, not the user
    ],
)
def test_a_chinese_clause_about_a_thing_or_a_number_is_not_the_users(said: str) -> None:
    assert _extract(said).new_facts == ()


def test_a_year_before_a_chinese_clause_keeps_it_the_users() -> None:
    assert [f.content for f in _extract("2016年被诊断出克罗恩病").new_facts] == [
        "用户2016年被诊断出克罗恩病"
    ]


@pytest.mark.parametrize(
    ("said", "stored"),
    [
        ("I'm 28岁 and just started 游泳.", []),  # half English, half Chinese: garbled, kept out
        ("我在 New York 工作", ["用户在 New York 工作"]),  # a rule still reads it
    ],
)
def test_a_half_english_chinese_clause_only_by_a_rule(said: str, stored: list[str]) -> None:
    assert [f.content for f in _extract(said).new_facts] == stored


@pytest.mark.parametrize(
    ("said", "stored"),
    [
        # "I'm a <Chinese noun>": the noun is what the user is (it stored nothing)
        ("I'm a 素食者 but I eat eggs", ["用户是素食者", "User eats eggs"]),
        ("I am an 工程师", ["用户是工程师"]),
        # an English clause of the user's after a Chinese part: each in its language
        ("我住在厦门, and I teach piano", ["用户住在厦门", "User teaches piano"]),
        ("I'm allergic to 芝麻, I carry antihistamines", [
            "User is allergic to 芝麻", "User carries antihistamines",
        ]),
        # a Chinese clause of the user's after an English one ("User is a 老师 and 我住在北京")
        ("I'm a 护士 and 我住在青岛", ["用户是护士", "用户住在青岛"]),
        ("I'm a dentist, 我养了两只猫", ["User is a dentist", "用户养了两只猫"]),
        ("I love 我的家乡", ["User loves 我的家乡"]),  # an object, no clause
        # a Chinese title inside an English sentence: a favourite, no clause of the user's
        ("I'm a translator, and 我住在杭州 is my favourite book", [
            "User is a translator", "User's favourite book is 我住在杭州",
        ]),
    ],
)  # fmt: skip
def test_a_chinese_noun_then_an_english_clause_are_each_read(said: str, stored: list[str]) -> None:
    assert [f.content for f in _extract(said).new_facts] == stored


@pytest.mark.parametrize(
    ("said", "stored"),
    [
        # attacker 58: an English sentence with Chinese words stays English
        ("I live in 杭州 but I work in 上海", ["User lives in 杭州", "User works in 上海"]),
        # (stored whole since a short "I'm a …" reaches the own-words fallback, uncut)
        ("I'm a 厨师, not a 服务员", ["User is a 厨师, not 服务员"]),
    ],
)
def test_an_english_sentence_with_chinese_words_is_not_cut(said: str, stored: list[str]) -> None:
    assert [f.content for f in _extract(said).new_facts] == stored
