"""The walking world's simulation: terrain, rig, gait and characters (numpy only, no pygame)."""
