"""A premise of the reply denied: the user has no thing the reply counts on.

"A: Plug in the blue cable. — U: There's no blue cable in the box.", "A: Bake it in the oven
for 20 minutes. — U: I don't have an oven.", "A: 用烤箱烤二十分钟。— U: 我家没有烤箱。": the
reply names a thing, and the user says it is not there. No correction word is needed; the
thing named in both is the signal (as in :mod:`deerflow_memory.capture.restated`).

:func:`premise_denied` is True when every rule holds:

- the user's turn is one short statement (at most 80 characters, 20 with Chinese), no
  question: "There is/are no X", "There isn't a/any X", "I don't have/own a/an/any X", "I
  have no X", "我(家)没有X", "这里没有X" (an opening "but", "well", "可是" allowed; a place or a
  time after X allowed: "…in the box", "…at home", "…anymore");
- X is a thing, not a word that answers an offer or says nothing is wrong ("no questions",
  "no problem", "no idea", "no time", "没有问题", "没有意见");
- the last word of X (its head, without a plural ending), or a name said before it, is a
  word of the reply (Chinese: X is in the reply): "There's no parking" after "The
  restaurant is on Main Street" denies nothing the reply said.

Pure and bounded: it reads only short turns and the reply's first 800 characters.
"""

from __future__ import annotations

import re

from deerflow_memory.models import with_plain_apostrophes

__all__ = ["premise_denied"]

_MAX_CHARS = 80
_MAX_CHINESE_CHARS = 20
_MAX_REPLY_CHARS = 800

_CJK = re.compile(r"[\u3400-\u9fff]")
_EN_DENIED = re.compile(
    r"^(?:(?:but|well|um+|uh+|hmm+|oh|actually|sadly|unfortunately)[,!]?\s+)*"
    r"(?:there(?:'s| is| are) no|there (?:isn't|aren't) (?:an?|any)|"
    r"I (?:don't|do not|didn't|did not) (?:have|own|get|see)(?: an?| any)?|I have no)\s+"
    r"(?P<x>[a-z][\w-]*(?: [a-z][\w-]*){0,3}?)"
    r"(?:\s+(?:in|at|on|inside|here|there|anymore|any ?more|now|either|with)\b[^.!?]*)?[.!…]*$",
    re.I,
)
_ZH_DENIED = re.compile(
    r"^(?:可是|但是?|不过)?[，,]?\s*(?:我|我们)?(?:家里?|这里|这儿|这边|手上|手边|宿舍|办公室|盒子里)?"
    r"(?:并|根本|压根)?(?:没有|没)(?P<x>[\u4e00-\u9fffA-Za-z]{1,8}?)(?:啊|呀|吧|呢|了|哦)?[。！!…]*$"
)
# What answers an offer or says nothing is wrong ("No questions", "I have no idea", "没有问题"):
# no thing of the reply's.
_EN_NO_THING = frozenset(
    """question questions problem problems idea ideas clue worries worry time plans plan
    preference preferences opinion complaint complaints issue issues doubt doubts comment
    comments need other more one thing things to much many enough anything any that this it
    them the a an""".split()  # noqa: SIM905
)
_ZH_NO_THING = re.compile(
    r"^(?:问题|意见|想法|疑问|关系|事|事情|时间|什么|别的|其他|了|办法|兴趣|必要)"
)
_EN_WORDS = re.compile(r"[a-z][a-z-]*", re.I)
_LATIN = re.compile(r"[A-Za-z]+")


def premise_denied(text: str, reply: str) -> bool:
    """Whether the user's ``text`` says a thing ``reply`` counts on is not there.

    Args:
        text: the user's turn (one piece of it; longer turns return False at once).
        reply: the assistant's message the turn answers.

    Returns:
        True for a short denial of a thing the reply named (see the module's rules).
    """
    text = text.strip()
    if not text or not reply or "?" in text or "？" in text:
        return False
    reply = reply[:_MAX_REPLY_CHARS]
    if _CJK.search(text):
        if len(text) > _MAX_CHINESE_CHARS or (m := _ZH_DENIED.match(text)) is None:
            return False
        thing = m["x"]
        if _LATIN.fullmatch(thing):  # (a name of two letters or more, a word of the reply:
            # "我没有a", "我没有en" deny nothing of "Bake it in the oven")
            return len(thing) > 1 and thing.casefold() in {
                w.casefold() for w in _EN_WORDS.findall(reply)
            }
        return _ZH_NO_THING.match(thing) is None and thing in reply
    # (a curly apostrophe, as phones type it: "There’s no oven")
    plain = with_plain_apostrophes(text.replace("’", "'"))
    if len(text) > _MAX_CHARS or (m := _EN_DENIED.match(plain)) is None:
        return False
    words = m["x"].split()
    if words[-1].casefold() in _EN_NO_THING or words[0].casefold() in _EN_NO_THING:
        return False
    # the head, or a name said before it ("There's no Privacy option" after "tap Privacy")
    named = _forms(words[-1]).union(*(_forms(w) for w in words[:-1] if w[:1].isupper()))
    return any(not named.isdisjoint(_forms(w)) for w in _EN_WORDS.findall(reply))


def _forms(word: str) -> set[str]:
    """``word`` in lower case, and without a plural ending ("buses": "buse", "bus"; "cases":
    "case", "cas"): two words name one thing when a form of each is the same."""
    word = word.casefold()
    forms = {word}
    if word.endswith("s") and not word.endswith("ss") and len(word) > 3:
        forms.add(word[:-1])
        if word.endswith("es"):
            forms.add(word[:-2])
    return forms
