"""An offline stand-in chat model for the demo and for graphs run with nothing configured.

It is not a language model: it reads the ``<user_memory>`` block it was given
and answers by saying which remembered facts it would apply to the request.
That makes the memory pipeline visible on a machine with no API key; with a
model configured, the real model answers instead. It never calls tools.
"""

from __future__ import annotations

import html
import re
from collections.abc import Callable, Sequence
from typing import Any

from langchain_core.callbacks import CallbackManagerForLLMRun
from langchain_core.language_models import BaseChatModel, LanguageModelInput
from langchain_core.messages import AIMessage, BaseMessage, SystemMessage
from langchain_core.outputs import ChatGeneration, ChatResult
from langchain_core.runnables import Runnable
from langchain_core.tools import BaseTool

from deerflow_memory.capture.messages import latest_user_text, message_text

__all__ = ["OfflineStandInModel", "remembered_facts"]

_BLOCK_RE = re.compile(r"<user_memory>(.*?)</user_memory>", re.DOTALL)
_FACT_LINE_RE = re.compile(r"^\s*-\s*(?:\[[^\]]*\]\s*)?(.+?)\s*$")
_CJK_RE = re.compile(r"[\u3400-\u9fff]")


def remembered_facts(messages: Sequence[BaseMessage]) -> list[str]:
    """The fact lines of the ``<user_memory>`` block in the system messages, unescaped."""
    facts: list[str] = []
    for message in messages:
        if not isinstance(message, SystemMessage):
            continue
        for block in _BLOCK_RE.findall(message_text(message)):
            in_facts = False
            for line in block.splitlines():
                if line.strip().lower().startswith(("facts", "## facts", "# facts")):
                    in_facts = True
                    continue
                match = _FACT_LINE_RE.match(line)
                if match and (in_facts or line.lstrip().startswith("- [")):
                    facts.append(html.unescape(match.group(1)))
    return facts


class OfflineStandInModel(BaseChatModel):
    """Answers from the injected memory alone; says plainly that it is a stand-in."""

    @property
    def _llm_type(self) -> str:
        return "deerflow-memory-offline-stand-in"

    def _generate(
        self,
        messages: list[BaseMessage],
        stop: list[str] | None = None,
        run_manager: CallbackManagerForLLMRun | None = None,
        **kwargs: Any,
    ) -> ChatResult:
        request = latest_user_text(messages)
        facts = remembered_facts(messages)
        chinese = bool(_CJK_RE.search(request))
        text = _reply_zh(request, facts) if chinese else _reply_en(request, facts)
        return ChatResult(generations=[ChatGeneration(message=AIMessage(content=text))])

    def bind_tools(
        self,
        tools: Sequence[dict[str, Any] | type | Callable[..., Any] | BaseTool],
        **kwargs: Any,
    ) -> Runnable[LanguageModelInput, AIMessage]:
        # The stand-in never calls tools, so binding them changes nothing.
        return self


def _reply_en(request: str, facts: list[str]) -> str:
    head = "[offline stand-in model: no LLM configured]"
    if not facts:
        return f"{head} I have no memory of you yet. You asked: {request!r}."
    listed = "\n".join(f"  - {fact}" for fact in facts)
    return (
        f"{head} You asked: {request!r}. From memory I was given, I would take into account:\n"
        f"{listed}\n"
        "A real model would now answer with these in mind, without you repeating them."
    )


def _reply_zh(request: str, facts: list[str]) -> str:
    head = "[离线替身模型：未配置 LLM]"
    if not facts:
        return f"{head} 我还没有关于你的记忆。你的问题是：「{request}」。"
    listed = "\n".join(f"  - {fact}" for fact in facts)
    return (
        f"{head} 你的问题是：「{request}」。根据我获得的记忆，我会考虑：\n"
        f"{listed}\n"
        "真实模型会据此作答，你无需再次说明。"
    )
