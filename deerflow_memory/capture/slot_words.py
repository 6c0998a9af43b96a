"""The words and tables :mod:`deerflow_memory.capture.slots` reads values with.

English and Chinese numbers, weekdays, months and relative days; words that
are values of a kind (a file format, a language, a colour, a unit, a size); the labels
and units a count carries ("floor 5", "7 people", 三间); the capitalised words
that are no name; the filler a bare correction carries ("actually", "I
said"); the words that make a reply an addition or a question ("and",
"maybe", "what"). Data only, no behaviour.
"""

from __future__ import annotations

__all__ = [
    "CATEGORIES",
    "CN",
    "CN_DIGITS",
    "DIGITS",
    "EN_ADDING",
    "EN_ASKING",
    "EN_FILLER_WORDS",
    "EN_NUMBERS",
    "EN_ORDINALS",
    "LABELS",
    "MONTHS",
    "NOT_NAMES",
    "NOT_UNITS",
    "RELDAYS",
    "WEEKDAYS",
    "ZH_COLORS",
    "ZH_LANGUAGES",
    "ZH_MERIDIEM",
    "ZH_NOT_SURNAMES",
    "ZH_QUARTERS",
    "ZH_UNITS",
    "ZH_WEEKDAYS",
    "split_words",
]


def split_words(words: str) -> list[str]:
    """The words of ``words`` (lists below are written as one string)."""
    return words.split()


CN_DIGITS = {"零": 0, "〇": 0, "一": 1, "二": 2, "两": 2, "三": 3, "四": 4, "五": 5,
             "六": 6, "七": 7, "八": 8, "九": 9}  # fmt: skip
CN = "零〇一二两三四五六七八九十百"
EN_NUMBERS = {
    w: i
    for i, w in enumerate(
        split_words(
            "zero _ two three four five six seven eight nine ten eleven twelve thirteen fourteen "
            "fifteen sixteen seventeen eighteen nineteen twenty"
        )
    )
    if w != "_"  # "one" is "the blue one" far more often than a count
} | {"thirty": 30, "forty": 40, "fifty": 50, "dozen": 12}
EN_ORDINALS = {
    w: i + 1
    for i, w in enumerate(
        split_words(
            "first second third fourth fifth sixth seventh eighth ninth tenth eleventh twelfth"
        )
    )
}
WEEKDAYS = {
    **{d: i for i, d in enumerate(split_words("monday tuesday wednesday thursday friday"))},
    "saturday": 5, "sunday": 6,
    "tues": 1, "tue": 1, "weds": 2, "thurs": 3, "thur": 3, "thu": 3, "fri": 4,
}  # fmt: skip
MONTHS = {
    m: i + 1
    for i, m in enumerate(
        split_words(
            "january february march april may june july august september october november december"
        )
    )
} | {"jan": 1, "feb": 2, "mar": 3, "apr": 4, "jun": 6, "jul": 7, "aug": 8, "sep": 9, "sept": 9,
     "oct": 10, "nov": 11, "dec": 12}  # fmt: skip
RELDAYS = {"yesterday": -1, "today": 0, "tonight": 0, "tomorrow": 1, "前天": -2, "昨天": -1,
           "今天": 0, "今晚": 0, "明天": 1, "明晚": 1, "后天": 2, "大后天": 3}  # fmt: skip
ZH_WEEKDAYS = {c: i for i, c in enumerate("一二三四五六")} | {"日": 6, "天": 6}
ZH_MERIDIEM = {"上午": "a", "早上": "a", "早晨": "a", "凌晨": "a", "中午": "p",
               "下午": "p", "傍晚": "p", "晚上": "p"}  # fmt: skip
ZH_QUARTERS = {"半": 30, "一刻": 15, "三刻": 45}
ZH_UNITS = {"位": "人", "房": "间", "房间": "间", "个": None}
NOT_UNITS = frozenset(
    split_words(
        "at on in for to and or the a an with is are was it not actually please instead i so but"
    )
)

DIGITS = "0123456789"
# Nouns that label a number put after them: "floor 5", "chapter 6", "version 3.12".
LABELS = frozenset(
    split_words(
        """chapter chapters version floor room page pages step question section table gate platform
        seat row day week level part episode season item option line bus route exit terminal track
        lesson unit grade size flight train answer problem exercise task example message turn"""
    )
)

