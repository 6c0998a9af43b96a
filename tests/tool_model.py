"""Fake chat models for agent tests: one tool call per user turn then the answer; a summarizer."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from langchain_core.language_models import BaseChatModel
from langchain_core.messages import AIMessage, BaseMessage, HumanMessage
from langchain_core.outputs import ChatGeneration, ChatResult


class OneToolCallModel(BaseChatModel):
    """After a user message, calls ``tool`` with ``args(user's text)``; after the tool's
    message, answers ``reply_prefix`` + the tool's text."""

    tool: str
    args: Callable[[str], dict[str, Any]]
    reply_prefix: str

    def _generate(
        self, messages: list[BaseMessage], stop: Any = None, run_manager: Any = None, **kw: Any
    ) -> ChatResult:
        last = messages[-1]
        if isinstance(last, HumanMessage):
            call = {"name": self.tool, "args": self.args(last.text), "id": f"call-{len(messages)}"}
            message = AIMessage(content="", tool_calls=[call])
        else:
            message = AIMessage(content=f"{self.reply_prefix}{last.text}")
        return ChatResult(generations=[ChatGeneration(message=message)])

    def bind_tools(self, tools: Sequence[Any], **kwargs: Any) -> Any:
        return self

    @property
    def _llm_type(self) -> str:
        return f"one-{self.tool}-call"


class SummaryModel(BaseChatModel):
    """Writes a summary that carries none of the user's facts: always "We chatted."."""

    @property
    def _llm_type(self) -> str:
        return "summary"

    def _generate(
        self, messages: list[BaseMessage], stop: Any = None, run_manager: Any = None, **kw: Any
    ) -> ChatResult:
        return ChatResult(generations=[ChatGeneration(message=AIMessage(content="We chatted."))])
