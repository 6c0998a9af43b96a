"""A statement of the reply said again with another complement corrects it; so do verdicts
on an answer said plainly ("Still wrong.", "That doesn't answer my question", "It's still not
working", "还是不行", "That's way too long"); a bare strong praise or "That works" approves.

Before: "It's in Paris." after "The Eiffel Tower is in Lyon.", "They're mutable." after
"Python lists are immutable.", "他是加拿大人。" after "他是美国人。" were no correction, nor
"Still wrong." or "Please re-read my question."; "Awesome!" and "That works." no approval.
Their near misses (a remark of another shape, words only added, a question, the user's own
thing, an acknowledgement such as "Cool" or "Cool, thanks") stay neither.

Sentences are this project's own.
"""

from __future__ import annotations

import pytest

from deerflow_memory.capture.restated import restated_correction
from tests.test_signal_kinds import verdict


@pytest.mark.parametrize(
    ("assistant", "user"),
    [
        # the same subject (or a pronoun for it) and verb, another complement
        ("The Colosseum is in Naples.", "It's in Rome."),
        ("The flat is in the old town and it is quiet.", "It's in the new town."),
        ("Rust strings are immutable by default.", "They're mutable."),
        ("That method returns a dict.", "It returns a list."),
        ("The pharmacy closes at 6.", "It closes at 8 on Fridays."),
        ("A marathon is 40 km long.", "A marathon is about 42 km."),
        ("The largest city in Canada is Vancouver.", "It's Toronto."),
        ("Your cleaning is with Dr. Okafor on Monday.", "It's with Dr. Mensah."),
        ("The backup is stored on the D drive.", "No, it's stored on the E drive."),
        # a "though" at its end softens it, and it still puts the reply right
        ("Rust strings are immutable by default.", "They're mutable though."),
        ("The Colosseum is in Naples.", "It's in Rome though."),
        ("这座桥在城东。", "它在城西。"),
        ("他是德国人。", "他是奥地利人。"),
        ("字符串是可变的。", "字符串是不可变的。"),
    ],
)
def test_a_statement_said_again_with_another_complement_corrects(assistant: str, user: str) -> None:
    assert verdict(assistant, user) == "correction"


@pytest.mark.parametrize(
    ("assistant", "user"),
    [
        ("Your flight is at 9.", "It is delayed."),  # another shape: news, not a value put right
        ("Lisbon is lovely in May.", "It is crowded though."),
        ("The gallery opens at 10.", "It opens at 10 on weekdays."),  # words only added
        ("The gallery opens at 10.", "It opens at 10."),  # said again
        ("Take the tram, it is cheaper.", "It is slower."),  # a counterpoint
        ("The soup takes 20 minutes.", "It takes me longer."),  # the user's own
        ("The bakery is on Mill Road.", "It is on my way home."),
        ("The bakery is on Mill Road.", "Is it on Mill Lane?"),  # a question
        ("The bakery is on Mill Road.", "Maybe it's on Mill Lane."),  # a hedge
        ("The bakery is on Mill Road.", "It's also on Mill Lane."),  # an addition
        ("这个办法是最省钱的。", "这是个好主意。"),  # 这: a judgement, no restatement
        ("他是德国人。", "他是我的同事。"),  # the user's own
        ("会议在三楼。", "会议在三楼吗？"),
        # a remark of another kind said with the reply's verb (helper 365)
        # another kind of phrase after the same preposition or article
        ("The museum is in the old town.", "It's in a lovely building."),
        ("The museum is in the old town.", "It is in walking distance."),
        ("The store is on Main Street.", "It is on sale this week."),
        ("Your order is on the way.", "It is on the table now."),
        ("The car is in the garage.", "It is in great shape."),
        ("The book is by Tolstoy.", "It is by the window."),
        ("The app runs on Android.", "It runs on battery."),
        ("Python is a great language.", "It is a joy."),
        ("He is a famous painter.", "He is a great guy."),
        ("She is the CEO of Acme.", "She is the best."),
        ("The movie is about a lost dog.", "It is about two hours long."),
        ("The meeting is at 3 pm.", "It is at risk."),
        # a number after other words: another thing counted
        ("The bridge was built in 1930.", "It was painted in 1990."),
        ("The meeting is in room 5.", "It is in 10 minutes."),
        # another subject, the same auxiliary
        ("The cat is sleeping on the sofa.", "The dog is sleeping on the bed."),
        # Chinese: news, a description, an addition, another person, a verb inside a word
        ("这家店在市中心。", "它在装修。"),
        ("小明在学校。", "小明在吃饭。"),
        ("他在北京工作。", "他在休假。"),
        ("他是德国人。", "他是个好人。"),
        ("他是德国人。", "他是工程师。"),
        ("她有两个孩子。", "她有一只猫。"),
        ("公司有五十个员工。", "公司有食堂。"),
        ("北京是中国的首都。", "北京是个好地方。"),
        ("他是医生。", "她是护士。"),
        ("他现在在开会。", "他在出差。"),
        ("这本书是鲁迅写的。", "这本书是绝版的。"),
        # a "though" at the end of a remark of another shape
        ("The hotel is expensive.", "It's cheap though."),
        ("The museum opens at 9.", "It opens at 9 on weekdays though."),
    ],
)
def test_a_remark_of_another_shape_or_words_only_added_correct_nothing(
    assistant: str, user: str
) -> None:
    assert not restated_correction(user, assistant)
    assert verdict(assistant, user) != "correction"


