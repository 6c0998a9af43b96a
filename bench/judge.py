"""Cost of the optional judge (``judge: model``): model calls and tokens per update.

Runs the real ``ChatOpenAI`` path against the local OpenAI-compatible test
server (no network): 20 updates, each with a conversation whose extraction
proposes a lasting fact, a passing mood and a correction; the judge answers
like a careful model would. Tokens are counted on the request and answer
texts with the package's offline o200k counter (the test server's own usage
figures are constants), once with the judge off and once on.

Run: ``python bench/judge.py``
"""

from __future__ import annotations

import json
import sys
import tempfile
from pathlib import Path

from langchain_core.messages import AIMessage, HumanMessage

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from deerflow_memory.config import MemoryConfig
from deerflow_memory.inject.tokens import get_token_counter
from deerflow_memory.storage.file import FileMemoryStorage
from deerflow_memory.update.llm import build_extractor
from deerflow_memory.update.queue import UpdateJob
from deerflow_memory.update.updater import MemoryUpdater
from tests.openai_server import OpenAIServer

UPDATES = 20
EXTRACTION = json.dumps(
    {
        "newFacts": [
            {
                "content": "Finds this hotel great but too pricey",
                "category": "preference",
                "confidence": 0.8,
            },
            {"content": "Is vegetarian", "category": "preference", "confidence": 0.95},
            {"content": "Wants prices in euros", "category": "correction", "confidence": 0.95},
        ]
    }
)
VERDICT = '{"keep": [1], "drop": [{"n": 0, "reason": "a passing reaction to one hotel"}]}'


def run(judge: str) -> tuple[int, int, int, int]:
    counter = get_token_counter("tiktoken", "o200k_base")
    server = OpenAIServer().start()
    answers = {"out": 0}

    def respond(body: dict[str, object]) -> str:
        messages = body["messages"]
        assert isinstance(messages, list)
        system = str(messages[0]["content"])
        answer = VERDICT if system.startswith("You review candidate") else EXTRACTION
        answers["out"] += counter.count(answer)
        return answer

    server.responder = respond
    try:
        config = MemoryConfig(
            judge=judge,  # type: ignore[arg-type]
            model_name="bench",
            base_url=server.url + "/v1",
            api_key="sk-test",
        )
        with tempfile.TemporaryDirectory() as root:
            updater = MemoryUpdater(FileMemoryStorage(root), build_extractor(config), config)
            for i in range(UPDATES):
                messages = (
                    HumanMessage(
                        f"Day {i}: this hotel is great, too pricey though. I'm vegetarian."
                    ),
                    AIMessage("Noted: vegetarian options, and I'll look for cheaper hotels."),
                )
                updater.update(UpdateJob(f"t{i}", f"user{i}", None, messages))
        prompt_tokens = sum(
            counter.count("".join(str(m["content"]) for m in r["messages"]))
            for r in server.requests
        )
        return server.request_count, prompt_tokens, answers["out"], UPDATES
    finally:
        server.stop()


def main() -> None:
    print(f"{UPDATES} updates, 3 candidate facts each (1 passing mood, 1 lasting, 1 correction)")
    base_calls = base_in = base_out = 0
    for judge in ("off", "model"):
        calls, tokens_in, tokens_out, n = run(judge)
        print(
            f"judge={judge:5}  calls/update {calls / n:.2f}  "
            f"prompt tokens/update {tokens_in / n:7.0f}  answer tokens/update {tokens_out / n:5.0f}"
        )
        if judge == "off":
            base_calls, base_in, base_out = calls, tokens_in, tokens_out
        else:
            print(
                f"judge cost per update: +{(calls - base_calls) / n:.2f} calls, "
                f"+{(tokens_in - base_in) / n:.0f} prompt tokens, "
                f"+{(tokens_out - base_out) / n:.0f} answer tokens "
                f"(+{(tokens_in - base_in) / max(1, base_in):.0%} prompt tokens)"
            )


if __name__ == "__main__":
    main()
