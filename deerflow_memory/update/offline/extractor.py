"""The offline extractor: rule-based memory updates when no model is configured.

:class:`OfflineExtractor` reads only the human messages of the conversation
and records what the user explicitly says about themselves, in Chinese or
English: allergies and diet, name, where they live and come from, job and
employer, family, knowledge, likes and dislikes, goals, habits, standing
instructions ("from now on…", "以后…"), and corrections ("I live in Y, not X",
"I said Y, not X", "不是X，是Y"). Every new fact has ``source_type``
``user_stated``; fact text is a third-person statement starting with "User" /
"用户" (sentences are cut up by :mod:`deerflow_memory.update.offline.text` and
matched by the rules of :mod:`deerflow_memory.update.offline.rules`).

Against the stored document it:

- skips facts already stored (casefold, whitespace-normalised, "User"/"用户"
  prefix ignored) or holding the same value in the same slot;
- supersedes single-valued slots (name, location, origin, job, employer,
  marital status, a like vs. a dislike of the same thing, favourites): the
  older fact is removed with a reason, and when the user was correcting
  ("actually…", "…, not X", "其实…") the new fact is a ``correction`` whose
  ``source_error`` is what was wrong;
- refreshes ``user.personalContext`` / ``user.workContext`` from the slot
  facts when one of those slots changed;
- gives goals and context facts that name a time frame ("next week", "this
  summer", "明年春节", a date) an ``expiresAt`` (:mod:`deerflow_memory.update.dates`).

It is pure and deterministic: no clock (the date comes with the request), no
randomness, no I/O; it never raises on odd text — what it does not understand yields no fact.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, replace
from functools import cached_property
from typing import ClassVar

from langchain_core.messages import AIMessage, HumanMessage

from deerflow_memory.arguments import expect_items
from deerflow_memory.caching import TextCache
from deerflow_memory.capture.kin import KIN_EN_OWNED, KIN_ZH
from deerflow_memory.capture.messages import message_text, strip_upload_blocks
from deerflow_memory.errors import InvalidMessagesError
from deerflow_memory.models import (
    Fact,
    FactCategory,
    FactRemoval,
    MemoryDocument,
    MemoryUpdate,
    NewFact,
    SectionUpdate,
    SourceType,
    UserUpdate,
)
from deerflow_memory.update.extraction import ExtractionRequest
from deerflow_memory.update.offline.ellipsis import (
    added_to,
    instead_of,
    me_as_well,
    me_too_alone,
    said_last,
    same_need,
    theirs,
    value_put_right,
)
from deerflow_memory.update.offline.expiry import with_time_frames
from deerflow_memory.update.offline.joined import joined_parts
from deerflow_memory.update.offline.retractions import (
    AGO_EN,
    NO_LONGER_ALONE,
    WITHDRAWAL_UNDONE,
    names_need,
    names_only,
    names_parted,
    names_retracted,
    names_whole_thing,
    need_things,
    no_target,
    reaction_or_limit,
    said_alone,
    says_need,
    things_left,
    withdrawal_of,
    without_partner,
    without_thing,
)
from deerflow_memory.update.offline.rules import (
    NOW_WORDS,
    Candidate,
    base_form,
    normalise_value,
    says_which,
    slot_of,
)
from deerflow_memory.update.offline.text import (
    candidates_from_text,
    for_a_while,
    restated,
    restated_need,
    still_the_users,
)
from deerflow_memory.update.unsafe import unsafe_to_store
from deerflow_memory.update.validate import without_invisible

__all__ = ["OfflineExtractor", "fact_key"]

_PERSONAL_SLOTS = ("name", "nickname", "surname", "location", "origin", "marital")
_WORK_SLOTS = ("job", "employer", "workplace")
_CJK = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff]")
# A detail of the task at hand, not of the user: an amount, a time, a day, "the red one".
# "It's $40, not $50" or "Tuesday, not Monday" that names no stored fact is no memory.
_PASSING_DETAIL = re.compile(
    r"^(?:(?:about |around |at |on |the )?[$€£¥]?\s?\d[\d.,:/-]*\s?(?:%|am|pm|h|hrs?|hours?"
    r"|minutes?|mins?|secs?|seconds?|days?|weeks?|months?|years?|k|usd|eur|dollars?|euros?|pounds?|bucks"
    r"|st|nd|rd|th|元|块|点|号|日|月|年|个|次|分钟|小时|天|周)?"
    r"|(?:on |this |next |last )?(?:mon|tues|wednes|thurs|fri|satur|sun)days?"
    r"|today|tomorrow|yesterday|tonight|(?:this |tomorrow |in the )?(?:morning|afternoon|evening)"
    r"|noon|midnight|(?:the )?(?:\w+ )?ones?"
    r"|(?:this|that|the other|the first|the second|the last) \w+"
    r"|(?:周|星期|礼拜)[一二三四五六日天]|今天|明天|昨天|后天|前天|上午|下午|晚上|中午"
    r"|(?:这|那|第[一二三四五六七八九十\d]+)个?)$",
    re.IGNORECASE,
)
_KEY_PREFIX = re.compile(r"^(?:(?:the\s+)?user\b|(?:该)?用户)\s*")
_KEY_EDGES = " \t\n.,;:!?。，；：！？"
_CONTRACTION_FORMS = {
    "doesn't": "does not",
    "don't": "do not",
    "isn't": "is not",
    "can't": "cannot",
    "won't": "will not",
}
_CONTRACTIONS = re.compile("|".join(re.escape(k) for k in _CONTRACTION_FORMS))


def fact_key(content: str) -> str:
    """Comparison key of a fact's text.

    Casefolded, spaces collapsed, common contractions expanded ("doesn't" →
    "does not"), a leading "User"/"The user"/"用户" and edge punctuation dropped.
    """
    text = re.sub(r"\s+", " ", content.casefold().replace("’", "'")).strip(_KEY_EDGES)
    text = _CONTRACTIONS.sub(lambda m: _CONTRACTION_FORMS[m.group()], text)
    return _KEY_PREFIX.sub("", text).strip(_KEY_EDGES)


def _contains(text: str, needle: str) -> bool:
    if _CJK.search(needle):
        return needle.casefold() in text.casefold()
    return re.search(rf"(?<!\w){re.escape(needle)}(?!\w)", text, re.IGNORECASE) is not None


_SUBJECT = re.compile(r"^\s*(?:(?:the\s+)?user\b|(?:该)?用户)\s*", re.IGNORECASE)


def _subject_end(content: str) -> int:
    """Where a fact's text starts after its subject ("User …", "用户…"); 0 without one.

    Every fact starts with "User"/"用户": matched from the start, "I'm no
    longer a user" named them all.
    """
    subject = _SUBJECT.match(content)
    return subject.end() if subject else 0


def _mentions(content: str, needle: str) -> bool:
    """Whether a fact's text names ``needle`` after its subject."""
    return _contains(content[_subject_end(content) :], needle)


def _mention_finder(needle: str) -> Callable[[str], bool]:
    """:func:`_mentions` of ``needle`` for many facts, its pattern built once.

    A correction is looked for in every fact stored and said so far: a thousand
    "I said Y, not X" in one message cost seconds when each look built its pattern.
    ASCII text is first searched for the needle's letters in any case, which the
    pattern's match needs (with ``re.IGNORECASE``, ASCII matches only ASCII there).
    """
    if _CJK.search(needle):
        return lambda content: _mentions(content, needle)
    pattern = re.compile(rf"(?<!\w){re.escape(needle)}(?!\w)", re.IGNORECASE)
    low = needle.lower() if needle.isascii() else None

    def mentions(content: str) -> bool:
        if low is not None and content.isascii() and low not in content.lower():
            return False
        return pattern.search(content[_subject_end(content) :]) is not None

    return mentions


def _substitute_mention(content: str, old: str, new: str) -> str:
    """:func:`_substitute` in a fact's text after its subject (which stays as it is)."""
    cut = _subject_end(content)
    return content[:cut] + _substitute(content[cut:], old, new)


