"""The walk scene's props, one module each (no pygame).

- :mod:`~game.world.props.base`: what they share (flat footprints, the :class:`Prop`
  protocol of a prop that drives the hero through intents, :class:`Body`, :class:`Intent`)
- :mod:`~game.world.props.door` (the door and its knob), :mod:`~game.world.props.table`,
  :mod:`~game.world.props.cup` (its size) and :mod:`~game.world.props.cup_prop` (the live
  cup), :mod:`~game.world.props.ladder` (with the climb) and
  :mod:`~game.world.props.ladder_prop` (the ladder as a prop), and
  :mod:`~game.world.props.ball` (its physics in :mod:`~game.world.props.ball_physics`):
  each prop's dataclass, asset section, range table and live prop
- :mod:`~game.world.props.reach`: the hero's hands on a prop's grip (one goal at a time,
  one thing carried)
- :mod:`~game.world.props.scenery`: all of them read from ``props.json``, where the cup
  may be set down, and the live props made in the walk scene's order

How to add a prop plug-in (the ball is the example): a module here with its asset
section's dataclass, range table and loader, a phase enum, and a class following
:class:`~game.world.props.base.Prop` that drives the hero only through
:class:`~game.world.props.base.Intent` s and moves by itself in ``advance``; its
:class:`~game.world.props.base.PlugIn` added to ``scenery.PLUG_INS``; its section in
``props.json`` (optional there); its painter (and hover hint) in
:mod:`game.scenes.prop_painters`. The walk scene clicks it (``reach_prop`` with its name),
passes its intents to the crowd's commands, and traces its centre.
"""

from __future__ import annotations

from game.world.props.base import FLAT_TOLERANCE_M
from game.world.props.cup import CupSpec
from game.world.props.cup_prop import CupProp
from game.world.props.door import (
    DOOR_STAY_S,
    DOOR_SWING_S,
    DOORWAY_M,
    HOLD_KNOB_S,
    KNOB_TURN_S,
    Door,
    DoorProp,
)
from game.world.props.ladder import LOFT_DEPTH_M, Ladder
from game.world.props.ladder_prop import LadderProp
from game.world.props.reach import REACH_FRACTION, PropHands
from game.world.props.scenery import PROPS_RANGES, Props, create_props, load_props
from game.world.props.table import Table
from game.world.types import FloatArray

__all__ = [
    "DOORWAY_M",
    "DOOR_STAY_S",
    "DOOR_SWING_S",
    "FLAT_TOLERANCE_M",
    "HOLD_KNOB_S",
    "KNOB_TURN_S",
    "LOFT_DEPTH_M",
    "PROPS_RANGES",
    "REACH_FRACTION",
    "CupProp",
    "CupSpec",
    "Door",
    "DoorProp",
    "FloatArray",
    "Ladder",
    "LadderProp",
    "PropHands",
    "Props",
    "Table",
    "create_props",
    "load_props",
]
