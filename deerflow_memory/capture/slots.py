"""Same slot, different value: a short reply that puts one value of the assistant's right.

"A: Your train is at 9:40. — U: 9:14, actually", "A: 会议定在周二。— U: 周三",
"A: Hi Jon! — U: It's John, with an h", "A: 订了两间房。— U: 三间，我刚才说了":
the user restates a value of the same type as one the assistant stated, with
another value. No correction word is needed; the comparison is the signal.

Values are typed tokens (one regular expression for Chinese, one for digits,
a word list for English words):

- ``time`` (hour, minute on a 12-hour clock), ``meridiem`` (am / pm, 上午 /
  下午), ``weekday``, ``relday`` (today, 明天…), ``month``, ``year``,
  ``ordinal`` (the 4th, 3号, 第六章), ``number`` (digits, number words, 三间 /
  两个 with a measure word; with the unit after it or a label before it,
  "7 people", "floor 5": counts of different units are not compared);
- ``name``: a capitalised word that is no common word ("Jon"), compared only
  with a name spelled alike ("John"); a Chinese surname with a title ("黎医生":
  the title is part of the type).

:func:`slot_correction` is True when every rule holds:

- the reply is short (≤ 80 characters, ≤ 24 with Chinese) and no question, hedge or addition
  ("and 7 too", "也", "再", "maybe");
- it holds at least one typed value, and is otherwise filler ("actually", "I
  said", "it's", "是", "吧", "我刚才说了", a unit such as "people" or "间"), with
  no other word;
- the assistant's message (its sentences that are no question, its first 800
  characters) states one or two values of the same type, and the user's
  value is none of them.

Pure; it runs on the capture node's hot path, so every scan of the
assistant's message is skipped unless a plain substring test says it can
find a value of a kind the user's reply holds (a few microseconds for a
short reply after a 200-character message, tens after a long one), and
longer user turns return at once.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable
from typing import NamedTuple

from deerflow_memory.capture.slot_words import (
    CATEGORIES,
    CN,
    CN_DIGITS,
    DIGITS,
    EN_ADDING,
    EN_ASKING,
    EN_FILLER_WORDS,
    EN_NUMBERS,
    EN_ORDINALS,
    LABELS,
    MONTHS,
    NOT_NAMES,
    NOT_UNITS,
    RELDAYS,
    WEEKDAYS,
    ZH_COLORS,
    ZH_LANGUAGES,
    ZH_MERIDIEM,
    ZH_NOT_SURNAMES,
    ZH_QUARTERS,
    ZH_UNITS,
    ZH_WEEKDAYS,
    split_words,
)

__all__ = ["slot_correction"]

MAX_REPLY_CHARS = 80
"""Longer user turns are not read as a bare value (Chinese ones: 24 characters)."""
_MAX_CHINESE_CHARS = 24
_MAX_ASSISTANT_CHARS = 800  # a bare value answers what the reply stated first (and bounds the cost)
_MAX_SAME_TYPE = 2  # an assistant listing three times offers options; it states none
_ZH_WEEK_SHIFT = {"上": -7, "下": 7}  # 上周二 / 下周二: the weekday of another week
_ZH_SIZES = {"大": "large", "中": "medium", "小": "small"}


_N = rf"[{CN}]+|\d+"
# Measure words after a number: 三间 / 两个人 / 5位 (a count); 号/日 make a day, 点 a time.
_MEASURE = "个位人间张份天晚夜次本件瓶杯碗辆台只条页章节岁块元斤盒箱套双对把"
# Values written with digits, English style; every branch starts on a digit.
_DIGIT_TOKENS = re.compile(
    r"(?=[0-9])(?<![a-z0-9.:])(?:"
    r"(?P<hm>[0-9]{1,2}[:：][0-9]{2})(?:\s*(?P<hm_mer>[ap]\.?m\.?)(?![a-z]))?"
    r"|(?P<h>[0-9]{1,2})\s*(?P<h_mer>[ap]\.?m\.?)(?![a-z])"
    r"|(?P<h_oc>[0-9]{1,2})\s*o['’]clock\b"
    r"|(?P<ord>[0-9]{1,3})(?:st|nd|rd|th)\b"
    r"|(?P<year>1[89][0-9]{2}|20[0-9]{2})(?![0-9.:])"
    r"|(?P<num>[0-9]+(?:\.[0-9]+)*)(?:\s+(?P<unit>[a-z]+))?)",
    re.IGNORECASE,
)
# Chinese values: 三点半 / 周三 / 明天 / 下午 / 第六章 / 2023年 / 五月 / 16号 / 三间 / 黎医生.
_ZH_TOKENS = re.compile(
    rf"(?P<zh>{_N})\s*[点點](?P<zhalf>半|一刻|三刻|(?:{_N})分?)?"
    r"|(?P<zweek>[上下这本])?(?:周|星期|礼拜)(?P<zwd>[一二三四五六日天])"
    r"|(?P<zrel>大后天|前天|昨天|今天|今晚|明天|明晚|后天)"
    r"|(?P<zmer>上午|早上|早晨|凌晨|中午|下午|傍晚|晚上)(?!好)"
    rf"|第\s*(?P<zord>{_N})\s*[章节课版集期页个天次届名号条题]?"
    r"|(?P<zyear>\d{4})\s*年"
    rf"|(?P<zmonth>{_N})\s*月(?!份?[内里])"
    rf"|(?P<zday>{_N})\s*[号日]"
    rf"|(?P<zcount>{_N})\s*(?P<zunit>[{_MEASURE}]|房间?|人)"
    r"|(?P<zcolor>[红橙黄绿蓝紫黑白灰粉棕])色"
    r"|(?P<zsize>[大中小])(?:号|杯|码)"
    r"|(?P<zlang>西班牙|意大利|葡萄牙|[英中汉法德日韩俄])(?:文|语)"
    r"|(?P<zname>[\u4e00-\u9fff])(?P<title>医生|大夫|老师|先生|女士|小姐|经理|总监|教授|律师|师傅|主任|阿姨|叔叔)"
)
_MAY = re.compile(r"\bMay\b")
_KIND_WORDS: dict[str, frozenset[str]] = {
    "number": frozenset(EN_NUMBERS),
    "ordinal": frozenset(EN_ORDINALS),
    "weekday": frozenset(WEEKDAYS),
    "month": frozenset(MONTHS),
    "relday": frozenset(("yesterday", "today", "tonight", "tomorrow")),
    "meridiem": frozenset(("pm", "am")),
}
for _word, (_kind, _) in CATEGORIES.items():
    _KIND_WORDS[_kind] = _KIND_WORDS.get(_kind, frozenset()) | {_word}
_KNOWN_WORDS = frozenset().union(*_KIND_WORDS.values())
_ZH_KINDS = frozenset(("time", "meridiem", "weekday", "relday", "ordinal", "year", "month",
                       "number", "color", "language", "size"))  # fmt: skip
_DIGIT_KINDS = frozenset(("time", "meridiem", "ordinal", "year", "number"))
# A capitalised word that names someone or something; matched case-sensitively.
# (the capital comes first so that the scan skips other characters at once)
_NAME = re.compile(r"[A-Z](?<![\w'’][A-Z])[a-z]+(?:[-'’][A-Z]?[a-z]+)?(?![\w'’])")
# Filler a bare correction carries: "actually", "I said", "I told you", "it's", units.
_EN_FILLER_PHRASES = re.compile(
    r"\b(?:I (?:already |just |literally |clearly )?(?:said|told you|asked for|asked|meant|wanted|"
    r"need(?:ed)?|want)|it(?:'s|’s| is| was) supposed to be|it should be|should be|make it|"
    r"change it to|with (?:an?|two|double) [a-z](?:['’]?s)?|spelled|spelt|"
    r"(?:his|her|their|my|the) (?:first |last )?name(?:['’]s| is)|"
    r"(?:he|she)(?:['’]s| is) called)\b",
    re.IGNORECASE,
)
_ZH_FILLER = re.compile(
    r"我(?:刚才|刚刚|刚|之前|已经|明明|一开始|前面)?(?:就|都)?(?:说了|说过了?|讲了|讲过|提过|告诉过你|告诉你了)"
    r"|我说的是|我要的是|我指的是|其实是|应该是|不是|改成|换成|才对|是|要|订|吧|啊|呀|哦|喔|嘛|的|了|嗯|呃|额"
    r"|不对|错了|哈|人|房间?|位|其实|我|说|过|刚才|明明"
)
_OPERATORS = "&+^*/=%"  # "what's 2^32", "17% of 2340": arithmetic, not a value put right
_ZH_NEW_ITEM = re.compile(
    r"还|也|再|加|另外|多|以及|和|跟|或|可能|大概|也许|怎么样|行不行|吗|么|呢|谢|什么|怎么|为什么|几|哪"
)
# Every word a bare value can hold: fillers, the words of filler phrases, value words, labels.
_BARE_WORDS = (
    EN_FILLER_WORDS
    | _KNOWN_WORDS
    | LABELS
    | frozenset(
        split_words(
            """st nd rd th am pm o'clock o’clock already literally clearly make change should be
            supposed with two double spelled spelt needed his her their my name first last
            called"""
        )
    )
)
_QUESTION = re.compile(r"[?？]")
_SENTENCES = re.compile(r"[^.!?。！？\n]+(?:[.!?。！？\n]+|$)")
_LATIN_WORD = re.compile(r"[a-z]+(?:['’][a-z]+)?", re.IGNORECASE)
_CJK = re.compile(r"[\u3400-\u9fff]")


class _Value(NamedTuple):
    """One typed value: its kind, a comparable value, its unit (counts only) and its span."""

    kind: str
    value: object
    start: int
    end: int
    unit: str | None = None


_Add = Callable[[_Value], None]


def _cn_number(text: str) -> int | None:
    """``"三"`` → 3, ``"十五"`` → 15, ``"二十"`` → 20, ``"12"`` → 12; ``None`` if unreadable."""
    if text.isdigit():
        return int(text)
    total, digit = 0, 0
    for ch in text:
        if ch in CN_DIGITS:
            digit = CN_DIGITS[ch]
        elif ch == "十":
            total += (digit or 1) * 10
            digit = 0
        elif ch == "百":
            total += (digit or 1) * 100
            digit = 0
        else:
            return None
    return total + digit


def _clock(hour: int, minute: int) -> tuple[int, int]:
    """A 12-hour clock reading: 19:00 and 7 pm are both (7, 0); the meridiem is its own value."""
    return (hour - 12 if hour > 12 else hour, minute)


def _unit(word: str | None) -> str | None:
    """The unit after a count ("7 people" → "people"), ``None`` when the word is none."""
    if not word:
        return None
    word = word.lower()
    if word in NOT_UNITS:
        return None
    return ZH_UNITS.get(word, word.removesuffix("s"))


def _unit_before(text: str, start: int) -> str | None:
    """The noun before a number names what it counts: "floor 5", "chapter 6", "question 2"."""
    words = text[max(start - 24, 0) : start].split()
    if words and (word := words[-1].lower()) in LABELS:
        return word.removesuffix("s")
    return None


def _zh_values(text: str, add: _Add) -> None:
    """The Chinese values of ``text`` (three scans below share ``add``)."""
    for m in _ZH_TOKENS.finditer(text):
        start, end = m.span()
        g = m.group
        if (zh := g("zh")) is not None:
            hour = _cn_number(zh)
            half = g("zhalf")
            meridiem = ZH_MERIDIEM.get(text[max(start - 2, 0) : start])
            if hour is None or (hour == 1 and not (meridiem or half)):
                continue  # 一点 is "a bit" unless it reads as a time
            minute = ZH_QUARTERS.get(half or "")
            if minute is None:
                minute = (_cn_number(half.removesuffix("分")) if half else 0) or 0
            add(_Value("time", _clock(hour, minute), start, end))
            if meridiem or hour > 12:
                add(_Value("meridiem", meridiem or "p", start, end))
        elif (weekday := g("zwd")) is not None:
            week = _ZH_WEEK_SHIFT.get(g("zweek") or "", 0)  # 下周二 is no 周二
            add(_Value("weekday", ZH_WEEKDAYS[weekday] + week, start, end))
        elif (day := g("zrel")) is not None:
            add(_Value("relday", RELDAYS[day], start, end))
        elif (meridiem := g("zmer")) is not None:
            add(_Value("meridiem", ZH_MERIDIEM[meridiem], start, end))
        elif g("zord") is not None:
            if (number := _cn_number(g("zord"))) is not None:
                add(_Value("ordinal", number, start, end))
        elif g("zyear") is not None:
            add(_Value("year", int(g("zyear")), start, end))
        elif g("zmonth") is not None:
            if (number := _cn_number(g("zmonth"))) is not None and 1 <= number <= 12:
                add(_Value("month", number, start, end))
        elif g("zday") is not None:
            if (number := _cn_number(g("zday"))) is not None and 1 <= number <= 31:
                add(_Value("ordinal", number, start, end))
        elif g("zcount") is not None:
            if (number := _cn_number(g("zcount"))) is not None:
                add(_Value("number", number, start, end, _unit(g("zunit"))))
        elif (size := g("zsize")) is not None:
            add(_Value("size", _ZH_SIZES[size], start, end))
        elif (color := g("zcolor")) is not None:
            add(_Value("color", ZH_COLORS[color], start, end))
        elif (language := g("zlang")) is not None:
            add(_Value("language", ZH_LANGUAGES[language], start, end))
        elif (surname := g("zname")) is not None and surname not in ZH_NOT_SURNAMES:
            add(_Value("name:" + g("title"), surname, start, end))


def _digit_values(text: str, add: _Add, taken: list[_Value]) -> None:
    """The values of ``text`` written with digits, English style, outside the spans ``taken``."""
    for m in _DIGIT_TOKENS.finditer(text):
        start, end = m.span()
        if any(v.start <= start < v.end for v in taken):
            continue  # read as Chinese already: 15号, 9点, 2023年
        g = m.group
        if (hm := g("hm")) is not None:
            hour, minute = (int(x) for x in re.split("[:：]", hm))
            add(_Value("time", _clock(hour, minute), start, end))
            if g("hm_mer") or hour > 12:
                add(_Value("meridiem", (g("hm_mer") or "p")[0].lower(), start, end))
        elif g("h") is not None:
            add(_Value("time", _clock(int(g("h")), 0), start, end))
            add(_Value("meridiem", g("h_mer")[0].lower(), start, end))
        elif g("h_oc") is not None:
            add(_Value("time", _clock(int(g("h_oc")), 0), start, end))
        elif g("ord") is not None:
            add(_Value("ordinal", int(g("ord")), start, end))
        elif g("year") is not None:
            add(_Value("year", int(g("year")), start, end))
        else:
            num = g("num")
            value: object = float(num) if num.count(".") <= 1 else num
            unit = _unit(g("unit")) or _unit_before(text, start)
            add(_Value("number", value, start, end, unit))


@functools.cache
def _words_of(kinds: frozenset[str]) -> frozenset[str]:
    """The English words that can name a value of one of ``kinds``."""
    return frozenset(w for kind in kinds for w in _KIND_WORDS.get(kind, ()))


@functools.lru_cache(maxsize=256)
def _word_scan(words: frozenset[str]) -> re.Pattern[str]:
    """A pattern for exactly ``words`` in lowercased text: groups (word, the word after it)."""
    return re.compile(r"(?<![a-z])(" + "|".join(sorted(words)) + r")(?![a-z])(?:\s+([a-z]+))?")


_NEXT_WORD = re.compile(r"\s+([a-z]+)", re.IGNORECASE)


def _word_value(word: str, start: int, end: int, text: str, unit: str | None) -> _Value | None:
    """The value an English word names ("seven", "Thursday", "May", "pm"), if any.

    ``unit`` is the word after it; the word before counts when there is none
    ("floor five").
    """
    low = word.lower()
    if low in EN_NUMBERS:
        if text.startswith((" o'clock", " o’clock"), end):
            return _Value("time", _clock(EN_NUMBERS[low], 0), start, end + 8)
        unit = _unit(unit) or _unit_before(text, start)
        return _Value("number", float(EN_NUMBERS[low]), start, end, unit)
    if low in EN_ORDINALS:
        return _Value("ordinal", EN_ORDINALS[low], start, end)
    if low in WEEKDAYS:
        return _Value("weekday", WEEKDAYS[low], start, end)
    if low in MONTHS:
        return None if low == "may" and word != "May" else _Value("month", MONTHS[low], start, end)
    if low in RELDAYS:
        return _Value("relday", RELDAYS[low], start, end)
    if low == "pm" or word == "AM":
        return _Value("meridiem", low[0], start, end)
    if low in CATEGORIES:
        kind, value = CATEGORIES[low]
        return _Value(kind, value, start, end)
    return None


def _values(text: str, kinds: frozenset[str] | None = None) -> list[_Value]:
    """The typed values of ``text`` (a time is not also a number), with their spans.

    ``kinds=None`` reads the user's short reply for every kind. Given the kinds
    the user's reply holds, the assistant's message (which can be long) is read
    for those only, each scan skipped when a plain substring test shows it
    cannot match; and a capitalised word that opens one of its sentences is no
    name there ("Booked for…"), where in the user's reply it may be ("John,
    with an h").
    """
    assistant = kinds is not None
    found: list[_Value] = []
    add = found.append
    # Plain substring tests (a few nanoseconds) decide which scans can find anything.
    if not text.isascii() and (
        kinds is None or not kinds.isdisjoint(_ZH_KINDS) or any(k[:5] == "name:" for k in kinds)
    ):
        _zh_values(text, add)
    if (kinds is None or not kinds.isdisjoint(_DIGIT_KINDS)) and any(d in text for d in DIGITS):
        _digit_values(text, add, found[:])
    if kinds is None:
        for m in _LATIN_WORD.finditer(text):
            if m.group().lower() in _KNOWN_WORDS:
                start, end = m.span()
                after = _NEXT_WORD.match(text, end)
                unit = after.group(1) if after else None
                if (value := _word_value(m.group(), start, end, text, unit)) is not None:
                    add(value)
    else:  # only the words the assistant's text holds, each (word, word after) read once
        low = text.lower()
        if hits := frozenset(w for w in _words_of(kinds) if w in low):
            for word, unit in set(_word_scan(hits).findall(low)):
                if word == "may":
                    word = "May" if _MAY.search(text) else word
                if (value := _word_value(word, 0, 0, "", unit)) is not None:
                    add(value)
    if kinds is not None and "name" not in kinds:
        return found
    for m in _NAME.finditer(text):
        low = m.group().lower()
        if low in NOT_NAMES or low in WEEKDAYS or low in MONTHS or low in CATEGORIES:
            continue
        if assistant:
            before = text[max(m.start() - 8, 0) : m.start()].rstrip(" \t\"'“‘(")
            if not before or before[-1] in ".!?:;\n。！？":
                continue
        add(_Value("name", low, *m.span()))
    return found


def _leftover_ok(text: str, values: list[_Value]) -> bool:
    """True when ``text`` without its values is filler ("actually", "I said", "是", "吧").

    A capitalised word is a value only when it is the only one: in "Remember the
    14th" it is a word, and the turn no bare value.
    """
    names_are_words = any(v.kind != "name" for v in values)
    pieces = []
    last = 0
    for v in sorted(values, key=lambda v: v.start):
        if v.start >= last and not (names_are_words and v.kind == "name"):
            pieces.append(text[last : v.start])
            last = v.end
    pieces.append(text[last:])
    rest = " ".join(pieces)
    if _CJK.search(rest):
        rest = _ZH_FILLER.sub("", rest)
        if _CJK.search(rest):
            return False
    rest = _EN_FILLER_PHRASES.sub(" ", rest)
    return all(
        (low := w.lower()) in EN_FILLER_WORDS or low in LABELS for w in _LATIN_WORD.findall(rest)
    )


def _may_be_bare(text: str) -> bool:
    """False when ``text`` cannot be a bare value: a word that is neither a value nor filler.

    A quick test on words alone ("I'm allergic to peanuts" stops here, before
    any value is read); so are additions, hedges, thanks and a leading question
    word ("and 7 too", "maybe 7", "what's 2^32").
    """
    words = _LATIN_WORD.findall(text)
    if words and words[0].lower() in EN_ASKING:
        return False
    for word in words:
        low = word.lower()
        if low in EN_ADDING:
            return False
        if low not in _BARE_WORDS and len(low) > 1 and not word[0].isupper():
            return False
    return not any(op in text for op in _OPERATORS)


def _stated(reply: str) -> str:
    """The sentences of ``reply`` that are no question (a value asked about is not stated)."""
    reply = reply[:_MAX_ASSISTANT_CHARS]
    if not _QUESTION.search(reply):
        return reply
    return " ".join(s for s in _SENTENCES.findall(reply) if not _QUESTION.search(s))


def _spelled_alike(a: str, b: str) -> bool:
    """Two names a few edits apart ("jon" / "john", "kathryn" / "katherine").

    Up to two edits, three between names of six letters or more.
    """
    limit = 3 if min(len(a), len(b)) >= 6 else 2
    if abs(len(a) - len(b)) > limit or min(len(a), len(b)) < 3:
        return False
    previous = list(range(len(b) + 1))
    for i, ca in enumerate(a, 1):
        current = [i]
        for j, cb in enumerate(b, 1):
            current.append(min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (ca != cb)))
        previous = current
    return previous[-1] <= limit


def _replaces(user: _Value, stated: list[_Value]) -> bool:
    """True when ``user`` is another value for a slot the assistant filled (one or two values)."""
    same_kind = [v for v in stated if v.kind == user.kind]
    if user.kind == "number":
        same_kind = [v for v in same_kind if None in (v.unit, user.unit) or v.unit == user.unit]
    values = {v.value for v in same_kind}
    if not values or len(values) > _MAX_SAME_TYPE or user.value in values:
        return False
    if user.kind == "name":  # a different spelling, not any other capitalised word
        return any(_spelled_alike(str(user.value), str(v)) for v in values)
    return True


def slot_correction(text: str, reply: str) -> bool:
    """True when the short user ``text`` restates a value of ``reply``'s with another value.

    Args:
        text: the user's turn.
        reply: the assistant message it answers (``""`` when there is none).

    Example:
        >>> slot_correction("9:14, actually", "Your train is at 9:40.")
        True
        >>> slot_correction("and 9:14 too", "Your train is at 9:40.")
        False
    """
    if not reply or len(text) > MAX_REPLY_CHARS or "?" in text or "？" in text:
        return False
    if not _may_be_bare(text):
        return False
    chinese = not text.isascii() and _CJK.search(text) is not None
    if chinese and (len(text) > _MAX_CHINESE_CHARS or _ZH_NEW_ITEM.search(text)):
        return False
    user = _values(text)
    if not user or not _leftover_ok(text, user):
        return False
    kinds = frozenset(v.kind for v in user)
    stated = _values(_stated(reply), kinds)
    return bool(stated) and any(_replaces(v, stated) for v in user)