@pytest.mark.parametrize(
    ("assistant", "user"),
    [
        ("The answer is 17.", "Still wrong."),
        ("The answer is 17.", "Wrong again!"),
        ("It was built in 1889.", "Not quite."),
        ("Here are three tips for sleeping better.", "That doesn't answer my question."),
        ("Here is an overview of the tax rules.", "Please re-read my question."),
        ("The total is $310.", "The math is wrong."),
        ("Here are two hotels near the beach.", "I asked for three hotels, you gave me two."),
        ("Replace line 4 with `return x`.", "It's still not working."),
        ("把第二行改成 return x 就行。", "还是不行。"),
        ("Here's a 900-word cover letter.", "That's way too long."),
        ("Try the lamb kebab or the beef stew.", "Stop suggesting meat dishes."),
        ("Booked for Friday.", "You must mean Saturday."),
        ("Your report is due Tuesday.", "Wednesday, I think you mean."),
        ("Done: I sent the file to Ana.", "You keep making the same mistake."),
        ("Sure, I'll email Steven.", "His name is Stephen."),
    ],
)
def test_a_verdict_on_the_answer_said_plainly_corrects(assistant: str, user: str) -> None:
    assert verdict(assistant, user) == "correction"


@pytest.mark.parametrize(
    ("assistant", "user"),
    [
        ("Is the code still not working?", "It's still not working."),  # an answer
        ("How long should the letter be?", "That's way too long."),
        ("Here is the plan.", "My laptop is still not working, any idea?"),  # the user's own
        ("Here is the plan.", "I know what you mean."),
        ("Here is the plan.", "Stop by the café on your way."),
        ("Here is the plan.", "The date is wrong on my ticket, how do I fix it?"),
    ],
)
def test_their_near_misses_are_no_correction(assistant: str, user: str) -> None:
    assert verdict(assistant, user) != "correction"


@pytest.mark.parametrize(
    ("assistant", "user"),
    [
        ("Here's the rewritten intro.", "Awesome!"),
        ("I've made the chart taller.", "Wow, brilliant!"),
        ("We could meet at 5 instead.", "That works."),
        ("Moved the call to Thursday.", "Okay, that works for me, thanks."),
        ("改好了，再试一下。", "可以了！"),
    ],
)
def test_a_bare_praise_or_that_works_approves(assistant: str, user: str) -> None:
    assert verdict(assistant, user) == "approval"


@pytest.mark.parametrize(
    ("assistant", "user"),
    [
        ("I've sent the invite to Priya.", "Cool"),  # an acknowledgement
        ("I've sent the invite to Priya.", "Cool, thanks."),
        ("How are you today?", "Awesome!"),  # an answer to a question
        ("Would Tuesday work?", "That works."),
        ("It runs on Linux and macOS.", "That works on Windows?"),
        ("改好了。", "可以了吗？"),
    ],
)
def test_an_acknowledgement_or_an_answer_approves_nothing(assistant: str, user: str) -> None:
    assert verdict(assistant, user) != "approval"


@pytest.mark.parametrize(
    ("assistant", "user"),
    [
        ("《静夜思》是王维写的。", "是李白写的"),  # the subject left out
        ("比赛在周六。", "是周日"),
        ("已经把文件发给王老师了。", "发错人了"),
        ("结果是58。", "再算一遍"),
        ("这是译文：He is tall.", "翻译得不准确"),
        ("建议你每天游泳两小时。", "太多了"),
    ],
)
def test_a_chinese_verdict_or_a_value_said_again_corrects(assistant: str, user: str) -> None:
    assert verdict(assistant, user) == "correction"


