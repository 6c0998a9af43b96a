"""Conditions, medications and accessibility said as a form's fields, and lists of conditions.

Before: "Conditions: asthma", "Medical history:\\n- type 2 diabetes", "Meds: metformin",
"Accessibility: wheelchair user" stored nothing (only allergy and diet fields were read); an
item with the user as its subject under a field was glued into the field ("Allergies:\\n- I'm
allergic to peanuts\\n- I can't eat shellfish" lost the peanuts); "过敏：待查" and "病史：不详"
were stored as facts; "我患有糖尿病、高血压、痛风" kept only the first; "I hate to be picky,
but" was stored as a taste. Sentences are this project's own.
"""

from __future__ import annotations

import re

import pytest

from tests.test_quality_kinds import facts_after


@pytest.mark.parametrize(
    ("said", "stored"),
    [
        ("Conditions: asthma", ["User has asthma"]),
        ("Medical conditions: eczema, hay fever", ["User has eczema and hay fever"]),
        ("Health: migraines", ["User has migraines"]),
        ("Diagnosis: ADHD.", ["User has ADHD"]),
        ("Medications: levothyroxine", ["User takes levothyroxine"]),
        (
            "Current meds: warfarin, atorvastatin 20mg",
            ["User takes warfarin and atorvastatin 20mg"],
        ),
        ("Accessibility: step-free access", ["User's accessibility needs: step-free access"]),
        ("Conditions:\n- gout\n- sleep apnea", ["User has gout and sleep apnea"]),
        ("My medical history:\n- epilepsy", ["User has epilepsy"]),
        ("Medications:\n- insulin\n- lisinopril", ["User takes insulin and lisinopril"]),
        (
            "Allergies:\n- I'm allergic to cashews\n- I can't eat mussels",
            ["User is allergic to cashews", "User cannot eat mussels"],
        ),
        (
            "Health:\n- I have psoriasis\n- I take metformin",
            ["User has psoriasis", "User takes metformin"],
        ),
        ("Allergies:\n- cashews (I think)\n- kiwi", ["User is allergic to cashews, kiwi"]),
        ("Allergies: I react badly to shellfish", ["User reacts badly to shellfish"]),
        ("Medical: I have a pacemaker.", ["User has a pacemaker"]),
        ("I hate to be picky, but I'm allergic to celery.", ["User is allergic to celery"]),
        ("Sorry to be a pain, but I'm pescatarian.", ["User is pescatarian"]),
        ("病史：痛风", ["用户有痛风"]),
        ("既往史：胃溃疡，高血压", ["用户有胃溃疡", "用户有高血压"]),
        ("健康状况：\n- 湿疹\n- 鼻炎", ["用户有湿疹", "用户有鼻炎"]),
        ("过敏史：头孢", ["用户对头孢过敏"]),
        ("我患有胃炎、痛风、高血压。", ["用户患有胃炎", "用户患有痛风", "用户患有高血压"]),
        ("我有鼻炎和湿疹，不能吃辣。", ["用户有鼻炎", "用户有湿疹", "用户不能吃辣"]),
    ],
)
def test_a_health_field_or_list_is_the_users(said: str, stored: list[str]) -> None:
    assert facts_after(said) == stored


@pytest.mark.parametrize(
    "said",
    [
        "Conditions: sunny and windy",
        "Health: good",
        "Meds: later",
        "Medications: none",
        "Weather conditions: icy",
        "Health:\n- walk every day\n- drink more water",
        "My daughter:\nConditions:\n- asthma",
        "I hate to be picky, but:",
        "Sorry to bother you, but could you check again?",
        "过敏：待查",
        "过敏：不确定",
        "过敏史：不清楚",
        "病史：不详",
        "忌口：无",
        "我女儿：\n病史：哮喘",
    ],
)
def test_what_is_no_health_field_of_the_users_stores_nothing(said: str) -> None:
    assert facts_after(said) == []


def test_a_politeness_is_no_taste_but_a_hate_is() -> None:
    assert facts_after("I hate to be picky, but no onions please.") == []
    assert facts_after("I hate to be late.") == ["User hates to be late"]


