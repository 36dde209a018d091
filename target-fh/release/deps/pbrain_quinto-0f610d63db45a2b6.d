/work/main/target-fh/release/deps/pbrain_quinto-0f610d63db45a2b6.d: src/main.rs src/platform.rs

/work/main/target-fh/release/deps/pbrain_quinto-0f610d63db45a2b6: src/main.rs src/platform.rs

src/main.rs:
src/platform.rs:
