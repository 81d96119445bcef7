"""Symmetries of the variants (blokus.rl.symmetry): how many each has and why, that they form a
group, and that a transformed position plays like the position transformed: the same legal
moves, observations, points and scores, renamed."""

from __future__ import annotations

import random
from typing import Any

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import blokus
from blokus import Board
from blokus.errors import InvalidArgumentError
from blokus.rl import BatchEnv, observation
from blokus.rl.symmetry import Symmetry, symmetries, transform_board
from blokus.variant import Variant, variant

#: The symmetries of every built-in variant, by hand. Classic: the start corners a20, t20, t1,
#: a1 follow the turn order clockwise, so each quarter turn is one, with the colours shifted
#: (a reflection reverses the order); classic_3 keeps only the identity (its shared colour must
#: stay itself, so no shift). Duo and Junior (e10, j5): the half turn and the reflection in the
#: diagonal through both start points swap the colours, the reflection in the other diagonal
#: keeps them. Trigon: its start points are shared and form a regular hexagon, so all 12 turns
#: and reflections of the board, each with every colour shift (4, or 3 in trigon_3). Blokus 3D
#: keeps the colours (colour 0 alone starts anywhere) and turns or reflects the structure, a
#: reflection swapping the two screws: tower and pyramid 8 (square and symmetric), wall 2 (the
#: L's diagonal), steps 2 (the left-right mirror; the steps rise from front to back).
EXPECTED = {
    "classic": ["identity", "rotate 90, colours +3", "rotate 180, colours +2", "rotate 270, colours +1"],
    "classic_2": ["identity", "rotate 90, colours +3", "rotate 180, colours +2", "rotate 270, colours +1"],
    "classic_3": ["identity"],
    "duo": ["identity", "rotate 180, colours +1", "reflect 45, colours +1", "reflect 135"],
    "junior": ["identity", "rotate 180, colours +1", "reflect 45, colours +1", "reflect 135"],
    "trigon": 48,
    "trigon_2": 48,
    "trigon_3": 36,
    **{f"3d_{s}{p}": 8 for s in ("tower", "pyramid") for p in ("", "_3", "_2", "_2x2")},
    **{f"3d_wall{p}": ["identity", "reflect 45"] for p in ("", "_3", "_2", "_2x2")},
    **{f"3d_steps{p}": ["identity", "reflect 90"] for p in ("", "_3", "_2", "_2x2")},
}

#: Variants that are not built in, with their symmetries' names (or number).
USER_VARIANTS: list[tuple[dict[str, Any], list[str] | int]] = [
    (  # a1 and e5 on a square: as Duo
        {
            "id": "tiny",
            "board": {"geometry": "square", "width": 5, "height": 5},
            "colors": ["Blue", "Red"],
            "players": [[0], [1]],
            "start_points": [["a1"], ["e5"]],
            "pieces": {"only": ["1", "2", "I3", "V3"]},
        },
        ["identity", "rotate 180, colours +1", "reflect 45", "reflect 135, colours +1"],
    ),
    (  # an oblong: no quarter turn, and the mirrors take a1 to no start point
        {
            "id": "strip",
            "board": {"geometry": "square", "width": 7, "height": 5},
            "colors": ["Blue", "Red"],
            "players": [[0], [1]],
            "start_points": [["a1"], ["g5"]],
            "pieces": {"only": ["1", "2", "I3", "V3", "L4"]},
        },
        ["identity", "rotate 180, colours +1"],
    ),
    (  # one shared start point in the centre: all 8 with all 3 shifts
        {
            "id": "centre",
            "board": {"geometry": "square", "width": 9, "height": 9},
            "colors": ["Blue", "Yellow", "Red"],
            "players": [[0], [1], [2]],
            "shared_start_points": ["e5"],
            "pieces": {"only": ["1", "2", "I3", "V3", "T4", "Z4"]},
        },
        24,
    ),
    (  # two triangles meeting at the hexagon's centre point to point
        {
            "id": "bowtie",
            "board": {"geometry": "triangle", "edge": 4},
            "colors": ["Blue", "Red"],
            "players": [[0], [1]],
            "start_points": [["h4"], ["h5"]],
            "pieces": {"only": ["1", "2", "I3", "V", "I4", "A4", "C4", "P5"]},
        },
        ["identity", "rotate 180, colours +1", "reflect 0, colours +1", "reflect 90"],
    ),
    (  # the six triangles round the centre, shared: the whole hexagon's group, both shifts
        {
            "id": "hexagon",
            "board": {"geometry": "triangle", "edge": 4},
            "colors": ["Blue", "Red"],
            "players": [[0], [1]],
            "shared_start_points": ["g4", "h4", "i4", "g5", "h5", "i5"],
            "pieces": {"only": ["1", "2", "I3", "V", "I4", "A4", "C4", "P5"]},
        },
        24,
    ),
    (  # a hole off the middle leaves nothing but the identity
        {
            "id": "hall",
            "board": {"geometry": "cube", "structure": ["444444", "444444", "44.444"]},
            "colors": ["Blue", "Red"],
            "players": [[0], [1]],
            "pieces": {},
        },
        ["identity"],
    ),
    (  # an oblong ring, blocked colours skipped
        {
            "id": "ring",
            "board": {"geometry": "cube", "structure": ["3333", "3..3", "3333"]},
            "colors": ["Blue", "Red"],
            "players": [[0], [1]],
            "pieces": {},
            "blocked": "skip",
        },
        ["identity", "rotate 180", "reflect 0", "reflect 90"],
    ),
]

