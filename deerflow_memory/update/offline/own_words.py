# ruff: noqa: E501  (regular expressions: one alternation per line reads better than wrapped)
"""The offline extractor's last resort: a clause about the user that no rule knows, kept in the user's words.

The rules of :mod:`~deerflow_memory.update.offline.rules` know the common
kinds of fact (allergies, diets, places, jobs, tastes, goals...). Users say
many more lasting things about themselves: "I play bass in a covers band",
"I swim before work", "我每周六去爬山". A blind check (bench/quality.py) found
the rules alone storing about half of what a first-person sentence says, where
storing every first-person sentence whole stores almost all of it.

So a clause whose subject is the user ("I…", "我…"), that no rule matched and
that is none of the things memory must not keep, is stored as it was said,
turned to the third person where that is mechanical ("I play" → "User plays",
"我每周" → "用户每周"). What it must not keep, beyond the questions and
hypotheticals :mod:`~deerflow_memory.update.offline.text` already drops:

- a passing state or mood ("I'm so tired", "I'm done", "我好累", "烦死了");
- talk about the conversation ("I think so", "I see", "I forgot", "我觉得",
  "我不知道", "I like this one", anything said to "you" / "你");
- a one-off request, errand or wish ("I need a recipe", "I'm looking for a
  gift", "我想吃火锅", "我要一份"; lasting wishes are the goal rules' to find);
- what the user is not, does not want or once was ("I'm not vegetarian",
  "I don't want to", "I used to", "我不是", "我没");
- a future or past single event ("I'll call her", "I just got back",
  "我刚到家", any Chinese clause with the perfective 了);
- a clause too short to say anything, or too long to be one fact.

Such facts get confidence 0.7 (the default ``fact_confidence_threshold``: a
stricter threshold drops them) and the category their wording suggests:
``preference`` (like, love, hate, 喜欢), ``goal`` (trying to, learning,
打算), ``behavior`` (every morning, usually, 每天) or ``context``.
"""

from __future__ import annotations

import re

from deerflow_memory.capture.kin import KIN_EN_OWNED
from deerflow_memory.models import FactCategory
from deerflow_memory.update.offline.rules import (
    Candidate,
    en_statement,
    swap_pronouns,
    zh_statement,
)
from deerflow_memory.update.offline.vocabulary import CJK, FOR_EXAMPLE_ZH

__all__ = [
    "OWN_WORDS_CONFIDENCE",
    "described_before_so",
    "implied_own_words",
    "own_words",
    "said_of_user",
]

_I = re.IGNORECASE

OWN_WORDS_CONFIDENCE = 0.7
"""Confidence of a fact kept in the user's words: less than a rule's, equal to the
default ``fact_confidence_threshold``."""

_MIN_EN_WORDS, _MAX_EN_WORDS = 3, 30
# A short clause cut before its object ("I live in", "I work as a", "I moved to": a
# message sent too early, the rest in the next one). Longer clauses that end so are
# complete ("I'm vegan and proud of that", "I have a dog I care for"), and so are
# phrasal verbs ("I sleep in", "I stay in"): only a place verb is cut before "in".
_EN_CUT = re.compile(
    r"^\S+(?:\s+\S+){0,2}\s+(?:a|an|the|my|our|your|his|her|their|its|this|that|some)$"
    # a verb that needs what it takes: "I really like", "I can't stand", "I don't eat"
    r"|^\S+(?:\s+\S+){0,2}\s+(?:like|love|prefer|enjoy|hate|dislike|adore|use|stand|wear|watch"
    r"|play|eat)$"
    r"|^\S+(?:\s+\S+){1,2}\s+(?:at|to|from|as|of|with|near|into|for|without|about|than)$"
    r"|\b(?:live[sd]?|living|work(?:s|ed|ing)?|stud(?:y|ies|ied|ying)|born|raised|based|grew up)"
    r"\s+in$",
    _I,
)
_MIN_ZH_CHARS, _MAX_ZH_CHARS = 5, 60
# Cut before what its copula or place verb takes: "我的名字是", "我住在一个", "我住在那个".
# A clause that ends in another verb is often whole, its object put first ("牛奶一点都
# 不能喝", "夜宵一般不吃"), and so is a noun with its measure word after it ("上班族一个").
_ZH_CUT = re.compile(
    r"(?:是|叫|住在|生活在|搬到|来自|成为|当)(?:每一|[一这那哪几每某])?"
    r"(?:[个名位只些家种所座条辆台本件张把部门场次份双套支块间栋头匹首])?$"
    # "我每天都用", "我特别讨厌": a verb that needs its object, with only adverbs before it
    r"|^我(?:每天|平时|一般|经常|常常|总是|都|也|还|很|特别|非常|比较|最|超级|真的|其实)*(?:用|讨厌)$"
)

# --- what is not a lasting fact -------------------------------------------------------------

