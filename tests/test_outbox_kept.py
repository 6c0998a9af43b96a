"""A stopped process's outbox journal is never lost: unreadable lines are kept, orphans adopted."""

from __future__ import annotations

import logging
from pathlib import Path

import pytest
from langchain_core.messages import AIMessage, HumanMessage

from deerflow_memory.storage.outbox import PendingUpdate
from deerflow_memory.storage.outbox_file import FileOutbox
from deerflow_memory.update.durable import decode_messages, encode_messages


def pending(record_id: str, thread: str, text: str) -> PendingUpdate:
    messages = (HumanMessage(content=text, id="h1"), AIMessage(content="Noted.", id="a1"))
    return PendingUpdate(thread, "dave", None, messages, due_at=1.0, record_id=record_id)


def stopped_journal(root: Path) -> Path:
    """The journal of a process that stopped with two updates pending (its lock released)."""
    first = FileOutbox(root, encode_messages, decode_messages)
    first.record(pending("1", "a", "I am a welder."))
    first.record(pending("2", "b", "I live in Oslo."))
    first.close()
    return first.journal


def test_an_undecodable_journal_line_is_kept_in_a_corrupt_file_with_one_warning(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    journal = stopped_journal(tmp_path)
    lines = journal.read_bytes().splitlines()
    bad = next(line for line in lines if b"Oslo" in line).replace(b'"human"', b'"zzz"')
    journal.write_bytes(b"\n".join(bad if b"Oslo" in line else line for line in lines) + b"\n")
    second = FileOutbox(tmp_path, encode_messages, decode_messages)
    with caplog.at_level(logging.WARNING, logger="deerflow_memory.storage.outbox_file"):
        adopted = second.recover()
    assert [u.thread_id for u in adopted] == ["a"]
    kept = journal.with_name(journal.name + ".corrupt")
    assert kept.read_bytes() == bad + b"\n"  # the line as it was, for a repair by hand
    assert not journal.exists()
    warnings = [r.getMessage() for r in caplog.records if r.levelno >= logging.WARNING]
    assert len(warnings) == 1 and str(kept) in warnings[0] and "1 lines" in warnings[0]
    assert second.recover() == []  # the kept file is not adopted again
    second.complete(adopted[0])
    second.close()
    assert kept.exists()


def test_a_journal_whose_lock_file_is_gone_is_adopted(tmp_path: Path) -> None:
    journal = stopped_journal(tmp_path)
    journal.with_suffix(".lock").unlink()  # e.g. a backup restored without it
    second = FileOutbox(tmp_path, encode_messages, decode_messages)
    adopted = second.recover()
    assert sorted(u.thread_id for u in adopted) == ["a", "b"]
    assert not journal.exists() and not journal.with_suffix(".lock").exists()
    assert second.recover() == []
    second.close()


def test_a_live_process_journal_whose_lock_file_was_deleted_is_left_to_it(
    tmp_path: Path,
) -> None:
    first = FileOutbox(tmp_path, encode_messages, decode_messages)
    first.record(pending("1", "a", "I am a welder."))
    assert first.sync(timeout=10)
    first.journal.with_suffix(".lock").unlink()
    second = FileOutbox(tmp_path, encode_messages, decode_messages)
    assert second.recover() == []  # its process still has it open
    first.close()
    assert [u.thread_id for u in second.recover()] == ["a"]
    second.close()
