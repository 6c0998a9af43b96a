"""A user's edit sent with a revision: refused when the content changed since, not for bookkeeping.

After a chat turn the agent's use counts are saved a few seconds later, and an
update that learns nothing still moves the extraction watermark: both move
``revision``. An edit made with the revision the user was just given must still
apply; an edit over facts or summaries its author did not see must not.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from langchain_core.messages import AIMessage, HumanMessage
from langgraph.store.memory import InMemoryStore
from starlette.testclient import TestClient

from deerflow_memory import FileMemoryStorage, MemoryDocument, StoreMemoryStorage
from deerflow_memory.errors import RevisionConflictError
from deerflow_memory.identity import MemoryIdentity
from deerflow_memory.service import MemoryService
from deerflow_memory.storage.base import MemoryStorage
from deerflow_memory.update.import_check import read_import
from deerflow_memory.update.manual import add_manual_fact, edit_fact, save_edit
from deerflow_memory.update.usage import AccessRecorder


@pytest.fixture(params=["file", "store"])
def storage(request: pytest.FixtureRequest, tmp_path: Path) -> MemoryStorage:
    if request.param == "file":
        return FileMemoryStorage(tmp_path / "memory")
    return StoreMemoryStorage(InMemoryStore())


def add(storage: MemoryStorage, text: str) -> tuple[str, int]:
    saved, fact = save_edit(storage, "ana", None, lambda d: add_manual_fact(d, text))
    return fact.id, saved.revision


def count_uses(storage: MemoryStorage, *fact_ids: str) -> None:
    """What the agent's injections cause a few seconds later: a use-count save."""
    recorder = AccessRecorder(interval=600)
    before = storage.load("ana").revision
    recorder.record(storage, "ana", None, fact_ids)
    recorder.close()
    assert storage.load("ana").revision == before + 1


def rewording(fact_id: str, text: str) -> Callable[[MemoryDocument], tuple[MemoryDocument, object]]:
    return lambda d: edit_fact(d, fact_id, content=text)


def test_an_edit_with_the_revision_before_a_use_count_save_is_accepted(
    storage: MemoryStorage,
) -> None:
    fact_id, revision = add(storage, "Prefers aisle seats")
    count_uses(storage, fact_id)
    count_uses(storage, fact_id)  # two flushes in a row: still only bookkeeping
    saved, _ = save_edit(
        storage, "ana", None, rewording(fact_id, "Prefers window seats"), expected_revision=revision
    )
    [fact] = saved.facts
    assert fact.content == "Prefers window seats" and saved.revision == revision + 3
    assert fact.access_count == 2  # the counts saved meanwhile are kept, not overwritten


def test_an_edit_is_refused_when_a_fact_changed_since_even_if_use_counts_were_saved_after(
    storage: MemoryStorage,
) -> None:
    fact_id, revision = add(storage, "Prefers aisle seats")
    count_uses(storage, fact_id)
    other_id, _ = add(storage, "Travels with a cat")  # a real change the editor did not see
    count_uses(storage, fact_id, other_id)
    with pytest.raises(RevisionConflictError):
        save_edit(
            storage,
            "ana",
            None,
            rewording(fact_id, "Prefers window seats"),
            expected_revision=revision,
        )
    assert [f.content for f in storage.load("ana").facts] == [
        "Prefers aisle seats",
        "Travels with a cat",
    ]
    # The revision of that change is a fine base again.
    _, changed = add(storage, "Travels with a dog")
    count_uses(storage, fact_id)
    saved, _ = save_edit(
        storage, "ana", None, rewording(fact_id, "Prefers window seats"), expected_revision=changed
    )
    assert saved.facts[0].content == "Prefers window seats"


def test_a_revision_newer_than_the_stored_one_is_still_refused(storage: MemoryStorage) -> None:
    fact_id, revision = add(storage, "Prefers aisle seats")
    count_uses(storage, fact_id)
    with pytest.raises(RevisionConflictError):
        save_edit(storage, "ana", None, rewording(fact_id, "x y z"), expected_revision=revision + 5)


def test_an_imported_document_brings_no_bookkeeping_mark_that_could_vouch_for_old_edits(
    storage: MemoryStorage,
) -> None:
    fact_id, _ = add(storage, "Prefers aisle seats")
    count_uses(storage, fact_id)
    exported = storage.load("ana").to_json()
    assert '"bookkeeping"' in exported  # the mark is stored with the document
    bob, _ = save_edit(storage, "bob", None, lambda d: add_manual_fact(d, "Likes tea"))
    # Bob's memory replaced by Ana's export lands at the revision Ana's mark names.
    incoming = read_import(exported).model_copy(update={"revision": bob.revision})
    storage.save("bob", None, incoming, expected_revision=bob.revision)
    with pytest.raises(RevisionConflictError):  # based on Bob's old memory: refused
        save_edit(
            storage,
            "bob",
            None,
            lambda d: add_manual_fact(d, "Likes coffee"),
            expected_revision=bob.revision,
        )
    assert [f.content for f in storage.load("bob").facts] == ["Prefers aisle seats"]


# --- over HTTP, with a real service: injections, turns, the memory page's revision ---------


def turn(service: MemoryService, text: str) -> None:
    identity = MemoryIdentity("ana", None, "thread-ana")
    service.memory_block(identity, text)  # the agent reads memory: its use is counted
    service.enqueue(identity, [HumanMessage(text), AIMessage("Noted.")])
    service.flush()
    service.access.flush()


def test_a_patch_with_the_revision_post_returned_survives_an_agent_turn_that_learned_nothing(
    client: TestClient, service: MemoryService
) -> None:
    posted = client.post("/memory/users/ana/facts", json={"content": "Prefers aisle seats"})
    fact_id, revision = posted.json()["fact"]["id"], posted.json()["revision"]
    turn(service, "What is the weather like today?")
    assert client.get("/memory/users/ana").json()["revision"] > revision
    response = client.patch(
        f"/memory/users/ana/facts/{fact_id}",
        json={"content": "Prefers window seats", "revision": revision},
    )
    assert response.status_code == 200, response.text
    deleted = client.delete(
        f"/memory/users/ana/facts/{fact_id}", params={"revision": response.json()["revision"]}
    )
    assert deleted.status_code == 200, deleted.text


def test_a_patch_with_the_revision_post_returned_is_refused_after_a_turn_that_taught_a_fact(
    client: TestClient, service: MemoryService
) -> None:
    posted = client.post("/memory/users/ana/facts", json={"content": "Prefers aisle seats"})
    fact_id, revision = posted.json()["fact"]["id"], posted.json()["revision"]
    turn(service, "I'm vegetarian.")
    response = client.patch(
        f"/memory/users/ana/facts/{fact_id}",
        json={"content": "Prefers window seats", "revision": revision},
    )
    assert response.status_code == 409 and "reload" in response.json()["error"]
    facts = client.get("/memory/users/ana").json()["facts"]
    assert "Prefers aisle seats" in [f["content"] for f in facts]
