"""The extraction gate: does a burst of turns say anything about the user at all?

A memory model call costs money; "What is the capital of France?" cannot teach
it anything about the user. The gate skips the model only for turns it can
*recognise* as teaching nothing, and keeps everything else — a missed skip
costs one call, a wrong skip loses a memory:

- a **question** about the world ("Why is the sky blue?", "长江有多长",
  "can I use pandas for this?", "我该怎么配置nginx": a first person that only
  asks how to do something does not count);
- a **request** for work ("Explain quicksort", "translate to french: …",
  "帮我写一首诗", "把这段话改得正式一点"), with any pasted material after
  its colon, code blocks and tracebacks ignored;
- **small talk** and acknowledgements ("thanks, that works", "lol nice",
  "好的谢谢", "继续").

Inside a question or a request, a first person that survives (my / I'm / 我 /
我们公司 …; "帮我/给我" followed by 的, 家 or one of the user's people, and a
mention such as "我8岁的儿子" anywhere: "给我儿子推荐几本书" is "Recommend books
for my son"), a standing instruction ("from now on", "以后") keeps the turn;
every other sentence — a statement, even one without "I" ("vegetarian here",
"家里两只猫", "no, Berlin, not Munich", "Toronto.") — keeps it too.
:func:`burst_needs_model` also keeps the answer to a question the assistant
asked (except a plain yes/no to an offer such as "Want me to add tests?"),
and any burst with a correction or reinforcement signal.

Measured recall and skip rate (in-sample, held-out, fresh): ``bench/gate.py``.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from langchain_core.messages import AIMessage, BaseMessage, HumanMessage

from deerflow_memory.capture.kin import KIN_ZH
from deerflow_memory.capture.messages import message_text

__all__ = ["burst_needs_model", "is_self_referential"]

_I = re.IGNORECASE

# --- what is not the user's own text: code, logs, material pasted after a colon -----------
_FENCE = re.compile(r"```.*?(?:```|\Z)|`[^`\n]*`", re.DOTALL)
_LOG_LINE = re.compile(
    r"^(?:\s{4}|\t|\s*(?:Traceback \(|File \"|>>> |\$ |at [\w.$]+\(|\w+(?:Error|Exception)\b))"
    r".*$",
    re.MULTILINE,
)
# A colon that introduces material (not a URL's, not a clock time's).
_COLON = re.compile(r"(?<!\d)[:：](?!//)|[:：](?![\d/])")
# Words before a colon that point at the material after it.
_POINTS_AT = re.compile(
    r"\b(?:this|these|following|below|above|text|paste[ds]?)\b|这段|这句|这篇|这个|这些|下面|以下|如下|原文",
    re.IGNORECASE,
)

# --- sentences and clauses ----------------------------------------------------------------
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+|(?<=[。！？])|\n+")
_CLAUSE = re.compile(r"[,，、;；]+")

# --- first person and standing instructions -----------------------------------------------
_EN_SELF = re.compile(
    r"\b(?:i|i'm|i’m|i'd|i've|i'll|im|ive|my|mine|myself|me|we|we're|we've|our|ours|us)\b", _I
)
_ZH_SELF = re.compile(r"[我咱俺]|本人|自己")
# Someone in the user's life, named with a first person: 我儿子, 我的女儿, 我家孩子,
# 我8岁的儿子, 咱妈. "先生" is not one in "帮我先生成…" ("first generate").
_ZH_KIN = rf"(?:{KIN_ZH.replace('先生', '先生(?!成)')})"
_ZH_FAMILY = re.compile(
    rf"[我咱俺]们?(?:的|家(?:里)?的?)?(?:[\d一二三四五六七八九十两]+(?:岁|个月)半?大?的?)?{_ZH_KIN}"
)
# Phrases with a first person that state nothing about the user.
_EN_REQUEST_PHRASES = re.compile(
    r"\b(?:help|tell|show|give|let|send|get|find|teach|remind|walk|bring|lend|"
    r"explain(?:\s+\w+)?\s+to)\s+(?:me|us)\b|\blet'?s\b|\bexcuse me\b|\bfor me\b|"
    r"\bi\s+(?:wonder|mean|guess|see|think|suppose|believe|bet)\b|\bcan i ask\b|"
    r"\blike\s+i['’]?m\s+(?:five|5|a\s+\w+)\b",
    _I,
)
# "帮我/给我" + 家 or the user's people is the user's own life ("给我儿子推荐几本书"):
# the phrase is not taken out then, and the first person stays.
_ZH_REQUEST_PHRASES = re.compile(
    r"(?:帮|给|替|为|告诉|教|叫醒|提醒一下|让)我(?![的家])|请问|我想(?:问|知道|请教)(?:一下|问)?|"
    r"[我咱]们?来|如果[我咱]们?"
)
# In a question, a first person that only asks how to do something.
_EN_HOW_TO = re.compile(
    r"\b(?:can|could|should|shall|would|may|might|must|do|will|need)\s+(?:i|we)\b|"
    r"\bif\s+(?:i|we)\b|\b(?:i|we)\s+(?:can|could|should|might|may|would)(?!['’]?t)\b|"
    r"\bmy\s+(?:code|script|function|method|query|regex|loop|tests?|program|output|class|"
    r"variable|build|snippet|sql|formula|essay|draft)\b",
    _I,
)
_ZH_HOW_TO = re.compile(
    r"[我咱]们?(?:该|应该|要|能|可以|需要|得)(?=怎么|怎样|如何|用|在|把|直接|吗)|[我咱]们?记得|我觉得"
)
# Standing instructions and stated likes; in a question only the time-bound ones count.
_EN_STANDING = re.compile(
    r"\b(?:always|never|from now on|going forward|in (?:the )?future|next time|"
    r"prefer(?:s|red|ence)?|favou?rite|remember|forget|don'?t (?:ever|use|call|say|send|"
    r"give|suggest|recommend|add|write|reply|answer)|stop (?:using|calling|saying|adding)|"
    r"no more|please (?:use|reply|answer|write|respond|keep|be|avoid|call)|"
    r"(?:reply|answer|respond|write) (?:in|with|only)|keep (?:it|answers|replies) )\b",
    _I,
)
_ZH_STANDING = re.compile(
    r"以后|今后|下次|从现在起|从今往后|总是|一直|永远|每次|别再|不要再|不要用|别用|"
    r"记住|记得|忘掉|忘记|喜欢|讨厌|偏好|习惯|最爱|过敏|请用|请以|用中文|用英文|称呼"
)
# Life events: "should I take the job offer?" and "我该怎么跟老板提离职" are about the user.
_LIFE = re.compile(
    r"\b(?:job|offer|quit|resign\w*|career|salary|raise|boss|manager|landlord|rent|mortgage|"
    r"move|moving|relocat\w*|marr\w+|wedding|divorc\w+|pregnan\w+|baby|kids?|child(?:ren)?|"
    r"wife|husband|partner|girlfriend|boyfriend|parents?|mom|mum|dad|doctor|diagnos\w+|"
    r"allerg\w+|diet|visa|school|university|degree|exam|symptoms?|pain)\b|"
    r"辞职|离职|跳槽|工作|老板|领导|工资|加薪|分手|离婚|结婚|对象|男朋友|女朋友|老公|老婆|孩子|父母|"
    r"爸|妈|买房|租房|房东|搬家|怀孕|看病|医生|请假|转行|考研|出国|签证|学校|考试|疼|症状",
    _I,
)
_STANDING_IN_QUESTION = re.compile(
    r"\b(?:always|never|from now on|going forward|next time)\b|以后|今后|下次|从现在起|每次", _I
)

# --- questions ----------------------------------------------------------------------------
_EN_SUBJECT = r"(?:i|you|we|they|it|he|she|there|\d)"
_EN_QUESTION = re.compile(
    # Possessive runs of non-word characters: "\W*(?:and)?\W*" tried every split of a
    # long run of punctuation (quadratic: 10,000 commas took 24 s).
    r"\?\W*$|^\W*+(?:(?:and|but|so|ok|okay|also)\b\W*+)?(?:what|what's|whats|how|how's|why|where|"
    r"where's|when|who|who's|whom|which|whose)\b|"
    rf"^\W*+(?:(?:and|but|so)\b\W*+)?(?:do|does|did|is|isn't|are|aren't|was|were|can|could|should|"
    rf"would|will|shall|may|might)\s+{_EN_SUBJECT}\b|^\W*am\s+i\b",
    _I,
)
_ZH_QUESTION = re.compile(
    r"[?？]\W*$|(?:吗|呢|么|嘛|来着)\W*$|"
    r"^\W*(?:请问|怎么|怎样|为什么|为啥|如何|什么|哪|谁|是否|有没有|有什么|有哪些|能不能|"
    r"可不可以|能否)|"
    r"是什么|是多少|是哪|是谁|等于多少|多少(?!有点|有些)|有多[长高远大重久少宽深快]|在哪|去哪|"
    r"哪里|哪个|哪些|哪一|几[点号种]|怎么(?:办|做|写|用|弄|配|设|装|实现|查|看|改|把|在|才|样|回事)|"
    r"(?<!知道)(?:如何|为什么|为啥)|区别|是不是|有没有|能不能|可不可以|要不要|会不会|对吗|对不对|"
    r"(?<!没)有什么|怎样|怎么样"
)

# --- requests -----------------------------------------------------------------------------
_EN_POLITE = (
    r"^\W*(?:(?:and|ok|okay|now|then|also|so|just|pls|plz|please|kindly|quickly|"
    r"(?:can|could|would|will)\s+(?:you|u))\W+)*"
)
# Verbs that never open a statement about oneself: a request whatever follows.
_EN_ASK_VERBS = re.compile(
    _EN_POLITE + r"(?:explain|define|summari[sz]e|compute|calculate|compare|paraphrase|"
    r"rephrase|rewrite|proofread|refactor|debug|generate|elaborate|simplify|convert|outline|"
    r"tl;?dr|eli5|paste|implement|brainstorm|recommend|suggest|list|let'?s)\b",
    _I,
)
# Verbs that also open statements ("write for a newspaper"): a request only with an object.
_EN_OBJECT_VERBS = re.compile(
    _EN_POLITE + r"(?:write|make|give|tell|show|find|help|create|build|design|draw|plan|fix|"
    r"check|sort|name|draft|send|get|add|remove|update|count|describe|continue|format|correct|"
    r"translate|solve|estimate|pick|choose|let|teach|read|review|edit|improve|shorten|expand)\s+"
    r"(?:a|an|the|this|that|these|those|it|them|me|us|some|any|another|more|\d|one|two|three|"
    r"four|five|six|seven|eight|nine|ten|a few|several|into|to|in|with|[\"'“‘`:])",
    _I,
)
_EN_SHORT_ASK = re.compile(
    r"^\W*(?:(?:a bit|much|even|way)\s+)?(?:more|less|shorter|longer|simpler|again|"
    r"faster|slower)\b(?:\s+\w+)?\W*(?:please|pls|plz)?\W*$",
    _I,
)
_ZH_ASK = re.compile(
    r"^\W*(?:请|麻烦(?:你)?|帮忙|你能|你可以|能不能|可不可以|能否|可以|再|先|然后|那就?)?"
    r"(?:(?:帮|给|替|教|告诉)我(?!的)|[我咱]们?来|来(?:玩|个|点|做|写|聊|猜)|(?:写|翻译|译|解释|计算|算|总结|概括|推荐|介绍|列|列出|举|讲|说说|查|生成|起|改写|润色|"
    r"检查|比较|分析|画|设计|优化|修改|转换|整理|描述|证明|求|编|造|看看|看一下)"
    r"(?:一下|一个|一段|一篇|一首|一封|一些|一|几|个|段|篇|首|封|下|成|为|出|[:：]|这|那|下面|以下|"
    r"[\s\dA-Za-z])|"
    r"把.{0,40}?(?:改|翻译|译|转|换|排序|排|整理|写|变|缩|扩|删|去掉|加|调|润色)|"
    r"用.{1,20}?(?:写|实现|画|算|生成|翻译|做|表示|计算)|"
    r"给.{0,12}?(?:起|写|推荐|取|想|找|讲|编|出|做|举|列)|"
    r"(?:再|更)[^，。]{0,6}(?:一点|一些|点|些)\W*$)"
)

_HYPOTHESIS = re.compile(
    r"^\W*(?:if|suppose|assuming|say|when|whenever|unless)\b|^\W*(?:如果|假如|假设|要是|万一|当)",
    re.IGNORECASE,
)

# A clause that details a request ("about autumn", "匹配手机号", "不超过100字").
_SPEC = re.compile(
    r"^\W*(?:about|using|under|no more than|at least|at most|max|min|less than|more than|"
    r"including|make it|keep it|e\.g\.|preferably|ideally|formatted)\b|"
    r"^\W*(?:查询|匹配|要求|不超过|包括|包含|关于|按照|至少|最多|限|字数|押韵|格式|风格|语气|"
    r"输出|返回|附上)",
    re.IGNORECASE,
)

_WORD = re.compile(r"\w")

# --- small talk ---------------------------------------------------------------------------
# Each text must split into these words one way only: a word that is two others ("kk",
# "yes please") or a repeat that could end anywhere ("ha(?:ha)+") made the engine try
# every split of "hahaha… x" or "kkkk… x" — exponential, minutes for 40 characters.
# So no word is a sequence of two others, and repeats are possessive ("++").
_EN_ACK = re.compile(
    r"^\W*(?:(?:ok|okay|k|thanks|thank you|thx|ty|tysm|cool|nice|great|lol|lmao|ha(?:ha)++|"
    r"hm++|hi|hello|hey|there|good (?:morning|evening|afternoon|night)|bye|yes|yeah|yep|yup|"
    r"no|nope|nah|sure|fine|got it|i see|alright|right|next(?: one)?|go on|continue|again|"
    r"more|wow|awesome|perfect|exactly|makes sense|that works|it works|works now|that's|thats|"
    r"that|it|is|helps|helpful|fair enough|never ?mind|nvm|no worries|all good|sounds good|"
    r"looks good|please|pls|np|cheers|oh|ah|interesting|true|indeed|agreed|much|so|very|"
    r"a lot)\W*)+$",
    _I,
)
_ZH_ACK = re.compile(
    r"^\W*(?:好|好的|好滴|行|嗯++|哦++|噢|哈++|呵++|谢谢|多谢|感谢|谢了|收到|明白|了|懂了|知道了|了解|"
    r"可以|对|是的|没问题|继续|接着说|再来|你好|您好|早上好|早|晚安|再见|拜拜|不用|算了|"
    r"没事|不错|厉害|棒|牛|啦|呀|啊|吧|ok|OK|[\s~～])+\W*$"
)

# --- the assistant's question -------------------------------------------------------------
_QUESTION_END = re.compile(r"[?？]\W*$")
_OFFER = re.compile(
    r"\b(?:want me to|would you like|do you want|shall i|should i|can i help|anything else|"
    r"does (?:that|this) help|make sense|is (?:that|this) (?:ok|okay|alright|clear|helpful|"
    r"what you)|need anything|like me to)\b|要不要|需要我|要我|还需要|还有什么|可以吗|满意吗|"
    r"清楚吗|明白吗|有帮助吗|行吗|好吗",
    _I,
)


def _is_question(sentence: str) -> bool:
    return bool(_EN_QUESTION.search(sentence) or _ZH_QUESTION.search(sentence))


def _is_request(sentence: str) -> bool:
    return bool(
        _EN_ASK_VERBS.search(sentence)
        or _EN_OBJECT_VERBS.search(sentence)
        or _EN_SHORT_ASK.search(sentence)
        or _ZH_ASK.search(sentence)
    )


def _is_small_talk(clause: str) -> bool:
    # No word at all ("👍", "…") is small talk too.
    return not _WORD.search(clause) or bool(_EN_ACK.match(clause) or _ZH_ACK.match(clause))


def _first_person(text: str) -> bool:
    en = _EN_REQUEST_PHRASES.sub(" ", text)
    zh = _ZH_REQUEST_PHRASES.sub(" ", text)
    return bool(_EN_SELF.search(en) or _ZH_SELF.search(zh) or _ZH_FAMILY.search(text))


def _strip_material(text: str) -> str:
    """The user's own words: code, logs and material pasted after a request's colon dropped."""
    text = _LOG_LINE.sub(" ", _FENCE.sub(" ", text))
    colon = _COLON.search(text)
    if colon:
        before = _SENTENCE_END.split(text[: colon.start()])[-1]
        if _is_request(before) or _is_question(before) or _POINTS_AT.search(before):
            text = text[: colon.start()]
    return text


def _bare(text: str) -> str:
    # The words left once request phrases and how-to first persons are taken out.
    text = _EN_REQUEST_PHRASES.sub(" ", _EN_HOW_TO.sub(" ", text))
    return _ZH_REQUEST_PHRASES.sub(" ", _ZH_HOW_TO.sub(" ", text))


def _is_statement(clause: str) -> bool:
    """A clause that says something (not a question, request, spec, hypothesis or small talk)."""
    if _is_question(clause) or _is_request(clause) or _HYPOTHESIS.search(clause):
        return False
    if _SPEC.search(clause):
        return False
    return not _is_small_talk(_bare(clause))


def _sentence_is_about_user(sentence: str) -> bool:
    clauses = [c for c in _CLAUSE.split(sentence) if c.strip()]
    if _is_question(sentence):
        bare = _ZH_HOW_TO.sub(" ", _EN_HOW_TO.sub(" ", sentence))
        if _STANDING_IN_QUESTION.search(bare) or _first_person(bare):
            return True
        if _LIFE.search(sentence) and _first_person(sentence):
            return True
        # "Going to Japan in April, what should I pack?": the statement before the question.
        return any(_is_statement(c) for c in clauses[:-1])
    if _EN_STANDING.search(sentence) or _ZH_STANDING.search(sentence):
        return True
    if _is_request(sentence):
        # "Suggest recipes, vegetarian household": a statement after the request.
        return _first_person(sentence) or any(_is_statement(c) for c in clauses[1:])
    # A statement: about the user unless every clause is small talk.
    return not all(_is_small_talk(c) for c in clauses)


def is_self_referential(text: str) -> bool:
    """False only when a user message is recognisably a question, request or small talk.

    Statements — with or without "I"/"我" — count as possibly about the user;
    questions and requests count when a first person (other than "help me",
    "can I …", "我该怎么 …") or a standing instruction is in them.

    Args:
        text: one user message (zh, en or mixed).
    """
    own = _strip_material(text)
    return any(_sentence_is_about_user(s) for s in _SENTENCE_END.split(own) if s.strip())


def _asks_the_user(text: str) -> bool:
    # The assistant's last sentence is a question, and not an offer or a check-in.
    sentences = [s for s in _SENTENCE_END.split(text) if s.strip()]
    tail = sentences[-1] if sentences else ""
    return bool(_QUESTION_END.search(tail)) and not _OFFER.search(tail)


def burst_needs_model(
    messages: Sequence[BaseMessage],
    *,
    context: Sequence[BaseMessage] = (),
    correction: bool = False,
    reinforcement: bool = False,
) -> bool:
    """False when the memory model can be skipped for this burst of new messages.

    Args:
        messages: the new (not yet extracted) filtered messages.
        context: already-extracted messages right before them (a question the
            assistant asked there makes the first answer count).
        correction, reinforcement: signals detected for the burst; either keeps it.
    """
    if correction or reinforcement:
        return True
    previous: BaseMessage | None = context[-1] if context else None
    for message in messages:
        if isinstance(message, HumanMessage):
            if is_self_referential(message_text(message)):
                return True
            if isinstance(previous, AIMessage) and _asks_the_user(message_text(previous)):
                return True
        previous = message
    return False
