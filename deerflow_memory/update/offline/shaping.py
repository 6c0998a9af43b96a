# ruff: noqa: E501  (regular expressions: one alternation per line reads better than wrapped)
"""Sentence shapes the offline extractor reads before cutting a sentence into clauses.

Pure functions over one sentence, Chinese or English:

- :func:`before_question`: of a sentence that asks, the statements it opens
  with ("I'm celiac, what can I order?" → "I'm celiac"; "我有糖尿病，可以吃西瓜吗"
  → "我有糖尿病"); "" when it opens with the question;
- :func:`venting`: whether the sentence vents ("I hate Mondays lol", "烦死了"),
  so that its tastes are read as moods;
- :func:`with_others`: the sentence said of the user alone when it is said
  with others ("My wife and I live in Leeds", a household "we rent a flat",
  "我和老公刚搬到苏州"), or with a fronted frequency ("Most mornings I cycle").

Nothing here raises.
"""

from __future__ import annotations

import re

from deerflow_memory.capture.kin import KIN_EN_OWNED
from deerflow_memory.update.offline.vocabulary import COUPLE_EN, EMOJI_THING, KIN_ZH

__all__ = ["ZH_QUESTION", "before_question", "venting", "with_others", "without_ending"]

_I = re.IGNORECASE
# Final particles and spaces, matched on the reversed text (one attempt, not one per
# position: a long run of "哈" before more text cost quadratic time).
_ZH_TRAILING = re.compile(r"[哦啊呀啦哈喔嘛噢哟\s]+")

# A Chinese sentence that asks: a final particle or a question word anywhere.
ZH_QUESTION = re.compile(
    r"(?:吗|么|呢|不成)$|什么|哪些|哪个|哪里|哪儿|哪家|谁|怎么|怎样|为什么|为何|多少|几个|几种|是否|是不是|"
    r"有没有|能不能|可不可以|要不要|会不会|对不对|好不好"
)


# --- a fact, then a question: "I'm celiac, what can I order?" -----------------------------

_ASK_SPLIT = re.compile(
    r"\s*(?:[,;:，；：]|\s[-–—]+\s|—+)\s*"
    r"|\s+(?=(?:so|and|but)\s+(?:what|how|which|where|can|could|should|would|is|are|do|does|any)\b)"
)
_EN_ASKS = re.compile(
    r"^(?:(?:and|but|so|then)\s+)?(?:(?:do|does|did|can|could|would|will|should|shall|is|are|am|was|were|have|"
    r"has|what|how|why|where|when|who|whom|which|may|might|any|got|please|pls|suggest|recommend|help|tips|"
    r"ideas|thoughts|advice|recommendations|suggestions|know any|is there|are there|ok|okay|right)\b"
    r"(?!['’]t\b)|what's|how's|where's|who's)",  # "can't eat gluten" asks nothing
    _I,
)
_ZH_ASKS = re.compile(r"^(?:请|麻烦|帮我|帮忙|给我|推荐|建议|求|说说|讲讲|列|来)")


def without_ending(text: str, endings: tuple[re.Pattern[str], ...]) -> str:
    """``text`` less its longest ending that one of ``endings`` matches, read backwards.

    Each pattern is written reversed and matched once at the start of the reversed
    text: one attempt, where an ``…+$`` pattern searched forwards tries every position
    (quadratic on a long run, exponential when its alternatives overlap).
    """
    backwards = text[::-1]
    cut = max((m.end() for e in endings if (m := e.match(backwards)) is not None), default=0)
    return text[: len(text) - cut]


def _asks(part: str, zh: bool) -> bool:
    if zh:
        text = without_ending(part.strip(), (_ZH_TRAILING,))
        return ZH_QUESTION.search(text) is not None or bool(_ZH_ASKS.match(part))
    return _EN_ASKS.match(part) is not None


