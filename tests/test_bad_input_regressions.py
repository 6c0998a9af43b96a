"""Faults found by attacking the finished pipeline, each pinned so it stays fixed."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from langchain_core.messages import AIMessage, HumanMessage

from deerflow_memory import ConfigError, FileMemoryStorage, MemoryConfig, MemoryDocument
from deerflow_memory.cli import main
from deerflow_memory.errors import InvalidDocumentError
from deerflow_memory.service import MemoryService
from deerflow_memory.update.import_check import read_import
from deerflow_memory.update.queue import UpdateJob


def crowded(n: int) -> MemoryDocument:
    return MemoryDocument.model_validate(
        {
            "facts": [
                {
                    "id": f"f{i}",
                    "content": f"Has hobby number {i}",
                    "category": "preference",
                    "confidence": 0.75,
                    "sourceType": "user_stated",
                }
                for i in range(n)
            ]
        }
    )


def test_a_new_statement_survives_a_document_far_over_max_facts(tmp_path: Path) -> None:
    storage = FileMemoryStorage(tmp_path)
    storage.save("u", None, crowded(100))
    with MemoryService(MemoryConfig(max_facts=50), storage=storage, register_atexit=False) as svc:
        job = UpdateJob("t", "u", None, (HumanMessage("I'm allergic to peanuts."), AIMessage("ok")))
        svc.updater.update(job)
    document = storage.load("u")
    assert any("peanuts" in f.content for f in document.facts)
    # the eviction cap held: stored facts left only as history, with a reason
    gone = [s for s in document.superseded_facts if s.reason.startswith("evicted")]
    assert len(document.facts) + len(gone) == 101


def test_import_cleans_text_and_refuses_what_updates_refuse() -> None:
    hostile = {
        "facts": [{"id": "a", "content": "Zoe\u0308\x1b[31m likes tea", "category": "preference"}]
    }
    document = read_import(json.dumps(hostile))
    assert document.facts[0].content == "Zoë likes tea"  # the escape sequence goes whole
    for bad in (
        {"facts": [{"id": "a", "content": "x" * 600, "category": "context"}]},
        {"facts": [{"id": "a\u202e", "content": "Likes tea", "category": "context"}]},
        {"facts": [{"id": "a", "content": "...", "category": "context"}]},
        {
            "facts": [
                {"id": f"f{i}", "content": f"Fact {i}", "category": "context"} for i in range(201)
            ]
        },
    ):
        with pytest.raises(InvalidDocumentError):
            read_import(json.dumps(bad))
    summary = {"user": {"workContext": {"summary": "Works late. " * 400}}}
    assert len(read_import(json.dumps(summary)).user.work_context.summary) <= 2000


@pytest.mark.parametrize(
    "settings",
    [
        {"api_key": ["sk-SECRET"]},
        {"storage_dsn": ["postgresql://u:hunter2@h/db"]},
        {"api_key": 987654321},
    ],
)
def test_config_built_in_code_fails_with_a_config_error_that_hides_secrets(
    settings: dict[str, object],
) -> None:
    with pytest.raises(ConfigError) as info:
        MemoryConfig(**settings)
    text = str(info.value)
    assert "SECRET" not in text and "hunter2" not in text and "987654321" not in text


@pytest.mark.parametrize("command", ["stats", "pending", "retry", "show"])
def test_every_subcommand_refuses_an_unsafe_user_id(
    command: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["--root", str(tmp_path), command, "--user", "../etc"]) == 2
    assert "user_id '../etc' is not allowed" in capsys.readouterr().err


@pytest.mark.parametrize(
    "source", ["file:{tmp}/missing", "file:{tmp}/a.json", "sqlite:{tmp}/nope.sqlite"]
)
def test_migrate_from_a_mistyped_source_fails_and_creates_nothing(
    source: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "a.json").write_text("{}")
    before = set(tmp_path.iterdir())
    status = main(["migrate", "--from", source.format(tmp=tmp_path), "--to", f"file:{tmp_path}/t"])
    assert status == 2 and "is not an existing" in capsys.readouterr().err
    assert set(tmp_path.iterdir()) == before
