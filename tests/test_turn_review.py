"""Regressions found reviewing the per-turn path (nodes, middleware, tools, capture)."""

from __future__ import annotations

import subprocess
import sys
import threading
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from langchain.agents import create_agent
from langchain.agents.middleware import ModelRequest, SummarizationMiddleware
from langchain.agents.middleware.types import ModelResponse
from langchain_core.messages import AIMessage, BaseMessage, HumanMessage, SystemMessage
from langchain_core.runnables import RunnableLambda
from langchain_core.tools import tool
from langgraph.runtime import Runtime
from langgraph.store.memory import InMemoryStore

from deerflow_memory import ConfigError, IdentityMismatchError, MemoryConfig, MemoryMiddleware
from deerflow_memory.capture.messages import (
    filter_messages_for_memory,
    filter_recent_messages,
    latest_user_text,
)
from deerflow_memory.graph import create_memory_agent
from deerflow_memory.identity import MemoryIdentity, resolve_identity
from deerflow_memory.models import Fact, MemoryDocument
from deerflow_memory.nodes import inject_turn
from deerflow_memory.service import MemoryService
from deerflow_memory.tools import create_memory_tools, search_document
from deerflow_memory.update.offline.extractor import OfflineExtractor
from tests.tool_model import OneToolCallModel, SummaryModel


@pytest.fixture
def service(tmp_path: Path) -> Iterator[MemoryService]:
    config = MemoryConfig(storage_path=tmp_path / "memory", debounce_seconds=600, outbox=False)
    with MemoryService(config, extractor=OfflineExtractor(), register_atexit=False) as memory:
        yield memory


def in_run(configurable: dict[str, Any], call: Callable[[], Any]) -> Any:
    """Run ``call`` inside a runnable whose config is ``configurable`` (what get_config reads)."""
    return RunnableLambda(lambda _: call()).invoke(None, {"configurable": configurable})


def turn(user_text: str, reply: str, n: int) -> list[BaseMessage]:
    return [HumanMessage(user_text, id=f"h{n}"), AIMessage(reply, id=f"a{n}")]


def test_two_tenants_with_the_same_user_and_thread_never_flush_each_others_history(
    service: MemoryService,
) -> None:
    # Two runs interleave: each remembers its history in before_model, then a summary
    # removed all but the last message before each model call.
    middleware = MemoryMiddleware(service)
    runtime: Runtime[Any] = Runtime()
    shop = {"user_id": "ana", "thread_id": "main", "tenant_id": "shop"}
    travel = {"user_id": "ana", "thread_id": "main", "tenant_id": "travel"}
    shop_history = [*turn("I'm allergic to peanuts.", "Noted.", 1), HumanMessage("Menu?", id="h2")]
    travel_history = [
        *turn("I live in Lisbon.", "Nice city.", 3),
        HumanMessage("Trains?", id="h4"),
    ]
    in_run(shop, lambda: middleware.before_model({"messages": shop_history}, runtime))
    in_run(travel, lambda: middleware.before_model({"messages": travel_history}, runtime))

    def call_model(history: list[BaseMessage]) -> None:
        kept = history[-1:]
        request = ModelRequest(
            model=OneToolCallModel(tool="x", args=lambda t: {}, reply_prefix=""),
            messages=kept,
            state={"messages": kept},
            runtime=runtime,
        )
        middleware.wrap_model_call(request, lambda r: ModelResponse(result=[AIMessage("ok")]))

    in_run(shop, lambda: call_model(shop_history))
    in_run(travel, lambda: call_model(travel_history))
    assert service.flush(10)

    def facts_of(tenant: str) -> list[str]:
        return [f.content for f in service.load(MemoryIdentity("ana", None, "main", tenant)).facts]

    shop_facts, travel_facts = facts_of("shop"), facts_of("travel")
    assert any("peanut" in f for f in shop_facts)
    assert not any("Lisbon" in f for f in shop_facts)
    assert any("Lisbon" in f for f in travel_facts)
    assert not any("peanut" in f for f in travel_facts)


def test_giving_the_middleware_a_service_and_a_config_is_a_config_error(
    service: MemoryService,
) -> None:
    with pytest.raises(ConfigError, match="not both"):
        MemoryMiddleware(service, config=service.config)