ALL_VARIANTS: list[Variant] = [variant(v) for v in blokus.variants()] + [Variant(s) for s, _ in USER_VARIANTS]
#: Random positions per geometry (Trigon has 48 symmetries to check on each).
EXAMPLES = {"square": 40, "triangle": 20, "cube": 40}


def test_every_builtin_variant_has_its_expected_symmetries() -> None:
    assert set(EXPECTED) == set(blokus.variants())
    for v, expected in EXPECTED.items():
        names = [s.name for s in symmetries(v)]
        assert (names if isinstance(expected, list) else len(names)) == expected, v


@pytest.mark.parametrize(("spec", "expected"), USER_VARIANTS, ids=[s["id"] for s, _ in USER_VARIANTS])
def test_user_variants_have_their_expected_symmetries(spec: dict[str, Any], expected: list[str] | int) -> None:
    names = [s.name for s in symmetries(spec)]
    assert (names if isinstance(expected, list) else len(names)) == expected


def test_trigon_gets_every_turn_and_reflection_with_every_colour_shift() -> None:
    syms = symmetries("trigon")
    turns = [f"rotate {a}" for a in range(60, 360, 60)]
    reflections = [f"reflect {a}" for a in range(0, 180, 30)]
    shifts = [f"colours +{k}" for k in range(1, 4)]
    assert {s.name for s in syms} == {
        "identity",
        *shifts,
        *turns,
        *reflections,
        *(f"{g}, {k}" for g in turns + reflections for k in shifts),
    }
    assert len({s.cells.tobytes() for s in syms}) == 12


def test_symmetries_are_computed_once_per_variant() -> None:
    assert symmetries("duo") is symmetries(variant("duo")) is symmetries(Variant("duo"))
    assert symmetries(USER_VARIANTS[0][0]) is symmetries(Variant(USER_VARIANTS[0][0]))


def key(s: Symmetry) -> tuple[bytes, tuple[int, ...]]:
    return s.cells.tobytes(), s.colors


def compose(a: Symmetry, b: Symmetry) -> tuple[bytes, tuple[int, ...]]:
    """The key of ``b`` after ``a``."""
    return b.cells[a.cells].tobytes(), tuple(b.colors[c] for c in a.colors)


@pytest.mark.parametrize("v", ALL_VARIANTS, ids=lambda v: v.id)
def test_symmetries_form_a_group_with_the_identity_first(v: Variant) -> None:
    syms = symmetries(v)
    n = v.num_colors
    first = syms[0]
    assert first.name == "identity"
    assert (first.cells == np.arange(v.num_cells)).all() and (first.placements == np.arange(v.num_placements)).all()
    assert first.colors == tuple(range(n)) and first.players == tuple(range(v.num_players))
    assert first.pieces == tuple(range(len(v.pieces)))
    by_key = {key(s): s for s in syms}
    assert len(by_key) == len(syms), "no symmetry is listed twice"
    for a in syms:
        for b in syms:
            ab = by_key.get(compose(a, b))
            assert ab is not None, f"{b.name} after {a.name} is no symmetry"
            assert (ab.placements == b.placements[a.placements]).all()
            assert ab.players == tuple(b.players[p] for p in a.players)
            assert ab.pieces == tuple(b.pieces[p] for p in a.pieces)
        assert any(compose(a, b) == key(first) for b in syms), f"{a.name} has no inverse"


