"""What the user just said, then said to be someone else's ("I mean my son is").

Before: "I'm allergic to sesame, I mean my nephew is." stored the allergy as the user's;
"I don't have eczema anymore, I mean my dad." withdrew the user's stored eczema (a need lost);
"我已经不对芒果过敏了，我是说我女儿。" withdrew it and stored "用户是说我女儿". Said short (the
person, a verb like "is", "not me"), the words say so; said in full, only a slip ("sorry",
"I meant", "说错了") or "not me" does, since "I mean" as often goes on. Sentences are this
project's own.
"""

from __future__ import annotations

import re

import pytest

from deerflow_memory.update.offline.ellipsis import Theirs, theirs, theirs_after
from tests.test_quality_kinds import facts_after, said_in_one_update


@pytest.mark.parametrize(
    "said",
    [
        "I'm allergic to sesame, I mean my nephew is.",
        "I'm allergic to sesame, I mean my nephew.",
        "I'm allergic to sesame. I mean my nephew is, not me.",
        "I'm allergic to sesame — sorry, I meant my nephew.",
        "I'm gluten-free, I mean my girlfriend is.",
        "I play the cello, I mean my sister does.",
        "I'm lactose intolerant, I mean Priya is, not me.",
        "I'm allergic to sesame. Not me, my nephew.",
        "I'm allergic to sesame. My nephew is, not me.",
        "I'm allergic to sesame. Sorry, I meant my nephew is allergic to sesame.",
        "我对芝麻过敏，我是说我外甥。",
        "我对芝麻过敏，我说的是我外甥。",
        "我不吃香菜，我指的是我老公。",
        "我对芝麻过敏。不是我，是我外甥。",
        "我对芝麻过敏。说错了，是我外甥对芝麻过敏，不是我。",
    ],
)
def test_a_statement_said_to_be_someone_elses_is_not_the_users(said: str) -> None:
    assert facts_after(said) == []
    # …though said alone it is the user's (so the test cannot pass by nothing being read)
    alone = re.split(r"(?<=[.。])\s*|,\s|，| — ", said)[0]
    assert facts_after(alone) != []


@pytest.mark.parametrize(
    ("stored", "said"),
    [
        ("I have eczema.", "I don't have eczema anymore, I mean my dad."),
        ("I have eczema.", "I don't have eczema anymore — oops, I meant my dad."),
        ("I have eczema.", "I don't have eczema anymore. I mean my dad doesn't."),
        ("I'm allergic to kiwi.", "I'm not allergic to kiwi anymore, I mean my son isn't."),
        ("我有湿疹。", "我已经没有湿疹了，我是说我爸。"),
        ("我对芒果过敏。", "我已经不对芒果过敏了，我是说我女儿。"),
    ],
)
def test_a_withdrawal_said_to_be_someone_elses_withdraws_nothing(stored: str, said: str) -> None:
    kept = facts_after(stored)
    assert len(kept) == 1
    assert facts_after(stored, said) == kept  # the user's need stands, nothing is added


@pytest.mark.parametrize(
    ("turns", "stored"),
    [
        (("I have eczema.", "AI: Noted.", "Sorry, I meant my dad."), []),
        (("I'm allergic to sesame.", "I meant my nephew is."), []),
        (("I'm into birdwatching.", "I mean my wife is."), []),
        (("我对芝麻过敏。", "AI: 好的。", "说错了，我是说我外甥。"), []),
        # withdrawn and then said to be his: the user's need stands
        (("I have eczema.", "Not anymore.", "Sorry, I meant my dad."), ["User has eczema"]),
        # after a question, "Not me, my nephew." answers it
        (
            (
                "I'm allergic to sesame.",
                "AI: Who else at home has allergies?",
                "Not me, my nephew.",
            ),
            ["User is allergic to sesame"],
        ),
    ],
)
def test_a_message_can_say_the_one_before_was_someone_elses(
    turns: tuple[str, ...], stored: list[str]
) -> None:
    assert said_in_one_update(*turns) == stored


@pytest.mark.parametrize(
    ("said", "stored"),
    [
        # the user is still in it
        ("I'm allergic to sesame, I mean my nephew too.", ["User is allergic to sesame"]),
        ("I'm allergic to sesame, I mean my nephew and I are.", ["User is allergic to sesame"]),
        ("I'm allergic to sesame, I mean my whole family is.", ["User is allergic to sesame"]),
        ("我对芝麻过敏，我是说我外甥也是。", ["用户对芝麻过敏"]),
        # "I mean" going on, not putting right
        ("I love sailing, I mean my uncle taught me.", ["User loves sailing"]),
        ("我喜欢滑雪，我是说我舅舅教我的。", ["用户喜欢滑雪"]),
        # a thing put right, not a person
        ("I'm allergic to walnuts, I mean pecans.", ["User is allergic to pecans"]),
        # "不是我妈" is "not my mom"; "he … not me" is a sentence of its own
        ("不吃羊肉的其实是我，不是我妈", ["用户不吃羊肉"]),
        ("I collect stamps. He is allergic to sesame, not me.", ["User collects stamps"]),
    ],
)
def test_what_is_not_said_to_be_someone_elses_stays(said: str, stored: list[str]) -> None:
    assert facts_after(said) == stored


