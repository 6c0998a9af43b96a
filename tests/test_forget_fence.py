"""What a delete keeps (the fence) names nothing: ids and keys are sealed, the user is not listed.

The fence still stops old threads from being learned again (``test_forget.py``
holds the rest of that story); these tests check that it does so without
keeping the deleted user's thread ids or message keys in readable form, on
file, SQLite and Postgres storage.
"""

from __future__ import annotations

import json
import os
import sqlite3
import stat
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest
from langchain_core.messages import AIMessage, BaseMessage, HumanMessage

from deerflow_memory import MemoryConfig, MemoryIdentity, MemoryService
from deerflow_memory.errors import CorruptMemoryError
from deerflow_memory.models import ExtractionWatermark, Fact, MemoryDocument
from deerflow_memory.storage.file import FileMemoryStorage
from deerflow_memory.storage.stats import storage_stats
from deerflow_memory.update.incremental import key_id, with_keys

THREAD = "thread-oslo-7f3a"
OLD = MemoryIdentity("alice", None, THREAD)


def said(*texts: str, ids: bool = True) -> list[BaseMessage]:
    """A conversation; with ``ids`` every message has a recognisable LangGraph-style id."""
    history: list[BaseMessage] = []
    for i, text in enumerate(texts):
        if ids:
            history += [
                HumanMessage(text, id=f"msg-user-{i}"),
                AIMessage("Noted.", id=f"msg-ai-{i}"),
            ]
        else:
            history += [HumanMessage(text), AIMessage("Noted.")]
    return history


def learned(memory: MemoryService, who: MemoryIdentity = OLD) -> list[str]:
    return [f.content for f in memory.load(who).facts]


def assert_only_the_new_turn_is_learned(
    memory: MemoryService,
    old: list[BaseMessage],
    *,
    ids: bool = True,
    forgotten: tuple[str, ...] = ("Oslo", "vegetarian"),
) -> None:
    """Send the old thread again with a new turn ("I work as a nurse.") after it and flush:
    the new turn is learned, none of ``forgotten`` (said before the delete) is."""
    turns = len(old) // 2
    new = said(*["x"] * turns, "I work as a nurse.", ids=ids)[2 * turns :]
    memory.enqueue(OLD, [*old, *new])
    assert memory.flush(timeout=30)
    facts = learned(memory)
    assert any("nurse" in f for f in facts), facts
    assert not any(w in f for f in facts for w in forgotten), facts


def secrets_of(messages: list[BaseMessage]) -> list[str]:
    """What must not stay readable: the thread id, every message key and the ids in them."""
    _, keys = with_keys(messages)
    return [THREAD, *keys, *(key_id(k) for k in keys)]


