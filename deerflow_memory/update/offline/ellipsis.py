# ruff: noqa: E501  (regular expressions: one alternation per line reads better than wrapped)
"""A need said once more, of one more thing, with its words left out.

"I'm allergic to peanuts. Shrimp too.", "I can't eat pork; beef either", "我对花生过敏，
还有虾": the user adds a thing to the need just said and leaves the need's words out. Read
alone, the addition states nothing ("Shrimp too") or something else ("还有虾和蟹" read as
"用户有虾和蟹"), so the allergy to shrimp was lost. Here it is the need said again of the
new thing: "User is allergic to shrimp", "用户对虾过敏".

Only an addition marked as one ("too", "as well", "either", "also", "and", "plus", "same
with"; "还有", "以及", "另外") after a need, with nothing but a thing in it, is read so: not
a person ("My sister too", "还有我老公", a capitalised word that may be a name), a
condition or a symptom ("Also asthma", "还有头疼": what the user has, not reacts to), or a
word of a clause of its own. Pure functions over strings.
"""

from __future__ import annotations

import dataclasses
import re

from deerflow_memory.capture.kin import KIN_EN, KIN_ZH
from deerflow_memory.update.offline.rules import Candidate
from deerflow_memory.update.offline.vocabulary import (
    CONDITION_EN,
    CONDITION_SUFFIX_ZH,
    DIET_EN,
    NEED_THING_EN,
    NOT_NAMES,
    STATE_EN,
    SYMPTOM_EN,
    SYMPTOM_ZH,
)

__all__ = ["need_of", "one_more_thing", "split_one_more"]

_I = re.IGNORECASE

# "shrimp too", "also shellfish", "and to shrimp as well", "same with tree nuts", "or beef
# either": a marker before or after, and between them one to four words
_EN_MORE = re.compile(
    r"(?:(?P<pre>(?:oh,?\s+)?(?:and also|and|also|plus|or|nor|same (?:with|for|goes for))\b,?)\s*(?:to\s+)?)?"
    r"(?P<thing>[A-Za-z][A-Za-z'-]*(?:\s+[A-Za-z][A-Za-z'-]*){0,3}?)"
    r"(?P<post>,?\s+(?:too|as well|also|either))?\s*[.!]*",
    _I,
)
# Words no thing one reacts to is made of: people, pronouns and determiners, verbs of a
# clause, adverbs and prepositions of a time or a manner, and chat.
_EN_NOT_A_THING = re.compile(
    rf"\b(?:{KIN_EN}|i|me|my|mine|you|your|we|us|our|he|him|his|she|her|they|them|their|it|its|"
    r"this|that|these|those|some|any|every|everything|something|anything|nothing|all|both|more|less|"
    r"same|other|others|else|is|are|am|was|were|be|been|do|does|did|have|has|had|can|could|would|will|"
    r"should|may|might|must|get|got|go|went|very|really|so|too|just|only|maybe|probably|also|here|there|"
    r"now|then|today|always|never|sometimes|still|even|again|not|no|yes|ok|okay|since|for|in|at|on|from|"
    r"after|before|with|without|when|because|about|by|of|if|than|thanks|thank|please|lol|haha|hi|hello|"
    r"sorry|badly|severely|mildly|slightly|seriously|quite|pretty|super|extremely|especially|though|"
    r"anyway|apparently|actually|honestly|unfortunately)\b|\w+ly\b",
    _I,
)
_EN_KNOWN = re.compile(rf"(?:{NEED_THING_EN})", _I)
# What the user is or has, not a thing: "Also asthma", "And diabetic", "And vegan too"
_EN_HAD = re.compile(rf"(?:{CONDITION_EN}|{SYMPTOM_EN}|{STATE_EN}|{DIET_EN})", _I)
# A word of how one is or what one does: "And tired", "Also stressed", "And running too"
_EN_A_STATE_WORD = re.compile(r"\w+(?:ed|ing|ic)\b", _I)

# "还有虾", "以及芒果", "另外还有猫毛": a marker, then a short thing (no person, no clause)
_ZH_MORE = re.compile(
    r"(?:还有|以及|另外还有|另外|再加上|加上)(?P<thing>[^\s，,。！？!?；;、：:我你您他她它们这那些点个一什么其别很都也就是在的了吗呢吧啊嘛呀哦过敏耐感不没有会要想说]{1,10})"
)
# (nor what a person is called: "小王", "老李", "阿强")
_ZH_NOT_A_THING = re.compile(
    rf"{KIN_ZH}|{CONDITION_SUFFIX_ZH}|{SYMPTOM_ZH}|^[小老阿][\u4e00-\u9fff]$"
)

