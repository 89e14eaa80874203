"""Play the analytic two-bone IK demo: ``python main.py --help`` lists the options."""

from __future__ import annotations

import sys

from game.cli import main

if __name__ == "__main__":
    sys.exit(main())
