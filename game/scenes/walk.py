"""The walk scene: a character whose hands follow the mouse and whose feet plant on uneven ground.

The simulation is the hero (character 0 of a :class:`game.world.character.Crowd` of one)
plus the interactive extras: the props (each a :class:`~game.world.props.base.Prop`, asked
in turn for its intent, and the hero's hands on them), hands reaching for the pointer and a
foot dragged by the mouse (:mod:`game.scenes.walk_pointer`), the K pole toggle, and the
measured feel of the feet for the stats file.
"""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any

import numpy as np

from game.ik_counters import IkCounters
from game.input_state import InputState
from game.profiling import PhaseTimer
from game.scene import SceneConfig
from game.scenes.character_assets import (
    EDITED_TERRAIN,
    RIG_FILE,
    TERRAIN_FILE,
    CharacterAssets,
    load_character_assets,
)
from game.scenes.feel_meter import FeetMeter, GaitSample
from game.scenes.ground_edit import GroundEditing
from game.scenes.prop_ground import PropGround
from game.scenes.walk_hints import ground_in_the_way
from game.scenes.walk_pointer import POINTER_LINGER_S as POINTER_LINGER_S
from game.scenes.walk_pointer import PointerReach
from game.scenes.walk_solved import SolvedHero, solved_hero, walk_keys
from game.scenes.walk_trace import character_records, trace_header
from game.trace import point
from game.world.character import Crowd
from game.world.easing import all_true
from game.world.props import CupProp, LadderProp, PropHands, Props, create_props, load_props
from game.world.props.base import Body, Intent, Prop
from game.world.props.ladder import LadderClimb

PROPS_FILE = "props.json"  # optional: an assets folder without it has no props
START_X = 0.0
BLOCKED_HINT_S = 0.4  # held against ground he cannot step onto this long, he says why


class WalkSim(CharacterAssets, PointerReach):
    """The hero on the terrain: gait, reaching hands, foot drag, pole toggle, feet stats,
    and the props (each a :class:`~game.world.props.base.Prop`, asked in turn)."""

    asset_files = (RIG_FILE, TERRAIN_FILE, PROPS_FILE)

    def __init__(self, config: SceneConfig) -> None:
        self.dt = config.dt
        self.step_index = 0
        self.time = 0.0
        self.counters = IkCounters()
        self.assets_dir = Path(config.assets_dir)
        self.session = config.extra
        rig, terrain = load_character_assets(self.assets_dir, self.session)
        self.crowd = Crowd(rig, terrain, [START_X], [1.0])
        self.poles_on = True
        self.both_hands = True
        self.hands_follow = True  # H: the hands may take the pointer at all
        self.pointer: tuple[float, float] | None = None  # the clamped pointer this step
        self.offered: tuple[float, float] | None = None  # ... when the hands were offered it
        self.pointer_still_s = math.inf  # seconds since the pointer last moved
        self.ordered_by_click = False  # the pointer's last use was a click on a prop
        self.against_s = 0.0  # seconds the walk key has pointed against the facing
        self.reaching = np.zeros(2, dtype=bool)
        self.drag_foot: int | None = None
        self.kicking: int | None = None  # the foot a prop holds this step (a kick's), or None
        self.meter = FeetMeter()
        self.moving = False
        self.blocked_s = 0.0  # seconds the walk has been stopped by ground a step cannot take
        self._halted = False  # ... or by a prop this step (a shut door)
        self._prop_ground = PropGround()  # the ground each prop moves on
        self._says: str | None = None  # what a prop says to the player this step
        self._lying: list[Prop] = []  # the props the feet keep off this step (lying in the way)
        self._blocked_why: str | None = None  # ... and what it says if the walk is blocked
        props_path = self.assets_dir / PROPS_FILE
        self._use_props(load_props(props_path, terrain) if props_path.exists() else None)
        self.editing = self._ground_editing()
        self.terrain_changed = False  # the ground changed this step (an edit or a reload)
        self._reloaded = False
        self.reload_note = ""  # what the last F5 reset, for the player
        self._solved: tuple[Any, Any, SolvedHero] | None = None  # (solution, pose, joints)
        self._walk_key = 0.0  # the player's walk keys this step, clamped (the props' Body.walk)

    def _use_props(self, props: Props | None) -> None:
        """The hero's hands on ``props`` (None: none) and the live props, in the order asked."""
        self.props: PropHands | None = None
        self.plug_ins: list[Prop] = []
        if props is not None:
            self.props, self.plug_ins = create_props(props, self.rig)

    def _ground_editing(self) -> GroundEditing:
        return GroundEditing(self.assets_dir / TERRAIN_FILE, self.rig, self.terrain, self.plug_ins)

    def prop(self, name: str) -> Prop | None:
        """The live prop called ``name`` (its key in props.json), if the scene has it."""
        return next((p for p in self.plug_ins if p.name == name), None)

    @property
    def ladder(self) -> LadderClimb | None:
        """The hero on the ladder (for the view's climb keys, HUD and overlay)."""
        prop = next((p for p in self.plug_ins if isinstance(p, LadderProp)), None)
        return None if prop is None else prop.climb

    def on_loft(self) -> bool:
        """The hero stands on the loft by the ladder's top."""
        x = float(self.crowd.x[0])
        return any(isinstance(p, LadderProp) and p.on_loft(x, self.terrain) for p in self.plug_ins)

    # -- assets ------------------------------------------------------------------------
    def reload_assets(self, folder: Path | None = None) -> None:
        """Re-read the rig, the terrain and the props (checked against the new terrain)
        from ``folder`` (default ``assets_dir``); a bad file raises before anything
        changes. The ground editor still saves to and reloads from ``assets_dir``."""
        folder = folder or self.assets_dir
        rig, terrain = load_character_assets(folder)
        props_path = folder / PROPS_FILE
        props = load_props(props_path, terrain) if props_path.exists() else None
        cup = next((p for p in self.plug_ins if isinstance(p, CupProp)), None)
        moved = cup is not None and not np.allclose(cup.bottom, cup.props.cup.home)
        self.apply_assets(rig, terrain)
        self.session.pop(EDITED_TERRAIN, None)
        self._use_props(props)  # a held cup is set back (and said, with the reload)
        self.reload_note = "the cup back on its table, " if moved and props else ""
        self.reload_note += "footsteps from 0"
        active = self.editing.active
        self.editing = self._ground_editing()
        self.editing.active = active
        self._reloaded = True

    # -- one step ----------------------------------------------------------------------
    def step(self, inp: InputState, dt: float, timer: PhaseTimer) -> None:
        crowd = self.crowd
        if inp.toggles("toggle_poles"):
            self.poles_on = not self.poles_on
        if inp.toggles("toggle_hands"):
            self.both_hands = not self.both_hands
        if inp.toggles("toggle_hands_follow"):
            self.hands_follow = not self.hands_follow
        self._edit_ground(inp)
        self.pointer = self._clamped_pointer(inp.pointer)
        self._track_pointer(inp, dt)
        self.offered = None
        move = self._walk_key = walk_keys(inp.move)
        intents = self._ask_props(inp, move, dt)
        if intents and intents[-1].pose is not None:
            self._take_pose(intents, inp, dt, timer)
            return
        self._update_drag(inp)
        move = self._prop_walk(intents, move, dt)
        self._aim_hands(dt)
        self._face_pointer(move, dt)
        self._crouch(move)
        crowd.use_knee_poles(0, self.poles_on)
        pinned = np.zeros((1, 2), dtype=bool)
        pin = next((i for i in intents if i.foot >= 0 and i.foot_target is not None), None)
        if self.drag_foot is not None and self.pointer is not None:
            pinned[0, self.drag_foot] = True
            crowd.pin_foot(0, self.drag_foot, self.pointer)
        elif pin is not None and pin.foot_target is not None:  # a prop's (a kick)
            pinned[0, pin.foot] = True
            crowd.pin_foot(0, pin.foot, pin.foot_target)
        self.kicking = (
            int(np.argmax(pinned[0])) if pinned.any() and self.drag_foot is None else None
        )
        was_planted = crowd.feet.planted[0].copy()
        self.moving = abs(move) > 0.05 or abs(float(crowd.vx[0])) > 0.05
        self._keep_feet_off(intents)
        crowd.step([move], [1.0 if inp.run else 0.0], dt, pinned)
        blocked = bool(crowd.blocked[0]) or self._halted  # by ground, or by a prop
        self.blocked_s = self.blocked_s + dt if blocked else 0.0
        solution = crowd.solve(timer)
        self.counters.record(solution)
        if self.props is not None:
            solved = self._solved_hero()
            self.props.after_solve(solved.hands, solved.shoulders, self.rig)
        self._advance_props(inp, intents, dt)
        hero = GaitSample.of_hero(
            self._solved_hero(), crowd, self.time + self.dt, was_planted, inp.run
        )
        self.meter.record(hero, self.terrain, self.rig)
        self.step_index += 1
        self.time = self.step_index * dt

    def _keep_feet_off(self, intents: list[Intent]) -> None:
        """The crowd's obstacles this step: the props the feet step over, not on, and those
        they keep off as off a wall (none asked and none kept: nothing to set)."""
        self._lying = [p for p, i in zip(self.plug_ins, intents, strict=True) if i.keep_off]
        solid = [p for p, i in zip(self.plug_ins, intents, strict=True) if i.solid]
        keep_off = [p.footprint() for p in (*self._lying, *solid)]
        if keep_off or len(self.crowd.obstacles):
            self.crowd.set_obstacles(np.concatenate([np.zeros((0, 3)), *keep_off]))

    def _ask_props(self, inp: InputState, move: float, dt: float) -> list[Intent]:
        """Each prop in turn: a click on one (``reach_prop`` with its name) uses it and
        drops what the hero was doing with the others; walking keys drop them all; then its
        intent this step. A prop that takes his pose (the ladder) ends the round. First a
        click to set down what a hand carries (``put_down`` at ``place_x``)."""
        clicked = inp.values.get("prop") if "reach_prop" in inp.actions else None
        if "put_down" in inp.actions and self.props is not None:
            self.props.put_down(inp.values.get("place_x"), self.terrain)
        body = self._body(inp)
        intents: list[Intent] = []
        for prop in self.plug_ins:
            if clicked == prop.name:
                prop.use()
            if abs(move) > 0.05 or clicked not in (None, prop.name):
                prop.cancel()
            intents.append(prop.intent(body, self.terrain, dt))
            if intents[-1].pose is not None:
                break
        self._says = next((i.says for i in intents if i.says is not None), None)
        self._blocked_why = next((i.blocked_why for i in intents if i.blocked_why), None)
        return intents

    def _prop_walk(self, intents: list[Intent], move: float, dt: float) -> float:
        """The walk input this step: the first prop's that asks for one, else the hands'
        (walking to a grip), else the player's ``move``, none toward a prop's ``halt``;
        the props' turns and where the walk stops."""
        crowd, hands = self.crowd, self.props
        for intent in intents:
            if intent.face:
                crowd.turn_to(0, intent.face)
        crowd.walk_to(0, next((i.walk_to for i in intents if i.walk_to is not None), None))
        if hands is not None:
            solved, facing = self._solved_hero(), float(crowd.facing[0])
            shoulders = solved.shoulders
            walk = hands.walk_intent(shoulders, facing, self.rig, self.terrain, self.blocked_s)
            move = move if walk is None else walk
            targets, weights = hands.aim(
                crowd.intent.hand_weight[0],
                crowd.intent.hand_target[0],
                solved.hands,
                shoulders,
                facing,
                self.rig,
                dt,
                self._soles_span,
                self.terrain,
            )
            if hands.engaged:  # (none: the goals came back as the crowd holds them)
                crowd.aim_hands(0, targets, weights)
        move = next((i.walk for i in intents if i.walk is not None), move)
        self._halted = any(move * i.halt > 0.0 for i in intents)
        return 0.0 if self._halted else move

    def _take_pose(
        self, intents: list[Intent], inp: InputState, dt: float, timer: PhaseTimer
    ) -> None:
        """A step in the pose the last prop's intent holds, instead of the gait's (on the
        ladder)."""
        crowd, intent = self.crowd, intents[-1]
        assert intent.pose is not None and intent.pelvis is not None
        crowd.pose_as(0, intent.pose, intent.pelvis, intent.stand_at)
        crowd.step([0.0], [0.0], dt)
        solution = crowd.solve(timer)
        self.counters.record(solution)
        self.meter.last = None  # the pose is not the gait: measuring resumes off it
        self._advance_props(inp, intents, dt)
        self.step_index += 1
        self.time = self.step_index * dt

    def _advance_props(self, inp: InputState, intents: list[Intent], dt: float) -> None:
        """Each prop's own motion over the step, against the hero as solved, on the ground
        with the others lying on it (:class:`~game.scenes.prop_ground.PropGround`)."""
        if not self.plug_ins:
            return
        body = self._body(inp)
        grounds = self._prop_ground.grounds(self.terrain, self.plug_ins, intents)
        for prop, ground in zip(self.plug_ins, grounds, strict=True):
            prop.advance(body, ground, dt)

    def _body(self, inp: InputState) -> Body:
        """The hero as the props see him (as last solved), and the player's climb keys."""
        crowd, solved = self.crowd, self._solved_hero()
        settled = (
            all_true(crowd.feet.planted[0])
            and not bool(crowd.turning[0])
            and abs(float(crowd.vx[0])) < 0.05
        )
        return Body(
            x=float(crowd.x[0]),
            speed=float(crowd.vx[0]),
            facing=float(crowd.facing[0]),
            settled=settled,
            blocked=bool(crowd.blocked[0]),
            ankles=solved.ankles,
            knees=solved.knees,
            soles=solved.soles,
            rig=self.rig,
            shoulders=solved.shoulders,
            hands=solved.hands,
            feet_targets=solved.feet_targets,
            pelvis=solved.pelvis,
            walk=self._walk_key,
            climb=inp.climb,
            run=inp.run,
            hands_full=self.props is not None and self.props.holding >= 0,
        )

    def plug_in_at(self, point: Any, radius: float) -> str | None:
        """The name of the prop a click at the world ``point`` is on, if any."""
        p = np.asarray(point, dtype=float)
        return next((plug_in.name for plug_in in self.plug_ins if plug_in.under(p, radius)), None)

    def _soles_span(self) -> tuple[float, float]:
        """The hero's soles' extent in x, heel to toe of both feet (as last solved)."""
        soles = self._solved_hero().soles[..., 0]
        return float(soles.min()), float(soles.max())

    def _solved_hero(self) -> SolvedHero:
        """The hero's joints as last solved: made once a solve (the props see the same
        solve after one step and before the next) and shared read-only. The crowd replaces
        its pose and its solution on every step and solve, never writing them in place, so
        they key the cache."""
        crowd = self.crowd
        cached = self._solved
        if cached is None or cached[0] is not crowd.solution or cached[1] is not crowd.pose:
            cached = self._solved = (crowd.solution, crowd.pose, solved_hero(crowd))
        return cached[2]

    def _edit_ground(self, inp: InputState) -> None:
        """E toggles edit mode; an edit changes the ground under the walker, whose feet
        re-plant where their ground moved (not while climbing: the ladder's ground stays)."""
        if inp.toggles("toggle_edit"):
            self.editing.toggle()
        self.terrain_changed, self._reloaded = self._reloaded, False
        climbing = self.ladder is not None and self.ladder.active
        if "terrain_edit" in inp.actions and self.editing.apply(inp.values, climbing):
            self.crowd.set_terrain(self.editing.terrain)
            self.meter.last = None  # the feet re-plant with the ground: measuring resumes
            self.session[EDITED_TERRAIN] = self.editing.terrain
            self.terrain_changed = True

    def files_read_by(self, inp: InputState) -> tuple[Path, ...]:
        """The terrain file when ``inp`` is an edit reload (Ctrl+O) the step will carry out
        (not while climbing, as :meth:`_edit_ground`)."""
        climbing = self.ladder is not None and self.ladder.active
        reload = "terrain_edit" in inp.actions and inp.values.get("op") == "reload"
        return (self.editing.terrain_file,) if reload and not climbing else ()

    def terrain_update(self) -> list[list[float]] | None:
        """The ground polyline when it changed this step (the trace's ``terrain`` key)."""
        return self.terrain.to_json() if self.terrain_changed else None

    def blocked_hint(self) -> str | None:
        """What a prop says now, or why the walk key has done nothing for ``BLOCKED_HINT_S``
        (a prop's reason, else the ground's: :func:`ground_in_the_way`); else None."""
        if self._says is not None:
            return self._says
        if self.blocked_s < BLOCKED_HINT_S:
            return None
        if self._blocked_why is not None:
            return self._blocked_why
        return ground_in_the_way(self.crowd, [(p.name, p.footprint()[0]) for p in self._lying])

    # -- outputs -----------------------------------------------------------------------
    def trace_header(self) -> dict[str, Any]:
        return trace_header("walk", self.dt, self.terrain, self.rig)

    def trace_characters(self) -> list[dict[str, Any]]:
        return character_records(self.crowd, [self.offered])

    def trace_props(self) -> dict[str, list[float] | None] | None:
        """The moving props' centres this step (the trace's ``props``), in the scene's
        order; None without props."""
        if self.props is None:
            return None
        centres = ((p.name, p.centre()) for p in self.plug_ins)
        return {name: point(centre) for name, centre in centres if centre is not None}

    def stats_sections(self) -> dict[str, Any]:
        return {
            "feet": {
                **self.meter.figures(),
                "steps_taken": int(self.crowd.feet.steps.sum()),
                "knee_flips": int(self.crowd.knee_flips.sum()),
            },
            **self._props_stats(),
        }

    def _props_stats(self) -> dict[str, Any]:
        cup = next((p for p in self.plug_ins if isinstance(p, CupProp)), None)
        if self.props is None or cup is None:
            return {}
        return {
            "props": {
                "reaches": self.props.reaches,
                "holding": self.props.holding,
                "cup": [round(float(v), 6) for v in cup.bottom],
            }
        }