def before_question(sentence: str, zh: bool) -> str:
    """The statements a question sentence opens with ("" when it opens with the question).

    "I'm celiac, what can I order?" → "I'm celiac"; "我有糖尿病，可以吃西瓜吗" → "我有糖尿病";
    "Am I lactose intolerant, do you think?" → "". When no part reads as the
    question, the last part is taken to be it ("I live in Porto, right?").
    """
    starts = [0] + [m.end() for m in _ASK_SPLIT.finditer(sentence)]
    ends = [m.start() for m in _ASK_SPLIT.finditer(sentence)] + [len(sentence)]
    for i, (start, end) in enumerate(zip(starts, ends, strict=True)):
        if _asks(sentence[start:end], zh):
            return sentence[: ends[i - 1]] if i else ""
    return sentence[: ends[-2]] if len(ends) > 1 else ""


# "I hate Mondays lol", "烦死了": venting; a taste said that way is a mood, not a preference;
# "…, just kidding": a joke, nothing the own-words fallback keeps.
_EN_VENTING = re.compile(
    r"\b(?:lol|lmao|rofl|ugh+|argh+|smh|ffs|omg|gah|meh|sigh|(?:just )?kidding|jk|joking)\b", _I
)
_ZH_VENTING = re.compile(r"烦死|累死|气死|烦透|崩溃|无语|郁闷|服了|开玩笑")


def venting(sentence: str, zh: bool) -> bool:
    """Whether the sentence vents ("lol", "ugh", "烦死了"): its tastes are moods."""
    return (_ZH_VENTING if zh else _EN_VENTING).search(sentence) is not None


# --- who else the sentence is about: "My wife and I live in Leeds" -----------------------------

