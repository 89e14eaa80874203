"""The child rig (``assets/child``): the hero's body at 0.6 scale on the hero's course,
playable as ``--assets assets/child`` in every scene, walking stairs and the 3-D ground with
its soles on the ground."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import numpy as np
import pytest

from game.input_state import InputState
from game.profiling import PhaseTimer
from game.scene import SceneConfig
from game.scenes.walk import WalkSim
from game.scenes.walk3d import START_XZ
from game.world.feet import sole_penetration
from game.world.heightfield import load_heightfield
from game.world.rig import load_rig
from game.world.walk3d import Walker3D

ASSETS = Path(__file__).resolve().parents[2] / "assets"
CHILD = ASSETS / "child"
SCALE = 0.6  # the child's legs and arms, of the hero's
DT = 1.0 / 60.0
LEGS = ("left_leg", "right_leg")
SOLE_POINTS = ("heel", "ball", "toe")
RISER_M = 0.16  # as a house's stairs
TREAD_M = 0.34
GROUND_LIMIT_M = 0.005  # a sole may dip this far into the ground (the walk's feel target)


@pytest.mark.parametrize("name", ["terrain.json", "props.json", "heightfield.json"])
def test_child_folder_holds_the_heros_course_unchanged(name: str) -> None:
    # the folder must be complete for --assets, so it carries copies; they may not drift
    assert (CHILD / name).read_bytes() == (ASSETS / name).read_bytes()


def test_child_limbs_are_the_heros_scaled_and_its_tuning_lengths_follow() -> None:
    hero, child = load_rig(ASSETS / "rig.json"), load_rig(CHILD / "rig.json")
    assert child.legs.limb.reach == pytest.approx(SCALE * hero.legs.limb.reach)
    assert child.arms.limb.reach == pytest.approx(SCALE * hero.arms.limb.reach)
    assert child.tuning.keep_off == pytest.approx(SCALE * hero.tuning.keep_off)
    assert child.tuning.left_behind == pytest.approx(SCALE * hero.tuning.left_behind)
    # a step up a flight rises two risers from where the foot lifted off (a tread past the
    # other foot); a child allowed less steps to every tread with both feet
    assert child.gait.max_step_height > 2 * RISER_M


def _stairs_folder(folder: Path) -> Path:
    """The child's rig on flat ground, three risers up to a landing and three down."""
    points = [[-3.0, 1.0], [-2.99, 0.0]]  # a wall behind the start, then flat ground
    x, y = 1.5, 0.0
    flights = [(RISER_M, TREAD_M)] * 2 + [(RISER_M, 1.0)] + [(-RISER_M, TREAD_M)] * 3
    for rise, tread in flights:
        points += [[x, y], [x + 0.01, y + rise]]  # a riser 1 cm wide, then its tread
        x, y = x + 0.01 + tread, y + rise
    points.append([12.0, y])
    (folder / "terrain.json").write_text(json.dumps({"name": "stairs", "points": points}))
    shutil.copy(CHILD / "rig.json", folder / "rig.json")
    return folder


def test_child_walks_over_stairs_with_its_soles_never_in_the_ground(tmp_path: Path) -> None:
    sim = WalkSim(SceneConfig(dt=DT, assets_dir=_stairs_folder(tmp_path)))
    timer = PhaseTimer()
    feet, heights = [], []
    for _ in range(540):
        sim.step(InputState(move=1.0), DT, timer)
        row = sim.trace_characters()[0]
        feet.append([[row["limbs"][leg]["foot"][k] for k in SOLE_POINTS] for leg in LEGS])
        heights.append(row["pelvis"][1])
    assert float(sim.crowd.x[0]) > 6.0  # over both flights and onto the flat beyond
    assert max(heights) > 3 * RISER_M  # up on the landing
    depth = sole_penetration(sim.terrain, np.array(feet))
    assert depth.max() <= GROUND_LIMIT_M


def _climb_to_the_loft_and_back(sim: WalkSim, fast: bool) -> list[tuple[np.ndarray, np.ndarray]]:
    """From standing before the ladder: W until he stands on the loft, then S until he is
    back on the ground. Each step on the ladder: the limbs' rungs (4,) and the solver's
    shortfall (4,)."""
    ladder, timer = sim.ladder, PhaseTimer()
    assert ladder is not None
    sim.crowd.stand_anew([ladder.spot_x - 0.6], [1.0])
    steps: list[tuple[np.ndarray, np.ndarray]] = []
    for climb, limit_s in ((1.0, 30.0), (-1.0, 40.0)):
        climbed = False
        for _ in range(round(limit_s / DT)):
            sim.step(InputState(climb=climb, run=fast), DT, timer)
            if ladder.active:
                climbed = True
                steps.append((ladder.rung.copy(), sim.crowd.solution.shortfall[0].copy()))
            elif climbed:
                break
        for _ in range(30):
            sim.step(InputState(), DT, timer)
    return steps


@pytest.mark.parametrize("fast", [False, True])
def test_child_climbs_to_the_loft_and_back_with_every_hand_and_foot_on_its_rung(
    fast: bool,
) -> None:
    # the climb's lengths (hips off the rails, hands over the feet, the step onto the loft)
    # are proportions of the leg: a short body's limbs still reach the ladder's rungs
    sim = WalkSim(SceneConfig(dt=DT, assets_dir=CHILD))
    ladder = sim.ladder
    assert ladder is not None and ladder.ladder.loft is not None
    steps = _climb_to_the_loft_and_back(sim, fast)
    rungs = np.array([rung for rung, _ in steps])
    shortfall = np.array([short for _, short in steps])
    assert rungs[:, 2:].max() == ladder.ladder.loft_rung  # up to the loft's rung ...
    assert not ladder.active and float(sim.crowd.x[0]) < ladder.ladder.x  # ... and down
    on_rung = rungs >= 0
    assert on_rung[:, 2:].any(axis=1).sum() > 300
    assert shortfall[on_rung].max() <= 0.002  # every limb on a rung reaches it (1 mm)


def test_child_walks_the_3d_ground_with_its_soles_on_it_and_its_knees_on_their_poles() -> None:
    field = load_heightfield(CHILD / "heightfield.json")
    walker = Walker3D(load_rig(CHILD / "rig.json"), field, START_XZ, 0.0)
    soles = []
    for wish in ((1.0, 0.0), (0.0, 1.0), (-1.0, 0.0)):  # along the loop, a turn, back
        for _ in range(150):
            walker.step(wish, False, DT)
            soles.append(walker.pose.soles)
    points = np.array(soles)
    assert np.isfinite(points).all()
    clearance = points[..., 1] - field.height_at(points[..., 0], points[..., 2])
    assert clearance.min() > -GROUND_LIMIT_M
    assert walker.knee_flips == 0
    assert np.ptp(points[:, 0, 0]) > 1.0  # it walked, not stood
