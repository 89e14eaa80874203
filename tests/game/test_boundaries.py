"""Package boundaries: the simulation side never imports pygame, and no module of ``game`` or
``ik`` imports itself back through others (imports inside functions count; imports for type
checkers only do not)."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

SIMULATION_MODULES = (
    "game.world.arms",
    "game.world.character",
    "game.world.gait",
    "game.world.props.ladder",
    "game.world.props",
    "game.world.rig",
    "game.world.terrain",
    "game.world.terrain_edit",
    "game.world.terrain_rules",
    "game.world.terrain_presets",
    "game.world.heightfield",
    "game.world.sample_grounds",
    "game.scenes.lab",
    "game.scenes.lab_sim",
    "game.scenes.walk",
    "game.scenes.walk_autopilot",
    "game.scenes.edit_tour",
    "game.scenes.feel_meter",
    "game.scenes.crowd",
    "game.scenes.crowd_walkers",
    "game.scenes.crowd_worker",
    "game.scenes.swivel",
    "game.scenes.ground_edit",
    "game.clock",
    "game.recording",
    "game.trace",
)


def test_importing_the_simulation_never_imports_pygame() -> None:
    code = (
        "import importlib, sys\n"
        f"for name in {SIMULATION_MODULES!r}:\n"
        "    importlib.import_module(name)\n"
        "print('pygame' in sys.modules)\n"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "False"


def _module_name(path: Path) -> str:
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _runtime_imports(tree: ast.Module, modules: set[str]) -> set[str]:
    """The project modules a module imports when it runs (at import time or in a function),
    leaving out ``if TYPE_CHECKING:`` blocks."""
    found: set[str] = set()
    pending: list[ast.AST] = [tree]
    while pending:
        node = pending.pop()
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            pending.extend(node.orelse)
            continue
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names if alias.name in modules)
        elif isinstance(node, ast.ImportFrom) and node.module in modules:
            for alias in node.names:  # `from game.scenes import walk` names a module
                submodule = f"{node.module}.{alias.name}"
                found.add(submodule if submodule in modules else node.module)
        pending.extend(ast.iter_child_nodes(node))
    return found


def _cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Every strongly connected group of more than one module (Tarjan's algorithm)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    groups: list[list[str]] = []

    def visit(module: str) -> None:
        index[module] = low[module] = len(index)
        stack.append(module)
        for imported in graph[module]:
            if imported not in index:
                visit(imported)
                low[module] = min(low[module], low[imported])
            elif imported in stack:
                low[module] = min(low[module], index[imported])
        if low[module] == index[module]:
            group = stack[stack.index(module) :]
            del stack[stack.index(module) :]
            if len(group) > 1:
                groups.append(sorted(group))

    for module in sorted(graph):
        if module not in index:
            visit(module)
    return groups


def test_no_import_cycles_in_game_or_ik() -> None:
    files = sorted([*ROOT.glob("game/**/*.py"), *ROOT.glob("ik/**/*.py")])
    modules = {_module_name(path) for path in files}
    graph = {
        _module_name(path): _runtime_imports(ast.parse(path.read_text()), modules)
        - {_module_name(path)}
        for path in files
    }
    assert len(graph) > 30  # the walk really saw the packages
    assert _cycles(graph) == []


def test_the_cycle_finder_finds_a_cycle() -> None:
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}
    assert _cycles(graph) == [["a", "b", "c"]]
