"""Which facts are constraints: needs every answer must respect, whatever the request.

A constraint is an allergy or intolerance, a diet, a medical condition or
medication, or an accessibility need. Extractors mark them when they write a
fact (``Fact.constraint``); :func:`is_constraint` also recognises unmarked
ones by wording (Chinese and English), so a DeerFlow file, an older document
or a model that forgot the mark still gets "is allergic to peanuts" injected on
every turn. Injection gives constraints their own token budget in both modes
(:mod:`deerflow_memory.inject.format`, :mod:`deerflow_memory.inject.retrieval`).

The other guaranteed facts are those of the ``guaranteed_categories``:
:func:`guaranteed_members` reads that setting once for both injection modes.

A false constraint costs a line of the constraint budget on every turn; a
missed one is only a fact ranked like any other, but it is an allergy the
agent may forget. So a need's word is set aside only where its clause plainly
shows it naming a topic of work or study (the need the object of "studies",
"teaches", "a thesis on"), a thing ("wheelchair basketball") or a set phrase
("不吃亏"); a need said beside a job ("a teacher, using a wheelchair") still
counts. A need that is over ("used to be vegan", "outgrew her egg allergy",
"小时候哮喘，后来好了") or only supposed ("might try keto", "wonders whether she
has ADHD", "thinks food allergies are overdiagnosed", 担心自己可能) is set aside
too (:mod:`deerflow_memory.inject.need_state`), as is a need that news,
fiction, charity or a business is about ("a film about a deaf pianist",
"runs a vegan cafe", 开了一家素食餐厅).
A need of someone the user cares for ("Her son has a peanut allergy", "老公有痛风")
counts: the assistant plans meals, trips and purchases for them too.
``python bench/constraints.py`` prints precision and recall on
labelled tables. A text that is not a ``str`` (None,
bytes, a number) is a caller's slip, not "no constraint": it raises
:class:`~deerflow_memory.errors.InvalidFactError`, as
:func:`~deerflow_memory.update.validate.check_fact_text` does for the same
input; nothing else raises.
"""

from __future__ import annotations

import re
from bisect import bisect_left, bisect_right
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from functools import lru_cache

from deerflow_memory.caching import TextCache
from deerflow_memory.errors import ConfigError, InvalidFactError
from deerflow_memory.inject.need_state import (
    CHINESE_STATE,
    ENGLISH_STATE,
    ClauseState,
    StateReading,
)
from deerflow_memory.inject.need_words import EN_NEEDS, ZH_NEEDS
from deerflow_memory.models import Fact, FactCategory

__all__ = ["guaranteed_members", "is_constraint", "looks_like_constraint"]


# --- a need's word that names no need of the user's --------------------------------------
#
# The need's words (need_words.py) also name topics of work, study and everyday
# speech: "studies medicine", "designs wheelchair ramps", "a blind date",
# "药物研发", "英语听力", "不吃亏". A match is set aside when its clause shows
# such a use; the fact is a constraint when any match is left. A clause ends at
# sentence or clause punctuation and at words that start another ("and", "who",
# "while", 但是), so "works as a nurse, allergic to latex" keeps its need; a
# comma before an "-ing" word goes on with the same clause ("works as a
# pharmacist, advising on medications"). Each text is read in one pass: clause
# bounds, cues and verbs are found once, so the cost grows with the text, not
# with its square.

