"""How the config package names bad input in its errors: bounded, escaped, with a "did you mean".

A name or value from input may be 1 MB long, hold a newline or a terminal
escape, or stand for billions of values (YAML aliases): every message shows it
cut, escaped and bounded, and lists ten problems at most.
"""

from __future__ import annotations

import difflib
import reprlib
from collections.abc import Callable, Iterable
from typing import Any


def closest(name: str, known: Iterable[str]) -> str | None:
    """The known name ``name`` is most likely a typo of (difflib, ratio >= 0.6), or None.

    A name over 7/3 times as long as the longest known one cannot reach that ratio
    (at most 2*shorter/(sum of lengths)): it is not compared, where difflib would
    first index every character of it.
    """
    names = list(known)
    if not names or 3 * len(name) > 7 * max(len(n) for n in names):
        return None
    close = difflib.get_close_matches(name, names, n=1, cutoff=0.6)
    return close[0] if close else None


def did_you_mean(name: str, known: Iterable[str], shown: Callable[[str], str] = repr) -> str:
    """``"; did you mean 'alice'?"`` for the :func:`closest` known name, or ``""``; ``shown``
    writes the name (a caller may hide one that looks like a secret)."""
    close = closest(name, known)
    return f"; did you mean {shown(close)}?" if close else ""


ERRORS_SHOWN = 10  # a file of 300,000 bad items would otherwise make a 40 MB message
NAME_SHOWN = 80  # characters of an unknown name shown in an error (a key may be 1 MB)


def escaped(text: str) -> str:
    """``text`` with every character that is not printable (newline, ESC, bidi
    controls, lone surrogates) and the backslash written as its escape
    (``\\n``, ``\\x1b``, ``\\u202e``, ``\\\\``), as ``repr`` does, without quotes."""
    if text.isprintable() and "\\" not in text:
        return text
    return "".join(
        "\\\\" if char == "\\" else char if char.isprintable() else repr(char)[1:-1]
        for char in text
    )


def clipped(name: str) -> str:
    """``name`` for an error message: cut after :data:`NAME_SHOWN` characters, and
    escaped (:func:`escaped`): a name from input never splits a one-line message or
    sends terminal escape codes."""
    if len(name) <= NAME_SHOWN:
        return escaped(name)
    return f"{escaped(name[:NAME_SHOWN])}… ({len(name):,} characters)"


def quoted(name: str) -> str:
    """``repr(name)``, cut after :data:`NAME_SHOWN` characters."""
    if len(name) <= NAME_SHOWN:
        return repr(name)
    return f"{name[:NAME_SHOWN]!r}… ({len(name):,} characters)"


def first_few(described: list[str], total: int, what: str) -> str:
    """``described`` (the first :data:`ERRORS_SHOWN` of ``total`` problems) joined
    by ``; ``, then how many more ``what`` there are."""
    listed = described[:ERRORS_SHOWN]
    if total > len(listed):
        listed.append(f"and {total - len(listed):,} more {what}")
    return "; ".join(listed)


class _BoundedRepr(reprlib.Repr):
    """reprlib's bounds, and an int too long to print in full (Python refuses over
    4,300 digits) shown by its size."""

    def repr_int(self, x: int, level: int) -> str:
        bits = x.bit_length()
        return f"<int of {bits:,} bits>" if bits > 1_000 else super().repr_int(x, level)


# A bad value is shown bounded: YAML aliases can make a few hundred bytes stand for
# billions of nested values ("billion laughs"), which a plain repr() would walk.
_SHOWN_REPR = _BoundedRepr()
_SHOWN_REPR.maxlevel, _SHOWN_REPR.maxstring, _SHOWN_REPR.maxother = 2, 200, 200
_SHOWN_REPR.maxlist = _SHOWN_REPR.maxtuple = _SHOWN_REPR.maxdict = _SHOWN_REPR.maxset = 4


def shown(value: Any) -> str:
    """``value`` for an error message: bounded, and never an error itself (a repr
    that raises shows the type name)."""
    try:
        return _SHOWN_REPR.repr(value)
    except Exception:
        return f"<{type(value).__name__}>"
