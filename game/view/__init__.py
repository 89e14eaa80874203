"""Presentation shared by the walk and crowd views: scenery, figures, props, HUD, overlay.

Every module here draws through :class:`game.canvas.Canvas` and reads the simulation
without mutating it; none imports pygame.
"""
