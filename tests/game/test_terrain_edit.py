"""Terrain edits: every operation, undo/redo, refusals that keep the ground, atomic save."""

from __future__ import annotations

import json
import math
import os
from pathlib import Path

import numpy as np
import pytest

from game.outputs import OutputError
from game.scenes.ground_edit import save_terrain
from game.world.rig import load_rig
from game.world.terrain import Terrain, load_terrain
from game.world.terrain_edit import EditLimits, EditRefused, Footprint, TerrainEditor

ASSETS = Path(__file__).resolve().parents[2] / "assets"
FLAT = Terrain(np.array([[0.0, 0.0], [10.0, 0.0]]))
LIMITS = EditLimits(max_step_height=0.4, max_grade=math.radians(24), min_tread=0.23, step_reach=0.5)


def _editor(terrain: Terrain = FLAT, limits: EditLimits = LIMITS) -> TerrainEditor:
    return TerrainEditor(terrain, limits)


def test_limits_come_from_the_rig() -> None:
    rig = load_rig(ASSETS / "rig.json")
    limits = EditLimits.for_rig(rig)
    assert limits.max_step_height == rig.gait.max_step_height
    assert limits.max_grade == rig.legs.max_tilt
    assert limits.min_tread == pytest.approx(rig.legs.heel + rig.legs.toe)
    assert limits.step_reach == rig.gait.max_step_reach


def test_insert_then_move_then_delete_a_vertex() -> None:
    editor = _editor()
    editor.insert_vertex(5.0)
    assert editor.terrain.points.tolist() == [[0, 0], [5, 0], [10, 0]]
    editor.move_vertex(1, 5.0, 1.0)  # a 1 m hill over 5 m: 11°
    assert editor.terrain.height_at(5.0) == pytest.approx(1.0)
    editor.delete_vertex(1)
    assert editor.terrain.points.tolist() == [[0, 0], [10, 0]]


def test_the_ends_move_only_vertically_and_stay() -> None:
    editor = _editor()
    editor.move_vertex(0, -3.0, 0.5)
    assert editor.terrain.points[0].tolist() == [0.0, 0.5]
    with pytest.raises(EditRefused, match="end"):
        editor.delete_vertex(0)


@pytest.mark.parametrize(
    ("edit", "reason"),
    [
        (lambda e: e.move_vertex(1, 5.0, 3.0), "steeper"),  # 31° slope
        (lambda e: e.move_vertex(1, 12.0, 0.0), "order"),  # past its neighbour
        (lambda e: e.platform(3.0, 0.5, 1.0), "taller"),  # a 50 cm riser
        (lambda e: e.stairs(3.0, 0.15, 0.15, 3), "tread"),  # treads shorter than a foot
        (lambda e: e.ramp(3.0, 30.0, 2.0), "steeper"),
        (lambda e: e.move_vertex(1, 5.0, 1e9), "heights"),
        (lambda e: e.insert_vertex(5.0005), "already"),
    ],
)
def test_a_refused_edit_keeps_the_terrain(edit, reason: str) -> None:
    editor = _editor()
    editor.insert_vertex(5.0)
    before = editor.terrain
    with pytest.raises(EditRefused, match=reason):
        edit(editor)
    assert editor.terrain is before
    editor.undo()
    assert editor.terrain is FLAT  # the refused edit left no history either


def test_stairs_rise_and_come_back_down_with_risers_no_taller_than_asked() -> None:
    editor = _editor()
    editor.stairs(2.0, 0.2, 0.3, 4)
    terrain = editor.terrain
    assert terrain.ys.max() == pytest.approx(0.8)
    assert terrain.height_at(1.9) == 0.0 and terrain.height_at(9.0) == 0.0
    rises = np.abs(np.diff(terrain.ys))
    assert rises.max() == pytest.approx(0.2)
    assert (rises > 0.1).sum() == 8  # four up, four down


