"""Writes ``bench/data/extractor_table.tsv``: sentences for the offline extractor, by kind.

Hand-written rows plus rows combined from small vocabularies written here
(phrasings × subjects), so that each kind is tried in varied wordings. Columns:
``kind``, ``lang``, ``sentence``, ``expect``: a word the stored fact must
contain, ``retract:X`` for a retraction of X, or ``-`` when nothing may be stored.
Run: ``python bench/make_extractor_table.py`` (deterministic).
"""

from __future__ import annotations

import csv
import itertools
from pathlib import Path

OUT = Path(__file__).resolve().parent / "data" / "extractor_table.tsv"

EN_FOODS = [
    "peanuts",
    "shellfish",
    "sesame",
    "soy",
    "eggs",
    "kiwi",
    "mustard",
    "wheat",
    "walnuts",
    "shrimp",
]
EN_ALLERGY = [
    "I'm allergic to {x}.",
    "I have a severe allergy to {x}.",
    "I'm very allergic to {x}, if that matters.",
    "I have a mild allergy to {x}.",
    "I'm sensitive to {x}.",
    "I have an intolerance to {x}.",
]
EN_DISLIKES = [
    "olives",
    "cilantro",
    "blue cheese",
    "licorice",
    "anchovies",
    "okra",
    "tofu",
    "raisins",
]
EN_PREF = [
    "I strongly dislike {x}.",
    "I strictly avoid {x}.",
    "I have a strong aversion to {x}.",
    "I really can't stand {x}.",
    "I absolutely hate {x}.",
    "I only eat {x} on weekends.",
]
EN_DIETS = [
    ("I'm vegan and avoid animal products.", "vegan"),
    ("I'm lactose intolerant and avoid dairy.", "lactose"),
    ("I'm vegetarian and never eat fish.", "vegetarian"),
    ("I'm celiac and avoid gluten.", "celiac"),
    ("I'm diabetic so I watch my sugar.", "diabetic"),
    ("I follow a low-sodium diet.", "low-sodium"),
    ("I only eat halal meat.", "halal"),
    ("I only drink decaf.", "decaf"),
    ("I'm pescatarian, if you need to know.", "pescatarian"),
    ("I keep a kosher diet.", "kosher"),
    ("I don't eat pork.", "pork"),
    ("I never drink alcohol.", "alcohol"),
    ("I'm on a keto diet.", "keto"),
    ("I'm gluten intolerant.", "gluten"),
]
EN_MEDICAL = [
    ("I use a wheelchair.", "wheelchair"),
    ("I have type 2 diabetes.", "diabetes"),
    ("I'm hard of hearing.", "hearing"),
    ("I have asthma.", "asthma"),
    ("I'm colorblind.", "colorblind"),
    ("I wear hearing aids.", "hearing aids"),
    ("I have epilepsy.", "epilepsy"),
    ("I have high blood pressure.", "blood pressure"),
    ("I rely on a screen reader.", "screen reader"),
    ("I carry an EpiPen.", "epipen"),
]
EN_VOCATIVE = [
    "I get it, {n}.",
    "Thanks, {n}, that helps.",
    "Sure thing, {n}.",
    "I see, {n}, makes sense.",
    "Okay {n}, I'll try that.",
    "I hear you, {n}.",
]
EN_NAMES = ["Jon", "Maria", "Priya", "Tom", "Kenji", "Ada"]
EN_NAME_OK = [("I'm {n}, by the way.", "{n}"), ("My name is {n}.", "{n}"), ("Call me {n}.", "{n}")]
EN_CHITCHAT = [
    "Always good chatting with you.",
    "Always a pleasure.",
    "Never a dull moment with you!",
    "Always nice to hear from you.",
    "Never thought of it that way.",
    "Always happy to help a friend.",
    "Always fun talking to you.",
    "Never been better, thanks.",
]
EN_OTHERS = [
    "My boss always demands weekly reports.",
    "My wife is allergic to cats.",
    "My son hates broccoli.",
    "My roommate never eats breakfast.",
    "My sister lives in Lisbon.",
    "Our neighbour works as a pilot.",
    "I work for a boss who always demands reports.",
    "My dad only eats halal food.",
    "Her brother is vegan.",
    "My colleague always drinks three coffees.",
]
EN_RETRACT = [
    ("I'm no longer vegetarian.", "vegetarian"),
    ("I don't live in Munich anymore.", "munich"),
    ("I'm not vegan anymore.", "vegan"),
    ("I no longer work at Acme.", "acme"),
    ("I'm no longer a student.", "student"),
    ("I don't work for Globex any more.", "globex"),
    ("I no longer live in Oslo.", "oslo"),
    ("I'm no longer married.", "married"),
    ("I no longer own a car.", "car"),
    ("I'm not a smoker anymore.", "smoker"),
]
EN_TASTE_CHANGE = [
    ("I don't like jazz anymore.", "not like jazz"),
    ("I don't enjoy running any more.", "not enjoy running"),
]
EN_CONTEXT = [
    ("I live in Porto.", "Porto"),
    ("I work as a nurse.", "nurse"),
    ("I'm a data engineer at a bank.", "engineer"),
    ("I moved to Denver last year.", "Denver"),
    ("I have two kids.", "two kids"),
    ("I'm learning Korean.", "Korean"),
    ("My goal is to run a marathon.", "marathon"),
    ("I'm planning a trip to Japan.", "Japan"),
    ("I'm from Chile.", "Chile"),
    ("I speak Portuguese and French.", "Portuguese"),
    ("I'm allergic to penicillin, in case that matters.", "penicillin"),
    ("I love hiking, if that helps.", "hiking"),
    ("I prefer window seats, if relevant.", "window"),
    ("I'm a vegetarian, if that's useful.", "vegetarian"),
    ("I usually wake up at 6.", "up at 6"),
    ("I'm married with a daughter.", "married"),
]
EN_NEUTRAL = [
    "What's the weather tomorrow?",
    "Can you summarize this?",
    "How far is the airport?",
    "Book a table for two.",
    "If I were rich, I'd buy a boat.",
    "Thanks!",
    "Tell me a joke.",
    "Is the museum open on Monday?",
]