def test_a_consumer_changing_a_failed_recall_event_does_not_change_the_next_one(
    tmp_path: Path,
) -> None:
    config = MemoryConfig(storage_path=tmp_path / "memory", outbox=False)
    with MemoryService(config, register_atexit=False) as memory:
        for user in ("ana", "bob"):  # corrupt documents: memory cannot be read
            path = tmp_path / "memory" / "users" / user / "memory.json"
            path.parent.mkdir(parents=True)
            path.write_text("{not json", encoding="utf-8")
        events: list[dict[str, Any]] = []
        for user in ("ana", "bob"):
            inject_turn(memory, MemoryIdentity(user, None, "t"), [], None, events.append)
            events[-2]["fact_ids"].append("leaked-" + user)
            events[-2]["facts"].append({"content": "leaked"})

    ends = [e for e in events if e["type"] == "memory_recall_end"]
    injections = [e for e in events if e["type"] == "memory_injection"]
    assert len(ends) == 2 and ends[1]["fact_ids"] == ["leaked-bob"]
    assert ends[1]["facts"] == [{"content": "leaked"}]
    # The failed turn's events carry the keys of a successful one, in the same order.
    assert [e["type"] for e in events[1:3]] == ["memory_recall_end", "memory_injection"]
    assert {"mode", "revision", "last_update"} <= injections[0].keys()
    assert injections[0]["error"] and injections[0]["revision"] is None


def test_remember_and_forget_write_to_the_runs_store_without_the_memory_nodes(
    tmp_path: Path,
) -> None:
    config = MemoryConfig(storage="store", memory_tools="read_write", outbox=False)
    store = InMemoryStore()
    with MemoryService(config, register_atexit=False) as memory:
        tools = create_memory_tools(memory)
        for tool_name, text, expected in (
            ("remember", "Takes the 7:40 train", "Saved to memory"),
            ("forget", "Takes the 7:40 train", "Forgotten"),
        ):
            model = OneToolCallModel(
                tool=tool_name, args=lambda t: {"fact": t}, reply_prefix="Done: "
            )
            agent = create_agent(model, tools, store=store)
            answer = agent.invoke(
                {"messages": [HumanMessage(text)]},
                {"configurable": {"user_id": "ana", "thread_id": "t1"}},
            )["messages"][-1].text
            assert expected in answer
            if tool_name == "remember":
                facts = memory.load(MemoryIdentity("ana", None, "t1"), store).facts
                assert [f.content for f in facts] == [text]
        assert memory.load(MemoryIdentity("ana", None, "t1"), store).facts == ()


@tool
def weather(city: str) -> str:
    """Today's weather in a city."""
    return f"rainy in {city}"


def calls_weather() -> OneToolCallModel:
    return OneToolCallModel(tool="weather", args=lambda t: {"city": "Oslo"}, reply_prefix="Done: ")


def facts_of(memory: MemoryService, user: str) -> list[str]:
    return [f.content for f in memory.load(MemoryIdentity(user, None, "t1")).facts]


def test_a_summary_cutting_inside_the_first_turns_tool_loop_keeps_what_the_user_said(
    tmp_path: Path,
) -> None:
    # 4 messages over a limit of 2, 2 kept: the cut moves back to the tool call, so only
    # the user's message is removed and no reply to it is left in the removed part.
    config = MemoryConfig(
        storage_path=tmp_path / "memory",
        outbox=False,
        summarize_after_messages=2,
        summarize_keep_messages=2,
    )
    with MemoryService(config, register_atexit=False) as memory:
        graph = create_memory_agent(calls_weather(), [weather], service=memory)
        result = graph.invoke(
            {"messages": [HumanMessage("I'm allergic to peanuts. Weather in Oslo?")]},
            {"configurable": {"user_id": "ana", "thread_id": "t1"}},
        )
        kept = result["messages"]
        assert isinstance(kept[0], SystemMessage)  # the summary took the user's message's place
        assert not any(isinstance(m, HumanMessage) for m in kept)  # summarized away
        assert not any("peanuts" in m.text for m in kept[1:])
        assert memory.flush(10)
        assert any("peanut" in f for f in facts_of(memory, "ana"))


