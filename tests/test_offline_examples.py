"""Examples after a clause stay with it: "I'm allergic to nuts, like almonds" stored
"User likes almonds", "I avoid seafood, like prawns" a taste for prawns, "我对坚果过敏，像
杏仁" "用户像杏仁", "…，包括虾、蟹和贝类" "用户蟹和贝类", and "I get migraines, usually
after long flights" "User usually afters long flights": the fragment was read with the
user's "I"/"我" put before it. Where the fragment is the user's own ("I'm retired, like
gardening", "I'm busy, rarely cook"), it still is (attacker 102)."""

from __future__ import annotations

import pytest

from deerflow_memory.update.offline.text import candidates_from_text
from tests.test_quality_kinds import facts_after


def _said(text: str) -> list[tuple[str, bool]]:
    return [(c.content, c.constraint) for c in candidates_from_text(text)]


@pytest.mark.parametrize(
    ("sentence", "kept"),
    [
        ("I'm allergic to tree nuts, like pecans and walnuts.", "allergic to tree nuts"),
        ("I can't stand fish, like cod or haddock", "fish"),
        ("I avoid dairy, like milk and butter.", "avoids dairy"),
        ("I'm intolerant to some fruit, like kiwis", "intolerant"),
    ],
)
def test_like_after_a_comma_gives_examples_not_a_taste(sentence: str, kept: str) -> None:
    said = _said(sentence)
    assert not any(" likes " in content for content, _ in said), said
    # the clause is stored, with its examples
    assert any(kept in content for content, _ in said), said


def test_an_allergy_with_examples_stays_a_need_and_names_them() -> None:
    assert _said("I'm allergic to shellfish, like crab and lobster") == [
        ("User is allergic to shellfish, like crab and lobster", True)
    ]


def test_like_joined_by_a_word_is_still_the_verb() -> None:
    assert facts_after("I avoid fried food, and like steamed fish.") == [
        "User avoids fried food",
        "User likes steamed fish",
    ]
    assert facts_after("I skip breakfast, and like a late lunch") == [
        "User skips breakfast",
        "User likes a late lunch",
    ]


@pytest.mark.parametrize(
    "sentence",
    [
        "我对坚果过敏，像核桃和榛子",
        "我对坚果过敏，例如核桃",
        "我不喝酒，比如啤酒和白酒",
        "我喜欢看书，包括历史和小说",
        "我爱运动，诸如羽毛球",
        "我爱吃水果，譬如芒果",
    ],
)
def test_chinese_examples_are_no_statement_of_their_own(sentence: str) -> None:
    said = _said(sentence)
    assert said, sentence
    for content, _ in said:
        assert not content.startswith(
            ("用户像", "用户例如", "用户比如", "用户包括", "用户诸如", "用户譬如")
        ), said


@pytest.mark.parametrize(
    "sentence",
    [
        "我对海鲜过敏，包括虾、蟹和贝类",
        "我有不少爱好，比如钓鱼、下棋和书法",
        "我对坚果过敏，比方说杏仁",
    ],
)
def test_chinese_list_items_after_examples_are_no_statement_either(sentence: str) -> None:
    said = [content for content, _ in _said(sentence)]
    assert len(said) == 1 and said[0].startswith("用户"), said


@pytest.mark.parametrize(
    ("sentence", "first"),
    [
        ("I drink coffee, mostly at the office.", "User drinks coffee"),
        ("I get headaches sometimes, mostly after long flights", "User gets headaches sometimes"),
        ("I listen to podcasts, mainly in the car", "User listens to podcasts"),
        ("I order takeaway a lot, usually Thai food", "User orders takeaway a lot"),
        ("I go climbing, mostly boulders", "User goes climbing"),
        # a word no habit is said with: a noun or an adjective ("User mostly mackerels")
        ("I eat a lot of fish, mostly mackerel", "User eats a lot of fish"),
        ("I drink tea all day, usually white tea", "User drinks tea all day"),
        ("I listen to audiobooks, mostly historical fiction", "User listens to audiobooks"),
        ("I watch anime, mostly shonen", "User watches anime"),
        ("I order in a lot, usually ramen", "User orders in a lot"),
    ],
)
def test_adverbs_before_what_is_surely_no_verb_make_no_habit(sentence: str, first: str) -> None:
    said = [content for content, _ in _said(sentence)]
    assert said and said[0].startswith(first), said
    # no "User mostly ats the office", "User mostly afters long flights", "Thais food"
    assert len(said) == 1, said


