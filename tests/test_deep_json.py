"""Untrusted JSON nested thousands deep becomes the project's typed error, never RecursionError.

Every place that parses JSON it did not write itself is covered: model answers
(update, judge), import files and the HTTP routes, config files and
environment variables, and records read back (outbox journal, vectors file).
"""

from __future__ import annotations

import json
import threading
import time
from pathlib import Path

import pytest
from langchain_core.messages import AIMessage, HumanMessage
from starlette.applications import Starlette
from starlette.testclient import TestClient

from deerflow_memory.api.routes import memory_routes
from deerflow_memory.config import MemoryConfig, load_config
from deerflow_memory.errors import ConfigError, InvalidDocumentError, UpdateParseError
from deerflow_memory.identity import MemoryIdentity
from deerflow_memory.models import MemoryDocument
from deerflow_memory.service import MemoryService
from deerflow_memory.storage.outbox_file import replay
from deerflow_memory.storage.vectors_file import read_vectors
from deerflow_memory.update.import_check import read_import
from deerflow_memory.update.judge import _parse as parse_judge_answer
from deerflow_memory.update.prompt import parse_update
from tests.openai_server import OpenAIServer, Reply, openai_server  # noqa: F401  (fixture)

DEPTH = 100_000
JSON = {"Content-Type": "application/json"}


def nested(depth: int = DEPTH, inner: str = "1") -> str:
    return "[" * depth + inner + "]" * depth


def deep_update() -> str:
    return '{"newFacts": ' + nested() + "}"


GOOD = json.dumps({"newFacts": [{"content": "Is allergic to peanuts", "confidence": 0.95}]})


def test_a_model_answer_nested_100000_deep_is_a_parse_failure_retried_once_then_a_dead_letter(
    tmp_path: Path,
    openai_server: OpenAIServer,  # noqa: F811
) -> None:
    openai_server.reply(Reply(deep_update()), Reply(deep_update()), Reply(GOOD))
    crashes: list[threading.ExceptHookArgs] = []
    previous = threading.excepthook
    threading.excepthook = crashes.append
    settings = MemoryConfig(
        storage_path=tmp_path / "memory", debounce_seconds=0, fact_confidence_threshold=0.5
    )
    who = MemoryIdentity("alice", None, "t1")
    try:
        with MemoryService(
            settings, model=openai_server.chat_model(timeout=5), register_atexit=False
        ) as memory:
            memory.enqueue(who, [HumanMessage("I'm allergic to peanuts."), AIMessage("ok")])
            deadline = time.monotonic() + 30
            while not memory.dead_letters() and time.monotonic() < deadline:
                time.sleep(0.02)
            letters = memory.dead_letters()
            assert [x.thread_id for x in letters] == ["t1"]
            assert "UpdateParseError" in letters[0].error
            assert "nested too deeply" in letters[0].error
            assert openai_server.request_count == 2  # one retry, then no more calls
            assert memory.load(who).facts == ()
            # the worker is alive: the letter retried against a sane answer is applied
            assert [r.removed for r in memory.retry_dead_letters()] == [True]
            assert [f.content for f in memory.load(who).facts] == ["Is allergic to peanuts"]
    finally:
        threading.excepthook = previous
    assert crashes == []


@pytest.mark.parametrize(
    "answer",
    [deep_update(), '{"newFacts": [' + '{"a":' * DEPTH + "1" + "}" * DEPTH + "]}", nested()],
    ids=["deep-list-in-update", "deep-object-in-update", "bare-deep-list"],
)
def test_parse_update_answers_deep_nesting_with_update_parse_error(answer: str) -> None:
    with pytest.raises(UpdateParseError):
        parse_update(answer)


def test_a_deeply_nested_judge_answer_is_an_ordinary_unreadable_answer() -> None:
    with pytest.raises(ValueError, match="nested too deeply"):
        parse_judge_answer('{"keep": ' + nested() + "}", 3)


def test_an_import_file_nested_deeply_is_an_invalid_document() -> None:
    with pytest.raises(InvalidDocumentError, match="nested too deeply"):
        read_import('{"facts": ' + nested() + "}", name="x.json")
    with pytest.raises(ValueError, match="nested too deeply"):
        MemoryDocument.from_json('{"facts": ' + nested() + "}")


def test_a_config_file_nested_deeply_is_a_config_error(tmp_path: Path) -> None:
    path = tmp_path / "config.yaml"
    path.write_text("memory:\n  tenants: " + nested(20_000) + "\n", encoding="utf-8")
    with pytest.raises(ConfigError, match="nested too deeply"):
        load_config(path, environ={})


def test_an_environment_variable_nested_deeply_is_a_config_error() -> None:
    with pytest.raises(ConfigError, match="TENANTS"):
        load_config(environ={"DEERFLOW_MEMORY_TENANTS": '{"a": ' + nested() + "}"})


def test_outbox_and_vector_records_nested_deeply_are_skipped_as_unreadable(
    tmp_path: Path,
) -> None:
    pending, dead = replay([('{"op": "put", "update": ' + nested() + "}").encode()], list)
    assert pending == {} and dead == []
    path = tmp_path / "vectors.json"
    path.write_text('{"vectors": ' + nested() + "}", encoding="utf-8")
    assert read_vectors(path, "hash", ["x"]) == {}


def test_the_http_routes_answer_deep_json_bodies_with_a_400_or_422(tmp_path: Path) -> None:
    settings = MemoryConfig(storage_path=tmp_path / "memory")
    with MemoryService(settings, register_atexit=False) as memory:
        client = TestClient(
            Starlette(routes=memory_routes(memory, ui=False)), base_url="http://127.0.0.1"
        )
        body = '{"content": ' + nested(20_000) + "}"  # within the size limit of a fact body
        answer = client.post("/memory/users/alice/facts", content=body, headers=JSON)
        assert answer.status_code == 400 and "nested too deeply" in answer.json()["error"]
        answer = client.put(
            "/memory/users/alice", content='{"facts": ' + nested() + "}", headers=JSON
        )
        assert answer.status_code == 422 and "nested too deeply" in answer.json()["error"]
