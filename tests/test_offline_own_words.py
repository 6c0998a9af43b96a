"""The offline extractor keeps a lasting statement about the user that no rule knows.

Sentences written for this test (none from the blind tables that measured the
kind in bench/quality.py): positives a rule set cannot list in advance, and the
negatives the last resort must not keep (passing states, talk about the
conversation, one-off requests and events, maybes, someone else, a thing's name).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from deerflow_memory.models import FactCategory
from deerflow_memory.update.offline.own_words import OWN_WORDS_CONFIDENCE, own_words
from deerflow_memory.update.offline.text import candidates_from_text


@pytest.mark.parametrize(
    ("sentence", "expected"),
    [
        ("I play bass in a covers band.", "User plays bass in a covers band"),
        ("I swim before work most days.", "User swims before work most days"),
        ("I watch a lot of Korean dramas", "User watches a lot of Korean dramas"),
        ("I study at night because of my shifts.", "User studies at night because of their shifts"),
        ("I usually cycle to the office.", "User usually cycles to the office"),
        ("I've worn glasses since I was six.", "User has worn glasses since they were six"),
        ("I don't own a car.", "User does not own a car"),
        ("I was born in a small fishing town.", "User was born in a small fishing town"),
        ("我每周六去爬山。", "用户每周六去爬山"),
        ("我家有两只猫和一只乌龟", "用户家有两只猫和一只乌龟"),
        ("我的车是手动挡", "用户的车是手动挡"),
    ],
)
def test_a_lasting_statement_no_rule_knows_is_kept_in_the_third_person(
    sentence: str, expected: str
) -> None:
    contents = [c.content for c in candidates_from_text(sentence)]
    assert contents == [expected]


@pytest.mark.parametrize(
    ("sentence", "category"),
    [
        ("I really enjoy restoring old radios", FactCategory.PREFERENCE),
        ("I'm learning to play chess properly", FactCategory.GOAL),
        ("I run every morning before breakfast", FactCategory.BEHAVIOR),
        ("I ride a motorbike to work", FactCategory.CONTEXT),
        ("我特别爱看纪录片", FactCategory.PREFERENCE),
        ("我每天晚上十点睡觉", FactCategory.BEHAVIOR),
        ("我在一家小书店帮忙", FactCategory.CONTEXT),
    ],
)
def test_the_category_follows_the_wording(sentence: str, category: FactCategory) -> None:
    candidate = own_words(sentence, zh=sentence.startswith("我"))
    assert candidate is not None
    assert candidate.category == category
    assert candidate.confidence == OWN_WORDS_CONFIDENCE
    assert candidate.slot is None


@pytest.mark.parametrize(
    "sentence",
    [
        # a passing state or mood
        "I'm so tired.",
        "I'm not sure about that.",
        "I'm in a terrible mood.",
        "I'm at work until six",
        "我好累啊",
        "我有点饿了",
        # talk about the conversation
        "I think that's right.",
        "I see what you mean.",
        "I hear you, Dana.",
        "I forgot to attach the file.",
        "I like this version better.",
        "我觉得这个方案不错",
        "我不知道怎么弄",
        # a one-off request or errand
        "I need a recipe for a birthday cake.",
        "I'm looking for a gift for my sister.",
        "I'd like the shorter one.",
        "我想找一家安静的咖啡馆",
        "我要一份会议纪要",
        # a single event, past or to come
        "I'll send it tomorrow.",
        "I just finished the report.",
        "I went to the dentist yesterday.",
        "我中午吃了一碗炒饭",
        "我刚到公司",
        # an errand or a state of these days
        "I stopped the container.",
        "I have an idea for the logo.",
        "I have a lot of work this week",
        "I'm working on a new feature.",
        "我最近压力大",
        # a maybe
        "I might take up yoga.",
        "I could probably switch teams.",
        "我可能会去学吉他",
        # someone else, a thing's name
        "I live with a roommate who snores.",
        "我家楼下的超市叫好邻居",
        # a joke or an aside
        "I swear this printer hates me",
        # too short to say anything
        "I agree.",
        "我懂",
    ],
)
def test_what_memory_must_not_keep_is_not_kept(sentence: str) -> None:
    assert candidates_from_text(sentence) == []


def test_a_rule_still_wins_over_the_last_resort() -> None:
    (candidate,) = candidates_from_text("I'm allergic to peanuts.")
    assert candidate.confidence > OWN_WORDS_CONFIDENCE
    assert candidate.constraint


@pytest.mark.parametrize(
    "clause",
    ["", "I", "I 123 456", "我" * 200, "I " + "very " * 40 + "tall", "I'm 😀😀😀"],
)
def test_odd_clauses_give_nothing_and_never_raise(clause: str) -> None:
    assert own_words(clause, zh=clause.startswith("我")) is None


@pytest.mark.parametrize(
    ("sentence", "expected"),
    [
        ("My left shoulder clicks when I lift weights.", "User's left shoulder clicks when"),
        ("My flat is on the fourth floor without a lift", "User's flat is on the fourth floor"),
        ("Board games bring out my competitive side", "User: board games bring out their"),
        ("loud restaurants wear me out", "User: loud restaurants wear them out"),
        ("jazz is my comfort music", "User: jazz is their comfort music"),
        ("lactose intolerant here", "User: lactose intolerant"),
        ("As a night-shift nurse, I sleep in the afternoons.", "User is a night-shift nurse"),
    ],
)
def test_a_statement_about_the_user_without_i_is_kept(sentence: str, expected: str) -> None:
    contents = [c.content for c in candidates_from_text(sentence)]
    assert any(c.startswith(expected) for c in contents), contents


@pytest.mark.parametrize(
    "sentence",
    [
        "My brother gets migraines.",  # someone else
        "My cat hates the vet.",
        "The new update gives me an error.",  # a thing of the moment, with an article
        "This playlist makes me want to dance",
        "Tell me a joke about cats.",  # a request
        "Give me three ideas for dinner",
        "Thanks for reminding me",
        "Rainy days make me sad",  # a feeling
        "You always make my day",  # to the assistant
        "Nothing here",
    ],
)
def test_what_only_looks_like_it_is_not_kept(sentence: str) -> None:
    assert candidates_from_text(sentence) == []


@pytest.mark.parametrize(
    ("sentence", "expected"),
    [
        ("偏头痛好多年了，有什么缓解办法", "用户偏头痛好多年了"),
        ("素食好几年了", "用户素食好几年了"),
        ("程序员一枚，平时久坐", "用户程序员一枚"),
        ("周末一般去郊外骑行", "用户周末一般去郊外骑行"),
    ],
)
def test_a_chinese_clause_without_a_subject_is_the_users(sentence: str, expected: str) -> None:
    assert expected in [c.content for c in candidates_from_text(sentence)]


@pytest.mark.parametrize(
    "sentence",
    [
        "上海是一个很大的城市",  # something else is the subject
        "这家店的面很好吃",
        "帮忙看看这段代码",  # a request, or how the answer should be
        "写得简短一点",
        "每次都这么慢",  # a remark
        "以后再聊吧",
        "从北京到天津要多久",  # a question without its mark
        "你说得对",  # to the assistant
        "中午吃了顿火锅",  # a meal of the day
    ],
)
def test_a_chinese_clause_about_something_else_is_not_the_users(sentence: str) -> None:
    assert candidates_from_text(sentence) == []


@pytest.mark.parametrize(
    ("sentence", "expected"),
    [
        # what the statement is for, said before it
        ("For the camping trip, keep in mind I use an inhaler at night.", "User uses an inhaler"),
        ("quick q: I take levothyroxine every morning, can I drink coffee?", "User takes"),
        ("Heads up — walnuts make my tongue itch, so no walnut cake", "walnuts"),
        # a request after a description does not join it
        ("vegan here, give me a dinner idea", "User: vegan"),
        # a description that justifies what follows
        ("coeliac, so no regular pasta please", "User is coeliac"),
        ("Not much of a cook, so keep recipes simple", "User: Not much of a cook"),
        # an effort, not a task
        ("I'm working on cutting down caffeine", "User is working on cutting down caffeine"),
    ],
)
def test_a_fact_around_a_request_is_kept(sentence: str, expected: str) -> None:
    contents = [c.content for c in candidates_from_text(sentence)]
    assert any(expected in c for c in contents), contents


@pytest.mark.parametrize(
    "sentence",
    [
        "ok, so what do we do next",
        "Thanks, so how long will it take?",
        "That sounds great, so let's book it",
        "Book my table for eight",
        "For dinner tonight, what should I cook?",
    ],
)
def test_replies_and_requests_around_so_keep_nothing(sentence: str) -> None:
    assert candidates_from_text(sentence) == []


def test_not_x_so_y_is_no_correction() -> None:
    (candidate,) = candidates_from_text("Not a big reader, so suggest podcasts instead")
    assert candidate.replace is None and candidate.wrong_value is None


@pytest.mark.parametrize(
    ("sentence", "expected"),
    [
        ("38, married, two kids, based in Leeds", "User is based in Leeds"),
        ("moved to Lisbon last spring for work", "User moved to Lisbon"),
        ("run a small pottery studio, so mornings are busy", "User runs a small pottery studio"),
        ("grew up in a farming village near Kraków", "User grew up in a farming village"),
        ("work as a sound engineer, mostly at night", "User works as a sound engineer"),
    ],
)
def test_a_life_said_without_i_is_the_users(sentence: str, expected: str) -> None:
    contents = [c.content for c in candidates_from_text(sentence)]
    assert any(c.startswith(expected) for c in contents), contents


@pytest.mark.parametrize(
    "sentence", ["Run the tests again", "Walk me through the setup", "Live demo please"]
)
def test_an_order_to_the_assistant_is_no_life(sentence: str) -> None:
    assert candidates_from_text(sentence) == []


@pytest.mark.parametrize(
    "sentence",
    [
        # a value that says nothing: blank-looking or invisible characters, punctuation
        "I like \u3164",
        "I'm allergic to \u200b",
        "My name is \u2800",
        "我对\u200b过敏",
        "I live in !!",
        "My name is -",
        "I'm allergic to \u200b\u00ad",
        "我喜欢\u3164",
        "Call me \u3164",
        # a clause cut before its object (the rest sent in the next message)
        "I work at",
        "I moved to",
        "I work as a",
        "I'm allergic to my",
        "I grew up near",
        "我是一名",
        "I was born in",
        "我住在",
        # ... or before what its verb takes (a "User really likes" was stored)
        "I really like",
        "I usually prefer",
        "I can't stand",
        "I usually use",
        "I play",
        "I don't eat.",
        "我一般用",
        "我住在一个",
        "我住在那个",
        "我的名字是",
        "我老家来自",
        # attack 38: more clauses cut before their object
        "I can't live without",
        "I work for",
        "I usually go for",
        "I usually listen to",
        "I really like to",
        "I really like using",
        "我每天都用",
        "我特别讨厌",
        "我的车是一辆",
        "我的梦想是成为那种",
        "我的目标是每一个",
    ],
)
def test_a_fact_with_no_value_is_not_kept(sentence: str) -> None:
    assert candidates_from_text(sentence) == []


@pytest.mark.parametrize(
    ("sentence", "expected"),
    [
        ("I have a lot to live for", "User has a lot to live for"),
        ("I volunteer at the shelter", "User volunteers at the shelter"),
        ("I work as a nurse", "User works as a nurse"),
        ("我是一名护士", "用户是一名护士"),
        ("My name is 김ㅤ민", "User's name is 김ㅤ민"),
        # complete clauses that end like a cut one (attack 34)
        ("I'm vegan and proud of that.", "User is vegan and proud of that"),
        ("I have a dog I care for", "User has a dog they care for"),
        ("I sleep in.", "User sleeps in"),
        ("My name is An.", "User's name is An"),
        ("My favourite letter is A.", "User's favourite letter is A"),
        ("我姓位。", "用户姓位"),
        # a verb with its object, or one that needs none, or an object put first
        ("I usually use vim", "User usually uses vim"),
        ("I never smoke", "User never smokes"),
        ("I don't drink.", "User does not drink"),
        ("我住在一个小镇", "用户住在一个小镇"),
        ("我喜欢吃", "用户喜欢吃"),
        ("夜宵一般不吃", "用户夜宵一般不吃"),
        # a verb named as what it is, and a rule's value that its frequency cut short
        ("My favourite thing to do is swim.", "User's favourite thing to do is swim"),
        ("My favorite word is love.", "User's favorite word is love"),
        (
            "I get headaches a couple of times a week.",
            "User gets headaches a couple of times a week",
        ),
        ("我每天都用vim", "用户每天都用vim"),
        ("我的车是一辆红色的丰田", "用户的车是一辆红色的丰田"),
    ],
)
def test_a_value_beside_those_words_is_still_kept(sentence: str, expected: str) -> None:
    assert [c.content for c in candidates_from_text(sentence)] == [expected]


def test_a_blank_value_reaches_neither_memory_nor_the_block(tmp_path: Path) -> None:
    from langchain_core.messages import AIMessage, HumanMessage

    from deerflow_memory.config import load_config
    from deerflow_memory.identity import resolve_identity
    from deerflow_memory.inject.format import render_memory
    from deerflow_memory.service import MemoryService

    with MemoryService(load_config(storage_path=tmp_path), register_atexit=False) as service:
        identity = resolve_identity({"configurable": {"user_id": "u", "thread_id": "t"}})
        turns = [
            HumanMessage("I'm allergic to \u200b. I like \u3164. I live in Lisbon."),
            AIMessage("Noted."),
        ]
        service.enqueue(identity, turns)
        service.flush()
        document = service.load(identity)
        assert [f.content for f in document.facts] == ["User lives in Lisbon"]
        block = render_memory(document).text
        assert "User lives in Lisbon" in block  # the summary and the fact, nothing blank
        assert "\u200b" not in block and "\u3164" not in block and "allergic" not in block
