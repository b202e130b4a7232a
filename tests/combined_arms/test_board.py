"""CA "The Playing Board" and the placement rules of CA "The Units"."""

import pytest

from hexclass.classroom import hexgrid as hg
from hexclass.classroom.combined_arms.board import (
    ROW_WIDTHS,
    Board,
    BoardError,
    T,
    atg_field,
    dice_for_terrain,
    generate_board,
    potential_posts,
)
from hexclass.classroom.combined_arms.units import ALL_IDS
from hexclass.classroom.dice import Dice, LoadedDice


def test_shape_matches_every_fact_the_text_gives():
    b = Board.open_board()
    assert len(b.hexes) == 79
    assert len(b.hexes) - len(b.road) == 70  # "each of the 70 hexes not on the central road"
    assert [sum(1 for h in b.hexes if h[1] == r) for r in range(9)] == list(ROW_WIDTHS)
    assert min(ROW_WIDTHS) == 7 and max(ROW_WIDTHS) == 11
    assert len(b.friendly_edge) == 7  # "your 7 rear edge hexes"
    assert [b.label(h) for h in b.exploit_hexes] == ["9c", "9d", "9e"]


def test_road_is_one_connected_hex_per_row_through_the_middle():
    b = Board.open_board()
    assert [h[1] for h in b.road] == list(range(9))
    assert all(hg.distance(a, c) == 1 for a, c in zip(b.road, b.road[1:]))
    assert b.label(b.road[0]) == "1d" and b.label(b.road[4]) == "5f" and b.label(b.road[8]) == "9d"
    # the road continues off both edges, alternating its zigzag
    assert hg.distance(b.road_beyond_friendly_edge, b.road[0]) == 1
    assert hg.distance(b.road_beyond_enemy_edge, b.road[-1]) == 1


def test_closed_side_edges_are_the_end_hexes_of_the_five_middle_rows():
    b = Board.open_board()
    assert sorted(b.label(h) for h in b.closed_side_edge) == sorted(
        ["3a", "3i", "4a", "4j", "5a", "5k", "6a", "6j", "7a", "7i"]
    )
    assert b.hex_at("1a") not in b.closed_side_edge  # rear edges stay open


def test_hex_names_never_read_as_platoon_names():
    b = Board.open_board()
    names = {b.label(h) for h in b.hexes}
    assert not names & set(ALL_IDS)
    assert b.hex_at(" 5F ") == b.hex_at("5f")
    with pytest.raises(BoardError, match="row number 1-9 and a column letter"):
        b.hex_at("E5")


def test_terrain_dice_thresholds():
    # 70 hexes x 2 dice, read row by row; give the first six hexes 7, 8, 9, 10, 11, 12
    faces = [3, 4, 4, 4, 4, 5, 5, 5, 5, 6, 6, 6] + [1, 1] * 64
    b = dice_for_terrain(LoadedDice(faces))
    first_six = [h for h in b.hexes if h not in b.road][:6]
    assert [b.terrain[h] for h in first_six] == [
        T.OPEN,
        T.POOR,
        T.CREST,
        T.WOODS,
        T.WOODED_CREST,
        T.FARM,
    ]


def _count(board, rows):
    return sum(1 for h in board.hexes if h[1] in rows and board.is_defensive(h))


@pytest.mark.parametrize("seed", range(40))
def test_defence_always_ends_up_in_the_rows_with_more_defensive_terrain(seed):
    gen = generate_board(Dice(seed))
    top, bottom = _count(gen.board, range(3)), _count(gen.board, range(6, 9))
    assert (top, bottom) == (gen.top_defensive, gen.bottom_defensive)
    assert bottom >= top
    assert (gen.tie_roll is not None) == (top == bottom)


def test_a_tie_is_settled_by_a_die_and_a_low_roll_turns_the_board():
    # all-open terrain (every 2d6 = 2) leaves 0 v 0 defensive hexes: a tie
    low = generate_board(LoadedDice([1] * 140 + [2]))
    high = generate_board(LoadedDice([1] * 140 + [5]))
    assert low.tie_roll == 2 and low.half_turned
    assert high.tie_roll == 5 and not high.half_turned


def test_half_turn_keeps_the_shape_and_moves_terrain_to_the_far_side():
    b = Board.open_board({"1a": "woods", "2c": "farm"})
    t = b.half_turned()
    assert t.terrain[t.hex_at("9g")] == T.WOODS
    assert t.terrain[t.hex_at("8f")] == T.FARM
    assert t.half_turned().terrain == b.terrain


def test_potential_posts_go_on_defensive_terrain_of_rows_4_to_9_only():
    b = Board.open_board({"3c": "crest", "4c": "crest", "6e": "woods", "9b": "farm", "5c": "poor"})
    assert sorted(b.label(p.hex) for p in potential_posts(b)) == ["4c", "6e", "9b"]


def test_atg_counter_needs_three_open_neighbours_not_counting_those_behind():
    # Figure 4: a post with only 2 open hexes in front or to the side gets no ATGs.
    b = Board.open_board({"6d": "woods", "5d": "crest", "5e": "woods", "6c": "poor"})
    post = b.hex_at("6d")
    # in front: 5d crest, 5e woods; beside: 6c poor going, 6e open; behind: 7c, 7d
    assert atg_field(b, post) == 2
    assert not next(p for p in potential_posts(b) if p.hex == post).with_atg


def test_hexes_behind_count_for_a_counter_on_the_side_edge():
    b = Board.open_board({"4a": "woods", "3a": "crest"})
    post = b.hex_at("4a")
    # in front: 3a crest; beside: 4b open; behind: 5a and 5b open
    assert atg_field(b, post) == 3
    assert next(p for p in potential_posts(b) if p.hex == post).with_atg


def test_explicit_board_errors_say_what_was_expected():
    with pytest.raises(BoardError, match="7, 8, 9, 10, 11, 10, 9, 8, 7"):
        Board.from_rows([["open"] * 7])
    rows = Board.open_board().to_rows()
    rows[0][0] = "lava"
    with pytest.raises(BoardError, match="unknown terrain"):
        Board.from_rows(rows)
    rows = Board.open_board().to_rows()
    rows[4][0] = "road"
    with pytest.raises(BoardError, match="not on the road line|exactly one hex"):
        Board.from_rows(rows)
