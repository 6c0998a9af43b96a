# ruff: noqa: E501  (rule tables: one regular expression per line reads better than wrapped)
"""The offline extractor's retractions: the user withdraws something said before.

"I'm no longer vegetarian", "forget what I said about being a smoker", "scrap
the Iceland trip", "我现在不抽烟了", "之前说我住在南京是说错了", "健身计划放弃了":
the candidate names what is withdrawn (:attr:`Candidate.retract`) and the
extractor supersedes the stored facts about it (:func:`names_retracted`: all
its content words, so "scrap the Iceland trip" keeps "Was born in Iceland"). Some retractions also
state the new truth, so the candidate carries content as well: "I'm not a
lawyer, I'm a paralegal" withdraws "lawyer" and states "User is a paralegal"
(a correction); "I used to hate olives but now I love them" withdraws "olives"
and states "User loves olives"; "I quit my job" withdraws the employer slots
(:attr:`Candidate.retract_slots`) and states "User quit their job".

A negation alone is no retraction: "I'm not a doctor, but…" is a disclaimer,
and stores nothing. Nothing here raises; a clause no pattern matches yields ``None``.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable

from deerflow_memory.capture.kin import KIN_EN
from deerflow_memory.models import FactCategory
from deerflow_memory.update.consolidate import terms
from deerflow_memory.update.offline.rules import (
    ADV_EN,
    ADV_ZH,
    Candidate,
    bad_object_en,
    bad_object_zh,
    base_form,
    en_statement,
    match_clause,
    normalise_value,
    zh_statement,
)
from deerflow_memory.update.offline.vocabulary import (
    AGO_EN,
    ALLERGEN_EN,
    CJK,
    CONDITION_EN,
    CONDITION_ZH,
    CONSUMED_EN,
    COUPLE_EN,
    DRUG_NAME_ZH,
    FOR_EXAMPLE_EN,
    KIN_ZH,
    MEDICATION_NAME_EN,
    NEED_THING_EN,
    PARTNER_EN,
    PARTNER_ZH,
    PERSON_ZH,
    PROF_ZH,
    SINCE_WHEN_EN,
    SPOUSE_EN,
    SPOUSE_ZH,
    TAKEN_BACK,
    TAKEN_BACK_ZH,
)

__all__ = [
    "AGO_EN",
    "NO_LONGER_ALONE",
    "WITHDRAWAL_UNDONE",
    "match_retraction",
    "names_need",
    "names_only",
    "names_parted",
    "names_retracted",
    "no_target",
    "reaction_or_limit",
    "retraction_frame",
    "said_alone",
    "says_need",
    "singular",
    "withdrawal_of",
    "without_partner",
    "without_thing",
]

_I = re.IGNORECASE
C = FactCategory

_ANYMORE_EN = r"(?:anymore|any more|any longer|these days|now|after all)"  # ("…not allergic to X after all": it was never so)
# What a plan is: "the Iceland trip" withdraws "Iceland trip" (the trip, not every fact about
# Iceland); "the marathon plan" / "thing" / "diet" name no kind of their own: "marathon".
_PLAN_EN = r"(?:(?P<head>trip|holiday|vacation|move|course|wedding|visit|journey)|plan|plans|idea|goal|diet|thing)"
_EMPLOYER_SLOTS = ("employer", "workplace")
# Someone parted from by name: "I broke up with Anna", "我和小美分手了" (a capital in English;
# in Chinese a surname's name or "小…"/"阿…", never "他"/"她", who name no one: the partner)
# (a name with a letter of another Latin alphabet too: "I dumped Zoë", "I dumped Łucja")
_NAME_EN = r"(?-i:[A-ZÀ-ÖØ-ÞİŁŚŠŻŽČĆŘŐŰ][a-zß-öø-ÿā-ž]+)"
_NAME_ZH = rf"{PERSON_ZH}|[小阿][\u4e00-\u9fff]"

# Someone else's, said short or without the apostrophe ("my moms egg allergy", "my bf's"),
# and a kind of allergy that names no thing ("my seasonal allergy is gone").
_KIN_SAID_SHORT = r"bf|gf|hubby|bestie|sis|bro|roomie|mum|mom|ma|pa|babys?|kids?"
_NO_ONE_THING = r"(?:food|skin|seasonal|drug|medication|environmental|spring|summer|hay ?fever)"

# fmt: off
_EN_GAVE_UP = re.compile(rf"^I(?:'ve| have)? {ADV_EN}(?:quit|(?P<left>left|moved (?:away )?(?:from|out of)(?![^,]*\sto\s))|gave up|given up|stopped(?= \w+ing\b)|dropped|abandoned)(?: on)? (?!eating\b|drinking\b|consuming\b)(?:my job at |my job as |the |an? )?(?P<v>.+?){AGO_EN}$", _I)
# What is eaten, drunk or smoked: given up, it is said too ("User gave up sugar"), not only
# withdrawn ("I gave up the choir" withdraws "sings in a choir" and says no more)
# (one or a list: "I gave up smoking and drinking", "I quit alcohol, sugar and caffeine")
# (each item read alone between the list's joins: one pattern for the whole list tried every
# way of reading an item twice ("peanuts" is a food or "pea" + "nuts", "meat and dairy" one
# thing or two), 2^n when the list failed at its end: "meat and dairy, " * 14 + "chess" took
# 13 s, helper 360)
_CONSUMED = re.compile(CONSUMED_EN, _I)
_CONSUMED_JOIN = re.compile(r"\s*,\s*(?:and\s+|or\s+|&\s+)?|\s+(?:and|or|&)\s+", _I)


def _consumed(value: str) -> bool:
    """True when ``value`` is one thing eaten, drunk or smoked, or a list of them."""
    return all(_CONSUMED.fullmatch(item) for item in _CONSUMED_JOIN.split(value))


_EN_PARTINGS = (
    # "I broke up with my boyfriend", "My girlfriend and I split up", "I dumped Anna", "My
    # boyfriend left me": the partner goes, by any word for one (retract "partner" of a
    # parting that names no one: "We broke up", "We split up last week")
    re.compile(rf"^I(?:'ve| have)? {ADV_EN}(?:(?:broke|broken|split) up with|dumped|ditched) (?:(?:my )?(?P<v>{COUPLE_EN})|(?-i:her|him)(?P<partner>)|(?P<name>{_NAME_EN})){AGO_EN}$", _I),
    # "She dumped me", "He broke up with me" (not "She left me": anyone may have left), "We're
    # no longer together"
    re.compile(rf"^(?:she|he) (?:has )?{ADV_EN}(?:dumped|ditched|broke up with|broken up with|split up with) me(?P<partner>){AGO_EN}$", _I),
    re.compile(rf"^we(?:'re| are) {ADV_EN}(?:no longer together|not together (?:anymore|any more))(?P<partner>)$", _I),
    re.compile(rf"^I(?:'ve| have)? {ADV_EN}left (?:my )?(?P<v>{PARTNER_EN}){AGO_EN}$", _I),
    re.compile(rf"^(?:my (?P<v>{PARTNER_EN})|(?P<name>{_NAME_EN})) and I (?:have )?(?:broke|broken|split) up{AGO_EN}$", _I),
    re.compile(rf"^(?:my (?P<v>{PARTNER_EN})|(?P<name>{_NAME_EN})) (?:has )?{ADV_EN}(?:dumped|left|ditched|broke up with|broken up with|split up with) me{AGO_EN}$", _I),
    re.compile(rf"^we(?:'ve| have)? {ADV_EN}(?:(?:broke|broken|split) up|split|called off (?:the|our) engagement)(?: for good)?(?P<partner>){AGO_EN}$", _I),
)
_ZH_PARTINGS = (
    # "我跟男朋友分手了", "我和对象分了", "我和小美分手了", "我们分手了": the partner goes
    re.compile(rf"^我{ADV_ZH}(?:已经|早就|刚)*(?:跟|和)(?:(?P<v>{PARTNER_ZH})|(?P<name>{_NAME_ZH})|(?:他|她)(?P<partner>))分(?:手)?了$"),
    re.compile(rf"^我们(?:俩|两个)?{ADV_ZH}(?:已经|早就|刚)*分(?:手)?了(?P<partner>)$"),
    # "我被甩了", "我被男朋友甩了", "她把我甩了"
    re.compile(rf"^我{ADV_ZH}(?:已经|早就|刚)*被(?:他|她)?甩了(?P<partner>)$"),
    re.compile(rf"^我{ADV_ZH}(?:已经|早就|刚)*被(?:(?P<v>{PARTNER_ZH})|(?P<name>{_NAME_ZH}))甩了$"),
    re.compile(r"^(?:他|她)(?:已经|早就|刚)*把我甩了(?P<partner>)$"),
    re.compile(rf"^(?:我?(?P<v>{PARTNER_ZH})|(?P<name>{_NAME_ZH}))(?:已经|早就|刚)*把我甩了$"),
)
_PARTINGS = frozenset((*_EN_PARTINGS, *_ZH_PARTINGS))

# Clauses whose subject is the user.
_EN_RETRACTIONS = (
    *_EN_PARTINGS,  # (before "I left X", which is a place left: "I left my boyfriend")
    re.compile(rf"^I'm {ADV_EN}no longer (?:an? |the )?(?P<v>.+?)(?: {_ANYMORE_EN})?$", _I),
    re.compile(rf"^I'm {ADV_EN}not (?:an? |the )?(?P<v>.+?) {_ANYMORE_EN}$", _I),
    re.compile(rf"^I {ADV_EN}no longer (?:live|reside|work|study|stay) (?:in|at|for|as|with) (?:an? |the )?(?P<v>.+)$", _I),
    re.compile(rf"^I {ADV_EN}(?:don't|do not) (?:live|reside|work|study|stay) (?:in|at|for|as|with) (?:an? |the )?(?P<v>.+?) {_ANYMORE_EN}$", _I),
    re.compile(rf"^I {ADV_EN}(?:no longer|don't|do not) (?:have|own|play|use|drive|keep|do|follow) (?:an? |the |my )?(?P<v>.+?)(?: {_ANYMORE_EN})$", _I),
    re.compile(rf"^I {ADV_EN}no longer (?:have|own|play|use|drive|keep|do|follow) (?:an? |the |my )?(?P<v>.+)$", _I),
    _EN_GAVE_UP,
    re.compile(r"^I(?:'ve| have)? (?:gone off|got tired of|gotten tired of|fallen out of love with|fell out of love with|grown out of|outgrown) (?P<v>.+)$", _I),
    # "I switched from VS Code to Neovim": the one left goes (what it became is said below)
    re.compile(rf"^I(?:'ve| have)? {ADV_EN}(?:switched|changed|gone|went) (?:over )?from (?P<v>[\w.+#' -]{{1,30}}?) to (?P<to>[\w.+#' -]{{1,30}}?){AGO_EN}$", _I),
    # "My cat passed away", "Our dog died last year": the pet goes (only "has a cat" itself)
    re.compile(rf"^(?:my|our) (?:\w+ )?(?P<pet>cat|dog|rabbit|hamster|parrot|puppy|kitten|horse) (?:(?:sadly|recently|just) )?(?:passed away|died|passed|had to be put down|was put down){AGO_EN}$", _I),
    # "I had the baby last week", "I gave birth": the pregnancy is over
    re.compile(rf"^I(?:'ve| have)? {ADV_EN}(?:had (?:the|my|our) bab(?:y|ies)|gave birth|given birth|had twins)(?P<birth>){AGO_EN}$", _I),
    # "I outgrew my kiwi allergy" (a need only: "I outgrew my jeans" is said as it is)
    re.compile(rf"^I (?:outgrew|grew out of) (?P<v>[\w' -]{{1,60}}?(?:allerg(?:y|ies)|intolerance|sensitivity|asthma|eczema))(?: (?:as a (?:kid|child|teen(?:ager)?|baby)|in (?:my teens|childhood|high school)|when I was (?:\w+ ?){{1,3}}|finally|eventually|completely)|{AGO_EN})?$", _I),
    # "I never said I was vegan": what is denied goes ("I never told you I'm allergic to
    # latex" / "I never mentioned…" tell it, they deny nothing)
    re.compile(r"^I (?:never|didn't|did not|have never|never ever) (?:said|say|claimed|claim) (?:that )?I(?:'m| am| was| were|'d| had| have|'ve| used to be)? (?:an? |the )?(?P<d>.+)$", _I),
)
# Imperatives and topic-first clauses: no subject, but only the user can mean them.
_EN_WITHDRAWALS = (
    re.compile(rf"^(?:the|my) (?P<v>.+?) {_PLAN_EN} (?:is|was|got|has been|'s) (?:now )?(?:cancell?ed|off|called off|scrapped|not happening)$", _I),
    # "my peanut allergy is gone", "my lactose intolerance went away"
    re.compile(rf"^my (?!.*\b(?:{KIN_EN}|{_KIN_SAID_SHORT})s?\b|{_NO_ONE_THING}\b)(?P<of>[\w -]{{1,40}}?) (?P<kind>allergy|intolerance|sensitivity) (?:(?:is|'s|has|seems) (?:now |finally |completely |totally )?(?:gone|over|cured|resolved|cleared up|disappeared|gone away)|(?:finally |completely )?(?:went away|cleared up|disappeared|resolved))$", _I),
)
_EN_JOB_LOST = re.compile(rf"^I(?:'ve| have)? {ADV_EN}(?:quit|left|lost|resigned from|walked out of) (?:my|that|the|this) (?:old )?job{AGO_EN}$|^I(?:'ve| have)? {ADV_EN}(?:resigned|got laid off|was laid off|got fired|was let go|been laid off|changed jobs|switched jobs){AGO_EN}$", _I)

_ZH_RETRACTIONS = (
    re.compile(rf"^我{ADV_ZH}(?:已经|早就|早已|现在)*(?:不再是|不是|不当)(?:一个|一名|个|名)?(?P<v>.+?)了$"),
    re.compile(rf"^我{ADV_ZH}(?:已经|早就|早已|现在)*不再是(?:一个|一名|个|名)?(?P<v>.+)$"),
    re.compile(rf"^我{ADV_ZH}(?:已经|早就|早已|现在)*(?:不再|不)(?:住在|住|生活在|待在|在)(?P<v>.+?)(?:住|生活|工作|上班|读书|上学)?了$"),
    re.compile(rf"^我{ADV_ZH}(?:已经|早就|早已|现在)*(?:不再|不)(?P<v>吃素)了$"),
    # "我不做程序员了", "我已经不当老师了": a job given up
    re.compile(rf"^我{ADV_ZH}(?:已经|早就|早已|现在)*不(?:再)?(?:做|当|干)(?:一名|一个|个|名)?(?P<v>{PROF_ZH})了$"),
    # "我早就不追剧了", "我现在不抽烟了": a habit given up; the object is what is withdrawn.
    re.compile(rf"^我{ADV_ZH}(?:已经|早就|早已|现在|好久|很久)*(?:不再|不|没再)(?P<v>(?:吃|喝|抽|玩|打|踢|骑|游|爬|听|画|拍|唱|跳|写|养|开|追|看|用|练|弹|跑|去|做|戴|穿|学)[\u4e00-\u9fffA-Za-z]{{1,8}}?|减肥|健身|节食|备孕|考研|加班|熬夜)了$"),
    # "我生了", "宝宝出生了", "我已经生完了": the pregnancy is over
    re.compile(r"^(?:我)?(?:已经|刚|上周|上个月)*(?:生了|生完了|生完孩子了|生宝宝了|(?:宝宝|孩子)(?:已经|刚)?出生了)(?P<birth>)$"),
    # "我的猫去世了", "我家狗狗去年走了": the pet goes
    re.compile(r"^我(?:的|家的?)(?P<pet>猫|狗|猫咪|狗狗|兔子|仓鼠|鹦鹉)(?:去年|上周|上个月|前几天|已经|刚)*(?:去世了|死了|走了|不在了)$"),
    *_ZH_PARTINGS,
    re.compile(rf"^我{ADV_ZH}(?:已经|早就|早已|现在)*(?P<left>离开|辞职离开|搬离|搬出)了?(?P<v>.+?)了?$"),
    re.compile(rf"^我{ADV_ZH}(?:已经|早就|早已|现在)*对(?P<a>.+?)(?:已经|早就|现在|都|也)*(?:不再|不)(?P<k>过敏|敏感)了$"),
    # "我不再对花生过敏了", "我的花生过敏已经好了": the need named as it is said
    re.compile(rf"^我{ADV_ZH}(?:已经|早就|早已|现在)*(?:不再|不)对(?P<a>[^，,]+?)(?P<k>过敏|敏感)了?$"),
    re.compile(rf"^我的?(?!{KIN_ZH})(?P<a>[^，,我的]{{1,12}}?)(?P<k>过敏)(?:已经|早就|早已|现在|都|也)*(?:好了|痊愈了|治好了|消失了|没了|好彻底了)$"),
    # "我已经没有痛风了", "我的胃炎治好了": a condition over (not "我的湿疹好了", which may be a
    # flare that ended)
    re.compile(rf"^我{ADV_ZH}(?:已经|早就|早已|现在)*(?:不再有|没有|没)(?:再)?(?P<v>{CONDITION_ZH})了$"),
    re.compile(rf"^我的(?!{KIN_ZH})(?P<v>{CONDITION_ZH})(?:已经|早就|早已|现在|都|也)*(?:痊愈了|治好了|根治了|好彻底了)$"),
    re.compile(rf"^我{ADV_ZH}(?:已经|早就)?放弃了?(?P<v>[\u4e00-\u9fffA-Za-z]{{1,10}}?)(?:的)?(?:计划|目标|打算)?了?$"),
)
_ZH_WITHDRAWALS = (
    # "健身计划放弃了", "我的减肥计划取消了"
    re.compile(r"^(?:我的?)?(?P<v>(?!我)[\u4e00-\u9fffA-Za-z]{1,8}?)(?:的)?(?:计划|目标|打算)(?:已经|也|就)?(?:被我)?(?:放弃了|取消了|不搞了|不做了|泡汤了|黄了|作罢了|搁置了|停了)$"),
)
# What the user said of X, taken back ("forget what I said about peanuts", "I was wrong about
# X", "之前说我住在南京是说错了"): unlike X given up, X alone withdraws an allergy to it.
_EN_SAID_WRONG = (
    re.compile(r"^(?:please )?(?:forget|ignore|disregard|scratch|scrap|drop|delete|remove|strike|never mind|nevermind) (?:about )?(?:what I (?:said|told you|mentioned|wrote)|the (?:bit|part|thing) I (?:said|told you|mentioned)|that(?: part| bit)?|everything I said) about (?:me )?(?:being |having |liking |loving |hating |doing |living in |working at |working for |working as |my )?(?:an? |the )?(?P<v>.+)$", _I),
    re.compile(r"^(?:please )?(?:forget|ignore|disregard|delete|remove) (?:that |the (?:part|bit) (?:where|that|about) )I(?:'m| am|'ve| have| was| said I'm) (?P<v>.+)$", _I),
    re.compile(r"^I was wrong about (?:me )?(?:being |having |liking |my )?(?:an? |the )?(?P<v>.+)$", _I),
    # "Forget the walnuts thing", "scrap the Iceland trip"
    re.compile(rf"^(?:please )?(?:forget|scratch|scrap|cancel|drop|ditch) (?:about )?(?:the|my|that) (?P<v>.+?) {_PLAN_EN}(?: (?:too|as well|altogether|entirely))?$", _I),
    # "I was only joking about being vegan", "Just kidding about the shellfish" (not "No
    # kidding about…", which means it)
    re.compile(r"^(?:(?:I was|I'm|I am) (?:just |only )?|just |only )(?:kidding|joking) about (?:me )?(?:being |having |liking |loving |hating |my )?(?:an? |the )?(?P<v>.+)$", _I),
)
_ZH_SAID_WRONG = (
    # "之前说我住在南京是说错了", "我说我对花粉过敏那个是搞错了"
    re.compile(r"^(?:我)?(?:之前|以前|刚才|上次|刚刚|先前)?(?:说|讲|提到|告诉你)(?:过)?(?:的)?(?:我)?(?P<v>[^，,]+?)(?:那个|这个|那件事|这件事|那条|这条|的事|的话)?(?:[，,]\s*)?(?:是|都是|其实是)?(?:我)?(?:说错了|搞错了|弄错了|记错了|错了|不对|不准确|有误|是错的|不是真的|不算数)$"),
    # "我说对虾过敏是开玩笑的", "海鲜那个是逗你的"
    re.compile(rf"^(?:我)?(?:之前|刚才|刚刚)?(?:说|讲)?(?:的)?(?:我)?(?P<v>[^，,]+?)(?:那个|这个|那条|这条|的事|的话)?(?:[，,]\s*)?(?:是|都是|其实是)?(?:我)?{TAKEN_BACK_ZH}$"),
    # "忘掉我说的对花粉过敏", "别记我是学生那条了"
    re.compile(r"^(?:请)?(?:忘掉|忘了|忘记|删掉|删了|删除|别记|不要记)(?:我(?:之前)?说(?:过)?的)?(?:我)?(?P<v>[^，,]+?)(?:那条|这条|那个|这个|的事)?了?$"),
    # "我从来没说过我喜欢吃辣": what is denied goes (not "我没告诉过你我对青霉素过敏吧":
    # telling it, and asking whether it was told)
    re.compile(r"^我(?:从来|根本|从|可)?(?:都)?(?:没|没有|并没有|不曾)(?:说过|讲过)(?:我)?(?P<v>[^，,]{2,}?)(?:啊|呀|的|哦)?(?<![吧吗])$"),
)
# A medication given up: "I don't take metformin anymore", "My doctor took me off warfarin",
# "我已经停了二甲双胍", "医生让我停了阿司匹林" (by name or its name's ending: "我停了车" stops
# no medicine; not "I'm off warfarin now", which may be for a while: attacker 305). Only a fact
# of that medication alone goes: "takes lisinopril and metformin" is split as a need is, or
# kept whole (a need kept is the safer error).
_EN_MEDICATION_STOPPED = (
    re.compile(rf"^I {ADV_EN}(?:no longer|don't|do not) (?:take|use) (?:my )?(?P<v>{MEDICATION_NAME_EN})(?: {_ANYMORE_EN})$", _I),
    re.compile(rf"^I {ADV_EN}no longer (?:take|use) (?:my )?(?P<v>{MEDICATION_NAME_EN}){AGO_EN}$", _I),
    re.compile(rf"^I'm {ADV_EN}not on (?:my )?(?P<v>{MEDICATION_NAME_EN}) {_ANYMORE_EN}$", _I),
    re.compile(rf"^I(?:'ve| have)? {ADV_EN}(?:stopped|quit) (?:taking |using )?(?:my )?(?P<v>{MEDICATION_NAME_EN}){AGO_EN}$", _I),
    re.compile(rf"^(?:my |the )?(?:doctor|gp|physician|psychiatrist|cardiologist|endocrinologist|neurologist|rheumatologist|specialist) (?:took|has taken|'s taken) me off (?:my )?(?P<v>{MEDICATION_NAME_EN}){AGO_EN}$", _I),
)
_ZH_MEDICATION_STOPPED = (
    re.compile(rf"^(?:我{ADV_ZH}|医生(?:已经)?(?:让|叫)我)(?:已经|早就|早已|现在)*(?:停了|停掉了|停用了|停用|不再吃|不再用|不再服用)(?P<v>{DRUG_NAME_ZH})了?$"),
    # "我把华法林停了", "医生让我把布洛芬停掉了"
    re.compile(rf"^(?:我{ADV_ZH}|医生(?:已经)?(?:让|叫)我)(?:已经|早就|早已|现在)*把(?P<v>{DRUG_NAME_ZH})(?:给)?(?:停了|停掉了|停用了|断了)$"),
    # "我已经不吃二甲双胍了", "我现在不用胰岛素了"
    re.compile(rf"^我{ADV_ZH}(?:已经|早就|现在)*(?:不吃|不用|不服用)(?P<v>{DRUG_NAME_ZH})了$"),
)
_ZH_JOB_LOST = re.compile(rf"^我{ADV_ZH}(?:已经|早就|刚)*(?:从(?!小|前|来|此|今)[^，,。的]{{1,20}}?)?(?P<v>辞职|离职|被裁员?|被辞退|失业|换工作|跳槽)了$|^我{ADV_ZH}(?:已经|早就|刚)*(?P<v2>换了工作|换了份工作|跳槽了)$")
# A marriage ended: "I got divorced", "We separated last year", "My husband left me", "我们离婚
# 了", "我跟老公离婚了". Said as the marital status ("User got divorced"), which supersedes the
# one stored, and the spouse goes, by any word for one ("User has a wife named Sara").
_EN_DIVORCED = re.compile(rf"^(?:I|we)(?:'ve| have)? {ADV_EN}(?:got|gotten) (?P<how>divorced|separated)(?: from (?:my )?(?:{SPOUSE_EN}|{_NAME_EN}))?(?P<when>{AGO_EN})$|^(?:I(?:'ve| have)? {ADV_EN}(?:divorced|(?P<left>left|separated from)) (?:my )?(?:{SPOUSE_EN})|my (?:{SPOUSE_EN}) (?:has )?{ADV_EN}(?:(?P<left2>left)|divorced) me|we(?:'ve| have)? {ADV_EN}(?P<how2>divorced|separated))(?P<when2>{AGO_EN})$|^we(?:'re| are) {ADV_EN}(?P<now>divorced|separated)(?: now)?$", _I)
_ZH_DIVORCED = re.compile(rf"^我(?:们|们俩)?{ADV_ZH}(?:(?:跟|和)(?:{SPOUSE_ZH}|{_NAME_ZH}|他|她))?(?P<how>离婚|分居)了$|^我{ADV_ZH}(?:跟|和)(?:{SPOUSE_ZH})分开了$")
_ZH_JOB_FOUND = re.compile(rf"^我{ADV_ZH}(?:已经|终于|刚|总算)*找到(?:了)?(?:新|一份|份)?(?:新)?工作了?$")
# Graduated: "I graduated last year", "我研究生毕业了" (the user is a student no more; the
# statement stays, and a fact of being a student goes)
_EN_GRADUATED = re.compile(rf"^I(?:'ve| have)? {ADV_EN}(?:graduated|finished (?:uni|university|college|school|my degree|my studies))(?: from [\w' -]{{1,40}})?{AGO_EN}$", _I)
_ZH_GRADUATED = re.compile(rf"^我{ADV_ZH}(?:已经|早就|刚|今年|去年)*(?P<of>大学|研究生|硕士|博士|本科|高中)?毕业了$")
# (only a fact that says the user is that student goes: "User tutors students", "用户教学生
#数学" stay)
_ZH_STUDENT_OF = {"大学": "大学生", "研究生": "研究生", "硕士": "硕士生", "博士": "博士生", "本科": "本科生", "高中": "高中生"}
# fmt: on
# Words of a retraction that stand for the same thing in stored facts ("吃素" ~ "素食者").
_RETRACT_STEMS = {"素食者": "素", "素食主义者": "素", "吃素": "素", "素食": "素"}
# "I'm no longer on a keto diet" withdraws "keto"; "I gave up on learning the piano", "piano".
_EN_VALUE_EDGES = re.compile(
    r"^(?:(?:on|into|doing|following|using|taking|learning|playing|smoking|drinking|eating|vaping|being|"
    r"a fan of|going to|going|attending|"
    r"visiting|watching|listening to|seeing)\s+(?:an?\s+|the\s+|my\s+)?)+|\s+diet$",
    _I,
)


# Words that name no one thing: the fact's own subject ("User …", "用户…", so "I'm no longer a
# user" would withdraw every fact), articles and pronouns, "everything".
_NO_TARGET_EN = frozenset(("user", "users", "the", "a", "an", "of", "i", "me", "my", "myself", "mine", "it", "its", "this", "that", "one", "thing", "things", "stuff", "person", "human", "people", "someone", "somebody", "something", "anything", "everything", "all", "any", "every"))  # fmt: skip
_NO_TARGET_ZH = re.compile(
    r"^(?:该)?(?:用户|我|自己|人|一个人|东西|事情|这个|那个|这些|那些|什么|一切)+$"
    r"|(?:所有|全部|任何)(?:的)?(?:事|东西|信息|内容|记忆|话)|一切"
)
# Words of a need that name no particular one: "no longer allergic" names no allergen.
_NEED_WORDS_EN = frozenset(("allergic", "allergy", "allergies", "severely", "severe", "mildly", "mild", "very", "really", "highly", "extremely", "deathly", "seriously", "to", "is", "am", "are", "be", "being", "was", "a", "an", "the", "of", "on", "with", "have", "has", "having", "had", "intolerant", "intolerance", "intolerances", "sensitive", "sensitivity", "diet", "diets", "dietary", "restriction", "restrictions", "condition", "conditions", "need", "needs", "medical", "medication", "medications", "health", "issue", "issues", "problem", "problems", "any", "some", "my", "user"))  # fmt: skip
_NEED_WORDS_ZH = re.compile(
    r"患有|罹患|患了|得了|对|过敏|敏感|不耐受|严重|非常|特别|很|有点|有|是|用户|我|的|饮食|限制|忌口|病|症|问题"
)
# How a medication need is lived, said first in the fact ("在吃华法林", "每天打胰岛素"): a stop
# that names the drug ("我把华法林停了") names the need, as "takes" is left out in English.
_NEED_VERBS_ZH = re.compile(r"^(?:正在|一直在|一直|每天|长期|现在|在)*(?:吃|服用|服|用|打|注射)")


def no_target(value: str) -> bool:
    """Whether a retracted or replaced ``value`` names nothing a fact could be withdrawn for.

    Empty, only stop words, or the facts' own subject ("user", "用户"), or
    everything at once ("之前的所有事情"): matching it would withdraw facts the
    user never named.
    """
    value = value.strip().casefold()
    if not value:
        return True
    if CJK.search(value):
        return _NO_TARGET_ZH.search(value) is not None
    words = re.findall(r"\w+", value)
    return not words or all(w in _NO_TARGET_EN for w in words)


def names_need(value: str, need: str) -> bool:
    """Whether a retracted ``value`` names the constraint ``need`` (its text after the subject).

    The value must name something beyond need words, and either say what kind
    of need it was ("allergic to peanuts", "对海鲜过敏") or name all of the
    need ("vegan" for "is vegan"). So "no longer allergic" and "no longer use
    gloves" keep "allergic to latex gloves"; "no longer allergic to latex"
    withdraws it. Keeping a need is the safe side.
    """
    value, need = value.strip().casefold(), need.strip().casefold()
    # A need of several things ("allergic to shellfish and peanuts", "对虾和花生过敏") goes
    # only when all are named: one of them named ("no longer allergic to peanuts") took the
    # shellfish allergy with it. Keeping a need is the safe side.
    listed = _several_things(need)
    if CJK.search(value):
        named = _NEED_WORDS_ZH.sub("", value).strip()
        return bool(named) and (
            (_NEED_KINDS_ZH.search(value) is not None and not listed)
            or value in _RETRACT_STEMS.values()  # "吃素" → "素" for "素食主义者"
            or _NEED_VERBS_ZH.sub("", _NEED_WORDS_ZH.sub("", need).strip()) in named
        )
    named_words = {
        w for w in re.findall(r"\w+", value) if w not in _NEED_WORDS_EN and w not in _JOINERS
    }
    # Its examples alone named ("no longer allergic to almonds" for "…to nuts, like almonds")
    # withdraw no need: the need is of the nuts (keeping it is the safe side).
    if (examples := _EXAMPLES_EN.search(need)) is not None:
        of = set(re.findall(r"\w+", need[: examples.start()]))
        if named_words and named_words <= set(re.findall(r"\w+", examples["ex"])) - of:
            return False
    need_words = {  # when it began or how strictly is no part of what it is
        w
        for w in re.findall(r"\w+", _REASON.sub("", need))
        if w not in _NEED_WORDS_EN
        and w not in _NEED_VERBS_EN
        and w not in _NEED_ASIDES_EN
        and w not in _JOINERS  # "shellfish or peanuts" names "shellfish and peanuts"
        and not w.endswith("ly")  # "allergic to peanuts, badly": how, not what
    }
    # The kind named ("no longer allergic to X") is enough for a need of one thing; a need
    # of more ("allergic to kiwis and quinoa", "…and latex since childhood") goes only when
    # all of it is named: it lost the quinoa allergy with the kiwi one.
    kind = any(w in _NEED_KINDS_EN for w in re.findall(r"\w+", value)) and not (
        listed or _JOINED_EN.search(_EXAMPLES_EN.sub("", need))
    )
    return bool(named_words) and (kind or need_words <= named_words)


# What joins the things of a need: "…kiwis and quinoa", "…kiwis, quinoa", "…kiwis or latex";
# not a clause or a manner after it ("…sesame and carry an EpiPen", "…walnuts, badly").
_JOINED_EN = re.compile(
    r"(?:,|&|\b(?:and|or|plus|as well as)\b)(?!\s*(?:carry|carries|have|has|had|need|needs|use|"
    r"uses|take|takes|keep|keeps|get|gets|avoid|avoids|always|never|so|but|which|that|because|"
    r"since|it|its|they|i|we|my)\b|\s*\w+ly\b(?!\s+\w))"
)
_JOINERS = frozenset(("and", "or", "nor", "either", "both", "plus", "also", "too", "as", "well"))
# What a need is of: "allergic to A, B and C", "对A和B过敏".
_NEED_OF_EN = re.compile(r"\b(?:allergic|intolerant|sensitive|hypersensitive) to (?P<of>.+)$")
_NEED_OF_ZH = re.compile(r"对(?P<of>.+?)(?:过敏|不耐受|敏感)")
_THINGS_EN = re.compile(
    r"\s*,\s*(?:(?:and|or|plus|also|as well as)\s+){0,2}|\s+(?:and|or|&|plus|as well as)\s+(?:also\s+)?"
)
# What stands around one thing of a list: "…, and also to latex", "…, and shellfish too".
_THING_EDGES_EN = re.compile(r"^to\s+|\s+(?:too|as well)$", re.IGNORECASE)
# Examples after what a need is of ("allergic to nuts, like almonds"): not things of its own.
_EXAMPLES_EN = re.compile(rf",\s*{FOR_EXAMPLE_EN}\s+(?P<ex>.*)$", re.IGNORECASE)
_THINGS_ZH = re.compile(r"[和及与跟、，,]")
_A_THING_EN = re.compile(rf"(?:{ALLERGEN_EN})", re.IGNORECASE)
# What a condition or a medication need is of: "has A and B", "takes A, B and C".
_HAS_OF_EN = re.compile(r"^(?:User\s+)?(?P<verb>has|takes)\s+(?P<of>.+)$", re.IGNORECASE)
_A_CONDITION_EN = re.compile(CONDITION_EN, re.IGNORECASE)
_A_MEDICATION_EN = re.compile(MEDICATION_NAME_EN, re.IGNORECASE)  # (not a supplement)


def _several_things(need: str) -> bool:
    """Whether a need is of several things, each one that can be reacted to: "allergic to
    shellfish and peanuts", "对虾和花生过敏"; not "allergic to peanuts, badly", "…peanuts
    and carry an EpiPen", "…salt and pepper seasoning" (one need, whatever its words)."""
    return len(need_things(need)) > 1


