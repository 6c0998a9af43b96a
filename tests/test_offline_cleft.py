"""Who it is, said of the user: "it's me who…", "I'm the one…", "是我…", "…的是我".

Such a sentence tells the need of the user, often beside someone else's name
("My daughter is fine, it's me who reacts to kiwi"). It was read as a
correction of nothing ("User clarified: me who's vegan, not my wife") or not
at all, so an allergy went unstored; said of a relative ("喜欢猫的是我女儿"),
it was stored as the user's own taste.
"""

from __future__ import annotations

import pytest

from deerflow_memory.update.offline.text import candidates_from_text
from tests.test_offline_attacker51 import _run


def _contents(text: str) -> list[str]:
    return [c.content for c in candidates_from_text(text) if c.content]


@pytest.mark.parametrize(
    ("said", "fact"),
    [
        ("My daughter is fine, it's me who is allergic to kiwi", "User is allergic to kiwi"),
        ("It's me who's allergic to sesame, not my husband", "User is allergic to sesame"),
        ("Not my flatmate - I'm the one allergic to cats", "User is allergic to cats"),
        ("It is actually me that's coeliac", "User is coeliac"),
        ("It's me who can't eat dairy", "User cannot eat dairy"),
        ("I'm the one who is vegetarian in this house", "User is vegetarian in this house"),
        ("It's me who lives in Bristol, not my brother", "User lives in Bristol"),
        ("I'm the one who always walks the dog", "User always walks the dog"),
        # who it is not, said in the middle: the allergy was lost
        ("It's me, not my son, who is allergic to hazelnuts", "User is allergic to hazelnuts"),
        ("It's me, not him, that can't eat gluten", "User cannot eat gluten"),
    ],
)
def test_an_english_cleft_is_the_users_plain_statement(said: str, fact: str) -> None:
    assert _contents(said) == [fact]


@pytest.mark.parametrize(
    ("said", "fact"),
    [
        ("I'm allergic to horses (not my sister)", "User is allergic to horses"),
        ("I'm pescatarian (my partner isn't)", "User is pescatarian"),
        ("I work at a bakery (not my dad).", "User works at a bakery"),
        # an aside about the user's own need stays, and one of a thing, not a person
        ("I'm vegan (no honey either)", "User is vegan (no honey either)"),
        ("I'm allergic to nuts (not the peanuts)", "User is allergic to nuts (not the peanuts)"),
        ("I'm a doctor (not the medical kind)", "User is a doctor (not the medical kind)"),
    ],
)
def test_an_aside_on_whom_it_is_not_true_of_is_dropped(said: str, fact: str) -> None:
    assert _contents(said) == [fact]


@pytest.mark.parametrize(
    ("said", "fact"),
    [
        ("我女儿没事，是我对芝麻过敏", "用户对芝麻过敏"),
        ("不是我老公，是我对猫毛过敏", "用户对猫毛过敏"),
        ("是我对芒果过敏，不是我女儿", "用户对芒果过敏"),
        ("其实是我不能吃辣", "用户不能吃辣"),
        ("对青霉素过敏的是我", "用户对青霉素过敏"),
        ("不吃牛肉的其实是我，不是我妈", "用户不吃牛肉"),
    ],
)
def test_a_chinese_cleft_is_the_users_plain_statement(said: str, fact: str) -> None:
    assert _contents(said) == [fact]


@pytest.mark.parametrize(
    "said",
    [
        "喜欢狗的是我儿子",
        "会开车的是我老婆",
        "是我妹妹对花生过敏",
        "It's me who should call them back",
        "It's me again",
        "Is it me or is the page slow?",
        "是我的错",
        "是我忘了带钥匙",
    ],
)
def test_a_cleft_of_someone_else_or_of_the_moment_stores_nothing(said: str) -> None:
    assert _contents(said) == []


def test_a_stored_need_is_neither_rewritten_nor_duplicated_by_its_cleft() -> None:
    stored = ("User is allergic to kiwi",)
    assert _run("Not my son, it's me who is allergic to kiwi", stored=stored) == ([], [])
    assert _run("不是我儿子，是我对猕猴桃过敏", stored=("用户对猕猴桃过敏",)) == ([], [])
    assert _run("Actually it's me who's vegan, not my partner") == (["User is vegan"], [])


@pytest.mark.parametrize(
    ("said", "fact"),
    [
        # attacker 56: adverbs, modals of a need, and the other person said at length
        ("It's me who no longer drinks milk", "User no longer drinks milk"),
        ("It's me who hardly sleeps", "User hardly sleeps"),
        ("It's me who must avoid salt", "User must avoid salt"),
        ("It's me who is allergic to latex - not my partner", "User is allergic to latex"),
        ("It's me who is allergic to latex, not the twins", "User is allergic to latex"),
        ("是我对芒果过敏，不是我女儿的朋友", "用户对芒果过敏"),
    ],
)
def test_a_cleft_read_in_full(said: str, fact: str) -> None:
    assert _contents(said) == [fact]


@pytest.mark.parametrize(
    "said",
    [
        "It's me who the nurse weighed first",  # a clause with its own subject
        "It's me that my boss blames",
        "是我挑的电影",  # moments, places and hearsay: no lasting fact
        "最后一个下车的是我",
        "坐在窗边的是我",
        "是我应该早点说",
        "大家都说爱吃辣的是我",
        "是我对芒果过敏吧",
    ],
)
def test_a_cleft_of_a_moment_or_of_hearsay_stores_nothing(said: str) -> None:
    assert _contents(said) == []
