//! The hash bench (`pbrain-quinto bench hash`): what a transposition table's size costs the
//! first search with it. For each size and thread count, the same node-limited search three
//! times: on a table just allocated (its pages faulted in by the search itself, as before
//! issue 98), on a table whose pages were faulted in beforehand (what the engine does as
//! soon as the size is set), and again after a clear (a warm table, emptied; the clear is
//! timed too).

use super::{bench_board, BENCH_POSITIONS};
use crate::memory::physical_bytes;
use crate::search::params::TABLE_MAX_PHYSICAL_PERCENT;
use crate::search::tt::Table;
use crate::search::{search, Limits, Silent, Stop};
use std::time::{Duration, Instant};

/// Table sizes the bench tries, in MiB.
pub const HASH_BENCH_MIB: [u64; 5] = [16, 256, 512, 1024, 4096];
/// Search threads the bench tries.
pub const HASH_BENCH_THREADS: [usize; 2] = [1, 2];
/// Nodes of each search: a few tenths of a second.
pub const HASH_BENCH_NODES: u64 = 300_000;
/// Tables of each size and thread count: the best first and warm search of them count.
pub const HASH_BENCH_ROUNDS: usize = 3;
/// The bench position searched (a 15x15 middle game of the search bench).
const HASH_BENCH_POSITION: usize = 2;

/// One size and thread count's figures.
#[derive(Clone, Debug)]
pub struct HashFigures {
    pub mib: u64,
    pub threads: usize,
    /// Nodes a second of the search on a table just allocated.
    pub cold: f64,
    /// How long faulting the pages in took, before the next search.
    pub warm_up: Duration,
    /// Nodes a second of the first search after that.
    pub first: f64,
    /// How long clearing the table after it took (`yxhashclear`, a new game).
    pub clear: Duration,
    /// Nodes a second of a search after the table was used and cleared.
    pub warm: f64,
}

impl HashFigures {
    /// The first search's speed as a share of the warm one's.
    pub fn first_to_warm(&self) -> f64 {
        self.first / self.warm.max(1.0)
    }
}

/// The sizes of [`HASH_BENCH_MIB`] the engine would make on this machine (within
/// `TABLE_MAX_PHYSICAL_PERCENT` of its memory), and those it leaves out.
pub fn hash_bench_sizes() -> (Vec<u64>, Vec<u64>) {
    let room = physical_bytes().map_or(u64::MAX, |b| b / 100 * TABLE_MAX_PHYSICAL_PERCENT);
    HASH_BENCH_MIB.iter().partition(|&&mib| mib << 20 <= room)
}

/// Runs the hash bench on `sizes` (MiB), each with every thread count, searches of `nodes`
/// nodes, calling `report` with each line's figures as they come. The first and the warm
/// search are the best of [`HASH_BENCH_ROUNDS`] tables each (other processes on the
/// machine slow some searches down); the search on a table just allocated and the
/// warm-up are the first round's, on memory this size has not used before.
pub fn hash_bench(sizes: &[u64], nodes: u64, report: &mut dyn FnMut(&HashFigures)) {
    for &mib in sizes {
        for &threads in &HASH_BENCH_THREADS {
            let rounds: Vec<HashFigures> = (0..HASH_BENCH_ROUNDS)
                .map(|_| one_round(mib, threads, nodes))
                .collect();
            let best =
                |speed: fn(&HashFigures) -> f64| rounds.iter().map(speed).fold(0.0, f64::max);
            report(&HashFigures {
                first: best(|f| f.first),
                warm: best(|f| f.warm),
                ..rounds[0].clone()
            });
        }
    }
}

/// One table of `mib` MiB searched just allocated, then faulted in, then cleared.
fn one_round(mib: u64, threads: usize, nodes: u64) -> HashFigures {
    let cold = {
        let mut table = Table::with_bytes(mib << 20);
        nodes_per_second(&mut table, threads, nodes)
    };
    let mut table = Table::with_bytes(mib << 20);
    let started = Instant::now();
    table.warm_up();
    table.wait_warm();
    let warm_up = started.elapsed();
    let first = nodes_per_second(&mut table, threads, nodes);
    let started = Instant::now();
    table.clear();
    let clear = started.elapsed();
    let warm = nodes_per_second(&mut table, threads, nodes);
    HashFigures {
        mib,
        threads,
        cold,
        warm_up,
        first,
        clear,
        warm,
    }
}

/// The speed of one node-limited search of the bench position on `table`.
fn nodes_per_second(table: &mut Table, threads: usize, nodes: u64) -> f64 {
    let (rule, side, moves) = BENCH_POSITIONS[HASH_BENCH_POSITION];
    let mut board = bench_board(rule, side, moves);
    let limits = Limits {
        max_nodes: Some(nodes),
        multipv: 1,
        threads,
        ..Limits::default()
    };
    let started = Instant::now();
    let result = search(&mut board, table, &limits, &Stop::new(), &mut Silent);
    result.nodes as f64 / started.elapsed().as_secs_f64().max(1e-9)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_smallest_size_runs_and_every_figure_is_there() {
        let mut lines = Vec::new();
        hash_bench(&[1], 2_000, &mut |figures| lines.push(figures.clone()));
        assert_eq!(lines.len(), HASH_BENCH_THREADS.len());
        for line in &lines {
            assert!(
                line.cold > 0.0 && line.first > 0.0 && line.warm > 0.0,
                "{line:?}"
            );
        }
    }
}
