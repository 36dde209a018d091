//! The training toolchain: self-play games and the network's positions and trainer, teacher
//! labels from a stronger engine, and the logistic fit of the classical evaluation's weights.

pub mod labels;
pub mod netdata;
pub mod nettrain;
pub mod selfplay;
pub mod tuning;
