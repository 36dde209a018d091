//! `quinto-match`: plays Gomocup/Piskvork protocol engines against each other, refereed by
//! Quinto's rules core, and reports the results (see README.md).
#![forbid(unsafe_code)]
#![warn(missing_debug_implementations)]

pub mod args;
pub mod engine;
pub mod game;
pub mod labels;
pub mod netdata;
pub mod nettrain;
pub mod openings;
pub mod pool;
pub mod procmem;
pub mod report;
pub mod runner;
pub mod selfplay;
pub mod stats;
pub mod suite;
pub mod tool;
pub mod tuning;
