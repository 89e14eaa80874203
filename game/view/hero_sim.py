"""What the walk and crowd views read of their simulation: the crowd, whose character 0 is
the hero, its rig and terrain, and the clock."""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol

if TYPE_CHECKING:
    from game.world.character import Crowd
    from game.world.rig import Rig
    from game.world.terrain import Terrain


class HeroSim(Protocol):
    """A simulation whose character 0 is the hero (the walk's and the crowd's)."""

    crowd: Crowd
    time: float
    dt: float
    step_index: int

    @property
    def rig(self) -> Rig: ...

    @property
    def terrain(self) -> Terrain: ...
