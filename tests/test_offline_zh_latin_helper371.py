"""Helper 371: a Latin word after 用/写/学/玩/练 and how long with its verb (after e826208).

e826208 counted any Latin letter after 用/写/学/玩/练/喜欢/爱 toward the clause's length: "我用x",
"我用ok", "我写bug", "我用print(1)" were stored. It also dropped a how long said with its verb
that was kept with its fact before ("我住在北京，住了十年了" lost "住了十年了"). Sentences are this
project's own.
"""

from __future__ import annotations

import pytest

from tests.test_quality_kinds import facts_after


@pytest.mark.parametrize(
    "said",
    ["我用x", "我一直用a", "我用ok", "我玩OK", "我写bug", "我在用it", "我用print(1)", "我用a=1"],
)
def test_no_fact_of_a_chat_word_a_letter_or_code(said: str) -> None:
    assert facts_after(said) == []


@pytest.mark.parametrize(
    ("said", "stored"),
    [
        ("我玩LOL", ["用户玩LOL"]),
        ("我写C", ["用户写C"]),
        ("我用Node.js", ["用户用Node.js"]),
        ("我住在北京，住了十年了。", ["用户住在北京，住了十年了"]),
        ("我养了一只猫，养了五年了。", ["用户养了一只猫，养了五年了"]),
        ("我戒烟了，戒了两年了。", ["用户戒烟了"]),
    ],
)
def test_a_name_and_how_long_are_kept(said: str, stored: list[str]) -> None:
    assert facts_after(said) == stored