@functools.lru_cache(maxsize=4096)  # each retraction of a message asks again of each need
def need_things(need: str) -> tuple[str, ...]:
    """The need said of each of its things when it is of several ("allergic to peanuts and
    walnuts" → ``("allergic to peanuts", "allergic to walnuts")``, "对花生和虾过敏" →
    ``("对花生过敏", "对虾过敏")``); ``()`` for a need of one thing, or of words that are
    not all things one reacts to (see :func:`_several_things`)."""
    split = _need_split(need)
    return () if split is None else tuple(f"{split[0]}{t}{split[2]}" for t in split[1])


def things_of(need: str) -> tuple[str, ...]:
    """The things of a need of several, in the order of :func:`need_things` ("allergic to
    peanuts and walnuts" → ``("peanuts", "walnuts")``); ``()`` where that gives none."""
    split = _need_split(need)
    return () if split is None else split[1]


def _need_split(need: str) -> tuple[str, tuple[str, ...], str] | None:
    """``need`` as the words before its things, its things (two or more), and the words
    after them; ``None`` for a need of one thing or of words that are not all things."""
    if (zh := _NEED_OF_ZH.search(need)) is not None:
        # ("对鸡蛋和牛奶都过敏": "都" is of the list, not of its last thing)
        things = [t.strip() for t in _THINGS_ZH.split(zh["of"].rstrip("都也")) if t.strip()]
        start, end = zh.span("of")
        return (need[:start], tuple(things), need[end:]) if len(things) > 1 else None
    if (en := _NEED_OF_EN.search(need)) is not None:
        of, known = _EXAMPLES_EN.sub("", en["of"]).strip(" ."), _A_THING_EN
    elif (en := _HAS_OF_EN.search(need)) is not None:
        # "User has asthma and eczema", "User takes warfarin and metformin": one condition
        # or medication each (so "I don't have eczema anymore" keeps the asthma; not "…asthma
        # or COPD", which says neither for sure)
        of = en["of"].strip(" .")
        if re.search(r"\bor\b", of, re.IGNORECASE):
            return None
        known = _A_CONDITION_EN if en["verb"].casefold() == "has" else _A_MEDICATION_EN
    else:
        return None
    things = [_THING_EDGES_EN.sub("", t) for t in _THINGS_EN.split(of)]
    if len(things) < 2 or not all(known.fullmatch(thing) for thing in things):
        return None
    return need[: en.start("of")], tuple(things), ""


