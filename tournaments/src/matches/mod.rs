//! The match runner: engines started as pbrain processes, games between them refereed by
//! Quinto's rules core, the schedule and its worker threads, what a match writes and the
//! statistics it reports, and the opening files and suites the games start from.

pub mod args;
pub mod engine;
pub mod game;
pub mod openings;
pub mod pool;
pub mod procmem;
pub mod report;
pub mod runner;
pub mod stats;
pub mod suite;
