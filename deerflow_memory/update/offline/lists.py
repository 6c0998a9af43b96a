"""What the user writes as a list: bulleted lines, fields answered under them, headings.

"About me:\\n- I live in Lisbon\\n- vegan", "Allergies:\\n- walnuts\\n- sesame", "My daughter:\\n
allergic to eggs": a list is read as the lines its items would be said as, under what heads
it. :func:`lists_read` rewrites a message's lines before its sentences are read:

- a bullet or a number ("- ", "* ", "• ", "1. ", "2) ") is no word of its item;
- a field of needs whose answers are the items under it ("Allergies:" then "- walnuts") is
  written on one line ("Allergies: walnuts, sesame"), as it is read when written so; one
  answer line without a bullet is taken, no more, and a field answered "none" says nothing;
- the items without a subject of their own and the fields under a heading of someone of the
  user's ("My daughter:", "My wife's diet:", "His info:", "我妈的情况：", a line "病人：我妈", a
  question about them), or after an item about them ("- My son is allergic to eggs"), are
  theirs and left out; so is all under a heading that shows (a template, an example, a label,
  a form to fill for someone), and every item under one that asks which to pick ("Which of
  these are most common?"); under a wish or a choice for the user ("Diets I want to try:",
  "Help me choose a restaurant:") only an item that says a need is the user's, under any other
  question ("Lunch ideas for me?") one that says a diet too, and under any other heading that
  is no statement of the user's ("Kids:") no item, though a field is;
- a heading is no fact of its own, unless the user says something in it ("I have two cats:");
- a line labelled with the user ("Me: allergic to shellfish", "我：…") is the user's, one
  labelled with someone of theirs ("Son: …", "老公：…") theirs, unless the message is a chat
  sent on or a script ("Me:" is someone else there);
- a line that holds the user as a subject ("I", "me", "本人", "我") is always the user's, and
  a blank line ends what a heading heads (one right after the heading does not).

Pure functions over strings; linear in the text.
"""

from __future__ import annotations

import re

from deerflow_memory.capture.kin import KIN_EN, KIN_EN_OWNED
from deerflow_memory.update.offline.ellipsis import zh_things
from deerflow_memory.update.offline.vocabulary import (
    ACCESS_FIELD_EN,
    CJK,
    CONDITION_EN,
    CONDITION_FIELD_EN,
    CONDITION_FIELD_ZH,
    CONDITION_ITEM_ZH,
    DIET_EN,
    DIET_FIELD_EN,
    KIN_ZH,
    ME_ZH,
    MEDICATION_FIELD_EN,
    MEDICATION_NAME_EN,
    NEED_FIELD_BEFORE_EN,
    NEED_THING_EN,
    SUPPLEMENT_EN,
)

__all__ = ["REMARK_OVER", "lists_read"]

_I = re.IGNORECASE

