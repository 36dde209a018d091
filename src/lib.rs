//! Quinto: a gomoku and renju engine.
//!
//! Dependencies point one way: `game` (rules) ← `bench` and the front ends.
#![forbid(unsafe_code)]
#![warn(missing_debug_implementations)]

pub mod bench;
pub mod game;
pub mod rng;