def things_left(need: str, gone: Callable[[str], bool]) -> list[str] | None:
    """The needs of one thing each that stay of the need of several things ``need`` when
    those for which ``gone`` says so go ("User is allergic to kiwis and latex", kiwis gone:
    ``["User is allergic to latex"]``; all gone: ``[]``); ``None`` when ``need`` is of one
    thing (see :func:`need_things`) or none of its things goes."""
    each = need_things(need)
    left = [one for one in each if not gone(one)]
    return left if len(left) < len(each) else None


def names_whole_thing(value: str, need: str) -> bool:
    """Whether a retracted ``value`` names every word of what the need of one thing ``need``
    is of, a plural for a singular ("allergic to peanut" names "…to peanuts"); "trees"
    names no "tree nuts", "drugs" no "sulfa drugs" (which withdrew one thing of a list)."""
    if CJK.search(need):
        thing = _NEED_OF_ZH.search(need)
        return thing is not None and thing["of"].strip(" 都也") in value
    said = {singular(w) for w in re.findall(r"\w+", value.casefold())}
    return all(
        singular(w) in said
        for w in re.findall(r"\w+", need.casefold())
        if w not in _NEED_WORDS_EN and w not in _NEED_VERBS_EN
    )


def singular(word: str) -> str:
    """``word`` without a plural ending ("mangoes" → "mango", "nuts" → "nut")."""
    return word[:-2] if word.endswith(("oes", "ches", "shes")) else word.rstrip("s") or word