ZH_FOODS = ["花生", "虾", "芝麻", "大豆", "鸡蛋", "猕猴桃", "芒果", "小麦", "核桃", "海鲜"]
ZH_ALLERGY = [
    "我对{x}过敏。",
    "我对{x}严重过敏。",
    "我对{x}有点过敏，如果这重要的话。",
    "我{x}过敏。",
]
ZH_DISLIKES = ["香菜", "榴莲", "苦瓜", "肥肉", "内脏", "茄子", "葱", "臭豆腐"]
ZH_PREF = [
    "我特别讨厌{x}。",
    "我非常不喜欢{x}。",
    "我受不了{x}。",
    "我从来不吃{x}。",
    "我完全不吃{x}。",
]
ZH_DIETS = [
    ("我是素食者，不吃任何肉。", "素食"),
    ("我乳糖不耐受，不喝牛奶。", "乳糖"),
    ("我只吃清真食品。", "清真"),
    ("我吃素。", "素"),
    ("我不吃猪肉。", "猪肉"),
    ("我从不喝酒。", "喝酒"),
    ("我麸质不耐受。", "麸质"),
    ("我只喝无糖饮料。", "无糖"),
    ("我不能吃辣。", "辣"),
    ("我不吃牛肉。", "牛肉"),
]
ZH_MEDICAL = [
    ("我有糖尿病。", "糖尿病"),
    ("我有高血压。", "高血压"),
    ("我坐轮椅。", "轮椅"),
    ("我戴助听器。", "助听器"),
    ("我有哮喘。", "哮喘"),
    ("我是色盲。", "色盲"),
    ("我患有癫痫。", "癫痫"),
    ("我需要用拐杖。", "拐杖"),
]
ZH_PLACE = [
    "我住的小区叫{p}。",
    "我家小区叫{p}。",
    "我们公司叫{p}。",
    "我老家那个村叫{p}。",
    "我家狗叫{p}。",
    "我们学校叫{p}。",
]
ZH_PLACES = ["阳光花园", "翠苑", "星火科技", "李家村", "旺财", "实验中学"]
ZH_NAME_OK = [
    ("我叫王小明。", "王小明"),
    ("我的名字是李娜。", "李娜"),
    ("叫我小陈就行。", "小陈"),
    ("我姓张。", "张"),
]
ZH_CHITCHAT = [
    "每次都这么麻烦。",
    "以后我也会注意。",
    "每次都很开心。",
    "以后我会多注意的。",
    "下次我请你吃饭。",
    "以后再说吧。",
    "总是麻烦你，不好意思。",
    "每次聊天都很愉快。",
]
ZH_OTHERS = [
    "我老板总是让我加班。",
    "我同事每天都迟到。",
    "我女儿每天都喝牛奶。",
    "我妈妈对花生过敏。",
    "我老公不吃辣。",
    "我朋友住在杭州。",
    "他是素食者。",
    "我哥哥在腾讯工作。",
    "我室友从不吃早饭。",
    "我爸只吃清真食品。",
]
ZH_RETRACT = [
    ("我现在不是素食者了。", "素"),
    ("我已经不住在上海了。", "上海"),
    ("我不再吃素了。", "素"),
    ("我已经不是学生了。", "学生"),
    ("我现在不在北京住了。", "北京"),
    ("我早就不是老师了。", "老师"),
    ("我已经不在腾讯工作了。", "腾讯"),
    ("我不再抽烟了。", "抽烟"),
]
ZH_TASTE_CHANGE = [
    ("我不再喜欢爵士乐了。", "不喜欢爵士乐"),
    ("我现在不再喜欢跑步了。", "不喜欢跑步"),
]
ZH_CONTEXT = [
    ("我住在成都。", "成都"),
    ("我是一名护士。", "护士"),
    ("我在银行工作。", "银行"),
    ("我去年搬到了深圳。", "深圳"),
    ("我有两个孩子。", "两个孩子"),
    ("我在学韩语。", "韩语"),
    ("我的目标是跑完马拉松。", "马拉松"),
    ("我打算明年去日本旅行。", "日本"),
    ("我来自台湾。", "台湾"),
    ("我会说粤语。", "粤语"),
    ("我对青霉素过敏，如果这重要的话。", "青霉素"),
    ("我喜欢爬山，如果有用的话。", "爬山"),
    ("我每天早上六点起床。", "六点"),
    ("我结婚了。", "结婚"),
]
ZH_NEUTRAL = [
    "明天天气怎么样？",
    "帮我总结一下。",
    "机场有多远？",
    "订一张两人桌。",
    "如果我有钱，我就买条船。",
    "谢谢！",
    "讲个笑话。",
    "博物馆周一开门吗？",
]