_EN_FEELING = (
    r"tired|exhausted|bored|hungry|thirsty|sleepy|sad|happy|glad|excited|stressed|annoyed|upset|"
    r"confused|curious|sorry|sure|unsure|done|finished|back|here|ready|fine|good|ok|okay|great|"
    r"lost|stuck|busy|late|early|wondering|thinking|kidding|joking|serious|afraid so|"
    r"not sure|impressed|grateful|thankful|relieved|nervous|worried|frustrated|angry|mad|"
    r"in a hurry|on my way|at work|at home|outside|online|free|available|almost there|new here"
)
# A short clause whose only object is a word for what was said before: "I outgrew it", "I sold
# it", "I got over him", "I recovered from that": alone it says nothing one could store ("User
# outgrew it"); what it refers to is read with the sentence before (retractions.withdrawal_of).
_EN_REFERS_BACK = re.compile(
    r"^(?:\S+\s+){1,4}(?:it|that|this|them|him|her|these|those|both|both of them|them all"
    r"|all of them|(?:the )?(?:former|latter)|either|neither|either of them|neither of them)"
    r"(?:\s+(?:too|again|already|now|then|anyway|finally|completely|entirely|recently|yesterday"
    r"|today|lol|haha|a\s+lot|so\s+much|at\s+last))*$",
    _I,
)
# A title (a capital and small letters: "The Wire", "Dune"; not "TV", nor a site or an app read or
# watched for a moment, nor one said with "now")
_A_TITLE = (
    r"(?!(?:reddit|twitter|netflix|youtube|tiktok|instagram|facebook|slack|gmail|the news"
    r"|wikipedia|kindle|hulu|twitch|medium|chapter|page|section)\b)"
    r"(?-i:[A-Z][a-z])(?!\w*\s+(?:right now|now|today|tonight)\b)"
    # (not someone's thing: "Tom's dog", "Sarah's essay", "Monday's game"; "Grey's Anatomy" is
    # a title; nor a person minded or a match: "Emma for my sister", "Chelsea play Arsenal";
    # nor writing of the moment: "Python docs", "Spanish news", "Twitch streams")
    r"(?!\w*['’]s\s+(?-i:[a-z]))(?!\w*\s+(?:(?:for|while) (?:my|our|his|her|their|a friend|the "
    r"neighbou?rs?)|play|playing|vs|against)\b)"
    r"(?!(?:[\w'’-]+\s+){0,3}(?:docs|documentation|articles?|news|streams?|messages?|emails?"
    r"|posts?|threads?|comments?|reviews?|policy|policies|terms|stocks?|shares?|prices?|closely)\b)"
)
_EN_PASSING = re.compile(
    # a state of the moment: "I'm so tired", "I'm not sure", "I'm at work"
    r"^I (?:didn't|did not|have (?:an? )?(?:cold|flu|fever|meeting|appointment|call|exam|test|date|interview)\b)|"
    r"^I'm (?:preparing|making|cooking|having|eating|grabbing) (?:\w+ )?(?:dinner|lunch|breakfast|brunch|supper|a snack)\b|"
    # an errand of the moment: "I stopped the container", "I have an idea", "I'm working on a fix"
    r"^I\s+(?:just\s+)?(?:\w+ed|ran|did|made|got|put|set|sent|wrote|built|broke|took|left|lost|found|began|read|saw|went|gave up(?: on)?)\s+(?:the|this|that|it|these|those)\b|"
    r"^I\s+(?:have|'ve got|have got|got)\s+(?:a|an|another|one more|some|no|a lot of|lots of|so much|too much)\s+(?:\w+\s+)?(?:idea|ideas|question|questions|meeting|meetings|problem|problems|issue|issues|call|calls|deadline|deadlines|errand|errands|work|homework|email|emails|cold|headache|fever|bug|bugs|time|minutes?|hours?|plans?|appointment|interview|exam|test|presentation|task|tasks|update|suggestion|request|favou?r)\b|"
    r"^I(?:'m| am)\s+(?:(?:currently|still|just|now)\s+)*working on\s+(?!\w+ing\b)|"
    rf"^I(?:'m| am)\s+(?:(?:so|really|very|kinda|kind of|a bit|a little|pretty|quite|totally|just|still|not|too|"
    rf"fairly|absolutely|completely|\d{{1,3}} ?%)\s+)*(?:{_EN_FEELING}|certain|positive|convinced)\b"
    # talk about the conversation, or a request in disguise
    r"|^I\s+(?:(?:really|just|also|still|honestly|totally|kinda|actually|now|finally)\s+)*(?:think|thought|guess|believe|feel|suppose|agree|disagree|see|saw|hear|heard|know|knew|understand|mean|meant|hope|wonder|wondered|was wondering|said|asked|told|forgot|remember|noticed|found|read|tried|got it|get it|appreciate|doubt|bet|reckon|assume|figured|realized|realised|changed my mind|owe|promise|swear|apologi[sz]e|beg|insist|repeat)\b"
    r"|^I\s+(?:(?:really|just|also|still)\s+)*(?:like|love|hate|prefer|want|need|enjoy|liked|loved|hated)\s+(?:it|this|that|these|those|them|your|the (?:first|second|third|last|new|other|previous|shorter|longer)|(?:this|that|the) (?:one|version|idea|answer|option|draft|plan|list|suggestion))\b"
    # what the user is not, does not want or does not know: no fact about them
    r"|^I(?:'m| am) not\b|^I\s+(?:don't|do not|didn't|did not)\s+(?:\w+\s+)?(?:want|need|think|know|care|mind|remember|understand|get|see|believe|agree)\b"
    r"|\bused to\b"
    # the conversation itself: "I love your idea", "I told you"
    r"|\b(?:you|your|yours|u)\b"
    r"|^I(?:'d| would)\s+(?:like|love|prefer|rather|appreciate)\b"
    r"|^I\s+(?:(?:really|just|also|still|urgently)\s+)*(?:need|want|require)\s+(?:a|an|some|the|your|you|to (?:know|ask|find|get|see|buy|book|order|write|make|create|check|send|print|fix|understand|figure|learn how|talk|"
    # an errand of the day: "I need to email my landlord", "I need to finish this report by 5pm"
    r"email|call|text|reply|respond|submit|pay|draft|renew|pick up|drop off|fill out))\b"
    r"|^I(?:'m| am)\s+(?:(?:just|still|currently|now)\s+)*(?:looking for|searching for|trying to (?:figure|understand|decide|find|get|work out|remember)|asking|wondering|curious|about to|going to|gonna|planning to (?:call|send|buy|order|book|go)|getting ready|heading|leaving|off to|writing to|calling|texting|"
    # (a book or a series the user is in the middle of is no moment: "I'm reading a novel about
    # Stoicism", "I'm currently watching The Wire")
    r"reading(?!\s+(?:(?:a|an) (?:(?:new|great|good|long|fascinating|brilliant) )?(?:book|novel|memoir|"
    rf"biography|series|trilogy|saga|collection)\b|{_A_TITLE}))|"
    r"watching(?!\s+(?:(?:a|an|the) (?:(?:new|great|good|long) )?(?:series|show|sitcom|anime|drama|"
    rf"documentary series)\b|{_A_TITLE}))|"
    r"using (?:this|your|it))\b"
    # how far or how late: "I'm a few minutes late", "I'm two stops away", "I'm a long way from home"
    r"|^I(?:'m| am)\s+(?:(?:just|only|already|still|running|now)\s+)*(?:an?|a few|a couple(?: of)?|\d+|few|some|"
    r"one|two|three|four|five|ten|fifteen|twenty|thirty)\s+(?:\w+\s+)?(?:minutes?|mins?|hours?|hrs?|days?|"
    r"weeks?|seconds?|secs?|blocks?|miles?|km|kilometres?|kilometers?|metres?|meters?|m|yards?|ft|feet|"
    r"foot|steps?|stops?|way)\s+"
    # (and on what: "I'm a day late on rent", "I'm a week behind with work")
    r"(?:(?:late|early|away|behind|ahead|out|off)(?:\s+(?:on|with|for)\s.*)?|from\b.*)$"
    # what the user is doing this minute: "I'm looking at the menu", "I'm sitting in a cafe",
    # "I'm waiting for the bus" (not "sitting on the board": a role), leaving the chat ("I need
    # to go now"), a meal eaten ("I had pasta for dinner"; "I have oatmeal for breakfast" goes on)
    r"|^I(?:'m| am)\s+(?:(?:just|still|currently|now|already)\s+)*(?:looking at|sitting (?:in|at|on)"
    r"(?! (?:the|a|an) (?:\w+ )?(?:board|committee|council|panel|jury)\b)|standing (?:in|at|on)|"
    r"lying (?:in|on)|waiting (?:for|on) (?:the|a|my|our) (?:bus|train|tram|taxi|cab|uber|ride|"
    r"flight|plane|food|order|pizza|delivery|kettle|coffee|call|reply|table|elevator|lift)\b)"
    r"|^I\s+(?:really\s+|just\s+)?(?:need|have|got|gotta)\s+(?:to\s+)?(?:go|run|leave|head out|sign off|"
    r"log off|get going)(?:\s+now)?\s*$"
    r"|^I\s+(?:just\s+)?(?:had|ate)\s+(?:\S+\s+){1,5}?for (?:breakfast|lunch|dinner|supper|brunch)"
    r"(?:\s+(?:today|tonight|yesterday|last night|earlier))?\s*$"
    # where the user is right now: "I'm at the airport", "I'm on the train"
    r"|^I(?:'m| am)\s+(?:(?:currently|just|still|now|already)\s+)*(?:at (?:the )?(?:airport|station|gym|office|"
    r"doctor'?s?|dentist'?s?|store|shop|mall|hospital|library|park|beach|bus stop|supermarket|bank|caf[eé]|"
    r"restaurant|bar|pub|hotel)|on (?:the|a|my) (?:bus|train|subway|metro|plane|flight|tube|ferry|way)|"
    r"in (?:a|the) (?:meeting|taxi|cab|queue|line|waiting room))"
    # …and nothing more than when and what for ("I'm at the gym 5 days a week" is a habit,
    # "I'm at the hospital as a resident" a job)
    r"(?:\s+(?:right now|now|rn|at the moment|today|tonight|waiting\b.*|with\b.*|for (?:a|an|my|the) "
    r"(?:flight|train|bus|meeting|appointment|check-?up|scan|interview)\b.*))?$"
    # a place only pointed at, named in an earlier message: "I live there now", "I've worked
    # here for years" ("I work there as a nurse" still says the job)
    r"|^I(?:'ve| have)?\s+(?:(?:still|now|currently|also|actually|both|all|been)\s+)*(?:live[sd]?|living"
    r"|work(?:s|ed|ing)?|stud(?:y|ied|ying)|stay(?:ed|ing)?)\s+(?:there|here|nearby|over there|around here"
    r"|close by)(?:\s+(?:now|too|as well|anymore|still|again|for (?:\w+ )?(?:years?"
    r"|months?|weeks?|a while|ages|decades?)|since \w+))*$"
    # a verb with nothing after it, standing for one said before: "…and I still do", "I am too"
    r"|^I(?:'m)?\s+(?:still\s+|also\s+)?(?:do|does|did|am|was|have|had|can|will)"
    r"(?:\s+(?:too|as well|now|again|sometimes|occasionally|(?:on|at|in|every|most|some)\s+\w+(?:\s+\w+)?))?$"
    # a count of what was named before ("What plants are safe for cats? I have two."): no fact
    # without it
    r"|^I (?:have|'ve got|have got|own|got)\s+(?:just |only )?(?:one|two|three|four|five|six|seven|"
    r"eight|nine|ten|a couple|a few|several|\d+)(?:\s+(?:of (?:them|those|these)|too|as well|now))?$"
    # a single event, past or to come
    r"|^I(?:'ll| will|'m gonna| shall)\b|^I just (?:got back|came back|got home|woke up|landed|arrived)\b"
    r"|^I just (?:had|ate|drank) (?:the|a|an|my|some) (?:\w+ ){0,3}?(?:coffee|tea|lunch|dinner|breakfast|"
    r"brunch|meal|sandwich|burger|pizza|snack|drink|beer|shower|nap|call|meeting|chat|conversation)\b"
    # a maybe: "I might try", "I may or may not", "probably"
    r"|^I\s+(?:(?:really|just|also|still)\s+)*(?:might|may|could|would)\b|\b(?:maybe|perhaps|probably|possibly)\b"
    r"|\bin an? (?:\w+ )?mood\b"
    # about someone else: "I work for a boss who…"
    r"|\b(?:boss|manager|colleague|coworker|friend|wife|husband|partner|mother|father|mom|mum|dad|son|daughter|kid|child|brother|sister|neighbou?r|roommate|flatmate|teacher|client|customer)s?\s+who\b"
    # (a change of life is no errand: "I recently adopted a cat", "I just started a new job")
    # (not with a thing of theirs after it: "I just moved my car", "I recently retired the laptop")
    r"|^I\s+(?:just|already|finally|recently)\s+(?!(?:(?:adopted|married|moved|relocated|graduated|retired"
    r"|divorced|switched|converted|emigrated|immigrated|enrolled|qualified|transferred|remarried)"
    r"(?!\s+(?:my|their|his|her|our|the|them|it|this|that|off)\b)"
    r"|started (?:a |my |their )?(?:new )?(?:job|role|position|school|university|college|degree|course"
    r"|programme|program|business|company)"
    # (a skill taken up: "I recently started learning Spanish", "…taking cello lessons")
    r"|started (?:learning|studying|practi[cs]ing|training (?:for|as|in)|taking (?:\w+ )?"
    r"(?:lessons|classes|courses?)))\b)\w+ed\b"
    r"|\b(?:yesterday|last night|earlier today|just now|a minute ago|an hour ago|this morning|this afternoon|this evening|today|tonight|tomorrow|right now|at the moment)\b"
    # a joke or an aside
    r"|\b(?:lol|lmao|rofl|haha\w*|jk|ugh|omg|smh)\b|[😂🤣😅😭🙄😩😤]",
    _I,
)
_TWO_EN_WORDS = re.compile(r"[A-Za-z]{2,}\s+[A-Za-z]{2,}")
# (a name of two letters or more, or C or R, ending the word: not a chat word, "我用ok", "我喜欢
# lol", a letter, "我用x", nor code, "我用print(1)", "我用a=1")
_LATIN_OBJECT = re.compile(
    r"(?:用|写|学|玩|练|喜欢|爱)\s*"
    r"(?!(?:ok|OK|Ok|okay|lol|lmao|it|you|u|me|the|this|that|bugs?|apps?|APP|App|haha\w*|hh+|xd|XD"
    r"|emm+|hmm+)"
    r"(?![A-Za-z]))"
    r"(?:[A-Za-z][A-Za-z0-9+#.-]*[A-Za-z0-9+#]|[CR])(?![A-Za-z0-9_(=\[{<])"
)
_ZH_PASSING = re.compile(
    r"^我(?:今天|现在|真的|真|好|很|太|超|特别|有点|有些|快|都)*(?:累|困|饿|渴|烦|无聊|开心|高兴|难过|伤心|郁闷|紧张|激动|生气|着急|崩溃|懵|晕|忙|闲)(?:了|啊|呀|死了|坏了|极了)?$"
    r"|烦死|累死|困死|饿死|气死|笑死|崩溃了|无语|哈哈|呜呜|[😂🤣😅😭🙄😩😤]"
    # a doubt of the moment, said of the answer or of how one feels: "好像不太对", "感觉不对劲"
    r"|^(?:我)?(?:好像|感觉|似乎|总觉得|觉得)?(?:有点|有些)?不(?:太|大|怎么)?对(?:劲)?(?:啊|呀|吧|了)?$"
    r"|^我的?(?:心情|情绪|状态|精神)|准备(?:早饭|午饭|晚饭|早餐|午餐|晚餐|夜宵)"
    # not used to what is not said: "我还不太熟悉", "我还在适应" ("我不习惯北方的冬天" says it)
    r"|^我(?:还|也)?(?:不太|不怎么|不是很|没|不)(?:熟悉|习惯|适应)(?:呢|啊|了)?$|^我还在(?:适应|熟悉)"
    # a state of these days, not of the person: "我最近压力大", "这几天睡不好"
    r"|最近|这几天|这阵子|这段时间|近来|这两天|这周|截止|deadline|ddl"
    r"|^我(?:也|还|就|都)?(?:觉得|认为|猜|估计|想问|想知道|问一下|问问|说|刚|刚才|刚刚|在想|不知道|不懂|不明白|不太懂|同意|明白|知道了|记得|忘了|看到|听说|试了|试过|发现|看了|读了|以为|确定|希望你|需要你|要你|请你|求你)"
    r"|^我(?:想|要|需要|得)?(?:要|买|找|订|点|看|听|查|问|写|做)?"
    # ("我一个人住", "我个子不高" say what the user is: not with a want or an errand before)
    # (alone is how one lives, not what one did or could not do: "我一个人去的", "我一个人搞不定")
    r"(?:一个(?!人(?:住|生活|过日子|过|带))|一份|一些|一下|一点|点|个(?![子头])|份)"
    r"|^我(?:想|要|需要|得|买|找|订|点|看|听|查|问|写|做)(?:一个人|个[子头])"
    r"|^我(?:想|要|会|将|打算|准备)|^我(?:现在|目前|这会儿)想"
    # what the user is not or did once: "我不是素食者", "我叫了外卖", "我住院了"
    # (了 after a span of time is a state that lasts: "失眠好几年了", "怀孕五个月了"; and so is
    # 了 before years or months: "我做了五年销售", "我带了三年高三")
    r"|^我(?:不是|没有|没)|(?<!年)(?<!月)(?<!周)(?<!天)(?<!岁)(?<!久)了"
    # (what was done so long: not "我等了三个月", nor an errand or a wait so long: "我请了一个月假",
    # "我打了一个月针", "我拖了一年多")
    r"(?!(?<![等请拖排堵打欠借]了)(?:快|将近|差不多|整整|好|很多|好多)?[一二两三四五六七八九十几半多\d]*"
    r"(?:个)?多?(?:年|个月)的?(?![多了啦呢吧啊])[\u4e00-\u9fff]|一辈子)"
    # the conversation itself: "我喜欢你的建议"
    r"|你|您"
    r"|^我(?:马上|待会|一会儿|等下|等会|这就|现在就|明天|今晚|今天|昨天|昨晚|刚)"
    # an event of today: "我下午有个会", "我下午要开会" (not "我晚上要戴呼吸机", a need, nor
    # "我晚上有课", "我晚上要去医院做透析": often a routine)
    r"|^我(?:上午|下午|中午|晚上)(?:有(?:个|一个)(?:会|约|面试|考试|饭局|聚会|活动)|要开会)"
    # where the user is right now: "我在地铁上", "我在开会"
    r"|^我(?:正|现在|还|正好)?在(?:地铁|公交|公交车|火车|高铁|动车|飞机|车|路|出租车|电梯|船)上(?:呢|了|啊)?$"
    r"|^我(?:正|现在|还|正好)?在(?:开会|上课|排队|等车|等人|吃饭|路上|机场|车站)(?:呢|了|啊)?$"
    r"|昨天|昨晚|今天|今晚|明天|刚才|刚刚|这次|待会|一会儿|此刻"
    # a meal or errand of the day: "我中午吃了碗面"
    r"|(?:早上|早饭|中午|午饭|下午|上午|晚上|晚饭|周末|上周|上个月|上次)\S*了"
    # a maybe: "我可能会试试"
    r"|可能|也许|或许|说不定|大概|考虑"
    # a thing's name, not the user's: "我家小区叫…"
    r"|^我(?:的|家|住的|老家|们)\S*叫"
    r"|^我(?:喜欢|爱|讨厌|不喜欢)(?:这个|那个|这些|那些|它|这版|这一版|第一个|第二个|最后一个)",
)

