#!/usr/bin/env python3
"""Oracle data for the renju forbidden-move differential test.

Generates board positions and labels every empty point with the verdict of the
Gomocup referee implementation, the PyPI package `renju` (0.1.0):
`renju.check_forbid.get_foul_type(board, x, y)`, where `board[x][y]` is
0 (empty), 1 (black) or 2 (white) and the result is 0 (legal), 1 (double three),
2 (double four) or 3 (overline) for a black stone at (x, y).

Output: JSON Lines, one position per line:

    {"size": N, "black": [[x,y],...], "white": [[x,y],...], "foul": "<N*N chars>"}

x is the column (0-based, left to right), y the row (0-based, top to bottom).
`foul[y*N + x]` is '.' for an occupied point, else the digit get_foul_type(board, x, y).
Stones are listed in the order they were placed (for legal-play positions, the
game's move order: black[0], white[0], black[1], ...).

Positions never contain a line of five or more stones of either colour (such a
game would already be over). The mix of positions:
  * ~1/2 legal renju play from the centre, snapshot after a random number of moves
    (black never plays a forbidden point, nobody makes five, so play reaches
    crowded boards);
  * ~1/4 random scatters of independent stones (black = white or white + 1),
    densities from a few stones to 75 % full, some biased towards the edges;
  * ~1/4 "tactical" dense clusters in a small region (often touching an edge or a
    corner), with extra black in the region so threes and fours abound.

Each position depends only on (seed, index), so the file is byte-identical for
the same seed and PAIRS, whatever the number of worker processes or timing.

Usage: renju_oracle.py OUT_FILE [PAIRS] [--seed S] [--workers W]
"""

import argparse
import collections
import json
import multiprocessing
import os
import random
import sys
import time

from renju.check_forbid import get_foul_type

EMPTY, BLACK, WHITE = 0, 1, 2

# The four line directions: horizontal, vertical, and the two diagonals.
DIRECTIONS = ((1, 0), (0, 1), (1, 1), (1, -1))

# Board sizes and their weights: mostly 15, some 9, 12, 19, 20, a few 6 and 7.
SIZES = (15, 9, 12, 19, 20, 6, 7)
SIZE_WEIGHTS = (60, 8, 8, 9, 9, 3, 3)


# ---------------------------------------------------------------------------
# Board helpers. A board is a list of columns: board[x][y].
# ---------------------------------------------------------------------------

def new_board(n):
    return [[EMPTY] * n for _ in range(n)]


def longest_run(board, n, x, y, colour):
    """Longest line of `colour` through (x, y) if a `colour` stone stood there."""
    best = 0
    for dx, dy in DIRECTIONS:
        run = 1
        for sign in (1, -1):
            cx, cy = x + sign * dx, y + sign * dy
            while 0 <= cx < n and 0 <= cy < n and board[cx][cy] == colour:
                run += 1
                cx += sign * dx
                cy += sign * dy
        best = max(best, run)
    return best


def makes_five(board, n, x, y, colour):
    """True if a `colour` stone at (x, y) would make five or more in a row."""
    return longest_run(board, n, x, y, colour) >= 5


def empty_points(board, n):
    return [(x, y) for y in range(n) for x in range(n) if board[x][y] == EMPTY]


def near_points(board, n, dist):
    """Empty points within Chebyshev distance `dist` of some stone."""
    result = []
    for y in range(n):
        for x in range(n):
            if board[x][y] != EMPTY:
                continue
            found = False
            for cy in range(max(0, y - dist), min(n, y + dist + 1)):
                for cx in range(max(0, x - dist), min(n, x + dist + 1)):
                    if board[cx][cy] != EMPTY:
                        found = True
                        break
                if found:
                    break
            if found:
                result.append((x, y))
    return result


def shape_score(board, n, x, y, colour):
    """How much a stone at (x, y) connects: own stones count 2, opponent stones 1,
    looking up to two points away along the four lines."""
    score = 0
    for dx, dy in DIRECTIONS:
        for sign in (1, -1):
            for step in (1, 2):
                cx, cy = x + sign * step * dx, y + sign * step * dy
                if not (0 <= cx < n and 0 <= cy < n):
                    break
                stone = board[cx][cy]
                if stone == colour:
                    score += 2
                elif stone != EMPTY:
                    score += 1
                    break
    return score


def is_legal_play(board, n, x, y, colour):
    """A move the game generator allows: no five for either side (the game would
    end), and for black no forbidden point by the referee."""
    if makes_five(board, n, x, y, colour):
        return False
    if colour == BLACK and get_foul_type(board, x, y) != 0:
        return False
    return True


def balance(board, black, white):
    """Drop the last-placed stones until black == white or black == white + 1.
    Removing stones never creates a five."""
    while len(black) > len(white) + 1:
        x, y = black.pop()
        board[x][y] = EMPTY
    while len(white) > len(black):
        x, y = white.pop()
        board[x][y] = EMPTY


