"""The text of the summarization hook's conversation summary.

:func:`write_summary` turns the messages the hook removes (and the entries of
the summary they held) into summary entries, one short line each:

- **with a model**: one call with a prompt of at most ``max_prompt_tokens``
  tokens. The earlier summary's entries go in first (at most half the budget,
  newest kept), then the removed messages, newest first, as one JSON string
  per message; older messages that do not fit are left out, and the prompt
  says how many. A transcript that outgrew the model's context is thus never sent.
- **without a model, or when the call fails**: the deterministic extractive
  summary (:func:`extractive_summary`: what the user said, in order, shortened).

How it fails: never. Any error of the model call (connection reset, HTTP
400/429/500, timeout, an empty answer) is returned in
:attr:`SummaryResult.error` (credentials masked, for the caller to log and
report); the entries are then the extractive summary, so the turn goes on.
Only LangGraph's own control-flow exceptions (interrupts) pass through.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Literal

from langchain_core.language_models import BaseChatModel
from langchain_core.messages import BaseMessage, HumanMessage
from langgraph.errors import GraphBubbleUp

from deerflow_memory.capture.messages import filter_messages_for_memory, message_text
from deerflow_memory.config import redact_secrets
from deerflow_memory.daemons import signals_unheld
from deerflow_memory.update.prompt import json_text_for_prompt, render_message_for_update

__all__ = ["SUMMARY_MAX_ENTRIES", "SummaryResult", "extractive_summary", "write_summary"]

SUMMARY_MAX_ENTRIES = 40
"""Most entries a summary keeps (the newest)."""
_ENTRY_CHARS = 200  # longest user message quoted by the extractive summary
_MODEL_LINE_CHARS = 500  # longest line of a model's summary kept
_MESSAGE_CHARS = 1000  # longest message text in the model's prompt
_ERROR_CHARS = 300  # longest error text reported

_INSTRUCTIONS = (
    "Summarize this earlier part of a conversation in a few short sentences, one per "
    "line, keeping names, decisions, open questions and anything the user said about "
    "themselves. Each line of <conversation> is one message, its text a JSON string."
)


@dataclass(frozen=True)
class SummaryResult:
    """What :func:`write_summary` made.

    Attributes:
        entries: the summary's lines, at most :data:`SUMMARY_MAX_ENTRIES`.
        source: ``"model"`` or ``"extractive"`` (no model, or its call failed).
        error: why the model's summary was not used (``"ConnectionError: ..."``,
            credentials masked, at most 300 characters); None when it was, or
            when no model was given.
        messages_left_out: removed messages not shown to the model because the
            prompt reached ``max_prompt_tokens`` (0 without a model).
    """

    entries: list[str]
    source: Literal["model", "extractive"]
    error: str | None = None
    messages_left_out: int = 0


def extractive_summary(messages: Sequence[BaseMessage], previous: Sequence[str]) -> list[str]:
    """A deterministic summary: ``previous`` then what the user said, in order, shortened.

    Each user message becomes ``"User said: <text>"`` (whitespace collapsed, cut
    at 200 characters with ``…``); the newest :data:`SUMMARY_MAX_ENTRIES` entries are kept.
    """
    entries = list(previous)
    for message in messages:
        if isinstance(message, HumanMessage):
            text = " ".join(message_text(message).split())
            if text:
                cut = "…" if len(text) > _ENTRY_CHARS else ""
                entries.append(f"User said: {text[:_ENTRY_CHARS]}{cut}")
    return entries[-SUMMARY_MAX_ENTRIES:]


def summary_prompt(
    messages: Sequence[BaseMessage],
    previous: Sequence[str],
    *,
    count: Callable[[str], int],
    max_tokens: int,
) -> tuple[str, int]:
    """The model's prompt within ``max_tokens`` tokens, and how many messages it leaves out.

    The instructions always go in; the earlier summary's entries (at most half
    of what is left) and the messages fill the rest, newest first.
    """
    budget = max_tokens - count(_INSTRUCTIONS) - 48  # tags, notes and the message framing
    earlier: list[str] = []
    earlier_budget = budget // 2  # the removed messages always get at least half
    for entry in reversed(previous):
        line = json_text_for_prompt(entry)
        cost = count(line) + 1
        if cost > earlier_budget:
            break
        earlier.append(line)
        earlier_budget -= cost
        budget -= cost
    lines = [
        line
        for line in (
            render_message_for_update(m, max_chars=_MESSAGE_CHARS)
            for m in filter_messages_for_memory(messages)
        )
        if line is not None
    ]
    shown: list[str] = []
    for line in reversed(lines):
        cost = count(line) + 1
        if cost > budget:
            break
        shown.append(line)
        budget -= cost
    left_out = len(lines) - len(shown)
    parts = [_INSTRUCTIONS]
    if earlier:
        parts.append(
            "<earlier_summary> is the summary of what came before it, one JSON string "
            "per line; keep what still matters.\n<earlier_summary>\n"
            + "\n".join(reversed(earlier))
            + "\n</earlier_summary>"
        )
    note = f"({left_out} earlier messages were left out to fit.)\n" if left_out else ""
    parts.append(f"{note}<conversation>\n" + "\n".join(reversed(shown)) + "\n</conversation>")
    return "\n\n".join(parts), left_out


def _describe(error: BaseException) -> str:
    text = " ".join(redact_secrets(str(error)).split())
    described = f"{type(error).__name__}: {text}" if text else type(error).__name__
    return described if len(described) <= _ERROR_CHARS else described[: _ERROR_CHARS - 1] + "…"


def write_summary(
    model: BaseChatModel | None,
    messages: Sequence[BaseMessage],
    previous: Sequence[str],
    *,
    count: Callable[[str], int],
    max_prompt_tokens: int,
) -> SummaryResult:
    """Summary entries for ``messages`` (removed by the hook) after the ``previous`` summary.

    Args:
        model: chat model that writes the summary; None = :func:`extractive_summary`.
        messages: the removed messages, oldest first.
        previous: entries of the summary the removed messages held (may be empty).
        count: tokens of a text (the service's counter).
        max_prompt_tokens: budget of the model's prompt, in tokens.

    Returns:
        The entries, their source, and the model's error if it failed (see the
        module docstring). Never raises because of the model.
    """
    if model is None:
        return SummaryResult(extractive_summary(messages, previous), "extractive")
    prompt, left_out = summary_prompt(messages, previous, count=count, max_tokens=max_prompt_tokens)
    try:
        with signals_unheld():  # a no-op on the app's threads, where the hook runs
            answer = model.invoke([HumanMessage(content=prompt)])
        lines = [" ".join(line.split()) for line in message_text(answer).splitlines()]
        entries = [
            line if len(line) <= _MODEL_LINE_CHARS else line[: _MODEL_LINE_CHARS - 1] + "…"
            for line in lines
            if line
        ][:SUMMARY_MAX_ENTRIES]
        if not entries:
            raise ValueError("the model's summary is empty")
    except GraphBubbleUp:
        raise  # an interrupt is control flow, not a failure
    except Exception as e:  # the providers' error types vary: every failure falls back
        return SummaryResult(extractive_summary(messages, previous), "extractive", _describe(e))
    return SummaryResult(entries, "model", None, left_out)
