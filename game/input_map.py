"""pygame events → :class:`RawInput`: the only place events are read."""

from __future__ import annotations

import pygame

from game.input_state import RawInput

# pygame key names we rename so scene code can use plain words.
_KEY_ALIASES = {
    ".": "period",
    "left shift": "shift",
    "right shift": "shift",
    "left ctrl": "ctrl",
    "right ctrl": "ctrl",
    "=": "plus",
    "+": "plus",
    "[+]": "plus",
    "-": "minus",
    "[-]": "minus",
    "return": "enter",
}


def key_name(key: int) -> str:
    """A pygame key code as a plain lower-case name (``"a"``, ``"left"``, ``"f1"``, ``"shift"``)."""
    name = pygame.key.name(key).lower()
    return _KEY_ALIASES.get(name, name)


class InputMapper:
    """Polls the event queue once per frame and keeps held-key state between frames."""

    def __init__(self) -> None:
        self._keys_down: set[str] = set()
        self._buttons_down: set[int] = set()
        self._pointer: tuple[float, float] = (0.0, 0.0)
        self._inside = False  # unknown until the pointer moves over the window

    def poll(self) -> RawInput:
        """Read every pending event into one :class:`RawInput`."""
        raw = RawInput()
        for event in pygame.event.get():
            if event.type == pygame.QUIT:
                raw.quit = True
            elif event.type == pygame.KEYDOWN:
                name = key_name(event.key)
                self._keys_down.add(name)
                raw.keys_pressed.append(name)
            elif event.type == pygame.KEYUP:
                self._keys_down.discard(key_name(event.key))
            elif event.type == pygame.MOUSEMOTION:
                self._pointer = (float(event.pos[0]), float(event.pos[1]))
                # dragged out with a button held, the pointer's motion is still reported,
                # from outside, and no leave event comes (a hover label stayed for good)
                self._inside = _within_window(event.pos)
                raw.pointer_moved = True
            elif event.type == pygame.MOUSEBUTTONDOWN and event.button in (1, 2, 3):
                self._pointer = (float(event.pos[0]), float(event.pos[1]))
                self._inside = raw.pointer_moved = True
                self._buttons_down.add(event.button)
                raw.clicks.append((event.button, self._pointer))
            elif event.type == pygame.MOUSEBUTTONUP and event.button in (1, 2, 3):
                self._pointer = (float(event.pos[0]), float(event.pos[1]))
                self._buttons_down.discard(event.button)
                raw.releases.append((event.button, self._pointer))
            elif event.type == pygame.MOUSEWHEEL:
                raw.wheel += float(event.precise_y)
            elif event.type == pygame.VIDEORESIZE:
                raw.resized = (int(event.w), int(event.h))
            elif event.type == pygame.WINDOWFOCUSLOST:
                raw.focus_lost = True
                self._keys_down.clear()
                self._buttons_down.clear()
            elif event.type == pygame.WINDOWFOCUSGAINED:
                raw.focus_gained = True
            elif event.type == pygame.WINDOWLEAVE:
                self._inside = False
            elif event.type == pygame.WINDOWENTER:
                self._inside = True
        # Pointer and buttons come from the events themselves (not a device query), so
        # posted and replayed events drive the game exactly like a real mouse.
        raw.pointer_px = self._pointer
        raw.pointer_inside = self._inside
        raw.buttons_down = frozenset(self._buttons_down)
        raw.keys_down = frozenset(self._keys_down)
        return raw


def _within_window(pos: tuple[int, int]) -> bool:
    """Whether the window point ``pos`` is inside the display surface (True without one)."""
    surface = pygame.display.get_surface()
    if surface is None:
        return True
    width, height = surface.get_size()
    return 0 <= pos[0] < width and 0 <= pos[1] < height
