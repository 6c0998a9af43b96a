"""Bad input never corrupts memory: figures of the hostile-answer fuzz run (issue 12).

Sends a table of generated hostile memory-model answers (floods at impossible
confidences, control/bidi characters, placeholders, oversized text, removal
floods, tag and turn forgeries, wrong types, broken JSON), each with a user turn
that tries to forge turns with one of 8 line separators, through the local
OpenAI-compatible server → real ``ChatOpenAI`` → queue → updater → file storage
→ injection, and prints what must be 0.

Then saves, reloads (in the other normalisation form) and lists memory for
generated ids of 1–128 characters of many scripts, NFC and NFD, and counts
what worked, what failed with one ``InvalidNameError`` and anything else
(``OSError`` included), which must be 0.

Run: ``python bench/hostile.py [cases] [ids]`` (defaults 1000 and 2000).
"""

from __future__ import annotations

import logging
import random
import sys
import tempfile
import time
import unicodedata
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from deerflow_memory.errors import InvalidNameError
from deerflow_memory.models import Fact, MemoryDocument
from deerflow_memory.storage.file import FileMemoryStorage
from tests.hostile import fuzz_config, hostile_answers, run_pipeline

SCRIPTS = {
    "latin": "abcdefxyzéüñçåøßŁ0123_.-@+",
    "cyrillic": "жщяфывапролдЖЩЯ",
    "greek": "αβγδεζηθΩΣ",
    "cjk": "中文字汉語日本語",
    "hangul": "한국어대한민국",
    "devanagari": "कखगघिीुू्षा",
    "thai": "กขคงไทย่้",
    "arabic": "عربيةمرحبا",
    "hebrew": "עבריתשלום",
    "astral": "𝔘𝔙𓀀𓀁",
    "hostile": "a \t\u200b\u202e/\\:*?<>|\x00%~😀",
}


def id_figures(count: int, seed: int = 12) -> Counter[str]:
    """Outcomes of save → load (other form) → list for ``count`` generated ids."""
    rng = random.Random(seed)
    outcomes: Counter[str] = Counter()
    document = MemoryDocument(facts=(Fact(content="Likes tea"),))
    with tempfile.TemporaryDirectory() as root:
        storage = FileMemoryStorage(root)
        for i in range(count):
            script = rng.choice(list(SCRIPTS))
            name = "".join(rng.choice(SCRIPTS[script]) for _ in range(rng.randint(1, 128)))
            form, other = ("NFC", "NFD") if i % 2 else ("NFD", "NFC")
            name = unicodedata.normalize(form, name)
            try:
                storage.save(name, None, document)
                ok = storage.load(unicodedata.normalize(other, name)).facts == document.facts
                outcomes["worked" if ok else "wrong document"] += 1
            except InvalidNameError:
                outcomes["one clear InvalidNameError"] += 1
            except Exception as e:  # what must never happen
                outcomes[f"{type(e).__name__}"] += 1
        outcomes["distinct ids listed"] = len(list(storage.list_documents()))
    return outcomes


def main() -> None:
    count = int(sys.argv[1]) if len(sys.argv) > 1 else 1000
    ids = int(sys.argv[2]) if len(sys.argv) > 2 else 2000
    logging.disable(logging.CRITICAL)  # thousands of expected rejection warnings
    cases = hostile_answers(count)
    with tempfile.TemporaryDirectory() as root:
        started = time.perf_counter()
        figures = run_pipeline(Path(root), cases, fuzz_config())
        total = time.perf_counter() - started
    print(f"hostile answers sent through the server:  {figures.requests} ({dict(figures.kinds)})")
    print(f"update outcomes:                          {dict(figures.statuses)}")
    print(f"proposed parts rejected (with a reason):  {figures.rejected_parts}")
    print(f"unwanted stored-memory changes:           {len(figures.memory_violations)}  (goal 0)")
    forged = {sep: figures.forged_turns[sep] for sep in figures.turns_checked}
    print(f"forged turns per separator:               {forged}  (goal 0 each)")
    print(f"escapes from model-facing blocks:         {len(figures.block_escapes)}  (goal 0)")
    print(f"pipeline time: {figures.seconds:.1f} s; with seeding and checks: {total:.1f} s")
    for line in (figures.memory_violations + figures.block_escapes)[:10]:
        print("  ", line)
    outcomes = id_figures(ids)
    print(f"ids (1-128 chars, {len(SCRIPTS)} scripts, NFC/NFD), {ids} tried: {dict(outcomes)}")


if __name__ == "__main__":
    main()
