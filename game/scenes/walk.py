"""The walk scene: a character whose hands follow the mouse and whose feet plant on uneven ground.

The simulation is the hero (character 0 of a :class:`game.world.character.Crowd` of one)
plus the interactive extras: hands reaching for the pointer, a foot dragged by the mouse,
the K pole toggle, and the measured feel of the feet for the stats file.
"""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any

import numpy as np
from numpy.typing import NDArray

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
from game.trace import limb_record, point
from game.world.arms import within_shoulder_range
from game.world.character import ARMS, LEGS, Crowd
from game.world.easing import clamp, finite_clamp, halflife_blend
from game.world.props import REACH_FRACTION, PropHands, load_props
from game.world.props.base import Body, Prop
from game.world.props.ladder import LadderClimb
from game.world.props.scenery import create_plug_ins
from game.world.rig import LIMBS, Rig
from game.world.terrain import Terrain

PROPS_FILE = "props.json"  # optional: an assets folder without it has no props
START_X = 0.0
LEG_NAMES = LIMBS[LEGS]
POINTER_RANGE = 6.0  # metres around the pelvis a hand or pinned foot may be sent
LADDER_NEAR_M = 1.5  # W this close to the ladder's climbing spot walks there and climbs
LADDER_SPOT_M = 0.03  # within this of a climbing spot the hero has arrived there
LOFT_PAUSE_STEPS = 45  # the prop tour stands this long on the loft before climbing down
HAND_SWITCH_MARGIN = 0.05  # the reaching hand changes only when the other is this much nearer
POINTER_LINGER_S = 1.5  # the hands keep reaching this long after the mouse last moved
REACH_BLEND_S = 0.6  # the pointer reach blends fully in (or out) in this many seconds
GRAB_RADIUS_M = 0.25  # a press this close to an ankle grabs the foot; hovering there, the
# pointer is a drag handle, not a place for the hands (they stooped 15 cm to reach for it)
TAP_MIN_S = 0.08  # the other key held this long asks for the turn even once let go (a
# key's own blip, both keys released or pressed a few frames apart, is none)
HANDS_FULL_HINT = "hands full: set the cup down to climb"
BLOCKED_HINT_S = 0.4  # held against ground he cannot step onto this long, he says why
TURN_BEHIND_M = 0.3  # a pointer offered this far behind the shoulders turns a standing body
FLOOR_HAND_M = 0.06  # a hand wanted this low over the ground under the feet: a full crouch


