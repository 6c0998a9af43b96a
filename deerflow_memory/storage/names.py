"""User ids and agent names: which are valid, and the folder name each one gets on disk.

:func:`validate_name` (defined in :mod:`deerflow_memory.models`, so the config
can use it too) is the one rule for every backend, identity resolution and
the config's per-tenant keys. A name is NFC-normalised first, so ``Zoë`` typed as one code point
(NFC) or as ``e`` + combining diaeresis (NFD) is the same user. Valid: 1–128
characters (after normalisation) of letters and digits of any script, their
combining marks, and ``_ - . @ +``; no leading dot, not ``.``/``..``.
Everything else (whitespace anywhere, including leading or trailing,
separators, control and format characters) raises one
:class:`~deerflow_memory.errors.InvalidNameError`.

:func:`storage_name` maps a valid name to a folder name every common
filesystem accepts: the name itself when it is at most
:data:`MAX_PLAIN_BYTES` UTF-8 bytes, not a Windows device name (``CON``,
``nul.txt``, ``COM1`` ...) and does not end with a dot; otherwise a readable
prefix, ``~`` and 16 hex digits of the name's SHA-256. ``~`` is never part
of a valid name, so a mapped folder name never equals a plain one; the file
backend records the real name next to a mapped folder so listing gives it back.
"""

from __future__ import annotations

import hashlib
import unicodedata

from deerflow_memory.models import MAX_NAME_LENGTH, validate_name

__all__ = [
    "MAPPED_MARK",
    "MAX_NAME_LENGTH",
    "MAX_PLAIN_BYTES",
    "is_mapped",
    "of_memory",
    "same_name",
    "storage_name",
    "validate_name",
]

# ext4/APFS/NTFS allow 255 bytes (or UTF-16 units) per component; stay well below.
MAX_PLAIN_BYTES = 200
_PREFIX_BYTES = 100
MAPPED_MARK = "~"
_WINDOWS_DEVICES = frozenset(
    {"con", "prn", "aux", "nul", "conin$", "conout$", "clock$"}
    | {f"{port}{n}" for port in ("com", "lpt") for n in [*"123456789", "¹", "²", "³"]}
)


def _is_plain(name: str) -> bool:
    if len(name.encode("utf-8")) > MAX_PLAIN_BYTES or name.endswith("."):
        return False
    return name.split(".", 1)[0].casefold() not in _WINDOWS_DEVICES


def storage_name(name: str) -> str:
    """The folder name of a valid (NFC) name: itself, or a readable prefix + ``~`` + hash.

    Example:
        >>> storage_name("alice")
        'alice'
        >>> storage_name("CON")
        'CON~8b8f6d5a3c0f4a05'  # doctest: +SKIP
    """
    if _is_plain(name):
        return name
    digest = hashlib.sha256(name.encode("utf-8")).hexdigest()[:16]
    prefix = name.encode("utf-8")[:_PREFIX_BYTES].decode("utf-8", "ignore").rstrip(".")
    return f"{prefix}{MAPPED_MARK}{digest}"


def is_mapped(folder_name: str) -> bool:
    """True for a folder name made by :func:`storage_name` for a non-plain name."""
    return MAPPED_MARK in folder_name


def same_name(name: str, other: str) -> bool:
    """Whether two ids are the same once NFC-normalised, as :func:`validate_name` makes
    them ("cafe\u0301" is "café"): an id kept as written (perhaps not NFC) against another."""
    return unicodedata.normalize("NFC", name) == unicodedata.normalize("NFC", other)


def of_memory(user_id: str, agent_name: str | None, of_user: str, of_agent: str | None) -> bool:
    """Whether a record kept for ``(user_id, agent_name)`` (an outbox record, a dead letter,
    a queued job: as written, perhaps not NFC) is of the memory ``(of_user, of_agent)``,
    ids compared by :func:`same_name`."""
    if agent_name is None or of_agent is None:
        same_agent = agent_name is None and of_agent is None
    else:
        same_agent = same_name(agent_name, of_agent)
    return same_agent and same_name(user_id, of_user)
