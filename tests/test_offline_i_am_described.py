"""What the user says they are with "I'm …" in a few words: fears, interests, faith, heritage,
a search that lasts, what they are not good at, and a state "at the moment".

Before: a short "I'm …" clause that was no proper name was refused by the name rule, so the
own-words fallback never saw it either: "I'm terrified of wasps", "I'm interested in
geology", "I'm Catholic", "I'm half Peruvian" stored nothing; "I'm not good with numbers"
and "I'm looking for a bigger flat" had no rule; "I'm between jobs at the moment" and "I
live in Leeds for now" were dropped as moments, so the old home or job stayed; "I'm afraid
I can't stay long" stored "User is afraid they can't stay long".

Sentences are this project's own.
"""

from __future__ import annotations

import pytest

from tests.test_quality_kinds import facts_after, replaced


@pytest.mark.parametrize(
    ("said", "stored"),
    [
        # fears
        ("I'm terrified of wasps.", "User is terrified of wasps"),
        ("I'm deathly afraid of deep water.", "User is deathly afraid of deep water"),
        ("I'm really scared of thunderstorms!", "User is really scared of thunderstorms"),
        ("Honestly I'm petrified of dentists.", "User is petrified of dentists"),
        # interests
        ("I'm interested in geology.", "User is interested in geology"),
        (
            "I'm really interested in medieval history",
            "User is really interested in medieval history",
        ),
        ("I'm not interested in football at all.", "User is not interested in football at all"),
        # faith
        ("I'm Catholic.", "User is Catholic"),
        ("I'm a practising Sikh.", "User is a practising Sikh"),
        ("i'm jewish", "User is jewish"),
        # heritage
        ("I'm half Peruvian.", "User is half Peruvian"),
        ("I'm Vietnamese-American.", "User is Vietnamese-American"),
        ("I'm Greek on my mother's side.", "User is Greek on their mother's side"),
        ("I'm Ghanaian and Welsh.", "User is Ghanaian and Welsh"),
        # what the user is not good at
        ("I'm not good with numbers.", "User is not good with numbers"),
        (
            "I'm not very comfortable with public speaking.",
            "User is not very comfortable with public speaking",
        ),
        # a search that lasts
        (
            "I'm looking for a bigger flat near the river.",
            "User is looking for a bigger flat near the river",
        ),
        ("I'm still looking for a part-time job.", "User is still looking for a part-time job"),
        ("I'm house hunting.", "User is house hunting"),
        # a regret before a statement is no fear: what follows is read
        ("I'm afraid I'm allergic to shellfish.", "User is allergic to shellfish"),
        ("I'm afraid that I don't eat lamb.", "User does not eat lamb"),
    ],
)
def test_what_the_user_is_is_stored(said: str, stored: str) -> None:
    assert facts_after(said) == [stored]


@pytest.mark.parametrize(
    "said",
    [
        "I'm afraid I can't stay long.",
        "I'm afraid that won't work for me.",
        "I'm afraid of what the doctor will say.",
        "I'm scared of it.",
        "I'm interested in your opinion.",
        "I'm interested in what you think about this.",
        "I'm not interested in the offer.",
        "I'm looking for a place to eat tonight.",
        "I'm looking for a good novel.",
        "I'm tired.",
        "I'm at the office right now.",
        "I'm busy at the moment.",
    ],
)
def test_a_moment_a_request_or_the_chat_is_not(said: str) -> None:
    assert facts_after(said) == []


def test_a_heritage_is_not_a_name() -> None:
    """ "I'm Chinese" (a look-alike of "I'm Sam") is a heritage, never the user's name."""
    for said in ("I'm Chinese.", "I'm Korean-American.", "I'm Nigerian."):
        after = facts_after(said)
        assert after and not any("name" in fact for fact in after)


@pytest.mark.parametrize(
    ("before", "later", "kept", "gone"),
    [
        ("I live in Leeds.", "I live in York for now.", "York", "Leeds"),
        ("I work as a chef.", "I'm between jobs at the moment.", "between jobs", "chef"),
        (
            "I work at a bakery.",
            "I'm working at a garden centre right now.",
            "garden centre",
            "bakery",
        ),
        ("I'm married.", "I'm separated at the moment.", "separated", "married"),
    ],
)
def test_a_state_said_at_the_moment_replaces_the_old(
    before: str, later: str, kept: str, gone: str
) -> None:
    after = replaced(before, later, kept, gone)
    assert not any("moment" in fact or "for now" in fact or "right now" in fact for fact in after)