_EN_WITH = re.compile(
    rf"^(?:[Mm]y (?P<who>(?:[\w-]+ ){{0,2}}?(?:{KIN_EN_OWNED}|flatmate|dog|cat)|[{EMOJI_THING}]\S*)|(?P<name>[A-ZÀ-ÖØ-ÞİŁŚŠŻŽČĆŘŐŰ][a-zß-öø-ÿā-ž]+)) and I (?P<rest>.+)$"
)
# ("My son and I are both allergic…", "…and I both love jazz": "I'm allergic…", "I love…")
_BOTH = frozenset(("both", "all"))
# (where a team or a company moves is not a home: "We're moving to Kubernetes", "We moved into
# production", "We relocated to a bigger office")
_WORK_PLACE = (
    r"(?!(?:the |a |an |our |their )?(?:new |next |bigger |smaller |larger |shared )?(?:cloud|production|prod|"
    r"staging|kubernetes|k8s|aws|azure|gcp|microservices?|serverless|postgres\w*|mysql|mongo\w*|"
    r"python|java|rust|golang|typescript|react|linux|slack|jira|github|gitlab|sprint|phase|stage|"
    r"release|version|quarter|round|milestone|offices?|headquarters|hq|campus|coworking|co-working|"
    r"platform|system|stack|framework|vendor|provider|remote|hybrid|agile|scrum|(?:four|4|three|3)-day)\b)"
)
# a pet or a child of any breed or age ("adopted a greyhound", "rescued two lurchers")
_PET_OR_CHILD = (
    r"(?:dogs?|pupp(?:y|ies)|cats?|kittens?|kitty|rabbits?|bunn(?:y|ies)|hamsters?|guinea pigs?|"
    r"parrots?|birds?|budgies?|horses?|pon(?:y|ies)|donkeys?|goats?|chickens?|hens?|ferrets?|"
    r"tortoises?|turtles?|pets?|strays?|mutts?|greyhounds?|lurchers?|whippets?|labs?|labradors?|"
    r"retrievers?|terriers?|beagles?|poodles?|spaniels?|collies?|husk(?:y|ies)|shepherds?|pugs?|"
    r"corgis?|dachshunds?|chihuahuas?|pit ?bulls?|boxers?|tabb(?:y|ies)|kids?|child|children|bab(?:y|ies)|"
    r"sons?|daughters?|boys?|girls?|twins|siblings|toddlers?|teens?|teenagers?)(?![\w-])"
)
_EN_WE = re.compile(
    r"^we(?P<rest>(?:'ve| have)? (?:(?:just|recently|currently|now|both|still|already|usually|often|"
    r"sometimes|always|also|regularly|normally|occasionally)\s+)*"
    r"(?:live in (?!(?:an? |the )?(?:\w+ )?(?:world|society|times?|age|era|bubble|simulation)\b)|"
    # (not how a team gets by: "We live on coffee", "We live with technical debt", "We live by
    # the motto…")
    r"live (?:near|outside|close to|next to) |"
    r"live on (?:(?:a|an|the) (?!(?:edge|shoestring|budget|tight budget|prayer|dime)\b)|(?-i:[A-Z0-9]))|"
    r"live by (?:the|a) (?!(?:motto|rules?|book|principles?|code|creed|mantra|philosophy|sword|clock|"
    r"numbers|data)\b)|"
    r"live with (?:(?:my|our|his|her|their|a|an|two|three|\d+) |(?-i:[A-Z])|(?:roommates|flatmates|"
    r"housemates|friends|family|relatives|in-laws|parents|grandparents)\b)|"
    r"(?:moved|relocated) (?:back )?(?:in)?to " + _WORK_PLACE + r"|"
    r"are (?:moving|relocating) (?:back )?to " + _WORK_PLACE + r"|"
    r"(?:rent|own|bought|share) (?:an? |our )?(?:[\w-]+ ){0,2}(?:flat|apartment|house|home|place|condo|studio|cottage)\b|"
    r"have (?:an?|one|two|three|four|\d+) (?:[\w-]+ )?(?:kids?|children|sons?|daughters?|dogs?|cats?|pets?|puppy|"
    r"kitten|baby|babies|grandchildren|twins|newborn|toddlers?|teenagers?|\d+-year-olds?)\b|"
    # a pet or a baby come home, a wedding or a trip ahead, an outing the household makes
    r"got (?:an?|two|three|\d+|another|our) (?:first |new )?(?:[\w-]+ )?(?:puppy|puppies|kittens?|"
    r"dogs?|cats?|rabbits?|bunny|hamsters?|guinea pigs?|parrots?|horses?|pets?)\b|"
    # (a pet or a child, not a team's "adopted a new framework", "rescued a client")
    r"(?:adopted|rescued) (?:an?|two|three|\d+|another|our) (?:[\w-]+ ){0,2}" + _PET_OR_CHILD + r"|"
    r"had (?:a|our|another) (?:(?:first|second|third|new) )?(?:baby|son|daughter|child)"
    r"(?![\w-]| (?:shower|boom|steps?|monitor|sitter)\b)|had twins\b|"
    # (not a team's or a school's: "a team trip", "a business trip", "a holiday party")
    r"are getting married\b|are planning (?:a|our) (?!(?:team|company|business|work|sales|field|school|"
    r"class|office|offsite|client|corporate|staff|department|hackathon|conference|product|launch|"
    r"training|research|study|board)\b)(?:[\w-]+ )?(?:trip|holiday|vacation|honeymoon|wedding)"
    r"(?![\w-]| (?:party|parties|sale|campaign|schedule|rota|calendar|policy|promotion|menu|cards?|"
    r"event|bonus|hours|coverage|freeze|release|launch|special)\b)|"
    r"go (?:camping|hiking|skiing|fishing|sailing|kayaking|surfing|to church|to mass|to the mosque|to temple"
    r"|to synagogue)\b(?! (?:as a (?:team|company|class|group of colleagues)|with (?:the |my |our )?"
    r"(?:team|colleagues|coworkers|co-workers|clients|company|office|class|students))\b)|got married|are expecting|"
    # what the household eats: "We don't eat pork", "we keep kosher", "We eat plant-based"
    r"(?:don't|do not|never) eat (?!(?:out|at|in|before|after|until|much|late|early|there|here|"
    r"together|with|breakfast|lunch|dinner|anything|that|this|it)\b)\w|keep kosher\b|"
    r"eat (?:mostly |only )?(?:plant-based|vegan|vegetarian|halal|kosher|gluten-free|dairy-free|"
    r"pescatarian|meat-free)\b|are (?:both |all )?(?:an? )?(?:vegan|vegetarian|pescatarian|plant-based|gluten-free|dairy-free)\b|"
    # (not "We are diabetic nurses": the need at the clause's end)
    r"are (?:both |all )?(?:celiac|coeliac|diabetic)(?=\s*(?:[.,;!]|$|\s+(?:too|now|both)\b))|"
    # children taught at home
    r"homeschool (?:our|the) ).*)$",
    _I,
)
_EN_PLURAL = {"are": "'m", "were": "was", "'re": "'m", "aren't": "'m not", "weren't": "wasn't"}
# What is said of the two together, not of the user ("…are allergic to each other", "…are
# both engineers"): said as "We …", which the user's rules do not read.
_EN_TOGETHER = re.compile(
    r"\b(?:each other|one another|different (?:things|stuff|foods|diets))\b|^(?:are|were) (?:\w+ )?\w+s$",
    _I,
)
_WE_ARE = re.compile(r"^we['’]re\b", _I)
# A diet said of the two as a plural noun ("My wife and I are vegetarians", "We're vegans"):
# each one's diet, said of the user as "I'm vegetarian" (not a role held together, as "are
# both engineers").
_EN_DIET_PLURAL = re.compile(
    r"(?<=\bare |'re |’re )(?:(?:both|all) )?(?P<diet>(?:(?:strict|lifelong|committed) )?"
    r"(?:vegetarian|vegan|pescatarian|pescetarian|flexitarian|celiac|coeliac|diabetic))s"
    r"(?=\s*(?:[.,;!]|$|\s+(?:too|now|both|here|at home)\b))",  # (not "celiacs' best friend")
    _I,
)
_OUR = re.compile(r"\b(?:our|ours|ourselves)\b", _I)
_MY = {"our": "my", "ours": "mine", "ourselves": "myself"}
_CLAUSE_END = re.compile(r"[,;:.!?]|\s(?:and|but|so|where|which|who|while|because)\b", _I)
_ZH_WITH = re.compile(
    rf"^我(?:和|跟|与)(?:我的?)?(?P<who>{KIN_ZH})(?:一起)?(?P<rest>.+)$|^我们(?:一家|家|俩|两个|夫妻|全家)?(?P<rest2>(?:现在|目前|已经|刚|一直)*(?:住在|住|租|买了|搬到|搬去|养了).+)$"
    # what a household (not a team: "我们都喜欢用Python") eats: "我们全家都喜欢吃辣", "我们家不吃猪肉"
    r"|^我们(?:一家人?|家里?人?|全家人?)(?:都|也|一直)*(?P<rest3>(?:不吃|不喝|爱吃|喜欢吃|不爱吃|不能吃).+|吃素.*)$"
)
# Parting is no thing done together: "My girlfriend and I split up" is "I split up with my
# girlfriend", "Tom and I got divorced" is "I got divorced from Tom"; "我跟男朋友分手了" stays as
# said (each withdraws the partner or the spouse).
_EN_PARTED = re.compile(
    r"^(?:have |'ve )?(?:(?P<verb>broke|broken|split) up|(?:got |have got |'ve got )?(?P<how>divorced|separated))"
    r"(?P<rest>.*)$",
    _I,
)
_EN_APART = re.compile(
    r"^(?:are|'re) (?:no longer together|not together (?:anymore|any more))[.!]*$", _I
)
_ZH_PARTED = re.compile(r"^(?:已经|早就|刚)*(?:分手|分了|离婚|分居|分开了)")
# (a marriage ends with a spouse or a partner, and maybe a when: not "My business partner and
# I separated", "Tom and I got separated in the crowd")
_EN_WED = re.compile(COUPLE_EN, _I)
_A_WHEN = re.compile(
    r" (?:last \w+|this (?:year|month|week)|in (?:\d{4}|(?-i:[A-Z][a-z]+))|(?:\w+ ){1,2}ago"
    r"|recently|yesterday|for good)",
    _I,
)


