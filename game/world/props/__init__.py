"""The walk scene's props, one module each (no pygame).

- :mod:`~game.world.props.base`: what they share (flat footprints, the :class:`Prop`
  protocol of a prop that moves and drives the hero through intents)
- :mod:`~game.world.props.door`, :mod:`~game.world.props.table`,
  :mod:`~game.world.props.cup`, :mod:`~game.world.props.ladder` (with the climb):
  each prop's dataclass, asset section and range table
- :mod:`~game.world.props.scenery`: all of them read from ``props.json``, and where the cup
  may be set down
- :mod:`~game.world.props.hands`: the hero's hands on the knob and the cup
- :mod:`~game.world.props.ball` (its physics in :mod:`~game.world.props.ball_physics`):
  the first prop plug-in

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

from game.world.props.base import FLAT_TOLERANCE_M, FloatArray
from game.world.props.cup import CupSpec
from game.world.props.door import Door
from game.world.props.hands import (
    DOOR_STAY_S,
    DOOR_SWING_S,
    DOORWAY_M,
    HOLD_KNOB_S,
    KNOB_TURN_S,
    REACH_FRACTION,
    PropHands,
)
from game.world.props.ladder import LOFT_DEPTH_M, Ladder
from game.world.props.scenery import PROPS_RANGES, Props, load_props
from game.world.props.table import Table

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
    "CupSpec",
    "Door",
    "FloatArray",
    "Ladder",
    "PropHands",
    "Props",
    "Table",
    "load_props",
]