def test_a_summary_in_the_middle_of_a_middleware_turn_keeps_what_the_user_said(
    service: MemoryService,
) -> None:
    # The second model call of the turn is preceded by a summary that keeps only the
    # tool call and its result: the user's message leaves before any reply exists.
    summarize = SummarizationMiddleware(
        SummaryModel(), trigger=("messages", 3), keep=("messages", 2)
    )
    agent = create_agent(
        calls_weather(), [weather], middleware=[MemoryMiddleware(service), summarize]
    )
    result = agent.invoke(
        {"messages": [HumanMessage("I'm allergic to peanuts. Weather in Oslo?")]},
        {"configurable": {"user_id": "ana", "thread_id": "t1"}},
    )
    assert not any("peanuts" in m.text for m in result["messages"])  # summarized away
    assert service.flush(10)
    facts = facts_of(service, "ana")
    assert any("peanut" in f for f in facts)
    assert not any("chatted" in f.casefold() for f in facts)


def test_a_message_langchain_added_for_the_user_is_not_theirs() -> None:
    summary = HumanMessage(
        "Here is a summary of the conversation to date:\n\nI'm allergic to peanuts.",
        additional_kwargs={"lc_source": "summarization"},
    )
    said = HumanMessage("I live in Porto.")
    reply = AIMessage("Nice.")

    assert filter_messages_for_memory([summary, said, reply]) == [said, reply]
    assert filter_recent_messages([summary, said, reply], 6) == [said, reply]
    assert latest_user_text([said, reply, summary]) == "I live in Porto."


def test_the_relevance_query_is_what_the_user_typed_not_an_upload_list_or_a_reminder() -> None:
    upload = "<uploaded_files>\n- /mnt/user-data/uploads/report.pdf\n</uploaded_files>"
    reminder = HumanMessage("Reminder: be brief.", additional_kwargs={"hidden": True})
    asked = HumanMessage(f"{upload}\nSummarize my report")

    assert latest_user_text([asked, reminder]) == "Summarize my report"


async def test_an_async_middleware_capture_runs_off_the_event_loop(
    service: MemoryService,
) -> None:
    loop_thread = threading.get_ident()
    threads: list[int] = []
    add = service.queue.add

    def recording_add(*args: Any, **kwargs: Any) -> None:
        threads.append(threading.get_ident())
        add(*args, **kwargs)

    service.queue.add = recording_add  # type: ignore[method-assign]
    agent = create_agent(calls_weather(), [weather], middleware=[MemoryMiddleware(service)])
    await agent.ainvoke(
        {"messages": [HumanMessage("I'm a nurse. Weather in Oslo?")]},
        {"configurable": {"user_id": "ana", "thread_id": "t1"}},
    )

    assert threads and loop_thread not in threads


def test_an_empty_search_lists_the_newest_facts_first() -> None:
    def fact(content: str, day: str) -> Fact:
        return Fact(content=content, created_at=f"2026-{day}T09:00:00Z", source="t")

    # Stored order is not age order (an eviction refills a freed slot with a new fact).
    stored = (fact("Likes jazz", "05-01"), fact("Lives in Porto", "11-20"), fact("Cat", "01-03"))
    document = MemoryDocument(facts=stored)

    lines = search_document(document, "", limit=2)
    assert len(lines) == 2 and "Porto" in lines[0] and "jazz" in lines[1]


def test_an_empty_search_compares_creation_times_as_moments() -> None:
    berlin = Fact(content="Lives in Berlin", created_at="2026-11-20T10:00:00+08:00", source="t")
    porto = Fact(content="Lives in Porto", created_at="2026-11-20T05:00:00Z", source="t")

    lines = search_document(MemoryDocument(facts=(berlin, porto)), "")  # 02:00Z, then 05:00Z
    assert "Porto" in lines[0] and "Berlin" in lines[1]


def test_remember_says_when_the_fact_it_should_replace_was_not_found(
    service: MemoryService,
) -> None:
    tools = create_memory_tools(service, "read_write")
    run = {"configurable": {"user_id": "ana", "thread_id": "t1"}}

    def remember(fact: str, replaces: str) -> str:
        model = OneToolCallModel(
            tool="remember", args=lambda t: {"fact": fact, "replaces": replaces}, reply_prefix=""
        )
        answer = create_agent(model, tools).invoke({"messages": [HumanMessage("go")]}, run)
        return str(answer["messages"][-1].text)

    assert "none was replaced" not in remember("Lives in Munich", "")
    missed = remember("Lives in Berlin", "works as a pilot")
    assert "Saved to memory: Lives in Berlin" in missed and "none was replaced" in missed
    found = remember("Lives in Hamburg", "Lives in Berlin")
    assert "Saved to memory: Lives in Hamburg" in found and "none was replaced" not in found


