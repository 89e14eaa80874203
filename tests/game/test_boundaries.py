"""Package boundaries: the simulation side never imports pygame."""

from __future__ import annotations

import subprocess
import sys

SIMULATION_MODULES = (
    "game.world.arms",
    "game.world.character",
    "game.world.gait",
    "game.world.ladder",
    "game.world.props",
    "game.world.rig",
    "game.world.terrain",
    "game.world.terrain_edit",
    "game.scenes.lab",
    "game.scenes.walk",
    "game.scenes.crowd",
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
