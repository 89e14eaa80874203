"""Whether the fixed steps keep up with real time in a window, and what to do when they
cannot (no pygame).

A frame runs at most :data:`game.app.MAX_STEPS_PER_FRAME` steps and drops the time beyond
(:class:`game.clock.FixedStepClock`): when steps cost more than they simulate, the world
moves in slow motion. :class:`StepPace` measures the simulated seconds per real second
(``speed``); below :data:`BEHIND_BELOW` the HUD says so, and after :data:`SHED_AFTER_S` of
it a scene of many characters is asked for fewer (its ``crowd_less`` action, one step's
input like a key press, so a recording replays it) until it keeps up again.
Headless runs step once a frame on a virtual clock and are never behind.
"""

from __future__ import annotations

# Halflife of the smoothing of the measured speed (real seconds): a slow frame or two (a
# window drag, the first frame's fonts) does not count as falling behind.
SPEED_HALFLIFE_S = 0.5
# Below this many simulated seconds per real second the steps are behind.
BEHIND_BELOW = 0.9
# Behind for this long (real seconds), a crowd is made smaller ...
SHED_AFTER_S = 2.0
# ... by one step of its size at a time, this many real seconds apart (the speed settles).
SHED_EVERY_S = 1.5
# How the HUD's note starts (a later note replaces it; another message is left alone).
BEHIND_NOTE = "steps behind real time"
# The input action that removes characters (game.input_state.ACTIONS; the crowd's −).
SHED_ACTION = "crowd_less"


class StepPace:
    """Simulated against real time, over the frames that ran steps on their own (not
    paused, not minimised).

    ``speed`` is the smoothed simulated seconds per real second (1 keeping up);
    ``behind_s`` how long, in real seconds, it has been below :data:`BEHIND_BELOW`.
    """

    def __init__(self) -> None:
        self.speed = 1.0
        self.behind_s = 0.0
        self._since_shed_s = SHED_EVERY_S

    @property
    def behind(self) -> bool:
        """The steps fall behind real time: the world moves in slow motion."""
        return self.speed < BEHIND_BELOW

    def frame(self, real_s: float, simulated_s: float) -> None:
        """A frame took ``real_s`` seconds and its steps simulated ``simulated_s``."""
        if real_s <= 0.0:
            return
        # exponential smoothing by halflife: keep 2^(−real_s / halflife) of the old
        keep = 0.5 ** (real_s / SPEED_HALFLIFE_S)
        self.speed = keep * self.speed + (1.0 - keep) * simulated_s / real_s
        self.behind_s = self.behind_s + real_s if self.behind else 0.0
        self._since_shed_s += real_s

    def shed_now(self) -> bool:
        """Whether to ask for fewer characters now (then not again for
        :data:`SHED_EVERY_S`)."""
        if self.behind_s < SHED_AFTER_S or self._since_shed_s < SHED_EVERY_S:
            return False
        self._since_shed_s = 0.0
        return True

    def note(self, shedding: int | None, max_steps: int) -> str:
        """What the HUD says while behind: the speed, and what is done about it
        (``shedding``: the crowd's size when characters are shed, else None)."""
        slow = f"{BEHIND_NOTE}: the world moves at {self.speed:.0%} speed"
        if shedding is None:
            return f"{slow} (at most {max_steps} steps a frame)"
        return f"{slow}; fewer characters to keep up ({shedding} now)"
