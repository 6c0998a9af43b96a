"""No log record of the package carries terminal control characters, whatever text it quotes.

A model server's error, a thread id, a stored fact id or a file name reach log
lines; an escape sequence there retitled and cleared the operator's terminal.
Each module's logger comes from ``logs.package_logger``, whose filter makes
such text inert (U+FFFD). A filter on a parent logger would not see the records
of its children, so these tests read what a real handler on ``deerflow_memory``
(the parent) writes.
"""

from __future__ import annotations

import ast
import importlib
import io
import json
import logging
import os
import pkgutil
from collections.abc import Iterator
from pathlib import Path

import pytest
from langchain_core.messages import AIMessage, HumanMessage

import deerflow_memory
from deerflow_memory import MemoryConfig, MemoryIdentity, MemoryService
from deerflow_memory.logs import SafeRecords, log_safe, package_logger, traceback_safe
from deerflow_memory.storage.file import FileMemoryStorage
from tests.openai_server import OpenAIServer, Reply, openai_server  # noqa: F401

PACKAGE = Path(deerflow_memory.__file__).resolve().parent
HOSTILE = "\x1b]0;pwned\x07\x1b[2J\x1b[31m\u202eevil\u2066\r\x9b"
# What must never reach a log: ESC (every escape sequence starts with it), BEL,
# CR, the C1 CSI, bidi overrides and isolates, and a line break inside a message.
FORBIDDEN = ("\x1b", "\x07", "\r", "\x9b", "\u202e", "\u2066")


@pytest.fixture
def package_log() -> Iterator[io.StringIO]:
    """Everything the package logs, as a real handler on the parent logger writes it."""
    out = io.StringIO()
    handler = logging.StreamHandler(out)
    handler.setFormatter(logging.Formatter("%(levelname)s %(name)s %(message)s"))
    parent = logging.getLogger("deerflow_memory")
    level = parent.level
    parent.addHandler(handler)
    parent.setLevel(logging.DEBUG)
    try:
        yield out
    finally:
        parent.removeHandler(handler)
        parent.setLevel(level)


def assert_inert(text: str) -> None:
    for control in FORBIDDEN:
        assert control not in text, (control, text)


def test_a_child_loggers_record_reaches_the_parents_handler_inert(
    package_log: io.StringIO,
) -> None:
    child = package_logger("deerflow_memory.some.module")
    try:
        raise ValueError(f"server said {HOSTILE}")
    except ValueError:
        child.exception("update for %s failed", f"thread-{HOSTILE}\nCRITICAL forged line")
    written = package_log.getvalue()
    assert_inert(written)
    first, *trace = written.splitlines()
    assert first.startswith("ERROR deerflow_memory.some.module update for thread-\ufffd")
    assert "CRITICAL forged line" in first  # the line break did not start a new record
    assert trace[0] == "Traceback (most recent call last):"  # a traceback keeps its lines
    assert trace[-1].startswith("ValueError: server said \ufffd]0;pwned\ufffd")


def test_a_plain_child_logger_would_have_passed_the_escapes_through(
    package_log: io.StringIO,
) -> None:
    # Why every module needs package_logger: the parent's filter is not applied
    # to records that propagate from a child, so the handler writes them raw.
    parent = logging.getLogger("deerflow_memory")
    extra = SafeRecords()
    parent.addFilter(extra)
    try:
        logging.getLogger("deerflow_memory.not_ours").warning("x %s", HOSTILE)
    finally:
        parent.removeFilter(extra)
    assert "\x1b]0;pwned\x07" in package_log.getvalue()


def test_a_clean_record_keeps_its_format_and_arguments_apart() -> None:
    record = logging.LogRecord(
        "deerflow_memory.x", logging.INFO, "f", 1, "a=%s b=%d", ("v", 3), None
    )
    assert SafeRecords().filter(record)
    assert (record.msg, record.args) == ("a=%s b=%d", ("v", 3))
    broken = logging.LogRecord("deerflow_memory.x", logging.INFO, "f", 1, "a=%s %s", ("v",), None)
    assert SafeRecords().filter(broken) and broken.args == ()  # reported inert, in one line
    assert broken.getMessage() == (
        "log message 'a=%s %s' could not be formatted"
        " (TypeError: not enough arguments for format string)"
    )


def test_log_safe_replaces_each_control_and_line_break_and_leaves_other_text() -> None:
    assert (
        log_safe("user=alice thread=t1 tab\tok émoji 🙂") == "user=alice thread=t1 tab\tok émoji 🙂"
    )
    assert (
        log_safe(f"a{HOSTILE}\n\u2028b")
        == "a" + "\ufffd]0;pwned\ufffd\ufffd[2J\ufffd[31m\ufffdevil\ufffd\ufffd\ufffd\ufffd\ufffdb"
    )
    assert traceback_safe("Stack:\n  line 2\x1b[2J") == "Stack:\n  line 2\ufffd[2J"
    assert traceback_safe("line 1\nline 2") == "    line 1\n    line 2"  # no traceback shape


