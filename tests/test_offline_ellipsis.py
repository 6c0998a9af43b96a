"""A need said once more of one more thing, its words left out ("Shrimp too.", "还有虾").

Before, the addition was read alone: "I'm allergic to peanuts. Shrimp too." stored the
peanut allergy only, and "我对花生过敏，还有虾和蟹" stored "用户有虾和蟹". Sentences are
this project's own.
"""

from __future__ import annotations

import pytest
from langchain_core.messages import AIMessage, BaseMessage, HumanMessage

from deerflow_memory.models import MemoryDocument
from deerflow_memory.update.extraction import ExtractionRequest
from deerflow_memory.update.offline.ellipsis import need_of, one_more_thing, split_one_more
from deerflow_memory.update.offline.extractor import OfflineExtractor
from deerflow_memory.update.offline.text import candidates_from_text
from tests.test_quality_kinds import facts_after


@pytest.mark.parametrize(
    ("said", "stored"),
    [
        # a sentence of its own after the need
        (
            "I'm allergic to walnuts. Sesame too.",
            ["User is allergic to walnuts", "User is allergic to sesame"],
        ),
        (
            "I'm allergic to latex. Oh, and penicillin.",
            ["User is allergic to latex", "User is allergic to penicillin"],
        ),
        (
            "I'm allergic to kiwis. Same with bananas.",
            ["User is allergic to kiwis", "User is allergic to bananas"],
        ),
        ("I can't eat lamb. Veal either.", ["User cannot eat lamb", "User cannot eat veal"]),
        (
            "I'm gluten intolerant. Lactose as well.",
            ["User is gluten intolerant", "User is lactose intolerant"],
        ),
        (
            "I have a sesame allergy. Mustard too!",
            ["User has a sesame allergy", "User has a mustard allergy"],
        ),
        (
            "I react badly to ibuprofen. Also aspirin.",
            ["User reacts badly to ibuprofen", "User reacts badly to aspirin"],
        ),
        # inside the sentence, after a semicolon, a dash or dots
        (
            "I'm allergic to bees; wasps as well",
            ["User is allergic to bees", "User is allergic to wasps"],
        ),
        (
            "I'm sensitive to caffeine... and chocolate too",
            ["User is sensitive to caffeine", "User is sensitive to chocolate"],
        ),
        (
            "I don't eat pork — or red meat either",
            ["User does not eat pork", "User does not eat red meat"],
        ),
        (
            "I'm allergic to cashews; pecans too; and also to pistachios",
            [
                "User is allergic to cashews",
                "User is allergic to pecans",
                "User is allergic to pistachios",
            ],
        ),
        # Chinese: after a comma or a full stop, with 还有, 以及, 另外
        ("我对芒果过敏，还有菠萝", ["用户对芒果过敏", "用户对菠萝过敏"]),
        ("我对青霉素过敏，还有蟹和贝类", ["用户对青霉素过敏", "用户对蟹和贝类过敏"]),
        (
            "我对尘螨过敏，还有猫毛，还有花粉",
            ["用户对尘螨过敏", "用户对猫毛过敏", "用户对花粉过敏"],
        ),
        ("我对猕猴桃过敏。另外还有桃子。", ["用户对猕猴桃过敏", "用户对桃子过敏"]),
        ("我不吃羊肉，以及鸭肉", ["用户不吃羊肉", "用户不吃鸭肉"]),
        ("我乳糖不耐受，还有麸质", ["用户乳糖不耐受", "用户麸质不耐受"]),
        ("我对花生过敏，还有可可", ["用户对花生过敏", "用户对可可过敏"]),
    ],
)
def test_a_thing_added_to_a_need_is_that_need_too(said: str, stored: list[str]) -> None:
    assert facts_after(said) == stored


