"""A ``create_agent`` agent with ``MemoryMiddleware``, served by ``langgraph dev``.

The same memory as ``graphs/memory_agent.py`` (same configuration variables,
same storage), reached through LangChain's middleware instead of graph nodes.
With nothing configured it runs offline with the stand-in model.
Pass ``user_id`` in the run's ``configurable`` (or context) to pick whose memory; under
custom auth a run uses the caller's own (another ``user_id`` fails the run).
"""

from langchain.agents import create_agent

from deerflow_memory.middleware import MemoryMiddleware
from deerflow_memory.standin import OfflineStandInModel
from deerflow_memory.update.llm import build_chat_model
from graphs.server_memory import memory

# The server process's one service, shared with graphs/memory_agent.py and the memory routes.
model = build_chat_model(memory.config) or OfflineStandInModel()
graph = create_agent(
    model,
    system_prompt="You are a helpful assistant that remembers the user.",
    middleware=[MemoryMiddleware(memory)],
)