def _substitute(text: str, old: str, new: str) -> str:
    if _CJK.search(old):
        index = text.casefold().find(old.casefold())
        return text if index < 0 else text[:index] + new + text[index + len(old) :]
    return re.sub(
        rf"(?<!\w){re.escape(old)}(?!\w)", lambda _m: new, text, count=1, flags=re.IGNORECASE
    )


@dataclass
class _Part:
    """One statement of a fact that joins several with "and" (:func:`joined_parts`)."""

    content: str
    slot: tuple[str, str] | None
    is_constraint: Callable[[Fact], bool] | None

    @cached_property
    def need(self) -> bool:
        """By its wording alone (:func:`_part_is_need`): read only for a part a change
        touches (most updates touch none)."""
        return _part_is_need(self.content, self.is_constraint)


def _parts_of(content: str, is_constraint: Callable[[Fact], bool] | None) -> tuple[_Part, ...]:
    """The statements ``content`` joins; () for a fact of one."""
    if " and " not in content:
        return ()
    return tuple(_Part(p, slot, is_constraint) for p, slot in _parts_and_slots(content))


def _compute_parts(content: str) -> tuple[tuple[str, tuple[str, str] | None], ...]:
    parts = joined_parts(content)
    return () if len(parts) == 1 else tuple((p, slot_of(p)) for p in parts)


# (a document's facts are read again on every update of it)
_parts_and_slots = TextCache(_compute_parts, max_entries=16_384, max_chars=2_000_000)


@dataclass(slots=True)
class _Stored:
    fact: Fact
    slot: tuple[str, str] | None
    parts: tuple[_Part, ...] = ()
    # the slots the fact fills (its parts' when it joins several statements), and their names
    slots: tuple[tuple[str, str], ...] = ()
    slot_names: frozenset[str] = frozenset()

    def __post_init__(self) -> None:
        if self.parts:
            self.slots = tuple(part.slot for part in self.parts if part.slot is not None)
        elif self.slot is not None:
            self.slots = (self.slot,)
        self.slot_names = frozenset(slot for slot, _ in self.slots)


class OfflineExtractor:
    """Rule-based :class:`~deerflow_memory.update.extraction.Extractor` of explicit self-statements.

    Example:
        >>> from langchain_core.messages import AIMessage, HumanMessage
        >>> from deerflow_memory.update.extraction import ExtractionRequest
        >>> from deerflow_memory.models import MemoryDocument
        >>> request = ExtractionRequest(
        ...     MemoryDocument(), [HumanMessage("I'm allergic to nuts"), AIMessage("Noted.")], "t1"
        ... )
        >>> [f.content for f in OfflineExtractor().extract(request).new_facts]
        ['User is allergic to nuts']
    """

    context_wanted: ClassVar[int] = 2
    """Already-extracted messages the updater should pass before the new ones (at least):
    the user's last message and the reply to it, so that a message that only adds to a
    need said there ("Also walnuts.", "Sorry, I meant cashews.", "Me too.") is read in a
    later update too. They are never read for facts of their own."""

    def extract(self, request: ExtractionRequest) -> MemoryUpdate:
        """Build the update for one conversation.

        Args:
            request: the filtered conversation and the current memory document;
                its ``context_messages`` are read only for what the first new
                message adds to (see :attr:`context_wanted`).

        Returns:
            New facts (``user_stated``), removals of superseded facts, and
            refreshed user-context summaries; a no-op update when the user
            stated nothing new.
        """
        candidates = self.candidates(request.messages, context=request.context_messages)
        candidates = _withdrawal_taken_back(request) + candidates
        return with_time_frames(
            _build_update(candidates, request.document, request.is_constraint), request.today
        )

    @staticmethod
    def candidates(
        messages: Sequence[object], *, context: Sequence[object] = ()
    ) -> list[Candidate]:
        """Candidate facts of the human messages, in conversation order (no memory checks).

        ``context`` holds messages already read before these: only the end of the last
        human one (:data:`_CONTEXT_CHARS`, whole sentences) is read, for what the first
        message adds to, puts right or says "me too" of; its own facts are not returned.
        Items of either that are no ``HumanMessage`` or ``AIMessage`` are skipped.

        Raises:
            InvalidMessagesError: ``messages`` or ``context`` is no sequence (``None``, a
                string, a mapping, a number).
        """
        messages = expect_items(messages, object, "messages", "message", InvalidMessagesError)
        context = expect_items(context, object, "context", "message", InvalidMessagesError)
        found: list[Candidate] = []
        said_before: tuple[str, Candidate] | None = None  # the last message and its last fact
        last_text = ""  # the last message
        if before := _last_human_text(context):
            last_text = before
            if read := candidates_from_text(before):
                said_before = (before, read[-1])
        # "What did you have for lunch?" and then "Chicken too.": an answer to the reply, not
        # to the user's message before it (only the user's own slip is put right then)
        reply = _reply_after(context)
        undo: tuple[Candidate, Candidate | None] | None = None  # a withdrawal, what it popped
        last_said: list[Candidate] = []  # what the last message said
        theirs_before: list[Candidate] = []  # what it said was someone else's
        for message in messages:
            if isinstance(message, AIMessage):
                reply = f"{reply} {message_text(message)[-_REPLY_CHARS:]}"[-2 * _REPLY_CHARS :]
            if not isinstance(message, HumanMessage):
                continue
            text = strip_upload_blocks(message_text(message))
            popped = None
            if undo is not None:
                (withdrawal, popped), undo = undo, None
                if _undoes_withdrawal(text, reply):
                    # "Not anymore." and then "Just kidding!": the need stands
                    found = [c for c in found if c is not withdrawal] + ([popped] if popped else [])
                    last_said, said_before, last_text, reply = [], None, text, ""
                    continue
            if (stops := [c for c in last_said if c.medication_stopped]) and for_a_while(text):
                # "I stopped taking warfarin." and then "Just for a week.": it is taken still
                found = [c for c in found if all(c is not s for s in stops)]
            gone = [c for c in last_said if c.retract is not None]
            if gone and _undoes_withdrawal(text, reply):
                # "I'm not vegan anymore." and then "Just kidding!": nothing is over
                found = [c for c in found if all(c is not g for g in gone)]
                last_said, said_before, last_text, reply = [], None, text, ""
                continue
            restore, theirs_before = theirs_before, []
            if restore and me_as_well(text):
                found += restore  # "…I mean my son is." and then "So am I.": the user's too
                if me_too_alone(text):
                    last_said, said_before, last_text, reply = restore, None, text, ""
                    continue
            whose = theirs(text) if (last_said or restore) and _only_acknowledges(reply) else None
            kept = still_the_users(last_said, last_text, whose) if whose is not None else None
            if whose is not None and not (whose.clause and kept == last_said):
                # "I don't have asthma anymore." and then "Sorry, I meant my mom.": what the
                # message before said is hers (a need it withdrew stands again); words in full
                # that name nothing of it are read as said ("Wait, my son is here.")
                moved: list[Candidate] = []
                if kept is not None:
                    moved = [c for c in last_said if all(c is not k for k in kept)]
                    found = [c for c in found if all(c is not s for s in last_said)] + kept
                    if popped is not None and moved:  # ("Not anymore." withdrew it)
                        found.append(popped)
                theirs_before = moved or restore  # (said twice: the first one's stays)
                last_said = candidates_from_text(whose.clause) if whose.clause else []
                found += last_said
                said_before, last_text, reply = None, text, ""
                continue
            replied = _opens_a_turn(reply)
            if (
                not _opens_a_turn(reply, me_too=True)
                and (same := same_need(text, last_text)) is not None
            ):
                # "My wife is allergic to eggs." and then "Me too.": her need, the user's too
                # (read as a message: "same" is the whole message before, which may say more
                # after the need, "My wife is allergic to eggs. Shrimp too.")
                mine = [c for c in candidates_from_text(same) if c.constraint]
                found += mine
                last_said = mine
                said_before, last_text, reply = ((same, mine[-1]) if mine else None), text, ""
                continue
            last_text = text
            # "I'm allergic to shellfish." and then "Also walnuts." ("还有开心果。"): the need
            # again, not what the words would say alone ("用户有开心果"); "Sorry, I meant
            # cashews.": the need was of cashews (of a list, which was wrong is unsaid)
            said: list[Candidate] | None = None
            if said_before is not None:
                if not replied and (more := added_to(text, *said_before)) is not None:
                    said = [more]
                elif (meant := _put_right(text, *said_before, reply)) is not None:
                    if meant[1] and found and found[-1] is said_before[1]:
                        found.pop()  # the need put right (a stored one stays: drop_wrong)
                    said = [meant[0]]
            if (
                said is None
                and said_before is not None
                and (no_longer := _no_longer(text, said_before[0], reply)) is not None
            ):
                # "I'm allergic to peanuts." and then "Actually, not anymore.": it is over
                # (not after a question of the assistant's, which "not anymore" may answer)
                over = withdrawal_of(said_before[1], no_longer)
                said = [] if over is None else [over]
                if over is not None:
                    popped = found[-1] if found and found[-1] is said_before[1] else None
                    if popped is not None:
                        found.pop()  # said in this update: no fact to store
                    undo = (over, popped)
            if said is None:
                said = candidates_from_text(text)
            found.extend(said)
            last_said = said
            said_before, reply = ((text, said[-1]) if said else None), ""
        return found


