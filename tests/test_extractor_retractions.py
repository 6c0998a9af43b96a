"""Offline extractor: retractions and needs the first pass of issue 13 missed (fresh sentences)."""

from __future__ import annotations

import pytest
from langchain_core.messages import AIMessage, HumanMessage

from deerflow_memory.models import Fact, FactCategory, MemoryDocument, MemoryUpdate
from deerflow_memory.update.extraction import ExtractionRequest
from deerflow_memory.update.offline.extractor import OfflineExtractor
from deerflow_memory.update.offline.text import candidates_from_text


def _update_over(stored: str, said: str) -> MemoryUpdate:
    document = MemoryDocument(
        facts=(Fact(id="old", content=stored, category=FactCategory.PREFERENCE, confidence=0.9),)
    )
    request = ExtractionRequest(document, [HumanMessage(said), AIMessage("Noted.")], "t2")
    return OfflineExtractor().extract(request)


@pytest.mark.parametrize(
    ("stored", "said"),
    [
        ("User is pescatarian", "I stopped being pescatarian a few months ago"),
        ("User likes techno", "I've gone off techno"),
        ("User loves musicals", "I got tired of musicals"),
        ("用户喜欢摇滚乐", "我现在不喜欢摇滚乐了"),
        ("用户对猫毛过敏", "我现在对猫毛不过敏了"),
        ("用户对酒精敏感", "我已经对酒精不敏感了"),
    ],
)
def test_a_retraction_takes_the_old_fact_out_of_current_memory(stored: str, said: str) -> None:
    update = _update_over(stored, said)
    assert [r.id for r in update.facts_to_remove] == ["old"]
    assert update.facts_to_remove[0].reason
    assert not any(stored in f.content for f in update.new_facts)


def test_a_withdrawn_allergy_leaves_other_facts_about_the_same_thing_alone() -> None:
    document = MemoryDocument(
        facts=(
            Fact(id="allergy", content="用户对猫毛过敏", confidence=0.9),
            Fact(id="pets", content="用户养了两只猫毛很长的猫", confidence=0.9),
        )
    )
    request = ExtractionRequest(document, [HumanMessage("我对猫毛不过敏了"), AIMessage("好")], "t")
    removed = [r.id for r in OfflineExtractor().extract(request).facts_to_remove]
    assert removed == ["allergy"]


@pytest.mark.parametrize(
    ("said", "fragment"),
    [
        ("I've got a slight allergy to kiwi", "kiwi"),
        ("I keep halal", "halal"),
        ("我坚决不吃牛肉", "牛肉"),
        ("我对味精特别敏感", "味精"),
    ],
)
def test_needs_in_these_wordings_are_stored_as_constraints(said: str, fragment: str) -> None:
    [candidate] = candidates_from_text(said)
    assert fragment in candidate.content
    assert candidate.constraint
