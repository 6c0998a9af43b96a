"""`pip install -e ".[dev-server]"` is enough for `langgraph dev` to load what it serves.

The test extras install everything, so a module served by ``langgraph dev``
that imports a package the ``dev-server`` extra does not bring would pass the
suite and fail for a user (it happened: ``langchain`` for the middleware
agent). This walks the modules langgraph.json names, and the project modules
they import when loaded (module level only), and checks every third-party
import is provided by a distribution the extra pulls in, directly or not.
"""

from __future__ import annotations

import ast
import importlib.metadata as metadata
import json
import sys
import tomllib
from pathlib import Path

from packaging.requirements import Requirement

ROOT = Path(__file__).resolve().parents[1]
LOCAL = {"deerflow_memory", "graphs"}


def _self_extras(requirement: Requirement, name: str) -> set[str]:
    return set(requirement.extras) if requirement.name == name else set()


def extra_requirements(extra: str) -> list[Requirement]:
    """The base dependencies and those of ``extra``, our own extras expanded."""
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    name, extras = project["name"], project["optional-dependencies"]
    wanted, todo, found = {extra}, [extra], [Requirement(r) for r in project["dependencies"]]
    while todo:
        for text in extras[todo.pop()]:
            requirement = Requirement(text)
            for more in _self_extras(requirement, name) - wanted:
                wanted.add(more)
                todo.append(more)
            if requirement.name != name:
                found.append(requirement)
    return found


def distribution_closure(requirements: list[Requirement]) -> set[str]:
    """Names (normalised) of every installed distribution the requirements pull in."""
    seen: set[str] = set()
    todo = [(r.name, frozenset(r.extras)) for r in requirements]
    while todo:
        name, extras = todo.pop()
        key = name.lower().replace("_", "-")
        try:
            dist = metadata.distribution(name)
        except metadata.PackageNotFoundError:
            continue
        if key in seen and not extras:
            continue
        seen.add(key)
        for text in dist.requires or ():
            requirement = Requirement(text)
            marker = requirement.marker
            if marker is None or any(marker.evaluate({"extra": e}) for e in (*extras, "")):
                todo.append((requirement.name, frozenset(requirement.extras)))
    return seen


def module_level_imports(path: Path) -> set[str]:
    """Top-level names imported when ``path`` is loaded (not inside functions or TYPE_CHECKING)."""
    names: set[str] = set()

    def visit(nodes: list[ast.stmt]) -> None:
        for node in nodes:
            if isinstance(node, ast.Import):
                names.update(alias.name for alias in node.names)
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                names.add(node.module)
            elif isinstance(node, ast.If) and "TYPE_CHECKING" not in ast.unparse(node.test):
                visit(node.body)
                visit(node.orelse)
            elif isinstance(node, ast.Try):
                visit(node.body)  # an ImportError handler means the import is optional

    visit(ast.parse(path.read_text()).body)
    return names


def local_path(module: str) -> Path | None:
    base = ROOT.joinpath(*module.split("."))
    for candidate in (base.with_suffix(".py"), base / "__init__.py"):
        if candidate.exists():
            return candidate
    return None


def served_third_party_imports() -> dict[str, str]:
    """Third-party top-level module -> a project file importing it, of what langgraph dev loads."""
    config = json.loads((ROOT / "langgraph.json").read_text())
    entries = [*config["graphs"].values(), config["http"]["app"]]
    todo = [ROOT / entry.split(":")[0] for entry in entries]
    done: set[Path] = set()
    found: dict[str, str] = {}
    while todo:
        path = todo.pop().resolve()
        if path in done:
            continue
        done.add(path)
        for module in module_level_imports(path):
            top = module.split(".")[0]
            if top in LOCAL:
                parts = module.split(".")
                for depth in range(1, len(parts) + 1):  # packages' __init__ run too
                    target = local_path(".".join(parts[:depth]))
                    if target is not None:
                        todo.append(target)
            elif top not in sys.stdlib_module_names and top != "__future__":
                found.setdefault(top, str(path.relative_to(ROOT)))
    return found


def test_the_dev_server_extra_provides_every_package_the_served_graphs_import() -> None:
    provided = distribution_closure(extra_requirements("dev-server"))
    owners = metadata.packages_distributions()
    imports = served_third_party_imports()
    assert "langchain" in imports  # the walk sees the middleware agent's import
    missing = {
        module: where
        for module, where in imports.items()
        if not any(d.lower().replace("_", "-") in provided for d in owners.get(module, []))
    }
    assert missing == {}, f"not brought by the dev-server extra: {missing}"