def test_a_condition_said_in_a_field_is_withdrawn_like_one_said_in_words() -> None:
    assert facts_after("Conditions: asthma", "I don't have asthma anymore.") == []
    assert facts_after("病史：痛风", "我已经没有痛风了。") == []


@pytest.mark.parametrize("over", ["我已经没有胃炎了。", "我的胃炎已经治好了。"])
def test_a_condition_said_over_in_chinese_is_withdrawn(over: str) -> None:
    # (before, only an allergy was withdrawn so: the condition stayed stored)
    assert facts_after("我有胃炎，对芒果过敏。", over) == ["用户对芒果过敏"]


@pytest.mark.parametrize(
    "said",
    [
        "我没有胃炎。",
        "我儿子的胃炎好了",
        "我的胃炎好像好了？",
        "我的胃炎好了，这次疼了一周",  # a flare that ended (attacker 296)
        "我已经没有胃炎了。怎么可能",  # sarcasm
        "我的胃炎治好了。——开玩笑",
    ],
)
def test_what_says_no_condition_of_the_users_over_withdraws_nothing(said: str) -> None:
    assert facts_after("我有胃炎。", said) == ["用户有胃炎"]


@pytest.mark.parametrize(
    ("said", "stored"),
    [
        ("I'm T2D.", ["User has T2D"]),
        ("Hey, I'm PCOS and need meal ideas.", ["User has PCOS"]),
        ("I'm ADHD.", ["User has ADHD"]),
        ("I'm Jo.", ["User's name is Jo"]),
        ("I'm Mary-Jane.", ["User's name is Mary-Jane"]),
    ],
)
def test_a_condition_said_by_its_short_form_is_no_name(said: str, stored: list[str]) -> None:
    # "I'm T1D" was stored as the user's name
    assert facts_after(said) == stored


# ("I'm GF." is gluten-free: tests/test_offline_diets_said_short.py)
@pytest.mark.parametrize("said", ["I'm R2D2.", "I'm IBS-prone.", "I'm OCD about tidying."])
def test_what_is_no_name_and_no_condition_stores_nothing(said: str) -> None:
    assert facts_after(said) == []


@pytest.mark.parametrize(
    ("said", "stored"),
    [
        ("Allergic: pistachios", ["User is allergic to pistachios"]),
        ("Allergic to: pistachios, figs", ["User is allergic to pistachios, figs"]),
        ("Allergic:\n- pistachios\n- figs", ["User is allergic to pistachios, figs"]),
    ],
)
def test_allergic_as_a_field_label(said: str, stored: list[str]) -> None:
    assert facts_after(said) == stored


@pytest.mark.parametrize(
    ("said", "stored"),
    [
        ("我痛风，不能吃海鲜。", ["用户有痛风", "用户不能吃海鲜"]),
        ("我也高血压", ["用户有高血压"]),
        ("我一直失眠", ["用户有失眠"]),
        ("医生不让我吃糖。", ["用户不能吃糖"]),
        ("医生不许我喝酒", ["用户不能喝酒"]),
        ("医生说不能吃辣。", ["用户不能吃辣"]),
        ("大夫禁止我吃甜食", ["用户不能吃甜食"]),
    ],
)
def test_a_chinese_condition_said_bare_or_a_doctor_forbidding_is_the_users(
    said: str, stored: list[str]
) -> None:
    # "我痛风" (I have gout) and "医生不让我吃糖" (the doctor won't let me eat sugar) were lost
    assert facts_after(said) == stored


@pytest.mark.parametrize(
    "said",
    [
        "我生病了",
        "我看病去了",
        "我有病吧",
        "我妈高血压",
        "我儿子哮喘",
        "我不痛风",
        "医生不让我戒酒",
        "医生不让我少吃盐",
    ],
)
def test_what_is_no_condition_or_need_of_the_users_in_chinese_stores_nothing(said: str) -> None:
    assert facts_after(said) == []


