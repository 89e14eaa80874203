"""``--characters``: a crowd that plays is capped at MAX_CHARACTERS, a benchmark may measure
up to MAX_BENCH_CHARACTERS; either way a bad value exits 2 naming the range that applies."""

from __future__ import annotations

import pytest

from game.cli import MAX_BENCH_CHARACTERS, parse
from game.options import MAX_CHARACTERS


@pytest.mark.parametrize("flag", ["--bench", "--profile"])
def test_a_benchmark_may_measure_a_crowd_beyond_the_playable_cap(flag: str) -> None:
    assert parse([flag, "--characters", str(MAX_BENCH_CHARACTERS)]).characters == (
        MAX_BENCH_CHARACTERS
    )


def test_a_played_crowd_beyond_the_cap_is_rejected_naming_the_bench_limit(
    capsys: pytest.CaptureFixture[str],
) -> None:
    with pytest.raises(SystemExit) as exit_info:
        parse(["--headless", "--scene", "crowd", "--characters", str(MAX_CHARACTERS + 1)])
    assert exit_info.value.code == 2
    message = capsys.readouterr().err
    assert f"from 1 to {MAX_CHARACTERS}, got '{MAX_CHARACTERS + 1}'" in message
    assert f"up to {MAX_BENCH_CHARACTERS} with --bench" in message


@pytest.mark.parametrize("value", ["0", str(MAX_BENCH_CHARACTERS + 1), "many"])
def test_a_benchmarks_crowd_states_its_own_range(
    capsys: pytest.CaptureFixture[str], value: str
) -> None:
    with pytest.raises(SystemExit) as exit_info:
        parse(["--bench", "--characters", value])
    assert exit_info.value.code == 2
    expected = f"from 1 to {MAX_BENCH_CHARACTERS}, got '{value}'"
    assert expected in capsys.readouterr().err
