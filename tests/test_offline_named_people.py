"""Someone named in Chinese is not the user, and "还有X" said alone adds to the need before.

Before: "王伟对虾过敏" stored "用户王伟对虾过敏" (the clause had no 我, so it was read as the
user's with the name inside it), as did "小李不吃辣" and "老张喜欢钓鱼"; and "还有开心果。" as a
message of its own after "我对花生过敏。" stored "用户有开心果" (the 还 of "还有" was dropped as
a joining word) where the English "Also walnuts." added to the allergy. Sentences are this
project's own.
"""

from __future__ import annotations

import pytest

from tests.test_quality_kinds import facts_after, said_in_one_update


@pytest.mark.parametrize(
    "said",
    [
        "王伟对虾过敏。",
        "李明对花生过敏。",
        "小李不吃辣。",
        "老张喜欢钓鱼。",
        "阿陈住在杭州。",
        "张晓红特别讨厌香菜。",
        "另外刘洋对芒果过敏。",
    ],
)
def test_a_named_person_is_not_the_user(said: str) -> None:
    assert facts_after(said) == []


def test_the_users_own_need_beside_a_named_person_is_kept() -> None:
    assert facts_after("我对花生过敏。另外王伟对虾过敏。") == ["用户对花生过敏"]


@pytest.mark.parametrize(
    ("said", "stored"),
    [
        # words of time or degree that start like a name are no name
        ("周末喜欢爬山。", "用户周末喜欢爬山"),
        ("夏天对花粉过敏。", "用户夏天对花粉过敏"),
        ("曾经对青霉素过敏。", "用户曾经对青霉素过敏"),
        ("周末不吃肉。", "用户周末不吃肉"),
        ("对虾过敏。", "用户对虾过敏"),
    ],
)
def test_a_word_that_only_starts_like_a_name_is_still_the_users(said: str, stored: str) -> None:
    assert stored in facts_after(said)


@pytest.mark.parametrize(
    ("messages", "contents"),
    [
        (("我对花生过敏。", "还有开心果。"), ["用户对花生过敏", "用户对开心果过敏"]),
        (("我不吃猪肉。", "还有牛肉。"), ["用户不吃猪肉", "用户不吃牛肉"]),
        (("I'm allergic to shellfish.", "Also walnuts."), None),
    ],
)
def test_an_addition_said_as_its_own_message_adds_to_the_need(
    messages: tuple[str, ...], contents: list[str] | None
) -> None:
    said = said_in_one_update(*messages)
    if contents is None:
        assert said == ["User is allergic to shellfish", "User is allergic to walnuts"]
    else:
        assert said == contents


def test_an_addition_after_no_need_adds_no_need() -> None:
    # nothing it could add to: the words are read alone
    assert "用户对开心果过敏" not in said_in_one_update("我住在北京。", "还有开心果。")