@pytest.mark.parametrize(
    ("said", "stored"),
    [
        ("My doctor won't let me eat sugar.", ["User needs to avoid sugar"]),
        ("My GP says no more alcohol for me.", ["User needs to avoid alcohol"]),
        ("The allergist banned me from shellfish.", ["User needs to avoid shellfish"]),
    ],
)
def test_a_doctor_forbidding_is_the_users(said: str, stored: list[str]) -> None:
    # each was lost, or kept as "User: their doctor won't let them eat sugar"
    assert facts_after(said) == stored


def test_someone_else_forbidding_or_a_doctor_saying_no_to_a_thing_is_no_need() -> None:
    assert not any("avoid" in fact for fact in facts_after("My mom won't let me eat sugar."))
    assert facts_after("My doctor said no to surgery.") == []
    # a diagnosis said without "I" is not read: "Diagnosed with ADHD. My son, that is.",
    # "Diagnosed with a bad case of Mondays" (attacker 298)
    assert facts_after("Diagnosed with ADHD, my son.") == []
    assert facts_after("Diagnosed with a bad case of Mondays.") == []


@pytest.mark.parametrize(
    "said",
    [
        # someone else's conditions, or a pet's, a patient's, a character's (attacker 296)
        "我有个同事得了胃炎和痛风",
        "我有只猫得了肾病和皮肤病",
        "My daughter saw the GP today. Diagnosis: eczema.",
        "Took the dog to the vet.\nDiagnosis: arthritis\nMedications: carprofen",
        "Case study for my pharmacology exam:\nConditions: gout\nMedications: allopurinol",
        "My husband's intake form:\nConditions: asthma",
        "Guest 2:\nAccessibility: wheelchair user",
        # words the endings take in, denials, ratings
        "Conditions: nostalgia",
        "Diagnosis: prognosis",
        "Medications: Stephen",
        "Meds: no meds",
        "Conditions: denies heart disease",
        "Accessibility: great",
        "Accessibility: 92",
        "既往史：否认高血压，糖尿病",
        "病史：无糖尿病，无高血压",
        "病史：懒癌",
        "Allergies: I'm not sure, haven't been tested",
    ],
)
def test_what_is_no_health_need_of_the_users_after_review_stores_nothing(said: str) -> None:
    assert not any(
        word in fact
        for fact in facts_after(said)
        for word in ("has", "takes", "needs", "用户有", "患有", "得了")
    ), facts_after(said)


@pytest.mark.parametrize(
    ("said", "stored"),
    [
        (
            "Allergies:\n- eggs\n- I'm allergic to cashews\n- milk",
            ["User is allergic to eggs, milk", "User is allergic to cashews"],
        ),
        (
            "Allergies:\n- peanuts, I carry an EpiPen\n- shellfish",
            ["User is allergic to peanuts, shellfish", "User carries an EpiPen"],
        ),
        ("过敏：\n- 花生，我吃了会起疹子\n- 芒果", ["用户对花生、芒果过敏"]),
        ("过敏：\n- 我对花生过敏\n- 芒果", ["用户对芒果过敏", "用户对花生过敏"]),
        ("Medications: warfarin, heparin", ["User takes warfarin and heparin"]),
        ("Mobility: uses a cane", ["User's accessibility needs: uses a cane"]),
    ],
)
def test_a_field_keeps_its_answers_beside_the_users_own_lines(said: str, stored: list[str]) -> None:
    assert facts_after(said) == stored


@pytest.mark.timeout(60)
def test_a_long_chinese_run_of_conditions_is_read_in_linear_time() -> None:
    # "我有胃炎和" x 10,000 took 38 s (attacker 296); a guard, not a timing. The run says no
    # condition of its own (it is one garbled clause), and nothing of it is stored.
    assert facts_after("我有胃炎和" * 10_000 + "胃炎的") == []


@pytest.mark.parametrize(
    "said", ["我有个朋友有胃炎、痛风", "我得了解一下胃炎和痛风", "我有点担心胃炎和痛风"]
)
def test_a_chinese_list_of_conditions_not_of_the_user_gives_none_apart(said: str) -> None:
    # "用户有痛风" was stored apart (attacker 296); the sentence as said may stay
    assert not {"用户有痛风", "用户得了痛风"} & set(facts_after(said))


