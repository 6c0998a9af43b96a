"""A memory delete is one write: a crash at any point never lets old threads be learned again.

Deleting a memory replaces its document by a tombstone holding the fence
(the watermarks of what was read). Were that two writes (the tombstone, then
the fence), a crash between them would leave an empty document without
watermarks, and the old thread's next turn would learn everything again.
Here the clearing process dies right after the delete's first write to the
document (a SIGKILL in a child for files; an exception for SQLite), and
after the fenced tombstone but before the side files are removed.
"""

from __future__ import annotations

import contextlib
import os
import subprocess
import sys
import textwrap
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from langchain_core.messages import AIMessage, BaseMessage, HumanMessage

from deerflow_memory import MemoryConfig, MemoryIdentity, MemoryService
from deerflow_memory.models import ExtractionWatermark, Fact, MemoryDocument
from deerflow_memory.storage.base import MemoryStorage
from deerflow_memory.storage.file import JOURNAL_FILE, FileMemoryStorage
from deerflow_memory.storage.vectors_file import VECTORS_FILE
from deerflow_memory.update.forget import fence
from tests.delegating import DelegatingStorage

OLD = MemoryIdentity("alice", None, "t1")
HISTORY: list[BaseMessage] = [
    HumanMessage("I'm allergic to peanuts. I live in Oslo.", id="m1"),
    AIMessage("Noted.", id="m2"),
]
NEXT_TURN: list[BaseMessage] = [
    HumanMessage("Any dinner tips?", id="m3"),
    AIMessage("Try the fish place.", id="m4"),
]
WRITES = ("save", "delete", "delete_fenced")


class Crashed(BaseException):
    """The clearing process died (not an Exception: nothing may catch and go on)."""


def service(kind: str, path: Path) -> MemoryService:
    config = MemoryConfig(storage=kind, storage_path=path, debounce_seconds=0.0)  # type: ignore[arg-type]
    return MemoryService(config, register_atexit=False)


def learned(memory: MemoryService) -> list[str]:
    return [f.content for f in memory.load(OLD).facts]


def learn_the_old_thread(kind: str, path: Path) -> None:
    with service(kind, path) as memory:
        memory.enqueue(OLD, HISTORY)
        assert memory.flush(timeout=30)
        assert any("peanuts" in f for f in learned(memory))


def the_next_turn_of_the_old_thread(kind: str, path: Path) -> list[str]:
    """What the memory holds after the old thread's next turn is processed."""
    with service(kind, path) as memory:
        assert learned(memory) == []  # the delete went through before the crash
        memory.enqueue(OLD, [*HISTORY, *NEXT_TURN])
        assert memory.flush(timeout=30)
        return learned(memory)


def crash_after_the_first_document_write(storage: MemoryStorage) -> None:
    """Make the storage's process "die" right after its first write to a document."""
    done: list[str] = []
    for name in WRITES:
        real = getattr(storage, name, None)
        if real is None:
            continue

        def write(*args: Any, _real: Any = real, _name: str = name, **kwargs: Any) -> Any:
            if done:
                raise Crashed(f"the process died before {_name}")
            result = _real(*args, **kwargs)
            done.append(_name)
            return result

        setattr(storage, name, write)


def test_a_sigkill_after_the_deletes_first_write_leaves_the_old_thread_fenced(
    tmp_path: Path,
) -> None:
    root = tmp_path / "memory"
    learn_the_old_thread("file", root)
    child = textwrap.dedent(
        f"""
        import os
        from deerflow_memory import MemoryConfig, MemoryService
        from deerflow_memory.storage.file import FileMemoryStorage

        for name in {WRITES!r}:
            real = getattr(FileMemoryStorage, name, None)
            if real is None:
                continue
            def write(self, *args, _real=real, **kwargs):
                _real(self, *args, **kwargs)
                os.kill(os.getpid(), 9)  # dies right after its first document write
            setattr(FileMemoryStorage, name, write)
        config = MemoryConfig(storage="file", storage_path={str(root)!r}, debounce_seconds=0.0)
        MemoryService(config, register_atexit=False).clear_memory("alice")
        """
    )
    cwd = Path(__file__).resolve().parents[1]
    result = subprocess.run([sys.executable, "-c", child], cwd=cwd, timeout=120)
    assert result.returncode == -9
    facts = the_next_turn_of_the_old_thread("file", root)
    assert not any("peanuts" in f or "Oslo" in f for f in facts), facts


