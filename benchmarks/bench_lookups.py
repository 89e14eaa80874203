"""The ground's lookups by binary search (``np.interp``, ``searchsorted``) against the cell
tables of :mod:`game.world.cell_search`, ns a query, by batch size and vertex count.

    python benchmarks/bench_lookups.py [--vertices 64,256,1000,4000] [--repeats 7]

The ground is the crowd benchmark's rough one (``bench_crowd.rough_ground``) over the
shipped course's x range, with as many vertices as asked. Queries come two ways: in
``rows`` as a crowd asks them (characters sorted by x, twenty reads about each) and
``random``. Each figure is the best of ``--repeats`` timings, so it is what a quiet moment
gives; read the crossovers, not the absolute numbers. The cell tables are built only from
``CELLS_FROM_VALUES`` vertices up and used only for batches of ``CELLS_FROM_QUERIES``
(counts) or ``HEIGHTS_FROM_QUERIES`` (heights) or more: this table, which times the cells
at every size, is where those come from. Below them the lookups are numpy's own.
"""

from __future__ import annotations

import argparse
import json
import sys
import timeit
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE / "benchmarks"))

from bench_crowd import rough_ground  # noqa: E402

from game.world.cell_search import PolylineHeights, SortedSearch  # noqa: E402

BATCHES = (256, 512, 1024, 2048, 8192, 40960)


def _queries(n: int, order: str, lo: float, hi: float, entropy: np.random.Generator) -> np.ndarray:
    if order == "random":
        return entropy.uniform(lo, hi, n)
    rows = n // 20
    return (
        np.sort(entropy.uniform(lo, hi, rows))[:, None] + entropy.uniform(-0.6, 0.6, (rows, 20))
    ).ravel()


def _ns(call: object, n: int, repeats: int) -> float:
    number = max(200_000 // n, 5)
    return min(timeit.repeat(call, number=number, repeat=repeats)) / number / n * 1e9  # type: ignore[arg-type]


def _row(
    xs: np.ndarray, ys: np.ndarray, x: np.ndarray, repeats: int
) -> tuple[float, float | None, float, float | None]:
    """np.interp, the cell tables' heights, searchsorted and their counts for the queries x
    (None: no cell table for these vertices)."""
    n = len(x)
    search = SortedSearch.of(xs)
    heights = PolylineHeights.of(search, ys, np.diff(ys) / np.diff(xs))
    cells = search.cells
    interp = _ns(lambda: np.interp(x, xs, ys), n, repeats)
    by_cells = None if heights is None else _ns(lambda: heights.by_cells(x), n, repeats)
    binary = _ns(lambda: xs.searchsorted(x, side="right"), n, repeats)
    counts = None if cells is None else _ns(lambda: cells.count(x, "right"), n, repeats)
    return interp, by_cells, binary, counts


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--vertices", default="64,256,1000,4000")
    parser.add_argument("--repeats", type=int, default=7)
    args = parser.parse_args()
    course = json.loads((HERE / "assets" / "terrain.json").read_text())["points"]
    x_from, x_to = course[0][0], course[-1][0]
    entropy = np.random.default_rng(0)
    print("ns a query, best of", args.repeats, "timings")
    print("| vertices | batch | order | np.interp | cells | searchsorted | cells |")
    print("|---:|---:|---|---:|---:|---:|---:|")
    for vertices in (int(v) for v in args.vertices.split(",")):
        points = np.array(rough_ground(x_from, x_to, vertices))
        xs, ys = np.ascontiguousarray(points[:, 0]), np.ascontiguousarray(points[:, 1])
        for n in BATCHES:
            for order in ("rows", "random"):
                x = _queries(n, order, x_from + 1.0, x_to - 1.0, entropy)
                figures = " | ".join(
                    "–" if f is None else f"{f:.1f}" for f in _row(xs, ys, x, args.repeats)
                )
                print(f"| {vertices} | {n} | {order} | {figures} |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
