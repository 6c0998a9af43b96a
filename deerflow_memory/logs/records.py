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

from deerflow_memory.logs.controls import log_safe, traceback_safe

__all__ = ["SafeRecords", "package_logger"]

_TRACEBACKS = logging.Formatter()


class SafeRecords(logging.Filter):
    """Rewrites a record whose text holds control characters; passes every record on.

    - Message: when the formatted message (``msg % args``) holds a control
      character, ESC or line break, ``msg`` becomes the :func:`log_safe` text and
      ``args`` becomes empty. Clean records are left exactly as they were (their
      ``msg`` and ``args`` stay apart for handlers that group by format).
    - Exception and stack: a traceback that :func:`traceback_safe` changes
      (control characters, or an exception message or note whose line breaks
      would start lines of their own: those are indented) is stored as
      ``exc_text`` (which ``logging.Formatter`` prints instead of formatting
      ``exc_info`` again); ``stack_info`` is made safe the same way.

    A record whose message cannot be formatted is passed on untouched: the
    handler reports that as it always does.
    """

    def filter(self, record: logging.LogRecord) -> bool:
        try:
            message = record.getMessage()
        except Exception:
            return True
        safe = log_safe(message)
        if safe is not message:
            record.msg, record.args = safe, ()
        if record.exc_info and record.exc_info[0] is not None and not record.exc_text:
            text = _TRACEBACKS.formatException(record.exc_info)
            safe = traceback_safe(text, _outside_texts(record.exc_info[1]))
            if safe is not text:
                record.exc_text = safe
        if record.stack_info:
            record.stack_info = traceback_safe(record.stack_info)
        return True


# Chains and groups deeper or wider than this are not looked into (the column-0 rule still holds).
_MAX_EXCEPTIONS = 64


def _outside_texts(error: BaseException | None) -> list[str]:
    """The messages and notes of ``error`` and of its causes, contexts and group members."""
    texts: list[str] = []
    seen: set[int] = set()
    todo = [error]
    while todo and len(seen) < _MAX_EXCEPTIONS:
        exc = todo.pop()
        if exc is None or id(exc) in seen:
            continue
        seen.add(id(exc))
        try:
            texts.append(str(exc))
            notes = getattr(exc, "__notes__", None)
            if isinstance(notes, list | tuple):
                texts += [note for note in notes if isinstance(note, str)]
        except Exception:  # a hostile str(): the traceback says it failed, nothing to indent
            pass
        todo += [exc.__cause__, exc.__context__]
        if isinstance(exc, BaseExceptionGroup):
            todo += list(exc.exceptions)
    # Longest first: a message that holds another is indented whole, before its part.
    return sorted(texts, key=len, reverse=True)


_FILTER = SafeRecords()


def package_logger(name: str) -> logging.Logger:
    """``logging.getLogger(name)`` with :class:`SafeRecords` added (once); use ``__name__``."""
    logger = logging.getLogger(name)
    logger.addFilter(_FILTER)
    return logger
