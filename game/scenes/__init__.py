"""The scene registry: name → the module holding its ``SCENE`` spec (which ties the
simulation, the view and the autopilot together, outside the simulation module). Number
keys switch scenes in this order."""

from __future__ import annotations

import functools
import importlib
import importlib.util

from game.scene import SceneSpec

SCENE_MODULES: dict[str, str] = {
    "lab": "game.scenes.lab",
    "walk": "game.scenes.walk_view",
    "crowd": "game.scenes.crowd_view",
    "swivel": "game.scenes.swivel_view",
    "walk3d": "game.scenes.walk3d_view",
}

# The scene plain `python main.py` plays.
DEFAULT_SCENE_PREFERENCE: tuple[str, ...] = ("walk", "lab")


def available() -> list[str]:
    """Names of the scenes whose module is present, in registry order."""
    return list(_present(tuple(SCENE_MODULES.items())))


@functools.cache
def _present(registry: tuple[tuple[str, str], ...]) -> tuple[str, ...]:
    # looking modules up costs ~0.15 ms and the HUD asks every frame: once per registry
    return tuple(name for name, mod in registry if importlib.util.find_spec(mod))


def default_scene() -> str:
    """The scene played when none is named."""
    names = available()
    return next(name for name in DEFAULT_SCENE_PREFERENCE if name in names)


def load(name: str) -> SceneSpec:
    """The :class:`SceneSpec` of scene ``name`` (``ValueError`` listing valid names if unknown)."""
    names = available()
    if name not in names:
        raise ValueError(f"unknown scene {name!r}; valid scenes: {', '.join(names)}")
    spec: SceneSpec = importlib.import_module(SCENE_MODULES[name]).SCENE
    return spec