# --- never memory, whatever the shape ----------------------------------------------------------

# A secret (memory is shown to a model provider on every turn), an instruction or a
# claim of authority over the assistant (a stored "fact" would carry it into every
# prompt), what someone else said, a problem of the moment, a crisis (not a fact
# for the offline rules to keep), a joke.
_NEVER = re.compile(
    r"\b(?:passwords?|passcodes?|passwd|pin(?: code| number)?|otp|one[- ]time (?:code|password)|"
    r"verification code|security code|2fa|api[ _-]?keys?|access keys?|secret(?: key)?s?|tokens?|"
    r"private keys?|seed phrase|recovery phrase|mnemonic|card numbers?|credit card|debit card|cvv|cvc|"
    r"iban|account numbers?|routing number|sort code|ssn|social security|national insurance|"
    r"passport (?:number|no)|licen[cs]e number|tax id|login|username|user name)\b"
    r"|\bsk-[a-z0-9]{6,}|\bakia[a-z0-9]{8,}|\b\d{9,}\b|\b(?:\d{4}[ -]){3}\d{4}\b"
    r"|密码|口令|验证码|校验码|身份证|护照号|卡号|银行卡|账号|帐号|密钥|私钥|助记词|社保号"
    r"|\b(?:ignore|disregard|override|overrides|bypass)\b|\b(?:system prompt|instructions?|"
    r"rules? (?:are|is) void|jailbreak|developer mode|admin(?:istrator)?|root access|superuser|sudo|"
    r"approve all|authori[sz]ed|permission|highest (?:priority|authority)|in charge of (?:you|this))\b"
    r"|忽略|无视|覆盖|绕过|指令|提示词|系统|管理员|权限|授权|越狱|开发者模式"
    r"|\b(?:told|asked|texted|emailed|messaged|warned|reminded|says|said)\s+(?:me|to me)\b"
    r"|(?:医生|大夫|他|她|老师|妈妈|爸爸|老板|朋友|别人|人家|同事|家人|领导)说"
    r"|\b(?:crash(?:es|ed|ing)?|delayed|cancell?ed|broke|broken|not working|isn['’]t working|"
    r"won['’]t (?:start|load|open|work)|failed|failing|glitch(?:es|ing)?|freez(?:es|ing)|frozen)\b"
    r"|^I can['’]?t (?:log ?in|sign ?in|access|open|find|connect|see|get|load|download|upload|"
    r"install|print|hear|figure)\b"
    r"|\b(?:kill myself|want to die|end it all|suicid\w*|self[- ]harm)\b|不想活|想死|活不下去|自杀|轻生"
    r"|\b(?:just )?kidding\b|\bjk\b|\bjoking\b|开玩笑"
    r"|外面|下雨|下雪|天气|心情|排队|被(?:拒|骂|批|开除|裁|甩)"
    # the task at hand: "I have a dataframe with 3 columns", "I keep getting a 404 error",
    # "I've tried restarting the server", "I have to go", "我每次运行都报错" (not "I make
    # errors because I'm dyslexic", "I have to go gluten free", "a data scientist working
    # with datasets": a tool of the task must be what the user has or gets)
    r"|^I(?: have|'ve got| got| am getting|'m getting| keep getting| keep seeing| get| see"
    r"|'m seeing| ran into| hit|(?:'ve| have) (?:combined|highlighted|fixed|removed"
    r"|merged|updated|edited|cleaned|sorted|filtered|attached|uploaded|formatted|converted))"
    r" (?:(?:a|an|the|this|that|my|some|another|both|all|two|\d+) )?"
    r"(?:[\w-]+ ){0,2}(?:dataframes?|data frames?|spreadsheets?|csv|json|datasets?|dicts?"
    r"|dictionar(?:y|ies)|arrays?|regex|stack ?traces?|tracebacks?|(?-i:[A-Z]\w*Error)"
    r"|exceptions?|errors?"
    r"|endpoints?)\b"
    r"|\b(?:table|column|file|folder|function|variable|class|repo|branch|sheet|tab) (?:called|named)\b"
    r"|\bwhen I (?:click|open|compile|build|deploy|execute|submit|press|import|call the)\b"
    r"|^I(?:'ve| have)? (?:already )?tried (?:restarting|reinstalling|rebooting|clearing|updating"
    r"|reloading|refreshing|running|changing|deleting|resetting|turning)\b"
    r"|^I (?:have|'ve got|got) to (?:go|run|leave|log off|get going|head out|sign off|dash)"
    r"(?: (?:now|soon|too|bye|in a \w+|for (?:a bit|now|a while|a sec|a minute)))?$"
    r"|^I (?:have|'ve got|got|only have) (?:\d+|a few|few|two|three|five|ten|fifteen|twenty|thirty"
    r"|forty|fifty) (?:more )?(?:minutes?|mins?|hours?|hrs?|seconds?)(?: left| to spare)?"
    r"(?: (?:before|until|till|to (?:finish|do|get|decide|answer)) .*)?$|\bbad feeling about\b"
    r"|报错|运行\S*出错|^我有(?:个|一个|几个)?(?:问题|疑问)|^我(?:每次|一)?运行|(?:表|文件|表格)叫|导出成"
    r"|^我正在(?:开车|开会|吃饭|排队|调试)|^我是认真的"
    # what the user meant by words said before ("我是说他们那家店"), no fact ("说唱": rap;
    # "我讲的是粤语" is; a sentence "我指的是我对花生过敏" is read as what it says: text.restated)
    r"|^我(?:是说(?!唱)|的意思是|指的是|说的是(?=我))",
    _I,
)