@pytest.mark.parametrize(
    ("said", "stored"),
    [
        # a bare list of conditions by name (attacker 298: only the first was kept)
        ("我高血压、糖尿病", ["用户有高血压", "用户有糖尿病"]),
        ("我一直痛风、高血脂，不能吃海鲜", ["用户有痛风", "用户有高血脂", "用户不能吃海鲜"]),
        ("我有胃炎、痛风和过敏性鼻炎", ["用户有胃炎", "用户有痛风", "用户有过敏性鼻炎"]),
        ("我有高血压和心脏病", ["用户有高血压", "用户有心脏病"]),
        # a remark that says it is over leaves no answer
        ("Allergies:\n- cashews, I outgrew it\n- kiwi", ["User is allergic to kiwi"]),
        ("过敏：\n- 腰果，我已经不过敏了\n- 芒果", ["用户对芒果过敏"]),
        # names that look like short forms are names
        ("I'm Gad.", ["User's name is Gad"]),
        ("I'm Pots.", ["User's name is Pots"]),
    ],
)
def test_round_two_readings(said: str, stored: list[str]) -> None:
    assert facts_after(said) == stored


@pytest.mark.parametrize(
    "said",
    [
        # not the user's statement, or no condition by name (attacker 298)
        "他以为我有胃炎、痛风、高血压",
        "我没说我有胃炎、痛风",
        "我以为我高血压",
        "我猜高血压",
        "我昨晚失眠",
        "我猫肾病",
        "我尴尬癌",
        "病史：直男癌",
        # a label before no statement of a need
        "Allergies: I have none",
        "Medications: I take nothing",
        "Allergies: I have to check with my mum",
        "Accessibility: wheelchair accessible",
    ],
)
def test_round_two_no_condition_of_the_users(said: str) -> None:
    assert not any(
        fact.startswith(("用户有", "User has", "User takes", "User's accessibility"))
        for fact in facts_after(said)
    ), facts_after(said)


@pytest.mark.parametrize("later", ["我已经没有胃炎了。才怪"])
def test_a_sarcastic_over_withdraws_nothing(later: str) -> None:
    assert facts_after("我有胃炎。", later) == ["用户有胃炎"]


@pytest.mark.parametrize(
    ("said", "stored"),
    [
        (
            "Allergies: hazelnuts, I carry an EpiPen",
            ["User is allergic to hazelnuts"],
        ),
        ("Allergies: amoxicillin, I think", ["User is allergic to amoxicillin"]),
        (
            "Allergies:\n- hazelnuts, I carry my EpiPen\n- kiwi",  # "my" is no one else here
            ["User is allergic to hazelnuts, kiwi", "User carries their EpiPen"],
        ),
        ("Allergies: sulfa drugs, I was told as a kid", ["User is allergic to sulfa drugs"]),
    ],
)
def test_a_field_answered_on_one_line_with_a_remark_keeps_the_answer(
    said: str, stored: list[str]
) -> None:
    # the remark was all that was kept (attacker 298; the same on one line as in a list)
    assert facts_after(said) == stored


@pytest.mark.parametrize(
    ("said", "stored"),
    [
        # a flare again is no taking back of a need (attacker 299: "又复发了" dropped it)
        ("我有湿疹，又复发了", ["用户有湿疹"]),
        ("我对芒果过敏，可是又复发了", ["用户对芒果过敏"]),
        # 过敏性 before a condition said bare reads as said (it was lost)
        ("我过敏性鼻炎", ["用户过敏性鼻炎"]),
        # a remark is over only when it says just that
        (
            "Allergies:\n- cashews; I haven't outgrown it\n- kiwi",
            ["User is allergic to cashews, kiwi"],
        ),
        (
            "过敏：\n- 腰果，我以为不过敏了，结果又起疹子\n- 芒果",
            ["用户对腰果、芒果过敏", "用户结果又起疹子"],
        ),
        ("Allergies: cashews, kiwi, I outgrew the kiwi", ["User is allergic to cashews, kiwi"]),
        # a one-line remark is no part of the need (it was glued in: "…, they're, not sure…")
        ("Allergies: tree nuts, I'm not sure about sesame", ["User is allergic to tree nuts"]),
        # an opener before a bare list
        ("不过我胃炎、痛风", ["用户有胃炎", "用户有痛风"]),
    ],
)
def test_round_three_readings(said: str, stored: list[str]) -> None:
    assert facts_after(said) == stored


