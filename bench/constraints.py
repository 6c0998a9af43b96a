"""Recognising unmarked constraints by wording: precision and recall (no timing).

Two labelled tables of fact contents, English and Chinese, in ``bench/data``:

* ``constraints_table.tsv``: needs (allergy, diet, medical, accessibility)
  and, as the kind of failure the context rules address, facts that use a
  need's word for something else: work or study on the subject ("studies
  medicine", "designs wheelchair ramps"), the word as a modifier ("a blind
  date", "asthma ward"), set phrases ("不吃亏", "英语听力"). Its last 40
  rows were a blind check written after the second round of words (stairlift,
  glaucoma, feeding tube, 搭桥, 椎间盘...: precision 0.61, recall 0.39
  untuned), then tuned on: in sample;
* ``constraints_holdout.tsv``: the out-of-sample figure. Its first 41 rows
  were written before the context rules; the next 65 (mobility and sensory
  aids, devices, chronic and neurodevelopmental conditions, medicines,
  therapeutic diets) before those kinds' words were added (held-out precision
  0.76, recall 0.35 then; 0.84 / 1.00 with the words alone). Six of those rows'
  misses were then mended by rules ("trains", "treating patients with",
  "documentary", 拐杖糖, 卖, 训练), so they are no longer quite out of sample.
  The last 97 were written before the second round of words (paralysis,
  stroke, mental health, named medicines, diets kept to, 阅读障碍, 盲文...):
  precision 0.92, recall 0.77 then; 0.94 / 1.00 after. Of them, 49 were
  scored once untuned on the first round (precision 0.94, recall 0.94); their
  two misses (neurodivergent, sertraline) and one false need (机构) were mended.
* ``constraints_state.tsv``: held out for the state a need's word is said in
  (column ``kind``): ``over`` (outgrown, healed, stopped, ruled out; against
  needs still going on), ``hypo`` (a wish, a suspicion, a plan not acted on;
  against a real need said beside "may", "worried"), ``opinion`` (an opinion,
  news, fiction, charity, a business; against an opinion about one's own
  need) and ``care`` (a need of someone the user cares for: counts). Its
  first 104 rows were written before the rules for these kinds (precision
  0.41, recall 0.95 then) and the rules were made with their misses in view
  (1.00 / 0.95 after: no longer out of sample); the last 36 were written
  after the rules and scored once untuned: precision 0.81, recall 0.93
  (0.44 / 1.00 on the code before them). The 23 rows of kind ``words``
  (needs said as a reaction, a pregnancy, nursing, a fast of faith, OCD,
  PTSD; against the same words in other senses) were written before their
  words were added: recall 0.00 then, 1.00 / 1.00 after (tuned on). Figures
  per kind are printed too.
  The next 42 were written after the second round and scored once untuned
  (precision 0.84, recall 0.81); their misses (chronic back pain, heart
  attack, long COVID, cochlear processor, 阿司匹林) were then mended too.
  The next 44, everyday facts written after the third round, were scored
  once untuned: precision 0.71, recall 0.71 (any need's word 0.61 / 0.71),
  then partly tuned on (pets, hay fever, bad back: 0.87 / 0.93). The last
  40, written after the fourth round, were never tuned on: precision 0.86,
  recall 0.75 (0.81 / 0.54 before this work): the honest figure for new
  phrasings (misses: sober, transplant, tremor, Ramadan fasting, 做了手术;
  taken: a relative's need, "低糖的饮料").

* ``constraints_blind.tsv``: a blind check (session 27). 238 facts (150
  English, 88 Chinese) written by someone who had not read any rule, bench
  or test, with their own labels: a need of someone else is ``other``, a
  need that is over, a hypothetical, a dislike too. Before that session's
  rules for needs that are over, supposed or opined: precision 0.70, recall
  0.83 (a keyword list of the author's own: 0.68 / 1.00). The rules were then
  written from its failure *kinds* only, by someone who did not read its
  rows, so it is the nearest to out of sample here. Its 17 rows of kind
  ``care`` (a child's, partner's or parent's need) are labelled ``other`` by
  the author, but this project counts them as needs (the assistant plans
  meals, trips and purchases for them too): both figures are printed.

Each table is scored by :func:`deerflow_memory.inject.constraints.looks_like_constraint`
and by the baseline those rules replaced: any need's word counts.

Run: ``python bench/constraints.py``
"""

from __future__ import annotations

import csv
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from deerflow_memory.inject import constraints
from deerflow_memory.inject.need_words import EN_NEEDS, ZH_NEEDS

DATA = Path(__file__).resolve().parent / "data"


def _any_word(text: str) -> bool:
    return EN_NEEDS.search(text) is not None or ZH_NEEDS.search(text) is not None


def _score(rows: list[tuple[bool, str]], says_need: object) -> tuple[float, float, list[str]]:
    assert callable(says_need)
    tp = fp = fn = 0
    wrong = []
    for need, text in rows:
        said = says_need(text)
        tp += said and need
        fp += said and not need
        fn += need and not said
        if said != need:
            wrong.append(("missed: " if need else "false: ") + text)
    return tp / max(1, tp + fp), tp / max(1, tp + fn), wrong


def main() -> None:
    for name in (
        "constraints_table.tsv",
        "constraints_holdout.tsv",
        "constraints_state.tsv",
        "constraints_blind.tsv",
    ):
        with (DATA / name).open(encoding="utf-8") as f:
            table = list(csv.DictReader(f, delimiter="\t"))
        rows = [(row["label"] == "need", row["text"]) for row in table]
        needs = sum(need for need, _ in rows)
        print(f"{name}: {needs} needs, {len(rows) - needs} other uses of a need's word")
        for label, rule in (
            ("any need's word", _any_word),
            ("context rules", constraints.looks_like_constraint),
        ):
            precision, recall, wrong = _score(rows, rule)
            print(f"  {label:16s} precision {precision:.2f}  recall {recall:.2f}")
        for line in wrong:
            print(f"    {line}")
        cared_for = {row["text"] for row in table if row.get("kind") == "care"}
        if any(row["label"] != "need" for row in table if row.get("kind") == "care"):
            # The table's author labelled a cared-for person's need "other"; this project
            # counts it as the user's constraint: scored that way too.
            ours = [(need or text in cared_for, text) for need, text in rows]
            precision, recall, _ = _score(ours, constraints.looks_like_constraint)
            print(f"  {'cared-for = need':16s} precision {precision:.2f}  recall {recall:.2f}")
        _by_kind(table)


def _by_kind(table: list[dict[str, str]]) -> None:
    """Precision and recall of the context rules per ``kind``, for tables that have one."""
    kinds = sorted({row.get("kind") or "" for row in table} - {""})
    for kind in kinds:
        rows = [(row["label"] == "need", row["text"]) for row in table if row.get("kind") == kind]
        precision, recall, wrong = _score(rows, constraints.looks_like_constraint)
        false = sum(line.startswith("false") for line in wrong)
        print(
            f"  kind {kind:8s} {len(rows):3d} rows  precision {precision:.2f}  recall {recall:.2f}"
            f"  ({false} false needs, {len(wrong) - false} missed)"
        )


if __name__ == "__main__":
    main()