def test_stairs_on_a_slope_have_level_treads_and_leave_the_ground_beyond_them() -> None:
    slope = Terrain(np.array([[0.0, 0.0], [10.0, 1.0]]))  # 5.7°: it never rises to the top
    editor = _editor(slope)
    editor.stairs(2.0, 0.17, 0.3, 4)
    terrain = editor.terrain
    base = 0.2  # the ground at the first riser
    for tread in range(4):  # each tread level, a rise above the one below
        x = 2.0 + 0.3 * tread + np.array([0.02, 0.28])
        np.testing.assert_allclose(terrain.height_at(x), base + 0.17 * (tread + 1))
    # a landing at the top, then steps back down to the slope, which is left as it was
    assert terrain.height_at(3.2) == pytest.approx(base + 0.68)
    beyond = np.linspace(5.5, 10.0, 20)
    np.testing.assert_allclose(terrain.height_at(beyond), slope.height_at(beyond))


def test_stairs_up_a_slope_land_where_the_slope_reaches_their_level() -> None:
    hill = Terrain(np.array([[0.0, 0.0], [1.0, 0.0], [6.0, 2.0], [10.0, 2.0]]))  # 21.8°
    editor = _editor(hill)
    editor.stairs(1.0, 0.17, 0.3, 4)
    terrain = editor.terrain
    top = 0.68  # the slope reaches it at x = 2.7: the landing runs to there, no flight down
    assert terrain.height_at(2.6) == pytest.approx(top)
    beyond = np.linspace(2.7, 10.0, 30)
    np.testing.assert_allclose(terrain.height_at(beyond), hill.height_at(beyond), atol=1e-12)
    assert (np.diff(terrain.ys) > -1e-12).all()  # no step down anywhere: no sawtooth


def test_ramp_bump_and_platform_shapes() -> None:
    editor = _editor()
    editor.ramp(1.0, 20.0, 1.5)
    assert editor.terrain.height_at(2.5) == pytest.approx(1.5 * math.tan(math.radians(20)))
    editor.bump(6.0, 0.1, 1.0)
    assert editor.terrain.height_at(6.5) == pytest.approx(0.1)
    editor.platform(8.0, 0.3, 1.5)
    assert editor.terrain.height_at(8.75) == pytest.approx(0.3)
    assert editor.terrain.height_at(9.8) == 0.0


def test_undo_and_redo_walk_the_history() -> None:
    editor = _editor()
    editor.insert_vertex(5.0)
    editor.move_vertex(1, 5.0, 0.5)
    moved = editor.terrain
    assert editor.undo() and editor.terrain.height_at(5.0) == 0.0
    assert editor.undo() and editor.terrain is FLAT
    assert not editor.undo()
    assert editor.redo() and editor.redo() and editor.terrain is moved
    assert not editor.redo()
    editor.undo()
    editor.bump(2.0, 0.05, 1.0)  # a new edit clears what could be redone
    assert not editor.redo()


def test_the_course_walls_stay_legal_but_new_walls_are_refused() -> None:
    course = load_terrain(ASSETS / "terrain.json")
    editor = _editor(course)
    editor.bump(4.0, 0.05, 1.0)  # far from the 1.1 m wall at the start: fine
    with pytest.raises(EditRefused, match="taller"):
        editor.move_vertex(0, -3.0, 1.4)  # the wall's top is a new, taller riser


def test_a_prop_footprint_refuses_an_edit_that_would_float_it() -> None:
    table = Footprint("table", 4.0, 5.0, 0.0)
    limits = EditLimits(0.4, math.radians(24), 0.23, 0.5, footprints=(table,))
    editor = _editor(limits=limits)
    with pytest.raises(EditRefused, match="the table stands on x 4.00 to 5.00") as refused:
        editor.bump(3.5, 0.1, 1.0)
    assert refused.value.span == (4.0, 5.0)  # where it fails: the table's footprint
    editor.bump(6.0, 0.1, 1.0)  # beside it: fine


def test_save_is_atomic_keeps_a_backup_and_the_other_keys(tmp_path: Path) -> None:
    path = tmp_path / "terrain.json"
    original = {"name": "mine", "points": [[0, 0], [10, 0]], "landmarks": []}
    path.write_text(json.dumps(original))
    editor = _editor(load_terrain(path))
    editor.bump(2.0, 0.1, 1.0)
    save_terrain(editor.terrain, path)
    assert json.loads((tmp_path / "terrain.json.bak").read_text()) == original
    saved = json.loads(path.read_text())
    assert saved["name"] == "mine" and len(saved["points"]) == len(editor.terrain.points)
    assert load_terrain(path).height_at(2.5) == pytest.approx(0.1)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["terrain.json", "terrain.json.bak"]


