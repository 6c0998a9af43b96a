"""What attacker 270 found in the fixes of attacker 269's findings, pinned by kind. Sentences
are this project's own, in the shapes found.
"""

from __future__ import annotations

import pytest

from tests.test_quality_kinds import facts_after, said_in_one_update


@pytest.mark.parametrize(
    ("turns", "stored"),
    [
        # an acknowledgement, or a question of more needs, opens no turn of its own: what
        # follows still adds to the need before it (or says "me too" of it)
        (
            ("I'm allergic to sesame.", "AI: Got it. Any other allergies?", "Also walnuts."),
            ["User is allergic to sesame", "User is allergic to walnuts"],
        ),
        (
            ("I'm allergic to sesame.", "AI: Noted, I'll remember that.", "Also walnuts."),
            ["User is allergic to sesame", "User is allergic to walnuts"],
        ),
        (
            ("I'm allergic to sesame.", "AI: I'm sorry to hear that.", "Cashews too."),
            ["User is allergic to sesame", "User is allergic to cashews"],
        ),
        (
            ("I'm allergic to sesame.", "AI: Got it.", "AI: Anything else?", "Also walnuts."),
            ["User is allergic to sesame", "User is allergic to walnuts"],
        ),
        (
            ("我对芝麻过敏。", "AI: 好的，我会记住的。", "还有开心果。"),
            ["用户对芝麻过敏", "用户对开心果过敏"],
        ),
        (
            ("我不吃香菜。", "AI: 好的，我会避开香菜。你还有别的忌口吗？", "还有葱。"),
            ["用户不吃香菜", "用户不吃葱"],
        ),
        (
            ("My uncle is allergic to eggs.", "AI: Noted, I'll keep that in mind.", "Me too."),
            ["User is allergic to eggs"],
        ),
        (("我舅舅对鸡蛋过敏。", "AI: 好的，我会注意的。", "我也是。"), ["用户对鸡蛋过敏"]),
    ],
)
def test_an_acknowledgement_lets_the_next_message_add_to_the_need(
    turns: tuple[str, ...], stored: list[str]
) -> None:
    assert said_in_one_update(*turns) == stored


@pytest.mark.parametrize(
    ("said", "stored"),
    [
        # a need of a kind of things stays whatever food is meant after it: no table tells
        # every thing of a kind (attacker 271: "crawfish", "三文鱼", "猪肉" of "肉类"), and a
        # wrong need kept is the safer error than a need lost; eggs, a drug, latex or pollen
        # are of no such kind (attacker 272): put right
        ("I'm allergic to nuts, I mean eggs.", ["eggs"]),
        ("I'm allergic to seafood, I mean penicillin.", ["penicillin"]),
        ("我对海鲜过敏，我是说鸡蛋。", ["鸡蛋"]),
        ("I'm allergic to shellfish, I mean crawfish.", ["shellfish", "crawfish"]),
        ("我对海鲜过敏，我是说三文鱼。", ["海鲜", "三文鱼"]),
        ("我对肉类过敏，我是说猪肉。", ["肉类", "猪肉"]),
        ("I'm allergic to dairy, I mean milk.", ["dairy", "milk"]),
        # a thing that names no kind is put right
        ("I'm allergic to walnuts, I mean pecans.", ["pecans"]),
        ("我对核桃过敏，我是说碧根果。", ["碧根果"]),
    ],
)
def test_a_kind_stays_whatever_is_meant_after_it(said: str, stored: list[str]) -> None:
    facts = facts_after(said)
    assert len(facts) == len(stored)
    assert all(thing in fact for thing, fact in zip(stored, facts, strict=True))


@pytest.mark.parametrize(
    "said",
    [
        # a food said first, before how much, how cooked or a particle: the user's
        "杨梅不能吃太多，会过敏。",
        "龙虾不能吃太多，会过敏。",
        "老姜不能吃，会过敏。",
        "白米饭不能吃太多，我有糖尿病。",
        "白酒不能喝一滴。",
        "黄瓜不吃生的。",
        "黄瓜不吃滴。",
        "黄鱼很喜欢吃。",
        # an illness said first
        "白血病不能吃生冷的。",
        "毛囊炎不能吃辣的。",
    ],
)
def test_a_food_or_illness_before_an_amount_is_the_users(said: str) -> None:
    facts = facts_after(said)
    assert facts and facts[0].startswith("用户") and len(facts[0]) > 4