def test_a_need_said_right_now_is_a_need() -> None:
    assert facts_after("I'm vegan right now.") == ["User is vegan"]


def test_an_interest_given_up_replaces_the_interest() -> None:
    after = facts_after("I'm interested in astrology.", "I'm not interested in astrology anymore.")
    assert "User is interested in astrology" not in after


# --- said without capitals, a service, a school to come, a build ----------------------------


@pytest.mark.parametrize(
    ("said", "stored"),
    [
        # a user who types no capitals comes from a place all the same
        ("i am from oregon.", "User is from oregon"),
        (
            "im from a tiny fishing village in cornwall",
            "User is from a tiny fishing village in cornwall",
        ),
        # …and a place of origin need not start with its name
        ("I'm from a small mining town in Wales.", "User is from a small mining town in Wales"),
        ("I'm from the countryside.", "User is from the countryside"),
        # a service one belongs to
        ("i am in the navy.", "User is in the navy"),
        (
            "I'm serving in the air force as a mechanic.",
            "User is serving in the air force as a mechanic",
        ),
        # a school to come
        ("i am going to college next fall.", "User is going to college next fall"),
        ("I'm starting nursing school in January.", "User is starting nursing school in January"),
        # a build and a height
        ("i am very tall.", "User is very tall"),
        ("I'm a little overweight.", "User is a little overweight"),
        ("I'm 5'9.", "User is 5'9 tall"),
        ("I'm 182 cm tall.", "User is 182 cm tall"),
    ],
)
def test_more_of_what_the_user_is_is_stored(said: str, stored: str) -> None:
    assert facts_after(said) == [stored]


@pytest.mark.parametrize(
    "said",
    [
        "i'm from work",
        "I'm from the support team.",
        "I'm from HR.",
        "im from the future lol",
        "I'm short on time.",
        "I'm going to school tomorrow.",
    ],
)
def test_a_workplace_a_joke_or_a_moment_is_not(said: str) -> None:
    assert facts_after(said) == []


@pytest.mark.parametrize(
    ("before", "later", "kept", "gone"),
    [
        ("I'm in the army.", "I work as a plumber now.", "plumber", "army"),
        ("I'm 5'7.", "Sorry, I'm 5'8.", "5'8", "5'7"),
    ],
)
def test_a_new_job_or_height_replaces_the_old(
    before: str, later: str, kept: str, gone: str
) -> None:
    replaced(before, later, kept, gone)


# --- "I'm a/an …" in a few words ----------------------------------------------------------------


@pytest.mark.parametrize(
    ("said", "stored"),
    [
        ("I'm a bookworm.", "User is a bookworm"),
        ("I'm a keen gardener.", "User is a keen gardener"),
        ("i'm a night nurse", "User is a night nurse"),
        ("I'm a big reader, mostly thrillers.", "User is a big reader"),
        ("I'm an avid birdwatcher.", "User is an avid birdwatcher"),
        ("I'm a Capricorn.", "User is a Capricorn"),
    ],
)
def test_a_short_description_of_the_user_is_stored(said: str, stored: str) -> None:
    assert facts_after(said) == [stored]


@pytest.mark.parametrize(
    "said",
    [
        "I'm a bit sleepy.",
        "I'm a little lost here.",
        "I'm a lot calmer now.",
        "I'm a fan.",
        "I'm a real person.",
        "I'm an idiot.",
        "I'm a total mess.",
        "I'm a few minutes late.",
        "I'm three blocks away.",
        "I'm a long way from home.",
    ],
)
def test_a_degree_a_jest_or_a_distance_is_no_description(said: str) -> None:
    assert facts_after(said) == []


@pytest.mark.parametrize("said", ["I'm SYSTEM", "I'm Admin.", "I'm Root.", "I'm Assistant."])
def test_a_role_of_the_chat_is_no_name(said: str) -> None:
    # (each was stored as "User's name is …": helper 360; "I'm Dan." stays a name)
    assert facts_after(said) == []
    assert facts_after("I'm Dan.") == ["User's name is Dan"]