@pytest.fixture(params=["file", "sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
def backend(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[tuple[str, Path, object]]:
    """``(kind, path, storage or None)``: a fresh backend (Postgres under its own prefix)."""
    if request.param != "postgres":
        name = "memory" if request.param == "file" else "memory.sqlite"
        yield request.param, tmp_path / name, None
        return
    from deerflow_memory.storage.factory import open_storage
    from deerflow_memory.storage.migrate import parse_backend_spec
    from tests.pg import drop_prefix, postgres_dsn_or_skip

    dsn = postgres_dsn_or_skip()
    prefix = ("dfm_test", uuid.uuid4().hex)
    try:
        with open_storage(parse_backend_spec(f"postgres:{dsn}"), namespace_prefix=prefix) as pg:
            yield "postgres", Path(), (pg, prefix, dsn)
    finally:
        drop_prefix(dsn, prefix)


def service(backend: tuple[str, Path, object], **config: object) -> MemoryService:
    kind, path, extra = backend
    if kind == "postgres":
        pg, _, _ = extra  # type: ignore[misc]
        settings = MemoryConfig(debounce_seconds=3600, **config)  # type: ignore[arg-type]
        return MemoryService(settings, storage=pg, register_atexit=False)
    settings = MemoryConfig(storage=kind, storage_path=path, debounce_seconds=3600, **config)  # type: ignore[arg-type]
    return MemoryService(settings, register_atexit=False)


def stored_text(backend: tuple[str, Path, object]) -> str:
    """Everything the backend holds for memory documents, as text (files, rows)."""
    kind, path, extra = backend
    if kind == "file":
        return "\n".join(
            p.read_text(errors="replace") for p in sorted(path.rglob("*")) if p.is_file()
        )
    if kind == "sqlite":
        with sqlite3.connect(path) as db:
            rows = db.execute("SELECT prefix, key, value FROM store").fetchall()
        return "\n".join(map(str, rows))
    import psycopg

    _, prefix, dsn = extra  # type: ignore[misc]
    with psycopg.connect(dsn) as conn:
        rows = conn.execute(
            "SELECT prefix, key, value::text FROM store WHERE prefix LIKE %s",
            (".".join(prefix) + ".%",),
        ).fetchall()
    return "\n".join(map(str, rows))


@pytest.mark.parametrize("ids", [True, False], ids=["message ids", "id-less messages"])
def test_after_a_delete_no_thread_id_or_message_key_is_stored_readable(
    backend: tuple[str, Path, object], ids: bool
) -> None:
    old = said("I live in Oslo.", "I am a vegetarian.", ids=ids)
    with service(backend) as memory:
        memory.enqueue(OLD, old[:2])
        assert memory.flush(timeout=30) and learned(memory)
        memory.enqueue(OLD, old)  # the second turn still pending at the delete
        assert memory.clear_memory("alice") is True
    raw = stored_text(backend)  # closed: the outbox has let go of the dropped turns too
    assert "sealed" in raw  # the fence is there ...
    for secret in secrets_of(old):  # ... but none of these can be read from it
        assert secret not in raw, secret
        assert secret.removeprefix("h:") not in raw, secret


@pytest.mark.parametrize("ids", [True, False], ids=["message ids", "id-less messages"])
def test_the_next_turn_of_an_old_thread_is_still_not_learned_again(
    backend: tuple[str, Path, object], ids: bool
) -> None:
    old = said("I live in Oslo.", "I am a vegetarian.", ids=ids)
    with service(backend) as memory:
        memory.enqueue(OLD, old[:2])
        assert memory.flush(timeout=30)
        memory.enqueue(OLD, old)
        memory.clear_memory("alice")
    with service(backend) as memory:  # a restart: the fence key is read back, not remade
        assert_only_the_new_turn_is_learned(memory, old, ids=ids)


def test_a_deleted_user_is_not_listed_until_a_new_memory_is_made(
    backend: tuple[str, Path, object],
) -> None:
    with service(backend) as memory:
        memory.enqueue(OLD, said("I live in Oslo."))
        memory.enqueue(MemoryIdentity("bob", None, "t9"), said("I live in Rome."))
        assert memory.flush(timeout=30)
        storage = memory.storage
        assert list(storage.list_memories()) == [("alice", None), ("bob", None)]
        memory.clear_memory("alice")
        assert list(storage.list_memories()) == [("bob", None)]
        assert [s.user_id for s in storage_stats(storage)] == ["bob"]
        # The same user talks again, in a new thread: a new memory, listed again.
        memory.enqueue(MemoryIdentity("alice", None, "t2"), said("I work as a nurse."))
        assert memory.flush(timeout=30)
        assert any("nurse" in f for f in learned(memory))
        assert list(storage.list_memories()) == [("alice", None), ("bob", None)]


def test_a_second_delete_keeps_both_fences_of_a_thread(tmp_path: Path) -> None:
    backend = ("file", tmp_path / "memory", None)
    first = said("I live in Oslo.", "I am a vegetarian.", "I have a cat.")
    with service(backend) as memory:
        memory.enqueue(OLD, first[:2])
        assert memory.flush(timeout=30)
        memory.clear_memory("alice")
        memory.enqueue(OLD, first[:4])  # after the first delete: learned
        assert memory.flush(timeout=30)
        assert any("vegetarian" in f for f in learned(memory))
        memory.enqueue(OLD, first)  # "cat" pending at the second delete
        memory.clear_memory("alice")
        marks = memory.load(OLD).extraction_watermarks
        assert len(marks) == 1 and marks[0].sealed  # one sealed mark for the thread
        assert_only_the_new_turn_is_learned(memory, first, forgotten=("Oslo", "vegetarian", "cat"))


def test_the_list_and_show_commands_treat_a_deleted_user_as_having_no_memory(
    tmp_path: Path,
) -> None:
    from tests.test_cli import cli

    root = tmp_path / "memory"
    with service(("file", root, None)) as memory:
        memory.enqueue(OLD, said("I live in Oslo."))
        memory.enqueue(MemoryIdentity("bob", None, "t9"), said("I live in Rome."))
        assert memory.flush(timeout=30)
    args = ("--root", str(root))
    assert cli(*args, "clear", "--user", "alice", "--yes", cwd=tmp_path).returncode == 0
    listed = cli(*args, "list", "--json", cwd=tmp_path)
    assert json.loads(listed.stdout) == [{"user": "bob", "agent": None}]
    shown = cli(*args, "show", "--user", "alice", cwd=tmp_path)
    assert shown.returncode != 0 and "no memory for user 'alice'" in shown.stderr
    assert "alice" not in shown.stderr.split("stored users:")[-1]


def test_the_fence_key_is_made_once_private_and_shared_by_every_storage_on_the_root(
    tmp_path: Path,
) -> None:
    one, two = FileMemoryStorage(tmp_path / "m"), FileMemoryStorage(tmp_path / "m")
    key = one.fence_key()
    assert len(key) == 32 and two.fence_key() == key
    mode = os.stat(tmp_path / "m/fence.key").st_mode
    assert stat.S_IMODE(mode) == 0o600
    assert FileMemoryStorage(tmp_path / "other").fence_key() != key


def test_a_damaged_fence_key_is_a_corrupt_memory_error_and_the_delete_changes_nothing(
    tmp_path: Path,
) -> None:
    backend = ("file", tmp_path / "memory", None)
    with service(backend) as memory:
        memory.enqueue(OLD, said("I live in Oslo."))
        assert memory.flush(timeout=30)
    (tmp_path / "memory/fence.key").write_text("not a key")
    with service(backend) as memory:
        with pytest.raises(CorruptMemoryError, match="fence key"):
            memory.clear_memory("alice")
        assert any("Oslo" in f for f in learned(memory))


def test_a_dead_letter_of_an_old_thread_after_a_delete_keeps_only_what_followed(
    tmp_path: Path,
) -> None:
    from deerflow_memory.update.queue import UpdateJob

    old = said("I live in Oslo.", "I work as a nurse.")
    with service(("file", tmp_path / "memory", None)) as memory:
        memory.enqueue(OLD, old[:2])
        assert memory.flush(timeout=30)
        memory.clear_memory("alice")
        job = UpdateJob(THREAD, "alice", None, tuple(old))
        letter = memory.write_dead_letter(job, "model down")
    kept = json.dumps(letter.messages)
    assert "nurse" in kept and "Oslo" not in kept


def test_a_fence_of_keys_from_before_digests_still_matches_messages_by_their_id(
    tmp_path: Path,
) -> None:
    old = said("I live in Oslo.", "I am a vegetarian.")
    backend = ("file", tmp_path / "memory", None)
    bare = tuple(str(m.id) for m in old)  # keys as versions before the text digest wrote them
    mark = ExtractionWatermark(thread_id=THREAD, message_keys=bare, updated_at="2026-11-30")
    document = MemoryDocument(facts=(Fact(content="User lives in Oslo"),))
    with service(backend) as memory:
        memory.storage.save(
            "alice", None, document.model_copy(update={"extraction_watermarks": (mark,)})
        )
        memory.clear_memory("alice")
        assert_only_the_new_turn_is_learned(memory, old)


def test_a_migration_takes_the_fence_key_along_so_old_threads_stay_read(
    tmp_path: Path,
) -> None:
    from deerflow_memory.storage.factory import open_storage
    from deerflow_memory.storage.migrate import migrate, parse_backend_spec

    old = said("I live in Oslo.", "I am a vegetarian.")
    source = ("file", tmp_path / "memory", None)
    with service(source) as memory:
        memory.enqueue(OLD, old[:2])
        assert memory.flush(timeout=30)
        memory.enqueue(OLD, old)
        memory.clear_memory("alice")
    files = FileMemoryStorage(tmp_path / "memory")
    with open_storage(parse_backend_spec(f"sqlite:{tmp_path / 'm.sqlite'}")) as target:
        report = migrate(files, target)
        assert report.ok and report.fence_keys_kept == []
        assert target.stored_fence_key() == files.stored_fence_key()
    with service(("sqlite", tmp_path / "m.sqlite", None)) as memory:
        assert_only_the_new_turn_is_learned(memory, old)


def test_a_migration_keeps_a_target_key_and_says_so_and_makes_none_from_nothing(
    tmp_path: Path,
) -> None:
    from deerflow_memory.storage.migrate import migrate

    with_key, target = FileMemoryStorage(tmp_path / "a"), FileMemoryStorage(tmp_path / "b")
    with_key.fence_key()
    own = target.fence_key()
    report = migrate(with_key, target)
    assert report.fence_keys_kept == [""] and target.fence_key() == own
    assert "kept its own fence key" in report.summary()
    empty, fresh = FileMemoryStorage(tmp_path / "c"), FileMemoryStorage(tmp_path / "d")
    assert migrate(empty, fresh).fence_keys_kept == []
    assert empty.stored_fence_key() is None and fresh.stored_fence_key() is None
    assert not (tmp_path / "c/fence.key").exists()


@pytest.mark.parametrize("kind", ["file", "sqlite"])
def test_a_service_clear_drops_an_update_kept_under_the_nfd_spelling_of_the_agent(
    kind: str, tmp_path: Path
) -> None:
    # A stopped process left an update of agent "cafe\u0301" (as written, not NFC): the
    # service adopts it into its queue, and clear_memory("alice", "café") dropped it only
    # when the spelling matched.
    import time

    from deerflow_memory.storage.factory import open_storage
    from deerflow_memory.storage.migrate_pending import waiting_updates
    from deerflow_memory.storage.outbox import PendingUpdate
    from deerflow_memory.update.durable import build_outbox
    from tests.test_migrate_pending import SAID, left_by_a_stopped_process

    config = MemoryConfig(storage=kind, storage_path=tmp_path / "m", debounce_seconds=3600)
    now = time.time()
    update = PendingUpdate(
        "t1", "alice", "cafe\u0301", tuple(SAID), due_at=now + 3600, record_id="r1", captured_at=now
    )
    with open_storage(config) as stored:
        outbox = build_outbox(stored, config)
        assert outbox is not None
        left_by_a_stopped_process(outbox, update)
    with MemoryService(config, register_atexit=False) as memory:
        assert memory.clear_memory("alice", "caf\u00e9") is True
        assert memory.flush(timeout=30)
    with open_storage(config) as stored:
        assert not any(waiting_updates(stored) or ())
        assert stored.load("alice", "caf\u00e9").facts == ()
