"""An import of an export made before a delete brings the deleted fact back, and says so."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from starlette.testclient import TestClient

from deerflow_memory.models import USER_DELETED_REASON, Fact, MemoryDocument, SupersededFact
from deerflow_memory.storage.file import FileMemoryStorage
from deerflow_memory.update.import_check import brought_back_by_import, brought_back_note
from tests.test_cli_errors import assert_one_error_line, run


def _fact(fact_id: str, content: str) -> Fact:
    return Fact(id=fact_id, content=content, category="context", confidence=0.9)


def _gone(fact_id: str, content: str, reason: str = USER_DELETED_REASON) -> SupersededFact:
    data = _fact(fact_id, content).model_dump()
    return SupersededFact(**data, superseded_at="2026-11-02T10:00:00Z", reason=reason)


def test_the_facts_brought_back_are_those_the_user_deleted_case_and_spacing_aside() -> None:
    current = MemoryDocument(
        facts=[_fact("f9", "Plays the cello")],
        superseded_facts=[
            _gone("f1", "Works night shifts at a bakery"),
            _gone("f2", "Owns a grey parrot", reason="edited by the user"),
            _gone("f3", "Keeps bees on the roof"),
        ],
    )
    incoming = MemoryDocument(
        facts=[
            _fact("a", "keeps  BEES on the roof"),
            _fact("b", "Owns a grey parrot"),  # only edited, never deleted
            _fact("c", "Works night shifts at a bakery"),
            _fact("d", "Plays the cello"),
        ]
    )
    assert [f.id for f in brought_back_by_import(current, incoming)] == ["a", "c"]
    assert brought_back_by_import(MemoryDocument(facts=[_fact("x", "Tea")]), incoming) == ()


def test_a_deleted_fact_edited_a_little_in_the_file_is_still_named() -> None:
    # The match extraction uses to keep a deleted fact out: a full stop or a word
    # added still names it (attacker 55: one full stop brought it back unnamed).
    current = MemoryDocument(superseded_facts=[_gone("f1", "Keeps bees on the roof")])
    incoming = MemoryDocument(
        facts=[
            _fact("a", "Keeps bees on the roof."),
            _fact("b", "Keeps two bees on the roof"),
            _fact("c", "Keeps a boat at the marina"),
        ]
    )
    assert [f.id for f in brought_back_by_import(current, incoming)] == ["a", "b"]


def test_a_file_that_records_the_delete_itself_brings_nothing_back() -> None:
    current = MemoryDocument(superseded_facts=[_gone("f1", "Keeps bees on the roof")])
    incoming = MemoryDocument(
        facts=[_fact("a", "Keeps bees on the roof")],
        superseded_facts=[_gone("old", "Keeps bees on the roof")],
    )
    assert brought_back_by_import(current, incoming) == ()


def test_the_note_names_three_facts_and_counts_the_rest() -> None:
    facts = tuple(_fact(f"f{i}", f"Fact number {i}") for i in range(5))
    assert brought_back_note(facts[:1]) == "1 fact you deleted (f0: Fact number 0)"
    assert brought_back_note(facts) == (
        "5 facts you deleted (f0: Fact number 0, f1: Fact number 1, f2: Fact number 2 and 2 more)"
    )


@pytest.fixture
def exported_then_forgotten(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> tuple[Path, Path, str]:
    """ann remembers two facts, exports them, then forgets the second."""
    root, export = tmp_path / "mem", tmp_path / "ann.json"
    for text in ("Allergic to penicillin", "Lives in Tromso"):
        assert run(capsys, "--root", str(root), "remember", "--user", "ann", text)[0] == 0
    assert run(capsys, "--root", str(root), "export", "--user", "ann", "-o", str(export))[0] == 0
    oslo = next(f for f in json.loads(export.read_text())["facts"] if "Tromso" in f["content"])
    assert run(capsys, "--root", str(root), "forget", "--user", "ann", oslo["id"])[0] == 0
    return root, export, oslo["id"]


def test_the_command_names_a_deleted_fact_before_and_after_bringing_it_back(
    exported_then_forgotten: tuple[Path, Path, str], capsys: pytest.CaptureFixture[str]
) -> None:
    root, export, fact_id = exported_then_forgotten
    base = ("--root", str(root), "import", "--user", "ann", str(export))
    status, _, err = run(capsys, *base)
    assert_one_error_line(
        status, err, f"the file brings back 1 fact you deleted ({fact_id}: Lives in Tromso)"
    )
    assert [f.content for f in FileMemoryStorage(root).load("ann", None).facts] == [
        "Allergic to penicillin"
    ]
    status, out, _ = run(capsys, *base, "--yes")
    assert status == 0
    assert f"brought back 1 fact you deleted ({fact_id}: Lives in Tromso)" in out


def test_the_import_route_names_deleted_facts_it_brings_back(client: TestClient) -> None:
    kept = client.post("/memory/users/ana/facts", json={"content": "Cycles to work"}).json()
    dropped = client.post("/memory/users/ana/facts", json={"content": "Speaks Welsh"}).json()
    export = client.get("/memory/users/ana/export").content
    assert client.delete(f"/memory/users/ana/facts/{dropped['fact']['id']}").status_code == 200
    headers = {"Content-Type": "application/json"}
    refused = client.put("/memory/users/ana", content=export, headers=headers)
    assert refused.status_code == 409
    assert "brings back 1 fact you deleted" in refused.json()["error"]
    done = client.put("/memory/users/ana?replace=true", content=export, headers=headers)
    assert done.status_code == 200
    assert done.json()["broughtBack"] == [dropped["fact"]["id"]]
    again = client.put("/memory/users/ana?replace=true", content=export, headers=headers)
    assert again.json()["broughtBack"] == []  # the import replaced the history holding the delete
    assert kept["fact"]["id"] in {f["id"] for f in client.get("/memory/users/ana").json()["facts"]}


def _file_with_a_secret(tmp_path: Path) -> Path:
    path = tmp_path / "bo.json"
    facts = [
        {"id": "f_pin", "content": "Bank card PIN is 4417", "category": "context"},
        {"id": "f_home", "content": "Lives in Tromso", "category": "context"},
        {"id": "f_old", "content": "Moved banks", "category": "correction",
         "sourceError": "card number 4000 0566 5566 5556"},
    ]  # fmt: skip
    path.write_text(json.dumps({"facts": facts}), "utf-8")
    return path


def test_the_command_imports_a_secret_as_given_and_warns_naming_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # Like remember: the user's own file, but the model reads each fact every turn.
    root = tmp_path / "mem"
    status, out, err = run(
        capsys, "--root", str(root), "import", "--user", "bo", str(_file_with_a_secret(tmp_path))
    )
    assert status == 0 and "imported 3 facts" in out
    warnings = [line for line in err.splitlines() if "warning:" in line]
    assert len(warnings) == 1 and err.count("\n") == 2  # and the note of a first memory
    assert "2 facts (f_pin, f_old) look like a secret" in err and "4417" not in err
    assert "forget them" in err
    assert len(FileMemoryStorage(root).load("bo", None).facts) == 3
    plain = tmp_path / "plain.json"
    plain.write_text(json.dumps({"facts": [{"id": "a", "content": "Lives in Tromso"}]}), "utf-8")
    status, _, err = run(capsys, "--root", str(root), "import", "--user", "cy", str(plain))
    assert status == 0 and "warning" not in err  # only the note that cy's memory starts
    assert err.startswith("deerflow-memory: note: user 'cy' had no memory")


def test_the_import_route_names_facts_that_look_like_a_secret(
    client: TestClient, tmp_path: Path
) -> None:
    body = _file_with_a_secret(tmp_path).read_bytes()
    headers = {"Content-Type": "application/json"}
    done = client.put("/memory/users/bo", content=body, headers=headers)
    assert done.status_code == 200
    assert done.json()["looksUnsafe"] == ["f_pin", "f_old"]


def test_one_fact_that_looks_like_a_secret_is_said_in_the_singular(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "one.json"
    path.write_text(json.dumps({"facts": [{"id": "k", "content": "Alarm code is 9183"}]}), "utf-8")
    status, _, err = run(capsys, "--root", str(tmp_path / "m"), "import", "--user", "di", str(path))
    assert status == 0 and "1 fact (k) looks like a secret" in err and "forget it" in err
