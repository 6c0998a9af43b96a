"""Standard output for the command line: one typed error when it fails, nothing cut when piped.

- :class:`GuardedOutput` wraps ``sys.stdout``: a closed stdout (``>&-``), a
  reader that went away (``| head -1``: ``EPIPE``) or a full disk
  (``>/dev/full``: ``ENOSPC``) raise :class:`OutputError` on write or flush,
  so the command line can answer each with one line (or, for a broken pipe,
  silently, the Unix way) instead of a traceback at exit.
- :func:`make_console` gives a rich console that prints text literally (no
  markup, no highlighting). On a terminal it uses the terminal's width (one
  that cannot fit a table's columns without cutting their words gets each row
  as ``header: value`` lines instead); when
  the output is piped or redirected, plain lines are not wrapped and tables are
  drawn at their natural width, so no cell is cut or folded at 80 columns.
"""

from __future__ import annotations

import errno
import io
import re
from typing import IO, Any, TextIO, cast

from rich.cells import cell_len
from rich.console import Console, RenderableType
from rich.measure import Measurement
from rich.table import Table
from rich.text import Text

from deerflow_memory.logs.controls import CONTROL_CHARACTERS

__all__ = ["GuardedOutput", "OutputError", "make_console", "print_table", "terminal_safe"]

# What stored text must not send to a terminal: control characters (an escape
# sequence can retitle the window, clear the screen or fake output) other than
# line breaks and tabs, except the colour sequences rich itself writes (ESC [ … m),
# and the bidi controls that reorder how a line reads.
# The characters are the ones log records are kept free of too (deerflow_memory.logs).
_UNSAFE = re.compile(f"\x1b(?!\\[[0-9;]*m)|[{CONTROL_CHARACTERS}]")


def terminal_safe(text: str) -> str:
    """``text`` with each terminal control character replaced by U+FFFD (see ``_UNSAFE``)."""
    return text if _UNSAFE.search(text) is None else _UNSAFE.sub("\ufffd", text)


# Wider than any table we draw; only ever a bound for measuring natural width.
_MEASURE_WIDTH = 1_000_000


class OutputError(Exception):
    """Writing to standard output failed.

    Attributes:
        error: the ``OSError`` (``None`` when stdout is closed, i.e. ``sys.stdout is None``).
    """

    def __init__(self, error: OSError | None) -> None:
        self.error = error
        if error is None:
            reason = "it is closed"
        else:
            reason = error.strerror or str(error) or type(error).__name__
        super().__init__(f"cannot write to standard output: {reason}")

    @property
    def broken_pipe(self) -> bool:
        """True when the reader went away (``EPIPE``), e.g. ``deerflow-memory list | head -1``."""
        return isinstance(self.error, BrokenPipeError) or (
            self.error is not None and self.error.errno == errno.EPIPE
        )


class GuardedOutput(io.TextIOBase):
    """A text stream over ``stream`` whose write and flush failures are :class:`OutputError`.

    Args:
        stream: the real stream (usually ``sys.stdout``); ``None`` when it is closed.
    """

    def __init__(self, stream: TextIO | None) -> None:
        super().__init__()
        self._stream = stream

    @property
    def closed_at_start(self) -> bool:
        """True when there was no stream at all (the process started with stdout closed)."""
        return self._stream is None

    @property
    def encoding(self) -> str:  # type: ignore[override]
        return getattr(self._stream, "encoding", None) or "utf-8"

    def writable(self) -> bool:
        return self._stream is not None

    def write(self, text: str) -> int:
        if self._stream is None:
            raise OutputError(None)
        try:
            return self._stream.write(terminal_safe(text))
        except OSError as e:
            raise OutputError(e) from e
        except ValueError as e:  # "I/O operation on closed file"
            raise OutputError(OSError(errno.EBADF, str(e))) from e

    def flush(self) -> None:
        if self._stream is None:
            return
        try:
            self._stream.flush()
        except OSError as e:
            raise OutputError(e) from e
        except ValueError:
            return  # already closed: nothing buffered can be written any more

    def isatty(self) -> bool:
        try:
            return self._stream is not None and self._stream.isatty()
        except (OSError, ValueError):
            return False

    def fileno(self) -> int:
        if self._stream is None:
            raise io.UnsupportedOperation("standard output is closed")
        return self._stream.fileno()


