"""When a need's word names no need the user has now: it is over, or only supposed.

:mod:`deerflow_memory.inject.constraints` finds a need's word and reads its
clause; this module reads the state the need is said in.

A need is **over** when its clause says it ended: "used to be vegetarian",
"is no longer diabetic", "outgrew her egg allergy", "came off
antidepressants", "coeliac was ruled out", "doesn't use a wheelchair
anymore", "小时候对牛奶过敏，后来好了", "曾经患有抑郁症", "不再需要拄拐杖",
"降压药已经停药了". The cue stands before the need in its clause, after it in
its clause, or opens the next clause (", not any more", "，已痊愈", "but has
had none since").

A need is **supposed** when a wish, a plan, a suspicion or an opinion comes
before it in its clause: "might try a keto diet", "is considering going
vegan", "wonders whether she has ADHD", "plans to get tested for coeliac",
"would need a walker if...", "thinks food allergies are overdiagnosed",
可能, 担心自己可能, 怀疑自己, 考虑, 想试试, 打算, 觉得, 认为. It is the user's
need again when a possessive holds it ("worried her peanut allergy will...",
"thinks his asthma is worse", 自己的哮喘) or a reason or a "with" comes
between ("might miss calls because of dialysis", "worried about flying with
a wheelchair", 因为). News, fiction, charity and business are topic cues in
:mod:`deerflow_memory.inject.constraints` ("a film about a deaf pianist",
"runs a vegan cafe", 小说, 慈善, 开了一家).

What stays a need (decisions, tested):

* a refusal is a diet, not the end of one: "no longer eats pork", "stopped
  eating gluten", "doesn't eat meat anymore";
* a lost ability is a need: "can't tolerate dairy anymore", "no longer able to";
* a need that goes on or came back: "has had epilepsy since childhood",
  "outgrew it, but it returned", "好了又犯", "以前就有哮喘，现在还有";
* "in remission" and "recovering from" are needs (check-ups, a body still
  healing); "fully recovered from" is over;
* a plan already decided and dated is a need: "starts on insulin next week"
  (no cue); "would like"/"would rather" and "wants to eat only halal food"
  say a present preference, not a wish for later.

Each clause's cues are found once, when a need's word is first met in it,
so the cost grows with the text, not with its square.
"""

from __future__ import annotations

import re
from bisect import bisect_left, bisect_right
from dataclasses import dataclass

from deerflow_memory.inject.need_words import alternation

__all__ = ["CHINESE_STATE", "ENGLISH_STATE", "ClauseState", "StateReading"]

_REACH = 60  # characters between a cue and the need it is said of
_NEXT = 80  # characters of the next clause read for an "ended" cue opening it
_ONE_WORD = re.compile(r"(?:[\w-]+\s+)?")


@dataclass(frozen=True, slots=True)
class StateReading:
    """One language's cues of a need that is over or supposed (see the module docstring)."""

    ended_before: re.Pattern[str]  # in the clause, before the need: "used to", 以前
    ended_after: re.Pattern[str]  # in the clause, after the need: "anymore", 已经好了
    ended_next: re.Pattern[
        str
    ]  # matched where the next clause starts (lowercased): ", not any more"
    still: re.Pattern[str]  # in the clause or just after: the need goes on ("still", 又)
    refusal: re.Pattern[str]  # the need's word itself refuses ("no longer eats"): never over
    unable: re.Pattern[str] | None = None  # in the clause: "anymore" is a lost ability
    just_before: re.Pattern[str] | None = None  # at most a word before the need: "was vegan"
    # every cue holds one of these words (``supposed`` is one of them): a text or
    # a clause without any has no cue (one cheap pass over the lowercased text,
    # faster than a case-blind pattern; the cues are found only in clauses that pass)
    any_cue: re.Pattern[str] = re.compile(r"(?!)")
    # supposed: a wish, a plan, a suspicion or an opinion before the need ("might
    # try", "wonders if", "thinks", 可能, 担心, 认为); unless the need is held
    # (a possessive right before it: "worried her peanut allergy...", 自己的) or a
    # reason comes between ("might be late because of dialysis", 因为)
    supposed: re.Pattern[str] = re.compile(r"(?!)")
    held: re.Pattern[str] = re.compile(r"(?!)")  # searched up to the need: ends there
    reason: re.Pattern[str] = re.compile(r"(?!)")

    def in_text(self, text: str) -> bool:
        """Whether ``text`` holds any cue word at all (one pass; most texts hold none)."""
        return self.any_cue.search(text.lower()) is not None

    def clause(self, text: str, start: int, end: int) -> ClauseState | None:
        """The state cues of the clause ``text[start:end]``, found once; None without any."""
        ends_next = (
            end < len(text) and self.ended_next.match(text[end : end + _NEXT].lower()) is not None
        )
        if not ends_next and self.any_cue.search(text[start:end].lower()) is None:
            return None
        return ClauseState(text, start, end, self, ends_next)