def _no_longer(text: str, said_before: str, reply: str) -> re.Match[str] | None:
    """Whether the message ``text`` says only that what the user said in the message before,
    ``said_before``, holds no more
    (:data:`~deerflow_memory.update.offline.retractions.NO_LONGER_ALONE`): that message is
    one statement (:func:`~deerflow_memory.update.offline.retractions.said_alone`) and the
    assistant's ``reply`` between them only acknowledged it (after "Do you still smoke?",
    "I remember you were training for a marathon." or "Let me know if you still run",
    "not anymore" answers the assistant)."""
    if not (said_alone(said_before) and _only_acknowledges(reply)):
        return None
    return NO_LONGER_ALONE.fullmatch(text.replace("’", "'"))


# An assistant's reply that only acknowledges what the user said: "Noted.", "Got it, I'll
# remember that!", "Thanks for letting me know.", "好的，记住了。"
_ACKNOWLEDGES = re.compile(
    r"(?:(?:ok(?:ay)?|alright|all right|sure|noted|got it|understood|i see|good to know|great|"
    r"perfect|"
    r"thanks?(?: you)?(?: for (?:telling|letting) me(?: know)?)?|of course|no problem|will do|"
    r"i(?:'ll| will) (?:remember|keep|note|make a note of)\b[^.!?]*|"
    r"i(?:'ve| have) (?:noted|saved)\b[^.!?]*|"
    r"好的?|好嘞|明白了?|知道了|了解|收到|记住了|记下了|没问题)[\s,，!！.。~]*)+",
    re.I,
)
_REPLY_SENTENCES = re.compile(r"(?<=[.!。！])\s*")


def _only_acknowledges(reply: str) -> bool:
    """Whether every sentence of the assistant's ``reply`` only acknowledges (no question, no
    topic of its own; "" when there was none)."""
    sentences = [s for s in _REPLY_SENTENCES.split(reply.strip()) if s]
    return len(sentences) <= 3 and all(_ACKNOWLEDGES.fullmatch(s) for s in sentences)


# A reply that asks for a choice without a question mark: "I'll swap the walnuts for another
# nut.", "Tell me what to use instead.", "Let me know which you'd like.", "我换成别的" ("Pecans,
# not walnuts." then answers it)
_INVITES_A_CHOICE = re.compile(
    r"\b(?:instead|replac\w*|swap\w*|substitut\w*|switch\w*|exchang\w*|something else|"
    r"another|other|alternatives?|let me know|tell me|which|choose|pick|prefer\w*|"
    r"suggest\w*|options?|choices?)\b|换|替|别的|其他|哪|还是",
    re.I,
)


def _put_right(
    text: str, said_before: str, need: Candidate, reply: str
) -> tuple[Candidate, bool] | None:
    """``need``, said last in the message before, put right by the message ``text`` ("Sorry,
    I meant pecans.", "Sorry, I meant I'm allergic to pecans."), and whether it takes its
    place; ``None`` when ``text`` puts nothing right in the user's own words. After an
    assistant's ``reply`` that only acknowledged, any correction of the thing is of the
    need ("Sorry, amoxicillin, not penicillin."); after one that says more but asks nothing
    ("Noted, no walnuts for you."), one that names the need's thing as the wrong one too
    ("Pecans, not walnuts."); after one that asks, only words of what the user said
    ("Pecans, not walnuts." answers "Walnut or pecan cookies?"). ``text`` is read as it
    would be stored ("Y\u200bork, not Leeds." puts York right: attacker 345)."""
    text = without_invisible(text)
    acknowledged = _only_acknowledges(reply)
    asks = "?" in reply or "？" in reply or _INVITES_A_CHOICE.search(reply) is not None
    meant = instead_of(text, said_before, need, next_message=not acknowledged, named=not asks)
    if meant is not None:
        return meant
    again = restated(text)
    zh = _CJK.search(text) is not None
    if again is None or not said_last(said_before, need, zh):
        # "I live in Leeds." and then "York, not Leeds.", "Sorry, I meant York."
        value = value_put_right(text, said_before, need, asked=asks)
        return None if value is None else (value, True)
    return restated_need(again, need)


# A reply that opens a turn of its own, which the next message answers rather than adds to
# the need before it: a question of who, or of someone of the user's ("Who else is coming?",
# "Should I note anything for your husband?", "你老公呢？"), of what the user ate or drank
# ("What did you have for lunch?", "你平时吃什么肉？"), or of what the user likes ("Which
# fruits do you like?", "你喜欢什么水果？"). A question for more of the same ("Any other
# allergies?", "Would you like me to remember that?", "还有其他过敏的吗？") opens none, nor does
# an acknowledgement: a wrong need is the safer error than a lost one. "Me too" also answers
# the assistant's own wish ("I hope she's okay! Anything else?", "我也很喜欢花生！").
_ASKS_ANOTHER_TURN = re.compile(
    rf"\b(?:who|whom|whose)\b[^.!?]{{0,80}}\?|\byour (?:{KIN_EN_OWNED})\b[^.!?]{{0,80}}\?"
    r"|\b(?:what|which)\b[^.!?]{0,60}\b(?:eat|eats|ate|eating|drink|drinks|drank|have for|had for|"
    r"like|love|enjoy|prefer)\b[^.!?]{0,60}\?"
    rf"|谁[^。！？?]{{0,30}}[？?]|你的?(?:{KIN_ZH})[^。！？?]{{0,30}}[？?]"
    r"|(?:吃|喝|喜欢|爱吃|爱喝)[^。！？?]{0,6}什么[^。！？?]{0,20}[？?]"
    r"|什么[^。！？?]{0,10}(?:喜欢|爱吃|爱喝)[^。！？?]{0,20}[？?]",
    re.I,
)
_MORE_OF_IT = re.compile(
    r"\b(?:any|anything|something|some|what) (?:other|else|more)\b|\bother (?:foods?|allerg)"
    r"|其他|其它|别的|还有什么",
    re.I,
)
# …and, for "Me too", a question of him or her ("Does she carry an EpiPen?") or of a liking
# ("Do you like spicy food?"), which it answers in the user's name.
_ASKS_OF_THEM = re.compile(
    r"\b(?:he|she|they|him|her|them|his|you (?:like|love|enjoy))\b[^.!?]{0,60}\?"
    r"|(?<!其)[他她][^。！？?]{0,20}[？?]",
    re.I,
)
_OWN_WISH = re.compile(
    r"\bI(?: hope| wish| can't wait|'d love| would love|'m glad| am glad| also like| also love)\b"
    r"|我希望|我也(?:很|特别)?(?:喜欢|爱)",
    re.I,
)
_REPLY_CHARS = 300


