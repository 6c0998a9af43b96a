"""Regular expressions guarded by the plain strings they require: the signals' fast path.

Python's regex engine needs microseconds per pattern even on text that cannot
match, and signals run on every turn. :class:`PatternSet` searches a pattern
only when the lowercased text contains one of the strings every match of it
must contain (read from the parsed pattern). An invalid pattern raises
:class:`~deerflow_memory.errors.ConfigError` naming it, when the set is built.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

import ahocorasick

from deerflow_memory.errors import ConfigError

__all__ = ["ASCII_CASE_TWINS", "FLAGS", "GateScan", "PatternSet"]

FLAGS = re.IGNORECASE | re.MULTILINE
"""Flags of every signal pattern: case-insensitive, ``^``/``$`` anchor lines."""
_FLAGS = FLAGS


ASCII_CASE_TWINS = {0x131: "i", 0x17F: "s", 0x307: None}
"""What ``str.lower`` leaves apart that ``re.IGNORECASE`` reads as an ASCII letter.

Unicode ``re`` matches "i" to "İ" (U+0130) and "ı" (U+0131), "s" to "ſ"
(U+017F) and "k" to "K" (U+212A, lowered to "k"); "İ" lowers to "i" and a
combining dot (U+0307). The gate strings are looked for in the lowered text with
these read as their ASCII letters (the dot dropped), so "You mısunderstood" still
opens the pattern that matches it. A gate opened where its pattern then finds
nothing costs only that search.
"""


_CASE_TWIN = re.compile("[" + "".join(map(chr, ASCII_CASE_TWINS)) + "]")


def _caseless(code: int) -> bool:
    """True when lowercasing both sides is a sound stand-in for IGNORECASE on this character."""
    char = chr(code)
    return char.isascii() or char.lower() == char.upper()


def _required_literals(pattern: str) -> frozenset[str] | None:
    """Lowercase strings one of which occurs in every match of ``pattern``; ``None`` if unknown.

    Read from the parsed pattern: a run of plain characters, a required group,
    or an alternation whose every branch has such a run. The rarest choice
    wins (by :func:`_rarity` of its commonest string). Any surprise (a private
    parser that changed shape) gives ``None``, which only disables the fast path.
    """
    try:
        from re import _constants as sre_constants  # type: ignore[attr-defined]
        from re import _parser as sre_parser  # type: ignore[attr-defined]

        tree = sre_parser.parse(pattern, _FLAGS)
        return _literals_of(tree, sre_constants)
    except Exception:  # the fast path is optional; never fail on it
        return None


# English letters from the most to the least frequent in running text.
_LETTERS_BY_FREQUENCY = "etaoinshrdlcumwfgypbvkjxqz"


def _rarity(char: str) -> int:
    """How rarely ``char`` occurs in a message, higher is rarer (a rough order, for gating only).

    A space is the commonest; then letters by their frequency in English; then
    digits and other ASCII; any other character (Chinese, curly quotes) is rarest.
    """
    if char == " ":
        return 0
    letter = _LETTERS_BY_FREQUENCY.find(char)
    if letter >= 0:
        return 1 + letter
    return 27 if char.isascii() else 28


def _leading_run(items: Any, k: Any) -> str:
    """The plain characters a (sub)pattern starts with, lowercased."""
    run = []
    for op, av in items:
        if op is not k.LITERAL or not _caseless(av):
            break
        run.append(chr(av).lower())
    return "".join(run)


def _score(candidates: frozenset[str]) -> int:
    # The commonest string decides how often the pattern is searched: a string's
    # rarity is its characters' (" the" is met in most messages, "math" seldom).
    # Fewer strings are cheaper to test on every message.
    return min(sum(map(_rarity, literal)) for literal in candidates) * 4 - len(candidates)


def _literals_of(items: Any, k: Any) -> frozenset[str] | None:
    """The best set of strings one of which every match of ``items`` contains."""
    best: frozenset[str] | None = None
    run: list[str] = []

    def consider(candidates: frozenset[str] | None) -> None:
        nonlocal best
        if candidates and (best is None or _score(candidates) > _score(best)):
            best = candidates

    for op, av in items:
        if op is k.LITERAL and _caseless(av):
            run.append(chr(av).lower())
            continue
        if op is k.BRANCH and run:
            # The parser factors "not right|not true" into "not " + (right|true):
            # glue the prefix back onto each branch's own leading characters.
            leads = [_leading_run(branch, k) for branch in av[1]]
            if all(leads):
                consider(frozenset("".join(run) + lead for lead in leads))
        if run:
            consider(frozenset({"".join(run)}))
            run = []
        if op is k.SUBPATTERN:
            consider(_literals_of(av[-1], k))
        elif op is k.ATOMIC_GROUP:
            consider(_literals_of(av, k))
        elif op in (k.MAX_REPEAT, k.MIN_REPEAT, k.POSSESSIVE_REPEAT) and av[0] >= 1:
            consider(_literals_of(av[2], k))
        elif op is k.BRANCH:
            branches = [_literals_of(branch, k) for branch in av[1]]
            if all(branches):
                consider(frozenset().union(*(b for b in branches if b)))
    if run:
        consider(frozenset({"".join(run)}))
    return best


class PatternSet:
    """Patterns compiled once, each guarded by the plain strings it requires.

    Python's regex engine needs microseconds per pattern even on text that
    cannot match, and this runs on every turn. So a pattern is only searched
    when the lowercased message contains one of the strings every match of it
    must contain. All those strings are found in one pass over the message by
    an Aho-Corasick automaton (``pyahocorasick``): about a microsecond for a
    short message, where testing hundreds of strings one by one took several.
    Patterns without such strings are always searched.
    """

    __slots__ = ("_by_gate", "_gates", "_order", "_patterns", "_ungated")

    def __init__(self, kind: str, patterns: Iterable[str]) -> None:
        """Compile ``patterns``.

        Raises:
            ConfigError: a pattern is not a valid regular expression (``kind`` names the set).
        """
        compiled: list[re.Pattern[str]] = []
        required: list[frozenset[str]] = []
        ungated: list[re.Pattern[str]] = []
        for pattern in patterns:
            try:
                regex = re.compile(pattern, _FLAGS)
            except re.error as e:
                raise ConfigError(f"invalid {kind} pattern {pattern!r}: {e}") from e
            literals = _required_literals(pattern)
            if literals is not None:
                # Looked for in text read with the case twins as ASCII (_read_twins):
                # the strings are read so too ("bi\u0307l" is looked for as "bil").
                literals = frozenset(text.translate(ASCII_CASE_TWINS) for text in literals)
            if literals is None or "" in literals:
                ungated.append(regex)
            else:
                compiled.append(regex)
                required.append(literals)
        self._patterns = tuple(compiled)
        self._ungated = tuple(ungated)
        # Each pattern's place in the order candidates are given (gated, then ungated).
        self._order = {regex: n for n, regex in enumerate((*self._patterns, *self._ungated))}
        # Each string opens the patterns that require it.
        by_gate: dict[str, set[int]] = {}
        for index, literals in enumerate(required):
            for literal in literals:
                by_gate.setdefault(literal, set()).add(index)
        self._by_gate = {gate: tuple(sorted(indices)) for gate, indices in by_gate.items()}
        self._gates = _automaton(self._by_gate)

    def _candidates(self, lowered: str) -> Sequence[re.Pattern[str]]:
        gates = self._gates
        if gates is None:
            return self._ungated
        hits: set[int] = set()
        for _, indices in gates.iter(_read_twins(lowered)):
            hits.update(indices)
        return self._opened(hits)

    def _opened(self, hits: Iterable[int]) -> Sequence[re.Pattern[str]]:
        """The patterns to search when the gates of the patterns at ``hits`` occur."""
        if not hits:
            return self._ungated
        patterns = self._patterns
        return [*(patterns[i] for i in sorted(hits)), *self._ungated]

    def search(
        self, text: str, lowered: str, opened: Sequence[re.Pattern[str]] | None = None
    ) -> bool:
        """True when a pattern matches ``text``; ``lowered`` is ``text.lower()``.

        ``opened``: this set's patterns that :meth:`GateScan.open` opened for
        ``lowered`` (found here when not given).
        """
        if opened is None:
            opened = self._candidates(lowered)
        return any(pattern.search(text) for pattern in opened)

    def blank(
        self, text: str, lowered: str, opened: Sequence[re.Pattern[str]] | None = None
    ) -> str:
        """``text`` with every match of every pattern, in order, replaced by one space.

        Used for guards: the spans they match ("我作业做错了", "perfect weather")
        are no signal, whatever the signal patterns would read in them. A span
        blanked may join words into another pattern's string ("Not我做错了yet"
        becomes "Not yet"): the patterns after it are gated again on the new
        text. The same object is returned when nothing matched. ``opened`` as
        in :meth:`search`.
        """
        if opened is None:
            opened = self._candidates(lowered)
        order = self._order
        index = 0
        while index < len(opened):
            pattern = opened[index]
            blanked = pattern.sub(" ", text)
            index += 1
            if blanked is not text:
                text = blanked
                after = order[pattern]
                opened = [p for p in self._candidates(text.lower()) if order[p] > after]
                index = 0
        return text

    def search_all(self, text: str) -> bool:
        """Reference search without the fast path (every pattern tried; for tests)."""
        return any(pattern.search(text) for pattern in (*self._patterns, *self._ungated))


class GateScan:
    """The gates of several :class:`PatternSet` found in one pass over a text.

    A user's turn is read by several sets (the correction and reinforcement
    patterns, their guards, the agreements): one Aho-Corasick pass finds all
    their gate strings, where a pass per set cost about a microsecond and a
    half each on the capture node's path.
    """

    __slots__ = ("_gates", "_idle", "_sets")

    def __init__(self, *sets: PatternSet) -> None:
        self._sets = sets
        # What no gate opens: each set's ungated patterns.
        self._idle: list[Sequence[re.Pattern[str]]] = [patterns._ungated for patterns in sets]
        by_gate: dict[str, list[tuple[int, int]]] = {}
        for number, patterns in enumerate(sets):
            for gate, indices in patterns._by_gate.items():
                by_gate.setdefault(gate, []).extend((number, index) for index in indices)
        self._gates = _automaton({gate: tuple(pairs) for gate, pairs in by_gate.items()})

    def open(self, lowered: str) -> list[Sequence[re.Pattern[str]]]:
        """Per set, in the order given, the patterns worth searching in a text.

        Each is what the set's own gates would open (its ungated patterns
        included).

        Args:
            lowered: the text lowercased (``str.lower``).
        """
        opened: list[Sequence[re.Pattern[str]]] = self._idle.copy()
        if self._gates is None:
            return opened
        hits: dict[int, set[int]] = {}
        for _, pairs in self._gates.iter(_read_twins(lowered)):
            for number, index in pairs:
                found = hits.get(number)
                if found is None:
                    hits[number] = {index}
                else:
                    found.add(index)
        sets = self._sets
        for number, found in hits.items():
            opened[number] = sets[number]._opened(found)
        return opened


def _read_twins(lowered: str) -> str:
    """``lowered`` with :data:`ASCII_CASE_TWINS` read as their ASCII letters."""
    if not lowered.isascii() and _CASE_TWIN.search(lowered) is not None:
        return lowered.translate(ASCII_CASE_TWINS)  # a Python call per character
    return lowered


def _automaton(by_gate: Mapping[str, object]) -> ahocorasick.Automaton | None:
    """An automaton finding the strings of ``by_gate``, each giving its value; None without any."""
    if not by_gate:
        return None
    gates = ahocorasick.Automaton()
    for gate, value in by_gate.items():
        gates.add_word(gate, value)
    gates.make_automaton()
    return gates