# A need whose value is a thing the user reacts to or leaves out, as the rules word it:
# "…allergic to X", "…cannot eat X", "…reacts badly to X", "…对X过敏", "…不能吃X" before
# the value; "X allergy", "X intolerant", "X过敏", "X不耐受" after it.
_BEFORE_A_THING = re.compile(
    r"(?:\b(?:allergic|intolerant|sensitive|hypersensitive|reacts?(?: \w+)?) to"
    r"|\b(?:cannot|can't|does not|doesn't|never|must not|is unable to) (?:eat|drink|have|tolerate|digest|touch|take|stomach|handle)) $"
    r"|对$|(?:不|不能|不可以|不敢|没法|受不了|吃不了)(?:吃|喝|碰|沾)$",
    _I,
)
_AFTER_A_THING = re.compile(
    r" (?:allergy|allergies|intolerance|intolerant|sensitivity)\b|过敏|不耐|敏感", _I
)

_AFTER_A_COMMA = re.compile(r"(?:，|, ).*$", re.DOTALL)

# Where an addition starts inside a sentence: after a semicolon, a dash or dots in
# English (a comma joins the thing to the need's list, as said: "…peanuts, shrimp too"),
# after any of these or a comma in Chinese.
_EN_BREAKS = (";", " — ", "—", " – ", " - ", "...", "…")
_ZH_BREAKS = ("，", ",", "；", ";", "……", "…", "——")
_ADDITION_AT_MOST = 80  # characters: a marker and four words, with room to spare


def one_more_thing(text: str, zh: bool) -> str | None:
    """The thing ``text`` adds to a need just said ("Shrimp too." → "Shrimp", "还有虾和蟹"
    → "虾和蟹"), or ``None`` when ``text`` is more, or other, than one thing marked as an
    addition."""
    text = text.strip()
    if zh:
        more = _ZH_MORE.fullmatch(text.rstrip("。！!"))
        if more is None or _ZH_NOT_A_THING.search(more["thing"]):
            return None
        return more["thing"]
    more = _EN_MORE.fullmatch(text)
    if more is None or not (more["pre"] or more["post"]):
        return None
    thing = more["thing"]
    known = _EN_KNOWN.fullmatch(thing) is not None
    if not known and (
        _EN_NOT_A_THING.search(thing)
        or _EN_A_STATE_WORD.search(thing)
        or any(word in NOT_NAMES for word in thing.casefold().split())
    ):
        return None  # "My sister too", "Badly too", "And tired"
    if _EN_HAD.fullmatch(thing):
        return None  # "Also asthma": a condition the user has, not what they react to
    if thing[:1].isupper() and not thing.isupper():
        if not known:
            return None  # "Sarah too": a name, as far as can be told
        thing = thing[:1].lower() + thing[1:]  # "Shrimp too": capitalised as a sentence opens
    return thing


def split_one_more(sentence: str, zh: bool) -> tuple[str, list[str]] | None:
    """``sentence`` as what it says first and the things added to it after breaks ("I'm
    allergic to peanuts; shrimp too; and mango" → ``("I'm allergic to peanuts", ["shrimp",
    "mango"])``), or ``None`` when it ends in no addition. Linear in ``len(sentence)``."""
    breaks = _ZH_BREAKS if zh else _EN_BREAKS
    things: list[str] = []
    end = len(sentence.rstrip())  # the head is sentence[:end] (no copy per addition)
    while True:
        # (an addition is a few words: its break is near the end, which bounds each search)
        near = max(0, end - _ADDITION_AT_MOST)
        at, width = max((sentence.rfind(b, near, end), len(b)) for b in breaks)
        if at <= 0 or (thing := one_more_thing(sentence[at + width : end], zh)) is None:
            break
        things.append(thing)
        end = at
        while end > 0 and sentence[end - 1].isspace():
            end -= 1
    return (sentence[:end], things[::-1]) if things else None


def need_of(need: Candidate, thing: str) -> Candidate | None:
    """``need`` (an allergy, intolerance or food the user cannot eat, as the rules read it)
    said of ``thing`` in place of its own value, or ``None`` when ``need`` is no plain need
    whose value its content names once (a retraction, a correction, a slot's value)."""
    value = need.value
    if (
        not need.constraint
        or not value
        or need.slot is not None
        or need.retract is not None
        or need.wrong_value is not None
        or need.replace is not None
    ):
        return None
    folded = need.content.casefold()
    at = folded.find(value.casefold())
    if at < 0 or folded.find(value.casefold(), at + 1) >= 0:
        return None
    before, after = need.content[:at], need.content[at + len(value) :]
    if not (_BEFORE_A_THING.search(before) or _AFTER_A_THING.match(after)):
        return None  # "User is vegan", "User uses a wheelchair": no thing to add one to
    # (what the need says after a comma is of its own thing: "…对坚果过敏，比如杏仁")
    content = before + thing + _AFTER_A_COMMA.sub("", after)
    return dataclasses.replace(need, content=content, value=thing)
