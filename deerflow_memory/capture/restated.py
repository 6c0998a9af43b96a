"""Same frame, another value: a short statement that says a sentence of the reply again with
another complement.

"A: The Eiffel Tower is in Lyon. — U: It's in Paris.", "A: Python lists are immutable. —
U: They're mutable.", "A: The function returns a list. — U: It returns a tuple.", "A: 他是
美国人。— U: 他是加拿大人。": the user keeps the subject of one of the reply's statements (or
a pronoun for it) and its verb, and changes what follows. No correction word is needed;
the comparison is the signal (as in :mod:`deerflow_memory.capture.slots`, which compares
bare values).

:func:`restated_correction` is True when every rule holds:

- the user's turn is one short statement (at most 80 characters, 24 with Chinese; at most
  10 English words), no question, no hedge or addition ("maybe", "I think", "too",
  "also", "though", "吧", "吗", "也"), no denial ("isn't", "他不是"), and not about the user
  ("I", "my", "我");
- English: its verb (its second to fourth word) is a word of a statement of the reply
  (the reply's first 800 characters, its sentences that are no question), with the same
  subject before it (the same last word, or a pronoun: it, they, he, she, this, that);
  Chinese: "X是Y", "X在Y", "X有Y", "X叫Y" whose X (or 他/她/它) is said before the same verb
  in the reply, or "是Y" with X left out ("是李白写的"; not "是这样", "是真的": agreement);
- what follows differs, by shape: after the same preposition or article another word
  ("in Paris" / "in Lyon", "a tuple" / "a list"), another number ("about 8 km" / "10 km"),
  a word and its negation ("mutable" / "immutable by default"), one name for another
  ("Canberra" / "Sydney"), or another complement in Chinese
  ("加拿大人" / "美国人"; not one inside the other: "美国人" / "一名美国人"). Words only added
  ("opens at 9 on weekdays" after "opens at 9") or a complement of another shape ("It is
  delayed" after "Your flight is at 9") put nothing right.

Pure and bounded: it reads only short turns and the reply's first 800 characters.
"""

from __future__ import annotations

import re

__all__ = ["restated_correction"]

_MAX_CHARS = 80
_MAX_CHINESE_CHARS = 24
_MAX_WORDS = 10
_MAX_REPLY_CHARS = 800
_MAX_COMPLEMENT = 6  # words after the verb

_QUESTION = re.compile(r"[?？]")
_CJK = re.compile(r"[\u3400-\u9fff]")
_SENTENCES = re.compile(r"[^.!?。！？\n]+(?:[.!?。！？\n]+|$)")
_CONTRACTED = re.compile(r"\b(it|he|she|that|this|there)['’]s\b|\b(they|we|you)['’]re\b", re.I)
_OPENING = re.compile(r"^(?:(?:no+|nope|actually|well|um+|erm+|uh+|oh|hmm+)[,.!]*\s+)+", re.I)
_CLOSING = re.compile(r"[,\s]+(?:actually|in fact|mate|lol)\s*[.!]*\s*$", re.I)
_WORDS = re.compile(r"\$?\d+(?:[,.:]\d+)*%?|[a-z]+(?:['’-][a-z]+)*", re.I)
# A title's dot ends no sentence ("with Dr. Patel").
_TITLE_DOT = re.compile(r"\b(Dr|Mr|Mrs|Ms|Mx|St|Prof|Jr|Sr|vs|etc|approx|No)\.", re.I)
_NUMBER = re.compile(r"\$?\d")
# A hedge, an addition, a negation, the user themselves, a join of two clauses: no restatement.
_NOT_RESTATED = frozenset(
    """maybe perhaps probably possibly think guess believe suppose reckon might may also too
    though still again either else besides plus not n't never no nor isn't aren't wasn't
    weren't doesn't don't didn't won't can't cannot i me my mine we us our and but so if or
    because when should would could usually sometimes often mostly depends""".split()  # noqa: SIM905
)
_PRONOUNS = frozenset("it they he she this that these those".split())  # noqa: SIM905
# Words that open a complement of a shape: after one of them, the next word is the value.
_FRAME_WORDS = frozenset(
    """in at on a an the for to by from with about around near into onto every each per
    under over before after until""".split()  # noqa: SIM905
)
# Words that are no verb of the frame (articles, prepositions and the like).
_NOT_VERBS = _FRAME_WORDS | frozenset("of as than very just only".split())  # noqa: SIM905
_NEGATED = re.compile(r"^(?:un|in|im|il|ir|non|dis)-?")

_ZH_STATEMENT = re.compile(
    r"^(?:(?:不是|不对|其实|是)[，,]?\s*)?(?P<s>[\u4e00-\u9fffA-Za-z0-9]{1,8}?)"
    r"(?P<v>是|在|有|叫)(?P<c>[^，,。！!？?\s]{1,12}?)[。！!啊呀哦]*$"
)
# The subject left out: "是杜甫写的" after "这首诗是李白写的" (not "是这样", "是对的", "是真的":
# agreement)
_ZH_BARE_IS = re.compile(
    r"^(?:不是[，,]?\s*)?是(?!这|那|对|真|的|啊|吧|么|呀|哦|嘛)(?P<c>[^，,。！!？?\s]{1,12}?)[。！!啊呀哦]*$"
)
_ZH_NOT_RESTATED = re.compile(r"吧|吗|呢|么|也|还|可能|也许|大概|或者|别|我|你|和|跟")
_ZH_PRONOUNS = frozenset("他她它")  # (not 这/那: "这是个好办法" judges, it puts nothing right)
_ZH_COMPLEMENT_END = re.compile(r"[，,。！!？?；;\s]")


