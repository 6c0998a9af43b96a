"""Constraints (allergies, diet, medical and accessibility needs) are marked, kept and injected."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from langgraph.checkpoint.memory import InMemorySaver

from deerflow_memory.config import MemoryConfig
from deerflow_memory.graph import create_memory_agent
from deerflow_memory.identity import MemoryIdentity
from deerflow_memory.inject.constraints import is_constraint, looks_like_constraint
from deerflow_memory.models import Fact, MemoryDocument, MemoryUpdate, NewFact
from deerflow_memory.nodes import RECALL_END, RECALL_START
from deerflow_memory.service import MemoryService
from deerflow_memory.update.apply import apply_update
from deerflow_memory.update.prompt import SYSTEM_PROMPT, memory_for_prompt, parse_update

NOW = "2026-03-01T10:00:00Z"


def _apply(document: MemoryDocument, *facts: NewFact, max_facts: int = 200) -> MemoryDocument:
    return apply_update(
        document,
        MemoryUpdate(new_facts=facts),
        thread_id="t-1",
        now=NOW,
        max_facts=max_facts,
    )


# --- the marker ---------------------------------------------------------------------------


def test_a_constraint_is_written_as_true_and_an_ordinary_fact_writes_no_constraint_key() -> None:
    document = MemoryDocument(
        facts=(
            Fact(id="fact_a", content="Cannot digest gluten", constraint=True),
            Fact(id="fact_b", content="Collects vinyl records"),
        )
    )
    stored = json.loads(document.to_json())["facts"]
    assert stored[0]["constraint"] is True
    assert "constraint" not in stored[1]
    assert MemoryDocument.from_json(document.to_json()).facts[0].constraint is True


def test_the_model_answer_marks_a_constraint_and_applying_it_keeps_the_mark() -> None:
    update = parse_update(
        '{"newFacts": [{"content": "Uses a wheelchair", "category": "context", '
        '"confidence": 0.95, "sourceType": "user_stated", "constraint": true}]}'
    )
    document = apply_update(MemoryDocument(), update, thread_id="t-1", now=NOW)
    assert [(f.content, f.constraint) for f in document.facts] == [("Uses a wheelchair", True)]


def test_restating_a_stored_fact_as_a_constraint_marks_the_stored_fact() -> None:
    stored = MemoryDocument(facts=(Fact(id="fact_x", content="Avoids caffeine", confidence=0.8),))
    document = _apply(stored, NewFact(content="avoids caffeine", confidence=0.8, constraint=True))
    assert [(f.id, f.constraint) for f in document.facts] == [("fact_x", True)]


def test_a_full_memory_evicts_ordinary_facts_before_a_low_confidence_constraint() -> None:
    stored = MemoryDocument(
        facts=(
            Fact(id="fact_c", content="Takes insulin daily", confidence=0.71, constraint=True),
            Fact(id="fact_d", content="Enjoys crossword puzzles", confidence=0.8),
        )
    )
    document = _apply(stored, NewFact(content="Plays the cello", confidence=0.9), max_facts=2)
    assert {f.id for f in document.facts} >= {"fact_c"}
    assert "Enjoys crossword puzzles" not in {f.content for f in document.facts}


def test_the_update_prompt_asks_the_model_to_mark_constraints_and_shows_stored_marks() -> None:
    assert '"constraint": false' in SYSTEM_PROMPT
    for need in ("allergy", "diet", "medical", "accessibility"):
        assert need in SYSTEM_PROMPT
    hearing = Fact(id="fact_e", content="Is hard of hearing", constraint=True)
    document = MemoryDocument(facts=(hearing,))
    shown = json.loads(memory_for_prompt(document))["facts"][0]
    assert shown["constraint"] is True


# --- recognising unmarked constraints -------------------------------------------------------


@pytest.mark.parametrize(
    "content",
    [
        "Gets hives from shellfish, a real allergy",
        "Cannot tolerate lactose",
        "Has coeliac disease",
        "Keeps kosher",
        "Stays away from caffeine entirely",
        "Never drinks alcohol",
        "Only eats fish on Fridays and no other meat",
        "Is eight months pregnant",
        "Injects insulin before meals",
        "Relies on a screen reader",
        "Gets around in a wheelchair",
        "Wears a hearing aid in the left ear",
        "Both parents are vegetarians, and so is she",
        "Takes two medications every morning",
        "Keeps spare hearing aids in the car",
        "Has worn a pacemaker since 2019",
        "Practises strict vegetarianism",
        "Follows veganism for ethical reasons",
        "Has been on a low-carbohydrate diet since March",
        "Is deafblind and reads braille",
        "对芒果过敏",
        "从来不吃猪肉",
        "是清真饮食",
        "每天要打胰岛素",
        "出门需要坐轮椅",
        "戴助听器",
    ],
)
def test_needs_worded_in_many_ways_are_recognised_as_constraints(content: str) -> None:
    assert looks_like_constraint(content)
    assert is_constraint(Fact(content=content))


@pytest.mark.parametrize(
    "content",
    [
        "Plays the trumpet badly",
        "Works at a brewery as an accountant",
        "Drinks green tea at breakfast",
        "Avoids meetings on Friday afternoons",
        "Has three children",
        # a need's word inside a longer word is no need
        "Studies ketones in the chemistry lab",
        "Installed new window blinds in the study",
        "Listens to Deafheaven on long drives",
        "在杭州的工作坊做陶艺",
        "喜欢喝咖啡",
        "每周去健身房两次",
    ],
)
def test_ordinary_preferences_and_habits_are_not_constraints(content: str) -> None:
    assert not is_constraint(Fact(content=content))


@pytest.mark.parametrize(
    "content",
    [
        # work or study on the subject
        "Is studying medicine in her second year",
        "Writes software for dialysis machines",
        "Teaches a night class on diabetes nutrition",
        "Works at a charity for deaf children",
        "Volunteers with a wheelchair repair group",
        "研究哮喘的发病机制",
        "在公司负责无障碍功能",
        "为糖尿病患者开发饮食App",
        # a need's word as a modifier of something else
        "Plays in a wheelchair tennis league",
        "Went to a blind tasting of whiskies",
        "Bought shares in an insulin company",
        "在一家轮椅公司上班",
        # set phrases
        "谈判时从来不吃亏",
        "每天做英语听力练习",
    ],
)
def test_a_need_word_naming_work_study_or_a_thing_is_no_constraint(content: str) -> None:
    assert not looks_like_constraint(content)


@pytest.mark.parametrize(
    "content",
    [
        # a need in a clause of its own next to a topic of work
        "Works as a nurse and is allergic to latex",
        "Teaches maths, but cannot eat gluten",
        "Studies at night because her medication makes her drowsy",
        "Manages his asthma with a daily inhaler",
        "Needs large print menus",
        # a diet worded as a verb or a refusal, whatever noun follows
        "Avoids dairy products",
        "Does not eat meat dishes",
        "No gluten recipes please",
        "是医生，自己对花生过敏",
        # 因为 ("because") and 宗教 ("religion") hold 为 and 教 without naming a topic
        "因为怀孕不能喝酒",
        "因为宗教原因不吃猪肉",
        # a job, then the need in a clause of its own: after a comma, "who", "while", 但是
        "Accountant at a law firm, gluten intolerant",
        "Runs a design studio, uses a wheelchair at home",
        "A teacher who is vegetarian",
        "Is studying for the bar exam while pregnant",
        "在银行做风控但是不能吃辣",
        # said of a person whatever comes before: allergic, intolerant, "a ... allergy"
        "Works as a translator for a pharma firm, allergic to penicillin",
        "Is a chef with a mild sesame allergy",
        "Is allergic to figs and dates",
        "负责研发的同事里只有他对芒果过敏",
        # a need said with "manages", "with" or "working on", words of work elsewhere
        "Manages asthma with two inhalers",
        "Teacher with coeliac disease",
        "Working on a low-sodium diet this year",
        # a need after a job: in an "-ing" clause of the user's, or not the job's object
        "Works as a chef, relying on a hearing aid",
        "Coaches tennis, following a halal diet",
        "Lectures from a wheelchair",
        "Researches volcanoes as a deaf scientist",
        "研究生期间一直戴助听器",
        "教钢琴的她有癫痫",
        "为公司做报表时要用读屏软件",
        # on a treatment or an aid; a need in a 时/期间 clause; 研究员 is a job title, no cue
        "A pharmacist on blood thinners",
        "Postman on crutches since the fall",
        "写论文期间一直在吃药",
        "研究员，有哮喘",
        # 给自己 ("for oneself") and 为了 ("in order to") name no topic
        "每周给自己测两次血压，有高血压",
        "为了孩子戒酒了",
    ],
)
def test_a_need_beside_a_topic_of_work_is_still_a_constraint(content: str) -> None:
    assert looks_like_constraint(content)


@pytest.mark.parametrize(
    ("text", "need"),
    [
        ("blind-date-" * 6_000, False),
        ("wheelchair basketball " * 3_000, False),
        ("blind" + "-" * 60_000, True),
    ],
)
def test_a_long_run_of_modified_need_words_is_read_in_one_pass(text: str, need: bool) -> None:
    # Each need word is followed by a modifier or dashes; trying the modifier rule
    # across the rest of the run for each of them grew with the run's square.
    assert looks_like_constraint(text) is need


def test_judging_a_long_text_reads_it_once_not_once_per_need_word() -> None:
    # Every need's word below is a topic (cue, then need), so all of them are
    # looked at; reading the clause again for each took seconds at this length,
    # growing with its square.
    text = "studies deafness and teaches sign language, " * 2_500
    assert not looks_like_constraint(text)
    assert looks_like_constraint(text + "and is allergic to eggs")


def test_a_marked_fact_is_a_constraint_whatever_its_wording() -> None:
    assert is_constraint(Fact(content="Needs the quiet carriage", constraint=True))


# --- injected on every turn, both modes ---------------------------------------------------------

MIXED_MEMORY = MemoryDocument(
    facts=(
        Fact(id="fact_caf", content="Avoids caffeine", category="preference", confidence=0.9),
        Fact(id="fact_ch", content="不吃香菜", category="preference", confidence=0.9),
        Fact(id="fact_wc", content="Uses a wheelchair", category="context", confidence=0.9),
        Fact(id="fact_quiet", content="Needs step-free rooms", confidence=0.8, constraint=True),
        *(
            Fact(id=f"fact_{i:03d}", content=f"Collected stamp series number {i} as a child")
            for i in range(60)
        ),
        Fact(id="fact_sax", content="Plays saxophone in a jazz trio", confidence=0.9),
    )
)
CONSTRAINT_IDS = {"fact_caf", "fact_ch", "fact_wc", "fact_quiet"}


def _service(tmp_path: Path, mode: str, **overrides: object) -> MemoryService:
    config = MemoryConfig(
        storage_path=tmp_path / "m",
        injection_mode=mode,
        token_counting="char",
        **overrides,  # type: ignore[arg-type]
    )
    service = MemoryService(config, register_atexit=False)
    service.storage.save("ada", None, MIXED_MEMORY)
    return service


@pytest.mark.parametrize(
    "query",
    [
        "What drinks should I try in Paris?",  # no word shared with "Avoids caffeine"
        "Plan a museum day in Vienna",
        "周末带我去吃顿好的",
        "Any jazz bars nearby?",
        "",
    ],
)
@pytest.mark.parametrize("mode", ["relevant", "all"])
def test_constraints_reach_every_turn_in_both_modes_whatever_the_query(
    tmp_path: Path, mode: str, query: str
) -> None:
    with _service(tmp_path, mode, injected_memory_max_tokens=120) as service:
        block = service.memory_block(MemoryIdentity("ada", None, "t"), query)
    assert set(block.fact_ids[: block.constraints]) == CONSTRAINT_IDS
    assert block.constraints == 4
    for text in ("Avoids caffeine", "不吃香菜", "Uses a wheelchair", "Needs step-free rooms"):
        assert text in block.context


def test_constraints_keep_their_own_budget_and_do_not_eat_the_corrections_budget(
    tmp_path: Path,
) -> None:
    correction = Fact(id="fact_fix", content="Prefers metric units", category="correction")
    many = tuple(
        Fact(id=f"fact_n{i}", content=f"Is allergic to pollen type {i}", confidence=0.9)
        for i in range(40)
    )
    with _service(tmp_path, "relevant", constraint_token_budget=60) as service:
        service.storage.save("bo", None, MemoryDocument(facts=(*many, correction)))
        block = service.memory_block(MemoryIdentity("bo", None, "t"), "hello")
    assert 0 < block.constraints < 40  # capped by their own budget
    assert "fact_fix" in block.fact_ids
    assert block.guaranteed == block.constraints + 1


def test_constraints_placed_beyond_their_budget_are_still_flagged_as_constraints_in_the_recall(
    tmp_path: Path,
) -> None:
    many = tuple(
        Fact(id=f"fact_n{i}", content=f"Is allergic to pollen type {i}", confidence=0.9)
        for i in range(40)
    )
    plain = Fact(id="fact_sax", content="Plays saxophone in a jazz trio", confidence=0.95)
    with _service(tmp_path, "all", constraint_token_budget=60) as service:
        service.storage.save("bo", None, MemoryDocument(facts=(*many, plain)))
        block = service.memory_block(MemoryIdentity("bo", None, "t"), "hello")
    injected = {i for i in block.fact_ids if i.startswith("fact_n")}
    assert 0 < block.constraints < len(injected)  # the rest went in among the others
    assert "fact_sax" in block.fact_ids
    assert {f["id"] for f in block.recalled if f["constraint"]} == injected


def test_the_relevant_mode_still_adds_what_the_request_is_about(tmp_path: Path) -> None:
    with _service(tmp_path, "relevant") as service:
        block = service.memory_block(MemoryIdentity("ada", None, "t"), "Any jazz bars nearby?")
    assert "fact_sax" in block.fact_ids[block.guaranteed :]
    assert not any(i.startswith("fact_0") for i in block.fact_ids)


# --- recall events --------------------------------------------------------------------------


def test_the_inject_node_emits_recall_start_and_end_with_counts_and_the_ids_injected(
    tmp_path: Path,
) -> None:
    with _service(tmp_path, "relevant") as service:
        graph = create_memory_agent(service=service, checkpointer=InMemorySaver())
        config = {"configurable": {"user_id": "ada", "thread_id": "t1"}}
        events = [
            chunk
            for mode, chunk in graph.stream(
                {"messages": [("user", "Any jazz bars nearby?")]},
                config,
                stream_mode=["custom", "values"],
            )
            if mode == "custom"
        ]
    kinds = [e["type"] for e in events]
    assert kinds.index(RECALL_START) < kinds.index(RECALL_END)
    start = next(e for e in events if e["type"] == RECALL_START)
    end = next(e for e in events if e["type"] == RECALL_END)
    assert start["query"] == "Any jazz bars nearby?" and start["user_id"] == "ada"
    assert end["constraints"] == 4 and end["guaranteed"] == 4
    assert end["injected"] == len(end["fact_ids"]) == 5
    assert end["candidates"] >= 1
    assert set(end["fact_ids"]) == CONSTRAINT_IDS | {"fact_sax"}
    taken_into_account = [f["content"] for f in end["facts"] if f["constraint"]]
    assert "Avoids caffeine" in taken_into_account
    assert end["error"] is None


def test_a_storage_error_still_ends_the_recall_with_the_error(tmp_path: Path) -> None:
    with _service(tmp_path, "relevant") as service:
        path = service.storage.path_for("ada")  # type: ignore[attr-defined]
        path.write_text("{not json", encoding="utf-8")
        graph = create_memory_agent(service=service, checkpointer=InMemorySaver())
        config = {"configurable": {"user_id": "ada", "thread_id": "t1"}}
        events = [
            chunk
            for mode, chunk in graph.stream(
                {"messages": [("user", "hi")]}, config, stream_mode=["custom", "values"]
            )
            if mode == "custom"
        ]
    end = next(e for e in events if e["type"] == RECALL_END)
    assert end["error"] and end["injected"] == 0 and end["fact_ids"] == []


@pytest.mark.parametrize(
    "text", [None, 5, b"allergic to peanuts", ["allergic to peanuts"]], ids=repr
)
def test_a_text_that_is_not_a_str_is_a_typed_error_and_nothing_is_cached(text: object) -> None:
    from deerflow_memory.errors import InvalidFactError

    before = looks_like_constraint.cache_info().currsize
    with pytest.raises(InvalidFactError, match="a fact must be text, got"):
        looks_like_constraint(text)  # type: ignore[arg-type]
    assert looks_like_constraint.cache_info().currsize == before


def test_is_constraint_of_no_fact_is_a_typed_error() -> None:
    from deerflow_memory.errors import InvalidFactError

    for thing in (None, "Is allergic to peanuts", {"content": "Is allergic"}):
        with pytest.raises(InvalidFactError, match="fact must be a Fact"):
            is_constraint(thing)  # type: ignore[arg-type]


def test_on_the_labelled_table_every_need_is_found_and_nearly_no_other_use() -> None:
    table = Path(__file__).resolve().parents[1] / "bench" / "data" / "constraints_table.tsv"
    lines = table.read_text(encoding="utf-8").splitlines()
    assert lines[0] == "label\ttext"
    rows = [line.split("\t") for line in lines[1:]]
    needs = [text for label, text in rows if label == "need"]
    others = [text for label, text in rows if label == "not"]
    assert len(needs) >= 40 and len(others) >= 40
    assert [text for text in needs if not looks_like_constraint(text)] == []
    assert len([text for text in others if looks_like_constraint(text)]) <= 1
