"""The observation layout is declared once (observation.LAYOUT): offsets, size, docstring
tables and the suit permutation all derive from it, and version 1 is unchanged."""

import numpy as np
import pytest

import belote_env.env as aec
import belote_env.observation as ob

#: Observation v1 as the shipped networks read it: (block, first index, size).
V1 = [("hand", 0, 32), ("turned", 32, 32), ("bids1", 64, 8), ("bids2", 72, 28), ("contract", 100, 6),
      ("taker", 106, 4), ("dealer", 110, 4), ("trick", 114, 128), ("played", 242, 128), ("leader", 370, 4),
      ("phase", 374, 4), ("ntricks", 378, 8), ("points", 386, 4), ("announcements", 390, 8), ("scores", 398, 3),
      ("legal", 401, 32), ("unseen", 433, 32), ("master", 465, 32), ("winner", 497, 4), ("led", 501, 4),
      ("trick_points", 505, 1), ("voids", 506, 12), ("holders", 518, 96), ("declarations", 614, 4)]


def test_layout_v1_offsets_and_size():
    assert [(b.name, ob.OFFSET[b.name], b.size) for b in ob.LAYOUT] == V1
    assert ob.OBS_SIZE == 618 == sum(size for _, _, size in V1)


def test_docstring_tables_are_generated_from_the_layout():
    table = ob.layout_table()
    assert table in ob.__doc__ and table in aec.__doc__
    assert "614:618     4     declaration points made by relative seat r / 350" in table
    assert "{LAYOUT_TABLE}" not in ob.__doc__ + aec.__doc__


def test_suit_renaming_follows_the_block_kinds():
    obs_index, card_index = ob.suit_permutation_index((1, 0, 2, 3))  # spades <-> hearts
    x = np.zeros(ob.OBS_SIZE, np.float32)
    x[ob.OFFSET["hand"] + 0] = 1  # 7 of spades
    x[ob.OFFSET["bids2"] + 7 * 2 + 1 + 0] = 1  # partner named spades in round 2
    x[ob.OFFSET["contract"] + 4] = 1  # no-trump: not a suit, stays
    x[ob.OFFSET["holders"] + 3 * 9 + 1] = 1  # 8 of hearts (id 9): relative seat 2 may hold it
    x[ob.OFFSET["points"]] = 0.5  # not suit-indexed
    y = x[obs_index]
    assert set(np.flatnonzero(y)) == {ob.OFFSET["hand"] + 8, ob.OFFSET["bids2"] + 14 + 1 + 1,
                                      ob.OFFSET["contract"] + 4, ob.OFFSET["holders"] + 3 * 1 + 1, ob.OFFSET["points"]}
    assert card_index[8] == 0 and card_index[0] == 8 and card_index[16] == 16


def test_a_layout_that_does_not_fit_its_renaming_is_refused():
    with pytest.raises(ValueError, match="block 'x' of size 30 does not fit 'cards'"):
        ob._offsets((ob.Block("x", 30, "thirty cards?", "cards"),))
    with pytest.raises(ValueError, match="block 'hand' repeated or empty"):
        ob._offsets((ob.LAYOUT[0], ob.LAYOUT[0]))
