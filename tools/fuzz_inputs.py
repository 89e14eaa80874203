"""Fuzz the app's input files: mutate the asset files and recordings, run the app headless
on each, and check that every run ends cleanly.

Run from the repository root: ``python tools/fuzz_inputs.py [--per-kind 3] [--seed 0]
[--jobs 2]``. Mutations: truncate, type swap, huge and tiny numbers, deep nesting, bad
encoding, special files (FIFO, folder, device, dangling symlink, empty, oversize). Each
mutated ``rig.json``, ``terrain.json`` or ``props.json`` is played with ``--scene walk
--assets DIR``; each mutated recording (of the lab and the walk) with ``--replay``.

A run passes when it exits 0, 1 or 2, prints no traceback, says what is wrong in one
``error:`` line when it fails, takes at most ~2 s and at most 500 MB. Prints a summary table
and the failures; exits 1 if any run failed.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import shutil
import sys
import tempfile
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from measured_run import REPO, RunResult, run_measured

ASSET_FILES = ("rig.json", "terrain.json", "props.json")
RECORDED_SCENES = ("lab", "walk")
FRAMES = 10
MAX_SECONDS = 2.0
MAX_MB = 500.0
PLACEHOLDER = '"@@FUZZ@@"'
HUGE = ["1e300", "-1e308", "1" + "0" * 400, "9" * 5000, "1e400", "NaN", "-Infinity", "2e9"]
TINY = ["5e-324", "1e-300", "0", "-0.0", "-1e-9", "1e-9", "-1"]
SWAPS: list[Any] = ["text", "", [], {}, None, True, [1, 2, 3], {"a": 1}, [[0.0, 0.0]]]

Mutation = Callable[[Path, random.Random], str]  # mutates the file in place, says how


# -- helpers ----------------------------------------------------------------------------------
def _leaves(node: Any, path: str = "") -> Iterator[tuple[Any, Any, str]]:
    """(container, key, key path) of every scalar in a parsed JSON value."""
    items = node.items() if isinstance(node, dict) else enumerate(node)
    for key, value in items:
        where = f"{path}.{key}" if isinstance(node, dict) else f"{path}[{key}]"
        if isinstance(value, dict | list) and value:
            yield from _leaves(value, where)
        else:
            yield node, key, where.lstrip(".")


def _replace_leaf(text: str, rng: random.Random, raw: str, numeric: bool) -> tuple[str, str]:
    """``text`` (one JSON value) with a random leaf replaced by the JSON text ``raw``."""
    data = json.loads(text)
    leaves = [
        leaf
        for leaf in _leaves(data)
        if not numeric
        or (isinstance(leaf[0][leaf[1]], int | float) and leaf[0][leaf[1]] is not True)
    ] or list(_leaves(data))
    container, key, where = rng.choice(leaves)
    container[key] = "@@FUZZ@@"
    return json.dumps(data).replace(PLACEHOLDER, raw, 1), where


def _edit_text(path: Path, rng: random.Random, make: Callable[[], tuple[str, bool]]) -> str:
    """Replace a leaf of the file's JSON (a random line of a recording) with ``make()``."""
    lines = path.read_text(encoding="utf-8").splitlines()
    recording = path.suffix == ".rec"
    index = rng.randrange(len(lines)) if recording else 0
    text = lines[index] if recording else "\n".join(lines)
    raw, numeric = make()
    new, where = _replace_leaf(text, rng, raw, numeric)
    if recording:
        lines[index] = new
        path.write_text("\n".join(lines) + "\n", encoding="utf-8")
        where = f"line {index + 1} {where}"
    else:
        path.write_text(new, encoding="utf-8")
    return f"{where} = {raw[:24]}{'…' if len(raw) > 24 else ''}"


# -- mutations --------------------------------------------------------------------------------
def truncate(path: Path, rng: random.Random) -> str:
    data = path.read_bytes()
    cut = rng.randrange(len(data))
    path.write_bytes(data[:cut])
    return f"cut at byte {cut} of {len(data)}"


def type_swap(path: Path, rng: random.Random) -> str:
    return _edit_text(path, rng, lambda: (json.dumps(rng.choice(SWAPS)), False))


def huge_number(path: Path, rng: random.Random) -> str:
    return _edit_text(path, rng, lambda: (rng.choice(HUGE), True))


def tiny_number(path: Path, rng: random.Random) -> str:
    return _edit_text(path, rng, lambda: (rng.choice(TINY), True))


def deep_nesting(path: Path, rng: random.Random) -> str:
    depth = rng.choice([33, 1_000, 100_000])
    return _edit_text(path, rng, lambda: ("[" * depth + "1" + "]" * depth, False))


def bad_encoding(path: Path, rng: random.Random) -> str:
    data = path.read_bytes()
    kind = rng.choice(["invalid byte", "utf-16", "nul bytes", "latin-1"])
    if kind == "invalid byte":
        at = rng.randrange(len(data))
        data = data[:at] + b"\xff\xfe" + data[at:]
    elif kind == "utf-16":
        data = data.decode("utf-8").encode("utf-16")
    elif kind == "nul bytes":
        at = rng.randrange(len(data))
        data = data[:at] + b"\0" * 8 + data[at:]
    else:
        data = data.replace(b'"', b'"\xe9', 1)
    path.write_bytes(data)
    return kind


