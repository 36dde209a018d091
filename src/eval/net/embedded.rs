//! The networks built into the executable (Gomocup takes one file): freestyle's and renju's,
//! trained by `quinto-train` (tournaments/tuning/README.md). Standard and caro play
//! freestyle's: its window of four cells a side cannot see the sixth stone that spoils a
//! five, nor the blocked ends that spoil a caro five, but the search judges fives by the
//! rule, and the net beat the classical evaluation there too at equal nodes
//! (tournaments/results.md).

use super::{NetUse, Network};
use crate::game::{BoardSize, Rule};
use once_cell::sync::Lazy;

/// Where a network plays by default (`--eval auto`), and what for: the rules and square
/// boards on which that use has beaten the classical evaluation at time: an SPRT, or 400
/// games or more with the interval above zero (tournaments/results.md). Elsewhere only
/// `--eval net` or `--eval policy` plays it.
const PROVEN: [(Rule, usize, NetUse); 3] = [
    (Rule::Freestyle, 15, NetUse::ValueAndPolicy),
    (Rule::Standard, 15, NetUse::ValueAndPolicy),
    (Rule::Renju, 15, NetUse::PolicyOnly),
];

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

/// The network that plays by default on this rule and board, and what for, if one has
/// proven itself there.
pub fn proven(rule: Rule, size: BoardSize) -> Option<(&'static Network, NetUse)> {
    if size.width() != size.height() {
        return None;
    }
    let &(_, _, net_use) = PROVEN
        .iter()
        .find(|&&(proven_rule, side, _)| proven_rule == rule && side == size.width())?;
    for_rule(rule).map(|net| (net, net_use))
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
        let full = |rule, side| proven(rule, square(side)).map(|(_, net_use)| net_use);
        assert_eq!(full(Rule::Freestyle, 15), Some(NetUse::ValueAndPolicy));
        assert!(proven(Rule::Freestyle, square(20)).is_none());
        assert!(proven(Rule::Freestyle, BoardSize::new(15, 20).unwrap()).is_none());
        assert_eq!(full(Rule::Standard, 15), Some(NetUse::ValueAndPolicy));
        assert!(proven(Rule::Standard, square(20)).is_none());
        assert_eq!(full(Rule::Renju, 15), Some(NetUse::PolicyOnly));
        assert!(proven(Rule::Renju, square(20)).is_none());
        assert!(proven(Rule::Caro, square(15)).is_none());
    }
}
