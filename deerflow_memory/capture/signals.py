"""Correction and reinforcement signals in the user's latest messages.

A *correction* ("不对", "you misunderstood", "try again") tells the updater
to revise or remove what the user contradicted; a *reinforcement* ("完全正确",
"yes, exactly", "keep doing that") tells it to keep what was confirmed. Only
human messages among the last six messages are read, and reinforcement is
looked for only when there is no correction.

The patterns are data: ``deerflow_memory/capture/data/correction_patterns.txt`` and
``reinforcement_patterns.txt`` (one regular expression per line, ``#``
comments), extended by ``MemoryConfig.correction_patterns`` /
``reinforcement_patterns``. They are matched case-insensitively and per line
(``^``/``$`` anchor lines). An invalid extra pattern raises
:class:`~deerflow_memory.errors.ConfigError` naming it, when the detector is
built — never later, on a user's turn.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from importlib import resources
from typing import TYPE_CHECKING, Any

from langchain_core.messages import AIMessage, BaseMessage, HumanMessage

from deerflow_memory.capture.messages import message_text
from deerflow_memory.errors import ConfigError

if TYPE_CHECKING:
    from deerflow_memory.config import MemoryConfig

__all__ = [
    "SIGNAL_WINDOW",
    "SignalDetector",
    "Signals",
    "detect_correction",
    "detect_reinforcement",
    "load_pattern_file",
]

SIGNAL_WINDOW = 6
"""How many of the most recent messages are searched for signals."""

_FLAGS = re.IGNORECASE | re.MULTILINE
_VERDICT_CACHE_SIZE = 4096


@dataclass(frozen=True, slots=True)
class Signals:
    """What the user's latest messages signal."""

    correction: bool = False
    reinforcement: bool = False


@functools.cache
def load_pattern_file(name: str) -> tuple[str, ...]:
    """The patterns of a packaged data file: non-empty lines that are not ``#`` comments.

    Args:
        name: file name inside ``deerflow_memory/capture/data``, e.g. ``"correction_patterns.txt"``.

    Raises:
        FileNotFoundError: no such packaged file.
    """
    text = (
        resources.files("deerflow_memory.capture")
        .joinpath("data", name)
        .read_text(encoding="utf-8")
    )
    return tuple(
        stripped
        for line in text.splitlines()
        if (stripped := line.strip()) and not stripped.startswith("#")
    )


def _caseless(code: int) -> bool:
    """True when lowercasing both sides is a sound stand-in for IGNORECASE on this character."""
    char = chr(code)
    return char.isascii() or char.lower() == char.upper()


def _required_literals(pattern: str) -> frozenset[str] | None:
    """Lowercase strings one of which occurs in every match of ``pattern``; ``None`` if unknown.

    Read from the parsed pattern: a run of plain characters, a required group,
    or an alternation whose every branch has such a run. The longest choice
    wins. Any surprise (a private parser that changed shape) gives ``None``,
    which only disables the fast path.
    """
    try:
        from re import _constants as sre_constants  # type: ignore[attr-defined]
        from re import _parser as sre_parser  # type: ignore[attr-defined]

        tree = sre_parser.parse(pattern, _FLAGS)
        return _literals_of(tree, sre_constants)
    except Exception:  # the fast path is optional; never fail on it
        return None


def _leading_run(items: Any, k: Any) -> str:
    """The plain characters a (sub)pattern starts with, lowercased."""
    run = []
    for op, av in items:
        if op is not k.LITERAL or not _caseless(av):
            break
        run.append(chr(av).lower())
    return "".join(run)


def _score(candidates: frozenset[str]) -> int:
    # Longer strings are rarer in ordinary text, up to a point; fewer strings are
    # cheaper to test on every message.
    return min(min(map(len, candidates)), 6) * 10 - len(candidates)


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


