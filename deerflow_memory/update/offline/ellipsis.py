# ruff: noqa: E501  (regular expressions: one alternation per line reads better than wrapped)
"""A need said once more with its words left out: added to, put right, or shared.

"I'm allergic to peanuts. Shrimp too.", "I can't eat pork; beef either", "我对花生过敏，
还有虾": the user adds a thing to the need just said and leaves the need's words out. Read
alone, the addition states nothing ("Shrimp too") or something else ("还有虾和蟹" read as
"用户有虾和蟹"), so the allergy to shrimp was lost. Here it is the need said again of the
new thing: "User is allergic to shrimp", "用户对虾过敏".

Only an addition marked as one ("too", "as well", "either", "also", "and", "plus", "same
with"; "还有", "以及", "另外"), holding nothing but things the vocabulary knows one reacts
to or leaves out (a food, a drug, an animal, a plant), right after the need's own clause, is
read so. A name, a person, a place, a time, a mood or a condition is none ("tom too", "还有
王伟", "还有高血压"), and neither is an addition after a clause that says something else
("…, but shrimp is fine; crab too").

The same need is said again, its words left out, when the user puts its thing right ("Sorry,
I meant cashews", "不对，是腰果": :func:`said_instead`, :func:`put_right`) and when someone's
need is the user's too ("My wife is allergic to eggs. Me too.", "我老婆对鸡蛋过敏，我也是":
:func:`same_need`). Pure functions over strings.
"""

from __future__ import annotations

import dataclasses
import re

from deerflow_memory.capture.kin import KIN_EN, KIN_EN_CHAT, KIN_EN_OWNED, KIN_ZH
from deerflow_memory.update.offline.rules import Candidate, base_form, normalise_value, slot_of
from deerflow_memory.update.offline.vocabulary import (
    CJK,
    CONDITION_EN,
    CONDITION_SUFFIX_ZH,
    CONDITION_ZH,
    DRUG_NAME_ZH,
    FOR_EXAMPLE_EN,
    FOR_EXAMPLE_ZH,
    ILLNESS_FIRST_ZH,
    MEDICATION_NAME_EN,
    NEED_THING_EN,
    PERSON_ZH,
    SYMPTOM_ZH,
)

__all__ = [
    "Meant",
    "Theirs",
    "a_person_zh",
    "added_to",
    "instead_of",
    "me_as_well",
    "me_too_alone",
    "need_of",
    "one_more_thing",
    "put_right",
    "said_instead",
    "said_last",
    "same_need",
    "split_instead",
    "split_me_too",
    "split_one_more",
    "theirs",
    "theirs_after",
    "zh_things",
]

_I = re.IGNORECASE

# "shrimp too", "also shellfish", "and to shrimp as well", "same with tree nuts", "or beef
# either": a marker before or after, and between them one to four words
_EN_MORE = re.compile(
    r"(?:(?P<pre>(?:oh,?\s+)?(?:and also|and|also|plus|or|nor|same (?:with|for|goes for))\b,?)\s*(?:to\s+)?)?"
    r"(?P<thing>[A-Za-z][A-Za-z'-]*(?:\s+[A-Za-z][A-Za-z'-]*){0,3}?)"
    r"(?P<post>,?\s+(?:too|as well|also|either))?\s*[.!]*",
    _I,
)
# A thing one reacts to or leaves out, as the vocabulary knows it, or a list of them ("peanuts
# and shrimp"): any other word may be a name ("tom too"), a time ("tonight either"), a mood,
# a condition or chat, which were stored as allergies when only names were refused.
# (a medication too: "I take insulin. Sorry, I meant metformin.")
_EN_KNOWN = re.compile(rf"(?:{NEED_THING_EN}|{MEDICATION_NAME_EN})", _I)
_EN_AND = re.compile(r"\s+(?:and|or|&)\s+", _I)