@pytest.mark.parametrize(
    ("said", "stored"),
    [
        # a condition known by its name but no ending (癫痫, 乳糜泻) cut a list (attacker 301)
        ("病史：痛风、癫痫、银屑病", ["用户有痛风", "用户有癫痫", "用户有银屑病"]),
        ("我有癫痫、哮喘", ["用户有癫痫", "用户有哮喘"]),
        ("我有痛风、乳糜泻", ["用户有痛风", "用户有乳糜泻"]),
    ],
)
def test_a_list_of_conditions_by_name_or_ending_keeps_each(said: str, stored: list[str]) -> None:
    assert facts_after(said) == stored


@pytest.mark.parametrize(
    ("said", "stored"),
    [
        # a field with one item the vocabulary lacked kept nothing ("Conditions: gout, migraine")
        ("Conditions: gout, migraine", ["User has gout and migraine"]),
        (
            "Medical history: tinnitus, Crohn's, Hashimoto's",
            ["User has tinnitus, Crohn's and Hashimoto's"],
        ),
        (
            "Current meds: metformin, ramipril, fish oil",
            ["User takes metformin, ramipril and fish oil"],
        ),
        # blank lines between a field's items ended the field after its first item
        ("Conditions:\n\n- coeliac\n\n- vertigo", ["User has coeliac and vertigo"]),
        (
            "Allergies:\n- kiwi\n\n- latex\n\n\n- sesame",
            ["User is allergic to kiwi, latex, sesame"],
        ),
        ("过敏：\n1. 芒果\n\n2. 虾", ["用户对芒果、虾过敏"]),
        # …but a blank line and then no item of the list still ends it
        ("Allergies:\n- kiwi\n\nI like rowing.", ["User is allergic to kiwi", "User likes rowing"]),
    ],
)
def test_a_field_knows_more_conditions_and_goes_on_over_blank_lines(
    said: str, stored: list[str]
) -> None:
    assert facts_after(said) == stored


@pytest.mark.parametrize(
    "said",
    [
        "Conditions: humid, asthma",  # an item no condition: no form
        "Meds: later, warfarin",
        # an item that says the others are over, unsure or someone else's (attacker 302: they
        # were stored as the user's when most items were known)
        "Conditions: asthma, eczema, outgrown",
        "Conditions: vertigo, gout, ruled out",
        "Medications: insulin, metformin, avoid",
        "Medications: ibuprofen, naproxen, discontinued",
        "Conditions: gout, migraine, Nana's",
        "Medical history: gout, angina, maternal",
        # someone of the user's named as family say it, or cared for
        "My nan moves in on Sunday. Conditions: dementia, angina.",
        "I look after my grandad. Conditions: Parkinson's.",
        # kin said bare with a capital, or someone cared for by title (attacker 305)
        "Gran is coming to stay.\nConditions: dementia",
        "Nana's meds list:\nMedication: warfarin",
    ],
)
def test_a_field_with_an_item_that_is_no_need_of_the_users_stores_no_condition(
    said: str,
) -> None:
    assert not [fact for fact in facts_after(said) if fact.startswith(("User has", "User takes"))]


@pytest.mark.parametrize(
    ("said", "stored"),
    [
        # a list after a blank line is no answer of the field before it: the field keeps its
        # answers (attacker 302: it was merged in and the need lost, or nonsense stored)
        (
            "Allergies:\n- hazelnuts\n- figs\n\n- plan me a picnic\n- nothing spicy",
            ["User is allergic to hazelnuts, figs"],
        ),
        ("Allergies:\n- hazelnuts\n\n- tacos\n- ramen\n- curry", ["User is allergic to hazelnuts"]),
        ("Diet:\n- vegan\n\n- lunch for 8 people\n- under $40", ["User is vegan"]),
        ("Allergies:\n- kiwi\n\n- my brother is allergic to eggs", ["User is allergic to kiwi"]),
        ("Medications:\n- insulin\n\n- metformin (stopped in May)", ["User takes insulin"]),
        ("Allergies:\n- hazelnuts\n\n- Thanks", ["User is allergic to hazelnuts"]),
        ("Allergies:\n- hazelnuts\n- figs\n\n- latex", ["User is allergic to hazelnuts, figs"]),
        ("过敏：\n- 花生\n\n- 周三\n- 周四", ["用户对花生过敏"]),
    ],
)
def test_a_list_after_a_blank_line_is_no_answer_of_the_field(said: str, stored: list[str]) -> None:
    assert facts_after(said) == stored