def _only_when(said: str) -> bool:
    """Whether ``said`` is nothing but times ("", " last year", " two years ago"), each read
    once from where the one before ended: a repeat of overlapping ways to say "when" matched
    as one pattern tried every split ("got divorced" + " ago" * 60 took seconds, helper 373)."""
    at = 0
    while at < len(said):
        when = _A_WHEN.match(said, at)
        if when is None:
            return False
        at = when.end()
    return True


# Living together is said of the two ("我和父母住在一起", "我跟室友合租", "我跟姐姐在一起住",
# "我和爸妈住一块"): kept as said, no "我住在一起".
_ZH_TOGETHER = re.compile(
    r"^(?:现在|目前|一直|还)*(?:(?:住|生活)(?:在)?一(?:起|块)|(?:在)?一(?:起|块)(?:住|生活)|合租|同住|同居|"
    r"(?:住|生活)$)"
)
_EN_FREQUENCY_FIRST = re.compile(
    r"^(?P<f>(?:every|each|most) (?:day|morning|evening|night|week|weekend|(?:mon|tues|wednes|thurs|fri|satur|sun)day|"
    r"days|mornings|evenings|nights|weekends|weekdays)|on (?:weekends|weekdays|(?:mon|tues|wednes|thurs|fri|satur|sun)days)|"
    r"at weekends|daily|(?:once|twice|\w+ times) a (?:day|week|month)),?\s+(?P<rest>I\b.+)$",
    _I,
)