@pytest.mark.parametrize(
    ("said", "stored"),
    [
        # a person, or what may be a name
        ("I'm allergic to cats. My brother too.", ["User is allergic to cats"]),
        ("I'm allergic to cats. Priya too.", ["User is allergic to cats"]),
        ("I'm allergic to dogs. mom too.", ["User is allergic to dogs"]),
        ("我对猫过敏，还有我女儿也是", ["用户对猫过敏"]),
        ("我对花粉过敏，还有小陈", ["用户对花粉过敏"]),
        # what the user has or is, not what they react to (read as it was before)
        ("我对花生过敏，还有哮喘", ["用户对花生过敏", "用户有哮喘"]),
        ("我对花生过敏，还有点头疼", ["用户对花生过敏", "用户有点头疼"]),
        ("I'm allergic to peanuts. Also eczema.", ["User is allergic to peanuts"]),
        ("I'm allergic to peanuts. And exhausted.", ["User is allergic to peanuts"]),
        (  # no allergy to "diabetic": a need of its own (said without "I'm")
            "I'm allergic to peanuts. And diabetic too.",
            ["User is allergic to peanuts", "User is diabetic"],
        ),
        (  # no allergy to "pregnant": a state of its own (said without "I'm")
            "I'm allergic to peanuts. And pregnant.",
            ["User is allergic to peanuts", "User is pregnant"],
        ),
        # how, when or chat: no thing
        ("I'm allergic to peanuts. Badly too.", ["User is allergic to peanuts"]),
        ("I'm allergic to peanuts. Since birth too.", ["User is allergic to peanuts"]),
        ("I'm allergic to peanuts. Thanks too.", ["User is allergic to peanuts"]),
        # asked, not said
        ("I'm allergic to peanuts. And almonds?", ["User is allergic to peanuts"]),
        # no need before: nothing to add a thing to
        ("I'm vegan. Also shrimp.", ["User is vegan"]),
        ("I'm celiac; prawns too.", ["User is celiac"]),
        ("I use a wheelchair. Also crutches.", ["User uses a wheelchair"]),
        ("I live in Porto. Lisbon too.", ["User lives in Porto"]),
        ("我吃素。还有虾。", ["用户吃素"]),
        ("我有糖尿病，还有花生", ["用户有糖尿病"]),
        # a taste is no need: left as it was
        ("I love sushi. Ramen too.", ["User loves sushi"]),
    ],
)
def test_what_is_no_thing_or_follows_no_need_adds_none(said: str, stored: list[str]) -> None:
    assert facts_after(said) == stored


def test_each_added_thing_is_its_own_need_and_is_withdrawn_alone() -> None:
    said = "I'm allergic to walnuts. Sesame too."
    assert "User is allergic to sesame" in facts_after(said)
    assert facts_after(said, "I'm no longer allergic to sesame.") == ["User is allergic to walnuts"]
    assert "用户对菠萝过敏" in facts_after("我对芒果过敏，还有菠萝")
    assert facts_after("我对芒果过敏，还有菠萝", "我现在对菠萝不过敏了") == ["用户对芒果过敏"]


def test_the_added_need_keeps_what_the_need_is() -> None:
    first, added = candidates_from_text("I'm allergic to walnuts. Sesame too.")
    assert added.constraint and added.category == first.category
    assert (added.value, added.confidence) == ("sesame", first.confidence)


def test_pieces() -> None:
    assert one_more_thing("Sesame too.", zh=False) == "sesame"  # as a sentence opens
    assert one_more_thing("sesame", zh=False) is None  # no marker: no addition
    assert one_more_thing("还有虾和蟹", zh=True) == "虾和蟹"
    assert one_more_thing("还有一件事", zh=True) is None
    assert split_one_more("I'm allergic to bees; wasps too", zh=False) == (
        "I'm allergic to bees",
        ["wasps"],
    )
    assert split_one_more("I'm allergic to bees, wasps too", zh=False) is None  # a list
    (vegan,) = candidates_from_text("I'm vegan")
    assert need_of(vegan, "shrimp") is None


@pytest.mark.timeout(60)
def test_many_additions_are_read_in_linear_time() -> None:
    # each addition is found from the end without copying the head, and a thing added
    # again is one fact: 40,000 of them took about a second here; a copy per addition, or
    # a secret check per repeat, took minutes
    for text, said in (
        ("I'm allergic to bees" + "; wasps too" * 40_000, ["bees", "wasps"]),
        ("I'm allergic to bees" + " — and wasps" * 40_000, ["bees", "wasps"]),
        ("我对芒果过敏" + "，还有菠萝" * 40_000, ["芒果", "菠萝"]),
    ):
        assert [c.value for c in candidates_from_text(text)] == said
    # one long word where a thing goes is no thing, and is read once (it took 6 s at 16k)
    assert len(candidates_from_text("I'm allergic to bees. " + "a" * 1_000_000 + " too.")) == 1


