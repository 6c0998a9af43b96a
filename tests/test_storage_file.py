"""File-specific behaviour of FileMemoryStorage: layout, DeerFlow files, atomicity, locking.

Backend-agnostic contract tests live in the storage conformance suite.
"""

from __future__ import annotations

import asyncio
import json
import os
import subprocess
import sys
import textwrap
import threading
from pathlib import Path
from typing import Any

import pytest

from deerflow_memory.errors import (
    CorruptMemoryError,
    InvalidDocumentError,
    InvalidNameError,
    RevisionConflictError,
)
from deerflow_memory.models import Fact, FactCategory, MemoryDocument
from deerflow_memory.storage import file as file_storage
from deerflow_memory.storage.file import FileMemoryStorage

DEERFLOW_V1_FILE: dict[str, Any] = {
    "version": "1.0",
    "lastUpdated": "2025-03-02T10:00:00Z",
    "user": {
        "workContext": {
            "summary": "后端工程师，在做 LangGraph 智能体。",
            "updatedAt": "2025-03-01T09:00:00Z",
        },
        "personalContext": {"summary": "Lives in Hangzhou.", "updatedAt": "2025-03-01T09:00:00Z"},
        "topOfMind": {
            "summary": "Shipping the memory feature.",
            "updatedAt": "2025-03-02T10:00:00Z",
        },
    },
    "history": {
        "recentMonths": {
            "summary": "Migrated services to Python 3.11.",
            "updatedAt": "2025-02-01T00:00:00Z",
        },
        "earlierContext": {"summary": "", "updatedAt": ""},
        "longTermBackground": {"summary": "Ten years of backend work.", "updatedAt": ""},
    },
    "facts": [
        {
            "id": "fact_1a2b3c4d",
            "content": "Knows Rust well",
            "category": "knowledge",
            "confidence": 0.9,
            "createdAt": "2025-02-11T08:00:00Z",
            "source": "thread-42",
            "deerflowInternalScore": 7,
        },
        {
            "id": "fact_5e6f7a8b",
            "content": "喜欢简洁的回答",
            "category": "preference",
            "confidence": 0.8,
            "createdAt": "2025-02-12T08:00:00Z",
            "source": "thread-43",
        },
    ],
    "futureTopLevelKey": {"kept": True},
}

INVALID_NAMES: list[object] = [
    "..",
    ".",
    "../x",
    "a/b",
    "a\\b",
    "/etc/passwd",
    "C:\\x",
    "x\x00y",
    "x\ny",
    "",
    " ",
    ".hidden",
    "a" * 129,
    None,
    42,
    ["alice"],
]
VALID_NAMES = ["alice", "alice@example.com", "用户_1", "agent-2.v1", "a" * 128]


@pytest.fixture
def storage(tmp_path: Path) -> FileMemoryStorage:
    return FileMemoryStorage(tmp_path / "memory")


def a_fact(content: str, category: FactCategory = FactCategory.CONTEXT) -> Fact:
    return Fact(content=content, category=category, confidence=0.9, source="thread-1")


def with_fact(document: MemoryDocument, content: str) -> MemoryDocument:
    return document.model_copy(update={"facts": (*document.facts, a_fact(content))})


def files_under(folder: Path) -> set[str]:
    return {str(p.relative_to(folder)) for p in folder.rglob("*") if p.is_file()}


# --- layout -------------------------------------------------------------------------


def test_documents_live_under_users_and_agents_folders(storage: FileMemoryStorage) -> None:
    storage.save("alice", None, with_fact(MemoryDocument(), "default agent fact"))
    storage.save("alice", "coder", with_fact(MemoryDocument(), "coder agent fact"))

    assert files_under(storage.root) == {
        "users/alice/memory.json",
        "users/alice/memory.json.lock",
        "users/alice/agents/coder/memory.json",
        "users/alice/agents/coder/memory.json.lock",
    }
    assert storage.path_for("alice") == storage.root / "users/alice/memory.json"
    assert (
        storage.path_for("alice", "coder") == storage.root / "users/alice/agents/coder/memory.json"
    )
    assert storage.load("alice").facts[0].content == "default agent fact"
    assert storage.load("alice", "coder").facts[0].content == "coder agent fact"


