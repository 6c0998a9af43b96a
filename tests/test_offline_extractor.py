"""The rule-based offline extractor: what it records, what it refuses, and how it updates memory."""

from __future__ import annotations

import pytest
from langchain_core.messages import AIMessage, BaseMessage, HumanMessage

from deerflow_memory.models import (
    Fact,
    FactCategory,
    MemoryDocument,
    MemoryUpdate,
    SourceType,
)
from deerflow_memory.update.extraction import ExtractionRequest, Extractor
from deerflow_memory.update.offline.extractor import OfflineExtractor, fact_key

P, CX, K, B, G, CR = (
    FactCategory.PREFERENCE,
    FactCategory.CONTEXT,
    FactCategory.KNOWLEDGE,
    FactCategory.BEHAVIOR,
    FactCategory.GOAL,
    FactCategory.CORRECTION,
)

# (user sentence, expected category, substring of the expected fact)
POSITIVES: list[tuple[str, FactCategory, str]] = [
    # diet and allergies
    ("I don't eat seafood", P, "User does not eat seafood"),
    ("I'm allergic to peanuts.", CX, "User is allergic to peanuts"),
    ("I am severely allergic to shellfish", CX, "allergic to shellfish"),
    ("I have a peanut allergy", CX, "User has a peanut allergy"),
    ("I'm vegetarian", P, "User is vegetarian"),
    ("I'm a vegan", P, "vegan"),
    ("Please remember that I'm lactose intolerant.", CX, "User is lactose intolerant"),
    ("I never eat pork", P, "User never eats pork"),
    ("I no longer eat meat.", P, "User no longer eats meat"),
    ("我不吃海鲜", P, "用户不吃海鲜"),
    ("我对花生过敏", CX, "用户对花生过敏"),
    ("我花生过敏", CX, "用户对花生过敏"),
    ("我吃素", P, "用户吃素"),
    ("我是素食主义者", P, "用户是素食主义者"),
    ("我乳糖不耐受", CX, "用户乳糖不耐受"),
    ("请记住我不吃香菜", P, "用户不吃香菜"),
    ("我不喝酒", P, "用户不喝酒"),
    # preferences and dislikes
    ("I like a slow pace", P, "User likes a slow pace"),
    ("I prefer concise answers.", P, "User prefers concise answers"),
    ("I'd rather take the train than fly.", P, "User would rather take the train than fly"),
    ("I don't like crowded places", P, "User does not like crowded places"),
    ("I hate cilantro.", P, "User hates cilantro"),
    ("I'm not a fan of long meetings", P, "User is not a fan of long meetings"),
    ("I'm a big fan of Studio Ghibli", P, "User is a big fan of Studio Ghibli"),
    ("I like hiking, cycling and swimming", P, "User likes hiking, cycling and swimming"),
    ("my favorite food is sushi", P, "User's favorite food is sushi"),
    ("喜欢慢节奏", P, "用户喜欢慢节奏"),
    ("我更喜欢安静的酒店", P, "用户更喜欢安静的酒店"),
    ("我不太喜欢太甜的东西", P, "用户不太喜欢太甜的东西"),
    ("我讨厌下雨天", P, "用户讨厌下雨天"),
    ("我最喜欢的颜色是蓝色", P, "用户最喜欢的颜色是蓝色"),
    ("我宁愿坐火车也不坐飞机", P, "用户宁愿坐火车"),
    # name
    ("My name is Alice", CX, "User's name is Alice"),
    ("Hi, I'm Alice.", CX, "User's name is Alice"),
    ("Call me Bob", CX, "User likes to be called Bob"),
    ("Everyone calls me Mike", CX, "User goes by Mike"),
    ("我叫陈默", CX, "用户叫陈默"),
    ("我的名字是李雷", CX, "用户叫李雷"),
    ("叫我小王就行", CX, "用户希望被称呼为小王"),
    # location and origin
    ("I live in Berlin", CX, "User lives in Berlin"),
    ("I'm based in Shanghai", CX, "User is based in Shanghai"),
    ("I'm originally from Canada", CX, "User is originally from Canada"),
    ("I grew up in Texas.", CX, "User grew up in Texas"),
    ("我住在上海", CX, "用户住在上海"),
    ("坐标杭州", CX, "用户住在杭州"),
    ("我来自成都", CX, "用户来自成都"),
    ("我是四川人", CX, "用户是四川人"),
    # work
    ("I work as a data scientist", CX, "User works as a data scientist"),
    ("I'm a software engineer at Google", CX, "User is a software engineer at Google"),
    ("I work at Microsoft", CX, "User works at Microsoft"),
    ("I am a teacher.", CX, "User is a teacher"),
    ("我是一名软件工程师", CX, "用户是一名软件工程师"),
    ("我在字节跳动工作", CX, "用户在字节跳动工作"),
    ("我在上海工作", CX, "用户在上海工作"),
    ("我是做设计的", CX, "用户是做设计的"),
    # family
    ("I have two kids", CX, "User has two kids"),
    ("I have a daughter", CX, "User has a daughter"),
    ("I'm married", CX, "User is married"),
    ("我有两个孩子", CX, "用户有两个孩子"),
    ("我有一个三岁的儿子", CX, "用户有一个三岁的儿子"),
    ("我养了两只猫", CX, "用户养了两只猫"),
    # knowledge
    ("I'm learning Rust", K, "User is learning Rust"),
    ("I'm new to Python", K, "User is new to Python"),
    (
        "I've been programming in Python for 10 years.",
        K,
        "User has been programming in Python for 10 years",
    ),
    ("I speak Japanese", K, "User speaks Japanese"),
    ("我是Python新手", K, "用户是Python新手"),
    ("我会说日语和韩语", K, "用户会说日语和韩语"),
    ("我正在学习Python", K, "用户正在学习Python"),
    ("我学了五年的法语", K, "用户学了五年的法语"),
    ("我会弹吉他", K, "用户会弹吉他"),
    # goals
    ("I want to learn Spanish", G, "User wants to learn Spanish"),
    ("I plan to run a marathon next year", G, "User plans to run a marathon next year"),
    ("My goal is to become a pilot", G, "User's goal is to become a pilot"),
    ("I'm trying to lose weight.", G, "User is trying to lose weight"),
    ("Hi! I'm planning a trip to Japan in April.", G, "User is planning a trip to Japan in April"),
    (
        "I'm planning a two-week vacation in Italy",
        G,
        "User is planning a two-week vacation in Italy",
    ),
    ("我想学日语", G, "用户想学日语"),
    ("我的目标是考上研究生", G, "用户的目标是考上研究生"),
    ("我打算明年去日本留学", G, "用户打算明年去日本留学"),
    ("我正在准备雅思考试", G, "用户正在准备雅思考试"),
    # habits
    ("I usually wake up at 6am", B, "User usually wakes up at 6am"),
    ("I go to the gym every morning", B, "User goes to the gym every morning"),
    ("我习惯晚睡", B, "用户习惯晚睡"),
    # standing instructions
    (
        "From now on, answer in Chinese",
        P,
        "User's standing instruction: from now on, answer in Chinese",
    ),
    ("Always use metric units", P, "User's standing instruction: always use metric units"),
    (
        "Don't use bullet points anymore.",
        P,
        "User's standing instruction: don't use bullet points anymore",
    ),
    (
        "I want you to always answer in English.",
        P,
        "User's standing instruction: always answer in English",
    ),
    ("以后回答请用中文", P, "用户的长期要求：以后回答请用中文"),
    ("不要再给我推荐海鲜了", P, "用户的长期要求：不要再给我推荐海鲜了"),
]

