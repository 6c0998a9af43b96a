"""New fact ids never repeat an id the document already uses (stored facts or history)."""

from __future__ import annotations

import uuid
from collections.abc import Iterator

import pytest

from deerflow_memory import models
from deerflow_memory.models import Fact, MemoryDocument, MemoryUpdate, NewFact, new_fact_id
from deerflow_memory.update.apply import apply_update
from deerflow_memory.update.manual import add_manual_fact

# uuid4() answers, in order: the first two start like ids already used below.
DRAWS = ["0000aaaa", "0000bbbb", "0000cccc", "0000dddd"]


@pytest.fixture
def drawn(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    answers = iter(uuid.UUID(hex=head + "0" * 24) for head in DRAWS)
    monkeypatch.setattr(models.uuid, "uuid4", lambda: next(answers))
    yield


def test_a_drawn_id_already_taken_is_drawn_again(drawn: None) -> None:
    assert new_fact_id({"fact_0000aaaa", "fact_0000bbbb"}) == "fact_0000cccc"


STORED = MemoryDocument(
    facts=(Fact(id="fact_0000aaaa", content="Lives in Porto"),),
    superseded_facts=(
        {"id": "fact_0000bbbb", "content": "Lived in Braga", "reason": "moved"},  # type: ignore[arg-type]
    ),
)


def test_an_update_gives_its_new_facts_ids_no_stored_or_past_fact_has(drawn: None) -> None:
    update = MemoryUpdate(new_facts=(NewFact(content="Plays the oboe", confidence=0.9),))
    document = apply_update(STORED, update, thread_id="t", now="2026-03-01T10:00:00Z")
    assert [f.id for f in document.facts] == ["fact_0000aaaa", "fact_0000cccc"]


def test_two_new_facts_of_one_update_get_two_ids(monkeypatch: pytest.MonkeyPatch) -> None:
    answers = iter(uuid.UUID(hex=head + "0" * 24) for head in ["0000cccc", "0000cccc", "0000dddd"])
    monkeypatch.setattr(models.uuid, "uuid4", lambda: next(answers))
    update = MemoryUpdate(
        new_facts=(
            NewFact(content="Plays the oboe", confidence=0.9),
            NewFact(content="Keeps bees", confidence=0.9),
        )
    )
    document = apply_update(STORED, update, thread_id="t", now="2026-03-01T10:00:00Z")
    assert [f.id for f in document.facts] == ["fact_0000aaaa", "fact_0000cccc", "fact_0000dddd"]


def test_a_manual_fact_gets_an_id_no_stored_or_past_fact_has(drawn: None) -> None:
    _, fact = add_manual_fact(STORED, "Speaks Portuguese")
    assert fact.id == "fact_0000cccc"