class _PatternSet:
    """Patterns compiled once, each guarded by the plain strings it requires.

    Python's regex engine needs microseconds per pattern even on text that
    cannot match, and this runs on every turn. So a pattern is only searched
    when the lowercased message contains one of the strings every match of it
    must contain (plain ``in`` tests, a few dozen nanoseconds each; messages
    that are pure ASCII skip the CJK strings). Patterns without such strings
    are always searched.
    """

    __slots__ = ("_all", "_ascii", "_patterns", "_ungated")

    def __init__(self, kind: str, patterns: Iterable[str]) -> None:
        compiled: list[re.Pattern[str]] = []
        required: list[frozenset[str]] = []
        ungated: list[re.Pattern[str]] = []
        for pattern in patterns:
            try:
                regex = re.compile(pattern, _FLAGS)
            except re.error as e:
                raise ConfigError(f"invalid {kind} pattern {pattern!r}: {e}") from e
            literals = _required_literals(pattern)
            if literals is None:
                ungated.append(regex)
            else:
                compiled.append(regex)
                required.append(literals)
        self._patterns = tuple(compiled)
        self._ungated = tuple(ungated)
        # Gate on the shortest strings: "wrong" also stands for "is wrong".
        everything = set().union(*required)
        gates = sorted(g for g in everything if not any(o != g and o in g for o in everything))
        by_gate: dict[str, set[int]] = {g: set() for g in gates}
        for index, literals in enumerate(required):
            for literal in literals:
                by_gate[next(g for g in gates if g in literal)].add(index)
        self._all = tuple((g, tuple(sorted(i))) for g, i in by_gate.items())
        self._ascii = tuple(item for item in self._all if item[0].isascii())

    def search(self, text: str, lowered: str) -> bool:
        """True when a pattern matches ``text``; ``lowered`` is ``text.lower()``."""
        hits: set[int] | None = None
        for gate, indices in self._ascii if lowered.isascii() else self._all:
            if gate in lowered:
                if hits is None:
                    hits = set(indices)
                else:
                    hits.update(indices)
        if hits is not None:
            for index in sorted(hits):
                if self._patterns[index].search(text):
                    return True
        return any(pattern.search(text) for pattern in self._ungated)


# The assistant read details back and asked to confirm them; "yes, that's right" then
# confirms the booking, not the assistant's behaviour. Only the reply's last 160
# characters are searched: the question ends it.
_READBACK = re.compile(
    r"(?:\b(?:is (?:that|this|everything) (?:correct|right|ok|okay)|(?:correct|right)(?=\s*\?)|"
    r"(?:shall|should|can) I (?:go ahead|book|confirm|proceed|place|submit)|do you confirm|"
    r"please confirm|to confirm|does (?:that|this) (?:look|sound) (?:right|correct|good)|"
    r"did I get (?:that|this|everything) right)\b)"
    r"|(?:对吗|是吗|对不对|没错吧|确认一下|请确认|可以吗|是否正确|没问题吧|帮您预订|为您预订|给您订)",
    re.IGNORECASE,
)


def _is_readback(message: BaseMessage | None) -> bool:
    """True when ``message`` is the assistant reading details back for confirmation."""
    if not isinstance(message, AIMessage):
        return False
    return _READBACK.search(message_text(message)[-160:]) is not None


