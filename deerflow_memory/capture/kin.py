"""Words for the people in a user's life: family, partner, friends, work (Chinese and English).

One list for every stage that reads them: the update gate keeps a request that
names one of them after a first person ("给我儿子推荐几本书", "帮我妈找个医生"),
and the offline extractor tells the user's own facts from theirs ("我女儿对花生过敏").
"""

from __future__ import annotations

__all__ = ["KIN_EN", "KIN_EN_CHAT", "KIN_EN_OWNED", "KIN_ZH"]

KIN_ZH = (
    r"妈妈|妈|爸爸|爸|母亲|父亲|老婆|老公|妻子|丈夫|太太|先生|爱人|对象|男朋友|女朋友|男友|女友|儿子|"
    r"女儿|孩子|小孩|宝宝|娃|哥哥|哥|姐姐|姐|弟弟|弟|妹妹|妹|爷爷|奶奶|外公|外婆|姥姥|姥爷|朋友|同事|"
    r"同学|室友|老板|领导|上司|邻居|家人|家里人|亲戚|舅舅|叔叔|阿姨|姑姑|表哥|表姐|表弟|表妹|堂哥|"
    r"堂姐|闺蜜|兄弟|姐妹|父母|爸妈|老师|客户|闺女|媳妇|侄子|侄女|外甥女?|岳父|岳母|丈母娘|婆婆|公公|"
    r"嫂子|姐夫|妹夫"
)
"""A regex alternation (no group) of the words."""

KIN_EN = (
    # step-, half- and in-law kin first, so "my son-in-law" is not read as "my son"
    r"step-?(?:mother|mom|mum|father|dad|parents?|sons?|daughters?|kids?|child(?:ren)?|"
    r"brothers?|sisters?|siblings?)|half-?(?:brothers?|sisters?|siblings?)|"
    r"(?:mothers?|fathers?|parents|sisters?|brothers?|sons?|daughters?)-in-law|in-laws|"
    r"mother|mom|mum|mommy|father|dad|daddy|parents?|wife|husband|spouse|partner|fianc[eé]e?|"
    r"girlfriend|boyfriend|sons?|daughters?|kids?|child|children|bab(?:y|ies)|toddler|"
    r"brothers?|sisters?|siblings?|grandmother|grandma|grandfather|grandpa|grandparents?|"
    r"grand?dad|granny|grand(?:son|daughter|child|kid)s?|aunt|uncle|cousins?|nephew|niece|friends?|roommate|"
    r"colleagues?|coworkers?|boss|neighbou?rs?|family"
)
"""A regex alternation (no group) of the English words, lower case, plurals included."""

KIN_EN_CHAT = (
    r"hubby|hubbie|hubs|wifey|missus|other half|mummy|mama|mam|nana|nanna|gran|kiddos?|"
    r"twins?|bestie|bff|bub|(?-i:bf|gf|MIL|FIL|SIL|BIL|SO|DH|DW|DS|DD)(?![\w-])"
)
"""What chat calls them ("my hubby", "my MIL", "my bf"): people only after "my" or "our".

Anywhere else they are other words ("GF" is gluten-free on a form, "the Twins game",
"Mama Mia"), so they are not in :data:`KIN_EN`; read them through :data:`KIN_EN_OWNED`."""

KIN_EN_OWNED = f"{KIN_EN_CHAT}|{KIN_EN}"
"""The English words to read right after a possessive ("my", "our", "your"): both lists."""
