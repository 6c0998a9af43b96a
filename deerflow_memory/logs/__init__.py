"""Log records of this package never carry terminal control characters.

Log lines hold text we did not write: a model server's error message, user and
thread ids, fact ids from a stored document, file names. An escape sequence in
one (``ESC ]0;title BEL``, ``ESC [2J``) would retitle or clear the operator's
terminal, a bidi control would reorder the line, a line break would forge a
second record.

- :mod:`~deerflow_memory.logs.controls`: the control characters a terminal must
  not receive (shared with the command line's output) and :func:`log_safe`.
- :mod:`~deerflow_memory.logs.records`: :func:`package_logger`, the one way a
  module of this package gets its logger; it carries :class:`SafeRecords`,
  which rewrites a record whose message, traceback or stack holds such characters.
- :mod:`~deerflow_memory.logs.tracebacks`: a logged exception formatted with
  the outside text in it (messages, notes, file names) unable to start a line.

This is a leaf: it imports nothing from the package, and every layer may use it.
"""

from __future__ import annotations

from deerflow_memory.logs.controls import (
    CONTROL_CHARACTERS,
    log_safe,
    stack_safe,
    traceback_safe,
)
from deerflow_memory.logs.records import SafeRecords, package_logger

__all__ = [
    "CONTROL_CHARACTERS",
    "SafeRecords",
    "log_safe",
    "package_logger",
    "stack_safe",
    "traceback_safe",
]
