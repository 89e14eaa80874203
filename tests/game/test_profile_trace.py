"""``--profile-trace``: a Chrome trace-event JSON file that Perfetto and speedscope open.

Checked against the Trace Event Format: a JSON object whose ``traceEvents`` are complete
events (``ph`` "X") with ``name``, ``ts``, ``dur``, ``pid``, ``tid``, properly nested per
thread (a child starts and ends inside its parent), plus ``M`` metadata events.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

EPS_US = 1e-6  # the file rounds times to 0.001 µs; nesting is exact up to float noise


def _parents(events: list[dict[str, Any]]) -> list[tuple[dict[str, Any], dict[str, Any] | None]]:
    """Each complete event with the event it is nested in (None at the top), asserting that
    the events nest properly: a child never crosses its parent's end."""
    ordered = sorted(events, key=lambda e: (e["ts"], -e["dur"]))
    stack: list[dict[str, Any]] = []
    out = []
    for event in ordered:
        while stack and event["ts"] >= stack[-1]["ts"] + stack[-1]["dur"]:
            stack.pop()  # the event starts after the top one ended: not its child
        parent = stack[-1] if stack else None
        if parent is not None:
            end, parent_end = event["ts"] + event["dur"], parent["ts"] + parent["dur"]
            assert end <= parent_end + EPS_US, f"{event} crosses the end of {parent}"
        out.append((event, parent))
        stack.append(event)
    return out


@pytest.mark.parametrize("scene", ["walk", "swivel"])
def test_profile_trace_is_nested_trace_event_json(
    run_main_here, tmp_path: Path, scene: str
) -> None:  # type: ignore[no-untyped-def]
    trace, stats = tmp_path / "frames.json", tmp_path / "stats.json"
    args = ["--scene", scene, "--headless", "--autopilot", "--frames", "25"]
    result = run_main_here(
        [*args, "--profile-trace", str(trace), "--stats", str(stats), "--show-profiler"]
    )
    assert result.returncode == 0, result.stderr
    document = json.loads(trace.read_text())
    assert isinstance(document, dict) and isinstance(document["traceEvents"], list)
    events = document["traceEvents"]
    for event in events:
        assert event["ph"] in ("X", "M"), event
        assert isinstance(event["name"], str) and event["name"]
        assert isinstance(event["pid"], int) and isinstance(event["tid"], int)
        if event["ph"] == "X":
            assert isinstance(event["ts"], (int, float)) and event["ts"] >= 0
            assert isinstance(event["dur"], (int, float)) and event["dur"] >= 0
    complete = [e for e in events if e["ph"] == "X"]
    assert {e["tid"] for e in complete} == {1}
    nested = _parents(complete)
    names = {(e["name"], None if p is None else p["name"]) for e, p in nested}
    allowed = {
        ("frame", None),
        ("input", "frame"),
        ("step", "frame"),
        ("sim", "step"),
        ("ik", "sim"),
        ("ik", "render"),
        ("render", "frame"),
        ("overlay", "frame"),
        ("profiler", "frame"),
    }
    assert names <= allowed, names - allowed
    assert {("frame", None), ("input", "frame"), ("step", "frame"), ("sim", "step")} <= names
    assert {
        ("ik", "sim"),
        ("render", "frame"),
        ("overlay", "frame"),
        ("profiler", "frame"),
    } <= names
    summary = json.loads(stats.read_text())
    assert sum(e["name"] == "frame" for e in complete) == summary["frames"] == 25
    assert sum(e["name"] == "step" for e in complete) == summary["steps"]
    frames = [e for e in complete if e["name"] == "frame"]
    assert all(a["ts"] + a["dur"] <= b["ts"] for a, b in zip(frames, frames[1:], strict=False))


def test_the_trace_is_complete_json_after_ctrl_c_style_close(tmp_path: Path) -> None:
    from game.profile_trace import ProfileTraceWriter, TracingPhaseTimer

    path = tmp_path / "t.json"
    writer, timer = ProfileTraceWriter(path), TracingPhaseTimer()
    assert not path.exists()  # written beside it until closed
    with timer.phase("input"):
        pass
    writer.frame(writer.origin, 0.001, timer)
    writer.close()
    writer.close()  # a second close (the app's finally after an error) changes nothing
    names = [e["name"] for e in json.loads(path.read_text())["traceEvents"]]
    assert names == ["process_name", "thread_name", "frame", "input"]
    assert not list(tmp_path.glob(".t.json.*"))
