"""The memory model's token counts reach the update result, the INFO line and the stream events."""

from __future__ import annotations

import json
import logging
from pathlib import Path
from typing import Any

import pytest
from langchain_core.messages import AIMessage, HumanMessage
from langgraph.checkpoint.memory import InMemorySaver

from deerflow_memory.config import MemoryConfig
from deerflow_memory.graph import create_memory_agent
from deerflow_memory.service import MemoryService
from deerflow_memory.standin import OfflineStandInModel
from deerflow_memory.storage.file import FileMemoryStorage
from deerflow_memory.update.extraction import ModelUsage
from deerflow_memory.update.offline.extractor import OfflineExtractor
from deerflow_memory.update.queue import UpdateJob
from deerflow_memory.update.updater import MemoryUpdater, UpdateStatus
from tests.openai_server import OpenAIServer, Reply, openai_server  # noqa: F401  (fixture)

NOW = "2026-07-01T10:00:00Z"
ANSWER = json.dumps(
    {
        "newFacts": [
            {"content": "Is allergic to peanuts", "category": "context", "confidence": 0.95},
        ]
    }
)


def job(user: str = "alice") -> UpdateJob:
    messages = (
        HumanMessage(content="I'm allergic to peanuts, please keep that in mind"),
        AIMessage(content="Noted, I will remember that."),
    )
    return UpdateJob("thread-1", user, None, messages)


def saved_lines(caplog: pytest.LogCaptureFixture) -> list[str]:
    return [r.getMessage() for r in caplog.records if r.getMessage().startswith("memory saved:")]


def test_the_update_result_and_the_info_line_carry_the_models_token_counts(
    openai_server: OpenAIServer,  # noqa: F811
    tmp_path: Path,
    caplog: pytest.LogCaptureFixture,
) -> None:
    openai_server.reply(Reply(ANSWER, usage=(321, 45)))
    updater = MemoryUpdater(
        FileMemoryStorage(tmp_path), openai_server.chat_model(timeout=2), now=lambda: NOW
    )
    with caplog.at_level(logging.INFO, logger="deerflow_memory.update.updater"):
        result = updater.update(job())
    assert result.status is UpdateStatus.SAVED
    assert (result.model_input_tokens, result.model_output_tokens) == (321, 45)
    (line,) = saved_lines(caplog)
    assert "revision=1 model_input_tokens=321 model_output_tokens=45" in line


def test_an_answer_asked_for_twice_counts_both_calls(
    openai_server: OpenAIServer,  # noqa: F811
    tmp_path: Path,
) -> None:
    openai_server.reply(
        Reply("not an update at all", usage=(300, 9)), Reply(ANSWER, usage=(310, 20))
    )
    updater = MemoryUpdater(
        FileMemoryStorage(tmp_path), openai_server.chat_model(timeout=2), now=lambda: NOW
    )
    result = updater.update(job())
    assert result.status is UpdateStatus.SAVED and openai_server.request_count == 2
    assert (result.model_input_tokens, result.model_output_tokens) == (610, 29)


def test_a_server_that_reports_no_usage_and_the_offline_extractor_count_zero(
    openai_server: OpenAIServer,  # noqa: F811
    tmp_path: Path,
    caplog: pytest.LogCaptureFixture,
) -> None:
    openai_server.reply(Reply(ANSWER, usage=None))
    online = MemoryUpdater(FileMemoryStorage(tmp_path / "a"), openai_server.chat_model(timeout=2))
    offline = MemoryUpdater(FileMemoryStorage(tmp_path / "b"), OfflineExtractor())
    with caplog.at_level(logging.INFO, logger="deerflow_memory.update.updater"):
        for updater in (online, offline):
            result = updater.update(job())
            assert result.status is UpdateStatus.SAVED
            assert (result.model_input_tokens, result.model_output_tokens) == (0, 0)
    lines = saved_lines(caplog)
    assert len(lines) == 2
    assert all(line.endswith("model_input_tokens=0 model_output_tokens=0") for line in lines)


def test_usage_reads_langchain_usage_metadata_and_adds_up() -> None:
    answer = AIMessage(
        content="{}", usage_metadata={"input_tokens": 7, "output_tokens": 3, "total_tokens": 10}
    )
    assert ModelUsage.of(answer) == ModelUsage(7, 3)
    assert ModelUsage.of(AIMessage(content="{}")) == ModelUsage()
    assert ModelUsage(7, 3) + ModelUsage(1, 2) == ModelUsage(8, 5)


def test_the_next_turns_events_report_the_saved_update_and_its_tokens(
    openai_server: OpenAIServer,  # noqa: F811
    tmp_path: Path,
) -> None:
    openai_server.responder = lambda body: Reply(ANSWER, usage=(512, 64))
    config = MemoryConfig(storage_path=tmp_path / "memory", debounce_seconds=0.05)
    with MemoryService(
        config, model=openai_server.chat_model(timeout=5), register_atexit=False
    ) as service:
        graph = create_memory_agent(
            model=OfflineStandInModel(), service=service, checkpointer=InMemorySaver()
        )

        def turn(thread: str, text: str) -> dict[str, dict[str, Any]]:
            run = {"configurable": {"user_id": "alice", "thread_id": thread}}
            return {
                chunk["type"]: chunk
                for mode, chunk in graph.stream(
                    {"messages": [("user", text)]}, run, stream_mode=["custom", "values"]
                )
                if mode == "custom" and chunk["type"] in ("memory_injection", "memory_capture")
            }

        first = turn("t1", "I'm allergic to peanuts, remember that")
        assert first["memory_injection"]["last_update"] is None
        assert service.flush(10)
        second = turn("t2", "What should I cook tonight?")
        last = second["memory_injection"]["last_update"]
        assert second["memory_capture"]["last_update"] == last
    assert last is not None
    assert last["user_id"] == "alice" and last["thread_id"] == "t1"
    assert last["facts_added"] == 1 and last["revision"] >= 1
    assert (last["model_input_tokens"], last["model_output_tokens"]) == (512, 64)
