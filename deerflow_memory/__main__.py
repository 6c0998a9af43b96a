"""``python -m deerflow_memory``: the same command line as the ``deerflow-memory`` script."""

from deerflow_memory.cli import main

if __name__ == "__main__":  # (importing it, as a walk of the package does, runs nothing)
    raise SystemExit(main())