@pytest.mark.parametrize(
    ("said", "stored"),
    [
        ("王冬梅对虾过敏，我也是。", ["用户对虾过敏"]),
        ("张晓明对花生过敏。我也是。", ["用户对花生过敏"]),
    ],
)
def test_me_too_after_a_three_character_name(said: str, stored: list[str]) -> None:
    assert facts_after(said) == stored


@pytest.mark.parametrize(
    ("said", "stored"),
    [
        ("My friend won't drink alcohol at the party. Neither will I.", []),
        ("Mark won't eat until 7pm. Me neither.", []),
    ],
)
def test_what_someone_will_not_do_is_no_need_of_the_users(said: str, stored: list[str]) -> None:
    assert facts_after(said) == stored


# --- attacker 271 ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "turns",
    [
        # a question of what or who: what follows answers it
        ("I'm allergic to sesame.", "AI: What did you have for lunch?", "Chicken too."),
        ("I'm lactose intolerant.", "AI: What do you drink in the morning?", "Coffee too."),
        ("我不吃羊肉。", "AI: 你平时吃什么肉？", "还有鸡肉。"),
        ("My husband can't eat gluten.", "AI: Noted. Who else will be at the dinner?", "Me too."),
    ],
)
def test_an_answer_to_a_question_of_what_or_who_adds_no_need(turns: tuple[str, ...]) -> None:
    assert said_in_one_update(*turns) == said_in_one_update(turns[0])


@pytest.mark.parametrize(
    ("turns", "stored"),
    [
        # an acknowledgement naming someone, or a yes-no question, opens no turn
        (
            ("My aunt is allergic to eggs.", "AI: Noted, your aunt's allergy is saved.", "Me too."),
            ["User is allergic to eggs"],
        ),
        (
            ("I'm allergic to sesame.", "AI: Do you carry an EpiPen?", "Also walnuts."),
            ["User is allergic to sesame", "User is allergic to walnuts"],
        ),
    ],
)
def test_an_acknowledgement_or_yes_no_question_opens_no_turn(
    turns: tuple[str, ...], stored: list[str]
) -> None:
    assert said_in_one_update(*turns) == stored


@pytest.mark.parametrize(
    ("said", "stored"),
    [
        # a name before a verb that takes a thing, however it starts: someone else
        ("韩梅梅不能吃生鱼片，我也是。", ["用户不能吃生鱼片"]),
        ("韩梅梅不喝冷饮。", []),
        ("老王不吃生葱。", []),
        ("陈思炎不能吃海鲜，我也是。", ["用户不能吃海鲜"]),
        ("张宏炎对青霉素过敏。", []),
        ("李雷很喜欢吃苹果，我对苹果过敏。", ["用户对苹果过敏"]),
    ],
)
def test_a_name_before_a_thing_of_any_start_is_someone_else(said: str, stored: list[str]) -> None:
    assert facts_after(said) == stored


@pytest.mark.timeout(60)
def test_a_long_reply_without_a_sentence_end_is_read_in_linear_time() -> None:
    turns = ("I'm allergic to sesame.", "AI: " + "he said so, " * 40_000, "Also walnuts.")
    assert "User is allergic to walnuts" in said_in_one_update(*turns)
    turns = ("我对芝麻过敏。", "AI: " + "喜欢，" * 80_000, "还有核桃。")
    assert said_in_one_update(*turns) == ["用户对芝麻过敏", "用户对核桃过敏"]


