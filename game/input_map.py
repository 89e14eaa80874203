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
_POINTER_EVENTS = (
    pygame.MOUSEMOTION,
    pygame.MOUSEBUTTONDOWN,
    pygame.MOUSEBUTTONUP,
    pygame.MOUSEWHEEL,
)


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
            if event.type in (pygame.KEYDOWN, pygame.KEYUP):
                self._key(event, raw)
            elif event.type in _POINTER_EVENTS:
                self._pointer_event(event, raw)
            else:
                self._window_event(event, raw)
        # Pointer and buttons come from the events themselves (not a device query), so
        # posted and replayed events drive the game exactly like a real mouse.
        raw.pointer_px = self._pointer
        raw.pointer_inside = self._inside
        raw.buttons_down = frozenset(self._buttons_down)
        raw.keys_down = frozenset(self._keys_down)
        return raw

    def _key(self, event: pygame.event.Event, raw: RawInput) -> None:
        name = key_name(event.key)
        if event.type == pygame.KEYDOWN:
            if "ctrl" in self._keys_down:
                raw.ctrl_pressed.append(name)
            self._keys_down.add(name)
            raw.keys_pressed.append(name)
        else:
            self._keys_down.discard(name)

    def _pointer_event(self, event: pygame.event.Event, raw: RawInput) -> None:
        """Motion, the left, middle and right buttons, and the wheel."""
        if event.type == pygame.MOUSEWHEEL:
            raw.wheel += float(event.precise_y)
            return
        if event.type != pygame.MOUSEMOTION and event.button not in (1, 2, 3):
            return
        self._pointer = (float(event.pos[0]), float(event.pos[1]))
        if event.type == pygame.MOUSEMOTION:
            # dragged out with a button held, the pointer's motion is still reported,
            # from outside, and no leave event comes (a hover label stayed for good)
            self._inside = _within_window(event.pos)
            raw.pointer_moved = True
        elif event.type == pygame.MOUSEBUTTONDOWN:
            self._inside = raw.pointer_moved = True
            self._buttons_down.add(event.button)
            raw.clicks.append((event.button, self._pointer))
        else:
            self._buttons_down.discard(event.button)
            raw.releases.append((event.button, self._pointer))

    def _window_event(self, event: pygame.event.Event, raw: RawInput) -> None:
        """Close, resize, focus, and the pointer entering or leaving the window."""
        if event.type == pygame.QUIT:
            raw.quit = True
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


def _within_window(pos: tuple[int, int]) -> bool:
    """Whether the window point ``pos`` is inside the display surface (True without one)."""
    surface = pygame.display.get_surface()
    if surface is None:
        return True
    width, height = surface.get_size()
    return 0 <= pos[0] < width and 0 <= pos[1] < height
