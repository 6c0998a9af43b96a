"""Stage 2, update: a captured conversation becomes a saved memory document.

``queue`` debounces captured turns per (thread, user, agent) onto worker
threads (``clock`` is its time source); ``updater`` runs one job: load,
extract, ``apply``, save with a revision check. Extraction follows the
contract in ``extraction``: ``llm`` asks a chat model with the prompt and
tolerant parser of ``prompt``; ``offline/`` is the rule-based bilingual
extractor used when no model is configured.
"""
