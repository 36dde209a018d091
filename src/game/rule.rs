//! The game rules and what makes a winning line under each.

use super::Color;

/// A rule set, as named by the Gomocup `INFO rule` bit mask (docs/protocol.md §6).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Rule {
    /// 0: five or more in a row wins.
    Freestyle,
    /// 1: exactly five wins; six or more is neither a win nor a loss.
    Standard,
    /// 4: black needs exactly five and loses on a forbidden move; white wins with five or more.
    Renju,
    /// 8: five or more, but an exact five with opponent stones at both ends does not win.
    Caro,
    /// 9: exactly five, and not with opponent stones at both ends.
    CaroExact,
}

impl Rule {
    pub const ALL: [Rule; 5] = [
        Rule::Freestyle,
        Rule::Standard,
        Rule::Renju,
        Rule::Caro,
        Rule::CaroExact,
    ];

    /// The rule for an `INFO rule` value, or `None` when the value names no supported rule
    /// (the caller chooses a fallback and says so).
    pub fn from_protocol(value: u32) -> Option<Rule> {
        match value {
            0 => Some(Rule::Freestyle),
            1 => Some(Rule::Standard),
            4 => Some(Rule::Renju),
            8 => Some(Rule::Caro),
            9 => Some(Rule::CaroExact),
            _ => None,
        }
    }

    /// The `INFO rule` value of this rule.
    pub fn protocol_value(self) -> u32 {
        match self {
            Rule::Freestyle => 0,
            Rule::Standard => 1,
            Rule::Renju => 4,
            Rule::Caro => 8,
            Rule::CaroExact => 9,
        }
    }

    /// A short lowercase name (`freestyle`, `standard`, `renju`, `caro`, `caro-exact`).
    pub fn name(self) -> &'static str {
        match self {
            Rule::Freestyle => "freestyle",
            Rule::Standard => "standard",
            Rule::Renju => "renju",
            Rule::Caro => "caro",
            Rule::CaroExact => "caro-exact",
        }
    }

    /// Whether `color` has forbidden points under this rule (black in renju).
    pub fn has_forbidden(self, color: Color) -> bool {
        self == Rule::Renju && color == Color::Black
    }

    /// Whether a run of `length` stones of `color` wins; `blocked_both_ends` says that the
    /// cells just past both ends hold opponent stones (the board edge is never a block).
    pub fn is_win(self, color: Color, length: usize, blocked_both_ends: bool) -> bool {
        match self {
            Rule::Freestyle => length >= 5,
            Rule::Standard => length == 5,
            Rule::Renju => match color {
                Color::Black => length == 5,
                Color::White => length >= 5,
            },
            Rule::Caro => length >= 6 || (length == 5 && !blocked_both_ends),
            Rule::CaroExact => length == 5 && !blocked_both_ends,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn protocol_values_round_trip_and_unknown_values_are_refused() {
        for rule in Rule::ALL {
            assert_eq!(Rule::from_protocol(rule.protocol_value()), Some(rule));
        }
        for bad in [2, 3, 5, 6, 7, 10, 12, 16, u32::MAX] {
            assert_eq!(Rule::from_protocol(bad), None);
        }
    }

    #[test]
    fn win_lengths_follow_each_rule() {
        use Color::*;
        let table = [
            (Rule::Freestyle, Black, 6, false, true),
            (Rule::Standard, Black, 6, false, false),
            (Rule::Standard, White, 5, true, true),
            (Rule::Renju, Black, 6, false, false),
            (Rule::Renju, White, 6, false, true),
            (Rule::Caro, Black, 5, true, false),
            (Rule::Caro, Black, 6, true, true),
            (Rule::CaroExact, White, 6, false, false),
            (Rule::CaroExact, White, 5, false, true),
            (Rule::CaroExact, White, 5, true, false),
            (Rule::Freestyle, White, 4, false, false),
        ];
        for (rule, color, length, blocked, win) in table {
            assert_eq!(
                rule.is_win(color, length, blocked),
                win,
                "{rule:?} {color:?} {length} {blocked}"
            );
        }
    }
}
