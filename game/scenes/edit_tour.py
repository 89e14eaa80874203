"""A scripted terrain-editing session for the walk scene (tests, tools/edit_tour.py).

Turns edit mode on, builds a steep staircase on the slope ahead, leaves edit mode and walks
over it and back; then, standing on the flat, raises the ground under the planted feet with
a vertex drag (they re-plant), and walks off again. Deterministic (no randomness): every
edit is an ordinary step input, so the run records and replays like play.
"""

from __future__ import annotations

from typing import Any

from game.input_state import InputState
from game.scene import SceneConfig

STAIRS = {"op": "stairs", "x": 3.3, "rise": 0.16, "tread": 0.35, "count": 4}
TURN_AT = 7.6  # beyond the staircase, walk back
STOP_AT = 0.9  # on the flat before the table: the ground is raised under the feet here
RAISE_M = 0.06
PAUSE_STEPS = 40


class EditTour:
    """The script, one stage at a time; ``done`` once it has walked off the raised ground."""

    def __init__(self, sim: Any, config: SceneConfig) -> None:
        self.stage = 0
        self.wait = 0
        self.vertex = -1
        self.lift = 0.0
        self.centre = 0.0  # x of the raised vertex (between the planted feet)
        self.base = 0.0  # the ground height there before the edit
        self.inserts: list[float] = []
        self.done = False

    def next_input(self, sim: Any) -> InputState:
        stage = self.stage
        if stage <= 2:
            return self._build_stairs()
        if stage <= 4:
            return self._walk_over_and_back(float(sim.crowd.x[0]))
        if stage == 5:
            return self._wait_for_planted_feet(sim)
        if stage == 6:
            return self._mark_the_hill(sim)
        if stage <= 8:
            return self._raise_the_hill(sim)
        if stage == 9:
            self.stage = 10
            self.wait = 0
            return InputState(actions=("toggle_edit",))
        return self._stand_then_walk_off()

    def _build_stairs(self) -> InputState:
        """Stages 0-2: into edit mode, build the stairs, out again."""
        inputs = (
            InputState(actions=("toggle_edit",)),
            InputState(actions=("terrain_edit",), values=dict(STAIRS)),
            InputState(actions=("toggle_edit",)),
        )
        inp = inputs[self.stage]
        self.stage += 1
        return inp

    def _walk_over_and_back(self, x: float) -> InputState:
        """Stage 3: over the stairs to ``TURN_AT``; stage 4: back to the flat (``STOP_AT``)."""
        if self.stage == 3:
            if x > TURN_AT:
                self.stage = 4
            return InputState(move=1.0)
        if x < STOP_AT:
            self.stage = 5
        return InputState(move=-1.0)

    def _wait_for_planted_feet(self, sim: Any) -> InputState:
        """Stage 5: stand still until both feet are down."""
        self.wait += 1
        if self.wait > PAUSE_STEPS and bool(sim.crowd.feet.planted[0].all()):
            self.stage = 6
        return InputState()

    def _mark_the_hill(self, sim: Any) -> InputState:
        """Stage 6: a local hill under the feet, three new vertices; into edit mode."""
        self.centre = float(sim.crowd.feet.lock[0, :, 0].mean())
        self.base = float(sim.terrain.height_at(self.centre))
        self.inserts = [self.centre - 0.6, self.centre + 0.6, self.centre]
        self.stage = 7
        return InputState(actions=("toggle_edit",))

    def _raise_the_hill(self, sim: Any) -> InputState:
        """Stage 7: insert the vertices; stage 8: one drag raising the middle one in small
        moves."""
        if self.stage == 7:
            if self.inserts:
                x_new = self.inserts.pop(0)
                return InputState(actions=("terrain_edit",), values={"op": "insert", "x": x_new})
            self.vertex = int(abs(sim.terrain.xs - self.centre).argmin())
            self.stage = 8
        self.lift = min(self.lift + 0.01, RAISE_M)
        if self.lift >= RAISE_M:
            self.stage = 9
        values = {
            "op": "move",
            "vertex": self.vertex,
            "x": self.centre,
            "y": self.base + self.lift,
            "drag": 1,
        }
        return InputState(actions=("terrain_edit",), values=values)

    def _stand_then_walk_off(self) -> InputState:
        """Stage 10: stand on the raised ground, then walk off it."""
        self.wait += 1
        if self.wait > 2 * PAUSE_STEPS:
            self.done = self.wait > 4 * PAUSE_STEPS
            return InputState(move=1.0)
        return InputState()
