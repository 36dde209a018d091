/work/main/target-fh/release/deps/once_cell-feaa9197328bc899.d: /root/.cargo/registry/src/index.crates.io-1949cf8c6b5b557f/once_cell-1.20.3/src/lib.rs /root/.cargo/registry/src/index.crates.io-1949cf8c6b5b557f/once_cell-1.20.3/src/imp_std.rs /root/.cargo/registry/src/index.crates.io-1949cf8c6b5b557f/once_cell-1.20.3/src/race.rs

/work/main/target-fh/release/deps/libonce_cell-feaa9197328bc899.rlib: /root/.cargo/registry/src/index.crates.io-1949cf8c6b5b557f/once_cell-1.20.3/src/lib.rs /root/.cargo/registry/src/index.crates.io-1949cf8c6b5b557f/once_cell-1.20.3/src/imp_std.rs /root/.cargo/registry/src/index.crates.io-1949cf8c6b5b557f/once_cell-1.20.3/src/race.rs

/work/main/target-fh/release/deps/libonce_cell-feaa9197328bc899.rmeta: /root/.cargo/registry/src/index.crates.io-1949cf8c6b5b557f/once_cell-1.20.3/src/lib.rs /root/.cargo/registry/src/index.crates.io-1949cf8c6b5b557f/once_cell-1.20.3/src/imp_std.rs /root/.cargo/registry/src/index.crates.io-1949cf8c6b5b557f/once_cell-1.20.3/src/race.rs

/root/.cargo/registry/src/index.crates.io-1949cf8c6b5b557f/once_cell-1.20.3/src/lib.rs:
/root/.cargo/registry/src/index.crates.io-1949cf8c6b5b557f/once_cell-1.20.3/src/imp_std.rs:
/root/.cargo/registry/src/index.crates.io-1949cf8c6b5b557f/once_cell-1.20.3/src/race.rs:
