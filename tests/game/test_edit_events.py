"""Edits are events the walkers handle at any moment: the ground moves under a walker,
runner, one turning round, one crouching and one standing still while it pivots, and each
re-plants (or steps again) and carries on: no sole in the ground, no planted foot sliding,
no pelvis flung."""

from __future__ import annotations

from pathlib import Path

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from game.world.character import Crowd
from game.world.rig import load_rig
from game.world.terrain import Terrain
from game.world.terrain_edit import EditLimits, EditRefused, TerrainEditor

RIG = load_rig(Path(__file__).resolve().parents[2] / "assets" / "rig.json")
LIMITS = EditLimits.for_rig(RIG)
DT = 1.0 / 60.0
SOLE_DEPTH_M = 0.005  # the deepest a sole may be under the ground in force
PLANTED_SLIDE_M = 0.0005  # the rule for a planted pivot
TOP_SPEED = RIG.gait.run_speed + 0.5  # m/s: faster than this the pelvis is flung, not walked
# a small course of the test's own: level, a gentle hump, level
GROUND = Terrain(np.array([[-9.0, 0.0], [-3.0, 0.0], [-1.0, 0.12], [1.5, 0.0], [9.0, 0.0]]))

# the cast: (start x, facing); what each does is in _inputs
START_X = np.array([-4.5, -2.5, 0.5, 2.5, 4.5])
START_FACING = np.array([1.0, 1.0, -1.0, 1.0, 1.0])
WALKER, RUNNER, TURNER, CROUCHER, SPINNER = range(5)


def _apply(editor: TerrainEditor, op: int, x: float, a: float, b: float) -> None:
    """One of the editor's own operations at ``x`` with two arguments in [0, 1]; a refused
    edit leaves the ground (the editor's validation decides what is legal)."""
    try:
        if op == 0:
            editor.bump(x, 0.3 * a - 0.15, 0.3 + 1.7 * b)
        elif op == 1:
            editor.ramp(x, 48.0 * a - 24.0, 0.5 + 2.0 * b)
        elif op == 2:
            editor.stairs(x, 0.6 * a - 0.3, 0.23 + 0.4 * b, 1 + int(3 * b))
        elif op == 3:
            editor.platform(x, 0.6 * a - 0.3, 0.3 + 1.7 * b)
        elif op == 4:
            vertex = int(np.argmin(np.abs(editor.terrain.xs - x)))
            y = float(editor.terrain.ys[vertex]) + 0.4 * a - 0.2
            editor.move_vertex(vertex, float(editor.terrain.xs[vertex]), y)
        elif op == 5:
            editor.insert_vertex(x)
        elif op == 6:
            editor.delete_vertex(int(np.argmin(np.abs(editor.terrain.xs - x))))
        else:
            editor.undo()
    except EditRefused:
        pass


def _inputs(crowd: Crowd, step: int, turn_at: int) -> tuple[np.ndarray, np.ndarray]:
    """This step's walk and run inputs: the walker and runner go back and forth (turning
    round at the course's sides), the turner walks and turns round at ``turn_at``, the
    croucher crouches, the spinner stands and turns round in place at ``turn_at``."""
    x = crowd.x
    move = np.where(x > 6.0, -1.0, np.where(x < -6.0, 1.0, crowd.state.wanted))
    move[[WALKER, RUNNER]] = np.where(move[[WALKER, RUNNER]] == 0.0, 1.0, move[[WALKER, RUNNER]])
    move[TURNER] = -1.0 if step < turn_at else 1.0
    move[[CROUCHER, SPINNER]] = 0.0
    if step == 0:
        crowd.crouch_to(CROUCHER, 1.0)
    if step == turn_at:
        crowd.turn_to(SPINNER, -1.0)
    run = np.zeros(len(x))
    run[RUNNER] = 1.0
    return move, run


def _session(edits: list[tuple[int, int, float, float, float]], turn_at: int, steps: int, footing):
    """The cast walking ``steps`` steps while ``edits`` (step, op, x, a, b) are made; the
    meter of their feet and pelvises."""
    crowd = Crowd(RIG, GROUND, START_X, START_FACING)
    editor = TerrainEditor(GROUND, LIMITS)
    meter = footing(crowd, DT)
    for step in range(steps):
        old = editor.terrain
        for _, op, x, a, b in (edit for edit in edits if edit[0] == step):
            _apply(editor, op, x, a, b)
        if editor.terrain is not old:
            crowd.set_terrain(editor.terrain)
        move, run = _inputs(crowd, step, turn_at)
        crowd.step(move, run, DT)
        crowd.solve()
        meter.record(old if editor.terrain is not old else None)
    return meter


