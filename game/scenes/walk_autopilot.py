"""The walk scene's autopilots: the whole course with its stops, runs, turns and idle-pointer
stretches (:class:`WalkAutopilot`), and the tour of the props and the ladder (:class:`PropTour`).

They drive :class:`~game.scenes.walk.WalkSim` only through :class:`~game.input_state.InputState`,
as a player would."""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from game.input_state import InputState
from game.scene import SceneConfig
from game.scenes.edit_tour import EditTour
from game.scenes.walk import START_X, WalkSim
from game.world.props.door import DoorPhase, DoorProp
from game.world.props.ladder import LadderClimb
from game.world.props.ladder_prop import LADDER_NEAR_M
from game.world.props.scenery import PLUG_IN_NAMES as PLUG_INS

LOFT_PAUSE_STEPS = 45  # the prop tour stands this long on the loft before climbing down
STALL_S = 1.0  # walking and stopped this long (by ground), the course turns round there
DOOR_NEAR_M = 1.5  # the shut door's middle this near ahead, the course opens it (its knob)


class WalkAutopilot:
    """Walks the whole course and back, then runs the :class:`PropTour` once, then walks on.

    Outbound it walks the gentle slope, the bump and both flights of stairs, stops for a
    moment at the foot of the steep slope, walks up it and runs the long descent to the far
    end, where it turns from a run; homebound it walks with no pointer at all (the idle
    arms swing) until past the steep slope, then walks the stairs and the bump back with the
    pointer, opens the shut door by its knob and turns from a walk at the start. The
    pointer circles in front of the chest, in and out of the hands' reach; the hand mode
    toggles now and then. Deterministic: ``--seed`` only shifts the sweep's phase.
    """

    STOP_AT = 17.4  # outbound, the walker stops here (the foot of the steep slope) ...
    STOP_STEPS = 60  # ... for this many steps
    RUN_FROM = 22.6  # outbound, it runs from here (the top of the long descent) to the end
    IDLE_UNTIL = 18.3  # homebound, no pointer from the far end until here

    def __init__(self, sim: WalkSim, config: SceneConfig) -> None:
        rng = np.random.default_rng(config.seed)
        self.config = config
        self.dt = config.dt
        self.tour: PropTour | None = None
        self.toured = False
        self.phase = float(rng.uniform(0.0, 2.0 * math.pi))
        self.direction = 1.0
        self.stopped = 0  # steps spent at the stop (outbound)
        self.stalled_s = 0.0  # seconds walked without moving (the way on is shut)
        self.asked = 0.0  # the walk input it gave last
        self.opening = False  # it clicked the shut door ahead: waits while the hand opens it
        lo, hi = sim.terrain.walkable_range(START_X, sim.rig.gait.max_step_height)
        self.turn_at = (lo + 1.5, hi - 1.6)

    def next_input(self, sim: WalkSim) -> InputState:
        if sim.editing.active:
            return InputState()  # the ground is being edited: the autopilot waits
        if self.tour is not None:
            if not self.tour.done:
                return self.tour.next_input(sim)
            self.tour = None
        if self.opening and any(plug_in.busy for plug_in in sim.plug_ins):
            return InputState()  # the hand on the knob: a walk key would drop it
        self.opening = False
        t = sim.step_index * self.dt
        x = float(sim.crowd.x[0])
        door = self._shut_door(sim)
        if door is not None:  # as its hint says: the knob opens it
            self.opening = True
            return InputState(actions=("reach_prop",), values={"prop": door.name})
        stalled = self._stalled(sim)
        if self.direction > 0 and (x > self.turn_at[1] or stalled):
            self.direction = -1.0
        elif self.direction < 0 and (x < self.turn_at[0] or stalled):
            self.direction = 1.0
            if not self.toured and sim.props is not None:
                # after the first round trip, one visit to every prop, then the course again
                self.toured = True
                self.tour = PropTour(sim, self.config)
                return self.tour.next_input(sim)
        outbound = self.direction > 0
        move = self.direction
        if outbound and x > self.STOP_AT and self.stopped < self.STOP_STEPS:
            self.stopped += 1
            move = 0.0
        run = outbound and x > self.RUN_FROM
        idle = not outbound and x > self.IDLE_UNTIL and not self.toured
        self.asked = move
        if idle:  # no pointer at all: the arms swing freely
            return InputState(move=move, run=run)
        toggle = ("toggle_hands",) if sim.step_index % 480 == 420 else ()
        return InputState(
            pointer=self._pointer(sim, t),
            move=move,
            run=run,
            actions=("pointer_moved", *toggle),
        )

    def _stalled(self, sim: WalkSim) -> bool:
        """Walked for ``STALL_S`` facing the way asked without moving (ground a step cannot
        take)."""
        crowd = sim.crowd
        facing = float(crowd.facing[0]) * self.asked > 0.5
        walking = facing and not bool(crowd.turning[0]) and abs(float(crowd.vx[0])) < 0.05
        self.stalled_s = self.stalled_s + self.dt if walking else 0.0
        if self.stalled_s < STALL_S:
            return False
        self.stalled_s = 0.0
        return True

    def _shut_door(self, sim: WalkSim) -> DoorProp | None:
        """The door, shut, just ahead of him the way he goes, from its knob side."""
        door = next((p for p in sim.plug_ins if isinstance(p, DoorProp)), None)
        x = float(sim.crowd.x[0])
        if door is None or door.phase != DoorPhase.SHUT or door.behind(x):
            return None
        middle = door.door.x0 + door.door.width / 2
        return door if 0.0 < (middle - x) * self.direction < DOOR_NEAR_M else None

    def _pointer(self, sim: WalkSim, t: float) -> tuple[float, float]:
        """A point circling in front of the chest, 0.25 … 1.15 m from it: inside and beyond
        the 0.58 m arm reach."""
        chest = sim.crowd.pose.chest[0]
        radius = 0.7 - 0.45 * math.cos(2.0 * math.pi * t / 4.3 + self.phase)
        angle = 0.45 + 0.85 * math.sin(2.0 * math.pi * t / 6.1 + self.phase)
        return (
            float(chest[0]) + self.direction * radius * math.cos(angle),
            float(chest[1]) + radius * math.sin(angle) - 0.25,
        )


