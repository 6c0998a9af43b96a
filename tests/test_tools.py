"""The search_memory tool: current and superseded facts of the caller only, with dates."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from langchain_core.messages import ToolMessage
from langgraph.checkpoint.memory import InMemorySaver

from deerflow_memory import MemoryConfig, MemoryDocument
from deerflow_memory.graph import create_memory_agent
from deerflow_memory.models import Fact, FactCategory, SupersededFact
from deerflow_memory.service import MemoryService
from deerflow_memory.tools import search_document
from tests.tool_model import OneToolCallModel


def document() -> MemoryDocument:
    return MemoryDocument(
        facts=(
            Fact(
                content="Lives in Berlin",
                category=FactCategory.CORRECTION,
                source_error="Lives in Munich",
                created_at="2026-11-29T10:00:00Z",
                source="thread-nov",
            ),
            Fact(content="Likes jazz", created_at="2026-08-01T00:00:00Z", source="thread-aug"),
        ),
        superseded_facts=(
            SupersededFact(
                id="f-old",
                content="Lives in Munich",
                created_at="2026-07-12T09:00:00Z",
                source="thread-july",
                superseded_at="2026-11-29T10:00:00Z",
                reason="moved to Berlin",
            ),
        ),
    )


def searching_model() -> OneToolCallModel:
    """Calls search_memory with the user's words, then answers with the tool's text."""
    return OneToolCallModel(
        tool="search_memory", args=lambda text: {"query": text}, reply_prefix="From memory: "
    )


def test_search_finds_current_and_superseded_facts_with_when_and_where() -> None:
    lines = search_document(document(), "Where did I live, Munich?")
    assert lines[0].startswith("- [no longer current since 2026-11-29: moved to Berlin]")
    assert "Lives in Munich (told 2026-07-12 in thread thread-july)" in lines[0]
    assert not any("jazz" in line for line in lines)


def test_an_empty_query_lists_everything_and_an_unrelated_one_nothing() -> None:
    assert len(search_document(document(), "")) == 3
    assert search_document(document(), "quantum chromodynamics") == []


@pytest.fixture
def service(tmp_path: Path) -> Iterator[MemoryService]:
    with MemoryService(MemoryConfig(storage_path=tmp_path), register_atexit=False) as memory:
        yield memory


def test_the_agent_answers_what_the_user_said_before_and_only_for_that_user(
    service: MemoryService,
) -> None:
    service.storage.save("ana", None, document())
    graph = create_memory_agent(
        searching_model(), service=service, memory_tools=True, checkpointer=InMemorySaver()
    )
    state = graph.invoke(
        {"messages": [("user", "When did I say I lived in Munich?")]},
        {"configurable": {"user_id": "ana", "thread_id": "q"}},
    )
    tool_result = next(m for m in state["messages"] if isinstance(m, ToolMessage))
    assert "told 2026-07-12 in thread thread-july" in tool_result.text
    assert "2026-07-12" in state["messages"][-1].text

    other = graph.invoke(
        {"messages": [("user", "When did I say I lived in Munich?")]},
        {"configurable": {"user_id": "ben", "thread_id": "q-ben"}},
    )
    other_result = next(m for m in other["messages"] if isinstance(m, ToolMessage)).text
    assert other_result.startswith("Nothing in memory matches")
    assert "told" not in other_result


def test_search_memory_looks_in_the_runs_tenant(service: MemoryService) -> None:
    service.for_tenant("shop").storage.save("ana", None, document())
    graph = create_memory_agent(
        searching_model(), service=service, memory_tools=True, checkpointer=InMemorySaver()
    )
    question = {"messages": [("user", "When did I say I lived in Munich?")]}

    def found(tenant: str | None) -> str:
        run = {"configurable": {"user_id": "ana", "thread_id": f"q-{tenant}", "tenant_id": tenant}}
        state = graph.invoke(question, run)
        return next(m for m in state["messages"] if isinstance(m, ToolMessage)).text

    assert "told 2026-07-12 in thread thread-july" in found("shop")
    assert found("travel").startswith("Nothing in memory matches")
    assert found(None).startswith("Nothing in memory matches")


def test_a_forgotten_secret_is_not_searched_back_by_the_model() -> None:
    # forget says the model no longer reads it (newcomer 46): search_memory listed it
    def gone(fact_id: str, content: str, reason: str = "deleted by the user") -> SupersededFact:
        return SupersededFact(
            id=fact_id,
            content=content,
            category=FactCategory.CONTEXT,
            superseded_at="2026-11-02T10:00:00Z",
            reason=reason,
        )

    doc = MemoryDocument(
        superseded_facts=[
            gone("f_code", "The code for the bike shed is 6093"),
            gone("f_edit", "The bike shed padlock code is 7714", reason="edited by the user"),
            gone("f_pin", "The allotment gate PIN is 3361", reason="Deleted by the user "),
            gone("f_shed", "Keeps the bike in a shed at the allotment"),
        ]
    )
    lines = search_document(doc, "what is the code for my bike shed")
    assert len(lines) == 1 and "allotment" in lines[0]
    hidden = ("6093", "7714", "3361")  # (a reason written differently in a file too)
    assert not any(code in line for line in search_document(doc, "") for code in hidden)