STEPS = 120
edit = st.tuples(
    st.integers(1, STEPS - 1),
    st.integers(0, 7),
    st.floats(-6.0, 6.0),
    st.floats(0.0, 1.0),
    st.floats(0.0, 1.0),
)


@settings(max_examples=5, derandomize=True)
@given(edits=st.lists(edit, min_size=1, max_size=6), turn_at=st.integers(20, 120))
def test_any_legal_edit_at_any_step_leaves_every_walker_on_its_feet(
    edits: list[tuple[int, int, float, float, float]], turn_at: int, footing
) -> None:
    """Budget: 5 examples of 120 steps for 5 walkers, each with up to 6 edits the editor
    accepts (bumps, ramps, stairs, platforms, vertex moves, inserts, deletes, undo) at
    drawn steps and places: walking, running, braking and pivoting to turn round,
    crouching, turning in place. Every sole stays within 5 mm of the ground in force,
    every planted pivot within 0.5 mm (an edit that moves the ground under a foot ends
    that planted interval), every pelvis under the run speed + 0.5 m/s."""
    meter = _session(edits, turn_at, STEPS, footing)
    assert meter.depth.max() <= SOLE_DEPTH_M
    assert meter.slide.max() <= PLANTED_SLIDE_M
    assert meter.speed.max() <= TOP_SPEED


def test_an_edit_under_the_feet_while_turning_round_lets_the_turn_finish(footing) -> None:
    """The ground under walkers turning round rises, falls back and rises again (a bump,
    undone, redone), each walker caught at another moment: braking, squaring up, early or
    late in the pivot. The feet re-plant on it and the pivot goes on (or ends from where
    the feet are and they step), then each walks off the other way: no sole in the bump,
    no planted slide, no pelvis thrown."""
    turn_at = 50 + np.arange(30)  # each walker turns round a step after the one before
    count = len(turn_at)
    crowd = Crowd(RIG, GROUND, np.full(count, -5.0), np.ones(count))
    meter = footing(crowd, DT)
    editor = TerrainEditor(GROUND, LIMITS)
    edits = {95: lambda: editor.bump(-4.5, 0.12, 3.0), 107: editor.undo, 118: editor.redo}
    for step in range(260):
        old = editor.terrain
        if step in edits:
            edits[step]()
            crowd.set_terrain(editor.terrain)
        crowd.step(np.where(step < turn_at, 1.0, -1.0), np.zeros(count), DT)
        crowd.solve()
        meter.record(old if editor.terrain is not old else None)
    assert (crowd.facing == -1.0).all()
    assert (crowd.vx < -0.5).all()  # walking the other way
    assert meter.depth.max() <= SOLE_DEPTH_M
    assert meter.slide.max() <= PLANTED_SLIDE_M
    assert meter.speed.max() <= TOP_SPEED


def test_a_long_session_of_random_edits_keeps_the_walker_on_his_feet(footing) -> None:
    """700 steps of one walker walking, running, stopping, crouching and turning round at
    random while the ground is edited at random (every twentieth step on average, the
    editor's own operations around him): no sole in the ground, no planted slide, no
    pelvis flung."""
    rng = np.random.default_rng(1)
    crowd = Crowd(RIG, GROUND, [0.0], [1.0])
    editor = TerrainEditor(GROUND, LIMITS)
    meter = footing(crowd, DT)
    move, run = 1.0, 0.0
    for _ in range(700):
        if rng.random() < 0.02:
            move = float(rng.choice([-1.0, 0.0, 1.0]))
        if rng.random() < 0.02:
            run = float(rng.random() < 0.4)
        if abs(crowd.x[0]) > 6.0:
            move = -float(np.sign(crowd.x[0]))
        if rng.random() < 0.01:
            crowd.crouch_to(0, float(rng.random()))
        old = editor.terrain
        if rng.random() < 0.05:
            x = float(crowd.x[0]) + rng.uniform(-1.5, 1.5)
            _apply(editor, int(rng.integers(8)), x, rng.random(), rng.random())
        if editor.terrain is not old:
            crowd.set_terrain(editor.terrain)
        crowd.step([move], [run], DT)
        crowd.solve()
        meter.record(old if editor.terrain is not old else None)
    assert meter.depth.max() <= SOLE_DEPTH_M
    assert meter.slide.max() <= PLANTED_SLIDE_M
    assert meter.speed.max() <= TOP_SPEED
