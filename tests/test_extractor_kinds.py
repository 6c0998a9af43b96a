"""Offline extractor: the kinds of statement a blind check found missed, with fresh sentences.

A table written by someone who never saw the rules named nine kinds of failure
(facts before a question, allergies said as reactions, diets and habits,
medical states, background, ongoing goals, retractions, and on the other side
moods and hypotheticals). None of these sentences is in that table or in
``bench/data/extractor_kinds.tsv``: they check that the rules cover a kind, not
one wording. Each kind has negatives that look alike but must store nothing.
"""

from __future__ import annotations

import pytest
from langchain_core.messages import AIMessage, HumanMessage

from deerflow_memory.models import Fact, FactCategory, MemoryDocument
from deerflow_memory.update.extraction import ExtractionRequest
from deerflow_memory.update.offline.extractor import OfflineExtractor
from deerflow_memory.update.offline.text import candidates_from_text


def contents(text: str) -> list[str]:
    return [c.content for c in candidates_from_text(text) if c.content]


def retracted(text: str) -> list[str]:
    return [c.retract for c in candidates_from_text(text) if c.retract]


def stores(text: str, word: str) -> bool:
    return any(word.casefold() in c.casefold() for c in contents(text))


@pytest.mark.parametrize(
    ("sentence", "word"),
    [
        # a fact, then a question or a request in the same sentence
        ("I'm coeliac, which pasta brands are safe?", "coeliac"),
        ("I'm allergic to walnuts - what can I bake instead?", "walnuts"),
        ("I live in Ghent, any good cafés nearby?", "Ghent"),
        ("我对虾过敏，火锅能点什么？", "虾"),
        ("我有哮喘，可以去爬山吗", "哮喘"),
        ("I have IBS so what should I avoid?", "IBS"),
        # allergies and intolerances said as a reaction
        ("Peaches make my throat itch.", "peaches"),
        ("Sulfa drugs give me a rash.", "sulfa"),
        ("I get hives from wool.", "wool"),
        ("I react badly to morphine.", "morphine"),
        ("Milk doesn't agree with me.", "milk"),
        ("Onions give me stomach cramps.", "onions"),
        ("im allergic to bee stings 🐝", "bee stings"),
        ("榴莲我碰不得，会过敏", "榴莲"),
        ("我一吃花生就起疹子", "花生"),
        ("我对乳胶过敏🙁", "乳胶"),
        # diets and eating habits
        ("I've been pescatarian for two years.", "pescatarian"),
        ("I do intermittent fasting.", "fasting"),
        ("No dairy for me.", "dairy"),
        ("I'm egg free.", "egg"),
        ("我吃全素", "素"),
        ("我在控盐", "盐"),
        ("我吃素五年了", "素"),
        ("我晚上不吃米饭", "米饭"),
        # medical conditions and states
        ("I have rosacea.", "rosacea"),
        ("I'm on statins.", "statins"),
        ("My iron is low.", "iron"),
        ("I've had tinnitus for years.", "tinnitus"),
        ("I'm long-sighted.", "long-sighted"),
        ("我是糖尿病患者", "糖尿病"),
        ("我有肩周炎", "肩周炎"),
        ("我有甲减", "甲减"),
        ("我腰不好", "腰"),
        ("我散光两百度", "散光"),
        # background and routines
        ("Most evenings I knit.", "knit"),
        ("My husband and I live in Galway.", "Galway"),
        ("I sail on the lake.", "sail"),
        ("I'm an early riser.", "early riser"),
        ("我是夜猫子", "夜猫子"),
        ("我在广州上班，做测试", "测试"),
        # goals and ongoing efforts
        ("I'm training for a century ride.", "century ride"),
        ("Hoping to move into UX research next year.", "UX research"),
        ("I'm trying to eat less sugar.", "sugar"),
        ("I'm teaching myself Go.", "Go"),
        ("我今年一定要学会游泳", "游泳"),
        ("我在备考注会", "注会"),
    ],
)
def test_each_missed_kind_now_stores_its_fact(sentence: str, word: str) -> None:
    assert stores(sentence, word), contents(sentence)


