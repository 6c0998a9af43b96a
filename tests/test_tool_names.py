"""An app tool never silently shares a name with a memory tool or with another app tool."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from langchain_core.messages import ToolMessage
from langchain_core.tools import tool
from langgraph.checkpoint.memory import InMemorySaver

from deerflow_memory import (
    MemoryConfig,
    MemoryService,
    ToolNameError,
    create_memory_agent,
    create_memory_tools,
)
from tests.tool_model import OneToolCallModel


@tool
def remember(fact: str) -> str:
    """The app's own remember tool (it writes to the app's CRM)."""
    return f"CRM saved: {fact}"


@tool("search_memory")
def app_search(query: str) -> str:
    """The app's own search over its documents."""
    return "app documents"


def forget(fact: str) -> str:
    """A plain function tool named like the memory tool ``forget``."""
    return "app forgot"


@pytest.fixture
def service(tmp_path: Path) -> Iterator[MemoryService]:
    config = MemoryConfig(storage_path=tmp_path, debounce_seconds=600, outbox=False)
    with MemoryService(config, register_atexit=False) as memory:
        yield memory


def calling(tool_name: str) -> OneToolCallModel:
    return OneToolCallModel(tool=tool_name, args=lambda t: {"fact": t}, reply_prefix="tool said: ")


@pytest.mark.parametrize(
    ("app_tool", "mode", "name"),
    [
        (remember, "read_write", "remember"),
        (app_search, True, "search_memory"),
        (app_search, "read_write", "search_memory"),
        (forget, "read_write", "forget"),
    ],
    ids=["remember", "search_memory", "search_memory-read-write", "plain-function-forget"],
)
def test_an_app_tool_named_like_a_memory_tool_is_refused_when_the_agent_is_built(
    service: MemoryService, app_tool: Any, mode: Any, name: str
) -> None:
    with pytest.raises(ToolNameError) as caught:
        create_memory_agent(calling(name), [app_tool], service=service, memory_tools=mode)
    assert caught.value.names == (name,)
    message = str(caught.value)
    assert f"{name!r}" in message and "memory_tool_prefix" in message and "Rename" in message


def test_app_tools_that_do_not_clash_with_the_memory_tools_in_use_are_accepted(
    service: MemoryService,
) -> None:
    # remember/forget exist only in read_write mode: with search they clash with nothing
    create_memory_agent(calling("remember"), [remember, forget], service=service, memory_tools=True)
    create_memory_agent(calling("remember"), [remember], service=service, memory_tools=False)


def test_two_app_tools_with_one_name_are_refused_even_without_memory_tools(
    service: MemoryService,
) -> None:
    @tool("lookup")
    def first(query: str) -> str:
        """First lookup."""
        return "1"

    @tool("lookup")
    def second(query: str) -> str:
        """Second lookup."""
        return "2"

    with pytest.raises(ToolNameError, match="two of the agent's tools are named 'lookup'"):
        create_memory_agent(calling("lookup"), [first, second], service=service, memory_tools=False)


def test_with_a_prefix_the_apps_remember_runs_and_the_memory_tool_keeps_working(
    service: MemoryService,
) -> None:
    cfg = {"configurable": {"user_id": "ana", "thread_id": "t"}}
    graph = create_memory_agent(
        calling("remember"),
        [remember],
        service=service,
        memory_tools="read_write",
        memory_tool_prefix="memory_",
        checkpointer=InMemorySaver(),
    )
    state = graph.invoke({"messages": [("user", "Likes green tea")]}, cfg)
    result = next(m for m in state["messages"] if isinstance(m, ToolMessage))
    assert result.text == "CRM saved: Likes green tea"
    assert not service.storage.load("ana").facts

    graph = create_memory_agent(
        calling("memory_remember"),
        [remember],
        service=service,
        memory_tools="read_write",
        memory_tool_prefix="memory_",
        checkpointer=InMemorySaver(),
    )
    state = graph.invoke({"messages": [("user", "Likes green tea")]}, cfg)
    result = next(m for m in state["messages"] if isinstance(m, ToolMessage))
    assert result.text.startswith("Saved to memory: Likes green tea")
    assert [f.content for f in service.storage.load("ana").facts] == ["Likes green tea"]


def test_create_memory_tools_takes_a_prefix_and_refuses_one_that_makes_an_invalid_name(
    service: MemoryService,
) -> None:
    names = [t.name for t in create_memory_tools(service, "read_write", prefix="mem-")]
    assert names == ["mem-search_memory", "mem-remember", "mem-forget"]
    for prefix in ("memory tools ", "x" * 60, "mém_"):
        with pytest.raises(ToolNameError, match="not a valid tool name"):
            create_memory_tools(service, prefix=prefix)


def test_a_service_the_builder_made_itself_is_closed_when_the_tools_are_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    closed: list[MemoryService] = []
    real_close = MemoryService.close

    def close(self: MemoryService, timeout: float | None = None) -> Any:
        closed.append(self)
        return real_close(self, timeout)

    monkeypatch.setattr(MemoryService, "close", close)
    config = MemoryConfig(storage_path=tmp_path, outbox=False, memory_tools="read_write")
    with pytest.raises(ToolNameError):
        create_memory_agent(calling("remember"), [remember], config=config)
    assert len(closed) == 1


@pytest.mark.parametrize("prefix", [5, b"mem_", None, ["memory_"]])
def test_a_prefix_that_is_not_a_string_is_refused_with_a_typed_error(
    service: MemoryService, prefix: Any
) -> None:
    with pytest.raises(ToolNameError, match="prefix must be a string"):
        create_memory_tools(service, "read_write", prefix=prefix)
    with pytest.raises(ToolNameError, match="prefix must be a string"):
        create_memory_agent(
            calling("remember"),
            service=service,
            memory_tools="read_write",
            memory_tool_prefix=prefix,
        )


def test_create_memory_tools_checks_the_apps_own_tools_given_as_existing(
    service: MemoryService,
) -> None:
    from langchain.agents import create_agent

    from deerflow_memory import MemoryMiddleware

    mine = [remember, app_search]
    with pytest.raises(ToolNameError, match="'remember'") as refused:
        create_memory_tools(service, "read_write", existing=mine)
    assert set(refused.value.names) == {"search_memory", "remember"}
    # With a prefix the same tools build an agent in which the app's remember runs.
    tools = [*mine, *create_memory_tools(service, "read_write", prefix="memory_", existing=mine)]
    agent = create_agent(calling("remember"), tools, middleware=[MemoryMiddleware(service)])
    state = agent.invoke(
        {"messages": [("user", "Likes green tea")]},
        {"configurable": {"user_id": "ana", "thread_id": "existing"}},
    )
    replies = [m.text for m in state["messages"] if isinstance(m, ToolMessage)]
    assert replies == ["CRM saved: Likes green tea"]
    assert service.storage.load("ana").facts == ()
