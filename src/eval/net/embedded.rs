//! The networks built into the executable (Gomocup takes one file): freestyle's and renju's,
//! trained by `quinto-train` (tournaments/tuning/README.md). Standard and caro play
//! freestyle's: its window of four cells a side cannot see the sixth stone that spoils a
//! five, nor the blocked ends that spoil a caro five, but the search judges fives by the
//! rule, and the net beat the classical evaluation there too at equal nodes
//! (tournaments/results.md).

use super::Network;
use crate::game::{BoardSize, Rule};
use once_cell::sync::Lazy;

/// Where a network plays by default (`--eval auto`): the rules and square boards on which
/// it has beaten the classical evaluation at time: an SPRT, or 400 games or more with the
/// interval above zero (tournaments/results.md). Elsewhere only `--eval net` plays it.
const PROVEN: [(Rule, usize); 2] = [(Rule::Freestyle, 15), (Rule::Standard, 15)];

static FREESTYLE: Lazy<Option<Network>> =
    Lazy::new(|| checked("freestyle", include_bytes!("freestyle.qnet")));
static RENJU: Lazy<Option<Network>> = Lazy::new(|| checked("renju", include_bytes!("renju.qnet")));

/// A built-in file that does not read is a build gone wrong: say so in the log and let the
/// classical evaluation play, never fail a game over it.
fn checked(name: &str, bytes: &[u8]) -> Option<Network> {
    match Network::from_bytes(bytes) {
        Ok(net) => Some(net),
        Err(why) => {
            log::error!("the built-in {name} network is unusable ({why}): classical evaluation");
            None
        }
    }
}

/// The network `rule` plays; none only where its built-in file does not read.
pub fn for_rule(rule: Rule) -> Option<&'static Network> {
    match rule {
        Rule::Freestyle | Rule::Standard | Rule::Caro | Rule::CaroExact => FREESTYLE.as_ref(),
        Rule::Renju => RENJU.as_ref(),
    }
}

/// The network that plays by default on this rule and board, if one has proven itself
/// there.
pub fn proven(rule: Rule, size: BoardSize) -> Option<&'static Network> {
    let here = (rule, size.width());
    if size.width() == size.height() && PROVEN.contains(&here) {
        for_rule(rule)
    } else {
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_built_in_networks_read_and_each_rule_plays_its_own() {
        use crate::eval::net::features::LineFeatures;
        let freestyle = for_rule(Rule::Freestyle).expect("freestyle's net");
        assert_eq!(
            (freestyle.features, freestyle.tables),
            (LineFeatures::Window, 1)
        );
        let renju = for_rule(Rule::Renju).expect("renju's net");
        assert_eq!(
            (renju.features, renju.tables),
            (LineFeatures::RenjuWindow, 2)
        );
        let standard = for_rule(Rule::Standard).expect("standard plays freestyle's net");
        assert!(std::ptr::eq(standard, freestyle));
        for rule in [Rule::Caro, Rule::CaroExact] {
            let caro = for_rule(rule).expect("caro plays freestyle's net");
            assert!(std::ptr::eq(caro, freestyle), "{rule:?}");
        }
    }

    #[test]
    fn the_network_plays_by_default_only_where_it_has_proven_itself() {
        let square = |side| BoardSize::square(side).unwrap();
        assert!(proven(Rule::Freestyle, square(15)).is_some());
        assert!(proven(Rule::Freestyle, square(20)).is_none());
        assert!(proven(Rule::Freestyle, BoardSize::new(15, 20).unwrap()).is_none());
        assert!(proven(Rule::Standard, square(15)).is_some());
        assert!(proven(Rule::Standard, square(20)).is_none());
        assert!(proven(Rule::Renju, square(15)).is_none());
        assert!(proven(Rule::Caro, square(15)).is_none());
    }
}