# A bullet or an item's number that opens a line: "- ", "* ", "• ", "1. ", "2) ", "(3) ", "a) ".
_ITEM = re.compile(
    r"[^\S\n]*(?:[-*+•·‣◦▪▫●○■□➤►▸–—]|\(?\d{1,2}[.)）、]|[(（]\d{1,2}[)）]|\(?[a-h][)）])[^\S\n]+(?=\S)"
)
# A line that heads what follows: it ends in a colon or asks.
_HEADING = re.compile(r".*(?:[:：]|[?？])\s*")
# …of someone else's: a heading whose topic is someone of the user's ("My son:", "For my wife:",
# "My wife's diet:", "Facts about my son:", "我儿子：", "我妈的情况："), not one that only names
# them ("Info for my wife:", "For my mom's dinner party, my info:", "给我老公看的："). Not the
# family the user is one of ("My family:", "我们家：", "家人："), nor a bare "Mom:" or "Kids:",
# which may be a field answered by names or a greeting ("Dear Mom:").
_PROFILE_EN = (
    r"diet|allerg(?:y|ies)|info(?:rmation)?|details|needs|restrictions|medical\s+history"
    r"|health|profile|list"
)
_NAMES_SOMEONE = re.compile(
    r"\s*(?:(?:here's|here\s+is|this\s+is)\s+)?"
    r"(?:(?:(?:some\s+)?(?:notes|facts|info|details|things)\s+)?(?:about|on)\s+|for\s+)?"
    rf"(?:my|our)\s+(?:[\w-]+\s+)?(?!family\b|household\b)(?:{KIN_EN_OWNED})(?:'s?)?(?:\s+(?-i:[A-Z][a-z]+))?"
    rf"(?:\s+(?:{_PROFILE_EN}))?\s*[:：]\s*"
    rf"|\s*(?:给|关于|下面是|以下是|这是)?我的?(?!家人|家里人)(?:{KIN_ZH})(?:的)?"
    r"(?:情况|信息|资料|饮食|过敏|病历|忌口|病史)?\s*[:：]?\s*",
    _I,
)
# …or of him or her ("His info:", "她的情况：", "Tom (my son):", "…Her info:").
_THEIRS_HEAD = re.compile(
    rf".*\b(?:his|her|their)\s+(?:{_PROFILE_EN})\s*[:：]\s*|.*[他她]的?(?:情况|信息|资料|饮食|病历)\s*[:：]\s*"
    rf"|.*[(（](?:my|我的?)\s*(?:{KIN_EN}|{KIN_ZH})[)）]\s*[:：]\s*",
    _I,
)
_KIN_ANY = re.compile(rf"\b(?:{KIN_EN})\b|(?:{KIN_ZH})", _I)
_ZH_FOR_THEM = re.compile(rf"(?:帮|替)我的?(?:{KIN_ZH})")  # (not "给我老婆看的": to show her)
# Someone of the user's named anywhere (a question about them is theirs).
_KIN_IN = re.compile(rf"\b(?:my|our)\s+(?:[\w-]+\s+)?(?:{KIN_EN_OWNED})\b|(?:{KIN_ZH})", _I)
# A heading of the user's own after theirs: "My allergies:", "My own:", "As for me:".
_MINE_HEAD = re.compile(
    rf"\s*(?:my|as\s+for\s+me|for\s+me|me)\b(?!\s+(?:[\w-]+\s+)?(?:{KIN_EN})\b)|\s*(?:我自己|本人|我的(?!(?:{KIN_ZH})))",
    _I,
)
# A line of a form that names them as whom it is of: "病人：我妈", "Patient: my son", "下面是我老公
# 的资料" (not "紧急联系人：我老婆", an emergency contact).
_THEIRS_LINE = re.compile(
    rf"\s*(?:病人|患者|就诊人|patient|name)\s*[:：]\s*(?:my|我的?)\s*(?:{KIN_EN}|{KIN_ZH})\W*"
    r"|\s*(?:下面是|以下是|这是|here(?:'s|\s+is)|this\s+is)\s*(?:my|我的?)"
    rf"\s*(?:{KIN_EN}|{KIN_ZH})(?:'s)?\s*(?:的)?"
    rf"\s*(?:{_PROFILE_EN}|资料|信息|情况|病历)\W*",
    _I,
)
# An item about them, after which the items without a subject are theirs too.
_ABOUT_SOMEONE_ELSE = re.compile(
    rf"\s*(?:my|our)\s+(?:[\w-]+\s+)?(?!family\b|household\b)(?:{KIN_EN_OWNED})\b(?!\s*[:：])|\s*我的?(?!家人|家里人)(?:{KIN_ZH})(?![:：])",
    _I,
)
# A heading of the user's own: "Me:", "About me:", "A bit about myself:", "I am:", "本人：", "我：".
_SELF = re.compile(
    r".*\babout\s+(?:me|myself)\b.*|\s*(?:for\s+)?(?:me|myself|self|mine)\s*[:：]\s*"
    r"|\s*(?:I\s+am|I'm)\s*[:：]\s*|.*关于我.*|\s*(?:本人|我)\s*[:：]\s*",
    _I,
)
# …of what the user asks to be kept ("Things I'd like you to remember:", "请记住：").
_KEEP = re.compile(r".*\b(?:remember|know|note|keep in mind)\b.*|.*(?:记住|记一下|注意).*", _I)
# …of what the user tells of themselves ("My info:", "Medical:", "健康："; under "My son:", of
# him): a note of the user's, not "My New Year's resolutions:" or "Diet options:".
_ABOUT = re.compile(
    r".*\b(?:remember|know|note|notes|profile|info|details|intro|introduction)\b.*"
    r"|\s*(?:(?:my|about|some|a few|quick)\s+)*(?:health|medical(?:\s+history)?|diet|dietary"
    r"|allerg(?:y|ies)|intolerances?|restrictions?|background|facts|bio|stats)\s*[:：]\s*"
    r"|\s*(?:(?:my|our)\s+(?:family|household)|we|us)\s*[:：]\s*"  # the family the user is one of
    r"|.*(?:个人|我的信息|资料|记住|健康|饮食|过敏|忌口).*",
    _I,
)
# A heading that asks ("Lunch ideas for me?", "Is this safe?", "Should I go:").
_ASKS = re.compile(
    r".*[?？]\s*|\s*(?:which|what|should|shall|can|could|would|do|does|is|are|how)\b.*"
    r"|.*\b(?:ideas?|options?|poll)\b.*|.*(?:选项|哪个|什么).*",
    _I,
)
# …or a wish ("Diets I want to try:", "Diets I hate:", "Not for me:", "My resolutions:"): its
# items are what the user wishes, not is, but for an item that says a need.
_WISHES = re.compile(
    r".*\b\w+\s+(?:I|I'd|I've|I'm)\s+(?:(?:really|still|would)\s+)?(?:want|wanna|would\s+like"
    r"|'d\s+like|like\s+to|hope|try|tried|hate|dislike|can't\s+stand|don't\s+like|never"
    r"|considering|am\s+considering|thinking\s+of|am\s+thinking\s+of)\b.*"
    r"|.*\b(?:resolutions?|goals?|wish\s*list|bucket\s+list|not\s+for\s+me)\b.*"
    r"|.*(?:想(?:尝试|试试?|吃)的|打算(?:尝试|试)的|试过的|讨厌的|不喜欢的).*",
    _I,
)
# …a choice the user asks for, of a thing named ("Help me choose a restaurant:", "Pick a dish
# for me:", "帮我看看选哪家餐厅？"): what follows are the user's constraints.
_CHOOSE_FOR = re.compile(
    r".*\b(?:choose|pick|find|recommend|suggest|plan)\s+(?:me\s+)?(?:a|an|the|some|my|\d+)\s+\w+.*"
    r"|.*(?:选哪家|推荐|帮我选|帮我挑).*",
    _I,
)
# A heading that shows what is not the user's at all: a template, an example, a form to fill
# for someone, a label ("Example:", "Template:", "帮我做个问卷：", "包装上写着：").
_SHOWS = re.compile(
    r"(?!.*[?？]\s*$).*\b(?:examples?|template|sample|label|packaging)\b.*"
    r"|\s*(?:(?:the|a|this|that)\s+)?(?:recipe|ingredients)\b.*"
    r"|(?!.*[?？]\s*$).*(?:问卷|模板|示例|例如|比如|包装|产品|配料|统计|写着).*",
    _I,
)
_MY = re.compile(r"\b(?:my|mine)\b|我的", _I)
_I_FIRST = re.compile(r"\s*(?:I|I'm|I've|我)(?![\w'])", _I)
# …or asks which of its items to pick ("Which of these are most common?", "Poll:"): none of
# them is the user's, needs included.
_PICK = re.compile(
    r"(?=.*\b(?:which|what)\b)(?=.*\b(?:these|those|following|them|ones?)\b).*"  # (linear)
    r"|.*\b(?:pick|choose|poll|vote|rank|options?)\b.*|.*(?:哪个|哪些|哪一|选项|选哪|投票).*",
    _I,
)
# …and under a question, a diet or a state of the user's too ("Lunch ideas for me?\n- vegetarian").
_DIET_ITEM = re.compile(
    r"\s*(?:vegetarian|vegan|pescatarian|halal|kosher|keto|paleo|pregnant|breastfeeding"
    r"|wheelchair\s+user|lactose[- ]free|dairy[- ]free|no\s+\w+|asthma\w*|diabet\w*|epilep\w*"
    r"|anemic|anaemic|hypertension)\b|\s*(?:素食|吃素|清真|纯素|怀孕|有?哮喘|有?糖尿病|有?高血压)",
    _I,
)
# An item that says a need ("allergic to sesame", "can't have gluten", "不吃辣"): under a
# question it is what the user tells of themselves ("Could you suggest a restaurant?\n- allergic
# to sesame"), not one of the options ("Which should I pick?\n- vegan").
_NEED_ITEM = re.compile(
    r"\s*(?:severely\s+|very\s+|mildly\s+)?(?:allergic|intolerant|sensitive)\b"
    r"|\s*(?:can't|cannot|can not|don't|do not|must not|mustn't)\s+(?:eat|have|drink|take)\b"
    r"|.*\b(?:allerg\w*|intoleran\w*)|\s*(?:celiac|coeliac|diabetic|gluten[- ]free|nut[- ]free)\b"
    r"|.*(?:过敏|不耐受)|\s*(?:不吃|不能吃|不喝|不能喝|忌口|吃不了)",
    _I,
)
# A line with the user as a subject is the user's wherever it stands.
_OWN = re.compile(r"\b(?:I|I'm|I've|I'd|I'll|me|myself)\b|本人|" + ME_ZH)
# …as what an item opens with: a statement, not an answer ("- I'm allergic to peanuts")
_OWN_FIRST = re.compile(r"\s*(?:(?:I|I'm|I've|I'd|me|myself)\b|本人|" + ME_ZH + ")", re.I)
# …or a remark of the user's after an answer ("- peanuts, I carry an EpiPen", "- 花生，我吃了会
# 起疹子"), and one that says just that the need is over ("- peanuts, I outgrew it": no answer
# then; not "I haven't outgrown it", "我以为不过敏了，结果…")
_OWN_REMARK = re.compile(
    r"\s*(?P<answer>[^,，;；:：()（）\n]{1,40}?)\s*(?:[,，;；:：]|\s[-—–]+)\s*"
    r"(?P<remark>(?:(?:I|I'm|I've|I'd)\b|" + ME_ZH + r")[^\n]*)",
    re.I,
)
REMARK_OVER = re.compile(
    r"I(?:'ve| have)?\s+(?:outgr[eo]wn?|grew out of)(?:\s+(?:it|them|that|this))?"
    r"|I(?:'m| am)\s+(?:no longer|not)\s+(?:allergic|intolerant|sensitive)"
    r"(?:\s+(?:to\s+)?(?:it|them))?(?:\s+(?:anymore|any more))?"
    r"|I(?:'m| am|'ve| have)\s+(?:(?:been|got)\s+)?over it"
    r"|我(?:已经|现在)?(?:不过敏了|好了|没事了)"
    r"[\s.!。！]*",
    re.I,
)
# A field of needs: "Allergies:", "Food allergies:", "Dietary restrictions:", "Conditions:",
# "Medications:", "Accessibility:", "过敏：", "忌口：" (text.py reads its answers: a condition or
# a medication only from its vocabularies).
_FIELD = re.compile(
    rf"\s*{NEED_FIELD_BEFORE_EN}(?:allerg(?:y|ies|ic)|allergens?|intolerances?|{DIET_FIELD_EN}"
    rf"|{CONDITION_FIELD_EN}|{MEDICATION_FIELD_EN}|{ACCESS_FIELD_EN})"
    r"(?:\s*\([^()\n]{0,30}\))?\s*:\s*"
    rf"|\s*(?:(?:食物|药物)?(?:过敏(?:原|史)?|忌口|饮食禁忌)|{CONDITION_FIELD_ZH})"
    r"(?:[(（][^()（）\n]{0,20}[)）])?\s*[:：]\s*",
    _I,
)
# Any field of a form, answered on its line ("Bedtime: 8pm", "病史：哮喘").
_ANY_FIELD = re.compile(r"\s*[^\s:：]{1,12}(?:\s+[^\s:：]{1,12}){0,2}\s*[:：]\s*\S")
# One answer line without a bullet: short, no field or question of its own, and in Chinese no
# clause ("不吃香菜" is read as said).
_ANSWER_WORDS = 5
_NOT_AN_ANSWER = re.compile(r"[:：?？]|^(?:不|没|对|我|只|要|吃|喝)")
_NONE = re.compile(r"(?:none|n/?a|no|nothing|nope|nil|nkda|没有|无|暂无|没)[\s.!。！]*", _I)
# A statement of the user's cut at its colon, its things the items under it: "I'm allergic
# to:", "I can't eat:", "I avoid:", "我对以下食物过敏：", "我不吃："
_STATED = re.compile(
    r"\s*(?:(?:things|foods?|stuff|drinks|drugs|medications?|medicines|what|ingredients"
    r"|(?:menu\s+)?items|dishes|fruits?|nuts|meds)\s+)?"
    r"(?P<stated>(?:I|I'm|I am)\b[^:：\n]{0,60}\b(?:to|of|from|eat|drink|take|avoid|have|with)"
    r"|(?:severely\s+)?(?:allergic|intolerant)\s+to|(?:can't|cannot)\s+(?:eat|have|drink))"
    r"\s*[:：]\s*"
    r"|\s*我[^:：\n]{0,20}(?:过敏|不耐受|不吃|不能吃|不喝|不能喝|忌口|忌)"
    r"(?:[，,]\s*(?:比如|例如|像是?|包括))?\s*[:：]\s*",
    _I,
)
# …in Chinese, where the things go between 对 and the need: "我对以下食物过敏：", "我乳糖不耐受，
# 还对下面这几样东西严重过敏："
_ZH_STATED_NEED = re.compile(
    r"对(?:以下|下面|下列|这些|如下)?(?:这)?(?:几样|几种|几个)?的?(?:食物|东西|药物|药品|药)?"
    r"(?P<need>(?:严重|轻微|有点|都)?(?:过敏|不耐受))\s*[:：]\s*$"
)
_LAST_JOINER = re.compile(r"\s+(?:and|or|&)$|[和及]$", _I)  # "- peanuts and" (the list's end)


