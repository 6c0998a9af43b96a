"""The memory agent served by ``langgraph dev`` (see ``langgraph.json``).

Configuration comes from ``DEERFLOW_MEMORY_*`` variables or the YAML file named
by ``DEERFLOW_MEMORY_CONFIG``. With nothing set it runs offline: file storage
in ``./.deerflow_memory``, the rule-based extractor and the stand-in model.
Set ``DEERFLOW_MEMORY_STORAGE=store`` to keep memory in the server's store.
Pass ``user_id`` in the run's ``configurable`` (or context) to pick whose memory; under
custom auth a run uses the caller's own (another ``user_id`` fails the run).
"""

from deerflow_memory.graph import create_memory_agent
from graphs.server_memory import memory

# The server process's one service (shared with the memory routes of graphs/http_app.py).
graph = create_memory_agent(service=memory)
