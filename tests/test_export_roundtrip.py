"""What the library exports imports back: after edits and deletes, over HTTP and the CLI.

Editing a fact keeps its id and moves the old wording to ``supersededFacts``;
deleting it adds one more history entry with that id. The export of such a
memory (the README's curl order: POST, PATCH, DELETE, export, PUT) must import
again, into any user, and an import with replace must replace, on every backend.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient

from deerflow_memory import FileMemoryStorage
from deerflow_memory.cli import main
from deerflow_memory.models import utc_now_iso
from deerflow_memory.update.manual import add_manual_fact, delete_fact, edit_fact, save_edit


def history(client: TestClient, user: str) -> list[tuple[str, str, str]]:
    entries = client.get(f"/memory/users/{user}/history").json()["supersededFacts"]
    return [(e["id"], e["content"], e["reason"]) for e in entries]


@pytest.mark.parametrize("backend", ["file", "sqlite"])
def test_the_readmes_curl_order_post_patch_delete_export_put_round_trips(
    make_client: Any, backend: str
) -> None:
    client: TestClient = make_client(storage=backend)
    client.post("/memory/users/bob/facts", json={"content": "Likes tea"})  # bob's old memory
    posted = client.post("/memory/users/alice/facts", json={"content": "Prefers aisle seats"})
    fact_id, revision = posted.json()["fact"]["id"], posted.json()["revision"]
    for text in ("Prefers window seats", "Prefers middle seats"):
        patched = client.patch(
            f"/memory/users/alice/facts/{fact_id}", json={"content": text, "revision": revision}
        )
        assert patched.status_code == 200, patched.text
        revision = patched.json()["revision"]
    client.post("/memory/users/alice/facts", json={"content": "Travels with a cat"})
    assert client.delete(f"/memory/users/alice/facts/{fact_id}").status_code == 200
    exported = client.get("/memory/users/alice/export")
    assert [e["id"] for e in exported.json()["supersededFacts"]] == [fact_id] * 3

    put = client.put(
        "/memory/users/bob",
        params={"replace": "true"},
        content=exported.content,
        headers={"Content-Type": "application/json"},
    )
    assert put.status_code == 200, put.text
    assert put.json()["imported"] == 1
    bob = client.get("/memory/users/bob").json()
    assert [f["content"] for f in bob["facts"]] == ["Travels with a cat"]  # Likes tea replaced
    assert history(client, "bob") == history(client, "alice")
    # The re-imported memory is edited like any other.
    (kept,) = bob["facts"]
    patched = client.patch(
        f"/memory/users/bob/facts/{kept['id']}",
        json={"content": "Travels with two cats", "revision": bob["revision"]},
    )
    assert patched.status_code == 200, patched.text


def test_the_cli_imports_its_own_export_of_an_edited_then_deleted_fact(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    root = tmp_path / "memory"
    storage = FileMemoryStorage(root)
    _, fact = save_edit(storage, "zoe", None, lambda d: add_manual_fact(d, "Prefers aisle seats"))
    save_edit(storage, "zoe", None, lambda d: edit_fact(d, fact.id, content="Prefers window seats"))
    save_edit(storage, "zoe", None, lambda d: delete_fact(d, fact.id))
    exported = tmp_path / "zoe.json"
    assert main(["--root", str(root), "export", "--user", "zoe", "-o", str(exported)]) == 0
    assert main(["--root", str(root), "import", "--user", "bob", str(exported)]) == 0
    assert "imported 0 facts into bob" in capsys.readouterr().out
    zoe = json.loads(exported.read_text(encoding="utf-8"))["supersededFacts"]
    bob = FileMemoryStorage(root).load("bob").superseded_facts
    assert [(e.id, e.content, e.reason) for e in bob] == [
        (e["id"], e["content"], e["reason"]) for e in zoe
    ]
    assert [e.reason for e in bob] == ["edited by the user", "deleted by the user"]


def test_an_import_dates_the_memory_when_it_was_imported(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # It kept the file's lastUpdated (newcomer 38): the memory changed at the import.
    written = tmp_path / "old.json"
    written.write_text(
        json.dumps(
            {
                "lastUpdated": "2021-03-04T05:06:07Z",
                "facts": [{"id": "f1", "content": "Keeps bees", "category": "context"}],
            }
        ),
        encoding="utf-8",
    )
    root = tmp_path / "memory"
    before = utc_now_iso()
    assert main(["--root", str(root), "import", "--user", "ivy", str(written)]) == 0
    stored = FileMemoryStorage(root).load("ivy")
    assert [f.content for f in stored.facts] == ["Keeps bees"]
    assert stored.last_updated >= before  # the import's time, not 2021's


def test_cli_import_with_yes_replaces_every_fact_in_a_sqlite_store(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    config = tmp_path / "memory.yaml"
    config.write_text(f"storage: sqlite\nstorage_path: {tmp_path / 'm.sqlite'}\n", "utf-8")
    base = ["--config", str(config)]
    for user, text in (("ana", "Prefers aisle seats"), ("ana", "Likes jazz"), ("bob", "Likes tea")):
        assert main([*base, "remember", "--user", user, text]) == 0
    exported = tmp_path / "ana.json"
    assert main([*base, "export", "--user", "ana", "-o", str(exported)]) == 0
    capsys.readouterr()
    assert main([*base, "import", "--user", "bob", "--yes", str(exported)]) == 0
    assert "imported 2 facts" in capsys.readouterr().out
    assert main([*base, "show", "--user", "bob", "--json"]) == 0
    facts = json.loads(capsys.readouterr().out)["facts"]
    assert sorted(f["content"] for f in facts) == ["Likes jazz", "Prefers aisle seats"]