@pytest.mark.parametrize("v", ALL_VARIANTS, ids=lambda v: v.id)
def test_each_symmetry_keeps_the_rules(v: Variant) -> None:
    t = v._tables
    n = v.num_colors
    piece_of = np.array([t.placement_piece(i) for i in range(v.num_placements)])
    starts = [set(cs) for cs in v.start_cells()]
    players = [set(cs) for cs in v.players]
    rng = random.Random(v.id)
    for s in symmetries(v):
        assert sorted(s.cells.tolist()) == list(range(v.num_cells))
        assert sorted(s.placements.tolist()) == list(range(v.num_placements))
        assert (piece_of[s.placements] == np.array(s.pieces)[piece_of]).all()
        for i in rng.sample(range(v.num_placements), min(200, v.num_placements)):
            assert sorted(s.cells[t.placement_cells(i)].tolist()) == t.placement_cells(int(s.placements[i]))
        # A turn (never a reflection) keeps every piece; in Blokus 3D a reflection swaps the screws.
        turns_only = v.geometry != "cube" or s.name.split(", ")[0] == "identity" or s.name.startswith("rotate")
        names = [p.name for p in v.pieces]
        screws = [names.index("screw-right"), names.index("screw-left")] if v.geometry == "cube" else []
        fit = set(piece_of.tolist())
        swapped = {screws[0]: screws[1]} if not turns_only and all(p in fit for p in screws) else {}
        swapped.update({b: a for a, b in swapped.items()})
        assert s.pieces == tuple(swapped.get(p, p) for p in range(len(names)))
        # The colours: a cyclic shift (so the turn order stays), start points onto start points.
        assert s.colors == tuple((c + s.colors[0]) % n for c in range(n))
        assert all({int(s.cells[x]) for x in starts[c]} == starts[s.colors[c]] for c in range(n))
        assert all({s.colors[c] for c in players[p]} == players[s.players[p]] for p in range(v.num_players))
        assert {s.colors[c] for c in v.shared_colors} == set(v.shared_colors)
        if v.geometry == "cube":
            assert s.colors == tuple(range(n))