def test_loading_a_missing_document_returns_an_empty_one_and_creates_nothing(
    storage: FileMemoryStorage,
) -> None:
    document = storage.load("nobody", "some-agent")

    assert document.revision == 0
    assert document.is_empty()
    assert not storage.root.exists()


@pytest.mark.skipif(os.name != "posix", reason="POSIX permission bits")
def test_user_folders_and_files_are_private_to_the_owner(storage: FileMemoryStorage) -> None:
    storage.save("alice", "coder", MemoryDocument())

    user_dir = storage.root / "users" / "alice"
    for folder in (user_dir, user_dir / "agents", user_dir / "agents" / "coder"):
        assert folder.stat().st_mode & 0o077 == 0, folder
    assert storage.path_for("alice", "coder").stat().st_mode & 0o077 == 0


# --- DeerFlow compatibility -----------------------------------------------------------


def test_a_deerflow_v1_file_round_trips_with_unknown_fields_kept(
    storage: FileMemoryStorage,
) -> None:
    path = storage.path_for("alice")
    path.parent.mkdir(parents=True)
    path.write_text(json.dumps(DEERFLOW_V1_FILE, ensure_ascii=False, indent=2), encoding="utf-8")

    loaded = storage.load("alice")
    assert loaded.revision == 0
    assert loaded.facts[0].category is FactCategory.KNOWLEDGE

    storage.save("alice", None, loaded, expected_revision=0)
    assert storage.compact("alice")  # memory.json whole again (saves append to the journal)
    text = path.read_text(encoding="utf-8")
    written = json.loads(text)

    assert written["revision"] == 1
    assert written["futureTopLevelKey"] == {"kept": True}
    assert written["facts"][0]["deerflowInternalScore"] == 7
    assert written["facts"][0]["category"] == "knowledge"
    assert written["facts"][0]["createdAt"] == "2025-02-11T08:00:00Z"
    assert (
        written["user"]["workContext"]["summary"]
        == DEERFLOW_V1_FILE["user"]["workContext"]["summary"]
    )
    assert written["history"]["longTermBackground"]["summary"] == "Ten years of backend work."
    assert "后端工程师" in text  # not \u-escaped
    # Everything DeerFlow wrote is still there, unchanged (defaults may be added).
    for original, kept in zip(DEERFLOW_V1_FILE["facts"], written["facts"], strict=True):
        assert original.items() <= kept.items()
    for key in DEERFLOW_V1_FILE.keys() - {"facts"}:
        assert written[key] == DEERFLOW_V1_FILE[key]


def test_a_file_with_a_byte_order_mark_is_not_treated_as_corrupt(
    storage: FileMemoryStorage,
) -> None:
    path = storage.path_for("alice")
    path.parent.mkdir(parents=True)
    path.write_bytes(b"\xef\xbb\xbf" + json.dumps(DEERFLOW_V1_FILE).encode())

    assert storage.load("alice").facts[1].content == "喜欢简洁的回答"


# --- revisions ------------------------------------------------------------------------


def test_each_save_increments_the_revision_regardless_of_the_documents_own(
    storage: FileMemoryStorage,
) -> None:
    revisions = []
    for i in range(3):
        stale = MemoryDocument(revision=99)  # ignored: the stored revision counts
        revisions.append(storage.save("alice", None, with_fact(stale, f"fact {i}")).revision)

    assert revisions == [1, 2, 3]
    assert storage.load("alice").revision == 3
    assert FileMemoryStorage(storage.root).load("alice").revision == 3


def test_a_stale_expected_revision_is_refused_and_the_file_left_unchanged(
    storage: FileMemoryStorage,
) -> None:
    first = storage.save("alice", "coder", with_fact(MemoryDocument(), "one"))
    storage.save("alice", "coder", with_fact(first, "two"), expected_revision=1)
    before = storage.path_for("alice", "coder").read_bytes()

    with pytest.raises(RevisionConflictError) as caught:
        storage.save("alice", "coder", with_fact(first, "lost"), expected_revision=1)

    assert (caught.value.expected, caught.value.actual) == (1, 2)
    assert caught.value.agent_name == "coder"
    assert storage.path_for("alice", "coder").read_bytes() == before