@pytest.mark.parametrize(
    ("sentence", "withdrawn"),
    [
        ("Forget what I said about being a runner.", "runner"),
        ("Scrap the Lisbon trip, it's off.", "lisbon"),
        ("I'm no longer on a paleo diet.", "paleo"),
        ("I used to hate tofu but now I love it.", "tofu"),
        ("我现在不喝奶茶了", "奶茶"),
        ("之前说我住在武汉是说错了", "武汉"),
        ("跑步计划放弃了", "跑步"),
        ("Not a member anymore.", "member"),
        ("I've stopped going to choir.", "choir"),
        ("Please forget that I'm a smoker.", "smoker"),
    ],
)
def test_retractions_name_what_they_withdraw(sentence: str, withdrawn: str) -> None:
    assert any(withdrawn in r for r in retracted(sentence)), candidates_from_text(sentence)


@pytest.mark.parametrize(
    ("sentence", "old", "new"),
    [
        ("Correction: I'm not an accountant, I'm an actuary.", "accountant", "actuary"),
        ("更正一下，我不是护士，是医生", "护士", "医生"),
    ],
)
def test_not_x_but_y_withdraws_x_and_states_only_y(sentence: str, old: str, new: str) -> None:
    assert retracted(sentence) == [old]
    assert [c for c in contents(sentence) if old in c] == []  # never "User is not an accountant"
    assert stores(sentence, new)


@pytest.mark.parametrize(
    "sentence",
    [
        # questions only, other people, passing states
        "Am I gluten intolerant, do you think?",
        "My daughter is allergic to kiwi, what snacks are safe?",
        "我是不是对花粉过敏，怎么查？",
        "My son gets a rash from sand.",
        "This film gives me chills.",
        "Coffee makes me cheerful.",
        "我儿子吃芒果会起疹子",
        "这首歌让我想哭",
        "I don't drink coffee today.",
        "No ice in this one, please.",
        "我妈在控糖",
        "I have a headache today.",
        "My mum has arthritis.",
        "我今天肚子疼",
        "我心情不好",
        "My sister plays the cello.",
        "I'm a nice person.",
        "We shipped the new release.",
        "I'm trying to open this spreadsheet.",
        "My friend is training for a marathon.",
        "我在准备午饭",
        # retraction look-alikes
        "Never mind, it's fine.",
        "I'm not a lawyer, but is this contract fair?",
        "我朋友不喝奶茶了",
        "我不喝了，饱了",
        "Forget that I asked.",
        "计划取消了",
        "我不是专家，但是这个对吗？",
        "We have a release on Friday.",
        # moods
        "I hate Mondays lol",
        "ugh I hate waiting",
        "烦死了，又下雨",
        "我烦透了这个报告",
        # hypotheticals
        "Maybe I'll take up painting.",
        "I might move to Oslo someday.",
        "以后说不定会养只狗",
        "要是能每天睡到自然醒就好了",
    ],
)
def test_look_alikes_of_each_kind_store_nothing(sentence: str) -> None:
    assert candidates_from_text(sentence) == []


def _update_over(stored: str, said: str) -> tuple[list[str], list[str]]:
    document = MemoryDocument(
        facts=(Fact(id="old", content=stored, category=FactCategory.CONTEXT, confidence=0.9),)
    )
    request = ExtractionRequest(document, [HumanMessage(said), AIMessage("Noted.")], "t2")
    update = OfflineExtractor().extract(request)
    return [r.id for r in update.facts_to_remove], [f.content for f in update.new_facts]


def test_a_correction_supersedes_the_stored_job_and_stores_the_new_one() -> None:
    removed, added = _update_over(
        "User is a designer", "Correction: I'm not a designer, I'm a coder."
    )
    assert removed == ["old"] and added == ["User is a coder"]


def test_quitting_a_job_withdraws_the_stored_employer() -> None:
    removed, added = _update_over("User works at Initech", "I quit my job last month.")
    assert removed == ["old"] and added == ["User quit their job last month"]


def test_a_taste_that_changed_replaces_the_old_one() -> None:
    removed, added = _update_over("User hates tofu", "I used to hate tofu but now I love it.")
    assert removed == ["old"] and added == ["User loves tofu"]
