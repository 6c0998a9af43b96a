"""The kinds of signal a blind table found missed, pinned with sentences of neither table.

A table written by someone who never saw the rules scored correction recall
0.43 and approval recall 0.45. It stays unseen; its failure kinds were named,
and ``bench/data/signals_kinds.tsv`` holds pairs written for them. The pairs
here are in neither table: they check that the rules cover a kind, not one
wording, and that the near misses of each kind stay out.
"""

from __future__ import annotations

import pytest
from langchain_core.messages import AIMessage, HumanMessage

from deerflow_memory.capture.signals import SignalDetector

DETECTOR = SignalDetector()


def verdict(assistant: str, user: str) -> str:
    """``"correction"``, ``"approval"`` or ``"neither"`` for the user's turn after ``assistant``."""
    found = DETECTOR.detect([HumanMessage("hello"), AIMessage(assistant), HumanMessage(user)])
    return "correction" if found.correction else "approval" if found.reinforcement else "neither"


# --- kind 1: the same slot with a different value ---------------------------------------


@pytest.mark.parametrize(
    ("assistant", "user"),
    [
        ("Your flight lands at 16:20.", "16:45 actually"),  # time
        ("I've put the dinner at 8 pm.", "8 am"),  # am / pm
        ("I scheduled the call for Monday.", "Tuesday"),  # weekday
        ("Booked the 5th for you.", "the 15th"),  # ordinal date
        ("Ordered 12 cupcakes.", "twenty, I said"),  # count, a number word
        ("I put you in row 7.", "row 9"),  # a labelled number
        ("Dear Stephan, thanks for reaching out.", "It's Stefan"),  # a name spelled differently
        ("This is the summary for version 3.10.", "I need 3.12"),  # version
        ("Here is the 2018 tax guide.", "the 2024 one"),  # year
        ("给你订了周四的票。", "周五"),
        ("设了七点的闹钟。", "六点半吧"),
        ("帮你订了三个人的位置。", "四个人"),
        ("这是2019年的手册。", "我要2021年的"),
        ("已经帮你约了张医生。", "是章医生"),  # surname with a title
        ("这是第五课的答案。", "第四课"),
        ("会议在下午三点。", "上午"),
    ],
)
def test_a_short_reply_putting_a_stated_value_right_is_a_correction(
    assistant: str, user: str
) -> None:
    assert verdict(assistant, user) == "correction"


@pytest.mark.parametrize(
    ("assistant", "user"),
    [
        ("How many people?", "six"),  # answers the assistant's question
        ("Should I book 7:30?", "8:15"),  # the value was asked about, not stated
        ("Your table is for 4 at 7pm.", "and 2 more at 9"),  # an addition
        ("I set your alarm for 6 AM.", "and 6:30 too"),
        ("Booked for Tuesday.", "Wednesday next"),
        ("Your train is at 9:40.", "9:50?"),  # a question
        ("Your train leaves at 9:40.", "I land at 8:15"),  # a new fact, not the value
        ("I booked it with Sam.", "Cool"),  # a capitalised word is no name spelled alike
        ("Here are 3 restaurants near you.", "4 people"),  # counts of different things
        ("Slots: 9:00, 10:30 and 14:00.", "11:00"),  # three options offered, none stated
        ("I booked it for Tuesday at 7pm for 4 people.", "good morning!"),
        ("Here is the answer: 12.", "compute 17% of 2340"),  # a new request
        ("我给你订了周二。", "周三呢"),  # 呢: "what about"
        ("帮你订了两间房。", "再加一间"),
        ("这是2020年的数据。", "可能三月的"),
        ("已经订了四个人的位子。", "我家一共五个人，还有两个孩子"),
    ],
)
def test_a_value_that_answers_adds_or_asks_is_no_correction(assistant: str, user: str) -> None:
    assert verdict(assistant, user) != "correction"


# --- kind 2: contradiction without "no" or "wrong" --------------------------------------


@pytest.mark.parametrize(
    ("assistant", "user"),
    [
        ("Vaccines cause autism, so be careful.", "That's a myth"),
        ("Turn the bolt clockwise to loosen it.", "That's backwards"),
        ("The plural is octopi in Greek.", "That's not how it works in Greek"),
        ("First mix, then bake.", "You skipped a step, the dough has to rest"),
        ("Park at the north entrance.", "There's no parking there"),
        ("I sent the report to Maria.", "It was supposed to go to Dana"),
        ("Here is the summary of episode 4.", "That's episode 3 you summarized"),
        ("Here's a pork recipe.", "I don't eat pork though"),
        ("How about a shrimp stir-fry?", "I'm allergic to shellfish though"),
        ("I swapped dairy milk for soy.", "It's soy I'm allergic to, dairy is fine"),
        ("I summarized the report.", "You summarized the wrong chapter"),
        ("冰箱里放热饭会坏。", "这是误区"),
        ("酒店在火车站旁边。", "明明在机场旁边"),
        ("你可以在那个公园里游泳。", "那个公园根本没有泳池"),
        ("会议纪要发给了市场部。", "应该发给人事部"),
        ("这是第五课的翻译。", "你翻译的是第四课"),
        ("推荐你吃芒果布丁。", "我是对芒果过敏，布丁本身没事"),
        ("给你推荐了鸡蛋羹。", "我是纯素，鸡蛋也不吃"),
        ("帮你订了两张票。", "等等，我说错了，要三张"),
        ("推荐你喝点咖啡。", "之前跟你说过，我不喝咖啡"),
    ],
)
def test_a_contradiction_without_no_or_wrong_is_a_correction(assistant: str, user: str) -> None:
    assert verdict(assistant, user) == "correction"


