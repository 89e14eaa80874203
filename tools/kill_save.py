"""Kill a process with SIGKILL while it saves the terrain, again and again, and check that
``terrain.json`` and ``terrain.json.bak`` are always complete and loadable.

A child process saves two terrains in turn into a scratch folder as fast as it can
(:func:`game.scenes.ground_edit.save_terrain`); once its first save is done it is killed
with ``kill -9`` at a random moment and both files are read back: each must load and hold
exactly one of the two terrains' texts. A kill that leaves a temporary file behind landed
in the middle of a save (the next save removes it). Prints a table; exits 1 if any check
failed.

    python tools/kill_save.py [--kills 40] [--seed 0] [--max-delay-ms 30]
"""

from __future__ import annotations

import argparse
import os
import random
import select
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from game.assets import AssetError  # noqa: E402
from game.scenes.ground_edit import save_terrain, terrain_name, terrain_text  # noqa: E402
from game.world.terrain import Terrain, load_terrain  # noqa: E402

SOURCE = ROOT / "assets" / "terrain.json"
READY = "ready"
CHILD_START_TIMEOUT_S = 30.0


def terrains(source: Path) -> tuple[Terrain, Terrain]:
    """The two terrains the child alternates between: the file's, and it raised 1 mm."""
    first = load_terrain(source)
    return first, Terrain(first.points + [0.0, 0.001], first.landmarks)


def child(folder: Path) -> None:
    """Save the two terrains into ``folder/terrain.json`` in turn until killed."""
    path = folder / "terrain.json"
    pair = terrains(SOURCE)
    save_terrain(pair[1], path)
    print(READY, flush=True)
    turn = 0
    while True:
        save_terrain(pair[turn % 2], path)
        turn += 1


def _check(path: Path, texts: set[bytes]) -> str:
    """'' when ``path`` loads and holds one of ``texts``; what is wrong otherwise."""
    try:
        load_terrain(path)
    except AssetError as exc:
        return f"does not load ({exc})"
    if path.read_bytes() not in texts:
        return f"loads but holds neither terrain ({path.stat().st_size} bytes)"
    return ""


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--kills", type=int, default=40)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--max-delay-ms", type=float, default=30.0)
    parser.add_argument("--child", type=Path, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child is not None:
        child(args.child)
        return 0
    rng = random.Random(args.seed)
    name = terrain_name(SOURCE)
    texts = {terrain_text(t, name).encode() for t in terrains(SOURCE)}
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    failures: list[str] = []
    mid_save = 0
    with tempfile.TemporaryDirectory(prefix="kill-save-") as tmp:
        folder = Path(tmp)
        shutil.copy(SOURCE, folder / "terrain.json")
        for kill in range(1, args.kills + 1):
            command = [sys.executable, __file__, "--child", str(folder)]
            proc = subprocess.Popen(command, stdout=subprocess.PIPE, text=True, env=env)
            assert proc.stdout is not None
            started, _, _ = select.select([proc.stdout], [], [], CHILD_START_TIMEOUT_S)
            line = proc.stdout.readline() if started else ""  # the first save is done
            if line.strip() != READY:
                proc.kill()
                proc.wait()
                failures.append(f"kill {kill}: the child did not start ({line.strip()!r})")
                continue
            time.sleep(rng.uniform(0.0, args.max_delay_ms / 1000.0))
            os.kill(proc.pid, signal.SIGKILL)
            proc.wait()
            proc.stdout.close()
            mid_save += any(p.suffix == ".tmp" for p in folder.iterdir())
            for file in ("terrain.json", "terrain.json.bak"):
                problem = _check(folder / file, texts)
                if problem:
                    failures.append(f"kill {kill}: {file} {problem}")
    rows = [
        ("kill -9s", args.kills),
        ("landed mid-save (a .tmp left)", mid_save),
        ("terrain.json or .bak incomplete", len(failures)),
    ]
    width = max(len(label) for label, _ in rows)
    for label, value in rows:
        print(f"{label:<{width}}  {value:>4}")
    for failure in failures:
        print(f"  {failure}")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