# A line labelled with the user ("Me: allergic to shellfish", "我：对青霉素过敏") says it of the
# user; one labelled with someone of theirs ("Son: allergic to eggs", "老公：海鲜过敏") of them.
_SELF_LABEL = re.compile(
    r"^[^\S\n]*(?P<who>me|myself|self|本人|我)[^\S\n]*(?:[:：]|[-–—](?=[^\S\n]))[^\S\n]*(?=\S)",
    re.I | re.M,
)
# (Named one by one, not by KIN_EN/KIN_ZH: a line "Kids: 2", "Family: vegetarian" or "朋友：…"
# may be the user's own.)
_KIN_LABEL_LINE = re.compile(
    r"^[^\S\n]*(?:son|daughter|wife|husband|mom|mum|dad|mother|father|partner|boyfriend"
    r"|girlfriend|brother|sister|baby|toddler|老公|老婆|儿子|女儿|妈妈|爸爸|我妈|我爸|孩子)"
    r"[^\S\n]*[:：][^\S\n]*\S[^\n]*",
    re.I | re.M,
)


# …which a chat sent on or a script has in someone else's name ("My sister sent me her chat with
# the doctor:", "Write a dialogue for my kid's play:", "我朋友发给我的聊天记录：").
_SOMEONE_ELSES_WORDS = re.compile(
    r"\b(?:chat|conversation|dialogue|dialog|script|play|transcript|scene|story|forwarded|sent me"
    r"|texts?|texted|messages?|screenshot|copying|copied|pasting|pasted|thread)\b"
    r"|聊天记录|对话|剧本|台词|故事|转发|截图|消息|短信",
    re.I,
)