def rows() -> list[tuple[str, str, str, str]]:
    out: list[tuple[str, str, str, str]] = []
    for template, food in itertools.product(EN_ALLERGY, EN_FOODS):
        out.append(("allergy", "en", template.format(x=food), food))
    for template, item in itertools.product(EN_PREF, EN_DISLIKES):
        out.append(("preference", "en", template.format(x=item), item))
    out += [("diet", "en", s, e) for s, e in EN_DIETS]
    out += [("medical", "en", s, e) for s, e in EN_MEDICAL]
    out += [
        ("vocative", "en", t.format(n=n), "-") for t, n in itertools.product(EN_VOCATIVE, EN_NAMES)
    ]
    out += [
        ("name", "en", t.format(n=n), e.format(n=n))
        for (t, e), n in zip(EN_NAME_OK, EN_NAMES[3:], strict=True)
    ]
    out += [("chitchat", "en", s, "-") for s in EN_CHITCHAT]
    out += [("other_person", "en", s, "-") for s in EN_OTHERS]
    out += [("retraction", "en", s, "retract:" + e) for s, e in EN_RETRACT]
    out += [("retraction", "en", s, e) for s, e in EN_TASTE_CHANGE]
    out += [("context", "en", s, e) for s, e in EN_CONTEXT]
    out += [("neutral", "en", s, "-") for s in EN_NEUTRAL]
    for template, food in itertools.product(ZH_ALLERGY, ZH_FOODS):
        out.append(("allergy", "zh", template.format(x=food), food))
    for template, item in itertools.product(ZH_PREF, ZH_DISLIKES):
        out.append(("preference", "zh", template.format(x=item), item))
    out += [("diet", "zh", s, e) for s, e in ZH_DIETS]
    out += [("medical", "zh", s, e) for s, e in ZH_MEDICAL]
    out += [
        ("place_name", "zh", t.format(p=p), "-") for t, p in itertools.product(ZH_PLACE, ZH_PLACES)
    ]
    out += [("name", "zh", s, e) for s, e in ZH_NAME_OK]
    out += [("chitchat", "zh", s, "-") for s in ZH_CHITCHAT]
    out += [("other_person", "zh", s, "-") for s in ZH_OTHERS]
    out += [("retraction", "zh", s, "retract:" + e) for s, e in ZH_RETRACT]
    out += [("retraction", "zh", s, e) for s, e in ZH_TASTE_CHANGE]
    out += [("context", "zh", s, e) for s, e in ZH_CONTEXT]
    out += [("neutral", "zh", s, "-") for s in ZH_NEUTRAL]
    return out


if __name__ == "__main__":
    table = rows()
    with OUT.open("w", encoding="utf-8", newline="") as f:
        writer = csv.writer(f, delimiter="\t", quoting=csv.QUOTE_NONE, lineterminator="\n")
        writer.writerow(["kind", "lang", "sentence", "expect"])
        writer.writerows(table)
    print(f"{len(table)} rows → {OUT}")