class _Console(Console):
    """A console whose output is never cut when it is not a terminal (see the module doc)."""

    def print(self, *objects: Any, **kwargs: Any) -> None:
        if len(objects) == 1 and isinstance(objects[0], Table):
            print_table(self, objects[0], **kwargs)
            return
        if (
            not self.is_terminal
            and "soft_wrap" not in kwargs
            and all(isinstance(o, str | Text) for o in objects)
        ):
            kwargs["soft_wrap"] = True  # one line stays one line in a pipe
        super().print(*objects, **kwargs)


def make_console(stream: TextIO | GuardedOutput) -> Console:
    """A console over ``stream`` that prints text literally and never cuts content when piped."""
    return _Console(file=cast(IO[str], stream), markup=False, highlight=False)


def print_table(console: Console, table: Table, **kwargs: Any) -> None:
    """Print ``table``: long cells fold instead of ending in "…"; at full width when piped.

    Cells are made terminal-safe before they are measured: a control character measures
    0 columns but is written as one U+FFFD, and a line then ran past the terminal's edge
    and wrapped to column 0, where stored text could pass for a row or a field.
    """
    for column in table.columns:
        if column.overflow == "ellipsis":
            column.overflow = "fold"
        column._cells = [_safe(cell) for cell in column.cells]  # rich keeps them there
    if console.is_terminal:
        if _narrowest(table) > console.width:
            _print_records(console, table)  # columns would cut words: "ali|ce", "use|r"
            return
        Console.print(console, table, **kwargs)
        return
    options = console.options.update(max_width=_MEASURE_WIDTH)
    natural = Measurement.get(console, options, table).maximum
    width = console.width
    console.width = max(width, natural)
    try:
        Console.print(console, table, **kwargs)
    finally:
        console.width = width


# A word longer than this may be folded in its column (a URL, a hash): it does not
# make a table a list of records by itself.
_FOLDED_WORD = 16


def _narrowest(table: Table) -> int:
    """Columns a terminal needs for ``table`` without cutting a word: each column's longest
    word (up to _FOLDED_WORD; a ``no_wrap`` column's longest line) or its ``min_width``,
    padding and borders."""
    total = 3 * len(table.columns) + 1  # a space each side and a border per column, one more
    for column in table.columns:
        texts = [_text(column.header).plain, *(_text(cell).plain for cell in column.cells)]
        if column.no_wrap:
            needed = max(cell_len(line) for text in texts for line in text.splitlines() or [""])
        else:
            words = (min(cell_len(word), _FOLDED_WORD) for text in texts for word in text.split())
            needed = max(words, default=0)
        total += max(needed, column.min_width or 0)
    return total


def _print_records(console: Console, table: Table) -> None:
    """``table`` one row at a time, a ``header: value`` line per column: for a terminal
    narrower than the columns' longest words, where a table cuts every word ("ali|ce").
    The values stand in a column of their own, so a line of one (its line breaks, or
    where it wraps) cannot pass for a field or a record."""
    if table.title:
        Console.print(console, table.title)
    headers = [_text(column.header) + ":" for column in table.columns]
    rows = zip(*(list(column.cells) for column in table.columns), strict=True)
    for number, row in enumerate(rows):
        if number or table.title:
            Console.print(console)
        record = Table.grid(padding=(0, 1))
        record.add_column(no_wrap=True)
        record.add_column(overflow="fold")
        for header, cell in zip(headers, row, strict=True):
            record.add_row(header, _text(cell))
        Console.print(console, record)


def _text(cell: RenderableType) -> Text:
    return cell if isinstance(cell, Text) else Text(str(cell))


def _safe(cell: RenderableType) -> RenderableType:
    """``cell`` with the characters :func:`terminal_safe` replaces already replaced (one
    for one: a Text keeps its styles)."""
    if isinstance(cell, str):
        return terminal_safe(cell)
    if isinstance(cell, Text) and terminal_safe(cell.plain) != cell.plain:
        safe = cell.copy()
        safe.plain = terminal_safe(cell.plain)
        return safe
    return cell