def _self_label(m: re.Match[str]) -> str:
    return "我" if m["who"] in ("本人", "我") else ""


def lists_read(text: str) -> str:
    """``text`` with its lists written as their items are said (see the module docstring).

    Lines are ``"\\n"``-separated (other line separators already made so). A text with no
    item, field, heading or labelled line is returned as it is.
    """
    if not _SOMEONE_ELSES_WORDS.search(text):  # "Me: …", "Son: …" (not in a chat sent on)
        text = _KIN_LABEL_LINE.sub("", _SELF_LABEL.sub(_self_label, text))
    lines = text.split("\n")
    if not any(
        _ITEM.match(line) or _HEADING.fullmatch(line) or _THEIRS_LINE.fullmatch(line)
        for line in lines
    ):
        return text
    out: list[str] = []
    # what the last heading heads (see _heading), or None (the user's, or nothing)
    heads: str | None = None
    answers: list[str] = []
    statements: list[str] = []  # the user's own lines among a field's answers
    just_headed = False  # the line before was the heading
    gap: list[str] = []  # blank lines after a field's answer, held until what follows shows
    loose = True  # the field's answers so far each stand between blank lines
    marker = ""  # the bullet of the field's last answer
    for at, line in enumerate(lines):
        item = _ITEM.match(line)
        body = line[item.end() :] if item else line
        if not line.strip() and heads is not None and just_headed:
            continue  # "Allergies:\n\n- peanuts": the heading still heads what follows
        just_headed = False
        if heads == "field" and answers:
            if not line.strip():
                gap.append(line)
                continue
            if gap and not (
                loose
                and item
                and _marker(item) == marker
                and _loose_answer(body, lines, at, out[-1])
            ):
                # the blank line ended the field: what follows is no answer of it
                # ("Allergies:\n- peanuts\n\n- suggest a menu\n- something easy")
                _close_field(out, answers, statements)
                heads = None
            # else "Conditions:\n\n- asthma\n\n- eczema": a loose list goes on (eczema was lost)
            loose = loose and bool(gap)
            if heads is None:
                out.extend(gap)
            gap.clear()
        if heads == "field":
            if item:
                marker = _marker(item)
            if item and _OWN_FIRST.match(body):
                # a statement of its own, said after the field: "Allergies:\n- I'm allergic to
                # peanuts\n- milk" (the peanuts were lost), while the field goes on
                statements.append(body)
                continue
            if item and (remark := _OWN_REMARK.fullmatch(body)) is not None:
                # "- peanuts, I carry an EpiPen", "- 花生，我吃了会起疹子": the answer, and the
                # user's remark said as its own line (the peanuts were lost); a remark that
                # says it is over ("- peanuts, I outgrew it") leaves no answer
                if REMARK_OVER.fullmatch(remark["remark"]) is None:
                    answers.append(_answer(remark["answer"]))
                    statements.append(remark["remark"])
                continue
            if item and not _NOT_AN_ANSWER.search(body):
                answers.append(_answer(_LAST_JOINER.sub("", body.strip().rstrip(".,;，。；"))))
                continue
            if not item and not answers and _single_answer(body):
                answers.append(_answer(body.strip().rstrip(".,;，。；")))
                _close_field(out, answers, statements)
                heads = None
                continue
            _close_field(out, answers, statements)
            heads = None
        if not line.strip():
            heads = None
            out.append(line)
            continue
        # (a line of the user's: with "I", "me", "我", or "My …" of no one else: "My allergies:")
        subject = _OWN.search(body) is not None
        own = subject or _MINE_HEAD.match(body) is not None
        if _HEADING.fullmatch(line) and not item:
            heads = _heading(line, heads, own)
            just_headed, loose = True, True
            answers = []
            # "My wife's diet:", "Diets I want to try:", "My info:": no statement of the
            # user's (a question is read as one, as it would be alone; a heading with the user
            # as its subject too, "I have two kids:")
            label = line.rstrip()[-1:] in ":：" and heads != "field"  # (not "I'm allergic to:")
            out.append("" if label and (not subject or heads is not None) else line)
            continue
        if heads is not None and not own and _not_the_users(heads, item is not None, body):
            continue
        if item and _ABOUT_SOMEONE_ELSE.match(body):
            heads = "theirs"  # "- My son is allergic to eggs\n- vegetarian": his
        elif not item:
            # "病人：我妈", "Here is my husband's info" (no colon): what follows is theirs
            heads = "theirs" if not own and _THEIRS_LINE.fullmatch(body) else None
        out.append(body)
    if heads == "field":
        _close_field(out, answers, statements)
    out.extend(gap)
    return "\n".join(out)