def _opens_a_turn(reply: str, *, me_too: bool = False) -> bool:
    """Whether the assistant's ``reply`` opens a turn of its own (see
    :data:`_ASKS_ANOTHER_TURN`; with ``me_too``, :data:`_ASKS_OF_THEM` and :data:`_OWN_WISH`
    too). Only its last :data:`_REPLY_CHARS` are read, with bounded patterns."""
    end = reply[-_REPLY_CHARS:]
    more = _MORE_OF_IT.search(end) is not None
    if not more and _ASKS_ANOTHER_TURN.search(end):
        return True
    if not me_too:
        return False
    return (not more and _ASKS_OF_THEM.search(end) is not None) or bool(_OWN_WISH.search(end))


def _reply_after(messages: Sequence[object]) -> str:
    """The assistant's replies after the last human message of ``messages``, joined."""
    replies: list[str] = []
    for message in reversed(messages):
        if isinstance(message, HumanMessage):
            break
        if isinstance(message, AIMessage):
            replies.append(message_text(message)[-_REPLY_CHARS:])
    return " ".join(reversed(replies))


# Characters of an already-read message read again for what the next one adds to.
_CONTEXT_CHARS = 400
_SENTENCE_END = re.compile(r"[.!?。！？\n]+\s*")


def _last_human_text(messages: Sequence[object]) -> str:
    """The end of the last human message of ``messages``: its whole sentences within the last
    :data:`_CONTEXT_CHARS` characters ("" when there is none: a cut sentence could say what
    its start did not, as "…my son is allergic to eggs" cut to "is allergic to eggs")."""
    for message in reversed(messages):
        if isinstance(message, HumanMessage):
            text = strip_upload_blocks(message_text(message)).strip()
            if len(text) <= _CONTEXT_CHARS:
                return text
            end = _SENTENCE_END.search(text, len(text) - _CONTEXT_CHARS)
            return text[end.end() :] if end is not None else ""
    return ""


# A kind of place worked in, said with no change ("User works in an office", "…in a
# warehouse near Leeds"): it says what the employer named is like, not that it changed
# (attacker 343: "I work for Tesco. I work in a warehouse." lost Tesco). Said as a change
# ("…in a care home now") it replaces the employer as any workplace does.
_KIND_OF_PLACE = re.compile(r"\b(?:works|is working) (?:in|at) an? ")
_CHANGED = re.compile(r"\b(?:now|these days|currently|anymore|any more)\b", re.I)


def _a_kind_of_place(content: str) -> bool:
    """Whether ``content`` says only the kind of place the user works in (see above)."""
    return _KIND_OF_PLACE.search(content) is not None and _CHANGED.search(content) is None


def _kinds_beside_names(candidates: list[Candidate]) -> list[Candidate]:
    """``candidates`` with a kind of place worked in said after an employer named (in
    this update) kept beside it, out of the employer slot: "I work at Barclays. I work in
    an office." keeps both (:func:`_latest_per_slot` kept only the office)."""
    kept: list[Candidate] = []
    named = False  # (an employer named before: a kind said first is replaced as before)
    for c in candidates:
        if c.slot == "employer" and not c.remnant:
            if not _a_kind_of_place(c.content):
                named = True
            elif named:
                c = replace(c, slot=None, value=None)
        kept.append(c)
    return kept


def _latest_per_slot(candidates: Iterable[Candidate]) -> list[Candidate]:
    """Keep, for each single-valued slot, only the last statement of the conversation."""
    return _last_of_each(candidates, lambda c: c.slot)


# Statements of one conversation before their repeats are dropped (a message says a few
# dozen at most: below this, the order they were first said stays as it is).
_COMPACT_FROM = 64


def _last_of_each(
    candidates: Iterable[Candidate], key: Callable[[Candidate], object] = repr
) -> list[Candidate]:
    """``candidates`` in order, each dropped when a later one has its ``key`` (None: kept).

    The default key is the whole statement (a dataclass's ``repr`` holds every field).
    """
    seen: set[object] = set()
    last: list[Candidate] = []
    for candidate in reversed(list(candidates)):
        mark = key(candidate)
        if mark is not None:
            if mark in seen:
                continue
            seen.add(mark)
        last.append(candidate)
    last.reverse()
    return last


def _resolve_replacement(
    candidate: Candidate,
    new: list[Candidate],
    stored: list[_Stored],
    removals: dict[str, str],
    is_constraint: Callable[[Fact], bool] | None = None,
) -> None:
    """ "I said Y, not X": rewrite facts (new or stored) that mention X, else record it as said.

    A stored need (an allergy, a diet) is never rewritten: "Not milk, oat milk please" is an
    order, "Not peanuts, almonds" may answer a recipe, and "both, actually" may follow; the
    clarification is stored as said, and a need goes only when the user says it is over.
    """
    assert candidate.replace is not None
    right, wrong = candidate.replace
    if no_target(wrong) or no_target(right):  # "I said admin, not user": no fact is named
        return
    if unsafe_to_store(right) or unsafe_to_store(wrong):  # "I said <card number>, not Berlin"
        return
    hit = False
    mentions = _mention_finder(wrong)
    for earlier in new:
        # not a clarification of the same words said before ("…cashews, not peanuts" twice)
        if earlier.source_error != wrong and mentions(earlier.content):
            earlier.source_error = earlier.content
            earlier.content = _substitute_mention(earlier.content, wrong, right)
            earlier.category, earlier.confidence = FactCategory.CORRECTION, 0.95
            if earlier.slot is not None and earlier.value is not None:
                earlier.value = normalise_value(right)
            hit = True
    for item in stored:
        # the mention first: the need test is the dearer one (2,000 facts x 1,500 corrections)
        if item.fact.id in removals or not mentions(item.fact.content):
            continue
        if _is_need(item.fact, is_constraint):
            continue  # a need stays; the clarification below says what was meant
        content = _substitute_mention(item.fact.content, wrong, right)
        removals[item.fact.id] = f"corrected by the user: {right}, not {wrong}"
        slot = slot_of(content)
        new.append(
            Candidate(
                content,
                FactCategory.CORRECTION,
                0.95,
                slot[0] if slot else None,
                slot[1] if slot else None,
                source_error=item.fact.content,
            )
        )
        hit = True
    if not hit and not _passing(right, wrong, stored):
        zh = _CJK.search(right + wrong) is not None
        content = (
            f"用户更正：是{right}，不是{wrong}" if zh else f"User clarified: {right}, not {wrong}"
        )
        new.append(Candidate(content, FactCategory.CORRECTION, 0.9, source_error=wrong))


def _passing(right: str, wrong: str, stored: list[_Stored]) -> bool:
    """A detail of the task put right ("$40, not $50"), unless a stored fact holds the
    wrong value ("the 12th, not the 21st" of a birthday on March 21, "Tuesday, not
    Monday" of dialysis on Mondays)."""
    if not (_PASSING_DETAIL.match(right) and _PASSING_DETAIL.match(wrong)):
        return False
    said = [rf"(?<!\d){n}(?!\d)" for n in re.findall(r"\d+", wrong)]
    said += [re.escape(w) for w in re.findall(r"[a-z]{4,}|[\u4e00-\u9fff]{2,}", wrong.casefold())]
    said = [w for w in said if w not in _NOT_A_VALUE_WORD]
    return not any(re.search(w, item.fact.content, re.I) for w in said for item in stored)


# Words of a detail that name no value of their own ("the other one", "that file").
_NOT_A_VALUE_WORD = frozenset({"other", "first", "second", "last", "this", "that", "ones"})