def test_long_laughter_or_acknowledgements_are_classified_without_hanging() -> None:
    # Each text took the old patterns from minutes to years (every split was tried);
    # a subprocess, so that a hang fails the test instead of blocking the suite.
    code = (
        "from langchain_core.messages import AIMessage, HumanMessage\n"
        "from deerflow_memory.capture.gate import is_self_referential\n"
        "from deerflow_memory.capture.messages import filter_messages_for_memory\n"
        "said = ['嗯' * 38 + '好像不对', '哦' * 38 + 'x', 'haha' * 30 + ' what',\n"
        "        'k' * 60 + ' lol x', '哈' * 60 + 'x', 'yes please ' * 30 + 'x',\n"
        "        '不用了' * 30 + 'x']\n"
        "small_talk = ['haha' * 30, '哈' * 60, 'yes please ' * 30, '不用了' * 30]\n"
        "assert all(is_self_referential(t) for t in said)\n"
        "assert not any(is_self_referential(t) for t in small_talk)\n"
        "turns = [HumanMessage('嗯' * 38), AIMessage('ok')]\n"
        "turns += [m for t in said for m in (HumanMessage(t), AIMessage('ok'))]\n"
        "assert len(filter_messages_for_memory(turns)) == 2 * len(said)\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True, timeout=60)


def test_a_refused_tenant_is_named_as_the_callers_tenant_not_as_the_caller() -> None:
    auth = {"identity": "alice", "tenant_id": "shop"}
    run = {"configurable": {"langgraph_auth_user_id": "alice", "langgraph_auth_user": auth}}

    with pytest.raises(IdentityMismatchError) as refused:
        resolve_identity(run, {"tenant_id": "travel"})
    assert "authenticated caller's tenant_id is 'shop'" in str(refused.value)


def test_a_fact_remember_replaces_is_dated_now_in_the_runs_thread(service: MemoryService) -> None:
    old = Fact(content="Lives in Berlin", created_at="2026-07-12T09:00:00Z", source="thread-july")
    service.storage.save("ana", None, MemoryDocument(facts=(old,)))
    model = OneToolCallModel(
        tool="remember",
        args=lambda t: {"fact": "Lives in Hamburg", "replaces": "Lives in Berlin"},
        reply_prefix="",
    )
    agent = create_agent(model, create_memory_tools(service, "read_write"))
    agent.invoke(
        {"messages": [HumanMessage("I moved to Hamburg")]},
        {"configurable": {"user_id": "ana", "thread_id": "t-now"}},
    )

    document = service.storage.load("ana", None)
    (fact,) = document.facts
    assert fact.content == "Lives in Hamburg" and fact.source == "t-now"
    assert not fact.created_at.startswith("2026-07-12")
    (history,) = document.superseded_facts
    assert history.content == "Lives in Berlin" and history.source == "thread-july"
    assert history.created_at.startswith("2026-07-12")


def test_search_lists_an_expired_fact_as_no_longer_current() -> None:
    trip = Fact(
        content="Is in Paris this week",
        created_at="2026-11-02T09:00:00Z",
        expires_at="2026-11-08T00:00:00Z",
        source="t-trip",
    )
    home = Fact(content="Lives in Lyon", created_at="2026-01-02T09:00:00Z", source="t-home")
    december = 1_796_083_200.0  # 2026-12-01T00:00:00Z
    document = MemoryDocument(facts=(trip, home))

    lines = search_document(document, "", now=december)
    assert "Lyon" in lines[0] and lines[0].startswith("- [")
    assert lines[1].startswith("- [no longer current since 2026-11-08: it expired]")
    assert "Paris" in lines[1]
    before = search_document(document, "Paris", now=december - 30 * 86_400)
    assert "Paris" in before[0] and "no longer current" not in before[0]
