"""Kinds of needs recognised by wording, and the same words in other senses (attack 17).

Each kind (mobility aids, sensory aids and medical devices, chronic and
neurodevelopmental conditions, medicines and their classes, therapeutic diets)
is tried in English and Chinese, said plainly and beside a job, against
sentences using the same words for something else.
"""

from __future__ import annotations

import pytest

from deerflow_memory.inject.constraints import is_constraint, looks_like_constraint
from deerflow_memory.inject.need_words import ZH_NEEDS, alternation
from deerflow_memory.models import Fact


def _judged(text: str) -> bool:
    verdict = looks_like_constraint(text)
    assert is_constraint(Fact(content=text)) is verdict
    return verdict


@pytest.mark.parametrize(
    "text",
    [
        "Carries a folding cane in her handbag",
        "Shuffles about with a zimmer frame at home",
        "Is using a walker until the hip heals",
        "Gets around on a rollator outdoors",
        "Has a guide dog and needs venues that admit her",
        "Takes his assistance dog everywhere",
        "Drives a powered chair to the shops",
        "Only books step-free hotels",
        "Is an amputee with a prosthetic leg",
        "Works as a sound engineer, using a cane since the stroke",
        "腿不好，平时拄拐",
        "用助步器慢慢走",
        "出门带着导盲犬",
        "装了假肢，走不了远路",
        "在银行上班，自己用手杖",
    ],
)
def test_a_mobility_aid_is_a_need(text: str) -> None:
    assert _judged(text)


@pytest.mark.parametrize(
    "text",
    [
        "Buys raw cane sugar for baking",
        "Hung a candy cane on the tree",
        "Sold her old cane chairs at a car boot sale",
        "Is a keen fell walker",
        "Is reading a biography of Alice Walker",
        "Watched Citizen Kane again",
        "Rides a scooter to the office",
        "Breeds and trains assistance dogs for a living",
        "女儿喜欢吃拐杖糖",
        "在一家做助行器的公司上班",
        "在基地当导盲犬训练员",
        "参加了助行公益活动",
    ],
)
def test_a_cane_walker_or_guide_dog_in_another_sense_is_no_need(text: str) -> None:
    assert not _judged(text)


@pytest.mark.parametrize(
    "text",
    [
        "Got a cochlear implant in 2022",
        "Can't sleep without his CPAP",
        "Checks a glucose monitor before lunch",
        "Uses home oxygen on bad days",
        "Keeps a spare inhaler at work",
        "Reads menus in braille",
        "Is a copywriter, wearing a glucose monitor",
        "右耳装了人工耳蜗",
        "睡觉离不开呼吸机",
        "每天用血糖仪测两次",
        "心脏装了起搏器",
    ],
)
def test_a_sensory_aid_or_medical_device_is_a_need(text: str) -> None:
    assert _judged(text)


@pytest.mark.parametrize(
    "text",
    [
        "Pumped up the bike tyres before the ride",
        "Bought a heart rate monitor for cycling",
        "Designs CPAP masks for a medical startup",
        "Translates braille textbooks for the library",
        "在医院负责呼吸机维护",
        "公司卖血糖仪",
    ],
)
def test_a_pump_monitor_or_device_in_another_sense_is_no_need(text: str) -> None:
    assert not _judged(text)


@pytest.mark.parametrize(
    "text",
    [
        "Has had IBS since university",
        "Flares of ulcerative colitis keep her home some days",
        "Is autistic and dislikes phone calls",
        "Diagnosed with ADHD last year, takes notes for everything",
        "Gets a migraine if he skips meals",
        "Living with fibromyalgia",
        "Has sleep apnoea",
        "Has Crohn's",
        "Has bipolar disorder",
        "Has lupus",
        "Teaches yoga, living with chronic fatigue",
        "Is a doctor treating her own migraines with rest",
        "有多动症，开会容易走神",
        "我是自闭症谱系的",
        "肠易激，吃辣就拉肚子",
        "偏头痛犯了就得躺着",
        "确诊克罗恩病两年了",
        "有类风湿关节炎",
    ],
)
def test_a_chronic_or_neurodevelopmental_condition_is_a_need(text: str) -> None:
    assert _judged(text)