def _build_update(
    candidates: list[Candidate],
    document: MemoryDocument,
    is_constraint: Callable[[Fact], bool] | None = None,
) -> MemoryUpdate:
    stored = [
        _Stored(f, slot_of(f.content), _parts_of(f.content, is_constraint)) for f in document.facts
    ]
    removals: dict[str, str] = {}

    # A message that repeats its corrections thousands of times is read in linear time,
    # not by checking each against all the others (attacker 55: 2,000 "我不是对花生过敏，
    # 是对芝麻过敏。" took 2.5 s, alternating with a second one 5 s):
    # - the same statement right after itself changes nothing (each step is idempotent);
    # - a retraction withdraws stored facts once (removals only grow in this loop);
    # - the statements so far lose their repeats, the last of each kept, as they double.
    new: list[Candidate] = []
    said_before: Candidate | None = None
    withdrawn_from_stored: set[tuple[object, ...]] = set()
    compact_at = _COMPACT_FROM
    for candidate in candidates:
        if candidate == said_before:
            continue
        said_before = replace(candidate)  # a copy: the steps below may change candidate
        if candidate.replace is not None:
            _resolve_replacement(candidate, new, stored, removals, is_constraint)
        elif candidate.retract is not None or candidate.retract_slots:
            what = (
                candidate.retract,
                candidate.retract_slots,
                candidate.wrong_value is None,
                candidate.parting,  # (a parting names its facts its own way: names_parted)
            )
            done = what in withdrawn_from_stored
            withdrawn_from_stored.add(what)
            new = _retract(candidate, new, [] if done else stored, removals, is_constraint)
            if candidate.content:  # "I'm not a lawyer, I'm a paralegal": the new truth stands
                new.append(candidate)
        else:
            new.append(candidate)
        if len(new) > compact_at:
            new = _last_of_each(new)
            compact_at = 2 * len(new) + _COMPACT_FROM
    # what is left of a stored fact gives way to what this update says of its slot ("I moved to
    # York. I quit my job." when "User works at a bank and lives in Leeds" is stored)
    said_slots = {c.slot for c in new if c.slot is not None and not c.remnant}
    new = _kinds_beside_names([c for c in new if not (c.remnant and c.slot in said_slots)])
    new = _latest_per_slot(new)

    kept: dict[str, Candidate] = {}  # by fact_key, in the order they were said
    # Stored facts by text: one said again after a correction removed it stays.
    facts_by_id = {fact.id: fact for fact in document.facts}
    stored_by_key: dict[str, list[str]] = {}
    stored_by_head: dict[str, list[str]] = {}  # "User likes jazz, not blues" under "…jazz"
    for fact in document.facts:
        stored_by_key.setdefault(fact_key(fact.content), []).append(fact.id)
        if (head := _without_contrast(fact.content)) != fact.content:
            stored_by_head.setdefault(fact_key(head), []).append(fact.id)

    def drop_wrong(candidate: Candidate) -> None:
        """Drop the statement ``candidate`` corrects: said earlier here, or stored.

        Not a need's (an allergy, a diet): "…not peanuts, it's sesame" and then "both,
        actually" or "peanuts as well" keep the peanuts, and no rule reads every way to
        say so; a need goes only when the user says it is over ("no longer allergic to…").
        """
        if not candidate.source_error or candidate.constraint:
            return
        wrong = fact_key(candidate.source_error)
        # ...with the contrast it was said with: "I like jazz, not blues", then "Actually
        # I like blues, not jazz" corrects "User likes jazz, not blues"
        for fact_id in (*stored_by_key.get(wrong, ()), *stored_by_head.get(wrong, ())):
            if fact_id not in removals and not _is_need(facts_by_id[fact_id], is_constraint):
                removals[fact_id] = f"corrected by the user: {candidate.content}"
        for key in [k for k, c in kept.items() if fact_key(_without_contrast(c.content)) == wrong]:
            if not kept[key].constraint:
                del kept[key]

    holders: dict[str, list[_Stored]] = {}  # the stored facts filling each slot
    for item in stored:
        for name in item.slot_names:
            holders.setdefault(name, []).append(item)

    def slot_filled(slot: str, but: _Stored | None = None) -> bool:
        """Whether a stored fact still standing (other than ``but``) fills ``slot``."""
        # (the last first: facts of a slot go in stored order, so one standing is found at
        # once, not after all those gone: 10,000 joined facts of one slot took 5.7 s)
        return any(
            s is not but and s.fact.id not in removals for s in reversed(holders.get(slot, ()))
        )

    def keep_the_rest(item: _Stored, gone: Iterable[_Part]) -> None:
        """The statements of the joined ``item`` other than ``gone`` stand on their own, but
        for one of a slot this update says or another stored fact fills."""
        for part in item.parts:
            key = fact_key(part.content)
            if part in gone or key in kept or key in stored_by_key:
                continue
            if part.slot is not None and (
                part.slot[0] in said_slots or slot_filled(part.slot[0], item)
            ):
                continue
            kept[key] = _standing(item.fact, part.content, part.need)

    for candidate in new:
        # First, before it supersedes anything: whichever rule wrote it (a correction
        # rewrites content after the clause was checked), no secret is stored.
        if any(unsafe_to_store(t) for t in (candidate.content, candidate.wrong_value) if t):
            continue
        key = fact_key(candidate.content)
        if _NOW_AT_END.sub("", key) in stored_by_key and key not in stored_by_key:
            continue  # "I'm vegan now" when "User is vegan" is stored: already known
        if key in stored_by_key:
            for fact_id in stored_by_key[key]:  # said again after a correction: it stays
                if removals.get(fact_id, "").startswith(_REPLACED):
                    del removals[fact_id]
            if candidate.wrong_value is not None:  # "…walnuts, not almonds": almonds go
                _mark_correction(candidate, [])
                drop_wrong(candidate)
            continue
        if key in kept:
            continue
        for denied in _denials_of(candidate.content):  # "I eat pork now": "…does not eat pork"
            for fact_id in stored_by_key.get(fact_key(denied), ()):
                removals.setdefault(
                    fact_id, f"superseded by a newer user statement: {candidate.content}"
                )
        if (ended := _habit_ended(candidate.content)) is not None:
            for item in stored:  # "I quit drinking coffee": "…drinks coffee every morning"
                if item.fact.id in removals:
                    continue
                reason = f"superseded by a newer user statement: {candidate.content}"
                if item.parts:  # "…drinks coffee every morning and takes insulin"
                    gone = [p for p in item.parts if ended.search(p.content)]
                    if gone and not any(p.need for p in gone):
                        removals[item.fact.id] = reason
                        keep_the_rest(item, gone)
                elif ended.search(item.fact.content) and not _is_need(item.fact, is_constraint):
                    removals[item.fact.id] = reason
        superseded: list[Fact] = []
        if candidate.slot is not None:
            same_slot = [
                s for s in stored if candidate.slot in s.slot_names and s.fact.id not in removals
            ]
            if candidate.remnant and same_slot:
                continue  # (what is left of a fact supersedes none)
            same = [s for s in same_slot if (candidate.slot, candidate.value) in s.slots]
            if same and not (candidate.slot.startswith("taste:") and says_which(candidate.content)):
                continue  # same value in other words: already known
            for s in same_slot:  # (the same taste with other examples stands beside it)
                if s in same or (
                    _a_kind_of_place(candidate.content) and not _a_kind_of_place(s.fact.content)
                ):
                    continue  # ("User works at Barclays" stands beside "…in an office")
                removals[s.fact.id] = f"superseded by a newer user statement: {candidate.content}"
                if not s.parts:
                    superseded.append(s.fact)
                    continue
                # "User is single and allergic to penicillin", then "I got married": the
                # allergy stands, a fact of its own
                gone = [p for p in s.parts if p.slot is not None and p.slot[0] == candidate.slot]
                superseded += [s.fact.model_copy(update={"content": p.content}) for p in gone]
                keep_the_rest(s, gone)
        _mark_correction(candidate, superseded)
        drop_wrong(candidate)
        kept[key] = candidate

    facts = [
        NewFact(
            content=candidate.content,
            category=candidate.category,
            confidence=candidate.confidence,
            source_type=SourceType.USER_STATED,
            source_error=candidate.source_error,
            constraint=candidate.constraint,
        )
        for candidate in kept.values()
    ]
    return MemoryUpdate(
        user=_user_update(document, stored, removals, list(kept.values())),
        new_facts=tuple(facts),
        facts_to_remove=tuple(FactRemoval(id=i, reason=r) for i, r in removals.items()),
    )


