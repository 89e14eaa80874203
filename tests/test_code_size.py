"""The code stays readable in pieces: no module of the demo or the solver over 400 lines and
no function over 60 (docstrings aside); ruff's C901 and PLR0915 keep each function's
branches and statements in bounds (pyproject.toml)."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SOURCES = sorted([*(ROOT / "game").rglob("*.py"), *(ROOT / "ik").rglob("*.py")])
MAX_MODULE_LINES = 400
MAX_FUNCTION_LINES = 60


def _body_lines(node: ast.FunctionDef | ast.AsyncFunctionDef) -> int:
    """The function's lines from its first statement after the docstring to its end."""
    first = node.body[0]
    docstring = isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant)
    start = first.end_lineno + 1 if docstring and len(node.body) > 1 else first.lineno
    return (node.end_lineno or start) - start + 1


def test_no_module_is_over_400_lines() -> None:
    long = {
        p.relative_to(ROOT).as_posix(): n
        for p in SOURCES
        if (n := len(p.read_text().splitlines())) > MAX_MODULE_LINES
    }
    assert not long, long


def test_no_function_is_over_60_lines_docstring_aside() -> None:
    long = {}
    for path in SOURCES:
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                if (n := _body_lines(node)) > MAX_FUNCTION_LINES:
                    long[f"{path.relative_to(ROOT).as_posix()}:{node.name}"] = n
    assert not long, long