def special_file(path: Path, rng: random.Random) -> str:
    kind = rng.choice(
        ["fifo", "folder", "/dev/zero", "/dev/null", "dangling symlink", "empty", "oversize"]
    )
    path.unlink()
    if kind == "fifo":
        os.mkfifo(path)
    elif kind == "folder":
        path.mkdir()
    elif kind.startswith("/dev/"):
        path.symlink_to(kind)
    elif kind == "dangling symlink":
        path.symlink_to(path.with_name("nowhere.json"))
    elif kind == "empty":
        path.write_bytes(b"")
    else:
        with path.open("wb") as f:  # ~48 MB, in chunks: a forked child's max RSS starts
            f.write(b"[")  # at the parent's, so the parent must stay small
            for _ in range(24):
                f.write(b"0," * (1 << 20))
            f.write(b"0]")
    return kind


MUTATIONS: dict[str, Mutation] = {
    "truncate": truncate,
    "type swap": type_swap,
    "huge number": huge_number,
    "tiny number": tiny_number,
    "deep nesting": deep_nesting,
    "bad encoding": bad_encoding,
    "special file": special_file,
}


# -- cases ------------------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class Case:
    target: str  # "rig.json" ... or "lab.rec"
    mutation: str
    seed: int


@dataclass(frozen=True, slots=True)
class Outcome:
    case: Case
    how: str
    result: RunResult

    @property
    def problems(self) -> list[str]:
        r = self.result
        found = []
        if r.timed_out:
            found.append("timed out")
        if r.code not in (0, 1, 2):
            found.append(f"exit {r.code}")
        if "Traceback" in r.stderr:
            found.append("traceback")
        error_lines = [line for line in r.stderr.splitlines() if "error:" in line]
        if r.code != 0 and len(error_lines) != 1:
            found.append(f"{len(error_lines)} error lines")
        if r.seconds > MAX_SECONDS:
            found.append(f"{r.seconds:.1f} s")
        if r.max_rss_bytes / 1e6 > MAX_MB:
            found.append(f"{r.max_rss_bytes / 1e6:.0f} MB")
        return found


def _record_bases(work: Path) -> dict[str, Path]:
    bases = {}
    for scene in RECORDED_SCENES:
        path = work / f"{scene}.rec"
        args = ["--headless", "--autopilot", "--scene", scene, "--frames", str(FRAMES)]
        result = run_measured([*args, "--record", str(path)])
        if result.code != 0:
            raise SystemExit(f"could not record the {scene} base: {result.stderr}")
        bases[f"{scene}.rec"] = path
    return bases


def _run_case(case: Case, work: Path, bases: dict[str, Path]) -> Outcome:
    folder = work / f"case-{case.target}-{case.mutation.replace(' ', '_')}-{case.seed}"
    rng = random.Random(f"{case.target}/{case.mutation}/{case.seed}")
    if case.target in ASSET_FILES:
        shutil.copytree(REPO / "assets", folder)
        how = MUTATIONS[case.mutation](folder / case.target, rng)
        args = ["--headless", "--scene", "walk", "--frames", str(FRAMES), "--assets", str(folder)]
    else:
        folder.mkdir()
        path = folder / case.target
        shutil.copy(bases[case.target], path)
        how = MUTATIONS[case.mutation](path, rng)
        args = ["--headless", "--replay", str(path), "--frames", str(FRAMES)]
    return Outcome(
        case, how, run_measured(args, cwd=folder if folder.is_dir() else work, timeout=20)
    )


def _table(outcomes: list[Outcome]) -> str:
    head = (
        f"{'target':<13}{'mutation':<14}{'runs':>5}{'exit 0':>7}{'exit 1':>7}{'exit 2':>7}"
        f"{'other':>6}{'tracebk':>8}{'bad msg':>8}{'max s':>7}{'max MB':>8}"
    )
    rows = [head, "-" * len(head)]
    groups: dict[tuple[str, str], list[Outcome]] = {}
    for o in outcomes:
        groups.setdefault((o.case.target, o.case.mutation), []).append(o)
    for (target, mutation), group in groups.items():
        codes = [o.result.code for o in group]
        tracebacks = sum("Traceback" in o.result.stderr for o in group)
        bad_message = sum(any("error lines" in p for p in o.problems) for o in group)
        rows.append(
            f"{target:<13}{mutation:<14}{len(group):>5}{codes.count(0):>7}{codes.count(1):>7}"
            f"{codes.count(2):>7}{sum(c not in (0, 1, 2) for c in codes):>6}{tracebacks:>8}"
            f"{bad_message:>8}{max(o.result.seconds for o in group):>7.2f}"
            f"{max(o.result.max_rss_bytes for o in group) / 1e6:>8.0f}"
        )
    return "\n".join(rows)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--per-kind", type=int, default=3, help="runs per file and mutation")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--jobs", type=int, default=2)
    args = parser.parse_args()
    targets = [*ASSET_FILES, *(f"{scene}.rec" for scene in RECORDED_SCENES)]
    cases = [
        Case(target, mutation, args.seed * 1000 + i)
        for target in targets
        for mutation in MUTATIONS
        for i in range(args.per_kind)
    ]
    with tempfile.TemporaryDirectory(prefix="fuzz-") as tmp:
        work = Path(tmp)
        bases = _record_bases(work)
        with ThreadPoolExecutor(args.jobs) as pool:
            outcomes = list(pool.map(lambda case: _run_case(case, work, bases), cases))
    print(_table(outcomes))
    failures = [o for o in outcomes if o.problems]
    print(f"\n{len(outcomes)} runs, {len(failures)} failed")
    for o in failures:
        last = (o.result.stderr.strip().splitlines() or [""])[-1][:160]
        print(f"  {o.case.target} {o.case.mutation} ({o.how}): {', '.join(o.problems)}: {last}")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