_NOW_AT_END = re.compile(rf" {NOW_WORDS}$")
# A habit said to hold now: "User eats pork now", "User drinks again".
_HOLDS_NOW = re.compile(
    rf"^User (?P<verb>[a-z]+s)(?P<obj>(?: [\w'-]+){{0,4}}?)"
    rf" (?:again(?: {NOW_WORDS})?|{NOW_WORDS})$",
    re.I,
)
# …or said as begun again: "User started eating pork again" ("eating" → "eats")
_BEGUN_AGAIN = re.compile(
    r"^User (?:has )?(?:started|begun|began|is) (?P<verb>eating|drinking|smoking|vaping)"
    rf"(?P<obj>(?: [\w'-]+){{0,4}}?) again(?: {NOW_WORDS})?$",
    re.I,
)


def _denials_of(content: str) -> tuple[str, ...]:
    """The stored wordings that ``content``, a habit said to hold now, takes back.

    "User can eat gluten again" takes back nothing: the condition or limit it was said with
    ("after the surgery", "but only baked") is gone from the fact, and a need stays unless
    the user says it is over (attacker 267).
    """
    m = _BEGUN_AGAIN.match(content) or _HOLDS_NOW.match(content)
    if m is None:
        return ()
    verb, obj = _PRESENT.get(m["verb"].casefold(), m["verb"]), m["obj"]
    base = base_form(verb)
    # …and the habit said given up: "User gave up meat", "User quit smoking"
    given_up = obj if obj else " " + (base[:-1] if base.endswith("e") else base) + "ing"
    return (
        f"User does not {base}{obj}",
        f"User never {verb}{obj}",
        f"User no longer {verb}{obj}",
        *(f"User {done}{given_up}" for done in ("gave up", "has given up", "quit", "cut out")),
    )


# A habit of eating or drinking something that the user has given up ("User quit drinking
# coffee last year", "User has stopped eating red meat"): what it ends is the same habit said
# in the present ("User drinks coffee every morning", "User usually has red meat on Sundays").
_ENDED = re.compile(
    r"^User (?:(?:has )?(?:stopped|quit|given up|gave up|cut out) |no longer )"
    r"(?P<verb>eating|drinking|eats|drinks) "
    rf"(?P<obj>[\w' -]{{2,40}}?){AGO_EN}$",
    re.I,
)
_PRESENT = {
    "eating": "eats",
    "drinking": "drinks",
    "smoking": "smokes",
    "vaping": "vapes",
    "eats": "eats",
    "drinks": "drinks",
}
# Words between the verb and the thing in a habit ("drinks two cups of coffee", "has iced tea").
_AMOUNT = (
    r"(?: (?:an?|some|\d+|one|two|three|four|five|a few|several|lots of|a lot of"
    r"|(?:cups?|glass(?:es)?|mugs?|shots?|pints?|bowls?) of|black|iced|hot|strong|fresh"
    r"|fried|grilled))*"
)
# How often a habit comes ("every morning", "twice a week").
_HOW_OFTEN = r"every|each|daily|weekly|a day|a week|twice|once"
# After the thing, only when, how often, where or with what: a noun would make it another
# thing ("a coffee shop", "milk tea", "fish as pets", "two coffee machines"), and "and"
# another habit the user keeps ("coffee and tea every morning").
_NOT_THE_THING = (
    rf"(?=[.!]?$|,|\s+(?:{_HOW_OFTEN}|\d+|most|before|after|at|in|on|with|for|when|during|instead"
    r"|now|again|too|regularly|sometimes|often)\b)"
)
# "Has" is a habit only with a meal or how often ("has two espressos a day", not "has fish in
# the pond").
_AS_A_MEAL = (
    rf"(?=\s+(?:{_HOW_OFTEN}|for (?:breakfast|lunch|dinner|supper|dessert)|with (?:meals|breakfast"
    r"|lunch|dinner)|at (?:breakfast|lunch|dinner|night)|on (?:\w+days|weekends))\b)"
)


def _habit_ended(content: str) -> re.Pattern[str] | None:
    """Stored wordings of the habit ``content`` says was given up, or None (see _ENDED)."""
    m = _ENDED.match(content)
    if m is None:
        return None
    verbs = _PRESENT[m["verb"].casefold()]
    obj = re.escape(m["obj"]).replace("\\ ", r"\s+")
    # (not a habit said with another: "…coffee in the morning and tea at night")
    alone = r"^(?!.*\band\b)User (?:\w+ly |often |always |still )*"
    return re.compile(
        rf"{alone}(?:(?:{verbs}){_AMOUNT} {obj}{_NOT_THE_THING}|has{_AMOUNT} {obj}{_AS_A_MEAL})",
        re.I,
    )


def _retract(
    retraction: Candidate,
    new: list[Candidate],
    stored: list[_Stored],
    removals: dict[str, str],
    is_constraint: Callable[[Fact], bool] | None = None,
) -> list[Candidate]:
    """ "I'm no longer X": stored facts and earlier statements about X are withdrawn.

    About X: all of X's content words are in the fact
    (:func:`~deerflow_memory.update.offline.retractions.names_retracted`), so
    "forget the Paris trip" withdraws the trip and keeps "Was born in Paris".
    So are those filling one of :attr:`Candidate.retract_slots` ("I quit my job":
    the employer). X is looked for after a fact's subject ("User"/"用户"), and
    an X naming nothing ("user", "用户", stop words) withdraws nothing. A
    constraint (allergy, diet, medical or accessibility need) goes only when X
    names it (:func:`~deerflow_memory.update.offline.retractions.names_need`):
    "allergic to peanuts" withdraws the peanut allergy, "allergic" alone or
    "gloves" for an allergy to latex gloves none, and no slot withdraws one.
    Returns the earlier candidates of this conversation that still stand.
    """
    retracted = retraction.retract or ""
    named = not no_target(retracted)
    slots = set(retraction.retract_slots)
    # a need of several things withdraws each said alone too ("no longer allergic to
    # peanuts and walnuts": "User is allergic to walnuts")
    each = (retracted, *need_things(retracted))

    def withdrawn(content: str, slot: str | None, constraint: bool) -> bool:
        return any(withdrawn_by(what, content, slot, constraint) for what in each)

    named_in: dict[tuple[str, str], bool] = {}  # names_retracted, once a fact (and part)

    def names(said: str, what: str) -> bool:
        if (known := named_in.get((said, what))) is None:
            named_as = names_parted if retraction.parting else names_retracted
            known = named_in[said, what] = named_as(said, what)
        return known

    def withdrawn_by(what: str, content: str, slot: str | None, constraint: bool) -> bool:
        said = content[_subject_end(content) :]
        if (
            not named
            or not names(said, what)
            or (retraction.retract_present and not _only_a_tie(said, what))
        ):
            return slot in slots and not constraint
        if (
            (constraint or retraction.medication_stopped)
            and not retraction.retract_said
            and reaction_or_limit(said)
            and not reaction_or_limit(what)
        ):
            return False  # "I stopped taking penicillin" keeps "allergic to penicillin"
        if retraction.retract_whole and not names_only(
            said, what, any_reason=retraction.retract_any_reason
        ):
            return False  # "I'm vegan now" keeps "User works at a vegetarian cafe"
        if constraint:  # a need goes only when named: "no longer allergic to peanuts"
            # …and not by a correction ("我不是对花生过敏，是对芝麻过敏"): see drop_wrong
            return retraction.wrong_value is None and names_need(what, said)
        return True

    reason = _retraction_reason(retracted)

    def left_of(content: str) -> list[str] | None:
        # What a need of several things still says, one fact per thing, when some of them
        # are withdrawn, each named whole ("no longer allergic to trees" keeps "…tree nuts").
        return things_left(
            content, lambda one: withdrawn(one, None, True) and names_whole_thing(retracted, one)
        )

    def parts_left(content: str, parts: Sequence[_Part], need: bool) -> list[_Part]:
        # The statements of a joined fact that stand when others of it are withdrawn ("User
        # works at a hospital and has asthma", then "I switched jobs": "User has asthma");
        # [] when none is or all are, or when the need it says is said by no part alone.
        if not any(p.slot is not None and p.slot[0] in slots for p in parts) and not (
            named and any(names(content[_subject_end(content) :], w) for w in each)
        ):
            return []  # (no part is named, nor fills a slot withdrawn: the quick answer)
        if need and not any(part.need for part in parts):
            return []
        left = [p for p in parts if not withdrawn(p.content, p.slot[0] if p.slot else None, p.need)]
        return left if 0 < len(left) < len(parts) else []

    def _left_beside(content: str, *, joined: bool) -> str | None:
        if retraction.parting:
            return without_partner(content)
        # (a list of things of one verb, not statements joined: "works at a bank and lives…")
        return without_thing(content, retracted) if named and not joined else None

    still: list[Candidate] = []  # what is left of the stored facts withdrawn in part
    for item in stored:
        slot = item.slot[0] if item.slot else None
        if item.fact.id in removals:
            continue
        need = _is_need(item.fact, is_constraint)
        if item.parts and (split := parts_left(item.fact.content, item.parts, need)):
            removals[item.fact.id] = reason
            still += [_standing(item.fact, p.content, p.need) for p in split]
        elif withdrawn(item.fact.content, slot, need):
            removals[item.fact.id] = reason
            # what the fact says beside what is withdrawn stays: "User lives in Oslo with their
            # girlfriend Anna", then "We broke up"; "User plays tennis and chess", then "I don't
            # play tennis anymore"
            if (rest := _left_beside(item.fact.content, joined=bool(item.parts))) is not None:
                still.append(_standing(item.fact, rest, need))
        elif need and (left := left_of(item.fact.content)) is not None:
            removals[item.fact.id] = reason
            fact = item.fact
            still += [
                Candidate(one, fact.category, fact.confidence, constraint=True) for one in left
            ]
    standing: list[Candidate] = []
    for candidate in new:
        parts = _parts_of(candidate.content, is_constraint)
        if parts and (split := parts_left(candidate.content, parts, candidate.constraint)):
            # "I'm pregnant and take insulin. I had the baby yesterday."
            standing += [_standing(candidate, p.content, p.need, remnant=False) for p in split]
            continue
        if withdrawn(candidate.content, candidate.slot, candidate.constraint):
            if retraction.parting and (rest := without_partner(candidate.content)) is not None:
                standing.append(_standing(candidate, rest, candidate.constraint, remnant=False))
            continue
        if candidate.constraint and (left := left_of(candidate.content)) is not None:
            standing += [replace(candidate, content=one, value=None) for one in left]
        else:
            standing.append(candidate)
    return standing + still