def test_expected_revision_zero_means_the_document_must_not_exist_yet(
    storage: FileMemoryStorage,
) -> None:
    storage.save("alice", None, MemoryDocument(), expected_revision=0)

    with pytest.raises(RevisionConflictError):
        storage.save("alice", None, MemoryDocument(), expected_revision=0)


def test_a_revision_written_by_another_instance_is_detected(tmp_path: Path) -> None:
    mine, theirs = FileMemoryStorage(tmp_path), FileMemoryStorage(tmp_path)
    loaded = mine.load("alice")
    mine.save("alice", None, loaded)
    theirs.save("alice", None, with_fact(theirs.load("alice"), "theirs"))

    with pytest.raises(RevisionConflictError):
        mine.save("alice", None, with_fact(mine.load("alice"), "mine"), expected_revision=1)
    assert [f.content for f in mine.load("alice").facts] == ["theirs"]


# --- atomic writes --------------------------------------------------------------------


def test_a_failed_rename_keeps_the_old_document_and_leaves_no_temp_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    storage = FileMemoryStorage(tmp_path, journal=False)  # every save rewrites memory.json
    storage.save("alice", None, with_fact(MemoryDocument(), "old"))
    path = storage.path_for("alice")
    before = path.read_bytes()

    def failing_replace(src: object, dst: object) -> None:
        raise OSError("simulated crash before rename")

    monkeypatch.setattr(os, "replace", failing_replace)
    with pytest.raises(OSError, match="simulated crash"):
        storage.save("alice", None, with_fact(MemoryDocument(), "new"))
    monkeypatch.undo()

    assert path.read_bytes() == before
    assert sorted(p.name for p in path.parent.iterdir()) == ["memory.json", "memory.json.lock"]
    reloaded = FileMemoryStorage(storage.root).load("alice")
    assert [f.content for f in reloaded.facts] == ["old"]
    assert storage.load("alice").revision == 1


def test_a_process_killed_before_the_rename_leaves_the_old_document_intact(
    storage: FileMemoryStorage,
) -> None:
    storage.save("alice", None, with_fact(MemoryDocument(), "old"))
    path = storage.path_for("alice")
    before = path.read_bytes()
    script = textwrap.dedent(
        """
        import os, sys
        from deerflow_memory.models import Fact, MemoryDocument
        from deerflow_memory.storage.file import FileMemoryStorage

        def die(src, dst):
            os._exit(17)  # the temp file is written and fsynced; the rename never happens

        os.replace = die
        doc = MemoryDocument(facts=(Fact(content="new " * 500),))
        FileMemoryStorage(sys.argv[1], journal=False).save("alice", None, doc)
        """
    )
    result = subprocess.run([sys.executable, "-c", script, str(storage.root)], timeout=60)
    assert result.returncode == 17

    leftovers = [p.name for p in path.parent.iterdir() if p.name.endswith(".tmp")]
    assert len(leftovers) == 1  # the crash happened after the temp write
    assert path.read_bytes() == before
    fresh = FileMemoryStorage(storage.root)
    assert [f.content for f in fresh.load("alice").facts] == ["old"]
    assert list(fresh.list_documents()) == [("alice", None)]

    fresh.save("alice", None, with_fact(fresh.load("alice"), "after the crash"))
    assert not [p for p in path.parent.iterdir() if p.name.endswith(".tmp")]
    assert fresh.load("alice").revision == 2


# --- corrupt files --------------------------------------------------------------------


@pytest.mark.parametrize(
    ("content", "reason"),
    [
        (b'{"facts": [', "not valid JSON"),
        (b"", "not valid JSON"),
        (b"[1, 2, 3]", "expected a JSON object"),
        (b'{"facts": "not a list"}', "not a memory document"),
        (b'{"revision": -4}', "not a memory document"),
        (b'{"facts": [{"id": "x"}]}', "not a memory document"),
        (b"\xff\xfe{\x00}\x00", "not UTF-8"),
        (b"[" * 100_000, "not valid JSON"),
    ],
    ids=[
        "truncated",
        "empty",
        "array",
        "facts-string",
        "negative-revision",
        "fact-no-content",
        "utf16",
        "deeply-nested",
    ],
)
def test_a_corrupt_file_is_reported_and_left_untouched(
    storage: FileMemoryStorage, content: bytes, reason: str
) -> None:
    path = storage.path_for("alice", "coder")
    path.parent.mkdir(parents=True)
    path.write_bytes(content)

    with pytest.raises(CorruptMemoryError) as on_load:
        storage.load("alice", "coder")
    assert str(path) in str(on_load.value)
    assert reason in on_load.value.reason
    assert path.read_bytes() == content

    for expected in (None, 0):
        with pytest.raises(CorruptMemoryError):
            storage.save("alice", "coder", with_fact(MemoryDocument(), "x"), expected)
    assert path.read_bytes() == content
    assert not [p for p in path.parent.iterdir() if p.name.endswith(".tmp")]


