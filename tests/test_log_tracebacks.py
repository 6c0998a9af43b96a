"""A logged traceback cannot carry a forged log line.

An exception's message and notes are outside text (a model server's error
body, a file name). Their line breaks are kept in a traceback, but every line
they start is indented, so none passes for a log line; the frames stay readable.
"""

from __future__ import annotations

import io
import logging
from collections.abc import Iterator

import pytest

from deerflow_memory.logs import SafeRecords, traceback_safe
from tests.log_output import logged_through

FORGED = "2026-12-01 ERROR deerflow_memory.service: all memory deleted for user 'alice'"


@pytest.fixture
def logged() -> Iterator[tuple[logging.Logger, io.StringIO]]:
    """A package logger writing through a real handler, with a timestamped format."""
    with logged_through(
        "deerflow_memory.tests.tracebacks", "%(asctime)s %(levelname)s %(name)s: %(message)s"
    ) as pair:
        yield pair


def lines_starting_with(text: str, start: str) -> list[str]:
    return [line for line in text.splitlines() if line.startswith(start)]


def test_an_exception_message_with_a_line_break_logs_no_forged_line(
    logged: tuple[logging.Logger, io.StringIO],
) -> None:
    logger, out = logged
    try:
        raise RuntimeError(f"x\n{FORGED}")
    except RuntimeError:
        logger.exception("memory update failed")
    text = out.getvalue()
    assert lines_starting_with(text, FORGED) == []
    assert f"RuntimeError: x\n    {FORGED}" in text  # kept, readable, indented
    assert "Traceback (most recent call last):\n  File " in text  # frames as they were
    assert "    raise RuntimeError(" in text


def test_causes_contexts_notes_and_group_members_log_no_forged_line(
    logged: tuple[logging.Logger, io.StringIO],
) -> None:
    logger, out = logged
    try:
        try:
            raise OSError(f"disk\n{FORGED}")
        except OSError as e:
            e.add_note(f"note\n{FORGED}")
            try:
                raise ValueError(f"cause\n{FORGED}") from e
            except ValueError as err:
                members = [KeyError("k"), TypeError(f"t\n{FORGED}")]
                raise ExceptionGroup(f"group\n{FORGED}", members) from err
    except ExceptionGroup:
        logger.exception("memory update failed")
    text = out.getvalue()
    assert lines_starting_with(text, FORGED) == []
    assert text.count(FORGED) == 5  # nothing dropped
    assert "The above exception was the direct cause of the following exception:" in text


def test_a_line_of_no_traceback_shape_at_column_0_is_indented_whatever_it_comes_from() -> None:
    text = f'Traceback (most recent call last):\n  File "f.py", line 1\nValueError: a\n{FORGED}'
    safe = traceback_safe(text)  # its message not given: the column-0 rule alone
    assert safe.splitlines()[-1] == "    " + FORGED
    assert safe.splitlines()[:3] == text.splitlines()[:3]


def test_unicode_line_separators_in_a_traceback_are_replaced() -> None:
    record = logging.LogRecord("deerflow_memory.x", logging.ERROR, "f", 1, "failed", (), None)
    try:
        raise RuntimeError(f"x\u2028{FORGED}\u2029y")
    except RuntimeError as e:
        record.exc_info = (RuntimeError, e, e.__traceback__)
    assert SafeRecords().filter(record)
    assert record.exc_text is not None
    assert "\u2028" not in record.exc_text and "\u2029" not in record.exc_text
    assert f"x\ufffd{FORGED}\ufffdy" in record.exc_text


def test_a_clean_traceback_is_stored_as_logging_would_format_it() -> None:
    record = logging.LogRecord("deerflow_memory.x", logging.ERROR, "f", 1, "failed", (), None)
    try:
        try:
            raise KeyError("k")
        except KeyError as e:
            raise ValueError("no line break here") from e
    except ValueError as e:
        record.exc_info = (ValueError, e, e.__traceback__)
    clean = logging.Formatter().formatException(record.exc_info)
    assert SafeRecords().filter(record)
    assert record.exc_text == clean
    assert traceback_safe(clean) is clean