_EN_CLAUSE_END = re.compile(
    r"[.;:!?()]|,(?!\s*\w+ing\b)|\b(?:and|but|so|who|while|although|though|yet|whereas)\b",
    re.IGNORECASE,
)
# Work, study or writing about a subject: its needs are the subject, not the user's,
# when the need follows the cue closely (within _CUE_REACH characters).
_EN_TOPIC_CUE = re.compile(
    r"\b(?:stud(?:y|ies|ying)|research(?:es|ing|ers?)?|teach(?:es|ing)?|lectures?|"
    r"translat(?:es|ing)|design(?:s|ing)|build(?:s|ing)|sell(?:s|ing)|maintain(?:s|ing)|"
    r"review(?:s|ed|ing)?|organi[sz](?:es|ing|ed)|coach(?:es|ing)|"
    r"volunteers?|advis(?:es|ing)|writ(?:es|ing)|wrote|thesis|paper|article|"
    r"podcast|professor|nurse|pharmacist|physician|technician|interpreter|"
    r"treat(?:s|ing)|train(?:s|ing|ers?)|documentar(?:y|ies)|news|novels?|blog|"
    r"(?:works?|working|worked) (?:as|at|in|for)|(?:learning|reading|talks?|talking) about|"
    # news, fiction, charity and business: a need they are about is no one's here
    r"stor(?:y|ies)|films?|movies?|characters?|hero(?:es|ine)?|protagonists?|radio|heard|"
    r"donat(?:es|ed|ing|ions?)|charit(?:y|ies)|fundrais\w*|runs|owns|owned|makes|making|"
    r"produc(?:es|ed|ing)|manufactur\w*|factor(?:y|ies))\b",
    re.IGNORECASE,
)
_CUE_REACH = 48
# English: the need must be the cue's object. Between them: no preposition
# but these links, and at most one other word unless a link of topic ends the
# gap ("a thesis on diabetes", "software for dialysis machines", "advising
# customers on medications"); "teaches from a wheelchair",
# "studies at home as a wheelchair user" name no topic. "With" after people
# is a topic link too ("treating patients with lupus", "teaches kids with ADHD").
_EN_OBJECT_LINKS = frozenset({"on", "about", "of", "into", "a", "an", "the"})
_EN_TOPIC_LINKS = frozenset({"on", "about", "of", "into", "for"})
_EN_NOT_OBJECT = frozenset(
    {"from", "as", "at", "in", "by", "to", "with", "during", "after", "before", "while"}
)
_EN_PEOPLE = (
    "patients",
    "people",
    "children",
    "kids",
    "clients",
    "students",
    "pupils",
    "adults",
    "families",
    "those",
    "users",
    "customers",
    "athletes",
    "women",
    "men",
    "seniors",
    "boy",
    "girl",
    "man",
    "woman",
    "character",
    "hero",
    "heroine",
)


def _english_object(gap: str) -> bool:
    """Whether the words between a cue and a need leave the need the cue's object."""
    words = gap.lower().replace(",", " ").split()
    words = [
        "of" if w == "with" and i and words[i - 1] in _EN_PEOPLE else w for i, w in enumerate(words)
    ]
    others = [w for w in words if w not in _EN_OBJECT_LINKS]
    if any(w in _EN_NOT_OBJECT for w in others):
        return False
    if len(others) <= 1:
        return True
    last = [w for w in words if w not in ("a", "an", "the")][-1:]
    return bool(last) and last[0] in _EN_TOPIC_LINKS


