"""A package logger writing through a real handler into a string, for the log-safety tests."""

from __future__ import annotations

import io
import logging
from collections.abc import Iterator
from contextlib import contextmanager

from deerflow_memory.logs import package_logger


@contextmanager
def logged_through(name: str, fmt: str) -> Iterator[tuple[logging.Logger, io.StringIO]]:
    """``package_logger(name)`` at INFO, writing ``fmt`` lines to the yielded buffer only.

    Args:
        name: the logger's name (under ``deerflow_memory``).
        fmt: a ``logging.Formatter`` format string.
    """
    logger = package_logger(name)
    out = io.StringIO()
    handler = logging.StreamHandler(out)
    handler.setFormatter(logging.Formatter(fmt))
    logger.addHandler(handler)
    logger.setLevel(logging.INFO)
    logger.propagate = False
    try:
        yield logger, out
    finally:
        logger.removeHandler(handler)
