//! The alpha-beta search's nodes allocate nothing once the searcher's buffers have grown.
//! Search threads share the process's allocator: when move generation and the quiescence
//! allocated at their nodes, the allocator's lock made two threads 1.7 × one instead of 2 ×.
//! A counting allocator (this test binary's own) checks it on the bench positions, which
//! exercise every path: every rule and both board sizes, open threes to stop, renju fouls
//! and a crowded board full of fours.

use quinto::bench::{bench_board, BENCH_POSITIONS};
use quinto::eval::evaluator::EvalKind;
use quinto::search::alphabeta::{Cutoff, Searcher};
use quinto::search::params::WIN;
use quinto::search::tt::Table;
use quinto::search::Stop;
use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;
use std::time::Instant;

/// The system allocator, counting this thread's allocations (the test harness's threads
/// allocate too).
struct Counting;

thread_local! {
    static ALLOCATIONS: Cell<u64> = const { Cell::new(0) };
}

fn count() {
    let _ = ALLOCATIONS.try_with(|n| n.set(n.get() + 1));
}

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        count();
        System.alloc(layout)
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        System.dealloc(ptr, layout)
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        count();
        System.realloc(ptr, layout, new_size)
    }
}

#[global_allocator]
static COUNTING: Counting = Counting;

fn allocations() -> u64 {
    ALLOCATIONS.with(Cell::get)
}

#[test]
#[cfg_attr(
    debug_assertions,
    ignore = "the debug build's re-checks of the incremental state allocate: scripts/test runs it"
)]
fn search_nodes_allocate_nothing_once_the_buffers_have_grown() {
    let stop = Stop::new();
    let unlimited = Cutoff {
        deadline: None,
        max_nodes: None,
    };
    let evals = [EvalKind::Classical, EvalKind::Net];
    for ((rule, side, moves), eval) in evals.iter().flat_map(|&e| BENCH_POSITIONS.map(|p| (p, e))) {
        let mut board = bench_board(rule, side, moves);
        let table = Table::with_bytes(1 << 20);
        let mut searcher =
            Searcher::new(&mut board, &table, &stop, unlimited, Instant::now(), eval);
        // The first iterations grow each ply's buffers (to the longest move list a ply has
        // met); deeper ones meet new plies and longer lists less and less.
        for depth in 1..=6 {
            searcher.root(-WIN, WIN, depth);
        }
        let (before, nodes_before) = (allocations(), searcher.nodes);
        for depth in 7..=9 {
            searcher.root(-WIN, WIN, depth);
        }
        let (allocated, nodes) = (allocations() - before, searcher.nodes - nodes_before);
        assert!(nodes > 10_000, "{moves}: only {nodes} nodes searched");
        assert!(
            allocated * 100 < nodes,
            "{eval:?} {moves}: {allocated} allocations in {nodes} nodes"
        );
    }
}