@pytest.mark.parametrize(
    ("sentence", "habit"),
    [
        ("I'm a baker, usually work from four in the morning", "User usually works from four"),
        ("I live in Bergen, mostly cycle to work", "User mostly cycles to work"),
        ("I'm retired, often swim in the sea", "User often swims in the sea"),
        ("I'm a night owl, usually study at midnight", "User usually studies at midnight"),
        ("I'm swamped at work, rarely cook", "User rarely cooks"),
        ("I'm a commuter, usually wake up at five", "User usually wakes up at five"),
        ("I'm Jain, mostly won't eat root vegetables", "User mostly will not eat root"),
        ("I'm coeliac, usually can't eat pastry", "User usually cannot eat pastry"),
        ("I'm a student, mostly bake on weekends", "User mostly bakes on weekends"),
        ("I'm in Oslo, often ski after work", "User often skis after work"),
    ],
)
def test_adverbs_before_a_verb_still_tell_a_habit(sentence: str, habit: str) -> None:
    said = [content for content, _ in _said(sentence)]
    assert any(content.startswith(habit) for content in said), said


def test_a_bare_verb_after_an_adverb_is_no_job_and_keeps_the_job_stored() -> None:
    assert facts_after("I'm a pastry chef.", "I'm worn out lately, usually cook") == [
        "User is a pastry chef",
        "User usually cooks",
    ]


@pytest.mark.parametrize(
    ("sentence", "taste"),
    [
        ("I'm a midwife, like to bake on Sundays", "User likes to bake on Sundays"),
        ("I'm retired, like birdwatching", "User likes birdwatching"),
        ("I live in Tromsø, like cross-country skiing", "User likes cross-country skiing"),
        ("I'm from Lima, like ceviche", "User likes ceviche"),
    ],
)
def test_like_after_a_place_a_job_or_like_to_is_the_verb(sentence: str, taste: str) -> None:
    said = [content for content, _ in _said(sentence)]
    assert taste in said and len(said) == 2, said


@pytest.mark.parametrize(
    "sentence",
    [
        "I'm not into team sports, like rugby",
        "I'm not allergic to nuts, like hazelnuts",
        "I'm not a fan of sweets, like fudge and toffee",
    ],
)
def test_examples_after_a_denial_are_no_correction(sentence: str) -> None:
    said = [content for content, _ in _said(sentence)]
    # not "User is like rugby", nor a taste for hazelnuts
    assert not any(" is like " in c or " likes " in c for c in said), said


@pytest.mark.parametrize(
    ("first", "later", "now"),
    [
        ("I hate olives, like the green ones", "I love olives now", ["User loves olives now"]),
        ("I like tea, usually with honey", "I don't like tea anymore", ["User does not like tea"]),
        ("我讨厌海鲜，比如生蚝", "我喜欢海鲜", ["用户喜欢海鲜"]),
    ],
)
def test_a_taste_with_examples_is_superseded_as_the_taste(
    first: str, later: str, now: list[str]
) -> None:
    assert len(facts_after(first)) == 1
    assert facts_after(first, later) == now  # the taste said with examples is replaced


