"""No module of the generator imports one that imports it back, even from inside a function: a walk through
a build never climbs back up."""
from __future__ import annotations

import ast
from pathlib import Path

GENERATOR = Path(__file__).resolve().parents[2] / "generator"


def module_name(path: Path) -> str:
    parts = path.relative_to(GENERATOR).with_suffix("").parts
    return ".".join(("generator",) + (parts[:-1] if parts[-1] == "__init__" else parts))


def imports(source: str, name: str, is_package: bool, modules: set[str]) -> set[str]:
    """The generator modules the module `name` imports, at its top or anywhere inside it."""
    here = name.split(".")
    package = here if is_package else here[:-1]
    found = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.ImportFrom) and node.level:
            base = package[: len(package) - node.level + 1]
            target = ".".join(base + ([node.module] if node.module else []))
            for alias in node.names:
                submodule = f"{target}.{alias.name}"
                found.add(submodule if submodule in modules else target)
        elif isinstance(node, ast.ImportFrom) and (node.module or "").startswith("starpnp.generator"):
            found.add(node.module.replace("starpnp.", "", 1))
    return found & modules


def graph() -> dict[str, set[str]]:
    files = sorted(GENERATOR.rglob("*.py"))
    modules = {module_name(path) for path in files}
    return {module_name(path): imports(path.read_text(encoding="utf-8"), module_name(path), path.name == "__init__.py",
                                       modules) - {module_name(path)} for path in files}


def cycle(edges: dict[str, set[str]]) -> list[str] | None:
    """One import cycle as the modules along it, or None."""
    state: dict[str, int] = {}  # 1: on the current path, 2: done
    path: list[str] = []

    def visit(module: str) -> list[str] | None:
        state[module] = 1
        path.append(module)
        for target in sorted(edges.get(module, ())):
            if state.get(target) == 1:
                return path[path.index(target):] + [target]
            if target not in state:
                found = visit(target)
                if found:
                    return found
        path.pop()
        state[module] = 2
        return None

    for module in sorted(edges):
        if module not in state:
            found = visit(module)
            if found:
                return found
    return None


def test_no_generator_module_imports_one_that_imports_it_back():
    edges = graph()
    assert len(edges) > 20 and "generator.loader" in edges["generator.build"]
    found = cycle(edges)
    assert found is None, "import cycle: " + " → ".join(found)


def test_the_walk_finds_a_cycle_made_inside_a_function():
    edges = graph()
    modules = set(edges)
    # what layouts/base.py once did: import the loader (which imports the layouts) inside a method
    late = "class FaceContext:\n    def art(self):\n        from ..loader import find_game\n"
    edges["generator.layouts.base"] = imports(late, "generator.layouts.base", False, modules)
    assert edges["generator.layouts.base"] == {"generator.loader"}
    assert "generator.loader" in cycle(edges)
    assert imports("from . import layout\n", "generator.layouts.card", False, modules) == {"generator.layouts"}