def _retraction_reason(retracted: str) -> str:
    """The removal reason of a fact withdrawn by "no longer ``retracted``". The user's words
    stand in it, unless they hold a secret or an instruction: the fact still goes, under a
    reason that does not repeat them."""
    if unsafe_to_store(retracted):
        return "retracted by the user"
    return f"retracted by the user: no longer {retracted}"


def _undoes_withdrawal(text: str, reply: str) -> bool:
    """Whether ``text`` takes back a withdrawal just said ("Just kidding 😂"), read as it
    would be stored: a zero-width space, a NUL or a bidi mark in it ("jk\u200b xD") hides
    nothing (attacker 345). After an assistant's ``reply`` that asks something, a "yes" or
    an "I wish" answers it ("Do you still avoid dairy?" "Yes."), taking nothing back."""
    text = without_invisible(text)
    if WITHDRAWAL_UNDONE.fullmatch(text) is None:
        return False
    if not (_ASKS_SOMETHING.search(reply) and _AN_ANSWER.match(text)):
        return True
    if (again := _SAID_AGAIN.search(text)) is None:
        return False  # a bare "yes" answers the question
    # "Yes I am" answers an "Are you…?", "Yes I do" a "Do you…?", "Yes, I'm still vegan" a
    # question of what is still so ("Do you still avoid dairy?"); after another question
    # ("Anything else?", "You're not vegan anymore?") it says the need again
    if again["still"] or again["s"]:
        return _ASKS_STILL.search(reply) is None
    return (_ASKS_ARE if again["am"] else _ASKS_DO).search(reply) is None


_ASKS_SOMETHING = re.compile(r"[?？]|吗")
_SAID_AGAIN = re.compile(
    r"\bI\s+(?P<s>still\s+)?(?:(?P<am>am)|do)\b|\b(?P<still>I'm\s+still|still\s+am)\b", re.I
)
_ASKS_ARE = re.compile(r"\b(?:are|aren't)\s+you\b|\byou(?:'re|\s+are)\b[^.!?]*\?", re.I)
_ASKS_STILL = re.compile(r"\bstill\b", re.I)
_ASKS_DO = re.compile(r"\b(?:do|does|did|don't|didn't)\s+you\b", re.I)
_AN_ANSWER = re.compile(
    r"[\s(（—–-]*(?:(?:lol|haha|wait|oh|ok(?:ay)?)[,!.，]?\s*)*(?:yes|yeah|yep|I\s+wish|if\s+only)\b",
    re.I,
)


def _withdrawal_taken_back(request: ExtractionRequest) -> list[Candidate]:
    """The facts the user's message before this update withdrew, when this update's first
    message takes that back: "I'm not vegan anymore." saved, then "Just kidding!"; "I
    stopped taking warfarin." saved, then "Only for a week." (a stop only). They come back
    from the document's superseded facts, as statements of this update; within one update
    :meth:`OfflineExtractor.candidates` does the same."""
    first = next((m for m in request.messages if isinstance(m, HumanMessage)), None)
    if first is None or not request.document.superseded_facts:
        return []
    text = strip_upload_blocks(message_text(first))
    undone = _undoes_withdrawal(text, _reply_after(request.context_messages))
    if not undone and not (for_a_while(text) and _says_a_while_only(text)):
        return []  # (the message before is read only then)
    before = _last_human_text(request.context_messages)
    gone = [c for c in candidates_from_text(before) if c.retract is not None] if before else []
    if not undone:
        gone = [c for c in gone if c.medication_stopped]
    reasons = {_retraction_reason(c.retract or "") for c in gone}
    # only what the last save removed, when it is that withdrawal's: a stop that found nothing
    # to remove puts nothing back, not an older removal of the same reason (attacker 340:
    # "Just kidding!" brought back a job and a town months old, over the current ones)
    when = request.document.last_updated
    back: list[Candidate] = []
    for fact in request.document.superseded_facts:
        if fact.superseded_at != when or fact.reason not in reasons:
            continue
        # a joined fact comes back as its statements: those that stood on are known, the
        # others are put back ("User takes warfarin and works at a bank", "I stopped taking
        # warfarin" kept the job: put back whole, it was dropped as known, with the warfarin)
        if not (parts := _parts_of(fact.content, request.is_constraint)):
            back.append(_standing(fact, fact.content, fact.constraint, remnant=False))
            continue
        back += [_standing(fact, p.content, p.need, remnant=False) for p in parts]
    return back


_OPENING_SENTENCE = re.compile(r"[^.!?。！？\n]*[.!?。！？]?")


def _says_a_while_only(message: str) -> bool:
    """Whether the first sentence of ``message``, the first of an update, answers the stop
    said before it ("Just for a week.", "Only until my surgery.", "下周恢复。"): no question,
    no statement of its own. A new update may open with anything: "Next week I start at
    Tesco.", "I've been on holiday for two weeks.", "Before we go on, what can I cook?",
    "我下个月要去体检。" put back the medication stopped the update before (48223d0)."""
    first = _OPENING_SENTENCE.match(message.lstrip())
    said = first[0].strip() if first else ""
    return not said.endswith(("?", "？")) and not candidates_from_text(said)


