"""Deleting a memory deletes its damaged dead letters too, and names those it cannot attribute.

A dead letter kept under another name (a restored backup copy) or one that no
longer parses is listed as unreadable and never run. Such a letter still holds
the user's words: a memory delete (``clear_memory``, the HTTP ``DELETE`` route,
``deerflow-memory clear``) removes it when its owner can be read from it, and
names in its answer those whose owner cannot be read instead of reporting a
clean delete.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterator
from pathlib import Path

import pytest
from langchain_core.messages import AIMessage, HumanMessage

from deerflow_memory import MemoryConfig, MemoryService
from deerflow_memory.storage.base import MemoryStorage
from deerflow_memory.storage.dead_letters import DeadLetter, owner_of
from deerflow_memory.storage.file import FileMemoryStorage
from deerflow_memory.storage.store import StoreMemoryStorage
from deerflow_memory.update.dead_letter import dead_letter_for
from deerflow_memory.update.queue import UpdateJob
from tests.test_cli import cli

ALICE_SAYS = "I was diagnosed with gout."
BOB_SAYS = "My locker code is 4417."


def letter_of(user: str, said: str, agent: str | None = None) -> DeadLetter:
    messages = (HumanMessage(said, id="h1"), AIMessage("Noted.", id="a1"))
    job = UpdateJob("t-" + user, user, agent, messages)
    return dead_letter_for(job, "ModelCallError: 503", attempts=8)


def keep_as(storage: MemoryStorage, name: str, value: str) -> None:
    """Store ``value`` (a letter's JSON text) under ``name``, as a backup restore would."""
    if isinstance(storage, FileMemoryStorage):
        folder = storage.root / "dead_letters"
        folder.mkdir(parents=True, exist_ok=True)
        (folder / f"{name}.json").write_text(value, encoding="utf-8")
    else:
        assert isinstance(storage, StoreMemoryStorage)
        storage.store.put(storage.dead_letter_namespace, name, json.loads(value), index=False)


def everything_stored(storage: MemoryStorage, path: Path) -> str:
    """Every file's text (file backend) or every row of every table (SQLite), as one text."""
    if isinstance(storage, FileMemoryStorage):
        files = [p for p in storage.root.rglob("*") if p.is_file()]
        return "\n".join(p.read_text(encoding="utf-8", errors="replace") for p in files)
    with sqlite3.connect(path) as db:
        tables = [r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type='table'")]
        return "\n".join(str(row) for t in tables for row in db.execute(f'SELECT * FROM "{t}"'))


@pytest.fixture(params=["file", "sqlite"])
def memory(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[MemoryService]:
    path = tmp_path / ("memory" if request.param == "file" else "memory.sqlite")
    config = MemoryConfig(storage=request.param, storage_path=path, debounce_seconds=3600)
    with MemoryService(config, register_atexit=False) as service:
        yield service


def test_clearing_a_memory_deletes_its_copies_and_damaged_letters_and_spares_others(
    memory: MemoryService,
) -> None:
    storage = memory.storage
    alice, bob = letter_of("alice", ALICE_SAYS), letter_of("bob", BOB_SAYS)
    alice_coder = letter_of("alice", "I code in Rust.", agent="coder")
    for real in (alice, bob, alice_coder):
        storage.put_dead_letter(real)
    keep_as(storage, "dl_00000001", alice.to_json())  # a restored copy
    damaged = {**alice.to_dict(), "id": "dl_NOT_HEX", "attempts": -1}  # parses, does not validate
    keep_as(storage, "dl_00000002", json.dumps(damaged))
    keep_as(storage, "dl_00000003", bob.to_json())  # bob's copy
    assert len(storage.unreadable_dead_letters()) == 3

    assert memory.clear_memory("alice") is True

    path = memory.config.storage_path
    assert path is not None
    assert ALICE_SAYS not in everything_stored(storage, path)
    assert sorted(x.id for x in storage.list_dead_letters()) == sorted([bob.id, alice_coder.id])
    [left] = storage.unreadable_dead_letters()  # bob's copy, as it was
    assert left.owner == ("bob", None) and left.name == "dl_00000003"
    assert BOB_SAYS in everything_stored(storage, path)


def test_a_memory_with_only_a_damaged_letter_counts_as_existing(memory: MemoryService) -> None:
    keep_as(memory.storage, "dl_00000001", letter_of("alice", ALICE_SAYS).to_json())
    assert memory.clear_memory("alice") is True
    assert memory.storage.unreadable_dead_letters() == []
    assert memory.clear_memory("alice") is False


def test_clear_by_command_line_names_the_letters_whose_owner_cannot_be_read(
    tmp_path: Path,
) -> None:
    root = tmp_path / "mem"
    storage = FileMemoryStorage(root)
    alice = letter_of("alice", ALICE_SAYS)
    storage.put_dead_letter(alice)
    keep_as(storage, "dl_00000001", alice.to_json())
    garbage = root / "dead_letters" / "dl_00000002.json"
    garbage.write_bytes(b"\x00\x01 not a letter")

    listed = cli("--root", str(root), "pending", cwd=tmp_path)
    advice = " ".join(listed.stdout.split())
    assert "remove it" in advice and "rename" not in advice

    done = cli("--root", str(root), "clear", "--user", "alice", "--yes", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert len(done.stdout.splitlines()) == 1, done.stdout
    assert done.stdout.startswith("deleted the memory of 'alice'")
    assert "1 unreadable dead letter left, whose owner cannot be read" in done.stdout
    assert str(garbage) in done.stdout
    assert sorted(p.name for p in (root / "dead_letters").iterdir()) == [garbage.name]
    assert garbage.read_bytes() == b"\x00\x01 not a letter"  # not ours to judge: kept


def test_the_owner_of_a_damaged_letter_is_read_from_what_parses() -> None:
    text = letter_of("alice", ALICE_SAYS, agent="coder").to_json()
    assert owner_of(text) == ("alice", "coder")
    assert owner_of(text.encode()) == ("alice", "coder")
    assert owner_of(text[: len(text) // 2]) == ("alice", "coder")  # cut short: fields found
    odd = letter_of('al"i\\ce', "x").to_json()
    cut = odd.index('"agentName":null') + len('"agentName":null')
    assert owner_of(odd[:cut]) == ('al"i\\ce', None)
    assert owner_of({"userId": "bob"}) == ("bob", None)  # no agent: the default agent
    assert owner_of('{"userId": "bob", "agentN') is None  # agent cut off: unknown
    assert owner_of({"userId": 7, "agentName": None}) is None
    assert owner_of({"userId": "bob", "agentName": ["x"]}) is None
    assert owner_of([1, 2]) is None and owner_of(b"\xff\xfe") is None


def test_a_memory_delete_reads_each_stored_letter_once(
    memory: MemoryService, monkeypatch: pytest.MonkeyPatch
) -> None:
    import deerflow_memory.storage.file as file_backend
    import deerflow_memory.storage.store as store_backend
    from deerflow_memory.storage.dead_letters import parse_letter

    storage = memory.storage
    alice, bob = letter_of("alice", ALICE_SAYS), letter_of("bob", BOB_SAYS)
    storage.put_dead_letter(alice)
    storage.put_dead_letter(bob)
    keep_as(storage, "dl_00000001", alice.to_json())  # a copy: unreadable, alice's
    keep_as(storage, "dl_00000002", json.dumps({"torn": True}))  # damaged, owner unknown
    parsed: list[str] = []

    def counted(raw: object, stored_as: str, location: str) -> object:
        parsed.append(stored_as)
        return parse_letter(raw, stored_as, location)

    backend = file_backend if isinstance(storage, FileMemoryStorage) else store_backend
    monkeypatch.setattr(backend, "parse_letter", counted)
    assert memory.clear_memory("alice")
    assert sorted(parsed) == sorted([alice.id, bob.id, "dl_00000001", "dl_00000002"])
    assert [x.id for x in storage.list_dead_letters()] == [bob.id]
    assert [x.name for x in storage.unreadable_dead_letters()] == ["dl_00000002"]