@pytest.mark.parametrize(
    ("assistant", "user"),
    [
        ("《静夜思》是李白写的。", "是这样"),  # agreement
        ("《静夜思》是李白写的。", "是李白写的"),  # said again
        ("比赛在周六。", "是真的吗"),
        ("你的方案太复杂了吗？", "太多了"),  # an answer to a question
        ("已经发给王老师了。", "我发错人了，刚才那封别管"),  # the user's own slip
        ("这是你要的总结。", "我再看看"),
    ],
)
def test_chinese_agreement_a_question_or_the_users_own_slip_corrects_nothing(
    assistant: str, user: str
) -> None:
    assert verdict(assistant, user) != "correction"


@pytest.mark.parametrize(
    ("assistant", "user"),
    [
        ("推荐你周末去植物园。", "好主意！"),
        ("这是整理好的时间表。", "很清楚"),
        ("已经订好了。", "棒！"),
    ],
)
def test_a_chinese_bare_praise_approves(assistant: str, user: str) -> None:
    assert verdict(assistant, user) == "approval"


def test_a_chinese_bare_praise_answering_a_question_approves_nothing() -> None:
    assert verdict("你觉得哪个好？", "棒！") != "approval"


@pytest.mark.parametrize(
    ("assistant", "user"),
    [
        ("The dog is in the garden.", "He is in the kitchen."),
        ("The ferry leaves from pier 3.", "It leaves from pier 7."),
        ("Your dentist is Dr. Lund.", "It's Dr. Berg."),
        ("The file is saved on the C drive.", "It is saved on the F drive."),
        ("The cat is sleeping on the sofa.", "It is sleeping on the bed."),
        ("The lake is 12 km long.", "It is roughly 15 km long."),
        ("会议在三楼。", "会议在五楼。"),
        ("她有两个孩子。", "她有三个孩子。"),
        ("这道菜是辣的。", "这道菜是甜的。"),
        ("他住的城市是北京。", "他住的城市是上海。"),
    ],
)
def test_the_same_kind_of_value_put_right_still_corrects(assistant: str, user: str) -> None:
    assert verdict(assistant, user) == "correction"


@pytest.mark.parametrize(
    ("assistant", "user"),
    [
        ("The sale ends Friday.", "It's still the same price as last week."),
        ("Try restarting the router.", "It's still the same router I had in 2015."),
        ("I booked you a table.", "I asked for a table for four, and you booked it, thanks!"),
        ("Your total is $45.", "The total is wrong on my receipt from the shop."),
        ("The price is $20.", "The price was wrong on the website yesterday, but fine now."),
        ("Here are the numbers.", "The numbers are off the charts!"),
        ("Here's the plan.", "Stop using plastic bags is my new year goal."),
        ("Here's the draft.", "I think you mean well."),
        ("这是你要的菜谱。", "还是有问题想问你。"),
    ],
)
def test_a_verdict_word_said_of_something_else_corrects_nothing(assistant: str, user: str) -> None:
    assert verdict(assistant, user) != "correction"


@pytest.mark.parametrize(
    ("assistant", "user"),
    [
        ("Restart the service and try again.", "Still the same error."),
        ("Restart the service and try again.", "It's still the same."),
        ("The total is $45.", "The total is wrong again."),
        ("The total is $45.", "The math is off, it should be $54."),
    ],
)
def test_the_verdict_on_the_answer_still_corrects(assistant: str, user: str) -> None:
    assert verdict(assistant, user) == "correction"


@pytest.mark.parametrize(
    ("assistant", "user", "expected"),
    [
        ("Here's the new logo.", "Awesome! 🎉", "approval"),
        ("I've moved the call to 4.", "That works!! 🙏", "approval"),
        ("推荐你周末去植物园。", "好主意😄", "approval"),
        ("这是整理好的时间表。", "很清楚👌", "approval"),
        ("The answer is 41.", "Not quite 🤔", "correction"),
        ("写好了。", "太长了😅", "correction"),
    ],
)
def test_an_emoji_after_a_bare_verdict_keeps_it(assistant: str, user: str, expected: str) -> None:
    assert verdict(assistant, user) == expected


@pytest.mark.parametrize("user", ["Awesome 🙄", "很清楚🙃"])
def test_an_emoji_of_sarcasm_after_praise_approves_nothing(user: str) -> None:
    assert verdict("Here's the new logo.", user) != "approval"
