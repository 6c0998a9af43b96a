"""A need's word said of a need that is over is no constraint; one still going on is.

Sentences here are the tests' own (bench/data/constraints_state.tsv holds
other, held-out ones): each kind in English and Chinese, against needs said
beside the same cue words that still hold.
"""

from __future__ import annotations

import pytest

from deerflow_memory.inject.constraints import looks_like_constraint
from tests.test_constraint_vocabulary import _judged


@pytest.mark.parametrize(
    "text",
    [
        "Used to be vegan before moving to Argentina",
        "Was pescatarian through most of her twenties",
        "Is no longer on dialysis since the transplant",
        "Outgrew a milk allergy as a toddler",
        "Came off insulin after losing forty kilos",
        "Stopped taking antidepressants two years ago",
        "Epilepsy was ruled out after the scan",
        "Tested negative for coeliac disease in March",
        "Her migraines went away once she changed jobs",
        "Doesn't need a cane anymore since the knee healed",
        "Was on crutches for the summer, not any more",
        "Had seizures as a teenager but has had none since",
        "小时候有哮喘，后来好了",
        "曾经对青霉素过敏",
        "以前戴过助听器",
        "胃溃疡已经痊愈",
        "抗抑郁药去年就停药了",
        "医生已经排除了癫痫",
        "不再需要用轮椅",
    ],
)
def test_a_need_said_to_be_over_is_no_constraint(text: str) -> None:
    assert not _judged(text)


@pytest.mark.parametrize(
    "text",
    [
        # a refusal is a diet, not the end of one
        "No longer eats beef after a trip to a farm",
        "Stopped drinking alcohol last year",
        "Doesn't eat shellfish anymore",
        # a lost ability is a need
        "Can't tolerate lactose any more",
        "Is no longer able to walk without a cane",
        # a need that goes on or came back
        "Has been diabetic since she was nine",
        "Thought he had outgrown his hay fever allergy, but it came back",
        "Used to manage with tablets, now injects insulin",
        "Was born with spina bifida",
        "Was diagnosed with Crohn's disease last spring",
        "Is recovering from a hip replacement",
        "以前就有高血压，现在还在吃降压药",
        "哮喘好了又复发了",
        "从小对花生过敏",
        # a need beside a past that is not its own
        "Used to live in Lyon and is allergic to cats",
    ],
)
def test_a_need_still_going_on_beside_words_of_the_past_is_a_constraint(text: str) -> None:
    assert _judged(text)


def test_a_need_over_in_one_clause_and_held_in_another_is_a_constraint() -> None:
    assert _judged("Used to be vegetarian; now keeps a strict halal diet")
    assert _judged("以前吃素，现在对海鲜过敏")


def test_a_long_text_of_needs_that_are_over_is_read_in_one_pass() -> None:
    # every need below is over; each clause's cues are found once
    text = "used to be vegan and was on insulin, not any more; " * 3_000
    assert not looks_like_constraint(text)
    assert looks_like_constraint(text + "is allergic to eggs")


# --- a need only wished, planned, suspected or opined ---------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        "Might go vegetarian after watching a farm documentary",
        "Is thinking of trying a low-carb diet before the wedding",
        "Wonders whether he is on the autism spectrum",
        "Suspects she is gluten intolerant but has never been tested",
        "Worries that he could be diabetic like his mother",
        "Would have to use crutches if the ankle surgery goes badly",
        "Plans to get tested for coeliac disease in the spring",
        "Wants to try going sugar-free after the holidays",
        "Is curious whether a halal diet suits her",
        "可能要开始吃降压药了",
        "怀疑自己对猫过敏",
        "打算下个月开始吃素",
        "考虑要不要戒酒",
        "担心以后会得糖尿病",
    ],
)
def test_a_need_only_wished_planned_or_suspected_is_no_constraint(text: str) -> None:
    assert not _judged(text)


@pytest.mark.parametrize(
    "text",
    [
        # a possessive holds the need: it is the user's, whatever the worry
        "Is worried his asthma will flare up on the flight",
        "Plans her meals around her coeliac disease",
        # a reason between: the need is real
        "Might miss Monday calls because of dialysis",
        # the worry is said after the need, in a clause of its own
        "Has epilepsy and may need to rest after a seizure",
        # a dated plan already decided counts
        "Starts on insulin next week",
        "Would rather sit near the exit as a wheelchair user",
        "有哮喘，担心冬天会加重",
        "因为乳糖不耐受，可能会点无乳糖的饮品",
        "担心自己的高血压影响出行",
    ],
)
def test_a_real_need_said_beside_a_worry_or_a_plan_is_a_constraint(text: str) -> None:
    assert _judged(text)


