"""A retraction withdraws the facts about what it names, not every fact sharing one of its words.

"Forget the Paris trip" withdrew "User was born in Paris": the plan word was dropped and the
retraction matched any fact containing "Paris". Now all of the retracted thing's content words
must be in the fact (a trip is found by any travel word: "a vacation in Rome"), in English and
in Chinese ("忘掉巴黎旅行的事" keeps "出生在巴黎" and withdraws "去巴黎旅游"). Sentences written
for this test, none taken from the bench tables.
"""

from __future__ import annotations

import pytest
from langchain_core.messages import AIMessage, HumanMessage

from deerflow_memory.models import Fact, FactCategory, MemoryDocument
from deerflow_memory.update.extraction import ExtractionRequest
from deerflow_memory.update.offline.extractor import OfflineExtractor

REMOVE, KEEP = True, False

# (what the user said, the stored fact, whether the fact is withdrawn)
TABLE = [
    # English: the thing retracted goes...
    ("Forget the Paris trip.", "User is planning a trip to Paris in May", REMOVE),
    ("Scrap the Rome holiday, it's off.", "User is taking a vacation in Rome next month", REMOVE),
    ("The Berlin move is off.", "User is moving to Berlin in the autumn", REMOVE),
    ("Forget the piano course.", "User is taking a piano course on Saturdays", REMOVE),
    ("Ignore what I said about Paris trip plans.", "User plans a trip to Paris in May", REMOVE),
    ("Forget the London visit.", "User is visiting London next week", REMOVE),
    ("My Lisbon wedding was called off.", "User is getting married in Lisbon next spring", REMOVE),
    ("Forget what I said about the trip to Paris.", "User's Paris trip is in June", REMOVE),
    ("Forget the Iceland trip.", "User is flying to Iceland in March", REMOVE),
    ("Forget what I said about Paris.", "User was born in Paris", REMOVE),
    # ...facts that only share a word with it stay
    ("Forget the Paris trip.", "User was born in Paris", KEEP),
    ("Scrap the Rome holiday, it's off.", "User's sister lives in Rome", KEEP),
    ("The Berlin move is off.", "User works remotely for a company in Berlin", KEEP),
    ("Cancel my Spain trip.", "User studied in Spain for a year", KEEP),
    ("Forget the piano course.", "User plays the piano every evening", KEEP),
    ("Forget the London visit.", "User grew up in London", KEEP),
    ("Ignore what I said about Paris trip plans.", "User was born in Paris", KEEP),
    ("Drop the Tokyo vacation altogether.", "User loves Tokyo-style ramen", KEEP),
    ("My Lisbon wedding was called off.", "User met their partner in Lisbon", KEEP),
    # "user" is a word after the fact's subject: a power user is not a power nap
    ("I'm no longer a power user.", "User takes a power nap after lunch", KEEP),
    ("I'm no longer a power user.", "User is a power user of Excel", REMOVE),
    ("I'm not a Vim user anymore.", "User uses Vim daily", REMOVE),
    # Chinese: the thing retracted goes...
    ("忘掉巴黎旅行的事", "用户下个月要去巴黎旅游", REMOVE),
    ("巴黎旅行计划取消了", "用户计划去巴黎度假", REMOVE),
    ("搬去深圳的计划取消了", "用户明年搬到深圳", REMOVE),
    ("别记巴黎那次旅行了", "用户计划去巴黎旅行", REMOVE),
    ("删掉我说的杭州婚礼", "用户明年在杭州结婚", REMOVE),
    ("忘掉钢琴课的事", "用户每周六上钢琴课", REMOVE),
    ("我放弃了去巴黎旅行", "用户下个月去巴黎旅行", REMOVE),
    ("忘掉巴黎的事", "用户出生在巴黎", REMOVE),
    # ...facts that only share a word with it stay
    ("忘掉巴黎旅行的事", "用户出生在巴黎", KEEP),
    ("巴黎旅行计划取消了", "用户的姐姐住在巴黎", KEEP),
    ("搬去深圳的计划取消了", "用户在深圳工作", KEEP),
    ("别记日本旅游的事了", "用户喜欢日本动漫", KEEP),
    ("删掉我说的杭州婚礼", "用户在杭州长大", KEEP),
    ("忘掉钢琴课的事", "用户每天晚上弹钢琴", KEEP),
    ("我放弃了去巴黎旅行", "用户会说一点法语，去过巴黎", KEEP),
]


def withdrawn(said: str, stored: str) -> bool:
    document = MemoryDocument(
        facts=(Fact(id="stored", content=stored, category=FactCategory.CONTEXT, confidence=0.9),)
    )
    request = ExtractionRequest(document, [HumanMessage(said), AIMessage("OK.")], "t2")
    return [r.id for r in OfflineExtractor().extract(request).facts_to_remove] == ["stored"]


@pytest.mark.parametrize(("said", "stored", "removed"), TABLE)
def test_a_retraction_withdraws_the_facts_about_what_it_names_and_only_those(
    said: str, stored: str, removed: bool
) -> None:
    assert withdrawn(said, stored) is removed


def test_the_table_has_both_kinds_in_both_languages() -> None:
    for zh in (False, True):
        rows = [r for r in TABLE if (r[0] >= "\u4e00") is zh]
        assert {r[2] for r in rows} == {REMOVE, KEEP} and len(rows) >= 10


def test_earlier_statements_of_the_same_conversation_follow_the_same_rule() -> None:
    said = [
        HumanMessage("I was born in Paris. I'm planning a trip to Paris in May."),
        AIMessage("Nice."),
        HumanMessage("Actually, forget the Paris trip."),
        AIMessage("OK."),
    ]
    request = ExtractionRequest(MemoryDocument(), said, "t1")
    contents = [f.content for f in OfflineExtractor().extract(request).new_facts]
    assert any("born in Paris" in c for c in contents), contents
    assert not any("trip" in c for c in contents), contents
