"""The characters a terminal must not receive from text we did not write, and their removal.

:data:`CONTROL_CHARACTERS` is a regular-expression character-class body: C0
controls other than tab, line feed and ESC, DEL and the C1 controls, and the
bidi marks, embeddings, overrides and isolates. ESC and the line feed are left
to each use: the command line's output lets rich's own colour sequences
(``ESC [ … m``) and line breaks through (``terminal.output``); a log line lets
no ESC and no line break through; a traceback keeps its line breaks only.
Each is replaced by U+FFFD, so the reader sees that something was there.
"""

from __future__ import annotations

import re

__all__ = ["CONTROL_CHARACTERS", "log_safe", "traceback_safe"]

CONTROL_CHARACTERS = "\x00-\x08\x0b-\x1a\x1c-\x1f\x7f-\x9f\u200e\u200f\u202a-\u202e\u2066-\u2069"

# One log record is one line: no escape sequence, and no line break (LF, and the
# Unicode line and paragraph separators; CR is a C0 control above) to forge another.
_UNSAFE_IN_LINE = re.compile(f"[\x1b\n\u2028\u2029{CONTROL_CHARACTERS}]")
_UNSAFE_IN_TRACEBACK = re.compile(f"[\x1b{CONTROL_CHARACTERS}]")


def log_safe(text: str) -> str:
    """``text`` as one inert log line: each control character, ESC and line break becomes U+FFFD.

    Returns ``text`` itself (the same object) when there is nothing to replace.
    """
    return text if _UNSAFE_IN_LINE.search(text) is None else _UNSAFE_IN_LINE.sub("\ufffd", text)


def traceback_safe(text: str) -> str:
    """``text`` (a formatted traceback or stack) with its line breaks kept, see :func:`log_safe`."""
    if _UNSAFE_IN_TRACEBACK.search(text) is None:
        return text
    return _UNSAFE_IN_TRACEBACK.sub("\ufffd", text)