@pytest.mark.parametrize(
    ("text", "said"),
    [
        ("I mean my nephew is.", Theirs("", "is")),
        ("I mean my dad doesn't.", Theirs("", "doesn't")),
        ("Sorry, I meant my nephew has it.", Theirs("My nephew has it")),
        ("Not me, it's my nephew who has it", Theirs("My nephew who has it")),
        ("不是我，是我外甥对芝麻过敏", Theirs("我外甥对芝麻过敏")),
        ("Sorry, I meant Cipro is.", None),  # a thing put right, not a person
        ("I mean my uncle taught me.", None),  # going on
        ("是我外甥。", None),  # may answer "who?"
    ],
)
def test_what_words_say_of_someone_else(text: str, said: Theirs | None) -> None:
    assert theirs(text) == said


def test_where_in_a_sentence_it_starts() -> None:
    assert theirs_after("I'm vegan, I mean Priya is, not me.") == (9, 10)
    assert theirs_after("Oops, I meant my nephew is.") is None  # all of it, no break


def test_what_the_user_meant_is_no_fact_of_its_own() -> None:
    # "我是说…" once read as "用户是说…"
    assert facts_after("我喜欢划船，我的意思是周末去。") == ["用户喜欢划船"]
    assert facts_after("我指的是上周那家店。") == []


@pytest.mark.parametrize(
    ("said", "stored"),
    [
        ("Meds: carvedilol, sertraline", ["User takes carvedilol and sertraline"]),
        ("Medications:\n- labetalol\n- insulin", ["User takes labetalol and insulin"]),
        ("Meds: escitalopram, gabapentin", ["User takes escitalopram and gabapentin"]),
        ("Meds: aspirin, pregabalin", ["User takes aspirin and pregabalin"]),
        # a laugh or a word with a drug's ending is no medication: the field is no need
        ("Meds: insulin, lolol", []),
        ("Meds: insulin, hahalol", []),
    ],
)
def test_drugs_by_more_of_their_endings(said: str, stored: list[str]) -> None:
    assert facts_after(said) == stored


@pytest.mark.parametrize(
    ("said", "stored"),
    [
        # only the last of what was said is theirs when said short…
        (
            "I'm allergic to hazelnuts and I'm pescatarian, I mean my partner is.",
            ["User is allergic to hazelnuts"],
        ),
        ("我对榛子过敏，也吃素，我是说我老公。", ["用户对榛子过敏"]),
        # (…when the last clause said it: the wife's diet was hers already)
        ("我对榛子过敏，我老婆吃素，我是说我老婆。", ["用户对榛子过敏"]),
        # …and only what it names when said in full, one thing of a need of several
        (
            "I'm allergic to hazelnuts and I'm pescatarian. Sorry, I meant my partner is "
            "pescatarian.",
            ["User is allergic to hazelnuts"],
        ),
        (
            "I'm allergic to hazelnuts and mussels. Oops, I meant my daughter is allergic to "
            "mussels.",
            ["User is allergic to hazelnuts"],
        ),
        ("我对榛子过敏，我吃素。说错了，我是说我老公吃素。", ["用户对榛子过敏"]),
        # "me too" after it: the user's as well
        ("I'm allergic to mussels, I mean my son is. So am I.", ["User is allergic to mussels"]),
    ],
)
def test_only_what_was_said_of_them_goes(said: str, stored: list[str]) -> None:
    assert facts_after(said) == stored


@pytest.mark.parametrize(
    ("said", "stored"),
    [
        # a contrast, not a correction: the verb says the other way round, or "either"
        ("I can't have soy. I mean my brother can't either.", ["User cannot have soy"]),
        ("I don't eat lamb, I mean my husband does.", ["User does not eat lamb"]),
        ("I can't have dairy. My daughter can, not me.", ["User cannot have dairy"]),
        ("I'm vegetarian, I mean my husband isn't.", ["User is vegetarian"]),
        # a name or a pet without "not me" may be a thing
        ("I'm allergic to Keflex. Sorry, I meant Cipro is.", ["User is allergic to Keflex"]),
        ("I'm allergic to horses. I mean, Bella is.", ["User is allergic to horses"]),
        # what the user says they meant, of themselves
        ("我指的是我对榛子过敏。", ["用户对榛子过敏"]),
        ("我讲的是粤语。", ["用户讲的是粤语"]),
    ],
)
def test_a_contrast_or_a_thing_put_right_is_no_one_elses(said: str, stored: list[str]) -> None:
    assert facts_after(said) == stored


