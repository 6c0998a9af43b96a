"""User ids and agent names: which are valid, and the folder name each one gets on disk.

:func:`validate_name` is the one rule for every backend and for identity
resolution. A name is NFC-normalised first, so ``Zoë`` typed as one code point
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

from deerflow_memory.errors import InvalidNameError

__all__ = [
    "MAPPED_MARK",
    "MAX_NAME_LENGTH",
    "MAX_PLAIN_BYTES",
    "is_mapped",
    "storage_name",
    "validate_name",
]

MAX_NAME_LENGTH = 128
# ext4/APFS/NTFS allow 255 bytes (or UTF-16 units) per component; stay well below.
MAX_PLAIN_BYTES = 200
_PREFIX_BYTES = 100
MAPPED_MARK = "~"
_PUNCTUATION = frozenset("_.@+-")
_WINDOWS_DEVICES = frozenset(
    {"con", "prn", "aux", "nul", "conin$", "conout$", "clock$"}
    | {f"{port}{n}" for port in ("com", "lpt") for n in [*"123456789", "¹", "²", "³"]}
)
# Names that passed validation, raw -> normalised; the rules are pure.
_VALID: dict[str, str] = {}
_VALID_MAX = 100_000


def _problem(name: str) -> str | None:
    if not name:
        return "must not be empty"
    if name != name.strip():
        return "must not start or end with whitespace"
    if len(name) > MAX_NAME_LENGTH:
        return f"is {len(name)} characters long; at most {MAX_NAME_LENGTH}"
    if name in {".", ".."} or name.startswith("."):
        return "must not start with a dot"
    for position, char in enumerate(name):
        if char.isalnum() or char in _PUNCTUATION:
            continue
        if position and unicodedata.category(char).startswith("M"):
            continue  # a combining mark after a letter (Devanagari vowel signs, ...)
        return (
            f"contains {unicodedata.name(char, f'U+{ord(char):04X}')!r} at position "
            f"{position}: use letters and digits of any script and _ - . @ +"
        )
    return None


def validate_name(name: object, kind: str = "user_id") -> str:
    """The NFC form of ``name`` if it is a valid user id or agent name.

    Args:
        name: the id as given (any Unicode normalisation form).
        kind: what it is, for the error message (``user_id``, ``agent_name``).

    Returns:
        The NFC-normalised name; use it, not the input, as the key.

    Raises:
        InvalidNameError: not a string, empty, longer than 128 characters,
            leading/trailing whitespace, a leading dot, or a character other
            than letters, digits, combining marks and ``_ - . @ +``.
    """
    if not isinstance(name, str):
        raise InvalidNameError(f"{kind} must be a string, got {type(name).__name__}")
    known = _VALID.get(name)
    if known is not None:
        return known  # already checked: this runs for every node call
    normalised = unicodedata.normalize("NFC", name)
    problem = _problem(normalised)
    if problem:
        shown = normalised if len(normalised) <= 40 else normalised[:40] + "…"
        raise InvalidNameError(f"{kind} {shown!r} is not allowed: it {problem}")
    if len(_VALID) < _VALID_MAX:
        _VALID[name] = normalised
    return normalised


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