_NEED_ASIDES_EN = frozenset(("has", "been", "now", "nowadays", "these", "days", "currently", "still", "strictly", "strict", "fully", "mostly", "pretty", "much"))  # fmt: skip
_NEED_KINDS_EN = frozenset(("allergic", "allergy", "allergies", "intolerant", "intolerance", "sensitive", "sensitivity"))  # fmt: skip
_NEED_KINDS_ZH = re.compile(r"过敏|敏感|不耐受")


# A need that limits what the user may have: "cannot take ibuprofen", "must avoid NSAIDs",
# "不能吃海鲜", "忌辛辣". Giving the thing up ("I don't take ibuprofen anymore") ends no limit.
_LIMIT = re.compile(
    r"\b(?:can't|cannot|can not|could not|couldn't|avoid(?:s|ing)?|must not|mustn't|shouldn't|should not"
    r"|not allowed|never)\b|不能|不可以|不宜|忌|避免|禁",
    re.IGNORECASE,
)


def reaction_or_limit(text: str) -> bool:
    """Whether ``text`` says a reaction (:func:`says_need`: "allergic to penicillin") or a
    limit ("cannot take ibuprofen", "不能吃海鲜"). Giving a thing up ("I stopped taking
    penicillin", "I gave up walnuts") ends neither: only words that name the reaction or
    limit, or take back what was said of it ("forget what I said about walnuts"), do."""
    return says_need(text) or _LIMIT.search(text) is not None


