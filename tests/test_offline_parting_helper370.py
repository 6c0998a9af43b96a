"""A parting withdraws only the user's own partner or spouse (helper 370).

e89a169 made every word for a partner (and for a spouse) one kind in names_retracted, for
every retraction: "We broke up" also withdrew "User is a partner at Deloitte", "User runs a
bakery with their business partner", "User is looking for a girlfriend"; "I got divorced"
withdrew "User's ex-wife lives in Paris"; "我们分手了" withdrew "用户的研究对象是儿童" and
"用户在找对象"; and "I'm not a partner anymore" withdrew "User has a girlfriend named
Anna". "My business partner and I separated" and "Tom and I got separated in the crowd"
were read as a marriage ended and superseded "User is married to Tom". Together again was
read in "made up my mind", "reunited with my old friends", "和同事和好了". "I broke up with
her", "She dumped me", "We're no longer together", "我被甩了", "她把我甩了" parted from no
one. Sentences are this project's own.
"""

from __future__ import annotations

import pytest

from tests.test_quality_kinds import facts_after


@pytest.mark.parametrize(
    ("before", "later"),
    [
        # no partner of the user's in the fact
        ("I'm a partner at a law firm in Leeds.", "We broke up."),
        ("I work at Spotify as a partner engineer.", "We broke up last week."),
        ("I run a bakery with my business partner.", "My girlfriend left me."),
        ("I'm looking for a girlfriend.", "We broke up."),
        ("My ex-wife lives in Lisbon.", "I got divorced."),
        ("I have two kids with my ex-husband.", "I got divorced."),
        ("我的研究对象是儿童。", "我们分手了。"),
        ("我在找对象。", "我们分手了。"),
        ("我的前男友住在北京。", "我们分手了。"),
        # no parting: a partner word in another retraction names no kind
        ("I have a girlfriend named Mira.", "I'm not a partner anymore."),
        ("I have a boyfriend named Leo.", "I'm no longer a partner."),
        # a business partner parted from is no marriage ended
        ("I'm married to Tom.", "My business partner and I separated."),
        # …nor is being parted in a crowd
        ("I'm married to Tom.", "Tom and I got separated in the crowd."),
    ],
)
def test_what_is_no_partner_of_the_users_stays(before: str, later: str) -> None:
    after = facts_after(before, later)
    assert all(fact in after for fact in facts_after(before)), after


@pytest.mark.parametrize(
    ("before", "later"),
    [
        ("I live with my girlfriend in Bristol.", "We broke up."),
        ("I have a girlfriend named Mira.", "I broke up with my gf."),
        ("I have a partner named Sam.", "My boyfriend dumped me."),
        ("I have a husband named Karl.", "We got divorced in March."),
        ("我和男朋友住在一起。", "我们分手了。"),
        ("我有个女朋友叫小雨。", "我跟女友分了。"),
    ],
)
def test_the_users_partner_still_goes(before: str, later: str) -> None:
    after = facts_after(before, later)
    assert not any(
        w in f for f in after for w in ("girlfriend", "partner", "husband", "男朋友", "女朋友")
    ), after


@pytest.mark.parametrize(
    "later",
    [
        "We broke up and I made up my mind to move to Oslo.",
        "We broke up. She made up a story about it.",
        "We broke up, and I reunited with my old friends from school.",
        "We broke up. I finally put my bike back together.",
    ],
)
def test_no_together_again_in_other_words(later: str) -> None:
    assert not any("Mira" in f for f in facts_after("I have a girlfriend named Mira.", later))


def test_no_together_again_in_chinese_other_words() -> None:
    assert facts_after("我有个女朋友叫小雨。", "我和同事和好了。我们分手了。") == []


@pytest.mark.parametrize(
    "later",
    [
        "We broke up but we made up.",
        "We broke up, then made up with each other.",
        "We broke up last year but we're back together now.",
        "I dumped Mira, but we reunited in June.",
    ],
)
def test_together_again_still_parts_from_no_one(later: str) -> None:
    assert any("Mira" in f for f in facts_after("I have a girlfriend named Mira.", later))


@pytest.mark.parametrize(
    ("before", "later"),
    [
        ("I have a girlfriend named Mira.", "I broke up with her."),
        ("I have a boyfriend named Leo.", "I dumped him last week."),
        ("I have a girlfriend named Mira.", "She dumped me."),
        ("I have a boyfriend named Leo.", "He broke up with me yesterday."),
        ("I have a girlfriend named Mira.", "We're no longer together."),
        ("I have a boyfriend named Leo.", "We are not together anymore."),
        ("我有个女朋友叫小雨。", "我被甩了。"),
        ("我有个男朋友。", "我被男朋友甩了。"),
        ("我有个女朋友叫小雨。", "她把我甩了。"),
        ("我有个女朋友叫小雨。", "小雨把我甩了。"),
    ],
)
def test_a_parting_said_with_a_pronoun_or_no_word(before: str, later: str) -> None:
    assert facts_after(before, later) == []


@pytest.mark.parametrize(
    ("before", "later"),
    [
        ("I have a girlfriend named Mira.", "She left me a voicemail."),
        ("I have a girlfriend named Mira.", "She dumped me at the station."),
        ("I have a girlfriend named Mira.", "Did she dump me?"),
        ("I have a girlfriend named Mira.", "We're not together right now, she's in Rome."),
        ("我有个女朋友叫小雨。", "我差点被甩了。"),
        ("我有个女朋友叫小雨。", "我朋友被甩了。"),
    ],
)
def test_no_parting_with_a_pronoun(before: str, later: str) -> None:
    assert facts_after(before, later)[:1] == facts_after(before)