@pytest.mark.parametrize(
    "sentence",
    [
        "I'm allergic to sesame, and sulphites",
        "I'm allergic to sesame, also sulphites",
        "I'm allergic to sesame, plus sulphites",
        "I'm allergic to sesame, and also to sulphites",
        "I'm allergic to sesame, and to sulphites too",
    ],
)
def test_the_last_thing_of_a_need_after_a_joining_word_is_kept(sentence: str) -> None:
    # The thing after ", and" / ", also" / ", plus" was read alone and dropped: the
    # sulphite allergy was lost (attacker 102).
    said = _said(sentence)
    assert len(said) == 1 and said[0][1], said
    assert "sesame" in said[0][0] and "sulphites" in said[0][0]
    # one of them withdrawn leaves the other; both withdrawn end it
    assert facts_after(sentence, "I'm not allergic to sesame anymore") == [
        "User is allergic to sulphites"
    ]
    assert facts_after(sentence, "I'm no longer allergic to sesame or sulphites") == []


def test_the_last_taste_of_a_list_after_an_oxford_comma_is_kept() -> None:
    assert facts_after("I enjoy rowing, fencing, and archery") == [
        "User enjoys rowing, fencing, and archery"
    ]


@pytest.mark.parametrize(
    ("sentence", "kept"),
    [
        ("I'm vegan, and proud of it", ["User is vegan"]),
        ("I'm a welder, and exhausted", ["User is a welder"]),
        ("I like gin, and can you suggest a tonic", ["User likes gin"]),
    ],
)
def test_a_joining_word_before_no_more_of_the_same_joins_nothing(
    sentence: str, kept: list[str]
) -> None:
    assert facts_after(sentence) == kept


@pytest.mark.parametrize(
    ("sentence", "own"),
    [
        ("I'm Hindu, never eat beef", "User never eats beef"),
        ("I'm pregnant, don't drink alcohol", "User does not drink alcohol"),
    ],
)
def test_what_only_a_person_does_after_the_users_clause_is_no_order(
    sentence: str, own: str
) -> None:
    # "I'm Muslim, never eat pork" stored an order to the assistant, no diet (attacker 102)
    said = _said(sentence)
    assert own in [content for content, _ in said], said
    assert not any("instruction" in content for content, _ in said)


def test_an_order_after_the_users_clause_stays_an_order() -> None:
    said = [content for content, _ in _said("I'm Hindu, never suggest beef dishes")]
    # (the faith is read too since the "I'm …" rules know it: test_offline_i_am_described)
    assert said == ["User is Hindu", "User's standing instruction: never suggest beef dishes"]


@pytest.mark.parametrize(
    ("first", "later"),
    [
        ("I drink green tea every evening", "I'm teetotal now, no longer drink"),
        ("I smoke cigars at weddings", "I feel great, no longer smoke"),
    ],
)
def test_no_longer_and_a_verb_with_i_dropped_reads_as_said_in_full(first: str, later: str) -> None:
    # "I'm sober, no longer drink" was read "I'm no longer drink", which withdrew every fact
    # of drinking, the tea too; said in full ("I no longer drink") it withdraws none.
    full = "I no longer " + later.split("no longer ")[1]
    kept = facts_after(first)[0]
    assert kept in facts_after(first, later)
    assert (kept in facts_after(first, later)) == (kept in facts_after(first, full))


@pytest.mark.parametrize(
    ("sentence", "need"),
    [
        ("芝麻和芒果，我都过敏", "用户对芝麻和芒果过敏"),
        ("像腰果这类坚果，我都过敏", "用户对腰果这类坚果过敏"),
        ("贝类我也过敏", "用户对贝类过敏"),
    ],
)
def test_what_one_reacts_to_said_first_is_the_need(sentence: str, need: str) -> None:
    # "…，我都过敏" stored "用户对都过敏": the adverb was read as the allergen (attacker 102)
    assert _said(sentence) == [(need, True)]


@pytest.mark.parametrize("sentence", ["我都过敏", "我也过敏", "这些我都过敏"])
def test_an_adverb_or_a_pronoun_is_no_allergen(sentence: str) -> None:
    assert _said(sentence) == []


