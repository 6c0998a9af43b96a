"""Helper 357: near misses of the softened corrections and praised answers (12b5676, 116ea99).

A correction of what the assistant gave ("Close, but it's 42", "That's the old version",
"好像不太对", "不是吧，应该是周三", "哪有这回事") only corrects something the assistant said or
gave: after a reply that only asks ("How's the fit?", "你最近好吗？") the same words answer it.
An approval said of what the assistant gave ("Your formula gives the right result now") is no
failure of it; "Super, thanks! How about you?" answers a greeting; "666" and "赞！" answer a
question about something else; praise in someone else's words is theirs.

Sentences are this project's own.
"""

from __future__ import annotations

import pytest

from tests.test_signal_kinds import verdict


@pytest.mark.parametrize(
    ("assistant", "user"),
    [
        # the user answers a question of the assistant's, about their own things
        ("Is the shop far from the station?", "Close, but you need a car after six."),
        ("How far is the lake from you?", "Close, but not close enough to walk."),
        ("What do you want me to do with the tab?", "Close, but keep it pinned."),
        ("How does the jacket fit?", "It doesn't look right on me, it's too long."),
        ("How's the cake coming along?", "This looks off, I think the cream went sour."),
        ("Which colour for the bridesmaids?", "Not exactly right for a wedding, I'd say."),
        ("What's that old phone for?", "It's the old model, but it still works fine."),
        ("What are you reading lately?", "This is the old edition my grandma left me."),
        ("你最近身体怎么样？", "身体好像不太对，有点发烧。"),
        ("这道汤怎么样？", "味道不太对，可能盐放多了。"),
        ("你的论文写完了吗？", "哪有这回事，我还没开始呢"),
        ("有什么可以帮你？", "这个链接打不开，是我同事发的，你能帮我找找吗？"),
        # a platform named that is no platform, an old thing that is fine
        ("What's this laptop for?", "It's for gaming, I'm running Windows 11 on it."),
        ("Who is the spreadsheet for?", "This is for work, I'm using Excel there."),
        (
            "Here is the 2019 syllabus.",
            "That's the old version, but that's fine, it's the one my class uses.",
        ),
        # 你漏了 / 你少了 / 你跳了 that name no omission of the assistant's
        ("你会跳绳吗？", "你跳了那么多次，累不累"),
        ("还有别的吗？", "你少了一点耐心哈哈"),
        ("你看了我的报告吗？", "你的数据有问题吗？"),
        # a greeting answered, not the work praised
        ("How are you today?", "Super, thanks! How about you?"),
        ("Hi, how's your week going?", "Lovely, thank you, and you?"),
        ("How are you?", "Sweet, thanks for asking."),
        # 666 and 赞 answering a question, not praising a reply
        ("你的房间号是多少？", "666"),
        ("你喜欢这首歌吗？", "赞！"),
        # someone else's words or work praised
        (
            "Tell me about your kids.",
            'My son says "you\'re a lifesaver!" to his teacher every day.',
        ),
        ("What did your mom say about the nurse?", "She said you're a hero."),
        ("What did your teacher write?", "Good answer, she said, but too long."),
        ("How was class?", "Great explanation from my teacher today."),
        ("他说了什么？", "他这个建议不错，可以试试。"),
        ("What's in the jar?", "This is gold leaf."),
        ("What time is it in London?", "Bang on noon."),
        ("How did you do on the quiz?", "My guess was bang on."),
    ],
)
def test_an_answer_or_someone_elses_words_are_neither(assistant: str, user: str) -> None:
    assert verdict(assistant, user) == "neither"


@pytest.mark.parametrize(
    ("assistant", "user"),
    [
        ('Use =SUMIF(A:A, ">0").', "Your formula gives the right result now, thanks!"),
        ("Try `ls -la | sort`.", "The command you gave me returns the list perfectly."),
        ("Here's the patch.", "Your fix didn't break anything else, great."),
        ("Here's a refactor.", "Your code doesn't just work, it's elegant!"),
    ],
)
def test_what_was_given_working_is_no_failure(assistant: str, user: str) -> None:
    assert verdict(assistant, user) != "correction"


