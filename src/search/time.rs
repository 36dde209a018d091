//! How long to think: an optimum (start no new iteration past a share of it) and a hard
//! maximum (stop at once), from the turn time, the time left and the game's progress. The
//! move must be out before `min(timeout_turn, time_left)`, so the maximum keeps a margin.
//! Only a game clock makes saving time worth anything: with a turn limit alone the search
//! uses the whole turn.

use super::params::{
    CLOCK_MAXIMUM_PERCENT, MIN_MOVES_TO_GO, MOVES_TO_GO_AT_START, NEW_ITERATION_PERCENT,
    OPTIMUM_PERCENT, STONES_PER_MOVE_TO_GO, TIME_MARGIN_MS, TIME_MARGIN_PERCENT,
};
use std::time::Duration;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TimeBudget {
    /// What a move should take: with a game clock, iterations start while the
    /// (stability-adjusted) share of it allows (see [`TimeBudget::next_iteration_starts`]).
    pub optimum: Duration,
    /// The hard limit: the search stops at once.
    pub maximum: Duration,
    /// Whether time not used now is kept for later moves (a game clock). Without a clock the
    /// iterations go on until the maximum: a turn's unused time is lost.
    pub clock: bool,
}

impl TimeBudget {
    /// Whether another iteration starts `elapsed` into the search. With a game clock, while
    /// `elapsed` is below `NEW_ITERATION_PERCENT` of the optimum scaled by the best move's
    /// stability (`stability_percent`: less when it held, more when it changed); without one,
    /// until the maximum, which cuts the last iteration short (the search keeps a better root
    /// move found in it).
    pub fn next_iteration_starts(&self, elapsed: Duration, stability_percent: u64) -> bool {
        let limit = if self.clock {
            let share = NEW_ITERATION_PERCENT * stability_percent / 100;
            (self.optimum * share as u32 / 100).min(self.maximum)
        } else {
            self.maximum
        };
        elapsed < limit
    }
}

/// `time_left_ms` of `i32::MAX` or more means no game clock; `stones` on the board say how
/// far the game has gone.
pub fn budget(turn_ms: u64, time_left_ms: i64, stones: usize) -> TimeBudget {
    let clock = (time_left_ms < i64::from(i32::MAX)).then(|| time_left_ms.max(0) as u64);
    let with_margin = |ms: u64| {
        ms.saturating_sub(ms * TIME_MARGIN_PERCENT / 100)
            .saturating_sub(TIME_MARGIN_MS)
    };
    let turn = with_margin(turn_ms);
    let (optimum, maximum) = match clock {
        Some(left) => {
            // A share of the clock for this move, never a large part of what is left.
            let moves_to_go = MOVES_TO_GO_AT_START
                .saturating_sub(stones as u64 / STONES_PER_MOVE_TO_GO)
                .max(MIN_MOVES_TO_GO);
            let maximum = turn.min(with_margin(left * CLOCK_MAXIMUM_PERCENT / 100));
            (
                (left / moves_to_go).min(maximum * OPTIMUM_PERCENT / 100),
                maximum,
            )
        }
        None => (turn * OPTIMUM_PERCENT / 100, turn),
    };
    TimeBudget {
        optimum: Duration::from_millis(optimum),
        maximum: Duration::from_millis(maximum),
        clock: clock.is_some(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn never_plans_past_the_turn_or_the_clock() {
        let unlimited = i64::from(i32::MAX);
        let b = budget(5_000, unlimited, 200);
        assert!(b.maximum < Duration::from_millis(5_000) && b.optimum <= b.maximum);
        let b = budget(30_000, 2_000, 200);
        assert!(b.maximum < Duration::from_millis(2_000 / 4));
        assert!(b.optimum <= Duration::from_millis(2_000 / MIN_MOVES_TO_GO));
        let b = budget(1_000, unlimited, 200);
        assert!(
            b.optimum >= Duration::from_millis(600),
            "most of the turn: {b:?}"
        );
    }

    #[test]
    fn a_game_clock_is_spread_over_the_moves_a_game_still_has() {
        // Gomocup's 30 s a move and 180 s a game: the opening's moves plan on about 22 more
        // of ours (a few seconds each), the board's size making no difference.
        let opening = budget(30_000, 180_000, 4);
        assert_eq!(opening.optimum, Duration::from_millis(180_000 / 23));
        // Later, fewer moves to go, never fewer than the minimum.
        assert_eq!(
            budget(30_000, 100_000, 40).optimum,
            Duration::from_millis(100_000 / 14)
        );
        assert_eq!(
            budget(30_000, 100_000, 150).optimum,
            Duration::from_millis(100_000 / MIN_MOVES_TO_GO)
        );
        // A short clock still never puts a large part of itself on one move.
        let short = budget(30_000, 1_000, 4);
        assert!(short.maximum <= Duration::from_millis(1_000 * CLOCK_MAXIMUM_PERCENT / 100));
        assert!(short.optimum <= short.maximum);
    }

    #[test]
    fn with_a_clock_a_stable_move_saves_time_without_one_the_turn_is_used() {
        let ms = Duration::from_millis;
        let turn_only = budget(1_000, i64::from(i32::MAX), 200);
        assert!(!turn_only.clock);
        assert!(turn_only.next_iteration_starts(ms(800), 70));
        assert!(!turn_only.next_iteration_starts(turn_only.maximum, 150));
        let clocked = budget(1_000, 60_000, 200);
        assert!(clocked.clock && clocked.maximum == turn_only.maximum);
        assert!(clocked.next_iteration_starts(ms(100), 100));
        assert!(!clocked.next_iteration_starts(ms(800), 150));
        // Half-way to the optimum: a changing best move gets another iteration, a stable one not.
        let half = clocked.optimum * NEW_ITERATION_PERCENT as u32 / 100;
        assert!(clocked.next_iteration_starts(half, 150));
        assert!(!clocked.next_iteration_starts(half, 70));
    }

    #[test]
    fn zero_turn_tiny_or_negative_clock_mean_answer_at_once() {
        for (turn, left) in [
            (0, i64::from(i32::MAX)),
            (5_000, 1),
            (5_000, -300),
            (5_000, 0),
        ] {
            assert_eq!(
                budget(turn, left, 100).maximum,
                Duration::ZERO,
                "{turn} {left}"
            );
        }
    }
}