def test_what_a_habit_usually_is_is_no_habit_of_its_own() -> None:
    # "用户通常是绿茶": "通常是…" after a taste says which, not what the user does
    assert _said("我爱喝酒，通常是红酒") == [("用户爱喝酒，通常是红酒", False)]


@pytest.mark.parametrize(
    "later",
    [
        "I was never allergic to wasps, but now I am",
        "I was never allergic to wasps; it started last spring",
        "I've never been allergic to wasps, it only began after the sting",
    ],
)
def test_a_need_said_never_to_have_held_before_now_is_kept(later: str) -> None:
    # "I was never allergic to X" withdrew the allergy, whatever the sentence said after it
    # (attacker 105): a need goes only when the user says it is over.
    assert "User is allergic to wasps" in facts_after("I'm allergic to wasps", later)


@pytest.mark.parametrize(
    ("sentence", "fact"),
    [
        ("I've never been to Peru", "User has never been to Peru"),
        ("I was never good at chess", "User was never good at chess"),
    ],
)
def test_what_never_was_that_is_no_need_is_still_a_fact(sentence: str, fact: str) -> None:
    assert facts_after(sentence) == [fact]


@pytest.mark.parametrize(
    ("sentence", "said"),
    [
        ("我是护士、住在苏州、喜欢游泳", ["用户是护士", "用户住在苏州", "用户喜欢游泳"]),
        ("我对芒果过敏、不吃羊肉", ["用户对芒果过敏", "用户不吃羊肉"]),
        ("我喜欢下棋、不喜欢跑步", ["用户喜欢下棋", "用户不喜欢跑步"]),
    ],
)
def test_statements_joined_by_the_list_comma_are_each_read(sentence: str, said: list[str]) -> None:
    # "、" between the user's own statements: only items of a list are no statement (attacker 103)
    assert [content for content, _ in _said(sentence)] == said


@pytest.mark.parametrize(
    ("sentence", "taste"),
    [
        ("I'm an accountant, really like spreadsheets", "User really likes spreadsheets"),
        ("I don't eat veal, like lamb a lot", "User likes lamb a lot"),
        ("I'm vegan, like tempeh instead", "User likes tempeh instead"),
    ],
)
def test_like_with_an_adverb_or_saying_more_is_a_taste(sentence: str, taste: str) -> None:
    assert taste in [content for content, _ in _said(sentence)]


@pytest.mark.parametrize(
    ("sentence", "own"),
    [
        ("我有药物过敏，比如对阿司匹林过敏", "用户对阿司匹林过敏"),
        ("我有点挑食，比如不吃芹菜", "用户不吃芹菜"),
    ],
)
def test_a_chinese_example_that_is_a_statement_is_read(sentence: str, own: str) -> None:
    assert own in [content for content, _ in _said(sentence)]


def test_not_x_more_like_a_y_corrects_x() -> None:
    assert facts_after("I'm a plumber", "I'm not a plumber, more like a handyman") == [
        "User is a handyman"
    ]


@pytest.mark.parametrize(
    ("first", "later", "now"),
    [
        (
            "I love cheese, especially brie",
            "I love cheese, especially feta these days",
            ["User loves cheese, especially brie", "User loves cheese, especially feta these days"],
        ),
        (
            "I love cheese",
            "I love cheese, mostly goat's cheese",
            ["User loves cheese", "User loves cheese, mostly goat's cheese"],
        ),
        ("I love cheese, especially brie", "I love cheese", ["User loves cheese, especially brie"]),
        ("I love cheese, especially brie", "I hate cheese now", ["User hates cheese now"]),
    ],
)
def test_a_taste_said_again_with_other_examples_stands_beside_it(
    first: str, later: str, now: list[str]
) -> None:
    # One taste slot for "cheese, especially brie" and "cheese" dropped the second as already
    # known (attacker 103); replacing the first lost what it said besides (attacker 105).
    assert facts_after(first, later) == now


