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
  under the right column);
- the exception type's name and module (``type("A\nB", ...)``): the same.

Every exception of the chain and of the groups is rewritten, however deep or
wide (they are all built already; the formatter prints every one of a chain).
Then, whatever a future Python prints that is not rewritten here, the only
lines left at column 0 are the headers and the lines that start with the name
of an exception of this traceback (``Type`` or ``Type: ...``): any other is
indented, so a ``LEVEL: text`` line cannot pass for a log line.
What is left (the frames, headers and ``Type:`` prefixes) is the formatter's
own; :func:`~deerflow_memory.logs.controls.traceback_safe` then replaces the
control characters.
"""

from __future__ import annotations

import traceback
from collections.abc import Sequence
from types import TracebackType

from deerflow_memory.logs.controls import _HEADER_LINE

__all__ = ["format_exception_safely"]

_CONTINUATION = "    "

ExcInfo = tuple[type[BaseException], BaseException, TracebackType | None]


def format_exception_safely(exc_info: ExcInfo) -> str:
    """``exc_info`` formatted as ``logging.Formatter.formatException`` does, outside text defused.

    The text (no final line feed) is ``logging``'s own when no message, note or
    name of the exception, its causes, contexts and group members holds a line
    break and none has notes. Control characters are left to ``traceback_safe``.
    """
    _, value, tb = exc_info
    error = traceback.TracebackException(type(value), value, tb, compact=True)
    names = _defuse(error)
    text = "".join(error.format(chain=True))
    text = text[:-1] if text.endswith("\n") else text
    lines = text.split("\n")
    if all(_own_line(line, names) for line in lines):
        return text
    return "\n".join(line if _own_line(line, names) else _CONTINUATION + line for line in lines)


def _own_line(line: str, names: frozenset[str]) -> bool:
    """True for a header, an indented or blank line, or a ``Type`` (``Type: ...``) line of names."""
    if _HEADER_LINE.fullmatch(line) or line in names or line.partition(": ")[0] in names:
        return True
    # A name that itself holds ": " (type("A: B", ...)) is rare: look for it only then.
    return any(line.startswith(name + ": ") for name in names if ": " in name)


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


def _type_name(error: traceback.TracebackException) -> str | None:
    """The exception's type as its ``Type: message`` line names it, made one line."""
    if hasattr(error, "exc_type_qualname"):  # Python 3.13+: the names are kept as text
        qualname, module = error.exc_type_qualname, getattr(error, "exc_type_module", None)
        if isinstance(qualname, str):
            error.exc_type_qualname = qualname = _one_line(qualname)
        if isinstance(module, str):
            setattr(error, "exc_type_module", _one_line(module))  # noqa: B010
            module = _one_line(module)
    else:
        kind = error.exc_type
        if kind is None:
            return None
        qualname, module = kind.__qualname__, kind.__module__
        if "\n" in qualname or (isinstance(module, str) and "\n" in module):
            # Python 3.11/3.12 read the names off the type: print a stand-in named safely.
            base = SyntaxError if issubclass(kind, SyntaxError) else Exception
            stand_in = type("stand_in", (base,), {})
            stand_in.__qualname__ = qualname = _one_line(qualname)
            stand_in.__module__ = module = _one_line(module) if isinstance(module, str) else module
            error.exc_type = stand_in
    if not isinstance(qualname, str):
        return None
    if module in ("__main__", "builtins"):
        return qualname
    return f"{module if isinstance(module, str) else '<unknown>'}.{qualname}"


def _defuse(top: traceback.TracebackException) -> frozenset[str]:
    """Rewrite every exception of ``top``'s chain and groups; the names of their types."""
    seen: set[int] = set()
    names: set[str] = set()
    todo: list[traceback.TracebackException | None] = [top]
    while todo:
        error = todo.pop()
        if error is None or id(error) in seen:
            continue
        seen.add(id(error))
        name = _type_name(error)
        if name is not None:
            names.add(name)
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
    return frozenset(names)