@pytest.mark.parametrize(
    ("said", "stored"),
    [
        # names, places, times, people, moods said lowercase, or capitalised as acronyms
        ("i'm allergic to cats. ben too.", ["User is allergic to cats"]),
        ("I'm allergic to cats; leeds too", ["User is allergic to cats"]),
        ("I can't eat pork; tonight either", ["User cannot eat pork"]),
        ("I'm allergic to dust; hubby too", ["User is allergic to dust"]),
        ("I'm allergic to dust; stress too", ["User is allergic to dust"]),
        ("I'm allergic to dust; COPD too", ["User is allergic to dust"]),
        ("I have a sesame allergy; braces too", ["User has a sesame allergy"]),
        ("I'm allergic to dust; and perhaps mould", ["User is allergic to dust"]),
        ("我对花生过敏，还有刘洋", ["用户对花生过敏"]),
        ("我对花生过敏，还有广州", ["用户对花生过敏"]),
        ("我对花生过敏，还有加班", ["用户对花生过敏"]),
        ("我对花生过敏，还有媳妇", ["用户对花生过敏"]),
        # a condition the user has is still read as one
        ("我对花生过敏，还有高血压", ["用户对花生过敏", "用户有高血压"]),
        # a food whose name opens like a nickname is a food
        ("我对花生过敏，还有小麦", ["用户对花生过敏", "用户对小麦过敏"]),
    ],
)
def test_only_what_one_reacts_to_is_added(said: str, stored: list[str]) -> None:
    assert facts_after(said) == stored


@pytest.mark.parametrize(
    ("said", "stored"),
    [
        ("我对花生过敏，但我能吃虾，还有蟹", ["用户对花生过敏"]),
        ("我对花生过敏，我老公爱吃虾，还有蟹", ["用户对花生过敏"]),
        ("我对花生过敏，我们昨天吃了寿司，还有三文鱼", ["用户对花生过敏"]),
        ("I'm allergic to walnuts, but prawns are fine; crab too", ["User is allergic to walnuts"]),
        (
            "I'm allergic to walnuts, but prawns are fine. Crab too.",
            ["User is allergic to walnuts"],
        ),
    ],
)
def test_an_addition_after_a_clause_of_something_else_adds_nothing(
    said: str, stored: list[str]
) -> None:
    assert facts_after(said) == stored


def test_a_denied_need_is_no_need_and_gets_no_addition() -> None:
    # "我对花生不过敏" was stored as a need of "花生不", and "还有虾" made shrimp one
    assert not any(
        "虾" in fact or fact == "用户对花生过敏" for fact in facts_after("我对花生不过敏，还有虾")
    )
    for denied in ("我对花生不过敏", "我对花生并不过敏", "我对花生没有过敏"):
        assert not any(c.constraint for c in candidates_from_text(denied)), denied


def test_additions_go_on_across_sentences_and_a_repeat_is_one_fact() -> None:
    assert facts_after("I'm allergic to bees; wasps too; latex too. Wasps too.") == [
        "User is allergic to bees",
        "User is allergic to wasps",
        "User is allergic to latex",
    ]


@pytest.mark.parametrize(
    ("messages", "stored"),
    [
        (
            [
                HumanMessage("I'm allergic to sesame."),
                AIMessage("Noted."),
                HumanMessage("Also kiwis."),
            ],
            ["User is allergic to sesame", "User is allergic to kiwis"],
        ),
        (
            [HumanMessage("我对芒果过敏。"), AIMessage("好的。"), HumanMessage("还有菠萝。")],
            ["用户对芒果过敏", "用户对菠萝过敏"],
        ),
        # a message of something else between them, or the addition asked: no addition
        (
            [
                HumanMessage("I'm allergic to sesame."),
                HumanMessage("Thanks!"),
                HumanMessage("Also kiwis."),
            ],
            ["User is allergic to sesame"],
        ),
        (
            [HumanMessage("I'm allergic to sesame."), HumanMessage("And kiwis?")],
            ["User is allergic to sesame"],
        ),
    ],
)
def test_an_addition_in_the_next_message_of_one_update_adds_to_the_need(
    messages: list[BaseMessage], stored: list[str]
) -> None:
    # "I'm allergic to shellfish." and then "Also walnuts too." lost the walnuts (newcomer 262)
    update = OfflineExtractor().extract(ExtractionRequest(MemoryDocument(), messages, "t1"))
    assert [f.content for f in update.new_facts] == stored