# --- attacker 272 ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("turns", "stored"),
    [
        # a question of anything but someone else or what the user eats or likes: what follows
        # still adds to the need
        (
            ("I'm allergic to sesame.", "AI: Got it. How else can I help you today?", "Kiwi too."),
            ["User is allergic to sesame", "User is allergic to kiwi"],
        ),
        (
            ("I'm allergic to sesame.", "AI: Noted. Which nuts exactly?", "Cashews too."),
            ["User is allergic to sesame", "User is allergic to cashews"],
        ),
        (
            ("我对芝麻过敏。", "AI: 好的。是什么时候发现的？", "还有虾。"),
            ["用户对芝麻过敏", "用户对虾过敏"],
        ),
        (
            ("我对芝麻过敏。", "AI: 好的。还有哪些食物需要避开？", "还有虾。"),
            ["用户对芝麻过敏", "用户对虾过敏"],
        ),
        # "me too" after the assistant's own wish or liking, wherever in the reply's end
        (("My aunt is allergic to kiwi.", "AI: I hope she's okay! Anything else?", "Me too."), []),
        (("我儿子对花生过敏。", "AI: 我也很喜欢花生！", "我也是。"), []),
        # a question of someone else, of what the user likes, or of who
        (
            (
                "I'm allergic to sesame.",
                "AI: Should I note anything for your husband?",
                "Kiwi too.",
            ),
            ["User is allergic to sesame"],
        ),
        (("My aunt is allergic to kiwi.", "AI: Noted. Does she carry an EpiPen?", "Me too."), []),
        (("My aunt is allergic to kiwi.", "AI: Noted. Do you like spicy food?", "Me too."), []),
        (("My aunt can't eat gluten.", "AI: Noted. Who else is coming to dinner?", "Me too."), []),
    ],
)
def test_which_reply_opens_a_turn_of_its_own(turns: tuple[str, ...], stored: list[str]) -> None:
    assert said_in_one_update(*turns) == stored


@pytest.mark.parametrize(
    "said",
    [
        # a food said first, before an amount, a way of cooking or a time: the user's
        "杨梅不能吃得太多，我会过敏。",
        "杨梅不能吃那么多。",
        "杨梅不能吃两个以上，我会过敏。",
        "白酒不能喝半杯。",
        "田螺不能吃没煮熟的。",
        "黄鱼不能吃隔夜的。",
    ],
)
def test_a_food_before_any_amount_or_way_of_cooking_is_the_users(said: str) -> None:
    facts = facts_after(said)
    assert facts and facts[0].startswith("用户") and len(facts[0]) > 4


# --- attacker 273 ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("turns", "stored"),
    [
        # a question for more of the same, or one that only holds "like", "cook", "they" or
        # 其他 in passing, opens no turn: what follows adds to the need
        (
            (
                "I'm allergic to sesame.",
                "AI: Got it. Would you like me to remember that?",
                "Kiwi too.",
            ),
            ["User is allergic to sesame", "User is allergic to kiwi"],
        ),
        (
            (
                "I'm allergic to sesame.",
                "AI: Anything else to keep in mind when I order?",
                "Also kiwi.",
            ),
            ["User is allergic to sesame", "User is allergic to kiwi"],
        ),
        (
            (
                "I'm allergic to sesame.",
                "AI: Shall I let the kitchen know so they can prepare?",
                "Also kiwi.",
            ),
            ["User is allergic to sesame", "User is allergic to kiwi"],
        ),
        (
            ("我对芝麻过敏。", "AI: 好的，已记下。还有其他过敏的吗？", "还有芒果。"),
            ["用户对芝麻过敏", "用户对芒果过敏"],
        ),
        (("我舅舅对虾过敏。", "AI: 好的，记下了。还有其他的吗？", "我也是。"), ["用户对虾过敏"]),
        (
            (
                "My aunt is allergic to eggs.",
                "AI: Noted. Anything else they should know?",
                "Me too.",
            ),
            ["User is allergic to eggs"],
        ),
        (
            (
                "My aunt is allergic to eggs.",
                "AI: I like to double-check: is it all eggs?",
                "Me too.",
            ),
            ["User is allergic to eggs"],
        ),
        # a question of what the user ate, wherever in the reply's end: what follows answers it
        (
            (
                "I'm allergic to sesame.",
                "AI: What did you have for lunch? I can plan dinner.",
                "Rice too.",
            ),
            ["User is allergic to sesame"],
        ),
        (
            ("I'm allergic to sesame.", "AI: What did you have for lunch today? 🙂", "Rice too."),
            ["User is allergic to sesame"],
        ),
    ],
)
def test_which_reply_opens_a_turn_after_attacker_273(
    turns: tuple[str, ...], stored: list[str]
) -> None:
    assert said_in_one_update(*turns) == stored


@pytest.mark.parametrize(
    ("said", "stored"),
    [
        # an animal may be meat: the kind stays
        ("I don't eat red meat, I mean horse.", ["red meat", "horse"]),
        ("我不吃肉，我是说狗。", ["肉", "狗"]),
    ],
)
def test_an_animal_meant_after_meat_keeps_the_kind(said: str, stored: list[str]) -> None:
    facts = facts_after(said)
    assert len(facts) == len(stored)
    assert all(thing in fact for thing, fact in zip(stored, facts, strict=True))