@pytest.mark.parametrize(
    "text",
    [
        "Teaches children with autism to swim",
        "Teaches children with epilepsy to swim",
        "Is a doctor treating patients with asthma",
        "Edits a podcast about migraines",
        "Watched a documentary on dyslexia",
        "Ran a fundraiser for lupus research",
        "Reads Ibsen in Norwegian",
        "Is a Hurricanes fan",
        "研究偏头痛的遗传机制",
        "给自闭症儿童上美术课",
        "关于多动症的科普视频",
    ],
)
def test_a_condition_named_as_a_topic_or_inside_another_word_is_no_need(text: str) -> None:
    assert not _judged(text)


@pytest.mark.parametrize(
    "text",
    [
        "Takes metformin with breakfast",
        "Is on warfarin and skips grapefruit",
        "Started a statin this spring",
        "Can't take ibuprofen",
        "Takes beta-blockers before presentations",
        "Uses antihistamines every summer",
        "Has been on antidepressants for a year",
        "Is a barista on anticoagulants",
        "每天吃降糖药",
        "长期服用他汀",
        "吃着华法林，容易淤青",
        "在吃抗抑郁的药",
    ],
)
def test_a_medicine_or_a_class_of_medicines_is_a_need(text: str) -> None:
    assert _judged(text)


@pytest.mark.parametrize(
    "text",
    [
        "Read a news piece about statins",
        "Saw a news report about insulin prices",
        "Researches anticoagulants at the institute",
        "Covered a metformin study for the paper",
        "在药房卖胰岛素",
        "销售降压药十年了",
        "负责华法林的临床试验",
    ],
)
def test_a_medicine_named_in_news_research_or_trade_is_no_need(text: str) -> None:
    assert not _judged(text)


@pytest.mark.parametrize(
    "text",
    [
        "Has cut FODMAPs since March",
        "Eats a renal diet",
        "Is on a liquid diet after dental work",
        "Keeps the house nut-free",
        "Needs low-potassium meals",
        "Follows a low-residue diet before surgery",
        "医生让吃低脂饮食",
        "现在只能吃流食",
        "低嘌呤饮食，少吃海鲜",
        "按低FODMAP吃饭",
    ],
)
def test_a_therapeutic_diet_is_a_need(text: str) -> None:
    assert _judged(text)


@pytest.mark.parametrize(
    "text",
    [
        "Books low-cost flights",
        "Prefers a low-key birthday",
        "Teaches a cookery class on low-FODMAP meals",
        "Sells sugar-free sweets at the market",
        "给健身餐馆设计低脂菜单",
    ],
)
def test_a_diet_word_for_something_else_is_no_need(text: str) -> None:
    assert not _judged(text)


@pytest.mark.parametrize(
    "text",
    [
        "Is tetraplegic and uses voice control",
        "Was left partly paralysed after the crash",
        "Had a minor stroke in the spring",
        "Walks slowly since her stroke",
        "Has muscular dystrophy",
        "Her dementia is at an early stage",
        "Has coronary artery disease",
        "Gets gastritis from coffee",
        "Keeps an eye on low blood sugar on long hikes",
        "Is breastfeeding her second child",
        "Has an anxiety disorder and avoids crowded bars",
        "Has severe depression this winter",
        "Has schizophrenia, well controlled",
        "Is neurodivergent and hates open-plan offices",
        "下肢瘫痪多年",
        "父亲中风后，自己也查出脑梗",
        "有心绞痛，不能剧烈运动",
        "有双相情感障碍",
        "还在哺乳期",
        "有读写障碍，文件要读给他听",
        "看书要用盲文",
        "住的地方必须有电梯，爬不了楼",
    ],
)
def test_paralysis_stroke_heart_and_mental_health_conditions_are_needs(text: str) -> None:
    assert _judged(text)


