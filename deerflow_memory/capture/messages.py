"""Which messages of a turn reach memory.

Memory only needs what the user said and what the assistant finally answered.
:func:`filter_messages_for_memory` keeps human messages and final assistant
replies (a ``ChatMessage`` of role ``user``/``human`` counts as a human message,
``assistant``/``ai`` as an AI one, and is passed on as that type) and drops
everything else: tool messages, intermediate AI steps that call tools, system
messages, ``RemoveMessage`` markers, hidden messages, turns that only carried a
file upload, and pure acknowledgements ("ok", "谢谢").

A message is *hidden* when ``additional_kwargs["hidden"]`` or
``response_metadata["hidden"]`` is true; that is the flag to set on internal
messages (reminders, injected context) that a graph keeps in its history but
that must never become memories. A message with ``additional_kwargs["lc_source"]``
is hidden too: LangChain marks so a human message the user did not type (its
``SummarizationMiddleware``'s summary, a background task's notification,
``langchain_core.messages.add_notification_metadata``).

Odd messages never raise: unknown message types (system, tool, chat messages)
and unknown content parts are skipped, never guessed at. What is not a
sequence of messages at all (``None``, a string, dicts) is refused by
:func:`check_messages`, the check at the public entry points
(:func:`filter_messages_for_memory`, :func:`has_minimum_dialogue`,
``MemoryService.enqueue``), with :class:`~deerflow_memory.errors.InvalidMessagesError`.
:func:`coerce_messages` turns what
LangGraph's ``add_messages`` accepts (dicts, ``(role, text)`` tuples, strings)
into messages, for states that keep raw ones. Input messages are never mutated; a
message whose text changes (an ``<uploaded_files>`` block stripped) is replaced
by a copy, all others are passed through as the same objects.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from itertools import repeat
from operator import attrgetter
from typing import Any

from langchain_core.messages import (
    AIMessage,
    BaseMessage,
    ChatMessage,
    HumanMessage,
    convert_to_messages,
)

from deerflow_memory.arguments import expect_items
from deerflow_memory.errors import InvalidMessagesError
from deerflow_memory.logs import package_logger
from deerflow_memory.models import replace_surrogates

__all__ = [
    "check_messages",
    "coerce_messages",
    "filter_checked_messages",
    "filter_messages_for_memory",
    "filter_recent_messages",
    "has_dialogue",
    "has_minimum_dialogue",
    "is_acknowledgement",
    "is_hidden",
    "latest_user_text",
    "message_text",
    "strip_upload_blocks",
    "turn_kind",
]

logger = package_logger(__name__)

# ``<uploaded_files ...> ... </uploaded_files>``, across lines, any case.
_UPLOAD_BLOCK = re.compile(
    r"<uploaded_files\b[^>]*>.*?</uploaded_files\s*>", re.IGNORECASE | re.DOTALL
)

_ACK_WORDS = (
    r"ok(?:ay)?|okey|alright|thanks?(?:\s+(?:a\s+lot|so\s+much|very\s+much))?"
    r"|thank\s+you(?:\s+(?:so|very)\s+much)?|thx|ty|cheers|got\s+it|noted|understood"
    r"|好的?|好吧|好滴|好嘞|谢谢(?:你|您|啦)?|多谢|感谢|收到|嗯++|哦++|噢++|行|明白了?|知道了|了解|懂了"
)
# One or more acknowledgement words separated by punctuation, spaces or emoji. The
# repeats are possessive: "嗯+" inside the repetition tried every split of "嗯嗯嗯… x"
# (exponential: seconds for 22 characters, on the capture node's path).
# Emoji and punctuation are non-word characters, so ``[\W_]`` covers both.
_ACKNOWLEDGEMENT = re.compile(
    rf"[\W_]*(?:{_ACK_WORDS})(?:[\W_]*(?:{_ACK_WORDS}))*[\W_]*", re.IGNORECASE
)
# Longest acknowledgement worth testing; longer texts skip the regex entirely.
_ACK_MAX_CHARS = 40


def message_text(message: BaseMessage) -> str:
    """The text of a message: string content, or its joined text parts.

    Args:
        message: any LangChain message.

    Returns:
        The string content as is; for list (multimodal) content, the plain
        strings and ``{"type": "text", "text": ...}`` parts joined with
        newlines. Images and other parts contribute nothing, and so does content
        of any other type (``None`` in a message built with ``model_construct``,
        which skips LangChain's validation). A lone surrogate (not valid Unicode,
        e.g. a ``"\\ud800"`` JSON escape) becomes U+FFFD.
    """
    content = message.content
    if isinstance(content, str):
        return replace_surrogates(content)
    if not isinstance(content, list | tuple):
        return ""
    parts: list[str] = []
    for part in content:
        if isinstance(part, str):
            parts.append(part)
        elif isinstance(part, dict) and part.get("type") == "text":
            text = part.get("text")
            if isinstance(text, str):
                parts.append(text)
    return replace_surrogates("\n".join(parts))


def is_hidden(message: BaseMessage) -> bool:
    """True when the message is flagged ``hidden`` or LangChain added it (``lc_source``)."""
    # Most messages carry empty dicts here: test truthiness before the lookup (hot path).
    extra, metadata = message.additional_kwargs, message.response_metadata
    return bool(
        (extra and (extra.get("hidden") or extra.get("lc_source")))
        or (metadata and metadata.get("hidden"))
    )


def is_acknowledgement(text: str) -> bool:
    """True for a pure acknowledgement such as "ok", "thanks!", "好的，谢谢" or "收到👍"."""
    stripped = text.strip()
    if not stripped or len(stripped) > _ACK_MAX_CHARS:
        return False
    return _ACKNOWLEDGEMENT.fullmatch(stripped) is not None


def strip_upload_blocks(text: str) -> str:
    """Remove every ``<uploaded_files>…</uploaded_files>`` block and trim the rest."""
    if "<" not in text:
        return text
    return _UPLOAD_BLOCK.sub("", text).strip()


def _without_upload_blocks(message: HumanMessage) -> HumanMessage | None:
    """The message with upload blocks removed; ``None`` when no text is left.

    Returns the same object when there was nothing to strip.
    """
    content = message.content
    if isinstance(content, str):
        if "<" not in content or not _UPLOAD_BLOCK.search(content):
            return message if content.strip() else None
        stripped = _UPLOAD_BLOCK.sub("", content).strip()
        return message.model_copy(update={"content": stripped}) if stripped else None
    if not isinstance(content, list | tuple):  # no text (see message_text)
        return None
    changed = False
    new_parts: list[Any] = []
    has_text = False
    for part in content:
        text = part if isinstance(part, str) else None
        if (
            isinstance(part, dict)
            and part.get("type") == "text"
            and isinstance(part.get("text"), str)
        ):
            text = part["text"]
        if text is None:
            new_parts.append(part)
            continue
        stripped = strip_upload_blocks(text)
        if stripped != text:
            changed = True
            if not stripped:
                continue
            part = stripped if isinstance(part, str) else {**part, "text": stripped}
        has_text = has_text or bool(stripped.strip())
        new_parts.append(part)
    if not has_text:
        return None
    return message.model_copy(update={"content": new_parts}) if changed else message


_HUMAN_ROLES = frozenset({"user", "human"})
_AI_ROLES = frozenset({"assistant", "ai"})


_MessageClass = type[HumanMessage] | type[AIMessage] | type[ChatMessage] | type[BaseMessage]

# The kind of each message class met: HumanMessage, AIMessage, ChatMessage, BaseMessage
# (any other message) or None (not a message). ``isinstance`` with a pydantic model class
# goes through ABCMeta (~0.1 µs a miss), and the capture node asks several times per
# message; one dict lookup by class answers it. Classes are few; an app that makes them
# on the fly (one per request) only empties the dict now and then.
_KIND_OF_CLASS: dict[type, _MessageClass | None] = {}
_CLASSES_KEPT = 256
_class_of = attrgetter("__class__")


def _kind(message: object) -> _MessageClass | None:
    """``message``'s message class among those this module reads (see :data:`_KIND_OF_CLASS`).

    Read from ``__class__``, as ``isinstance`` reads it: an object proxy
    (``wrapt.ObjectProxy``, ``Mock(spec=HumanMessage)``) is what it stands for.
    """
    try:
        cls = message.__class__
        return _KIND_OF_CLASS[cls]
    except KeyError:
        pass
    except Exception:  # a __class__ that raises, or is unhashable: no message
        return None
    kind: _MessageClass | None = None
    if not isinstance(cls, type):  # a __class__ that is no class ("HumanMessage")
        return None
    for known in (HumanMessage, AIMessage, ChatMessage, BaseMessage):
        if issubclass(cls, known):
            kind = known
            break
    if len(_KIND_OF_CLASS) >= _CLASSES_KEPT:
        _KIND_OF_CLASS.clear()
    _KIND_OF_CLASS[cls] = kind
    return kind


def turn_kind(message: BaseMessage) -> type[HumanMessage] | type[AIMessage] | None:
    """Whose turn ``message`` is, as :func:`_as_turn` would read it, without building a copy."""
    kind = _kind(message)
    if kind is HumanMessage or kind is AIMessage:
        return kind
    if kind is ChatMessage and isinstance(message.role, str):  # type: ignore[attr-defined]
        role = message.role.strip().lower()  # type: ignore[attr-defined]
        return HumanMessage if role in _HUMAN_ROLES else AIMessage if role in _AI_ROLES else None
    return None


def _as_turn(message: BaseMessage) -> BaseMessage:
    """A ``ChatMessage`` of role user/human as a ``HumanMessage``, assistant/ai as an ``AIMessage``.

    Some clients and adapters send every turn as ``ChatMessage(role=...)``; its
    words are the user's or the assistant's all the same. Other messages, and
    other roles (``system``, ``tool``, a custom one), are returned as they are.
    """
    if _kind(message) is not ChatMessage:
        return message
    kind = turn_kind(message)
    if kind is None:
        return message
    return kind(
        content=message.content,
        id=message.id,
        name=message.name,
        additional_kwargs=message.additional_kwargs,
        response_metadata=message.response_metadata,
    )


def _is_final_reply(message: AIMessage) -> bool:
    if (
        message.tool_calls
        or message.invalid_tool_calls
        or message.additional_kwargs.get("tool_calls")
    ):
        return False
    content = message.content
    # A lone surrogate is not whitespace: string content need not be repaired to be tested.
    return bool((content if isinstance(content, str) else message_text(message)).strip())


def filter_messages_for_memory(messages: Sequence[BaseMessage]) -> list[BaseMessage]:
    """Keep what the user said and what the assistant finally answered.

    Kept: human messages (with ``<uploaded_files>`` blocks stripped) and AI
    messages without tool calls and with non-empty text. Dropped: tool,
    system and ``RemoveMessage`` messages, AI messages that call tools, hidden
    messages (see the module docstring), and — together with the assistant
    reply that follows them — human turns with no text left after stripping
    uploads and pure acknowledgements ("ok", "thanks", "好的", "谢谢").

    Args:
        messages: the conversation, oldest first.

    Returns:
        A new list; unchanged messages are the input objects themselves,
        changed ones are copies. The input is never mutated.

    Raises:
        InvalidMessagesError: ``messages`` is not a sequence of LangChain
            messages (``None``, a string, a dict, or a list holding dicts).
    """
    return filter_checked_messages(check_messages(messages))


def filter_checked_messages(messages: Sequence[BaseMessage]) -> list[BaseMessage]:
    """:func:`filter_messages_for_memory` of messages known to be messages (not checked again).

    For the loops behind the public entry points (the updater, dead letters,
    the fence), whose messages were checked when they were queued.
    """
    kept: list[BaseMessage] = []
    # True after a dropped human turn: its assistant reply goes too.
    skip_reply = False
    for message in messages:
        kind = _kind(message)
        if kind is ChatMessage:
            message = _as_turn(message)
            kind = _kind(message)
        if kind is HumanMessage:
            assert isinstance(message, HumanMessage)
            if is_hidden(message):
                continue
            cleaned = _without_upload_blocks(message)
            if cleaned is None or is_acknowledgement(message_text(cleaned)):
                skip_reply = True
                continue
            skip_reply = False
            kept.append(cleaned)
        elif kind is AIMessage:
            assert isinstance(message, AIMessage)
            if skip_reply or not _is_final_reply(message) or is_hidden(message):
                continue
            kept.append(message)
    return kept


def filter_recent_messages(messages: Sequence[BaseMessage], limit: int) -> list[BaseMessage]:
    """The last ``limit`` messages of :func:`filter_messages_for_memory`, found from the end.

    Same result as ``filter_messages_for_memory(messages)[-limit:]`` but reads
    only as far back as it must, which keeps the capture node's cost flat as a
    thread grows. Walking backwards, assistant replies are held until the human
    turn they answer is seen: a dropped turn (upload-only, acknowledgement)
    drops them too, a kept one commits them.
    """
    if limit <= 0:
        return []
    kept: list[BaseMessage] = []  # newest first
    replies: list[BaseMessage] = []  # final replies waiting for their human turn
    for message in reversed(messages):
        kind = _kind(message)
        if kind is ChatMessage:
            message = _as_turn(message)
            kind = _kind(message)
        if kind is AIMessage:
            assert isinstance(message, AIMessage)
            if _is_final_reply(message) and not is_hidden(message):
                replies.append(message)
        elif kind is HumanMessage:
            assert isinstance(message, HumanMessage)
            if is_hidden(message):
                continue  # a hidden turn neither keeps nor drops the replies after it
            cleaned = _without_upload_blocks(message)
            if cleaned is None or is_acknowledgement(message_text(cleaned)):
                replies.clear()
                continue
            kept.extend(replies)
            kept.append(cleaned)
            replies.clear()
            if len(kept) >= limit:
                break
    else:
        kept.extend(replies)  # replies before the first human turn are kept as well
    kept.reverse()
    return kept[-limit:]


def latest_user_text(messages: Sequence[BaseMessage]) -> str:
    """Text of the user's last message (upload blocks stripped), or ``""`` when there is none.

    Hidden messages (:func:`is_hidden`: reminders, a summary) are not the user's: skipped.
    """
    for message in reversed(messages):
        if turn_kind(message) is HumanMessage and not is_hidden(message):
            return strip_upload_blocks(message_text(message))
    return ""


def has_minimum_dialogue(messages: Sequence[BaseMessage]) -> bool:
    """True when there is at least one human and one AI message.

    Raises:
        InvalidMessagesError: ``messages`` is not a sequence of LangChain messages.
    """
    return has_dialogue(check_messages(messages))


def has_dialogue(messages: Sequence[BaseMessage]) -> bool:
    """:func:`has_minimum_dialogue` of messages known to be messages (not checked again).

    The capture node's hot path calls it on what ``filter_recent_messages`` returned.
    """
    has_human = has_ai = False
    for message in messages:
        kind = turn_kind(message)
        if kind is HumanMessage:
            has_human = True
        elif kind is AIMessage:
            has_ai = True
        if has_human and has_ai:
            return True
    return False


_CONVERT = (
    " (HumanMessage, AIMessage, ...): convert it first, e.g. with "
    "langchain_core.messages.convert_to_messages"
)


def check_messages(messages: object, name: str = "messages") -> tuple[BaseMessage, ...]:
    """``messages`` as a tuple, when it is a sequence of LangChain ``BaseMessage`` objects.

    Args:
        messages: what the caller passed.
        name: the argument's name, for the message.

    Raises:
        InvalidMessagesError: a string, mapping or other non-sequence, an
            element that is not a ``BaseMessage`` (a dict, a tuple, a string), or
            one whose content is neither text nor a list of parts (``None``, left
            by ``model_construct``, which skips LangChain's validation).
    """
    items = expect_items(
        messages, BaseMessage, name, "LangChain message", InvalidMessagesError, hint=_CONVERT
    )
    for index, message in enumerate(items):
        if not isinstance(message.content, str | list):
            raise InvalidMessagesError(
                f"{name}[{index}] has content of type {type(message.content).__name__}; "
                "a message's content is a str or a list of parts"
            )
    return items


def coerce_messages(messages: Sequence[Any]) -> Sequence[BaseMessage]:
    """``messages`` with each non-message converted as LangGraph's ``add_messages`` would.

    A graph state without that reducer may hold dicts (``{"role": "user",
    "content": ...}``), ``(role, text)`` tuples or strings. They are converted
    with ``convert_to_messages``; one that cannot be converted is left out with
    a warning (the agent's turn must not break on it). The input itself is
    returned when it holds only messages (the common case, no copy).
    """
    # Every one a message: classes met before are looked up, others checked.
    if all(map(_KIND_OF_CLASS.get, map(_class_of, messages))) or all(
        map(isinstance, messages, repeat(BaseMessage))
    ):
        return messages
    converted: list[BaseMessage] = []
    for message in messages:
        if isinstance(message, BaseMessage):
            converted.append(message)
            continue
        try:
            converted.extend(convert_to_messages([message]))
        except Exception as e:
            logger.warning(
                "memory capture left out a %s that is not a message: %s", type(message).__name__, e
            )
    return converted
