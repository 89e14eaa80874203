"""The label placer: the first clear spot, last frame's spot kept, optional names left out."""

from __future__ import annotations

import numpy as np

from game.label_placer import LabelPlacer, around, label_key


def test_the_label_placer_keeps_the_first_clear_spot_and_blocks_what_it_placed() -> None:
    placer = LabelPlacer((0.0, 0.0, 400.0, 300.0))
    placer.block_stroke((100.0, 150.0), (300.0, 150.0), 10.0)  # a bone along y = 150
    spots = [("midtop", (0.0, 4.0)), *around()]
    first = placer.place([(200.0, 150.0)], (60.0, 12.0), spots)
    assert spots[first] == ("midbottom", (0.0, -20.0))  # over the bone: the first clear one
    second = placer.place([(200.0, 150.0)], (60.0, 12.0), spots)
    assert spots[second] == ("midtop", (0.0, 20.0))  # under it: over it is taken now
    # nothing clear (a gap narrower than the label between two boxes): the spot touching
    # the fewest, never one off the window
    cornered = LabelPlacer((0.0, 0.0, 120.0, 40.0))
    cornered.block((0.0, 0.0, 40.0, 40.0))
    cornered.block((80.0, 0.0, 40.0, 40.0))
    cornered.place([(60.0, 20.0)], (50.0, 12.0), spots)
    box = cornered._boxes[-1]
    assert 0.0 <= box[0] and box[0] + box[2] <= 120.0 and 0.0 <= box[1] <= 28.0


def test_a_label_pushed_off_its_first_spot_stays_where_it_went_and_a_name_may_give_way() -> None:
    spots = [("midtop", (0.0, 4.0)), *around()]
    placer = LabelPlacer((0.0, 0.0, 400.0, 300.0))
    placer.block_stroke((100.0, 150.0), (300.0, 150.0), 10.0)
    # last frame it went under the bone (the first clear spot now is over it): it stays
    under = spots.index(("midtop", (0.0, 20.0)))
    assert placer.place([(200.0, 150.0)], (60.0, 12.0), spots, keep=under) == under
    # its first spot clear again: back there
    free = LabelPlacer((0.0, 0.0, 400.0, 300.0))
    assert free.place([(200.0, 150.0)], (60.0, 12.0), spots, keep=under) == 0
    # an optional name with nowhere clear is left out, and blocks nothing
    cramped = LabelPlacer((0.0, 0.0, 120.0, 40.0))
    cramped.block((0.0, 0.0, 40.0, 40.0))
    cramped.block((80.0, 0.0, 40.0, 40.0))
    assert cramped.place([(60.0, 20.0)], (50.0, 12.0), spots, optional=True) is None
    assert len(cramped._boxes) == 2
    assert label_key("lever 1.47 m") == label_key("lever 12.03 m") != label_key("twist +7°")


def test_the_placers_one_box_test_agrees_with_its_numpy_pass() -> None:
    rng = np.random.default_rng(3)
    placer = LabelPlacer((0.0, 0.0, 400.0, 300.0), pad=3.0)
    for _ in range(12):
        placer.block(tuple(rng.uniform([0, 0, 5, 5], [380, 280, 60, 30]).tolist()))
        a, b = rng.uniform(0, 400, 2), rng.uniform(0, 300, 2)
        placer.block_stroke((a[0], b[0]), (a[1], b[1]) if rng.random() < 0.8 else (a[0], b[0]), 6.0)
    placer.block_stroke((50.0, 100.0), (50.0, 200.0), 4.0)  # upright: one axis flat
    boxes = np.column_stack([rng.uniform(-20, 400, (3000, 2)), rng.uniform(4, 80, (3000, 2))])
    many = placer.hits(boxes) > 0
    one = np.array([placer.touches(tuple(box)) for box in boxes.tolist()])
    assert many.any() and not many.all()
    np.testing.assert_array_equal(one, many)