@pytest.mark.parametrize(
    ("told", "over"),
    [
        ("我患有痛风。", "我已经没有痛风了。"),  # 用户患有痛风 stayed (only 用户有… was matched)
        ("我患有银屑病。", "我的银屑病治好了。"),
        ("我得了胃炎。", "我已经没有胃炎了。"),
    ],
)
def test_a_condition_stored_as_suffered_is_withdrawn_too(told: str, over: str) -> None:
    assert facts_after(told) != []
    assert facts_after(told, over) == []


def test_withdrawing_one_suffered_condition_keeps_the_others() -> None:
    assert facts_after("我患有胃炎和痛风。", "我的胃炎治好了。") == ["用户患有痛风"]
    assert facts_after("我患有痛风。", "我已经没有胃炎了。") == ["用户患有痛风"]


@pytest.mark.parametrize(
    ("said", "need"),
    [
        # an allergy or diet field after a sentence that heads someone else's record was
        # stored as the user's need
        ("My nephew's camp form.\nAllergies:\n- walnuts\n- kiwi", "walnuts"),
        ("Here are my wife's details.\nDiet: halal", "halal"),
        ("My daughter's school registration. Allergies: sesame.", "sesame"),
        ("我女儿的入园登记。过敏：芒果", "芒果"),
        ("我老公的体检单。\n过敏：\n- 青霉素\n- 海鲜", "青霉素"),
        ("帮我妈妈填个表。过敏：花生", "花生"),
        # said as for them alone (attacker 305: stored as the user's)
        ("Booking for my husband.\nAllergies: shellfish", "shellfish"),
        ("This is for my dad.\nAllergies: penicillin", "penicillin"),
        ("Registering my son for nursery.\nAllergies: eggs", "eggs"),
        ("My daughter starts school. Here's her form.\nAllergies: eggs", "eggs"),
        ("My son Tom's intake form.\nAllergies: peanuts", "peanuts"),
        ("帮我儿子报名夏令营。\n过敏：花生", "花生"),
    ],
)
def test_a_need_field_under_someone_elses_record_is_theirs(said: str, need: str) -> None:
    assert not [fact for fact in facts_after(said) if need in fact]
    # …while the same field without the heading is the user's (so this test cannot pass by
    # the field not being read at all)
    field = said[re.search("Allergies|Diet|过敏", said).start() :]  # type: ignore[union-attr]
    assert [fact for fact in facts_after(field) if need in fact]


@pytest.mark.parametrize(
    ("said", "stored"),
    [
        # the user's own field beside someone named as company, a referrer or a modifier: a
        # need kept is the safer error (attacker 303: they were lost when anyone was named)
        ("My sister and I are both coming. Allergies: sesame.", ["User is allergic to sesame"]),
        ("My colleague recommended this cafe. Allergies: sesame", ["User is allergic to sesame"]),
        ("Booking for 3 incl. my twins. Allergies: sesame.", ["User is allergic to sesame"]),
        (
            "Staying with my parents this week. Please note my diet: vegan",
            ["User is vegan"],
        ),
        ("Allergies: sesame. My daughter has none.", ["User is allergic to sesame"]),
        (
            "Emergency contact: my brother\nAllergies: sulfa drugs",
            ["User is allergic to sulfa drugs"],
        ),
        ("紧急联系人：我姐姐\n过敏：磺胺类药物", ["用户对磺胺类药物过敏"]),
        ("老师好！过敏：芒果", ["用户对芒果过敏"]),  # a greeting, no record of the teacher's
        ("去哥伦比亚玩几天。过敏：花生", ["用户对花生过敏"]),  # 哥 in a place's name
    ],
)
def test_a_need_field_of_the_users_own_stays_hers(said: str, stored: list[str]) -> None:
    assert [fact for fact in facts_after(said) if "过敏" in fact or "User is" in fact] == stored