def _package_sources() -> list[Path]:
    return sorted(PACKAGE.rglob("*.py"))


def test_no_module_gets_a_logger_or_logs_on_the_root_logger_except_through_package_logger() -> None:
    direct = {"getLogger", "debug", "info", "warning", "error", "exception", "critical", "log"}
    offenders = []
    for path in _package_sources():
        if path.parent.name == "logs":
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Attribute)
                and isinstance(node.func.value, ast.Name)
                and node.func.value.id == "logging"
                and node.func.attr in direct
            ):
                offenders.append(
                    f"{path.relative_to(PACKAGE)}:{node.lineno} logging.{node.func.attr}"
                )
    assert offenders == []


def test_every_logger_of_the_package_carries_the_filter() -> None:
    modules = set()
    for module in pkgutil.walk_packages([str(PACKAGE)], prefix="deerflow_memory."):
        try:
            importlib.import_module(module.name)
        except ImportError:  # an optional extra not installed: its module logs nothing here
            continue
        modules.add(module.name)
    loggers = {
        name: logger
        for name, logger in logging.Logger.manager.loggerDict.items()
        if name in modules and isinstance(logger, logging.Logger)
    }
    assert "deerflow_memory.update.updater" in loggers and "deerflow_memory.models" in loggers
    missing = [
        name
        for name, logger in loggers.items()
        if not any(isinstance(f, SafeRecords) for f in logger.filters)
    ]
    assert missing == []


TURN = [HumanMessage("I am allergic to peanuts."), AIMessage("Noted.")]


def test_a_model_servers_hostile_error_is_logged_inert(
    openai_server: OpenAIServer,  # noqa: F811
    package_log: io.StringIO,
    tmp_path: Path,
) -> None:
    # Every call answered 400 (with and without response_format): the update fails for good.
    openai_server.responder = lambda body: Reply(status=400, error_message=f"bad {HOSTILE} request")
    config = MemoryConfig(storage_path=tmp_path / "m", debounce_seconds=3600, update_max_attempts=1)
    model = openai_server.chat_model()
    with MemoryService(config, model=model, register_atexit=False) as memory:
        memory.enqueue(MemoryIdentity("alice", None, f"t{HOSTILE}"), TURN)
        memory.flush(timeout=30)
        assert HOSTILE in memory.dead_letters()[0].error  # kept as the server said it
    written = package_log.getvalue()
    assert "Error code: 400" in written and "bad \ufffd]0;pwned" in written, written
    assert_inert(written)


def test_a_saved_update_for_a_bidi_thread_id_is_logged_inert(
    package_log: io.StringIO, tmp_path: Path
) -> None:
    # A thread id with C0 controls is replaced by its hash; bidi controls pass resolve_identity.
    config = MemoryConfig(storage_path=tmp_path / "m", debounce_seconds=3600)
    with MemoryService(config, register_atexit=False) as memory:
        memory.enqueue(MemoryIdentity("alice", None, "t\u202eevil\u2066"), TURN)
        memory.flush(timeout=30)
    written = package_log.getvalue()
    assert "memory saved: user=alice" in written and "thread=t\ufffdevil\ufffd " in written, written
    assert_inert(written)


def test_a_stored_documents_hostile_fact_id_is_logged_inert_on_load(
    package_log: io.StringIO, tmp_path: Path
) -> None:
    folder = tmp_path / "m" / "users" / "alice"
    folder.mkdir(parents=True)
    fact = {"id": f"fact_{HOSTILE}", "content": "Likes tea.", "category": "preference"}
    document = {"facts": [{**fact, "confidence": 7}]}  # out of range: clamped, with a warning
    (folder / "memory.json").write_text(json.dumps(document), encoding="utf-8")
    FileMemoryStorage(tmp_path / "m").load("alice")
    written = package_log.getvalue()
    assert "confidence 7 outside" in written and "fact_\ufffd]0;pwned" in written, written
    assert_inert(written)


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="POSIX special files")
def test_a_hostile_outbox_file_name_is_logged_inert(
    package_log: io.StringIO, tmp_path: Path
) -> None:
    outbox = tmp_path / "outbox"
    outbox.mkdir()
    os.mkfifo(outbox / f"x{HOSTILE}.jsonl")
    MemoryService(MemoryConfig(storage_path=tmp_path), register_atexit=False).close()
    written = package_log.getvalue()
    assert "skipped and left untouched" in written and "x\ufffd]0;pwned" in written, written
    assert_inert(written)
