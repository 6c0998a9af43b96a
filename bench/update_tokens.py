"""What the memory model reads: incremental updates against a whole-thread re-feed (issue 10).

A 100-turn thread (the mixed zh/en turns of ``tests/gate_turns.py``, shuffled
with a fixed seed; replies from the bundled offline stand-in model) is updated
every 5 turns, as the debounced queue does. The memory model is a recording
fake that answers one fact per self-statement, so the memory grows as it would.

Printed, on the same run:

- calls, characters and tokens (o200k) sent in total and per call;
- the same for a whole-thread re-feed (every update sends the whole thread and
  the whole memory, as before issue 10), computed at every update point;
- the ratio sent / (new messages + memory shown), goal ≤ 1.3 (the instructions
  in the system message are identical on every call and listed apart);
- the largest conversation part of any request against the budget.

Run: ``python bench/update_tokens.py``
"""

from __future__ import annotations

import json
import random
import re
import sys
import tempfile
from pathlib import Path
from typing import Any

from langchain_core.callbacks import CallbackManagerForLLMRun
from langchain_core.language_models import BaseChatModel
from langchain_core.messages import AIMessage, BaseMessage, HumanMessage
from langchain_core.outputs import ChatGeneration, ChatResult

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from deerflow_memory.capture.messages import filter_messages_for_memory
from deerflow_memory.config import MemoryConfig
from deerflow_memory.inject.tokens import get_token_counter
from deerflow_memory.standin import OfflineStandInModel
from deerflow_memory.storage.file import FileMemoryStorage
from deerflow_memory.update.incremental import render_message
from deerflow_memory.update.prompt import build_update_prompt
from deerflow_memory.update.queue import UpdateJob
from deerflow_memory.update.updater import MemoryUpdater
from tests.gate_turns import TABLE

TURNS = 100
EVERY = 5
_USER_LINE = re.compile(r'^User: "(.*)"$', re.MULTILINE)


class RecordingModel(BaseChatModel):
    """Records every prompt; answers one fact per user line of the conversation block."""

    prompts: list[list[BaseMessage]] = []  # noqa: RUF012 - one instance per run

    @property
    def _llm_type(self) -> str:
        return "recording"

    def _generate(
        self,
        messages: list[BaseMessage],
        stop: list[str] | None = None,
        run_manager: CallbackManagerForLLMRun | None = None,
        **kwargs: Any,
    ) -> ChatResult:
        self.prompts.append(list(messages))
        human = str(messages[-1].content)
        conversation = human.split("<conversation>", 1)[1].split("</conversation>", 1)[0]
        said = [json.loads('"' + m + '"') for m in _USER_LINE.findall(conversation)]
        facts = [{"content": f"User said: {s[:80]}", "confidence": 0.9} for s in said]
        answer = json.dumps({"newFacts": facts}, ensure_ascii=False)
        return ChatResult(generations=[ChatGeneration(message=AIMessage(content=answer))])


def section(text: str, tag: str) -> str:
    return text.split(f"<{tag}>\n", 1)[1].split(f"\n</{tag}>", 1)[0] if f"<{tag}>" in text else ""


def main() -> None:
    count = get_token_counter("tiktoken", "o200k_base").count
    turns = [text for text, _ in TABLE][:TURNS]
    random.Random(7).shuffle(turns)
    standin = OfflineStandInModel()
    config = MemoryConfig(fact_confidence_threshold=0.5, max_facts=1000)
    budget = config.update_conversation_max_tokens
    model = RecordingModel()
    with tempfile.TemporaryDirectory() as root:
        storage = FileMemoryStorage(root)
        updater = MemoryUpdater(storage, model, config, count_tokens=count)
        history: list[BaseMessage] = []
        refeed_chars = refeed_tokens = refeed_conversation = 0
        new_tokens = 0
        for i, text in enumerate(turns):
            history.append(HumanMessage(text, id=f"h{i}"))
            history.append(AIMessage(str(standin.invoke(history).content), id=f"a{i}"))
            if (i + 1) % EVERY:
                continue
            # The whole-thread re-feed of this update point, on the same memory.
            document = storage.load("alice")
            whole = build_update_prompt(
                document,
                filter_messages_for_memory(history),
                correction_detected=False,
                reinforcement_detected=False,
            )
            refeed_chars += len(str(whole[-1].content))
            refeed_tokens += count(str(whole[-1].content))
            refeed_conversation += count(section(str(whole[-1].content), "conversation"))
            window = history[-2 * EVERY :]
            new_tokens += count("\n".join(filter(None, map(render_message, window))))
            updater.update(UpdateJob("thread-1", "alice", None, tuple(history)))
        facts = len(storage.load("alice").facts)

    sent_chars = [len(str(p[-1].content)) for p in model.prompts]
    sent_tokens = [count(str(p[-1].content)) for p in model.prompts]
    conversation_tokens = [
        count(section(str(p[-1].content), "conversation")) for p in model.prompts
    ]
    memory_tokens = [count(section(str(p[-1].content), "current_memory")) for p in model.prompts]
    system_tokens = count(str(model.prompts[0][0].content)) if model.prompts else 0
    updates = TURNS // EVERY
    calls = len(model.prompts)
    print(f"{TURNS}-turn mixed zh/en thread, an update every {EVERY} turns ({updates} updates)")
    print(f"facts stored at the end: {facts}")
    print(f"incremental: {calls} model calls ({updates - calls} updates skipped by the gate)")
    print(f"  sent (human message): {sum(sent_chars):,} chars, {sum(sent_tokens):,} tokens")
    if calls:
        print(
            f"  per call: {sum(sent_tokens) / calls:,.0f} tokens mean, {max(sent_tokens):,} max;"
            f" conversation part max {max(conversation_tokens):,} tokens (budget {budget:,})"
        )
    print(f"  fixed instructions (system message): {system_tokens:,} tokens per call")
    print(
        f"whole-thread re-feed: {updates} calls, {refeed_chars:,} chars, {refeed_tokens:,} tokens"
    )
    print(f"  per call: {refeed_tokens / updates:,.0f} tokens mean")
    shown = new_tokens + sum(memory_tokens)
    ratio = sum(sent_tokens) / shown if shown else 0.0
    print(
        f"new messages {new_tokens:,} + memory shown {sum(memory_tokens):,} = {shown:,} tokens;"
        f" sent / that = {ratio:.2f} (goal ≤ 1.3)"
    )
    print(f"incremental / re-feed tokens: {sum(sent_tokens) / refeed_tokens:.2f}")
    sent_conversation = max(1, sum(conversation_tokens))
    print(
        f"conversation part only: {sum(conversation_tokens):,} tokens sent vs"
        f" {refeed_conversation:,} re-fed ({refeed_conversation / sent_conversation:.1f}x)"
    )
    print(
        f"memory part per call: max {max(memory_tokens, default=0):,} tokens"
        f" (budget {config.update_memory_max_tokens:,})"
    )
    over = sum(t > budget for t in conversation_tokens)
    print(f"requests over the conversation budget: {over} (goal 0)")


if __name__ == "__main__":
    main()