NOT_NAMES = frozenset(
    split_words(
        """i it its it's that that's this the a an no not yes yep yeah yup nope actually sorry oh ok
        okay hi hey hello thanks thank please wait well so and but or also my your our we you he
        his her their she they here there sure great good nice perfect done booked sent set i've
        i'm i'd we're you're let let's what when where which who why how is are was were do does
        did can could would should will shall may might must just only then now today tomorrow
        tonight yesterday hmm um uh ah dear mr mrs ms dr mister miss sir madam as if for to in on
        at of with from by about after before all any some every each one two three four five six
        seven eight nine ten"""
    )
)
ZH_NOT_SURNAMES = frozenset("的了是在找和跟给与位个看叫请问这那哪该当把被让去来要有没好新老小女男")

EN_FILLER_WORDS = frozenset(
    split_words(
        """actually no nope not sorry um uh oh wait hmm it it's its is was that's that the a an at
        on for in of by to from it’s that’s are were said told you asked meant wanted need want
        please instead just only sir ma'am people persons person guests guest adults kids children
        rooms room nights night tickets ticket seats seat copies tables edition version chapter
        page floor minutes hours days weeks o'clock one ones as"""
    )
)

# A reply that adds, hedges, thanks or asks restates nothing: "and 7 too", "maybe 7".
EN_ADDING = frozenset(
    split_words(
        """and also too plus another more extra additional or maybe perhaps probably now next
        then thanks thank"""
    )
)
EN_ASKING = frozenset(
    split_words(
        "what how why when where which who whose can could would will should is are do does did"
    )
)

# Values of a kind that are words: a format, a language, a colour, a unit of measure.
# word -> (kind, value); spellings of one value share it ("jpeg" / "jpg").
CATEGORIES: dict[str, tuple[str, str]] = {
    **{w: ("format", w) for w in split_words("pdf docx csv json html png svg gif xml")},
    **{w: ("format", v) for w, v in (("xlsx", "excel"), ("excel", "excel"), ("jpg", "jpg"),
       ("jpeg", "jpg"), ("markdown", "md"), ("md", "md"), ("pptx", "ppt"), ("ppt", "ppt"),
       ("powerpoint", "ppt"), ("yaml", "yaml"), ("yml", "yaml"), ("txt", "txt"))},
    **{w: ("language", w) for w in split_words(
        "english chinese french spanish german japanese korean italian portuguese russian arabic "
        "hindi dutch")},
    "mandarin": ("language", "chinese"),
    **{w: ("code", w) for w in split_words(
        "python java javascript typescript rust ruby php kotlin swift golang scala bash perl")},
    **{w: ("database", w) for w in split_words("mysql sqlite mongodb redis mariadb")},
    "postgres": ("database", "postgres"), "postgresql": ("database", "postgres"),
    **{w: ("length", v) for w, v in (("km", "km"), ("kilometers", "km"), ("kilometres", "km"),
       ("miles", "mi"), ("mile", "mi"), ("meters", "m"), ("metres", "m"), ("feet", "ft"),
       ("ft", "ft"), ("cm", "cm"), ("centimeters", "cm"), ("inches", "in"), ("yards", "yd"))},
    **{w: ("weight", v) for w, v in (("kg", "kg"), ("kilograms", "kg"), ("kilos", "kg"),
       ("pounds", "lb"), ("lbs", "lb"), ("grams", "g"), ("ounces", "oz"), ("oz", "oz"))},
    "celsius": ("temperature", "c"), "fahrenheit": ("temperature", "f"),
    **{w: ("color", w) for w in split_words(
        "red green blue yellow black white grey pink purple orange brown")},
    "gray": ("color", "grey"),
    **{w: ("size", w) for w in split_words("small medium large")},
}  # fmt: skip
ZH_COLORS = {"红": "red", "橙": "orange", "黄": "yellow", "绿": "green", "蓝": "blue",
             "紫": "purple", "黑": "black", "白": "white", "灰": "grey", "粉": "pink",
             "棕": "brown"}  # fmt: skip
ZH_LANGUAGES = {"英": "english", "中": "chinese", "汉": "chinese", "法": "french",
                "德": "german", "日": "japanese", "韩": "korean", "西班牙": "spanish",
                "俄": "russian", "意大利": "italian", "葡萄牙": "portuguese"}  # fmt: skip
