"""No outside text in a logged exception, stack or message starts a log line of its own.

Texts that print otherwise than ``str()`` returns them slipped past a search of
the formatted traceback for the exception's message: a ``SyntaxError`` prints
its file name, source text and message apart; a note is printed bare at column
0; a frame's file name comes from ``compile()``; a ``__str__`` may answer
differently the second time or raise. Each forged line here is shaped
``Word: text``, the shape a traceback's own ``Type: message`` line has, so only
defusing the text where it enters the traceback keeps it off column 0.
"""

from __future__ import annotations

import io
import logging
from collections.abc import Iterator

import pytest

from deerflow_memory.logs import package_logger, stack_safe
from tests.log_output import logged_through

FORGED = "WARNING: all memory deleted for user alice"


@pytest.fixture
def logged() -> Iterator[tuple[logging.Logger, io.StringIO]]:
    """A package logger writing through a real handler in ``levelname: message`` form."""
    with logged_through("deerflow_memory.tests.forgery", "%(levelname)s: %(message)s") as pair:
        yield pair


def forged_lines(text: str) -> list[str]:
    return [line for line in text.splitlines() if line.startswith(FORGED[:10])]


def log_exception(logger: logging.Logger, error: BaseException) -> None:
    try:
        raise error
    except BaseException:
        logger.exception("memory update failed")


def test_a_syntax_errors_file_name_source_text_and_message_forge_no_line(
    logged: tuple[logging.Logger, io.StringIO],
) -> None:
    logger, out = logged
    log_exception(logger, SyntaxError(f"bad\n{FORGED}", (f"f.py\n{FORGED}", 1, 3, "x =\n", 1, 4)))
    log_exception(logger, SyntaxError("bad", ("f.py", 1, 3, f"x\n{FORGED}\n", 1, 4)))
    text = out.getvalue()
    assert forged_lines(text) == []
    assert text.count(FORGED) == 3  # nothing dropped
    assert f'File "f.py\ufffd{FORGED}", line 1' in text
    assert f"SyntaxError: bad\n    {FORGED}" in text


def test_a_syntax_errors_caret_stays_under_its_column_when_its_text_is_rewritten() -> None:
    logger = package_logger("deerflow_memory.tests.forgery")
    record = logger.makeRecord(logger.name, logging.ERROR, "f", 1, "failed", (), None)
    error = SyntaxError("bad", ("f.py", 1, 4, "ab\ncd\n", 1, 5))
    record.exc_info = (SyntaxError, error, None)
    logger.filters[0].filter(record)
    assert record.exc_text is not None
    assert "    ab\ufffdcd\n       ^" in record.exc_text


def test_a_one_line_note_and_every_line_of_a_note_are_indented(
    logged: tuple[logging.Logger, io.StringIO],
) -> None:
    logger, out = logged
    error = ValueError("v")
    error.add_note(FORGED)
    error.add_note(f"saving failed\n{FORGED}")
    log_exception(logger, error)
    text = out.getvalue()
    assert forged_lines(text) == []
    assert f"ValueError: v\n    {FORGED}\n    saving failed\n    {FORGED}" in text


def test_a_message_that_changes_between_str_calls_forges_no_line(
    logged: tuple[logging.Logger, io.StringIO],
) -> None:
    class Fickle(Exception):
        calls = 0

        def __str__(self) -> str:
            Fickle.calls += 1
            return f"x\n{FORGED}" if Fickle.calls % 2 else "x"

    logger, out = logged
    log_exception(logger, Fickle())
    log_exception(logger, Fickle())
    text = out.getvalue()
    assert forged_lines(text) == []
    # Both records were written, each with its message line (not dropped, not handleError).
    assert text.count("ERROR: memory update failed") == 2 and text.count("Fickle: x") == 2


def test_a_frames_file_and_function_name_forge_no_line(
    logged: tuple[logging.Logger, io.StringIO],
) -> None:
    logger, out = logged
    code = compile("def f():\n    raise ValueError('v')\nf()\n", f"f.py\n{FORGED}", "exec")
    try:
        exec(code, {})
    except ValueError:
        logger.exception("memory update failed")
    text = out.getvalue()
    assert forged_lines(text) == []
    assert f'File "f.py\ufffd{FORGED}", line 3, in <module>' in text


