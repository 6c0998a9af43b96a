"""Stage 1, capture: what of a finished turn reaches memory.

``messages`` keeps the user's messages and the assistant's final replies (no
tool traffic, hidden or upload-only messages); ``signals`` detects
corrections and approval in the latest messages, from the pattern files in
``data/`` and, for a bare value put right ("A: …at 9:40. — U: 9:14,
actually"), the typed values compared by ``slots`` (its words in
``slot_words``). Pure functions, called by the capture node on the agent's hot
path; nothing here waits for a model or touches storage.
"""