@pytest.mark.parametrize(
    ("sentence", "kept"),
    [
        ("I'm allergic to mould, and dogs are fine", "User is allergic to mould"),
        (
            "I'm allergic to aspirin, and also remind me to book a checkup",
            "User is allergic to aspirin",
        ),
        ("我对芒果过敏，还有我女儿对猫过敏", "用户对芒果过敏"),
    ],
)
def test_a_clause_after_a_joining_word_is_no_item_of_the_need(sentence: str, kept: str) -> None:
    said = facts_after(sentence)
    assert said[0] == kept, said
    assert not any(("dogs are fine" in f or "remind" in f or "女儿" in f) for f in said), said


@pytest.mark.parametrize(
    ("sentence", "order"),
    [
        ("I'm a lawyer, always get to the point", "always get to the point"),
        ("I'm an early riser, never wake me with alarms", "never wake me with alarms"),
        ("I'm Jain, never get me recipes with onions", "never get me recipes with onions"),
    ],
)
def test_an_order_to_the_assistant_after_the_users_clause_stays_an_order(
    sentence: str, order: str
) -> None:
    assert f"User's standing instruction: {order}" in facts_after(sentence)


@pytest.mark.parametrize(
    ("sentence", "taste"),
    [
        ("I hate horses, like donkeys though", "User likes donkeys"),
        ("I avoid fizzy drinks, like iced tea instead", "User likes iced tea instead"),
        ("I swim every morning, like the cold water", "User likes the cold water"),
    ],
)
def test_like_said_against_the_clause_or_after_a_habit_is_a_taste(
    sentence: str, taste: str
) -> None:
    said = facts_after(sentence)
    assert taste in said and not any(", like" in f for f in said), said


def test_examples_after_a_chinese_habit_given_up_are_no_habit() -> None:
    # "我改掉了一些坏习惯，比如每天喝可乐" stored "用户每天喝可乐" (attacker 105)
    assert not any("每天喝奶茶" in f for f in facts_after("我改掉了几个坏习惯，比如每天喝奶茶"))


@pytest.mark.parametrize(
    "sentence",
    ["是的，我也过敏", "医生说我也过敏", "以前我也过敏", "可能我也过敏", "除了芒果我都过敏"],
)
def test_no_answer_time_hedge_or_report_is_an_allergen(sentence: str) -> None:
    assert facts_after(sentence) == []


@pytest.mark.parametrize(
    ("sentence", "need", "one_withdrawn", "left"),
    [
        (
            "我对芝麻、芒果和菠萝过敏",
            "用户对芝麻、芒果和菠萝过敏",
            "我对芝麻不过敏了",
            ["用户对芒果过敏", "用户对菠萝过敏"],
        ),
        (
            "我对猫、狗、花粉过敏",
            "用户对猫、狗、花粉过敏",
            "我对猫不过敏了",
            ["用户对狗过敏", "用户对花粉过敏"],
        ),
    ],
)
def test_a_chinese_need_listed_with_the_list_comma_keeps_every_thing(
    sentence: str, need: str, one_withdrawn: str, left: list[str]
) -> None:
    # "我对花生、虾和芒果过敏" stored "用户对虾和芒果过敏": peanuts were lost (attacker 105)
    assert facts_after(sentence) == [need]
    # one of them withdrawn leaves the others, each said alone
    assert facts_after(sentence, one_withdrawn) == left


def test_the_list_comma_between_a_need_and_a_symptom_keeps_both() -> None:
    assert facts_after("我对芒果过敏、失眠好几年了") == ["用户对芒果过敏", "用户失眠好几年了"]


@pytest.mark.parametrize(
    ("first", "later"),
    [
        ("I drink green tea every evening", "I'm pregnant, no longer drink green tea"),
        ("I eat red meat", "I no longer eat red meat"),
    ],
)
def test_a_habit_no_longer_kept_is_withdrawn(first: str, later: str) -> None:
    assert facts_after(first)[0] not in facts_after(first, later)


