"""What the command line needs from the operating system, kept apart from the commands.

- :mod:`~deerflow_memory.terminal.output`: standard output that fails with one
  typed error (closed, broken pipe, full disk), a console and tables that use
  the terminal's width on a terminal and never cut content when piped.
- :mod:`~deerflow_memory.terminal.files`: bounded reads, writes that replace a
  file only once the new text is safely on disk, yes/no questions on stdin, and
  one-line descriptions of ``OSError``.
"""

from __future__ import annotations

from deerflow_memory.terminal.files import (
    ask_yes_no,
    describe_os_error,
    read_bounded,
    read_stream_bounded,
    write_text_replacing,
)
from deerflow_memory.terminal.output import (
    GuardedOutput,
    OutputError,
    make_console,
    print_table,
    terminal_safe,
)

__all__ = [
    "GuardedOutput",
    "OutputError",
    "ask_yes_no",
    "describe_os_error",
    "make_console",
    "print_table",
    "read_bounded",
    "read_stream_bounded",
    "terminal_safe",
    "write_text_replacing",
]
