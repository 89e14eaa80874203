"""The docs a newcomer reads: every command they show parses, and the README keeps its shape.

Commands are the ``python ...`` lines of fenced shell blocks (no info string, ``bash``,
``sh``, ``console``) and of inline code spans, in README.md and docs/*.md. A ``main.py``
command is parsed by the game's own argument parser (nothing runs); a script under
``tools/`` or ``benchmarks/`` must exist and define every flag the command passes it.
"""

from __future__ import annotations

import contextlib
import io
import re
import shlex
from pathlib import Path

import pytest

from game import scenes
from game.cli import build_parser
from game.hud import GLOBAL_CONTROLS

ROOT = Path(__file__).resolve().parents[1]
README = ROOT / "README.md"
PAGES = [README, *sorted((ROOT / "docs").glob("*.md"))]
SHELL_BLOCKS = ("", "bash", "sh", "shell", "console")
README_MAX_LINES = 200
CONTROLS_BY_LINE = 80  # the Controls heading is on screen without scrolling far

_FENCE = re.compile(r"^```(\w*)\n(.*?)^```", re.MULTILINE | re.DOTALL)
_SPAN = re.compile(r"(?<!`)`(python [^`]+)`(?!`)")
_ENV = re.compile(r"^[A-Z_][A-Z0-9_]*=\S*$")  # an environment variable set for the command
_COMMAND = re.compile(r"\s*([A-Z_][A-Z0-9_]*=\S*\s+)*python\s")


def commands(page: Path) -> list[str]:
    """The ``python ...`` commands written on ``page``: one per shell line (split at ``&&``
    and ``;``, comments and a leading ``VAR=value`` dropped) and one per inline code span."""
    text = page.read_text(encoding="utf-8")
    found = []
    for info, body in _FENCE.findall(text):
        if info not in SHELL_BLOCKS:
            continue
        for line in body.replace("\\\n", " ").splitlines():
            for part in re.split(r"&&|;", line):
                if _COMMAND.match(part):
                    words = shlex.split(part, comments=True)
                    found.append(shlex.join(w for w in words if not _ENV.match(w)))
    outside = _FENCE.sub("", text)
    found += [" ".join(span.split()) for span in _SPAN.findall(outside)]
    return found


ALL = [(page.relative_to(ROOT).as_posix(), cmd) for page in PAGES for cmd in commands(page)]


def test_the_docs_show_commands_to_check() -> None:
    readme = commands(README)
    assert "python main.py" in readme and "python -m pytest" in readme
    assert any(cmd.startswith("python tools/feel_report.py") for _, cmd in ALL)


@pytest.mark.parametrize(("page", "command"), ALL, ids=[f"{p}: {c}" for p, c in ALL])
def test_every_command_in_the_docs_parses(page: str, command: str) -> None:
    words = shlex.split(command)[1:]
    if words[:2] == ["-m", "pytest"]:
        return  # the suite's own runner: this test is running under it
    script, args = words[0], words[1:]
    if script == "main.py":
        err = io.StringIO()
        try:
            with contextlib.redirect_stderr(err):
                build_parser().parse_args(args)
        except SystemExit:
            pytest.fail(f"{page}: {command!r} does not parse: {err.getvalue().strip()}")
        return
    path = ROOT / script
    assert path.is_file(), f"{page}: {command!r}: no file {script}"
    assert script.split("/")[0] in ("tools", "benchmarks"), f"{page}: unexpected {script}"
    source = path.read_text(encoding="utf-8")
    for flag in (a.split("=")[0] for a in args if a.startswith("--")):
        assert f'"{flag}"' in source, f"{page}: {command!r}: {script} has no option {flag}"


def test_readme_is_short_with_the_controls_near_the_top() -> None:
    lines = README.read_text(encoding="utf-8").splitlines()
    assert len(lines) <= README_MAX_LINES
    heading = lines.index("## Controls") + 1
    assert heading <= CONTROLS_BY_LINE


def test_readme_controls_are_the_f1_help_lines() -> None:
    text = README.read_text(encoding="utf-8")
    controls = text.split("## Controls", 1)[1].split("\n## ", 1)[0]
    lines = set(controls.splitlines())
    rows = list(GLOBAL_CONTROLS)
    for name in scenes.available():
        rows += scenes.load(name).controls
    missing = [f"- `{key}`: {text}" for key, text in rows if f"- `{key}`: {text}" not in lines]
    assert not missing, "README's Controls lacks F1 lines:\n" + "\n".join(missing)