def _loose_answer(body: str, lines: list[str], at: int, field: str) -> bool:
    """Whether the item ``body`` at ``lines[at]``, after a blank line, is one more answer of a
    loose list under ``field``: a thing the field takes by itself (a condition under
    "Conditions:", a medication under "Meds:", an allergen, a food or a diet under the others:
    "- latex", not "- suggest a menu", "- lol", "- daily aspirin"), standing alone, with a
    blank line or the end after it (a list of its own that follows is no answer: "- pizza\n-
    pasta")."""
    after = lines[at + 1] if at + 1 < len(lines) else ""
    thing = body.strip().rstrip(".,;，。；")
    if after.strip():
        return False
    if CJK.search(thing):
        if _CONDITION_LABEL.match(field):
            return CONDITION_ITEM_ZH.fullmatch(thing) is not None
        return zh_things(thing)
    if _CONDITION_LABEL.match(field):
        known = _A_CONDITION
    elif _MEDICATION_LABEL.match(field):
        known = _A_MEDICATION
    else:
        known = _A_NEED_THING
    return known.fullmatch(thing) is not None


_CONDITION_LABEL = re.compile(
    rf"\s*{NEED_FIELD_BEFORE_EN}(?:{CONDITION_FIELD_EN})\b|\s*(?:{CONDITION_FIELD_ZH})", _I
)
_MEDICATION_LABEL = re.compile(rf"\s*{NEED_FIELD_BEFORE_EN}(?:{MEDICATION_FIELD_EN})\b", _I)
# (the vocabularies bare: an item the field reading refuses, "no X", "nostalgia", ends no list)
_A_CONDITION = re.compile(CONDITION_EN, _I)
_A_MEDICATION = re.compile(rf"{MEDICATION_NAME_EN}|{SUPPLEMENT_EN}", _I)
_A_NEED_THING = re.compile(
    rf"(?:no\s+)?(?:{NEED_THING_EN})|{DIET_EN}|pine\s+nuts|(?:bee|wasp|insect)\s+stings?"
    r"|(?:contrast|red)\s+dye(?:\s+\d+)?|iodine|morphine|nightshades",
    _I,
)


