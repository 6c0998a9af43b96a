"""Merges the memory model proposes (``factsToMerge``) are applied only when the facts are one.

Attack 20 F7: an answer merging "Is severely allergic to peanuts" into "Enjoys hiking in the
Alps" superseded the allergy, which was then never injected again.
"""

from __future__ import annotations

import json
from pathlib import Path

from langchain_core.messages import AIMessage, HumanMessage

from deerflow_memory.config import MemoryConfig
from deerflow_memory.identity import MemoryIdentity
from deerflow_memory.models import (
    FactCategory,
    FactMerge,
    MemoryDocument,
    MemoryUpdate,
    SourceType,
)
from deerflow_memory.service import MemoryService
from deerflow_memory.storage.file import FileMemoryStorage
from deerflow_memory.update.hygiene import tidy
from deerflow_memory.update.merges import screen_merges
from deerflow_memory.update.queue import UpdateJob
from deerflow_memory.update.updater import MemoryUpdater
from tests.openai_server import OpenAIServer, openai_server  # noqa: F401  (fixture)
from tests.test_hygiene import fact

NOW = "2026-06-01T00:00:00Z"


ALLERGY = fact(
    "fact_allergy",
    "Is severely allergic to peanuts",
    0.9,
    category=FactCategory.CONTEXT,
    constraint=True,
    source_type=SourceType.USER_STATED,
)
HIKING = fact("fact_hiking", "Enjoys hiking in the Alps", 0.95, category=FactCategory.PREFERENCE)


def merged(document: MemoryDocument, *ids: str, **kw: object) -> list[str]:
    update = MemoryUpdate(facts_to_merge=(FactMerge(ids=ids),))
    result = tidy(document, now=NOW, update=update, threshold=1.1, **kw)  # type: ignore[arg-type]
    return sorted(f.id for f in result.document.facts)


def test_a_constraint_is_not_merged_into_an_unrelated_fact_of_another_category() -> None:
    document = MemoryDocument(facts=(ALLERGY, HIKING))
    assert merged(document, "fact_allergy", "fact_hiking") == ["fact_allergy", "fact_hiking"]


def test_facts_of_one_category_that_say_different_things_are_not_merged() -> None:
    peanuts = fact("fact_a", "Is allergic to peanuts", 0.8, constraint=True)
    tree_nuts = fact("fact_b", "Is allergic to tree nuts", 0.9, constraint=True)
    tea = fact("fact_c", "Drinks green tea every morning", 0.95)
    document = MemoryDocument(facts=(peanuts, tree_nuts, tea))
    assert merged(document, "fact_a", "fact_b") == ["fact_a", "fact_b", "fact_c"]
    assert merged(document, "fact_a", "fact_c") == ["fact_a", "fact_b", "fact_c"]


def test_a_constraint_is_merged_only_into_a_fact_that_is_a_constraint_too() -> None:
    flagged = fact("fact_a", "Is allergic to peanuts", 0.8, constraint=True)
    unflagged = fact("fact_b", "User is allergic to peanuts.", 0.95)
    document = MemoryDocument(facts=(flagged, unflagged))
    # The fact kept (the higher confidence) is not marked a constraint: refused.
    assert merged(document, "fact_a", "fact_b") == ["fact_a", "fact_b"]
    # The wording test the service passes knows the kept fact is an allergy too.
    assert merged(
        document, "fact_a", "fact_b", is_constraint=lambda f: "allergic" in f.content
    ) == ["fact_b"]


def test_a_paraphrase_the_model_merges_is_still_merged() -> None:
    short = fact("fact_a", "Prefers short answers", 0.8, category=FactCategory.PREFERENCE)
    concise = fact("fact_b", "Prefers concise answers", 0.9, category=FactCategory.PREFERENCE)
    document = MemoryDocument(facts=(short, concise))
    assert merged(document, "fact_a", "fact_b") == ["fact_b"]


