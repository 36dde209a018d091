//! `quinto-match`: plays Gomocup/Piskvork protocol engines against each other, refereed by
//! Quinto's rules core, and reports the results; and the tools that train Quinto's
//! evaluation (see README.md). Two jobs, two folders: `matches/` and `training/`; their
//! modules are re-exported here so that the binaries name them shortly.
#![forbid(unsafe_code)]
#![warn(missing_debug_implementations)]

pub mod matches;
pub mod tool;
pub mod training;

pub use matches::{args, engine, game, openings, pool, procmem, report, runner, stats, suite};
pub use training::{labels, netdata, nettrain, selfplay, tuning};