def _never(text: str) -> bool:
    return _NEVER.search(text) is not None


# --- the third person: rules.en_statement / zh_statement, as every rule's fact -----------

_EN_SUBJECT = re.compile(r"^I\b(?=.*[a-z])", _I)  # "I" and a word after it


# --- the category ---------------------------------------------------------------------------

_PREFERENCE = re.compile(
    r"\b(?:like|likes|love|loves|enjoy|enjoys|prefer|prefers|hate|hates|dislike|dislikes|adore|"
    r"can't stand|cannot stand|(?:a )?(?:big |huge )?fan of|favou?rite|into)\b|喜欢|爱好|热爱|偏爱|最爱|"
    r"讨厌|受不了|不爱|爱吃|爱喝|爱看|爱听",
    _I,
)
_GOAL = re.compile(
    r"\b(?:trying to|want to|wants to|hoping to|hope to|plan to|planning to|aim to|aiming to|"
    r"working (?:on|towards?)|training for|saving (?:up )?for|learning|studying for|preparing for|"
    r"goal|dream)\b|打算|计划|目标|梦想|准备|想学|在学|在练|在备考|备考|争取|一定要|努力",
    _I,
)
_HABIT = re.compile(
    r"\b(?:every|each)\s+(?:day|morning|evening|night|week|weekend|month|year|monday|tuesday|"
    r"wednesday|thursday|friday|saturday|sunday)\b|\b(?:usually|always|often|never|normally|"
    r"daily|weekly|regularly|twice a|once a|three times a)\b|每天|每周|每个月|每年|每晚|每早|"
    r"经常|总是|一直|从不|从来不|平时|通常|习惯",
    _I,
)