@pytest.mark.parametrize(
    ("assistant", "user"),
    [
        ("Did you back up the files?", "Not yet, doing it tonight"),  # answers yes/no
        ("Did you read my note?", "Not sure, I'll check"),
        ("Should I include a map?", "No need, thanks"),
        ("Here's a steak marinade.", "It's supposed to rain, so I'll grill indoors"),
        ("Take the ferry from the harbor.", "There's no rush, I have all day"),
        ("Any dietary restrictions?", "I'm vegetarian"),
        ("这是天气预报。", "我根本不想出门"),  # the user's own 根本
        ("明天的天气预报出来了。", "应该是晴天吧"),  # a guess
        ("这是学习计划。", "我数学题算错了，好烦"),  # the user's own mistake
        ("需要发票吗？", "不用了"),
    ],
)
def test_answers_to_a_question_and_the_users_own_statements_are_no_correction(
    assistant: str, user: str
) -> None:
    assert verdict(assistant, user) == "neither"


# --- kind 3: "…, I said" with the replacement -------------------------------------------


@pytest.mark.parametrize(
    ("assistant", "user"),
    [
        ("Here's the weather for Denver.", "Dallas, I said"),
        ("I added oat milk to your list.", "almond milk, I said"),
        ("帮你查了广州的天气。", "深圳，我刚才说了"),
        ("给你订了靠窗的座位。", "靠过道，我刚刚就说了"),
    ],
)
def test_a_replacement_with_i_said_is_a_correction(assistant: str, user: str) -> None:
    assert verdict(assistant, user) == "correction"


def test_i_said_telling_a_story_is_no_correction() -> None:
    assert verdict("What did your boss say?", "I said hello and she ignored me") == "neither"
    assert verdict("明天上课吗？", "老师刚才说了，明天放假") == "neither"


# --- kind 4: approval by confirming a result --------------------------------------------


@pytest.mark.parametrize(
    ("assistant", "user"),
    [
        ("The bug was a missing await.", "Yep, that was it, it runs now"),
        ("Try resetting the router.", "Yes!! Works now"),
        ("Swap the two lines.", "Wow, that really worked"),
        ("Here's a friendlier version.", "So much better"),
        ("I think it's the thermostat.", "Agreed"),
        ("The area is 24 square meters.", "That matches what I got"),
        ("Is it the red mug with the fox?", "Oh that's the one!"),
        ("How about a picnic in the park?", "Nice idea, the kids will love it"),
        ("The capital is Canberra.", "Right, that's what I thought"),
        ("结果是 42。", "跟我算的一致"),
        ("是不是那本蓝色封面的书？", "对对，就是那本"),
        ("应该是网线松了。", "果然是这个问题"),
        ("重启一下试试。", "终于好了，谢谢"),
        ("我把开头改短了。", "好多了"),
        ("这个方案如何？", "可以可以，就用它"),
        ("这是新的 logo。", "看起来很专业"),
        ("答案是 B。", "答对了"),
        ("颜色调好了。", "没毛病"),
        ("给你缩到了 300 字。", "没事没事，这个刚刚好"),
        ("Try restarting the service.", "Worked!"),
        ("试试清一下缓存。", "好了好了，可以了"),
    ],
)
def test_confirming_a_result_is_approval(assistant: str, user: str) -> None:
    assert verdict(assistant, user) == "approval"


@pytest.mark.parametrize(
    ("assistant", "user"),
    [
        ("Want me to add dessert?", "No thanks"),
        ("At the light, do I go left?", "Turn right after the church?"),
        ("Here's the recipe.", "Thanks! What wine goes with it?"),
        ("Here's the fix.", "It still crashes"),
        ("How are you feeling today?", "Feeling much better, thanks"),
        ("Here is the draft.", "Does that match the template?"),
        ("已经发给你了。", "对了，我周五请假"),  # 对了: "by the way"
        ("吃药后感觉怎么样？", "我感觉好多了"),
        ("你最近怎么样？", "我刚刚好像看错了时间"),
        ("这里有三家餐厅。", "第二家看着不错"),  # picks one of the options
        ("这是礼物推荐。", "这个尺寸放她桌上正合适"),  # about the gift, not the answer
        ("这是报告。", "就是这个问题一直解决不了"),
        ("需要我继续写吗？", "可以了，谢谢"),  # "that's enough"
    ],
)
def test_near_misses_of_confirmation_are_no_approval(assistant: str, user: str) -> None:
    assert verdict(assistant, user) != "approval"