class PropTour:
    """Visits each prop in turn: lifts the cup, touches the door knob with the free hand,
    sets the cup back down on the table, kicks the ball (where the course has one), then
    walks (runs) to the ladder, climbs to the top and back down and steps off.
    Deterministic (no randomness).

    Chosen by ``SceneConfig.extra["tour"] == "props"``; the tests use it directly.
    """

    PLAN: tuple[tuple[str, str, Any], ...] = (
        ("reach_prop", "prop", "cup"),
        ("reach_prop", "prop", "door"),
        ("put_down", "place_x", 2.55),
        ("reach_prop", "prop", "ball"),
    )

    def __init__(self, sim: WalkSim, config: SceneConfig) -> None:
        self.stage = 0
        self.issued = False
        self.climbed = False  # reached the top of the ladder
        self.loft_steps = 0  # steps spent standing on the loft

    @property
    def done(self) -> bool:
        """Every prop visited and the hero back on the ground after the ladder."""
        return self.stage > len(self.PLAN)

    def next_input(self, sim: WalkSim) -> InputState:
        props, ladder = sim.props, sim.ladder
        if props is None or ladder is None or self.done:
            return InputState()
        if self.stage == len(self.PLAN):
            return self._ladder_input(sim, ladder)
        busy = props.busy or any(plug_in.busy for plug_in in sim.plug_ins)
        if self.issued and not busy:
            self.stage += 1
            self.issued = False
            return InputState()
        if self.issued:
            return InputState()
        action, key, value = self.PLAN[self.stage]
        if value in PLUG_INS and value not in (plug_in.name for plug_in in sim.plug_ins):
            self.stage += 1  # a course without this prop
            return InputState()
        self.issued = True
        return InputState(actions=(action,), values={key: value})

    def _ladder_input(self, sim: WalkSim, ladder: LadderClimb) -> InputState:
        """Up the ladder (onto the loft where there is one, after a pause there), then
        down again and off at the foot."""
        if not ladder.active:
            if self.climbed:
                if sim.on_loft():
                    self.loft_steps += 1
                    return InputState(climb=-1.0 if self.loft_steps > LOFT_PAUSE_STEPS else 0.0)
                self.stage += 1
                return InputState()
            far = float(sim.crowd.x[0]) < ladder.spot_x - LADDER_NEAR_M + 0.3
            return InputState(move=1.0 if far else 0.0, run=far, climb=0.0 if far else 1.0)
        if ladder.transfer_dir > 0:
            return InputState(climb=1.0)
        at_top = ladder.moving < 0 and not ladder.can_climb(1)
        if at_top and ladder.ladder.loft is not None and not self.climbed:
            self.climbed = True
            return InputState(climb=1.0)  # step off onto the loft
        self.climbed = self.climbed or at_top
        return InputState(climb=-1.0 if self.climbed else 1.0)


def walk_autopilot(sim: WalkSim, config: SceneConfig) -> WalkAutopilot | PropTour | EditTour:
    """The scene's autopilot: the walking course, or the prop tour when asked for."""
    if config.extra.get("tour") == "props":
        return PropTour(sim, config)
    if config.extra.get("tour") == "edit":
        return EditTour(sim, config)
    return WalkAutopilot(sim, config)