def test_a_failure_mid_write_leaves_the_old_file(tmp_path: Path, monkeypatch) -> None:
    path = tmp_path / "terrain.json"
    path.write_text(json.dumps({"points": [[0, 0], [10, 0]]}))
    before = path.read_bytes()
    editor = _editor(load_terrain(path))
    editor.bump(2.0, 0.1, 1.0)

    def broken_fsync(fd: int) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "fsync", broken_fsync)
    with pytest.raises(OutputError, match="No space left"):
        save_terrain(editor.terrain, path)
    assert path.read_bytes() == before
    assert not [p for p in tmp_path.iterdir() if p.suffix == ".tmp"]


def test_save_writes_through_a_symlink(tmp_path: Path) -> None:
    real = tmp_path / "real.json"
    real.write_text(json.dumps({"points": [[0, 0], [10, 0]]}))
    link = tmp_path / "terrain.json"
    link.symlink_to(real)
    editor = _editor(load_terrain(link))
    editor.bump(2.0, 0.1, 1.0)
    save_terrain(editor.terrain, link)
    assert link.is_symlink()
    assert load_terrain(real).height_at(2.5) == pytest.approx(0.1)


def before_slope(sim, x: float) -> float:
    """The course's own height at ``x`` (the gentle slope under an edit)."""
    return float(load_terrain(ASSETS / "terrain.json").height_at(x))


# -- the walk scene's edit mode ---------------------------------------------------------


def _walk(sim, steps: int, inp=None) -> None:
    from game.input_state import InputState
    from game.profiling import PhaseTimer

    timer = PhaseTimer()
    for _ in range(steps):
        sim.step(inp or InputState(), 1.0 / 60.0, timer)


def _edit(sim, **values) -> None:
    from game.input_state import InputState
    from game.profiling import PhaseTimer

    sim.step(InputState(actions=("terrain_edit",), values=values), 1.0 / 60.0, PhaseTimer())


def test_a_planted_foot_replants_when_the_ground_under_it_is_dragged() -> None:
    from game.scene import SceneConfig
    from game.scenes.walk import WalkSim

    sim = WalkSim(SceneConfig())
    _walk(sim, 30)
    assert sim.crowd.feet.planted[0].all()
    foot_x = float(sim.crowd.feet.lock[0, 1, 0])
    for x in (foot_x - 0.5, foot_x + 0.5, foot_x):  # a local hill: the door's ground stays
        _edit(sim, op="insert", x=x)
    vertex = int(np.argmin(np.abs(sim.terrain.xs - foot_x)))
    for lift in (0.03, 0.06, 0.09):  # one drag, three moves
        _edit(sim, op="move", vertex=vertex, x=foot_x, y=lift, drag=1)
    assert sim.terrain.height_at(foot_x) == pytest.approx(0.09)
    _walk(sim, 90)
    feet = sim.crowd.feet
    assert feet.planted[0].all()
    # each sole rests on the new ground: on the hill's top, not sunk into its sides
    from game.world.feet import rest_on_ground

    facing = np.full(2, float(sim.crowd.facing[0]))
    rest = rest_on_ground(sim.terrain, feet.lock[0, :, 0], feet.angle[0], facing, sim.rig.legs)
    np.testing.assert_allclose(feet.lock[0, :, 1], rest, atol=1e-9)
    assert (feet.lock[0, :, 1] >= sim.terrain.height_at(feet.lock[0, :, 0]) + 0.07 - 1e-9).all()
    assert sim.editing.editor.undo() and sim.editing.terrain.height_at(foot_x) == 0.0
    for _ in range(3):  # the drag was one step; then the three inserts
        assert sim.editing.editor.undo()
    assert not sim.editing.editor.undo()


