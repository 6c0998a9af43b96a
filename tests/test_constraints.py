"""Constraints (allergies, diet, medical and accessibility needs) are marked, kept and injected."""

from __future__ import annotations

import json

from deerflow_memory.models import Fact, MemoryDocument, MemoryUpdate, NewFact
from deerflow_memory.update.apply import apply_update
from deerflow_memory.update.prompt import SYSTEM_PROMPT, memory_for_prompt, parse_update

NOW = "2026-03-01T10:00:00Z"


def _apply(document: MemoryDocument, *facts: NewFact, max_facts: int = 200) -> MemoryDocument:
    return apply_update(
        document,
        MemoryUpdate(new_facts=facts),
        thread_id="t-1",
        now=NOW,
        max_facts=max_facts,
    )


# --- the marker ---------------------------------------------------------------------------


def test_a_constraint_is_written_as_true_and_an_ordinary_fact_writes_no_constraint_key() -> None:
    document = MemoryDocument(
        facts=(
            Fact(id="fact_a", content="Cannot digest gluten", constraint=True),
            Fact(id="fact_b", content="Collects vinyl records"),
        )
    )
    stored = json.loads(document.to_json())["facts"]
    assert stored[0]["constraint"] is True
    assert "constraint" not in stored[1]
    assert MemoryDocument.from_json(document.to_json()).facts[0].constraint is True


def test_the_model_answer_marks_a_constraint_and_applying_it_keeps_the_mark() -> None:
    update = parse_update(
        '{"newFacts": [{"content": "Uses a wheelchair", "category": "context", '
        '"confidence": 0.95, "sourceType": "user_stated", "constraint": true}]}'
    )
    document = apply_update(MemoryDocument(), update, thread_id="t-1", now=NOW)
    assert [(f.content, f.constraint) for f in document.facts] == [("Uses a wheelchair", True)]


def test_restating_a_stored_fact_as_a_constraint_marks_the_stored_fact() -> None:
    stored = MemoryDocument(facts=(Fact(id="fact_x", content="Avoids caffeine", confidence=0.8),))
    document = _apply(stored, NewFact(content="avoids caffeine", confidence=0.8, constraint=True))
    assert [(f.id, f.constraint) for f in document.facts] == [("fact_x", True)]


def test_a_full_memory_evicts_ordinary_facts_before_a_low_confidence_constraint() -> None:
    stored = MemoryDocument(
        facts=(
            Fact(id="fact_c", content="Takes insulin daily", confidence=0.71, constraint=True),
            Fact(id="fact_d", content="Enjoys crossword puzzles", confidence=0.8),
        )
    )
    document = _apply(stored, NewFact(content="Plays the cello", confidence=0.9), max_facts=2)
    assert {f.id for f in document.facts} >= {"fact_c"}
    assert "Enjoys crossword puzzles" not in {f.content for f in document.facts}


def test_the_update_prompt_asks_the_model_to_mark_constraints_and_shows_stored_marks() -> None:
    assert '"constraint": false' in SYSTEM_PROMPT
    for need in ("allergy", "diet", "medical", "accessibility"):
        assert need in SYSTEM_PROMPT
    hearing = Fact(id="fact_e", content="Is hard of hearing", constraint=True)
    document = MemoryDocument(facts=(hearing,))
    shown = json.loads(memory_for_prompt(document))["facts"][0]
    assert shown["constraint"] is True
