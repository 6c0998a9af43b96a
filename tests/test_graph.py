"""Memory nodes in real LangGraph graphs: identity, isolation, sync/async, ReAct, summaries."""

from __future__ import annotations

import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from langchain_core.messages import AIMessage, BaseMessage, HumanMessage, SystemMessage, ToolMessage
from langchain_core.tools import tool
from langgraph.checkpoint.memory import InMemorySaver
from langgraph.graph import END, START, StateGraph
from langgraph.graph.message import MessagesState

from deerflow_memory import InvalidNameError, MemoryConfig, StateSchemaError
from deerflow_memory.graph import (
    MemoryState,
    add_memory_nodes,
    create_memory_agent,
    memory_model_input,
)
from deerflow_memory.service import MemoryService
from tests.tool_model import OneToolCallModel


@pytest.fixture
def service(tmp_path: Path) -> Iterator[MemoryService]:
    config = MemoryConfig(
        storage_path=tmp_path / "memory", debounce_seconds=0.05, max_wait_seconds=1
    )
    with MemoryService(config, register_atexit=False) as memory:
        yield memory


def run_config(user: str, thread: str) -> dict[str, Any]:
    return {"configurable": {"user_id": user, "thread_id": thread}}


def custom_events(graph: Any, payload: Any, config: dict[str, Any]) -> list[dict[str, Any]]:
    return [
        chunk
        for mode, chunk in graph.stream(payload, config, stream_mode=["custom", "values"])
        if mode == "custom"
    ]


@tool
def weather(city: str) -> str:
    """Weather of a city."""
    return f"sunny in {city}"


def test_a_fact_told_in_one_thread_is_injected_in_another_thread(service: MemoryService) -> None:
    graph = create_memory_agent(service=service, checkpointer=InMemorySaver())
    graph.invoke(
        {"messages": [("user", "I don't eat seafood and I'm allergic to peanuts.")]},
        run_config("alice", "t1"),
    )
    assert service.flush(10)
    state = graph.invoke(
        {"messages": [("user", "Recommend a restaurant in Kyoto.")]}, run_config("alice", "t2")
    )
    context = state["memory_context"]
    assert "<user_memory>" in context
    assert "seafood" in context and "peanut" in context
    # the block is in state, not in the message history
    assert all("<user_memory>" not in m.text for m in state["messages"])
    # the offline stand-in was given the memory and says so
    assert "peanut" in state["messages"][-1].text


def test_users_never_see_each_others_memory(service: MemoryService) -> None:
    graph = create_memory_agent(service=service, checkpointer=InMemorySaver(), summarize=False)
    rng = random.Random(7)
    foods = [
        "peanuts",
        "shellfish",
        "sesame",
        "kiwi",
        "soy",
        "gluten",
        "mustard",
        "celery",
        "lupin",
        "walnuts",
        "almonds",
        "eggs",
    ]
    users = {f"user-{i}": food for i, food in enumerate(foods)}
    turns = [(user, f"I'm allergic to {food}.") for user, food in users.items()]
    turns += [(user, "What's a good snack for a hike?") for user in users]
    rng.shuffle(turns)
    for n, (user, text) in enumerate(turns):
        graph.invoke({"messages": [("user", text)]}, run_config(user, f"{user}-thread-{n % 2}"))
        if rng.random() < 0.3:
            service.flush(10)
    assert service.flush(10)
    for user, food in users.items():
        context = graph.invoke(
            {"messages": [("user", "Any snack ideas?")]}, run_config(user, "fresh")
        )["memory_context"]
        assert food in context
        for other, other_food in users.items():
            if other != user:
                assert other_food not in context, f"{user} saw {other}'s memory"


def test_the_nodes_work_under_invoke_stream_ainvoke_and_astream(service: MemoryService) -> None:
    import asyncio

    graph = create_memory_agent(service=service, checkpointer=InMemorySaver())
    graph.invoke(
        {"messages": [("user", "My name is Mei and I live in Osaka.")]}, run_config("mei", "a")
    )
    assert service.flush(10)

    sync_stream = custom_events(graph, {"messages": [("user", "hello")]}, run_config("mei", "b"))
    kinds = [e["type"] for e in sync_stream]
    assert kinds.count("memory_injection") == 1 and kinds.count("memory_capture") == 1
    injection = next(e for e in sync_stream if e["type"] == "memory_injection")
    assert injection["facts_injected"] >= 1

    async def run_async() -> tuple[dict[str, Any], list[dict[str, Any]]]:
        state = await graph.ainvoke({"messages": [("user", "hello again")]}, run_config("mei", "c"))
        events = [
            chunk
            async for mode, chunk in graph.astream(
                {"messages": [("user", "and again")]},
                run_config("mei", "d"),
                stream_mode=["custom", "values"],
            )
            if mode == "custom"
        ]
        return state, events

    state, events = asyncio.run(run_async())
    assert "Osaka" in state["memory_context"]
    assert [e["type"] for e in events].count("memory_injection") == 1
    assert any(e["type"] == "memory_capture" for e in events)