def test_a_dragged_riser_corner_slides_along_its_neighbours_instead_of_being_refused() -> None:
    from game.scene import SceneConfig
    from game.scenes.walk import WalkSim

    sim = WalkSim(SceneConfig())
    _edit(sim, op="stairs", x=5.0, rise=0.1, tread=0.4, count=2)
    xs, ys = sim.terrain.xs, sim.terrain.ys
    top = int(np.argmax((xs > 5.0) & (ys > 0.05)))  # the first riser's top corner
    assert xs[top] - xs[top - 1] == pytest.approx(0.01)  # 1 cm right of its foot
    # dragged straight up, with a pixel (1 cm) of sideways jitter toward its foot
    raised = float(ys[top]) + 0.04
    _edit(sim, op="move", vertex=top, x=float(xs[top]) - 0.01, y=raised, drag=7)
    assert "moved" in sim.editing.message
    assert sim.terrain.ys[top] == pytest.approx(raised)
    assert xs[top - 1] < sim.terrain.xs[top] <= xs[top]  # still right of its foot
    # typed (not dragged), a move past a neighbour is still refused, with the reason
    _edit(sim, op="move", vertex=top, x=float(xs[top]) - 0.5, y=raised)
    assert "order" in sim.editing.message


def test_a_refused_edit_says_why_and_keeps_the_ground() -> None:
    from game.scene import SceneConfig
    from game.scenes.walk import WalkSim

    sim = WalkSim(SceneConfig())
    before = sim.terrain
    _edit(sim, op="platform", x=5.0, height=0.8, width=1.0)
    assert sim.terrain is before and "taller" in sim.editing.message
    _edit(sim, op="bump", x=2.0, height=0.05, width=1.0)  # under the table
    assert sim.terrain is before and "the table" in sim.editing.message
    _edit(sim, op="bump", x="nine", height=0.05, width=1.0)
    assert sim.terrain is before and "x" in sim.editing.message


def test_stairs_the_gait_would_stop_at_are_refused_with_the_reason() -> None:
    from game.scene import SceneConfig
    from game.scenes.walk import WalkSim

    sim = WalkSim(SceneConfig())
    before = sim.terrain
    # 20 cm risers every 30 cm: two of them within one step's reach (50 cm) are 40 cm and
    # the gentle slope adds the rest; each riser alone would pass
    _edit(sim, op="stairs", x=3.3, rise=0.2, tread=0.3, count=4)
    assert sim.terrain is before
    assert "within one step" in sim.editing.message
    window = sim.rig.gait.max_step_reach
    xs = np.linspace(*before.x_range, 4000)
    # the course itself already has walls (its ends, the loft): the rule is for new ground
    assert before.rise_over(xs, window).max() > sim.rig.gait.max_step_height


def test_steep_stairs_the_editor_accepts_are_walked_turned_on_and_stood_on() -> None:
    """The editor's rule is the gait's: 30 cm risers 50 cm apart are accepted, and the
    walker climbs them, turns around on the way down (the pivot spot is over a stair nose),
    stands on them without stepping in place, and walks back over them."""
    from game.input_state import InputState
    from game.scene import SceneConfig
    from game.scenes.walk import WalkSim

    sim = WalkSim(SceneConfig())
    _edit(sim, op="stairs", x=3.3, rise=0.3, tread=0.5, count=4)
    assert sim.terrain.height_at(5.0) == pytest.approx(1.2 + before_slope(sim, 3.3), abs=0.01)
    crowd = sim.crowd

    def walk_to(goal: float) -> None:
        move = 1.0 if goal > crowd.x[0] else -1.0
        for _ in range(900):
            _walk(sim, 1, InputState(move=move))
            if (crowd.x[0] - goal) * move > 0:
                return
        raise AssertionError(f"stalled at x = {crowd.x[0]:.2f} on the way to {goal}")

    walk_to(6.3)  # over the top, onto the flight down
    walk_to(5.6)  # turn around on the stairs
    _walk(sim, 240)  # stand on the landing
    steps = int(crowd.feet.steps[0])
    _walk(sim, 120)
    assert int(crowd.feet.steps[0]) == steps  # settled: no stepping in place
    walk_to(2.5)  # and back down the way it came up