def with_others(sentence: str, zh: bool) -> tuple[str, str]:
    """(sentence said of the user alone, who else it is about, for the fact's text).

    "My wife and I live in Leeds" → ("I live in Leeds", " (with their wife)");
    "我和老公刚搬到苏州" → ("我刚搬到苏州", "（和老公一起）"); "Most mornings I cycle
    to work" → ("I cycle to work most mornings", "").
    """
    if zh:
        if (
            (m := _ZH_WITH.match(sentence))
            and not _ZH_PARTED.match(m["rest"] or "")
            and not _ZH_TOGETHER.match(m["rest"] or "")
        ):
            rest = m["rest"] or m["rest2"] or m["rest3"]
            return "我" + rest, f"（和{m['who']}一起）" if m["who"] else ""
        return sentence, ""
    if m := _EN_FREQUENCY_FIRST.match(sentence):
        return f"{m['rest']} {m['f'].lower()}", ""
    sentence = _EN_DIET_PLURAL.sub(r"\g<diet>", sentence)
    if m := _EN_WITH.match(sentence):
        whom = f"my {m['who']}" if m["who"] else m["name"]
        if _EN_APART.match(m["rest"]):  # "Anna and I are no longer together": a parting
            return f"I broke up with {whom}", ""
        if parted := _EN_PARTED.match(m["rest"]):
            if not parted["how"]:
                return f"I {parted['verb']} up with {whom}{parted['rest']}", ""
            if (not m["who"] or _EN_WED.fullmatch(m["who"])) and _only_when(
                parted["rest"].rstrip(".!")
            ):
                return f"I got {parted['how']} from {whom}{parted['rest']}", ""
        words = m["rest"].split(" ")
        if _EN_TOGETHER.search(" ".join(w for w in words if w.casefold() not in _BOTH)):
            return f"We {m['rest']}", ""  # said of the two: no fact of the user's alone
        if len(words) > 1 and words[0].casefold() in _BOTH:
            del words[0]  # "…and I both love jazz"
        words[0] = _EN_PLURAL.get(words[0].casefold(), words[0])
        if len(words) > 2 and words[1].casefold() in _BOTH:
            del words[1]  # "…and I are both allergic…"
        rest = " ".join(words)
        clause = f"I{rest}" if rest.startswith("'") else f"I {rest}"
        who = f"their {m['who']}" if m["who"] else m["name"]
        return clause, f" (with {who})"
    if m := _EN_WE.match(_WE_ARE.sub("we are", sentence, count=1)):
        # The household's "our" in what it does is the user's "my" ("we rent our flat"
        # → "I rent my flat"); in a later clause "our X" is its own subject, not the user.
        rest = m["rest"]
        end = _CLAUSE_END.search(rest)
        cut = end.start() if end else len(rest)
        rest = _OUR.sub(lambda w: _MY[w.group().casefold()], rest[:cut]) + rest[cut:]
        return re.sub(r"^I are(?: both| all)?\b", "I'm", f"I{rest}"), ""
    return sentence, ""
