"""Taking the cup from the table and putting it back, clicked through the walk view's input
layer: he stands at an end of the table, the body clear of it, and leans over the top; a
spot on the top no lean reaches from either end is refused there."""

from __future__ import annotations

import copy
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pytest

from game.input_state import RawInput
from game.profiling import PhaseTimer
from game.scene import SceneConfig
from game.scenes.walk import WalkSim
from game.scenes.walk_view import WalkView
from game.world.character import ARMS
from game.world.props import CupProp
from game.world.props.cup_prop import TABLE_OUT_OF_REACH

DT = 1.0 / 60.0
CHILD = Path(__file__).resolve().parents[2] / "assets" / "child"


def _hero_at(x: float, facing: float, assets: Path | None = None) -> tuple[WalkView, CupProp]:
    config = SceneConfig(dt=DT) if assets is None else SceneConfig(dt=DT, assets_dir=assets)
    sim = WalkSim(config)
    sim.crowd.stand_anew([x], [facing])
    view = WalkView(sim)
    view.layout((1280, 720))
    cup = sim.prop("cup")
    assert isinstance(cup, CupProp)
    return view, cup


def _click(view: WalkView, point: tuple[float, float]) -> RawInput:
    view.camera.center_w = point  # on screen, as the player sees it
    px = view.camera.point_to_screen(*point)
    return RawInput(pointer_px=px, pointer_inside=True, clicks=[(1, px)])


def _overlap(view: WalkView) -> float:
    """How far the pelvis or a sole reaches into the table's span (its legs), metres (≤ 0:
    clear)."""
    sim = view.sim
    table = sim.props.props.table if sim.props is not None else None
    assert table is not None
    lo, hi = sim._soles_span()
    x = float(sim.crowd.x[0])
    x0, x1 = table.x0, table.x0 + table.width
    return max(min(hi, x1) - max(lo, x0), min(x, x1) - max(x, x0))


def _play(view: WalkView, first: RawInput, seconds: float, record: list[float]) -> None:
    timer = PhaseTimer()
    for raw in [first] + [RawInput()] * int(seconds / DT):
        view.sim.step(view.map_input(raw), DT, timer)
        record.append(_overlap(view))


@dataclass
class Taken:
    """The hero after a click on the cup on the table and 6 s: ``overlaps`` after each step
    (:func:`_overlap`), the hand's distance from the cup's grip when it took it (None: it
    never did) and the deepest lean (crouch)."""

    view: WalkView
    cup: CupProp
    overlaps: list[float]
    gap_at_take: float | None
    leaned: float


def _take(start: float) -> Taken:
    """:class:`Taken` for the hero standing at ``start`` facing the table (+x)."""
    view, cup = _hero_at(start, 1.0)
    sim = view.sim
    assert sim.props is not None
    timer = PhaseTimer()
    sim.step(view.map_input(_click(view, tuple(cup.centre()))), DT, timer)
    overlaps, gap_at_take, leaned = [_overlap(view)], None, 0.0
    for _ in range(int(6.0 / DT)):
        grip = cup.lift.point()
        sim.step(view.map_input(RawInput()), DT, timer)
        overlaps.append(_overlap(view))
        leaned = max(leaned, float(sim.crowd.crouch[0]))
        if cup.held and gap_at_take is None:  # the hand was on the cup where it stood
            gap_at_take = float(
                np.hypot(*(sim.crowd.solution.hand[0, ARMS][sim.props.holding] - grip))
            )
    return Taken(view, cup, overlaps, gap_at_take, leaned)


@pytest.fixture(scope="session")
def _taken_once() -> dict[float, Taken]:
    return {}


@pytest.fixture
def taken(_taken_once: dict[float, Taken]) -> Callable[[float], Taken]:
    """``taken(start)``: :func:`_take` from ``start``, a copy of one played once a session
    (a copied walk view and scene step on exactly as fresh ones: test_cup_places.py's)."""

    def take(start: float) -> Taken:
        if start not in _taken_once:
            _taken_once[start] = _take(start)
        return copy.deepcopy(_taken_once[start])

    return take


@pytest.mark.parametrize("start", [0.0, 0.6, 1.3])
def test_he_takes_the_cup_and_puts_it_back_standing_clear_of_the_table(
    start: float, taken: Callable[[float], Taken]
) -> None:
    take = taken(start)
    view, cup, overlaps = take.view, take.cup, take.overlaps
    sim = view.sim
    assert sim.props is not None
    assert cup.held and take.gap_at_take is not None
    assert take.gap_at_take < 0.03
    assert take.leaned > 0.1  # over the table top: upright, the cup is out of his reach
    table = sim.props.props.table
    _play(view, _click(view, (2.0, table.top + 0.02)), 6.0, overlaps)
    assert not cup.held and cup.refused is None
    assert cup.bottom == pytest.approx([2.0, table.top], abs=0.01)
    assert max(overlaps) < 0.0, f"{max(overlaps) * 100:.1f} cm into the table's span"


def test_a_spot_on_the_table_top_out_of_reach_from_either_end_is_refused_there(
    taken: Callable[[float], Taken],
) -> None:
    take = taken(1.3)
    view, cup, overlaps = take.view, take.cup, take.overlaps
    sim = view.sim
    assert sim.props is not None
    table = sim.props.props.table
    assert cup.held
    middle = table.x0 + table.width / 2
    _play(view, _click(view, (middle, table.top + 0.02)), 0.1, overlaps)
    assert cup.refused is not None
    place, why = cup.refused
    assert why == TABLE_OUT_OF_REACH
    assert place == pytest.approx([middle, table.top])
    _play(view, RawInput(), 4.0, overlaps)
    assert cup.held and max(overlaps) < 0.0


def test_the_child_is_refused_the_cup_out_of_its_reach_and_stays_clear_of_the_table() -> None:
    view, cup = _hero_at(0.6, 1.0, CHILD)
    sim = view.sim
    overlaps: list[float] = []
    _play(view, _click(view, tuple(cup.centre())), 0.1, overlaps)
    assert cup.refused is not None and cup.refused[1] == TABLE_OUT_OF_REACH
    assert cup.refused[0] == pytest.approx(cup.bottom)
    _play(view, RawInput(), 3.0, overlaps)
    assert not cup.held and max(overlaps) < 0.0
    assert float(sim.crowd.x[0]) == pytest.approx(0.6, abs=0.05)  # he does not set off


def test_the_child_takes_a_cup_near_the_tables_end_standing_clear_of_it() -> None:
    view, cup = _hero_at(0.6, 1.0, CHILD)
    assert view.sim.props is not None
    cup.bottom[0] = view.sim.props.props.table.x0 + 0.03
    overlaps: list[float] = []
    _play(view, _click(view, tuple(cup.centre())), 6.0, overlaps)
    assert cup.held and max(overlaps) < 0.0
