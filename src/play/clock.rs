//! Game clocks: each player has the same time for the whole game; the side to move's clock
//! runs (while a person types and while the engine thinks) and whoever reaches zero loses.

use crate::game::Color;
use std::time::{Duration, Instant};

#[derive(Clone, Debug)]
pub struct Clocks {
    /// Per colour, what was left when its clock last stopped (index [`Color::index`]).
    left_ms: [i64; 2],
    /// The running clock and since when.
    running: Option<(Color, Instant)>,
}

impl Clocks {
    pub fn new(ms: u64) -> Clocks {
        Clocks {
            left_ms: [ms as i64; 2],
            running: None,
        }
    }

    /// Runs `color`'s clock (none for `None`), stopping the other one.
    pub fn run(&mut self, color: Option<Color>, now: Instant) {
        if self.running.map(|(c, _)| c) == color {
            return;
        }
        if let Some((running, since)) = self.running.take() {
            self.left_ms[running.index()] -= millis(now.saturating_duration_since(since));
        }
        self.running = color.map(|c| (c, now));
    }

    /// What `color` has left at `now` (negative once over).
    pub fn left_ms(&self, color: Color, now: Instant) -> i64 {
        let spent = match self.running {
            Some((running, since)) if running == color => {
                millis(now.saturating_duration_since(since))
            }
            _ => 0,
        };
        self.left_ms[color.index()] - spent
    }

    /// The running clock's colour and the instant it reaches zero.
    pub fn deadline(&self) -> Option<(Color, Instant)> {
        self.running.map(|(color, since)| {
            let left = self.left_ms[color.index()].max(0) as u64;
            (color, since + Duration::from_millis(left))
        })
    }
}

fn millis(d: Duration) -> i64 {
    d.as_millis().min(i64::MAX as u128) as i64
}

/// `m:ss`, with tenths under ten seconds (`0:07.4`); never negative.
pub fn format_ms(ms: i64) -> String {
    let ms = ms.max(0);
    if ms < 10_000 {
        format!("0:{:02}.{}", ms / 1000, ms % 1000 / 100)
    } else {
        let seconds = ms / 1000;
        format!("{}:{:02}", seconds / 60, seconds % 60)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_the_running_clock_moves() {
        let t0 = Instant::now();
        let mut clocks = Clocks::new(60_000);
        clocks.run(Some(Color::Black), t0);
        let t1 = t0 + Duration::from_millis(1_500);
        assert_eq!(clocks.left_ms(Color::Black, t1), 58_500);
        assert_eq!(clocks.left_ms(Color::White, t1), 60_000);
        clocks.run(Some(Color::White), t1);
        let t2 = t1 + Duration::from_millis(500);
        assert_eq!(clocks.left_ms(Color::Black, t2), 58_500);
        assert_eq!(clocks.left_ms(Color::White, t2), 59_500);
        assert_eq!(
            clocks.deadline(),
            Some((Color::White, t1 + Duration::from_millis(60_000)))
        );
        clocks.run(None, t2);
        assert_eq!(clocks.deadline(), None);
        assert_eq!(
            clocks.left_ms(Color::White, t2 + Duration::from_secs(9)),
            59_500
        );
    }

    #[test]
    fn formats_minutes_and_tenths() {
        assert_eq!(format_ms(300_000), "5:00");
        assert_eq!(format_ms(61_999), "1:01");
        assert_eq!(format_ms(7_450), "0:07.4");
        assert_eq!(format_ms(-20), "0:00.0");
    }
}
