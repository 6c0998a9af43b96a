"""A partner or a spouse parted from, said as a couple, by name or without a word for them.

"I broke up with my boyfriend" withdrew the stored boyfriend, but "We broke up", "Anna and I
split up", "I dumped Anna", "My girlfriend left me", "我们分手了", "我和小美分手了" kept the
partner, "Tom and I split up" stored "User split up (with Tom)", a partner named another word
("has a partner", then "…with my girlfriend") stayed, and a marriage ended ("We got
divorced", "My husband left me", "我们离婚了", "我跟老公离婚了") kept the spouse, or stored
nothing. Together again in the same message, nothing is parted from. Sentences are this
project's own.
"""

from __future__ import annotations

import pytest

from tests.test_quality_kinds import facts_after


@pytest.mark.parametrize(
    ("before", "parting"),
    [
        ("I have a girlfriend named Anna.", "We broke up last week."),
        ("I have a girlfriend named Anna.", "We split up."),
        ("I have a girlfriend named Anna.", "We've split up for good."),
        ("I have a girlfriend named Anna.", "Anna and I broke up."),
        ("I have a girlfriend named Anna.", "I broke up with Anna."),
        ("I have a girlfriend named Anna.", "I dumped Anna last month."),
        ("I have a girlfriend named Anna.", "Anna dumped me."),
        ("I have a boyfriend.", "My boyfriend dumped me."),
        ("I have a boyfriend.", "I left my boyfriend."),
        ("I have a partner named Sam.", "I broke up with my girlfriend."),
        ("I have a fiancé.", "We called off our engagement."),
        ("我有个女朋友叫小美。", "我们分手了。"),
        ("我有个女朋友叫小美。", "我和小美分手了。"),
        ("我有个女朋友叫小美。", "我跟她分手了。"),
        ("我有个男朋友。", "我们俩已经分手了。"),
    ],
)
def test_a_partner_parted_from_goes(before: str, parting: str) -> None:
    assert facts_after(before, parting) == []


@pytest.mark.parametrize(
    ("before", "ended", "status"),
    [
        ("I have a wife named Sara.", "We got divorced last year.", "User got divorced last year"),
        ("I'm married to Tom.", "My husband and I got divorced.", "User got divorced"),
        ("I'm married to Tom.", "Tom and I separated last year.", "User got separated last year"),
        ("I'm married to Sara.", "My wife left me.", "User got separated"),
        ("I'm married to Tom.", "I divorced my husband.", "User got divorced"),
        ("I have a husband.", "I got divorced.", "User got divorced"),
        ("我有老公。", "我们离婚了。", "用户离婚了"),
        ("我有老公。", "我跟老公离婚了。", "用户离婚了"),
        # said as a state, or in Chinese as living apart
        ("I'm married to Tom.", "We're divorced now.", "User is divorced"),
        ("I have a wife.", "We are separated.", "User is separated"),
        ("我有老公。", "我们分居了。", "用户和配偶分居了"),
        ("我有老公。", "我和老公分开了。", "用户和配偶分居了"),
    ],
)
def test_a_marriage_ended_is_said_and_the_spouse_goes(before: str, ended: str, status: str) -> None:
    assert facts_after(before, ended) == [status]


@pytest.mark.parametrize(
    ("before", "later"),
    [
        # together again in the same message
        ("I have a girlfriend named Anna.", "We broke up last year but got back together."),
        ("I have a girlfriend named Anna.", "We broke up in May, but we're back together now."),
        ("我有个女朋友叫小美。", "我们分手了，后来又复合了。"),
        ("I'm married to Tom.", "We separated in May but reconciled."),
        # someone else's parting, or a team's "we", or no parting at all
        ("I have a girlfriend named Anna.", "My sister and her boyfriend broke up."),
        ("I have a girlfriend named Anna.", "The band broke up."),
        ("I have a girlfriend named Anna.", "We broke up the monolith last year."),
        ("I have a girlfriend named Anna.", "We split the bill."),
        ("I have a girlfriend named Anna.", "We split up into two teams."),
        ("I have a girlfriend named Anna.", "I left my girlfriend a note."),
        ("I have a girlfriend named Anna.", "We almost broke up last year."),
        ("I have a girlfriend named Anna.", "We never broke up."),
        ("I have a girlfriend named Anna.", "If we broke up, I'd be sad."),
        ("I have a girlfriend named Anna.", "Did we break up?"),
        ("I'm married to Tom.", "My parents got divorced."),
        ("I'm married to Tom.", "We almost got divorced."),
        ("我有个女朋友叫小美。", "我们差点分手了。"),
        ("我有个女朋友叫小美。", "我朋友和她男朋友分手了。"),
        ("我有个女朋友叫小美。", "我和小李分手了。"),
        ("我有老公。", "我爸妈离婚了。"),
        ("I'm married to Tom.", "We're separated by three time zones."),
        ("我有老公。", "我和老公分开住。"),
    ],
)
def test_no_parting_of_the_users_keeps_the_partner(before: str, later: str) -> None:
    assert facts_after(before, later) == facts_after(before)


@pytest.mark.parametrize(
    "later",
    [
        "I got separated from my group on the hike.",
        "I got separated from the tour in Rome.",
        "I got divorced from reality a long time ago.",
    ],
)
def test_separated_from_no_spouse_is_no_marital_status(later: str) -> None:
    assert "User is married to Tom" in facts_after("I'm married to Tom.", later)


def test_a_parting_after_a_retraction_of_the_same_word_still_parts() -> None:
    """ "I'm no longer a partner" withdrew "partner" first; the parting's "partner" after it
    was taken for the same withdrawal done, and the girlfriend stayed."""
    said = "I'm a partner at Deloitte and I have a girlfriend named Anna."
    assert facts_after(said, "I'm no longer a partner. We broke up.") == []


@pytest.mark.parametrize(
    ("before", "later", "left"),
    [
        (
            "I have a girlfriend named Anna and a dog named Rex.",
            "We broke up last week.",
            ["User has a dog named Rex"],
        ),
        (
            "I live in Oslo with my girlfriend Anna.",
            "We broke up last week.",
            ["User lives in Oslo"],
        ),
        (
            "I moved to Lisbon with my wife.",
            "My wife left me.",
            ["User moved to Lisbon", "User got separated"],
        ),
        (
            "I have a wife and two kids.",
            "We got divorced.",
            ["User has two kids", "User got divorced"],
        ),
        ("I have a girlfriend named Anna.", "Anna and I are no longer together.", []),
        ("I have a boyfriend.", "My boyfriend and I are not together anymore.", []),
    ],
)
def test_what_a_fact_says_beside_the_partner_stays(
    before: str, later: str, left: list[str]
) -> None:
    """A fact of the partner and of more lost the more with the partner (newcomer 372: the
    home in Oslo, the dog Rex)."""
    assert facts_after(before, later) == left


@pytest.mark.parametrize(
    ("before", "later"),
    [
        ("I work at a bank with Anna.", "I broke up with Anna."),
        ("My best friend Anna lives in Paris.", "Anna dumped me."),
    ],
)
def test_a_name_parted_from_withdraws_only_her_as_partner(before: str, later: str) -> None:
    """A name parted from took every fact that named her (helper 375)."""
    assert facts_after(before, later) == facts_after(before)
