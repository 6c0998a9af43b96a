"""A dead letter longer than one update's model calls is retried whole, each turn sent once.

An update sends at most ``max_model_calls_per_update`` chunks; the queue runs
the rest later, but nothing queues the rest of a retried letter: the retry
runs it at once. An update that fails after some chunks were saved leaves in
the letter only the turns that were not, so the next retry does not send the
others again.
"""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace
from typing import Any

from langchain_core.messages import AIMessage, BaseMessage, HumanMessage

from deerflow_memory import MemoryService
from deerflow_memory.update.queue import UpdateJob
from tests.openai_server import OpenAIServer, Reply, openai_server  # noqa: F401
from tests.test_dead_letter_claims import service_of as service_on
from tests.test_extraction_cost import facts_answer, sent_user_lines

TURNS = 12


def turn(i: int) -> list[BaseMessage]:
    said = f"I have hobby number {i}, which I practise every weekend with my friends."
    return [HumanMessage(said, id=f"h{i}"), AIMessage(f"Okay ({i}).", id=f"a{i}")]


HISTORY = [m for i in range(TURNS) for m in turn(i)]
USER_LINES = sorted(str(m.content) for m in HISTORY if isinstance(m, HumanMessage))


def service_of(root: Path, server: OpenAIServer) -> MemoryService:
    return service_on(
        root,
        server,
        max_model_calls_per_update=1,  # one chunk a run
        update_conversation_max_tokens=200,  # a few turns a chunk
    )


def test_a_letter_over_the_call_cap_is_retried_whole_and_removed(
    tmp_path: Path,
    openai_server: OpenAIServer,  # noqa: F811
) -> None:
    openai_server.responder = facts_answer
    with service_of(tmp_path / "memory", openai_server) as memory:
        memory.write_dead_letter(UpdateJob("t1", "ana", None, tuple(HISTORY)), "503")

        [outcome] = memory.retry_dead_letters()

        assert outcome.removed and memory.dead_letters() == []
        facts = memory.storage.load("ana", None).facts  # type: ignore[union-attr]
    assert openai_server.request_count > 1  # several runs of one chunk each
    assert sorted(sent_user_lines(openai_server)) == USER_LINES  # every turn, once
    assert len(facts) == TURNS


def user_lines(body: dict[str, Any]) -> list[str]:
    return sent_user_lines(SimpleNamespace(requests=[body]))  # type: ignore[arg-type]


def test_a_retry_failing_after_some_chunks_keeps_only_the_turns_not_yet_learned(
    tmp_path: Path,
    openai_server: OpenAIServer,  # noqa: F811
) -> None:
    learned: list[str] = []  # user lines of the requests the model answered
    broken = True

    def answer(body: dict[str, Any]) -> Reply | str:
        if broken and learned:
            return Reply(status=400, error_message="bad request")  # permanent: no retry
        learned.extend(user_lines(body))
        return facts_answer(body)

    openai_server.responder = answer
    with service_of(tmp_path / "memory", openai_server) as memory:
        memory.write_dead_letter(UpdateJob("t1", "ana", None, tuple(HISTORY)), "503")
        [before] = memory.dead_letters()

        [failed] = memory.retry_dead_letters()

        [left] = memory.dead_letters()
        assert not failed.removed and failed.left == left
        kept = [m["data"]["content"] for m in left.messages]
        assert learned and not set(learned) & set(kept)  # the first chunk's turns went
        assert sorted([*learned, *kept[::2]]) == USER_LINES  # the others all stay
        assert left.attempts == before.attempts + 1

        broken = False
        [again] = memory.retry_dead_letters()

        assert again.removed and memory.dead_letters() == []
        facts = memory.storage.load("ana", None).facts  # type: ignore[union-attr]
    assert sorted(learned) == USER_LINES  # each turn answered once
    assert len(facts) == TURNS
