"""The one ``MemoryService`` of a ``langgraph dev`` / LangGraph Server process.

The server loads each graph file and ``http_app.py`` as separate modules;
importing the service from here (``graphs`` is importable because the server
puts the project folder on ``sys.path``) gives the graphs and the memory
routes the same queue, so ``POST /memory/flush`` and ``GET /memory/status``
see the updates the graphs captured.

Configuration comes from ``DEERFLOW_MEMORY_*`` variables or the YAML file named
by ``DEERFLOW_MEMORY_CONFIG``.
"""

from deerflow_memory.service import MemoryService

memory = MemoryService()