# --- an opinion, news, fiction, charity or a business ---------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        "Thinks the keto diet is a money-making scheme",
        "Believes most lactose intolerance is imagined",
        "Feels that veganism is just a trend",
        "Is sceptical about ADHD diagnoses in adults",
        "Loved a movie about a paraplegic climber",
        "Is reading a story whose heroine is deaf",
        "Heard about a new insulin pump at a dinner party",
        "Made a donation for wheelchairs to a school in Ghana",
        "Owns a vegan food truck",
        "Her brother's company produces hearing aids",
        "认为素食者太挑剔",
        "觉得乳糖不耐受是商家炒作",
        "在拍一部主角是聋人的电影",
        "捐了一台轮椅给社区",
        "开了一家清真饭馆",
    ],
)
def test_a_need_word_in_an_opinion_news_fiction_or_business_is_no_constraint(text: str) -> None:
    assert not _judged(text)


@pytest.mark.parametrize(
    "text",
    [
        # an opinion about one's own need is the need
        "Thinks his lactose intolerance has got milder",
        "Believes her epilepsy is made worse by flashing lights",
        "觉得自己的糖尿病控制得还不错",
        # a business or charity beside a need of the user's own
        "Runs a bakery and is allergic to sesame",
        "Donates to a food bank despite being on a renal diet",
        "开了一家火锅店，本人不吃辣",
        # a need of someone the user cares for counts
        "His daughter is coeliac",
        "Her mother lives with them and uses a walker",
        "女儿对坚果过敏",
    ],
)
def test_an_opinion_about_ones_own_need_or_a_cared_for_persons_need_is_a_constraint(
    text: str,
) -> None:
    assert _judged(text)


@pytest.mark.parametrize(
    "text",
    [
        "Is worried about flying with a wheelchair",
        "Wants to eat only halal food",
        "Would like gluten-free options at the office party",
    ],
)
def test_a_worry_or_a_wish_about_living_with_a_need_is_a_constraint(text: str) -> None:
    assert _judged(text)


def test_a_long_text_of_wishes_and_opinions_is_read_in_one_pass() -> None:
    # every need below is only wished or opined: its cue is found once per clause
    text = "might try a vegan diet someday and thinks keto is a fad; " * 3_000
    assert not looks_like_constraint(text)
    assert looks_like_constraint(text + "is allergic to eggs")


# --- needs worded as a reaction, a pregnancy, nursing, a fast of faith, PTSD/OCD ------------


@pytest.mark.parametrize(
    ("text", "need"),
    [
        ("Broke out in a rash after the shellfish platter", True),
        ("Gets welts from wool jumpers", True),
        ("Reacts severely to ibuprofen", True),
        ("Had a bad skin reaction to the hotel washing powder", True),
        ("Is expecting twins in the autumn", True),
        ("Is nursing her baby through the night", True),
        ("Is fasting every day for Ramadan", True),
        ("Diagnosed OCD makes shared kitchens hard for him", True),
        ("Has post-traumatic stress since the crash", True),
        ("早餐吃全素", True),
        ("吃虾会起红疹", True),
        ("刚怀了二胎", True),
        ("Reacts strongly to criticism of her code", False),
        ("Is expecting a promotion next year", False),
        ("Runs a nursing home in Leeds", False),
        ("Was nursing a sore ego after the match", False),
        ("Visited the Ramadan night market", False),
        ("Reacts calmly to bad news", False),
        ("怀了一肚子委屈", False),
    ],
)
def test_a_reaction_a_pregnancy_nursing_or_a_fast_of_faith_is_a_need(text: str, need: bool) -> None:
    assert _judged(text) is need


@pytest.mark.parametrize(
    ("text", "need"),
    [
        ("Loves a sitcom whose narrator has diabetes", False),
        ("Reads comics where the protagonist has epilepsy", False),
        ("喜欢的小说里主人公有哮喘", False),
        # the user's own need beside a story
        ("Reads detective novels and has epilepsy", True),
        ("爱看小说，自己有哮喘", True),
    ],
)
def test_a_need_of_a_character_in_a_story_is_not_the_users(text: str, need: bool) -> None:
    assert _judged(text) is need