@pytest.mark.parametrize(
    "thing",
    # a Chinese word is of the kind of its last part: a scientist, a city, a hotel, a phone,
    # trousers, a result, a symptom, pets counted
    ["牛顿", "羊城", "酒店", "苹果手机", "牛仔裤", "结果", "鸡皮疙瘩", "两只狗", "茶几"],
)
def test_a_chinese_word_that_only_holds_a_food_is_no_addition(thing: str) -> None:
    assert "用户对" + thing + "过敏" not in facts_after(f"我对花生过敏，还有{thing}")
    # (the food itself is one: this test would pass with additions not read at all)
    assert "用户对苹果过敏" in facts_after("我对花生过敏，还有苹果")


@pytest.mark.parametrize(
    "said",
    [
        "I'm allergic to peanuts. Shrimp too. Wait, I'm not allergic to shrimp.",
        "I'm allergic to peanuts; shrimp too. Actually, I'm not allergic to shrimp.",
        "I'm allergic to peanuts. Shrimp too. Just kidding about the shrimp.",
        "I'm allergic to peanuts. Shrimp too... not!",
        "我对花生过敏。还有虾。不对，我对虾不过敏。",
        # someone else's need, or a denial, in the need before: what the addition adds to
        # is unclear
        "I'm allergic to peanuts and Tom is allergic to eggs. Shrimp too.",
        "I'm allergic to peanuts and not cashews. Shrimp too.",
    ],
)
def test_an_addition_taken_back_or_after_someone_elses_need_is_no_need(said: str) -> None:
    assert not any("shrimp" in fact or "虾过敏" in fact for fact in facts_after(said)), said


@pytest.mark.parametrize(
    ("said", "stored"),
    [
        # a story, a number or an order after 比如 is no example: the need alone (it was lost
        # with them, refused as a whole)
        ("我对海鲜过敏，比如说我昨天吃了虾", ["用户对海鲜过敏"]),
        ("我对坚果过敏，比如我的电话是13912345678", ["用户对坚果过敏"]),
        ("我对坚果过敏，像我爸一样", ["用户对坚果过敏"]),
        ("I'm allergic to peanuts. Selfish too.", ["User is allergic to peanuts"]),
    ],
)
def test_what_follows_a_need_as_examples_or_an_addition_must_be_things(
    said: str, stored: list[str]
) -> None:
    assert facts_after(said) == stored


@pytest.mark.parametrize(
    ("said", "stored"),
    [
        # "just kidding about X" takes back what names X, and only that
        ("I'm allergic to peanuts. Just kidding about the movie.", ["User is allergic to peanuts"]),
        (
            "I'm allergic to peanuts. Shrimp too. Just kidding about the peanuts.",
            ["User is allergic to shrimp"],
        ),
        # a denial asked is no denial
        (
            "I'm allergic to peanuts. Wait, I'm not allergic to peanuts?",
            ["User is allergic to peanuts"],
        ),
        ("我对芒果过敏。其实我对芒果不过敏？", ["用户对芒果过敏"]),
        # a little, one of, what one does with a thing, a nickname, an insult: no thing
        ("我对花生过敏，还有点辣", ["用户对花生过敏"]),
        ("我对花生过敏，还有钓鱼", ["用户对花生过敏"]),
        ("我对花生过敏，还有豆豆", ["用户对花生过敏"]),
        ("我对花生过敏，还有傻瓜", ["用户对花生过敏"]),
        ("我对花生过敏，还有狗狗", ["用户对花生过敏", "用户对狗狗过敏"]),
    ],
)
def test_what_takes_an_addition_back_or_is_no_thing_is_read_narrowly(
    said: str, stored: list[str]
) -> None:
    assert facts_after(said) == stored


