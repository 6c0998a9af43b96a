"""What the user writes as a list: bulleted lines, fields answered under them, headings.

"About me:\\n- I live in Lisbon\\n- vegan", "Allergies:\\n- walnuts\\n- sesame", "My daughter:\\n
allergic to eggs": a list is read as the lines its items would be said as, under what heads
it. :func:`lists_read` rewrites a message's lines before its sentences are read:

- a bullet or a number ("- ", "* ", "• ", "1. ", "2) ") is no word of its item;
- a field of needs whose answers are the items under it ("Allergies:" then "- walnuts") is
  written on one line ("Allergies: walnuts, sesame"), as it is read when written so; one
  answer line without a bullet is taken, no more, and a field answered "none" says nothing;
- the items without a subject of their own under a heading of someone else's ("My daughter:",
  "For my husband:", "我女儿："), or after an item about them ("- My son is allergic to
  eggs"), are theirs and left out; so are the items under a heading that is no statement of
  the user's ("Make a poll with these options:", "Which of these are most common?");
- a line that holds the user as a subject ("I", "me", "本人", "我") is always the user's, and
  a blank line ends what a heading heads.

Pure functions over strings; linear in the text.
"""

from __future__ import annotations

import re

from deerflow_memory.capture.kin import KIN_EN
from deerflow_memory.update.offline.vocabulary import CJK, KIN_ZH

__all__ = ["lists_read"]

_I = re.IGNORECASE

# A bullet or an item's number that opens a line: "- ", "* ", "• ", "1. ", "2) ", "(3) ", "a) ".
_ITEM = re.compile(
    r"[^\S\n]*(?:[-*+•·‣◦▪▫●○■□➤►▸–—]|\(?\d{1,2}[.)）、]|[(（]\d{1,2}[)）]|\(?[a-h][)）])[^\S\n]+(?=\S)"
)
# A line that heads what follows: it ends in a colon or asks.
_HEADING = re.compile(r".*(?:[:：]|[?？])\s*")
# …of someone else's, named as the user's own: "My son:", "For my wife:", "My son Tom:", "我儿子：".
# Not the family the user is one of ("My family:", "我们家：", "家人："), nor a bare "Mom:" or
# "Kids:", which may be a field answered by names or a greeting ("Dear Mom:").
_SOMEONE_ELSES = re.compile(
    rf"\s*(?:(?:for|about)\s+)?(?:my|our)\s+(?:[\w-]+\s+)?(?!family\b|household\b)(?:{KIN_EN})(?:\s+[A-Z][a-z]+)?\s*[:：]\s*"
    rf"|\s*(?:给|关于)?我的?(?!家人|家里人)(?:{KIN_ZH})\s*[:：]\s*",
    _I,
)
# …or an item about them, after which the items without a subject are theirs too.
_ABOUT_SOMEONE_ELSE = re.compile(
    rf"\s*(?:my|our)\s+(?:[\w-]+\s+)?(?!family\b|household\b)(?:{KIN_EN})\b(?!\s*[:：])|\s*我的?(?!家人|家里人)(?:{KIN_ZH})(?![:：])",
    _I,
)
# …of the user's own: "Me:", "About me:", "For me:", "Self:", "本人：", "我：".
_SELF = re.compile(r".*\b(?:me|myself|self|mine)\b.*|.*(?:关于我|本人|我[:：]).*", _I)
# …of what the user tells of themselves, or of whom the heading before is about ("Things to
# remember:", "My info:", "Medical:", "健康：" — under "My son:", of him).
_ABOUT = re.compile(
    r".*\b(?:my|remember|know|note|notes|profile|info|details|intro|introduction|"
    r"health|medical|diet\w*|allerg\w*|intolerances?|restrictions?)\b.*|.*(?:个人|我的|记住|健康|饮食|过敏|忌口).*",
    _I,
)
# A line with the user as a subject is the user's wherever it stands.
_OWN = re.compile(r"\b(?:I|I'm|I've|I'd|I'll|me|myself)\b|本人|我(?!的?(?:" + KIN_ZH + "))")
# A field of needs: "Allergies:", "Food allergies:", "Dietary restrictions:", "过敏：", "忌口：".
_FIELD = re.compile(
    r"\s*(?:(?:my|food|drug|medication|known|severe|main)\s+)*(?:allerg(?:y|ies)|allergens?|intolerances?"
    r"|dietary\s+(?:restrictions?|needs?|requirements?)|diet)\s*:\s*"
    r"|\s*(?:食物|药物)?(?:过敏原?|忌口|饮食禁忌)\s*[:：]\s*",
    _I,
)
# One answer line without a bullet: short, no field or question of its own, and in Chinese no
# clause ("不吃香菜" is read as said).
_ANSWER_WORDS = 5
_NOT_AN_ANSWER = re.compile(r"[:：?？]|^(?:不|没|对|我|只|要|吃|喝)")
_NONE = re.compile(r"(?:none|n/?a|no|nothing|nope|nil|nkda|没有|无|暂无|没)[\s.!。！]*", _I)
# A statement of the user's cut at its colon, its things the items under it: "I'm allergic
# to:", "I can't eat:", "I avoid:", "我对以下食物过敏：", "我不吃："
_STATED = re.compile(
    r"\s*(?:I|I'm|I am)\b[^:：\n]{0,60}\b(?:to|of|from|eat|drink|take|avoid|have|with)\s*[:：]\s*"
    r"|\s*我[^:：\n]{0,20}(?:过敏|不耐受|不吃|不能吃|不喝|不能喝|忌口|忌)\s*[:：]\s*",
    _I,
)
_ZH_STATED_NEED = re.compile(
    r"\s*我对(?:以下|下面|这些)?的?(?:食物|东西|药物|药品|药)?(?P<need>过敏|不耐受)\s*[:：]\s*"
)
_LAST_JOINER = re.compile(r"\s+(?:and|or|&)$|[和及]$", _I)  # "- peanuts and" (the list's end)


