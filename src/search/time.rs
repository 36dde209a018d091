//! How long to think: an optimum (start no new iteration past a share of it) and a hard
//! maximum (stop at once), from the turn time, the time left and the game's progress. The
//! move must be out before `min(timeout_turn, time_left)`, so the maximum keeps a margin.

use super::params::{
    CLOCK_MAXIMUM_PERCENT, MIN_MOVES_TO_GO, OPTIMUM_PERCENT, TIME_MARGIN_MS, TIME_MARGIN_PERCENT,
};
use std::time::Duration;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TimeBudget {
    /// What a move should take: iterations start while the (stability-adjusted) share of it
    /// allows (see `search::next_iteration_fits`).
    pub optimum: Duration,
    /// The hard limit: the search stops at once.
    pub maximum: Duration,
}

/// `time_left_ms` of `i32::MAX` or more means no game clock.
pub fn budget(turn_ms: u64, time_left_ms: i64, empty_points: usize) -> TimeBudget {
    let clock = (time_left_ms < i64::from(i32::MAX)).then(|| time_left_ms.max(0) as u64);
    let with_margin = |ms: u64| {
        ms.saturating_sub(ms * TIME_MARGIN_PERCENT / 100)
            .saturating_sub(TIME_MARGIN_MS)
    };
    let turn = with_margin(turn_ms);
    let (optimum, maximum) = match clock {
        Some(left) => {
            // A share of the clock for this move, never a large part of what is left.
            let moves_to_go = (empty_points as u64 / 4).max(MIN_MOVES_TO_GO);
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
        assert!(b.optimum <= Duration::from_millis(2_000 / 50));
        let b = budget(1_000, unlimited, 200);
        assert!(
            b.optimum >= Duration::from_millis(600),
            "most of the turn: {b:?}"
        );
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