@pytest.mark.parametrize(
    ("said", "stored"),
    [
        # a title, a place, a job or NaN is no one else (attacker 303: "Mrs", "Gran", "carer"
        # and "nan" ruled the user's conditions out)
        ("Name: Mrs Ada Obi\nConditions: asthma", ["User has asthma"]),
        ("Off to Gran Canaria soon. Conditions: gout", ["User has gout"]),
        (
            "Booking for my husband and me.\nAllergies: shellfish",
            ["User: booking for their husband and them", "User is allergic to shellfish"],
        ),
        ("I work as a carer. Conditions: asthma", ["User works as a carer", "User has asthma"]),
    ],
)
def test_a_title_a_place_or_a_job_is_no_one_else(said: str, stored: list[str]) -> None:
    assert facts_after(said) == stored


@pytest.mark.parametrize(
    ("said", "stored"),
    [
        # one short bullet after a blank line that is no need's thing ends the field, which
        # keeps its answer (attacker 303: "- suggest a menu" voided the field)
        ("Allergies:\n- hazelnuts\n\n- suggest a menu", ["User is allergic to hazelnuts"]),
        ("Allergies:\n- hazelnuts\n\n- lol", ["User is allergic to hazelnuts"]),
        ("Conditions:\n- asthma\n\n- quick lunches", ["User has asthma"]),
        ("过敏：\n- 花生\n\n- 推荐菜谱", ["用户对花生过敏"]),
        # …a need's thing with a word before it, a supplement or a "no" of a diet goes on
        ("Allergies:\n- walnuts\n\n- bee stings", ["User is allergic to walnuts, bee stings"]),
        ("Medications:\n- metformin\n\n- vitamin D", ["User takes metformin and vitamin D"]),
        ("Diet:\n- vegetarian\n\n- no pork", ["User is vegetarian", "User avoids pork"]),
    ],
)
def test_a_bullet_after_a_blank_line_goes_on_only_as_a_need_thing(
    said: str, stored: list[str]
) -> None:
    assert facts_after(said) == stored


@pytest.mark.parametrize(
    ("told", "over", "stored"),
    [
        # one condition or medication of several said over keeps the others (all were kept)
        ("Conditions: asthma, eczema", "I don't have eczema anymore.", ["User has asthma"]),
        ("I have gout and migraines.", "I no longer have gout.", ["User has migraines"]),
        ("I take warfarin and metformin.", "I stopped taking warfarin.", ["User takes metformin"]),
    ],
)
def test_one_need_of_several_said_over_keeps_the_others(
    told: str, over: str, stored: list[str]
) -> None:
    assert facts_after(told, over) == stored


@pytest.mark.parametrize(
    ("told", "later", "kept"),
    [
        # a drug stopped is no allergy over, nor a stop for good (attacker 305: "I'm off X"
        # withdrew an allergy to X, and "…for now", "…back on it Monday" the medication)
        (
            "I'm allergic to penicillin.",
            "I'm off penicillin now.",
            "User is allergic to penicillin",
        ),
        ("I take warfarin.", "I'm off warfarin now, until Tuesday.", "User takes warfarin"),
        ("I take warfarin.", "I'm done with warfarin!", "User takes warfarin"),
        (
            "I have asthma.",
            "My asthma is no longer a problem, thanks to my inhaler.",
            "User has asthma",
        ),
        # "A or B" says neither for sure: not split into "User has asthma"
        ("I have asthma or COPD.", "I don't have COPD anymore.", "User has asthma or COPD"),
    ],
)
def test_what_is_not_plainly_over_keeps_the_need(told: str, later: str, kept: str) -> None:
    assert kept in facts_after(told, later)


