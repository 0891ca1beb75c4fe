"""Building Sinoda positions for tests: pieces by cell, captured pieces by capturer."""

from hypothesis import assume
from hypothesis import strategies as st

from tabletop_lab import load_game


def position(pieces: dict, captured=None, *, to_move: int = 0, players: int = 2) -> dict:
    """The position JSON of ``pieces`` ({cell: (player, value)}) and ``captured`` (one list of
    (owner, value) per player, default none)."""
    captured = captured or [[] for _ in range(players)]
    return {
        "game": "sinoda",
        "players": players,
        "to_move": to_move,
        "pieces": [[cell, p, v] for cell, (p, v) in pieces.items()],
        "captured": [[list(e) for e in cap] for cap in captured],
    }


def load(pieces: dict, captured=None, *, to_move: int = 0, **options):
    game = load_game("sinoda", **options)
    return game.state_from_dict(position(pieces, captured, to_move=to_move, players=game.num_players))


def moves_of(state, cell: str) -> list[str]:
    """The legal moves (not changes) of the piece on ``cell``."""
    return [m for m in state.legal_moves() if m.startswith(f"move {cell} ")]


#: Red's six pieces on their start flower (two-player board), value 1.
RED_START = {c: (1, 1) for c in ("U-2,0", "U-3,0", "U-2,-1", "D-3,0", "D-2,-1", "D-3,-1")}

#: Five of Red's start pieces (all but U-2,0), for positions that put Red's sixth elsewhere.
RED_FIVE = {c: (1, 1) for c in ("U-3,0", "U-2,-1", "D-3,0", "D-2,-1", "D-3,-1")}

#: The rulebook's Win by Sinoda example: Blue has captured 9 points, Red 5; Blue has three pieces
#: left (1, 1, 2); Blue turning the 2 down to 1 wins.
SINODA_EXAMPLE = {
    "pieces": {"U2,0": (0, 1), "D1,0": (0, 1), "U1,0": (0, 2), "U-2,0": (1, 1), "U-3,0": (1, 1), "D-3,0": (1, 1)},
    "captured": [[[1, 4], [1, 4], [1, 1]], [[0, 2], [0, 2], [0, 1]]],
}


@st.composite
def random_positions(draw, configs):
    """A (game, position JSON) under one of ``configs``: 1..6 pieces a player anywhere with any
    values, the rest captured by opponents; some are over already."""
    options = draw(st.sampled_from(configs))
    game = load_game("sinoda", **options)
    n, cells = game.num_players, list(game.board.names)
    on_board = [draw(st.integers(1, 6)) for _ in range(n)]
    places = draw(st.permutations(cells))
    pieces, k = [], 0
    for p in range(n):
        for _ in range(on_board[p]):
            pieces.append([places[k], p, draw(st.integers(1, 4))])
            k += 1
    captured = [[] for _ in range(n)]
    for p in range(n):
        rivals = [o for o in range(n) if game.team_of(o) != game.team_of(p)]
        for _ in range(6 - on_board[p]):
            captured[draw(st.sampled_from(rivals))].append([p, draw(st.integers(1, 4))])
    assume(all(len(c) <= 6 for c in captured))
    data = {"game": "sinoda", "players": n, "to_move": draw(st.integers(0, n - 1)), "pieces": pieces}
    data["captured"] = captured
    return game, data
