from __future__ import annotations

import json

import pytest
from pydantic import ValidationError

from deerflow_memory import Fact, FactCategory, MemoryDocument, MemoryUpdate, UpdateParseError
from deerflow_memory.models import SourceType

DEERFLOW_V1 = {
    "version": "1.0",
    "lastUpdated": "2026-06-30T08:00:00.000000Z",
    "user": {
        "workContext": {
            "summary": "Senior engineer working on DeerFlow.",
            "updatedAt": "2026-06-30T08:00:00Z",
        },
        "personalContext": {"summary": "Prefers concise answers.", "updatedAt": ""},
        "topOfMind": {"summary": "Preparing a release.", "updatedAt": ""},
    },
    "history": {
        "recentMonths": {"summary": "Shipped the memory module.", "updatedAt": ""},
        "earlierContext": {"summary": "", "updatedAt": ""},
        "longTermBackground": {"summary": "Ten years of Python.", "updatedAt": ""},
    },
    "facts": [
        {
            "id": "fact_1a2b3c4d",
            "content": "Proficient in Rust",
            "category": "knowledge",
            "confidence": 0.9,
            "createdAt": "2026-06-01T00:00:00Z",
            "source": "thread-1",
        },
        {
            "id": "fact_5e6f7a8b",
            "content": "Writes tests first",
            "category": "behavior",
            "confidence": 0.8,
            "createdAt": "2026-06-02T00:00:00Z",
            "source": "thread-2",
            "sourceError": None,
            "deerflowExtra": {"x": 1},
        },
        {
            "id": "fact_9",
            "content": "Legacy",
            "category": "other",
            "confidence": 0.75,
            "createdAt": "2026-06-03T00:00:00Z",
            "source": "thread-3",
        },
    ],
    "customTopLevel": ["kept"],
}


def test_a_deerflow_v1_document_round_trips_with_unknown_fields() -> None:
    document = MemoryDocument.model_validate(DEERFLOW_V1)
    assert document.revision == 0
    out = json.loads(document.to_json())
    assert out["customTopLevel"] == ["kept"]
    assert out["facts"][0]["category"] == "knowledge"
    assert out["facts"][1]["deerflowExtra"] == {"x": 1}
    assert out["user"]["workContext"]["summary"] == "Senior engineer working on DeerFlow."
    assert out["history"]["longTermBackground"]["summary"] == "Ten years of Python."
    assert MemoryDocument.from_json(document.to_json()) == document


def test_knowledge_stays_knowledge_and_unknown_categories_keep_their_original() -> None:
    document = MemoryDocument.model_validate(DEERFLOW_V1)
    assert document.facts[0].category is FactCategory.KNOWLEDGE
    legacy = document.facts[2]
    assert legacy.category is FactCategory.CONTEXT
    assert json.loads(document.to_json())["facts"][2]["originalCategory"] == "other"


def test_confidence_is_clamped_into_zero_one() -> None:
    assert Fact(content="x", confidence=1.7).confidence == 1.0
    assert Fact(content="x", confidence=-0.2).confidence == 0.0


def test_documents_are_immutable() -> None:
    document = MemoryDocument()
    with pytest.raises(ValidationError):
        document.revision = 3  # type: ignore[misc]


def test_an_empty_document_is_empty() -> None:
    assert MemoryDocument().is_empty()
    assert not MemoryDocument.model_validate(DEERFLOW_V1).is_empty()


def test_update_schema_accepts_camel_and_snake_case() -> None:
    update = MemoryUpdate.from_mapping(
        {
            "user": {"topOfMind": {"summary": "Trip to Japan", "shouldUpdate": True}},
            "newFacts": [
                {
                    "content": "Allergic to peanuts",
                    "category": "preference",
                    "confidence": 0.95,
                    "source_type": "user_stated",
                },
                {
                    "content": "Lives in Berlin",
                    "category": "correction",
                    "sourceError": "Lives in Munich",
                },
            ],
            "facts_to_remove": [{"id": "fact_1", "reason": "superseded"}],
        }
    )
    assert update.user.top_of_mind is not None and update.user.top_of_mind.should_update
    assert update.new_facts[0].source_type is SourceType.USER_STATED
    assert update.new_facts[1].source_error == "Lives in Munich"
    assert update.facts_to_remove[0].id == "fact_1"
    assert not update.is_noop()
    assert MemoryUpdate().is_noop()


@pytest.mark.parametrize("bad", [[], "text", {"newFacts": "x"}, {"user": "x"}])
def test_an_invalid_update_raises_a_typed_error(bad: object) -> None:
    with pytest.raises(UpdateParseError):
        MemoryUpdate.from_mapping(bad)


def test_one_invalid_fact_is_rejected_alone_and_recorded() -> None:
    update = MemoryUpdate.from_mapping(
        {"newFacts": [{"content": ""}, {"content": "Likes tea", "confidence": 0.9}]}
    )
    assert [f.content for f in update.new_facts] == ["Likes tea"]
    [rejection] = update.rejected
    assert rejection.item == "newFacts[0]"
    assert "content" in rejection.reason


def test_malformed_confirmations_and_merges_are_rejected_one_by_one() -> None:
    update = MemoryUpdate.from_mapping(
        {"factsToConfirm": ["fact_a", 5, None], "factsToMerge": [{"ids": ["a", "b"]}, 7]}
    )
    assert update.facts_to_confirm == ("fact_a",)
    assert [m.ids for m in update.facts_to_merge] == [("a", "b")]
    assert {r.item for r in update.rejected} == {
        "factsToConfirm[1]",
        "factsToConfirm[2]",
        "factsToMerge[1]",
    }