def test_alike_facts_of_two_categories_are_not_merged() -> None:
    short = fact("fact_a", "Prefers short answers", 0.8, category=FactCategory.PREFERENCE)
    concise = fact("fact_b", "Prefers concise answers", 0.9, category=FactCategory.KNOWLEDGE)
    document = MemoryDocument(facts=(short, concise))
    assert merged(document, "fact_a", "fact_b") == ["fact_a", "fact_b"]


def test_a_manual_fact_is_still_never_merged() -> None:
    manual = fact("fact_a", "Prefers short answers", 0.95, source_type=SourceType.MANUAL)
    other = fact("fact_b", "Prefers short answers.", 0.9)
    document = MemoryDocument(facts=(manual, other))
    assert merged(document, "fact_a", "fact_b") == ["fact_a", "fact_b"]


def job(text: str, thread: str) -> UpdateJob:
    return UpdateJob(thread, "alice", None, (HumanMessage(content=text), AIMessage(content="OK.")))


def test_the_updater_reports_a_refused_merge_and_keeps_both_facts(
    openai_server: OpenAIServer,  # noqa: F811
    tmp_path: Path,
) -> None:
    storage = FileMemoryStorage(tmp_path)
    storage.save("alice", None, MemoryDocument(facts=(ALLERGY, HIKING)))
    openai_server.reply(json.dumps({"factsToMerge": [["fact_allergy", "fact_hiking"]]}))
    updater = MemoryUpdater(storage, openai_server.chat_model(), MemoryConfig(update_gate=False))
    result = updater.update(job("What should I pack for the Alps?", "t2"))
    assert [f.id for f in storage.load("alice").facts] == ["fact_allergy", "fact_hiking"]
    [rejection] = result.rejected
    assert rejection.item == "factsToMerge[0]"
    assert rejection.reason.startswith("not merged:")
    assert "peanuts" in rejection.text


def test_the_allergy_stays_injected_after_a_model_answer_merging_it_away(
    openai_server: OpenAIServer,  # noqa: F811
    tmp_path: Path,
) -> None:
    first = {
        "newFacts": [
            {
                "content": "Is severely allergic to peanuts",
                "category": "context",
                "confidence": 0.9,
                "sourceType": "user_stated",
                "constraint": True,
            },
            {"content": "Enjoys hiking in the Alps", "category": "preference", "confidence": 0.95},
        ]
    }
    openai_server.reply(json.dumps(first))
    service = MemoryService(openai_server.memory_config(tmp_path, update_gate=False))
    try:
        me = MemoryIdentity(user_id="alice", agent_name=None, thread_id="t1")
        said = "I'm severely allergic to peanuts and I love hiking in the Alps."
        service.enqueue(me, [HumanMessage(said, id="m1"), AIMessage("Noted!", id="m2")])
        assert service.flush(10).drained
        ids = [f.id for f in service.load(me).facts]
        assert len(ids) == 2
        openai_server.reply(json.dumps({"factsToMerge": [ids]}))
        later = MemoryIdentity(user_id="alice", agent_name=None, thread_id="t2")
        asked = [HumanMessage("What should I pack?", id="q1"), AIMessage("Boots.", id="q2")]
        service.enqueue(later, asked)
        assert service.flush(10).drained
        assert openai_server.request_count == 2
        assert sorted(f.id for f in service.load(me).facts) == sorted(ids)
        assert "peanuts" in service.memory_block(me).context
    finally:
        service.close()


def test_a_refused_merge_is_named_by_its_place_in_the_models_answer() -> None:
    update = MemoryUpdate.from_mapping(
        {
            "factsToMerge": [
                7,
                {"ids": ["fact_allergy", "fact_hiking"]},
                {"ids": ["fact_x", "fact_y"]},
            ]
        }
    )
    screened = screen_merges(update, (ALLERGY, HIKING))
    assert [r.item for r in screened.rejected] == ["factsToMerge[0]", "factsToMerge[1]"]
    assert [m.ids for m in screened.facts_to_merge] == [("fact_x", "fact_y")]
