"""Everyday messages the offline extractor misread (surveyor 1): typos, errands, praise, names."""

from __future__ import annotations

import pytest

from tests.test_offline_extractor import _extract


@pytest.mark.parametrize(
    ("said", "stored"),
    [
        # common misspellings of a need's or a job's word are read, and stored, as meant
        ("i'm alergic to wasps", ["User is allergic to wasps"]),
        ("im a civil enginer", ["User is a civil engineer"]),
        ("i'm vegitarian tbh", ["User is vegetarian"]),
        ("i hav eczema", ["User has eczema"]),
        ("my names Rosa", ["User's name is Rosa"]),
        ("I'm lactose intollerant", ["User is lactose intolerant"]),
        # a tag at the end is no part of the fact
        ("I live in Oslo ngl", ["User lives in Oslo"]),
        # a verb in "-eed" takes the third person like any other
        ("I need to avoid shellfish", ["User needs to avoid shellfish"]),
        ("I feed the ducks every Sunday", ["User feeds the ducks every Sunday"]),
        # a second name people use goes on its own
        (
            "my name is Oluwaseun but everyone calls me Seun",
            ["User's name is Oluwaseun", "User goes by Seun"],
        ),
        ("同事们都叫我老周", ["大家叫用户老周"]),
        # a habit somewhere stays
        ("I'm at the gym most mornings", ["User is at the gym most mornings"]),
        ("我想要一个小花园", ["用户想要一个小花园"]),
    ],
)
def test_everyday_statements_are_read_as_meant(said: str, stored: list[str]) -> None:
    assert [f.content for f in _extract(said).new_facts] == stored


@pytest.mark.parametrize(
    "said",
    [
        # where the user is right now, what they just did, an errand of the day
        "I'm at the station waiting for a train.",
        "I'm on the bus right now",
        "I just had the worst sandwich of my life",
        "I need to email my accountant today, can you help?",
        "我在高铁上，网络不好。",
        # praise of the answer
        "谢谢，非常有用！",
        "说得太好了，谢谢",
        "干得漂亮，很有帮助。",
        # a request said as a wish
        "我想要一首关于秋天的诗",
        # "叫我" before a verb is no name
        "朋友叫我帮忙",
        "大家都叫我去吃饭",
    ],
)
def test_messages_of_the_moment_store_nothing(said: str) -> None:
    assert _extract(said).new_facts == ()