def restated_correction(text: str, reply: str) -> bool:
    """Whether the user's ``text`` says a statement of ``reply`` again with another complement.

    Args:
        text: the user's turn (one piece of it; longer turns return False at once).
        reply: the assistant's message the turn answers.

    Returns:
        True for a restatement that puts the reply right (see the module's rules).
    """
    text = text.strip()
    if not text or not reply or _QUESTION.search(text):
        return False
    if _CJK.search(text):
        return len(text) <= _MAX_CHINESE_CHARS and _zh_restated(text, reply)
    return len(text) <= _MAX_CHARS and _en_restated(text, reply)


def _statements(reply: str) -> list[str]:
    """The reply's sentences that are no question, from its first 800 characters."""
    head = _TITLE_DOT.sub(r"\1", reply[:_MAX_REPLY_CHARS])
    return [s for s in _SENTENCES.findall(head) if not _QUESTION.search(s)]


def _en_words(text: str) -> list[str]:
    """The words of ``text`` as said (contractions of "is"/"are" spelled out)."""
    expanded = _CONTRACTED.sub(lambda m: f"{m[1]} is" if m[1] else f"{m[2]} are", text)
    return [w.replace("’", "'") for w in _WORDS.findall(expanded)]


def _en_restated(text: str, reply: str) -> bool:
    said = _CLOSING.sub("", _OPENING.sub("", text)).rstrip(" .!")
    said_as = _en_words(said)
    words = [w.casefold() for w in said_as]
    if not 3 <= len(words) <= _MAX_WORDS or any(w in _NOT_RESTATED for w in words):
        return False
    for sentence in _statements(reply):
        stated_as = _en_words(sentence)
        stated = [w.casefold() for w in stated_as]
        for at in range(1, min(4, len(words) - 1)):
            verb = words[at]
            if verb in _NOT_VERBS or verb not in stated:
                continue
            there = stated.index(verb)
            if there == 0 or not _same_subject(words[:at], stated[:there]):
                continue
            if _another_complement(words[at + 1 :], stated[there + 1 :]):
                return True
            if _another_name(said_as[at + 1 :], stated_as[there + 1 :]):
                return True
    return False


def _same_subject(user: list[str], reply: list[str]) -> bool:
    """A pronoun stands for any subject; otherwise the subjects end with the same word."""
    if len(user) == 1 and user[0] in _PRONOUNS:
        return True
    return bool(reply) and user[-1] == reply[-1] and user[-1] not in _PRONOUNS


def _another_complement(user: list[str], reply: list[str]) -> bool:
    """Whether the user's complement puts the reply's right, by shape (see the module)."""
    if not user or len(user) > _MAX_COMPLEMENT or not reply:
        return False
    if set(user) <= set(reply):
        return False  # said again, or part of it
    numbers = [w for w in user if _NUMBER.match(w)]
    stated_numbers = [w for w in reply[: len(user) + 2] if _NUMBER.match(w)]
    if numbers and stated_numbers:
        return not set(numbers) & set(stated_numbers)
    if user[0] in _FRAME_WORDS and reply[0] == user[0] and len(user) > 1 and len(reply) > 1:
        pairs = list(zip(user[1:], reply[1:], strict=False))
        return any(mine != theirs for mine, theirs in pairs)
    if len(user) == 1:
        return _negation_of(user[0], reply[0]) or _negation_of(reply[0], user[0])
    return False


def _another_name(user: list[str], reply: list[str]) -> bool:
    """ "Canberra" after "Sydney", "Friday" after "Monday": one capitalised word for another."""
    return (
        len(user) == 1
        and len(reply) == 1
        and user[0][:1].isupper()
        and reply[0][:1].isupper()
        and user[0].casefold() != reply[0].casefold()
    )


def _negation_of(word: str, other: str) -> bool:
    """ "immutable" of "mutable", "unsafe" of "safe", "non-blocking" of "blocking"."""
    match = _NEGATED.match(word)
    return match is not None and len(other) > 2 and word[match.end() :] == other


def _zh_negation(stated: str, complement: str) -> bool:
    """ "可变" of "不可变" (and back): the same word, one of them negated."""
    return stated != complement and stated.lstrip("不没") == complement.lstrip("不没")


def _zh_restated(text: str, reply: str) -> bool:
    if _ZH_NOT_RESTATED.search(text):
        return False
    if (bare := _ZH_BARE_IS.match(text)) is not None:
        return _zh_another_complement("", "是", bare["c"].rstrip("的了"), reply)
    match = _ZH_STATEMENT.match(text)
    if match is None:
        return False
    subject, verb, complement = match["s"], match["v"], match["c"].rstrip("的了")
    if subject[-1] in "不没都":  # "他不是美国人": a denial, no restatement
        return False
    return _zh_another_complement(subject, verb, complement, reply)


def _zh_another_complement(subject: str, verb: str, complement: str, reply: str) -> bool:
    """Whether a statement of ``reply`` has ``verb`` after ``subject`` (any subject when it is
    "" or a pronoun) with a complement other than ``complement``."""
    if not complement:
        return False
    anyone = not subject or subject in _ZH_PRONOUNS
    for sentence in _statements(reply):
        at = sentence.find(verb)  # (each verb is one character)
        while at > 0:
            before = sentence[:at]
            said_of_it = _CJK.search(before) is not None if anyone else before.endswith(subject)
            if said_of_it:
                end = _ZH_COMPLEMENT_END.search(sentence, at + 1)
                stated = sentence[at + 1 : end.start() if end else len(sentence)].rstrip("的了")
                if stated and (
                    _zh_negation(stated, complement)
                    or (complement not in stated and stated not in complement)
                ):
                    return True
            at = sentence.find(verb, at + 1)
    return False
