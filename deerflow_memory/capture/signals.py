"""Correction and reinforcement signals in the user's latest turns.

A *correction* ("不对", "you misunderstood", "huh?", "I didn't ask for that",
"Thursday, not Tuesday") tells the updater to revise or remove what the user
contradicted; a *reinforcement* ("完全正确", "yes, exactly", "keep doing
that") tells it to keep what was confirmed. Each human message among the last
six messages is read together with the assistant reply it answers, and
reinforcement is looked for only when there is no correction. A message
longer than 500 characters is read in pieces cut between lines or sentences
(its first and last 8 pieces when it is very long), so any message costs a
bounded time on the capture node's path.

The rules are data in ``deerflow_memory/capture/data/`` (one regular
expression per line, ``#`` comments, matched case-insensitively and per line):

- ``correction_patterns.txt``: the user says the assistant got it wrong;
- ``statement_correction_patterns.txt``: the same, of what the assistant stated or
  gave ("Close, but it's 42", "That's the old version", "好像不太对"): read only
  after a reply that states or gives something, not one that only asks ("How does
  it fit?" - "It doesn't look right on me" answers it);
- ``correction_guards.txt``: spans that are no correction ("我作业做错了": the
  user's own mistake) — blanked before the correction patterns run;
- ``reinforcement_patterns.txt``: the user approves the assistant's work;
- ``agreement_patterns.txt``: the user agrees ("yes, that's right", "没错") —
  an approval, except when the reply was a read-back asking the user to
  confirm details (``readback_patterns.txt``, matched on the reply's end):
  then the user answers a question and approves nothing;
- ``statement_reinforcement_patterns.txt``: a bare approval ("Super, thanks!",
  "666", "赞！"), read only after a reply that states or gives something ("How
  are you?" - "Super, thanks!" answers it);
- ``reinforcement_guards.txt``: praise of something else ("perfect weather
  today", "味道很好") — blanked before the reinforcement patterns run.

Three rules are code: "X, not Y" / "X，不是Y" is a correction when the reply
said Y, or when it is a request after a statement ("Make it Wednesday, not
Monday") — not when it answers a question or states the user's taste; a
short reply that is mostly one value of a type the reply stated, with another
value ("A: Your train is at 9:40. — U: 9:14, actually", "A: 会议定在周二。—
U: 周三"), is a correction (:mod:`deerflow_memory.capture.slots`); and so is a
short statement that says one of the reply's again with another complement
("A: The tower is in Lyon. — U: It's in Paris.", "A: 他是美国人。— U: 他是加拿大人。",
:mod:`deerflow_memory.capture.restated`).
``MemoryConfig.correction_patterns`` / ``reinforcement_patterns`` extend
the packaged patterns; an invalid one raises
:class:`~deerflow_memory.errors.ConfigError` naming it when the detector is
built — never later, on a user's turn.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from importlib import resources
from typing import TYPE_CHECKING

from langchain_core.messages import AIMessage, BaseMessage, HumanMessage

from deerflow_memory.arguments import expect_items
from deerflow_memory.capture.messages import check_messages, message_text, turn_kind
from deerflow_memory.capture.patterns import FLAGS, GateScan, PatternSet
from deerflow_memory.capture.premise import premise_denied
from deerflow_memory.capture.restated import restated_correction
from deerflow_memory.capture.slots import slot_correction
from deerflow_memory.errors import ConfigError
from deerflow_memory.models import with_plain_apostrophes, without_invisible

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

_VERDICT_CACHE_SIZE = 4096
# …and at most this many characters of texts and replies in all: 300 turns of 1 MB
# each kept 300 M characters alive.
_VERDICT_CACHE_CHARS = 4_000_000
_READBACK_TAIL = 240  # a read-back asks for confirmation at the end of the reply
# A reply longer than twice this is read as its first and last _REPLY_END characters
# (a 1 MB reply cost ~0.7 s a turn, searched once per piece of the turn).
_REPLY_END = 2_000

# A long turn is read with its whitespace runs collapsed, and in pieces when it is longer
# still. Several patterns meet a long run of whitespace or words with nested quantifiers
# ("X, not Y" then "\s*[.!]*\s*$"): 16,000 spaces held the capture node for 42 s. Each
# piece is read as a turn of its own (a "no", a "不对", "X, not Y", a "perfect" are
# phrases), cut at a line break, else a sentence end, else a space; a cut inside a line
# is marked so that it reads as no line's start or end. A turn corrects when one of its
# pieces does.
# Only the first and last _PIECES_READ pieces of a very long turn are read.
_LONG_TURN = 200
_PIECE = 500
_PIECES_READ = 8
# A turn longer than four times this is read from its ends: collapsed windows of over
# this many characters at each end, enough for _PIECES_READ whole pieces (and the
# partial first piece of the tail window, which is dropped). A 1 MB turn cost 50-100 ms
# to collapse and cut in full, for the 16 pieces read.
_END_CHARS = _PIECE * (_PIECES_READ + 1)
_SPACES_RUN = re.compile(r"[^\S\n]+")
_BREAKS_RUN = re.compile(r"\s*\n\s*")
_ODD_SPACE = re.compile(r"[^\S ]|  ")  # whitespace that collapsing would change
_SENTENCE_ENDS = (". ", "! ", "? ", "; ", "。", "！", "？", "；")
_SENTENCE_MARKS = ".!?;。！？；"
_SEAM = "\u2060"
_OPENING_MARKS = f"{_SEAM}{_SENTENCE_MARKS} "  # what a piece may open with, then a space

_Opened = Sequence[Sequence[re.Pattern[str]]]
"""What :meth:`GateScan.open` gives: per pattern set, the patterns worth searching."""

# "Thursday, not Tuesday" / "use the blue one, not the red one": Y of "X, not Y" at the end.
_EN_NOT_Y = re.compile(
    r"(?:^|[,;:]|\s-)\s*(?:and\s+|but\s+)?not\s+(?:the\s+|a\s+|an\s+|on\s+|in\s+|at\s+|for\s+)?"
    r"(?P<y>[^,.;!?\n]{2,40}?)[\s.!]*$",  # one class: two \s* around [.!]* tried every split
    FLAGS,
)
# "not Tuesday, Thursday" / "not Tuesday but Thursday".
_EN_NOT_Y_LEAD = re.compile(
    r"^\s*(?:no[,.!]*\s+)?not\s+(?:the\s+|a\s+|an\s+|on\s+|in\s+|at\s+|for\s+)?"
    r"(?P<y>[^,.;!?\n]{2,40}?)\s*(?:,|\bbut\b)",
    FLAGS,
)
# "要周四的，不是周二" / "是周四不是周二" / "不是周二，是周四" / "不是周二而是周四".
_ZH_NOT_Y = re.compile(
    r"(?:[，,、]\s*(?:而)?|是[^，,。！？!?]{1,15}?(?:而)?|而)不是(?P<y>[^，,。！？!?\s]{1,15}?)(?:的|啊|呀|哦|吧)?\s*[。！!~～]*\s*$"
    r"|(?:^|[，,。！!])\s*不是(?P<y2>[^，,。！？!?\s]{1,15}?)(?:的)?\s*(?:[，,]\s*|而)(?:是|要|我要|我说的是)",
    re.MULTILINE,  # per line, as the English one and the pattern files
)
_CJK = re.compile(r"[\u3400-\u9fff]")
# Where a reply's sentences end (after the mark): "Done. Anything else?" is two.
_REPLY_SENTENCES = re.compile(r"(?<=[.!?;。！？；])\s+|(?<=[。！？；])|\n+")
# ", not long after", ", not to mention": idioms, not "X, not Y".
_NOT_IDIOM = re.compile(
    r"\s*(?:long (?:after|before|ago|since)|to mention|to say|only|just|yet|quite|necessarily|"
    r"really|exactly|least|even|"
    r"at all|any ?more|always|for long|that I know of|"
    # praise and moods: "Not bad!", "Not too shabby", "not a problem", "not gonna lie"
    r"bad|too (?:bad|shabby)|problem|big deal|gonna|going to|sure|fan)\b",
    re.IGNORECASE,
)
# "I like tea, not coffee" / "我喜欢猫，不是狗": the user's own taste, no correction by itself.
_SELF_STATEMENT = re.compile(
    r"^\s*(?:(?:I|we)(?:'m|’m|'d|’d|'ve|’ve| am| are)?\b"
    r"(?! (?:said|meant|asked|wanted|need|want)\b)|my\b|"
    r"我(?!说|指|问|要|需要|想要)|我们)",
    re.IGNORECASE,
)
_PUNCTUATION = re.compile(r"[,;:()\"']+")
_SENTENCE_STARTS = (".", "!", "?", "\n", "。", "！", "？")
_EN_Y_EDGES = re.compile(r"^(?:the|a|an|on|in|at|for)\s+|\s+(?:one|please)$", re.IGNORECASE)


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


# "No, it leaves Wednesday" / "不是，在苏州": a no, then what is so instead.
_NO_LEAD = re.compile(
    r"^\s*(?:no|nope|nah)\s*[,.!;:—-]\s*|^\s*(?:不|不是|不对)\s*[，,。！!]\s*", re.I
)
# ...but not "No thanks", "No worries, …", "不用了", "No, not yet": those decline or answer.
_NO_POLITE = re.compile(
    r"(?:thanks|thank you|thx|need|worries|problem|rush|pressure|it['’]s fine|that['’]s fine|"
    r"i['’]m (?:good|fine|ok)|all good|not (?:yet|now|really|today|necessary)|just|later|"
    r"that['’]s (?:all|it|ok|okay|enough)|i (?:don['’]t|do not) (?:need|want|think|know)|"
    r"谢谢|不用|没事|暂时|先不|没关系|不需要)",
    re.I,
)


def _no_then_statement(text: str, reply: str) -> bool:
    """True for a no followed by a statement, after a statement of the assistant.

    After a question or an offer ("Want a receipt?" → "No, I'm fine") a no
    answers it; after "Your flight leaves on Tuesday." it puts the reply right.
    """
    match = _NO_LEAD.match(text)
    if match is None or not reply or reply.rstrip().endswith(("?", "？")):
        return False
    rest = text[match.end() :].strip()
    words = len(rest.split()) if not _CJK.search(rest) else len(rest) // 2
    return words >= 2 and _NO_POLITE.match(rest) is None


def _states(reply: str) -> bool:
    """True when the assistant's ``reply`` states or gives something, not only asks.

    "Here is the 2019 syllabus. Anything else?" gave a syllabus; "How does the
    jacket fit?" and "你最近好吗？" only ask, and "It doesn't look right on me" or
    "身体好像不太对" answers them.
    """
    sentences = [s for s in _REPLY_SENTENCES.split(reply.strip()) if s.strip()]
    return bool(sentences) and not all(s.rstrip().endswith(("?", "？")) for s in sentences)


def _x_not_y(text: str, reply: str) -> bool:
    """True for "X, not Y" (zh or en) that puts the assistant right.

    That is when the reply said Y ("Booked for Tuesday" → "Thursday, not
    Tuesday"), or when the turn is a request after a statement of the assistant
    ("Make it Wednesday, not Monday"). Not when it answers the assistant's
    question, even one that named Y ("Tea or coffee?" → "tea, not coffee"), or
    states the user's own taste ("I like tea, not coffee").
    """
    if not reply:
        return False
    said: list[str] = []
    at = len(text)  # where the first "X, not Y" with an X starts
    if "not" in text.lower():
        for regex in (_EN_NOT_Y, _EN_NOT_Y_LEAD):
            if (m := regex.search(text)) is not None and not _NOT_IDIOM.match(m["y"]):
                said.append(_EN_Y_EDGES.sub("", m["y"].strip()).strip())
                # "Not hungry", "not a fan of mornings": a bare "not Y" opening the turn
                # puts the reply right only when the reply said Y (no X is asked for).
                if regex is _EN_NOT_Y_LEAD or text[: m.start()].strip(_OPENING_MARKS):
                    at = min(at, m.start())
    if "不是" in text:
        for m in _ZH_NOT_Y.finditer(text):
            if y := m["y"] or m["y2"]:
                said.append(y)
                at = min(at, m.start())
    if not said or reply.rstrip().endswith(("?", "？")):
        return False  # "Tea or coffee?" - "Tea, not coffee": an answer, even when Y was said
    plain = " ".join(_PUNCTUATION.sub(" ", reply).split())
    for y in said:
        if y and (
            y in reply
            if _CJK.search(y)
            else len(y) >= 2 and re.search(rf"(?<!\w){re.escape(y)}(?!\w)", plain, re.I)
        ):
            return True
    if at == len(text):  # only a bare "not Y", and the reply did not say Y
        return False
    # The sentence that says it ("Hi! My manager likes X, not Y" states a taste),
    # past any mark a cut opened a piece with.
    start = max(text.rfind(mark, 0, at) for mark in _SENTENCE_STARTS) + 1
    return _SELF_STATEMENT.match(text[start:].lstrip(_OPENING_MARKS)) is None


def _pieces(text: str) -> list[str]:
    """A user's turn as the signals read it: whole when short, else in pieces (see _PIECE).

    Read as stored (:func:`~deerflow_memory.models.without_invisible`) with its
    whitespace runs collapsed, whatever its length: "That's\u00a0wrong",
    "That's  wrong" and "mis\u00adunderstood" read as typed plainly, and a flood of
    line breaks in a short turn no longer meets a pattern's nested quantifiers.
    """
    if len(text) <= _LONG_TURN:
        # most turns: nothing to remove or collapse, no backtick typed for an apostrophe
        # ("That`s wrong" reads as "That’s wrong", as in a longer or non-ASCII turn)
        if text.isascii() and text.isprintable() and "  " not in text and "`" not in text:
            return [text]
        return [_collapse(text)]
    collapsed = None
    if len(text) > 4 * _END_CHARS:  # read the ends only, without collapsing the middle
        head, head_size = _collapsed_end(text, from_end=False)
        if head_size == len(text):  # whitespace runs all along: the whole text collapsed
            collapsed = head
        else:
            tail, tail_size = _collapsed_end(text, from_end=True)
            if tail_size == len(text):
                collapsed = tail
            elif head_size + tail_size < len(text):
                # Only what the kept pieces hold is cut (a window may have grown far past
                # it); the tail window starts anywhere: its first piece is partial, dropped.
                first = _split(head[: _END_CHARS + 1])[:_PIECES_READ]
                return first + _split(tail[-_END_CHARS - 1 :], _SEAM)[-_PIECES_READ:]
    pieces = _split(_collapse(text) if collapsed is None else collapsed)
    if len(pieces) > 2 * _PIECES_READ:
        pieces = pieces[:_PIECES_READ] + pieces[-_PIECES_READ:]
    return pieces


def _collapse(text: str) -> str:
    # an apostrophe typed another way reads as one ("Thatʼs way too long", "It＇s still not
    # working"): one character for one, as the extractor reads them
    text = with_plain_apostrophes(without_invisible(text), "’")
    if _ODD_SPACE.search(text) is None:  # most turns: only single spaces (the capture path)
        return text
    text = _SPACES_RUN.sub(" ", text)
    return _BREAKS_RUN.sub("\n", text) if "\n" in text else text


def _collapsed_end(text: str, *, from_end: bool) -> tuple[str, int]:
    """The collapsed first (or last) window of ``text`` holding over _END_CHARS characters
    once collapsed, and the window's raw size. The window grows while whitespace runs
    shrink it below that, so the first pieces are those of the whole text collapsed
    (collapsing is local: only a run cut by the window's edge reads differently)."""
    size = 2 * _END_CHARS
    while True:
        window = text[-size:] if from_end else text[:size]
        collapsed = _collapse(window)
        if len(collapsed) > _END_CHARS or size >= len(text):
            return collapsed, min(size, len(text))
        # As much again as the runs seen so far shrink text by, and then some.
        size = (
            size * 16
            if len(collapsed) * 8 < _END_CHARS
            else size * 2 * _END_CHARS // len(collapsed)
        )


def _split(text: str, opening: str = "") -> list[str]:
    """Collapsed ``text`` in pieces of at most _PIECE characters, cut as _cut says;
    ``opening`` opens the first piece (the seam when ``text`` starts inside a line)."""
    pieces = []
    start, size = 0, len(text)
    while size - start > _PIECE:
        end = _cut(text, start, start + _PIECE)
        # Cut inside a line: the piece ends with an invisible word joiner, so a pattern
        # that wants a line to end right there ("perfect$") does not match (one whose
        # last part takes any character still reaches the end: hence cuts at sentence
        # ends first). The next piece opens as the text goes on: after a sentence end
        # with its mark (". That's perfect" reads as in the turn), else with the joiner.
        last = text[end - 1]
        seam = "" if last == "\n" else _SEAM
        pieces.append(f"{opening}{text[start:end]}{seam}")
        opening = last if last in _SENTENCE_MARKS else seam
        start = end
    pieces.append(opening + text[start:])
    return pieces


def _cut(text: str, start: int, end: int) -> int:
    """Where the piece ``text[start:end]`` ends: after its last line break, else after its
    last sentence end, else at its last space, else at ``end`` (in its last three quarters)."""
    low = start + _PIECE // 4
    cut = text.rfind("\n", low, end)
    if cut < 0:
        cut = max(text.rfind(mark, low, end) for mark in _SENTENCE_ENDS)
    if cut < 0:
        cut = text.rfind(" ", low, end)
    return end if cut < 0 else cut + 1


def _patterns(patterns: object, name: str) -> tuple[str, ...]:
    """Extra patterns as a tuple of str; an iterable that is no sequence (a set) is read once."""
    if isinstance(patterns, Iterable) and not isinstance(
        patterns, str | bytes | Sequence | Mapping
    ):
        patterns = tuple(patterns)
    return expect_items(patterns, str, name, "regular expression (a str)", ConfigError)


class SignalDetector:
    """Detects correction and reinforcement signals; patterns compiled once, safe to share.

    Args:
        extra_correction: regular expressions added to the packaged correction patterns.
        extra_reinforcement: regular expressions added to the packaged reinforcement patterns.

    Raises:
        ConfigError: an extra pattern is not a valid regular expression, or an
            ``extra_*`` is not a list of strings (a bare string included).

    Example:
        >>> from langchain_core.messages import AIMessage, HumanMessage
        >>> SignalDetector().detect([HumanMessage("hi"), AIMessage("hello"), HumanMessage("不对")])
        Signals(correction=True, reinforcement=False)
    """

    def __init__(
        self, extra_correction: Iterable[str] = (), extra_reinforcement: Iterable[str] = ()
    ) -> None:
        extra_correction = _patterns(extra_correction, "extra_correction")
        extra_reinforcement = _patterns(extra_reinforcement, "extra_reinforcement")
        self._correction = PatternSet(
            "correction", (*load_pattern_file("correction_patterns.txt"), *extra_correction)
        )
        self._statement_correction = PatternSet(
            "statement correction", load_pattern_file("statement_correction_patterns.txt")
        )
        self._statement_reinforcement = PatternSet(
            "statement reinforcement", load_pattern_file("statement_reinforcement_patterns.txt")
        )
        self._correction_guards = PatternSet(
            "correction guard", load_pattern_file("correction_guards.txt")
        )
        self._reinforcement = PatternSet(
            "reinforcement",
            (*load_pattern_file("reinforcement_patterns.txt"), *extra_reinforcement),
        )
        self._agreement = PatternSet("agreement", load_pattern_file("agreement_patterns.txt"))
        self._reinforcement_guards = PatternSet(
            "reinforcement guard", load_pattern_file("reinforcement_guards.txt")
        )
        self._readback = PatternSet("read-back", load_pattern_file("readback_patterns.txt"))
        # The sets that read the user's words, in the order _corrects/_reinforces take them.
        self._turn_gates = GateScan(
            self._correction_guards,
            self._correction,
            self._reinforcement_guards,
            self._reinforcement,
            self._agreement,
            self._statement_correction,
            self._statement_reinforcement,
        )
        self._verdicts: dict[tuple[str, str], tuple[bool, bool]] = {}
        self._verdict_chars = 0  # characters of the keys kept

    @classmethod
    def from_config(cls, config: MemoryConfig) -> SignalDetector:
        """A detector with ``config.correction_patterns`` / ``config.reinforcement_patterns`` added.

        Raises:
            ConfigError: a configured pattern is not a valid regular expression.
        """
        return cls(config.correction_patterns, config.reinforcement_patterns)

    # --- one turn -----------------------------------------------------------------------

    def is_correction(self, text: str, reply: str = "") -> bool:
        """True when the user's ``text``, answering the assistant's ``reply``, corrects it."""
        return self._read(text, reply)[0]

    def is_reinforcement(self, text: str, reply: str = "") -> bool:
        """True when the user's ``text``, answering ``reply``, approves the assistant's work.

        Corrections are not considered here; :meth:`classify` applies the precedence.
        """
        return self._read(text, reply)[1]

    def _read(self, text: str, reply: str) -> tuple[bool, bool]:
        """``(correction, reinforcement)`` of one turn, read whole or piece by piece."""
        pieces = _pieces(text)
        if len(reply) > 2 * _REPLY_END:  # what the turn answers: the reply's ends
            reply = f"{reply[:_REPLY_END]}\n{reply[-_REPLY_END:]}"
        correction = reinforcement = False
        for number, piece in enumerate(pieces):
            low = piece.lower()
            opened = self._turn_gates.open(low)
            if not correction:
                correction = self._corrects(piece, low, reply, opened, number, len(pieces))
            if not reinforcement:
                reinforcement = self._reinforces(piece, low, reply, opened)
            if correction and reinforcement:
                break
        return correction, reinforcement

    def _corrects(
        self, text: str, low: str, reply: str, opened: _Opened, piece: int = 0, pieces: int = 1
    ) -> bool:
        """Whether ``text``, piece ``piece`` of ``pieces`` of a turn, corrects ``reply``.

        ``opened`` = ``self._turn_gates.open(low)``.
        """
        original = text
        guards, patterns = opened[0], opened[1]
        guarded = self._correction_guards.blank(text, low, guards) if guards else text
        if guarded is not text:  # a blanked span may join words into a gate string
            text, low = guarded, guarded.lower()
            patterns = self._correction._candidates(low)
            stated = self._statement_correction._candidates(low)
        else:
            stated = opened[5]
        if self._correction.search(text, low, patterns) or _x_not_y(text, reply):
            return True
        # "Close, but it's 42", "好像不太对": of what the reply stated or gave, not an answer
        if stated and self._statement_correction.search(text, low, stated) and _states(reply):
            return True
        if piece == 0 and _no_then_statement(original, reply):  # "No, …" opens the turn
            return True
        # "A: Your train is at 9:40. — U: 9:14, actually": a bare value put right; "A: The
        # tower is in Lyon. — U: It's in Paris.": a statement said again, another complement.
        # (both read short turns only)
        # "A: Plug in the blue cable. — U: There's no blue cable.": a premise denied.
        return pieces == 1 and (
            slot_correction(original, reply)
            or restated_correction(original, reply)
            or (premise_denied(original, reply) and _states(reply))
        )

    def _reinforces(self, text: str, low: str, reply: str, opened: _Opened) -> bool:
        """Whether ``text`` (a turn or a piece of one) approves ``reply``.

        ``opened`` = ``self._turn_gates.open(low)``.
        """
        guards, patterns, agreements = opened[2], opened[3], opened[4]
        guarded = self._reinforcement_guards.blank(text, low, guards) if guards else text
        if guarded is not text:
            text, low = guarded, guarded.lower()
            patterns = self._reinforcement._candidates(low)
            agreements = self._agreement._candidates(low)
            stated = self._statement_reinforcement._candidates(low)
        else:
            stated = opened[6]
        if self._reinforcement.search(text, low, patterns):
            return True
        if stated and self._statement_reinforcement.search(text, low, stated) and _states(reply):
            return True  # "Super, thanks!", "666": of what the reply gave, not an answer
        if not self._agreement.search(text, low, agreements):
            return False
        # "Yes, that's right" to "…for Thursday at 7, is that correct?" answers a question.
        tail = reply[-_READBACK_TAIL:]
        return not (tail and self._readback.search(tail, tail.lower()))

    def classify(self, text: str, reply: str = "") -> Signals:
        """The signals of one user turn (``text``) after the assistant's ``reply``."""
        correction, reinforcement = self._verdict(text, reply)
        return Signals(correction=correction, reinforcement=reinforcement and not correction)

    def _verdict(self, text: str, reply: str) -> tuple[bool, bool]:
        """``(correction, reinforcement)`` of one turn, memoised: each turn re-reads the window."""
        key = (text, reply)
        verdict = self._verdicts.get(key)
        if verdict is None:
            verdict = self._read(text, reply)
            size = len(text) + len(reply)
            if (
                len(self._verdicts) >= _VERDICT_CACHE_SIZE
                or self._verdict_chars + size > _VERDICT_CACHE_CHARS
            ):
                # crude bound; a full cache is rebuilt within a few turns
                self._verdicts.clear()
                self._verdict_chars = 0
            if size <= _VERDICT_CACHE_CHARS:
                self._verdicts[key] = verdict
                self._verdict_chars += size
        return verdict

    # --- a conversation -------------------------------------------------------------------

    @staticmethod
    def _recent_turns(messages: Sequence[BaseMessage]) -> list[tuple[str, str]]:
        """``(user text, reply it answers)`` of each human message among the last six."""
        start = max(len(messages) - SIGNAL_WINDOW, 0)
        turns = []
        for index in range(start, len(messages)):
            message = messages[index]
            if turn_kind(message) is not HumanMessage:  # a ChatMessage of role "user" too
                continue
            reply = ""
            for earlier in range(index - 1, -1, -1):
                previous = messages[earlier]
                kind = turn_kind(previous)
                if kind is AIMessage:
                    reply = message_text(previous)
                    break
                if kind is HumanMessage:
                    break  # two user messages in a row: the first one has the reply
            turns.append((message_text(message), reply))
        return turns

    def detect_correction(self, messages: Sequence[BaseMessage]) -> bool:
        """True when a recent human message corrects the assistant.

        Raises:
            InvalidMessagesError: ``messages`` is not a sequence of LangChain messages.
        """
        turns = self._recent_turns(check_messages(messages))
        return any(self._verdict(t, r)[0] for t, r in turns)

    def detect_reinforcement(self, messages: Sequence[BaseMessage]) -> bool:
        """True when a recent human message approves the assistant (corrections not considered).

        Raises:
            InvalidMessagesError: ``messages`` is not a sequence of LangChain messages.
        """
        turns = self._recent_turns(check_messages(messages))
        return any(self._verdict(t, r)[1] for t, r in turns)

    def detect(self, messages: Sequence[BaseMessage]) -> Signals:
        """Both signals; reinforcement is only looked for when there is no correction.

        Args:
            messages: the (filtered) conversation, oldest first; only human
                messages among the last six are read, each with the assistant
                reply before it. Not checked (the capture path passes checked
                messages); :meth:`detect_correction` checks.
        """
        verdicts = [self._verdict(t, r) for t, r in self._recent_turns(messages)]
        if any(correction for correction, _ in verdicts):
            return Signals(correction=True, reinforcement=False)
        return Signals(correction=False, reinforcement=any(r for _, r in verdicts))


@functools.cache
def _default_detector() -> SignalDetector:
    # Built on first use and then shared: a detector is immutable after construction.
    return SignalDetector()


def detect_correction(messages: Sequence[BaseMessage]) -> bool:
    """True when a human message among the last six corrects the assistant (packaged patterns).

    Raises:
        InvalidMessagesError: ``messages`` is not a sequence of LangChain
            messages (``None``, a string, dicts).
    """
    return _default_detector().detect_correction(messages)


def detect_reinforcement(messages: Sequence[BaseMessage]) -> bool:
    """True when a human message among the last six confirms the assistant (packaged patterns).

    Unlike :meth:`SignalDetector.detect`, this does not look for corrections
    first; call :func:`detect_correction` before it to follow DeerFlow's order.

    Raises:
        InvalidMessagesError: ``messages`` is not a sequence of LangChain messages.
    """
    return _default_detector().detect_reinforcement(messages)
