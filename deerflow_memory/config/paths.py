"""Paths named by users (``--root``, ``storage_path``, a config file), checked before use."""

from __future__ import annotations

import os
import re
import unicodedata
from pathlib import Path

from deerflow_memory.arguments import wrong_type
from deerflow_memory.config.secrets import redact_path
from deerflow_memory.errors import ConfigError


def control_character(text: str | bytes) -> str | None:
    """Why ``text`` cannot name a path (its first control character), or None."""
    if isinstance(text, bytes):
        text = text.decode("utf-8", "surrogateescape")
    for position, char in enumerate(text):
        if unicodedata.category(char) == "Cc":  # NUL, \x01-\x1f, DEL, C1 controls
            return (
                f"contains a control character (U+{ord(char):04X}) at position {position}; "
                "name a path without control characters"
            )
    return None


def spelled_as_folder(path: str) -> bool:
    """``path`` ends in a separator, ``.`` or ``..``: it can only name a folder."""
    return os.path.basename(path) in ("", ".", "..")


# A URL or DSN ("postgresql://…", which a path makes "postgresql:/…"): a scheme of two
# letters or more, so a Windows drive ("C:/…") is none.
_A_URL = re.compile(r"^[A-Za-z][A-Za-z0-9+.-]+:/")


def looks_like_url(path: str) -> bool:
    """Whether a path given by a user is a URL or DSN (``postgresql://bob:…@db/mem``)."""
    return _A_URL.match(path) is not None


def check_path(path: str | os.PathLike[str], what: str, *, file: bool = False) -> Path:
    """``path`` as a :class:`~pathlib.Path` if it holds no control character (NUL, ``\\x01``...),
    with a leading ``~`` or ``~user`` made the home folder, as a shell would (``--root=~/mem``
    and a quoted ``'~/mem'`` reach us unexpanded; a folder named ``~`` is never meant).

    Args:
        path: a file or folder name given by a user (``--root``, a config file...).
        what: how to call it in the error message (``--root``, ``storage_path``).
        file: ``path`` must name a file: one spelled as a folder (ending in
            ``/``, ``/.`` or ``/..``, or ``.`` itself) is refused, where
            :class:`~pathlib.Path` would drop the ``/`` and name a file
            ``newdir`` for ``newdir/`` (``cp x newdir/`` fails the same way).

    Raises:
        ConfigError: the path is not a ``str`` or ``os.PathLike`` of text, is
            empty or holds a control character (never a folder name), or, with
            ``file``, is spelled as a folder.
    """
    text = os.fspath(path) if isinstance(path, str | os.PathLike) else None
    if not isinstance(text, str):
        wrong_type(what, "a path (a str or os.PathLike)", path, ConfigError)
    problem = "must not be empty" if not text.strip() else control_character(text)
    if not problem and file and spelled_as_folder(text):
        problem = "names a folder, not a file (give a file name)"
    if problem:
        raise ConfigError(f"{what} {redact_path(repr(text))} {problem}")  # (a DSN given as one)
    return Path(os.path.expanduser(text))
