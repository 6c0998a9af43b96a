"""The extraction gate: does a burst of turns say anything about the user at all?

A memory model call costs money; "What is the capital of France?" cannot teach
it anything about the user. :func:`is_self_referential` keeps a user message
when it has a first-person statement (I / my / me / 我 / 我的 …), a standing
instruction or preference ("always answer in French", "以后别用表情"), or
asks about the user's own facts ("what do you know about me"). Request
phrases such as "help me", "tell me", "帮我", "给我" do not count on their own,
since "help me write a poem" states nothing. :func:`burst_needs_model` also
keeps a burst whose assistant turn ended with a question to the user ("What
is your favourite language?" → "Rust."), and any burst with a correction or
reinforcement signal.

The gate errs on the side of calling the model: a missed skip costs one call,
a wrong skip loses a memory. Measured skip rate and recall: ``bench/gate.py``.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from langchain_core.messages import AIMessage, BaseMessage, HumanMessage

from deerflow_memory.capture.messages import message_text

__all__ = ["burst_needs_model", "is_self_referential"]

_EN_REQUESTS = re.compile(
    r"\b(?:help|tell|show|give|let|send|get|find|teach|remind|walk|bring|lend|"
    r"explain(?:\s+\w+)?\s+to)\s+me\b|"
    r"\bexcuse me\b|\bi\s+(?:wonder|mean|guess)\b|\bcan i ask\b|"
    r"\b(?:how|what|where|when|which|why) (?:do|can|should|would|could|might) (?:i|we)\b",
    re.IGNORECASE,
)
_EN_SELF = re.compile(
    r"\b(?:i|i'm|i'd|i've|i'll|im|ive|my|mine|myself|me|we|we're|we've|our|ours|us)\b|"
    r"\b(?:call me|about me|for me|to me)\b",
    re.IGNORECASE,
)
# Standing instructions and stated likes, with or without a first person.
_EN_STANDING = re.compile(
    r"\b(?:always|never|from now on|going forward|in (?:the )?future|next time|"
    r"prefer(?:s|red|ence)?|favou?rite|remember|forget|don'?t (?:ever|use|call|say|send|"
    r"give|suggest|recommend|add|write|reply|answer)|stop (?:using|calling|saying|adding)|"
    r"no more|please (?:use|reply|answer|write|respond|keep|be|avoid|call)|"
    r"(?:reply|answer|respond|write) (?:in|with|only)|keep (?:it|answers|replies) )\b",
    re.IGNORECASE,
)
_ZH_REQUESTS = re.compile(r"(?:帮|给|替|为|告诉|教|叫醒|提醒一下|让)我(?!的)|请问")
_ZH_SELF = re.compile(r"[我咱俺]|本人|自己")
_ZH_STANDING = re.compile(
    r"以后|今后|下次|从现在起|从今往后|总是|一直|永远|每次|别再|不要再|不要用|别用|"
    r"记住|记得|忘掉|忘记|喜欢|讨厌|偏好|习惯|最爱|过敏|请用|请以|用中文|用英文|称呼"
)
_QUESTION_END = re.compile(r"[?？]\s*\W*$")
_EN_YOU = re.compile(r"\b(?:you|your|yours|yourself)\b", re.IGNORECASE)
_ZH_YOU = re.compile(r"[你您]")


def is_self_referential(text: str) -> bool:
    """True when a user message may state something about the user (zh/en).

    Args:
        text: one user message.
    """
    if _EN_STANDING.search(text) or _ZH_STANDING.search(text):
        return True
    en = _EN_REQUESTS.sub(" ", text)
    if _EN_SELF.search(en):
        return True
    zh = _ZH_REQUESTS.sub("", text)
    return bool(_ZH_SELF.search(zh))


def _asks_the_user(text: str) -> bool:
    # The assistant's last sentence is a question addressed to the user.
    tail = re.split(r"(?<=[.!。！\n])\s*", text.strip())[-1]
    return bool(_QUESTION_END.search(tail) and (_EN_YOU.search(tail) or _ZH_YOU.search(tail)))


def burst_needs_model(
    messages: Sequence[BaseMessage],
    *,
    context: Sequence[BaseMessage] = (),
    correction: bool = False,
    reinforcement: bool = False,
) -> bool:
    """False when the memory model can be skipped for this burst of new messages.

    Args:
        messages: the new (not yet extracted) filtered messages.
        context: already-extracted messages right before them (a question the
            assistant asked there makes the first answer count).
        correction, reinforcement: signals detected for the burst; either keeps it.
    """
    if correction or reinforcement:
        return True
    previous: BaseMessage | None = context[-1] if context else None
    for message in messages:
        if isinstance(message, HumanMessage):
            if is_self_referential(message_text(message)):
                return True
            if isinstance(previous, AIMessage) and _asks_the_user(message_text(previous)):
                return True
        previous = message
    return False
