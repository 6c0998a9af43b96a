# ruff: noqa: E501  (rule tables: one regular expression per line reads better than wrapped)
"""The offline extractor's rules: which clauses are facts, and how the facts read.

Ordered rule tables, Chinese and English, match one clause whose subject is
the user ("I'm allergic to peanuts", "我对花生过敏") or an instruction with no
subject ("from now on…", "以后…"); the first rule that matches decides the
category, the confidence and the single-valued *slot* (name, location, job, a
like or dislike of one thing…) a newer statement supersedes. A clause whose
object is a bare pronoun ("I love it", "我喜欢这个") is no fact.

Some rules read a clause that does not start with the user but is theirs:
"Penicillin gives me hives", "海鲜我不能吃，会起疹子", "偏头痛是我的老毛病了".
The word lists the rules use (professions, symptoms, conditions…) are in
:mod:`deerflow_memory.update.offline.vocabulary`.

Fact text is a third-person statement in the user's language, always starting
with "User" / "用户": "User does not eat seafood", "用户对花生过敏".
:func:`slot_of` reads the slot back from any stored fact, whoever wrote it.

Nothing here raises; a clause no rule matches yields ``None``.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

from deerflow_memory.capture.kin import KIN_EN_OWNED
from deerflow_memory.models import FactCategory, says_nothing
from deerflow_memory.update.offline.vocabulary import (
    ADV_EN,
    ADV_ZH,
    AGO_EN,
    BODY_EN,
    BODY_PART_ZH,
    BODY_STATE_EN,
    BODY_STATE_ZH,
    BODY_ZH,
    COMMON_VERBS_EN,
    CONDITION_EN,
    CONDITION_NAME_ZH,
    CONDITION_SUFFIX_ZH,
    CONSUMED_LIST_EN,
    DEMONYM_EN,
    DIET_EN,
    DRUG_NAME_EN,
    DRUG_NAME_ZH,
    FAITH_EN,
    FASTING_EN,
    FOR_EXAMPLE_EN,
    FOR_OWN_HEALTH_EN,
    GOAL_VERBS_EN,
    GRIPES_EN,
    HOBBY_VERB_WORDS_EN,
    HOBBY_VERBS_EN,
    JUDGEMENT_EN,
    KIN_ZH,
    MEAL_TIME_ZH,
    MEDICATION_EN,
    NAME_ZH,
    NEED_THING_EN,
    NOT_A_PLACE_EN,
    NOT_AN_EMPLOYER_EN,
    NOT_NAMES,
    NUISANCES_EN,
    NUM_EN,
    NUTRIENT_ZH,
    PARTNER_EN,
    PROF_EN,
    PROF_ZH,
    SINCE_WHEN_EN,
    SPOUSE_EN,
    STATE_EN,
    SYMPTOM_EN,
    SYMPTOM_ZH,
    TRAIT_EN,
    TRAIT_ZH,
    TRIED_EN,
    WORKPLACE_EN,
    WORKPLACE_NOUN_EN,
)

__all__ = [
    "NOW_WORDS",
    "Candidate",
    "bad_object_en",
    "bad_object_zh",
    "base_form",
    "en_statement",
    "match_clause",
    "match_instruction",
    "no_verb_after_adverbs",
    "normalise_value",
    "refused",
    "says_which",
    "slot_of",
    "zh_statement",
]

_I = re.IGNORECASE
C = FactCategory


@dataclass(slots=True)
class Candidate:
    """A fact the rules found in one sentence, before it is checked against stored memory."""

    content: str
    category: FactCategory
    confidence: float
    slot: str | None = (
        None  # single-valued slot ("location", "taste:jazz", …): a newer value supersedes
    )
    value: str | None = None  # normalised value in that slot
    marker: bool = False  # the sentence started with a correction marker ("actually", "其实")
    constraint: bool = False  # an allergy, diet, medical or accessibility need
    wrong_value: str | None = None  # X of "Y, not X"
    replace: tuple[str, str] | None = None  # (Y, X): "I said Y, not X" — substitute X by Y
    source_error: str | None = None  # for corrections: what was wrong
    retract: str | None = None  # "I'm no longer X": stored facts mentioning X are withdrawn
    retract_slots: tuple[
        str, ...
    ] = ()  # "I quit my job": stored facts in these slots are withdrawn
    past: bool = False  # said as what the user used to be or do ("I used to…", "我以前…")
    # only a fact that says X and nothing more goes ("User is vegan", not "User is a vegan chef")
    retract_whole: bool = False
    # …with any reason after it ("vegetarian since my heart attack" goes when meat is eaten)
    retract_any_reason: bool = False
    # only a fact that ties the user to X now ("I left Leeds" withdraws "lives in Leeds", not
    # "was born in Leeds" or "supports Leeds United")
    retract_present: bool = False
    # what the user said of X is taken back ("forget what I said about peanuts", "I was wrong
    # about X", "我说对花生过敏是说错了"), not X given up ("I gave up peanuts", "I stopped
    # taking penicillin"): only then may X alone withdraw an allergy or a limit ("cannot take
    # X") of it (retractions.reaction_or_limit)
    retract_said: bool = False
    # a medication given up ("I don't take metformin anymore", "我已经停了阿司匹林"): a word of
    # a while anywhere in the message ("…until the surgery", "Just for a week.") keeps it
    medication_stopped: bool = False
    # a partner or a spouse parted from ("We broke up", "I got divorced"): a word of being
    # together again anywhere in the message ("…but we got back together", "后来又复合了")
    # keeps them
    parting: bool = False
    # what is left of a stored fact withdrawn in part ("User works at a bank and lives in
    # Leeds", then "I quit my job": "User lives in Leeds"): no news, it supersedes nothing and
    # gives way to what is said or stored of its slot
    remnant: bool = False


# Animals one keeps (not a food): "I can't have cats" is no diet.
# What comes between the items of a list: ", ", " and ", ", and ".
_LISTED_EN = r"(?:,\s*(?:and\s+)?|\s+and\s+)"
_PETS_EN = r"(?:cats?|kittens?|dogs?|puppies|puppy|horses?|bees?|wasps?|pets?|birds?|rabbits?|hamsters?|animals?|parrots?)\b"


def bad_object_en(value: str) -> bool:
    """Whether ``value`` is no object worth storing: a pronoun, a question word, "the other one".

    Not a field's short form in capitals: "I work in IT" is a field, not "it".
    """
    if re.match(r"(?:IT|HR|QA|UX|UI|PR|AI|ML|R&D)\b", value):
        return False
    return bool(
        re.match(
            r"(?:it|this|that|these|those|them|you|your|yours|him|her|how|what|when|where|why|which|"
            r"who|whether|if|so|too|here|there|neither|option|(?:nothing|everything|anything)(?=\W*$)|"
            # ("both", not "both peanuts and shrimp": the things follow)
            r"(?:both|either)(?=\s+of\b|\s+(?:ones?|options?|sides?|ways?|kinds?)\b|\W*$)|"
            r"the (?:first|second|third|last|other|former|latter|one|above|previous|next|same)|"
            # one of the answer's options: "the old version of the logo", "the shorter draft"
            r"the (?:\w+ )?(?:version|option|draft|design|layout|answer|reply|response|suggestion)s?|"
            r"one of|all of (?:them|these|those))\b",
            value,
            _I,
        )
    )


def bad_object_zh(value: str) -> bool:
    """Whether ``value`` is no object worth storing: a particle, a pronoun, "死了" of "烦死了"."""
    return (
        value[:1] in set("的了过着你您他她它这那就吗吧得啥哪死透")
        or value.startswith("什么")
        or re.match(r"第[一二三四五六七八九十\d]+[个种版套条款]", value) is not None  # an option
    )


# --- rules ---------------------------------------------------------------------------

Render = Callable[[re.Match[str], str], str]
Check = Callable[[re.Match[str]], bool]


@dataclass(frozen=True, slots=True)
class _Rule:
    pattern: re.Pattern[str]
    category: FactCategory
    confidence: float
    slot: str | None = None  # "taste+" / "taste-": a like or dislike of the object
    render: Render | None = None  # None: the clause turned into a third-person statement
    check: Check | None = None
    constraint: bool = False  # an allergy, diet, medical or accessibility need
    retracts: bool = False  # "I used to be a nurse": the value no longer holds


def _r(
    pattern: str,
    category: FactCategory,
    confidence: float,
    slot: str | None = None,
    render: Render | None = None,
    check: Check | None = None,
) -> _Rule:
    return _Rule(re.compile(pattern, _I), category, confidence, slot, render, check)


def _need(
    pattern: str,
    category: FactCategory,
    confidence: float,
    slot: str | None = None,
    render: Render | None = None,
    check: Check | None = None,
) -> _Rule:
    """A rule whose facts are constraints (allergy, diet, medical or accessibility need)."""
    return _Rule(re.compile(pattern, _I), category, confidence, slot, render, check, True)


def _was(pattern: str, category: FactCategory, confidence: float) -> _Rule:
    """A rule stating what the user used to be: the fact stands, the old value is withdrawn."""
    return _Rule(re.compile(pattern, _I), category, confidence, retracts=True)


def _no_longer(pattern: str) -> _Rule:
    """A rule for what the user no longer does: the old fact is withdrawn, nothing is stored
    (a past habit or home is no fact to keep: "I used to live in Paris")."""
    return _Rule(re.compile(pattern, _I), C.CONTEXT, 0.85, render=lambda _m, _c: "", retracts=True)


def _name_ok(match: re.Match[str]) -> bool:
    words = match["v"].split()  # ("my name is mud": a saying, no name)
    return 1 <= len(words) <= 4 and not any(
        w.casefold() in {"not", "is", "a", "the", "mud"} for w in words
    )


# What "I'm X" says that is no name: a condition's short form ("I'm T1D", "I'm ADHD",
# "I'm PCOS"), a word with a digit ("R2D2"), or a state of a compound ("IBS-prone", "GF-only").
# (Short forms in capitals only: "I'm Gad", "I'm Eds" are names.)
_CONDITION_SHORT = (
    r"T[12]D|ADHD|AuDHD|ADD|OCD|PTSD|C-?PTSD|BPD|ASD|PCOS|IBS|IBD|COPD|CKD|GERD|POTS|EDS|CFS|"
    r"ME/CFS|MCAS|HIV\+?|GAD|MDD|PMDD|ND|GF|DF"
)
_NO_NAME_WORD = re.compile(
    rf"(?:{_CONDITION_SHORT})|\S*\d\S*|(?i:\S+-(?:prone|free|only|friendly|sensitive|intolerant|positive|negative))"
)


def _proper_name(match: re.Match[str]) -> bool:
    words = match["v"].split()
    return (
        1 <= len(words) <= 3
        and all(w[:1].isupper() for w in words)
        and not any(w.casefold() in NOT_NAMES or _NO_NAME_WORD.fullmatch(w) for w in words)
        and not words[-1].casefold().endswith(("ese", "ish", "ian"))
        and not _HERITAGE.fullmatch(match["v"])  # "I'm Korean-American"
        # (nor a heritage joined to a word: "I'm Australian-born", "I'm Dutch-speaking")
        and not any(_HERITAGE.fullmatch(part) for part in re.split(r"[-\s]+", match["v"]))
        # (nor a faith: "I'm Sikh", "I'm Quaker" were the user's name)
        and not _FAITH.fullmatch(match["v"])
    )


# What a lasting search is said with ("a bigger flat", "my first job") and what may follow it:
# the end, or a place, a time, a reason or a wish ("…near the river", "…in Leeds", "…, any
# tips?"), never another noun ("work boots") nor "for my cat".
_SOUGHT_ADJ = (
    r"(?:new |better |bigger |smaller |cheaper |permanent |part-time |full-time |remote |first |"
    r"second |proper |steady |good |decent |stable |nice |long-term |life )"
)
_SOUGHT_ENDS = (
    r"$|[,;:!?.]|\s+(?:in|near|around|close|closer|nearer|within|outside|with|that|which|where|"
    r"abroad|somewhere|nearby|again|after|before|by|from|starting|since|so|because|but|and|or|"
    r"at (?!(?:the|my|a) (?:moment|weekend)\b)|on|as|to (?:rent|buy|share|start)|lol|haha|too|now|"
    r"currently|still|for (?:me|us|myself|ourselves|next|this|the (?:next|coming|summer|autumn|"
    r"fall|winter|spring|family|kids|two of us)|a (?:while|few|couple)|months|weeks|years|ages|"
    r"when))\b"
)


_FAITH = re.compile(rf"{FAITH_EN}|orthodox", _I)
_HERITAGE = re.compile(rf"{DEMONYM_EN}(?:[- ]{DEMONYM_EN})*", _I)


# What a fear or an interest is not about when it is said of the chat or of one event ("I'm
# interested in your opinion", "…in what you think", "I'm scared of the results"): refused,
# so the own-words fallback does not keep it either.
_OF_THE_MOMENT = re.compile(
    r"(?:your|you|what|how|why|whether|if|it|this|that|these|those|them|him|her|hearing|knowing|"
    r"seeing|reading more|learning more|the (?:answer|price|details?|results?|outcome|offer|deal|"
    r"options?|exam|test|interview|meeting))\b",
    _I,
)


# …nor of what the user asks for or buys in the chat ("I'm interested in a refund", "…in a
# demo", "…in more details", "…in buying one", "…in the job you posted", "…in any of those",
# "…in trying it"): a request of the moment, no interest (helper 355).
_ASKED_FOR = re.compile(
    r"(?:(?:an?|the|more|some|any|further|additional|a free|a full|a quick)\s+)?"
    r"(?:refunds?|quotes?|quotations?|demos?|demonstrations?|trials?|discounts?|coupons?|"
    r"subscriptions?|memberships?|upgrades?|plans?|packages?|pricing|prices?|estimates?|"
    r"appointments?|bookings?|reservations?|answers?|repl(?:y|ies)|responses?|info|information|"
    r"details?|specifics|updates?|explanations?|examples?|links?|samples?|copies|copy|position|"
    r"vacancy|opening|listing|call ?backs?|consultations?|one|ones|any|some|either|neither|both|"
    r"none|all)"
    r"(?=[\s.!?,]*$|\s+(?:please|then|now|too|from you|of (?:them|those|these|you|your)|"
    r"(?:for|on|about) (?:the|this|that|these|those|it|my|a|an|one)\b))"
    r"|(?:buying|purchasing|ordering|booking|renting|getting|signing up|subscribing|upgrading|"
    r"applying|joining|attending|finding out|hearing|seeing|knowing|discussing|talking|chatting)\b"
    r"|.*\b(?:you|your|yours)\b|.*\b(?:it|this|that|these|those|them|one)[.!?]*$",
    _I,
)


def _not_of_the_moment(match: re.Match[str]) -> bool:
    return not _OF_THE_MOMENT.match(match["v"])


def _an_interest(match: re.Match[str]) -> bool:
    return _not_of_the_moment(match) and not _ASKED_FOR.match(match["v"])


def _place_name(match: re.Match[str]) -> bool:
    """ "from Canada", "from the UK", "from a small town in Ohio", and "from texas" when the
    user writes no capitals at all — not "from the team at Acme", "from work", "from HR"."""
    value = match["v"]
    if _NOT_AN_ORIGIN.match(value) or _A_PLACE_OF_WORK.search(value):
        return False
    if _AN_ORIGIN_NOUN.match(value):
        return True
    words = re.sub(r"^the\s+", "", value, flags=_I).split()
    if not words:
        return False
    if words[0][:1].isupper():
        return True
    # a name written without capitals is a bare name ("from texas", "from new york"): the
    # clause of a user who does write capitals looks the same once past its "I", so what
    # opens with "a", "the", "my" ("from the marketing team", "from a big family") is none
    return _written_without_capitals(match.string) and not _NO_BARE_NAME.match(value)


# A service one belongs to as one's work: "I'm in the army".
_SERVICE_EN = (
    r"army|navy|air force|marines|marine corps|military|national guard|coast guard|reserves|police|"
    r"police force|fire service|fire brigade|merchant navy|raf|royal navy|peace corps"
)


def _a_life_change(match: re.Match[str]) -> bool:
    """ "moving to Leeds", not "moving to the next question", "…to a new desk"."""
    return not _NO_PLACE_TO_MOVE_TO.match(match["v"])


_NO_PLACE_TO_MOVE_TO = re.compile(
    r"(?:moving|relocating|emigrating) to (?:(?:(?:the|a|an|my|our|your) (?:next|other|new|different|"
    r"same)|another) (?!(?:[\w-]+ )?(?:city|town|country|state|flat|apartment|house|home|place|area|"
    r"neighbou?rhood|village|island|continent|part of)\b)|(?:the |a |an |my |our |your )?(?:topic|"
    r"question|step|section|chapter|part|page|slide|room|desk|seat|table|bed|couch|sofa|kitchen|"
    r"office|point|issue)\b"
    # a place in the room, a plan, a tool or its version: "…to the front of the line", "…to the
    # cloud", "…to plan B", "…to Python 3 next week", "…to a new phone plan", "…to v2"
    r"|(?:the )?(?:front|back|end|top|bottom|middle|head|side|left|right|window|aisle|corner|"
    r"cloud|gym|car|stage|garden|bedroom|bathroom|living room|lounge|porch|balcony|basement|"
    r"attic|garage|waiting room|lobby|queue|line)\b"
    r"|plan [a-z]\b|version \d|v\d"
    r"|[\w.+#-]+ \d+(?:\.\d+)*\b(?! (?:weeks?|days?|months?|years?)\b)"
    r"|(?:a |an |the |my )?(?:new |different |cheaper |better )?(?:phone|mobile|data|payment|pricing|"
    r"subscription|insurance|energy|broadband|meal) ?(?:plan|provider|tariff|contract|bank|app|"
    r"platform|system|server|tool|stack|framework|library|branch|tab|window|account)\b"
    # …or stays a few nights: "I'm moving to my parents' place for the weekend"
    r"|.*\bfor (?:(?:the|a|one|two|a few|a couple of) (?:night|nights|weekend|day|days|week)|(?:a|the|my) "
    r"(?:conference|trip|holiday|vacation|wedding|meeting|visit|workshop|festival|concert|match))\b)",
    _I,
)


def _zh_not_now(match: re.Match[str]) -> bool:
    """ "我晕车" — not "我现在有点晕车", "我刚晕船" (how the user feels at the moment)."""
    return not _ZH_NOW.search(match.group())


_ZH_NOW = re.compile(r"现在|刚|此刻|这会儿?|目前")


def _zh_a_fear(match: re.Match[str]) -> bool:
    """ "怕狗", "怕冷" — not "怕来不及", "怕你误会", "怕麻烦你" (a worry of the moment)."""
    return not (_ZH_A_WORRY.match(match["v"]) or _ZH_A_WORRY_IN.search(match["v"]))


# …nor "怕钱不够", "怕赶不及", "怕下雨", "怕感冒了", "怕错过" (a thing that may happen now:
# a negation, a thing done ("了") or an event of the day, anywhere in it)
_ZH_A_WORRY_IN = re.compile(
    r"不|没|了$|下雨|下雪|堵车|塞车|延误|晚点|错过|出事|出问题|砸|弄丢|丢了|感冒|着凉"
)
_ZH_A_WORRY = re.compile(
    r"(?:你|您|他|她|它|我|人家|别人|会|来不及|赶不上|不|没|这|那|被|影响|耽误|打扰|麻烦|万一|自己|以后|"
    r"明天|今天|到时|一会|等下|迟到|忘|搞错|说错|弄错|出错|失败|考不)"
)


def _no_fact(_match: re.Match[str]) -> bool:
    """The check of a rule that only knows a shape to refuse (see :func:`refused`)."""
    return False


def _written_without_capitals(clause: str) -> bool:
    """No capital letter but the "I" the reading may have put back ("i'm from texas")."""
    mine = _THE_I.sub("", clause)
    return mine == mine.lower()


_THE_I = re.compile(r"\bI\b")


# What follows "I'm from" that is no place one comes from: a workplace, a team, a time.
# (a team, an office, a company anywhere in it: _A_PLACE_OF_WORK)
_NOT_AN_ORIGIN = re.compile(
    r"(?:work|home|school|here|there|hr|it|sales|marketing|accounting|finance|legal|"
    r"your|you|out of town|the (?:future|past|sales|other|same|bank|hospital|school|store|shop|"
    r"government|club|group)|an? (?:startup|bank|vendor|client|customer|recruiter|school|"
    r"charity|hospital))\b",
    _I,
)
# "from a small town", "from a farm in Iowa", "from the countryside": where one grew up
_AN_ORIGIN_NOUN = re.compile(
    r"(?:an? |the )(?:(?:small|tiny|little|big|large|rural|remote|coastal|quiet|sleepy|mountain|"
    r"fishing|farming|mining|border|college|seaside|island|[\w-]+-speaking) ){0,2}"
    r"(?:town|village|city|island|farm|suburb|suburbs|countryside|coast|desert|mountains|"
    r"valley|reservation|kibbutz|region|province|state|country|place)"
    # …said to its end or on to where it is, not "from the state department"
    r"(?=$|\s+(?:in|of|near|outside|on|by|called|named|up|down|north|south|east|west|just|where|"
    r"that|not far|close to|an hour|about|around)\b)",
    _I,
)
# A team, desk or office one speaks for: "from the marketing team", "from ikea customer service"
_A_PLACE_OF_WORK = re.compile(
    r"\b(?:team|department|dept|office|service|services|desk|helpdesk|council|newspaper|paper|"
    r"company|agency|firm|committee|division|branch|headquarters|hq|staff|crew|board|unit|lab|"
    r"ministry|bureau|support|phone|laptop|computer|account)\b",
    _I,
)
# What a bare lowercase name never opens with: "from a …", "from the …", "from my …"
_NO_BARE_NAME = re.compile(
    r"(?:the|an?|my|our|your|their|his|her|its|this|that|these|those|some|any|around|over|all|out|"
    r"nowhere|everywhere|somewhere|anywhere|far|way|back|down|up|mars|another|outer space)\b",
    _I,
)


_ZH_DIGITS = {c: i for i, c in enumerate("零一二三四五六七八九")} | {"两": 2}


def zh_number(text: str) -> int | None:
    """A number under 1000 in digits or Chinese numerals ("三十四", "一百零五"); None for a
    range ("十三四", "二三十") or anything else."""
    if text.isdigit():
        return int(text)
    total, digit = 0, None
    for char in text:
        if char in _ZH_DIGITS:
            if digit is not None and digit != 0:  # two digits in a row: a range
                return None
            digit = _ZH_DIGITS[char]
        elif char in "十百":
            unit = 10 if char == "十" else 100
            if digit == 0:
                return None
            total += (1 if digit is None else digit) * unit
            digit = None
        else:
            return None
    return total + (digit or 0)


def _an_age(match: re.Match[str]) -> bool:
    """An age someone telling it can have: 5 to 120 (digits or Chinese numerals, no range)."""
    age = zh_number(match["v"])
    return age is not None and 5 <= age <= 120


# What one asks the assistant to write or find, said as a wish: "我想要一个关于春天的诗",
# "我想要一份简历模板" (not "我想要一个孩子", "我想要一个健康的身体").
_ZH_REQUESTED = re.compile(
    r"^(?:一|几|两)?(?:个|首|篇|份|张|些|段|封|句|套|条)[^做当学写考从成]{0,12}?(?:诗|诗歌|文章|故事|笑话|方案|总结|清单|列表|"
    r"例子|模板|邮件|回复|翻译|代码|脚本|表格|图片|名字|标题|口号|文案|建议|推荐|答案|解释|食谱|菜谱|攻略|大纲)"
    r"(?:吧|吗|呢)?$"
)


def _zh_no_request(match: re.Match[str]) -> bool:
    return _ZH_REQUESTED.match(match["v"]) is None


def _zh_nickname(match: re.Match[str]) -> bool:
    """A name people call one by ("阿杰", "老周", "小王", "Jay"), not what they tell one to do
    ("叫我睡觉", "叫我放心")."""
    name = match["v"]
    return name[:1] in "小老阿" or name[-1:] in "哥姐总仔妹弟叔爷" or name[:1].isascii()


def _zh_age(match: re.Match[str], _clause: str) -> str:
    """ "我今年是29岁了" → "用户今年29岁"."""
    return f"用户{match['t'] or ''}{match['v']}岁"


# What was seen, read, heard or tried once (TRIED_EN), then liked or not ("I watched X last
# night and loved it"): a named work or place, not a pronoun or a thing of the moment.
_A_WORK_EN = (
    r"(?!(?:it|that|this|them|those|these|him|her|the (?:news|game|match|video|episode|email|doc|docs"
    r"|message|report))\b)"
    # (not the user's own or someone of theirs: "my grandma", "my daughter's recital"; not a
    # thing tried to do: "tried to fix the sink"; not one of a kind once: "a wedding"; not
    # what the assistant gave: "the podcast you recommended")
    r"(?!(?:my|our|your|to|a|an)\b)(?!(?:[\w'’:&.-]+ ){0,6}(?:you|your)\b)"
    r"[\w'’:&.-]+(?: [\w'’:&.-]+){0,6}?"
)
_WHEN_TRIED_EN = (
    r"(?: (?:last (?:night|week|weekend|month|year|summer|spring|autumn|fall|winter|time)|yesterday"
    r"|the other (?:day|night)"
    r"|this (?:morning|afternoon|evening|week|weekend)|over the (?:weekend|holidays)|recently|on "
    r"(?:mon|tues|wednes|thurs|fri|satur|sun)day|(?:a (?:few|couple of) |two |three )?(?:days|weeks)"
    r" ago|for the first time|in (?:one|a single) (?:sitting|weekend|night)))?"
)


def _taste_of_tried(tastes: str) -> str:
    """The pattern of a work or place tried, then ``tastes`` ("loved|liked") of it."""
    return (
        rf"^I {TRIED_EN} (?P<v>{_A_WORK_EN}){_WHEN_TRIED_EN},? and (?:I )?{ADV_EN}"
        rf"(?:(?:really|absolutely|totally|honestly) )?(?P<t>{tastes}) "
        r"(?:it|them|every (?:minute|second|page|bit) of it)$"
    )


def _render(template: str) -> Render:
    return lambda m, _clause: template.format(**m.groupdict())


def _standing(prefix: str) -> Render:
    return lambda _m, clause: prefix + clause[:1].lower() + clause[1:]


# "Penicillin gives me hives": a reaction said of a thing; not of a person, a pronoun or a mood.
_REACTOR_EN = re.compile(
    r"(?:it|this|that|these|those|the|a|an|my|his|her|their|our|your|he|she|they|we|you|I|everything|nothing|"
    r"something|anything|work|stress|life|people|the (?:heat|cold|weather|news|sun|noise|song|movie|film|"
    r"show|thought|idea|traffic|smell of)|[\w'-]+(?:'s)?\s+(?:mom|mum|dad|wife|husband|son|daughter))\b",
    _I,
)
_SINGULAR_VERB = re.compile(
    r"\b(?:makes|gives|brings|leaves|sets|triggers|upsets|doesn't|disagrees|irritates|messes|wrecks|"
    r"hurts|kills|aggravates|worsens)\b",
    _I,
)
_TASK_EN = re.compile(
    r"(?:\w+ )?(?:this|that|these|those|it|the (?:file|page|app|code|script|server|process|build|tab|"
    r"window|door|link|form|button|thing|bug|error|tests?|report|issue|ticket|repo|branch))\b",
    _I,
)


def _lower_first(word: str) -> str:
    """ "Penicillin" → "penicillin"; "MSG" and "iPhone" stay."""
    return word[:1].lower() + word[1:] if word[1:2].islower() else word


def _favourite_first(m: re.Match[str], _clause: str) -> str:
    """ "Paris is my favourite city" → "User's favourite city is Paris" (the name as said,
    but for an article: "The Beatles are…" → "…is the Beatles")."""
    value = re.sub(r"^(?:The|A|An) ", lambda a: a.group().lower(), m["v"])
    return f"User's favourite {m['k']} is {value}"


# Words that make what is said before "is my favourite …" a clause, not a thing named: "I
# think pizza", "Not sure which", "Idk what", "Everyone knows blue" (attacker 345: each was
# stored as the favourite, and put the one stored before away); nor a kind that goes on
# ("Pizza is my favourite food and sushi is my second")
_NOT_A_FAVOURITE_NAMED = re.compile(
    r"\b(?:I|I'm|think|thought|guess|bet|know|knows|knew|wonder|say|says|said|sure|idk|dunno|"
    r"what|which|who|whom|whose|whatever|whichever|not|is|are|was|were|am|my|but|and so)\b",
    _I,
)


def _a_favourite_named(m: re.Match[str]) -> bool:
    """ "Hiking is my favourite hobby": a thing named and one kind (see
    :data:`_NOT_A_FAVOURITE_NAMED`)."""
    return _NOT_A_FAVOURITE_NAMED.search(m["v"]) is None and (
        _NOT_A_FAVOURITE_NAMED.search(m["k"]) is None
    )


def _reaction(m: re.Match[str], clause: str) -> str:
    """ "Strawberries make my lips swell" → "User reacts to strawberries: they make their lips swell"."""
    thing = m["v"].strip()
    rest = clause[m.end("v") :].strip()
    pronoun = "it" if _SINGULAR_VERB.search(rest) else "they"
    return f"User reacts to {_lower_first(thing)}: {pronoun} {swap_pronouns(rest)}"


def _reactor(m: re.Match[str]) -> bool:
    thing = m["v"].strip()
    return len(thing.split()) <= 5 and not _REACTOR_EN.match(thing)


def _not_a_task(m: re.Match[str]) -> bool:
    """ "trying to quit smoking" is an effort; "trying to open this file" is a task."""
    return not _TASK_EN.match(m["v"])


def _an_effort(m: re.Match[str]) -> bool:
    """ "trying to cut down on sugar" is an effort; "trying to reduce the latency" is work at hand."""
    return _not_a_task(m) and re.match(r"(?:\w+ ){1,2}the\b", m["v"], _I) is None


def _not_a_gripe(m: re.Match[str]) -> bool:
    """ "I hate olives" is a taste; "I hate Mondays" is a grumble."""
    return re.fullmatch(GRIPES_EN, m["v"].strip(), _I) is None


# A forecast after "from now on" tells of the world, not how to answer ("Going forward, fares
# will go up", "以后房租会越来越贵"). The same shape orders what the assistant makes ("the
# recipes will be less spicy", "the font should change to Arial", "tickets will go up to my
# manager"), so a forecast needs a subject of the world's own (prices, rates, the weather,
# things), a modal of what is to come ("should" is an order's word), a change that comes by
# itself ("will go up", "is likely to be late"), and after it only how much or when, to the
# clause's end. In Chinese: a world subject, a guess or a modal, a change ("会越来越贵",
# "估计还要涨"), and nothing said after it; without a subject only the weather ("接下来会下雨").
_WORLD_EN = (
    r"(?:(?:the|our|my|all|most|some)\s+)?(?:(?:gas|fuel|petrol|house|housing|food|ticket|energy"
    r"|electricity|share|stock|train|bus|air|plane)\s+)?(?:prices?|fares?|rents?|rates?|interest rates"
    r"|costs?|taxes|inflation|the economy|economy|markets?|weather|things|it|traffic"
    r"|wages|salaries|bills|tickets|trains?|bus(?:es)?|flights?|winters?|summers?|days|nights|ai|jobs"
    r"|the future|life|business|sales|demand|unemployment)"
)
_CHANGE_VERB_EN = (
    r"go (?:up|down)|rise|fall|drop|climb|soar|increase|decrease|grow|shrink|improve|worsen"
    r"|cost (?:more|less)|rain|snow|run (?:late|less|more)|slow(?: down)?|pick up|ease|settle"
    r"|calm down|disappear"
)
_CHANGED_STATE_EN = (  # (not "more important", "lower priority", "closed": an order's too)
    r"colder|warmer|hotter|wetter|drier|cheaper|pricier|dearer|more expensive|busier|quieter|worse"
    r"|late|delayed|crowded"
)
_HOW_MUCH_OR_WHEN_EN = (
    r"by (?:\d+(?:\.\d+)?\s*%?|a lot|much|far|half)|(?:next|this) (?:week|month|year|winter|summer|spring"
    r"|autumn|fall|quarter)|soon|again|further|even (?:more|further)|a lot|a bit|(?:every|each) (?:day"
    r"|week|month|year)|over time|over the (?:next|coming) (?:days|weeks|months|years)|eventually"
    r"|sharply|steadily|often|in (?:the )?(?:mornings?|evenings?|winter|summer|spring|autumn|fall"
    r"|future)|in \d{4}|for (?:a while|good)"
)
_SOON_EN = r"(?:(?:probably|likely|soon|surely|eventually|only|keep on|continue to|all|just)\s+)*"
_FORECAST_EN = re.compile(
    rf"{_WORLD_EN}(?:(?:\s+(?:will|won't|would|shall|might|may|could|(?:is|are) (?:going|likely"
    r"|expected|bound|set) to|(?:is|are) gonna)|'ll|'s (?:gonna|going to|likely to))"
    rf"\s+{_SOON_EN}(?:{_CHANGE_VERB_EN}|(?:get|become|be) (?:{_CHANGED_STATE_EN})))\b"
    # …and nothing after the change but how much or when, to the clause's end ("will go up
    # to my manager", "will go up later in the thread", "will run late so pick me up at 8" are
    # orders)
    rf"(?=(?:,?\s+(?:{_HOW_MUCH_OR_WHEN_EN}))*\s*[.!]?\s*$)",
    _I,
)
_WORLD_ZH = (
    r"(?:房租|房价|油价|物价|价格|天气|经济|工资|利率|汇率|股市|行情|日子|机票|电费|水费|票价|汽油"
    r"|菜价|学费|通胀|生意|市场|公司|行业|气温|情况|形势|以后的路|未来)"
)
_FORECAST_ZH = re.compile(
    # a subject of the world's, a guess or a modal, then a change: "以后房租会越来越贵", "今后
    # 油价估计还要涨"; without a subject, only the weather: "接下来会下雨" ("以后可能要控制血糖，
    # 推荐低糖的菜" and "今后得增加代码注释" are orders)
    rf"(?:(?:{_WORLD_ZH})(?:将会|可能|也许|或许|恐怕|估计|会|得|要|还|再|更|都|也)*"
    r"(?:越来越|涨|跌|贵|便宜|下雨|下雪|降温|升温|变(?:冷|热|贵|好|差)|好起来|转凉|转暖|下降|上升|增加|减少|倒闭"
    r"|裁员|堵|冷|热|忙|更(?:好|差|难))"
    r"|(?:将会|可能|也许|或许|恐怕)?(?:会|要|得)?[还再更都也]*(?:越来越(?:冷|热)|下雨|下雪|降温|升温|转凉"
    r"|转暖|变(?:冷|热)))"
    r"(?!的时候|的话)"  # "以后机票会贵的时候提前两周订": when, an order
    r"(?=[^，,；;：:]*$)"  # nothing said after it: "以后会变冷，推荐保暖的衣服" is an order
)


def _not_a_forecast(m: re.Match[str]) -> bool:
    """ "From now on, reply in Spanish" is an order; "From now on, fares will go up" a forecast."""
    return _FORECAST_EN.match(m["v"]) is None


_FOR_ME_ZH = re.compile(r"(?:给|帮|发|提醒|告诉|替|通知|回答|回复|跟|和|叫|称呼)我")


def _not_a_forecast_zh(m: re.Match[str]) -> bool:
    """ "以后回答要简短一点" is an order; "以后房租会越来越贵" a forecast; "以后再说" neither."""
    v = m["v"]
    return "再说" not in v and (_FORECAST_ZH.match(v) is None or _FOR_ME_ZH.search(v) is not None)


# Sarcasm's push on a fond verb ("I just love waiting in line"): without it, "I love
# deadlines" may be meant ("…, they keep me focused"), and is kept.
_IN_JEST = re.compile(
    r"\b(?:just|simply|absolutely|totally|so+|sure do)\s+(?:love|adore|enjoy)\b", _I
)


def _not_in_jest(m: re.Match[str]) -> bool:
    """ "I love tea" is a taste; "I just love waiting in line" is sarcasm (a nuisance loved
    with a push: :data:`_IN_JEST`)."""
    said = m.group(0)[: m.start("v") - m.start(0)]
    return re.fullmatch(NUISANCES_EN, m["v"].strip(), _I) is None or _IN_JEST.search(said) is None


def _not_a_judgement(m: re.Match[str]) -> bool:
    """ "I'm a morning person" is a trait; "I'm a good person" is an opinion of oneself."""
    return re.fullmatch(JUDGEMENT_EN, m["k"], _I) is None


def _zh_reaction(m: re.Match[str], _clause: str) -> str:
    """ "我一喝牛奶就拉肚子" → "用户喝牛奶会拉肚子"; "…过敏" → "用户对牛奶过敏"."""
    groups = m.groupdict()
    thing, symptom = m["v"], groups.get("s") or "过敏"
    if symptom == "过敏":
        return f"用户对{thing}过敏"
    verb = groups.get("verb") or "接触"
    return f"用户{verb}{thing}会{symptom}"


_DURATION_ZH = r"(?:(?:已经|有|快|都|整整)?(?:\d+|[一二两三四五六七八九十几好]+)多?个?(?:年|月|周|星期)多?了?|很多年了?|多年了?|好多年了?|好些年了?)"


def _zh_topic(m: re.Match[str], clause: str) -> str:
    """ "海鲜我不能吃，会起疹子" → "用户吃海鲜会起疹子"; "香菜我不吃" → "用户不吃香菜"."""
    verb = next((c for c in m["verb"] if c in "吃喝碰"), "吃")
    if m["s"] == "过敏":
        return f"用户对{m['v']}过敏"
    return f"用户{verb}{m['v']}会{m['s']}" if m["s"] else f"用户不{verb}{m['v']}"


def _zh_topic_allowed(m: re.Match[str]) -> bool:
    """ "海鲜我不能吃": the fronted topic is a thing, not a time ("今天我不吃") or a connective."""
    thing = m["v"]
    return (
        re.match(
            r"今|明|昨|现在|最近|平时|以前|之前|以后|晚上|早上|中午|周末|其实|但是|所以|因为|反正|说实话|其他|别的|这|那",
            thing,
        )
        is None
        and re.search(rf"人|工作|加班|开会|学习|考试|作业|{KIN_ZH}", thing)
        is None  # "老板让我头疼": a grumble
    )


_EN_INSTRUCTION = "User's standing instruction: "


def _instruction(m: re.Match[str], _clause: str) -> str:
    """ "Don't use emojis with me" → "User's standing instruction: don't use emojis"."""
    return _EN_INSTRUCTION + swap_pronouns(m["v"][:1].lower() + m["v"][1:])


# What a standing order of how to answer is about (not "keep an eye on the kids", "give me a
# discount", "answer the door" from now on: one-off favours or errands).
_ABOUT_ANSWERS = re.compile(
    r"\b(?:answers?|replies|reply|responses?|messages?|explanations?|emojis?|emoticons?|bullet points?"
    r"|units?|metric|imperial|celsius|fahrenheit|english|chinese|mandarin|french|spanish|german"
    r"|language|tone|words|sentences|paragraphs|examples|code|jargon|formal|informal|casual|plain"
    r"|short|brief|concise|simple|(?:brief|concise|succinct|formal|casual|plain|polite)ly|headings?|tables?|lists?|sources|citations|links|summar(?:y|ies)"
    r"|markdown|format|formatting|voice (?:notes|messages)|audio|gifs?|stickers|exclamation marks?"
    r"|caps|capitals|first name|full name|nickname|name)\b",
    re.IGNORECASE,
)


_STOP_DOING = re.compile(r"(?:(?:don't|do not|never|always)\s+)?(?:stop|avoid|skip)\s+\w+ing\b", _I)
_ORDER_VERB = re.compile(r"^(?:(?:don't|do not|never|always)\s+)?\S+\s*", _I)


def _about_answers(m: re.Match[str]) -> bool:
    """Whether the order ("stop apologising") or its object, past its verb ("answer the
    door" is not), is about answers."""
    order = m["v"]
    return bool(_STOP_DOING.match(order) or _ABOUT_ANSWERS.search(_ORDER_VERB.sub("", order)))


_ZH_INSTRUCTION = "用户的长期要求："

# fmt: off
# "the" before a place of work names one only with a word of its own ("the village school",
# "the local bakery"): "I now work in the office", "I work in the kitchen", "…the same office"
# say where in the employer's (attacker 343: "I work at Barclays." and then "I now work in the
# office." lost Barclays)
_THE_NAMED_PLACE = rf"the (?!(?:same|main|head|back|front|other|home|new|old) )(?!{WORKPLACE_NOUN_EN}\b)"
# What may follow the place: where it is, the job done there, the hours ("I work in a bakery
# in Leeds", "…in a hospital as a nurse", "…in a shop part-time"), as after "work at"
_WORKPLACE_TAIL = r"(?:now|these days|currently|(?:in|near|on|as|part-time|full-time)\b[^,;]*)"
# Where one works that names no workplace: at home, abroad, out of town, online ("我在家里上班
# 快一年了", "我在国外工作了三年": attacker 345, each put the employer said before away)
_ZH_NO_WORKPLACE = (
    r"(?:(?:自己)?(?:家里?|家中)|国外|海外|外地|外面|老家|本地|当地|线上|网上|远程)"
    r"(?:工作|上班|任职|实习|打工)"
)
_EN_RULES: tuple[_Rule, ...] = (
    # allergies, intolerances, diet: safety-relevant, highest confidence
    _need(rf"^I'm {ADV_EN}(?:(?:very|severely|highly|deathly|seriously|quite|mildly|slightly)\s+)*allergic to (?!(?:mondays?|homework|people|mornings?|meetings?|adulting|responsibility|effort|small talk|work(?!\s+\w))\b)(?P<v>.+)$", C.CONTEXT, 0.95),
    _need(r"^I have (?:an? |a severe |a mild |severe |mild )?(?P<v>[\w -]+?) allerg(?:y|ies)$", C.CONTEXT, 0.95),
    _need(r"^I have (?:an? )?(?:(?:severe|mild|serious|bad|strong|life-threatening|deadly|slight|food|known|real)\s+)*allerg(?:y|ies) to (?P<v>.+)$", C.CONTEXT, 0.95),
    _need(rf"^I'm {ADV_EN}(?:(?:very|highly|extremely|quite|a bit|slightly|super|really)\s+)*(?:sensitive|intolerant|hypersensitive) to (?P<v>.+)$", C.CONTEXT, 0.95),
    _need(r"^I have (?:an? )?(?:(?:strong|real|deep|severe|mild|slight|serious)\s+)*(?:intolerance|sensitivity) to (?P<v>.+)$", C.CONTEXT, 0.95),
    # …or must: "I need to avoid salt", "I have to cut back on sugar" (a need, even with a "lol")
    _need(rf"^I {ADV_EN}(?:need to|have to|must|should|ought to|am supposed to|'m supposed to|gotta|got to) {ADV_EN}(?:avoid|stay away from|stay off|keep off|steer clear of|cut out|cut (?:down|back) on|limit|watch|go easy on|eat less|drink less|reduce) (?:all |any |my )?(?P<v>{CONSUMED_LIST_EN})(?: intake)?(?: (?:completely|entirely|altogether|now|these days|for (?:health|medical) reasons|{FOR_OWN_HEALTH_EN}|because of [\w -]{{2,30}}|on doctor's orders))?$", C.PREFERENCE, 0.9),
    # …or may not have: "I'm not allowed to have sugar", "I'm not supposed to eat salt"
    _need(rf"^I'm {ADV_EN}not (?:allowed|supposed|permitted) to (?:have|eat|drink|take) (?:any |too much )?(?P<v>{CONSUMED_LIST_EN})(?: (?:anymore|any more|at all|now|these days))?$", C.PREFERENCE, 0.9),
    # what the user stays off: "I'm avoiding gluten", "I'm off carbs", "I'm staying away from dairy"
    _need(rf"^I'm {ADV_EN}(?:(?:strictly|completely|totally|trying to stay|mostly|still) )?(?:off|avoiding|staying off|staying away from|keeping off|laying off|steering clear of|cutting out|going without|eliminating) (?:of )?(?:all |any )?(?P<v>{CONSUMED_LIST_EN})(?: (?:completely|entirely|altogether|these days|now|for now|right now|at the moment|for the time being|for (?:health|medical) reasons|{FOR_OWN_HEALTH_EN}|on doctor's orders))?$", C.PREFERENCE, 0.9, None, _render("User avoids {v}")),
    _r(r"^I have (?:an? )?(?:(?:strong|real|deep|severe|mild|slight|serious|total)\s+)*aversion to (?P<v>.+)$", C.PREFERENCE, 0.9, "taste-"),
    _need(rf"^I'm {ADV_EN}(?:(?:a|an|very|quite|a bit|slightly|badly|severely)\s+)*(?P<v>{STATE_EN})$", C.CONTEXT, 0.95),
    _need(rf"^I {ADV_EN}(?:have|suffer from|live with|was diagnosed with|got diagnosed with) (?P<v>(?:type [12] |gestational )?diabetes|asthma|epilepsy|celiac disease|coeliac disease|high blood pressure|hypertension|a heart condition|heart disease|ibs|crohn's(?: disease)?|migraines|arthritis|adhd|dyslexia|a disability|limited mobility|a bad back|gout|kidney disease|low vision|hearing loss|tinnitus|a pacemaker|a nut allergy|a peanut allergy|a shellfish allergy|an egg allergy|a gluten intolerance|acid reflux|gerd|sleep apnea)\b.*$", C.CONTEXT, 0.95),
    _need(r"^I (?:use|need|rely on|wear|carry) (?:a |an |my )?(?P<v>wheelchair|hearing aids?|walker|walking stick|cane|screen reader|mobility scooter|crutches|insulin|epipen|inhaler|guide dog|cochlear implant)\b.*$", C.CONTEXT, 0.95),
    _need(rf"^I'm {ADV_EN}(?P<v>lactose|gluten|fructose|histamine)[ -]intolerant$", C.CONTEXT, 0.95),
    # conditions and medication: "I have psoriasis", "I've had insomnia for years", "I'm on blood thinners"
    _need(rf"^I(?:'ve)? {ADV_EN}(?:have|had|suffer(?:ed)? from|live with|lived with|struggle with|battle|(?:was|got|have been|been) diagnosed with|been (?:living with|dealing with|suffering from|struggling with)) (?P<v>{CONDITION_EN})\b.*$", C.CONTEXT, 0.9),
    _need(rf"^I {ADV_EN}(?:suffer from|was diagnosed with|got diagnosed with) (?P<v>.+)$", C.CONTEXT, 0.9),
    _need(rf"^I'm {ADV_EN}(?:on|taking) (?P<v>{MEDICATION_EN})\b.*$", C.CONTEXT, 0.9),
    _need(rf"^I {ADV_EN}(?:take|use|need) (?P<v>{MEDICATION_EN})\b.*$", C.CONTEXT, 0.9),
    # "I'm on lisinopril", "I'm currently on sertraline 50mg": a drug known by its ending
    # ("I'm on" says a treatment, where "I take" alone may not: attacker 311)
    _need(rf"^I'm {ADV_EN}on (?P<v>{DRUG_NAME_EN})(?: (?:daily|every day|every morning|every night|twice a day))?$", C.CONTEXT, 0.85),
    # a list of drugs whose first is known only by its ending, a later one by name ("I take
    # lisinopril, metformin and insulin"; "I take lisinopril" alone is no need: attacker 311)
    _need(rf"^I {ADV_EN}(?:take|use) (?P<v>{DRUG_NAME_EN}(?:{_LISTED_EN}[\w-]+){{0,4}}?{_LISTED_EN}(?:{MEDICATION_EN})\b.*)$", C.CONTEXT, 0.9),
    _need(rf"^I {ADV_EN}take (?P<v>[\w -]{{2,40}}?) (?:daily |every day |every morning |every night )?(?:for|to (?:manage|control|treat)) my (?:\w+ )?(?:{CONDITION_EN}|heart|blood pressure|thyroid|cholesterol|pain|back|joints|sleep|blood sugar)$", C.CONTEXT, 0.9),
    _need(rf"^my (?P<v>{BODY_EN}) (?:is|are|has been|have been|'s) {ADV_EN}(?:(?:a bit|quite|pretty|really|very|too|always|a little)\s+)*{BODY_STATE_EN}\b.*$", C.CONTEXT, 0.9),
    # reactions: "Penicillin gives me hives", "I get a rash from nickel", "I react badly to codeine"
    _need(rf"^(?P<v>[\w' -]{{2,40}}?) (?:(?:always|usually|really|just|sometimes|tends? to|can)\s+)*(?:makes?|gives?|brings?(?: me)? out in|leaves?) (?:me|my(?! (?:{KIN_EN_OWNED}|friends?|dog|cat|pets?)\b)(?: \w+){{1,2}}?) (?:out in )?(?P<s>{SYMPTOM_EN})\b.*$", C.CONTEXT, 0.9, None, _reaction, _reactor),
    _need(r"^(?P<v>[\w' -]{2,40}?) (?:(?:always|usually|really|just|sometimes|tends? to|can)\s+)*(?:triggers?|sets? off|aggravates?|worsens?|upsets?|irritates?|messes (?:up|with)|wrecks?) my (?:asthma|eczema|migraines?|allergies|hay fever|ibs|reflux|psoriasis|rosacea|sinuses|stomach|gut|skin|digestion|throat|tummy)\b.*$", C.CONTEXT, 0.9, None, _reaction, _reactor),
    _need(r"^(?P<v>[\w' -]{2,40}?) (?:(?:doesn't|don't|does not|do not) agree|disagrees?) with me$", C.CONTEXT, 0.9, None, _reaction, _reactor),
    _need(rf"^I {ADV_EN}(?:get|develop|come out in|break out in|break out with) (?P<s>{SYMPTOM_EN})(?: (?:on|all over) my \w+)? (?:from|after|around|with|when(?:ever)? I (?:eat|drink|touch|use|have|take|wear|smell|am around|'m around)|after (?:eating|drinking|touching|using|having|taking|wearing)) (?P<v>.+)$", C.CONTEXT, 0.9),
    _need(rf"^I {ADV_EN}(?:break out|get sick|feel sick|get ill|swell up|start sneezing|start wheezing) (?:from|after|around|when(?:ever)? I (?:eat|drink|touch|use|have|take|wear|smell)|after (?:eating|drinking|touching|using|having|taking|wearing)) (?P<v>.+)$", C.CONTEXT, 0.9),
    _need(rf"^I {ADV_EN}(?:react|reacted|respond) (?:(?:really|very|quite)\s+)?(?:badly|poorly|strongly|terribly|allergically) to (?P<v>.+)$", C.CONTEXT, 0.9),
    _need(r"^I (?:have|get) (?:an? )?(?:(?:bad|severe|allergic|terrible|awful|nasty|serious|skin)\s+)+reactions? to (?P<v>.+)$", C.CONTEXT, 0.9),
    _need(r"^I have (?P<v>celiac|coeliac)(?: disease)?$", C.CONTEXT, 0.95),
    _need(rf"^I {ADV_EN}(?:don't|never|can't|won't|no longer) (?:eat|drink|consume|touch|handle|tolerate|digest) (?P<v>.+)$", C.PREFERENCE, 0.95),
    # "I don't do dairy", "I don't really do gluten": a food left out, said casually
    _need(rf"^I (?:don't|do not) {ADV_EN}do (?P<v>(?:{NEED_THING_EN})(?:(?:,\s*(?:and |or )?|\s+(?:and|or)\s+)(?:{NEED_THING_EN}))*)(?: (?:at all|either|as well|too))?$", C.PREFERENCE, 0.9, None, _render("User avoids {v}")),
    # "Shellfish is off limits for me", "Peanuts are a no-go for me": "User avoids shellfish"
    _need(rf"^(?P<v>(?:{NEED_THING_EN})(?:(?:,\s*(?:and |or )?|\s+(?:and|or)\s+)(?:{NEED_THING_EN}))*) (?:is|are|'s) {ADV_EN}(?:strictly |totally |completely )?(?:off[- ]limits|an? (?:hard |big )?no[- ]go|forbidden|not allowed|out of the question|off the (?:menu|table)) for me$", C.PREFERENCE, 0.9, None, lambda m, _c: f"User avoids {_lower_first(m['v'].strip())}"),
    # "I can't have dairy": of a thing one eats or reacts to only ("I can't have pets" is no
    # diet, nor "I can't have cats": a landlord's rule as often as an allergy)
    _need(rf"^I {ADV_EN}(?:can't|cannot|can not|must not|mustn't) have (?:any )?(?=(?-i:[a-z]))(?!{_PETS_EN})(?P<v>(?:{NEED_THING_EN})(?:(?:,\s*(?:and |or )?|\s+(?:and|or|nor)\s+)(?:{NEED_THING_EN}))*)(?: anymore| at all| either| now)?$", C.PREFERENCE, 0.95),
    _need(rf"^I {ADV_EN}(?:don't|never|no longer) (?P<v>drink|smoke|vape|drink alcohol|drink caffeine)$", C.PREFERENCE, 0.9),
    _need(rf"^I(?:'ve| have) {ADV_EN}been (?:an? )?(?P<v>{DIET_EN})(?: (?:for|since) .+)?$", C.PREFERENCE, 0.95),
    _need(rf"^I(?:'m)? {ADV_EN}(?:do|doing|practi[cs]e|practi[cs]ing|follow|following) (?P<v>{FASTING_EN})$", C.PREFERENCE, 0.9),
    _need(rf"^I(?:'ve| have)? {ADV_EN}(?:stopped|quit|given up|gave up|cut out) (?P<v>(?:eating|drinking|consuming) .+?)(?: (?:a few |a couple of |\w+ )?(?:years?|months?|weeks?) ago| (?:last|this) year| recently| a while ago| long ago)?$", C.PREFERENCE, 0.9),
    _need(rf"^I'm {ADV_EN}(?:(?:a|an|strictly|strict|fully|mostly|pretty much|now)\s+)*(?P<v>{DIET_EN}|teetotal(?:er|ler)?)(?: now| these days| nowadays| since {SINCE_WHEN_EN})?$", C.PREFERENCE, 0.95),
    _r(rf"^I'm {ADV_EN}(?:teaching myself|picking up|getting into|brushing up on) (?P<v>.+)$", C.KNOWLEDGE, 0.85),
    _need(r"^I (?:only )?eat (?:only )?(?P<v>halal|kosher|vegetarian|vegan|plant-based)(?: food| meals)?(?: only)?$", C.PREFERENCE, 0.95),
    _need(r"^I (?:strictly |always )?(?:keep|observe|follow) (?P<v>kosher|halal|lent|ramadan)$", C.PREFERENCE, 0.95),
    _need(r"^I(?:'m (?:on|following)| follow| keep| stick to| eat) (?:an? |my )?(?P<v>[\w -]+?) diet$", C.PREFERENCE, 0.9),
    _need(rf"^I {ADV_EN}only (?:eat|drink|buy|cook with|order) (?P<v>.+)$", C.PREFERENCE, 0.9),
    _r(rf"^I {ADV_EN}(?:watch|limit|cut back on|cut out|cut down on|stay off|keep away from) (?:my )?(?P<v>(?!it\b|this\b|that\b|you\b|the (?:news|game|show|movie)\b).+)$", C.PREFERENCE, 0.85),
    _r(rf"^I {ADV_EN}(?:avoid|stay away from|steer clear of) (?P<v>.+)$", C.PREFERENCE, 0.9),
    # what the user reads, and a wish for some day
    # a work seen, read or heard, then the taste of it: "I watched Oppenheimer last night and
    # loved it" is "User loved Oppenheimer" (the watching was a moment, the taste is not)
    _r(_taste_of_tried("loved|liked|enjoyed|adored"), C.PREFERENCE, 0.85, "taste+", _render("User {t} {v}")),
    _r(_taste_of_tried("hated|disliked|loathed"), C.PREFERENCE, 0.85, "taste-", _render("User {t} {v}")),
    _r(r"^I (?:mostly |mainly |usually |mostly just )?read (?!(?:(?:mostly|mainly|a lot of|lots of|mostly just) )?(?:your|the|this|that|it|an?|my|his|her|their|those|these|about|up|somewhere|online|in|on)\b)(?:mostly |mainly |a lot of |lots of |mostly just )?(?P<v>[\w' -]{3,60})$", C.BEHAVIOR, 0.85),
    _r(r"^I'd (?:really )?(?:like|love) to (?!.*\b(?:answer|reply|response|this|that|it|working|back|sleep|pizza|him|her|them|you|your|bug)\b)(?P<v>.+?),? (?:eventually|someday|some day|one day|in the future|in a few years|before I (?:die|turn \d+))$", C.GOAL, 0.85),
    # name
    _r(r"^my (?:full |first |real )?name(?: is|'s) (?P<v>.+)$", C.CONTEXT, 0.95, "name", _render("User's name is {v}"), _name_ok),
    _r(r"^I(?:'m called| go by) (?P<v>.+)$", C.CONTEXT, 0.95, "name", _render("User's name is {v}"), _proper_name),
    _r(r"^(?:everyone|everybody|people|my friends|friends) calls? me (?P<v>.+)$", C.CONTEXT, 0.9, "nickname", _render("User goes by {v}"), _proper_name),
    _r(r"^(?:(?:you can|please|just)\s+)*call me (?P<v>.+)$", C.CONTEXT, 0.95, "name", _render("User likes to be called {v}"), _proper_name),
    # a generation: "I'm Gen Z", "I'm a millennial" (no name: "Gen Z")
    _r(r"^I'm (?:(?:a|an|also|technically|basically) )*(?P<v>(?-i:Gen(?:eration)?)[ -]?(?:[XYZ]|Alpha)|gen(?:eration)?[ -]?(?:[xyz]|alpha)|millennial|zoomer|(?:baby )?boomer|xennial)$", C.CONTEXT, 0.9, "age"),
    # (not a book or a series being read or watched: "I'm watching Succession" goes on)
    _r(r"^I'm (?!(?:now |currently |still |also |actually )?an? )(?!(?:(?:now|currently|still|also|actually|just) )?(?:re)?(?:reading|watching) )(?P<v>[\w'-]+(?: [\w'-]+){0,2})$", C.CONTEXT, 0.9, "name", _render("User's name is {v}"), _proper_name),
    # "I'm a foodie", "I'm a perfectionist" go on to the own-words fallback, but not a degree
    # of a passing state, a half-said "I'm a fan", or what the chat partner is ("I'm a bit
    # tired", "I'm a lot better now", "I'm a human"), nor a name called in jest ("I'm an idiot")
    # (a degree goes on to any state, "I'm a tiny bit nervous", "I'm a bit under the weather",
    # but "a bit of a foodie" is one; the partner's "person", "a mess", "an idiot" are said
    # alone or of the moment: "I'm a person with diabetes", "I'm a mess with money" are facts;
    # "I'm a yes", "I'm a test message" answer the chat)
    _r(r"^I'm (?:(?:now|currently|still|also|actually|just|such) )?(?P<v>an? (?:"
       r"(?:tiny |teeny |wee |little )?(?:lot|bit|little|tad|touch)(?! of an? )(?! like\b)(?! person\b)(?: .+)?"
       r"|(?:(?:big|huge|massive|great|total|die-hard|long-?time|loyal|real) )?fan(?: of (?:yours|you|this|that|it|the idea|your work))?"
       r"|(?:(?:complete|total|absolute|real|proper|right|bit of an?|actual|living|regular|little) )?(?:bot|robot|human|human being|real person|person|ai|machine|chatbot|language model|idiot|moron|fool|dummy|genius|mess|wreck|disaster|happy camper|nobody|loser|jerk|dork|clown)"
       r"|(?:yes|no|maybe|go|no-go|ok|okay|test|test message|question|sure thing|done deal)"
       r")(?: (?:today|tonight|right now|now|at the moment|lately|again|too|here|lol|haha|honestly|though|sometimes|tbh))*)$", C.CONTEXT, 0.9, None, None, _no_fact),
    # a condition said by its short form: "I'm T1D", "I'm ADHD" (not "I'm ADD" of "add")
    _need(r"^I'm (?P<v>(?-i:T[12]D|ADHD|AuDHD|OCD|PTSD|C-?PTSD|BPD|ASD|PCOS|IBS|COPD|GERD|POTS|EDS|MCAS|HIV\+?))$", C.CONTEXT, 0.9, None, _render("User has {v}")),
    # instructions addressed to the assistant, said with "I want you to…"
    _r(r"^I(?: want| need| would like|'d like) you to (?P<v>(?:always|never) .+)$", C.PREFERENCE, 0.9, None, _render(_EN_INSTRUCTION + "{v}")),
    _r(r"^I(?: want| need| would like|'d like) you to (?P<v>(?:use|keep|write|reply|respond|answer|give|include|format|talk|speak|address|avoid|skip|stop)\b.{2,80}?),?\s+(?:from now on|going forward|moving forward|in (?:the )?future)$", C.PREFERENCE, 0.9, None, _instruction, _about_answers),
    # age: "I'm 29", "I'm 29 years old", "I just turned 40" (a number a person can be)
    _r(r"^I'm (?:now |only |already |just )?(?P<v>\d{1,3})(?: ?(?:years?|yrs?)(?: old)?| ?(?:yo|y/o|y\.o\.))?(?: now)?$", C.CONTEXT, 0.9, "age", _render("User is {v} years old"), _an_age),
    _r(r"^I'm an? (?P<v>\d{1,3})[- ]years?[- ]old(?: [\w-]+){0,2}$", C.CONTEXT, 0.9, "age", None, _an_age),
    _r(r"^I (?:just |recently )?turned (?P<v>\d{1,3})(?: (?:years?|yrs?)(?: old)?)?$", C.CONTEXT, 0.9, "age", _render("User is {v} years old"), _an_age),
    # an age said as a decade: "I'm in my mid-thirties", "I'm in my early 20s"
    _r(r"^I'm (?:now |still )?in my (?P<v>(?:(?:early|mid|late)[- ]?)?(?:teens|twenties|thirties|forties|fifties|sixties|seventies|eighties|nineties|[2-9]0['’]?s))(?: now)?$", C.CONTEXT, 0.9, "age", _render("User is in their {v}")),
    # family, pets, marital status
    _r(rf"^I have (?P<v>{NUM_EN} (?:(?:young|little|small|grown|grown-up|teenage|adult|baby|twin|new|lovely|beautiful|adopted|older|younger|big|elder)\s+)*(?:kids?|children|child|sons?|daughters?|boys?|girls?|babies|baby|grandchildren|grandkids|twins|toddlers?|teenagers?|wife|husband|partner|spouse|fianc[ée]e?|girlfriend|boyfriend|brothers?|sisters?|siblings?|dogs?|cats?|puppy|puppies|kittens?|pets?|parrot|rabbit|hamster)\b.*)$", C.CONTEXT, 0.9),
    _r(r"^I'm (?:(?:happily|recently|newly|now|currently|officially) )?(?P<v>married|divorced|single|engaged|widowed|separated)(?: (?:to|with) .+?)?(?: now| again| these days)?$", C.CONTEXT, 0.9, "marital"),
    # "I got married last month", "We got engaged": the new status takes the old one's place
    _r(rf"^I (?:just |finally |recently )?(?:got|have got|'ve got|have gotten) (?P<v>married|divorced|engaged|separated)(?:(?<=married|engaged) to [\w' -]{{1,40}}|(?:(?<=divorced)|(?<=separated)) from (?:(?:my|their) (?:ex-?)?(?:{SPOUSE_EN}|{PARTNER_EN})|(?-i:[A-Z][\w'-]*(?: [A-Z][\w'-]*){{0,2}})))?{AGO_EN}$", C.CONTEXT, 0.9, "marital"),
    _r(r"^I'm (?:a |an )?(?:proud |single |new |first-time |working |full-time |busy )*(?P<v>mom|mum|mother|dad|father|parent|grandmother|grandfather|grandma|grandpa)(?: of .+)?$", C.CONTEXT, 0.9),
    # ("20 weeks pregnant", "pregnant with twins", "breastfeeding": what to eat and take follows)
    _r(r"^I'm (?:(?:currently|now|still|also) )?(?:(?:about |almost |nearly |over )?(?:\d{1,2}|a few|a couple of|[a-z]+) (?:weeks?|months?) )?"
       r"(?P<v>pregnant|expecting a baby|breastfeeding|nursing(?= (?:my|our) (?:baby|newborn|infant|son|daughter|little one)$))"
       r"(?: (?:with (?:twins|triplets|(?:my|our) (?:first|second|third|fourth) (?:child|baby|kid))|(?:my|our) (?:baby|newborn|infant|son|daughter|little one)|again|right now|now|at the moment|currently))?$", C.CONTEXT, 0.9),
    # height: "I'm 6'2", "I'm 5 ft 4", "I'm 170 cm tall"
    _r(r"^I'm (?:about |around |only |just |almost |nearly |over )?(?P<v>\d(?:'|’| ?(?:ft|feet|foot))(?: ?\d{1,2}(?:\"|”|''| ?(?:in|inches))?)?|\d{3} ?cm)(?: tall)?$", C.CONTEXT, 0.9, "height", _render("User is {v} tall")),
    # knowledge and skills
    _r(rf"^I'm {ADV_EN}(?:not (?:very |that |too |so |really |particularly |great |all that )?)?(?:a |an )?(?:complete |total |absolute |relative )?(?:beginner|novice|newbie|new|expert|proficient|fluent|experienced|familiar|comfortable|good|great|bad|terrible|rusty|self-taught) (?:at|in|with|to) (?P<v>.+)$", C.KNOWLEDGE, 0.85),
    _r(r"^I (?:can )?speak (?P<v>.+)$", C.KNOWLEDGE, 0.9),
    _r(r"^I'm a native (?P<v>[\w-]+) speaker$", C.KNOWLEDGE, 0.9),
    _r(r"^my (?:mother tongue|native (?:language|tongue)|first language) is (?P<v>[\w-]+(?: [\w-]+)?)$", C.KNOWLEDGE, 0.9, None, _render("User's native language is {v}")),
    _r(r"^I(?:'ve| have) (?:been )?\w+ing (?P<v>.+?) for (?:over |more than |about |almost |nearly )?(?:\d+|one|two|three|four|five|six|seven|eight|nine|ten|many|several|a few) (?:years?|decades?)$", C.KNOWLEDGE, 0.85),
    _r(r"^I have (?:over |more than |about |nearly )?(?:\d+|one|two|three|four|five|six|seven|eight|nine|ten|many|several) years? of (?:\w+ )?experience (?:in|with|as) (?P<v>.+)$", C.KNOWLEDGE, 0.85),
    _r(r"^I'm (?:currently |now )?(?:learning|studying) (?P<v>.+)$", C.KNOWLEDGE, 0.85),
    _r(r"^I know (?P<v>.+?) (?:well|fluently|very well|inside out|pretty well)$", C.KNOWLEDGE, 0.85),
    # work
    _r(r"^I (?:currently |now )?work as (?:an? |the )?(?P<v>.+)$", C.CONTEXT, 0.9, "job"),
    _r(rf"^I'm (?:now |currently )?(?!(?:an? |the )?(?:(?:really|pretty|very|such an?|quite|total|complete) )?(?:terrible|bad|awful|lousy|horrible|mediocre|natural|born|wannabe|frustrated|aspiring|amateur|failed|crap|rubbish|worse)\b)(?!.*\b(?:at heart|in another life|in my dreams)$)(?:an? |the )?(?!not\b|no\b|never\b)(?P<v>(?:(?!(?:of|to|for|with)\b)[\w+#./'-]+\s+){{0,3}}?(?:{PROF_EN}))s?(?:\s+(?:now|these days|nowadays))?(?:\s+(?:at|for|in|on|with|from|of|by)\s+.+)?$", C.CONTEXT, 0.9, "job"),
    # a service one belongs to: "I'm in the army", "I'm serving in the navy" (not "…in the police station")
    _r(rf"^I'm (?:now |currently |still )?(?:serving )?in the (?P<v>{_SERVICE_EN})(?: (?:now|reserves|as an? [\w -]{{1,30}}|for [\w ]{{1,20}}))?$", C.CONTEXT, 0.9, "job"),
    _r(r"^I'm (?:now |currently )?(?P<v>retired|unemployed|self-employed|between jobs|a stay-at-home (?:mom|mum|dad|parent)|a homemaker)(?: (?:right now|at the moment|for now|these days|now|nowadays))?(?: and (?:job hunting|looking for work|looking for a job))?$", C.CONTEXT, 0.9, "job"),
    # "I retired last year", "I've just retired from teaching": the job before is over
    _r(rf"^I(?:'ve| have)? (?:just |finally |recently )?(?P<v>retired)(?: from (?:teaching|nursing|the (?:army|navy|police|force|civil service)|my job|work|[\w' -]{{1,30}}))?{AGO_EN}$", C.CONTEXT, 0.9, "job"),
    _was(r"^I used to (?:be|work as) (?:an? |the )?(?P<v>[^,;]+)$", C.CONTEXT, 0.85),
    # "I used to work at Acme", "I used to smoke", "I used to love jazz": the habit or place
    # with its verb is withdrawn ("works at Acme", "smokes", "loves jazz"), not every
    # fact naming Acme or jazz. Not "I used to think/say…" (an opinion or the chat).
    _no_longer(r"^I used to (?P<v>(?!(?:be|think|believe|say|tell|ask|wonder|feel like|get|it|them|this|that)\b)[a-z]+(?: (?:(?! (?:but|and|now|though|until|till)\b)[^,;])+)?)$"),
    _r(rf"^I (?:currently |now )?work (?:at|for) (?!(?:an? |my |the )?(?:boss|manager|guy|man|woman|person|people|someone|somebody|client|customer)s?\b)(?!{NOT_AN_EMPLOYER_EN})(?P<v>(?:(?!\b(?:who|whom|which|that)\b).)+)$", C.CONTEXT, 0.9, "employer"),
    # "I work in a bakery": a workplace, as "at a bakery" is (not "in IT", "in London"; nor
    # "in the office", "in the kitchen": a part of the employer's, said by itself)
    _r(rf"^I (?:currently |now )?work in (?P<v>(?:an? |{_THE_NAMED_PLACE}){WORKPLACE_EN})(?: {_WORKPLACE_TAIL})?$", C.CONTEXT, 0.9, "employer"),
    # …said as going on: "I'm working at Tesco", "I'm currently working for the NHS", "I'm
    # working in a bakery" (not "…at home", "…at the moment": NOT_AN_EMPLOYER_EN)
    _r(rf"^I'm (?:currently |now )?working (?:at|for) (?!(?:an? |my |the )?(?:boss|manager|guy|man|woman|person|people|someone|somebody|client|customer|home|the moment|moment|it|this|that)s?\b)(?!{NOT_AN_EMPLOYER_EN})(?P<v>(?:(?!\b(?:who|whom|which|that)\b).)+)$", C.CONTEXT, 0.9, "employer"),
    _r(rf"^I'm (?:currently |now )?working in (?P<v>(?:an? |{_THE_NAMED_PLACE}){WORKPLACE_EN})(?: {_WORKPLACE_TAIL})?$", C.CONTEXT, 0.9, "employer"),
    _r(r"^I (?:currently |now )?work in (?P<v>.+)$", C.CONTEXT, 0.85),
    _r(r"^I (?:currently |now |mostly |usually )?work (?P<v>(?:from home|remotely|remote|part-time|full-time|night shifts?|nights|freelance)\b.*)$", C.CONTEXT, 0.85),
    _r(r"^my (?:job|profession|occupation|role|job title|title) is (?P<v>.+)$", C.CONTEXT, 0.9, "job"),
    _r(r"^I (?:teach|own|manage) (?P<v>.+)$", C.CONTEXT, 0.85),
    # where the user lives and comes from
    _r(rf"^I {ADV_EN}(?:currently |now )?(?:live|reside) in (?!{NOT_A_PLACE_EN})(?P<v>.+)$", C.CONTEXT, 0.9, "location"),
    _r(rf"^I'm (?:currently |now )?(?:based|living|located|residing|settled) (?:in|out of) (?!{NOT_A_PLACE_EN})(?P<v>.+)$", C.CONTEXT, 0.9, "location"),
    # (not "I moved to a new job at a clinic", "…to the night shift": no place to live)
    _r(r"^I (?:just |recently )?(?:moved|relocated) to (?!(?:an? |the |my )?(?:new |different |another )?(?:job|role|position|team|department|company|shift|night shift|day shift|school|class|grade|plan|version|tier)\b)(?P<v>.+)$", C.CONTEXT, 0.9, "location"),
    _r(r"^I (?:just |recently )?(?:moved|relocated) from (?:[\w' -]{1,40}?) to (?P<v>.+)$", C.CONTEXT, 0.9, "location"),
    # "…used to live in Berlin, now I'm in Madrid" (text.py reads "now" so only after a past
    # home of the user's): where the user lives now ("I'm back home in Cork" may be a visit)
    _r(r"^I'm now (?:back )?(?:home )?in (?P<v>[\w'-]+(?: [\w'-]+){0,3})$", C.CONTEXT, 0.9, "location", _render("User lives in {v}"), _proper_name),
    _r(r"^I'm (?:originally )?from (?P<v>.+)$", C.CONTEXT, 0.9, "origin", None, _place_name),
    # a heritage: "I'm half Korean", "I'm Mexican-American", "I'm Irish on my mum's side"
    _r(rf"^I'm {ADV_EN}(?:(?:half|part|partly|a quarter|one quarter|proudly|fully|100%)[- ])?(?P<v>{DEMONYM_EN}(?:[- ]{DEMONYM_EN})?(?:(?:,| and)(?: half| part)? {DEMONYM_EN})*(?:-born)?)(?: (?:by (?:birth|blood|heritage|descent)|on my (?:mum|mom|mother|dad|father)'s side))?$", C.CONTEXT, 0.85),
    _r(r"^I (?:grew up|was born and raised|was raised) in (?P<v>.+)$", C.CONTEXT, 0.9, "origin"),
    _r(r"^I was born in (?P<v>.+)$", C.CONTEXT, 0.9),
    # preferences
    _r(rf"^I'm {ADV_EN}(?:a (?:big |huge |great |massive )?fan of|into|passionate about|fond of|crazy about|obsessed with|a lover of|keen on) (?P<v>.+)$", C.PREFERENCE, 0.9, "taste+"),
    # (not "interested in your thoughts", "…in what you think", "…in hearing more": the chat)
    _r(rf"^I'm {ADV_EN}(?:(?:quite|pretty|more|most|deeply|keenly|super) )?interested in (?P<v>.+)$", C.PREFERENCE, 0.85, "taste+", None, _an_interest),
    _r(rf"^I {ADV_EN}(?:don't|can't|won't) {ADV_EN}(?:like|stand|bear|enjoy|love|care for) (?P<v>.+)$", C.PREFERENCE, 0.9, "taste-", None, _not_a_gripe),
    _r(rf"^I {ADV_EN}(?:hate|dislike|detest|loathe|despise) (?P<v>.+)$", C.PREFERENCE, 0.9, "taste-", None, _not_a_gripe),
    _r(rf"^I'm {ADV_EN}not (?:really |that |very |too |so |much |at all |particularly )?(?:a (?:big |huge |great )?fan of|into|keen on|fond of|a lover of|interested in) (?P<v>.+)$", C.PREFERENCE, 0.9, "taste-", None, _an_interest),
    # a fear: "I'm terrified of heights", "I'm scared of dogs" (not "…of it", "…of what happens")
    _r(rf"^I'm {ADV_EN}(?:(?:deathly|terribly|pretty|quite|a (?:little|bit)|kind of|kinda|super|always been) )?(?:afraid|scared|terrified|frightened|petrified|fearful) of (?P<v>.+)$", C.CONTEXT, 0.85, None, None, _not_of_the_moment),
    _r(r"^I'm not (?:really |much of )?an? (?P<v>morning|night|people|cat|dog|beach|city|outdoors|party|winter|summer) person(?: at all)?$", C.PREFERENCE, 0.9),
    _r(rf"^I {ADV_EN}(?:like|love|enjoy|adore|prefer|appreciate) (?P<v>.+)$", C.PREFERENCE, 0.9, "taste+", None, _not_in_jest),
    _r(r"^I'd (?:much )?rather (?!not (?:say|answer|share|discuss|talk about it|get into it|go into it)\b)(?P<v>.+)$", C.PREFERENCE, 0.9),
    _r(r"^my (?:all-time |absolute )?favou?rite (?P<k>[\w' -]+?) (?:is|are) (?P<v>.+)$", C.PREFERENCE, 0.9, "fav"),
    # …said the other way round: "Hiking is my favourite hobby", "Blue is my all-time favorite colour"
    _r(r"^(?!(?:it|this|that|these|those|which|what|there|here|he|she|they|you|your|my|his|her|their|our|the one)\b)(?P<v>[\w'’ -]{2,40}?) (?:is|are) (?:definitely |probably |still |easily |by far )?my (?:all-time |absolute |most )?favou?rite (?P<k>[\w' -]{2,30}?)(?: (?:of all(?: time)?|ever|in the world|by far|now|these days|nowadays))?$", C.PREFERENCE, 0.9, "fav", _favourite_first, _a_favourite_named),
    # "Sci-fi is my jam", "board games are my thing": a taste said of the thing
    _r(rf"^(?!(?:it|this|that|these|those|which|what|there|here|he|she|they|you|your)\b)(?P<v>[\w'’ -]{{2,40}}?) (?:is|are) {ADV_EN}(?:totally |kind of |kinda )?my (?:jam|thing|go-to|guilty pleasure|happy place|comfort food)$", C.PREFERENCE, 0.9, "taste+", lambda m, _clause: f"User loves {_lower_first(m['v'])}"),
    # …and its reverse: "Jazz isn't really my thing these days", "opera is not my cup of tea"
    # (not "…isn't just my thing, it's my passion", nor "my wife says jazz isn't my thing")
    _r(r"^(?!(?:it|this|that|these|those|which|what|there|here|he|she|they|you|your|my|i|the)\b)(?P<v>(?:(?!\b(?:says?|said|thinks?|think|told|knows?|feels?|really|just)\b)[\w'’ -]){2,40}?) (?:really |honestly )?(?:isn't|is not|aren't|are not|'s not|'re not) (?:really |totally |even )?my (?:thing|jam|cup of tea|scene)(?: (?:anymore|any more|these days|now|lately|nowadays))?$", C.PREFERENCE, 0.9, "taste-", lambda m, _clause: f"User does not like {_lower_first(m['v'])}"),
    # goals
    _r(r"^my (?:main |big |biggest |long-term |ultimate |career |life |new year'?s? )?(?:goal|dream|aim|ambition|plan|objective|resolution)(?: for [\w ]+| this (?:year|month|summer|winter|spring|autumn|fall))?(?: is|'s) (?P<v>.+)$", C.GOAL, 0.85),
    # "goal for this year: read 40 books", "new year's resolution: learn to swim"
    _r(r"^(?:(?:goal|resolution|ambition)(?: for (?:this|next|the) (?:year|month|summer|winter|spring|autumn|fall)| for 20\d\d| this (?:year|month|summer|winter|spring|autumn|fall))|new year'?s (?:goal|resolution)): (?P<v>.+)$", C.GOAL, 0.85, None, _render("User's goal: {v}"), _not_a_task),
    _r(rf"^I(?: {ADV_EN}(?:plan|intend|aim|hope)|'m {ADV_EN}(?:planning|hoping|aiming|saving up|saving|preparing|working towards?)) (?:to|on|for|towards?) (?P<v>.+)$", C.GOAL, 0.85, None, None, _not_a_task),
    _r(rf"^I {ADV_EN}(?:want|wanna|would love|'d love|dream of) to (?P<v>(?:{GOAL_VERBS_EN})\b.*)$", C.GOAL, 0.85, None, None, _not_a_task),
    # "I'd like to run a half marathon next spring" (a goal verb: not "I'd like to order")
    _r(rf"^I(?:'d| would) {ADV_EN}like to (?P<v>(?:{GOAL_VERBS_EN})\b.*)$", C.GOAL, 0.85, None, None, _not_a_task),
    _r(rf"^I'm {ADV_EN}trying to (?P<v>(?:{GOAL_VERBS_EN})\b.*)$", C.GOAL, 0.85, None, None, _an_effort),
    _r(rf"^I'm {ADV_EN}(?:training|studying|revising|cramming|practi[cs]ing|getting ready|gearing up) for (?P<v>.+)$", C.GOAL, 0.85, None, None, _not_a_task),
    # a change of life to come: "I'm retiring next year", "I'm graduating in May", "I'm moving
    # to Leeds next week" (read with its day too: text.py)
    _r(rf"^I'm {ADV_EN}(?:(?:finally|officially|soon|about to be) )?(?P<v>(?:retiring|graduating|getting (?:married|divorced|engaged)|having (?:a baby|twins|our (?:first|second|third) (?:child|baby))|expecting (?:a baby|twins|our (?:first|second|third) (?:child|baby))|starting (?:a|my) new (?:job|role|position)|changing (?:jobs|careers)|going back to (?:work|school|college|uni(?:versity)?)|(?:moving|relocating|emigrating) to [\w' -]{{2,40}}?)(?:(?: (?:next|this|in|on|at the end of|by|after|before|soon|later|early|late|tomorrow|today|tonight)\b.*)|(?: to [\w -]{{2,30}}))?)$", C.GOAL, 0.8, None, None, _a_life_change),
    # a school to come: "I'm going to college next year", "I'm starting law school in the fall"
    _r(rf"^I'm {ADV_EN}(?:going|starting|heading|going back|returning|off|applying|about to start) (?:to )?(?P<v>(?:college|university|uni|grad school|graduate school|law school|med school|medical school|nursing school|art school|culinary school|film school|community college|business school|dental school|vet school|seminary)\b(?!.*\bto (?:pick|drop|get|meet|see|grab|collect|visit|drive|give|bring|take|fetch)\b).*)$", C.GOAL, 0.8),
    # a search that lasts: "I'm looking for a new job", "I'm house hunting" (not "…for a place to eat")
    # (the thing sought is the last word of its noun, so not "work shoes", "a house plant", "a
    # flat white", "job interview tips"; not one sought for another, "a new home for my cat";
    # a partner is not "my wife": helper 355)
    _r(rf"^I'm {ADV_EN}(?:(?:actively|still) )?(?:looking|searching|hunting) for (?P<v>(?:(?:an? |my |our )?{_SOUGHT_ADJ}*(?:job|apartment|flat|house|home|place to live|position|role|internship|career|work)|(?:an? )?{_SOUGHT_ADJ}*(?:roommate|flatmate|partner|girlfriend|boyfriend|wife|husband))(?={_SOUGHT_ENDS}).*)$", C.GOAL, 0.8),
    _r(rf"^I'm {ADV_EN}(?:(?:actively|still) )?(?P<v>(?:job|house|home|apartment|flat)[- ]hunting\b.*)$", C.GOAL, 0.8),
    _r(rf"^I'm {ADV_EN}working on (?:my|improving my|getting) (?!(?:code|project|pr|branch|app|script|repo|bug|ticket|report|slides|homework|essay|laptop|computer|car)\b)(?P<v>.+)$", C.GOAL, 0.8),
    _r(rf"^I(?:'m| am) {ADV_EN}planning (?P<v>(?:a|an|my|our) (?:[\w-]+ )?(?:trip|vacation|holiday|journey|visit|move|wedding|sabbatical)\b.*)$", C.GOAL, 0.85),
    # habits
    _r(r"^I (?:usually|always|often|normally|typically|generally|mostly|rarely|seldom|never|tend to|regularly|frequently|habitually) (?P<v>.+)$", C.BEHAVIOR, 0.85),
    _r(r"^I (?P<v>(?!'m\b)\w+ .*?)\s+(?:(?:every|each|most) (?:days?|mornings?|evenings?|nights?|weeks?|weekends?|weekdays?|months?|years?|(?:mon|tues|wednes|thurs|fri|satur|sun)days?)|daily|weekly|on (?:weekends|weekdays|(?:mon|tues|wednes|thurs|fri|satur|sun)days)|at weekends|(?:once|twice|\w+ times) a (?:day|week|month))$", C.BEHAVIOR, 0.85),
    _r(rf"^I {ADV_EN}(?P<v>{HOBBY_VERBS_EN}(?: (?!it\b|this\b|that\b|around\b|along\b|with (?:it|this|that|the)\b).+)?)$", C.BEHAVIOR, 0.8),
    _r(rf"^I {ADV_EN}(?:rent|own|share|bought) (?:an? |my |our )?(?P<v>(?:[\w-]+ ){{0,2}}(?:flat|apartment|house|home|condo|studio|bungalow|cottage|farm|houseboat|townhouse|villa)\b.*)$", C.CONTEXT, 0.85),
    _r(rf"^I'm {ADV_EN}(?P<v>{TRAIT_EN})$", C.CONTEXT, 0.85),
    _r(r"^I'm (?:a|an) (?P<v>(?P<k>[\w-]+) person)$", C.PREFERENCE, 0.85, None, None, _not_a_judgement),
)
# fmt: on

# Clauses without a subject: instructions to the assistant.
# fmt: off
_EN_SUBJECTLESS_RULES: tuple[_Rule, ...] = (
    _r(r"^(?:from now on|going forward|moving forward|in the future|in future|henceforth|for future reference|next time)[,:]?\s+(?P<v>.+)$", C.PREFERENCE, 0.9, None, _standing(_EN_INSTRUCTION), _not_a_forecast),
    _r(r"^(?:can|could|would|will) you (?:please )?(?P<v>(?:always|never) (?:reply|respond|answer|write|use|include|add|give|format|keep|talk|speak)\b.*)$", C.PREFERENCE, 0.9, None, _render(_EN_INSTRUCTION + "{v}")),
    # (an order's verb is bare: "always speaks Cantonese" tells someone's habit, not an order)
    _r(r"^(?:please\s+)?(?:always|never|don't ever|do not ever)\s+(?!mind\b)(?!\w+(?<![su])s\b)(?!(?:an?|the|so|such|too|more|less|been|was|were|is|are|good|great|nice|fun|lovely|wonderful|awesome|cool|interesting|helpful|happy|glad|pleasant|boring|dull|easy|hard|welcome|appreciated|thankful|grateful|a pleasure|enough|better|worse|the same|again|ever|thought|been|had|seen|heard|felt|knew|known|expected|imagined)\b)(?P<v>.+)$", C.PREFERENCE, 0.9, None, _standing(_EN_INSTRUCTION)),
    _r(r"^(?:please\s+)?(?:don't|do not|stop)\s+(?P<v>.+?)\s+(?:anymore|any more|ever again)$", C.PREFERENCE, 0.9, None, _standing(_EN_INSTRUCTION)),
    # an order for every answer said last: "Can you keep answers under 100 words from now on?",
    # "Use metric units going forward"; "Don't use emojis with me" (not "Use the blue one for
    # me": without "don't", "never" or "always" it is one request)
    _r(r"^(?:please\s+)?(?:(?:can|could|would|will) you (?:please )?)?(?P<v>(?:don't |do not |never |always )?(?:use|keep|write|reply|respond|answer|give|include|add|format|talk|speak|address|avoid|skip|stop)\b.{2,80}?),?\s+(?:from now on|going forward|moving forward|in (?:the )?future)(?:,? please)?$", C.PREFERENCE, 0.9, None, _instruction, _about_answers),
    # how the answers should look, said once for all of them: "Please don't use emojis when you
    # reply to me", "Don't use bullet points in your answers", "Please keep explanations simple"
    _r(r"^(?:please\s+)?(?:don't|do not)\s+(?:use|include|add|put)\s+(?P<v>[\w -]{2,40}?)\s+(?:when(?:ever)? you (?:reply|respond|answer|write|talk)(?: to me)?|in (?:your|any of your) (?:answers|replies|responses|messages)(?: to me)?)(?:,? please)?$", C.PREFERENCE, 0.9, None, _standing(_EN_INSTRUCTION)),
    _r(r"^(?:please\s+)?(?P<v>(?:don't|do not|never|always) (?:use|write|reply|respond|answer|give|include|add|talk|speak|send)\b.{2,60}?)\s+(?:with me|when (?:you(?:'re| are)? )?(?:talking|talk|writing|write|replying|reply) to me)(?:,? please)?$", C.PREFERENCE, 0.9, None, _instruction, _about_answers),
    _r(r"^(?:please\s+)?keep\s+(?:your\s+|the\s+)?(?:answers|explanations|replies|responses)\s+(?P<v>short|simple|brief|concise|plain|jargon-free|to the point)(?:,? please| for me)?$", C.PREFERENCE, 0.9, None, _standing(_EN_INSTRUCTION)),
    _need(r"^(?:no|zero|none) (?!problem|worries|thanks|way|idea|clue|rush|need|doubt|pressure|offen[cs]e|comment|hurry|kidding|joke|big deal|chance|more|one|matter)(?P<v>[\w -]{2,30}?) for me(?:,? (?:please|thanks|thank you))?$", C.PREFERENCE, 0.85, None, _render("User avoids {v}")),
)
# fmt: on

# fmt: off
_ZH_RULES: tuple[_Rule, ...] = (
    # (not a denial: "我对花生不过敏", "…并不过敏", "…没有过敏" stored "用户对花生不过敏" as a need)
    _need(rf"^我{ADV_ZH}(?:对|对于)(?!象(?!牙))(?!.*(?:不|没有?)(?:太|怎么|是很)?(?:严重|非常|很|有点|特别|比较|有些)?过敏(?:症)?$)(?P<v>.+?)(?:严重|非常|很|有点|特别|比较|有些)?过敏(?:症)?$", C.CONTEXT, 0.95, None, _render("用户对{v}过敏")),
    _need(rf"^我{ADV_ZH}(?:有)?(?!会|就|容易|一|吃|碰|喝|点|些|用|摸|的?(?:{KIN_ZH})|(?:都|也|还|全|又|总)+(?:严重|非常|很|有点)?过敏)(?P<v>[^对不没，,：:我你他她说]{{1,12}}?)(?:严重|非常|很|有点)?过敏(?:症)?$", C.CONTEXT, 0.95, None, _render("用户对{v}过敏")),
    _need(rf"^我{ADV_ZH}(?P<v>乳糖|麸质|酒精)不耐(?:受)?$", C.CONTEXT, 0.95),
    _need(rf"^我{ADV_ZH}对(?P<v>[^，,]{{1,12}}?)(?:很|非常|特别|比较|有点|有些|极其|超级)?(?:敏感|不耐受?)$", C.CONTEXT, 0.95, None, _render("用户对{v}敏感")),
    _need(rf"^我{ADV_ZH}{MEAL_TIME_ZH}?(?:平时|一般|从来|从|完全|根本|严格|坚决|绝对|坚持)?(?:不吃|不能吃|不敢吃|吃不了|不碰|不喝|不能喝|忌口|戒了|戒)(?P<v>[^了].*)$", C.PREFERENCE, 0.95),
    _need(rf"^我{ADV_ZH}(?:是)?(?:一个|一名|个|名)?(?:严格的|纯)?(?P<v>吃素|吃全素|吃纯素|吃斋|素食者|素食主义者|纯素食者|纯素主义者|素食|吃清真)(?:的)?(?:人)?{_DURATION_ZH}?$", C.PREFERENCE, 0.95),
    # meat again ("我又开始吃肉了", "我现在吃鱼了"): the diet it ends is withdrawn (text.py)
    _r(r"^我(?:现在|又|重新|已经|最近)+(?:开始)?(?P<v>吃(?:肉|鱼|荤|海鲜|鸡肉|牛肉|猪肉))了?$", C.PREFERENCE, 0.85),
    # a diet begun: "我最近开始吃素", "我已经改吃素了" (了 after the change: it lasts)
    _need(rf"^我{ADV_ZH}(?:开始|改成|改为|转为|改)(?P<v>吃素|吃全素|吃纯素|吃斋|吃清真)了?$", C.PREFERENCE, 0.95),
    _need(rf"^我{ADV_ZH}{MEAL_TIME_ZH}?只(?:吃|喝)(?P<v>[^了].*)$", C.PREFERENCE, 0.9),
    _need(rf"^我{ADV_ZH}(?:在|正在|一直在|最近在|开始)?(?:控|控制|限制|少吃|少喝)(?P<v>{NUTRIENT_ZH})(?:的?摄入量?)?$", C.PREFERENCE, 0.9),
    # reactions: "我一喝牛奶就拉肚子", "海鲜我不能吃，会起疹子", "花粉会让我打喷嚏" (no word of a
    # run of linking words is two others joined, "就会" of "就"+"会": a run of n could be
    # split 2^n ways, and 26 "就会" held the updater over a minute)
    _need(rf"^我{ADV_ZH}一?(?P<verb>吃|喝|碰|接触|闻到|用|戴|摸)(?:了|到)?(?P<v>[^，,就会]{{1,10}}?)(?:就|会|都会|容易|总是|总会|必|后|之后)+{BODY_ZH}?(?:会|就)?(?:有点|特别|很)?(?P<s>{SYMPTOM_ZH})$", C.CONTEXT, 0.9, None, _zh_reaction),
    _need(rf"^(?P<v>[^我你他她它，,]{{1,8}}?)我(?:是|也|都|真的|完全|根本|从来|一点也|一点都|可)?(?P<verb>碰不得|吃不得|喝不得|不能碰|不能吃|不能喝|不敢吃|不敢碰|不吃|不碰|不喝|吃不了|喝不了)(?:[，,]\s*(?:一[吃碰喝]就|[吃碰喝]了?|就|会|容易|不然会|否则会)*{BODY_ZH}?(?P<s>{SYMPTOM_ZH}))?$", C.CONTEXT, 0.9, None, _zh_topic, _zh_topic_allowed),
    _need(rf"^(?P<v>[^我你他她它，,]{{1,8}}?)(?:会|总会|都会|容易|总是)?(?:让|使|令)我的?{BODY_ZH}?(?P<s>{SYMPTOM_ZH})$", C.CONTEXT, 0.9, None, _zh_reaction, _zh_topic_allowed),
    _need(rf"^我{ADV_ZH}(?:有|患有|得了|得过)(?P<v>(?:一型|二型|1型|2型)?糖尿病|高血压|哮喘|癫痫|心脏病|痛风|肾病|乳糜泻|胃病|偏头痛|关节炎|听力障碍|视力障碍|残疾)$", C.CONTEXT, 0.95),
    _need(rf"^我{ADV_ZH}(?:是)?(?:一个|一名|个|名)?(?P<v>糖尿病人|糖尿病患者|色盲|盲人|聋人|残疾人|孕妇|视障人士|听障人士)$", C.CONTEXT, 0.95),
    _need(rf"^我{ADV_ZH}(?:需要|要|得)?(?:坐|用|戴|使用)(?P<v>轮椅|助听器|拐杖|胰岛素)$", C.CONTEXT, 0.95),
    # a medication taken: "我在吃华法林", "我每天打胰岛素", "我一直服用二甲双胍" (not a supplement:
    # "我在吃维生素", as "I take iron" alone is no need)
    _need(rf"^我{ADV_ZH}(?:一直|每天|长期|现在)*(?:在|正在)?(?:吃|服用|打|注射)(?!维生素|钙片|褪黑素|药$)(?P<v>{DRUG_NAME_ZH})$", C.CONTEXT, 0.9),
    # conditions: "我是哮喘患者", "我有慢性咽炎", "我腰椎不好", "我近视很深", "偏头痛是我的老毛病了"
    _need(rf"^我{ADV_ZH}是(?:一名|一个|一位|个|名)?(?P<v>[\u4e00-\u9fff]{{1,8}}?)(?:患者|病人|病患)$", C.CONTEXT, 0.9),
    _need(rf"^我{ADV_ZH}(?:有|患有|得了|得过|患了|查出了?|确诊了?|被诊断(?:出|为)了?)(?:很|比较|挺)?(?:严重的|轻微的|轻度|重度|中度|慢性|急性|过敏性)?(?![点些一个])(?=[\u4e00-\u9fff]{{2}})(?P<v>[\u4e00-\u9fff]{{0,6}}?{CONDITION_SUFFIX_ZH})$", C.CONTEXT, 0.9),
    # a condition said as what the user is, by its name ("我痛风", "我高血压，不能吃咸的")
    _need(rf"^我{ADV_ZH}(?:也|还|一直)?(?P<v>{CONDITION_NAME_ZH})$", C.CONTEXT, 0.9, None, _render("用户有{v}")),
    _need(rf"^我的?{ADV_ZH}(?P<v>{BODY_PART_ZH})(?:一直|从小|本来|有点|有些|比较|很|特别|非常|也|不太|都|一向)*{BODY_STATE_ZH}$", C.CONTEXT, 0.9),
    _need(rf"^我{ADV_ZH}(?:有)?(?:\d+度的?)?(?P<v>近视|远视|散光|老花|色弱|弱视|耳背)(?:眼)?(?:很|非常|特别|比较|有点|挺|越来越)?(?:严重|厉害|深|重|\d+度|[一二两三四五六七八九]百多?度)?了?$", C.CONTEXT, 0.9),
    _need(rf"^我{ADV_ZH}(?:长期|常年|经常)?(?P<v>失眠|便秘|耳鸣|贫血|低血糖|脱发|偏头痛|头痛|头疼|胃疼|腰疼){_DURATION_ZH}$", C.CONTEXT, 0.9),
    _need(r"^(?P<v>[\u4e00-\u9fff]{2,8}?)是我的(?:多年的|长期的)?老?(?:毛病|问题|病)了?$", C.CONTEXT, 0.9, None, _render("用户有{v}的老毛病")),
    # age: "我34岁", "我今年是28岁了", "我已经六十岁了"
    _r(r"^我(?P<t>今年|现在|已经|都)?是?(?P<v>\d{1,3}|[一二两三四五六七八九十百]{1,4})(?:周)?岁了?$", C.CONTEXT, 0.9, "age", _zh_age, _an_age),
    # the decade of birth, or its animal: "我是90后", "我属龙"
    _r(r"^我(?:是|算)?(?P<v>[5-9]0后|[01]0后|[五六七八九]零后)(?:的)?$", C.CONTEXT, 0.9, "age"),
    _r(rf"^我{ADV_ZH}属(?P<v>鼠|牛|虎|兔|龙|蛇|马|羊|猴|鸡|狗|猪)(?:的)?$", C.CONTEXT, 0.9),
    _r(rf"^我{ADV_ZH}叫(?![了过着做他她你它人车])(?P<v>{NAME_ZH})$", C.CONTEXT, 0.95, "name", _render("用户叫{v}")),
    _r(rf"^我的名字(?:是|叫)(?P<v>{NAME_ZH})$", C.CONTEXT, 0.95, "name", _render("用户叫{v}")),
    _r(rf"^(?:大家|朋友们?|别人|身边的人|同事们?)(?:都|一般|平时)*(?:叫|喊)我(?P<v>{NAME_ZH})$", C.CONTEXT, 0.9, "nickname", _render("大家叫用户{v}"), _zh_nickname),
    _r(rf"^我名叫(?P<v>{NAME_ZH})$", C.CONTEXT, 0.95, "name", _render("用户叫{v}")),
    _r(r"^我姓(?P<v>[\u4e00-\u9fff]{1,2})$", C.CONTEXT, 0.95, "surname", _render("用户姓{v}")),
    _r(rf"^我{ADV_ZH}有(?P<v>(?:一|两|二|三|四|五|六|几|\d+)(?:个|位|只|条|对)(?:[^，,]{{0,6}}?的)?(?:可爱的|小)?(?:孩子|儿子|女儿|小孩|宝宝|娃|孙子|孙女|外孙|兄弟|姐妹|哥哥|姐姐|弟弟|妹妹|猫|狗|宠物|双胞胎).*)$", C.CONTEXT, 0.9),
    _r(rf"^我{ADV_ZH}养了?(?P<v>(?:一|两|二|三|四|五|几|\d+)(?:只|条|个).+)$", C.CONTEXT, 0.9),
    _r(rf"^我{ADV_ZH}(?:有)?(?:一个)?(?P<v>老婆|老公|妻子|丈夫|女朋友|男朋友|对象)了?$", C.CONTEXT, 0.9),
    _r(rf"^我{ADV_ZH}(?:是)?(?P<v>结婚|离婚|订婚|怀孕|单身|已婚|未婚)了?$", C.CONTEXT, 0.9, "marital"),
    _r(rf"^我{ADV_ZH}是(?:一个|一位|个|名)?(?:.{{1,3}}个孩子的)?(?P<v>妈妈|爸爸|母亲|父亲|宝妈|宝爸|单亲妈妈|单亲爸爸|全职妈妈|全职爸爸|家庭主妇)$", C.CONTEXT, 0.9),
    _r(rf"^我{ADV_ZH}(?:是)?(?:一个|一名|个|名)?(?!不|没)(?P<v>.{{1,12}}?)(?:新手|小白|初学者|菜鸟|专家|老手|高手|门外汉)$", C.KNOWLEDGE, 0.85),
    _r(rf"^我{ADV_ZH}(?:会说|会讲|能说|熟悉|精通|擅长|掌握了?|懂得?|会(?=[弹拉吹画写游唱跳编开]))(?P<v>.+)$", C.KNOWLEDGE, 0.85),
    _r(rf"^我{ADV_ZH}(?:正在|在|最近在)?(?:学习|学)了?(?!到|会|过|着|习惯|校|院|生|的)(?P<v>.+)$", C.KNOWLEDGE, 0.85),
    _r(rf"^我{ADV_ZH}有(?P<v>(?:\d+|[一二两三四五六七八九十几多]+)年(?:多)?的?.+?经验)$", C.KNOWLEDGE, 0.85),
    # what the user used to be or do ("我以前吃素", "我之前是程序员", "我曾经对鸡蛋过敏"): it
    # stands as said and withdraws the present fact, as "I used to be…" does (text.py keeps
    # the fact when the sentence says it still holds: "…，现在还是"). Not "以前就/也/一直"
    # (still so), a negation, a habit word, a "过" of experience ("去过日本"), an event
    # done ("之前买了一辆车"), someone or something of the user's ("我以前的电脑", "我以前
    # 室友"), the conversation or a mistake ("之前说错了", "之前是误诊"), nor "…的时候/的事".
    _was(rf"^我(?:以前|之前|过去|曾经|从前)(?!就|也|一直|都|还|从来|常|经常|总|每|没|不|很少|的|(?:{KIN_ZH}))(?:是|当|做)?(?:一个|一名|一位|个|名)?(?P<v>(?:(?!过(?!敏)|[你您我说讲提问聊了错]|误诊|的时候|的事)[^，,；;]){{2,20}})$", C.CONTEXT, 0.85),
    _r(rf"^我{ADV_ZH}(?:是|当)(?:一名|一个|一位|个|名)?(?P<v>.{{0,10}}?(?:{PROF_ZH}))$", C.CONTEXT, 0.9, "job"),
    # a new job: "我后来转行做了程序员", "我转做后端了", "我去年改行当了老师"
    _r(rf"^我{ADV_ZH}(?:后来|去年|今年)?(?:转行|转岗|改行|转|改)(?:做|当|成)了?(?:一名|一个|一位|个|名)?(?P<v>.{{0,10}}?(?:{PROF_ZH}))了?$", C.CONTEXT, 0.9, "job"),
    _r(rf"^我{ADV_ZH}在(?!{_ZH_NO_WORKPLACE})(?P<v>.{{2,20}}?)(?:工作|上班|任职|实习|打工)$", C.CONTEXT, 0.9, "workplace"),
    # "我在腾讯工作了五年", "我在医院上班快十年了": the workplace, said with how long
    _r(rf"^我{ADV_ZH}在(?!{_ZH_NO_WORKPLACE})(?P<v>[^，,了]{{2,20}}?)(?:工作|上班|任职)了?(?:快|将近|差不多|有)?[一二两三四五六七八九十几\d多半]{{1,4}}(?:个)?(?:年|个月|月)(?:多)?了?$", C.CONTEXT, 0.9, "workplace"),
    _r(rf"^我{ADV_ZH}(?:是)?(?:做|搞|干|负责)(?P<v>{PROF_ZH})(?:的|工作|这行|这一行|方面)?$", C.CONTEXT, 0.9, "job"),
    _r(rf"^我{ADV_ZH}(?:是)?(?:做|搞|干)(?P<v>.{{1,12}}?)(?:工作)?的$", C.CONTEXT, 0.9, "job"),
    _r(rf"^我{ADV_ZH}是(?:一个|一名|个|名)?(?P<v>{TRAIT_ZH})$", C.CONTEXT, 0.85),
    _r(r"^我的(?:工作|职业|岗位|职位)是(?P<v>.+)$", C.CONTEXT, 0.9, "job"),
    _r(rf"^我{ADV_ZH}(?:在读|读的是|学的是)(?P<v>.+)$", C.KNOWLEDGE, 0.85),
    _r(r"^我的专业是(?P<v>.+)$", C.KNOWLEDGE, 0.85),
    _r(rf"^我{ADV_ZH}(?:从事|做)(?P<v>.{{1,15}}?)(?:工作|行业|相关工作|方面的工作)$", C.CONTEXT, 0.85),
    _r(rf"^我{ADV_ZH}(?P<v>退休|失业|待业)了?$", C.CONTEXT, 0.9, "job"),
    # a step of a life to come: "我明年要结婚了", "我下个月准备搬家", "我年底退休"
    _r(rf"^我{ADV_ZH}(?:明年|今年|下个?月|下半年|年底|月底|过完年|[\d一二三四五六七八九十]+月份?)(?:就)?(?:要|准备|打算|计划|会)?(?P<v>结婚|订婚|领证|生(?:宝宝|孩子|二胎)|毕业|退休|搬家|出国|留学|入职|换工作|跳槽|考研)了?$", C.GOAL, 0.85),
    # a step of a life: "我刚毕业", "我刚入职", "我刚生了宝宝", "我当妈妈了", "我买房了", "我开了一家
    # 花店" (not "我开了空调", "我开了个会", "我买了个包": an errand)
    _r(rf"^我{ADV_ZH}(?P<v>毕业|入职|转正|升职|创业|(?:生了|添了)(?:个|一个|第二个|第三个)?(?:宝宝|孩子|儿子|女儿|男孩|女孩|二胎|三胎|老二|老三|双胞胎|龙凤胎)|当(?:上)?了?(?:妈妈|爸爸|妈|爸|奶奶|爷爷|外婆|外公|姥姥|姥爷)|买了?(?:房子?|新房|第一套房)|(?:合伙|一起)?(?:开|创办|成立)了(?:一家|一个|一间|家|个|间)(?:[\u4e00-\u9fffA-Za-z]{{0,8}})?(?:店|馆|公司|工作室|餐厅|诊所|民宿|工厂|厂|铺子?|酒吧|咖啡厅))了?$", C.CONTEXT, 0.9),
    _r(rf"^我{ADV_ZH}(?:住在|居住在|生活在|定居在|定居于|住(?!在)|坐标|常驻)(?![得的了过院宿校着一这那])(?P<v>.+)$", C.CONTEXT, 0.9, "location", _render("用户住在{v}")),
    _r(r"^我(?:的)?家在(?P<v>.+)$", C.CONTEXT, 0.9, "location", _render("用户住在{v}")),
    _r(rf"^我{ADV_ZH}在(?P<v>.{{2,15}}?)(?:生活|居住|定居|住)$", C.CONTEXT, 0.9, "location", _render("用户住在{v}")),
    # "我在上海住了五年了", "我在成都生活了十几年"
    _r(rf"^我{ADV_ZH}在(?P<v>[^，,了]{{2,15}}?)(?:生活|居住|定居|住)了(?:快|将近|差不多|有)?[一二两三四五六七八九十几\d多半]{{1,4}}(?:个)?(?:年|个月|月)(?:多)?了?$", C.CONTEXT, 0.9, "location", _render("用户住在{v}")),
    _r(rf"^我{ADV_ZH}(?:搬到|搬去|搬来)了?(?P<v>.+?)(?:了|住)?$", C.CONTEXT, 0.9, "location", _render("用户住在{v}")),
    _r(rf"^我{ADV_ZH}是(?!个|一|好|坏|懒|穷|普通|老实|大|小|外|中年|年轻|成年|有钱|男|女|新|老|文化|读书|明白|聪明)(?P<v>[\u4e00-\u9fff]{{2,6}}?)人$", C.CONTEXT, 0.9, "origin"),
    _r(rf"^我{ADV_ZH}(?:来自|出生(?:在|于)|生于)(?P<v>.+)$", C.CONTEXT, 0.9, "origin"),
    _r(rf"^我{ADV_ZH}(?:是)?在(?P<v>.+?)(?:长大|出生)的?$", C.CONTEXT, 0.9, "origin"),
    _r(r"^我老家(?:是|在)(?P<v>.+)$", C.CONTEXT, 0.9, "origin"),
    _r(rf"^我{ADV_ZH}(?:是)?(?:一个|个)?(?P<v>.+?)(?:迷|的粉丝|粉丝|爱好者|发烧友)$", C.PREFERENCE, 0.9),
    _r(rf"^我{ADV_ZH}对(?P<v>.+?)(?:不感兴趣|没(?:有|什么)?兴趣)$", C.PREFERENCE, 0.9, "taste-"),
    _r(rf"^我{ADV_ZH}对(?P<v>.+?)(?:很|非常|特别|比较|挺|超)?(?:感兴趣|有兴趣)$", C.PREFERENCE, 0.9, "taste+"),
    _r(r"^我最喜欢的(?P<k>.{1,8}?)是(?P<v>.+)$", C.PREFERENCE, 0.9, "fav"),
    _r(rf"^我{ADV_ZH}(?:很|非常|特别|超级|超|最|比较|真的|一点也|一点都|并|完全|实在)*(?:不(?:太|怎么|是很|大|很)?(?:喜欢|爱)|讨厌|厌恶|受不了|反感|烦|忍受不了|接受不了)(?P<v>.+)$", C.PREFERENCE, 0.9, "taste-"),
    _r(rf"^我{ADV_ZH}(?:很|非常|特别|超级|超|最|比较|还挺|挺|真的|蛮|更)*(?:喜欢|爱|热爱|偏爱|钟爱|喜爱|偏好|倾向于|倾向|享受)(?P<v>.+)$", C.PREFERENCE, 0.9, "taste+"),
    _r(rf"^我{ADV_ZH}宁(?:可|愿)(?P<v>.+)$", C.PREFERENCE, 0.9),
    _r(r"^我的(?:目标|梦想|理想|计划|愿望|人生目标|职业目标)是(?P<v>.+)$", C.GOAL, 0.85),
    _r(rf"^我{ADV_ZH}(?:今年|明年|将来|以后|未来|这辈子|很|特别|非常|正在|在)*(?:想要|想|希望|打算|计划|准备|梦想着?|立志|决定|争取|一定要|必须要?|非要|发誓要?|下(?:定)?决心要?)(?!你|您|问|知道|了解|看|听|请|让|要一|要个|说|确认|咨询|查|找|试|吃|喝|睡|休息|聊|换(?!(?:工作|份工作|个工作|行业|个行业|个城市)(?:试试|看看)?(?:了|啦|啊|呀)?$)|改|再|用|去一下|去厕所|一下|起来|到|想|晚饭|午饭|早饭|早餐|午餐|晚餐|饭|出门|出发|下班|洗澡|开会|回家|取消|材料)(?P<v>.+)$", C.GOAL, 0.85, None, None, _zh_no_request),
    _r(rf"^我{ADV_ZH}(?:在|正在|一直在|最近在|开始|努力|坚持)(?![^，,]*(?:一下|这|那))(?P<v>(?:戒|备考|备战|考(?!试|虑|察)|练|攒|复习|减|学(?!校|生|院|堂|期|习一下|坏|乖|会(?!计)|好了?$|你|您|他|她|它|我|人|别人|猫|狗))[\u4e00-\u9fffA-Za-z0-9]{{1,10}}?|减肥|减重|减脂|健身|锻炼|存钱|攒钱|早睡早起|早睡|早起|跑步|自律)了?$", C.GOAL, 0.85),
    # a fear: "我怕狗", "我很怕蛇", "我怕冷" (not "我怕来不及", "我怕你误会": a worry of the moment)
    _r(rf"^我{ADV_ZH}(?:很|非常|特别|超级|超|有点|有些|比较|最|挺|真的|一直)*(?:怕|害怕|恐惧|惧怕)(?P<v>[\u4e00-\u9fffA-Za-z]{{1,8}})$", C.CONTEXT, 0.85, None, None, _zh_a_fear),
    # …and what travel or heights do to the user: "我恐高", "我晕车", "我有点晕船"
    _r(rf"^我{ADV_ZH}(?:有)?(?:点|些|一点|很|特别|比较)?(?P<v>恐高|恐水|幽闭恐惧|晕车|晕船|晕机)(?:症)?$", C.CONTEXT, 0.9, None, None, _zh_not_now),
    _r(rf"^我{ADV_ZH}(?:通常|一般|总是|经常|平时|平常|每天|每周|每晚|习惯于?|向来|从不|很少|常常|往往|一向|老是|基本上)(?!麻烦|打扰|辛苦|给你添|是)(?P<v>.+)$", C.BEHAVIOR, 0.85),
)
# fmt: on

# fmt: off
_ZH_SUBJECTLESS_RULES: tuple[_Rule, ...] = (
    _r(rf"^(?:你)?(?:可以|就)?叫我(?P<v>{NAME_ZH})(?P<suffix>就(?:行|好|可以)了?|吧)?$", C.CONTEXT, 0.95, "name", _render("用户希望被称呼为{v}"), lambda m: bool(m["suffix"]) or m["v"][:1] in set("小老阿") or m["v"][:1].isascii()),
    _r(r"^(?:请|麻烦)?(?:你)?(?:以后|今后|往后|之后|从现在(?:开始|起)|从今以后|接下来|下次)(?:请|麻烦|你|都|就|也|每次)*(?![再吧的有见聊我咱])(?P<v>.{2,})$", C.PREFERENCE, 0.9, None, _standing(_ZH_INSTRUCTION), _not_a_forecast_zh),
    _r(r"^(?:请|麻烦)?(?:你)?(?:总是|始终|永远|每次都|务必)(?![这那很挺好太真是有我咱]|麻烦|打扰|辛苦)(?P<v>.{2,})$", C.PREFERENCE, 0.9, None, _standing(_ZH_INSTRUCTION)),
    # the language to answer in: "请用中文回答我", "以后跟我说英文"
    _r(r"^(?P<pre>请|麻烦|以后|总是)?(?:你)?(?:以后|总是|都)?(?:用|说)(?P<v>中文|英文|英语|简体中文|繁体中文|粤语|日语|法语|德语|西班牙语)(?P<suf>回答|回复|跟我(?:说话|交流|聊)|和我(?:说话|交流|聊))?(?:我)?(?:吧)?$", C.PREFERENCE, 0.9, None, _standing(_ZH_INSTRUCTION), lambda m: bool(m["pre"] or m["suf"])),
    # how the answers should look: "请不要用太多专业术语", "回答别用表情"
    _r(r"^(?:请|麻烦)?(?:你)?(?:回答|回复)?(?:时)?(?:不要|别)(?:用|使用|加|带)(?:太多|那么多|过多)?的?(?P<v>专业术语|术语|表情(?:符号)?|emoji|英文|列表|表格|markdown|废话|长句子?)$", C.PREFERENCE, 0.9, None, _standing(_ZH_INSTRUCTION)),
    _r(r"^(?:请|麻烦)?(?:你)?(?:不要再|别再|永远不要|永远别|千万不要|千万别|以后不要|以后别|再也不要|不许再)(?P<v>.{2,})$", C.PREFERENCE, 0.9, None, _standing(_ZH_INSTRUCTION)),
)
# fmt: on


# --- turning a clause into a statement ------------------------------------------------------

_EN_VERB_FORMS = {
    "don't": "does not",
    "do": "does",
    "have": "has",
    "am": "is",
    "can't": "cannot",
    "won't": "will not",
    "wanna": "wants to",
}
_EN_KEEP = frozenset(
    {"can", "could", "will", "would", "should", "must", "might", "may", "was", "no", "cannot"}
)
_EN_ADVERBS = frozenset(
    """really also just usually always never often sometimes generally mostly absolutely definitely
    totally truly genuinely especially particularly typically normally rarely seldom actually
    still currently now recently simply only eventually ultimately honestly regularly frequently
    habitually no longer kinda strongly strictly deeply seriously completely entirely extremely
    thoroughly intensely very so once twice myself even already ever too almost hardly
    barely scarcely nearly seldom quite rather pretty much
    """.split()  # noqa: SIM905
)
# The past tense of irregular verbs, kept as said ("I outgrew it" → "User outgrew it", not
# "outgrews"). Forms that are also the present ("put", "read", "beat", "cost") are left out:
# the present is the likelier reading after "I".
_EN_PAST = frozenset(
    """was were had did went got made took saw came became began knew spoke wrote ate drank met
    left lost found felt kept taught thought bought brought sold told said ran swam quit resigned
    arose awoke bent bit blew broke built burnt caught chose clung crept dealt dug dove drew
    dreamt drove dwelt fell fought flew flung forbade forgot forgave froze gave grew hung heard
    held hid knelt laid lent leapt learnt lit meant mistook overcame overheard overslept overtook
    outgrew outran paid rebuilt rode rang rose resold retook rewrote sought sent shook shone shot
    shrank sang sank sat slept slid slung spelt spent spilt spun spat sprang stood stole
    stuck stung stank strode struck strove swore swept swung took tore threw trod understood
    undertook underwent upheld woke wore wove wept won withdrew withheld withstood wrung
    misunderstood foresaw undid
    """.split()  # noqa: SIM905
)
# Verbs whose past is their present ("read", "cut", "hurt"): said with a time gone by ("I read
# Dune in 2019", "I hurt my knee last year") they are the past and stay as said.
_SAME_IN_PAST = frozenset(
    "read cut hurt put set hit let shut spread beat burst cast split bet fit upset shed".split()  # noqa: SIM905
)
_A_PAST_TIME = re.compile(
    r"\b(?:yesterday|ago|last (?:night|week|weekend|month|year|summer|winter|spring|autumn|fall|"
    r"time|term|semester|season|(?:mon|tues|wednes|thurs|fri|satur|sun)day|christmas|easter|"
    r"january|february|march|april|may|june|july|august|september|october|november|december)|"
    r"the other day|the (?:year|month|week) before last|(?:years|months|weeks|a while|a (?:few|couple"
    r" of) (?:years|months|weeks)) back|in (?:the |my |our )?(?:'|19|20)?\d0'?s\b|in my (?:teens|"
    r"twenties|thirties|forties|fifties|sixties)|recently|earlier (?:today|this (?:week|month|year))|"
    r"back (?:in|then|when)|in (?:19|20)\d\d\b|when I (?:was|lived|worked|studied)|as an? (?:kid|child|teen|"
    r"teenager|student|grad student|undergrad)|"
    # (a stage of life gone by: "I read Dune in college", "I cut my hair this morning")
    r"(?:in|during) (?:college|uni|university|high school|secondary school|middle school|grad school|"
    r"my youth|childhood|lockdown|the pandemic)|this (?:morning|afternoon)(?! and every\b))",
    re.IGNORECASE,
)
# A time a habit started is no time gone by: "I hit the gym every day since last year".
_SINCE = re.compile(r"\b(?:ever )?since\b", re.IGNORECASE)
# ("a while ago" is a time, not a second clause)
_NEXT_CLAUSE = re.compile(r"[,;]|\s(?:and|but|so|because|(?<!\ba )while|now)\s", re.IGNORECASE)
# Verbs in the present that end in "ed" ("I need…" → "User needs…", not "User need…").
_EED_VERBS = frozenset(
    "need feed bleed breed proceed succeed exceed speed heed weed seed embed".split()  # noqa: SIM905
)
_EN_PRONOUNS = re.compile(r"\b(?:my|me|myself|mine|I'm|I've|I was|I)\b")
_A_MINE = re.compile(
    r"\b(?:an?|the|coal|gold|silver|salt|tin|copper|diamond|open-pit|land) $", re.I
)
_EN_PRONOUN_SWAP = {
    "I was": "they were",
    "my": "their",
    "me": "them",
    "myself": "themselves",
    "mine": "theirs",
    "I'm": "they're",
    "I've": "they've",
    "I": "they",
}


def _third_person_verb(word: str) -> str:
    lower = word.casefold()
    if lower in _EN_VERB_FORMS:
        return _EN_VERB_FORMS[lower]
    if lower in _EN_KEEP or lower in _EN_PAST or not word.isalpha():
        return word
    if lower.endswith("ed") and lower not in _EED_VERBS:  # "moved"; not "need", "feed"
        return word
    if lower.endswith(("s", "sh", "ch", "x", "z", "o")):
        return word + "es"
    if len(lower) > 1 and lower.endswith("y") and lower[-2] not in "aeiou":
        return word[:-1] + "ies"
    return word + "s"


# A capital "I" that is no pronoun: in a dotted short form ("M.I.T.", "I.T.", "A.I."), a
# Roman numeral after a capitalised label ("World War I", "Type I", "Part I") or after
# type, stage, phase or grade with no determiner of a clause before it ("type I diabetes",
# "a stage I tumour"; "the stage I reached" and "a class I love" hold the pronoun), or a
# name's numeral ending the sentence ("Elizabeth I.").
_NUMERAL_LABEL = re.compile(
    r"\b(?:Type|Stage|Phase|Grade|Class|Level|Part|Chapter|Vol|Volume|Act|Section|Tier|War|"
    r"Category|Schedule|Title|Article|Appendix|Mark|Mk|Series|Season|Book|Round|Division|"
    r"(?P<lower>type|stage|phase|grade))\s+$|\.$"
)
_DETERMINERS = frozenset("the this that every each which what any some my your our their".split())  # noqa: SIM905
_WORD_AND_SPACE = re.compile(r"\b(\w+) $")  # the word before the label, one space after it
_NAME_BEFORE = re.compile(r"\b[A-Z][a-z]+\s+$")
_NEXT_WORD = re.compile(r"\s*([\w'’]+)")
_PHRASE_END = re.compile(r"\s*(?:[.)\]]|$)")
# ... but a verb after it makes it the pronoun again: "a type I can't pronounce", "Mark I
# think", "the stage I reached", "a phase I grew out of" (_EN_PAST).
_VERB_AFTER = re.compile(
    r"\s+(?:\w+n['’]t|\w+ed|can|could|will|would|should|do|did|have|had|am|was|think|know|"
    r"love|like|hate|want|need|use|get|got|go|went|see|saw|read|watch|prefer|remember)\b",
    re.IGNORECASE,
)


def _numeral_i(text: str, m: re.Match[str]) -> bool:
    """Whether the capital "I" matched by ``m`` in ``text`` is a short form's or a numeral."""
    if text.startswith(".", m.start() + 1):
        return True
    after = _NEXT_WORD.match(text, m.end())
    if _VERB_AFTER.match(text, m.end()) or (after and after[1].casefold() in _EN_PAST):
        return False
    before = text[max(0, m.start() - 24) : m.start()]
    if (label := _NUMERAL_LABEL.search(before)) is not None:
        if not label["lower"]:
            return True
        word = _WORD_AND_SPACE.search(before, 0, label.start())
        return not (word and word[1] in _DETERMINERS)  # "the stage I reached": the pronoun
    return bool(_NAME_BEFORE.search(before) and _PHRASE_END.match(text, m.start() + 1))


def swap_pronouns(text: str) -> str:
    """The user's first person in ``text`` as the third ("my bike" → "their bike").

    A capital "I" that is part of a short form or a Roman numeral stays: "type I
    diabetes", "M.I.T.", "World War I history".
    """

    def swap(m: re.Match[str]) -> str:
        word = m.group()
        if word in ("I", "I was") and _numeral_i(text, m):
            return word
        # (the words before it only: searched from the start, each "mine" read all the text
        # before it again, quadratic in a run of them; no word before a mine is that long)
        if word == "mine" and _A_MINE.search(text, max(0, m.start() - 16), m.start()):
            return word  # "works in a mine", "the coal mine": the pit, no pronoun (attacker 345)
        return _EN_PRONOUN_SWAP[word]

    return _EN_PRONOUNS.sub(swap, text)


def _adverb(word: str) -> bool:
    # Any -ly word is one too ("personally"), but for verbs that end so ("apply", "fly").
    lower = word.casefold()
    return lower in _EN_ADVERBS or (lower.endswith("ly") and lower not in _LY_VERBS)


_LY_VERBS = frozenset(
    [
        "apply",
        "reply",
        "fly",
        "rely",
        "supply",
        "multiply",
        "comply",
        "imply",
        "ally",
        "bully",
        "tally",
        "rally",
    ]
)


# A second verb of the user's, after "and"/"but" ("I'm 6'2\" and wear size 12", "I sold my car
# and now cycle to work"): common verbs only, so a noun is never given an "s" ("tea and
# cake"); not after "to", a modal or a negation, whose verbs stay bare ("I love to read
# and write", "I can't swim and dive").
_AND_VERBS = frozenset(
    """wear have do go eat cycle drive speak teach own like hate prefer need want take make
    write sing swim knit bake collect grow keep avoid enjoy listen attend manage know live
    don't""".split()  # noqa: SIM905
)
# Verbs that are nouns as often ("work and play", "pay the mortgage and rent", "a teacher and
# coach"): a second verb only when a preposition, an article or a time follows ("and work
# nights", "and run a small studio", "and play in a band").
_AND_VERBS_IF_FOLLOWED = frozenset(
    """work play run travel study train walk ride hike climb paint cook coach commute practise
    practice visit lead use watch love read drink""".split()  # noqa: SIM905
)
# A pastime verb said right after another verb ("I fish and sail", "I swim and hike").
_PASTIMES = frozenset((*HOBBY_VERB_WORDS_EN, "read"))
_VERB_FOLLOWED = re.compile(
    r"\s+(?:at|in|on|for|from|as|with|to|a|an|the|my|their|his|her|every|daily|weekly|nights"
    r"|weekends|part-time|full-time|remotely|twice|once|most|some|two|three)\b",
    re.IGNORECASE,
)
_AND_VERB = re.compile(
    r"\b(?P<and>and|but)\s+(?P<adv>(?:now|also|still|often|usually|sometimes|always|never|rarely"
    r"|mostly|even)\s+)?(?P<verb>[a-z']+)\b"
)
# A list of things ends just before "and": a preposition or a taste verb within its last
# three words ("fan of football and travel", "enjoys hiking and travel").
_LIST_OF_THINGS = re.compile(
    r"\b(?:of|in|about|with|for|between|like|likes|love|loves|enjoy|enjoys|into|fan|prefer|prefers"
    r"|combines?|juggles?|balances?|splits?|mix(?:es)?)"
    r"(?:\s+[\w'-]+){1,3}\s*,?\s+(?:and|but)\s+[a-z']+$",
    re.IGNORECASE,
)
_TASTE_VERBS = frozenset("like love enjoy prefer hate adore dislike".split())  # noqa: SIM905
_BARE_BEFORE = re.compile(
    r"\b(?:to|can|can't|cannot|could|will|won't|would|should|must|might|may|don't|doesn't|didn't"
    r"|does not|do not|did not|not)\b",
    re.IGNORECASE,
)


def _verbs_after_and(said: str, *, after_past: bool = False) -> str:
    """``said`` with each common verb after "and"/"but" in the third person (see _AND_VERBS);
    ``after_past`` (the first verb was past: "sold my car and cycle"), only one said to hold
    now ("…and now cycle")."""

    def third(m: re.Match[str]) -> str:
        verb = m["verb"]
        # (said alone after the first verb, a verb that is a noun as often is a verb too: "I
        # garden and cook", "I box and run")
        alone = m.start() == 0 and not said[m.end() :].strip()
        if not (
            verb in _AND_VERBS
            or (verb in _AND_VERBS_IF_FOLLOWED and (alone or _VERB_FOLLOWED.match(said, m.end())))
            or (m.start() == 0 and verb in _PASTIMES)  # "I fish and sail": two pastimes
        ) or _BARE_BEFORE.search(said, 0, m.start()):
            return m.group()
        if _LIST_OF_THINGS.search(said, 0, m.end()):
            return m.group()  # "a fan of football and travel": two things, no second verb
        if after_past and (m["adv"] or "").strip() != "now":
            return m.group()
        return f"{m['and']} {m['adv'] or ''}{_third_person_verb(m['verb'])}"

    spaced = f" {said}"  # ("and sail" after the first verb: "I fish and sail")
    return _AND_VERB.sub(third, said) if " and " in spaced or " but " in spaced else said


def no_verb_after_adverbs(fragment: str) -> bool:
    """Whether ``fragment`` opens with adverbs and surely no verb follows them.

    "mostly at night", "usually after a long flight", "mostly Thai food",
    "mostly salmon": put after "I", these make no statement ("I mostly at night"
    would be "User mostly ats night"). Surely no verb: a word that is not one of
    the verbs habits are said with
    (:data:`~deerflow_memory.update.offline.vocabulary.COMMON_VERBS_EN`: a
    preposition, an article, a number, a plural, a possessive, "salmon", "green
    tea"), or a capitalised word (a name). "usually cook", "often fly to Tokyo"
    and "mostly won't touch beef" are verbs. A fragment that opens with no adverb
    is False.
    """
    words = fragment.split(" ")
    i = 0
    while i < len(words) - 1 and _adverb(words[i]):
        i += 1
    if i == 0:
        return False
    word = words[i]
    verb = word.casefold().replace("’", "'")
    return verb not in COMMON_VERBS_EN or (word[:1].isupper() and word != "I")


def en_statement(clause: str) -> str:
    """ "I don't eat seafood" → "User does not eat seafood"; "my name is X" → "User's name is X"."""
    for prefix, replacement in (
        ("I'm ", "User is "),
        ("I've ", "User has "),
        ("I'd ", "User would "),
        ("I'll ", "User will "),
        ("my ", "User's "),
    ):
        if clause[: len(prefix)].casefold() == prefix.casefold():
            said = swap_pronouns(clause[len(prefix) :])
            return replacement + (_verbs_after_and(said) if prefix in ("I'm ", "I've ") else said)
    if not clause.startswith("I "):
        return "User: " + clause
    words = clause[2:].split(" ")
    i = 0
    while i < len(words) - 1 and _adverb(words[i]):
        i += 1
    if words[i].casefold() in ("kind", "sort") and i + 2 < len(words):  # "kind of like"
        i += 2
    verb = words[i]
    low = verb.casefold()
    # (the time of this verb, before a second clause: not "I read every night and last year…")
    own = _NEXT_CLAUSE.split(clause, maxsplit=1)[0]
    said_past = (
        low in _SAME_IN_PAST and _A_PAST_TIME.search(own) is not None and not _SINCE.search(own)
    )
    words[i] = verb if said_past else _third_person_verb(verb)
    past = said_past or low in _EN_PAST or (low.endswith("ed") and low not in _EED_VERBS)
    rest = swap_pronouns(" ".join(words[i + 1 :]))
    if low not in _TASTE_VERBS:  # "I enjoy hiking and travel": two things enjoyed
        rest = _verbs_after_and(rest, after_past=past)
    return "User " + " ".join(words[: i + 1]) + ("" if i + 1 == len(words) else " " + rest)


def zh_statement(clause: str) -> str:
    """ "我不吃海鲜" → "用户不吃海鲜"; "我的目标是…" → "用户的目标是…"."""
    if clause.startswith("我的"):
        rest = "的" + clause[2:]
    elif clause.startswith("我"):
        rest = re.sub(r"^(?:也|还|其实|确实|真的|本来就?)+", "", clause[1:])
    else:
        rest = clause
    return "用户" + rest.replace("我的", "自己的")


def base_form(verb: str) -> str:
    """ "cooks" → "cook", "watches" → "watch", "tries" → "try", "has" → "have"; other words
    as they are."""
    lower = verb.casefold()
    if lower == "has":
        return verb[0] + "ave"
    if lower.endswith("ies") and len(lower) > 4:
        return verb[:-3] + "y"
    if lower.endswith(("ches", "shes", "sses", "xes", "zes", "oes")):
        return verb[:-2]
    if lower.endswith("s") and not lower.endswith(("ss", "us", "is")):
        return verb[:-1]
    return verb


# Words that say a statement holds now, at its end ("User loves running now").
NOW_WORDS = r"(?:now|these days|nowadays)"


# Detail after a taste's object: examples or when ("seafood, like shrimp", "tea, usually
# with milk", "海鲜，比如虾"). The taste is of the object alone.
_TASTE_DETAIL = re.compile(
    rf"(?:,\s*(?:{FOR_EXAMPLE_EN}|usually|mostly|mainly)\b"
    r"|，\s*(?:比如|例如|譬如|诸如|包括|像|尤其|特别是)).*$",
    re.IGNORECASE | re.DOTALL,
)


def says_which(taste: str) -> bool:
    """Whether a taste's text gives examples or when after its object ("likes tea, usually
    green tea"): said again with other ones, it replaces the taste as stored."""
    return _TASTE_DETAIL.search(taste) is not None


def taste_slot(value: str) -> str:
    """The slot of a taste for ``value``: ``taste:`` and the object without its detail."""
    return "taste:" + normalise_value(_TASTE_DETAIL.sub("", value, count=1))


def normalise_value(value: str) -> str:
    """Casefolded value without articles, edge punctuation, extra spaces or a trailing "now"
    ("I love running now" is the taste for running), for comparisons."""
    value = re.sub(r"\s+", " ", value.casefold()).strip(" \t.,;:!?。，；：！？~…'\"")
    value = re.sub(rf"(?<=\w) (?:{NOW_WORDS}|again)$", "", value)
    return re.sub(r"^(?:the|a|an) ", "", value)


def _value(m: re.Match[str]) -> str:
    """The rule's value (group ``v``), or "" when it says nothing.

    "I like ㅤ", "My name is -", "I'm allergic to" and a zero-width space: a
    value of no letter or digit that shows
    (:func:`~deerflow_memory.models.says_nothing`) is no value, nor is an
    article or a measure word alone ("I work as a").
    """
    groups = m.groupdict()
    value = (groups.get("v") or "").strip()
    if says_nothing(value) or value in _NO_VALUE or _CUT_VALUE.search(value):
        return ""
    # A bare verb is a value where it is what is named ("My favourite thing to do is eat").
    bare = value.lstrip("都也还就")  # "我每天都用": "都用"
    return "" if bare in _BARE_VERBS and "k" not in groups else value


# A value cut before its noun or object: "I work as a", "I'm allergic to my", "我是一名",
# "I usually use", "我一般用" (a verb that says nothing without what it takes; "I never
# drink", "I never smoke" and "我喜欢吃" say something). Written in lower case only:
# "My name is An", "My favourite letter is A" have a value.
_NO_VALUE = frozenset(
    {"a", "an", "the", "my", "our", "your", "his", "her", "their", "its", "this", "that", "some"}
    | {"一个", "一名", "一位", "一只", "一些", "一家", "个"}
)
# A value of two words at most that ends where its object should be ("I usually go
# for", "I usually listen to", "我的车是一辆", "我的梦想是成为那种"); a longer one that
# ends so is whole ("I have a lot to live for") or was cut by its rule ("I get
# migraines a few times a month": "get migraines a").
_CUT_VALUE = re.compile(
    r"^(?:\S+\s+)?(?:for|to|of|without|with|at|from|about|into|onto|towards?|than|as"
    r"|a|an|the|my|our|your|his|her|their|its|this|that|these|those|some|every|each)$"
    r"|(?:^|[这那哪每某是为当有])(?:每一|一|[这那哪每某])"
    r"[个名位只些家种所座条辆台本件张把部门场次份双套支块间栋头匹首]$"
    # lower case only, as _NO_VALUE: "My name is An", "My favourite letter is A"
)
_BARE_VERBS = frozenset(
    {"use", "like", "love", "prefer", "enjoy", "hate", "wear", "watch", "play", "eat"}
    | {"using", "doing", "making", "having", "getting", "taking"}
    | {"do", "did", "still do", "also do", "still did"}  # "I still do on weekends": of what?
    | {"用", "是", "叫"}
)


def _match(clause: str, rules: tuple[_Rule, ...], zh: bool) -> Candidate | None:
    for rule in rules:
        m = rule.pattern.match(clause)
        if m is None or (rule.check is not None and not rule.check(m)):
            continue
        value = _value(m)
        if not value or len(value) > 150 or (bad_object_zh(value) if zh else bad_object_en(value)):
            return None
        content = (
            rule.render(m, clause)
            if rule.render
            else (zh_statement(clause) if zh else en_statement(clause))
        )
        slot, slot_value = rule.slot, normalise_value(value)
        if slot in ("taste+", "taste-"):
            slot, slot_value = taste_slot(value), slot[-1]
        elif slot == "fav":
            slot = "fav:" + normalise_value(m["k"])
        return Candidate(
            content,
            rule.category,
            rule.confidence,
            slot,
            slot_value,
            constraint=rule.constraint,
            retract=normalise_value(value) if rule.retracts else None,
            past=rule.retracts,
        )
    return None


def refused(clause: str, zh: bool) -> bool:
    """Whether a rule knows the clause's shape but refused it ("I hate Mondays", "I'm a nice person").

    Such a clause is no fact in any wording: the extractor must not keep it
    in the user's own words either.
    """
    for rule in _ZH_RULES if zh else _EN_RULES:
        m = rule.pattern.match(clause)
        if m is None:
            continue
        value = _value(m)
        bad = bad_object_zh(value) if zh else bad_object_en(value)
        return (rule.check is not None and not rule.check(m)) or not value or bad
    # an order's shape that is none ("以后房租会越来越贵": a forecast)
    for rule in _ZH_SUBJECTLESS_RULES if zh else _EN_SUBJECTLESS_RULES:
        m = rule.pattern.match(clause)
        if m is not None:
            return rule.check is not None and not rule.check(m)
    return False


def match_clause(clause: str, zh: bool) -> Candidate | None:
    """The fact a clause whose subject is the user states, or ``None``."""
    if zh:
        return _match(clause, _ZH_RULES, True)
    return _match(clause, _EN_RULES, False)


def match_instruction(clause: str, zh: bool) -> Candidate | None:
    """The standing instruction (or "叫我…" name) a clause without subject states, or ``None``."""
    return _match(clause, _ZH_SUBJECTLESS_RULES if zh else _EN_SUBJECTLESS_RULES, zh)


# --- recognising slots in stored facts (any wording, either language) ---------------------

_OWN_NOW = r"(?:(?:current|present|new|main|primary|usual|permanent|actual) )?"
_SLOT_PATTERNS: tuple[tuple[str, re.Pattern[str]], ...] = tuple(
    (slot, re.compile(p, _I))
    for slot, p in (
        # the user's own name, not one the user gives ("User has a son named Leo": telling
        # a name withdrew the son)
        (
            "name",
            r"^(?:the )?user(?:'s (?:full |first |real |given )?name is| is (?:named|called)"
            r"| (?:likes|prefers|wants|asks) to be called)\s+(?P<v>[^,.;]+)",
        ),
        # a second name others use goes beside the name: "my name is X but everyone calls me Y"
        ("nickname", r"\bgoes by\s+(?P<v>[^,.;]+)|^大家叫用户(?P<v2>[^，。；,]+)"),
        (
            "name",
            r"^(?:该)?用户(?:的名字(?:是|叫)|名字(?:是|叫)|名叫|希望被称呼为|叫)(?P<v>[^，。；,]+)",
        ),
        ("surname", r"^(?:该)?用户姓(?P<v>[\u4e00-\u9fff]{1,2})"),
        # the user's age, not someone's ("User's son is 12 years old" fills no slot)
        (
            "age",
            # (no more than the age: "User is a 43-year-old nurse" keeps the job, and its age)
            r"^(?:the )?user is (?:an? )?(?P<v>\d{1,3})(?: years old|[- ]years?[- ]old)"
            r"(?: (?:woman|man|guy|girl|lady|person))?\.?$|"
            r"^user's age is (?P<v2>\d{1,3})\b",
        ),
        (
            "age",
            # the whole fact ("用户3岁的女儿对花生过敏" is no age of the user's)
            r"^(?:该)?用户(?:今年|现在|已经|都)?(?P<v>\d{1,3}|[一二两三四五六七八九十]{1,4})周?岁了?[。.]?$",
        ),
        (
            "marital",
            # (not "…is separated by an ocean", "…by five years")
            r"\bis (?:(?:happily|recently|newly|now|currently|officially) )?(?P<v>married|divorced|single|engaged|widowed|separated)\b(?! by\b)",
        ),
        ("marital", r"(?P<v>已婚|未婚|单身|结婚|离婚|订婚|分居)"),
        (
            "location",
            r"\b(?:lives|living|based|resides|residing|located|settled|moved|relocated)\s+(?:in|out of|to)\s+(?P<v>[^,.;]+)",
        ),
        # the user's home said by the memory model of the home or of the household ("User's
        # home is in Leeds", "User and their wife live in Leeds", "User lives with their wife
        # in Leeds")
        (
            "location",
            rf"^(?:the )?user's {_OWN_NOW}(?:(?:home|residence|home base|base) is (?:now |currently )?"
            r"(?:located |based )?in |(?:city|town|location|city of residence) is (?:now |currently )?"
            r"(?:in )?)(?P<v>[^,.;]+)"
            rf"|^(?:the )?user and (?:their |his |her )?(?:{KIN_EN_OWNED}|roommates?|flatmates?"
            r"|housemates?)(?: \(?(?-i:[A-Z])[\w'-]*\)?)? (?:currently |now |still )?live in "
            r"(?P<v2>[^,.;]+)"
            rf"|\blives with (?:their |his |her |a |an |two |three )?(?:[\w-]+ )?(?:{KIN_EN_OWNED}"
            r"|roommates?|flatmates?|housemates?)(?: \(?(?-i:[A-Z])[\w'-]*\)?)? in (?P<v3>[^,.;]+)",
        ),
        (
            "location",
            # (not "老家在", where the user is from)
            r"(?:住在|居住在|生活在|定居在|定居于|坐标|(?<!老)家在|搬到了?|常驻)(?P<v>[^，。；,]+)",
        ),
        (
            "origin",
            r"\b(?:is (?:originally )?from|grew up in|was raised in|comes from)\s+(?P<v>[^,.;]+)"
            r"|^(?:the )?user's (?:home ?town|place of birth|birthplace) is (?P<v2>[^,.;]+)",
        ),
        (
            "origin",
            r"(?:来自|老家(?:是|在)|出生(?:在|于))(?P<v>[^，。；,]+)|是(?P<v2>[\u4e00-\u9fff]{2,6}?)人$",
        ),
        ("employer", r"\b(?:works|is (?:currently |now )?working) (?:at|for)\s+(?P<v>[^,.;]+)"),
        ("employer", rf"^(?:the )?user's {_OWN_NOW}employer is (?P<v>[^,.;]+)"),
        (
            "job",
            rf"^(?:the )?user's {_OWN_NOW}(?:job title|occupation|profession) is "
            r"(?:an? |the )?(?P<v>[^,.;]+)",
        ),
        (
            "employer",
            rf"\b(?:works|is (?:currently |now )?working) in (?P<v>(?:an? |{_THE_NAMED_PLACE}){WORKPLACE_EN})(?= (?:now|these days|currently|in|near|on|as|part-time|full-time)\b|[,.;]|$)",
        ),
        ("workplace", rf"在(?!{_ZH_NO_WORKPLACE})(?P<v>[^，。；,]{{2,20}}?)(?:工作|上班|任职)"),
        ("job", r"\b(?:works as|is employed as)\s+(?:an?\s+|the\s+)?(?P<v>[^,.;]+)"),
        ("job", rf"^user is (?:now |currently |still )?(?:serving )?in the (?P<v>{_SERVICE_EN})\b"),
        (
            "height",
            r"^user is (?P<v>(?:about |around |only |just |almost |nearly |over )?\d[^,;]{0,14}?) tall\.?$",
        ),
        (
            "job",
            rf"\bis (?:an?|the) (?P<v>(?:(?!(?:of|to|for|with)\b)[\w+#./'-]+\s+){{0,3}}?(?:{PROF_EN}))s?\b",
        ),
        (
            "job",
            rf"(?:职业是|工作是|是(?:一名|一个|一位|个|名)?)(?P<v>[^，。；,]{{0,10}}?(?:{PROF_ZH}))",
        ),
    )
)
_FAVOURITE_PATTERNS = (
    re.compile(
        r"^user's (?:all-time |absolute )?favou?rite (?P<k>[\w' -]+?) (?:is|are) (?P<v>.+)$", _I
    ),
    re.compile(r"^用户最喜欢的(?P<k>.{1,8}?)是(?P<v>.+)$"),
)
_TASTE_PATTERNS = (
    re.compile(
        r"^(?:the )?user (?:really |also |absolutely )*(?P<p>likes|loves|enjoys|adores|prefers|dislikes|hates|does not like|doesn't like|cannot stand|detests) (?P<v>.+)$",
        _I,
    ),
    re.compile(
        r"^(?:该)?用户(?:很|非常|特别|最|比较|也)*(?P<p>不喜欢|讨厌|不爱|喜欢|热爱|爱|偏爱)(?P<v>.+)$"
    ),
)
_NEGATIVE_TASTE = (
    "dislikes",
    "hates",
    "does not like",
    "doesn't like",
    "cannot stand",
    "detests",
    "不喜欢",
    "讨厌",
    "不爱",
)


# A fact whose words before its slot's are someone else's ("User's mother lives in Ohio", "User
# has a son who works at Google", "用户的妈妈住在上海", "用户有个女儿在北京工作"): that slot is
# theirs, not the user's (telling where the user lives withdrew the mother's home).
_SOMEONE_ELSES_EN = re.compile(
    rf"^(?:the )?user's\b|\b(?:{KIN_EN_OWNED}|dogs?|cats?|pets?)(?:,)?\s+(?:who|whose|that|which)\b",
    _I,
)
_SOMEONE_ELSES_ZH = re.compile(rf"^(?:该)?用户(?:的|有(?:个|一个|两个|三个)?)?(?:{KIN_ZH})")


# ...but the user's own home, job or status ("User's marital status is married", "User's home
# is in Leeds") and the user as a parent ("User is a father who works at Google") are the user's.
_USERS_OWN_EN = re.compile(
    r"^(?:the )?user's (?:(?:current|present|new|main|primary|usual|permanent|actual|official"
    r"|full-time|day) )*(?:home|residence|address|location|city|town|base|job|occupation"
    r"|profession|role|position|title|career|line of work|employer|workplace|marital status"
    r"|relationship status|status|age|name)\b",
    _I,
)
_USER_IS_KIN = re.compile(
    rf"^(?:the )?user is (?:an? |the )?(?:[\w-]+ ){{0,3}}?(?:{KIN_EN_OWNED})\b", _I
)
# Someone else named before the slot's words, without "who": "User has a son, Leo, who lives in
# Ohio", "User has a brother named Tom who…", "User has a sister living in Ohio", "User is dating
# Anna, who lives in Paris".
_SOMEONE_NAMED_EN = re.compile(
    rf"\b(?:{KIN_EN_OWNED}|dogs?|cats?|pets?),? (?:(?:named|called) )?(?-i:[A-Z])[\w'-]*,?\s+"
    r"(?:who|whose|that|which)\b"
    r"|\b(?:dating|seeing|engaged to|married to|in love with)\s+(?-i:[A-Z])[\w'-]*"
    r"(?: (?-i:[A-Z])[\w'-]*)?,?\s+(?:who|whose|that)\b",
    _I,
)
_KIN_LAST_EN = re.compile(
    rf"\b(?:{KIN_EN_OWNED}|dogs?|cats?|pets?)(?:,? (?:(?:named|called) )?(?-i:[A-Z])[\w'-]*)?,?\s*$",
    _I,
)
_PARTICIPLE = re.compile(r"(?:living|residing|based|located|settled|working)\b", _I)


def _someone_elses(before: str, slot_words: str = "") -> bool:
    if not before:
        return False
    if _SOMEONE_ELSES_ZH.match(before):
        return True
    if _USERS_OWN_EN.match(before):
        return False
    if own := _USER_IS_KIN.match(before):  # (the user is that parent: "…a father who works")
        before = before[own.end() :]
    return bool(
        _SOMEONE_ELSES_EN.search(before)
        or _SOMEONE_NAMED_EN.search(before)
        or (_PARTICIPLE.match(slot_words) and _KIN_LAST_EN.search(before))
    )


def slot_of(content: str) -> tuple[str, str] | None:
    """``(slot, normalised value)`` of a stored fact's text, when it fills a single-valued slot
    of the user's (not of someone the fact names first: "User's mother lives in Ohio")."""
    content = content.replace("\u2019", "'")  # ("User’s mother lives in Ohio")
    for slot, pattern in _SLOT_PATTERNS:
        if (m := pattern.search(content)) and not _someone_elses(
            content[: m.start()], content[m.start() :]
        ):
            value = m.group("v") or m.groupdict().get("v2") or m.groupdict().get("v3") or ""
            if value.strip():
                return slot, normalise_value(value)
    for pattern in _FAVOURITE_PATTERNS:  # ("fav:city": one favourite of each kind)
        if m := pattern.match(content.strip().rstrip(".。")):
            return f"fav:{normalise_value(m['k'])}", normalise_value(m["v"])
    for pattern in _TASTE_PATTERNS:
        if m := pattern.match(content.strip().rstrip(".。")):
            polarity = "-" if m["p"].casefold() in _NEGATIVE_TASTE else "+"
            return taste_slot(m["v"]), polarity
    return None
