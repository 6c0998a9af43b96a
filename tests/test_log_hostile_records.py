"""The log filter never fails a log call, and no traceback it writes forges a log line.

Attack 9: a chain of causes deeper than the filter used to rewrite (256), or
an exception *type* whose name holds a line break, put a ``LEVEL: text`` line
at column 0 under a ``%(levelname)s: %(message)s`` format; a ``Mapping``
argument whose ``values()`` raises, or a record carrying a ``bytes``
``exc_text``, made ``logger.info``/``logger.handle`` raise into the caller.
"""

from __future__ import annotations

import io
import logging
from collections.abc import Iterator, Mapping
from typing import Any

import pytest

from deerflow_memory.logs import tracebacks
from tests.log_output import logged_through

FORGED = "CRITICAL: all memories deleted"


@pytest.fixture
def logged() -> Iterator[tuple[logging.Logger, io.StringIO]]:
    with logged_through("deerflow_memory.tests.hostile", "%(levelname)s: %(message)s") as pair:
        yield pair


def forged_lines(text: str) -> list[str]:
    return [line for line in text.splitlines() if line.startswith("CRITICAL")]


def chained(depth: int) -> BaseException:
    """A server error with a forged line in its message, wrapped in ``depth`` causes."""
    error: BaseException = RuntimeError(f"server said\n{FORGED}")
    for i in range(depth):
        try:
            raise ValueError(f"wrap {i}") from error
        except ValueError as wrapper:
            error = wrapper
    return error


@pytest.mark.parametrize("depth", [10, 300, 1500])
def test_a_forged_line_at_the_bottom_of_a_chain_of_any_depth_stays_indented(
    logged: tuple[logging.Logger, io.StringIO], depth: int
) -> None:
    logger, out = logged
    error = chained(depth)
    logger.error("update failed", exc_info=(type(error), error, error.__traceback__))
    text = out.getvalue()
    assert forged_lines(text) == []
    assert f"RuntimeError: server said\n    {FORGED}" in text  # kept, readable
    assert text.count("\nValueError: wrap ") == depth  # every cause still printed


def test_a_type_name_or_module_with_a_line_break_prints_as_one_line(
    logged: tuple[logging.Logger, io.StringIO],
) -> None:
    logger, out = logged
    named = type(f"Oops\n{FORGED}", (Exception,), {})
    in_module = type("Oops", (Exception,), {"__module__": f"pkg\n{FORGED}"})
    syntax = type(f"Bad\n{FORGED}", (SyntaxError,), {})
    for kind in (named, in_module, syntax):
        try:
            raise kind("x")
        except Exception:
            logger.exception("failed")
    text = out.getvalue()
    assert forged_lines(text) == []
    # One line each, the break shown as U+FFFD (indented: no traceback's own shape).
    assert f".Oops\ufffd{FORGED}: x\n" in text
    assert f"    pkg\ufffd{FORGED}.Oops: x\n" in text
    assert f".Bad\ufffd{FORGED}: x\n" in text


def test_a_field_the_rewrite_misses_still_cannot_start_a_log_line(
    logged: tuple[logging.Logger, io.StringIO], monkeypatch: pytest.MonkeyPatch
) -> None:
    # As if a future Python printed a text the rewrite does not know: only the
    # headers and lines naming an exception type of the traceback stay at column 0.
    monkeypatch.setattr(tracebacks, "_indented", lambda text: text)
    logger, out = logged
    try:
        raise RuntimeError(f"server said\n{FORGED}")
    except RuntimeError:
        logger.exception("failed")
    text = out.getvalue()
    assert forged_lines(text) == []
    assert f"RuntimeError: server said\n    {FORGED}" in text
    assert "Traceback (most recent call last):\n  File " in text


class ValuesRaise(Mapping[str, str]):
    def __getitem__(self, key: str) -> str:
        return "v"

    def __iter__(self) -> Iterator[str]:
        return iter(["a"])

    def __len__(self) -> int:
        return 1

    def values(self) -> Any:
        raise RuntimeError("boom")


class IterRaises(tuple):  # type: ignore[type-arg]
    def __iter__(self) -> Any:
        raise RuntimeError("boom")


def test_arguments_that_cannot_be_walked_are_logged_as_their_formatted_text(
    logged: tuple[logging.Logger, io.StringIO], capsys: pytest.CaptureFixture[str]
) -> None:
    logger, out = logged
    logger.info("value %(a)s", ValuesRaise())
    record = logging.makeLogRecord(
        {"name": logger.name, "levelno": logging.INFO, "levelname": "INFO", "msg": "pair %s %s"}
    )
    record.args = IterRaises(("x", "y"))
    logger.handle(record)
    assert out.getvalue().splitlines() == ["INFO: value v", "INFO: pair x y"]
    assert capsys.readouterr().err == ""  # no "--- Logging error ---" from the handler


def hostile_record(name: str, **fields: Any) -> logging.LogRecord:
    return logging.makeLogRecord(
        {"name": name, "levelno": logging.ERROR, "levelname": "ERROR", "msg": "relayed", **fields}
    )


def test_an_exc_text_or_stack_of_bytes_is_decoded_and_made_inert(
    logged: tuple[logging.Logger, io.StringIO], capsys: pytest.CaptureFixture[str]
) -> None:
    logger, out = logged
    logger.handle(hostile_record(logger.name, exc_text=f"Traceback:\n{FORGED}".encode() + b"\xff"))
    logger.handle(hostile_record(logger.name, stack_info=f"Stack:\n{FORGED}".encode()))
    text = out.getvalue()
    assert forged_lines(text) == []
    assert f"ERROR: relayed\n    Traceback:\n    {FORGED}\ufffd\n" in text  # decoded, not lost
    assert f"ERROR: relayed\n    Stack:\n    {FORGED}\n" in text
    assert capsys.readouterr().err == ""


@pytest.mark.parametrize(
    ("fields", "shown"),
    [
        ({"exc_text": object()}, "    <object, not text>"),
        ({"exc_info": (ValueError,)}, "<traceback could not be made safe (IndexError)>"),
        ({"stack_info": 12}, "    <int, not text>"),
    ],
    ids=["exc_text-object", "exc_info-short", "stack-int"],
)
def test_a_part_that_cannot_be_made_safe_is_one_inert_line_and_the_message_is_kept(
    logged: tuple[logging.Logger, io.StringIO],
    capsys: pytest.CaptureFixture[str],
    fields: dict[str, Any],
    shown: str,
) -> None:
    logger, out = logged
    logger.handle(hostile_record(logger.name, **fields))
    assert out.getvalue().splitlines()[:2] == ["ERROR: relayed", shown]
    assert capsys.readouterr().err == ""