def place_random(rng, board, n, colour, candidates, stones, tries=40):
    """Put a `colour` stone on a random point of `candidates` that makes no five.
    Returns False if no such point was found."""
    if not candidates:
        return False
    for _ in range(tries):
        x, y = rng.choice(candidates)
        if board[x][y] == EMPTY and not makes_five(board, n, x, y, colour):
            board[x][y] = colour
            stones.append((x, y))
            return True
    # Crowded: look through all of them in random order.
    order = list(candidates)
    rng.shuffle(order)
    for x, y in order:
        if board[x][y] == EMPTY and not makes_five(board, n, x, y, colour):
            board[x][y] = colour
            stones.append((x, y))
            return True
    return False


# ---------------------------------------------------------------------------
# The three kinds of positions.
# ---------------------------------------------------------------------------

def legal_play(rng, n):
    """Alternate black and white from the centre, mostly next to existing stones,
    and stop after a random number of moves (up to 75 % of the board)."""
    board = new_board(n)
    black, white = [], []
    target = max(1, round(rng.random() * 0.75 * n * n))
    # Per colour: how often to play next to the stones (else anywhere), and how
    # often to pick the best-connected point (else a random one). Black builds
    # shapes more eagerly and white wanders off more, so that black gets open
    # threes and fours (and so double threes, double fours and overlines).
    near_prob = {BLACK: rng.uniform(0.85, 1.0), WHITE: rng.uniform(0.6, 0.95)}
    shape_prob = {BLACK: rng.uniform(0.3, 0.9), WHITE: rng.uniform(0.0, 0.5)}
    near_dist = rng.choice((1, 2, 2))

    centre = n // 2
    board[centre][centre] = BLACK
    black.append((centre, centre))

    while len(black) + len(white) < target:
        colour = BLACK if len(black) == len(white) else WHITE
        stones = black if colour == BLACK else white

        if rng.random() < near_prob[colour]:
            candidates = near_points(board, n, near_dist)
        else:
            candidates = []
        if not candidates:
            candidates = empty_points(board, n)
        rng.shuffle(candidates)
        if rng.random() < shape_prob[colour]:
            # Best connected points first (the shuffle breaks ties at random).
            candidates.sort(key=lambda p: -shape_score(board, n, p[0], p[1], colour))

        move = None
        for x, y in candidates:
            if is_legal_play(board, n, x, y, colour):
                move = (x, y)
                break
        if move is None:
            # Nothing legal near the stones: try the whole board.
            rest = empty_points(board, n)
            rng.shuffle(rest)
            for x, y in rest:
                if is_legal_play(board, n, x, y, colour):
                    move = (x, y)
                    break
        if move is None:
            break  # this side has no legal move left: keep the position as it is

        board[move[0]][move[1]] = colour
        stones.append(move)

    return board, black, white


def scatter(rng, n):
    """Independent random stones, from a few to 75 % of the board, black = white
    or white + 1; a third of them crowd the two outer rings of the board."""
    board = new_board(n)
    black, white = [], []
    if rng.random() < 0.2:
        count = rng.randint(1, 8)  # a few stones only
    else:
        count = max(1, round(rng.uniform(0.02, 0.75) * n * n))

    everywhere = [(x, y) for y in range(n) for x in range(n)]
    edge_biased = rng.random() < 0.33
    ring = [(x, y) for (x, y) in everywhere if min(x, y, n - 1 - x, n - 1 - y) <= 1]

    for i in range(count):
        colour = BLACK if i % 2 == 0 else WHITE
        stones = black if colour == BLACK else white
        if edge_biased and rng.random() < 0.7:
            free_ring = [p for p in ring if board[p[0]][p[1]] == EMPTY]
            if place_random(rng, board, n, colour, free_ring, stones):
                continue
        free = [p for p in everywhere if board[p[0]][p[1]] == EMPTY]
        if not place_random(rng, board, n, colour, free, stones):
            break

    balance(board, black, white)
    return board, black, white


def pick_region(rng, n):
    """A rectangle 5..9 points wide and high, in a corner, along an edge or inside."""
    w = rng.randint(min(5, n), min(9, n))
    h = rng.randint(min(5, n), min(9, n))
    where = rng.choices(("corner", "edge", "inside"), weights=(3, 4, 3))[0]
    if where == "corner":
        x0 = rng.choice((0, n - w))
        y0 = rng.choice((0, n - h))
    elif where == "edge":
        if rng.random() < 0.5:
            x0 = rng.choice((0, n - w))
            y0 = rng.randint(0, n - h)
        else:
            x0 = rng.randint(0, n - w)
            y0 = rng.choice((0, n - h))
    else:
        x0 = rng.randint(0, n - w)
        y0 = rng.randint(0, n - h)
    return [(x, y) for y in range(y0, y0 + h) for x in range(x0, x0 + w)]


