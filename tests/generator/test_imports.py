"""The generator's stages import one way (data → look → sheets → exports → build and CLI on top), and no
module imports one that imports it back, even from inside a function: a walk through a build never climbs
back up."""
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
    assert len(edges) > 20 and "generator.look.loader" in edges["generator.build"]
    found = cycle(edges)
    assert found is None, "import cycle: " + " → ".join(found)


def test_the_walk_finds_a_cycle_made_inside_a_function():
    edges = graph()
    modules = set(edges)
    # what layouts/base.py once did: import the loader (which imports the layouts) inside a method
    late = "class FaceContext:\n    def art(self):\n        from ..loader import find_game\n"
    edges["generator.look.layouts.base"] = imports(late, "generator.look.layouts.base", False, modules)
    assert edges["generator.look.layouts.base"] == {"generator.look.loader"}
    assert "generator.look.loader" in cycle(edges)
    assert imports("from . import layouts\n", "generator.look.card", False, modules) == {"generator.look.layouts"}


# The stages in the order a build walks them; a module outside them (build, cli, watch, ...) is on top.
STAGES = ("data", "look", "sheets", "exports")


def stage(module: str) -> int:
    part = module.split(".")[1] if module.count(".") else ""
    return STAGES.index(part) if part in STAGES else len(STAGES)


def upward(edges: dict[str, set[str]]) -> list[str]:
    """Every import from a stage to a later one (or from a stage to the top), as `importer → imported`."""
    return sorted(f"{source} → {target}" for source, targets in edges.items() for target in targets
                  if stage(target) > stage(source))


def test_every_stage_is_a_package_that_says_what_it_takes_and_gives():
    for name in STAGES:
        init = GENERATOR / name / "__init__.py"
        doc = ast.get_docstring(ast.parse(init.read_text(encoding="utf-8")))
        assert doc and "takes" in doc and "gives" in doc, f"{init} needs a docstring saying what it takes and gives"


def test_stages_import_only_the_stages_before_them():
    edges = graph()
    assert {stage(module) for module in edges} == set(range(len(STAGES) + 1))
    assert upward(edges) == []


def test_a_planted_upward_import_is_found_even_inside_a_function():
    edges = graph()
    modules = set(edges)
    planted = "def read(path):\n    from ..sheets.pdf import draw_scene\n"
    edges["generator.data.yamlio"] = imports(planted, "generator.data.yamlio", False, modules)
    assert upward(edges) == ["generator.data.yamlio → generator.sheets.pdf"]
    # sideways from a stage to the top (the build) counts as upward too
    edges["generator.data.yamlio"] = imports("from ..build import build_game\n", "generator.data.yamlio", False, modules)
    assert upward(edges) == ["generator.data.yamlio → generator.build"]
