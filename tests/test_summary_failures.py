"""A failing summary model never breaks a conversation; the summary prompt keeps to its budget."""

from __future__ import annotations

import json
import logging
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from langchain_core.language_models import BaseChatModel
from langchain_core.messages import AIMessage, BaseMessage, HumanMessage, SystemMessage
from langchain_core.outputs import ChatGeneration, ChatResult
from langgraph.checkpoint.memory import InMemorySaver

from deerflow_memory import MemoryConfig, MemoryService, create_memory_agent
from deerflow_memory.inject.tokens import get_token_counter
from deerflow_memory.update.prompt import SYSTEM_PROMPT
from deerflow_memory.update.summary import summary_prompt, write_summary
from tests.openai_server import OpenAIServer, Reply, openai_server  # noqa: F401  (fixture)

SUMMARY_ASK = "Summarize this earlier part"
TURNS = ("I'm allergic to sesame.", "Tell me about Kyoto.", "And Nara?", "And Osaka?")


def is_update_request(body: dict[str, Any]) -> bool:
    first = body["messages"][0]
    return first["role"] == "system" and first["content"].startswith(SYSTEM_PROMPT[:60])


def is_summary_request(body: dict[str, Any]) -> bool:
    return SUMMARY_ASK in str(body["messages"][-1]["content"])


def run_config(thread: str = "t") -> dict[str, Any]:
    return {"configurable": {"user_id": "sam", "thread_id": thread}}


def memory_config(tmp_path: Path, **overrides: Any) -> MemoryConfig:
    return MemoryConfig(
        storage_path=tmp_path / "m",
        debounce_seconds=30,  # only the hook's immediate flush writes before flush()
        summarize_after_messages=4,
        summarize_keep_messages=2,
        **overrides,
    )


def run_turn(graph: Any, text: str, thread: str = "t") -> tuple[dict[str, Any], list[dict]]:
    """One turn through ``stream``: the final state and the custom events."""
    events: list[dict[str, Any]] = []
    state: dict[str, Any] = {}
    for mode, chunk in graph.stream(
        {"messages": [("user", text)]}, run_config(thread), stream_mode=["custom", "values"]
    ):
        if mode == "custom":
            events.append(chunk)
        else:
            state = chunk
    return state, events