def says_need(text: str) -> bool:
    """Whether a fact's ``text`` names an allergy, intolerance or sensitivity by its words.

    The offline extractor's own fallback for a fact stored without the
    ``constraint`` flag (the updater passes the full wording test).
    """
    if _NEED_KINDS_ZH.search(text):
        return True
    return any(w in _NEED_KINDS_EN for w in re.findall(r"\w+", text.casefold()))


# How a need is lived, said in the fact, not in the retraction: "follows a vegan diet".
_NEED_VERBS_EN = frozenset(("follows", "follow", "eats", "eat", "keeps", "keep", "takes", "take", "uses", "use", "needs", "wears", "wear", "strict", "strictly"))  # fmt: skip


# --- which facts a retraction withdraws ------------------------------------------------

# Kinds of thing a retraction names by one word of several: "the Paris trip" is also the fact
# "User is visiting Paris in June". One line per kind; a word stands for its kind by its
# consolidation terms (so every inflection the stemmer keeps apart is listed).
_KINDS_EN = (
    "trip trips travel travels traveling travelling traveled travelled journey journeys holiday "
    "holidays vacation vacations visit visits visiting visited tour tours touring getaway "
    "honeymoon fly flying flight flights",
    "move moves moving moved relocate relocates relocating relocated relocation",
    "wedding weddings marry marries marrying married marriage",
    "course courses class classes lesson lessons",
    "use uses using used",
)
_KIND_OF_TERM = {t: kind for kind, words in enumerate(_KINDS_EN) for t in terms(words)}
# Words of a retraction that name no kind of thing: "Paris trip plans" is the Paris trip.
_GENERIC_TERMS = terms("plan plans planning planned idea ideas goal goals thing things stuff")
# The same in Chinese, longest first (a value is cut at them): travel, moving house, a
# wedding, a course.
_KINDS_ZH = tuple(
    re.compile(words)
    for words in (
        "之行|旅行|旅游|出游|游玩|度假|出行|旅程|行程|蜜月|飞往|飞",
        "搬家|搬到|搬去|搬迁|搬回|迁居|移居|搬",
        "婚礼|结婚|婚",
        "培训班|课程|上课|培训|课",
    )
)
_CUT_ZH = re.compile("|".join(p.pattern for p in _KINDS_ZH) + "|那次|这次|那个|这个|的")
_EDGES_ZH = re.compile(
    r"^(?:我|要|想|打算|计划|准备)*去?|(?:计划|打算|目标|那件事|这件事|事情|事)$"
)


_USER = re.compile(r"\busers?\b", _I)


@functools.lru_cache(maxsize=8192)  # each retraction of a message reads each fact again
def _retraction_terms(text: str) -> frozenset[str]:
    """Consolidation terms, with "user" kept as the word "use".

    Consolidation drops "user" (every fact starts "User …"); after a fact's
    subject it is a word like any other: "no longer a power user" is not
    "takes a power nap", and names "uses Vim daily" as "a Vim user".
    """
    found = terms(text)
    return found | {"use"} if _USER.search(text) else found


def names_retracted(text: str, what: str) -> bool:
    """Whether a fact's ``text`` (after its subject) is about the retracted ``what``.

    Every content word of ``what`` must be in ``text`` (by its consolidation
    terms: "Paris trip" names "planning a trip to Paris", not "was born in
    Paris"); a word naming a kind of thing (a trip, a move, a wedding, a
    course) is found by any word of its kind ("the Rome trip" names "a
    vacation in Rome"). Chinese, without word boundaries: ``what`` is cut at
    its kind words, each piece left ("巴黎" of "去巴黎旅行") must be in ``text``
    and each kind named by one of its words ("巴黎旅行" names "去巴黎旅游",
    not "出生在巴黎"). Plan words name nothing ("Paris trip plans" is the
    Paris trip); ``what`` of plan words only must be in ``text`` whole.
    """
    if CJK.search(what):
        return _names_retracted_zh(text.casefold(), what.casefold())
    wanted = _retraction_terms(what) - _GENERIC_TERMS
    if not wanted:
        return re.search(rf"(?<!\w){re.escape(what)}(?!\w)", text, _I) is not None
    have = _retraction_terms(text)
    kinds = {_KIND_OF_TERM[t] for t in have if t in _KIND_OF_TERM}
    return all(t in have or _KIND_OF_TERM.get(t, -1) in kinds for t in wanted)


# A partner or a spouse parted from ("We broke up", "I got divorced", "I dumped my bf") is the
# user's own, by any word for one: "has a girlfriend named Anna", "lives with their
# boyfriend", "'s wife is a nurse", "有个女朋友", "和男朋友住在一起"; not one who is none or
# no more ("is a partner at a law firm", "their business partner", "their ex-wife", "is
# looking for a girlfriend", "研究对象", "在找对象", "前男友"). Only a parting names them so:
# "I'm not a partner anymore" names no girlfriend.
_OWN_ADJ_EN = (
    r"(?:(?:new|current|lovely|wonderful|amazing|loving|supportive|sweet|beautiful|serious|"
    r"live-in|long-distance|long distance|older|younger) )?"
)
_OWN_EN = r"(?:^'s|\b(?:their|(?:has|have|had|with|and) an?|(?:engaged|married) to (?:an?|their))) "
_WANTING_EN = re.compile(
    r"\b(?:look(?:s|ing)? for|wants?|wanted|hop(?:e|es|ing)|wish(?:es)?|find|finding|meet|"
    r"meeting|seek(?:s|ing)?|dream(?:s|ing)? of|would like|'d like|single)\b",
    _I,
)
_OWN_ZH = r"(?:^|的|有|和|跟|与|同|个|位)(?:新|现任|现在的)?"
_WANTING_ZH = re.compile(r"找|想要|想有|希望有|盼|单身")
# For each kind (a partner, a spouse) in each language: the words for one, and the same as the
# user's own in a fact.
_PARTNER_KINDS = {
    zh: tuple(
        (
            re.compile(words, _I),
            re.compile(f"{_OWN_ZH}(?:{words})")
            if zh
            else re.compile(rf"{_OWN_EN}{_OWN_ADJ_EN}(?:{words})(?![\w-]| in crime)", _I),
        )
        for words in kinds
    )
    for zh, kinds in ((False, (PARTNER_EN, SPOUSE_EN)), (True, (PARTNER_ZH, SPOUSE_ZH)))
}


def names_parted(text: str, what: str) -> bool:
    """Whether a fact's ``text`` (after its subject) is about the partner or spouse a parting
    withdraws: by any word of the kind of ``what`` when it is a word for one, and then only
    as the user's own (not "a partner at a law firm", "their ex-wife", "在找对象"); else
    (a name: "I dumped Anna") as :func:`names_retracted`."""
    zh = CJK.search(what) is not None
    for words, own_words in _PARTNER_KINDS[zh]:
        if words.fullmatch(what) is None:
            continue
        if (own := own_words.search(text)) is None:
            return False
        wanting, before = (_WANTING_ZH, own.start() + 1) if zh else (_WANTING_EN, own.start())
        return wanting.search(text[:before]) is None
    # a name ("I broke up with Anna"): a fact of her as the user's partner or spouse, not "works
    # at a bank with Anna", "best friend Anna lives in Paris" (helper 375)
    return names_retracted(text, what) and any(
        own_words.search(text) for _, own_words in _PARTNER_KINDS[zh]
    )


