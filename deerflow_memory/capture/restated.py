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
  "also", "吧", "吗", "也"; a "though" only at its end: "They're mutable though"), no denial
  ("isn't", "他不是"), and not about the user ("I", "my", "我");
- English: its verb (its second to fourth word) is a word of a statement of the reply
  (the reply's first 800 characters, its sentences that are no question), with the same
  subject before it (the same last word, or a pronoun: it, they, he, she, this, that; an
  auxiliary both end with is left out: "It is stored" after "The backup is stored", not
  "The dog is sleeping" after "The cat is sleeping");
  Chinese: "X是Y", "X在Y", "X有Y", "X叫Y" whose X (or 他/她/它) is said before the same
  verb in the reply (not another pronoun: "她是…" after "他是…"; not the verb inside a word:
  "现在", "还是", "没有"), or "是Y" with X left out ("是李白写的"; not "是这样", "是真的":
  agreement);
- what follows differs, by shape: after the same preposition or article one phrase of the
  same length with one word changed, a name for a name ("in Paris" / "in Lyon", "a tuple" /
  "a list", "on the E drive" / "on the D drive"; not "in a lovely building" / "in the old
  town", "on sale" / "on Main Street"), another number after the same words ("about 8 km" /
  "10 km"; not "in 10 minutes" / "in room 5"), a word and its negation ("mutable" /
  "immutable by default"), one name for another ("Canberra" / "Sydney"), or in Chinese a
  value of the same kind: a shared head or place ("加拿大人" / "美国人", "城西" / "城东",
  "上海" / "北京"), a negation, one quality for another ("甜" / "辣") — not one inside the
  other ("美国人" / "一名美国人"), nor another kind of thing ("工程师" / "德国人", "装修" /
  "市中心", "个好人" / "德国人", "一只猫" / "两个孩子"). Words only added
  ("opens at 9 on weekdays" after "opens at 9") or a complement of another shape ("It is
  delayed" after "Your flight is at 9") put nothing right.

Pure and bounded: it reads only short turns and the reply's first 800 characters, and of those
only the sentences where the verb is said with a complement a rule could compare.
"""

from __future__ import annotations

import re
import unicodedata

from deerflow_memory.models import with_plain_apostrophes

__all__ = ["restated_correction"]

_MAX_CHARS = 80
_MAX_CHINESE_CHARS = 24
_MAX_WORDS = 10
_MAX_REPLY_CHARS = 800
_MAX_COMPLEMENT = 6  # words after the verb

_QUESTION = re.compile(r"[?？]")
_CJK = re.compile(r"[\u3400-\u9fff]")
# A title's dot ends no sentence ("with Dr. Patel"): a dot after one of them is read as a letter.
_TITLES = ("dr", "mr", "mrs", "ms", "mx", "st", "prof", "jr", "sr", "vs", "etc", "approx", "no")
_SENTENCES = re.compile(
    r"[^.!?。！？\n]+(?:(?:" + "|".join(rf"(?<=\b{t})" for t in _TITLES) + r")\.[^.!?。！？\n]*)*"
    r"(?:[.!?。！？\n]+|$)",
    re.I,
)
_CONTRACTED = re.compile(r"\b(it|he|she|that|this|there)['’]s\b|\b(they|we|you)['’]re\b", re.I)
_OPENING = re.compile(r"^(?:(?:no+|nope|actually|well|um+|erm+|uh+|oh|hmm+)[,.!]*\s+)+", re.I)
_CLOSING = re.compile(r"[,\s]+(?:actually|in fact|mate|lol|though)\s*[.!]*\s*$", re.I)
_WORDS = re.compile(r"\$?\d+(?:[,.:]\d+)*%?|[a-z]+(?:['’-][a-z]+)*", re.I)
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


def _statements(reply: str, spots: list[int] | None = None) -> list[str]:
    """The reply's sentences that are no question, from its first 800 characters (only those
    holding one of ``spots``, offsets in the reply, when given)."""
    head = reply[:_MAX_REPLY_CHARS]
    if spots is None:
        return [s for s in _SENTENCES.findall(head) if not _QUESTION.search(s)]
    last = max(spots, default=-1)
    found = []
    for m in _SENTENCES.finditer(head):
        if m.start() > last:
            break
        if any(m.start() <= at < m.end() for at in spots) and not _QUESTION.search(m[0]):
            found.append(m[0])
    return found


def _en_words(text: str) -> list[str]:
    """The words of ``text`` as said (contractions of "is"/"are" spelled out)."""
    expanded = (
        _CONTRACTED.sub(lambda m: f"{m[1]} is" if m[1] else f"{m[2]} are", text)
        if "'" in text or "’" in text
        else text
    )
    return [w.replace("’", "'") for w in _WORDS.findall(expanded)]


def _en_restated(text: str, reply: str) -> bool:
    # (an apostrophe typed another way, "Itʼs", "It＇s", reads as one)
    text = with_plain_apostrophes(text)
    reply = with_plain_apostrophes(reply[:_MAX_REPLY_CHARS])  # (one character for one)
    said = _CLOSING.sub("", _OPENING.sub("", text)).rstrip(" .!")
    said_as = _en_words(said)
    words = [w.casefold() for w in said_as]
    if not 3 <= len(words) <= _MAX_WORDS or any(w in _NOT_RESTATED for w in words):
        return False
    # Where the reply says one of the verbs with a complement that could be put right: only
    # those sentences are read word by word (most turns find none: a few µs on long replies).
    spots = [
        spot
        for at in range(1, min(4, len(words) - 1))
        if words[at] not in _NOT_VERBS
        for spot in _spots(words[at], words[at + 1 :], said_as[at + 1 :], reply)
    ]
    if not spots:
        return False
    for sentence in _statements(reply, spots):
        stated_as = _en_words(sentence)
        stated = [w.casefold() for w in stated_as]
        for at in range(1, min(4, len(words) - 1)):
            verb = words[at]
            if verb in _NOT_VERBS or verb not in stated:
                continue
            there = stated.index(verb)
            if there == 0 or not _same_subject(words[:at], stated[:there]):
                continue
            if _another_complement(
                words[at + 1 :], stated[there + 1 :], said_as[at + 1 :], stated_as[there + 1 :]
            ):
                return True
            if _another_name(said_as[at + 1 :], stated_as[there + 1 :]):
                return True
    return False


def _spots(verb: str, user: list[str], user_as: list[str], reply: str) -> list[int]:
    """Offsets in the reply's head where ``verb`` is said as a word followed by a complement
    that one of the rules could find put right by ``user`` (a number near it, the same frame
    word, or one word: a name or a negation). A cheap necessary condition of the rules."""
    if not user or len(user) > _MAX_COMPLEMENT:
        return []
    number = any(_NUMBER.match(w) for w in user)
    frame = user[0] in _FRAME_WORDS and len(user) > 1
    head = reply[:_MAX_REPLY_CHARS]
    low = _lower_in_place(head)
    # one word: a name for a name, or a word and its negation (the bare word is in the reply)
    negated = _NEGATED.match(user[0])
    single = len(user) == 1 and (
        user_as[0][:1].isupper() or user[0][negated.end() if negated else 0 :] in low
    )
    if not (number or frame or single):
        return []
    forms = {"is": ("is", "'s", "’s"), "are": ("are", "'re", "’re")}.get(verb, (verb,))
    found = []
    for form in forms:
        at = low.find(form)
        while at >= 0:
            end = at + len(form)
            if (form[0] in "'’" or (at > 0 and not low[at - 1].isalpha())) and (
                end == len(low) or not low[end].isalnum()
            ):
                after = _WORDS.search(head, end)
                if after is not None and (
                    (number and any(c.isdigit() for c in head[end : end + 200]))
                    or (frame and after[0].casefold() == user[0])
                    or (single and after[0][:1].isupper() and user_as[0][:1].isupper())
                    or (
                        single
                        and (
                            _negation_of(user[0], after[0].casefold())
                            or _negation_of(after[0].casefold(), user[0])
                        )
                    )
                ):
                    found.append(at)
            at = low.find(form, at + 1)
    return found


def _lower_in_place(text: str) -> str:
    """``text`` in lower case, each character where it was: a character whose lower case is
    longer ("İ" → "i̇") stays as it is, so an offset in one is the same place in the other."""
    low = text.lower()
    if len(low) == len(text):
        return low
    return "".join(lower if len(lower := char.lower()) == 1 else char for char in text)


# A subject ending with the same auxiliary on both sides is compared without it ("It is stored
# on …" after "The backup is stored on …"; not "The dog is sleeping" after "The cat is …").
_AUXILIARIES = frozenset("is are was were am be been has have had does do did will can".split())  # noqa: SIM905


def _same_subject(user: list[str], reply: list[str]) -> bool:
    """A pronoun stands for any subject; otherwise the subjects end with the same word."""
    if len(user) > 1 and reply and user[-1] == reply[-1] and user[-1] in _AUXILIARIES:
        user, reply = user[:-1], reply[:-1]
    if len(user) == 1 and user[0] in _PRONOUNS:
        return True
    return bool(reply) and user[-1] == reply[-1] and user[-1] not in _PRONOUNS


# Words before a number that only hedge it ("about 42 km" after "40 km").
_ROUGHLY = frozenset(
    "about around roughly nearly almost approximately over under only just".split()  # noqa: SIM905
)
# Prepositions and joining words end a phrase ("with Dr. Okafor | on Monday", "in the old town |
# and it is…"); articles do not.
_PHRASE_ENDS = (_FRAME_WORDS - {"a", "an", "the", "every", "each", "per"}) | frozenset(
    "of and but or so which that who where while because".split()  # noqa: SIM905
)


def _another_complement(
    user: list[str], reply: list[str], user_as: list[str], reply_as: list[str]
) -> bool:
    """Whether the user's complement puts the reply's right, by shape (see the module)."""
    if not user or len(user) > _MAX_COMPLEMENT or not reply:
        return False
    if set(user) <= set(reply):
        return False  # said again, or part of it
    numbers = [w for w in user if _NUMBER.match(w)]
    window = reply[: len(user) + 2]
    stated_numbers = [w for w in window if _NUMBER.match(w)]
    if numbers and stated_numbers:
        # the same words lead to the number ("closes at 8" / "closes at 6"; not "painted in
        # 1990" / "built in 1930", "in 10 minutes" / "in room 5")
        lead = [w for w in user[: user.index(numbers[0])] if w not in _ROUGHLY]
        stated_lead = [w for w in window[: window.index(stated_numbers[0])] if w not in _ROUGHLY]
        return lead == stated_lead and not set(numbers) & set(stated_numbers)
    if user[0] in _FRAME_WORDS and reply[0] == user[0] and len(user) > 1 and len(reply) > 1:
        # one phrase for another of its shape: the same length, one word changed, a name for
        # a name ("in Rome" / "in Naples", "on the E drive" / "on the D drive"); not another
        # kind of phrase ("in a lovely building" / "in the old town", "on sale" / "on Main
        # Street", "a joy" / "a great language")
        phrase = len(reply)
        for at in range(1, len(reply)):
            if reply[at] in _PHRASE_ENDS:
                phrase = at
                break
        if len(user) != phrase:
            return False
        changed = [at for at in range(1, phrase) if user[at] != reply[at]]
        return len(changed) == 1 and (
            user_as[changed[0]][:1].isupper() == reply_as[changed[0]][:1].isupper()
        )
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


# The verb inside a word is no verb ("现在", "正在", "还是", "但是", "没有", "所有").
_ZH_IN_A_WORD = frozenset("现正存实所但还就可总于要真只或没具拥")
# Characters two complements may share without being of one kind (a number, a measure, a degree).
_ZH_NOT_SHARED = frozenset("一二两三四五六七八九十百千万零几个位名只的了很最更太好多少些有是在不没")
# The last character of a place ("北京" / "上海", "城东" / "城西").
_ZH_PLACE_END = frozenset("京海州市省县区镇村路街楼层号站馆店城国岛山湖江港园院室东西南北")


def _zh_same_kind(stated: str, complement: str) -> bool:
    """Whether ``complement`` puts ``stated`` right by shape: one of them negated, or values
    of one kind ("奥地利人" / "德国人", "三个孩子" / "两个孩子", "城西" / "城东", "上海" /
    "北京"); not another kind of thing said ("工程师" / "德国人", "一只猫" / "两个孩子",
    "装修" / "市中心", "个好人" / "德国人")."""
    if _zh_negation(stated, complement):
        return True
    if complement.startswith(("个", "一个")) and not stated.startswith(("个", "一个")):
        return False  # "他是个好人": a description, not a value
    shared = (set(stated) & set(complement)) - _ZH_NOT_SHARED
    if shared and any(_CJK.match(c) for c in shared):
        return True
    if len(stated) == len(complement) == 1:
        return True  # one quality for another ("辣" / "甜")
    return stated[-1] in _ZH_PLACE_END and complement[-1] in _ZH_PLACE_END


def _zh_restated(text: str, reply: str) -> bool:
    text = _without_edge_symbols(text)  # "它在城西。😅"
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


def _without_edge_symbols(text: str) -> str:
    """``text`` without the emoji, symbols and spaces it opens or ends with ("它在城西😅",
    "👉是李白写的～")."""
    start, end = 0, len(text)
    while end and _a_symbol(text[end - 1]):
        end -= 1
    while start < end and _a_symbol(text[start]):
        start += 1
    return text[start:end]


def _a_symbol(char: str) -> bool:
    return unicodedata.category(char)[0] in "SZ" or char in "\u200d\ufe0f"


def _zh_another_complement(subject: str, verb: str, complement: str, reply: str) -> bool:
    """Whether a statement of ``reply`` has ``verb`` after ``subject`` (any subject when it is
    "", the same person when it is a pronoun) with a complement of the same kind other than
    ``complement`` (see :func:`_zh_same_kind`)."""
    if not complement or verb not in reply[:_MAX_REPLY_CHARS]:
        return False
    pronoun = subject in _ZH_PRONOUNS
    for sentence in _statements(reply):
        at = sentence.find(verb)  # (each verb is one character)
        while at > 0:
            before = sentence[:at]
            if before[-1] in _ZH_IN_A_WORD:
                pass
            elif pronoun and (
                before.endswith(("他们", "她们", "它们"))
                or (before[-1] in _ZH_PRONOUNS and before[-1] != subject)
            ):
                pass  # "她是护士" after "他是医生": another person
            elif (
                before.endswith(subject)
                if subject and not pronoun
                else _CJK.search(before) is not None
            ):
                end = _ZH_COMPLEMENT_END.search(sentence, at + 1)
                stated = sentence[at + 1 : end.start() if end else len(sentence)].rstrip("的了")
                if stated and (
                    _zh_negation(stated, complement)
                    or (
                        complement not in stated
                        and stated not in complement
                        and _zh_same_kind(stated, complement)
                    )
                ):
                    return True
            at = sentence.find(verb, at + 1)
    return False
