#!/usr/bin/env python3
"""A real client drives the engine: pygomo-lib (PyPI, import `pygomo`) plays games with
pbrain-quinto through START, INFO, BEGIN, TURN, BOARD, TAKEBACK, RESTART, YXNBEST, ABOUT
and END, and every move the engine returns is checked: on the board, on an empty point,
and under renju never a forbidden point for black (judged by the Gomocup referee's
algorithm, the PyPI package `renju`). At the end the engine must exit by itself after END,
with nothing written on stderr.

Usage: pygomo_check.py ENGINE [--games N] [--seed S]
Run through protocol-tests/pygomo-check, which makes the venv and builds the engine.
"""

import argparse
import random
import sys
import time

from pygomo import BoardPosition, EngineClient, Move
from renju.check_forbid import get_foul_type

TIMEOUT = 30.0  # seconds for any one reply
FREESTYLE, RENJU = 0, 4


class Failure(Exception):
    pass


def check(condition, message):
    if not condition:
        raise Failure(message)


class Game:
    """The position as the client sees it; colours by parity (black moves first)."""

    def __init__(self, width, height, rule):
        self.width, self.height, self.rule = width, height, rule
        self.stones = {}  # (x, y) -> 1 black, 2 white
        self.order = []

    def to_move(self):
        return 1 if len(self.order) % 2 == 0 else 2

    def free_points(self):
        return [
            (x, y)
            for x in range(self.width)
            for y in range(self.height)
            if (x, y) not in self.stones and not self.forbidden(x, y, self.to_move())
        ]

    def forbidden(self, x, y, color):
        if self.rule != RENJU or color != 1:
            return False
        size = max(self.width, self.height)
        board = [[0] * size for _ in range(size)]
        for (sx, sy), c in self.stones.items():
            board[sx][sy] = c
        return get_foul_type(board, x, y) != 0

    def play(self, x, y, who):
        color = self.to_move()
        check(0 <= x < self.width and 0 <= y < self.height, f"{who} {x},{y} is off the board")
        check((x, y) not in self.stones, f"{who} {x},{y} is taken")
        check(
            not self.forbidden(x, y, color),
            f"{who} {x},{y} is forbidden for black under renju",
        )
        self.stones[(x, y)] = color
        self.order.append((x, y))

    def remove(self, x, y):
        del self.stones[(x, y)]
        self.order.remove((x, y))


def engine_move(game, result, what):
    check(result is not None, f"no move answering {what}")
    move = result.move
    game.play(move.col, move.row, f"the engine's move answering {what}:")
    return move.col, move.row


def opponent_turns(engine, game, rng, count):
    for _ in range(count):
        free = game.free_points()
        if not free:
            return
        x, y = rng.choice(free)
        game.play(x, y, "the opponent's")
        engine_move(game, engine.turn(Move((x, y)), timeout=TIMEOUT), f"TURN {x},{y}")


def play_session(engine, rng, size, rule, moves):
    """One START with several games on it; returns how many engine moves were checked."""
    checked = 0
    check(engine.start(size, timeout=TIMEOUT), f"START {size} was not answered OK")
    engine.configure(
        timeout_turn=200,
        timeout_match=600000,
        time_left=600000,
        max_memory=367001600,
        game_type=1,
        rule=rule,
    )

    # The engine opens (BEGIN), the opponent answers with TURN.
    game = Game(size, size, rule)
    engine_move(game, engine.begin(timeout=TIMEOUT), "BEGIN")
    opponent_turns(engine, game, rng, moves)
    checked += 1 + moves

    # TAKEBACK the engine's last move and the opponent's, then go on.
    if len(game.order) >= 2:
        for x, y in reversed(game.order[-2:]):
            check(engine.takeback(Move((x, y)), timeout=TIMEOUT), f"TAKEBACK {x},{y} not OK")
            game.remove(x, y)
        opponent_turns(engine, game, rng, 2)
        checked += 2

    # RESTART, then a BOARD where the engine is white (the opponent one stone ahead).
    check(engine.restart(timeout=TIMEOUT), "RESTART was not answered OK")
    game = Game(size, size, rule)
    position = BoardPosition()
    centre = size // 2
    for i, (x, y) in enumerate([(centre, centre), (centre + 1, centre), (centre, centre + 1)]):
        owner = BoardPosition.OPPONENT if i % 2 == 0 else BoardPosition.SELF
        position.add_move(Move((x, y)), owner)
        game.play(x, y, "BOARD")
    engine_move(game, engine.board(position, timeout=TIMEOUT), "BOARD")
    opponent_turns(engine, game, rng, moves // 2)
    checked += 1 + moves // 2

    # YXNBEST: a move like any other (the MESSAGE lines are pygomo's business).
    engine_move(game, engine.nbest(2, timeout=TIMEOUT), "YXNBEST 2")
    checked += 1
    return checked


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("engine")
    parser.add_argument("--seed", type=int, default=2024)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    started = time.time()

    engine = EngineClient(args.engine)
    engine.connect()
    process = engine._transport._process  # pygomo keeps the Popen here (0.1.1)
    checked = 0
    try:
        about = engine.about(timeout=TIMEOUT)
        check(about is not None and about.startswith('name="Quinto"'), f"ABOUT gave {about!r}")
        for size, rule, moves in [(15, FREESTYLE, 12), (15, RENJU, 20), (20, FREESTYLE, 8)]:
            checked += play_session(engine, rng, size, rule, moves)
        # END: the engine leaves by itself, quickly, and said nothing on stderr.
        engine.send_raw("END")
        end_sent = time.time()
        try:
            process.wait(timeout=5)
        except Exception:
            raise Failure("the engine was still running 5 s after END")
        check(process.returncode == 0, f"the engine exited with {process.returncode}")
        check(time.time() - end_sent < 1.0, "the engine took over a second to exit after END")
        stderr = process.stderr.read()
        check(stderr == "", f"the engine wrote on stderr: {stderr!r}")
    except Failure as failure:
        print(f"pygomo-check: FAILED: {failure}", file=sys.stderr)
        return 1
    finally:
        engine.disconnect(timeout=1)
    print(
        f"pygomo-check: {checked} engine moves checked in 3 sessions "
        f"(pygomo-lib drove START, INFO, BEGIN, TURN, TAKEBACK, RESTART, BOARD, YXNBEST, "
        f"ABOUT, END) in {time.time() - started:.1f} s: 1 passed, 0 failed"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