class WalkSim(CharacterAssets):
    """The hero on the terrain: gait, reaching hands, foot drag, pole toggle, feet stats."""

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
        self.against_s = 0.0  # seconds the walk key has pointed against the facing
        self.reaching = np.zeros(2, dtype=bool)
        self.drag_foot: int | None = None
        self.meter = FeetMeter()
        self.moving = False
        self.blocked_s = 0.0  # seconds the walk has been stopped by ground a step cannot take
        self.refused_s = 0.0  # seconds W has been held at the ladder's foot with the cup in hand
        props_path = self.assets_dir / PROPS_FILE
        self.props = PropHands(load_props(props_path, terrain)) if props_path.exists() else None
        self.ladder = None if self.props is None else LadderClimb(self.props.props.ladder, rig)
        self.plug_ins: list[Prop] = [] if self.props is None else create_plug_ins(self.props.props)
        self._pin: tuple[int, Any] | None = None  # a prop's foot pin this step (foot, target)
        self._keep_off = np.zeros((0, 3))  # props the feet step over this step (x0, x1, top)
        self.editing = self._ground_editing()
        self.terrain_changed = False  # the ground changed this step (an edit or a reload)
        self._reloaded = False
        self.reload_note = ""  # what the last F5 reset, for the player

    def _ground_editing(self) -> GroundEditing:
        return GroundEditing(self.assets_dir / TERRAIN_FILE, self.rig, self.terrain, self.props)

    # -- assets ------------------------------------------------------------------------
    def reload_assets(self, folder: Path | None = None) -> None:
        """Re-read the rig, the terrain and the props (checked against the new terrain)
        from ``folder`` (default ``assets_dir``); a bad file raises before anything
        changes. The ground editor still saves to and reloads from ``assets_dir``."""
        folder = folder or self.assets_dir
        rig, terrain = load_character_assets(folder)
        props_path = folder / PROPS_FILE
        props = load_props(props_path, terrain) if props_path.exists() else None
        moved = self.props is not None and not np.allclose(
            self.props.cup, self.props.props.cup.home
        )
        self.apply_assets(rig, terrain)
        self.session.pop(EDITED_TERRAIN, None)
        self.props = None if props is None else PropHands(props)  # a held cup is set back
        # (said with the reload: F5 put a cup set down elsewhere back on the table silently)
        self.reload_note = "the cup back on its table, " if moved and props else ""
        self.reload_note += "footsteps from 0"
        self.ladder = None if props is None else LadderClimb(props.ladder, rig)
        self.plug_ins = [] if props is None else create_plug_ins(props)
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
        moved = "pointer_moved" in inp.actions or inp.pointer_down
        self.pointer_still_s = 0.0 if moved else self.pointer_still_s + dt
        self.offered = None
        if self._climb(inp, dt, timer):
            return
        self._update_drag(inp)
        move = float(finite_clamp(inp.move, -1.0, 1.0))
        move = self._use_props(inp, move, dt)
        move = self._use_plug_ins(inp, move, dt)
        self._aim_hands(dt)
        move = self._approach_ladder(inp, move)
        self._face_pointer(move, dt)
        self._crouch(move)
        crowd.use_knee_poles(0, self.poles_on)
        pinned = np.zeros((1, 2), dtype=bool)
        if self.drag_foot is not None and self.pointer is not None:
            pinned[0, self.drag_foot] = True
            crowd.pin_foot(0, self.drag_foot, self.pointer)
        elif self._pin is not None:  # a prop's (a kick)
            pinned[0, self._pin[0]] = True
            crowd.pin_foot(0, *self._pin)
        was_planted = crowd.feet.planted[0].copy()
        self.moving = abs(move) > 0.05 or abs(float(crowd.vx[0])) > 0.05
        if self.props is not None:  # a cup set down on the floor: stepped over, not on
            spans = self.props.floor_spans(self.terrain)
            crowd.set_obstacles(np.concatenate([spans, self._keep_off]))
        crowd.step([move], [1.0 if inp.run else 0.0], dt, pinned)
        self.blocked_s = self.blocked_s + dt if crowd.blocked[0] else 0.0
        refused = inp.climb > 0.5 and self._near_ladder_foot() and self._hands_full()
        self.refused_s = self.refused_s + dt if refused else 0.0
        solution = crowd.solve(timer)
        self.counters.record(solution)
        if self.props is not None:
            shoulders = crowd.pose.roots[0, ARMS]
            self.props.after_solve(solution.hand[0, ARMS], shoulders, self.rig, self.terrain, dt)
        self._advance_plug_ins(dt)
        self._measure(was_planted, inp.run)
        self.step_index += 1
        self.time = self.step_index * dt

    def _edit_ground(self, inp: InputState) -> None:
        """E toggles edit mode; an edit changes the ground under the walker, whose feet
        re-plant where their ground moved (not while climbing: the ladder's ground stays)."""
        if inp.toggles("toggle_edit"):
            self.editing.active = not self.editing.active
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

    def _approach_ladder(self, inp: InputState, move: float) -> float:
        """W near the ladder's foot (or S near its top, on the loft) walks the hero to where
        he climbs on (:meth:`_by_ladder_foot`, :meth:`_at_loft_top`) and turns him there to
        face +x (the ladder at its foot; on the loft, his back to it: he backs over the
        rails); the climb begins in :meth:`_climb` once both feet are down and he has
        stopped."""
        ladder, crowd = self.ladder, self.crowd
        crowd.walk_to(0, None)
        if ladder is None or self.props is None or self.props.holding >= 0:
            return move
        spot: float | None
        if inp.climb > 0.5 and not self.on_loft():
            # (W held on after stepping off onto the loft walked him round toward the drop)
            spot, there = ladder.spot_x, self._by_ladder_foot()
        elif inp.climb < -0.5 and self.on_loft():
            spot, there = ladder.loft_spot_x, self._at_loft_top()
        else:
            return move
        assert spot is not None
        dx = spot - float(crowd.x[0])
        if abs(dx) > LADDER_NEAR_M:
            return move
        crowd.walk_to(0, spot)  # by the loft's edge: the gait would stop a step short
        if there or abs(dx) <= LADDER_SPOT_M:
            # where he climbs on from: facing +x he stands still for it; facing away, a
            # pivot round where he stands (walking back to the spot first turned him away
            # from the ladder and back; a facing flipped at once on the loft flipped the
            # knees 15 cm and slid the planted feet 12 cm in one step)
            return 0.1 if crowd.facing[0] < 0 else 0.0
        return math.copysign(min(max(abs(dx) / 0.6, 0.12), 1.0), dx)

    def _by_ladder_foot(self) -> bool:
        """The hero stands at the foot's climbing spot or anywhere past it up to the rungs'
        line, under the ladder: the gait stops him 16 cm past the spot at the wall beneath
        the ladder. His hips ease back to the spot as the first hand reaches for a rung."""
        assert self.ladder is not None
        x = float(self.crowd.x[0])
        return self.ladder.spot_x - LADDER_SPOT_M <= x <= self.ladder.ladder.x

    def _at_ladder_foot(self) -> bool:
        """By the ladder's foot (:meth:`_by_ladder_foot`) facing it: he climbs on from there."""
        return self.crowd.facing[0] > 0 and self._by_ladder_foot()

    def _at_loft_top(self) -> bool:
        """The hero stands on the loft with his back to the ladder (facing +x), at its
        top's climbing spot or right of it within ``LADDER_NEAR_M``: he climbs down from
        there, stepping back to the spot first (the gait walks only forward: walking there
        took a turn away from the ladder and one back)."""
        spot = None if self.ladder is None else self.ladder.loft_spot_x
        if spot is None or self.crowd.facing[0] < 0 or not self.on_loft():
            return False
        return -LADDER_SPOT_M <= float(self.crowd.x[0]) - spot <= LADDER_NEAR_M

    def blocked_hint(self) -> str | None:
        """Why the walk key does nothing, once it has for ``BLOCKED_HINT_S`` (a player
        holding A at the loft's edge saw nothing happen and had no cue): the loft's edge, the
        ladder (W climbs it), a wall, a drop or the world's end; or why W at the ladder does
        nothing (the cup in hand); else None."""
        if self.refused_s >= BLOCKED_HINT_S:
            return HANDS_FULL_HINT
        if self.blocked_s < BLOCKED_HINT_S:
            return None
        crowd, terrain = self.crowd, self.terrain
        x, facing = float(crowd.x[0]), float(crowd.facing[0])
        if facing < 0 and self.on_loft():  # the loft's edge is on the ladder's side
            return "the loft's edge: S by the ladder climbs down"
        if facing > 0 and self._near_ladder_foot():  # the wall under the loft: the ladder
            return HANDS_FULL_HINT if self._hands_full() else "W climbs the ladder"
        # what the walk meets within a metre ahead (the gait's stop looks a step or two on)
        taken = crowd.taken_treads()  # (x0, x1) rows: the stairs a cup leaves no room on
        ahead = (np.where(facing > 0, taken[:, 0], taken[:, 1]) - x) * facing
        if ((ahead > 0.0) & (ahead <= 1.0)).any():
            return "no way on: the cup leaves no room on that stair (click it to pick it up)"
        lo, hi = terrain.x_range
        probe = np.clip(x + facing * np.linspace(0.0, 1.0, 21), lo, hi)
        heights = terrain.height_at(probe)
        here, step = float(heights[0]), crowd.rig.gait.max_step_height
        if float(heights.max()) - here > step:
            return "no way on: a wall ahead, too high to step up"
        if here - float(heights.min()) > step:
            return "no way on: a drop ahead, too deep to step down"
        return "no way on: the world ends here"

    def _near_ladder_foot(self) -> bool:
        """Within ``LADDER_NEAR_M`` of the ladder's foot spot, off the loft (W walks there)."""
        ladder = self.ladder
        near = ladder is not None and abs(ladder.spot_x - float(self.crowd.x[0])) <= LADDER_NEAR_M
        return near and not self.on_loft()

    def _hands_full(self) -> bool:
        """A hand holds the cup: he does not climb with it."""
        return self.props is not None and self.props.holding >= 0

    def on_loft(self) -> bool:
        """The hero stands on the loft by the ladder's top."""
        ladder = self.ladder
        if ladder is None or ladder.ladder.loft is None:
            return False
        loft = ladder.ladder.loft
        return float(self.crowd.x[0]) > float(loft[0]) and bool(
            abs(float(self.terrain.height_at(self.crowd.x[0])) - float(loft[1])) < 0.05
        )

    def _climb(self, inp: InputState, dt: float, timer: PhaseTimer) -> bool:
        """One step on the ladder (True), or False when the gait has this step."""
        ladder, crowd = self.ladder, self.crowd
        if ladder is None:
            return False
        if not ladder.active:
            ready = (
                inp.climb > 0.5
                and self._at_ladder_foot()
                and not bool(crowd.turning[0])  # a pivot to face the ladder has finished
                and bool(crowd.feet.planted[0].all())
                and abs(float(crowd.vx[0])) < 0.05
                and self.props is not None
                and self.props.holding < 0
            )
            from_loft = (
                inp.climb < -0.5
                and self._at_loft_top()
                and not bool(crowd.turning[0])
                and bool(crowd.feet.planted[0].all())
                and abs(float(crowd.vx[0])) < 0.05
                and self.props is not None
                and self.props.holding < 0
            )
            if ready:
                ladder.mount(
                    crowd.pose.targets[0, LEGS], crowd.solution.hand[0, ARMS], crowd.pose.pelvis[0]
                )
            elif from_loft:
                ladder.mount_from_loft(
                    crowd.pose.targets[0, LEGS], crowd.solution.hand[0, ARMS], crowd.pose.pelvis[0]
                )
            else:
                return False
        stepped_off = ladder.step(float(finite_clamp(inp.climb, -1.0, 1.0)), dt, inp.run)
        crowd.take_pose(0, ladder.pose(self.rig), ladder.pelvis)
        solution = crowd.solve(timer)
        self.counters.record(solution)
        self.meter.last = None  # the ladder is not the gait: measuring resumes off it
        if stepped_off:
            crowd.stand_at(0, ladder.ends[2:])  # beside the foot, or on the loft
        self._advance_plug_ins(dt)
        self.step_index += 1
        self.time = self.step_index * dt
        return True

    def _use_props(self, inp: InputState, move: float, dt: float) -> float:
        """Prop commands, the walk toward an out-of-reach goal, and the props' hands.

        Returns the walk input for this step (the player's ``move`` unless a goal walks).
        """
        props, crowd = self.props, self.crowd
        if props is None:
            return move
        if "reach_prop" in inp.actions:
            props.command("reach_prop", inp.values.get("prop"), self.terrain)
        if "put_down" in inp.actions:
            props.command("put_down", inp.values.get("place_x"), self.terrain)
        if abs(move) > 0.05:
            props.cancel()
        shoulders = crowd.pose.roots[0, ARMS]
        facing = float(crowd.facing[0])
        intent = props.walk_intent(shoulders, facing, self.rig, self.terrain, self.blocked_s)
        targets, weights = props.aim(
            crowd.intent.hand_weight[0],
            crowd.intent.hand_target[0],
            crowd.solution.hand[0, ARMS],
            shoulders,
            facing,
            self.rig,
            dt,
            self._soles_span,
            self.terrain,
        )
        crowd.aim_hands(0, targets, weights)
        return move if intent is None else intent

    def _use_plug_ins(self, inp: InputState, move: float, dt: float) -> float:
        """The prop plug-ins: a click on one (``reach_prop`` with its name) starts it and drops the hands'
        prop goal; walking keys cancel them; each one's intent this step (the walk input it
        asks for, a turn, a foot pin, props to step over). Returns the walk input for this
        step."""
        self._pin, self._keep_off = None, np.zeros((0, 3))
        if "reach_prop" in inp.actions:
            for plug_in in self.plug_ins:
                if plug_in.name == inp.values.get("prop"):
                    plug_in.use()
                    if self.props is not None:
                        self.props.cancel()
        if abs(move) > 0.05:
            for plug_in in self.plug_ins:
                plug_in.cancel()
        if not self.plug_ins:
            return move
        body = self._body()
        for plug_in in self.plug_ins:
            intent = plug_in.intent(body, self.terrain, dt)
            if intent.walk is not None:
                move = intent.walk
            if intent.foot >= 0 and intent.foot_target is not None:
                self._pin = (intent.foot, intent.foot_target)
            if intent.face:
                self.crowd.turn_to(0, intent.face)
            if intent.keep_off:
                self._keep_off = np.concatenate([self._keep_off, plug_in.footprint()])
        return move

    def _advance_plug_ins(self, dt: float) -> None:
        """Each prop plug-in's own motion over the step, against the hero as solved."""
        if self.plug_ins:
            body = self._body()
            for plug_in in self.plug_ins:
                plug_in.advance(body, self.terrain, dt)

    def _body(self) -> Body:
        """The hero as the prop plug-ins see him (as last solved)."""
        crowd = self.crowd
        sol = crowd.solution
        settled = (
            bool(crowd.feet.planted[0].all())
            and not bool(crowd.turning[0])
            and abs(float(crowd.vx[0])) < 0.05
        )
        return Body(
            x=float(crowd.x[0]),
            speed=float(crowd.vx[0]),
            facing=float(crowd.facing[0]),
            settled=settled,
            blocked=bool(crowd.blocked[0]),
            ankles=sol.hand[0, LEGS].copy(),
            knees=sol.elbow[0, LEGS].copy(),
            soles=crowd.pose.soles(sol.hand[:1, LEGS], self.rig)[0],
            rig=self.rig,
        )

    def plug_in_at(self, point: Any, radius: float) -> str | None:
        """The name of the prop plug-in a click at the world ``point`` is on, if any."""
        p = np.asarray(point, dtype=float)
        return next((plug_in.name for plug_in in self.plug_ins if plug_in.under(p, radius)), None)

    def _soles_span(self) -> tuple[float, float]:
        """The hero's soles' extent in x, heel to toe of both feet (as last solved)."""
        crowd = self.crowd
        soles = crowd.pose.soles(crowd.solution.hand[:1, LEGS], self.rig)[0, ..., 0]
        return float(soles.min()), float(soles.max())

    def _clamped_pointer(self, pointer: tuple[float, ...] | None) -> tuple[float, float] | None:
        """The pointer as a finite world point within ``POINTER_RANGE`` of the pelvis."""
        if pointer is None or len(pointer) < 2:
            return None
        x, y = float(pointer[0]), float(pointer[1])
        if not (math.isfinite(x) and math.isfinite(y)):
            return None
        px, py = float(self.crowd.x[0]), float(self.crowd.y[0])
        return (
            min(max(x, px - POINTER_RANGE), px + POINTER_RANGE),
            min(max(y, py - POINTER_RANGE), py + POINTER_RANGE),
        )

    def _update_drag(self, inp: InputState) -> None:
        """A press naming a foot grabs it; releasing the button gives it back to the gait,
        and the pointer is not offered to the hands until the mouse moves again (let go low
        behind him, it turned him round and bent him double to reach for it)."""
        if not inp.pointer_down or self.pointer is None:
            if self.drag_foot is not None:
                self.pointer_still_s = math.inf
            self.drag_foot = None
            return
        name = inp.values.get("drag_foot")
        if self.drag_foot is None and name in LEG_NAMES:
            self.drag_foot = LEG_NAMES.index(name)

    def foot_near(self, point: Any) -> str | None:
        """The leg whose ankle is within ``GRAB_RADIUS_M`` of the world ``point`` (the
        nearest), if any: a press there grabs that foot."""
        ankles = self.crowd.solution.hand[0, LEGS]
        distance = np.hypot(*(ankles - np.asarray(point, dtype=float)).T)
        nearest = int(np.argmin(distance))
        return LEG_NAMES[nearest] if distance[nearest] <= GRAB_RADIUS_M else None

    def _offer_pointer(self) -> tuple[float, float] | None:
        """The pointer as an intent, not a leash: offered to the hands while the button is
        held or for ``POINTER_LINGER_S`` after the mouse moved, with H on, no foot being
        dragged or under the pointer, the ground not being edited and no prop goal under
        way (a prop goal wins over the pointer)."""
        props = self.props
        busy = props is not None and (props.goal is not None or props.phase != "")
        busy |= any(plug_in.busy for plug_in in self.plug_ins)
        if (
            self.pointer is None
            or not self.hands_follow
            or self.drag_foot is not None
            or self.foot_near(self.pointer) is not None
            or self.editing.active
            or busy
            or self.pointer_still_s > POINTER_LINGER_S
        ):
            return None
        return self.pointer

    def _aim_hands(self, dt: float) -> None:
        """Hands not held by a prop reach for the offered pointer (both, or the one whose
        shoulder is nearer), blending in and out of the arm swing by their reach weight."""
        crowd = self.crowd
        self.offered = self._offer_pointer()
        free = np.ones(2, dtype=bool)
        if self.props is not None:
            free[list(self.props.engaged)] = False
        wanted = np.zeros(2)
        targets, weight = crowd.intent.hand_target[0].copy(), crowd.intent.hand_weight[0].copy()
        if self.offered is None:
            self.reaching[:] = False
        else:
            pointer = np.array(self.offered)
            shoulders = crowd.pose.roots[0, ARMS]
            if self.both_hands:
                self.reaching[:] = True
            else:
                # (of the hands a prop leaves free: B with the cup in the nearer hand, the
                # other would hang idle)
                distance = np.where(free, np.hypot(*(pointer - shoulders).T), np.inf)
                one = self.reaching.sum() == 1
                current = int(np.argmax(self.reaching)) if one else int(np.argmin(distance))
                if distance[1 - current] < distance[current] - HAND_SWITCH_MARGIN:
                    current = 1 - current
                self.reaching[:] = False
                self.reaching[current] = True
            self.reaching &= free
            # a hand that starts reaching from the swing sets off from where it is
            fresh = self.reaching & (weight < 1e-3)
            targets[fresh] = crowd.solution.hand[0, ARMS][fresh]
            chase = halflife_blend(dt, self.rig.arms.reach_halflife)
            # each hand chases the pointer as far round as its shoulder reaches
            wanted_at = within_shoulder_range(pointer, shoulders, crowd.facing[0])
            targets[self.reaching] += (wanted_at - targets)[self.reaching] * chase
            wanted[self.reaching] = 1.0
        # the weight moves at a constant rate so it arrives exactly (blend_hands eases it)
        change = clamp(wanted - weight, -dt / REACH_BLEND_S, dt / REACH_BLEND_S)
        crowd.aim_hands(0, targets, np.where(free, weight + change, weight))

    def _face_pointer(self, move: float, dt: float) -> None:
        """Standing, a body whose hands are offered the pointer behind it turns round to
        face it (a shoulder cannot reach straight back); the turn, once asked for, goes on
        until it faces that way. Walking, the walk's direction decides, and a walk the other
        way asks for the turn too: a tap of the other key turns him round (a 0.5 s tap
        stopped him facing the old way, the turn dropped with the key) once it is held
        ``TAP_MIN_S`` (both keys let go or pressed 30 ms apart turned him round)."""
        crowd = self.crowd
        goal, facing = float(crowd.intent.face_goal[0]), float(crowd.facing[0])
        against = abs(move) > 0.05 and math.copysign(1.0, move) != facing
        self.against_s = self.against_s + dt if against else 0.0
        if abs(move) > 0.05:
            goal = -facing if self.against_s >= TAP_MIN_S else 0.0
        if goal == facing:
            goal = 0.0
        ahead = self._pointer_ahead(move)
        if ahead is not None and ahead < -TURN_BEHIND_M:
            goal = -facing
        crowd.turn_to(0, goal)

    def _pointer_ahead(self, move: float) -> float | None:
        """How far the offered pointer is ahead of the shoulders (metres, negative behind)
        while the body is not asked to walk; None otherwise."""
        if self.offered is None or abs(move) > 0.05:
            return None
        crowd = self.crowd
        return (self.offered[0] - float(crowd.pose.roots[0, ARMS, 0].mean())) * crowd.facing[0]

    def _crouch(self, move: float) -> None:
        """Standing, the body crouches for what a hand wants below its standing reach: the
        cup on the floor or a spot there to set it down, or the pointer held low in front
        (as deep as that point needs); otherwise, and walking, it stands up."""
        crowd, props = self.crowd, self.props
        point = None
        if props is not None and props.phase in ("walk", "reach") and props.goal != "knob":
            # (not while a step to it is wanted: he stands up to take it; crouched for a spot
            # he still had to step back for, he would never stand up to step)
            if props.phase == "reach" or abs(move) <= 0.05:
                point = props.goal_point()
        elif (ahead := self._pointer_ahead(move)) is not None and -0.2 < ahead < 1.0:
            point = np.array(self.offered)
        crowd.crouch_to(0, 0.0 if point is None else self._crouch_depth(float(point[1])))

    def _crouch_depth(self, y: float) -> float:
        """How deep a crouch brings a hand down to height ``y``: none down to the standing
        arm's reach, full at ``FLOOR_HAND_M`` over the ground the feet stand on."""
        rig, feet = self.rig, self.crowd.feet
        ground = float(feet.lock[0, :, 1].mean()) - rig.legs.ankle_height
        standing = (
            rig.legs.ankle_height
            + rig.gait.stand_extension * rig.legs.limb.reach
            + rig.body.spine
            - REACH_FRACTION * rig.arms.limb.reach
        )  # the lowest a standing hand reaches easily, over the ground
        return float(clamp((standing - (y - ground)) / (standing - FLOOR_HAND_M), 0.0, 1.0))

    def _measure(self, was_planted: NDArray[np.bool_], running: bool) -> None:
        crowd = self.crowd
        pose, sol = crowd.pose, crowd.solution
        planted = crowd.feet.planted[0].copy()
        sample = GaitSample(
            time=self.time + self.dt,
            pelvis=pose.pelvis[0].copy(),
            hips=pose.roots[0, LEGS].copy(),
            knees=sol.elbow[0, LEGS].copy(),
            ankles=sol.hand[0, LEGS].copy(),
            elbows=sol.elbow[0, ARMS].copy(),
            hands=sol.hand[0, ARMS].copy(),
            soles=pose.soles(sol.hand[:, LEGS], self.rig)[0],
            planted=planted,
            landed=planted & ~was_planted,
            speed=abs(float(crowd.vx[0])),
            running=bool(running),
            turning=bool(crowd.turning[0]),
        )
        self.meter.record(sample, self.terrain, self.rig)

    # -- outputs -----------------------------------------------------------------------
    def trace_header(self) -> dict[str, Any]:
        return trace_header("walk", self.dt, self.terrain, self.rig)

    def trace_characters(self) -> list[dict[str, Any]]:
        return character_records(self.crowd, [self.offered])

    def trace_props(self) -> dict[str, list[float] | None] | None:
        """The moving props' centres this step (the trace's ``props``): each plug-in's, then
        the cup's; None without props."""
        if self.props is None:
            return None
        cup = self.props.cup + np.array([0.0, self.props.props.cup.height / 2])
        centres = {plug_in.name: point(plug_in.centre()) for plug_in in self.plug_ins}
        return {**centres, "cup": point(cup)}

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
        if self.props is None:
            return {}
        return {
            "props": {
                "reaches": self.props.reaches,
                "holding": self.props.holding,
                "cup": [round(float(v), 6) for v in self.props.cup],
            }
        }


