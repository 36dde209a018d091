/work/main/target-fh/release/deps/quinto-24a059b77c2adb73.d: src/lib.rs src/bench.rs src/engine.rs src/eval/mod.rs src/eval/weights.rs src/game/mod.rs src/game/board.rs src/game/color.rs src/game/coord.rs src/game/forbidden.rs src/game/line.rs src/game/outcome.rs src/game/pattern.rs src/game/point_set.rs src/game/reference.rs src/game/rule.rs src/game/shape.rs src/game/threat.rs src/game/zobrist.rs src/memory.rs src/play/mod.rs src/play/clock.rs src/play/game.rs src/play/input.rs src/play/level.rs src/play/options.rs src/play/render.rs src/play/replay.rs src/play/session.rs src/play/worker.rs src/protocol/mod.rs src/protocol/command.rs src/protocol/output.rs src/protocol/session.rs src/record.rs src/rng.rs src/search/mod.rs src/search/alphabeta.rs src/search/movegen.rs src/search/params.rs src/search/quiesce.rs src/search/threats.rs src/search/time.rs src/search/tt.rs

/work/main/target-fh/release/deps/libquinto-24a059b77c2adb73.rlib: src/lib.rs src/bench.rs src/engine.rs src/eval/mod.rs src/eval/weights.rs src/game/mod.rs src/game/board.rs src/game/color.rs src/game/coord.rs src/game/forbidden.rs src/game/line.rs src/game/outcome.rs src/game/pattern.rs src/game/point_set.rs src/game/reference.rs src/game/rule.rs src/game/shape.rs src/game/threat.rs src/game/zobrist.rs src/memory.rs src/play/mod.rs src/play/clock.rs src/play/game.rs src/play/input.rs src/play/level.rs src/play/options.rs src/play/render.rs src/play/replay.rs src/play/session.rs src/play/worker.rs src/protocol/mod.rs src/protocol/command.rs src/protocol/output.rs src/protocol/session.rs src/record.rs src/rng.rs src/search/mod.rs src/search/alphabeta.rs src/search/movegen.rs src/search/params.rs src/search/quiesce.rs src/search/threats.rs src/search/time.rs src/search/tt.rs

/work/main/target-fh/release/deps/libquinto-24a059b77c2adb73.rmeta: src/lib.rs src/bench.rs src/engine.rs src/eval/mod.rs src/eval/weights.rs src/game/mod.rs src/game/board.rs src/game/color.rs src/game/coord.rs src/game/forbidden.rs src/game/line.rs src/game/outcome.rs src/game/pattern.rs src/game/point_set.rs src/game/reference.rs src/game/rule.rs src/game/shape.rs src/game/threat.rs src/game/zobrist.rs src/memory.rs src/play/mod.rs src/play/clock.rs src/play/game.rs src/play/input.rs src/play/level.rs src/play/options.rs src/play/render.rs src/play/replay.rs src/play/session.rs src/play/worker.rs src/protocol/mod.rs src/protocol/command.rs src/protocol/output.rs src/protocol/session.rs src/record.rs src/rng.rs src/search/mod.rs src/search/alphabeta.rs src/search/movegen.rs src/search/params.rs src/search/quiesce.rs src/search/threats.rs src/search/time.rs src/search/tt.rs

src/lib.rs:
src/bench.rs:
src/engine.rs:
src/eval/mod.rs:
src/eval/weights.rs:
src/game/mod.rs:
src/game/board.rs:
src/game/color.rs:
src/game/coord.rs:
src/game/forbidden.rs:
src/game/line.rs:
src/game/outcome.rs:
src/game/pattern.rs:
src/game/point_set.rs:
src/game/reference.rs:
src/game/rule.rs:
src/game/shape.rs:
src/game/threat.rs:
src/game/zobrist.rs:
src/memory.rs:
src/play/mod.rs:
src/play/clock.rs:
src/play/game.rs:
src/play/input.rs:
src/play/level.rs:
src/play/options.rs:
src/play/render.rs:
src/play/replay.rs:
src/play/session.rs:
src/play/worker.rs:
src/protocol/mod.rs:
src/protocol/command.rs:
src/protocol/output.rs:
src/protocol/session.rs:
src/record.rs:
src/rng.rs:
src/search/mod.rs:
src/search/alphabeta.rs:
src/search/movegen.rs:
src/search/params.rs:
src/search/quiesce.rs:
src/search/threats.rs:
src/search/time.rs:
src/search/tt.rs:

# env-dep:CARGO_PKG_VERSION=0.1.0