NEGATIVES: list[str] = [
    "My sister is planning a trip to Rome",
    "Are you planning a trip?",
    # other people
    "my friend is allergic to nuts",
    "My daughter is allergic to eggs.",
    "my wife loves sushi",
    "she likes jazz",
    "We shipped the release on Friday.",  # a team; "we live in…" is the household
    "They don't eat pork.",
    "我妈妈不吃辣",
    "我女儿对鸡蛋过敏",
    "我们公司在广州",  # the company; "我们住在…" is the household (kinds table)
    "他不吃猪肉",
    # questions and hypotheticals
    "do you like sushi?",
    "Is it vegan?",
    "what if I were allergic to nuts",
    "If I lived in Tokyo I'd learn Japanese.",
    "I wish I lived in Tokyo.",
    "我喜欢的餐厅有哪些？",
    "你喜欢吃什么？",
    "如果我对花生过敏怎么办",
    "假如我住在上海",
    "我不知道我喜不喜欢",
    # negated intent, hedges, past
    "I don't want to learn Python",
    "I'm not vegetarian",
    "I don't think I'm allergic to anything.",
    "I used to live in Paris.",
    "我不是素食者",
    # quoted text
    'He said "I love jazz"',
    '"I\'m vegan," said my friend.',
    '他说"我喜欢爵士乐"',
    # pronoun objects and one-off requests
    "I love it!",
    "I love your suggestion!",
    "I like the second option better.",
    "I'd like a window seat.",
    "I want to book a flight",
    "I want to buy a new phone tomorrow.",
    "I'm in Tokyo this week",
    "我喜欢这个",
    "我喜欢你的建议",
    "我想问一下天气",
    "我想吃火锅",
    "我今天不吃辣",
    "我明天要去北京",
    # look-alikes
    "call me back later",
    "I'm tired",
    "Never mind",
    "我叫了外卖",
    "我住院了",
    "以后再说吧",
    "我是好人",
    "My son is vegetarian",
    "I think my sister lives in Oslo",
    "I'd love to see the menu",
    "我朋友喜欢日本料理",
    "假设我不吃肉，推荐什么？",
    "今天我想吃点清淡的",
    "我会去的",
    "I'm going to the gym tomorrow",
]


def _request(*user_texts: str, document: MemoryDocument | None = None) -> ExtractionRequest:
    messages: list[BaseMessage] = []
    for text in user_texts:
        messages += [HumanMessage(text), AIMessage("Noted.")]
    return ExtractionRequest(
        document=document or MemoryDocument(), messages=messages, thread_id="t1"
    )


def _extract(*user_texts: str, document: MemoryDocument | None = None) -> MemoryUpdate:
    return OfflineExtractor().extract(_request(*user_texts, document=document))


def _fact(fact_id: str, content: str, category: FactCategory = CX) -> Fact:
    return Fact(id=fact_id, content=content, category=category, confidence=0.9, source="old-thread")


def test_the_offline_extractor_fulfils_the_extractor_protocol() -> None:
    assert isinstance(OfflineExtractor(), Extractor)


def test_the_sentence_table_has_at_least_sixty_sentences_in_both_languages() -> None:
    texts = [t for t, _, _ in POSITIVES] + NEGATIVES
    chinese = [t for t in texts if any("\u4e00" <= ch <= "\u9fff" for ch in t)]
    assert len(texts) >= 60
    assert 20 <= len(chinese) <= len(texts) - 20