@pytest.mark.parametrize(
    "text",
    [
        "Suffers from analysis paralysis at work",
        "The city was paralysed by snow",
        "Had a stroke of genius in the shower",
        "Swims breast stroke on Sundays",
        "Is a little anxious before exams",
        "Translates papers on dementia",
        "服务器昨晚瘫痪了",
        "这家馆子是川中风味",
        "山中风景很美",
        "一脸惊恐地看着屏幕",
        "喜欢看哺乳动物的纪录片",
        "研究读写障碍的早期筛查",
    ],
)
def test_paralysis_stroke_and_mood_words_in_other_senses_are_no_need(text: str) -> None:
    assert not _judged(text)


@pytest.mark.parametrize(
    ("text", "need"),
    [
        ("Takes escitalopram in the morning", True),
        ("Is on methylphenidate twice a day", True),
        ("Injects semaglutide every Sunday", True),
        ("Takes prednisolone during flare-ups", True),
        ("Keeps his meds in a weekly pill box", True),
        ("Writes newsletters about Ozempic prices", False),
        ("Researches lamotrigine at a university lab", False),
        ("Follows a carnivore diet", True),
        ("Has been on a diet since January", True),
        ("Sticks to a vegetable-heavy diet", True),
        ("Eats a varied diet", False),
        ("Drinks diet cola", False),
        ("Built a diet app for a startup", False),
        ("Teaches a class on a keto diet", False),
        ("正在吃生酮餐", True),
        ("低碳水饮食中", True),
        ("低碳出行，每天骑车", False),
    ],
)
def test_named_medicines_and_a_diet_kept_to_are_needs(text: str, need: bool) -> None:
    assert _judged(text) is need


@pytest.mark.parametrize(
    "text",
    [
        "Had a hip replacement in March",
        "Has glaucoma in one eye",
        "Is partially sighted",
        "Needs an accessible toilet at venues",
        "Had a stairlift fitted last winter",
        "Got a white stick from the clinic",
        "Lives with chronic neck pain",
        "Has long Covid",
        "Had a heart attack two years ago",
        "Takes cholesterol pills",
        "Was diagnosed with sarcoidosis",
        "Gets fed through a feeding tube",
        "Charges her cochlear processor every night",
        "做了心脏搭桥",
        "耳背，说话要大声",
        "视力差，字要大",
        "颈椎病犯了",
        "每天吃阿司匹林",
    ],
)
def test_home_access_sight_pain_and_heart_needs_are_needs(text: str) -> None:
    assert _judged(text)


@pytest.mark.parametrize(
    "text",
    [
        "Likes films with a blind detective",
        "Complains about insulin prices",
        "Schedules shifts for the dialysis unit",
        "Bought a cane basket at the market",
        "Hikes with a walker friend from work",
        "Diagnosed the outage in ten minutes",
        "在助听器店当收银员",
        "在药厂做降压药质检",
    ],
)
def test_a_need_word_before_a_character_price_unit_or_shop_is_no_need(text: str) -> None:
    assert not _judged(text)


@pytest.mark.parametrize(
    ("text", "need"),
    [
        ("Gets seasick on ferries", True),
        ("Has sciatica and needs an aisle seat", True),
        ("Hay fever keeps her indoors in June", True),
        ("Has a bad back, so no long drives", True),
        ("Walks with a stick on icy days", True),
        ("Has high cholesterol", True),
        ("坐车容易晕车", True),
        ("有高血脂，少吃油炸", True),
        ("Carries stick insects to school shows", False),
        ("Wrote a guide on back problems for office workers", False),
        ("Chose a seat with a good view of the harbour", False),
    ],
)
def test_everyday_ailments_that_shape_a_plan_are_needs(text: str, need: bool) -> None:
    assert _judged(text) is need