class ClauseState:
    """Where one clause's state cues are; asked once per need's word in it."""

    __slots__ = (
        "after",
        "before",
        "end",
        "next_ends",
        "reading",
        "start",
        "still",
        "supposed",
        "unable",
        "was",
    )

    def __init__(
        self, text: str, start: int, end: int, reading: StateReading, ends_next: bool
    ) -> None:
        self.reading = reading
        self.start = start
        self.end = end
        self.before = [m.end() for m in reading.ended_before.finditer(text, start, end)]
        self.after = [m.start() for m in reading.ended_after.finditer(text, start, end)]
        was = reading.just_before
        self.was = [m.end() for m in was.finditer(text, start, end)] if was is not None else []
        self.next_ends = ends_next
        self.supposed = [m.end() for m in reading.supposed.finditer(text, start, end)]
        window = min(len(text), end + _REACH)
        self.still = reading.still.search(text, start, window) is not None
        self.unable = reading.unable is not None and (
            reading.unable.search(text, start, end) is not None
        )

    def is_supposed(self, text: str, match: re.Match[str]) -> bool:
        """Whether the need matched here is only wished, planned, suspected or opined."""
        start = match.start()
        at = bisect_right(self.supposed, start) - 1
        if at < 0 or start - self.supposed[at] > _REACH:
            return False
        cue_end = self.supposed[at]
        if self.reading.reason.search(text, cue_end, start) is not None:
            return False  # "might be late because of dialysis"
        return self.reading.held.search(text, max(cue_end, start - 24), start) is None

    def is_over(self, text: str, match: re.Match[str]) -> bool:
        """Whether the need matched here is said to have ended (and not to go on)."""
        if self.still:
            return False
        start, stop = match.start(), match.end()
        at = bisect_left(self.before, max(self.start, start - _REACH))
        if at < len(self.before) and self.before[at] <= start:
            return True
        at = bisect_right(self.was, start) - 1  # "was vegan", "were on insulin"
        was = self.was[at] if at >= 0 else -_REACH
        if start - was <= 30 and _ONE_WORD.fullmatch(text, was, start):
            return True
        if self.reading.refusal.match(match.group()) or self.unable:
            return False  # "doesn't eat meat anymore", "can't walk far any more"
        at = bisect_left(self.after, stop)
        return (at < len(self.after) and self.after[at] < self.end) or self.next_ends


_EN_CUE_WORDS = [
    "used",
    "formerly",
    "longer",
    "outgr\\w*",
    "grew",
    "got",
    "recovered",
    "cured",
    "came",
    "come",
    "coming",
    "weaned",
    "negative",
    "ruled",
    "stopped",
    "quit",
    "gave",
    "anymore",
    "any",
    "went",
    "cleared",
    "healed",
    "resolved",
    "gone",
    "over",
    "was",
    "were",
    "fine",
    "none",
    "no",
]
_EN_SUPPOSED = (
    # a wish, a plan, a suspicion
    r"might",
    r"may",
    r"maybe",
    r"perhaps",
    r"possibly",
    r"probably",
    r"could(?!n't|\s+not|\s+never)",
    r"would(?!n't|\s+(?:not|never|like|love|rather|prefer))",
    r"wonder(?:s|ed|ing)?",
    r"whether",
    r"suspect(?:s|ed|ing)?",
    r"worr(?:y|ies|ied)",
    r"afraid",
    r"fear(?:s|ed|ful)?",
    r"concerned",
    r"consider(?:s|ed|ing)?",
    r"thinking (?:about|of)",
    r"plan(?:s|ned|ning)? (?:to|on)",
    r"intend(?:s|ed|ing)? to",
    r"hop(?:es|ed|ing) to",
    r"want(?:s|ed|ing)? to (?:try|start|begin|go|switch|become|get|see)",
    r"wish(?:es|ed|ing)?",
    r"tempted",
    r"curious",
    r"interested in",
    r"looking into",
    r"not sure",
    r"unsure",
    r"tested for",
    r"asked (?:about|whether|if)",
    # an opinion
    r"thinks?",
    r"thought",
    r"believ(?:es?|ed|ing)",
    r"feels? that",
    r"argu(?:es?|ed|ing)",
    r"claim(?:s|ed|ing)?",
    r"reckons?",
    r"says? that",
    r"sceptical",
    r"skeptical",
    r"doubts?",
    r"opinion",
)


def _lowercase_alternation(*parts: str) -> str:
    """``parts`` (lowercase) as one alternation grouped by first letter, for lowercased text."""
    groups: dict[str, list[str]] = {}
    for part in parts:
        groups.setdefault(part[0], []).append(part[1:])
    return "|".join(f"{first}(?:{'|'.join(rest)})" for first, rest in groups.items())


