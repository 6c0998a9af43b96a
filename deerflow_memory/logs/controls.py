"""The characters a terminal must not receive from text we did not write, and their removal.

:data:`CONTROL_CHARACTERS` is a regular-expression character-class body: C0
controls other than tab, line feed and ESC, DEL and the C1 controls, and the
bidi marks, embeddings, overrides and isolates. ESC and the line feed are left
to each use: the command line's output lets rich's own colour sequences
(``ESC [ … m``) and line breaks through (``terminal.output``); a log line lets
no ESC and no line break through; a traceback keeps its line feeds only, and
no line of it can pass for a log line (see :func:`traceback_safe`).
Each is replaced by U+FFFD, so the reader sees that something was there.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

__all__ = ["CONTROL_CHARACTERS", "log_safe", "traceback_safe"]

CONTROL_CHARACTERS = "\x00-\x08\x0b-\x1a\x1c-\x1f\x7f-\x9f\u200e\u200f\u202a-\u202e\u2066-\u2069"

# One log record is one line: no escape sequence, and no line break (LF, and the
# Unicode line and paragraph separators; CR is a C0 control above) to forge another.
_UNSAFE_IN_LINE = re.compile(f"[\x1b\n\u2028\u2029{CONTROL_CHARACTERS}]")
_UNSAFE_IN_TRACEBACK = re.compile(f"[\x1b\u2028\u2029{CONTROL_CHARACTERS}]")
# The lines a formatted traceback or stack starts at column 0 (every other line of
# it is indented): its headers, blank lines, and "Type" or "Type: message" lines.
_TRACEBACK_LINE = re.compile(
    r"(?:Traceback \(most recent call last\):|Stack \(most recent call last\):"
    r"|During handling of the above exception, another exception occurred:"
    r"|The above exception was the direct cause of the following exception:"
    r"|[\w.<>]+(?::[ \t].*|:)?|[ \t].*|)"
)
_CONTINUATION = "    "


def log_safe(text: str) -> str:
    """``text`` as one inert log line: each control character, ESC and line break becomes U+FFFD.

    Returns ``text`` itself (the same object) when there is nothing to replace.
    """
    return text if _UNSAFE_IN_LINE.search(text) is None else _UNSAFE_IN_LINE.sub("\ufffd", text)


def traceback_safe(text: str, messages: Iterable[str] = ()) -> str:
    """``text`` (a formatted traceback or stack) made inert, its own line feeds kept.

    An exception's message and notes are outside text (a server's error body, a
    file name) printed at the start of a line, so their line breaks could start
    a line that passes for a log line. Each of ``messages`` (those texts: see
    ``SafeRecords``) that holds a line feed and appears in ``text`` gets its
    continuation lines indented by four spaces; then any other line starting at
    column 0 that is no traceback header or ``Type: message`` line is indented
    too. Control characters, ESC and the Unicode line and paragraph separators
    become U+FFFD (see :func:`log_safe`); frames stay as they are.

    Returns ``text`` itself (the same object) when there is nothing to change.
    """
    safe = text
    for message in messages:
        if "\n" in message and message in safe:
            safe = safe.replace(message, message.replace("\n", "\n" + _CONTINUATION))
    lines = safe.split("\n")
    if not all(_TRACEBACK_LINE.fullmatch(line) for line in lines):
        safe = "\n".join(
            line if _TRACEBACK_LINE.fullmatch(line) else _CONTINUATION + line for line in lines
        )
    if _UNSAFE_IN_TRACEBACK.search(safe) is not None:
        safe = _UNSAFE_IN_TRACEBACK.sub("\ufffd", safe)
    return text if safe == text else safe
