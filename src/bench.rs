//! Benchmarks that print figures (never timed tests).