@pytest.mark.parametrize(
    ("sentence", "fact"),
    [
        (
            "My allergies are kiwi, sesame, and latex.",
            "User's allergies are kiwi, sesame, and latex",
        ),
        ("我对芒果、腰果，还有花粉过敏。", "用户对芒果、腰果，还有花粉过敏"),
        ("我的过敏原是芝麻、菠萝和尘螨。", "用户的过敏原是芝麻、菠萝和尘螨"),
    ],
)
def test_every_item_of_a_listed_need_is_kept(sentence: str, fact: str) -> None:
    # newcomer 56: the last item after ", and", the items before "，还有", and the items after
    # "、" of a statement no rule reads were each lost (or stored as "用户菠萝和尘螨")
    assert facts_after(sentence) == [fact]


@pytest.mark.parametrize(
    ("sentence", "need"),
    [
        (
            "I'm allergic to molluscs, like clams and mussels too",
            "molluscs, like clams and mussels",
        ),
        ("I don't eat beef, like steak or burgers though", "beef, like steak or burgers"),
    ],
)
def test_examples_of_a_need_said_with_too_or_though_are_no_taste(sentence: str, need: str) -> None:
    # attacker 107: ", like X too/though" after a need stored "User likes clams and mussels"
    said = facts_after(sentence)
    assert len(said) == 1 and need in said[0] and " likes " not in said[0], said


@pytest.mark.parametrize(
    "sentence",
    [
        "我对这个安排很满意、对花粉过敏",
        "我对工作很上心、对芒果过敏",
        "我觉得你说得对、我对花生过敏",
    ],
)
def test_a_chinese_clause_after_the_list_comma_is_no_item_of_a_need(sentence: str) -> None:
    # any "对" was read as an open need: the allergy was lost or glued (attacker 107)
    said = facts_after(sentence)
    assert any(f in ("用户对花粉过敏", "用户对芒果过敏", "用户对花生过敏") for f in said), said


def test_examples_after_things_of_a_kind_are_no_taste() -> None:
    assert not any("likes" in f for f in facts_after("I take a few meds, like lisinopril"))


@pytest.mark.parametrize(
    ("sentence", "need"),
    [("真菌我也过敏", "用户对真菌过敏"), ("好多坚果我都过敏", "用户对好多坚果过敏")],
)
def test_a_topic_that_only_starts_like_an_answer_is_still_the_allergen(
    sentence: str, need: str
) -> None:
    assert facts_after(sentence) == [need]


def test_withdrawing_one_example_of_a_need_keeps_the_need() -> None:
    # "allergic to nuts, like almonds" then "not allergic to almonds anymore" removed it all
    first = "I'm allergic to tree nuts, like pecans"
    assert facts_after(first, "I'm not allergic to pecans anymore") == facts_after(first)


@pytest.mark.parametrize(
    ("sentence", "need"),
    [
        ("我从小就对芝麻、芒果过敏", "用户对芝麻、芒果过敏"),
        ("本人对花粉、尘螨过敏", "用户对花粉、尘螨过敏"),
        ("我对真菌、霉菌过敏", "用户对真菌、霉菌过敏"),
        ("我对芝麻、对芒果过敏", "用户对芝麻、对芒果过敏"),
    ],
)
def test_a_chinese_need_list_opens_after_any_short_lead(sentence: str, need: str) -> None:
    # attacker 108: only "我" + a few adverbs + "对" opened a list, so the first item was lost
    assert facts_after(sentence) == [need]


@pytest.mark.parametrize("sentence", ["没想到我也过敏", "好巧，我也过敏", "真倒霉，我也过敏"])
def test_a_lead_in_is_no_allergen(sentence: str) -> None:
    assert facts_after(sentence) == []


