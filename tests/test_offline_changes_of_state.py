"""What the user was, given up, and what they are now, in Chinese and English.

Before:
- "我不在腾讯工作了，现在在美团。" withdrew the old employer and stored nothing of the new
  one ("现在在美团" has no verb of its own), nor did "…, I'm at Meta now." in English.
- "我后来转行做了程序员", "我转做后端了" and "我在上海住了五年了" stored nothing.
- "我跟男朋友分手了" was read as something done with the boyfriend ("我分手了") and
  withdrew nothing; "I broke up with my boyfriend" and "My girlfriend and I split up"
  withdrew nothing either (the latter stored "User splits up … (with their girlfriend)").
- "我现在不减肥了" and "我不学吉他了" withdrew nothing.

Sentences are this project's own.
"""

from __future__ import annotations

import pytest

from tests.test_quality_kinds import facts_after


@pytest.mark.parametrize(
    ("told", "later", "stored"),
    [
        ("我在京东工作。", "我不在京东工作了，现在在小米。", ["用户现在在小米工作"]),
        ("我在华为上班。", "我已经不在华为上班了，目前在比亚迪。", ["用户现在在比亚迪上班"]),
        ("我住在南京。", "我不住在南京了，现在在苏州。", ["用户住在苏州"]),
        (
            "I work at Initech.",
            "I don't work at Initech anymore, I'm at Hooli now.",
            ["User works at Hooli"],
        ),
        (
            "I work for Initech.",
            "I no longer work for Initech, now I'm with Hooli.",
            ["User works with Hooli"],
        ),
    ],
)
def test_the_place_given_up_goes_and_the_new_one_is_stored(
    told: str, later: str, stored: list[str]
) -> None:
    assert facts_after(told, later) == stored


@pytest.mark.parametrize(
    ("told", "later"),
    [
        # a school is no workplace, and "at home" names no employer
        ("我在复旦读书。", "我不在复旦读书了，现在在交大。"),
        ("I work at Initech.", "I don't work at Initech anymore, I'm at home now."),
    ],
)
def test_no_new_place_is_made_up(told: str, later: str) -> None:
    assert facts_after(told, later) == []


@pytest.mark.parametrize(
    ("said", "stored"),
    [
        ("我在厦门住了三年了。", ["用户住在厦门"]),
        ("我在西安生活了十几年。", ["用户住在西安"]),
        (
            "我本科学的是化学，后来转行做了设计师。",
            ["用户本科学的是化学", "用户后来转行做了设计师"],
        ),
    ],
)
def test_a_home_of_years_and_a_new_job_are_stored(said: str, stored: list[str]) -> None:
    assert facts_after(said) == stored


def test_a_new_job_takes_the_old_ones_place() -> None:
    assert facts_after("我是会计。", "我去年改行当了厨师。") == ["用户去年改行当了厨师"]


@pytest.mark.parametrize(
    ("told", "later"),
    [
        ("我有女朋友。", "我跟女朋友分手了。"),
        ("我有对象。", "我和对象分了。"),
        ("I have a boyfriend.", "I broke up with my boyfriend."),
        ("I have a girlfriend.", "My girlfriend and I split up in March."),
    ],
)
def test_a_partner_parted_from_is_withdrawn(told: str, later: str) -> None:
    assert facts_after(told, later) == []


@pytest.mark.parametrize(
    ("told", "later"),
    [
        ("我在减肥。", "我现在不减肥了。"),
        ("我在学钢琴。", "我不学钢琴了。"),
        ("我每天健身。", "我已经不健身了。"),
    ],
)
def test_a_chinese_pursuit_given_up_is_withdrawn(told: str, later: str) -> None:
    assert facts_after(told, later) == []


def test_what_is_done_together_is_still_read_as_the_users() -> None:
    assert facts_after("我和老公刚搬到无锡。") == ["用户住在无锡（和老公一起）"]
    assert facts_after("My husband and I live in Cork.") == [
        "User lives in Cork (with their husband)"
    ]


@pytest.mark.parametrize(
    ("told", "later", "stored"),
    [
        ("我每天早上喝咖啡。", "我戒了咖啡。", ["用户戒了咖啡"]),
        ("我每天喝奶茶。", "我最近戒奶茶了。", ["用户最近戒奶茶了"]),
        ("我在学钢琴。", "钢琴我不学了。", []),
        ("我在学法语。", "法语我早就放弃了。", []),
        ("我每天喝咖啡。", "咖啡我已经戒了。", ["用户已经戒了咖啡"]),
    ],
)
def test_a_habit_quit_or_a_thing_given_up_said_first_goes(
    told: str, later: str, stored: list[str]
) -> None:
    assert facts_after(told, later) == stored


@pytest.mark.parametrize("said", ["今天我不吃了。", "晚饭我不吃了。"])
def test_a_time_or_a_meal_said_first_is_no_habit(said: str) -> None:
    assert facts_after("我喜欢吃晚饭前散步。", said) == ["用户喜欢吃晚饭前散步"]