def _category(clause: str) -> FactCategory:
    if _PREFERENCE.search(clause):
        return FactCategory.PREFERENCE
    if _GOAL.search(clause):
        return FactCategory.GOAL
    if _HABIT.search(clause):
        return FactCategory.BEHAVIOR
    return FactCategory.CONTEXT


# "I'm 5 minutes late and stressed", "I'm 100 and done with this bug", "I'm 3 and 0 this season":
# a number and what no rule read (helper 359; "I'm 80 and still working" is kept)
_EN_BARE_NUMBER = re.compile(r"\d+(?:\s+(?:this|that|in|on|at|for|so|after|against)\b|$)", _I)
_EN_NUMBER_AND = re.compile(r"^I(?:'m| am) (?P<a>\d[\w'%-]*(?: [\w'%-]+){0,3}?) and (?P<b>.+)$", _I)


def _a_number_and_a_moment(text: str) -> bool:
    """Whether ``text`` joins a number and a moment, a score or a passing state: the first half
    said alone is passing ("I'm 5 minutes late and stressed"), or it is a bare number and the
    second is passing or a number too ("I'm 100 and done with this bug", "I'm 3 and 0 this
    season")."""
    joined = _EN_NUMBER_AND.match(text)
    if joined is None:
        return False
    if _EN_PASSING.search(f"I'm {joined['a']}"):  # "5 minutes late"
        return True
    # a bare number: an age at most ("I'm 3 weeks postpartum and exhausted" is kept)
    return joined["a"].isdigit() and (
        _EN_BARE_NUMBER.match(joined["b"]) is not None
        or bool(_EN_PASSING.search(f"I'm {joined['b']}"))
    )


