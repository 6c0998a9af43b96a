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
from tests.test_dead_letter_claims import Model, outbox_fails, retry, turns

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


# --- every folder of a tenant's view: a planted link never reaches another tenant ---------------


def linked_tenant(root: Path, folder: str, journal: bool = False) -> FileMemoryStorage:
    """Storage whose tenant ``acme`` has ``folder`` linked to tenant ``victim``'s (who has data)."""
    storage = FileMemoryStorage(root)
    victim = storage.scoped("victim")
    victim.save("ceo.private", None, document_with("Salary is 300k"))
    outbox_fails(victim, turns(0))  # victim's ana said "I have hobby number 0."
    with victim.update_lock("ana", None, 5):
        pass  # victim's locks/ folder exists
    if journal:  # a journal a stopped process left in victim's outbox
        victim_outbox = storage.tenant_folder("victim") / "outbox"
        victim_outbox.mkdir(exist_ok=True)
        (victim_outbox / "deadbeef.jsonl").write_text('{"op": "put"}\n')
    acme = storage.tenant_folder("acme")
    acme.mkdir(parents=True)
    os.symlink(storage.tenant_folder("victim") / folder, acme / folder)
    return storage


def victims_files(root: Path) -> dict[str, bytes]:
    victim = root / "tenants" / "victim"
    return {str(p.relative_to(victim)): p.read_bytes() for p in victim.rglob("*") if p.is_file()}


REFUSED = (CorruptMemoryError, InvalidNameError)


def test_a_tenants_linked_dead_letters_folder_is_neither_listed_written_retried_nor_deleted(
    tmp_path: Path,
) -> None:
    storage = linked_tenant(tmp_path, "dead_letters")
    before = victims_files(tmp_path)
    [letter] = storage.scoped("victim").list_dead_letters()
    acme = FileMemoryStorage(tmp_path).scoped("acme")
    for call in (
        acme.list_dead_letters,
        acme.unreadable_dead_letters,
        lambda: acme.put_dead_letter(letter.model_copy(update={"user_id": "eve"})),
        lambda: acme.delete_dead_letter(letter.id),
    ):
        with pytest.raises(REFUSED, match="tenant"):
            call()
    model = Model()
    with pytest.raises(REFUSED, match="tenant"):
        retry(acme, model)
    assert model.sent == []  # acme's model never saw victim's words
    assert victims_files(tmp_path) == before


def test_pending_and_retry_of_a_tenant_with_a_linked_dead_letters_folder_fail_in_one_line(
    tmp_path: Path,
) -> None:
    linked_tenant(tmp_path, "dead_letters")
    before = victims_files(tmp_path)
    for command in ("pending", "retry"):
        done = cli(tmp_path, "--tenant", "acme", command)
        assert done.returncode == 2, (command, done.stdout, done.stderr)
        assert len(done.stderr.splitlines()) == 1 and "symbolic link" in done.stderr
        assert "hobby" not in done.stdout + done.stderr
    assert victims_files(tmp_path) == before


def test_a_tenants_linked_users_folder_is_not_listed_and_names_no_other_tenants_user(
    tmp_path: Path,
) -> None:
    linked_tenant(tmp_path, "users")
    acme = FileMemoryStorage(tmp_path).scoped("acme")
    for call in (lambda: list(acme.list_documents()), lambda: list(acme.list_stored())):
        with pytest.raises(REFUSED, match="tenant"):
            call()
    for command in (("list",), ("list", "--json"), ("stats",)):
        done = cli(tmp_path, "--tenant", "acme", *command)
        assert done.returncode == 2, (command, done.stdout, done.stderr)
        assert len(done.stderr.splitlines()) == 1 and "symbolic link" in done.stderr
        assert "ceo.private" not in done.stdout + done.stderr


