"""Helper 371: parted for the day is no marriage ended (after 3d9edaf).

"我和老公分开了，他去出差了" ("…, he went on a business trip") withdrew "用户已婚" and stored
"用户和配偶分居了". Sentences are this project's own.
"""

from __future__ import annotations

import pytest

from tests.test_offline_slots_of_others import _stored
from tests.test_quality_kinds import remember


@pytest.mark.parametrize(
    "said",
    [
        "我和老公分开了，他去出差了。",
        "我和老公分开了，我先回家了。",
        "我跟老婆在机场分开了，她去开会。",
    ],
)
def test_a_parting_for_the_day_keeps_the_marriage(said: str) -> None:
    after = [fact.content for fact in remember(_stored("用户已婚"), said).facts]
    assert "用户已婚" in after, after


def test_a_parting_with_no_reason_of_the_day_still_ends_the_marriage() -> None:
    after = [
        fact.content for fact in remember(_stored("用户已婚"), "我和老公分开了，他出轨了。").facts
    ]
    assert "用户已婚" not in after, after
