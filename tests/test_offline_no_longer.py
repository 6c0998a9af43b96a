"""What the user no longer does or is withdraws the stored fact: memory never contradicts it.

Before: "I used to work at Acme" left "User works at Acme"; "I was vegetarian for
years, but not anymore" kept the diet and stored the denial glued to it; "I eat
meat now" left "User is vegetarian" (a constraint shown first on every turn).
"""

from __future__ import annotations

import pytest

from tests.test_quality_kinds import facts_after


@pytest.mark.parametrize(
    ("before", "now", "facts"),
    [
        ("I work at a brewery.", "I used to work at a brewery.", []),
        ("I smoke.", "I used to smoke.", []),
        ("I love heavy metal.", "I used to love heavy metal.", []),
        ("I play the oboe.", "I used to love heavy metal.", ["User plays the oboe"]),
        ("I'm vegetarian.", "I was vegetarian for years, but not anymore.", []),
        ("I'm vegan.", "I'm vegan, but not anymore.", []),
        ("I'm into crypto.", "I was into crypto but not these days.", []),
        # "play" and "plays" are one word to the match (the stem kept "pla" apart)
        ("I play the cello.", "I used to play the cello, but not anymore.", []),
        ("I enjoy sailing.", "I used to enjoy sailing.", []),
    ],
)
def test_what_the_user_no_longer_does_is_withdrawn(before: str, now: str, facts: list[str]) -> None:
    assert facts_after(before, now) == facts


@pytest.mark.parametrize(
    ("before", "now", "facts"),
    [
        ("I'm vegetarian.", "I eat meat now.", ["User eats meat now"]),
        ("I'm vegan.", "I've started eating fish again.", ["User has started eating fish again"]),
        ("我吃素。", "我现在吃肉。", ["用户现在吃肉"]),
        ("我是素食者。", "我又开始吃鱼了。", ["用户又开始吃鱼了"]),
    ],
)
def test_eating_meat_again_ends_the_diet(before: str, now: str, facts: list[str]) -> None:
    assert facts_after(before, now) == facts


@pytest.mark.parametrize(
    ("before", "now"),
    [
        ("I'm vegetarian.", "My daughter eats meat now."),  # someone else's plate
        ("我吃素。", "我女儿现在吃肉了。"),
        ("I'm allergic to kiwi.", "I eat meat now."),  # no diet that meat ends
        ("I love heavy metal.", "I used to think heavy metal was noise."),  # an opinion
        ("I'm vegetarian.", "I used to be vegetarian and I still am."),  # still so
        ("I drink coffee.", "I used to drink coffee, and I still do."),
        ("I live in Berlin.", "I used to live in Berlin and I still do."),
        ("我吃素。", "我以前室友吃素，现在吃肉了。"),  # whose plate is unclear
    ],
)
def test_what_does_not_end_a_fact_keeps_it(before: str, now: str) -> None:
    assert facts_after(before, now)[0] == facts_after(before)[0]


def test_still_about_something_else_keeps_the_retraction() -> None:
    # "still" of another thing: the diet still goes
    assert facts_after("I'm vegan.", "I'm no longer vegan but I still eat cheese.") == [
        "User still eats cheese"
    ]


def test_a_verb_standing_for_one_said_before_is_no_fact() -> None:
    # "I still do" / "I still am" said alone were "User still does" / "User still is"
    assert facts_after("I used to swim, and I still do.") == []


@pytest.mark.parametrize(
    ("before", "now"),
    [
        # someone else's "still", or "still" of something else: the retraction stands
        ("I'm vegan.", "I'm no longer vegan, but my cousin still is."),
        ("I live in Derby.", "I don't live in Derby anymore, but my parents still do."),
        ("我吃素。", "我不再吃素了，但我妈妈还是吃素。"),
    ],
)
def test_a_retraction_stands_whatever_else_is_still_so(before: str, now: str) -> None:
    gone = before.removeprefix("I'm ").removeprefix("I live in ").removeprefix("我").rstrip(".。")
    assert not any(gone in fact for fact in facts_after(before, now))


@pytest.mark.parametrize(
    ("before", "now", "kept"),
    [
        ("I drink tea.", "I used to drink tea. I still do.", "User drinks tea"),
        ("I play chess in a club.", "I used to play chess, and I still do on Sundays.",
         "User plays chess in a club"),
        ("我住在苏州。", "我以前住在苏州，最近又搬回去了。", "用户住在苏州"),
    ],
)  # fmt: skip
def test_what_still_holds_in_the_next_words_is_kept(before: str, now: str, kept: str) -> None:
    after = facts_after(before, now)
    assert kept in after and not any("still does" in fact for fact in after)