def test_deleting_a_corrupt_file_lets_the_user_start_fresh(storage: FileMemoryStorage) -> None:
    path = storage.path_for("alice")
    path.parent.mkdir(parents=True)
    path.write_bytes(b'{"revision": 7, oops')

    assert storage.delete("alice") is True
    assert storage.load("alice").revision == 8  # past the revision the damaged file still spells
    assert storage.save("alice", None, MemoryDocument()).revision == 9


# --- names ----------------------------------------------------------------------------


@pytest.mark.parametrize("bad", INVALID_NAMES, ids=repr)
def test_unsafe_user_ids_are_rejected_everywhere(storage: FileMemoryStorage, bad: Any) -> None:
    for call in (
        lambda: storage.load(bad),
        lambda: storage.save(bad, None, MemoryDocument()),
        lambda: storage.delete(bad),
        lambda: storage.path_for(bad),
    ):
        with pytest.raises(InvalidNameError):
            call()
    assert not storage.root.exists()


@pytest.mark.parametrize("bad", [n for n in INVALID_NAMES if n is not None], ids=repr)
def test_unsafe_agent_names_are_rejected_everywhere(storage: FileMemoryStorage, bad: Any) -> None:
    for call in (
        lambda: storage.load("alice", bad),
        lambda: storage.save("alice", bad, MemoryDocument()),
        lambda: storage.delete("alice", bad),
        lambda: storage.path_for("alice", bad),
    ):
        with pytest.raises(InvalidNameError):
            call()
    assert not storage.root.exists()


@pytest.mark.parametrize("name", VALID_NAMES)
def test_safe_names_round_trip(storage: FileMemoryStorage, name: str) -> None:
    storage.save(name, None, with_fact(MemoryDocument(), "as user"))
    storage.save("alice", name, with_fact(MemoryDocument(), "as agent"))

    assert storage.load(name).facts[0].content == "as user"
    assert storage.load("alice", name).facts[0].content == "as agent"
    assert storage.path_for(name).parent.name == name
    assert {(name, None), ("alice", name)} <= set(storage.list_documents())


@pytest.mark.skipif(not hasattr(os, "symlink"), reason="needs symlinks")
def test_a_symlinked_folder_leading_outside_the_root_is_refused(
    storage: FileMemoryStorage, tmp_path: Path
) -> None:
    outside = tmp_path / "outside"
    outside.mkdir()
    (storage.root / "users").mkdir(parents=True)
    (storage.root / "users" / "mallory").symlink_to(outside, target_is_directory=True)

    with pytest.raises(InvalidNameError, match="outside the storage root"):
        storage.save("mallory", None, MemoryDocument())
    with pytest.raises(InvalidNameError):
        storage.load("mallory", "agent")
    assert list(outside.iterdir()) == []
    assert list(storage.list_documents()) == []


def test_a_non_document_is_refused(storage: FileMemoryStorage) -> None:
    with pytest.raises(InvalidDocumentError, match="document must be a MemoryDocument"):
        storage.save("alice", None, DEERFLOW_V1_FILE)  # type: ignore[arg-type]
    assert not storage.root.exists()


# --- cache ----------------------------------------------------------------------------


def test_a_warm_load_returns_the_cached_document_without_parsing(
    storage: FileMemoryStorage, monkeypatch: pytest.MonkeyPatch
) -> None:
    storage.save("alice", None, with_fact(MemoryDocument(), "cached"))
    cold = FileMemoryStorage(storage.root)
    calls: list[object] = []
    real_loads = json.loads

    def counting_loads(*args: Any, **kwargs: Any) -> Any:
        calls.append(args)
        return real_loads(*args, **kwargs)

    monkeypatch.setattr(json, "loads", counting_loads)
    first = cold.load("alice")
    second = cold.load("alice")

    assert len(calls) == 1
    assert second is first