@pytest.mark.parametrize(
    ("text", "need"),
    [
        ("Her cat is diabetic and needs two injections a day", False),
        ("The family dog has a chicken allergy", False),
        ("Their rabbit needs a low-calcium diet", False),
        ("家里的狗得了癫痫", False),
        ("猫咪对鸡肉过敏", False),
        # the user's own need beside a pet's, or after the pet in another clause
        ("Walks the dog despite her bad knees", True),
        ("Her dog has epilepsy and she is allergic to nuts", True),
        ("Has a cat, but is allergic to its fur", True),
        ("Has a guide dog", True),
        ("养了一只狗，自己有哮喘", True),
    ],
)
def test_a_pets_need_is_not_the_users(text: str, need: bool) -> None:
    assert _judged(text) is need


@pytest.mark.parametrize(
    ("text", "need"),
    [
        ("早餐常吃素包子", False),
        ("在一家做助听器的外企做市场", False),
        ("只吃素饺子", True),
        ("平时吃素", True),
    ],
)
def test_a_meatless_dish_or_a_foreign_firm_is_no_need(text: str, need: bool) -> None:
    assert _judged(text) is need


@pytest.mark.parametrize(
    ("text", "need"),
    [
        ("HAS ADHD", True),
        ("has adhd", True),
        ("Uses A Walker", True),
        ("Statistics tutor", False),
        ("Caned the rattan seats", False),
        ("Hurricanes", False),
    ],
)
def test_need_words_match_in_any_case_and_only_as_whole_words(text: str, need: bool) -> None:
    assert _judged(text) is need


def test_a_need_pattern_that_does_not_start_with_a_letter_is_refused() -> None:
    with pytest.raises(ValueError, match="must start with a plain letter"):
        alternation("cane", "(?:sugar )?cane")
    with pytest.raises(ValueError, match="must start with a plain letter"):
        alternation("s?tatin")


# Review 27: need words that are also part of everyday compounds, names or set texts.
@pytest.mark.parametrize(
    ("text", "need"),
    [
        ("Was told by her GP that it is GERD, so she eats early", True),
        ("Chatted with Gerd from accounting about the offsite", False),
        ("Got prescribed antihistamines for the spring", True),
        ("Has to read the prescribed novels for the literature exam", False),
        ("Is on the autistic spectrum and dislikes loud venues", True),
        ("Sits on the spectrum of centrist voters, he says", False),
        ("去年做了心脏搭桥手术", True),
        ("经常给同学搭桥介绍实习机会", False),
        ("奶奶出门要开老年代步车", True),
        ("上班开一辆小代步车", False),
        ("女儿是唐宝宝，需要特别照顾", True),
        ("祖上是唐氏家族的一支", False),
        ("做过回肠造口，出门要带造口袋", True),
        ("这家餐厅靠服务创造口碑", False),
        ("评估后这个项目属于中风险", False),
    ],
)
def test_a_need_word_inside_a_compound_name_or_set_text_is_read_in_its_sense(
    text: str, need: bool
) -> None:
    assert _judged(text) is need


def test_the_engine_finds_chinese_needs_by_their_first_characters() -> None:
    """Every branch of ``ZH_NEEDS`` opens with a plain character (need_words.py).

    Python's engine then tries the pattern only where one of those characters
    stands. A single branch opening with a group, ``(?:结肠|回肠|膀胱|肠)造口``,
    lost that for the whole pattern: every fact without a need, English ones
    most, paid a branch-by-branch search (about 15 µs a fact instead of 0.2 µs,
    on each render of a memory whose constraint cache is empty).
    """
    from re import _compiler, _parser  # type: ignore[attr-defined]

    tree = _parser.parse(ZH_NEEDS.pattern, ZH_NEEDS.flags)
    assert _compiler._get_charset_prefix(tree, ZH_NEEDS.flags) is not None
    # the branches that were one group still find their needs
    for text in ("做过结肠造口", "回肠造口三年了", "有膀胱造口", "肠造口护理中"):
        assert ZH_NEEDS.search(text) is not None