def test_a_withdrawal_with_someone_else_still_so_withdraws() -> None:
    # "My sister does, not me": hers is the asthma that stays, the user's is over
    assert facts_after("I have asthma.") and facts_after("I'm vegetarian.")  # stored first
    assert (
        facts_after("I have asthma.", "I don't have asthma anymore. My sister does, not me.") == []
    )
    assert (
        facts_after("I'm vegetarian.", "I'm not vegetarian anymore. Not me, my wife still is.")
        == []
    )


def test_in_one_update_only_what_is_named_goes() -> None:
    turns = (
        "I'm allergic to hazelnuts and I have eczema.",
        "AI: Noted.",
        "Sorry, I meant my mom has eczema.",
    )
    assert said_in_one_update(*turns) == ["User is allergic to hazelnuts"]


@pytest.mark.parametrize(
    ("turns", "stored"),
    [
        # the message after names one thing of a list said before: the others stay
        (
            ("I have gout, tinnitus and migraines.", "Sorry, I meant my dad has tinnitus."),
            ["User has gout", "User has migraines"],
        ),
        (("我对芒果和蟹过敏。", "说错了，我是说我老婆对蟹过敏。"), ["用户对芒果过敏"]),
        # "me too" in the message after that: the user's again
        (
            ("I'm allergic to kiwi.", "I mean my niece is.", "Same here."),
            ["User is allergic to kiwi"],
        ),
        (("我对芒果过敏。", "不是我，是我侄女。", "我也是。"), ["用户对芒果过敏"]),
        # said in full the other way round: a contrast
        (
            ("I don't drink coffee.", "AI: Noted.", "Not me, my wife drinks coffee daily."),
            ["User does not drink coffee"],
        ),
    ],
)
def test_across_messages_only_what_is_theirs_goes(
    turns: tuple[str, ...], stored: list[str]
) -> None:
    assert said_in_one_update(*turns) == stored


@pytest.mark.parametrize(
    ("said", "stored"),
    [
        # the user said to be in it after all, in words of their own
        (
            "I'm allergic to kiwi. I mean my niece is. I'm allergic too.",
            ["User is allergic to kiwi"],
        ),
        ("我对芒果过敏。我是说我侄女。其实我也过敏。", ["用户对芒果过敏"]),
        # said in full the other way round: a contrast
        ("I can't drink milk. Not me, my wife drinks milk daily.", ["User cannot drink milk"]),
        ("我不吃羊肉。不是我，是我老婆吃羊肉。", ["用户不吃羊肉"]),
        # two needs said with one "I'm": both kept (a need kept is the safer error)
        (
            "I'm vegetarian and allergic to kiwi. I mean my niece is.",
            ["User is vegetarian", "User is allergic to kiwi"],
        ),
        # 我说的是/我指的是 + what is no need: no fact
        ("我说的是我老家的菜。", []),
        ("我指的是我不吃香菜。", ["用户不吃香菜"]),
    ],
)
def test_in_a_message_only_what_is_theirs_goes(said: str, stored: list[str]) -> None:
    assert facts_after(said) == stored


@pytest.mark.parametrize(
    ("said", "stored"),
    [
        # a thing is named whole: not inside a longer thing of the list, nor a word for kin…
        ("我对蟹和蟹黄过敏。不好意思，我是说我女儿对蟹黄过敏。", ["用户对蟹过敏"]),
        ("我对芝麻和奶过敏。不好意思，我是说我奶奶对芝麻过敏。", ["用户对奶过敏"]),
        # …nor by a longer word starting with it; a need of things the vocabulary cannot
        # tell apart goes only when each is named, else it stays whole
        (
            "I'm allergic to oats and oatcakes. Sorry, I meant my son is allergic to oatcakes.",
            ["User is allergic to oats and oatcakes"],
        ),
        (
            "I'm allergic to kiwis and latex. Sorry, I meant my son is allergic to kiwis.",
            ["User is allergic to latex"],
        ),
        (
            "I'm allergic to lentils and lemons. Sorry, I meant my son is allergic to lemons.",
            ["User is allergic to lentils and lemons"],
        ),
    ],
)
def test_a_correction_names_a_thing_whole(said: str, stored: list[str]) -> None:
    assert facts_after(said) == stored


@pytest.mark.parametrize(
    ("text", "negative"),
    [
        ("I mean my dad doesn't.", True),
        ("I mean my dad is not.", True),
        ("I mean my dad is.", False),
    ],
)
def test_a_verb_said_short_says_whether_it_is_negated(text: str, negative: bool) -> None:
    said = theirs(text)
    assert said is not None and said.negative is negative
    assert theirs("Sorry, I meant my nephew has it.").negative is None  # (said in full)