def trace_header(scene: str, dt: float, terrain: Terrain, rig: Rig) -> dict[str, Any]:
    """A walking scene's trace header: its name, the step, the ground and each limb's bones."""
    arm, leg = rig.arms.limb, rig.legs.limb
    return {
        "scene": scene,
        "dt": dt,
        "terrain": terrain.to_json(),
        "limbs": {
            name: {"upper": limb.upper, "lower": limb.lower}
            for name, limb in zip(LIMBS, [arm, arm, leg, leg], strict=True)
        },
    }


def character_records(
    crowd: Crowd, pointers: list[tuple[float, float] | None] | None = None
) -> list[dict[str, Any]]:
    """Every character of ``crowd`` this step in trace format (``planted`` and the sole's
    ``foot`` points for legs).

    ``pointers`` are the pointers each character's hands were offered this step (None:
    idle or absent; no list: none for anyone)."""
    pose, sol, feet = crowd.pose, crowd.solution, crowd.feet
    count = crowd.count
    soles = pose.soles(sol.hand[:, LEGS], crowd.rig)
    records = []
    for index in range(count):
        limbs = {}
        for limb, name in enumerate(LIMBS):
            is_leg = limb >= LEGS.start
            limbs[name] = limb_record(
                pose.roots[index, limb],
                sol.elbow[index, limb],
                sol.hand[index, limb],
                pose.targets[index, limb],
                pose.poles[index, limb] if pose.pole_on[index, limb] else None,
                bool(feet.planted[index, limb - LEGS.start]) if is_leg else None,
                soles[index, limb - LEGS.start] if is_leg else None,
            )
        records.append(
            {
                "id": index,
                "pelvis": [round(float(v), 6) for v in pose.pelvis[index]],
                "facing": int(pose.facing[index]),
                "spin": round(float(pose.spin[index]), 6),
                "limbs": limbs,
                "pointer": point(pointers[index]) if pointers else None,
            }
        )
    return records
