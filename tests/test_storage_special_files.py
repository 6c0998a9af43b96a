"""FIFOs and symlinks planted in the storage folder: a typed error at once, nothing touched.

A FIFO as ``memory.json`` used to block ``show`` (and the inject node) forever;
a symlinked user folder ``users/c -> users/b`` let ``clear --user c`` delete b's memory.
"""

from __future__ import annotations

import os
import subprocess
import sys
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from deerflow_memory.errors import CorruptMemoryError, InvalidNameError
from deerflow_memory.models import MemoryDocument
from deerflow_memory.storage.file import FileMemoryStorage
from deerflow_memory.storage.tenants import stored_tenants

pytestmark = pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="POSIX special files")


def within(seconds: float, call: Callable[[], Any]) -> BaseException | Any:
    """``call()``'s result or error; fails the test if it has not returned in ``seconds``."""
    box: list[Any] = []

    def run() -> None:
        try:
            box.append(call())
        except BaseException as e:  # the error is the result under test
            box.append(e)

    thread = threading.Thread(target=run, daemon=True)  # a blocked one is abandoned at exit
    thread.start()
    thread.join(seconds)
    assert box, f"still blocked after {seconds} s"
    return box[0]


def cli(root: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "deerflow_memory.cli", "--root", str(root), *args],
        capture_output=True,
        text=True,
        timeout=60,
        env={k: v for k, v in os.environ.items() if not k.startswith("DEERFLOW_MEMORY_")},
    )


def document_with(fact: str) -> MemoryDocument:
    return MemoryDocument.model_validate({"facts": [{"content": fact}]})


def saved(root: Path, user: str, fact: str) -> FileMemoryStorage:
    storage = FileMemoryStorage(root)
    storage.save(user, None, document_with(fact))
    return storage


def test_a_fifo_as_memory_json_is_a_corrupt_memory_error_not_a_hang(tmp_path: Path) -> None:
    folder = tmp_path / "users" / "fifo"
    folder.mkdir(parents=True)
    os.mkfifo(folder / "memory.json")
    error = within(10, lambda: FileMemoryStorage(tmp_path).load("fifo"))
    assert isinstance(error, CorruptMemoryError) and "FIFO" in str(error)
    assert (folder / "memory.json").exists()


def test_a_fifo_as_the_journal_is_a_corrupt_memory_error_not_a_hang(tmp_path: Path) -> None:
    saved(tmp_path, "ann", "Likes tea")
    os.mkfifo(tmp_path / "users" / "ann" / "memory.journal.jsonl")
    error = within(10, lambda: FileMemoryStorage(tmp_path).load("ann"))
    assert isinstance(error, CorruptMemoryError) and "FIFO" in str(error)


def test_show_on_a_fifo_answers_one_line_at_once(tmp_path: Path) -> None:
    folder = tmp_path / "users" / "fifo"
    folder.mkdir(parents=True)
    os.mkfifo(folder / "memory.json")
    shown = cli(tmp_path, "show", "--user", "fifo")
    assert shown.returncode == 2
    assert len(shown.stderr.splitlines()) == 1 and "FIFO" in shown.stderr


def test_a_symlinked_user_folder_is_refused_for_reads_and_deletes(tmp_path: Path) -> None:
    storage = saved(tmp_path, "b", "Secret: PIN 1234")
    os.symlink(tmp_path / "users" / "b", tmp_path / "users" / "c")
    fresh = FileMemoryStorage(tmp_path)
    with pytest.raises(CorruptMemoryError, match="symbolic link"):
        fresh.load("c")
    with pytest.raises(CorruptMemoryError, match="symbolic link"):
        fresh.delete("c")
    with pytest.raises(CorruptMemoryError, match="symbolic link"):
        fresh.save("c", None, MemoryDocument())
    assert [f.content for f in FileMemoryStorage(tmp_path).load("b").facts] == ["Secret: PIN 1234"]
    assert storage.load("b").revision == 1


def test_clear_through_a_symlinked_user_folder_deletes_nothing(tmp_path: Path) -> None:
    saved(tmp_path, "b", "Secret: PIN 1234")
    os.symlink("b", tmp_path / "users" / "c")  # a relative link, as a restore might leave
    cleared = cli(tmp_path, "clear", "--user", "c", "--yes")
    assert cleared.returncode == 2 and "symbolic link" in cleared.stderr
    assert (tmp_path / "users" / "b" / "memory.json").exists()


def test_a_symlinked_memory_file_does_not_read_another_users_memory(tmp_path: Path) -> None:
    saved(tmp_path, "b", "Secret: PIN 1234")
    (tmp_path / "users" / "c").mkdir()
    os.symlink(tmp_path / "users" / "b" / "memory.json", tmp_path / "users" / "c" / "memory.json")
    with pytest.raises(CorruptMemoryError, match="symbolic link"):
        FileMemoryStorage(tmp_path).load("c")


