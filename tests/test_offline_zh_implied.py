"""Chinese said without "我", or with a name in Latin letters.

"我一直用Mac", "我用Windows" stored nothing (a clause of fewer than five Chinese characters is
too short for the own-words fallback, and "Mac" counted for none); "我是上海人，现在在北京读研"
lost where the user studies now ("现在" opens a remark on the moment, "现在几点"); "我在自学
吉他，刚学了三个月" stored "用户刚学了三个月" (how long, with the verb of the clause before).
Sentences are this project's own.
"""

from __future__ import annotations

import pytest

from tests.test_quality_kinds import facts_after


@pytest.mark.parametrize(
    ("said", "stored"),
    [
        ("我一直用Mac。", ["用户一直用Mac"]),
        ("我用Windows。", ["用户用Windows"]),
        ("我平常玩Switch。", ["用户平常玩Switch"]),
        ("我是后端，主要写Go。", ["用户是后端", "用户主要写Go"]),
        ("我是上海人，现在在北京读研。", ["用户是上海人", "用户现在在北京读研"]),
        ("我以前在广州，目前住在杭州。", ["用户以前在广州", "用户住在杭州"]),
        ("我毕业三年了，如今在一家银行上班。", ["用户毕业三年了", "用户如今在一家银行上班"]),
        ("我在自学吉他，刚学了三个月。", ["用户在自学吉他"]),
        ("我在练瑜伽，已经练了两年了。", ["用户在练瑜伽"]),
    ],
)
def test_what_the_user_says_without_a_subject_or_in_latin_letters(
    said: str, stored: list[str]
) -> None:
    assert facts_after(said) == stored


@pytest.mark.parametrize(
    ("said", "stored"),
    [
        ("AI: 好的。", []),
        ("嗨 Claude", []),
        ("有点emo", []),
        ("应该选 B。", []),
        ("我看了PPT。", []),
        ("我是上海人，现在在下雨。", ["用户是上海人"]),
        ("我是上海人，现在几点了？", ["用户是上海人"]),
        ("我是老师，现在在放暑假。", ["用户是老师"]),
    ],
)
def test_no_more_is_read_into_a_remark(said: str, stored: list[str]) -> None:
    assert facts_after(said) == stored