@pytest.mark.timeout(60)
def test_many_denials_are_read_in_linear_time() -> None:
    # each denial read every fact said before it: 400k characters took 17 s (attacker 263)
    found = candidates_from_text("我对虾过敏。" + "不对，我对虾不过敏。" * 40_000)
    assert not any(c.constraint for c in found)


@pytest.mark.parametrize(
    ("said", "stored"),
    [
        # "just kidding about" one thing of a list keeps the others; words no rule splits
        # keep the whole need
        (
            "I'm allergic to peanuts and shrimp. Just kidding about the shrimp.",
            ["User is allergic to peanuts"],
        ),
        (
            "I'm allergic to peanuts, shrimp and eggs. Just kidding about the shrimp.",
            ["User is allergic to peanuts", "User is allergic to eggs"],
        ),
        (
            # (kept whole before "has A and B" was split into its needs, as "allergic to A
            # and B" is: the shrimp was taken back and stayed)
            "I have a peanut allergy and a shrimp allergy. Just kidding about the shrimp.",
            ["User has a peanut allergy"],
        ),
        # one word takes back an addition, a withdrawal or a taste, not a need said in full
        (
            "I'm allergic to peanuts. Not! I really am.",
            ["User is allergic to peanuts", "User really is"],
        ),
        (
            "I'm allergic to peanuts and I can't eat gluten. Not!",
            [
                "User is allergic to peanuts",
                "User cannot eat gluten",
            ],
        ),
        ("I'm allergic to peanuts. Yeah right.", ["User is allergic to peanuts"]),
        ("I'm allergic to peanuts. Not? lol", ["User is allergic to peanuts"]),
        ("I'm allergic to peanuts. Shrimp too... not!", ["User is allergic to peanuts"]),
        ("我对花生过敏，还有虾。不对，我对虾不过敏", ["用户对花生过敏", "用户对虾不过敏"]),
    ],
)
def test_what_is_taken_back_is_only_what_it_names(said: str, stored: list[str]) -> None:
    assert facts_after(said) == stored


@pytest.mark.timeout(60)
def test_additions_denied_again_and_again_are_read_in_linear_time() -> None:
    # "还有蟹" said the crab need again each time, so each denial read every fact again:
    # 400k characters took 24 s (attacker 266), 800k would take minutes; each need is now
    # looked at once
    found = candidates_from_text(
        "我对花生过敏。" + "我对虾过敏，还有蟹。不对，我对蟹不过敏。" * 40_000
    )
    said = {c.content for c in found if c.content}  # (and the withdrawal of a stored crab need)
    assert said == {"用户对花生过敏", "用户对虾过敏", "用户对蟹不过敏"}


def test_a_chinese_list_that_says_an_item_again_keeps_its_need() -> None:
    # past about 80 repeats the list grew over what a fact may hold, and nothing was kept
    assert facts_after("我对花生" + "、虾" * 200 + "过敏。") == ["用户对花生、虾、虾过敏"]


@pytest.mark.parametrize(
    ("said", "stored"),
    [
        # a line break, or a blank line, between the need and what follows it (before, the
        # empty line between them was read as a sentence, after which nothing was added)
        ("I'm allergic to almonds.\nHazelnuts too.", ["almonds", "hazelnuts"]),
        ("I'm allergic to almonds.\n\nAlso hazelnuts.", ["almonds", "hazelnuts"]),
        ("我对杏仁过敏。\n还有榛子。", ["杏仁", "榛子"]),
    ],
)
def test_an_addition_on_the_next_line_adds_to_the_need(said: str, stored: list[str]) -> None:
    facts = facts_after(said)
    assert len(facts) == 2
    assert all(thing in fact for thing, fact in zip(stored, facts, strict=True))


def test_a_blank_line_keeps_the_things_of_other_sentences_apart() -> None:
    assert facts_after("I live in Lyon.\n\nHazelnuts too.") == ["User lives in Lyon"]