def own_words(clause: str, zh: bool) -> Candidate | None:
    """A fact in the user's words from a clause about them that no rule matched, or None.

    Args:
        clause: one clause whose subject is the user, lead-ins, questions and
            hypotheticals already dropped by
            :func:`~deerflow_memory.update.offline.text.candidates_from_text`
            (English starts with "I"; Chinese with "我", or has no subject).
        zh: the clause is Chinese.

    Returns:
        The candidate (confidence :data:`OWN_WORDS_CONFIDENCE`, no slot), or
        None for a passing state, talk about the conversation, a one-off
        request or event, or a clause too short or too long to be one fact.
    """
    text = clause.strip().rstrip(" .,;:!~…。，；：！～")
    if _never(text):
        return None
    if zh:
        # (a name in Latin letters that is used, written, learnt or played counts as three
        # characters: "我用Mac", "我一直用iPhone", "主要写Java")
        chars = len(CJK.findall(text)) + 3 * len(_LATIN_OBJECT.findall(text))
        if not _MIN_ZH_CHARS <= chars <= _MAX_ZH_CHARS or _ZH_PASSING.search(text):
            return None
        if _TWO_EN_WORDS.search(text):  # "我30岁 and just started 健身": half English, garbled
            return None
        if _ZH_CUT.search(text):
            return None
        content = zh_statement(text)
    else:
        words = len(text.split())
        if not _MIN_EN_WORDS <= words <= _MAX_EN_WORDS or not _EN_SUBJECT.match(text):
            return None
        if _EN_PASSING.search(text) or _EN_CUT.search(text) or _EN_REFERS_BACK.match(text):
            return None
        if _a_number_and_a_moment(text):
            return None
        content = en_statement(text)
    return Candidate(content, _category(text), OWN_WORDS_CONFIDENCE)


# --- about the user without "I" ----------------------------------------------------------------