_EN_HEALED = r"(?:(?:fully|completely|totally)\s+)?(?:healed|cured|recovered|resolved|gone)"
ENGLISH_STATE = StateReading(
    ended_before=re.compile(
        r"\b(?:used to|formerly|no longer(?!\s+(?:able|allowed|permitted))|"
        r"outgr[eo]w\w*|grew out of|got over|(?:fully|completely|totally) recovered from|"
        r"cured of|c[oa]me off|coming off|weaned off|tested negative for|ruled out|"
        r"stopped (?:taking|using|needing|wearing|following|being|having)|"
        r"quit (?:taking|using)|gave up (?:on )?(?:the|her|his|their|my|its))",
        re.IGNORECASE,
    ),
    just_before=re.compile(
        r"\b(?:was|were)\s+(?!(?:always|still|born|diagnosed|told|found|tested|given|"
        r"prescribed|advised|put|fitted|started|declared|registered|confirmed|certified|"
        r"also|very|so|left|made|rendered|paralysed|paralyzed)\b)",
        re.IGNORECASE,
    ),
    ended_after=re.compile(
        rf"\b(?:any ?more|no longer(?!\s+(?:able|allowed|permitted))|went away|cleared up|"
        rf"ruled out|(?:is|was|has|have|had|got|been)\s+{_EN_HEALED}|"
        rf"(?:fully|completely|totally)\s+(?:healed|cured|recovered|resolved)|"
        rf"(?:is|was) over|outgrew it|grew out of it)\b",
        re.IGNORECASE,
    ),
    ended_next=re.compile(
        r"[\s,]*(?:(?:but|and|though)\s+)?(?:(?:it|that|this|she|he|they|now)\s+)?"
        r"(?:(?:has had|have had|had|has|have|is|was|got|since)\s+)?(?:(?:now|since)\s+)?"
        rf"(?:not any ?more|no longer|{_EN_HEALED}\b|went away|cleared up|outgrew it|"
        r"grew out of it|ruled out|over it|fine now|"
        r"no (?:\w+ )?(?:attacks?|seizures?|symptoms?|episodes?|flare-?ups?|problems?|"
        r"reactions?) (?:since|for|in)|none since)",
    ),
    still=re.compile(
        r"\b(?:still|came back|come back|comes back|returned|relapsed?|remains?|"
        r"continues? to|ongoing|flared up again)\b",
        re.IGNORECASE,
    ),
    refusal=re.compile(
        r"(?:(?:does|do)(?:n't| not)|never|can(?:no|')t|won't|will not|must|no|stopped|gave|"
        r"avoid|abstain|cut|only|stay|unable)\b",
        re.IGNORECASE,
    ),
    unable=re.compile(
        r"\b(?:can't|cannot|can not|can no longer|unable|not able|no longer able|"
        r"not allowed)\b",
        re.IGNORECASE,
    ),
    any_cue=re.compile(r"\b(?:" + _lowercase_alternation(*_EN_CUE_WORDS, *_EN_SUPPOSED) + r")\b"),
    supposed=re.compile(r"\b(?:" + alternation(*_EN_SUPPOSED) + r")\b"),
    held=re.compile(r"\b(?:her|his|their|my|our|its|own)\s+(?:[\w-]+\s+){0,2}$", re.IGNORECASE),
    reason=re.compile(r"\b(?:because|due to|despite|given|since|as a|with|using)\b", re.IGNORECASE),
)

_ZH_HEALED = (
    r"(?:(?:后来|已经|已|早就|早已|现在|基本|完全|都)好了(?!很多|些|一点|不少)|痊愈|治愈|"
    r"治好了|(?:已经?|完全)康复|康复了|停药|停了|没事了|没再犯|不用了|不需要了|消失了)"
)
_ZH_SUPPOSED = (
    r"可能|也许|或许|大概|说不定|担心|怀疑|考虑(?!到)|打算|计划|想要?(?:试|开始|尝试)|试试|"
    r"要不要|是不是|是否|会不会|觉得|认为|以为|相信|看法|反对|质疑"
)
CHINESE_STATE = StateReading(
    ended_before=re.compile(r"以前(?!就)|以往|曾经|曾|原来|原先|早年|不再|排除了?|停了"),
    ended_after=re.compile(rf"{_ZH_HEALED}|排除"),
    ended_next=re.compile(rf"[\s，,]*(?:但是?|可是|不过|后来|现在|目前)?\s*{_ZH_HEALED}"),
    still=re.compile(r"还|仍|依然|依旧|一直|至今|又|复发|再次|现在也|就有"),
    refusal=re.compile(r"不|戒|忌|只"),
    any_cue=re.compile(
        r"以前|以往|曾|原来|原先|早年|不再|排除|停|好了|痊愈|治愈|康复|没事|没再|不用了|不需要了|消失|"
        + _ZH_SUPPOSED
    ),
    supposed=re.compile(_ZH_SUPPOSED),
    held=re.compile(r"(?:自己|本人|我|她|他)的.{0,2}$"),
    reason=re.compile(r"因为|由于"),
)
