"""A slow, literal reading of Sygo's turn rules (spec 2.1-2.5) for checking the engine.

Boards are dicts {(column, row): "W" | "B"} with 0-based coordinates; every group and liberty is
recomputed from scratch and every order of every growth set is tried (k!), so use small boards.
"""

from itertools import combinations, permutations

from tabletop_lab.games.sygo.bitboard import COLUMNS


def parse(notation):
    rows, side, flag, _ = notation.split(" ")
    rows = rows.split("/")
    n = len(rows)
    board = {}
    for r, row in enumerate(rows):
        for c, char in enumerate(row):
            if char != ".":
                board[(c, n - 1 - r)] = char
    return n, board, side, flag == "g"


def name(point):
    return f"{COLUMNS[point[0]]}{point[1] + 1}"


def neighbours(n, point):
    c, r = point
    return [(x, y) for x, y in ((c - 1, r), (c + 1, r), (c, r - 1), (c, r + 1)) if 0 <= x < n and 0 <= y < n]


def group(n, board, point):
    colour, seen, todo = board[point], {point}, [point]
    while todo:
        for q in neighbours(n, todo.pop()):
            if board.get(q) == colour and q not in seen:
                seen.add(q)
                todo.append(q)
    return seen


def liberties(n, board, stones):
    return {q for p in stones for q in neighbours(n, p) if q not in board}


def groups(n, board, colour):
    found, seen = [], set()
    for p, c in sorted(board.items()):
        if c == colour and p not in seen:
            g = group(n, board, p)
            seen |= g
            found.append(g)
    return found


def put(n, board, point, colour):
    """Add a stone and reverse every opponent group left without liberties; True if any was."""
    board[point] = colour
    other = "B" if colour == "W" else "W"
    reversed_any = False
    for g in groups(n, board, other):
        if not liberties(n, board, g):
            for p in g:
                board[p] = colour
            reversed_any = True
    return reversed_any


def breathes(n, board, colour):
    return all(liberties(n, board, g) for g in groups(n, board, colour))


def play_sequence(n, board, colour, order):
    """The board after the growth sequence ``order``, or None if it is not a valid sequence."""
    board = dict(board)
    start = {p: i for i, g in enumerate(groups(n, board, colour)) for p in g}
    grown, closed = set(), set()
    for st in order:
        if st in board:
            return None
        src = {start[q] for q in neighbours(n, st) if q in start}
        if not src or src & (grown | closed):
            return None
        grown |= src
        if put(n, board, st, colour):
            closed |= {start[p] for p in group(n, board, st) if p in start}
    return board


def reference_moves(notation, growth="any", balancing=True):
    """Every legal whole move, as canonical strings, found by brute force."""
    n, board, side, grown_flag = parse(notation)
    colour = side
    moves = {"pass"}
    empty = [(c, r) for r in range(n) for c in range(n) if (c, r) not in board]
    for q in empty:
        if any(board.get(x) == colour for x in neighbours(n, q)):
            continue
        after = dict(board)
        put(n, after, q, colour)
        if breathes(n, after, colour):
            moves.add(f"place {name(q)}")
    start_groups = groups(n, board, colour)
    candidates = [p for p in empty if any(board.get(x) == colour for x in neighbours(n, p))]
    may_balance = balancing and colour == "B" and not grown_flag
    legal = {}  # frozenset growth set -> set of placements (None = no placement)
    for k in range(1, len(start_groups) + 1):
        for stones in combinations(candidates, k):
            finals = {
                tuple(sorted(b.items())) for o in permutations(stones) if (b := play_sequence(n, board, colour, o))
            }
            if not finals:
                continue
            assert len(finals) == 1, "the final position does not depend on the order"
            final = dict(next(iter(finals)))
            ends = set()
            if breathes(n, final, colour):
                ends.add(None)
            if may_balance:
                for q in empty:
                    if q in final or any(final.get(x) == colour for x in neighbours(n, q)):
                        continue
                    after = dict(final)
                    put(n, after, q, colour)
                    if breathes(n, after, colour):
                        ends.add(q)
            if ends:
                legal[frozenset(stones)] = ends
    for stones, ends in legal.items():
        for q in ends:
            if growth == "all" and any(other > stones and q in e for other, e in legal.items()):
                continue
            text = "grow " + " ".join(name(p) for p in sorted(stones, key=lambda p: (p[1], p[0])))
            moves.add(text if q is None else f"{text} + place {name(q)}")
    return moves