def summarizations(events: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [e for e in events if e["type"] == "memory_summarization"]


@pytest.fixture
def recorded_flushes(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[list[BaseMessage]]]:
    """Messages queued for an immediate update (the hook's flush), per call."""
    flushed: list[list[BaseMessage]] = []
    real = MemoryService.enqueue

    def enqueue(self: MemoryService, identity: Any, messages: Any, **kwargs: Any) -> Any:
        if kwargs.get("now"):
            flushed.append(list(messages))
        return real(self, identity, messages, **kwargs)

    monkeypatch.setattr(MemoryService, "enqueue", enqueue)
    yield flushed


@pytest.mark.parametrize(
    ("status", "headers"),
    [(500, ()), (400, ()), (429, (("Retry-After", "20"),))],
    ids=["server-error", "context-too-long", "rate-limited"],
)
def test_a_summary_call_answered_with_an_http_error_falls_back_and_the_thread_goes_on(
    openai_server: OpenAIServer,  # noqa: F811
    tmp_path: Path,
    caplog: pytest.LogCaptureFixture,
    recorded_flushes: list[list[BaseMessage]],
    status: int,
    headers: tuple[tuple[str, str], ...],
) -> None:
    failures = {"left": 1}

    def respond(body: dict[str, Any]) -> Reply | str:
        if is_update_request(body):
            found = "sesame" in json.dumps(body)
            facts = [{"content": "User is allergic to sesame", "confidence": 0.95}] if found else []
            return json.dumps({"newFacts": facts})
        if is_summary_request(body):
            if failures["left"]:
                failures["left"] -= 1
                return Reply(status=status, headers=headers)
            return "The user asked about travel in Kansai."
        return "Answer to: " + str(body["messages"][-1]["content"])

    openai_server.responder = respond
    model = openai_server.chat_model()
    caplog.set_level(logging.WARNING, logger="deerflow_memory")
    with MemoryService(memory_config(tmp_path), model=model, register_atexit=False) as service:
        graph = create_memory_agent(model, service=service, checkpointer=InMemorySaver())
        for text in TURNS[:2]:
            run_turn(graph, text)
        state, events = run_turn(graph, TURNS[2])  # 6 messages > 4: the summary call fails

        assert state["messages"][-1].text == f"Answer to: {TURNS[2]}"
        (event,) = summarizations(events)
        assert event["source"] == "extractive"
        assert str(status) in event["error"]
        summary = state["messages"][0]
        assert isinstance(summary, SystemMessage) and "User said: I'm allergic to sesame." in (
            summary.text
        )
        assert len(state["messages"]) == 3
        failed = [r for r in caplog.records if "not written by the model" in r.getMessage()]
        assert len(failed) == 1 and failed[0].exc_info is None
        assert "\n" not in failed[0].getMessage()
        # the removed messages were queued for memory before they were removed
        assert any("sesame" in m.text for batch in recorded_flushes for m in batch)

        state, events = run_turn(graph, TURNS[3])  # over the limit again; the model answers now
        assert state["messages"][-1].text == f"Answer to: {TURNS[3]}"
        (event,) = summarizations(events)
        assert event == {**event, "source": "model", "error": None}
        assert "Kansai" in state["messages"][0].text
        assert service.flush(10)
        assert any("sesame" in f.content for f in service.storage.load("sam").facts)


class SummaryFailsModel(BaseChatModel):
    """Answers every agent call; raises ``error`` on the summary call."""

    error: Exception = ConnectionError("model endpoint reset")
    summary_calls: int = 0

    def _generate(self, messages: list[BaseMessage], *args: Any, **kwargs: Any) -> ChatResult:
        if SUMMARY_ASK in str(messages[-1].content):
            self.summary_calls += 1
            raise self.error
        return ChatResult(generations=[ChatGeneration(message=AIMessage(f"ok {len(messages)}"))])

    def bind_tools(self, tools: Any, **kwargs: Any) -> Any:
        return self

    @property
    def _llm_type(self) -> str:
        return "summary-fails"


def test_a_summary_model_that_raises_never_fails_a_turn_of_the_thread(
    tmp_path: Path, recorded_flushes: list[list[BaseMessage]]
) -> None:
    model = SummaryFailsModel()
    with MemoryService(memory_config(tmp_path), model=model, register_atexit=False) as service:
        graph = create_memory_agent(model, service=service, checkpointer=InMemorySaver())
        for i in range(8):
            state, events = run_turn(graph, f"I'm allergic to sesame, note {i}.")
            assert state["messages"][-1].text.startswith("ok ")
        assert (
            model.summary_calls == 6
        )  # turns 3..8 go over the limit: each tried once, and went on
        errors = {e["error"] for e in summarizations(events)}
        assert errors == {"ConnectionError: model endpoint reset"}
        assert len(recorded_flushes) == model.summary_calls


async def test_under_ainvoke_a_failing_summary_model_falls_back_too(tmp_path: Path) -> None:
    model = SummaryFailsModel(error=TimeoutError("read timed out"))
    with MemoryService(memory_config(tmp_path), model=model, register_atexit=False) as service:
        graph = create_memory_agent(model, service=service, checkpointer=InMemorySaver())
        for i in range(4):
            state = await graph.ainvoke({"messages": [("user", f"message {i}")]}, run_config())
        assert model.summary_calls == 2  # turns 3 and 4 go over the limit: each tried once
        assert "User said: message 0" in state["messages"][0].text


def test_an_empty_summary_answer_falls_back_to_the_extractive_summary() -> None:
    class Empty(SummaryFailsModel):
        def _generate(self, messages: list[BaseMessage], *args: Any, **kwargs: Any) -> ChatResult:
            return ChatResult(generations=[ChatGeneration(message=AIMessage("  \n "))])

    result = write_summary(
        Empty(), [HumanMessage("I live in Oslo.")], [], count=len, max_prompt_tokens=1000
    )
    assert result.source == "extractive"
    assert result.entries == ["User said: I live in Oslo."]
    assert result.error is not None and "empty" in result.error


def test_the_error_reported_masks_credentials() -> None:
    model = SummaryFailsModel(error=ValueError("bad key sk-abcdefghijklmnop at http://u:pw@h"))
    result = write_summary(model, [HumanMessage("hi")], [], count=len, max_prompt_tokens=1000)
    assert result.error is not None
    assert "abcdefghijklmnop" not in result.error and ":pw@" not in result.error


# --- the prompt's budget ------------------------------------------------------------------


def long_history(turns: int) -> list[BaseMessage]:
    history: list[BaseMessage] = []
    for i in range(turns):
        history += [
            HumanMessage(f"Turn {i}: " + "I keep talking about the harbour and the ferries. " * 8),
            AIMessage(f"Reply {i}: " + "noted, the harbour and the ferries. " * 8),
        ]
    return history


@pytest.mark.parametrize("budget", [200, 1000, 5000])
def test_a_summary_prompt_over_its_budget_is_cut_to_fit_keeping_the_newest_messages(
    budget: int,
) -> None:
    counter = get_token_counter("tiktoken")
    previous = [f"Earlier point {i}." for i in range(30)]
    prompt, left_out = summary_prompt(
        long_history(200), previous, count=counter.count, max_tokens=budget
    )
    assert counter.count(prompt) <= budget
    assert left_out > 0 and f"({left_out} earlier messages were left out to fit.)" in prompt
    # Exactly the oldest left_out messages are missing: the newest ones are kept.
    history = long_history(200)

    def label(message: BaseMessage) -> str:
        return str(message.content).partition(" ")[0] + " " + str(message.content).split()[1]

    kept = history[left_out:]
    assert all(label(message) in prompt for message in kept)
    assert label(history[left_out - 1]) not in prompt
    assert bool(kept) == (budget > 200)  # 200 tokens hold the ask and no whole message
    assert SUMMARY_ASK in prompt
    assert "Turn 0:" not in prompt
    if budget >= 1000:
        assert "Reply 199" in prompt
        assert "Earlier point 29." in prompt  # the earlier summary is carried on


def test_a_summary_prompt_within_its_budget_holds_every_message_and_the_earlier_summary() -> None:
    counter = get_token_counter("tiktoken")
    prompt, left_out = summary_prompt(
        long_history(3), ["User said: I live in Oslo."], count=counter.count, max_tokens=8000
    )
    assert left_out == 0 and "left out" not in prompt
    assert all(f"Turn {i}:" in prompt and f"Reply {i}:" in prompt for i in range(3))
    assert "<earlier_summary>" in prompt and "I live in Oslo." in prompt


def test_the_summary_request_the_graph_sends_stays_within_the_configured_budget(
    openai_server: OpenAIServer,  # noqa: F811
    tmp_path: Path,
) -> None:
    def respond(body: dict[str, Any]) -> str:
        if is_update_request(body):
            return json.dumps({"newFacts": []})
        if is_summary_request(body):
            return "They talked about ferries."
        return "Answer."

    openai_server.responder = respond
    model = openai_server.chat_model()
    config = memory_config(tmp_path, summarize_max_prompt_tokens=300)
    with MemoryService(config, model=model, register_atexit=False) as service:
        graph = create_memory_agent(model, service=service, checkpointer=InMemorySaver())
        for i in range(3):
            run_turn(graph, f"Turn {i}: " + "the harbour and the ferries. " * 60)
        asks = [b for b in openai_server.requests if is_summary_request(b)]
        assert asks
        for body in asks:
            assert service.counter.count(body["messages"][-1]["content"]) <= 300