# What is left of a fact once the partner or the spouse a parting withdraws is taken out of it:
# "…lives in Oslo with their girlfriend Anna" → "…lives in Oslo", "…has a girlfriend named
# Anna and a dog named Rex" → "…has a dog named Rex" (the home, the dog were lost with her).
_NAMED_EN = r"(?:(?:,\s*)?(?:named|called) )?(?:(?-i:[A-Z])[\w'-]*(?: (?-i:[A-Z])[\w'-]*)?)?"
_WITH_PARTNER_EN = re.compile(
    rf"\s+(?:together )?with (?:their|his|her|my) {_OWN_ADJ_EN}(?:{COUPLE_EN})\b"
    rf"(?:,? {_NAMED_EN})?(?=\s*(?:[,.;]|$))",
    _I,
)
_HAS_PARTNER_FIRST_EN = re.compile(
    rf"^(?P<has>(?:User )?(?:has|had) )an? {_OWN_ADJ_EN}(?:{COUPLE_EN})(?: {_NAMED_EN})?"
    r",? and (?P<rest>\S.*)$",
    _I,
)
_HAD_NEXT = re.compile(r"(?:an?|one|two|three|four|\d+|some)\b", _I)
_HAS_PARTNER_LAST_EN = re.compile(
    rf",? and an? {_OWN_ADJ_EN}(?:{COUPLE_EN})(?: {_NAMED_EN})?\s*[.]?$", _I
)


def without_partner(content: str) -> str | None:
    """``content`` with the user's partner or spouse taken out, when the fact says more than
    them ("User lives in Oslo with their girlfriend Anna" → "User lives in Oslo"); ``None``
    when it is only of them, or of another shape (then it goes whole)."""
    if (first := _HAS_PARTNER_FIRST_EN.match(content)) is not None:
        # (what else is had: "…and a dog named Rex", not "…and loves hiking")
        had = _HAD_NEXT.match(first["rest"]) is not None
        return f"{first['has']}{first['rest']}" if had else None
    for pattern in (_WITH_PARTNER_EN, _HAS_PARTNER_LAST_EN):
        left = pattern.sub("", content, count=1)
        if left != content and len(left.split()) >= 3:
            return left
    return None


# A fact of one verb and a list of things ("User plays tennis and chess", "User uses pandas,
# numpy and polars at work"): one thing withdrawn, the others stay ("I don't play tennis
# anymore" lost the chess). Each thing is at most three words; a need is never read so.
_THING = r"[\w'-]+(?: [\w'-]+){0,2}?"
_LIST_FACT_EN = re.compile(
    rf"^(?P<head>User (?:(?:really|also|mostly|often|usually|regularly) )?[a-z]+s )"
    rf"(?P<items>{_THING}(?:, {_THING}){{0,6}},? and {_THING})"
    r"(?P<tail> (?:at work|at home|every day|daily|a lot|on weekends|for fun|for work))?$"
)
_LIST_JOIN_EN = re.compile(r",? and |, ")
_NO_THING_FIRST = re.compile(
    r"(?:at|in|on|for|to|with|from|by|of|as|about|into|is|are|was|has|have|had|does|not|no|never)\b"
    r"|[a-z]+s (?:at|in|on|for|to|with|from|by|as|a|an|the|their|his|her)\b"
)


def without_thing(content: str, what: str) -> str | None:
    """``content`` without the one thing of its list that ``what`` names ("User plays tennis
    and chess", "tennis" → "User plays chess"); ``None`` when it is no such list, or
    ``what`` names none or more than one of its things (then it goes whole, as before)."""
    if (m := _LIST_FACT_EN.match(content)) is None or says_need(content):
        return None
    things = _LIST_JOIN_EN.split(m["items"])
    if any(_NO_THING_FIRST.match(t) for t in things):  # ("works at a bank and lives in Leeds")
        return None
    named = [t for t in things if names_retracted(t, what)]
    if len(named) != 1 or len(things) < 2:
        return None
    left = [t for t in things if t is not named[0]]
    said = left[0] if len(left) == 1 else f"{', '.join(left[:-1])} and {left[-1]}"
    return f"{m['head']}{said}{m['tail'] or ''}"


# What a fact may say beside the retracted words and still be only about them ("follows a
# strict vegan diet"), and a reason given without naming anything ("for ethical reasons").
_BESIDE = terms(
    "strict strictly fully full now again diet follow follows keep keeps went gone turned became"
    " take takes taking use uses using daily every day morning night been for years months"
    " weeks ages long time"
)
# (not "since my heart attack"; "since 2015" names no thing)
_REASON = re.compile(rf"\s+for (?:\w+ ){{0,2}}reasons?$|,?\s+(?:ever )?since {SINCE_WHEN_EN}$", _I)
_ANY_REASON = re.compile(
    r",?\s+(?:for|because|due to|out of|since|as|after|ever since|from)\b.*$", _I
)


_ZH_LISTED = re.compile("[和、与及跟]")


def names_only(text: str, what: str, *, any_reason: bool = False) -> bool:
    """Whether a fact's ``text`` is about ``what`` and nothing more ("is vegan", "follows a
    vegan diet for health reasons"; not "works at a vegan restaurant"):
    :func:`names_retracted`, with no other content word before a reason that names
    nothing ("for ethical reasons"), or before any reason with ``any_reason``
    ("vegetarian since my heart attack")."""
    if CJK.search(what):  # (not "在吃阿司匹林和二甲双胍" for "阿司匹林": another thing listed)
        return names_retracted(text, what) and _ZH_LISTED.search(text.replace(what, "")) is None
    core = (_ANY_REASON if any_reason else _REASON).sub("", text)
    return names_retracted(core, what) and not (
        _retraction_terms(core) - _retraction_terms(what) - _BESIDE
    )


def _names_retracted_zh(text: str, what: str) -> bool:
    kinds = [kind for kind in _KINDS_ZH if kind.search(what)]
    if not kinds:
        return what in text
    pieces = (_EDGES_ZH.sub("", piece) for piece in _CUT_ZH.split(what))
    return all(piece in text for piece in pieces if piece) and all(
        kind.search(text) for kind in kinds
    )


def _withdrawn(raw: str, zh: bool) -> str | None:
    """The normalised value a retraction withdraws, or ``None`` when it is no object."""
    value = normalise_value(raw)
    if not zh:
        value = _EN_VALUE_EDGES.sub("", value).strip() or value
    if (
        no_target(value)
        or len(value) > 60
        # "I quit the app and restarted": an errand, not one thing (but a need may be of
        # several: "no longer allergic to peanuts and walnuts", "…to chilli and lime crisps")
        or (" and " in value and not (_NEED_OF_EN.search(value) or _several_things(value)))
        or (bad_object_zh(value) if zh else bad_object_en(value))
    ):
        return None
    return _RETRACT_STEMS.get(value, value)