# Said between the cue and the need, these make it the user's again ("studies at
# night because medication makes her drowsy", "manages her diabetes"); "with"
# after people names theirs ("children with autism").
_EN_OWN_NEED = re.compile(
    r"\b(?:because|since|due to|despite|being|"
    + "".join(rf"(?<!\b{people} )" for people in _EN_PEOPLE)
    + r"with|takes|taking|has|have|had|needs|using|"
    r"following|managing|living|wearing|needing|relying|having|requiring|"
    r"uses|relies|wears|avoids|cannot|can't|must|her|his|their|my|own|herself|himself|"
    r"themselves|myself)\b",
    re.IGNORECASE,
)
# Said of a person, never of a topic: these words are the user's need wherever
# they stand; so is "a/an ... allergy" ("a nurse with a severe peanut allergy").
_EN_PERSONAL = re.compile(
    r"allergic|intolerant|anaphylactic|co?eliac|diabetic|epileptic|asthmatic", re.IGNORECASE
)
# An animal said to have the need ("the dog has a wheat allergy", "my cat is
# diabetic"): the pet's, not the user's, unless an own word follows ("the dog
# waits while she uses her wheelchair").
_EN_PET = re.compile(
    r"\b(?:dogs?|cats?|pupp(?:y|ies)|kittens?|horses?|pets?|parrots?|rabbits?|hamsters?|"
    # a character of fiction has the need, not the user ("a film whose hero is deaf")
    r"hero(?:ine)?|characters?|protagonists?|narrator)"
    r"(?:'s)?\s+(?:has|have|had|is|are|was|gets|got|needs|takes|can't|cannot|must|suffers)\b",
    re.IGNORECASE,
)
_EN_HAS_ONE = re.compile(r"\b(?:an?)\s+(?:[\w-]+\s+){0,2}$", re.IGNORECASE)
_EN_HELD_NOUN = re.compile(r"allerg|intoleran", re.IGNORECASE)
# "on insulin", "on crutches": a person on a treatment or an aid, whatever job comes before.
_EN_ON_TREATMENT = re.compile(r"(?:insulin|blood thinners?|dialysis|crutches)$", re.IGNORECASE)
# A need's word before one of these (next, or with one more modifier between)
# names a thing, not a need ("wheelchair basketball", "asthma ward", "blind
# date", "seizure first-aid workshop"), unless a verb of need comes first in the
# clause ("needs large print menus"); "allergic to dates" is no modifier.
_EN_NOT_A_NEED_HEAD = re.compile(
    r"(?:-|\s+)(?:(?!(?:to|of|in|on|at|for|from|with|by|and|or|the|a|an)\b)\w+(?:-\w+){0,2}\s+)?"
    r"(?:research|researchers?|study|studies|trials?|wards?|clinics?|departments?|"
    r"industry|devices?|compan(?:y|ies)|firms?|startups?|features?|apps?|software|platforms?|"
    r"support|teams?|basketball|rugby|tennis|ramps?|certification|paperwork|datasets?|"
    r"leaflets?|labels?|chefs?|prevalence|prevention|epidemiology|awareness|charity|"
    r"fundraisers?|courses?|class(?:es)?|schools?|degrees?|exams?|conferences?|journals?|"
    r"papers?|articles?|blogs?|documentar(?:y|ies)|spot|dates?|eye|tasting|workshops?|"
    r"repairs?|maintenance|rentals?|shops?|stores?|manufacturers?|makers?|trainers?|"
    r"characters?|heroe?s?|heroines?|protagonists?|detectives?|units?|rotas?|pric(?:e|es|ing)|"
    r"training)\b",
    re.IGNORECASE,
)
# Diet rules worded as a verb or a refusal ("avoids dairy products", "no meat
# dishes") say what the user does, whatever noun follows.
_EN_VERBAL = re.compile(
    r"(?:does|do|never|can|cannot|won't|will|must|mustn't|no|stopped|gave|avoid|abstain|cut|"
    r"only|aversion|stay|unable|sensitiv)",
    re.IGNORECASE,
)
_EN_NEED_VERB = re.compile(
    r"\b(?:needs|requires|relies on|uses|using|wears|depends on|must have|only eats|"
    r"eats only|cannot|can't)\b",
    re.IGNORECASE,
)
# Chinese: set phrases that hold a need's characters but mean something else
# are read as plain text; clauses end at punctuation and at 但是, 而且 and the like.
_ZH_NOT_A_NEED = re.compile(
    r"不吃亏|不吃这一?套|装聋作哑|大字报|拐杖糖|中风(?:味|格|景|光|采|险)|素(?:包子|饺子|馅)|"
    r"(?:英语|英文|日语|法语|德语|韩语|外语|托福|雅思|四级|六级)听力|"
    r"听力(?:练习|考试|测试|题|课|材料|部分|训练)"
)
_ZH_CLAUSE_END = re.compile(
    r"[，。；：！？、,;:!?（）()]|但是|但|可是|不过|而且|并且|然而|却|同时|时(?!间)|期间"
)
# 为, 给 and 教 only where they mean "for" and "teach": not 因为 "because", 为了
# "in order to", 给自己 "for oneself", 宗教/佛教 "religion".
_ZH_TOPIC_CUE = re.compile(
    r"研究(?![生员所])|研发|从事|学的是|负责|关于|科普|(?<![宗佛兰督道主回])教(?![会堂徒])|"
    r"给(?!自己|我)|(?<![因作认成以])为(?!了)|(?<!买)卖|销售|"
    # news, fiction, charity and business
    r"小说|故事|电影|新闻|报道|主角|角色|志愿|慈善|捐|开了?一?家|工厂|生产|制造|经营"
)
_ZH_OWN_NEED = re.compile(r"自己|本人|对|我(?!们)|她|他(?!们|人)|有|要|必须")
# 过敏 and 不耐受 after 对 ("对花生过敏") are the user's, whatever comes before.
_ZH_PERSONAL = re.compile(r"过敏|不耐受")
_ZH_NOT_A_NEED_HEAD = re.compile(
    r".{0,6}?(?:研发|化学|研究|医院|门诊|公司|药企|企业|学校|试验|设计|系统|标注|篮球|"
    r"专家|专业|科普|流行病|教育|行业|产品|儿童|翻译|讲师|教练|风格|训练|"
    r"机构|出版|图书馆|网站|测试|质检|店|外企|工厂)"
)
# 主角, 主人公, 角色: a character of fiction, like a pet, has the need, not the user
_ZH_PET = re.compile(
    r"(?:狗狗?|猫咪?|宠物|兔子|鹦鹉|仓鼠|主角|主人公|角色)"
    r"(?:对|有|得了|患有|是|也)"
)
_ZH_NEED_VERB = re.compile(r"(?:有|患有|患|得了|戴|坐|用|需要|要)$")