def lists_read(text: str) -> str:
    """``text`` with its lists written as their items are said (see the module docstring).

    Lines are ``"\\n"``-separated (other line separators already made so). A text with no
    item, field or heading line is returned as it is.
    """
    lines = text.split("\n")
    if not any(_ITEM.match(line) or _HEADING.fullmatch(line) for line in lines):
        return text
    out: list[str] = []
    heads: str | None = None  # "theirs", "field", "other" or None (the user's, or nothing)
    answers: list[str] = []
    for line in lines:
        item = _ITEM.match(line)
        body = line[item.end() :] if item else line
        if heads == "field":
            if item and not _NOT_AN_ANSWER.search(body):
                answers.append(_LAST_JOINER.sub("", body.strip().rstrip(".,;，。；")))
                continue
            if not item and not answers and _single_answer(body):
                answers.append(body.strip().rstrip(".,;，。；"))
                _close_field(out, answers)
                heads = None
                continue
            _close_field(out, answers)
            heads = None
        if not line.strip():
            heads = None
            out.append(line)
            continue
        own = _OWN.search(body) is not None
        if _HEADING.fullmatch(line) and not item:
            heads = _heading(line, heads, own)
            answers = []
            out.append(line)
            continue
        if heads == "theirs" and not own and (item or _short(body)):
            continue  # their item, without a subject: theirs
        if heads == "other" and not own and item:
            continue  # an option or a label, not what the user is
        if item and _ABOUT_SOMEONE_ELSE.match(body):
            heads = "theirs"  # "- My son is allergic to eggs\n- vegetarian": his
        elif not item:
            heads = None
        out.append(body)
    if heads == "field":
        _close_field(out, answers)
    return "\n".join(out)


def _heading(line: str, heads: str | None, own: bool) -> str | None:
    """What the heading ``line`` (``own``: with the user as its subject) heads, after one that
    headed ``heads``: "theirs" (someone else's, to a heading of the user's own), "field" (a
    field of needs, or a statement of the user's cut at its colon, "I'm allergic to:"), None
    (the user's) or "other" (no statement of the user's)."""
    if own:
        return "field" if _STATED.fullmatch(line) else None
    if _SOMEONE_ELSES.fullmatch(line):
        return "theirs"
    if _SELF.fullmatch(line):
        return None
    if heads == "theirs":
        return "theirs"  # "My son:\nAllergies:\n- eggs": his
    if _FIELD.fullmatch(line):
        return "field"
    return None if _ABOUT.fullmatch(line) else "other"


def _short(text: str) -> bool:
    return len(text.split()) <= 6 and ":" not in text and "：" not in text


def _single_answer(text: str) -> bool:
    answer = text.strip()
    return (
        bool(answer) and len(answer.split()) <= _ANSWER_WORDS and not _NOT_AN_ANSWER.search(answer)
    )


def _close_field(out: list[str], answers: list[str]) -> None:
    """Write ``answers`` after the field line last written (an answer of "none": no field);
    after a statement cut at its colon ("I'm allergic to:", "我对以下食物过敏："), as its end."""
    kept = [answer for answer in answers if answer]
    if not kept:
        return
    field = out[-1].strip()
    if all(_NONE.fullmatch(answer) for answer in kept):
        out[-1] = ""
    elif (zh_need := _ZH_STATED_NEED.fullmatch(field)) is not None:
        out[-1] = f"我对{'、'.join(kept)}{zh_need['need']}"
    elif _STATED.fullmatch(field) and not CJK.search(field):
        things = ", ".join(kept[:-1]) + f" and {kept[-1]}" if len(kept) > 1 else kept[0]
        out[-1] = f"{field.rstrip(' :')} {things}"
    elif CJK.search(field):
        stated = _STATED.fullmatch(field) is not None  # "我不吃：" + 香菜: "我不吃香菜"
        out[-1] = field.rstrip(":：") + "、".join(kept) if stated else field + "，".join(kept)
    else:
        out[-1] = f"{field} {', '.join(kept)}"
    answers.clear()