def _marker(item: re.Match[str]) -> str:
    """The kind of bullet an item has: its sign ("-", "•"), or "1" for any number or letter."""
    sign = item.group().strip()[:1]
    return "1" if sign.isalnum() or sign in "(（" else sign


def _heading(line: str, heads: str | None, own: bool) -> str | None:
    """What the heading ``line`` (``own``: with the user as its subject) heads, after one that
    headed ``heads``: "theirs" (someone else's, to a heading of the user's own), "field" (a
    field of needs, or a statement of the user's cut at its colon, "I'm allergic to:"), None
    (the user's), "shown" (a template's, an example's, a label's: nothing under it is the
    user's), "pick" (which item to pick, or a bare "Grandpa:": no item is the user's), "wish"
    (what the user wishes or picks from: an item is the user's only when it says a need) or
    "other" (a question, a choice asked for, any other heading of no statement of the
    user's: an item is the user's when it says a need or a diet, a field always: "Kids:\n- Tom,
    5\nAllergies: walnuts")."""
    if own:
        if _STATED.fullmatch(line) or _FIELD.fullmatch(line):
            return "field"  # "I'm allergic to:", "My allergies:"
        if _SELF.fullmatch(line) or _KEEP.fullmatch(line):
            return None
        if _SHOWS.fullmatch(line) and not _MY.search(line) and not _I_FIRST.match(line):
            return "shown"  # "帮我做个问卷：" (not "I filled in the form:", "我填一下我的信息：")
        if _CHOOSE_FOR.fullmatch(line):
            return "other"  # "Help me choose a restaurant:\n- vegetarian": the user's
        if _WISHES.fullmatch(line) or _PICK.fullmatch(line):
            return "wish"  # "Diets I want to try:", "Which should I pick?": "- vegan" an option
        return "other" if _ASKS.fullmatch(line) else None
    if _NAMES_SOMEONE.fullmatch(line) or _THEIRS_HEAD.fullmatch(line):
        return "theirs"
    if (_ASKS.fullmatch(line) or _ZH_FOR_THEM.search(line)) and _KIN_IN.search(line):
        return "theirs"  # "Lunch ideas for my son?", "能帮我儿子推荐点零食吗？", "帮我女儿填一下："
    if heads in ("theirs", "shown") and _MINE_HEAD.match(line):
        return "field" if _FIELD.fullmatch(line) else None  # "My son:\n…\nMy allergies:"
    if _SELF.fullmatch(line):
        return None
    if heads in ("theirs", "shown"):
        return heads  # "My son:\nAllergies:\n- eggs": his; "Template:\nAllergies:": no one's
    if _SHOWS.fullmatch(line) and not _MY.search(line):
        return "shown"  # (not "My health form:", "Here's my info for the form:")
    if _PICK.fullmatch(line):
        return "pick"  # "Which of these are most common?": of the items, not the user
    if _STATED.fullmatch(line):
        return "field"  # "Allergic to:", "Can't eat:"
    if _WISHES.fullmatch(line):
        return "wish"
    if _ASKS.fullmatch(line):
        return "other"  # its fields, and its items that say a need or a diet, are the user's
    if _FIELD.fullmatch(line):
        return "field"
    if _ABOUT.fullmatch(line):
        return None
    # "Grandpa:", "Kids:" (a field answered by names, or someone's): no item is the user's
    return "pick" if _KIN_ANY.search(line) else "other"


