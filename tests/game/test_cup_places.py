"""Where the carried cup may be set down, clicked through the walk view's input layer (keys
and clicks as the window sends them): upright on level enough ground or the table top; a
place it cannot be set is refused, and why is said at the place."""

from __future__ import annotations

import copy
import math

import numpy as np
import pytest

from game.input_state import RawInput
from game.profiling import PhaseTimer
from game.scene import SceneConfig
from game.scenes.walk import WalkSim
from game.scenes.walk_view import WalkView
from game.world.props import CupProp
from game.world.props.cup import CUP_MAX_SLOPE

DT = 1.0 / 60.0
LOFT_WALL_X = 34.2712  # the shipped course's loft: its wall's foot, its top 1.8 m up


def _holding_the_cup_at(x: float) -> tuple[WalkView, CupProp]:
    """The walk view with the hero standing at ``x`` facing right, the cup in his hand."""
    sim = WalkSim(SceneConfig(dt=DT))
    sim.crowd.stand_anew([x], [1.0])
    cup = sim.prop("cup")
    assert isinstance(cup, CupProp) and sim.props is not None
    sim.props.holding, sim.props.carried = 1, cup
    view = WalkView(sim)
    view.layout((1280, 720))
    return view, cup


def _play(view: WalkView, raws: list[RawInput]) -> None:
    timer = PhaseTimer()
    for raw in raws:
        view.sim.step(view.map_input(raw), DT, timer)


def _click(view: WalkView, point: tuple[float, float]) -> RawInput:
    view.camera.center_w = point  # on screen, as the player sees it
    px = view.camera.point_to_screen(*point)
    return RawInput(pointer_px=px, pointer_inside=True, clicks=[(1, px)])


def _set_down(view: WalkView, point: tuple[float, float], seconds: float = 6.0) -> None:
    """A click at the world ``point``, then hands off for ``seconds``."""
    _play(view, [_click(view, point)] + [RawInput()] * int(seconds / DT))


@pytest.fixture(scope="session")
def _at_the_loft_wall_once() -> tuple[WalkView, CupProp]:
    view, cup = _holding_the_cup_at(31.5)
    _play(view, [RawInput(keys_down=frozenset({"d"}))] * int(3.0 / DT))  # to the loft's wall
    return view, cup


@pytest.fixture
def at_the_loft_wall(
    _at_the_loft_wall_once: tuple[WalkView, CupProp],
) -> tuple[WalkView, CupProp]:
    """``view, cup``: the hero holding the cup walked (D held 3 s) from under the ladder to
    the loft's wall; a copy of one walked there once a session, which steps on exactly as
    one walked there afresh (a copied walk scene does: test_arms.py's shared lifted cup)."""
    return copy.deepcopy(_at_the_loft_wall_once)


@pytest.mark.parametrize("place_x", [34.6, 35.5])
def test_a_click_on_the_loft_top_from_the_floor_is_refused_there_and_the_cup_kept(
    place_x: float, at_the_loft_wall: tuple[WalkView, CupProp]
) -> None:
    # held from the floor under the ladder, the loft's top (1.8 m) is out of the hand's
    # reach: he keeps the cup and says why at the place clicked, rather than setting it down
    # on the floor at the wall with no word
    view, cup = at_the_loft_wall
    _play(view, [_click(view, (place_x, 1.85)), RawInput()])
    assert cup.refused is not None
    place, why = cup.refused
    assert "out of his reach" in why
    assert place == pytest.approx([place_x, 1.8], abs=0.16)  # at the place, on the loft
    _play(view, [RawInput()] * int(6.0 / DT))
    assert cup.held  # not put down anywhere else (the floor at the wall)


def test_a_click_on_the_steep_slope_is_refused_there_with_its_slope() -> None:
    view, cup = _holding_the_cup_at(18.9)
    x = 19.6  # the 18° slope
    y = float(view.sim.terrain.height_at(x))
    _play(view, [_click(view, (x, y + 0.02))])
    assert cup.refused is not None
    place, why = cup.refused
    assert why.startswith("an 18° slope")
    assert place == pytest.approx([x, y], abs=0.01)
    _play(view, [RawInput()] * int(4.0 / DT))
    assert cup.held  # he keeps it: no spot where it stands upright near the click
    assert cup.refused is None  # the words go after a while


@pytest.mark.parametrize("x", [5.0, 25.0])  # the gentle slope (6°), the long descent (8°)
def test_on_a_gentle_slope_the_cup_is_set_down_upright_where_clicked(x: float) -> None:
    view, cup = _holding_the_cup_at(x - 0.7)
    terrain = view.sim.terrain
    _set_down(view, (x, float(terrain.height_at(x)) + 0.02))
    assert not cup.held and cup.refused is None
    assert float(cup.bottom[0]) == pytest.approx(x, abs=0.01)
    base = cup.props.cup_outline(cup.bottom)[:2]
    assert base[0, 1] == base[1, 1]  # upright: its base level
    # on the ground: each end of the base within r·tan(limit) of it
    r = cup.props.cup.radius
    gap = np.abs(base[:, 1] - terrain.height_at(base[:, 0]))
    assert gap.max() <= r * math.tan(CUP_MAX_SLOPE) + 1e-9


def test_a_click_just_off_a_slopes_foot_sets_the_cup_on_the_level_spot_beside_it() -> None:
    # a click's slip onto the steep slope's first centimetres: the nearest spot within
    # a hand's breadth where it stands upright takes it
    view, cup = _holding_the_cup_at(17.6)
    _set_down(view, (18.52, 0.43))
    assert not cup.held and cup.refused is None
    assert 18.35 < float(cup.bottom[0]) < 18.5
    assert float(cup.bottom[1]) == pytest.approx(0.4204)


@pytest.mark.parametrize(("start", "spot"), [(1.0, 3.2), (3.6, 1.6)])
def test_a_cup_set_down_on_the_floor_by_the_tables_end_is_put_there_from_beyond_the_spot(
    start: float, spot: float
) -> None:
    # stopping short of a spot just past the table's end would stand him in the table's
    # outline: he walks past the spot and sets the cup down facing the table, from either
    # side he comes
    view, cup = _holding_the_cup_at(start)
    table = cup.props.table
    x0, x1 = table.x0, table.x0 + table.width
    terrain = view.sim.terrain
    _set_down(view, (spot, float(terrain.height_at(spot)) + 0.02), seconds=5.0)
    assert not cup.held and cup.refused is None
    assert float(cup.bottom[0]) == pytest.approx(spot, abs=0.01)
    pelvis = float(view.sim.crowd.x[0])
    assert pelvis > x1 + 0.2 if spot > x1 else pelvis < x0 - 0.2, pelvis
