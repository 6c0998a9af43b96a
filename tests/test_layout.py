"""The package layout is a picture of the data flow, and imports only flow downwards.

Stages: ``capture`` → ``update`` → ``storage``; ``inject`` reads what storage
holds. The shared foundation (``errors``, ``models``, ``arguments``, ``config``, and the leaf
``logs``) sits below every stage, and the modules that wire stages together
(``service``, ``nodes``, ``graph``, ``tools``, ``cli``, ...) sit above them all.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parent.parent / "deerflow_memory"

# Leaves import nothing from the package and every layer may import them: ``logs``
# gives each module its logger (records free of terminal control characters),
# ``caching`` the text caches bounded by characters, ``daemons`` the threads the
# package starts (which leave the stop signals to the main thread).
LEAVES = {"logs", "caching", "daemons"}
FOUNDATION = {"errors", "models", "arguments", "config"} | LEAVES
# What each layer may import from the package (besides itself).
ALLOWED: dict[str, set[str]] = {
    "logs": set(),
    "caching": set(),
    "daemons": set(),
    "errors": set(),
    "models": {"errors"} | LEAVES,
    # The type checks of the public functions' arguments (the errors they raise, documents).
    "arguments": {"errors", "models"},
    "config": {"errors", "models", "arguments"} | LEAVES,
    "auth": {"errors"} | LEAVES,
    "storage": FOUNDATION,
    "capture": FOUNDATION,
    "inject": FOUNDATION,
    "update": FOUNDATION | {"capture", "storage"},
    # The service's tenant pool: the service passes it a factory, it never imports service.
    "tenants": FOUNDATION | {"storage", "update"},
}
STAGES = {"capture", "update", "storage", "inject"}


def _layer(module: str) -> str:
    """``deerflow_memory.update.queue`` → ``update``; ``deerflow_memory.service`` → ``service``."""
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else ""


def _module_name(path: Path) -> str:
    relative = path.relative_to(PACKAGE.parent).with_suffix("")
    parts = list(relative.parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _imports(path: Path) -> set[str]:
    """Every ``deerflow_memory...`` module a file imports, at any depth (lazy imports too)."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found.update(a.name for a in node.names if a.name.startswith("deerflow_memory."))
        elif isinstance(node, ast.ImportFrom) and node.module:
            if node.level:
                raise AssertionError(f"{path}: relative import of {node.module}; use absolute")
            if node.module.startswith("deerflow_memory."):
                found.add(node.module)
    return found


def _package_files() -> list[Path]:
    return sorted(PACKAGE.rglob("*.py"))


def test_the_top_level_holds_at_most_twelve_modules_and_the_four_stages() -> None:
    # (__main__.py is Python's entry point for "python -m deerflow_memory", no module of ours)
    modules = sorted(p.name for p in PACKAGE.glob("*.py") if p.name != "__main__.py")
    subpackages = {p.name for p in PACKAGE.iterdir() if (p / "__init__.py").exists()}
    assert len(modules) <= 12, modules
    assert subpackages >= STAGES


def test_no_module_named_model_sits_beside_models() -> None:
    for folder in [PACKAGE, *(p for p in PACKAGE.rglob("*") if p.is_dir())]:
        names = {p.stem for p in folder.glob("*.py")}
        assert not {"model", "models"} <= names, folder


@pytest.mark.parametrize("path", _package_files(), ids=lambda p: str(p.relative_to(PACKAGE)))
def test_imports_never_climb_from_a_lower_layer_to_a_higher_one(path: Path) -> None:
    layer = _layer(_module_name(path))
    if layer not in ALLOWED:
        return  # wiring modules at the top may import any stage
    for imported in _imports(path):
        target = _layer(imported)
        assert target == layer or target in ALLOWED[layer], (
            f"{_module_name(path)} ({layer}) imports {imported} ({target}); "
            f"{layer} may only import {sorted(ALLOWED[layer])}"
        )


def test_the_import_walk_sees_lazy_imports_inside_functions(tmp_path: Path) -> None:
    sample = tmp_path / "sample.py"
    sample.write_text("def f():\n    from deerflow_memory.service import MemoryService\n")
    assert _imports(sample) == {"deerflow_memory.service"}