def test_the_users_meat_is_kept_when_someone_else_is_named_but_no_diet_is_withdrawn() -> None:
    assert facts_after("I'm vegetarian.", "My son is vegan but I eat meat now.") == [
        "User is vegetarian",
        "User eats meat now",
    ]


def test_meat_substitutes_end_no_diet() -> None:
    assert "User is vegetarian" in facts_after("I'm vegetarian.", "I eat meat substitutes now.")


@pytest.mark.parametrize(
    ("before", "now", "kept"),
    [
        # the next sentence says it still holds, in other words (attacker 63)
        ("I drink tea.", "I used to drink tea. Honestly, I still do.", "User drinks tea"),
        ("I love opera.", "I used to love opera. I still love it.", "User loves opera"),
        ("I have a tortoise.", "I used to have a tortoise. Still have him!", "User has a tortoise"),
    ],
)
def test_still_said_in_other_words_keeps_the_fact(before: str, now: str, kept: str) -> None:
    assert kept in facts_after(before, now)


def test_a_substitute_some_words_after_the_meat_ends_no_diet() -> None:
    assert "User is vegan" in facts_after("I'm vegan.", "I eat fish sauce substitutes now.")


@pytest.mark.parametrize(
    ("before", "now"),
    [
        # "still" of something else (attacker 64): the past still withdraws the fact
        ("I'm a pescatarian.", "I used to be a pescatarian. My kids eat meat, and I still do."),
        ("I'm a smoker.", "I used to be a smoker. I still drink though."),
        ("I'm a teacher.", "I used to be a teacher. I still love it."),
        ("I'm vegan.", "I used to be vegan, and I still am very healthy."),
    ],
)
def test_still_of_something_else_cancels_nothing(before: str, now: str) -> None:
    assert before.removeprefix("I'm ").rstrip(".") not in " ".join(
        fact for fact in facts_after(before, now) if not fact.startswith("User used to")
    )


# A habit given up, a place left on a date, a taste said to be "not my thing": each left the
# old fact beside the new one ("User drinks coffee every morning" after "I quit drinking
# coffee last year"; "User works at Stripe" after "I left Stripe in June").
@pytest.mark.parametrize(
    ("before", "now", "facts"),
    [
        (
            "I drink green tea every afternoon.",
            "I quit drinking green tea last spring.",
            ["User quit drinking green tea last spring"],
        ),
        (
            "I have two espressos a day.",
            "I've given up drinking espressos.",
            ["User has given up drinking espressos"],
        ),
        (
            "I usually eat pork buns for breakfast.",
            "I stopped eating pork buns.",
            ["User stopped eating pork buns"],
        ),
        ("I work at Quillcraft.", "I left Quillcraft in September.", []),
        ("I sing in a choir.", "I quit the choir back in 2022.", []),
        ("I live in Ghent.", "I moved out of Ghent in the autumn.", []),
        (
            "I adore musicals.",
            "Musicals aren't really my thing these days.",
            ["User does not like musicals"],
        ),
        (
            "I enjoy karaoke.",
            "Karaoke is not my cup of tea anymore.",
            ["User does not like karaoke"],
        ),
    ],
)
def test_a_habit_given_up_a_place_left_or_a_taste_gone_ends_the_old_fact(
    before: str, now: str, facts: list[str]
) -> None:
    assert facts_after(before, now) == facts


@pytest.mark.parametrize(
    ("before", "now", "kept"),
    [
        # the thing given up named in something else: a workplace, a drink made of it
        ("I work in a tea shop.", "I quit drinking tea.", "User works in a tea shop"),
        ("I drink tea-infused gin.", "I quit drinking tea.", "User drinks tea-infused gin"),
        (
            "I drink water instead of soda.",
            "I stopped drinking soda.",
            "User drinks water instead of soda",
        ),
        # a taste is no habit: quitting it does not undo liking it
        ("I love dark chocolate.", "I stopped eating dark chocolate.", "User loves dark chocolate"),
        # a date that is no time of leaving: the place left is not this one
        ("I live in Lyon.", "I left Paris in May.", "User lives in Lyon"),
    ],
)
def test_what_a_habit_given_up_does_not_name_is_kept(before: str, now: str, kept: str) -> None:
    assert kept in facts_after(before, now)


