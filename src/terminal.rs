//! Whether standard input is a terminal (std's `IsTerminal` is newer than Rust 1.63).

#[cfg(unix)]
pub fn stdin_is_terminal() -> bool {
    extern "C" {
        fn isatty(fd: i32) -> i32;
    }
    // SAFETY: isatty only inspects the descriptor; 0 is always a valid argument.
    unsafe { isatty(0) == 1 }
}

#[cfg(windows)]
pub fn stdin_is_terminal() -> bool {
    use std::os::raw::c_void;
    extern "system" {
        fn GetStdHandle(which: u32) -> *mut c_void;
        fn GetConsoleMode(handle: *mut c_void, mode: *mut u32) -> i32;
    }
    const STD_INPUT_HANDLE: u32 = -10i32 as u32;
    let mut mode = 0u32;
    // SAFETY: both calls take plain values; GetConsoleMode fails cleanly on a pipe.
    unsafe { GetConsoleMode(GetStdHandle(STD_INPUT_HANDLE), &mut mode) != 0 }
}

#[cfg(not(any(unix, windows)))]
pub fn stdin_is_terminal() -> bool {
    false
}