def _not_the_users(heads: str, item: bool, body: str) -> bool:
    """Whether the line ``body`` (an item or not), without the user as its subject, is none of
    the user's under a heading that heads ``heads`` (see :func:`_heading`)."""
    if heads == "theirs":  # their item, their short line or their field
        return item or _short(body) or _ANY_FIELD.match(body) is not None
    if heads == "shown":  # a template's, an example's or a label's item or field
        return item or _ANY_FIELD.match(body) is not None
    if not item:
        return False
    if heads == "pick":  # an option to pick
        return True
    if heads == "wish":  # a wish, unless it says a need
        return _NEED_ITEM.match(body) is None
    # under a question or any other heading, unless it says a need or a diet
    return _NEED_ITEM.match(body) is None and _DIET_ITEM.match(body) is None


def _short(text: str) -> bool:
    return len(text.split()) <= 6 and ":" not in text and "：" not in text


def _single_answer(text: str) -> bool:
    answer = text.strip()
    return (
        bool(answer) and len(answer.split()) <= _ANSWER_WORDS and not _NOT_AN_ANSWER.search(answer)
    )


# An aside after a field's answer ("- peanuts (severe)", "- peanuts (my son)", "- 花生（好了）").
_ASIDE = re.compile(r"\s*[(（](?P<aside>[^()（）]{1,40})[)）]\s*$")
# …that says it is over, or someone else's: the answer is no need of the user's
_ASIDE_NOT_MINE = re.compile(
    rf"outgr[eo]w|not any\s*more|no longer|gone|cured|used to|as a (?:kid|child|baby)"
    rf"|\b(?:my|our|his|her|their)\b|\b(?:{KIN_EN})\b"
    rf"|以前|小时候|已经好了|好了|不过敏了|(?:{KIN_ZH})",
    _I,
)
_ASIDE_HEDGED = re.compile(
    r"maybe|possibly|probably|likely|suspected|unsure|not sure|unconfirmed|I think|\?"
    r"|for now|currently|still|at the moment|可能|好像|疑似|目前|现在",
    _I,
)
# …that says how bad it is, which stays; any other ("maybe", "suspected") goes, the need kept.
_ASIDE_KEPT = re.compile(
    r"severe|mild|serious|anaphyla\w*|life[- ]threatening|epipen|严重|轻微", _I
)


