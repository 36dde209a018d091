//! What std does not offer on Rust 1.63: whether stdin and stdout are terminals (and a
//! Windows console switched to ANSI colours), and keeping glibc from reserving a 64 MiB heap
//! arena per thread (the Gomocup judge counts virtual memory, and the input thread would
//! otherwise add 64 MiB to it); 2 MiB pages for the transposition table.
#![allow(unsafe_code)]

/// Whether stdin is a terminal (the protocol loop then says how to play instead).
pub fn stdin_is_terminal() -> bool {
    is_terminal(Stream::Input)
}

/// Whether stdout is a terminal (the terminal game draws in colour there).
pub fn stdout_is_terminal() -> bool {
    is_terminal(Stream::Output)
}

#[derive(Clone, Copy)]
enum Stream {
    Input,
    Output,
}

#[cfg(unix)]
fn is_terminal(stream: Stream) -> bool {
    extern "C" {
        fn isatty(fd: i32) -> i32;
    }
    let fd = match stream {
        Stream::Input => 0,
        Stream::Output => 1,
    };
    // SAFETY: isatty only inspects the descriptor; 0 and 1 are always valid arguments.
    unsafe { isatty(fd) == 1 }
}

#[cfg(windows)]
fn is_terminal(stream: Stream) -> bool {
    let mut mode = 0u32;
    // SAFETY: both calls take plain values; GetConsoleMode fails cleanly on a pipe.
    unsafe { console::GetConsoleMode(console::handle(stream), &mut mode) != 0 }
}

/// The few console calls of kernel32 that std does not wrap.
#[cfg(windows)]
mod console {
    use super::Stream;
    use std::os::raw::c_void;

    /// Lets a console read ANSI escapes (Windows 10 and later).
    pub const ENABLE_VIRTUAL_TERMINAL_PROCESSING: u32 = 0x0004;

    extern "system" {
        fn GetStdHandle(which: u32) -> *mut c_void;
        pub fn GetConsoleMode(handle: *mut c_void, mode: *mut u32) -> i32;
        pub fn SetConsoleMode(handle: *mut c_void, mode: u32) -> i32;
    }

    pub(super) fn handle(stream: Stream) -> *mut c_void {
        let which = match stream {
            Stream::Input => -10i32 as u32,  // STD_INPUT_HANDLE
            Stream::Output => -11i32 as u32, // STD_OUTPUT_HANDLE
        };
        // SAFETY: GetStdHandle takes a plain value and returns null or an invalid handle
        // when there is none, which the console calls then refuse.
        unsafe { GetStdHandle(which) }
    }
}

#[cfg(not(any(unix, windows)))]
fn is_terminal(_stream: Stream) -> bool {
    false
}

/// Whether the terminal understands ANSI colours: not `TERM=dumb`.
#[cfg(unix)]
pub fn ansi_colours() -> bool {
    std::env::var("TERM").map_or(false, |term| !term.is_empty() && term != "dumb")
}

/// Whether the console understands ANSI colours, switching it to them where it can
/// (virtual-terminal processing, Windows 10 and later): an older console refuses the
/// switch, and a pipe is no console; then plain ASCII.
#[cfg(windows)]
pub fn ansi_colours() -> bool {
    use console::ENABLE_VIRTUAL_TERMINAL_PROCESSING as VT;
    let handle = console::handle(Stream::Output);
    let mut mode = 0u32;
    // SAFETY: the calls take plain values and fail cleanly on what is not a console.
    unsafe {
        console::GetConsoleMode(handle, &mut mode) != 0
            && (mode & VT != 0 || console::SetConsoleMode(handle, mode | VT) != 0)
    }
}

#[cfg(not(any(unix, windows)))]
pub fn ansi_colours() -> bool {
    false
}

/// One malloc arena for the whole process (glibc only; elsewhere nothing to do).
#[cfg(all(target_os = "linux", target_env = "gnu"))]
pub fn limit_malloc_arenas() {
    extern "C" {
        fn mallopt(param: i32, value: i32) -> i32;
    }
    const M_ARENA_MAX: i32 = -8;
    // SAFETY: mallopt only changes allocator tuning; it is called before any thread starts.
    unsafe {
        mallopt(M_ARENA_MAX, 1);
    }
}

#[cfg(not(all(target_os = "linux", target_env = "gnu")))]
pub fn limit_malloc_arenas() {}

/// Asks Linux to back `memory` with 2 MiB pages where it can (the whole 2 MiB pages inside
/// it): the transposition table's probes land on random pages, and with 4 KiB ones nearly
/// every probe and prefetch misses the TLB. Only a hint; a kernel without transparent huge
/// pages declines it and nothing changes.
#[cfg(target_os = "linux")]
pub fn advise_huge_pages<T>(memory: &[T]) {
    use std::os::raw::c_void;
    extern "C" {
        fn madvise(addr: *mut c_void, len: usize, advice: i32) -> i32;
    }
    const MADV_HUGEPAGE: i32 = 14;
    const HUGE_PAGE: usize = 2 << 20;
    let start = memory.as_ptr() as usize;
    let first = (start + HUGE_PAGE - 1) & !(HUGE_PAGE - 1);
    let end = (start + std::mem::size_of_val(memory)) & !(HUGE_PAGE - 1);
    if end > first {
        // SAFETY: the range lies inside `memory`'s allocation, and MADV_HUGEPAGE changes only
        // how the kernel backs those pages, never their contents.
        unsafe {
            madvise(first as *mut c_void, end - first, MADV_HUGEPAGE);
        }
    }
}

#[cfg(not(target_os = "linux"))]
pub fn advise_huge_pages<T>(_memory: &[T]) {}
