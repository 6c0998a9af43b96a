""" "Not anymore." said of what the user just said: the statement is over, never a fact.

Before: "I'm allergic to sesame. Actually, not anymore." (in one message, or the second
sentence in the next turn of the thread) kept the allergy, so the assistant went on
refusing sesame; "…, but I outgrew it" kept it and stored "User outgrew it" as well. Now
the sentence that says only that the one before holds no more ("not anymore", "no longer",
"I outgrew it", "现在好了", "已经不是了") withdraws what that sentence said last, the way
"I'm no longer allergic to sesame" does; not after a question of the assistant's (which
"not anymore" answers), not for a statement that says "not" already, and not in Chinese
without a time word ("好了" alone is "done"). A short clause whose only object is "it" or
"him" ("I sold it", "I got over him") is no fact of its own. Sentences are this project's own.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from deerflow_memory.update.offline.text import candidates_from_text
from tests.test_offline_attacker51 import _run
from tests.test_offline_context import _said_in_turns
from tests.test_quality_kinds import facts_after, said_in_one_update


@pytest.mark.parametrize(
    "said",
    [
        "I'm allergic to sesame. Actually, not anymore.",
        "I'm allergic to sesame. Not any more!",
        "I'm allergic to sesame, but not anymore.",
        "I'm allergic to sesame, but I outgrew it.",
        "I'm allergic to sesame. Well, I've outgrown it, thankfully.",
        "I'm lactose intolerant - no longer, actually.",
        "我对芝麻过敏。现在已经好了。",
        "我对芝麻过敏，不过现在好了",
    ],
)
def test_a_need_said_over_in_the_same_message_is_not_stored(said: str) -> None:
    assert facts_after(said) == []


@pytest.mark.parametrize(
    ("said", "stored"),
    [
        ("I'm allergic to sesame. Actually, not anymore.", "User is allergic to sesame"),
        ("I live in Bristol, but not any more.", "User lives in Bristol"),
        ("我住在成都。现在不是了。", "用户住在成都"),
    ],
)
def test_said_over_withdraws_the_stored_fact_too(said: str, stored: str) -> None:
    assert _run(said, stored=(stored,)) == ([], ["f0"])


def test_the_next_message_withdraws_what_the_one_before_said(tmp_path: Path) -> None:
    assert said_in_one_update("I'm allergic to sesame.", "Actually, not anymore.") == [""]
    said = ("I'm allergic to sesame.", "Hmm, not anymore, actually.")
    assert _said_in_turns(tmp_path, *said) == []


def test_the_next_turn_of_the_thread_withdraws_it(tmp_path: Path) -> None:
    assert _said_in_turns(tmp_path, "我对芝麻过敏。", "现在已经好了") == []
    assert _said_in_turns(tmp_path / "b", "I'm allergic to kiwi.", "But I outgrew it.") == []


@pytest.mark.parametrize(
    "turns",
    [
        # an answer to the assistant's question, not of the need before it
        ("I'm allergic to sesame.", "AI: Do you still smoke?", "Not anymore."),
        ("我对芝麻过敏。", "AI: 你还住在北京吗？", "现在不是了"),
    ],
)
def test_an_answer_to_the_assistant_withdraws_nothing(turns: tuple[str, ...]) -> None:
    assert said_in_one_update(*turns)[0] in ("User is allergic to sesame", "用户对芝麻过敏")
    assert "" not in said_in_one_update(*turns)


@pytest.mark.parametrize(
    ("said", "stored"),
    [
        # the same said twice: "not anymore" stresses it
        ("I don't drink alcohol. Not anymore.", ["User does not drink alcohol"]),
        # what was so once reads as before (the past's own rules)
        ("I was vegetarian for years. Not anymore.", ["User was vegetarian for years"]),
        # "好了" and "没有了" alone say "done" and "nothing else"
        ("我对芝麻过敏。好了。", ["用户对芝麻过敏"]),
        ("我对芝麻过敏。没有了。", ["用户对芝麻过敏"]),
        # a question is no withdrawal
        ("I'm allergic to sesame. Not anymore?", ["User is allergic to sesame"]),
        # only the sentence right before is withdrawn from
        ("I'm allergic to sesame. I used to smoke. Not anymore.", ["User is allergic to sesame"]),
    ],
)
def test_what_stands(said: str, stored: list[str]) -> None:
    assert facts_after(said) == stored


def test_what_was_so_once_is_still_withdrawn_whole() -> None:
    assert _run("I was vegan for years, but no longer.", stored=("User is vegan",)) == (
        [],
        ["f0"],
    )


@pytest.mark.parametrize(
    "said",
    [
        "I outgrew it",
        "I got over him",
        "I sold it yesterday",
        "I recovered from that",
        "I beat it",
        # (stored "User stopped both", "User quit them all" before)
        "I stopped both.",
        "I quit them all.",
        "I gave up all of them.",
        "I dropped the latter.",
    ],
)
def test_a_clause_whose_only_object_refers_back_is_no_fact(said: str) -> None:
    assert facts_after(said) == []


def test_a_clause_with_its_own_object_is_still_read() -> None:
    assert facts_after("I sold my bakery to fund a climbing gym") != []


# Attacker 284: "not anymore" after a sentence of two clauses, or after a reply of the
# assistant's that is more than an acknowledgement, may be of something else: the need stays.
@pytest.mark.parametrize(
    ("said", "need"),
    [
        ("I'm allergic to sesame, and the app kept crashing. Not anymore.", "allergic to sesame"),
        ("I'm coeliac and I'm seeing someone. Not anymore.", "coeliac"),
        (
            "I'm allergic to sesame and my son is allergic to eggs. Not anymore.",
            "allergic to sesame",
        ),
        ("我对芝麻过敏，前几天感冒了。现在已经好了。", "对芝麻过敏"),
        ("我是素食者，昨天头疼得厉害，现在好了。", "素食者"),
    ],
)
def test_not_anymore_after_two_clauses_withdraws_nothing(said: str, need: str) -> None:
    assert any(need in fact for fact in facts_after(said))


@pytest.mark.parametrize(
    "turns",
    [
        (
            "I'm allergic to sesame.",
            "AI: I remember you were training for a marathon.",
            "Not anymore.",
        ),
        ("I'm allergic to sesame.", "AI: Tell me if you still smoke.", "Not anymore."),
        ("I'm allergic to sesame.", "AI: Noted. Do you still live in Boston", "Not anymore."),
        ("I'm allergic to sesame and my son is vegan.", "Not anymore."),
        ("我对芝麻过敏。", "AI: 好的，你还住在上海吗", "现在不是了。"),
    ],
)
def test_not_anymore_of_something_else_in_the_thread_withdraws_nothing(
    turns: tuple[str, ...],
) -> None:
    assert "" not in said_in_one_update(*turns)


@pytest.mark.parametrize(
    "turns",
    [
        ("I'm allergic to sesame.", "AI: Got it, I'll remember that!", "Not anymore."),
        ("I'm allergic to sesame.", "AI: Thanks for letting me know.", "I outgrew it."),
        ("我对芝麻过敏。", "AI: 好的，记住了。", "现在好了"),
    ],
)
def test_not_anymore_after_an_acknowledgement_withdraws(turns: tuple[str, ...]) -> None:
    assert said_in_one_update(*turns) == [""]


def test_a_line_that_goes_on_is_no_withdrawal() -> None:
    # "no longer" alone needs what follows it ("…\nand no longer\ntake insulin")
    assert facts_after("I'm allergic to sesame\nand no longer\ntake insulin")[:1] == [
        "User is allergic to sesame"
    ]


# Newcomer 285: "not allergic anymore" says it of an allergy only.
@pytest.mark.parametrize(
    "said",
    [
        "I'm allergic to sesame. Not allergic anymore.",
        "I'm lactose intolerant. Not intolerant anymore!",
        "我对芝麻过敏。现在不过敏了。",
    ],
)
def test_not_allergic_anymore_withdraws_the_allergy(said: str) -> None:
    assert facts_after(said) == []


@pytest.mark.parametrize(
    ("said", "stored"),
    [
        ("I live in Bristol. Not allergic anymore.", ["User lives in Bristol"]),
        ("我住在成都。现在不过敏了。", ["用户住在成都"]),
    ],
)
def test_not_allergic_anymore_withdraws_nothing_else(said: str, stored: list[str]) -> None:
    assert facts_after(said) == stored


def test_not_allergic_anymore_in_the_next_turn(tmp_path: Path) -> None:
    assert _said_in_turns(tmp_path, "我对芝麻过敏。", "现在已经不过敏了") == []


@pytest.mark.timeout(60)
@pytest.mark.parametrize("run", [", actually", ", but", ", lol"])
def test_a_long_run_of_lead_words_is_read_in_linear_time(run: str) -> None:
    # attacker 284: the last clause was looked for after every comma, each try reading the
    # run to its end (10k ", actually" took 25 s, 200k would take hours)
    said = "I'm vegan" + run * 20_000
    assert [c.content for c in candidates_from_text(said)][:1] == ["User is vegan"]


# A liking or habit said over in the next sentence: no retraction reads "I no longer love
# sushi", and the statement was kept as if it still held. A statement that is no need and
# is said over right away is no fact; a need no retraction reads still stands (the safer error).
@pytest.mark.parametrize(
    "said",
    [
        "I love sushi. Not anymore.",
        "I really enjoy trail running. Not any more, sadly.",
        "My favourite band is Muse. Not anymore.",
        "I drink two espressos every morning. Not anymore.",
        "I love sushi. I don't anymore.",
        "I like jazz. I don't love it anymore.",
        "I love sushi, but I don't like it anymore.",
        "我喜欢爵士乐。现在不喜欢了。",
        "我很喜欢吃榴莲。现在不爱了。",
        "我爱喝奶茶，不过现在不喜欢了",
    ],
)
def test_a_liking_said_over_is_not_stored(said: str) -> None:
    assert facts_after(said) == []


def test_a_liking_said_over_in_the_next_message(tmp_path: Path) -> None:
    turns = ("I love sushi.", "AI: Noted!", "Not anymore.")
    assert said_in_one_update(*turns) == [""]  # a retraction, no fact
    assert _said_in_turns(tmp_path, "我喜欢爵士乐。", "现在不喜欢了") == []


@pytest.mark.parametrize(
    ("said", "stored"),
    [
        # "I don't like it anymore" says a liking is over, not a habit or a need
        ("I play chess. I don't like it anymore.", ["User plays chess"]),
        ("I live in Ghent. I don't like it anymore.", ["User lives in Ghent"]),
        ("I'm allergic to kiwi. I don't like it anymore.", ["User is allergic to kiwi"]),
        ("我对花生过敏。现在不喜欢了。", ["用户对花生过敏"]),
        # an answer to the assistant's question is of that question
        (("I love sushi.", "AI: Do you still go climbing?", "Not anymore."), ["User loves sushi"]),
    ],
)
def test_a_liking_said_over_takes_nothing_else(
    said: str | tuple[str, ...], stored: list[str]
) -> None:
    if isinstance(said, tuple):
        assert said_in_one_update(*said) == stored
    else:
        assert facts_after(said) == stored


@pytest.mark.parametrize(
    ("said", "stored"),
    [
        ("I love sushi. Not anymore.", ("User loves sushi", "User loves sushi in Osaka")),
        ("我喜欢爵士乐。现在不喜欢了。", ("用户喜欢爵士乐", "用户在爵士乐队工作")),
        (
            "My favourite band is Muse. Not anymore.",
            ("User's favourite band is Muse", "User's favourite band is Blur"),
        ),
    ],
)
def test_a_liking_said_over_withdraws_the_stored_fact_that_says_just_that(
    said: str, stored: tuple[str, ...]
) -> None:
    assert _run(said, stored=stored) == ([], ["f0"])
