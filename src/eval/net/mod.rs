//! The learned evaluation: a line-pattern network (see [`network`] for its shape) trained
//! on Quinto's own games by `quinto-train` (tournaments/), evaluated incrementally
//! ([`accumulator`]).

pub mod accumulator;
pub mod embedded;
pub mod features;
pub mod network;
pub mod stand_in;

pub use accumulator::NetState;
pub use network::Network;
pub use stand_in::StandIn;

/// What a network does in a search.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NetUse {
    /// It gives the value (near the window) and the policy.
    ValueAndPolicy,
    /// The classical evaluation gives the value; the network only the policy.
    PolicyOnly,
}

/// Evaluation units per logistic unit of the network's value: the classical evaluation's
/// scale (an evaluation of 150 is a 73 % expectation), so the search's margins fit both.
pub const VALUE_SCALE: f32 = 150.0;
