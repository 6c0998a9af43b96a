"""MemoryMiddleware under LangChain's real ``create_agent``: the second door to the same memory."""

from __future__ import annotations

import asyncio
import subprocess
import sys
import time
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

import pytest
from langchain.agents import create_agent
from langchain.agents.middleware import SummarizationMiddleware
from langchain_core.language_models import BaseChatModel
from langchain_core.messages import AIMessage, BaseMessage, HumanMessage, SystemMessage
from langchain_core.outputs import ChatGeneration, ChatResult
from langchain_core.tools import tool
from langgraph.checkpoint.memory import InMemorySaver
from pydantic import Field

from deerflow_memory import MemoryConfig, MemoryMiddleware, MissingDependencyError
from deerflow_memory.identity import MemoryIdentity
from deerflow_memory.service import MemoryService
from tests.tool_model import SummaryModel

MEMORY_TAG = "<user_memory>"


class RecordingModel(BaseChatModel):
    """Records every model input; calls the ``weather`` tool once when asked about weather."""

    calls: list[list[BaseMessage]] = Field(default_factory=list)

    @property
    def _llm_type(self) -> str:
        return "recording"

    def bind_tools(self, tools: Sequence[Any], **kwargs: Any) -> RecordingModel:
        return self

    def _generate(
        self, messages: list[BaseMessage], stop: Any = None, run_manager: Any = None, **kw: Any
    ) -> ChatResult:
        self.calls.append(list(messages))
        last = messages[-1]
        if isinstance(last, HumanMessage) and "weather" in last.text:
            reply = AIMessage(
                content="",
                tool_calls=[
                    {"name": "weather", "args": {"city": "Oslo"}, "id": f"c{len(messages)}"}
                ],
            )
        else:
            reply = AIMessage(content="Noted, happy to help.")
        return ChatResult(generations=[ChatGeneration(message=reply)])

    def system_text(self, index: int = -1) -> str:
        first = self.calls[index][0]
        return first.text if isinstance(first, SystemMessage) else ""


@tool
def weather(city: str) -> str:
    """Today's weather in a city."""
    return f"rainy in {city}"


@pytest.fixture
def service(tmp_path: Path) -> Iterator[MemoryService]:
    config = MemoryConfig(
        storage_path=tmp_path / "memory", debounce_seconds=0.05, max_wait_seconds=1
    )
    with MemoryService(config, register_atexit=False) as memory:
        yield memory


@pytest.fixture
def model() -> RecordingModel:
    return RecordingModel(calls=[])


def run(user: str, thread: str) -> dict[str, Any]:
    return {"configurable": {"user_id": user, "thread_id": thread}}


def say(text: str) -> dict[str, Any]:
    return {"messages": [HumanMessage(text)]}


def build_agent(model: RecordingModel, service: MemoryService, **kw: Any) -> Any:
    return create_agent(
        model,
        [weather],
        system_prompt="You are a travel assistant.",
        middleware=[MemoryMiddleware(service), *kw.pop("middleware", [])],
        checkpointer=InMemorySaver(),
        **kw,
    )


def test_a_fact_said_in_one_thread_reaches_the_model_input_in_another(
    model: RecordingModel, service: MemoryService
) -> None:
    agent = build_agent(model, service)
    agent.invoke(say("I'm allergic to peanuts."), run("alice", "t1"))
    assert service.flush(10)
    agent.invoke(say("Where should I eat tonight?"), run("alice", "t2"))

    system = model.system_text()
    assert system.startswith("You are a travel assistant.")
    assert MEMORY_TAG in system and "peanuts" in system


def test_the_thread_never_stores_the_memory_block(
    model: RecordingModel, service: MemoryService
) -> None:
    agent = build_agent(model, service)
    agent.invoke(say("I'm vegetarian."), run("bob", "t1"))
    service.flush(10)
    agent.invoke(say("Any dinner ideas?"), run("bob", "t1"))

    assert MEMORY_TAG in model.system_text()
    persisted = agent.get_state(run("bob", "t1")).values["messages"]
    assert [type(m) for m in persisted] == [HumanMessage, AIMessage, HumanMessage, AIMessage]
    assert all(MEMORY_TAG not in m.text for m in persisted)


def test_another_user_never_sees_the_memory(model: RecordingModel, service: MemoryService) -> None:
    agent = build_agent(model, service)
    agent.invoke(say("I'm allergic to shellfish."), run("carol", "t1"))
    service.flush(10)
    agent.invoke(say("Where should I eat?"), run("dave", "t2"))

    assert "shellfish" not in model.system_text()
    assert service.load(MemoryIdentity("dave", None, "t2")).facts == ()


