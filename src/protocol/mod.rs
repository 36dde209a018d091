//! The Gomocup/Piskvork brain protocol with the Yixin extensions (docs/protocol.md):
//! an input thread reads and parses lines, the session answers them, one writer prints.

mod analysis;
mod balance;
mod command;
mod database;
mod database_commands;
mod notation;
mod output;
mod plural;
mod session;
mod startup;
mod trace;

pub use command::{Command, Info, Input, Owner, Parser, Point};
pub use output::{Lines, Sink, Stdout};
pub use session::{Flow, Session, ABOUT};
pub use startup::Startup;

use crate::engine::Handicap;
use crate::eval::evaluator::EvalKind;
use crate::search::Stop;
use std::io::{BufRead, Read};
use std::sync::atomic::{fence, Ordering};
use std::sync::mpsc;
use std::sync::Arc;

const INPUT_THREAD_STACK: usize = 256 << 10;

/// The longest input line read whole; longer ones are answered with one ERROR.
const MAX_LINE_BYTES: u64 = 1 << 20;

/// Runs the brain until END or the end of input. `interactive` says stdin is a terminal;
/// `threads` (`--threads`) is the search threads until the manager sends `INFO thread_num`,
/// and `eval` (`--eval`) the evaluation, over what the settings file beside the executable
/// says.
pub fn run(
    interactive: bool,
    mut handicap: Handicap,
    threads: Option<usize>,
    eval: Option<EvalKind>,
) {
    let mut startup = Startup::beside_executable();
    startup.threads = threads.or(startup.threads);
    handicap.eval = eval.or(startup.eval).unwrap_or_default();
    let stop = Arc::new(Stop::new());
    let (sender, receiver) = mpsc::channel();
    let reader_stop = Arc::clone(&stop);
    // A small stack: the input thread only reads and parses lines.
    let reader = std::thread::Builder::new()
        .name("input".into())
        .stack_size(INPUT_THREAD_STACK)
        .spawn(move || read_input(&reader_stop, &sender));
    if reader.is_err() {
        return;
    }
    let mut out = Stdout;
    if interactive {
        out.line("MESSAGE Quinto is a Gomocup protocol engine: a manager (Piskvork, c-gomoku-cli, GomocupJudge) drives it. To play it yourself, run: pbrain-quinto play");
    }
    let mut session = Session::new(handicap, startup);
    let mut waiting = None;
    while let Ok(input) = waiting.take().map_or_else(|| receiver.recv(), Ok) {
        if session.handle(input, &stop, &mut out) == Flow::Exit {
            break;
        }
        if session.wants_ponder() {
            // Any input from here on ends the ponder search, one already waiting at once.
            stop.ponder_begin();
            // Pairs with the input thread's fence: it queues a line and then signals, we
            // mark pondering and then look; one of us sees the other.
            fence(Ordering::SeqCst);
            match receiver.try_recv() {
                Ok(input) => waiting = Some(input),
                Err(mpsc::TryRecvError::Empty) => session.ponder(&stop),
                Err(mpsc::TryRecvError::Disconnected) => break,
            }
            stop.ponder_end();
        }
    }
}

/// The input thread: lines to inputs, with the commands that must reach a running search
/// (END, STOP, YXSTOP, `INFO timeout_turn 0`) signalled at once.
fn read_input(stop: &Stop, sender: &mpsc::Sender<Input>) {
    let stdin = std::io::stdin();
    let mut stdin = stdin.lock();
    let mut parser = Parser::new();
    let mut buffer = Vec::new();
    loop {
        buffer.clear();
        let read = (&mut stdin)
            .take(MAX_LINE_BYTES)
            .read_until(b'\n', &mut buffer);
        let input = match read {
            Ok(0) | Err(_) => break,
            Ok(_) if !buffer.ends_with(b"\n") && buffer.len() as u64 == MAX_LINE_BYTES => {
                skip_rest_of_line(&mut stdin);
                parser.reject(format!("line longer than {MAX_LINE_BYTES} bytes ignored"))
            }
            Ok(_) => parser.feed(&String::from_utf8_lossy(&buffer)),
        };
        match &input {
            Input::Command(Command::End) => stop.quit(),
            Input::Command(Command::Stop) | Input::Command(Command::Info(Info::TimeoutTurn(0))) => {
                stop.move_now()
            }
            _ => {}
        }
        if sender.send(input).is_err() {
            return;
        }
        // Queued first, signalled second: a ponder search that begins after this signal
        // finds the line already queued (see `run`), one that began before it is ended by it.
        // Signalled first, a line could slip between the two and leave a ponder search
        // running with nobody to end it.
        fence(Ordering::SeqCst);
        stop.input();
    }
    // End of input: nobody is waiting any more. Answer what was asked at once, then leave.
    stop.quit();
    let _ = sender.send(Input::Command(Command::End));
}

fn skip_rest_of_line(stdin: &mut impl BufRead) {
    let mut sink = Vec::new();
    loop {
        sink.clear();
        match stdin.take(MAX_LINE_BYTES).read_until(b'\n', &mut sink) {
            Ok(0) | Err(_) => return,
            Ok(_) if sink.ends_with(b"\n") => return,
            Ok(_) => {}
        }
    }
}