def test_a_fifo_dead_letter_is_listed_as_unreadable_not_waited_on(tmp_path: Path) -> None:
    folder = tmp_path / "dead_letters"
    folder.mkdir()
    os.mkfifo(folder / ("dl_" + "d" * 24 + ".json"))
    storage = FileMemoryStorage(tmp_path)
    assert within(10, storage.list_dead_letters) == []
    [bad] = within(10, storage.unreadable_dead_letters)
    assert bad.location.endswith(".json") and "FIFO" in bad.reason


def test_a_symlinked_tenant_folder_is_refused(tmp_path: Path) -> None:
    storage = FileMemoryStorage(tmp_path)
    storage.scoped("shop").save("ann", None, document_with("Card ends 4242"))
    os.symlink(tmp_path / "tenants" / "shop", tmp_path / "tenants" / "travel")
    with pytest.raises(CorruptMemoryError, match="symbolic link"):
        FileMemoryStorage(tmp_path).scoped("travel").load("ann")


def test_a_tenant_folder_swapped_for_a_symlink_after_opening_is_refused(tmp_path: Path) -> None:
    storage = FileMemoryStorage(tmp_path)
    storage.scoped("shop").save("ann", None, document_with("Card ends 4242"))
    travel = storage.scoped("travel")  # opened while its folder does not exist yet
    os.symlink(tmp_path / "tenants" / "shop", tmp_path / "tenants" / "travel")
    with pytest.raises(CorruptMemoryError, match="symbolic link"):
        travel.load("ann")


def moved_to_another_disk(root: Path, disk: Path, folder: str) -> None:
    """``root/folder`` moved to ``disk`` and linked back, as an operator would."""
    disk.mkdir(exist_ok=True)
    (root / folder).rename(disk / folder)
    os.symlink(disk / folder, root / folder)


def test_a_users_folder_moved_to_another_disk_by_a_symlink_works_for_reads_saves_and_deletes(
    tmp_path: Path,
) -> None:
    root = tmp_path / "root"
    saved(root, "bob", "Likes tea")
    moved_to_another_disk(root, tmp_path / "disk", "users")
    storage = FileMemoryStorage(root)
    assert [f.content for f in storage.load("bob").facts] == ["Likes tea"]
    storage.save("carol", "coder", document_with("Writes Rust"))
    assert (tmp_path / "disk" / "users" / "carol" / "agents" / "coder" / "memory.json").exists()
    assert list(storage.list_documents()) == [("bob", None), ("carol", "coder")]
    assert storage.delete("bob") and list(storage.list_documents()) == [("carol", "coder")]
    shown = cli(root, "show", "--user", "carol", "--agent", "coder")
    assert shown.returncode == 0 and "Writes Rust" in shown.stdout


def test_a_symlinked_user_folder_inside_a_moved_users_folder_is_still_refused_and_not_listed(
    tmp_path: Path,
) -> None:
    root = tmp_path / "root"
    saved(root, "b", "Secret: PIN 1234")
    moved_to_another_disk(root, tmp_path / "disk", "users")
    os.symlink("b", tmp_path / "disk" / "users" / "c")
    storage = FileMemoryStorage(root)
    for call in (lambda: storage.load("c"), lambda: storage.delete("c")):
        with pytest.raises(CorruptMemoryError, match="only the storage root and its users/"):
            call()
    assert list(storage.list_documents()) == [("b", None)]
    assert [f.content for f in storage.load("b").facts] == ["Secret: PIN 1234"]


def test_a_tenants_folder_moved_to_another_disk_works_but_a_tenants_users_link_is_refused(
    tmp_path: Path,
) -> None:
    root = tmp_path / "root"
    FileMemoryStorage(root).scoped("shop").save("ann", None, document_with("Card ends 4242"))
    moved_to_another_disk(root, tmp_path / "disk", "tenants")
    storage = FileMemoryStorage(root)
    assert [f.content for f in storage.scoped("shop").load("ann").facts] == ["Card ends 4242"]
    storage.scoped("travel").save("ann", None, document_with("Flies to Oslo"))
    assert stored_tenants(storage) == ["shop", "travel"]
    # Inside a tenant, users/ is not top-level: a link there crosses tenants.
    spy = tmp_path / "disk" / "tenants" / "spy"
    spy.mkdir()
    os.symlink(tmp_path / "disk" / "tenants" / "shop" / "users", spy / "users")
    with pytest.raises(InvalidNameError, match="outside the storage root"):
        FileMemoryStorage(root).scoped("spy").load("ann")  # the tenant's own root