# Words that go with a tie and name nothing more ("in", "at", "the", "of", "now").
_TIE_WORDS = re.compile(
    r"\b(?:in|at|for|of|with|the|a|an|now|currently|still|there|here|out)\b|[在的了]"
)


# What ties the user to a place, employer or group now: what leaving it ends ("lives in
# Leeds", "works at Acme", "sings in the choir"; not "was born in Leeds", "supports Leeds").
_TIES_NOW = re.compile(
    r"\b(?:lives?|living|resides?|based|works?|working|employed|stud(?:y|ies|ying)|attends?"
    r"|member|goes to|plays?|sings?|is (?:in|at|on|with|part of)|belongs?|volunteers?|teaches"
    r"|trains?|rents?|stays?)\b|住|工作|上班|生活|读|上学|成员|会员|加入",
    re.I,
)


def _only_a_tie(said: str, what: str) -> bool:
    """Whether ``said`` only ties the user to ``what`` now ("lives in Leeds", "works at Acme");
    a fact that says more ("is vegan and lives in Leeds", "…with their two kids") stays."""
    if not _TIES_NOW.search(said):
        return False
    rest = _TIES_NOW.sub(" ", said.casefold())
    for word in re.findall(r"\w+", what.casefold()):  # (Chinese has no word boundaries)
        rest = (
            rest.replace(word, " ")
            if _CJK.search(word)
            else re.sub(rf"\b{re.escape(word)}\b", " ", rest)
        )
    return not re.search(r"[^\W\d_]{3,}|[\u4e00-\u9fff]", _TIE_WORDS.sub(" ", rest))


# Reasons of removals that a later restatement undoes (a retraction's stays).
_REPLACED = ("corrected by the user", "superseded by a newer user statement")


# The contrast a statement keeps when it corrects nothing ("User likes tea, not coffee":
# text._correction writes it)
_CONTRAST = re.compile(r"(?:, not |，不是)[^,，]+$")


def _without_contrast(content: str) -> str:
    return _CONTRAST.sub("", content)


def _part_is_need(part: str, is_constraint: Callable[[Fact], bool] | None) -> bool:
    """:func:`_is_need` of one statement of a joined fact, read by its wording alone."""
    if says_need(part):
        return True
    return is_constraint is not None and is_constraint(_A_PART.model_copy(update={"content": part}))


_A_PART = Fact(id="part", content="part")  # (copied, not validated, for each joined stored fact)


def _standing(
    source: Fact | Candidate, content: str, constraint: bool, *, remnant: bool = True
) -> Candidate:
    """A statement of ``source`` (a joined fact's part, a fact put back) as a candidate:
    a ``remnant`` when it is what is left of a stored fact (see :attr:`Candidate.remnant`)."""
    slot = slot_of(content)
    return Candidate(
        content,
        source.category,
        source.confidence,
        slot[0] if slot else None,
        slot[1] if slot else None,
        constraint=constraint,
        remnant=remnant,
    )


def _is_need(fact: Fact, is_constraint: Callable[[Fact], bool] | None) -> bool:
    """A stored fact's constraint test: its flag, a need word, or the updater's own test."""
    return (
        fact.constraint
        or says_need(fact.content)
        or (is_constraint is not None and is_constraint(fact))
    )


def _mark_correction(candidate: Candidate, superseded: list[Fact]) -> None:
    """Turn a candidate into a ``correction`` when the user was correcting something."""
    if candidate.wrong_value is not None:
        candidate.category, candidate.confidence = FactCategory.CORRECTION, 0.95
        wrong = normalise_value(candidate.wrong_value)
        matching = [
            f for f in superseded if (slot := slot_of(f.content)) is not None and slot[1] == wrong
        ]
        if matching:
            candidate.source_error = matching[0].content
        elif candidate.value and _contains(candidate.content, candidate.value):
            # "I live in Berlin, not Munich" → the wrong statement "User lives in Munich".
            candidate.source_error = _substitute_value(
                candidate.content, candidate.value, candidate.wrong_value
            )
        elif (thing := _slot_object(candidate.slot)) and _contains(candidate.content, thing):
            # "I like blues, not jazz" (slot taste:blues) → "User likes jazz"
            candidate.source_error = _substitute_value(
                candidate.content, thing, candidate.wrong_value
            )
        else:
            candidate.source_error = candidate.wrong_value
    elif candidate.marker and superseded:
        candidate.category, candidate.confidence = FactCategory.CORRECTION, 0.95
        candidate.source_error = superseded[0].content


def _slot_object(slot: str | None) -> str:
    """What a per-object slot is about ("taste:blues" → "blues"); "" for other slots."""
    return slot.partition(":")[2] if slot else ""


def _substitute_value(content: str, value: str, wrong: str) -> str:
    index = content.casefold().rfind(value.casefold())
    if index < 0:
        return wrong
    before = content[:index]
    first, _, rest = wrong.partition(" ")
    if rest and before.casefold().endswith(f" {first.casefold()} "):  # "…from " + "from London"
        wrong = rest
    return before + wrong + content[index + len(value) :]


def _user_update(
    document: MemoryDocument, stored: list[_Stored], removals: dict[str, str], kept: list[Candidate]
) -> UserUpdate:
    """Refresh personal/work context when a name, location, job… fact changed or went."""
    changed = {c.slot for c in kept if c.slot is not None}
    # (a fact of the section withdrawn: "Work: User works at a bakery." outlived it)
    changed.update(name for s in stored if s.fact.id in removals for name in s.slot_names)
    # Slot → fact text; stored facts first so that this conversation's statements win.
    by_slot: dict[str, str] = {}
    for s in stored:
        if s.slot is not None and s.fact.id not in removals:
            by_slot.setdefault(s.slot[0], s.fact.content)
    for c in kept:
        if c.slot is not None:
            by_slot[c.slot] = c.content
    by_slot_gone: dict[str, str] = {}
    for s in stored:
        if s.slot is not None and s.fact.id in removals and not s.parts:
            by_slot_gone.setdefault(s.slot[0], s.fact.content)

    def section(slots: tuple[str, ...], current: str) -> SectionUpdate | None:
        if not changed.intersection(slots):
            return None
        summary = " ".join(_sentence(by_slot[s]) for s in slots if s in by_slot)
        if not summary:  # its facts all withdrawn: what the user said instead ("…changed jobs")
            ended = [c.content for c in kept if c.content and set(c.retract_slots) & set(slots)]
            summary = " ".join(_sentence(content) for content in ended)
        if not summary:  # …or that they hold no longer ("User no longer works at a bakery.")
            gone = [by_slot_gone[s] for s in slots if s in by_slot_gone]
            summary = " ".join(_sentence(_held_no_longer(content)) for content in gone)
        if not summary or summary == current:
            return None
        return SectionUpdate(summary=summary, should_update=True)

    return UserUpdate(
        personal_context=section(_PERSONAL_SLOTS, document.user.personal_context.summary),
        work_context=section(_WORK_SLOTS, document.user.work_context.summary),
    )


# How a fact of a slot says what the user is or does: "User works at…", "User is…", "用户在…"
_EN_SLOT_VERB = re.compile(r"^User (?:(?P<is>is|'s) |(?P<verb>[a-z]+s) )", re.I)


def _held_no_longer(content: str) -> str:
    """A slot's fact said to hold no longer: "User works at Acme" → "User no longer works at
    Acme", "User is a nurse" → "User is no longer a nurse", "用户在北京工作" → "用户已不再在北京
    工作"; as it is when it reads otherwise."""
    if content.startswith("用户"):
        return f"用户已不再{content[2:]}"
    m = _EN_SLOT_VERB.match(content)
    if m is None:
        return content
    if m["is"]:
        return f"User is no longer {content[m.end() :]}"
    return f"User no longer {content[5:]}"


def _sentence(text: str) -> str:
    text = text.strip()
    if text.endswith((".", "。", "!", "！")):
        return text
    return text + ("。" if _CJK.search(text) else ".")