@pytest.mark.parametrize(("text", "category", "expected"), POSITIVES)
def test_an_explicit_self_statement_becomes_one_user_stated_fact(
    text: str, category: FactCategory, expected: str
) -> None:
    update = _extract(text)
    assert [(f.category, expected in f.content) for f in update.new_facts] == [(category, True)], (
        update.new_facts
    )
    [fact] = update.new_facts
    assert fact.source_type is SourceType.USER_STATED
    assert fact.confidence >= 0.85


@pytest.mark.parametrize("text", NEGATIVES)
def test_statements_not_about_the_user_or_not_durable_give_no_fact(text: str) -> None:
    assert _extract(text).new_facts == ()


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (
            "I don't eat seafood, I'm allergic to peanuts, and I like a slow-paced trip",
            [
                "User does not eat seafood",
                "User is allergic to peanuts",
                "User likes a slow-paced trip",
            ],
        ),
        (
            "我不吃海鲜，对花生过敏，喜欢慢节奏的旅行",
            ["用户不吃海鲜", "用户对花生过敏", "用户喜欢慢节奏的旅行"],
        ),
        ("我不吃海鲜，而且对花生过敏", ["用户不吃海鲜", "用户对花生过敏"]),
        ("I love hiking but I hate running.", ["User loves hiking", "User hates running"]),
        (
            "I love spicy food but I can't handle dairy",
            ["User loves spicy food", "User cannot handle dairy"],
        ),
        ("我对坚果过敏，也不吃辣", ["用户对坚果过敏", "用户不吃辣"]),
        (
            "My name is Alice and I work as a nurse",
            ["User's name is Alice", "User works as a nurse"],
        ),
        ("我叫陈默，坐标杭州", ["用户叫陈默", "用户住在杭州"]),
        ("我对海鲜过敏，不过可以吃鱼", ["用户对海鲜过敏", "用户可以吃鱼"]),
        ("我是一名大学生，在读计算机专业", ["用户是一名大学生", "用户在读计算机专业"]),
    ],
)
def test_compound_sentences_are_split_into_one_fact_per_statement(
    text: str, expected: list[str]
) -> None:
    assert [f.content for f in _extract(text).new_facts] == expected


def test_the_seed_travel_example_gives_three_facts_with_diet_and_allergy_ranked_highest() -> None:
    update = _extract("I don't eat seafood, I'm allergic to peanuts, and I like a slow-paced trip")
    by_content = {f.content: f for f in update.new_facts}
    assert by_content["User is allergic to peanuts"].confidence == 0.95
    assert by_content["User does not eat seafood"].confidence == 0.95
    assert by_content["User likes a slow-paced trip"].confidence < 0.95


def test_every_fact_is_user_stated_and_above_the_default_threshold() -> None:
    update = _extract(*[text for text, _, _ in POSITIVES])
    # One fact per sentence, except that only the latest name, city, job… of a conversation is kept.
    assert len(update.new_facts) >= 60
    assert all(f.source_type is SourceType.USER_STATED for f in update.new_facts)
    assert all(f.confidence >= 0.7 for f in update.new_facts)


def test_assistant_text_is_never_a_source_of_facts() -> None:
    request = ExtractionRequest(
        document=MemoryDocument(),
        messages=[
            HumanMessage("plan a trip"),
            AIMessage("I'm allergic to peanuts and I live in Rome."),
        ],
        thread_id="t1",
    )
    assert OfflineExtractor().extract(request).is_noop()


def test_upload_blocks_and_code_are_not_read_as_statements() -> None:
    text = "<uploaded_files>I live in Atlantis</uploaded_files>\n```\nI'm allergic to bees\n```\n"
    update = _extract(text + "I live in Lyon")
    assert [f.content for f in update.new_facts] == ["User lives in Lyon"]


def test_facts_already_stored_are_not_added_again() -> None:
    document = MemoryDocument(
        facts=(
            _fact("f1", "The user doesn't eat seafood.", P),
            _fact("f2", "user is ALLERGIC to   peanuts"),
            _fact("f3", "用户住在杭州"),
        )
    )
    update = _extract(
        "I don't eat seafood, I'm allergic to peanuts, and I like jazz",
        "我住在杭州",
        document=document,
    )
    assert [f.content for f in update.new_facts] == ["User likes jazz"]
    assert update.facts_to_remove == ()


def test_the_same_value_in_other_words_is_a_duplicate() -> None:
    document = MemoryDocument(facts=(_fact("f1", "The user resides in Berlin"),))
    assert _extract("I'm based in Berlin", document=document).is_noop()


def test_a_statement_repeated_in_the_conversation_gives_one_fact() -> None:
    assert [f.content for f in _extract("I'm vegan", "As I said, I'm vegan").new_facts] == [
        "User is vegan"
    ]


def test_a_correction_with_not_x_supersedes_the_stored_fact() -> None:
    document = MemoryDocument(
        facts=(_fact("f1", "User lives in Munich"), _fact("f2", "User likes jazz", P))
    )
    update = _extract("Actually I live in Berlin, not Munich", document=document)
    [fact] = update.new_facts
    assert (fact.content, fact.category, fact.source_error) == (
        "User lives in Berlin",
        CR,
        "User lives in Munich",
    )
    assert fact.confidence >= 0.9
    assert [r.id for r in update.facts_to_remove] == ["f1"]
    assert "User lives in Berlin" in update.facts_to_remove[0].reason


def test_a_correction_without_a_stored_fact_still_names_the_error() -> None:
    [fact] = _extract("No, I'm a designer, not a developer").new_facts
    assert (fact.content, fact.category, fact.source_error) == (
        "User is a designer",
        CR,
        "User is a developer",
    )