def cluster(rng, n):
    """One or two small regions (often touching an edge or a corner) crowded with
    black stones (25..40 % of the region) and a few white ones (0..12 %): many
    open threes and fours, so many double threes whose "three" depends on the
    recursive check. The rest of white's stones go outside the regions so that
    black = white or white + 1 overall."""
    board = new_board(n)
    black, white = [], []
    regions = 1 if n < 12 else rng.choice((1, 1, 2))
    in_regions = set()
    for _ in range(regions):
        region = pick_region(rng, n)
        in_regions.update(region)
        colours = ([BLACK] * round(rng.uniform(0.25, 0.4) * len(region))
                   + [WHITE] * round(rng.uniform(0.0, 0.12) * len(region)))
        rng.shuffle(colours)
        for colour in colours:
            stones = black if colour == BLACK else white
            free = [p for p in region if board[p[0]][p[1]] == EMPTY]
            place_random(rng, board, n, colour, free, stones)

    # White's remaining stones elsewhere (anywhere if the regions fill the board).
    white_total = len(black) - rng.randint(0, 1)
    outside = [(x, y) for y in range(n) for x in range(n) if (x, y) not in in_regions]
    while len(white) < white_total:
        free = [p for p in outside if board[p[0]][p[1]] == EMPTY]
        if not free:
            free = empty_points(board, n)
        if not place_random(rng, board, n, WHITE, free, white):
            break

    balance(board, black, white)
    return board, black, white


# ---------------------------------------------------------------------------
# One position: generate it and ask the referee about every empty point.
# ---------------------------------------------------------------------------

def make_position(seed, index):
    """Position number `index` for `seed`: (json line, labelled pairs, counts per verdict)."""
    # A string seed is hashed with SHA-512 by `random`: stable across runs and processes.
    rng = random.Random("quinto-renju-oracle:%d:%d" % (seed, index))
    n = rng.choices(SIZES, weights=SIZE_WEIGHTS)[0]
    kind = rng.random()
    if kind < 0.5:
        board, black, white = legal_play(rng, n)
    elif kind < 0.75:
        board, black, white = scatter(rng, n)
    else:
        board, black, white = cluster(rng, n)

    counts = [0, 0, 0, 0]
    foul = []
    for y in range(n):
        for x in range(n):
            if board[x][y] != EMPTY:
                foul.append(".")
            else:
                verdict = get_foul_type(board, x, y)
                counts[verdict] += 1
                foul.append(str(verdict))

    record = {
        "size": n,
        "black": [[x, y] for x, y in black],
        "white": [[x, y] for x, y in white],
        "foul": "".join(foul),
    }
    line = json.dumps(record, separators=(",", ":"))
    return line, sum(counts), counts


# ---------------------------------------------------------------------------
# Driver: positions in index order until PAIRS empty points are labelled.
# ---------------------------------------------------------------------------

def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("out", help="output file (JSON Lines)")
    parser.add_argument("pairs", nargs="?", type=int, default=200000,
                        help="stop once this many empty points are labelled (default 200000)")
    parser.add_argument("--seed", type=int, default=1, help="random seed (default 1)")
    parser.add_argument("--workers", type=int, default=2,
                        help="worker processes (default 2); does not change the output")
    args = parser.parse_args()
    if args.pairs < 1 or args.workers < 1:
        parser.error("PAIRS and --workers must be positive")

    start = time.monotonic()
    positions = 0
    pairs = 0
    counts = [0, 0, 0, 0]
    # Write to a temporary name and rename at the end: a file at OUT is complete.
    tmp = args.out + ".tmp"
    os.makedirs(os.path.dirname(os.path.abspath(args.out)), exist_ok=True)

    with open(tmp, "w", encoding="ascii", newline="\n") as out:
        def consume(result):
            nonlocal positions, pairs
            line, labelled, verdicts = result
            out.write(line + "\n")
            positions += 1
            pairs += labelled
            for v in range(4):
                counts[v] += verdicts[v]

        if args.workers == 1:
            index = 0
            while pairs < args.pairs:
                consume(make_position(args.seed, index))
                index += 1
        else:
            # Keep a window of positions in flight and take the results strictly in
            # index order: the output does not depend on which worker is faster.
            window = 4 * args.workers
            with multiprocessing.Pool(args.workers) as pool:
                pending = collections.deque()
                index = 0
                for _ in range(window):
                    pending.append(pool.apply_async(make_position, (args.seed, index)))
                    index += 1
                while pairs < args.pairs:
                    consume(pending.popleft().get())
                    pending.append(pool.apply_async(make_position, (args.seed, index)))
                    index += 1
                pool.terminate()  # drop the positions computed beyond PAIRS

    os.replace(tmp, args.out)
    seconds = time.monotonic() - start
    print("renju-oracle: %d positions, %d pairs, verdicts 0=%d 1=%d 2=%d 3=%d, %.1f s"
          % (positions, pairs, counts[0], counts[1], counts[2], counts[3], seconds),
          file=sys.stderr)


if __name__ == "__main__":
    main()