def test_capture_runs_once_per_user_turn_in_a_react_loop(service: MemoryService) -> None:
    graph = create_memory_agent(
        OneToolCallModel(
            tool="weather", args=lambda _: {"city": "Kyoto"}, reply_prefix="The tool said: "
        ),
        [weather],
        service=service,
        checkpointer=InMemorySaver(),
    )
    events = custom_events(
        graph,
        {"messages": [("user", "I live in Kyoto. What's the weather?")]},
        run_config("ken", "r"),
    )
    state = graph.get_state(run_config("ken", "r")).values
    assert any(isinstance(m, ToolMessage) for m in state["messages"])
    assert [e["type"] for e in events].count("memory_capture") == 1
    assert service.flush(10)
    assert any("Kyoto" in f.content for f in service.storage.load("ken").facts)


def test_add_memory_nodes_wires_an_existing_graph(service: MemoryService) -> None:
    seen: list[list[BaseMessage]] = []

    def agent(state: MemoryState) -> dict[str, Any]:
        model_input = memory_model_input(state, "You are terse.")
        seen.append(model_input)
        return {"messages": [AIMessage(content="noted")]}

    builder = StateGraph(MemoryState)
    builder.add_node("agent", agent)
    builder.add_edge(START, "agent")
    builder.add_edge("agent", END)
    add_memory_nodes(builder, "agent", service=service)
    graph = builder.compile(checkpointer=InMemorySaver())
    graph.invoke({"messages": [("user", "I prefer window seats.")]}, run_config("li", "1"))
    assert service.flush(10)
    graph.invoke({"messages": [("user", "Book me a flight.")]}, run_config("li", "2"))
    system = seen[-1][0]
    assert isinstance(system, SystemMessage)
    assert system.text.startswith("You are terse.")
    assert "window seat" in system.text


def test_a_state_without_memory_context_is_a_clear_error(service: MemoryService) -> None:
    builder = StateGraph(MessagesState)
    builder.add_node("agent", lambda state: {"messages": [AIMessage(content="hi")]})
    with pytest.raises(StateSchemaError, match="memory_context"):
        add_memory_nodes(builder, "agent", service=service)


def test_an_unknown_agent_node_is_a_clear_error(service: MemoryService) -> None:
    builder = StateGraph(MemoryState)
    with pytest.raises(StateSchemaError, match="'agent'"):
        add_memory_nodes(builder, "agent", service=service)


def test_an_unsafe_user_id_is_rejected_before_any_storage_access(service: MemoryService) -> None:
    graph = create_memory_agent(service=service)
    with pytest.raises(InvalidNameError):
        graph.invoke({"messages": [("user", "hi")]}, run_config("../etc", "1"))


def test_a_corrupt_memory_file_does_not_break_the_turn(service: MemoryService) -> None:
    graph = create_memory_agent(service=service, checkpointer=InMemorySaver())
    path = Path(service.config.storage_path) / "users" / "bob" / "memory.json"
    path.parent.mkdir(parents=True)
    path.write_text("{not json", encoding="utf-8")
    events = custom_events(graph, {"messages": [("user", "hi")]}, run_config("bob", "1"))
    injection = next(e for e in events if e["type"] == "memory_injection")
    assert "memory.json" in injection["error"]
    assert path.read_text(encoding="utf-8") == "{not json"


def test_summarization_flushes_removed_facts_to_memory_and_shortens_history(tmp_path: Path) -> None:
    config = MemoryConfig(
        storage_path=tmp_path / "m",
        debounce_seconds=30,  # capture alone would not run before flush(); the hook must
        summarize_after_messages=6,
        summarize_keep_messages=2,
    )
    with MemoryService(config, register_atexit=False) as service:
        graph = create_memory_agent(service=service, checkpointer=InMemorySaver())
        cfg = run_config("sam", "long")
        graph.invoke({"messages": [("user", "I'm allergic to sesame.")]}, cfg)
        for text in ("Tell me about Kyoto.", "And Nara?", "And Osaka?"):
            graph.invoke({"messages": [("user", text)]}, cfg)
        messages = graph.get_state(cfg).values["messages"]
        assert len(messages) <= 1 + 2 + 1
        assert isinstance(messages[0], SystemMessage) and "sesame" in messages[0].text
        assert all("allergic" not in m.text for m in messages[1:])
        assert service.flush(10)
        assert any("sesame" in f.content for f in service.storage.load("sam").facts)


