//! How long to think: an optimum (start no new iteration past a share of it) and a hard
//! maximum (stop at once), from the turn time, the time left and the game's progress. The
//! move must be out before `min(timeout_turn, time_left)`, so the maximum keeps a margin.

use super::params::{MIN_MOVES_TO_GO, TIME_MARGIN_MS, TIME_MARGIN_PERCENT};
use std::time::Duration;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TimeBudget {
    pub optimum: Duration,
    pub maximum: Duration,
}

/// `time_left_ms` of `i32::MAX` or more means no game clock.
pub fn budget(turn_ms: u64, time_left_ms: i64, empty_points: usize) -> TimeBudget {
    let clock = (time_left_ms < i64::from(i32::MAX)).then(|| time_left_ms.max(0) as u64);
    let available = clock.map_or(turn_ms, |left| left.min(turn_ms));
    let maximum = available
        .saturating_sub(available * TIME_MARGIN_PERCENT / 100)
        .saturating_sub(TIME_MARGIN_MS);
    let optimum = match clock {
        Some(left) => {
            let moves_to_go = (empty_points as u64 / 4).max(MIN_MOVES_TO_GO);
            (left / moves_to_go).min(maximum)
        }
        None => maximum * 3 / 4,
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
        assert!(b.maximum < Duration::from_millis(2_000));
        assert!(b.optimum <= Duration::from_millis(2_000 / 50));
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