def test_a_saved_document_is_served_from_the_cache(storage: FileMemoryStorage) -> None:
    stored = storage.save("alice", None, with_fact(MemoryDocument(), "x"))

    assert storage.load("alice") is stored


@pytest.mark.parametrize("change", ["different-size", "same-size-new-mtime"])
def test_a_change_made_outside_this_instance_is_seen_on_the_next_load(
    storage: FileMemoryStorage, change: str
) -> None:
    storage.save("alice", None, with_fact(MemoryDocument(), "aaaa"))
    path = storage.path_for("alice")
    assert storage.load("alice").facts[0].content == "aaaa"
    stat_before = path.stat()

    text = path.read_text(encoding="utf-8")
    replacement = "bbbb" if change == "same-size-new-mtime" else "bbbbbbbb"
    with open(path, "w", encoding="utf-8") as f:  # rewrite in place: same inode
        f.write(text.replace("aaaa", replacement))
    if change == "same-size-new-mtime":
        assert path.stat().st_size == stat_before.st_size
        os.utime(path, ns=(stat_before.st_atime_ns, stat_before.st_mtime_ns + 1_000_000_000))

    assert storage.load("alice").facts[0].content == replacement


def test_a_document_deleted_outside_this_instance_loads_as_empty(tmp_path: Path) -> None:
    mine = FileMemoryStorage(tmp_path)
    mine.save("alice", None, with_fact(MemoryDocument(), "x"))
    assert mine.load("alice").facts

    FileMemoryStorage(tmp_path).delete("alice")

    assert mine.load("alice").revision == 2  # the tombstone: one past the deleted revision
    assert not mine.load("alice").facts


def test_the_cache_keeps_only_the_most_recently_used_documents(tmp_path: Path) -> None:
    storage = FileMemoryStorage(tmp_path, max_cached_documents=2)
    u1 = storage.save("u1", None, MemoryDocument())
    u2 = storage.save("u2", None, MemoryDocument())
    storage.load("u1")  # u1 is now the most recently used, u2 the least
    storage.save("u3", None, MemoryDocument())

    assert storage.load("u1") is u1
    reparsed = storage.load("u2")
    assert reparsed is not u2
    assert reparsed == u2
    with pytest.raises(ValueError):
        FileMemoryStorage(tmp_path, max_cached_documents=-1)


async def test_a_warm_async_load_needs_no_worker_thread(
    storage: FileMemoryStorage, monkeypatch: pytest.MonkeyPatch
) -> None:
    storage.save("alice", None, with_fact(MemoryDocument(), "x"))
    cold = FileMemoryStorage(storage.root)
    hops: list[object] = []
    real_to_thread = asyncio.to_thread

    async def counting_to_thread(func: Any, /, *args: Any, **kwargs: Any) -> Any:
        hops.append(func)
        return await real_to_thread(func, *args, **kwargs)

    monkeypatch.setattr(asyncio, "to_thread", counting_to_thread)
    first = await cold.aload("alice")
    second = await cold.aload("alice")

    assert len(hops) == 1
    assert second is first
    assert first.facts[0].content == "x"
    with pytest.raises(InvalidNameError):
        await cold.aload("../alice")


# --- delete / list --------------------------------------------------------------------


def test_delete_removes_only_the_named_document_and_its_lock(storage: FileMemoryStorage) -> None:
    storage.save("alice", None, with_fact(MemoryDocument(), "default"))
    storage.save("alice", "coder", with_fact(MemoryDocument(), "coder"))

    assert storage.delete("alice", "coder") is True
    assert storage.delete("alice", "coder") is False
    assert storage.delete("never-saved") is False

    assert files_under(storage.root) == {
        "users/alice/memory.json",
        "users/alice/memory.json.lock",
        "users/alice/agents/coder/memory.json",  # the tombstone: no fact, its revision
    }
    assert storage.load("alice", "coder").revision == 2
    assert not storage.load("alice", "coder").facts
    assert storage.load("alice").facts[0].content == "default"
    assert list(storage.list_documents()) == [("alice", None)]
    assert storage.save("alice", "coder", MemoryDocument(), expected_revision=2).revision == 3