_EN_PEOPLE = (
    rf"{KIN_EN_OWNED}|manager|roommates?|flatmates?|teacher|doctor|team|dog|cat|pets?|client|"
    r"customers?|students?"
)
_EN_MY_THING = re.compile(
    rf"^my\s+(?!(?:{_EN_PEOPLE}|bad|pleasure|apologies|mistake|god|goodness|gosh|word|turn|fault|"
    r"treat|question|point|guess|answer|reply|request|whole|entire|life|lifetime)\b)[a-z]",
    _I,
)
# "Sesame makes my throat close up", "migraines knock me out", "sci-fi is my jam": a
# generic subject (no article or pronoun before it) doing something to the user.
_EN_TO_ME = re.compile(
    r"^(?!(?:the|this|that|these|those|it|its|your|his|her|their|our|you|he|she|they|we|there|"
    r"here|what|which|who|how|why|when|where|if|any|some|every|each|no|"
    # a request or thanks, not a subject: "tell me", "thanks for helping me"
    r"tell|give|show|help|send|let|find|get|make|write|explain|remind|teach|call|email|text|ask|"
    r"bring|book|buy|order|recommend|suggest|list|translate|thanks?|please|pls|can|could|would|"
    r"will|do|does|did|don't|just|also|remember|note|keep|wake|walk|guide|take|put|leave|"
    r"forgive|excuse|pardon|sorry|hi|hey|hello|ok|okay|well|so|and|but|or|maybe|perhaps|"
    r"said|says|asked|asks|told|tells|replied|wrote|according|"
    # how long only: "Only until my surgery.", "Till my next scan." (not "Once a month
    # migraines knock me out": a time before what happens to the user)
    r"only|until|till|til)\b)"
    # a subject and a verb at least before "me"/"my": "schedule my workouts" is a request
    # (not "I" among them: "For a moment I thought I lost my keys" is a statement the rules
    # read or none; nor "my" before someone: "Since 2019 my son has asthma" is his)
    r"[a-z][\w'-]*(?:\s+(?!I\b)[\w'-]+){1,3}\s+(?:(?!I\b)\w+\s+){0,4}?"
    rf"(?:me\b|my\b(?!\s+(?:{_EN_PEOPLE})\b))",
    _I,
)
# "Coffee makes me happy": a feeling, not a fact ("…make me claustrophobic" is one).
_EN_MOVED = re.compile(
    rf"\b(?:me|my)\s+(?:so\s+|really\s+|very\s+)?(?:{_EN_FEELING}|smile|laugh|cry|feel|day|mood)\b"
    # "…makes me cheerful": one word of mood, unless the body reacts ("…makes me itchy")
    r"|\bmakes?\s+me\s+(?:so\s+|really\s+|very\s+)?(?!(?:sick|ill|itchy|itch|dizzy|nauseous|queasy|"
    r"sneeze|wheeze|cough|claustrophobic|anxious|breathless|bloated|swell|vomit|faint|sleepy|drowsy)\b)"
    r"\w+$",
    _I,
)
_EN_HERE = re.compile(
    r"^(?!(?:nothing|everything|anything|something|nobody|someone|somebody|all|same|done|back|"
    r"new|over|stuck|lost|still|just|you|we|they|it|that|this|quick|question|quick question|"
    r"problem|issue|help|hello|hi|hey|thanks|same question|nobody|anyone"
    # ("my son is here", "the plumber's here": someone else arrived, no description)
    r"|my|our|his|her|their|your|the)\b)(?!.*\b(?:is|are|am|was|were|'s)\s+here$)"
    r"(?P<x>[a-z][\w'()-]*(?:\s+[\w'()-]+){0,5})\s+here$",
    _I,
)
# What heads a list of the user's ("A few things about me:", "Quick facts about myself"):
# no fact of its own.
_HEADS_A_LIST = re.compile(r"\babout (?:me|myself)$", _I)
_EN_AS_A = re.compile(
    r"^as an?\s+(?!(?:reminder|note|side note|matter|result|rule|example|aside|bonus|test|joke|"
    r"favou?r|follow[- ]up|heads[- ]up|fyi|quick|ai|assistant|bot)\b)"
    r"(?P<x>[a-z][\w'-]*(?:\s+[\w'-]+){0,5})$",
    _I,
)


def said_of_user(clause: str, zh: bool) -> Candidate | None:
    """A fact from an English clause about the user that does not start with "I", or None.

    The shapes (and nothing else): "my <thing>…" (not a person or a pet: "My
    lower back is wrecked" → "User's lower back is wrecked"), a generic subject
    acting on "me"/"my" ("tree nuts send me to the ER" → "User: tree nuts send
    them to the ER"), "<description> here" ("pescatarian here" → "User:
    pescatarian") and "as a <role>" ("As a chemistry teacher" → "User is a
    chemistry teacher"). The guards of :func:`own_words` apply (talk to "you",
    a passing state, a maybe, a time of the day). Chinese has no such clause
    here: its subject-less clauses go to the rules as the user's.
    """
    if zh:
        return None
    text = clause.strip().rstrip(" .,;:!~…")
    words = len(text.split())
    if not 2 <= words <= _MAX_EN_WORDS or _EN_PASSING.search(text) or _EN_MOVED.search(text):
        return None
    if _never(text):
        return None
    if _EN_MY_THING.match(text):
        content = "User's " + swap_pronouns(text[3:].lstrip())
    elif match := _EN_AS_A.match(text):
        content = f"User is {text.split()[1].lower()} {match['x']}"
    elif match := _EN_HERE.match(text):
        content = "User: " + swap_pronouns(match["x"])
    elif words >= _MIN_EN_WORDS and _EN_TO_ME.match(text) and not _HEADS_A_LIST.search(text):
        content = "User: " + swap_pronouns(text[:1].lower() + text[1:])
    else:
        return None
    return Candidate(content, _category(text), OWN_WORDS_CONFIDENCE)


# A Chinese clause without a subject is the user's unless it starts like a request, a
# question or a remark about something else ("帮我…", "这个…", "天气…"), or talks to "你".
_ZH_NOW_WHERE = re.compile(
    r"^(?:现在|目前|如今)(?=住在|搬到|在读|读研|读博|上大学|读大学|"
    r"在[^，,。？！?]{1,12}?(?:读书|念书|读研|读博|读大学|上大学|上学|上班|工作|实习|生活|定居|教书))"
)
_ZH_NOT_THE_USER = re.compile(
    r"^(?:这|那|它|他|她|大家|别人|有人|人家|用户|天气|今天|明天|昨天|现在|最近|刚才|什么|怎么|为什么|"
    r"哪|谁|多少|几|是否|帮|给|请|推荐|告诉|写|翻译|解释|介绍|查|找|算|列|总结|分析|设计|生成|"
    r"比较|说说|讲讲|看看|来|再|把|让|叫|问|麻烦|求|能不能|可不可以|有没有|好的|好吧|谢谢|"
    r"哈哈|嗯|哦|啊|对|是的|不用|没事|没关系|加油|晚安|早安|订|讲|做个|发|打开|关掉|换|改|加|删|买|点|"
    r"搜|算了|以后|下次|每次|总是|又"
    # examples of what the clause before named: "我对坚果过敏，比如杏仁", "…，像虾和蟹"
    rf"|{FOR_EXAMPLE_ZH}|(?:通常|一般|大多|大部分|主要|多半|基本上?)是)|你|您|我"
    # praise of the answer, or the signal: "很有帮助", "信号不好"
    r"|^(?:很|非常|太|真|挺|特别|超|蛮)?(?:有帮助|有用|棒|不错|厉害|赞|给力|清楚|详细|到位|完美|专业|贴心|实用)"
    r"|^(?:干|做|说|写|讲|答|回答|解释|总结)得(?:真|很|太|非常|特别)?(?:漂亮|好|不错|对|棒|清楚|到位)"
    r"|^(?:信号|网络|网速|手机|电脑|电池|电量|屏幕)|^别(?!人)"  # "别用这个方法": to the assistant
    r"|^(?:不要|少|多)(?:放|加|搁)|^去掉"  # "不要放花生", "少放盐": a request for the dish
    r"|^是(?:我|他|她)"  # "…，是我儿子过敏": someone else is
    # a thing worked on or a number is the subject: "Python 里 range(0, 5)…", "代码里用…",
    # "10公里大约…" (not a year or an age: "2018年被诊断出…", "35岁了还没结婚"; not a
    # name the user uses: "Excel用得很熟")
    r"|^[A-Za-z][\w.+#-]*\s*(?:里|中)|[()=<>{}]|^\d[\d.]*(?![\d.]*(?:年|岁))|^(?:代码|程序(?!员)|函数|变量|数组|文件|文档|参考文献|文献|表格|报告|论文)"
    # a remark or a suggestion, not a fact: "每次都这么麻烦", "以后再说吧"
    r"|这么|这样|那样|不好意思|愉快|(?:吧|呗|嘛|呢|啦)$"
    # a question without its mark, or how the answer should be: "…要多久", "语气正式一点"
    r"|多久|多远|多长|如何|怎样|哪|一下|(?:一点|一些|点儿)$|去掉|删掉|加上|换成|改成"
    # something else is the subject: "北京是中国的首都"
    r"|^[^是]{2,}是"
)


