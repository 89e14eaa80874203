"""The package boundary: ik never pulls in pygame."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]


def test_importing_ik_does_not_import_pygame() -> None:
    code = "import sys, ik; assert 'pygame' not in sys.modules, 'pygame was imported'"
    done = subprocess.run(
        [sys.executable, "-c", code], cwd=REPO, capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 0, done.stderr