@pytest.mark.parametrize(
    ("told", "later", "kept"),
    [
        # an attack or a flare over is no condition over
        ("I have migraines.", "My migraine is gone.", "User has migraines"),
        ("I have eczema.", "My eczema cleared up.", "User has eczema"),
        # what is no medication is said as it was (a statement, not a withdrawal)
        (
            "I take sugar in my tea.",
            "I don't take sugar in my tea anymore.",
            "User does not take sugar in their tea",
        ),
    ],
)
def test_what_is_no_medication_stopped_or_condition_cured_withdraws_nothing(
    told: str, later: str, kept: str
) -> None:
    assert kept in facts_after(told, later)


@pytest.mark.parametrize(
    ("said", "stored"),
    [
        # the user's own after someone else's record (attacker 306: every later field was
        # theirs), a family the user is one of, notes for someone to read
        ("Booking for my husband.\nMy allergies: peanuts", "User is allergic to peanuts"),
        ("Booking for my husband. Me too.\nAllergies: peanuts", "User is allergic to peanuts"),
        ("Booking for my family.\nAllergies: peanuts", "User is allergic to peanuts"),
        ("Notes for my new boss.\nAllergies: peanuts", "User is allergic to peanuts"),
        ("我家人的登记表\n过敏：花生", "用户对花生过敏"),
        # a name, not someone of the user's
        ("Nan Goldin's show was great.\nConditions: asthma", "User has asthma"),
        ("My caregiver's number is 0123.\nConditions: asthma", "User has asthma"),
        # a bullet after a blank line that the field does not take alone ends the field, which
        # keeps its answer (it voided the field: "- daily aspirin", "- controlled diabetes")
        ("Meds:\n- metformin\n\n- daily aspirin", "User takes metformin"),
        ("Conditions:\n- asthma\n\n- controlled diabetes", "User has asthma"),
        ("Allergies:\n- peanuts\n\n- outgrew milk", "User is allergic to peanuts"),
    ],
)
def test_final_review_keeps_the_users_own_needs(said: str, stored: str) -> None:
    facts = facts_after(said)
    assert stored in facts
    assert not [fact for fact in facts if "milk" in fact or "aspirin" in fact]


@pytest.mark.parametrize(
    "over",
    [
        "我没有湿疹了，不过还要继续用药。",
        "我没有湿疹了，医生说还要观察。",
        "我没有湿疹了，过几天可能又会有。",
    ],
)
def test_a_condition_over_for_now_only_withdraws_nothing(over: str) -> None:
    # (attacker 306: 用户患有湿疹 was withdrawn; over for now is no need over)
    assert "用户患有湿疹" in facts_after("我患有湿疹。", over)


@pytest.mark.parametrize(
    ("said", "stored"),
    [
        # a supplement in a list was read as a verb ("User fishes oil and melatonin") or cut
        # the list after it (attacker 306)
        ("Meds: metformin, fish oil, melatonin", ["User takes metformin, fish oil and melatonin"]),
        ("Meds: fish oil, metformin, zinc", ["User takes metformin, fish oil and zinc"]),
        (
            "I take metformin, fish oil and melatonin.",
            ["User takes metformin, fish oil and melatonin"],
        ),
    ],
)
def test_a_supplement_in_a_list_is_no_verb(said: str, stored: list[str]) -> None:
    assert facts_after(said) == stored


@pytest.mark.parametrize(
    ("said", "stored"),
    [
        # a beta-blocker's "-olol" was taken for "lol" and ADD for the verb "add": the whole
        # field was lost (attacker 309)
        ("Meds: metformin, atenolol", ["User takes metformin and atenolol"]),
        ("Medications:\n- propranolol\n- lisinopril", ["User takes propranolol and lisinopril"]),
        ("Conditions: asthma, ADD", ["User has asthma and ADD"]),
    ],
)
def test_a_drug_ending_in_olol_and_add_in_capitals_are_field_items(
    said: str, stored: list[str]
) -> None:
    assert facts_after(said) == stored


@pytest.mark.parametrize("said", ["Conditions: add", "Conditions: asthma, lolitis", "Meds: lol"])
def test_the_verb_add_and_a_lol_stay_no_field_items(said: str) -> None:
    assert facts_after(said) == []