def match_retraction(clause: str, zh: bool) -> Candidate | None:
    """The retraction a clause states, or ``None``.

    ``clause`` is either the user's ("I'm no longer X", "我不抽烟了") or has no
    subject ("forget what I said about X", "健身计划放弃了"); the candidate
    names what is withdrawn in :attr:`Candidate.retract` and, for a lost job,
    the slots in :attr:`Candidate.retract_slots` (then it also states the fact).
    A retraction of nothing in particular ("I'm no longer a user", "我不再是用户了")
    is a candidate withdrawing ``""``: it withdraws and states nothing.
    """
    job = (_ZH_JOB_LOST if zh else _EN_JOB_LOST).match(clause)
    if job is not None:
        content = zh_statement(clause) if zh else en_statement(clause)
        lost = job.groupdict().get("v") or job.groupdict().get("v2") or "job"
        return Candidate(content, C.CONTEXT, 0.9, retract=lost, retract_slots=_EMPLOYER_SLOTS)
    if zh and _ZH_JOB_FOUND.match(clause):  # "我找到工作了": the search is over
        return Candidate(zh_statement(clause), C.CONTEXT, 0.9, retract="找工作")
    if graduated := (_ZH_GRADUATED if zh else _EN_GRADUATED).match(clause):
        content = zh_statement(clause) if zh else en_statement(clause)
        student = "是" + _ZH_STUDENT_OF.get(graduated["of"] or "", "学生") if zh else "student"
        return Candidate(content, C.CONTEXT, 0.9, retract=student, retract_whole=True)
    if (ended := (_ZH_DIVORCED if zh else _EN_DIVORCED).match(clause)) is not None:
        if zh:
            status = (
                match_clause("我离婚了", True)
                if ended["how"] == "离婚"
                else Candidate("用户和配偶分居了", C.CONTEXT, 0.9, "marital", "分居")
            )
        elif ended["now"]:  # "We're divorced now": as "I'm divorced" is
            status = match_clause(f"I'm {ended['now']}", False)
        else:
            apart = ended["left"] or ended["left2"] or ended["how"] or ended["how2"] or ""
            how = "divorced" if apart.casefold() in ("", "divorced") else "separated"
            status = match_clause(f"I got {how}{ended['when'] or ended['when2'] or ''}", False)
        if status is not None:
            status.retract, status.parting = _SPOUSE[zh], True
            return status
    patterns = _ZH_RETRACTIONS + _ZH_WITHDRAWALS if zh else _EN_RETRACTIONS + _EN_WITHDRAWALS
    said_wrong = _ZH_SAID_WRONG if zh else _EN_SAID_WRONG
    stopped = _ZH_MEDICATION_STOPPED if zh else _EN_MEDICATION_STOPPED
    for pattern in (*stopped, *patterns, *said_wrong):  # (a medication's stop read as one)
        if m := pattern.match(clause):
            groups = m.groupdict()
            if groups.get("d"):  # denied: only a fact that says just that goes
                value = _withdrawn(_in_present(m["d"]), zh)
                if value is None or no_target(value):
                    return Candidate("", C.CONTEXT, 0.9, retract="")
                return Candidate(
                    "", C.CONTEXT, 0.9, retract=value, retract_whole=True, retract_said=True
                )
            # "我对猫不过敏了" withdraws "对猫过敏", not every fact that mentions a cat.
            if groups.get("kind"):  # "my lactose intolerance went away": as a need is stored
                raw = _NEED_AS_STORED[m["kind"].casefold()].format(m["of"])
            elif groups.get("birth") is not None:
                raw = "怀孕" if zh else "pregnant"
            elif groups.get("partner") is not None:  # "We broke up": whoever the partner is
                raw = _PARTNER[zh]
            elif groups.get("pet"):
                return Candidate(
                    "", C.CONTEXT, 0.9, retract=_PET_HAD[zh].format(m["pet"]), retract_whole=True
                )
            else:
                raw = (
                    f"对{groups['a']}{groups['k']}"
                    if groups.get("a")
                    else groups.get("v") or groups["name"]
                )
            if groups.get("head"):  # "scrap the Iceland trip": the trip is what goes
                raw = f"{raw} {groups['head']}"
            if no_target(normalise_value(raw)):  # "I'm no longer a user": withdraws nothing
                return Candidate("", C.CONTEXT, 0.9, retract="")
            value = _withdrawn(raw, zh)
            if value is None:
                return None
            if groups.get("to"):
                said = f"User switched to {m['to']}"
            elif pattern is _EN_GAVE_UP and _consumed(m["v"]):
                said = en_statement(clause)
            else:
                said = ""
            return Candidate(
                said,
                C.CONTEXT,
                0.9,
                retract=value,
                retract_present=bool(groups.get("left")),
                retract_said=pattern in said_wrong,
                retract_whole=pattern in stopped,
                medication_stopped=pattern in stopped,
                parting=pattern in _PARTINGS,
            )
    return None


# What a parting withdraws when it names no one: a partner or a spouse, by any word for one
# (names_parted reads them)
_PARTNER = {False: "partner", True: "对象"}
_SPOUSE = {False: "spouse", True: "配偶"}
# A pet gone: only the fact of having it goes ("has a cat"), not "is allergic to cats".
_PET_HAD = {False: "has a {}", True: "养了一只{}"}
_NEED_AS_STORED = {
    "allergy": "allergic to {}",
    "intolerance": "{} intolerant",
    "sensitivity": "sensitive to {}",
}


# "I never said I liked shrimp": the verb as a stored fact says it ("likes shrimp"), so an
# allergy to shrimp is no fact the denial names.
_PRESENT = {
    "liked": "like", "loved": "love", "hated": "hate", "enjoyed": "enjoy", "wanted": "want",
    "preferred": "prefer", "disliked": "dislike", "played": "play", "lived": "live",
    "worked": "work", "used": "use", "owned": "own", "had": "have", "went": "go", "ate": "eat",
    "drank": "drink", "drove": "drive", "grew": "grow", "studied": "study", "smoked": "smoke",
}  # fmt: skip


def _in_present(said: str) -> str:
    first, _, rest = said.partition(" ")
    return f"{_PRESENT.get(first.casefold(), first)} {rest}".strip()


# --- frames that withdraw one thing and state another ------------------------------------

# fmt: off
_EN_NOT_BUT = re.compile(r"^I'm {ADV}not (?:an? |the )?(?P<x>[^,;]+?)\s*(?:[,;]|\s-+|(?=\sbut\s+to\s))\s*(?:(?:but|rather)\s+)?(?P<im>I'm\s+)?(?P<y>(?:an? |the )?[^,;]+)$".replace("{ADV}", ADV_EN), _I)
# After "I'm not X," without "I'm", a clause of its own is no Y the user is: "…, my girlfriend
# is", "…, I prefer working late", "…, honestly I find it boring" (each read on its own); nor
# are examples of X ("I'm not into sports, like football", "…, like a marathoner"); "more
# like a tutor" is Y, said loosely.
_EN_CLAUSE_START = re.compile(
    r"^(?:I|I've|I'd|I'll|my|he|she|they|we|it|you|his|her|their|our|its|honestly|so|that|this|"
    r"there|though|and|or|just|which|who|like|such as|including|especially|particularly)\b",
    _I,
)
_EN_LOOSELY = re.compile(r"^more\s+like\s+(?=an?\s)", _I)
# …nor, but for its object, X again ("I'm not allergic to kiwi, just to mango", "…but to
# mango", "…only to mango": allergic to mango); "after all" ends no X
_EN_NEED_OF = re.compile(
    r"^(?P<need>(?:allergic|intolerant|sensitive|hypersensitive) to)\s+\S.*?(?:\s+after\s+all)?$", _I
)
_EN_ONLY_TO = re.compile(rf"^(?:(?:just|only|merely)\s+)?to\s+(?P<thing>{NEED_THING_EN})[.!]*$", _I)
_AFTER_ALL = re.compile(r"\s+after\s+all$", _I)
_TURNS_OUT = re.compile(r"^(?:(?:it |as it )?turns out|it turned out)(?: that)?,?\s+(?=I'm\s)", _I)


def _need_again(x: str, y: str) -> str | None:
    """The need X said of Y's thing, when Y is only that thing ("allergic to kiwi", "just to
    mango" → "allergic to mango"); else ``None``."""
    if (need := _EN_NEED_OF.match(x)) is None or (only := _EN_ONLY_TO.match(y)) is None:
        return None
    return f"{need['need']} {only['thing']}"
# Nor is a remark about saying it: "I'm not allergic to kiwi, sorry" ("…, oops", "…, sadly",
# "…, I'm afraid", "…, I'm sure", "…, sorry to say") is a denial, not "User is sorry".
_EN_REMARK = re.compile(
    r"^(?:sorry(?: to say| about that| to disappoint)?|my bad|oops|whoops|ok|okay|alright|"
    r"sure|positive|certain|kidding|joking|serious|afraid|honest|thanks|thank you|no offen[cs]e|"
    r"to be (?:honest|fair|clear)|for the record|for real|just saying|"
    r"(?P<adverb>(?-i:[a-z]+ly)))[\s.!?~…]*$",
    _I,
)
_EN_USED_TO = re.compile(r"^I used to (?P<was>\w+) (?P<x>[^,]+?),? (?:but |and )?(?:now|these days|nowadays) (?:I )?(?P<now>[\w' ]+?) (?-i:them|it|that|those|these|him|her)(?: a lot| too| instead)?$", _I)
_ZH_NOT_BUT = re.compile(r"^我(?:其实|现在)?不是(?:一个|一名|个|名)?(?P<x>[^，,]+?)[，,]\s*(?:而)?(?:我)?是(?:一个|一名|个|名)?(?P<y>.+)$")
_ZH_SOMEONE = re.compile(rf"^(?:我的?|他的?|她的?)?(?:{KIN_ZH})")
# fmt: on


def _stated(clause: str, value: str, zh: bool) -> Candidate | None:
    """The statement of "…, I'm Y": a known rule's fact, else the clause itself, if Y is short."""
    if (stated := match_clause(clause, zh)) is not None:
        return stated
    short = len(value) <= 12 if zh else len(value.split()) <= 5
    if not short or (bad_object_zh(value) if zh else bad_object_en(value)):
        return None
    content = zh_statement(clause) if zh else en_statement(clause)
    return Candidate(content, C.CONTEXT, 0.9)


def retraction_frame(sentence: str, zh: bool) -> Candidate | None:
    """ "I'm not X, I'm Y" / "我不是X，是Y" and "I used to hate X but now I love them".

    Returns the statement of the new truth, carrying the retraction of the old
    one (and, for "not X but Y", X as the wrong value of a correction); ``None``
    when the sentence has neither shape or its new part is no known statement.
    """
    if zh:
        # "我不是护士，是我妹妹": the other person is, not a new value of the user's
        if (m := _ZH_NOT_BUT.match(sentence)) is None or _ZH_SOMEONE.match(m["y"]):
            return None
        # Y says what the user does ("我不是对花生过敏，是对芝麻过敏": 我对芝麻过敏), else
        # what the user is ("我不是医生，是护士": 我是护士)
        stated = match_clause(f"我{m['y']}", True) or _stated(f"我是{m['y']}", m["y"], True)
        wrong = m["x"]
    elif (
        (m := _EN_NOT_BUT.match(_TURNS_OUT.sub("", sentence, count=1)))
        and (m["im"] or not _EN_CLAUSE_START.match(m["y"]) or _need_again(m["x"], m["y"]))
        and not ((aside := _EN_REMARK.match(m["y"])) and not (m["im"] and aside["adverb"]))
    ):
        wrong = _AFTER_ALL.sub("", m["x"])
        # "I'm not a teacher, more like a tutor"; "…not allergic to kiwi, just to mango"
        y = _need_again(m["x"], m["y"]) or _EN_LOOSELY.sub("", m["y"], count=1)
        stated = _stated(f"I'm {y}", y, False)
    elif m := _EN_USED_TO.match(sentence):
        stated, wrong = match_clause(f"I {m['now']} {m['x']}", False), m["x"]
        if stated is not None:
            stated.retract = _withdrawn(wrong, False)
        return stated if stated is not None and stated.retract else None
    else:
        return None
    withdrawn = _withdrawn(wrong, zh)
    if stated is None or withdrawn is None:
        return None
    stated.category, stated.confidence = C.CORRECTION, 0.95
    stated.wrong_value, stated.retract = normalise_value(wrong), withdrawn
    return stated


