"""The ``deerflow-memory`` command, run as a user runs it (a real subprocess, offline)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from deerflow_memory.update.incremental import key_id
from tests.test_models import DEERFLOW_V1


def cli(
    *args: str, cwd: Path, input_text: str | None = None, env: dict[str, str] | None = None
) -> subprocess.CompletedProcess[str]:
    environ = {
        k: v for k, v in os.environ.items() if not k.startswith(("OPENAI_", "DEERFLOW_MEMORY_"))
    }
    environ["COLUMNS"] = "200"
    environ.update(env or {})
    return subprocess.run(
        [sys.executable, "-m", "deerflow_memory.cli", *args],
        cwd=cwd,
        env=environ,
        input=input_text,
        capture_output=True,
        text=True,
        timeout=120,
    )


@pytest.mark.parametrize(
    ("lang", "expected"),
    [("en", ["seafood", "peanut", "slow"]), ("zh", ["海鲜", "花生", "慢节奏"])],
)
def test_the_demo_carries_session_one_preferences_into_session_two(
    tmp_path: Path, lang: str, expected: list[str]
) -> None:
    result = cli("demo", "--lang", lang, cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    out = result.stdout
    assert "offline" in out
    # The header names the backend and the folder it writes (it said "storage file").
    assert "file storage in the folder .deerflow_memory" in out
    injected = out.split("injected memory_context", 1)[1]
    for word in expected:
        assert word in injected, f"{word!r} missing from session 2's injected block"
    # the memory lives in the default folder under the working directory
    stored = json.loads(
        (tmp_path / ".deerflow_memory/users/demo-traveller/memory.json").read_text("utf-8")
    )
    assert len(stored["facts"]) >= 3


def test_the_demo_header_names_the_tenant_it_writes_to(tmp_path: Path) -> None:
    # It named only the root, while the memory went under tenants/acme (attacker 88).
    result = cli("demo", "--tenant", "acme", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert "file storage in the folder .deerflow_memory, tenant acme" in result.stdout
    assert (tmp_path / ".deerflow_memory/tenants/acme/users/demo-traveller").is_dir()


def test_the_demo_with_json_prints_only_the_document(tmp_path: Path) -> None:
    result = cli("demo", "--json", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    document = json.loads(result.stdout)  # a script can read it whole
    assert any("peanut" in fact["content"] for fact in document["facts"])
    assert "injected memory_context" in result.stderr  # the sessions are told beside it


def test_export_import_show_and_clear_round_trip(tmp_path: Path) -> None:
    source = tmp_path / "deerflow.json"
    source.write_text(json.dumps(DEERFLOW_V1), encoding="utf-8")
    root = str(tmp_path / "mem")
    imported = cli("--root", root, "import", "--user", "ann", str(source), cwd=tmp_path)
    assert imported.returncode == 0, imported.stderr
    assert "imported 3 facts" in imported.stdout

    shown = cli("--root", root, "show", "--user", "ann", cwd=tmp_path)
    assert "Proficient in Rust" in shown.stdout

    out_file = tmp_path / "export.json"
    exported = cli("--root", root, "export", "--user", "ann", "-o", str(out_file), cwd=tmp_path)
    assert exported.returncode == 0, exported.stderr
    data = json.loads(out_file.read_text("utf-8"))
    assert data["customTopLevel"] == ["kept"]
    assert data["facts"][0]["category"] == "knowledge"

    refused = cli("--root", root, "clear", "--user", "ann", cwd=tmp_path, input_text="n\n")
    assert refused.returncode == 1
    assert (
        cli("--root", root, "show", "--user", "ann", cwd=tmp_path).stdout.count("Proficient") == 1
    )
    cleared = cli("--root", root, "clear", "--user", "ann", "--yes", cwd=tmp_path)
    assert "deleted" in cleared.stdout
    assert "Proficient" not in cli("--root", root, "show", "--user", "ann", cwd=tmp_path).stdout


def test_bad_input_is_one_clear_error_line_and_exit_status_2(tmp_path: Path) -> None:
    result = cli("--root", str(tmp_path), "show", "--user", "../etc", cwd=tmp_path)
    assert result.returncode == 2
    assert "user_id" in result.stderr and "not allowed" in result.stderr
    broken = tmp_path / "broken.json"
    broken.write_text("{", encoding="utf-8")
    result = cli("--root", str(tmp_path), "import", "--user", "ann", str(broken), cwd=tmp_path)
    assert result.returncode == 2
    assert "broken.json" in result.stderr


def test_migrate_copies_every_document_to_sqlite_and_verifies(tmp_path: Path) -> None:
    source = tmp_path / "deerflow.json"
    source.write_text(json.dumps(DEERFLOW_V1), encoding="utf-8")
    files = str(tmp_path / "files")
    for user in ("ann", "bo@example.com"):
        result = cli("--root", files, "import", "--user", user, str(source), cwd=tmp_path)
        assert result.returncode == 0, result.stderr
    db = tmp_path / "memory.sqlite"
    result = cli("migrate", "--from", f"file:{files}", "--to", f"sqlite:{db}", cwd=tmp_path)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "2 documents" in result.stdout
    from deerflow_memory.storage.factory import open_storage
    from deerflow_memory.storage.migrate import parse_backend_spec

    with open_storage(parse_backend_spec(f"sqlite:{db}")) as storage:
        copied = storage.load("bo@example.com")
    assert [f.content for f in copied.facts] == [f["content"] for f in DEERFLOW_V1["facts"]]


def test_show_lists_superseded_facts_with_when_and_where_they_were_told(tmp_path: Path) -> None:
    data = {
        "facts": [{"id": "f2", "content": "Lives in Berlin", "category": "correction"}],
        "supersededFacts": [
            {
                "id": "f1",
                "content": "Lives in Munich",
                "createdAt": "2026-07-12T09:00:00Z",
                "source": "thread-july",
                "supersededAt": "2026-11-29T00:00:00Z",
                "reason": "moved",
            }
        ],
    }
    source = tmp_path / "memory.json"
    source.write_text(json.dumps(data), encoding="utf-8")
    root = str(tmp_path / "mem")
    assert cli("--root", root, "import", "--user", "max", str(source), cwd=tmp_path).returncode == 0
    shown = cli("--root", root, "show", "--user", "max", cwd=tmp_path).stdout
    assert "superseded" in shown
    assert "Lives in Munich" in shown and "thread-july" in shown and "2026-07-12" in shown


def test_list_and_show_print_the_real_ids_of_mapped_folders(tmp_path: Path) -> None:
    from deerflow_memory.models import Fact, MemoryDocument
    from deerflow_memory.storage.file import FileMemoryStorage

    root = tmp_path / "mem"
    long_id = "ж" * 128
    storage = FileMemoryStorage(root)
    for user, agent in ((long_id, None), ("CON", "Zo\u00eb")):
        storage.save(user, agent, MemoryDocument(facts=(Fact(content=f"Fact of {user[:3]}"),)))
    listed = cli("--root", str(root), "list", cwd=tmp_path)
    assert listed.returncode == 0, listed.stderr
    assert listed.stdout.splitlines() == ["CON\tZo\u00eb", f"{long_id}\t(default agent)"]
    shown = cli("--root", str(root), "show", "--user", "CON", "--agent", "Zoe\u0308", cwd=tmp_path)
    assert shown.returncode == 0, shown.stderr
    assert "Fact of CON" in shown.stdout


def test_pending_lists_dead_letters_and_retry_applies_them(tmp_path: Path) -> None:
    from langchain_core.messages import AIMessage, HumanMessage

    from deerflow_memory.storage.file import FileMemoryStorage
    from deerflow_memory.update.dead_letter import dead_letter_for
    from deerflow_memory.update.queue import UpdateJob

    root = tmp_path / "mem"
    job = UpdateJob(
        "t1",
        "ann",
        None,
        (HumanMessage("I am allergic to peanuts.", id="h1"), AIMessage("Noted.", id="a1")),
    )
    FileMemoryStorage(root).put_dead_letter(dead_letter_for(job, "ModelCallError: 503", attempts=8))

    listed = cli("--root", str(root), "pending", cwd=tmp_path)
    assert listed.returncode == 0, listed.stderr
    assert "1 failed memory update" in listed.stdout and "503" in listed.stdout
    as_json = json.loads(cli("--root", str(root), "pending", "--json", cwd=tmp_path).stdout)
    assert [key_id(k) for k in as_json[0]["messageIds"]] == ["h1", "a1"] and as_json[0][
        "attempts"
    ] == 8

    # Before the retry, ann has no memory but her words are kept: show and export say
    # where (they said "no memory is stored here, check --root").
    for command in ("show", "export"):
        shown = cli("--root", str(root), command, "--user", "ann", cwd=tmp_path)
        assert shown.returncode == 1 and shown.stderr.count("\n") == 1, shown.stderr
        assert "1 failed update of theirs is kept" in shown.stderr
        assert "deerflow-memory pending lists them" in shown.stderr

    retried = cli("--root", str(root), "retry", cwd=tmp_path)
    assert retried.returncode == 0, retried.stdout + retried.stderr
    assert "1 applied, 0 still failing" in retried.stdout
    # which extractor ran is said first (newcomer 297: a shell without the model's
    # settings reran a letter offline, and the letter was gone)
    assert retried.stdout.startswith("retried with the rule-based extractor: no model is")
    assert "no failed memory updates" in cli("--root", str(root), "pending", cwd=tmp_path).stdout
    assert "peanut" in cli("--root", str(root), "show", "--user", "ann", cwd=tmp_path).stdout


def test_retry_with_the_model_still_unreachable_says_failed_again(tmp_path: Path) -> None:
    # A transient failure (connection refused) stores the letter again: "applied in
    # part" would tell the user something went through when nothing did.
    from langchain_core.messages import AIMessage, HumanMessage

    from deerflow_memory.storage.file import FileMemoryStorage
    from deerflow_memory.update.dead_letter import dead_letter_for
    from deerflow_memory.update.queue import UpdateJob

    root = tmp_path / "mem"
    turn = (HumanMessage("I am allergic to peanuts.", id="h1"), AIMessage("Noted.", id="a1"))
    FileMemoryStorage(root).put_dead_letter(
        dead_letter_for(UpdateJob("t1", "ann", None, turn), "ModelCallError: 503", attempts=8)
    )
    config = tmp_path / "cfg.yaml"
    config.write_text(
        "memory:\n  model_name: local-model\n  base_url: http://127.0.0.1:9/v1\n"
        "  api_key: sk-local\n  model_call_retries: 0\n  update_max_attempts: 1\n"
    )
    retried = cli("--root", str(root), "retry", "--config", str(config), cwd=tmp_path)
    assert retried.returncode == 1, retried.stdout + retried.stderr
    assert "failed again" in retried.stdout and "applied in part" not in retried.stdout
    assert "0 applied, 1 still failing" in retried.stdout
    assert retried.stdout.startswith("retried with the model local-model at http://127.0.0.1:9/v1")
    assert "1 failed memory update" in cli("--root", str(root), "pending", cwd=tmp_path).stdout