def test_a_crash_after_the_deletes_first_write_leaves_the_old_thread_fenced_on_sqlite(
    tmp_path: Path,
) -> None:
    path = tmp_path / "memory.sqlite"
    learn_the_old_thread("sqlite", path)
    with service("sqlite", path) as memory:
        crash_after_the_first_document_write(memory.storage)
        with contextlib.suppress(Crashed):  # the old two writes: the fence's save "died"
            memory.clear_memory("alice")
    facts = the_next_turn_of_the_old_thread("sqlite", path)
    assert not any("peanuts" in f or "Oslo" in f for f in facts), facts


@pytest.fixture
def a_cleared_file_memory(tmp_path: Path) -> Iterator[tuple[FileMemoryStorage, Path]]:
    """A memory with a journal and a vectors file beside it, and its fenced tombstone."""
    root = tmp_path / "memory"
    learn_the_old_thread("file", root)
    storage = FileMemoryStorage(root)
    document = storage.load("alice")
    storage.save("alice", None, document.model_copy(update={"facts": document.facts[:1]}))
    path = storage.path_for("alice")
    assert path.with_name(JOURNAL_FILE).is_file()  # the last save went to the journal
    path.with_name(VECTORS_FILE).write_text('{"embedder": "x", "dims": 0, "vectors": {}}')
    yield storage, path


def test_a_crash_after_the_fenced_tombstone_leaves_side_files_the_next_load_ignores(
    a_cleared_file_memory: tuple[FileMemoryStorage, Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    storage, path = a_cleared_file_memory
    fenced = fence(storage.load("alice"), (), storage.fence_key())
    marks, revision = fenced.extraction_watermarks, storage.load("alice").revision
    real_unlink = os.unlink

    def unlink(target: Any, *args: Any, **kwargs: Any) -> None:
        if Path(target).parent == path.parent:
            raise Crashed("the process died before removing the side files")
        real_unlink(target, *args, **kwargs)

    monkeypatch.setattr(os, "unlink", unlink)
    with pytest.raises(Crashed):
        storage.delete_fenced("alice", None, fenced)
    monkeypatch.undo()
    assert path.with_name(JOURNAL_FILE).is_file() and path.with_name(VECTORS_FILE).is_file()
    fresh = FileMemoryStorage(storage.root)  # the next process
    left = fresh.load("alice")
    assert left.facts == () and left.extraction_watermarks == marks
    assert left.revision == revision + 1 and left.holds_only_fence()
    assert list(fresh.list_documents()) == []
    saved = fresh.save("alice", None, left.model_copy(update={"facts": (Fact(content="x y"),)}))
    assert saved.revision == revision + 2
    assert [f.content for f in FileMemoryStorage(storage.root).load("alice").facts] == ["x y"]


def test_a_delete_removes_the_deleted_facts_vectors_and_journal(
    a_cleared_file_memory: tuple[FileMemoryStorage, Path],
) -> None:
    storage, path = a_cleared_file_memory
    fenced = fence(storage.load("alice"), (), storage.fence_key())
    assert storage.delete_fenced("alice", None, fenced)
    assert not path.with_name(JOURNAL_FILE).exists()
    assert not path.with_name(VECTORS_FILE).exists()  # keyed by the deleted facts' text
    assert storage.load("alice").extraction_watermarks == fenced.extraction_watermarks


def test_a_backend_without_its_own_delete_fenced_keeps_the_fence_and_marks_the_clear(
    tmp_path: Path,
) -> None:
    inner = FileMemoryStorage(tmp_path / "m")
    storage = DelegatingStorage(inner)  # the base delete_fenced
    inner.save("alice", None, MemoryDocument(facts=(Fact(content="Is allergic to peanuts"),)))
    mark = ExtractionWatermark(thread_id="t1", message_keys=("k1",), sealed=True)
    assert storage.delete_fenced("alice", None, MemoryDocument(extraction_watermarks=(mark,)))
    left = inner.load("alice")
    assert left.facts == () and left.extraction_watermarks == (mark,)
    assert left.cleared_at is not None and left.holds_only_fence()
    assert list(storage.list_documents()) == []
    # Nothing to fence: a plain delete (not marked cleared).
    inner.save("bob", None, MemoryDocument(facts=(Fact(content="Plays the cello"),)))
    assert storage.delete_fenced("bob", None, MemoryDocument())
    gone = inner.load("bob")
    assert gone.is_empty() and gone.deleted_at is not None and gone.cleared_at is None