class _Clause:
    """One clause of a text: its bounds and where its cues and verbs are (found once)."""

    __slots__ = ("cue_ends", "end", "need_verbs", "other_ends", "own", "start", "state")

    def __init__(
        self, text: str, start: int, end: int, reading: _Reading, state: StateReading | None
    ) -> None:
        self.start = start
        self.end = end
        self.cue_ends = [m.end() for m in reading.cue.finditer(text, start, end)]
        self.own = [m.start() for m in reading.own.finditer(text, start, end)]
        verbs = reading.need_verb_anywhere
        self.need_verbs = [m.start() for m in verbs.finditer(text, start, end)] if verbs else []
        self.other_ends = [m.end() for m in reading.pet.finditer(text, start, end)]
        self.state: ClauseState | None = state.clause(text, start, end) if state else None


@dataclass(frozen=True, slots=True)
class _Reading:
    """The context rules of one language (see the comment above)."""

    clause_end: re.Pattern[str]
    cue: re.Pattern[str]  # a topic of work or study before the need
    own: re.Pattern[str]  # between cue and need: the need is the user's again
    personal: re.Pattern[str]  # need words said only of a person
    head: re.Pattern[str]  # after the need: a thing it modifies
    verbal: re.Pattern[str] | None = None  # needs worded as a verb: never modifiers
    need_verb_anywhere: re.Pattern[str] | None = None  # earlier in the clause: no modifier
    need_verb_just_before: re.Pattern[str] | None = None  # right before: no modifier
    personal_with_own: bool = False  # personal words count only after an ``own`` word
    held: tuple[re.Pattern[str], re.Pattern[str]] | None = None  # a need noun, "a/an ..." before
    object_of_cue: Callable[[str], bool] | None = None  # the words between cue and need allow it
    on_treatment: re.Pattern[str] | None = None  # "on <this>" right before: the user's
    pet: re.Pattern[str] = re.compile(r"(?!)")  # an animal that has the need, not the user
    state: StateReading | None = None  # a need over or only supposed (need_state.py)

    def any_need(self, text: str, needs: re.Pattern[str]) -> bool:
        """True when some match of ``needs`` in ``text`` is the user's need."""
        bounds: list[int] | None = None
        clauses: dict[int, _Clause] = {}
        state: StateReading | None = None  # read only in a text holding a cue word of its
        for match in needs.finditer(text):
            if bounds is None:  # clause starts, found at the first match only
                bounds = [0, *(m.end() for m in self.clause_end.finditer(text))]
                if self.state is not None and self.state.in_text(text):
                    state = self.state
            index = bisect_right(bounds, match.start()) - 1
            clause = clauses.get(index)
            if clause is None:
                end = bounds[index + 1] if index + 1 < len(bounds) else len(text)
                clause = clauses[index] = _Clause(text, bounds[index], end, self, state)
            if self._is_need(text, match, clause):
                return True
        return False

    def _is_need(self, text: str, match: re.Match[str], clause: _Clause) -> bool:
        start = match.start()
        state = clause.state
        if state is not None and (state.is_over(text, match) or state.is_supposed(text, match)):
            return False
        if self._names_a_thing(text, match, clause):
            return False
        pet = bisect_right(clause.other_ends, start) - 1
        if pet >= 0 and not self._own_between(clause, clause.other_ends[pet], start):
            return False  # "the dog has a wheat allergy", "猫对鱼过敏"
        if self.personal.match(match.group()) and (
            not self.personal_with_own or self._own_between(clause, clause.start, start)
        ):
            return True
        if (
            self.held is not None
            and self.held[0].match(match.group())
            and self.held[1].search(text, max(clause.start, start - 40), start)
        ):
            return True  # "a severe peanut allergy": someone has it
        if (
            self.on_treatment is not None
            and self.on_treatment.match(match.group())
            and text[max(clause.start, start - 3) : start].lower() == "on "
        ):
            return True
        cue = bisect_right(clause.cue_ends, start) - 1
        if cue < 0:
            return True
        cue_end = clause.cue_ends[cue]
        if start - cue_end > _CUE_REACH:
            return True
        if self.object_of_cue is not None and not self.object_of_cue(text[cue_end:start]):
            return True
        # an own word may open the need itself ("following a halal diet", "uses a walker")
        return self._own_between(clause, cue_end, start + 1)

    def _names_a_thing(self, text: str, match: re.Match[str], clause: _Clause) -> bool:
        if self.head.match(text, match.end(), clause.end) is None:
            return False
        if self.verbal is not None and self.verbal.match(match.group()):
            return False
        if clause.need_verbs and clause.need_verbs[0] < match.start():
            return False
        just_before = self.need_verb_just_before  # a verb of at most 2 characters, then the need
        if just_before is None:
            return True
        return just_before.search(text, max(clause.start, match.start() - 2), match.start()) is None

    @staticmethod
    def _own_between(clause: _Clause, low: int, high: int) -> bool:
        at = bisect_left(clause.own, low)
        return at < len(clause.own) and clause.own[at] < high