def test_i_said_y_not_x_rewrites_the_stored_fact_that_mentions_x() -> None:
    document = MemoryDocument(
        facts=(_fact("f1", "User lives in Munich"), _fact("f2", "User likes jazz", P))
    )
    update = _extract("I said Berlin, not Munich", document=document)
    [fact] = update.new_facts
    assert (fact.content, fact.category, fact.source_error) == (
        "User lives in Berlin",
        CR,
        "User lives in Munich",
    )
    assert [r.id for r in update.facts_to_remove] == ["f1"]


def test_i_said_y_not_x_corrects_a_statement_earlier_in_the_same_conversation() -> None:
    update = _extract("I live in Munich", "I said Berlin, not Munich")
    assert [(f.content, f.category) for f in update.new_facts] == [("User lives in Berlin", CR)]


def test_a_clarification_with_nothing_to_rewrite_is_kept_as_a_correction() -> None:
    [fact] = _extract("I said Python, not Java").new_facts
    assert (fact.content, fact.category, fact.source_error) == (
        "User clarified: Python, not Java",
        CR,
        "Java",
    )


@pytest.mark.parametrize(
    ("text", "content", "error"),
    [
        ("不是北京，是上海", "用户住在上海", "用户住在北京"),
        ("我住在上海，不是北京", "用户住在上海", "用户住在北京"),
        ("其实我住在上海", "用户住在上海", "用户住在北京"),
    ],
)
def test_chinese_corrections_supersede_the_stored_fact(text: str, content: str, error: str) -> None:
    document = MemoryDocument(facts=(_fact("f1", "用户住在北京"), _fact("f2", "用户喜欢爵士乐", P)))
    update = _extract(text, document=document)
    [fact] = update.new_facts
    assert (fact.content, fact.category, fact.source_error) == (content, CR, error)
    assert [r.id for r in update.facts_to_remove] == ["f1"]


def test_a_chinese_not_x_but_y_about_the_job_is_a_correction() -> None:
    [fact] = _extract("我不是程序员，是设计师").new_facts
    assert (fact.content, fact.category, fact.source_error) == ("用户是设计师", CR, "用户是程序员")


def test_moving_house_supersedes_the_old_city_without_being_a_correction() -> None:
    document = MemoryDocument(facts=(_fact("f1", "User lives in Munich"),))
    update = _extract("I live in Berlin", document=document)
    [fact] = update.new_facts
    assert (fact.content, fact.category, fact.source_error) == ("User lives in Berlin", CX, None)
    assert [r.id for r in update.facts_to_remove] == ["f1"]


def test_a_changed_taste_supersedes_the_opposite_preference() -> None:
    document = MemoryDocument(
        facts=(_fact("f1", "User likes jazz", P), _fact("f2", "User likes tea", P))
    )
    update = _extract("I don't like jazz", document=document)
    assert [f.content for f in update.new_facts] == ["User does not like jazz"]
    assert [r.id for r in update.facts_to_remove] == ["f1"]


def test_the_latest_statement_in_a_conversation_wins_for_single_valued_facts() -> None:
    document = MemoryDocument(facts=(_fact("f1", "User lives in Berlin"),))
    # The whole thread is re-read on every update: an old message must not undo a newer one.
    assert _extract(
        "I live in Munich", "Sorry, I live in Berlin, not Munich", document=document
    ).is_noop()


def test_a_contrast_that_is_not_a_correction_stays_a_preference() -> None:
    [fact] = _extract("I like tea, not coffee").new_facts
    assert (fact.content, fact.category, fact.source_error) == (
        "User likes tea, not coffee",
        P,
        None,
    )


def test_name_location_and_job_refresh_the_user_context_summaries() -> None:
    update = _extract("My name is Alice and I live in Berlin. I work as a nurse.")
    assert update.user.personal_context is not None and update.user.personal_context.should_update
    assert update.user.personal_context.summary == "User's name is Alice. User lives in Berlin."
    assert update.user.work_context is not None
    assert update.user.work_context.summary == "User works as a nurse."


def test_the_personal_summary_combines_stored_and_new_slot_facts() -> None:
    document = MemoryDocument(facts=(_fact("f1", "用户叫陈默"), _fact("f2", "用户住在北京")))
    update = _extract("我搬到杭州了", document=document)
    assert update.user.personal_context is not None
    assert update.user.personal_context.summary == "用户叫陈默。 用户住在杭州。"
    assert update.user.work_context is None


def test_preferences_alone_leave_the_user_context_untouched() -> None:
    update = _extract("I like jazz")
    assert update.user.personal_context is None and update.user.work_context is None


def test_extraction_is_deterministic_and_leaves_its_input_alone() -> None:
    request = _request("I'm allergic to peanuts", "我住在上海，不是北京")
    before = request.document.model_dump()
    first = OfflineExtractor().extract(request)
    second = OfflineExtractor().extract(request)
    assert first == second
    assert request.document.model_dump() == before


@pytest.mark.parametrize(
    ("a", "b"),
    [
        ("User doesn't eat seafood.", "the user does not eat   seafood"),
        ("用户不吃海鲜。", "用户不吃海鲜"),
        ("User is Allergic to peanuts", "user is allergic to peanuts!"),
    ],
)
def test_fact_keys_ignore_case_spacing_contractions_and_the_user_prefix(a: str, b: str) -> None:
    assert fact_key(a) == fact_key(b)


def test_fact_keys_keep_different_facts_apart() -> None:
    assert fact_key("User likes jazz") != fact_key("User does not like jazz")


