"""FIFOs and symlinks named like outbox journals: skipped with one warning, never a hang.

A FIFO ``outbox/x.jsonl`` used to block every service start forever (recovery
opened it for reading), and a symlinked journal had its target's text copied
into ``x.jsonl.corrupt``.
"""

from __future__ import annotations

import logging
import os
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from langchain_core.messages import AIMessage, HumanMessage

from deerflow_memory import MemoryConfig, MemoryService
from deerflow_memory.storage.outbox import PendingUpdate
from deerflow_memory.storage.outbox_file import FileOutbox
from deerflow_memory.update.durable import decode_messages, encode_messages

pytestmark = pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="POSIX special files")

LOGGER = "deerflow_memory.storage.outbox_file"


def within(seconds: float, call: Callable[[], Any]) -> Any:
    """``call()``'s result; fails the test if it has not returned in ``seconds``."""
    box: list[Any] = []
    thread = threading.Thread(target=lambda: box.append(call()), daemon=True)
    thread.start()  # a blocked one is abandoned at exit (daemon)
    thread.join(seconds)
    assert box, f"still blocked after {seconds} s"
    return box[0]


def warnings(caplog: pytest.LogCaptureFixture) -> list[str]:
    return [r.getMessage() for r in caplog.records if r.levelno >= logging.WARNING]


def stopped_journal(root: Path) -> Path:
    """The journal of a process that stopped with one update pending (its lock released)."""
    first = FileOutbox(root, encode_messages, decode_messages)
    messages = (HumanMessage(content="I am a welder.", id="h1"), AIMessage("Noted.", id="a1"))
    first.record(PendingUpdate("t1", "dave", None, messages, due_at=1.0, record_id="1"))
    first.close()
    return first.journal


@pytest.mark.parametrize("with_lock", [False, True], ids=["no lock file", "with its lock file"])
def test_a_fifo_named_like_a_journal_does_not_block_the_service_start(
    tmp_path: Path, caplog: pytest.LogCaptureFixture, with_lock: bool
) -> None:
    outbox = tmp_path / "outbox"
    outbox.mkdir()
    os.mkfifo(outbox / "dead.jsonl")
    if with_lock:
        (outbox / "dead.lock").touch()
    with caplog.at_level(logging.WARNING, logger=LOGGER):
        service = within(10, lambda: MemoryService(MemoryConfig(storage_path=str(tmp_path))))
        service.close()
    found = warnings(caplog)
    assert len(found) == 1 and str(outbox / "dead.jsonl") in found[0] and "FIFO" in found[0]
    assert (outbox / "dead.jsonl").exists()  # left untouched for the operator


def test_a_special_journal_is_warned_about_once_however_often_recovery_polls(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    outbox = tmp_path / "outbox"
    outbox.mkdir()
    os.mkfifo(outbox / "dead.jsonl")
    box = FileOutbox(tmp_path, encode_messages, decode_messages)
    with caplog.at_level(logging.WARNING, logger=LOGGER):
        assert within(10, box.recover) == []
        assert within(10, box.poll) == []
        assert within(10, box.dead_letters) == []
    box.close()
    assert len(warnings(caplog)) == 1


@pytest.mark.parametrize("with_lock", [False, True], ids=["no lock file", "with its lock file"])
def test_a_symlinked_journal_is_refused_and_its_target_never_copied(
    tmp_path: Path, caplog: pytest.LogCaptureFixture, with_lock: bool
) -> None:
    target = tmp_path / "elsewhere.txt"
    target.write_text("someone else's secret\n")
    journal = stopped_journal(tmp_path / "other")  # a real journal, whose lines would replay
    outbox = tmp_path / "root" / "outbox"
    outbox.mkdir(parents=True)
    (outbox / "dead.jsonl").symlink_to(target)
    (outbox / "live.jsonl").symlink_to(journal)
    if with_lock:
        (outbox / "dead.lock").touch()
        (outbox / "live.lock").touch()
    box = FileOutbox(tmp_path / "root", encode_messages, decode_messages)
    with caplog.at_level(logging.WARNING, logger=LOGGER):
        assert within(10, box.recover) == []
    box.close()
    assert not list(outbox.glob("*.corrupt"))
    assert target.read_text() == "someone else's secret\n" and journal.exists()
    assert (outbox / "dead.jsonl").is_symlink() and (outbox / "live.jsonl").is_symlink()
    found = warnings(caplog)
    assert len(found) == 2 and all("symbolic link" in w for w in found)


def test_a_symlinked_lock_file_is_refused_and_its_journal_left_alone(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    journal = stopped_journal(tmp_path)
    lock = journal.with_suffix(".lock")
    lock.unlink()
    lock.symlink_to(tmp_path / "nowhere")
    box = FileOutbox(tmp_path, encode_messages, decode_messages)
    with caplog.at_level(logging.WARNING, logger=LOGGER):
        assert within(10, box.recover) == []
    box.close()
    assert journal.exists() and lock.is_symlink()
    found = warnings(caplog)
    assert len(found) == 1 and str(lock) in found[0]


def test_unreadable_lines_are_not_written_through_a_symlinked_corrupt_file(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    journal = stopped_journal(tmp_path)
    with journal.open("ab") as f:
        f.write(b"not json\n")
    target = tmp_path / "victim.txt"
    target.write_text("keep me\n")
    journal.with_name(journal.name + ".corrupt").symlink_to(target)
    box = FileOutbox(tmp_path, encode_messages, decode_messages)
    with caplog.at_level(logging.WARNING, logger=LOGGER):
        adopted = box.recover()
    assert [u.thread_id for u in adopted] == ["t1"]
    assert target.read_text() == "keep me\n"
    assert journal.exists()  # its unreadable line could not be kept: left in place
    assert any("left in place" in w for w in warnings(caplog))
    box.complete(adopted[0])
    box.close()
