"""An age said as a decade, a work or place tried and then liked or not, and a book or a
series the user is in the middle of are facts; a site, the TV or a thing of the moment is not.

Before: "I'm in my late forties", "I watched Parasite last night and loved it" and "I'm
currently reading Middlemarch" stored nothing ("I'm watching Severance" was refused as a
name), and "I finished reading Dune and loved it" kept the reading, not the liking.

Sentences are this project's own.
"""

from __future__ import annotations

import pytest

from deerflow_memory.update.offline.text import candidates_from_text


def _facts(text: str) -> list[tuple[str, str | None]]:
    return [(c.content, c.slot) for c in candidates_from_text(text) if c.content]


@pytest.mark.parametrize(
    ("said", "fact"),
    [
        ("I'm in my late forties.", "User is in their late forties"),
        ("I'm in my early 20s, so money is tight.", "User is in their early 20s"),
        ("I'm in my sixties now.", "User is in their sixties"),
    ],
)
def test_an_age_said_as_a_decade_is_the_age(said: str, fact: str) -> None:
    assert (fact, "age") in _facts(said)


@pytest.mark.parametrize(
    ("said", "fact"),
    [
        ("I watched Parasite last night and loved it.", "User loved Parasite"),
        ("I read Piranesi over the holidays and really enjoyed it.", "User enjoyed Piranesi"),
        ("I visited Porto last spring, and loved every minute of it.", "User loved Porto"),
        ("I tried the ramen bar on King Street and hated it.", "User hated the ramen bar"),
        ("I finished reading Middlemarch and liked it.", "User liked Middlemarch"),
    ],
)
def test_a_work_or_place_tried_then_liked_or_not_is_the_taste(said: str, fact: str) -> None:
    contents = [content for content, _ in _facts(said)]
    assert any(content.startswith(fact) for content in contents), contents


@pytest.mark.parametrize(
    "said",
    [
        "I watched it last night and loved it.",  # what "it" is was said before
        "I watched the news and hated it.",
    ],
)
def test_a_pronoun_or_the_news_tried_is_no_taste(said: str) -> None:
    assert _facts(said) == []


@pytest.mark.parametrize(
    ("said", "fact"),
    [
        ("I'm currently reading Middlemarch.", "User is currently reading Middlemarch"),
        ("I'm reading a novel about the Silk Road.", "User is reading a novel about the Silk Road"),
        ("I'm watching Severance.", "User is watching Severance"),
        ("I'm currently watching a sitcom from the 90s.", "User is currently watching a sitcom"),
    ],
)
def test_a_book_or_a_series_in_progress_is_kept(said: str, fact: str) -> None:
    contents = [content for content, _ in _facts(said)]
    assert any(content.startswith(fact) for content in contents), contents


@pytest.mark.parametrize(
    "said",
    [
        "I'm watching TV.",
        "I'm reading your reply.",
        "I'm reading the manual.",
        "I'm watching Netflix.",
        "I'm reading Reddit.",
        "I'm watching Severance now.",
    ],
)
def test_what_is_read_or_watched_for_a_moment_is_not(said: str) -> None:
    assert _facts(said) == []


def test_a_name_is_still_a_name() -> None:
    assert ("User's name is Ming", "name") in _facts("I'm Ming.")


def test_a_taste_after_a_comma_joins_only_a_work_or_place_tried() -> None:
    assert [c for c, _ in _facts("I'm allergic to horses, and hated it.")] == [
        "User is allergic to horses"
    ]


@pytest.mark.parametrize(
    ("said", "fact"),
    [
        ("I'm Gen X.", "User is Gen X"),  # refused as a name before
        ("I'm technically a zoomer.", "User is technically a zoomer"),
        ("我是80后。", "用户是80后"),
        ("我算00后。", "用户算00后"),
    ],
)
def test_a_generation_is_the_age(said: str, fact: str) -> None:
    assert (fact, "age") in _facts(said)


def test_the_year_animal_is_stored_and_a_name_like_a_generation_is_still_a_name() -> None:
    assert [c for c, _ in _facts("我属兔的。")] == ["用户属兔的"]
    assert ("User's name is Genna", "name") in _facts("I'm Genna.")


@pytest.mark.parametrize(
    ("said", "fact"),
    [
        ("我是研一新生，学的是化学。", "用户学的是化学"),  # was read as learning "的是化学"
        ("我学的是会计。", "用户学的是会计"),
    ],
)
def test_what_the_user_studies_said_as_xue_de_shi_is_kept(said: str, fact: str) -> None:
    assert fact in [c for c, _ in _facts(said)]


# --- helper 365: the user's own, someone's thing, a thing of the moment ---------------------


@pytest.mark.parametrize(
    ("said", "wrong"),
    [
        ("I visited my aunt last weekend and loved it.", "User loved my aunt"),
        ("I watched my nephew's school play and loved it.", "User loved my nephew's school play"),
        ("I tried to repaint the fence and hated it.", "User hated to repaint the fence"),
        ("I went to a baptism on Sunday and loved it.", "User loved a baptism"),
        ("I read the essay you suggested and loved it.", "User loved the essay you suggested"),
    ],
)
def test_the_users_own_a_thing_tried_to_do_or_one_of_a_kind_is_no_taste(
    said: str, wrong: str
) -> None:
    assert not any(content.startswith(wrong) for content, _ in _facts(said))


@pytest.mark.parametrize(
    "said",
    [
        "I'm watching Priya's hamster.",  # someone's pet minded
        "I'm watching Leo for my neighbour.",  # a child minded
        "I'm reading Marco's cover letter.",  # someone's writing
        "I'm watching Saturday's final.",
        "I'm watching Arsenal play Spurs.",  # a match of the moment
        "I'm reading Django docs.",
        "I'm reading Wikipedia.",
        "I'm reading Chapter 7.",
        "I'm watching Nvidia stock.",
        "I'm reading French news.",
    ],
)
def test_someones_thing_a_match_or_writing_of_the_moment_is_not_in_progress(said: str) -> None:
    assert not any("reading" in c or "watching" in c for c, _ in _facts(said)), _facts(said)


@pytest.mark.parametrize(
    ("said", "fact"),
    [
        ("I'm reading Charlotte's Web to my son.", "User is reading Charlotte's Web"),
        ("I'm watching Grey's Anatomy again.", "User is watching Grey's Anatomy"),
        ("I'm watching Dune for the second time.", "User is watching Dune"),
        ("I watched Amélie last weekend and adored it.", "User adored Amélie"),
    ],
)
def test_a_title_with_a_possessive_or_said_again_is_still_kept(said: str, fact: str) -> None:
    contents = [content for content, _ in _facts(said)]
    assert any(content.startswith(fact) for content in contents), contents