# Attacker 76: a habit given up withdrew a pet, a business or another habit said with it;
# leaving a place withdrew where the user was born; "…isn't just my thing" was a dislike.
@pytest.mark.parametrize(
    ("before", "now", "kept"),
    [
        ("I have goldfish as pets.", "I quit eating fish.", "User has goldfish as pets"),
        (
            "I have two espresso machines.",
            "I quit drinking espresso.",
            "User has two espresso machines",
        ),
        (
            "I drink coffee and tea every morning.",
            "I quit drinking coffee.",
            "User drinks coffee and tea every morning",
        ),
        (
            "I cook lamb for my parents on Sundays.",
            "I stopped eating lamb.",
            "User cooks lamb for their parents on Sundays",
        ),
        ("I was born in Galway.", "I left Galway in 2015.", "User was born in Galway"),
        ("I support Galway United.", "I left Galway in May.", "User supports Galway United"),
        ("I love baking.", "Baking isn't just my thing, it's my job.", "User loves baking"),
    ],
)
def test_what_a_change_does_not_end_is_kept(before: str, now: str, kept: str) -> None:
    assert kept in facts_after(before, now)


def test_a_reported_dislike_is_not_the_users() -> None:
    assert not any(
        "does not like" in f for f in facts_after("My brother says opera isn't my thing.")
    )


def test_a_habit_given_up_keeps_one_said_with_another() -> None:
    # attacker 78: "…cola at lunch and water at dinner" went with "I quit drinking cola"
    kept = "User drinks cola at lunch and water at dinner"
    assert kept in facts_after(
        "I drink cola at lunch and water at dinner.", "I quit drinking cola."
    )


def test_a_thing_kept_is_no_habit_given_up() -> None:
    # attacker 80: "I have fish in my pond" went with "I quit eating fish"
    assert "User has fish in their pond" in facts_after(
        "I have fish in my pond.", "I quit eating fish."
    )


# Attacker 81: a leaving or a giving-up the same message undoes ended the fact anyway.
@pytest.mark.parametrize(
    ("before", "now", "kept"),
    [
        (
            "I live in Ghent.",
            "I left Ghent in May, but came back in August.",
            "User lives in Ghent",
        ),
        (
            "I drink green tea every afternoon.",
            "I quit drinking green tea in spring, but now I'm back on it.",
            "User drinks green tea every afternoon",
        ),
        ("I eat pork.", "I stopped eating pork in March, but only for a month.", "User eats pork"),
    ],
)
def test_what_the_same_message_undoes_does_not_end(before: str, now: str, kept: str) -> None:
    assert kept in facts_after(before, now)


def test_an_undoing_elsewhere_leaves_another_retraction() -> None:
    assert facts_after("I'm vegan.", "I'm no longer vegan. I moved back to Leeds.") == [
        "User moved back to Leeds"
    ]


# Attacker 83: an unrelated "went back" undid the user's quitting; "…, it's my husband's"
# dropped every dislike of the message.
def test_an_undoing_must_be_of_the_same_thing() -> None:
    said = "I quit smoking in May and went back to the gym."
    assert "User quit smoking in May and went back to the gym" in facts_after(said)


def test_only_the_taste_said_to_be_someone_elses_is_no_dislike() -> None:
    facts = facts_after("Opera isn't my thing, it's my wife's. I hate turnips.")
    assert "User hates turnips" in facts and not any("opera" in f for f in facts)


@pytest.mark.parametrize("now", ["anymore", "these days"])
def test_a_taste_ended_is_a_dislike_whoever_has_it_now(now: str) -> None:
    # "…anymore, it's my wife's" is the user's own taste ended: it still supersedes the
    # like (made no dislike, it left "User likes opera" standing: attacker 87).
    facts = facts_after("I like opera.", f"Opera isn't my thing {now}, it's my wife's.")
    assert facts == ["User does not like opera"]


# Attacker 84: someone else's undoing undid the user's quitting; leaving a place withdrew a
# fact that says more than the tie (a diet with it).
def test_only_the_users_own_undoing_counts() -> None:
    facts = facts_after(
        "I eat lamb every week.", "I stopped eating lamb. My brother relapsed, sadly."
    )
    assert "User stopped eating lamb" in facts and "User eats lamb every week" not in facts


def test_leaving_keeps_a_fact_that_says_more_than_the_tie() -> None:
    # (the fact joins two statements: the tie goes, the diet stays on its own)
    after = facts_after("I'm vegan and live in Derby.", "I left Derby in June.")
    assert after == ["User is vegan"]
    assert facts_after("I live in Derby.", "I left Derby in June.") == []
