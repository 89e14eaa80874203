"""The pygame demo built on :mod:`ik`.

Simulation modules (clock, input state, scenes' simulations, terrain, gait) never import
pygame; only :mod:`game.window`, :mod:`game.input_map` and :mod:`game.pygame_canvas` do
(the app reaches pygame through them).
"""