class SignalDetector:
    """Detects correction and reinforcement signals; patterns compiled once, safe to share.

    Args:
        extra_correction: regular expressions added to the packaged correction patterns.
        extra_reinforcement: regular expressions added to the packaged reinforcement patterns.

    Raises:
        ConfigError: an extra pattern is not a valid regular expression.

    Example:
        >>> from langchain_core.messages import AIMessage, HumanMessage
        >>> SignalDetector().detect([HumanMessage("hi"), AIMessage("hello"), HumanMessage("不对")])
        Signals(correction=True, reinforcement=False)
    """

    def __init__(
        self, extra_correction: Iterable[str] = (), extra_reinforcement: Iterable[str] = ()
    ) -> None:
        self._correction = _PatternSet(
            "correction", (*load_pattern_file("correction_patterns.txt"), *extra_correction)
        )
        self._reinforcement = _PatternSet(
            "reinforcement",
            (*load_pattern_file("reinforcement_patterns.txt"), *extra_reinforcement),
        )
        self._verdicts: dict[str, tuple[bool, bool]] = {}

    @classmethod
    def from_config(cls, config: MemoryConfig) -> SignalDetector:
        """A detector with ``config.correction_patterns`` / ``config.reinforcement_patterns`` added.

        Raises:
            ConfigError: a configured pattern is not a valid regular expression.
        """
        return cls(config.correction_patterns, config.reinforcement_patterns)

    def detect_correction(self, messages: Sequence[BaseMessage]) -> bool:
        """True when a recent human message corrects the assistant."""
        return any(self._classify(m)[0] for m, _ in self._recent_user_messages(messages))

    def detect_reinforcement(self, messages: Sequence[BaseMessage]) -> bool:
        """True when a recent human message confirms the assistant (corrections not considered).

        A "yes, that's right" answering the assistant's read-back ("a table for
        two at 7, is that correct?") confirms details, not the assistant's way of
        working, and does not count.
        """
        return any(
            self._classify(message)[1] and not _is_readback(previous)
            for message, previous in self._recent_user_messages(messages)
        )

    def detect(self, messages: Sequence[BaseMessage]) -> Signals:
        """Both signals; reinforcement is only looked for when there is no correction.

        Args:
            messages: the (filtered) conversation, oldest first; only human
                messages among the last six are read.
        """
        # Each turn re-reads the same recent messages; classify each text once.
        recent = self._recent_user_messages(messages)
        verdicts = [self._classify(message) for message, _ in recent]
        if any(correction for correction, _ in verdicts):
            return Signals(correction=True, reinforcement=False)
        # The read-back check runs only for an approval, which is rare: the hot path skips it.
        reinforcement = any(
            approval and not _is_readback(previous)
            for (_, approval), (_, previous) in zip(verdicts, recent, strict=True)
        )
        return Signals(correction=False, reinforcement=reinforcement)

    @staticmethod
    def _recent_user_messages(
        messages: Sequence[BaseMessage],
    ) -> list[tuple[BaseMessage, BaseMessage | None]]:
        """Human messages among the last six, each with the message before it."""
        recent = messages[-SIGNAL_WINDOW:]
        return [
            (message, recent[i - 1] if i > 0 else None)
            for i, message in enumerate(recent)
            if isinstance(message, HumanMessage)
        ]

    def _classify(self, message: BaseMessage) -> tuple[bool, bool]:
        """``(correction, reinforcement)`` of one message's text, memoised per text."""
        text = message_text(message)
        verdict = self._verdicts.get(text)
        if verdict is None:
            low = text.lower()
            verdict = (self._correction.search(text, low), self._reinforcement.search(text, low))
            if len(self._verdicts) >= _VERDICT_CACHE_SIZE:
                self._verdicts.clear()  # crude bound; a full cache is rebuilt within a few turns
            self._verdicts[text] = verdict
        return verdict


@functools.cache
def _default_detector() -> SignalDetector:
    # Built on first use and then shared: a detector is immutable after construction.
    return SignalDetector()


def detect_correction(messages: Sequence[BaseMessage]) -> bool:
    """True when a human message among the last six corrects the assistant (packaged patterns)."""
    return _default_detector().detect_correction(messages)


def detect_reinforcement(messages: Sequence[BaseMessage]) -> bool:
    """True when a human message among the last six confirms the assistant (packaged patterns).

    Unlike :meth:`SignalDetector.detect`, this does not look for corrections
    first; call :func:`detect_correction` before it to follow DeerFlow's order.
    """
    return _default_detector().detect_reinforcement(messages)