# --- "Not anymore.": the statement just said, withdrawn -------------------------------------

# A sentence that says only that what was just said holds no more: "Not anymore.", "Actually,
# not any longer.", "But I outgrew it.", "现在不是了", "已经好了". In Chinese a time word is asked
# for: "不了" alone declines an offer, "没有了" alone answers "anything else?", "好了" is "done".
# Those weak ones ("现在好了", "现在没有了", "现在不会了") withdraw a need only when nothing
# follows them ("现在好了！以后连宫保鸡丁都吃不了了" is a complaint), and of a need only an
# allergy or intolerance (after a reaction, the rash is what is gone).
NO_LONGER_ALONE = re.compile(
    r"\s*(?:(?:actually|but|well|though|although|and|oh|um+|uh+|hmm+|haha|lol|sadly|luckily|thankfully)[,!]?\s+)*"
    r"(?:not\s+(?:(?P<kind>allergic|intolerant)\s+)?any\s*more|not\s+any\s+longer"
    r"|I(?:\s+outgrew|\s+have\s+outgrown|'ve\s+outgrown|\s+grew\s+out\s+of)\s+(?:it|that|them|the\s+allergy)"
    r"|I\s+(?:don't|do\s+not)(?:\s+(?P<verb>like|love|enjoy)\s+(?:it|that|them))?\s+any\s*more)"
    r"(?:[,\s]+(?:though|luckily|thankfully|thank god|sadly|unfortunately|haha|lol|now|actually))*[\s.!~…]*"
    r"|\s*(?:其实|不过|但是?|可是)?[,，]?(?:我)?(?:现在|如今|目前|已经|早就|后来)(?:已经)?"
    r"(?:不再是?了|不是了|不了|(?P<weak>没有了|没了|好了|不会了)|(?:不再|不)(?P<zh_kind>过敏|喜欢|爱)了)"
    r"[啦啊呀哦]*[\s.!！。~～…]*",
    _I,
)
# What says "not anymore" just said was not meant ("I'm allergic to peanuts. Not anymore.
# Just kidding!", "…I wish!", "…Wait, yes I am.", "…现在好了。开玩笑的"): the need stands.
# (laughs and laughing faces: "lol", "lolol", "lmfao", "hahah", "xD", ":P", ";)", "😂", "🤪")
# (each laugh is read whole, never as two: "hahaha" is one, so a run of them is read one way
# only, in linear time, with no possessive quantifier: Python 3.11.2's possessive repeats
# kept what a failed repeat had read, and "Jk, I still am." took nothing back there)
_LAUGHS = (
    r"(?:[\s,，!.]*(?:l(?:ol)+(?![ol])|lmf?ao+(?!o)|a?(?:ha)+h?(?![ah])|(?:he)+h?(?![eh])|"
    r"x+d+(?![xd])|[:;=]-?[)pPdD3]+(?![)pPdD3])|哈{2,}(?!哈)|"
    r"[😂🤣😅😆😄😁😜😝😛😉🙃😹😀😃😊🙂😏🤪🤭😬😇]\ufe0f?))*"
)
WITHDRAWAL_UNDONE = re.compile(
    r"[\s(（—–-]*(?:(?:lol|haha|wait|oh|no|nah|ok(?:ay)?|哈{2,}+)[,!.，]?\s*)*"
    # (a laugh after it: "Just kidding 😂", "jk lol", "开玩笑的哈哈哈"; not after a bare "yes",
    # which with a laugh answers a question: "Is that a big change?" "Yep lol", attacker 343)
    rf"(?:(?:{TAKEN_BACK}|I\s+wish|if\s+only|我倒希望(?:是)?|要是就好了|怎么可能|才怪){_LAUGHS}"
    # ("Just kidding! I still am.": after a mark ending the words taking it back too; the
    # laughs after it are read there only, so each run of them is read one way)
    r"(?:[\s,，!.！。~～]+(?:I\s+(?:still\s+)?(?:am|do)|I'm\s+still\s+\w+|still\s+am|我还是\w{0,4})"
    rf"{_LAUGHS})?"
    r"|(?P<yes>yes|yeah|yep)(?P<yes_said>[\s,，!.！。~～]+(?:I\s+(?:still\s+)?(?:am|do)"
    rf"|I'm\s+still\s+\w+|still\s+am){_LAUGHS})?)"
    r"[\s)）.!！。~～]*"
    # (a thanks after it: "Yes I am. Thanks", "Just kidding, thanks!": helper 351; not after
    # a bare "yes", where it thanks for what was noted: "Yes, thanks" took the withdrawal back,
    # helper 352)
    r"(?:(?(yes)(?(yes_said)|(?!)))[,，]?\s*(?:thanks?(?: you)?|thx|ty|cheers|谢谢)[\s.!！。~～]*)?",
    _I,
)
# What joins a clause to another: "not anymore" after a sentence of two clauses ("I'm allergic
# to penicillin, and the app kept crashing.", "我对青霉素过敏，前几天感冒了。") may be of either.
_JOINED = re.compile(
    r"[,;:，；：、]|\s(?:and|but|or|so|while|though|although|because|then|plus)\s", _I
)
_STOPS = re.compile(r"[.!?。！？\n]+")


def said_alone(text: str) -> bool:
    """Whether ``text`` is one statement: one sentence (its end aside), no clause joined to it.

    Only then is "not anymore" after it (:data:`NO_LONGER_ALONE`) sure to be of what it says.
    """
    body = text.strip().rstrip(".!。！~… ")
    return not _STOPS.search(body) and not _JOINED.search(body)


# A statement that already says "not" ("I don't eat meat. Not anymore." is the same said twice).
_NEGATED = re.compile(
    r"\b(?:not|never|no longer|doesn't|don't|can't|cannot|won't)\b|^用户(?:不|没|从不|从来不)"
)
_ZH_ALLERGY = re.compile(r"过敏|不耐受")
# A statement of what was so once ("User was vegetarian for years", "用户以前住在上海").
_OF_THE_PAST = re.compile(r"User (?:was|were|had|used to)\b|用户(?:以前|曾经|过去|小时候)")
_SUBJECT = re.compile(r"^(?:User|用户)\s*")  # as the stored fact is read: "'s favourite…" stays
# A liking, which "I don't love it anymore" and "现在不喜欢了" say is over, whichever word said it.
_LIKED = re.compile(r"^User (?:\w+ )?(?:likes|loves|enjoys)\b|^用户(?:很|特别|非常)?(?:喜欢|爱)")
_EN_SAID = re.compile(r"^User (?P<verb>is|has|[a-z]+s) (?P<rest>\S.*)$")


def withdrawal_of(said: Candidate, no_longer: re.Match[str]) -> Candidate | None:
    """What takes the place of ``said`` when the user adds ``no_longer`` to it (a match of
    :data:`NO_LONGER_ALONE`: "Not anymore.", "Not allergic anymore.", "现在不过敏了").

    ``said`` is read as the user would say it withdrawn ("User is allergic to peanuts" as
    "I'm no longer allergic to peanuts", "用户住在上海" as "我不再住在上海了") by
    :func:`match_retraction`: that retraction, which also withdraws a stored copy.

    Returns:
        That retraction; when no retraction pattern reads it and ``said`` is no need ("I
        love sushi. Not anymore."), one that withdraws the statement whole (a stored fact
        that says just "User loves sushi" goes); ``None`` when ``said`` stands:
        a statement that says "not" already, one of the past, a retraction, one of another
        kind than ``no_longer`` names ("我住在上海。现在不过敏了。"), or a need no retraction
        pattern reads (a wrong need kept is the safer error).
    """
    content = said.content
    if (
        not content
        or said.past
        or said.retract is not None
        or _NEGATED.search(content)
        or _OF_THE_PAST.match(content)
    ):
        return None
    if no_longer["weak"] and said.constraint and not _ZH_ALLERGY.search(content):
        return None  # "我一吃虾就起疹子。现在好了。": the rash is gone, not the need
    kind = no_longer["kind"] or no_longer["zh_kind"]
    if no_longer["verb"] or kind in ("喜欢", "爱"):  # "I don't like it anymore", "现在不爱了"
        if not _LIKED.search(content):
            return None
    elif kind and kind.casefold() not in content.casefold():
        return None
    if content.startswith("用户"):
        withdrawn = match_retraction(f"我不再{content[2:]}了", True)
    elif (m := _EN_SAID.match(content)) is not None:
        verb = m["verb"]
        head = "I'm no longer" if verb == "is" else f"I no longer {base_form(verb)}"
        withdrawn = match_retraction(f"{head} {m['rest']}", False)
    else:
        withdrawn = None
    if withdrawn is not None and not withdrawn.content and withdrawn.retract:
        return withdrawn
    if said.constraint:
        return None
    # No pattern reads it withdrawn ("I no longer love sushi"): the statement itself goes,
    # and a stored fact that says just that ("User loves sushi", not "…sushi in Osaka").
    return Candidate("", C.CONTEXT, 0.9, retract=_SUBJECT.sub("", content), retract_whole=True)