@pytest.mark.parametrize(
    ("first", "later", "kept"),
    [
        ("I'm allergic to shellfish, like shrimp", "I'm not allergic to shellfish anymore", False),
        ("I'm allergic to tree nuts, like pecans", "I'm no longer allergic to tree nuts", False),
        ("I'm allergic to fish, especially salmon", "I'm not allergic to salmon anymore", True),
    ],
)
def test_a_need_with_examples_is_withdrawn_by_its_thing_not_by_an_example(
    first: str, later: str, kept: bool
) -> None:
    # attacker 108: examples counted as things of their own, so naming the need kept it
    assert (facts_after(first)[0] in facts_after(first, later)) is kept


@pytest.mark.parametrize(
    "sentence",
    [
        "I'm allergic to molluscs, like clams and mussels too, so check the menu",
        "I don't eat beef, like steak though, not even on holiday",
    ],
)
def test_examples_of_a_need_are_no_taste_wherever_the_sentence_ends(sentence: str) -> None:
    # the need check stood at the sentence's end alone: with more after it, "too" and
    # "though" made "User likes clams and mussels" (review of this stop)
    assert not any(" likes " in f for f in facts_after(sentence)), facts_after(sentence)


@pytest.mark.parametrize(
    ("sentence", "need"),
    [
        ("我对菠萝，芝麻和花粉过敏", "用户对菠萝，芝麻和花粉过敏"),
        ("我对菠萝，芝麻，还有花粉过敏", "用户对菠萝，芝麻，还有花粉过敏"),
        ("我对蜂蜜，牛奶过敏", "用户对蜂蜜，牛奶过敏"),
    ],
)
def test_a_chinese_need_listed_with_plain_commas_keeps_every_thing(
    sentence: str, need: str
) -> None:
    # newcomer 57: "我对芒果，花生和牛奶过敏" stored "用户对花生和牛奶过敏" (mango lost)
    assert facts_after(sentence) == [need]


@pytest.mark.parametrize(
    "sentence",
    [
        "I'm allergic to tree nuts, like pecans and more, so check the label.",
        "I've been allergic to tree nuts since I was ten, like pecans.",
        "I've been allergic to tree nuts for years, like pecans though.",
    ],
)
def test_examples_of_any_need_are_no_taste(sentence: str) -> None:
    # attacker 109: "and more" said a taste, and a need read as no constraint ("…since
    # childhood") let its examples be one: "User likes pecans"
    assert not any(" likes " in f for f in facts_after(sentence)), facts_after(sentence)


@pytest.mark.parametrize(
    ("sentence", "need"),
    [
        ("我对坚果过敏，比如开心果和碧根果", "用户对坚果过敏，比如开心果和碧根果"),
        ("我对贝类过敏，像扇贝和生蚝", "用户对贝类过敏，像扇贝和生蚝"),
        ("我对坚果过敏，例如夏威夷果、杏仁和松子", "用户对坚果过敏，例如夏威夷果、杏仁和松子"),
    ],
)
def test_a_chinese_need_keeps_its_examples_as_an_english_one_does(sentence: str, need: str) -> None:
    # "我对坚果过敏，比如杏仁和腰果" stored "用户对坚果过敏": which nuts was lost
    assert facts_after(sentence) == [need]
    # the examples alone named withdraw nothing; the need named does
    assert facts_after(sentence, "我对杏仁不过敏了") == [need]
    assert facts_after(sentence, f"我对{need[3:5]}不过敏了") == []


def test_a_thing_added_after_examples_is_no_example_of_its_own() -> None:
    assert facts_after("我对坚果过敏，比如开心果，还有蛤蜊") == [
        "用户对坚果过敏，比如开心果",
        "用户对蛤蜊过敏",
    ]
    assert facts_after("I'm allergic to nuts, like pecans. Clams too.") == [
        "User is allergic to nuts, like pecans",
        "User is allergic to clams",
    ]
