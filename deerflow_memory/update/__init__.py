"""Stage 2, update: a captured conversation becomes a saved memory document.

``queue`` debounces captured turns per (thread, user, agent) onto worker
threads (``clock`` is its time source); ``updater`` runs one job: load,
extract, ``apply``, save with a revision check. Extraction follows the
contract in ``extraction``: ``llm`` asks a chat model with the prompt of
``prompt`` and reads its reply with the tolerant parser of ``answer`` (one
update object, or a parse error that is asked again, never a silent empty
update), each model call bounded in all by ``call_deadline`` and retried
per ``retry``; ``offline/`` is the rule-based bilingual
extractor used when no model is configured. ``durable`` records each
captured turn in the storage's outbox and claims, completes or dead-letters
it around the update.

Hygiene after each update: ``hygiene`` confirms, expires and merges facts
(``dates`` reads time frames into ``expiresAt``; ``consolidate`` and
``similarity`` find near-duplicates; ``merges`` admits only the model's
proposed merges of facts that are one), and picks facts for the staleness
review that ``review_prompt`` adds to the prompt; ``judge`` is the optional
second opinion on candidate facts; ``usage`` records which facts are
injected, off the hot path, and weighs them for eviction.
"""
