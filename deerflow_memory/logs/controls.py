"""The characters a terminal must not receive from text we did not write, and their removal.

:data:`CONTROL_CHARACTERS` is a regular-expression character-class body: C0
controls other than tab, line feed and ESC, DEL and the C1 controls, and the
bidi marks, embeddings, overrides and isolates. ESC and the line feed are left
to each use: the command line's output lets rich's own colour sequences
(``ESC [ … m``) and line breaks through (``terminal.output``); a log line lets
no ESC and no line break through; a traceback keeps its line feeds only, and
no line of it can pass for a log line (see :func:`traceback_safe` and
:func:`stack_safe`).
Each is replaced by U+FFFD, so the reader sees that something was there.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

__all__ = ["CONTROL_CHARACTERS", "log_safe", "stack_safe", "traceback_safe"]

# U+061C is the Arabic letter mark, the third bidi mark beside LRM and RLM.
CONTROL_CHARACTERS = (
    "\x00-\x08\x0b-\x1a\x1c-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069"
)

# One log record is one line: no escape sequence, and no line break (LF, and the
# Unicode line and paragraph separators; CR is a C0 control above) to forge another.
_UNSAFE_IN_LINE = re.compile(f"[\x1b\n\u2028\u2029{CONTROL_CHARACTERS}]")
_UNSAFE_IN_TRACEBACK = re.compile(f"[\x1b\u2028\u2029{CONTROL_CHARACTERS}]")
# The lines a formatted traceback or stack starts at column 0 (every other line of
# it is indented): its headers, blank lines, and "Type" or "Type: message" lines.
_HEADERS = (
    r"Traceback \(most recent call last\):|Stack \(most recent call last\):"
    r"|During handling of the above exception, another exception occurred:"
    r"|The above exception was the direct cause of the following exception:"
    r"|[ \t].*|"
)
_TRACEBACK_LINE = re.compile(rf"(?:{_HEADERS}|[\w.<>]+(?::[ \t].*|:)?)")
_HEADER_LINE = re.compile(rf"(?:{_HEADERS})")
_STACK_LINE = re.compile(r"(?:Stack \(most recent call last\):|[ \t].*)")
_CONTINUATION = "    "


def log_safe(text: str) -> str:
    """``text`` as one inert log line: each control character, ESC and line break becomes U+FFFD.

    Returns ``text`` itself (the same object) when there is nothing to replace.
    """
    return text if _UNSAFE_IN_LINE.search(text) is None else _UNSAFE_IN_LINE.sub("\ufffd", text)


def traceback_safe(text: str, messages: Iterable[str] = (), *, exception_lines: bool = True) -> str:
    """``text`` (a formatted traceback) made inert, its own line feeds kept.

    This works on the text alone, so it is the last line of defence: a logged
    exception is first formatted with its outside text defused (see
    ``logs.tracebacks``), which also covers texts that print otherwise than
    ``str()`` returns them. Each of ``messages`` that holds a line feed and
    appears in ``text`` gets its continuation lines indented by four spaces;
    then any other line starting at column 0 that is no traceback header or
    ``Type: message`` line is indented too (a line shaped ``Word: text`` is
    kept: the text alone cannot tell it from an exception's). With
    ``exception_lines=False`` (text formatted elsewhere, e.g. a relayed
    record's ``exc_text``) such lines are indented as well: only the headers
    and blank lines stay at column 0. Control characters, ESC and the Unicode
    line and paragraph separators become U+FFFD (see :func:`log_safe`); frames
    stay as they are.

    Returns ``text`` itself (the same object) when there is nothing to change.
    """
    safe = text
    for message in messages:
        if "\n" in message and message in safe:
            safe = safe.replace(message, message.replace("\n", "\n" + _CONTINUATION))
    safe = _indent_other_lines(safe, _TRACEBACK_LINE if exception_lines else _HEADER_LINE)
    return text if safe == text else safe


def stack_safe(text: str) -> str:
    """``text`` (a record's ``stack_info``) made inert, its own line feeds kept.

    Only its header, ``Stack (most recent call last):``, starts at column 0 (the
    frames are indented), so every other line that does is indented by four
    spaces: a frame's file or function name holding a line break cannot start a
    line of its own. Control characters become U+FFFD as in :func:`traceback_safe`.

    Returns ``text`` itself (the same object) when there is nothing to change.
    """
    safe = _indent_other_lines(text, _STACK_LINE)
    return text if safe == text else safe


def _indent_other_lines(text: str, keep: re.Pattern[str]) -> str:
    """``text`` with each line ``keep`` does not match indented, and its controls replaced."""
    lines = text.split("\n")
    if not all(keep.fullmatch(line) for line in lines):
        text = "\n".join(line if keep.fullmatch(line) else _CONTINUATION + line for line in lines)
    if _UNSAFE_IN_TRACEBACK.search(text) is not None:
        text = _UNSAFE_IN_TRACEBACK.sub("\ufffd", text)
    return text