# --- many corrections in one conversation (attack 33, carried) ---------------------------------


MENTION_CASES = [
    ("User lives in Oslo", "oslo"),
    ("User lives in Oslon", "Oslo"),
    ("User's home is OSLO, Norway", "Oslo"),
    ("User's home is in Straße 5", "STRASSE"),
    ("User's home is in Straße 5", "straße"),
    ("用户Python开发者", "Python"),
    ("用户住在Oslo", "Oslo"),
    ("User uses Python3", "Python"),
    ("User measures in \u212aelvin", "kelvin"),  # the Kelvin sign: re's case rules
    ("User is in the user group", "user"),
    ("The user likes tea", "user"),
    ("用户住在北京", "北京"),
    ("User likes C++ and c#", "c++"),
]


@pytest.mark.parametrize(("content", "needle"), MENTION_CASES)
def test_the_prepared_mention_search_answers_as_the_plain_one(content: str, needle: str) -> None:
    from deerflow_memory.update.offline.extractor import _mention_finder, _mentions

    assert _mention_finder(needle)(content) == _mentions(content, needle)


def test_a_thousand_corrections_look_at_the_facts_that_hold_their_words_only(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Each "I said Y, not X" searched every fact stored and said so far with a pattern
    # built anew: 1,000 in one message cost 1.6 s. Facts without X's letters are
    # passed by a substring test now, without the pattern.
    from deerflow_memory.update.offline import extractor

    looked: list[str] = []
    subject_end = extractor._subject_end
    monkeypatch.setattr(
        extractor, "_subject_end", lambda content: looked.append(content) or subject_end(content)
    )
    stored = [Fact(content=f"User likes the harbour number {i}") for i in range(100)]
    said = " ".join(f"I said Tromso{i}, not Bergen{i}." for i in range(300))
    update = _extract(said, document=MemoryDocument(facts=tuple(stored)))
    assert len(update.new_facts) == 300  # each one said as a correction, as before
    assert {f.category for f in update.new_facts} == {CR}
    assert len(looked) < 10 * 300  # (300 + 100) x 300 looks before


@pytest.mark.parametrize(
    ("said", "stored"),
    [
        # an initial, a dotted abbreviation or a short form is no sentence end (attack 37)
        ("My name is Anna K. Lindqvist", ["User's name is Anna K. Lindqvist"]),
        ("I work at H. Samuel", ["User works at H. Samuel"]),
        ("I'm a M.Sc. student", ["User is a M.Sc. student"]),
        ("I work for A.P. Moller", ["User works for A.P. Moller"]),
        ("I work as a jr. designer", ["User works as a jr. designer"]),
        ("I live in Mt. Pleasant", ["User lives in Mt. Pleasant"]),
        ("我住在Ft. Worth", ["用户住在Ft. Worth"]),
        # ... unless what follows opens a sentence
        (
            "My blood type is O. I also have hay fever.",
            ["User's blood type is O", "User also has hay fever"],
        ),
        ("I grew up in the U.K. I like rugby.", ["User grew up in the U.K.", "User likes rugby"]),
        ("I said no. I live in Lyon.", ["User lives in Lyon"]),
        # ... or, after a dotted place a place word comes before, a capitalised word and a verb
        (
            "I grew up in the U.S. Sesame gives me hives.",
            ["User grew up in the U.S.", "User reacts to sesame: it gives them hives"],
        ),
        (
            "I studied in the U.K. Mushrooms make me ill.",
            ["User reacts to mushrooms: they make them ill"],
        ),
        # ... while a name or a place goes on
        ("I'm a fan of J.R.R. Tolkien", ["User is a fan of J.R.R. Tolkien"]),
        ("I think J.K. Rowling is a great writer.", []),
        ("I live in the U.S. Virgin Islands", ["User lives in the U.S. Virgin Islands"]),
        ("I work in the U.S. Postal service", ["User works in the U.S. Postal service"]),
    ],
)
def test_a_full_stop_inside_a_name_or_short_form_does_not_cut_the_fact(
    said: str, stored: list[str]
) -> None:
    assert [f.content for f in _extract(said).new_facts] == stored


@pytest.mark.parametrize(
    ("said", "stored"),
    [
        # the verb after a degree adverb takes the third person, not the adverb (attack 37)
        ("I almost never drink soda", "User almost never drinks soda"),
        ("I hardly ever watch TV", "User hardly ever watches TV"),
        ("I barely sleep before exams", "User barely sleeps before exams"),
        ("I pretty much live on rice", "User pretty much lives on rice"),
        ("I quite like folk music", "User quite likes folk music"),
    ],
)
def test_a_degree_adverb_before_the_verb_stays_as_it_is(said: str, stored: str) -> None:
    assert [f.content for f in _extract(said).new_facts] == [stored]


@pytest.mark.parametrize(
    ("said", "stored"),
    [
        # laughter before a statement is a lead-in, not a reason to keep nothing (attack 37)
        ("haha I'm allergic to kiwi", "User is allergic to kiwi"),
        ("lol I work night shifts", "User works night shifts"),
        ("Hahaha, I live in Gdansk", "User lives in Gdansk"),
        ("哈哈我对芒果过敏", "用户对芒果过敏"),
        ("嘿嘿，我是素食者", "用户是素食者"),
        ("哈" * 3_000 + "我对芒果过敏", "用户对芒果过敏"),  # taken whole: no split tried
    ],
)
def test_laughter_before_a_statement_is_a_lead_in(said: str, stored: str) -> None:
    assert [f.content for f in _extract(said).new_facts] == [stored]


@pytest.mark.parametrize(
    ("said", "stored"),
    [
        # a statement taken back is no fact (attack 37)
        ("I'm a pilot. Just kidding.", []),
        ("I'm allergic to cats (jk)", []),
        ("我是医生，开玩笑的", []),
        ("I'm vegetarian, or at least I used to be", []),
        ("I'm allergic to wasps. NOT.", []),
        ("I live in Turin. I'm a pilot. Only joking.", ["User lives in Turin"]),
        # ... and not when it is meant
        ("I live in Turin. I'm not kidding.", ["User lives in Turin"]),
        ("I'm a pilot, no joke", ["User is a pilot"]),
    ],
)
def test_a_statement_taken_back_is_no_fact(said: str, stored: list[str]) -> None:
    assert [f.content for f in _extract(said).new_facts] == stored


@pytest.mark.parametrize(
    ("said", "stored"),
    [
        # a capital alone after a lower-case word, then a capitalised word before a verb:
        # a new sentence, not a name going on (attacker 39)
        ("I'm allergic to vitamin C. Kiwis are fine though.", ["User is allergic to vitamin C"]),
        (
            "I had hepatitis A. Alcohol is off the table for me.",
            ["User had hepatitis A", "User avoids alcohol"],
        ),
        # ... or an opener after an initial, also an adverb before one, or after a bracket
        (
            "I take Vitamin D. Sadly I am lactose intolerant.",
            ["User takes Vitamin D", "User is lactose intolerant"],
        ),
        (
            "I take vitamin B12. (I'm vegan, so I need it.)",
            ["User takes vitamin B12", "User is vegan"],
        ),
        (
            "I grew up in the U.S. However I live in Lisbon now.",
            ["User grew up in the U.S.", "User lives in Lisbon now"],
        ),
        (
            "I take vitamin D. Apparently I'm allergic to sesame.",
            ["User takes vitamin D", "User is allergic to sesame"],
        ),
        # a name still goes on: no verb after it, a capital before the initial, or a
        # clause the word before the initial takes
        ("I shop at J. Crew for shirts", ["User shops at J. Crew for shirts"]),
        ("My favourite singer is Mary J. Blige.", ["User's favourite singer is Mary J. Blige"]),
        ("I listen to Mary J. Blige a lot.", ["User listens to Mary J. Blige a lot"]),
        ("I think J. Cole is the best rapper.", []),
    ],
)
def test_a_sentence_after_a_single_capital_is_its_own_fact(said: str, stored: list[str]) -> None:
    assert [f.content for f in _extract(said).new_facts] == stored


@pytest.mark.parametrize(
    ("said", "stored"),
    [
        # a pair of brackets is part of the fact; one that opens nowhere is not
        ("I live in Oslo (Norway)", ["User lives in Oslo (Norway)"]),
        ("I'm a vegetarian (mostly).", ["User is a vegetarian (mostly)"]),
        (
            "I'm allergic to nuts (all kinds) and I live in Bergen",
            ["User is allergic to nuts (all kinds)", "User lives in Bergen"],
        ),
        ("我住在北京（海淀）。", ["用户住在北京（海淀）"]),
        ("I live in Oslo!)", ["User lives in Oslo"]),
        # an aside in brackets is still said
        ("[I live in Tromsø]", ["User lives in Tromsø"]),
        ("（我对芒果过敏）", ["用户对芒果过敏"]),
        # a sentence adverb before the statement, with or without a comma
        ("Sadly I can't drive.", ["User cannot drive"]),
        ("Basically I work nights.", ["User works nights"]),
    ],
)
def test_brackets_and_sentence_adverbs_around_a_statement(said: str, stored: list[str]) -> None:
    assert [f.content for f in _extract(said).new_facts] == stored


@pytest.mark.parametrize(
    ("said", "stored"),
    [
        # a capital "I" in a short form or a Roman numeral is no pronoun (newcomer 38)
        ("I have type I diabetes.", ["User has type I diabetes"]),
        ("I was diagnosed with stage I melanoma.", ["User was diagnosed with stage I melanoma"]),
        ("I study at M.I.T. now.", ["User studies at M.I.T. now"]),
        ("I work in I.T. support.", ["User works in I.T. support"]),
        # a dotted short form ending the fact keeps its last full stop
        (
            "I'm based in Washington, D.C. and I bike to work.",
            ["User is based in Washington, D.C.", "User bikes to work"],
        ),
        ("I teach at M.I.T.", ["User teaches at M.I.T."]),
        ("I'm into World War I poetry.", ["User is into World War I poetry"]),
        ("I collect coins of Queen Elizabeth I.", ["User collects coins of Queen Elizabeth I"]),
        ("I'm a type I diabetic.", ["User is a type I diabetic"]),
        # ... while the pronoun still turns, after a label too (attacker 41)
        ("I was told I was anaemic.", ["User was told they were anaemic"]),
        ("I teach a class I adore.", ["User teaches a class they adore"]),
        ("I'm allergic to a type I can't spell.", ["User is allergic to a type they can't spell"]),
        ("I have a book I reread every winter.", ["User has a book they reread every winter"]),
        (
            "I'm vegetarian and at this stage I avoid eggs too.",
            ["User is vegetarian and at this stage they avoid eggs"],
        ),
    ],
)
def test_a_capital_i_that_is_no_pronoun_stays(said: str, stored: list[str]) -> None:
    assert [f.content for f in _extract(said).new_facts] == stored


@pytest.mark.parametrize(
    ("said", "stored"),
    [
        # a bracket after the full stop ends the sentence with it
        (
            "(I'm pescatarian.) Also I live in Ft. Myers.",
            [("User is pescatarian", "preference"), ("User lives in Ft. Myers", "context")],
        ),
        # commas inside a bracket pair do not cut the clause; an aside keeps the rule's kind
        (
            "I'm vegetarian (no fish, no gelatin).",
            [("User is vegetarian (no fish, no gelatin)", "preference")],
        ),
        (
            "我不吃辣（一点都不行，胃不好），住在厦门。",
            [("用户不吃辣（一点都不行，胃不好）", "preference"), ("用户住在厦门", "context")],
        ),
    ],
)
def test_brackets_keep_sentences_and_clauses_whole(
    said: str, stored: list[tuple[str, str]]
) -> None:
    assert [(f.content, f.category.value) for f in _extract(said).new_facts] == stored


@pytest.mark.parametrize(
    ("said", "stored"),
    [
        # a rule that put a phrase said again in place of the one before rewrote true
        # facts after apologies, hedges, additions and other clauses (attackers 41-43):
        # there is none, and what follows changes nothing that came before
        ("I'm allergic to wasps. Sorry, to trouble you again.", ["User is allergic to wasps"]),
        # (the bees are an allergy whether meant instead or as well: added, the wasps kept)
        (
            "I'm allergic to wasps. Sorry, to bees.",
            ["User is allergic to wasps", "User is allergic to bees"],
        ),
        ("I'm on a low-fat diet. No, on Sundays too.", ["User is on a low-fat diet"]),
        ("I'm allergic to mould, I mean to some extent.", ["User is allergic to mould"]),
        ("I live in Graz. Correction, in case you need it.", ["User lives in Graz"]),
        ("I'm allergic to mould. Correction, to be fair.", ["User is allergic to mould"]),
        ("I'm allergic to wasps... no wait, to hornets as well.", ["User is allergic to wasps"]),
        (
            "I take insulin for my diabetes. No wait, for the record it works.",
            ["User takes insulin for their diabetes"],
        ),
        ("I swim every day. Correction: in the evening.", ["User swims every day"]),
        (
            "I'm allergic to kiwi and I'm vegan. No wait, to mango.",
            ["User is allergic to kiwi", "User is vegan"],
        ),
    ],
)
def test_what_follows_a_statement_does_not_rewrite_it(said: str, stored: list[str]) -> None:
    assert [f.content for f in _extract(said).new_facts] == stored


@pytest.mark.parametrize(
    ("said", "stored"),
    [
        # a surname in -ly after an initial or a title goes on (attacker 40: "…Kelly, I'm"
        # was read as an adverb opening a sentence, and the stored name became "Grace T")
        (
            "My name is Grace T. Kelly, I'm an architect.",
            ["User's name is Grace T. Kelly", "User is an architect"],
        ),
        ("I'm Dr. Connolly, a dentist.", ["User is Dr. Connolly", "User is a dentist"]),
        # a lower-case word after a short form goes on: no new sentence, no lost condition
        ("My M.A. is in history.", ["User's M.A. is in history"]),
        (
            "I avoid oats, spelt etc. since I'm coeliac.",
            ["User avoids oats, spelt etc", "User is coeliac"],
        ),
        ("I take my inhaler at 9 p.m. if I cough.", []),
        # "Otherwise" and "Obviously" open what is not a plain statement: no lead-ins
        (
            "I'm allergic to latex. Otherwise I'm allergic to nothing.",
            ["User is allergic to latex"],
        ),
        ("Obviously I adore queuing.", []),
        # one pair of brackets in two widths; a mark inside an aside stays inside
        ("我住在上海(徐汇）", ["用户住在上海(徐汇）"]),
        # "Or" is a name, not a connector left at the end (attacker 43)
        ("My name is Or.", ["User's name is Or"]),
        ("I work nights in the OR.", ["User works nights in the OR"]),
        # a question mark inside an aside still asks; a joke inside one takes it back
        ("So I'm coeliac then (is that right?)", []),
        ("I'm allergic to kiwi (jk lol).", []),
        ("I'm allergic to kiwi (joking).", []),
        # "not joking" and a word like "sarcasm" take nothing back; "(joking)" does (attacker 44)
        ("I'm coeliac, not joking.", ["User is coeliac, not joking"]),
        (
            "I'm a teacher and I can't stand sarcasm.",
            ["User is a teacher", "User cannot stand sarcasm"],
        ),
        # a place or a name ending in "an" is no article cut short; "kind of" is a hedge
        ("I grew up in Xi'an.", ["User grew up in Xi'an"]),
        ("I'm allergic to latex, kind of.", ["User is allergic to latex, kind of"]),
        # "):" after a full stop is no face; a closing bracket before "I…" ends a sentence
        (
            "I avoid some foods (soy, corn etc.): gluten is the worst.",
            ["User avoids some foods (soy, corn etc.): gluten is the worst"],
        ),
        ("(I'm pescatarian) I live in Tromsø.", ["User is pescatarian", "User lives in Tromsø"]),
        # a hedge inside an aside stays with it (newcomer 39: a guess was stored as sure)
        (
            "I'm allergic to ibuprofen (and aspirin, I think).",
            ["User is allergic to ibuprofen (and aspirin, they think)"],
        ),
        # a face ends what it follows; "just kidding, I'm not" takes it back (attackers 45, 46)
        ("I'm allergic to ragweed ;-) just kidding, I'm not.", []),
        ("I have a parrot <3 it talks all day", ["User has a parrot"]),
        ("I'm allergic to sesame ;-) seriously though", ["User is allergic to sesame"]),
        ("i live in Tromsø ;) shh", ["User lives in Tromsø"]),
        # a numbered list of the user's statements is one item a line, in any marker
        # (attackers 46, 47); a list of one statement's objects stays one statement
        (
            "About me: 1) I'm vegan 2) I'm allergic to soy",
            ["User is vegan", "User is allergic to soy"],
        ),
        ("(a) I'm vegan (b) I live in Dalian", ["User is vegan", "User lives in Dalian"]),
        ("1）我吃素 2）我对大豆过敏", ["用户吃素", "用户对大豆过敏"]),
        (
            "I'm allergic to: 1) sesame 2) lupin",
            ["User is allergic to: 1) sesame 2) lupin"],
        ),
        # Chinese in an aside leaves an English sentence English
        ("I'm allergic to sesame (芝麻, 很严重).", ["User is allergic to sesame (芝麻, 很严重)"]),
        # "my whole life" is a lead-in, no fact of its own
        ("I'm allergic to sesame, my whole life", ["User is allergic to sesame"]),
        ("My whole life I've been vegetarian.", ["User has been vegetarian"]),
        # an aside after a short form goes on with it
        (
            "I work at Vandelay Inc. (the branch in Leeds).",
            ["User works at Vandelay Inc. (the branch in Leeds)"],
        ),
        # faces not drawn with a bracket go too
        ("I love sushi :D", ["User loves sushi"]),
        ("I love hiking <3", ["User loves hiking"]),
        ("I love sudoku xD", ["User loves sudoku"]),
        # a face drawn with a bracket is no bracket (attacker 42), glued to a word too
        ("I'm vegan:( and I live in Tromsø.", ["User is vegan", "User lives in Tromsø"]),
        (
            "I'm tired :( but I'm allergic to sesame.",
            ["User is allergic to sesame"],
        ),
        ("I love my allotment :(", ["User loves their allotment"]),
        ("我喜欢猫:(", ["用户喜欢猫"]),
        # an aside that takes it back, or one with a "not" inside, is no frame of its own
        ("I'm pescatarian (jk lol).", []),
        (
            "I'm allergic to hazelnuts (but not almonds).",
            ["User is allergic to hazelnuts (but not almonds)"],
        ),
        # a statement of the user's own inside an aside is a fact of its own (attacker 41)
        (
            "I'm asthmatic (since 2010, I use an inhaler).",
            ["User is asthmatic (since 2010)", "User uses an inhaler"],
        ),
        ("I'm pescatarian (no meat for me).", ["User is pescatarian (no meat for them)"]),
        # a name after an initial that no label comes before goes on
        (
            "My physio K. Brennan is great and I'm allergic to latex.",
            ["User's physio K. Brennan is great", "User is allergic to latex"],
        ),
        # an aside of the speaker's is a lead-in, no "not X, Y" correction
        ("(Not that it matters, I'm allergic to sulfites.)", ["User is allergic to sulfites"]),
        (
            "I'm allergic to shellfish (badly!) and I live in Perth.",
            ["User is allergic to shellfish (badly!)", "User lives in Perth"],
        ),
    ],
)
def test_what_the_sentence_rule_must_not_cut_or_strip(said: str, stored: list[str]) -> None:
    assert [f.content for f in _extract(said).new_facts] == stored


@pytest.mark.parametrize(
    ("said", "stored"),
    [
        # a statement cut short on a preposition or an article says nothing yet
        ("I'm a devoted fan of", []),
        ("I'm allergic to", []),
        ("I go climbing with", []),
        # a connector left at the end goes, the statement stays
        ("I can't have caffeine vs.", ["User cannot have caffeine"]),
        # a name, a label or a clause of its own is no cut (attacker 42, CI)
        ("My favourite band is The The", ["User's favourite band is The The"]),
        ("I have a rash I was born with.", ["User has a rash they were born with"]),
        ("I avoid anything I'm intolerant to.", ["User avoids anything they're intolerant to"]),
        ("I have a lot to be thankful for", ["User has a lot to be thankful for"]),
        (
            "I'm allergic to the glue that stamps are coated with.",
            ["User is allergic to the glue that stamps are coated with"],
        ),
        ("I'm deficient in vitamin a", ["User is deficient in vitamin a"]),
    ],
)
def test_a_statement_cut_short_is_no_fact(said: str, stored: list[str]) -> None:
    assert [f.content for f in _extract(said).new_facts] == stored


def test_another_persons_statement_inside_an_aside_is_not_told_of_the_user() -> None:
    # It was kept whole in the user's allergy once commas inside brackets stopped cutting
    # clauses (attacker 44): the son's EpiPen became the user's.
    [fact] = _extract("I'm allergic to wasps (my son too, he carries an EpiPen).").new_facts
    assert fact.content.startswith("User is allergic to wasps")
    assert "EpiPen" not in fact.content


@pytest.mark.parametrize(
    ("said", "stored"),
    [
        # a plural noun after a dotted place is no verb that opens a sentence (attacker 49)
        (
            "I work at the U.S. Patent offices in Virginia.",
            ["User works at the U.S. Patent offices in Virginia"],
        ),
        (
            "I grew up in the U.S. Army bases overseas.",
            ["User grew up in the U.S. Army bases overseas"],
        ),
    ],
)
def test_a_dotted_place_before_a_plural_noun_goes_on(said: str, stored: list[str]) -> None:
    assert [f.content for f in _extract(said).new_facts] == stored
