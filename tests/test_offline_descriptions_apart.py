"""Two descriptions said with one "I'm" are two facts, each read by its own rule.

Before: "I'm vegan and allergic to nuts" matched no rule as a whole, and the own-words
fallback stored it as one fact at its low confidence, with no need marked. So a laugh after
it ("…lol") dropped it as a mood, the allergy with it; a list after the second description
stopped at its second item ("I'm diabetic and allergic to peanuts, shrimp, kiwi, sesame and
soy" kept peanuts and shrimp); and a verb the second description opened with ("…and take
warfarin", "…and have asthma") was read only as part of the joined fact.

Now each description is read as said alone ("I'm vegan", "I'm allergic to nuts", "I take
warfarin") when each so read is a rule's statement; a part only the fallback reads keeps the
sentence as it was ("I'm married and we have a toddler" stores no "User is we have…").

Sentences are this project's own.
"""

from __future__ import annotations

import pytest
from langchain_core.messages import AIMessage, HumanMessage

from deerflow_memory.inject.constraints import is_constraint
from deerflow_memory.models import Fact, MemoryDocument
from deerflow_memory.update.extraction import ExtractionRequest
from deerflow_memory.update.offline.extractor import OfflineExtractor
from deerflow_memory.update.offline.text import candidates_from_text
from tests.test_quality_kinds import facts_after


@pytest.mark.parametrize(
    ("said", "stored"),
    [
        (
            "I'm vegan and allergic to cashews lol.",
            ["User is vegan", "User is allergic to cashews"],
        ),
        ("I'm coeliac and allergic to kiwi ugh.", ["User is coeliac", "User is allergic to kiwi"]),
        ("I'm a chef and allergic to sesame.", ["User is a chef", "User is allergic to sesame"]),
    ],
)
def test_a_laugh_after_two_descriptions_loses_neither(said: str, stored: list[str]) -> None:
    assert facts_after(said) == stored


@pytest.mark.parametrize(
    ("said", "listed"),
    [
        (
            "I'm coeliac and allergic to almonds, prawns, lentils and mustard.",
            "User is allergic to almonds, prawns, lentils and mustard",
        ),
        (
            "I'm retired and allergic to pecans, clams, celery, lupin and oats.",
            "User is allergic to pecans, clams, celery, lupin and oats",
        ),
        (
            "I'm diabetic, vegan and allergic to squid, plums, rye and mustard.",
            "User is allergic to squid, plums, rye and mustard",
        ),
        (
            "I'm pregnant and allergic to cod and hazelnuts.",
            "User is allergic to cod and hazelnuts",
        ),
    ],
)
def test_a_list_after_the_second_description_is_kept_whole(said: str, listed: str) -> None:
    stored = facts_after(said)
    assert listed in stored
    assert len(stored) == len(said.split(",")) + 1 - listed.count(",")  # one per description


@pytest.mark.parametrize(
    ("said", "need"),
    [
        ("I'm single and take metformin.", "User takes metformin"),
        ("I'm a baker and have asthma.", "User has asthma"),
        ("I'm vegan and allergic to soy.", "User is allergic to soy"),
    ],
)
def test_the_need_of_the_second_description_is_a_need(said: str, need: str) -> None:
    needs = {c.content: c.constraint for c in candidates_from_text(said)}
    assert needs.get(need) is True
    assert len(needs) == 2


def test_a_part_the_rules_do_not_read_keeps_the_sentence_as_it_was() -> None:
    stored = facts_after("I'm married and we have a toddler.")
    assert stored and not any(fact.startswith("User is we") for fact in stored)


def test_two_descriptions_of_one_thing_are_one_fact() -> None:
    assert len(facts_after("I'm gluten free and gluten-free.")) == 1


@pytest.mark.parametrize(
    ("joined", "later", "stays", "goes"),
    [
        ("User is single and allergic to sulfa drugs", "I got engaged.", "sulfa", "single"),
        ("User is pregnant and takes insulin", "I had the baby.", "insulin", "pregnant"),
        ("User is a pharmacist and has coeliac disease", "I retired.", "coeliac", "pharmacist"),
    ],
)
def test_a_joined_fact_stored_before_is_still_read_part_by_part(
    joined: str, later: str, stays: str, goes: str
) -> None:
    # a document written before this change, or by a memory model, holds them as one fact
    document = MemoryDocument(facts=(Fact(content=joined),))
    said = [HumanMessage(later), AIMessage("Noted.")]
    request = ExtractionRequest(document, said, "t", is_constraint=is_constraint)
    update = OfflineExtractor().extract(request)
    assert [r.id for r in update.facts_to_remove] == [document.facts[0].id]
    new = [f.content for f in update.new_facts]
    assert any(stays in fact for fact in new)
    assert not any(goes in fact for fact in new)