_ENGLISH = _Reading(
    _EN_CLAUSE_END,
    _EN_TOPIC_CUE,
    _EN_OWN_NEED,
    _EN_PERSONAL,
    _EN_NOT_A_NEED_HEAD,
    verbal=_EN_VERBAL,
    need_verb_anywhere=_EN_NEED_VERB,
    held=(_EN_HELD_NOUN, _EN_HAS_ONE),
    object_of_cue=_english_object,
    on_treatment=_EN_ON_TREATMENT,
    pet=_EN_PET,
    state=ENGLISH_STATE,
)
_CHINESE = _Reading(
    _ZH_CLAUSE_END,
    _ZH_TOPIC_CUE,
    _ZH_OWN_NEED,
    _ZH_PERSONAL,
    _ZH_NOT_A_NEED_HEAD,
    need_verb_just_before=_ZH_NEED_VERB,
    personal_with_own=True,
    pet=_ZH_PET,
    state=CHINESE_STATE,
)


def _looks_like_constraint(text: str) -> bool:
    """True when ``text`` names an allergy, diet, medical or accessibility need.

    Each need's word found counts unless its clause shows it names a topic of
    work, study or speech rather than the user's need (see the rules above).

    Args:
        text: a fact's content, in Chinese or English.

    Returns:
        Whether the wording rules recognise a constraint.

    Raises:
        InvalidFactError: ``text`` is not a ``str``.

    Example:
        >>> looks_like_constraint("Stays away from dairy; lactose makes them ill")
        True
        >>> looks_like_constraint("Likes jazz")
        False
        >>> looks_like_constraint("Designs wheelchair ramps for public buildings")
        False
    """
    if not isinstance(text, str):
        raise InvalidFactError(f"a fact must be text, got {type(text).__name__}")
    if _ENGLISH.any_need(text, EN_NEEDS):
        return True
    if ZH_NEEDS.search(text) is None:  # every set phrase holds a need's characters
        return False
    return _CHINESE.any_need(_ZH_NOT_A_NEED.sub("，", text), ZH_NEEDS)


# Bounded by characters too: 65,536 texts of 500 characters kept ~70 MB of keys.
looks_like_constraint = TextCache(_looks_like_constraint, max_entries=65_536, max_chars=2_000_000)


def is_constraint(fact: Fact) -> bool:
    """True when ``fact`` is marked a constraint or its wording names one.

    Args:
        fact: a stored fact.

    Returns:
        Whether injection must guarantee it.

    Raises:
        InvalidFactError: ``fact`` is no fact (no ``constraint``/``content``),
            or its content is not a ``str``.
    """
    try:
        return fact.constraint or looks_like_constraint(fact.content)
    except AttributeError:
        raise InvalidFactError(f"fact must be a Fact, got {type(fact).__name__}") from None


@lru_cache(maxsize=64)  # a handful of settings, read on every turn
def _members(categories: tuple[str | FactCategory, ...]) -> frozenset[FactCategory]:
    try:
        names = {c.strip().lower() for c in categories}  # FactCategory is a str
    except AttributeError as e:
        raise ConfigError(
            f"guaranteed_categories must be category names, got {categories!r}"
        ) from e
    return frozenset(c for c in FactCategory if c.value in names)


def guaranteed_members(categories: Iterable[str | FactCategory]) -> frozenset[FactCategory]:
    """The categories of ``guaranteed_categories``, read once for both injection modes.

    Args:
        categories: category names (trimmed, any case; unknown ones ignored) or
            members; a bare string is one name.

    Returns:
        The members; the same setting again costs one cache lookup.

    Raises:
        ConfigError: ``categories`` is not an iterable of strings.
    """
    if isinstance(categories, str):  # a bare "correction" is one category, not letters
        categories = (categories,)
    try:
        return _members(tuple(categories))
    except TypeError as e:  # not iterable, or an item that is no name (unhashable)
        raise ConfigError(
            f"guaranteed_categories must be category names, got {categories!r}"
        ) from e