def test_the_summarization_hook_enqueues_before_it_removes(tmp_path: Path) -> None:
    config = MemoryConfig(
        storage_path=tmp_path / "m", summarize_after_messages=3, summarize_keep_messages=2
    )
    with MemoryService(config, register_atexit=False) as service:
        graph = create_memory_agent(service=service, checkpointer=InMemorySaver())
        cfg = run_config("zoe", "t")
        graph.invoke({"messages": [("user", "I'm allergic to kiwi.")]}, cfg)

        def failing_enqueue(*args: Any, **kwargs: Any) -> None:
            raise RuntimeError("queue unavailable")

        service.enqueue = failing_enqueue  # type: ignore[method-assign]
        with pytest.raises(RuntimeError, match="queue unavailable"):
            graph.invoke({"messages": [("user", "Tell me more.")]}, cfg)
        # the removal never happened: the kiwi message is still in the history
        messages = graph.get_state(cfg).values["messages"]
        assert any("kiwi" in m.text for m in messages if isinstance(m, HumanMessage))


def test_the_run_context_picks_whose_memory_is_used(service: MemoryService) -> None:
    graph = create_memory_agent(service=service, checkpointer=InMemorySaver())
    graph.invoke(
        {"messages": [("user", "I live in Porto.")]},
        run_config("ignored", "c1"),
        context={"user_id": "rui"},
    )
    assert service.flush(10)
    assert any("Porto" in f.content for f in service.storage.load("rui").facts)
    assert not service.storage.load("ignored").facts


def test_relevant_mode_injects_guaranteed_facts_and_what_the_request_is_about(
    tmp_path: Path,
) -> None:
    config = MemoryConfig(storage_path=tmp_path / "m", injection_mode="relevant")
    with MemoryService(config, register_atexit=False) as service:
        graph = create_memory_agent(service=service, checkpointer=InMemorySaver())
        cfg = run_config("noa", "setup")
        for text in (
            "I'm allergic to peanuts.",
            "I love jazz.",
            "I live in Porto.",
            "Actually I live in Lisbon, not Porto.",
        ):
            graph.invoke({"messages": [("user", text)]}, cfg)
            assert service.flush(10)
        stored = service.storage.load("noa")
        assert any(f.category.value == "correction" for f in stored.facts)

        events = custom_events(
            graph, {"messages": [("user", "Any jazz bars nearby?")]}, run_config("noa", "q1")
        )
        context = graph.get_state(run_config("noa", "q1")).values["memory_context"]
        assert "jazz" in context and "Lisbon" in context  # relevant + guaranteed
        assert "peanut" in context  # a constraint: always there
        assert "Porto" not in context.replace("(not: User lives in Porto)", "")
        injection = next(e for e in events if e["type"] == "memory_injection")
        assert injection["mode"] == "relevant"

        unrelated = graph.invoke({"messages": [("user", "Hello!")]}, run_config("noa", "q2"))
        assert "Lisbon" in unrelated["memory_context"]  # the correction is always there
        assert "peanut" in unrelated["memory_context"]  # and so is the allergy
        assert "jazz" not in unrelated["memory_context"]


@pytest.mark.parametrize("depth", [33, 300, 900])
def test_a_deeply_nested_unknown_key_is_a_corrupt_file_not_a_broken_turn(
    service: MemoryService, depth: int
) -> None:
    # Valid JSON: 600 levels under one unknown key raised RecursionError into the turn,
    # and 260 loaded but could never be saved again (attack 37).
    import json

    from deerflow_memory.errors import CorruptMemoryError, InvalidDocumentError
    from deerflow_memory.update.import_check import read_import

    nested: object = "x"
    for _ in range(depth):
        nested = [nested]
    text = json.dumps({"facts": [{"id": "f1", "content": "Likes tea", "zzz": nested}]})
    path = Path(service.config.storage_path) / "users" / "deep" / "memory.json"
    path.parent.mkdir(parents=True)
    path.write_text(text, encoding="utf-8")
    graph = create_memory_agent(service=service, checkpointer=InMemorySaver())
    events = custom_events(graph, {"messages": [("user", "hi")]}, run_config("deep", "1"))
    injection = next(e for e in events if e["type"] == "memory_injection")
    assert "memory.json" in injection["error"] and "nested deeper" in injection["error"]
    with pytest.raises(CorruptMemoryError, match="nested deeper than 32 levels"):
        service.storage.load("deep", None)
    with pytest.raises(InvalidDocumentError, match="unknown key 'zzz' holds") as raised:
        read_import(text)
    assert "Value error" not in str(raised.value) and ": :" not in str(raised.value)
    assert path.read_text(encoding="utf-8") == text  # left as it was


def test_an_unknown_key_nested_32_levels_still_loads_and_saves(service: MemoryService) -> None:
    from deerflow_memory.models import MemoryDocument

    nested: object = {"k": "v"}
    for _ in range(31):
        nested = [nested]
    doc = MemoryDocument.model_validate({"facts": [{"content": "Likes tea", "zzz": nested}]})
    again = MemoryDocument.from_json(doc.to_json())
    assert again.facts[0].model_extra == {"zzz": nested}
