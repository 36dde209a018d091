//! The networks built into the executable (Gomocup takes one file): freestyle's, trained by
//! `quinto-train` (tournaments/tuning/README.md). Rules without one use the classical
//! evaluation (renju's first net lost its match: tournaments/results.md, stop 52).

use super::Network;
use crate::game::Rule;
use once_cell::sync::Lazy;

static FREESTYLE: Lazy<Option<Network>> =
    Lazy::new(|| checked("freestyle", include_bytes!("freestyle.qnet")));

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

/// The network for `rule`, if there is one.
pub fn for_rule(rule: Rule) -> Option<&'static Network> {
    match rule {
        Rule::Freestyle => FREESTYLE.as_ref(),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_built_in_networks_read_and_only_their_rules_have_one() {
        assert!(for_rule(Rule::Freestyle).is_some());
        for rule in [Rule::Standard, Rule::Renju, Rule::Caro, Rule::CaroExact] {
            assert!(for_rule(rule).is_none(), "{rule:?}");
        }
    }
}
