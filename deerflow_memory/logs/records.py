"""The package's loggers, each with a filter that makes outside text in its records inert.

A filter on a logger sees only the records logged on that logger, not those
that propagate to it from child loggers, so a filter on ``deerflow_memory``
alone would miss ``deerflow_memory.update.updater``. Each module therefore gets
its logger from :func:`package_logger` (``tests/test_log_safety.py`` checks that
none calls ``logging.getLogger`` itself). The filter runs only for records that
are actually emitted (after the level check), so paths that do not log pay nothing.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping

from deerflow_memory.logs.controls import log_safe, stack_safe, traceback_safe
from deerflow_memory.logs.tracebacks import ExcInfo, format_exception_safely

__all__ = ["SafeRecords", "package_logger"]


class SafeRecords(logging.Filter):
    """Rewrites a record whose text holds control characters; passes every record on.

    Every text of a record that a formatter prints is made safe:

    - Message: when the formatted message (``msg % args``) holds a control
      character, ESC or line break, ``msg`` becomes the :func:`log_safe` text and
      ``args`` becomes empty; so it does when ``msg`` is not a ``str`` or an
      argument is not a plain ``str``, ``int``, ``float``, ``bool`` or None (an
      exception, any object: its ``__str__`` could answer otherwise when the
      handler formats the record again). Other records are left exactly as they
      were (their ``msg`` and ``args`` stay apart for handlers that group by format). A
      message that cannot be formatted (wrong arguments, an argument whose
      ``__str__`` raises) becomes one inert line saying so: left to the handler,
      its error report would print the raised exception's message raw.
    - Exception: it is formatted here, once, with its outside text defused
      (:func:`~deerflow_memory.logs.tracebacks.format_exception_safely`, then
      :func:`traceback_safe`), and stored as ``exc_text``, which
      ``logging.Formatter`` prints instead of formatting ``exc_info`` again.
      Always, not only when the text needed a change: formatted again by the
      handler, an exception whose ``__str__`` answers differently the second
      time would print raw. For an exception without outside line breaks or
      notes the text is the one ``logging`` prints (a formatter that overrides
      ``formatException`` and ignores ``exc_text`` is not protected). An
      ``exc_text`` the record already carries (formatted elsewhere, e.g. relayed
      from another process) is text alone: :func:`traceback_safe` indents every
      line of it at column 0 but the headers, ``Type: message`` lines included.
    - Stack: ``stack_info`` is made safe by :func:`stack_safe`.

    The filter never fails a log call: each of the three parts is made safe on
    its own, and a part that cannot be (arguments whose ``values()`` or
    ``__iter__`` raises, an ``exc_text`` or ``stack_info`` that is not text, a
    malformed ``exc_info``) becomes one inert line saying so, the other parts
    kept. An ``exc_text`` or ``stack_info`` of ``bytes`` is decoded (UTF-8,
    bad bytes replaced) and made safe like text.
    """

    def filter(self, record: logging.LogRecord) -> bool:
        for part in (_safe_message, _safe_exception, _safe_stack):
            try:
                part(record)
            except Exception as error:  # never fail the caller's log call
                _replace_part(record, part, error)
        return True


def _safe_message(record: logging.LogRecord) -> None:
    try:
        message = record.getMessage()
    except Exception as error:
        record.msg, record.args = _unformattable(record.msg, error), ()
        return
    safe = log_safe(message)
    if safe is not message or not _plain(record):
        record.msg, record.args = safe, ()


def _safe_exception(record: logging.LogRecord) -> None:
    if record.exc_text:
        text = _as_text(record.exc_text)
        record.exc_text = traceback_safe(text, exception_lines=False)
    elif record.exc_info and record.exc_info[1] is not None:
        record.exc_text = _safe_exception_text(record.exc_info)


def _safe_stack(record: logging.LogRecord) -> None:
    if record.stack_info:
        record.stack_info = stack_safe(_as_text(record.stack_info))


def _replace_part(record: logging.LogRecord, part: object, error: Exception) -> None:
    """The part of ``record`` that ``part`` could not make safe, as one inert line."""
    what = f"could not be made safe ({type(error).__name__})"
    if part is _safe_message:
        record.msg, record.args = log_safe(f"log message {what}"), ()
    elif part is _safe_exception:
        # exc_text set: the formatter prints it instead of formatting exc_info raw.
        record.exc_text = log_safe(f"<traceback {what}>")
    else:
        record.stack_info = log_safe(f"<stack {what}>")


def _as_text(value: object) -> str:
    """``value`` (a record's ``exc_text`` or ``stack_info``) as text; bytes are decoded."""
    if isinstance(value, str):
        return value
    if isinstance(value, bytes | bytearray):
        return bytes(value).decode("utf-8", "replace")
    return f"<{type(value).__name__}, not text>"


_PLAIN = frozenset({str, int, float, bool, type(None)})


def _plain(record: logging.LogRecord) -> bool:
    """True when formatting ``record`` again gives the same text (no object's ``__str__`` runs)."""
    if type(record.msg) is not str:
        return False
    args = record.args
    try:
        values = args.values() if isinstance(args, Mapping) else (args or ())
        return all(type(value) in _PLAIN for value in values)
    except Exception:  # arguments that cannot be walked are not plain
        return False


def _safe_exception_text(exc_info: ExcInfo) -> str:
    try:
        return traceback_safe(format_exception_safely(exc_info))
    except Exception as error:  # logging's own formatting would fail the same way
        return log_safe(f"<traceback could not be formatted: {type(error).__name__}>")


def _unformattable(msg: object, error: Exception) -> str:
    form = repr(msg) if isinstance(msg, str) else f"<{type(msg).__name__}>"
    try:
        reason = f"{type(error).__name__}: {error}"
    except Exception:
        reason = type(error).__name__
    return log_safe(f"log message {form} could not be formatted ({reason})")


_FILTER = SafeRecords()


def package_logger(name: str) -> logging.Logger:
    """``logging.getLogger(name)`` with :class:`SafeRecords` added (once); use ``__name__``."""
    logger = logging.getLogger(name)
    logger.addFilter(_FILTER)
    return logger