# "还有虾", "以及芒果", "另外还有猫毛": a marker, then a short thing (see zh_things); or the
# thing, then "也是" ("海鲜也是", "牛肉也一样", "虾也不行")
_ZH_MORE = re.compile(
    r"(?:还有|以及|另外还有|另外|再加上|加上)(?P<thing>[^\s，,。！？!?；;：:]{1,10})"
    # (a hedge before it keeps it, "好像鸡蛋也是"; a time does not, "以前海鲜也是": it was so)
    r"|(?:其实|而且|并且|另外|连|就连|甚至|好像|可能|也许|大概|似乎|应该)?(?!以前|之前|小时候|过去|原来|曾经|从前)"
    r"(?P<first>[^\s，,。！？!?；;：:也]{1,10}?)也(?:是|一样|不行|不可以)[的啊呀哦]*"
)
# …each of its things (split at 和, 与…) holding a word of food, a drug, an animal or a plant
# (names, places, times, work and symptoms hold none: "还有王伟", "还有北京", "还有加班")
_ZH_AND = re.compile(r"[和与跟及、]")
# (a Chinese noun is of the kind of its last word: "苹果" is a food, "苹果手机" a phone,
# "酒店" a hotel, "牛仔裤" trousers, "羊城" a city: the word must end the thing)
_ZH_KNOWN = re.compile(
    r"(?:虾|蟹|贝|螺|蚌|蛤|蚝|鱼|鱿|海鲜|海产|肉|奶|乳|蛋|豆|麦|麸|面粉|米|花生|坚果|核桃|杏仁|腰果|"
    r"榛子|松子|开心果|碧根果|芝麻|果|莓|桃|梨|李子|杏|枣|瓜|芒果|菠萝|蕉|橘|橙|柑|柚|柠檬|荔枝|葡萄|椰子|"
    r"榴莲|番茄|西红柿|茄子|椒|葱|蒜|姜|芹菜|香菜|菜|菇|菌|笋|薯|玉米|糖|巧克力|可可|咖啡|茶|酒|醋|酱|"
    r"味精|辣|蜂|蜂蜜|霉素|头孢|阿莫西林|磺胺|阿司匹林|布洛芬|药|猫|狗|螨|尘|花粉|乳胶|镍|香水|羽毛|"
    r"羊|牛|鸡|鸭|鹅|猪|兔|蚕|鸽|猫咪|狗狗)"
    # …with what such words take after them: "贝类", "桃子", "麸质", "猫毛", "花生油", "奶制品"
    r"(?:类|子|质|毛|皮|屑|粉|汁|酱|油|片|干|仁|蜊|制品)?$"
    rf"|^{DRUG_NAME_ZH}$"  # (a drug: "我对华法林过敏，不对，是利伐沙班")
)
# …and not a word that only ends like one ("结果", "笨蛋", "吹牛"), a number of them ("两只
# 狗": pets), nor a person, a condition or a symptom
_ZH_NOT_A_THING = re.compile(
    rf"{KIN_ZH}|{CONDITION_SUFFIX_ZH}|{SYMPTOM_ZH}|毛病|方面|表面|结果|如果|效果|后果|成果|笨蛋|坏蛋|"
    r"完蛋|滚蛋|混蛋|吹牛|单身狗|[0-9一二两三四五六七八九十几]+\s*[只个条头匹]"
    # (nor a clause: someone, a verb, a time, a number: "我昨天吃了虾", "我的电话是138…")
    r"|[我你您他她它们这那些的了是在吃喝有要想说会能爱喜欢就都也很不没吗呢吧啊嘛呀哦时候昨今明天年月点个儿怕啥闻碰摸到0-9@]"
    # (nor what one does with a thing: "钓鱼", "遛狗", "养猫", "买菜"; nor a nickname or an
    # insult: "豆豆", "果果", "傻瓜", "倒霉蛋", "舔狗")
    r"|^[钓遛养摸戒买卖做种喂逗抱骑追训送玩看]|^(?!狗狗|猫猫|可可)(?P<twice>.)(?P=twice)$|傻瓜|呆瓜|倒霉蛋|舔狗|菜狗|加班狗|铁公鸡|老鸭|熊猫"
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
# …or a medication's ("User takes insulin", "用户在吃华法林"): only a medication may take
# its place ("I take insulin. Sorry, I meant metformin.", not "…I meant daily.").
_BEFORE_A_MEDICATION = re.compile(
    r"\b(?:takes|is taking|is on|injects) $|(?:在吃|在用|在服用|在打|吃|服用)$", _I
)
_A_MEDICATION = re.compile(rf"{MEDICATION_NAME_EN}|{DRUG_NAME_ZH}", _I)
_A_NEED_THING = re.compile(NEED_THING_EN, _I)


def only_a_medication(thing: str) -> bool:
    """Whether ``thing`` is a medication and nothing one is known to react to or leave out
    ("apixaban", "insulin", "利伐沙班"; not "aspirin", "penicillin", "青霉素"): it may put right
    a medication, or an allergy to a drug beside it (the drug it names may be of a
    medication said before: "I take warfarin. I'm allergic to penicillin. I mean apixaban.")."""
    return bool(
        _A_MEDICATION.fullmatch(thing)
        and not _A_NEED_THING.fullmatch(thing)
        and not _OF_NO_KIND.fullmatch(thing)
    )


_ANOTHER_ITEM = re.compile(r"\s*(?:,|、|和|及|\band\b|&|\+)", _I)
_ITEMS = re.compile(r"\s*(?:,\s*(?:and\s+)?|、|和|及|\band\b|&|\+)\s*", _I)
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
    """The thing ``text`` adds to a need just said ("Shrimp too." → "shrimp", "还有虾和蟹"
    → "虾和蟹"), or ``None`` when ``text`` is more, or other, than things one reacts to
    marked as an addition. At most :data:`_ADDITION_AT_MOST` characters are read."""
    text = text.strip()
    if len(text) > _ADDITION_AT_MOST:
        return None
    if zh:
        more = _ZH_MORE.fullmatch(text.rstrip("。！!"))
        thing = None if more is None else more["thing"] or more["first"]
        return thing if thing is not None and zh_things(thing) else None
    more = _EN_MORE.fullmatch(text)
    if more is None or not (more["pre"] or more["post"]):
        return None
    thing = more["thing"]
    if not all(_EN_KNOWN.fullmatch(t) for t in _EN_AND.split(thing)):
        return None
    return thing if thing.isupper() and len(thing) <= 4 else thing.lower()  # "MSG", "GRAPES"


def zh_things(text: str) -> bool:
    """Whether Chinese ``text`` is things one reacts to or leaves out, one or a list ("虾和
    蟹", "杏仁、腰果等"): each ends in a word of food, a drug, an animal or a plant, and none
    is a person, a condition, a symptom or a number of something."""
    text = _ZH_ETC.sub("", text.strip())
    return (
        bool(text)
        and _ZH_NOT_A_THING.search(text) is None
        and all(_ZH_KNOWN.search(t.strip()) for t in _ZH_AND.split(text))
    )


_ZH_ETC = re.compile(r"(?:等等|等|之类的?|什么的)$")


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


# What opens a clause of something else between a need and an addition: a contrast, or
# someone else ("…，但我能吃虾，还有蟹", "…, but shrimp is fine; crab too", "…，我老公爱吃虾")
_ZH_ANOTHER_CLAUSE = re.compile(rf"但|可是|不过|却|然而|我们|咱们|他|她|你|它|{KIN_ZH}")
_EN_ANOTHER_CLAUSE = re.compile(
    rf"\b(?:but|though|although|however|except|he|she|they|we|you|it|it's|his|her|their|our|"
    rf"{KIN_EN})\b|(?:\b(?:and|or)\s+|,\s*)not\b",
    _I,
)
_LAST_CLAUSE_AFTER = (",", "，", ";", "；")
_EXAMPLES_LAST = re.compile(rf"[，,]\s*(?:{FOR_EXAMPLE_ZH}|{FOR_EXAMPLE_EN}\b)[^，,;；]*$", _I)
# (the last thing of a need's value: "芒果，花生和牛奶" → "牛奶", "nuts, like almonds" → "almonds")
_LAST_ITEM = re.compile(r"^.*(?:[,，、和与及]|\s(?:and|or|like)\s)", _I | re.DOTALL)


def said_last(head: str, need: Candidate, zh: bool) -> bool:
    """Whether ``need`` is what the last clause of ``head`` says, so an addition after
    ``head`` adds to it: that clause names the need's last thing and says nothing of anyone
    else or against it ("我对花生过敏，但我能吃虾" ends on shrimp being fine)."""
    head = _EXAMPLES_LAST.sub("", head)  # "我对坚果过敏，比如杏仁": the need's examples
    last = head[max(head.rfind(b) for b in _LAST_CLAUSE_AFTER) + 1 :]
    if (_ZH_ANOTHER_CLAUSE if zh else _EN_ANOTHER_CLAUSE).search(last):
        return False
    item = _LAST_ITEM.sub("", _EXAMPLES_LAST.sub("", need.value or "")).strip()
    return bool(item) and item.casefold() in last.casefold()


# A value that says more than things: someone else's need or a denial in it ("peanuts and
# Tom is allergic to eggs", "peanuts and not shrimp"): what is added to it is unclear.
_A_CLAUSE_IN_VALUE = re.compile(
    r"\b(?:not|no|never|is|are|was|were|has|have|had|does|do|did)\b|[不没是]", _I
)


def need_of(need: Candidate, thing: str) -> Candidate | None:
    """``need`` (an allergy, intolerance or food the user cannot eat, as the rules read it)
    said of ``thing`` in place of its own value, or ``None`` when ``need`` is no plain need
    whose value its content names once (a retraction, a correction, a slot's value)."""
    value = need.value
    if (
        not need.constraint
        or not value
        or _A_CLAUSE_IN_VALUE.search(value)
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
    medications = _ITEMS.split(value.strip())
    if _BEFORE_A_MEDICATION.search(before) and all(map(_A_MEDICATION.fullmatch, medications)):
        if not _A_MEDICATION.fullmatch(thing):
            return None
        if len(medications) > 1 or _ANOTHER_ITEM.match(after):
            after = ""  # "takes metformin and insulin", "…, I mean lisinopril": lisinopril
    elif not (_BEFORE_A_THING.search(before) or _AFTER_A_THING.match(after)):
        return None  # "User is vegan", "User uses a wheelchair": no thing to add one to
    elif only_a_medication(thing) and not _A_MEDICATION.fullmatch(value.strip()):
        return None  # "allergic to nuts", then "I meant apixaban": of a medication, if any
    # (what the need says after a comma is of its own thing: "…对坚果过敏，比如杏仁")
    content = before + thing + _AFTER_A_COMMA.sub("", after)
    return dataclasses.replace(need, content=content, value=thing)


def added_to(addition: str, said_before: str, need: Candidate) -> Candidate | None:
    """``need`` said again of the thing ``addition`` adds ("Shrimp too.", "还有虾。"), when
    ``need`` is what the last clause of ``said_before`` (the sentence or message before)
    says; else ``None``."""
    zh = CJK.search(addition) is not None
    thing = one_more_thing(addition, zh)
    if thing is None or not said_last(said_before, need, zh):
        return None
    return need_of(need, thing)


# --- a need's thing put right as soon as it was said ---------------------------------------
# "I mean cashews", "Sorry, I meant cashews", "make that cashews", "No wait, cashews"; "我是说
# 腰果", "说错了，应该是腰果", "不对，是腰果": the thing the need was meant of. "I mean" or a mark
# of correction must say so ("Cashews." alone, "No cashews", or "Actually, cashews", may
# answer something else). Only "I mean" and its kin ("不对", "说错了": "that's wrong") say the
# thing before was wrong; after a mark alone ("Sorry, to bees") the user may as well add a
# thing: the need is said of it and the one before kept. In the next message, only words
# that speak of what the user said ("I meant", "我是说", "说错了") put it right: "No, chicken"
# after "Would you like beef?" answers the assistant.
_EN_INSTEAD = re.compile(
    r"(?P<lead>(?:(?:sorry|oops|whoops|my bad|scratch that|correction|wait|er+m*|um+|uh+|actually)[,.:!]?\s+"
    r"|no(?:[,.!]\s*|\s+wait[,.!]?\s+))*)"
    r"(?:(?:(?P<own>I mean|I meant(?: to say)?)|(?P<say>make that|or rather)),?\s+)?(?:to\s+)?"
    r"(?P<it>it(?:'s|\s+is|\s+was)\s+)?"
    r"(?P<thing>[A-Za-z][A-Za-z'-]*(?:\s+[A-Za-z][A-Za-z'-]*){0,3}?)"
    r"(?:,?\s+not\s+(?P<not>[A-Za-z][A-Za-z'-]*(?:\s+[A-Za-z][A-Za-z'-]*){0,3}?))?\s*[.!]*",
    _I,
)
# Words that are no thing one reacts to or leaves out ("Me, not my son", "Both, not just
# peanuts", "Tuesday, not today")
_EN_NO_THING = re.compile(
    r"\b(?:I|me|my|mine|you|your|he|him|his|she|her|hers|we|us|our|they|them|their|it|its|"
    r"this|that|these|those|both|all|none|neither|either|just|only|some|any|yes|no|today|"
    r"tomorrow|yesterday|now|then|here|there|mondays?|tuesdays?|wednesdays?|thursdays?|"
    r"fridays?|saturdays?|sundays?|allergic|intolerant|sensitive)\b",
    _I,
)
# ...nor is a word that says how the user feels or how sure they are ("Definitely not plums",
# "Seriously, not plums", "Thanks, not plums", "Lol, not plums"), nor someone named
# ("Grandma, not plums"): the need is confirmed or answered, not put right
_EN_NO_THING_SAID = re.compile(
    rf"\b(?:(?!(?:jelly|belly|lily|holly)\b)\w+ly|please|pls|thanks?|thx|ta|cheers|lol|lmao|haha\w*|hehe\w*|wow|ugh|oh|ah|"
    rf"ok(?:ay)?|alright|right|great|good|fine|cool|nice|sure|yeah|yep|yup|nope|exactly|"
    rf"correct|perfect|true|indeed|agreed|seriously|really|ever|never|still|even|also|"
    rf"too|again|always|well|{KIN_EN})\b",
    _I,
)


def _names_no_thing(words: str) -> bool:
    """Whether ``words`` are no thing one reacts to, leaves out or lives in: a pronoun, a
    time, a reaction word, how sure or glad the user is, someone named (see
    :data:`_EN_NO_THING`, :data:`_EN_NO_THING_SAID`)."""
    return _EN_NO_THING.search(words) is not None or _EN_NO_THING_SAID.search(words) is not None


_EN_MARKS_INSTEAD = re.compile(r"sorry|oops|whoops|my bad|scratch that|correction|no\b|wait", _I)
_EN_SLIPS = r"oops|whoops|my bad|scratch that|correction"  # the user's own slip, said as one
_EN_OWN_SLIP = re.compile(rf"{_EN_SLIPS}|wait", _I)
# Words that, like "I mean", say the thing before was wrong: "Scratch that, cashews."
_EN_SAYS_WRONG = re.compile(r"scratch that|correction", _I)  # (not "no" or "sorry": answers)
_ZH_INSTEAD = re.compile(
    r"(?P<lead>(?:不对|不是|说错了|我说错了|抱歉|不好意思|对不起|哦)?)[，,]?\s*"
    r"(?:(?P<own>我是说|我的意思是)|(?P<say>应该是)|(?P<actually>其实是)|是)(?:对)?"
    r"(?P<thing>[^\s，,。！？!?；;：:]{1,10})(?:[，,]\s*(?:而)?不是(?P<not>[^\s，,。！？!?；;：:]{1,10}))?[。！!]?"
)
_ZH_OWN_SLIP = ("说错了", "我说错了")  # (and "不对", "that's wrong", which may answer)


@dataclasses.dataclass(frozen=True, slots=True)
class Meant:
    """What a correction of a need's thing says (see :func:`said_instead`)."""

    thing: str
    """The thing the need was meant of."""
    wrong: bool
    """Whether the thing before was said to be wrong ("I mean", "不对"), not only marked."""
    own_words: bool
    """Whether it speaks of what the user said ("I meant", "wait", "oops", "我是说", "说错了"),
    so it may put right a need of the message before (not only of the sentence before)."""
    not_of: str | None = None
    """The thing it says was wrong ("pecans, not walnuts" → "walnuts", "不是青霉素"), which
    must be the need's; ``None`` when it names none."""


def said_instead(text: str, zh: bool) -> Meant | None:
    """What ``text`` says a need just said was meant of ("Sorry, I meant cashews." →
    "cashews", "不对，是腰果" → "腰果"), or ``None`` when ``text`` is no such correction of
    things one reacts to or leaves out. At most :data:`_ADDITION_AT_MOST` characters are read."""
    text = text.strip()
    if len(text) > _ADDITION_AT_MOST:
        return None
    if zh:
        m = _ZH_INSTEAD.fullmatch(text)
        said_so = m is not None and (m["lead"] or m["own"] or m["say"] or m["actually"] or m["not"])
        if m is None or not said_so or not zh_things(m["thing"]):
            return None
        own = bool(m["own"]) or m["lead"] in _ZH_OWN_SLIP
        wrong = own or bool(m["say"] or m["not"]) or m["lead"] == "不对"
        return Meant(m["thing"], wrong, own, m["not"])
    m = _EN_INSTEAD.fullmatch(text)
    if m is None or not (m["own"] or m["say"] or m["not"] or _EN_MARKS_INSTEAD.search(m["lead"])):
        return None
    if m["it"] and not m["not"]:
        return None  # "Actually it's amoxicillin" alone may be of anything
    thing = m["thing"]
    known = all(_EN_KNOWN.fullmatch(t) for t in _EN_AND.split(thing))
    # (a thing no table knows, "Apricots, not plums": only against the need's thing named,
    # after a comma: "Definitely not plums" says the need again)
    if not known and (
        m["not"] is None
        or not text[m.end("thing") : m.start("not")].startswith(",")
        or _names_no_thing(thing)
    ):
        return None
    thing = thing if thing.isupper() and len(thing) <= 4 else thing.lower()  # "MSG"
    own = bool(m["own"] or _EN_OWN_SLIP.search(m["lead"]))  # "No wait, …", "Oops, …"
    wrong = bool(m["own"] or m["say"] or m["not"] or _EN_SAYS_WRONG.search(m["lead"]))
    return Meant(thing, wrong, own, m["not"])


def split_instead(sentence: str, zh: bool) -> tuple[str, Meant] | None:
    """``sentence`` as the need it says and what it was meant of, said after a break ("I'm
    allergic to peanuts, I mean cashews" → ``("I'm allergic to peanuts", Meant("cashews",
    …))``, "我对花生过敏，不对，是腰果"), or ``None``. Only the last
    :data:`_ADDITION_AT_MOST` characters are searched."""
    breaks = _ZH_BREAKS if zh else (",", *_EN_BREAKS)
    end = len(sentence.rstrip())
    # from the break nearest the need: "…过敏，不对，是腰果" splits before "不对"
    for at in range(max(1, end - _ADDITION_AT_MOST), end):
        width = next((len(b) for b in breaks if sentence.startswith(b, at)), 0)
        if width and (meant := said_instead(sentence[at + width : end], zh)) is not None:
            return sentence[:at].rstrip(), meant
    return None


def instead_of(
    correction: str,
    said_before: str,
    need: Candidate,
    *,
    next_message: bool = False,
    named: bool = False,
) -> tuple[Candidate, bool] | None:
    """``need`` said of the thing ``correction`` says it was meant of ("Sorry, I meant
    cashews."), and whether it takes ``need``'s place (see :func:`put_right`), when ``need``
    is what the last clause of ``said_before`` says; else ``None``. With ``next_message``
    (``said_before`` is the message before, a reply between them), only a correction in the
    user's own words counts (see :class:`Meant`), or with ``named`` (the reply asked
    nothing), one that names the need's thing as the wrong one ("Pecans, not walnuts.")."""
    zh = CJK.search(correction) is not None
    meant = said_instead(correction, zh)
    if meant is None or (
        next_message and not (meant.own_words or (named and meant.not_of is not None))
    ):
        return None
    return put_right(need, meant) if said_last(said_before, need, zh) else None


# A need's thing that names a kind of things ("nuts", "shellfish", "海鲜", "酒"): what is
# meant after it may be one of them ("shellfish, I mean shrimp", "酒，其实是啤酒"), and the
# broader need may still hold, so it stays whatever is meant (no table can tell every thing
# of a kind: "crawfish", "三文鱼"; a wrong need kept is the safer error than a need lost).
_KIND_OF_THINGS = re.compile(
    r"(?:tree )?nuts?|shellfish|seafood|fish|dairy|(?:red )?meats?|poultry|fruits?|berries|"
    r"grains?|legumes|beans|alcohol|spices|vegetables|"
    r"坚果|海鲜|海产|贝类|鱼类?|乳制品|奶制品|肉类?|红肉|水果|豆类|酒类?|蔬菜|香料|菌类|调料",
    _I,
)


# …but eggs, a drug, latex, pollen, dust or an insect is of no such kind ("dairy, I mean
# eggs", "seafood, I mean penicillin", "海鲜，我是说鸡蛋"): the need is put right. (An animal
# may be meat: "meat, I mean horse" keeps both.)
_OF_NO_KIND = re.compile(
    r"eggs?|penicillin|amoxicillin|sulfa(?: drugs)?|aspirin|ibuprofen|codeine|latex|nickel|"
    r"pollen|grass|dust(?: mites)?|mould|mold|bees?|wasps?|feathers|wool|perfume|fragrances?|"
    r"鸡蛋|蛋|青霉素|头孢|阿莫西林|磺胺|阿司匹林|布洛芬|药|乳胶|镍|花粉|尘螨|螨虫|蜂|羽毛|香水",
    _I,
)


def put_right(need: Candidate, meant: Meant) -> tuple[Candidate, bool] | None:
    """``need`` said of the thing ``meant``, and whether it takes ``need``'s place: only when
    the user said the thing before was wrong, ``need`` is of one thing (of a list, which item
    was wrong is not said, so all are kept), and that thing names no kind of things ("nuts,
    I mean peanuts", "shellfish, I mean shrimp", "酒，其实是啤酒": the broader need may still
    hold; "dairy, I mean eggs" is put right: :data:`_OF_NO_KIND`). ``None`` when ``need`` is
    no plain need of a thing (see :func:`need_of`)."""
    said = need_of(need, meant.thing)
    if said is None:
        return None
    if meant.not_of is not None and meant.not_of.casefold() != (need.value or "").casefold():
        return None  # "…, not walnuts" after a need of peanuts: of something else
    value = need.value or ""
    at = need.content.casefold().find(value.casefold())  # (need_of found it there once)
    before, after = need.content[:at], need.content[at + len(value) :]
    # (a medication rule's value is the first of its list: "takes metformin and insulin")
    one = _LAST_ITEM.sub("", value) == value and not _ANOTHER_ITEM.match(after)
    kind = _KIND_OF_THINGS.fullmatch(value.strip()) is not None
    # (a drug allergy put right by a medication alone stays: which need was wrong is not said)
    drug = only_a_medication(meant.thing) and not _BEFORE_A_MEDICATION.search(before)
    return said, meant.wrong and one and not drug and (
        not kind or _OF_NO_KIND.fullmatch(meant.thing) is not None
    )


# The slots whose one value a short correction may put right ("I live in Leeds." and then
# "York, not Leeds.", "Sorry, I meant Aldi.", "不对，是上海")
_VALUE_SLOTS = frozenset(("location", "employer", "workplace", "job", "name"))


_ARTICLE_BEFORE = re.compile(r" an? $")
_ARTICLE_FIRST = re.compile(r"an?\s+", _I)
_PREP_FIRST = re.compile(r"(in|at|for|from|with|as|on|near)\s+", _I)
# Words of the chat that name no home, workplace, job or name ("Oops, sorry.", "Wait a sec.",
# "Scratch that, never mind.", "Make that two.", "Oops, typo."): the user only reacts
# (attacker 343: "Oops, sorry." after "I live in Leeds." stored "User lives in Sorry")
_EN_NO_VALUE = re.compile(
    r"\b(?:sorry|soz|typo|mistake|never\s*mind|nvm|hold on|hang on|sec|second|moment|minute|"
    r"min|what|huh|nothing|anything|everything|something|whatever|lmao|rofl|omg|wrong|"
    r"autocorrect|auto-correct|kidding|joking|jk|ignore|"
    r"one|two|three|four|five|six|seven|eight|nine|ten|dozen|hundred|\d+)\b",
    _I,
)
# ...nor in Chinese: a particle, a pronoun or a word of how sure or sorry the user is ("我是说
# 真的" is "I mean it", "应该是吧", "不对，是我的错", "不对，是开玩笑的")
_ZH_NO_VALUE = re.compile(
    r"[吧吗呢啊呀哦嘛啦了的么]$|^(?:我|你|他|她|它|咱|这|那|哪|谁|什么|怎么|一)|真的|假的|玩笑|错|对|样|"
    r"没|不|算了|随便|好像|可能|大概|肯定|当然"
)
# After a reply asking something, "I mean Headingley" ("Which part of Leeds?"), "Make that
# two", "Wait, …" may answer it: only a slip said as one puts the value right then
_EN_OWN_SLIP_ASKED = re.compile(_EN_SLIPS, _I)


def value_put_right(
    correction: str, said_before: str, said: Candidate, *, asked: bool = False
) -> Candidate | None:
    """``said`` (a home, workplace, job or name: :data:`_VALUE_SLOTS`, what the last clause of
    ``said_before`` says) with the value ``correction`` says was meant, marked as a
    correction of its own value; ``None`` when ``correction`` is no such correction. It
    must name ``said``'s value as the wrong one ("York, not Leeds.", "不是北京，是上海") or be
    in the user's own words ("Sorry, I meant York.", "Make that Aldi.", "我是说上海"); with
    ``asked`` (a reply between them asked something, which "York, not Leeds" may answer),
    only the latter. The meant value may be no need's thing nor a word that names none ("Me,
    not Leeds")."""
    value = said.value
    if (
        said.slot not in _VALUE_SLOTS
        or not value
        or said.retract is not None
        or said.wrong_value is not None
        or said.replace is not None
        or len(correction) > _ADDITION_AT_MOST
    ):
        return None
    zh = CJK.search(correction) is not None
    if zh:
        m = _ZH_INSTEAD.fullmatch(correction.strip())
        if m is None or zh_things(m["thing"]) or _ZH_NO_VALUE.search(m["thing"]):
            return None
        if asked:  # ("我是说西湖" after "你最喜欢杭州哪里？": an answer)
            own = m["lead"] in _ZH_OWN_SLIP
        else:
            own = bool(m["own"] or m["say"]) or m["lead"] in (*_ZH_OWN_SLIP, "不对")
    else:
        m = _EN_INSTEAD.fullmatch(correction.strip())
        if (
            m is None
            or _names_no_thing(m["thing"])
            or _EN_NO_VALUE.search(m["thing"])
            or _EN_KNOWN.fullmatch(m["thing"])
        ):
            return None
        if asked:  # ("I mean Headingley." after "Which part of Leeds?": an answer)
            own = bool(
                (m["own"] and m["own"].casefold().startswith("i meant"))
                or _EN_OWN_SLIP_ASKED.search(m["lead"])
            )
        else:
            own = bool(m["own"] or m["say"] or _EN_OWN_SLIP.search(m["lead"]))
    named = m["not"] is not None and normalise_value(m["not"]) == normalise_value(value)
    if m["not"] is not None and not named:
        return None  # "York, not Hull" after Leeds: of something else
    if not (own or (named and not asked)) or not said_last(said_before, said, zh):
        return None
    folded = said.content.casefold()
    at = folded.find(value.casefold())
    if at < 0 or folded.find(value.casefold(), at + 1) >= 0:
        return None
    was, thing = said.content[at : at + len(value)], m["thing"]
    # "Oops, in York." after "User lives in Leeds", "Oops, a midwife." after "User is a
    # nurse": the word said before the value is not said twice ("lives in in York")
    if (prep := _PREP_FIRST.match(thing)) and said.content[:at].casefold().endswith(
        f" {prep[1].casefold()} "
    ):
        thing = thing[prep.end() :]
    if (article := _ARTICLE_FIRST.match(thing)) and _ARTICLE_BEFORE.search(said.content[:at]):
        thing = thing[article.end() :]
    if was[:1].isupper() and thing.islower():  # "york, not leeds", "new jersey, not…"
        if not zh and correction != correction.lower():
            return None  # a lowercase word after a capital one names no place ("Oops, typo.")
        thing = " ".join(word[:1].upper() + word[1:] for word in thing.split(" "))
    before = _ARTICLE_BEFORE.sub(
        lambda a: f" {'an' if thing[:1].casefold() in 'aeiou' else 'a'} ", said.content[:at]
    )  # "a plumber", then "Oops, electrician": "an electrician"
    content = before + thing + said.content[at + len(value) :]
    if said.slot == "job" and (slot_of(content) or ("", ""))[0] != "job":
        return None  # "I'm a plumber." and then "Oops, typo.": no job is said
    return dataclasses.replace(said, content=content, value=normalise_value(thing), wrong_value=was)


# --- someone's need, and "me too" ------------------------------------------------------------
# "My wife is allergic to eggs. Me too.", "…, and so am I", "My son can't eat gluten.
# Neither can I.", "我老婆对鸡蛋过敏，我也是": the user has the same need. Only a need is read so
# (what else someone is or does, the user may share in part: "My wife is a doctor. Me too" is
# left as said).
_EN_ME_TOO = re.compile(
    r"(?:(?:yeah|yes|oh|haha|lol)[,!]?\s+)?(?:(?:and|but)\s+)?"
    # said of a need that is so ("is allergic", "has", "reacts")…
    r"(?:(?P<so>so (?:am|do|have) I|as (?:am|do|have) I|I (?:am|do|have) (?:too|as well)|I'm too)"
    # …of a need that is not ("can't eat", "doesn't eat")…
    r"|(?P<not>(?:neither|nor) (?:am|do|can|have) I|me neither|me either|I can't either|"
    r"I don't either|so can't I|I can't too)"
    # …or of either
    r"|I'm (?:also )?the same|me too|me as well|me also|same here|same (?:for|with) me|same|ditto)"
    r"(?:,?\s+(?:actually|lol|haha|sadly|unfortunately|too))?[\s.!~]*",
    _I,
)
_ZH_ME_TOO = re.compile(
    r"我也(?:是|一样|这样|是这样|过敏|不能吃|不吃|吃不了|不能|不行)[的啊呀哦]*"
    r"(?:[，,]\s*(?:很|挺|比较|更|特别)?严重)?[。！!~～\s]*"
)
# Someone's need said as the rules would read the user's ("…is allergic to eggs": "I'm
# allergic to eggs"); what stands before the verb is one person or group of them, never
# "nobody", "everyone" or a word of the same kind.
_EN_SOMEONE = (
    rf"(?:(?:(?:my|our)\s+)?(?:(?:older|younger|little|big|eldest|youngest|oldest|best|twin)\s+)?(?:{KIN_EN})"
    rf"|(?:my|our)\s+(?:{KIN_EN_CHAT})"
    r"|(?!(?:No|Every|Some|Any)(?:body|one)\b|It\b|This\b|That\b|There\b|People\b|Most\b|Many\b|"
    r"Some\b|All\b|Few\b|Nothing\b|Everything\b|Something\b|I\b)(?-i:[A-Z][a-z]{1,20}))"
)
# …or several of them ("My wife and son", "Tom, Anna and my dad"); the first is "my…" or a
# name, so "I" and the user's own words never start it.
_EN_SOMEONE_NEEDS = re.compile(
    rf"(?=my\s|our\s|(?-i:[A-Z]))(?:both\s+)?{_EN_SOMEONE}(?:(?:\s*,\s*|\s+and\s+|\s*&\s*){_EN_SOMEONE}){{0,3}}"
    r"(?:\s+both)?(?:\s+|(?=['’]s\s))(?:(?P<be>is|are|['’]s)|(?P<has>has|have)|(?P<cant>can't|cannot|can not)|(?P<dont>doesn't|does not|don't|do not)"
    r"|(?P<reacts>reacts|react)|(?P<never>never)\s+(?P<verb>eats?|drinks?|touch(?:es)?|has|have|takes?|consumes?|smokes?|uses?))"
    r"(?:\s+(?P<rest>[^,;]{1,60}?))?[.!]*",
    _I,
)
# What makes someone's need no need the user can share as said: a condition, the people
# themselves, or a clause of something else after it.
_NOT_THE_SAME_EN = re.compile(
    r"\b(?:if|unless|when|whenever|except|me|us|each other|one another|my|our|him|her|them|"
    r"themselves|himself|herself)\b|\s(?:and|but)\s+(?:love|loves|like|likes|hate|hates|live|lives|"
    r"work|works|are|is|have|has|enjoy|enjoys|play|plays|go|goes)\b",
    _I,
)
# …nor, after "never", a meal or a time ("My husband never eats breakfast": a habit).
_EN_MEAL_OR_TIME = re.compile(
    r"(?:breakfast|lunch|dinner|supper|brunch|out|before|after|late|early|much|enough|water)\b", _I
)
# Idioms of 吃 that are no food: "不吃亏" (takes no loss), "不吃醋" (is not jealous).
_ZH_EAT_IDIOM = re.compile("^(?:不能吃|不吃|吃不了)(?:亏|醋|苦|惊|力|香|瘪|软饭|闲饭|老本|独食)")


_ZH_KIN = rf"(?:我的?|我们家的?)?(?:{KIN_ZH})"
_ZH_SOMEONE_NEEDS = re.compile(
    rf"(?:{_ZH_KIN}|(?P<name>{PERSON_ZH}))(?:[和跟与、](?:{_ZH_KIN}|{PERSON_ZH})){{0,3}}(?:也|都)?"
    r"(?:从来|从|一直|向来|也)?"  # "我老婆从来不吃猪肉"
    r"(?P<rest>对[^，,。！？!?；;]{1,20}?(?:过敏|不耐受)|[^对，,。！？!?；;]{1,12}?不耐受"
    r"|(?:不能吃|不吃|吃不了|不能喝|不喝)[^，,。！？!?；;]{1,20}?)[。！!]*"
)
_ZH_ILLNESS_FIRST = re.compile(ILLNESS_FIRST_ZH)
# What follows a would-be name: a need or a taste of something (对…), or a verb of eating,
# drinking or liking and what it takes ("不吃辣", "喜欢钓鱼").
_ZH_AFTER_A_NAME = re.compile(
    r"(?:也|都|还)?(?:(?P<of>对|住在)|(?P<like>(?:很|最|也|特别|非常)?(?:喜欢|讨厌|爱吃|爱喝))"
    r"|不(?:能|太|敢)?(?:吃|喝))(?P<object>[^，,。！？!?；;\s]*)"
)
# What a verb of eating or drinking may take that is no thing: how much, how cooked, when,
# a particle ("杨梅不能吃得太多", "…吃两个以上", "龙虾不能吃生的", "田螺不能吃没煮熟的", "黄瓜不吃
# 滴"). What is left of the object without these is a thing or a taste ("韩梅梅不吃生鱼片",
# "…不吃太辣的", "…不喝冷饮"), which makes the word before the verb a person.
_ZH_AMOUNT_OR_WAY = re.compile(
    r"得|那么|这么|很|太|过|没|隔夜|煮|炒|[一两二三四五六七八九十半几]+[个颗杯口块片碗瓶粒根只次顿]?"
    r"|多|少|点|生|熟|凉|冷|热|以上|以下|左右|[的了啊呀哦滴咯啦嘛吧完掉]"
)


def a_person_zh(name: str, after: str) -> bool:
    """Whether ``name`` (matched by :data:`~.vocabulary.PERSON_ZH`) is a person's, said
    before ``after``: before 对… it is ("王冬梅对虾过敏"); before a verb of eating or drinking
    only when the verb takes something besides an amount, a way of cooking or a particle
    ("韩梅梅不吃辣", "…不能吃生鱼片"), not when it takes nothing else ("黄豆不能吃", "杨梅不能吃
    得太多", "老姜不能吃": a food said first); before a verb of liking when it takes more than
    "吃" ("老张喜欢钓鱼", "李雷很喜欢吃苹果"; "黄鱼很喜欢吃" is a food). An illness said first
    (:data:`~.vocabulary.ILLNESS_FIRST_ZH`: "高血压", "白血病") is none."""
    if _ZH_ILLNESS_FIRST.match(name + after):
        return False
    said = _ZH_AFTER_A_NAME.match(after)
    if said is None:
        return False
    if said["of"]:
        return True
    thing = said["object"]
    if said["like"]:
        return bool(thing) and thing not in ("吃", "喝", "吃的", "喝的")
    return bool(_ZH_AMOUNT_OR_WAY.sub("", thing))


def same_need(me_too: str, said_before: str) -> str | None:
    """What the user says of themself with ``me_too`` ("Me too.", "So am I", "我也是"), said
    right after someone's need (``said_before``: "My wife is allergic to eggs") — the need in
    the user's words ("I'm allergic to eggs", "我对鸡蛋过敏") for the rules to read — or
    ``None``. "So do I" after a need that is not ("My son doesn't eat pork"), or "neither
    can I" after one that is, says nothing. At most :data:`_ADDITION_AT_MOST` characters of
    ``me_too`` are read."""
    me_too = me_too.strip()
    if len(me_too) > _ADDITION_AT_MOST:
        return None
    if CJK.search(me_too) is not None:
        if not _ZH_ME_TOO.fullmatch(me_too):
            return None
        someone = _ZH_SOMEONE_NEEDS.fullmatch(said_before.strip())
        if (
            someone is None
            or (someone["name"] and not a_person_zh(someone["name"], someone["rest"]))
            or _ZH_EAT_IDIOM.match(someone["rest"])
        ):
            return None
        return "我" + someone["rest"]
    someone = _EN_SOMEONE_NEEDS.fullmatch(said_before.strip())
    if someone is None or (said := _EN_ME_TOO.fullmatch(me_too)) is None:
        return None
    rest = someone["rest"] or ""
    if not rest and not someone["never"]:  # ("My wife never drinks": the verb is the need)
        return None
    if _NOT_THE_SAME_EN.search(rest) or (someone["never"] and _EN_MEAL_OR_TIME.match(rest)):
        return None  # "…allergic to peanuts if they eat a lot", "…to each other", "…and love jazz"
    negative = bool(someone["cant"] or someone["dont"] or someone["never"])
    if (said["so"] and negative) or (said["not"] and not negative):
        return None
    if someone["be"]:
        verb = "I'm"
    elif someone["has"]:
        verb = "I have"
    elif someone["cant"]:
        verb = "I can't"
    elif someone["dont"]:
        verb = "I don't"
    elif someone["never"]:
        verb = f"I never {base_form(someone['verb'])}"
    else:
        verb = "I react"
    return f"{verb} {rest}".rstrip()


# "…, and so am I", "…; me too", "…，我也是": "me too" said in the sentence of the need
_EN_ME_TOO_AFTER = re.compile(r"(?:,|;|\s+-+|\s+(?=and\b))\s*(?=\S)")
_ZH_ME_TOO_AFTER = re.compile(r"[，,；;]\s*(?=我也)")


def split_me_too(sentence: str, zh: bool) -> tuple[str, str] | None:
    """``sentence`` as someone's need and the user's "me too" after it ("My wife is allergic
    to eggs, and so am I" → ``("My wife is allergic to eggs", "I'm allergic to eggs")``), or
    ``None``. Only the last :data:`_ADDITION_AT_MOST` characters are searched."""
    end = len(sentence.rstrip())
    near = max(1, end - _ADDITION_AT_MOST)
    for m in (_ZH_ME_TOO_AFTER if zh else _EN_ME_TOO_AFTER).finditer(sentence, near, end):
        head = sentence[: m.start()]
        if (same := same_need(sentence[m.end() : end], head)) is not None:
            return head, same
    return None


# --- what was just said, meant of someone else ---------------------------------------------
# "I'm allergic to peanuts, I mean my son is", "…anymore. Sorry, I meant my mom.", "Not me,
# my husband.", "我已经没有哮喘了，我是说我妈", "不是我，是我儿子": what was just said is
# someone else's, neither a fact of the user's nor a withdrawal of one. Said short (the
# person, and a verb like "is" or "does" or "not me"), the words say so. Said in full ("I mean
# my brother got me into it"), "I mean" as often goes on as puts right, so only a mark of a
# slip ("sorry", "oops", "I meant", "说错了") or "not me" says so. Without "I mean", a slip
# mark before a short form ("Actually, my son is.") or a cleft ("Sorry, it's my son who is",
# "不对，过敏的是我外甥") says so too, and words in full after the user's own slip ("Oops, my
# son is allergic to it", "口误，我外甥对虾过敏"); step-, half- and in-law kin and a name after
# the kin word ("my son Leo") are people. Never while the user is
# still in it ("I mean my son too", "…my son and me", "my sister can't either", "我是说我儿子
# 也是"). A name or a pet counts only with "not me" ("Sorry, I meant Tylenol is" puts a thing
# right, "I mean, Max is" may be the dog one is allergic to).
_EN_SLIP = (
    r"(?:sorry|oops|whoops|my bad|scratch that|correction|wait|no|nope|actually|er+m*|um+|uh+)"
    r"[,.:!]?\s+"
)
_EN_SLIP_MARK = re.compile(
    r"sorry|oops|whoops|my bad|scratch that|correction|wait|\bno\b|nope|actually", _I
)
_EN_AUX = (
    r"(?:is|was|are|were|does|did|do|has|had|have|can|will|would|isn't|wasn't|aren't|doesn't|"
    r"didn't|don't|hasn't|hadn't|can't|cannot|won't|wouldn't)"
)
_EN_NOT_A_NAME = (
    r"It|This|That|There|They|We|You|Not|No|Sorry|Actually|Yes|Everyone|Everybody|Nobody|"
    r"Someone|Somebody|Anyone|Anybody|All|Both|None"
)
_EN_MEANT_SOMEONE = re.compile(
    rf"(?P<lead>(?:{_EN_SLIP})*)"
    r"(?:(?P<mean>I mean|I meant(?: to say)?|I'm talking about|I was talking about)[,:]?\s+"
    # "Not me, my husband.", "It's not me who's allergic, it's my son."
    r"|(?:(?:it's|it’s|it is|it was)\s+)?(?P<not_me>not me)(?P<not_me_who>\s+who[^,.;:]{1,40})?"
    r"\s*[,.;:—–-]\s*(?:I mean\s+)?)?"
    # "It's my son who's allergic", "it was my wife who is": the person said first
    r"(?P<cleft>(?:it's|it’s|it is|it was)\s+)?"
    r"(?P<who>(?:my|our)\s+(?:(?:older|younger|little|big|eldest|youngest|oldest|best|twin)\s+)?"
    rf"(?!family\b)(?:{KIN_EN_OWNED})\b(?:\s+(?!(?:{_EN_NOT_A_NAME})\b)(?-i:[A-Z][a-z]{{1,20}})\b)?|he\b|she\b|him\b|her\b"
    rf"|(?P<name>(?:my|our)\s+(?:dog|cat|puppy|kitten|pet)\b|(?!(?:{_EN_NOT_A_NAME})\b)(?-i:[A-Z][a-z]{{1,20}})\b))"
    r"(?(cleft)(?:\s+(?:who|that)(?=\s|['’]s\s))?)"
    r"(?P<rest>(?:\s+|['’]s\s+)[^.!?]{1,100}?)??(?P<not_me_after>,?\s+not me)?[.!]*",
    _I,
)
_EN_SHORT = re.compile(rf"\s+(?P<aux>{_EN_AUX})(?P<not>\s+not)?", _I)
_EN_USER_IN_IT = re.compile(
    r"\b(?:I|me|my|mine|myself|we|us|our|too|also|both|either|neither)\b|\bas well\b"
    r"|^\s*(?:and|or|&)\b",
    _I,
)
_ZH_SLIP = ("说错了", "我说错了", "不对", "抱歉", "不好意思", "对不起", "口误", "搞错了", "其实")
# (not "wait", which as often opens a remark: "Wait, my son is diabetic too")
_EN_MY_SLIP = re.compile(r"oops|whoops|my bad|scratch that|correction", _I)
_ZH_OWN_SLIP_MARKS = ("说错了", "口误", "搞错了")  # (the user's own slip, not an answer's)
_ZH_MEANT_SOMEONE = re.compile(
    rf"(?P<lead>(?:(?:{'|'.join(_ZH_SLIP)}|我搞错了|哦)[，,]?\s*)*)"
    r"(?:(?P<mean>我是说|我说的是|我指的是|我的意思是|我讲的是|说的是|是)[，,]?"
    r"|(?P<not_me>不是我)[，,]\s*(?:是|而是)?"
    # "过敏的是我外甥", "对虾过敏的其实是我儿子": what was said first, the person after
    r"|(?P<cleft>[^，,。！？!?；;的]{1,15})的(?:其实)?是)?"
    rf"(?P<who>(?:我的?|我们家的?)?(?!家人|家里人)(?:{KIN_ZH})|他|她)"
    r"(?P<rest>[^，,。！？!?；;]{1,40}?)??(?P<not_me_after>[，,]\s*(?:而)?不是我)?[。！!~～]*"
)
_ZH_SHORT = ("是", "才是", "啊", "呀", "哦", "啦", "吧")
_ZH_USER_IN_IT = re.compile("我|也|都|一起|俩")
# Being allergic, said of the person alone, names no thing: it means what was just said
# ("It's my son who's allergic", "过敏的是我外甥").
_EN_BARE = re.compile(
    rf"(?:\s+|['’]s\s+)(?:(?:{_EN_AUX})\s+)?(?:the\s+)?"
    r"(?:(?:allergic|intolerant|sensitive)(?:\s+one)?|one with (?:the|an|that) allergy|one)",
    _I,
)
_ZH_BARE = ("过敏", "有过敏", "会过敏", "不耐受", "有这个过敏", "对这个过敏")
# Words in full after a slip of the user's own that put a need right say someone has it
# ("Oops, my son is allergic to it", "…is vegan", "口误，我外甥对虾过敏"), not what they did
# or have ("Oops, my son just dropped the eggs", "Wait, my sister has two cats", "口误，我老公
# 刚买了虾").
_EN_A_STATE = re.compile(rf"\s+(?:{_EN_AUX})\b|['’]s\s", _I)
_EN_A_NEED = re.compile(
    r"\b(?:allerg\w*|intoleran\w*|sensitive|can't|cannot|avoids?|vegan|vegetarian|pescatarian"
    rf"|diabetic|celiac|coeliac|halal|kosher|gluten[- ]free|dairy[- ]free|{CONDITION_EN})\b",
    _I,
)
_ZH_A_STATE = re.compile("(?:也|才|其实)?(?:对|有|是|不|没|吃素|吃斋|得了|患|过敏|忌)")
_ZH_A_NEED = re.compile(
    rf"过敏|不耐受|敏感|吃素|吃斋|素食|不能吃|不能喝|不吃|不喝|忌口|{CONDITION_ZH}"
)
_THEIRS_AT_MOST = 160  # characters of a sentence's end searched for it after a break


@dataclasses.dataclass(frozen=True, slots=True)
class Theirs:
    """What words that say the user's last words were someone else's say (see :func:`theirs`)."""

    clause: str
    """What they say of them in full, to be read in place of the words ("My son is allergic to
    peanuts", "我儿子对花生过敏"), or ``""`` when said short ("I mean my son is")."""
    aux: str = ""
    """Said short with a verb: the verb, case-folded, with "not" if said ("is", "doesn't",
    "is not", "was"); else ``""``."""
    reaction: str = ""
    """Said of a reaction alone ("It's my son who's allergic", "过敏的是我外甥"): the reaction's
    word ("allerg", "intoleran", "sensitiv", "过敏", "不耐受", "敏感"; "any" for "the one"):
    the user's last need of that reaction is theirs, nothing else."""

    @property
    def negative(self) -> bool | None:
        """Said short with a verb: whether it is negated ("my dad doesn't"); else ``None``."""
        if not self.aux:
            return None
        return self.aux.endswith(("n't", " not")) or self.aux == "cannot"


def theirs(text: str) -> Theirs | None:
    """Whether ``text`` (a sentence or a message) says that what the user just said is someone
    else's ("I mean my son is.", "Sorry, I meant my mom.", "Not me, my husband.", "Actually,
    my nephew is.", "It's my son who's allergic, not me.", "我是说我儿子", "不是我，是我妈",
    "过敏的是我外甥"), and what; ``None`` when it does not.

    "I mean" or "not me" says so. Without them, a mark of a slip ("sorry", "actually", "不对")
    says so before a short form ("my nephew is") or a cleft ("it's my son who…", "…的是我
    儿子"), and a mark of the user's own slip ("oops", "口误") before words in full too."""
    text = text.strip()
    zh = CJK.search(text) is not None
    m = (_ZH_MEANT_SOMEONE if zh else _EN_MEANT_SOMEONE).fullmatch(text)
    if m is None:
        return None
    lead, cleft = m["lead"], m["cleft"]
    if zh:
        slip = any(mark in lead for mark in _ZH_SLIP)
        own_slip = any(mark in lead for mark in _ZH_OWN_SLIP_MARKS)
    else:
        slip = _EN_SLIP_MARK.search(lead) is not None
        own_slip = _EN_MY_SLIP.search(lead) is not None
    said_so = bool(m["mean"] or m["not_me"] or m["not_me_after"])
    if not (said_so or own_slip or (slip and (cleft or m["rest"]))):
        return None  # ("Actually, my son." may go on; "Actually, my son is." is short)
    if zh and m["mean"] == "是" and not (slip or m["not_me_after"]):
        return None  # "是我儿子" alone may answer who
    if not zh and m["name"] and not (m["not_me"] or m["not_me_after"]):
        return None  # "Sorry, I meant Tylenol is": a thing put right
    rest = m["rest"] or ""
    if not zh and not rest and (said_first := m["not_me_who"]):
        # "It's not me who's allergic, it's my son": as "It's my son who's allergic"
        if _EN_BARE.fullmatch(said_first.removeprefix(" who").removeprefix(" that")):
            return Theirs("", reaction=_reaction_in(said_first))
        clause = f"{m['who']}{said_first}"
        return Theirs(clause[:1].upper() + clause[1:])
    if zh:
        said = rest or cleft or ""  # ("过敏的是我外甥": what the cleft says, said short)
        if not said or said in _ZH_SHORT:
            return Theirs("")
        if said in _ZH_BARE:
            return Theirs("", reaction=_reaction_in(said))
    elif not rest:
        return Theirs("")
    elif _EN_BARE.fullmatch(rest):
        return Theirs("", reaction=_reaction_in(rest))
    elif (short := _EN_SHORT.fullmatch(rest)) is not None:
        return Theirs("", short["aux"].casefold() + (" not" if short["not"] else ""))
    if not (said_so or own_slip or cleft):
        return None  # "Actually, my son is allergic to eggs" may tell of him besides
    if not (said_so or cleft) and not (
        (_ZH_A_STATE if zh else _EN_A_STATE).match(rest)
        and (_ZH_A_NEED if zh else _EN_A_NEED).search(rest)
    ):
        return None  # "Oops, my son just dropped the eggs", "口误，我老公刚买了虾": a remark
    past = bool(m["mean"]) and m["mean"].casefold().startswith("i meant")
    marked = slip or past or m["not_me"] or m["not_me_after"] or cleft
    if not marked or (_ZH_USER_IN_IT if zh else _EN_USER_IN_IT).search(rest):
        return None
    clause = text[m.start("who") : m.end("rest")] if rest else m["who"]
    if zh and cleft:
        clause += cleft
    return Theirs(clause[:1].upper() + clause[1:])


_REACTIONS = re.compile(r"allerg|intoleran|sensitiv|过敏|不耐受|敏感", _I)


def _reaction_in(words: str) -> str:
    """The word of the reaction ``words`` name (see :attr:`Theirs.reaction`), "any" if none."""
    found = _REACTIONS.search(words)
    return found.group().casefold() if found else "any"


def theirs_after(sentence: str) -> tuple[int, int] | None:
    """Where, after a break in ``sentence``, words start that say what it said before them is
    someone else's ("I'm allergic to peanuts, I mean my son is": the break's span, ``(23,
    24)``), or ``None``. Only the last :data:`_THEIRS_AT_MOST` characters are searched."""
    if theirs(sentence) is not None:  # all of it ("Oops, I meant my son is"): no break
        return None
    zh = CJK.search(sentence) is not None
    end = len(sentence.rstrip())
    breaks = _ZH_BREAKS if zh else (",", *_EN_BREAKS)
    for at in range(max(1, end - _THEIRS_AT_MOST), end):
        width = next((len(b) for b in breaks if sentence.startswith(b, at)), 0)
        if width and sentence[:at].strip() and theirs(sentence[at + width : end]) is not None:
            return at, at + width
    return None


def me_too_alone(text: str) -> bool:
    """Whether ``text`` only says the user shares what was just said ("So am I.", "Me too",
    "我也是")."""
    text = text.strip()
    return (_ZH_ME_TOO if CJK.search(text) else _EN_ME_TOO).fullmatch(text) is not None


# The user too, said in a short sentence of its own: "I'm allergic too.", "We both are.",
# "And me.", "But I am also allergic.", "其实我也过敏", "我们俩都是".
_EN_ME_AS_WELL = re.compile(
    r"\b(?:I|I'm|me|we|we're|us)\b.*\b(?:too|also|as well|both)\b|\bboth of us\b|^(?:and|but) me\b",
    _I,
)
_ZH_ME_AS_WELL = re.compile("我也|我们(?:俩|两个)?都|我俩都")


def me_as_well(text: str) -> bool:
    """Whether ``text`` says the user shares what was just said: "me too" alone
    (:func:`me_too_alone`), or a short sentence saying so ("I'm allergic too.", "We both
    are.", "其实我也过敏"; at most :data:`_ADDITION_AT_MOST` characters)."""
    text = text.strip()
    if me_too_alone(text):
        return True
    if len(text) > _ADDITION_AT_MOST:
        return False
    return (_ZH_ME_AS_WELL if CJK.search(text) else _EN_ME_AS_WELL).search(text) is not None
