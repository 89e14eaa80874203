"""The pygame window: opened resizable and never smaller than the layout allows, its frames
shown and paced (capped while playing, asleep on the event queue while paused or
minimised), counted as frames delivered a second, and its picture saved.

With :mod:`game.input_map` and :mod:`game.pygame_canvas`, the only modules that import
pygame.
"""

from __future__ import annotations

import io
import warnings

import pygame

from game.options import MIN_WINDOW_SIZE, SCREENSHOT_FORMATS

WINDOWED_FPS_CAP = 144
# Paused or minimised, a window redraws at most this often and sleeps (waiting on the event
# queue) in between, so any input resumes it at once.
IDLE_FPS = 10
# Halflife of the smoothing of the delivered frame interval shown as fps (seconds).
FPS_HALFLIFE = 0.25


def open_display() -> None:
    """Start pygame's display and fonts (before the first :class:`Window`)."""
    pygame.display.init()
    pygame.font.init()


def close_display() -> None:
    """Close the window and pygame."""
    pygame.quit()


class FrameRate:
    """fps is frames delivered per second: the smoothed interval between flips.

    The work time of a frame stays in the profiler; this includes the limiter's wait.
    """

    def __init__(self) -> None:
        self.fps = 0.0
        self.last_flip: float | None = None

    def count_flip(self, now: float) -> None:
        """A frame was shown at ``now`` (seconds)."""
        if self.last_flip is not None:
            interval = max(now - self.last_flip, 1e-6)
            if self.fps == 0.0:
                self.fps = 1.0 / interval
            else:
                # exponential smoothing by halflife: keep 2^(−interval / halflife) of the old
                keep = 0.5 ** (interval / FPS_HALFLIFE)
                self.fps = 1.0 / (keep / self.fps + (1.0 - keep) * interval)
        self.last_flip = now

    def forget(self) -> None:
        """No rate while paused: it is measured again from the first frame after."""
        self.fps, self.last_flip = 0.0, None


class Window:
    """The display surface (``screen``), and whether the next frame is worth drawing."""

    def __init__(self, size: tuple[int, int], headless: bool) -> None:
        flags = 0 if headless else pygame.RESIZABLE
        self.screen = pygame.display.set_mode(size, flags)
        pygame.display.set_caption("Analytic two-bone IK")
        if not headless:
            # The layout is designed down to this size; the window manager keeps it there.
            # pygame-ce 2.5 reaches the display's window only through this deprecated call.
            with warnings.catch_warnings():
                warnings.simplefilter("ignore", DeprecationWarning)
                pygame.Window.from_display_module().minimum_size = MIN_WINDOW_SIZE
        self.wall = pygame.time.Clock()
        self.minimised = False
        self.redraw = True  # cleared while idle with no input: the picture cannot change

    def flip(self) -> None:
        """Show the frame drawn on ``screen``."""
        pygame.display.flip()

    def wait_for_next_frame(self, paused: bool) -> None:
        """Cap the frame rate; paused or minimised, sleep on the event queue for up to
        1/IDLE_FPS s (any input wakes it) and redraw only when something came."""
        self.minimised = not pygame.display.get_active()
        self.redraw = True
        if not (paused or self.minimised):
            self.wall.tick(WINDOWED_FPS_CAP)
            return
        event = pygame.event.wait(round(1000 / IDLE_FPS))
        if event.type != pygame.NOEVENT:
            pygame.event.post(event)  # any input wakes the loop; the next frame reads it
        elif paused:
            self.redraw = False  # paused and nothing happened: the last frame still stands
        self.wall.tick()  # keep the clock's own frame timing continuous

    def picture(self, suffix: str) -> bytes:
        """The frame on screen as an image file's bytes, in the format ``suffix`` names
        (:data:`game.options.SCREENSHOT_FORMATS`; PNG otherwise)."""
        image = io.BytesIO()
        pygame.image.save(self.screen, image, SCREENSHOT_FORMATS.get(suffix.lower(), "png"))
        return image.getvalue()