@pytest.mark.parametrize(
    ("told", "later", "stored"),
    [
        ("I'm a student.", "I graduated in June.", ["User graduated in June"]),
        ("我是学生。", "我已经毕业了。", ["用户已经毕业了"]),
        ("我是研究生。", "我研究生毕业了。", ["用户研究生毕业了"]),
        ("我是会计。", "我不做会计了。", []),
        ("我是老师。", "我已经不当老师了。", []),
        ("I work at Initech.", "I switched jobs last month.", ["User switched jobs last month"]),
        ("我在京东工作。", "我跳槽了。", ["用户跳槽了"]),
    ],
)
def test_a_study_or_a_job_over_goes(told: str, later: str, stored: list[str]) -> None:
    assert facts_after(told, later) == stored


@pytest.mark.parametrize(
    ("told", "later"),
    [
        ("I tutor students in physics.", "I graduated in June."),
        ("我教学生画画。", "我毕业了。"),
        ("I'm a nurse.", "I graduated in June."),
    ],
)
def test_graduating_keeps_what_is_no_study_of_the_users(told: str, later: str) -> None:
    assert facts_after(told)[0] in facts_after(told, later)


@pytest.mark.parametrize(
    ("told", "later", "stored"),
    [
        ("I'm single.", "I got engaged in May.", ["User got engaged in May"]),
        ("I'm married.", "I got divorced last year.", ["User got divorced last year"]),
        ("I'm a plumber.", "I retired last year.", ["User retired last year"]),
        ("I'm a nurse.", "I've just retired from nursing.", ["User has just retired from nursing"]),
        ("I use Eclipse.", "I switched from Eclipse to IntelliJ.", ["User switched to IntelliJ"]),
        ("I have a hamster.", "My hamster died last week.", []),
        ("I'm pregnant.", "I had the baby last week.", []),
        ("我怀孕了。", "宝宝出生了。", []),
        ("我养了一只兔子。", "我的兔子上个月死了。", []),
    ],
)
def test_a_change_of_state_takes_the_old_ones_place(
    told: str, later: str, stored: list[str]
) -> None:
    assert facts_after(told, later) == stored


@pytest.mark.parametrize(
    ("told", "later"),
    [
        # a pet gone is no allergy over
        ("I'm allergic to hamsters.", "My hamster died last week."),
        # "done with" a medication may be frustration (attacker 305), and "cut out" is a diet
        ("I take metformin.", "I'm done with metformin!"),
        ("I take Zoloft.", "I'm done with Zoloft."),
        ("I'm allergic to walnuts.", "I've cut out walnuts."),
    ],
)
def test_what_a_change_does_not_end_stays(told: str, later: str) -> None:
    assert facts_after(told)[0] in facts_after(told, later)


def test_a_move_from_one_place_to_another_is_read_as_a_move() -> None:
    stored = facts_after("I live in Derby.", "I moved from Derby to Leicester last year.")
    assert stored == ["User moved from Derby to Leicester last year"]


@pytest.mark.parametrize(
    ("told", "later", "stored"),
    [
        # what is given up, with the subject dropped after a clause of the user's
        ("我每周踢足球。", "我脚踝扭伤了，不踢足球了。", []),
        ("我喜欢吃辣。", "我胃不好，不吃辣了。", ["用户胃不好"]),
        # a plan given up, the place said first
        ("我计划明年去冰岛。", "冰岛不去了。", []),
        # a job search over
        ("我在找工作。", "我找到工作了。", ["用户找到工作了"]),
        ("我在找工作。", "我终于找到了一份工作。", ["用户终于找到了一份工作"]),
    ],
)
def test_chinese_said_short_or_said_first_is_read_as_given_up(
    told: str, later: str, stored: list[str]
) -> None:
    assert facts_after(told, later) == stored


@pytest.mark.parametrize("said", ["今天不去了。", "他不去了。", "明天的会不去了。"])
def test_no_one_and_no_time_is_given_up_for_the_user(said: str) -> None:
    assert facts_after("我计划明年去冰岛。", said) == ["用户计划明年去冰岛"]


@pytest.mark.parametrize(
    ("told", "later"),
    [
        ("I'm pregnant.", "I had the baby yesterday."),
        ("I work at Globex.", "I quit my job last night."),
        ("I play squash.", "I gave up squash today."),
        ("I live in Hove.", "I moved out of Hove on Saturday."),
        ("I play squash.", "I gave up squash three days ago."),
    ],
)
def test_a_change_said_with_the_day_it_happened(told: str, later: str) -> None:
    # "…yesterday", "…on Saturday" were read as part of what ended: nothing was withdrawn
    what = told.split()[-1].rstrip(".")
    assert what in " ".join(facts_after(told))  # (stored first, so its absence says it went)
    assert what not in " ".join(facts_after(told, later))


def test_that_job_left_is_the_job_and_a_new_job_is_no_home() -> None:
    # (newcomer 338: "I left that job." withdrew nothing; "I moved to a new job at a clinic"
    # was a new home, "User moved to a new job at a clinic", superseding where the user lives)
    assert "User works at a chandlery" not in facts_after(
        "I work at a chandlery.", "I left that job."
    )
    assert "User lives in Penzance" in facts_after(
        "I live in Penzance.", "I moved to a new job at a vet clinic."
    )
    assert "User lives in Penzance" in facts_after(
        "I live in Penzance.", "I moved to the night shift."
    )
