"""A logged exception formatted so that no outside text in it starts a line of its own.

A traceback prints text we did not write: an exception's message and notes (a
server's error body), a ``SyntaxError``'s file name, source text and message,
and the file and function names of its frames. Their line breaks would put
whatever follows at column 0, where it passes for a log line. Searching the
formatted text for ``str(error)`` misses every text that prints otherwise than
``str()`` returns it (a ``SyntaxError`` prints its parts apart, a notes list
prints line by line, a ``__str__`` may answer differently the second time),
so the text is made safe where it enters the traceback: the
:class:`traceback.TracebackException` that ``logging`` would print (the same
``compact=True`` one, ``str()`` called once) has those fields rewritten before
it is formatted:

- message (``Type: message``) and ``SyntaxError`` message: each line after the
  first is indented by four spaces;
- notes: every line of every note is indented (a note is printed bare at the
  start of a line, so even a one-line note could pass for a log line);
- file names, function names and ``SyntaxError`` source text: a line break
  becomes U+FFFD (one character for one, so a ``SyntaxError``'s caret stays
  under the right column).

What is left (the frames, headers and ``Type:`` prefixes) is the formatter's
own; :func:`~deerflow_memory.logs.controls.traceback_safe` then replaces the
control characters and indents any line at column 0 of no traceback shape.
"""

from __future__ import annotations

import traceback
from collections.abc import Sequence
from types import TracebackType

__all__ = ["format_exception_safely"]

_CONTINUATION = "    "
# Exceptions deeper or wider than this in a chain or group are not rewritten
# (the formatter prints at most max_group_width members anyway; the column-0 rule still holds).
_MAX_EXCEPTIONS = 256

ExcInfo = tuple[type[BaseException], BaseException, TracebackType | None]


def format_exception_safely(exc_info: ExcInfo) -> str:
    """``exc_info`` formatted as ``logging.Formatter.formatException`` does, outside text defused.

    The text (no final line feed) is ``logging``'s own when no message, note or
    name of the exception, its causes, contexts and group members holds a line
    break and none has notes. Control characters are left to ``traceback_safe``.
    """
    _, value, tb = exc_info
    error = traceback.TracebackException(type(value), value, tb, compact=True)
    _defuse(error)
    text = "".join(error.format(chain=True))
    return text[:-1] if text.endswith("\n") else text


def _indented(text: str) -> str:
    return text.replace("\n", "\n" + _CONTINUATION)


def _one_line(text: str) -> str:
    return text.replace("\n", "\ufffd")


def _safe_note(note: object) -> str:
    try:
        text = note if isinstance(note, str) else str(note)
    except Exception:
        text = "<note str() failed>"
    return _CONTINUATION + _indented(text)


def _defuse(top: traceback.TracebackException) -> None:
    seen: set[int] = set()
    todo: list[traceback.TracebackException | None] = [top]
    while todo and len(seen) < _MAX_EXCEPTIONS:
        error = todo.pop()
        if error is None or id(error) in seen:
            continue
        seen.add(id(error))
        # _str holds str(exception), taken once when the TracebackException was built.
        message = getattr(error, "_str", None)
        if isinstance(message, str):
            error._str = _indented(message)  # type: ignore[attr-defined]
        notes = error.__notes__
        if notes is not None:
            if isinstance(notes, Sequence) and not isinstance(notes, str | bytes):
                error.__notes__ = [_safe_note(note) for note in notes]
            else:  # printed as its repr
                try:
                    shown = repr(notes)
                except Exception:
                    shown = "<__notes__ repr() failed>"
                error.__notes__ = [_safe_note(shown)]
        if hasattr(error, "msg") and hasattr(error, "text"):  # set for a SyntaxError only
            if isinstance(error.filename, str):
                error.filename = _one_line(error.filename)
            error.msg = _indented(error.msg) if isinstance(error.msg, str) else error.msg
            text = error.text
            if isinstance(text, str):
                # Its trailing line feeds are stripped when printed; the rest would start lines.
                body = text.rstrip("\n")
                error.text = body.replace("\n", "\ufffd") + text[len(body) :]
        for frame in error.stack:
            if "\n" in frame.filename or "\n" in frame.name:
                _ = frame.line  # read the source line while the file name still finds it
                frame.filename = _one_line(frame.filename)
                frame.name = _one_line(frame.name)
        todo += [error.__cause__, error.__context__]
        todo += error.exceptions or []