def test_a_group_member_cause_and_context_forge_no_line(
    logged: tuple[logging.Logger, io.StringIO],
) -> None:
    logger, out = logged
    member = SyntaxError("m", (f"g.py\n{FORGED}", 2, 1, "y\n", 2, 2))
    member.__cause__ = SyntaxError(f"cause\n{FORGED}", ("c.py", 1, 1, "w\n", 1, 2))
    try:
        try:
            raise SyntaxError(f"context\n{FORGED}", ("h.py", 1, 1, "z\n", 1, 2))
        except SyntaxError:
            raise ExceptionGroup("group", [member, KeyError(FORGED)])  # noqa: B904
    except ExceptionGroup:
        logger.exception("memory update failed")
    text = out.getvalue()
    assert forged_lines(text) == []
    assert text.count(FORGED) == 4


def test_an_argument_whose_str_raises_is_logged_as_one_inert_line(
    logged: tuple[logging.Logger, io.StringIO], capsys: pytest.CaptureFixture[str]
) -> None:
    class Hostile:
        def __str__(self) -> str:
            raise ValueError(f"x\n{FORGED}")

    logger, out = logged
    logger.warning("saving %s", Hostile())
    written = out.getvalue() + capsys.readouterr().err
    assert forged_lines(written) == []
    assert written.startswith("WARNING: log message 'saving %s' could not be formatted")
    assert f"(ValueError: x\ufffd{FORGED})" in written


def test_a_stack_and_an_exc_text_already_set_forge_no_line(
    logged: tuple[logging.Logger, io.StringIO],
) -> None:
    logger, out = logged
    code = compile("log('saving', stack_info=True)\n", f"f.py\n{FORGED}", "exec")
    exec(code, {"log": logger.warning})
    record = logging.makeLogRecord(
        {
            "name": logger.name,
            "levelno": logging.ERROR,
            "levelname": "ERROR",
            "msg": "relayed",
            "exc_text": f"Traceback:\n{FORGED}\n{FORGED[9:]}",
        }
    )
    logger.handle(record)
    text = out.getvalue()
    assert "Stack (most recent call last):\n" in text
    assert forged_lines(text) == []
    # A relayed exc_text is text alone: every line at column 0 but a header is indented.
    assert f"Traceback:\n    {FORGED}\n    {FORGED[9:]}" in text


def test_stack_safe_keeps_the_header_and_indents_any_other_line_at_column_0() -> None:
    stack = f'Stack (most recent call last):\n  File "a\n{FORGED}", line 1\n    f()'
    assert stack_safe(stack) == (
        f'Stack (most recent call last):\n  File "a\n    {FORGED}", line 1\n    f()'
    )
    clean = 'Stack (most recent call last):\n  File "a.py", line 1, in <module>\n    f()'
    assert stack_safe(clean) is clean


def test_the_arabic_letter_mark_is_replaced_like_the_other_bidi_marks() -> None:
    from deerflow_memory.logs import log_safe
    from deerflow_memory.terminal import terminal_safe

    for mark in ("\u061c", "\u200e", "\u200f"):
        assert log_safe(f"user=a{mark}b") == "user=a\ufffdb"
        assert terminal_safe(f"a{mark}b") == "a\ufffdb"


def test_an_argument_that_changes_between_str_calls_forges_no_line(
    logged: tuple[logging.Logger, io.StringIO],
) -> None:
    class Fickle:
        """Clean when the filter reads it, a forged line when the handler does."""

        def __init__(self) -> None:
            self.calls = 0

        def __str__(self) -> str:
            self.calls += 1
            return "x" if self.calls == 1 else f"x\n{FORGED}"

    logger, out = logged
    logger.warning("update failed: %s", Fickle())
    logger.warning("update failed: %(why)s", {"why": Fickle()})
    assert forged_lines(out.getvalue()) == []
    assert out.getvalue().count("update failed: x\n") == 2


def test_plain_arguments_stay_apart_from_the_format() -> None:
    logger = package_logger("deerflow_memory.tests.forgery")
    record = logger.makeRecord(
        logger.name, logging.INFO, "f", 1, "a=%s b=%d %s", ("v", 3, None), None
    )
    logger.filters[0].filter(record)
    assert (record.msg, record.args) == ("a=%s b=%d %s", ("v", 3, None))
    error = ValueError("boom")
    record = logger.makeRecord(logger.name, logging.INFO, "f", 1, "failed: %s", (error,), None)
    logger.filters[0].filter(record)
    assert (record.msg, record.args) == ("failed: boom", ())