# A detail of the clause before, not the user: how far or how long ("…，走路十分钟", "…，单程
# 一个小时", "…，离市区挺远的"), what is around ("…，路上堵得厉害", "…，附近没有地铁"), or
# getting used to what was just said ("刚搬到深圳，还不太熟悉"). Joined to a clause that still
# says something (see text._clauses), else dropped; never "用户走路十分钟".
_ZH_DETAIL_OF_BEFORE = re.compile(
    r"(?:走路|步行|开车|骑车|坐地铁|坐公交|坐车|打车|单程|来回|往返|通勤|车程|路程|路上)?"
    r"(?:大概|大约|差不多|要|得|需要|只要|就|才|也就)?[一二两三四五六七八九十半几\d]+(?:个)?多?"
    r"(?:分钟|小时|钟头|公里|站|里路?)"
    r"|离\S{1,8}?(?:很|挺|比较|有点|有些|太|特别|非常|不太?|蛮|超)?(?:远|近)"
    # (how far said as how long: "…，离公司走路十分钟", "…，离地铁站就五分钟")
    r"|离\S{1,8}?(?:走路|步行|开车|骑车|坐地铁|坐公交|坐车|打车)?(?:大概|大约|差不多|要|得|需要|只要|就|才|也就)?"
    r"[一二两三四五六七八九十半几\d]+(?:个)?多?(?:分钟|小时|钟头|公里|站|里路?)"
    r"|(?:路上|附近|周围|周边|楼下|隔壁|当地|本地|门口|交通)"
    r"|还?(?:不太|不怎么|不是很|没|不)(?:熟悉|习惯|适应)(?:呢|啊|了)?$|还在(?:适应|熟悉)"
)


def implied_own_words(clause: str) -> Candidate | None:
    """A Chinese clause with no subject, taken as the user's (Chinese drops "我" freely).

    "腰椎间盘突出好几年了" → "用户腰椎间盘突出好几年了". Not one that starts
    like a request, a question or a remark about something else, or that talks
    to "你"; then the guards of :func:`own_words` apply.
    """
    text = clause.strip()
    # ("…，现在在北京读研", "…，目前住在杭州": where the user is now, said after their past;
    # "现在" otherwise opens a remark on the moment: "现在几点", "现在在下雨")
    now = _ZH_NOW_WHERE.match(text)
    rest = text[now.end() :] if now is not None else text
    if not text or text.startswith("我") or _ZH_NOT_THE_USER.search(rest):
        return None
    if _ZH_DETAIL_OF_BEFORE.match(text):
        return None
    if when_again(text):
        return None
    return own_words("我" + text, zh=True)


def when_again(clause: str) -> bool:
    """Whether a Chinese clause only says when something starts again or for how long
    ("手术后再吃", "等复查完再说", "只是手术前几天", "拔牙前停五天"): no fact of its own."""
    return _ZH_WHEN_AGAIN.search(clause.strip()) is not None


# When something starts again, or how long only: "手术后再吃", "等复查完再说", "只是手术前几天",
# "拔牙前停五天" say of what was said before that it is for a while, no fact of their own.
_ZH_WHEN_AGAIN = re.compile(
    r"(?:再|重新)(?:吃|用|喝|说|开始|看)(?:吧|了|呢)?$"
    # "下周恢复", "恢复服用" (not "还在恢复": getting well)
    r"|(?:下(?:周|个?星期|个?月)|明天|后天|过几天|之后|以后|再)恢复(?:吃|用|服用)?(?:吧|呢)?$"
    r"|恢复(?:吃|用|服用)(?:吧|呢)?$|^(?:只是|就|只)[^，,]{0,12}(?:几天|几周|一阵子?|一段时间)$"
    r"|停[一二两三四五六七八九十几\d]+(?:天|周|个?星期|个?月)$"  # "拔牙前停五天"
)


# "type 1 diabetic, so …", "Left-handed, so …": a description of the user that
# justifies what follows. Not a reply or a remark ("ok, so…", "that's great, so…").
_EN_DESCRIBED_SO = re.compile(
    r"^(?!(?:ok|okay|yes|yeah|yep|no|nope|sure|well|also|anyway|honestly|actually|sorry|great|cool|"
    r"nice|awesome|perfect|right|fine|good|hmm+|oh|ah|so|and|but|then|now|thanks?|please|alright|"
    r"the|this|that|these|those|it|its|there|here|you|your|he|she|they|we|his|her|their|our|"
    r"what|which|who|how|why|when|where|if|today|tomorrow|yesterday|tonight)\b)"
    r"(?P<d>[a-z][\w'()-]*(?:\s+[\w'()-]+){0,5}),\s+so\b",
    _I,
)


def described_before_so(sentence: str) -> Candidate | None:
    """The user's description before ", so" ("type 1 diabetic, so …" → "User: type 1 diabetic")."""
    match = _EN_DESCRIBED_SO.match(sentence.strip())
    if match is None or _EN_PASSING.search(match["d"]) or re.search(r"\b(?:I|me|my)\b", match["d"]):
        return None
    if _never(match["d"]):
        return None
    return Candidate(f"User: {match['d']}", _category(match["d"]), OWN_WORDS_CONFIDENCE)
