"""Attackers 287 (English) and 288 (Chinese), against 775e6d4: what the list, withdrawal and
doubt readings of the offline extractor took that was not the user's, or lost what was.

- A list's heading that asks, wishes or is a template ("Which should I pick?", "Diets I want to
  try:", "Example:", "帮我做个问卷：", "包装上写着：") heads options: its items and fields are no
  statement of the user's; a heading that names someone of the user's anywhere ("My wife's
  diet:", "Facts about my son:", "我妈的情况：", "病人：我妈") heads their lines, fields too; a
  blank line right after a heading does not end it; "Foods I can't eat:" and "我乳糖不耐受，还
  对以下食物过敏：" end with their items.
- "Not anymore." taken back by the next sentence or message ("Just kidding!", "I wish!", "开玩笑
  的") withdraws nothing; "现在好了" and the other weak forms withdraw a need only when nothing
  follows them, and of a need only an allergy or intolerance.
- A word of doubt doubts the diagnosis only when it is of it ("I doubt it", not "I doubt the
  pills will help"; "I outgrew it", not "My son outgrew his allergy"; "不准我喝牛奶" forbids);
  "…, says the allergist" is what the allergist told.
- U+FFFD in a contraction is an apostrophe ("don\\ufffdt"), inside Chinese nothing.
- "假如" supposes: "假如我吃海鲜就会过敏，…？" is no need.
Sentences are this project's own.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.test_offline_context import _said_in_turns
from tests.test_quality_kinds import facts_after, said_in_one_update


@pytest.mark.parametrize(
    "said",
    [
        "Which one should I choose?\n- vegan\n- pescatarian",
        "Should I try:\n- keto\n- vegan",
        "Poll: what diet do you follow?\n- vegan\n- omnivore",
        "Diets I'd like to try this year:\n- paleo\n- vegan",
        "Diets I can't stand:\n- keto\n- vegan",
        "Not for me:\n- vegan\n- keto",
        "Sample form:\nAllergies: walnuts\nDiet: vegan",
        "My partner's diet:\n- vegetarian",
        "Things my kids eat:\n- vegan nuggets",
        "Notes about my husband:\n- vegan\n- allergic to kiwi",
        "For my daughter:\nAllergies: sesame\nDiet: vegetarian",
        "我婆婆的情况：\n过敏：\n- 青霉素",
        "就诊人：我爸\n过敏：\n- 头孢",
        "帮我女儿填一下：\n过敏：\n- 芒果",
        "我儿子：\n\n过敏：\n- 花生\n- 鸡蛋",
        "帮我做个调查问卷：\n过敏：\n- 花生\n- 其他",
        "饼干包装上写着：\n过敏原：\n- 花生\n- 牛奶",
    ],
)
def test_a_list_that_is_not_the_users_stores_nothing(said: str) -> None:
    assert facts_after(said) == []


@pytest.mark.parametrize(
    ("said", "stored"),
    [
        ("Foods I can't eat:\n- kiwi\n- mango", ["User cannot eat kiwi and mango"]),
        ("Things I'm allergic to:\n- kiwi\n- latex", ["User is allergic to kiwi and latex"]),
        ("I'm allergic to:\n\n- kiwi\n- latex", ["User is allergic to kiwi and latex"]),
        ("Allergies:\n\n- kiwi\n- sesame", ["User is allergic to kiwi, sesame"]),
        (
            "A bit about me:\n- vegan\n- allergic to kiwi",
            ["User is vegan", "User is allergic to kiwi"],
        ),
        (
            "我乳糖不耐受，还对以下食物过敏：\n- 芒果\n- 虾",
            ["用户乳糖不耐受", "用户对芒果、虾过敏"],
        ),
        ("我对下面这几样东西严重过敏：\n- 芒果\n- 虾", ["用户对芒果、虾过敏"]),
        ("我的信息：\n- 素食\n- 对芒果过敏", ["用户素食", "用户对芒果过敏"]),
        # a subjectless list after a clause keeps its first item
        ("我乳糖不耐受，对芒果、虾过敏", ["用户乳糖不耐受", "用户对芒果、虾过敏"]),
    ],
)
def test_a_list_of_the_users_is_read_whole(said: str, stored: list[str]) -> None:
    assert facts_after(said) == stored


@pytest.mark.parametrize(
    "said",
    [
        "I'm allergic to kiwi. Not anymore. Just kidding!",
        "I'm allergic to kiwi. Not anymore. Wait, yes I am.",
        "I'm allergic to kiwi. Not anymore... I wish.",
        "我对芒果过敏。现在好了。开玩笑的。",
    ],
)
def test_a_withdrawal_taken_back_leaves_the_need(said: str) -> None:
    assert facts_after(said)[:1] in (["User is allergic to kiwi"], ["用户对芒果过敏"])


def test_a_withdrawal_taken_back_in_the_next_message() -> None:
    turns = ("I'm allergic to kiwi.", "AI: Noted.", "Not anymore.", "AI: Noted.", "Jk, I still am.")
    assert said_in_one_update(*turns) == ["User is allergic to kiwi"]


@pytest.mark.parametrize(
    ("said", "stored"),
    [
        # a complaint after "现在好了" : the need stands
        ("我对芒果过敏。现在好了！以后连芒果冰都吃不了了。", "用户对芒果过敏"),
        ("医生说我对麸质过敏。现在好了！面包都不能吃了", "用户对麸质过敏"),
        # after a reaction, what is better is the rash
        ("我一吃虾就起疹子。现在好了。", "用户吃虾会起疹子"),
    ],
)
def test_a_weak_withdrawal_with_more_after_it_or_of_a_reaction_keeps_the_need(
    said: str, stored: str
) -> None:
    assert facts_after(said)[:1] == [stored]


def test_a_weak_withdrawal_said_last_still_withdraws_an_allergy() -> None:
    assert facts_after("我对芒果过敏。现在已经好了。") == []


@pytest.mark.parametrize(
    ("said", "stored"),
    [
        ("My doctor says I'm coeliac, but I doubt I'll stop baking.", "User is coeliac"),
        (
            "The allergist says I'm allergic to kiwi. I doubt the café has a kiwi-free menu.",
            "User is allergic to kiwi",
        ),
        (
            "My GP says I'm lactose intolerant. My brother outgrew his lactose intolerance.",
            "User is lactose intolerant",
        ),
        (
            "My doctor says I'm lactose intolerant. That explains what was wrong with my gut.",
            "User is lactose intolerant",
        ),
        (
            "A blood test showed I'm allergic to kiwi. Hard to believe I ate them for years.",
            "User is allergic to kiwi",
        ),
        ("医生说我乳糖不耐受。我爸不信。", "用户乳糖不耐受"),
    ],
)
def test_a_doubt_of_something_else_keeps_the_need(said: str, stored: str) -> None:
    assert facts_after(said)[:1] == [stored]


@pytest.mark.parametrize(
    "said",
    [
        "My doctor says I'm coeliac, but I doubt it.",
        "The allergist says I'm allergic to kiwi. I'm skeptical.",
        "My doctor says I'm lactose intolerant but I outgrew it.",
        "I'm allergic to kiwi, says the allergist, but I doubt it.",
        "Bad news: I'm allergic to kiwi, says my doctor, but I doubt it.",
        "医生说我乳糖不耐受，我不信。",
    ],
)
def test_a_doubt_of_the_diagnosis_stores_nothing(said: str) -> None:
    assert facts_after(said) == []


def test_who_told_it_said_after_the_need_is_no_part_of_it() -> None:
    assert facts_after("I'm allergic to kiwi, says the allergist.") == ["User is allergic to kiwi"]


@pytest.mark.parametrize(
    ("said", "stored"),
    [
        ("I can\ufffdt eat gluten.", ["User cannot eat gluten"]),
        ("I don\ufffdt eat pork.", ["User does not eat pork"]),
        ("I\ufffdve been vegan for years.", ["User has been vegan for years"]),
        ("我对芒\ufffd果过敏", ["用户对芒果过敏"]),
        ("我乳糖不\ufffd耐受", ["用户乳糖不耐受"]),
    ],
)
def test_an_unreadable_character_in_a_word_is_no_space(said: str, stored: list[str]) -> None:
    assert facts_after(said) == stored


def test_a_supposition_is_no_need() -> None:
    assert facts_after("假如我吃芒果就会过敏，你会推荐什么水果？") == []
    assert facts_after("如果我吃芒果就会过敏") == ["用户对芒果过敏"]


# The older faults the two attackers found (the same at f556219).


@pytest.mark.parametrize(
    "said",
    [
        "我老公芒果过敏",
        "我妈头孢过敏",
        "我女儿：芒果过敏",
        "我老公：虾过敏，不吃香菜",
        "我对象对芒果过敏",
        "我闺女：\n- 鸡蛋过敏",
        "我婆婆：\n- 不吃猪肉",
        "我儿子对\n芒果过敏",
        "我儿子\n对芒果过敏",
    ],
)
def test_someone_elses_need_without_dui_is_theirs(said: str) -> None:
    assert facts_after(said) == []


def test_a_chinese_allergy_field_is_a_need_of_each_thing(tmp_path: Path) -> None:
    assert facts_after("过敏：芒果，芝麻") == ["用户对芒果、芝麻过敏"]
    assert facts_after("过敏：\n- 芒果\n- 芝麻") == ["用户对芒果、芝麻过敏"]
    assert facts_after("过敏：无") == []
    assert _said_in_turns(tmp_path, "过敏：芒果，芝麻", "我对芝麻不过敏了。") == ["用户对芒果过敏"]


@pytest.mark.parametrize(
    ("said", "stored"),
    [
        ("Allergies: none except latex", ["User is allergic to latex"]),
        ("Allergies: nothing, except for latex", ["User is allergic to latex"]),
        ("Allergies: no food allergies, but latex", ["User is allergic to latex"]),
        ("Allergies: no known allergies", []),
        ("Allergies: please let the kitchen know", []),
        ("Allergies: [fill in]", []),
        ("Quick update: I'm allergic to latex.", ["User is allergic to latex"]),
        ("Confession: I'm allergic to latex.", ["User is allergic to latex"]),
        ("Medical update: I have type 1 diabetes.", ["User has type 1 diabetes"]),
        (
            "Dairy and I don't really get along.",
            ["User reacts to dairy: it doesn't agree with them"],
        ),
        (
            "Me and gluten don't get along anymore.",
            ["User reacts to gluten: it doesn't agree with them"],
        ),
        ("Me and my brother don't get along.", []),
        ("I'm not\nallergic to latex", []),
        ("我对芒果\n过敏", ["用户对芒果过敏"]),
        ("我乳糖\n不耐受", ["用户乳糖不耐受"]),
        ("过敏：芒果、\n芝麻", ["用户对芒果、芝麻过敏"]),
        ("今天好累\n我对芒果过敏", ["用户对芒果过敏"]),
    ],
)
def test_older_faults(said: str, stored: list[str]) -> None:
    assert facts_after(said) == stored


@pytest.mark.parametrize(
    ("said", "stored"),
    [
        # an aside of doubt goes, the need stays (the safer error)
        ("Allergies:\n- kiwi (maybe)\n- latex", ["User is allergic to kiwi, latex"]),
        ("Allergies:\n- kiwi (Suspected)", ["User is allergic to kiwi"]),
        ("过敏：\n- 芒果（可能）\n- 芝麻", ["用户对芒果、芝麻过敏"]),
        # an aside of how bad it is stays
        ("Allergies:\n- kiwi (severe)\n- latex", ["User is allergic to kiwi (severe), latex"]),
        # an answer said over or someone else's is none of the user's
        ("Allergies:\n- kiwi (outgrew it)\n- latex", ["User is allergic to latex"]),
        ("Allergies:\n- kiwi (my daughter)\n- latex", ["User is allergic to latex"]),
        # any other aside stays as said: no table tells a name from a reaction or a brand
        (
            "Allergies:\n- Penicillin (Rash)\n- latex",
            ["User is allergic to Penicillin (Rash), latex"],
        ),
        ("Allergies:\n- ibuprofen (Advil)", ["User is allergic to ibuprofen (Advil)"]),
        ("Allergies:\n- nuts (for now)", ["User is allergic to nuts"]),
        ("过敏：\n- 芒果（小时候）\n- 芝麻", ["用户对芝麻过敏"]),
    ],
)
def test_an_aside_after_a_fields_answer(said: str, stored: list[str]) -> None:
    assert facts_after(said) == stored


# Attacker 290 (against c558e33): what the heading, line-joining and U+FFFD readings above
# took from the user.
@pytest.mark.parametrize(
    ("said", "stored"),
    [
        # a heading that only names someone, or holds the user too, heads the user's lines
        (
            "For my husband's reference:\nAllergies: latex\nDiet: vegetarian",
            ["User is allergic to latex", "User is vegetarian"],
        ),
        ("My partner and I:\nAllergies: latex", ["User is allergic to latex"]),
        ("我和我老婆：\n过敏：芒果", ["用户对芒果过敏"]),
        ("给我老婆看的：\n过敏：头孢\n饮食：素食", ["用户对头孢过敏", "用户饮食：素食"]),
        ("姓名：李娜\n紧急联系人：我老公\n过敏：头孢", ["用户姓名：李娜", "用户对头孢过敏"]),
        # a question for help: its fields, and its items that say a need, are the user's
        ("Is this cake okay for me?\nAllergies: latex", ["User is allergic to latex"]),
        ("能帮我推荐点水果吗？\n过敏：芒果，菠萝", ["用户对芒果、菠萝过敏"]),
        (
            "Any snack ideas? Some info:\n- I'm vegan\n- allergic to kiwi",
            ["User is vegan", "User is allergic to kiwi"],
        ),
        ("帮我推荐几道菜：\n- 我对芒果过敏\n- 不吃辣", ["用户对芒果过敏", "用户不吃辣"]),
        # the user's own situation, a heading with 我
        ("我的情况：\n- 对头孢过敏\n- 乳糖不耐受", ["用户对头孢过敏", "用户乳糖不耐受"]),
        ("病人：我\n过敏：头孢\n饮食：低盐", ["用户对头孢过敏", "用户饮食：低盐"]),
        # a line of a form that names them
        ("Patient: my daughter\nAllergies: latex", []),
        # a field line is a line of its own, not a wrapped one
        ("饮食：素食\n过敏：头孢", ["用户饮食：素食", "用户对头孢过敏"]),
        ("我叫李娜\n过敏：头孢", ["用户叫李娜", "用户对头孢过敏"]),
        ("我吃素\n不耐受乳糖", ["用户吃素", "用户不耐受乳糖"]),
        # an unreadable character before a clause of the user's is a lost full stop
        ("我女儿对虾过敏\ufffd我对芒果过敏", ["用户对芒果过敏"]),
        # fields said without "I"
        ("Allergic to:\n- kiwi\n- latex", ["User is allergic to kiwi and latex"]),
        ("Can't eat:\n- rye\n- barley", ["User cannot eat rye and barley"]),
        ("过敏：无，除了头孢", ["用户对头孢过敏"]),
    ],
)
def test_attacker_290(said: str, stored: list[str]) -> None:
    assert facts_after(said) == stored


def test_a_chinese_correction_after_an_acknowledgement_needs_no_lead_word() -> None:
    turns = ("我对核桃过敏。", "AI: 好的，记下了。", "是碧根果，不是核桃。")
    assert said_in_one_update(*turns) == ["用户对碧根果过敏"]
    asked = ("我对核桃过敏。", "AI: 你要核桃饼干还是碧根果饼干？", "是碧根果，不是核桃。")
    assert said_in_one_update(*asked)[:1] == ["用户对核桃过敏"]


@pytest.mark.parametrize(
    ("said", "stored"),
    [
        # a heading is no fact of its own ("User's info", "User: info for their wife")
        ("My details:\n- vegan\n- allergic to kiwi", ["User is vegan", "User is allergic to kiwi"]),
        ("Info for my wife:\nAllergies: latex", ["User is allergic to latex"]),
        # …unless the user says something in it
        ("I have two cats:\n- Miso\n- Tofu", ["User has two cats"]),
    ],
)
def test_a_heading_is_no_fact_of_its_own(said: str, stored: list[str]) -> None:
    assert facts_after(said) == stored


# Attacker 291 (against 06ef0ef).
@pytest.mark.parametrize(
    ("said", "stored"),
    [
        # a question about someone of the user's is theirs; so is a heading of him or her
        ("Dinner ideas for my son?\n- allergic to kiwi\n- vegetarian", []),
        ("能帮我女儿推荐点零食吗？\n- 对芒果过敏", []),
        ("My dad is staying with us. His info:\nAllergies: latex", []),
        ("Ana (my daughter):\nAllergies: kiwi", []),
        ("我爸来住几天，他的情况：\n过敏：头孢", []),
        ("我女儿：\n过敏：芒果\n病史：哮喘", []),
        # the user's own form, and a question about the user's own case
        (
            "My intake form:\nAllergies: latex\nConditions: asthma",
            ["User is allergic to latex", "User has asthma"],  # (a condition field: stop 45)
        ),
        ("Fruits I'm allergic to:\n- kiwi\n- mango", ["User is allergic to kiwi and mango"]),
        (
            "我对很多水果过敏，比如：\n- 芒果\n- 菠萝",
            ["用户对很多水果过敏", "用户对芒果、菠萝过敏"],
        ),
        (
            "Is this cake safe for me?\n- coeliac\n- kiwi allergy",
            ["User is coeliac", "User has a kiwi allergy"],
        ),
        ("My daughter:\nAllergies: kiwi\nMy allergies: latex", ["User is allergic to latex"]),
        ("Allergies (if any):\n- latex\n- kiwi", ["User is allergic to latex, kiwi"]),
        # lines labelled with the user or someone of theirs
        ("Daughter: allergic to kiwi\nMe: allergic to latex", ["User is allergic to latex"]),
        ("我：对头孢过敏", ["用户对头孢过敏"]),
        ("老婆：芒果过敏\n我：不吃香菜", ["用户不吃香菜"]),
        # "对了" (by the way) starts a line of its own; a line that said its all is not joined
        ("好的谢谢\n对了我不吃香菜", ["用户不吃香菜"]),
        ("我对芒果过敏\n和我妈一样", ["用户对芒果过敏"]),
        ("我老婆和\n我都对芒果过敏", ["用户对芒果过敏"]),
        # a Chinese field's answers apart by spaces; none but a clause is no thing
        ("过敏：芒果 菠萝 虾", ["用户对芒果、菠萝、虾过敏"]),
        ("过敏：没有，就是有点花粉过敏", ["用户过敏：没有", "用户就是有点花粉过敏"]),
    ],
)
def test_attacker_291(said: str, stored: list[str]) -> None:
    assert facts_after(said) == stored


# Attacker 292 (against 99384e2).
@pytest.mark.parametrize(
    ("said", "stored"),
    [
        # a request to choose for the user: its needs are the user's constraints
        ("Help me choose a café:\n- allergic to kiwi\n- cheap", ["User is allergic to kiwi"]),
        ("帮我看看选哪家店？\n- 对芒果过敏\n- 预算100", ["用户对芒果过敏"]),
        (
            "Pick a dessert for me:\n- gluten-free\n- vegetarian",
            ["User is gluten-free", "User is vegetarian"],
        ),
        # a question for the user's own case: a diet is the user's too; a plan is no wish
        (
            "Dinner ideas for me?\n- allergic to kiwi\n- vegetarian",
            ["User is allergic to kiwi", "User is vegetarian"],
        ),
        ("帮我推荐晚餐？\n- 素食\n- 对芒果过敏", ["用户素食", "用户对芒果过敏"]),
        ("这周的饮食计划：\n- 吃素\n- 对芒果过敏", ["用户吃素", "用户对芒果过敏"]),
        # a Chinese line that holds a whole need is a clause of its own
        ("我吃素\n对芒果过敏", ["用户吃素", "用户对芒果过敏"]),
        ("我是老师\n对乳胶过敏", ["用户是老师", "用户对乳胶过敏"]),
        ("我女儿\n对芒果过敏", []),
        # "Me:" in a chat sent on or in a script is someone else's
        ("Write a dialogue for my class play:\nMe: I'm allergic to kiwi!\nChef: Oh no!", []),
    ],
)
def test_attacker_292(said: str, stored: list[str]) -> None:
    assert facts_after(said) == stored


def test_me_in_a_chat_sent_on_is_not_the_user() -> None:
    said = "My friend sent me her chat with the nurse:\nMe: I'm allergic to latex\nNurse: noted"
    assert not any("latex" in fact for fact in facts_after(said))
    # …while the same "Me:" line in the user's own message is the user's
    assert facts_after("Me: allergic to latex\nNurse: noted") == ["User is allergic to latex"]


# Attacker 293 (against 8abca92).
@pytest.mark.parametrize(
    ("said", "stored"),
    [
        # under a heading of the user's own matters, a need or a diet is the user's
        (
            "For my trip to Lima:\n- vegetarian\n- allergic to latex",
            ["User is vegetarian", "User is allergic to latex"],
        ),
        (
            "Medical stuff:\n- asthma\n- allergic to latex",
            ["User is allergic to latex"],
        ),
        # the user's own form is no template
        (
            "Intake form:\nAllergies: latex\nConditions: asthma",
            ["User is allergic to latex", "User has asthma"],  # (a condition field: stop 45)
        ),
        ("帮我填一下表格：\n过敏：头孢\n饮食：素食", ["用户对头孢过敏", "用户饮食：素食"]),
        # a choice asked for the user, of a thing named: its diets are the user's too
        (
            "Help me choose a café:\n- vegetarian\n- allergic to kiwi",
            ["User is vegetarian", "User is allergic to kiwi"],
        ),
        # a heading that only says what the user feels is no wish list
        ("我想问一下：\n- 对头孢过敏\n- 有哮喘", ["用户对头孢过敏", "用户有哮喘"]),
        # a bare kin heading heads no item of the user's
        ("Grandma:\n- diabetic\nMe:\n- allergic to kiwi", ["User is allergic to kiwi"]),
        # "Me:" in a message copied from someone else's phone is theirs
        ("Screenshot from my sister's phone:\nMe: I'm vegan now\nFriend: cool", []),
        # how bad it is is no thing of the field
        ("过敏：头孢 严重", ["用户对头孢过敏"]),
    ],
)
def test_attacker_293(said: str, stored: list[str]) -> None:
    assert facts_after(said) == stored


def test_a_heading_of_a_feeling_is_no_wish_list() -> None:
    facts = facts_after("I hate to be picky, but:\n- vegetarian\n- allergic to kiwi")
    assert {"User is vegetarian", "User is allergic to kiwi"} <= set(facts)


# Attacker 295 (bad input, against 7897f37).
@pytest.mark.parametrize(
    ("said", "stored"),
    [
        # a field heading of the user's own heads its items ("My …" made it the user's heading,
        # which was never read as a field: the items were left bare and lost)
        ("My allergies:\n- kiwi\n- latex", ["User is allergic to kiwi, latex"]),
        ("My allergies:\nlatex", ["User is allergic to latex"]),
        ("My dietary restrictions:\n- vegan\n- no nuts", ["User is vegan", "User avoids nuts"]),
        ("My daughter:\n- kiwi\nMy allergies:\n- latex", ["User is allergic to latex"]),
        # a NUL before what starts a line parts two lines; inside a word it is nothing
        ("Me: I'm vegan\x00Son: I'm allergic to eggs", ["User is vegan"]),
        (
            "I'm allergic to kiwi\x00I live in Ghent",
            ["User is allergic to kiwi", "User lives in Ghent"],
        ),
        ("I'm allergic to ki\x00wi", ["User is allergic to kiwi"]),
        ("我对芒果过敏\x00我住在杭州", ["用户对芒果过敏", "用户住在杭州"]),
    ],
)
def test_attacker_295(said: str, stored: list[str]) -> None:
    assert facts_after(said) == stored