def random_board(v: Variant, seed: int, plies: int, setup: bool) -> Board:
    """A random game of ``plies`` moves (fewer if it ends first); with ``setup``, its first
    half is put on the board as a setup position instead of played."""
    rng = random.Random(seed)
    b = Board(v)

    def play(k: int) -> None:
        for _ in range(k):
            ids = b.legal_moves.ids()
            if len(ids) == 0:
                return
            b.push(int(ids[rng.randrange(len(ids))]))

    play(plies // 2 if setup else plies)
    if setup and b.turn is not None:
        b = Board.from_setup(v, b.placements(), turn=b.turn, out=b.out)
    play(plies - plies // 2 if setup else 0)
    return b


def inverse(s: Symmetry) -> Symmetry:
    syms = symmetries(s.variant)
    return next(t for t in syms if compose(s, t) == key(syms[0]))


def check_symmetric(b: Board) -> None:
    """Every symmetry takes ``b`` to a position whose legal moves, observations (from every
    colour), cells, points, scores and players are ``b``'s, moved and renamed."""
    v = b.variant
    legal = b.legal_moves.ids()
    mask = np.zeros(v.num_placements, dtype=bool)
    mask[legal] = True
    planes = {c: observation(b, c) for c in range(v.num_colors)}
    colors = b.cell_colors()
    for s in symmetries(v):
        t = transform_board(b, s)
        assert t.turn == (None if b.turn is None else s.colors[b.turn]), s.name
        assert t.player == (None if b.player is None else s.players[b.player]), s.name
        assert sorted(t.legal_moves.ids().tolist()) == sorted(s.placements[legal].tolist()), s.name
        moved_mask = np.zeros(v.num_placements, dtype=bool)
        moved_mask[t.legal_moves.ids()] = True
        assert (s.apply_to_actions(mask) == moved_mask).all()
        for c, p in planes.items():
            # Plane k is colour (mover + k) for both, since the colours shift: only points move.
            assert (observation(t, s.colors[c]) == s.apply_to_observation(p)).all(), s.name
        moved = [-1] * v.num_cells
        for i, c in enumerate(colors):
            moved[int(s.cells[i])] = -1 if c < 0 else s.colors[c]
        assert t.cell_colors() == moved
        for scoring in ("advanced", "basic"):
            assert t.points(scoring) == s.apply_to_colors(b.points(scoring)).tolist()
            assert t.scores(scoring) == s.apply_to_players(b.scores(scoring)).tolist()
        assert sorted(t.out) == sorted(s.colors[c] for c in b.out)
        assert [m.id for m in t.move_stack] == [int(s.placements[m.id]) for m in b.move_stack]
        assert [t.has_move(s.colors[c]) for c in range(v.num_colors)] == [b.has_move(c) for c in range(v.num_colors)]
        if b.is_game_over():
            assert set(t._core.winners()) == {s.players[p] for p in b._core.winners()}
        assert transform_board(t, inverse(s)).zobrist_hash() == b.zobrist_hash()


def positions(geometry: str) -> st.SearchStrategy[Board]:
    return st.builds(
        random_board,
        st.sampled_from([v for v in ALL_VARIANTS if v.geometry == geometry]),
        st.integers(0, 2**32),
        st.integers(0, 120),
        st.booleans(),
    )


@pytest.mark.parametrize("geometry", ["square", "triangle", "cube"])
def test_a_transformed_position_plays_like_the_position_transformed(geometry: str) -> None:
    @settings(max_examples=EXAMPLES[geometry], deadline=None, suppress_health_check=[HealthCheck.too_slow])
    @given(positions(geometry))
    def check(b: Board) -> None:
        check_symmetric(b)

    check()


@pytest.mark.parametrize("v", ALL_VARIANTS, ids=lambda v: v.id)
def test_the_start_and_the_end_of_a_game_are_symmetric(v: Variant) -> None:
    check_symmetric(Board(v))
    check_symmetric(random_board(v, 1, v.max_plies, setup=False))


def test_blokus_3d_has_no_colour_shift_because_colour_0_alone_starts_anywhere() -> None:
    # Shifted, the empty tower would have colour 1 to move first, which it cannot (its first
    # piece must touch a cube), nor can 2 or 3, so the turn passes to colour 0. On flat boards
    # each colour starts on its own start points.
    assert Board.from_setup("3d_tower", [[]] * 4, turn=1).turn == 0
    assert Board.from_setup("classic", [[]] * 4, turn=1).turn == 1


def test_a_batch_of_observations_and_masks_moves_game_by_game() -> None:
    env = BatchEnv("duo", batch_size=3, threads=1)
    rng = np.random.default_rng(0)
    for _ in range(6):
        env.step([rng.choice(np.flatnonzero(m)) for m in env.legal_action_mask])
    s = symmetries("duo")[2]
    obs = s.apply_to_observation(env.observation)
    assert obs.dtype == np.uint8 and obs.shape == env.observation.shape
    assert all((obs[g] == s.apply_to_observation(env.observation[g])).all() for g in range(3))
    masks = s.apply_to_actions(env.legal_action_mask)
    assert all((masks[g] == s.apply_to_actions(env.legal_action_mask[g])).all() for g in range(3))
    assert (s.apply_to_actions(env.legal_action_mask.T, axis=0) == masks.T).all()
    assert s.apply_to_players(env.rewards).shape == (3, 2)


def test_a_3d_observation_moves_in_its_layers() -> None:
    b = Board("3d_tower", ["a1@1,b1@1", "a1@2,a2@1,a2@2"])
    s = next(s for s in symmetries("3d_tower") if s.name == "rotate 90")
    planes = s.apply_to_observation(observation(b))
    t = transform_board(b, s)
    assert planes.shape == (4, 8, 4, 4)
    assert (planes == observation(t)).all()
    assert [str(m) for m in t.move_stack] == ["d1@1,d2@1", "c1@1,c1@2,d1@2"]


def test_arrays_of_the_wrong_shape_and_boards_of_another_variant_are_refused() -> None:
    s = symmetries("duo")[1]
    with pytest.raises(InvalidArgumentError, match=r"grid's axes \(14, 14\)"):
        s.apply_to_observation(np.zeros((2, 14, 13)))
    with pytest.raises(InvalidArgumentError, match="13729 placements"):
        s.apply_to_actions(np.zeros(13728))
    with pytest.raises(InvalidArgumentError, match="13729 placements"):
        s.apply_to_actions(np.zeros((13729, 2)), axis=2)
    with pytest.raises(InvalidArgumentError, match="2 colours"):
        s.apply_to_colors([1, 2, 3])
    with pytest.raises(InvalidArgumentError, match="cannot transform a board of junior"):
        transform_board(Board("junior"), s)
    assert not s.cells.flags.writeable and not s.placements.flags.writeable
