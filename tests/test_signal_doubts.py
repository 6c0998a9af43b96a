"""Corrections and approvals a third blind table found missed (session 28), in sentences of our own.

Corrections: a no followed by what is so (after a statement, not after a
question), a doubt asked back, a result called outdated or off, code that will
fail, the user's own slip, a request misread. Approvals: the result checked
against something else, it worked, praise of the result. With the near misses
that must stay neither.
"""

from __future__ import annotations

import pytest

from deerflow_memory.capture.signals import SignalDetector

DETECTOR = SignalDetector()


def verdict(reply: str, text: str) -> str:
    found = DETECTOR.classify(text, reply)
    return "correction" if found.correction else "approval" if found.reinforcement else "neither"


@pytest.mark.parametrize(
    ("reply", "text"),
    [
        ("The museum opens at 9 on Sundays.", "No, on Sundays it opens at 11 now."),
        ("Your parcel goes to the Leeds office.", "Nope — it goes to the York office."),
        ("会议改到了三楼。", "不是，在五楼开"),
        ("The ferry takes two hours.", "Are you sure? The timetable says 90 minutes."),
        ("The deadline is the 20th.", "Wasn't it due on the 18th?"),
        ("截止日期是周五。", "不是周四吗？"),
        ("这首歌是周杰伦唱的。", "应该是林俊杰吧？"),
        ("The minimum wage here is 9.50 an hour.", "That's outdated, it went up last April."),
        ("个人所得税起征点是每月3500元。", "这都是老黄历了"),
        ("20% of 150 is 25.", "Check your math, it's 30."),
        ("Run `rm -r build` to clean it.", "That'll error out, build is a file here."),
        ("OK, the table is for 6 people.", "Sorry, I misspoke, it's for 8."),
        ("好的，收件人写李娜。", "之前打错字了，是李纳"),
        ("Here's a 500-word essay.", "I needed it under 200 words though."),
        ("我把这段话翻译成了英文。", "我是让你翻译成日文，不是英文"),
        ("好的，给你加了葱。", "说了不要葱"),
    ],
)
def test_a_correction_without_the_usual_words_is_caught(reply: str, text: str) -> None:
    assert verdict(reply, text) == "correction"


@pytest.mark.parametrize(
    ("reply", "text"),
    [
        ("The total with tax is 84.20.", "Yep, that matches the receipt."),
        ("You should leave by 7:10.", "That lines up with what the app says."),
        ("Set the timeout to 30 seconds.", "Good call, no more timeouts."),
        ("I tightened the wording of the intro.", "I like that phrasing a lot."),
        ("The regex handles both formats.", "Works on all my samples, thanks!"),
        ("总价是860元。", "跟账单上的一样"),
        ("先清一下缓存试试。", "真的好了，太神了"),
        ("我帮你改了开头。", "这版比原来那版好多了"),
    ],
)
def test_an_approval_of_a_checked_result_is_caught(reply: str, text: str) -> None:
    assert verdict(reply, text) == "approval"


@pytest.mark.parametrize(
    ("reply", "text"),
    [
        ("Would you like a receipt?", "No, I don't need one."),  # answers a question
        ("I can also book a taxi for you.", "No thanks, I'll walk."),  # declines an offer
        ("Here's the weather for tomorrow.", "No worries, thanks for checking."),
        ("需要我继续翻译吗？", "不用了，谢谢"),
        ("明天的天气预报出来了。", "应该是晴天吧"),  # a guess, not a doubt asked back
        ("Here's the list of hotels.", "Isn't it beautiful there in spring?"),
        ("要我接着翻译吗？", "可以了，谢谢"),  # that is enough, not an approval
    ],
)
def test_answers_offers_and_guesses_stay_neither(reply: str, text: str) -> None:
    assert verdict(reply, text) == "neither"