@pytest.mark.parametrize(
    ("assistant", "user"),
    [
        # what the assistant gave or said is still put right after a statement
        ("The shop is 3 km away. Anything else?", "Close, but it's 4 km."),
        ("Use ctrl+alt+del for that.", "That's for Windows, I'm on a Mac."),
        ("Here is the 2019 syllabus.", "That's the old version, I need this year's."),
        ("The total is $412.", "That doesn't look right."),
        ("北京的人口是八百万。", "好像不太对。"),
        ("会议定在周二。", "不是吧，是周三。"),
        ("步骤如下：一、打开；二、保存。有问题吗？", "你漏了一步。"),
        ("Use `df.sum()`.", "Your code gives me an error."),
        ("Try this: foo --bar", "The command you gave returns nothing."),
        ("I've resized the images. Anything else?", "Super, thanks!"),
        ("已经帮你改好了。", "666"),
        ("You were right. Bang on.", "You were bang on!"),
    ],
)
def test_what_the_assistant_gave_is_still_read(assistant: str, user: str) -> None:
    want = "approval" if user in {"Super, thanks!", "666", "You were bang on!"} else "correction"
    assert verdict(assistant, user) == want


# --- more of the same kinds, said otherwise (missed before) --------------------------------


@pytest.mark.parametrize(
    ("assistant", "user"),
    [
        ("The invoice total is $412.", "Hmm, I'm not sure that's right."),
        ("The answer is 41.", "Almost, it's 42."),
        ("The answer is 41.", "Nearly! It's 42 though."),
        ("答案是 41。", "差一点，是42。"),
        ("Here's the parser.", "This errors out on line 3."),
        ("Here's the parser.", "Getting a KeyError with your snippet."),
        ("Docs are at example.org/guide", "The link 404s."),
        ("Press ctrl+alt+del.", "That's a Windows shortcut, I use a Mac."),
        ("Here is the 2019 timetable.", "That info is out of date."),
        ("北京的人口是八百万。", "这数据不准吧。"),
        ("北京的人口是八百万。", "数字好像有出入。"),
        ("步骤如下：一、打开；二、保存。", "少了一步吧"),
        ("步骤如下：一、打开；二、保存；三、关闭。", "第二步漏掉了。"),
        ("这是下载链接：example.cn/a", "链接失效了。"),
    ],
)
def test_more_corrections_of_what_was_given(assistant: str, user: str) -> None:
    assert verdict(assistant, user) == "correction"


@pytest.mark.parametrize(
    ("assistant", "user"),
    [
        ("Here's the patch.", "That fix works!"),
        ("Here's the patch.", "You're a genius."),
        ("写好了。", "牛！"),
        ("可以先按时间线梳理。", "这个思路很清晰"),
    ],
)
def test_more_approvals_of_what_was_given(assistant: str, user: str) -> None:
    assert verdict(assistant, user) == "approval"


@pytest.mark.parametrize(
    ("assistant", "user"),
    [
        ("Is the total right?", "Not sure that's right."),
        ("The spicy one is popular.", "I'm not sure that's right for me."),
        ("How's the project going?", "Almost, it's nearly done."),
        ("Does the new version work?", "That fix works?"),
        ("My neighbour tried it too.", "That fix worked for my neighbour."),
        ("What's wrong?", "I got a KeyError with the script from my colleague."),
        ("Buses run hourly.", "The timetable is out of date at the stop, when is the next one?"),
        ("你的报告怎么样了？", "数据好像有出入，我再核对一下。"),
        ("你做到哪一步了？", "少了一步，还在弄。"),
        ("你觉得这部电影怎么样？", "牛！"),
    ],
)
def test_their_near_misses_stay_neither(assistant: str, user: str) -> None:
    assert verdict(assistant, user) == "neither"


def test_praise_taken_back_is_a_correction() -> None:
    assert verdict("Here's the result.", "Great answer... not.") == "correction"


@pytest.mark.parametrize(
    ("assistant", "user"),
    [
        ("What should my review say?", "Great explanation of the plot, weak ending."),
        ("Which part should I quote?", "Good summary of the risks, the rest is weak."),
    ],
)
def test_praise_answering_a_question_is_no_approval(assistant: str, user: str) -> None:
    assert verdict(assistant, user) == "neither"
