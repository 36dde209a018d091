//! Quinto: a gomoku and renju engine.
//!
//! Dependencies point one way: `game` (rules) ← `eval` ← `search` ← `engine` ← `protocol`,
//! `play`.
// No `unsafe` but one processor hint (the transposition table's prefetch, `search::tt`), the
// AVX2 calls of the network, and the system calls std lacks (`platform`).
#![deny(unsafe_code)]
#![warn(missing_debug_implementations)]

pub mod bench;
pub mod checksum;
pub mod engine;
pub mod eval;
pub mod game;
pub mod memory;
pub mod platform;
pub mod play;
pub mod protocol;
pub mod record;
pub mod replace_file;
pub mod rng;
pub mod search;
pub mod tactics_suite;