def test_the_crowd_scene_stands_on_the_edited_ground() -> None:
    from game.scene import SceneConfig
    from game.scenes.crowd import CrowdSim
    from game.scenes.walk import WalkSim

    config = SceneConfig(characters=3)
    sim = WalkSim(config)
    _edit(sim, op="bump", x=5.0, height=0.1, width=1.0)
    assert CrowdSim(config).terrain is sim.terrain
    assert WalkSim(config).terrain is sim.terrain
    sim.reload_assets()  # F5: the files again
    course = load_terrain(ASSETS / "terrain.json")
    assert CrowdSim(config).terrain.height_at(5.5) == pytest.approx(course.height_at(5.5))
    assert "edited_terrain" not in config.extra


def test_the_trace_gets_the_terrain_on_the_step_it_changed(run_main_here, tmp_path: Path) -> None:
    from game.input_state import InputState
    from game.recording import Recorder

    recording = tmp_path / "edits.rec"
    recorder = Recorder(recording)
    recorder.scene("walk", 0, 60)
    for index in range(20):
        values = {"op": "bump", "x": 5.0, "height": 0.1, "width": 1.0} if index == 9 else {}
        actions = ("terrain_edit",) if values else ()
        recorder.step(InputState(actions=actions, values=values))
    recorder.close()
    trace = tmp_path / "t.jsonl"
    result = run_main_here(["--headless", "--replay", str(recording), "--trace", str(trace)])
    assert result.returncode == 0, result.stdout + result.stderr
    lines = [json.loads(line) for line in trace.read_text().splitlines()[1:]]
    changed = [line["step"] for line in lines if "terrain" in line]
    assert changed == [10]
    edited = Terrain(np.array(lines[9]["terrain"]))
    course = load_terrain(ASSETS / "terrain.json")
    assert edited.height_at(5.5) == pytest.approx(course.height_at(5.5) + 0.1, abs=1e-6)


def test_the_scripted_edit_tour_keeps_the_feet_on_the_edited_ground() -> None:
    from game.profiling import PhaseTimer
    from game.scene import SceneConfig
    from game.scenes.edit_tour import RAISE_M, STAIRS, EditTour
    from game.scenes.walk import WalkSim
    from game.scenes.walk_autopilot import walk_autopilot

    config = SceneConfig(extra={"tour": "edit"})
    sim = WalkSim(config)
    pilot = walk_autopilot(sim, config)
    assert isinstance(pilot, EditTour)
    timer = PhaseTimer()
    raised_feet_checked = False
    for _ in range(4500):  # the walker brakes, squares up and pivots to turn around
        sim.step(pilot.next_input(sim), 1.0 / 60.0, timer)
        if pilot.stage == 10 and pilot.wait == PAUSE_CHECK and not raised_feet_checked:
            feet = sim.crowd.feet
            assert feet.planted[0].all()
            # each sole rests on the edited ground (the whole sole, see rest_on_ground)
            from game.world.feet import rest_on_ground

            facing = np.full(2, float(sim.crowd.facing[0]))
            x, angle = feet.lock[0, :, 0], feet.angle[0]
            rest = rest_on_ground(sim.terrain, x, angle, facing, sim.rig.legs)
            np.testing.assert_allclose(feet.lock[0, :, 1], rest, atol=1e-9)
            ground = sim.terrain.height_at(x) + sim.rig.legs.ankle_height
            assert (ground > pilot.base + sim.rig.legs.ankle_height + 0.2 * RAISE_M).all()
            raised_feet_checked = True
        if pilot.done:
            break
    assert pilot.done and raised_feet_checked
    course = load_terrain(ASSETS / "terrain.json")
    first_tread = STAIRS["x"] + 0.5 * STAIRS["tread"]
    rise = sim.terrain.height_at(first_tread) - course.height_at(STAIRS["x"])  # level treads
    assert rise == pytest.approx(STAIRS["rise"])  # the staircase stands
    feet = sim.stats_sections()["feet"]
    # the feet's bounds hold on edited ground: no sole point or segment inside it, pivots still
    assert feet["max_sole_penetration_m"] <= 0.005
    assert feet["max_planted_slide_m"] <= 0.0005
    assert feet["max_ground_error_m"] <= 0.005  # and on the ground, not hovering over a tread
    assert feet["knee_flips"] == 0


PAUSE_CHECK = 60  # steps after the raise: both feet have re-planted
