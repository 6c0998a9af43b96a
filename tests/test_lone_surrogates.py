"""Lone surrogates (U+D800–U+DFFF, not valid Unicode) never reach storage.

They arrive as ``"\\ud800"`` JSON escapes (model answers, tool calls, HTTP bodies,
import files) or as ``surrogateescape`` text (argv with invalid UTF-8). Free text
(facts, summaries, provenance) keeps its meaning with U+FFFD in their place; an id
holding one is refused with a typed error. Either way nothing else is lost.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from langchain_core.messages import AIMessage, HumanMessage
from langgraph.checkpoint.memory import InMemorySaver
from pydantic import ValidationError
from starlette.testclient import TestClient

from deerflow_memory import MemoryConfig, MemoryDocument, format_memory_for_injection
from deerflow_memory.errors import InvalidDocumentError
from deerflow_memory.graph import create_memory_agent
from deerflow_memory.models import Fact, MemoryUpdate, NewFact
from deerflow_memory.service import MemoryService
from deerflow_memory.storage.file import FileMemoryStorage
from deerflow_memory.update.import_check import read_import
from deerflow_memory.update.llm import ModelExtractor
from deerflow_memory.update.offline.extractor import OfflineExtractor
from deerflow_memory.update.queue import UpdateJob
from deerflow_memory.update.updater import MemoryUpdater, UpdateStatus
from deerflow_memory.update.validate import check_fact_text, clean_text
from tests.test_model_path import SyncOnlyModel
from tests.tool_model import OneToolCallModel

LONE = "\ud800"
BAD_ID = "fact_\udc00"


def test_text_cleaning_replaces_lone_surrogates_and_keeps_real_characters() -> None:
    assert clean_text(f"Likes {LONE} coffee") == "Likes \ufffd coffee"
    assert clean_text("smile \ud83d\ude00", multiline=True) == "smile \U0001f600"
    assert check_fact_text(f"x{LONE}y") == "x\ufffdy"


def test_models_store_free_text_cleaned_and_refuse_an_id_with_a_lone_surrogate() -> None:
    fact = Fact(content=f"x{LONE}", source=f"t{LONE}", category=f"odd{LONE}")
    document = MemoryDocument(facts=(fact,), notes={f"k{LONE}": [f"v{LONE}"]})  # type: ignore[call-arg]
    text = document.to_json()  # used to raise PydanticSerializationError
    assert "\ufffd" in text and LONE not in text
    assert NewFact(content=f"I love {LONE} hiking").content == "I love \ufffd hiking"
    with pytest.raises(ValidationError, match="lone surrogate"):
        Fact(id=BAD_ID, content="Likes tea")


def test_a_model_answer_with_lone_surrogates_applies_its_text_and_rejects_its_bad_ids(
    tmp_path: Path,
) -> None:
    storage = FileMemoryStorage(tmp_path)
    storage.save("u", None, MemoryDocument(facts=(Fact(id="f1", content="Likes tea"),)))
    answer = {
        "user": {"workContext": {"summary": f"Works {LONE} at X", "shouldUpdate": True}},
        "newFacts": [{"content": f"Plays {LONE} chess", "confidence": 0.9}],
        "factsToRemove": [{"id": BAD_ID, "reason": "gone"}],
        "factsToConfirm": ["f1", BAD_ID],
    }
    update = MemoryUpdate.from_mapping(json.loads(json.dumps(answer)))
    assert [r.item for r in update.rejected] == ["factsToRemove[0]", "factsToConfirm[1]"]
    model = SyncOnlyModel(answer=json.dumps(answer), calls=[])
    result = MemoryUpdater(storage, ModelExtractor(model)).update(
        UpdateJob("t1", "u", None, (HumanMessage("I play chess"), AIMessage("ok")))
    )
    assert result.status is UpdateStatus.SAVED, result
    document = storage.load("u")
    assert document.user.work_context.summary == "Works \ufffd at X"
    assert {f.content for f in document.facts} == {"Likes tea", "Plays \ufffd chess"}


def test_a_turn_with_a_lone_surrogate_is_extracted_and_kept_durably(tmp_path: Path) -> None:
    # default config: the outbox journals the raw thread, then the offline extractor runs
    config = MemoryConfig(storage_path=tmp_path, debounce_seconds=0.05)
    with MemoryService(config, register_atexit=False) as memory:
        graph = create_memory_agent(service=memory, checkpointer=InMemorySaver())
        text = f"I love {LONE} hiking and I'm vegetarian"
        run = {"configurable": {"user_id": "u", "thread_id": "t1"}}
        graph.invoke({"messages": [("user", text)]}, run)
        flushed = memory.flush(10)
        assert flushed.drained and not flushed.failed
        assert not memory.dead_letters()
    facts = [f.content for f in FileMemoryStorage(tmp_path).load("u").facts]
    assert any("vegetarian" in fact for fact in facts)
    # the surrogate is replaced when journalled, and the offline extractor reads the
    # replacement character as a space: the fact keeps its words and nothing unencodable
    assert "User loves hiking" in facts, facts
    assert all(fact.encode("utf-8") for fact in facts)


def test_http_saves_cleaned_text_and_answers_422_for_a_bad_id(
    client: TestClient, service: MemoryService
) -> None:
    body = '{"content": "x\\ud800y", "category": "preference"}'
    posted = client.post(
        "/memory/users/alice/facts",
        content=body,
        headers={"content-type": "application/json"},
    )
    assert posted.status_code == 201, posted.text
    assert posted.json()["fact"]["content"] == "x\ufffdy"
    summary = '{"user": {"workContext": {"summary": "Works \\udc00 at X"}}}'
    put = client.put(
        "/memory/users/zed", content=summary, headers={"content-type": "application/json"}
    )
    assert put.status_code == 200, put.text
    assert service.storage.load("zed").user.work_context.summary == "Works \ufffd at X"
    bad_id = '{"facts": [{"id": "f\\ud800", "content": "Likes tea", "category": "goal"}]}'
    refused = client.put(
        "/memory/users/zed", content=bad_id, headers={"content-type": "application/json"}
    )
    assert refused.status_code == 422, refused.text
    assert "surrogate" in refused.json()["error"]
    assert service.storage.load("zed").user.work_context.summary == "Works \ufffd at X"


def test_import_cleans_text_and_names_the_fact_whose_id_is_not_unicode() -> None:
    text = '{"facts": [{"id": "f1", "content": "\\ud800 lone", "category": "preference"}]}'
    assert read_import(text).facts[0].content == "\ufffd lone"
    bad = '{"facts": [{"id": "f\\ud800", "content": "lone", "category": "preference"}]}'
    with pytest.raises(InvalidDocumentError, match=r"facts\[0\] id holds a lone surrogate"):
        read_import(bad, name="f.json")


def run_cli(*args: str | bytes, cwd: Path) -> subprocess.CompletedProcess[bytes]:
    environ = {k: v for k, v in os.environ.items() if not k.startswith("DEERFLOW_MEMORY_")}
    environ.update(LC_ALL="C.UTF-8", PYTHONUTF8="1")
    return subprocess.run(
        [sys.executable, "-m", "deerflow_memory.cli", *args],
        cwd=cwd,
        env=environ,
        capture_output=True,
        timeout=60,
        check=False,
    )


def test_the_cli_imports_cleaned_text_and_refuses_invalid_utf8_arguments(tmp_path: Path) -> None:
    root = str(tmp_path / "memory")
    bad_id = tmp_path / "f.json"
    bad_id.write_text('{"facts": [{"id": "f\\ud800", "content": "lone", "category": "goal"}]}')
    refused = run_cli("--root", root, "import", "--user", "bob", "--yes", str(bad_id), cwd=tmp_path)
    assert refused.returncode == 2, refused.stderr
    assert b"f.json" in refused.stderr and b"id" in refused.stderr
    assert len(refused.stderr.strip().splitlines()) == 1

    remembered = run_cli(
        "--root", root, "remember", "--user", "alice", b"abc\xed\xa0\x80", cwd=tmp_path
    )
    assert remembered.returncode == 2, remembered.stderr
    assert len(remembered.stderr.strip().splitlines()) == 1
    assert b"UTF-8" in remembered.stderr
    assert not FileMemoryStorage(tmp_path / "memory").load("alice").facts


def test_the_memory_block_never_carries_a_lone_surrogate() -> None:
    block = format_memory_for_injection({"facts": [{"content": f"Likes {LONE} tea"}]})
    assert "Likes \ufffd tea" in block and LONE not in block


def test_the_remember_tool_saves_cleaned_text_and_the_agent_turn_goes_on(tmp_path: Path) -> None:
    config = MemoryConfig(
        storage_path=tmp_path, debounce_seconds=600, outbox=False, memory_tools="read_write"
    )
    with MemoryService(config, extractor=OfflineExtractor(), register_atexit=False) as memory:
        graph = create_memory_agent(
            OneToolCallModel(
                tool="remember",
                args=lambda _: {"fact": f"Likes {LONE} coffee"},
                reply_prefix="Done: ",
            ),
            service=memory,
            checkpointer=InMemorySaver(),
        )
        run = {"configurable": {"user_id": "ana", "thread_id": "a-1"}}
        said = graph.invoke({"messages": [("user", "Remember that")]}, run)
        assert "Saved to memory: Likes \ufffd coffee" in said["messages"][-1].text
        assert [f.content for f in memory.storage.load("ana").facts] == ["Likes \ufffd coffee"]