def test_a_tenants_linked_locks_folder_or_lock_file_shares_no_lock_with_another_tenant(
    tmp_path: Path,
) -> None:
    storage = linked_tenant(tmp_path, "locks")
    before = victims_files(tmp_path)
    acme = FileMemoryStorage(tmp_path).scoped("acme")
    # Refused at once while victim holds the lock (not busy on it, not taken through the link).
    with (
        storage.scoped("victim").update_lock("ana", None, 5),
        pytest.raises(REFUSED, match="tenant"),
        acme.update_lock("ana", None, 0.05),
    ):
        pass
    with pytest.raises(REFUSED, match="tenant"), acme.update_lock("bob", None, 0.05):
        pass  # nor is a lock file made in victim's folder
    assert victims_files(tmp_path) == before
    # One lock file linked to the victim's: never opened.
    os.unlink(tmp_path / "tenants" / "acme" / "locks")
    (tmp_path / "tenants" / "acme" / "locks").mkdir()
    [lock] = (tmp_path / "tenants" / "victim" / "locks").iterdir()
    os.symlink(lock, tmp_path / "tenants" / "acme" / "locks" / lock.name)
    with pytest.raises(REFUSED), acme.update_lock("ana", None, 0.05):
        pass


def test_a_tenants_linked_outbox_is_not_adopted_nor_reported_pending(tmp_path: Path) -> None:
    from deerflow_memory.config import MemoryConfig
    from deerflow_memory.storage.tenants import has_pending_updates, tenants_with_pending_updates
    from deerflow_memory.update.durable import build_outbox

    storage = linked_tenant(tmp_path, "outbox", journal=True)
    before = victims_files(tmp_path)
    assert has_pending_updates(storage, "victim")
    assert not has_pending_updates(storage, "acme")
    assert tenants_with_pending_updates(storage) == ["victim"]
    with pytest.raises(REFUSED, match="tenant"):
        build_outbox(storage.scoped("acme"), MemoryConfig())
    assert victims_files(tmp_path) == before


def test_the_storage_on_a_linked_root_keeps_linked_top_level_folders_and_tenants_work(
    tmp_path: Path,
) -> None:
    # Only inside a tenant's folder are links refused: the root, its users/, dead_letters/
    # and tenants/ may be moved to another disk, and tenants under a moved tenants/ work.
    real = tmp_path / "real"
    real.mkdir()
    os.symlink(real, tmp_path / "root")
    root = tmp_path / "root"
    saved(root, "bob", "Likes tea")
    FileMemoryStorage(root).scoped("shop").save("ann", None, document_with("Card ends 4242"))
    outbox_fails(FileMemoryStorage(root).scoped("shop"), turns(1))
    outbox_fails(FileMemoryStorage(root), turns(2))
    for folder in ("users", "dead_letters", "tenants"):
        moved_to_another_disk(real, tmp_path / "disk", folder)
    storage = FileMemoryStorage(root)
    assert [f.content for f in storage.load("bob").facts] == ["Likes tea"]
    assert [x.user_id for x in storage.list_dead_letters()] == ["ana"]
    with storage.update_lock("bob", None, 5):
        pass
    shop = storage.scoped("shop")
    assert list(shop.list_documents()) == [("ann", None)]
    [letter] = shop.list_dead_letters()
    assert shop.delete_dead_letter(letter.id) and shop.list_dead_letters() == []
    with shop.update_lock("ann", None, 5):
        pass
    assert stored_tenants(storage) == ["shop"]
    shown = cli(root, "--tenant", "shop", "list")
    assert shown.returncode == 0 and "ann" in shown.stdout


def test_a_document_lock_file_linked_to_another_tenants_is_never_opened(tmp_path: Path) -> None:
    storage = linked_tenant(tmp_path, "locks")  # victim has users/ceo.private/
    victim_lock = tmp_path / "tenants" / "victim" / "users" / "ceo.private" / "memory.json.lock"
    before = victims_files(tmp_path)
    acme = storage.scoped("acme")
    acme.save("ceo.private", None, document_with("Plays chess"))
    own_lock = tmp_path / "tenants" / "acme" / "users" / "ceo.private" / "memory.json.lock"
    os.unlink(own_lock)
    os.symlink(victim_lock, own_lock)  # acme's saves would take victim's save lock
    with pytest.raises(CorruptMemoryError, match="symbolic link"):
        FileMemoryStorage(tmp_path).scoped("acme").save("ceo.private", None, document_with("x"))
    assert victims_files(tmp_path) == before
    assert [f.content for f in acme.load("ceo.private").facts] == ["Plays chess"]