def _answer(text: str) -> str:
    """A field's answer as a need's thing: "" when its aside says it is not the user's now."""
    aside = _ASIDE.search(text)
    if aside is None or _ASIDE_KEPT.search(aside["aside"]):
        return text
    said = aside["aside"].strip()
    if _ASIDE_NOT_MINE.search(said):
        return ""
    # "(maybe)", "(Suspected)": a wrong need is the safer error; any other aside ("(Rash)",
    # "(Advil)", "(Tom)": no table tells a reaction or a brand from a name) stays as said
    return text[: aside.start()] if _ASIDE_HEDGED.search(said) else text


_FIELD_NOTE = re.compile(r"\s*[(（][^()（）\n]{0,30}[)）](?=\s*[:：]\s*$)")


_ZH_FOR_EXAMPLE_FIELD = re.compile(
    r"(?P<head>我[^:：\n]*?(?P<need>过敏|不耐受|忌口|不吃|不能吃)[^:：\n]*?)[，,]\s*(?:比如|例如|像是?|包括)"
    r"\s*[:：]\s*"
)


def _close_field(out: list[str], answers: list[str], statements: list[str]) -> None:
    """Write ``answers`` after the field line last written (an answer of "none": no field);
    after a statement cut at its colon ("I'm allergic to:", "我对以下食物过敏："), as its end.
    Then the user's own ``statements`` said among them, each a line."""
    _write_answers(out, answers)
    out.extend(statements)
    statements.clear()


def _write_answers(out: list[str], answers: list[str]) -> None:
    kept = [answer for answer in answers if answer]
    if not kept:
        return
    field = _FIELD_NOTE.sub("", out[-1].strip())  # "Allergies (if any):" is "Allergies:"
    if all(_NONE.fullmatch(answer) for answer in kept):
        out[-1] = ""
    elif (example := _ZH_FOR_EXAMPLE_FIELD.fullmatch(field)) is not None:
        # "我对很多东西过敏，比如：" + 花生、芒果: "我对很多东西过敏。我对花生、芒果过敏"
        need = example["need"]
        things = "、".join(kept)
        said = f"我对{things}{need}" if need in ("过敏", "不耐受") else f"我不吃{things}"
        out[-1] = f"{example['head']}。{said}"
    elif (zh_need := _ZH_STATED_NEED.search(field)) is not None and field.startswith("我"):
        out[-1] = f"{field[: zh_need.start()]}对{'、'.join(kept)}{zh_need['need']}"
    elif (stated := _STATED.fullmatch(field)) is not None and stated["stated"]:
        things = ", ".join(kept[:-1]) + f" and {kept[-1]}" if len(kept) > 1 else kept[0]
        out[-1] = f"{stated['stated']} {things}"  # "Foods I can't eat:": "I can't eat …"
    elif CJK.search(field):
        # "我不吃：" + 香菜: "我不吃香菜"
        joined = "、".join(kept) if stated is not None else "，".join(kept)
        out[-1] = field.rstrip(":：") + joined if stated is not None else field + joined
    else:
        out[-1] = f"{field} {', '.join(kept)}"
    answers.clear()
