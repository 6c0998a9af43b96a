"""Corrections said softly or as a failure of what was given, and approvals said as praise.

Before: "That's not quite what I meant", "Hmm, that doesn't look right to me", "The code you
gave me throws an error", "Your link is dead", "Close, but it's 42" were no correction, and
"Great answer." or "You're a lifesaver!" no approval. Their near misses (the user's own code
failing, a question, "Close the door, but…", "You're a star sign expert?") stay neither.

Sentences are this project's own.
"""

from __future__ import annotations

import pytest

from tests.test_signal_kinds import verdict


@pytest.mark.parametrize(
    ("assistant", "user"),
    [
        ("Here is a summary of the chapter.", "That's not quite what I meant."),
        ("The meeting is on the 3rd.", "Not exactly what I asked for."),
        ("The total comes to $412.", "Hmm, that doesn't look right to me."),
        ("Your average is 7.9.", "That number seems off."),
        ("Use `df.groupby('a').sum()`.", "The code you gave me throws an error."),
        ("Try this regex: ^a+$", "Your regex doesn't match anything."),
        ("Here is the link: example.org/docs", "That link is dead."),
        ("The answer is 41.", "Close, but it's 42."),
    ],
)
def test_a_soft_correction_or_a_failure_of_what_was_given_corrects(
    assistant: str, user: str
) -> None:
    assert verdict(assistant, user) == "correction"


@pytest.mark.parametrize(
    ("assistant", "user"),
    [
        ("Here's how photosynthesis works: …", "Great explanation, thanks!"),
        ("Here is the outline.", "Really clear summary."),
        ("I've rebooked your train.", "You're a lifesaver!"),
        ("Done: the invoice is sent.", "That just made my day."),
    ],
)
def test_praise_of_the_answer_approves(assistant: str, user: str) -> None:
    assert verdict(assistant, user) == "approval"


@pytest.mark.parametrize(
    ("assistant", "user"),
    [
        ("What can I help with?", "My code throws an error, can you look at it?"),
        ("Sure, paste it here.", "This script fails when I run it: import foo"),
        ("Anything else?", "Close the blinds, but leave the lamp on."),
        ("How far along are you?", "Nearly there, but one step is left."),
        ("Is the draft ready?", "Is that not quite right?"),
        ("Would this be a good answer?", "Good answer?"),
        ("What do you do?", "You're a star sign expert?"),
        ("What should it include?", "A good answer would mention the price."),
    ],
)
def test_their_near_misses_are_neither(assistant: str, user: str) -> None:
    assert verdict(assistant, user) == "neither"


def test_a_doubt_asked_of_something_else_is_neither() -> None:
    assert (
        verdict("Anything else?", "The date looks wrong on my ticket, can you check?") == "neither"
    )


# --- a doubt under an approval's words, a case that does not fit, and in Chinese -------------


@pytest.mark.parametrize(
    ("assistant", "user"),
    [
        ("The deadline is Friday.", "Hmm, I don't think that's correct."),
        ("Use the ctrl+alt+del trick.", "That's for Windows, I'm on a Mac."),
        ("Here is the 2019 syllabus.", "That's the old version, I need this year's."),
        ("Mercury retrograde affects your email.", "That's not even a thing."),
        ("北京的人口是八百万。", "这个数据有问题。"),
        ("步骤如下：一、打开；二、保存。", "你漏了一步。"),
        ("会议定在周二。", "不是吧，应该是周三。"),
        ("结果是 56。", "你再看看，好像不太对。"),
        ("这里是链接：example.cn", "你给的链接打不开。"),
        ("据说喝咖啡会长高。", "哪有这回事。"),
    ],
)
def test_more_corrections_are_read(assistant: str, user: str) -> None:
    assert verdict(assistant, user) == "correction"


@pytest.mark.parametrize(
    ("assistant", "user"),
    [
        ("Restart the router first.", "Cheers, that's sorted it."),
        ("Here's the cheat sheet.", "This is gold."),
        ("The answer is 12.", "Bang on."),
        ("I've resized the images.", "Super, thanks!"),
        ("可以先做预算表。", "这个建议不错。"),
        ("已经帮你改好了。", "666"),
        ("总结如下：……", "赞！"),
    ],
)
def test_more_approvals_are_read(assistant: str, user: str) -> None:
    assert verdict(assistant, user) == "approval"


@pytest.mark.parametrize(
    ("assistant", "user"),
    [
        ("Would you like the spicy one?", "I don't think that's right for me, I'll pass."),
        ("Is this okay?", "Not sure that's right."),
        ("Which one is it for?", "That's for my cousin, I'm on a budget though."),
        ("有什么可以帮你？", "我的代码有问题，帮我看看。"),
        ("还有别的吗？", "我对这个不太感兴趣。"),
        ("你觉得呢？", "他说得不太对，你觉得呢？"),
        ("我提醒过你了。", "你忘了吗？"),
        ("这个方案怎么样？", "这个建议不错吗？"),
        ("有什么忌口？", "我不对海鲜过敏。"),
    ],
)
def test_more_near_misses_are_neither(assistant: str, user: str) -> None:
    assert verdict(assistant, user) == "neither"