def test_a_turn_with_a_tool_loop_is_captured_once(
    model: RecordingModel, service: MemoryService
) -> None:
    agent = build_agent(model, service)
    chunks = list(
        agent.stream(
            say("I live in Bergen. What's the weather in Oslo?"),
            run("erin", "t1"),
            stream_mode="custom",
        )
    )

    assert len(model.calls) == 2  # the tool call, then the answer
    captures = [c for c in chunks if c.get("type") == "memory_capture"]
    injections = [c for c in chunks if c.get("type") == "memory_injection"]
    assert len(captures) == 1 and captures[0]["user_id"] == "erin"
    assert len(injections) == 2  # before each model call
    service.flush(10)
    assert any(
        "Bergen" in f.content for f in service.load(MemoryIdentity("erin", None, "t1")).facts
    )


def test_identity_comes_from_the_context_like_the_nodes(
    model: RecordingModel, service: MemoryService
) -> None:
    from dataclasses import dataclass

    @dataclass
    class Context:
        user_id: str

    agent = create_agent(
        model,
        [],
        middleware=[MemoryMiddleware(service)],
        context_schema=Context,
        checkpointer=InMemorySaver(),
    )
    agent.invoke(
        say("I'm a nurse."), {"configurable": {"thread_id": "t1"}}, context=Context("frank")
    )
    service.flush(10)
    facts = service.load(MemoryIdentity("frank", None, "t1")).facts
    assert any("nurse" in f.content for f in facts)


def test_messages_a_summarization_removes_are_flushed_to_memory_at_once(
    model: RecordingModel, tmp_path: Path
) -> None:
    # A debounce far longer than the test: only the summarization flush can save in time.
    config = MemoryConfig(
        storage_path=tmp_path / "memory", debounce_seconds=600, max_wait_seconds=1200
    )
    with MemoryService(config, register_atexit=False) as service:
        summarize = SummarizationMiddleware(
            SummaryModel(), trigger=("messages", 5), keep=("messages", 2)
        )
        agent = build_agent(model, service, middleware=[summarize])
        agent.invoke(say("I'm allergic to sesame."), run("gina", "t1"))
        agent.invoke(say("Tell me about Lisbon."), run("gina", "t1"))
        agent.invoke(say("And Porto?"), run("gina", "t1"))  # history > 5: summarized

        persisted = agent.get_state(run("gina", "t1")).values["messages"]
        assert all("sesame" not in m.text for m in persisted)  # gone from the thread
        deadline = time.monotonic() + 10
        facts: tuple[Any, ...] = ()
        while time.monotonic() < deadline:
            facts = service.load(MemoryIdentity("gina", None, "t1")).facts
            if facts:
                break
            time.sleep(0.05)
        assert any("sesame" in f.content for f in facts)


async def test_async_runs_inject_and_capture_the_same_way(
    model: RecordingModel, service: MemoryService
) -> None:
    agent = build_agent(model, service)
    await agent.ainvoke(say("I don't eat pork."), run("hana", "t1"))
    await asyncio.to_thread(service.flush, 10)
    events = [
        chunk
        async for chunk in agent.astream(
            say("Dinner tips?"), run("hana", "t2"), stream_mode="custom"
        )
    ]

    assert "pork" in model.system_text()
    assert [e["type"] for e in events] == [
        "memory_recall_start",
        "memory_recall_end",
        "memory_injection",
        "memory_capture",
    ]
    persisted = (await agent.aget_state(run("hana", "t2"))).values["messages"]
    assert all(MEMORY_TAG not in m.text for m in persisted)


def test_service_and_config_together_are_refused(service: MemoryService) -> None:
    with pytest.raises(ValueError, match="not both"):
        MemoryMiddleware(service, config=service.config)


def test_without_langchain_the_middleware_names_the_extra_to_install() -> None:
    code = (
        "import sys; sys.modules['langchain'] = None\n"
        "import deerflow_memory\n"
        "try:\n"
        "    deerflow_memory.MemoryMiddleware\n"
        "except deerflow_memory.MissingDependencyError as e:\n"
        "    print(e)\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    ).stdout
    assert out.strip() == (
        'MemoryMiddleware needs LangChain\'s agents: pip install "deerflow-memory[langchain]" '
        '(in a checkout: pip install -e ".[langchain]")'
    )
    assert issubclass(MissingDependencyError, ImportError)