def test_list_documents_yields_every_stored_document_and_ignores_debris(
    storage: FileMemoryStorage,
) -> None:
    for user, agent in [("bob", "coder"), ("alice", None), ("alice", "coder"), ("alice", "writer")]:
        storage.save(user, agent, MemoryDocument())
    users = storage.root / "users"
    (users / ".hidden").mkdir()
    (users / ".hidden" / "memory.json").write_text("{}")
    (users / "no-memory-yet").mkdir()
    (users / "stray-file.json").write_text("{}")
    (users / "alice" / ".memory.json.abc123.tmp").write_text("{")
    (users / "alice" / "agents" / "empty-agent").mkdir()

    assert list(storage.list_documents()) == [
        ("alice", None),
        ("alice", "coder"),
        ("alice", "writer"),
        ("bob", "coder"),
    ]


def test_list_documents_of_an_empty_root_is_empty(storage: FileMemoryStorage) -> None:
    assert list(storage.list_documents()) == []


# --- concurrency ----------------------------------------------------------------------


def add_fact_with_retry(storage: FileMemoryStorage, user: str, content: str) -> int:
    """Load, add one fact, save with the loaded revision; retry on conflict. Returns retries."""
    retries = 0
    while True:
        loaded = storage.load(user)
        try:
            storage.save(user, None, with_fact(loaded, content), expected_revision=loaded.revision)
            return retries
        except RevisionConflictError:
            retries += 1


@pytest.mark.parametrize("inter_process_lock", [True, False], ids=["flock", "no-fcntl"])
def test_threads_adding_facts_concurrently_lose_none(
    storage: FileMemoryStorage, monkeypatch: pytest.MonkeyPatch, inter_process_lock: bool
) -> None:
    if not inter_process_lock:  # as on Windows: the thread lock alone must suffice
        monkeypatch.setattr(file_storage, "_fcntl", None)
    errors: list[BaseException] = []
    start = threading.Barrier(4)

    def worker(n: int) -> None:
        try:
            start.wait()
            for i in range(25):
                add_fact_with_retry(storage, "alice", f"thread {n} fact {i}")
        except BaseException as e:  # surfaced below
            errors.append(e)

    threads = [threading.Thread(target=worker, args=(n,)) for n in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()

    assert errors == []
    final = FileMemoryStorage(storage.root).load("alice")
    assert final.revision == 100
    assert {f.content for f in final.facts} == {
        f"thread {n} fact {i}" for n in range(4) for i in range(25)
    }


WORKER_SCRIPT = textwrap.dedent(
    """
    import sys
    from deerflow_memory.errors import RevisionConflictError
    from deerflow_memory.models import Fact
    from deerflow_memory.storage.file import FileMemoryStorage

    root, name = sys.argv[1], sys.argv[2]
    storage = FileMemoryStorage(root)
    print("ready", flush=True)
    sys.stdin.readline()  # start together
    for i in range(50):
        while True:
            loaded = storage.load("alice")
            fact = Fact(content=f"{name} fact {i}")
            try:
                doc = loaded.model_copy(update={"facts": (*loaded.facts, fact)})
                storage.save("alice", None, doc, expected_revision=loaded.revision)
                break
            except RevisionConflictError:
                pass
    """
)


@pytest.mark.slow
def test_processes_adding_facts_concurrently_lose_none(storage: FileMemoryStorage) -> None:
    procs = [
        subprocess.Popen(
            [sys.executable, "-c", WORKER_SCRIPT, str(storage.root), name],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
        )
        for name in ("p1", "p2")
    ]
    for p in procs:
        assert p.stdout is not None and p.stdout.readline().strip() == "ready"
    for p in procs:
        assert p.stdin is not None
        p.stdin.write("go\n")
        p.stdin.flush()
    for p in procs:
        p.communicate(timeout=120)
        assert p.returncode == 0

    final = storage.load("alice")
    assert final.revision == 100
    assert {f.content for f in final.facts} == {
        f"{p} fact {i}" for p in ("p1", "p2") for i in range(50)
    }
