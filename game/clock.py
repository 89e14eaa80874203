"""Fixed-timestep clock ("Fix Your Timestep"): accumulator, step cap, interpolation alpha."""

from __future__ import annotations

from dataclasses import dataclass, field

_STEP_TOLERANCE = 1e-9


@dataclass(slots=True)
class FixedStepClock:
    """Turns variable frame times into a whole number of fixed simulation steps.

    Parameters
    ----------
    dt : float
        The fixed step in seconds (``1 / hz``).
    max_frame_time : float
        Longer frame times are clamped to this (a window drag or a breakpoint must not
        make the simulation try to catch up on seconds of work).
    max_steps : int
        At most this many steps run per frame; time beyond the cap is dropped, so the
        game slows down instead of spiralling ("spiral of death").
    """

    dt: float
    max_frame_time: float = 0.25
    max_steps: int = 5
    accumulator: float = field(default=0.0, init=False)
    dropped_time: float = field(default=0.0, init=False)

    def __post_init__(self) -> None:
        if not self.dt > 0.0:
            raise ValueError(f"dt: expected a positive step in seconds, got {self.dt!r}")
        if self.max_steps < 1:
            raise ValueError(f"max_steps: expected at least 1, got {self.max_steps!r}")

    def advance(self, frame_time: float) -> int:
        """Add one frame's elapsed time; return how many fixed steps to run now."""
        frame_time = min(max(frame_time, 0.0), self.max_frame_time)
        self.accumulator += frame_time
        # The 1e-9 tolerance makes a frame of exactly k·dt run k steps despite rounding
        # (0.25 // 0.01 is 24.0 in binary floating point).
        steps = min(int(self.accumulator / self.dt + _STEP_TOLERANCE), self.max_steps)
        self.accumulator = max(self.accumulator - steps * self.dt, 0.0)
        if steps == self.max_steps and self.accumulator >= self.dt * (1.0 - _STEP_TOLERANCE):
            # Over the cap: drop the backlog but keep the sub-step remainder for alpha.
            backlog = int(self.accumulator / self.dt + _STEP_TOLERANCE) * self.dt
            self.dropped_time += backlog
            self.accumulator = max(self.accumulator - backlog, 0.0)
        return steps

    @property
    def alpha(self) -> float:
        """Interpolation fraction in [0, 1) between the last two simulated states."""
        return min(max(self.accumulator / self.dt, 0.0), 1.0 - 1e-9)
