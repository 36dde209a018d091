//! The two threads beside the game loop: one owns the engines and thinks, one reads what the
//! person types. Both report through one channel of [`Event`]s, so the loop waits in one
//! place, its clocks keep running while the engine thinks, and `quit` reaches a search at
//! once (through [`Stop`]).

use crate::engine::{Engine, Handicap, Settings};
use crate::game::{BoardSize, Color, Pos};
use crate::search::{Reporter, SearchResult, Stop};
use std::io::{BufRead, Read};
use std::sync::mpsc::{channel, Sender};
use std::sync::Arc;
use std::thread::JoinHandle;

/// The search recurses deeply (threat solver, 128 plies): a thread's default 2 MiB is not
/// enough; this is address space, used only as deep as the search goes.
const ENGINE_STACK: usize = 64 << 20;
const INPUT_STACK: usize = 256 << 10;
/// Longer input lines are cut (nobody types a move that long).
const MAX_LINE_BYTES: u64 = 64 << 10;

/// What the game loop hears.
#[derive(Debug)]
pub enum Event {
    /// A line the person typed (without its line end).
    Line(String),
    /// The input ended.
    Eof,
    /// A finished search iteration of request `id`.
    Progress { id: u64, result: SearchResult },
    /// Request `id`'s answer.
    Done { id: u64, result: SearchResult },
}

/// One search to run.
#[derive(Clone, Debug)]
pub struct Request {
    pub id: u64,
    pub size: BoardSize,
    pub stones: Vec<(Pos, Color)>,
    /// The rule and the time (per move and on the clock).
    pub settings: Settings,
    pub multipv: usize,
    /// At full strength whatever the level (hints).
    pub advice: bool,
}

/// The engine thread.
#[derive(Debug)]
pub struct Worker {
    requests: Option<Sender<Request>>,
    stop: Arc<Stop>,
    thread: Option<JoinHandle<()>>,
}

impl Worker {
    /// Starts the thread; answers go to `events`.
    pub fn spawn(handicap: Handicap, events: Sender<Event>) -> Result<Worker, String> {
        let stop = Arc::new(Stop::new());
        let (requests, inbox) = channel::<Request>();
        let thread_stop = Arc::clone(&stop);
        let thread = std::thread::Builder::new()
            .name("engine".into())
            .stack_size(ENGINE_STACK)
            .spawn(move || {
                let mut engines = Engines {
                    handicap,
                    opponent: None,
                    adviser: None,
                };
                for request in inbox {
                    let id = request.id;
                    let result = engines.think(request, &thread_stop, &events);
                    if events.send(Event::Done { id, result }).is_err() {
                        return;
                    }
                }
            })
            .map_err(|e| format!("cannot start the engine thread: {e}"))?;
        Ok(Worker {
            requests: Some(requests),
            stop,
            thread: Some(thread),
        })
    }

    pub fn think(&self, request: Request) {
        if let Some(requests) = &self.requests {
            let _ = requests.send(request);
        }
    }

    /// The running search answers at once with its best move so far.
    pub fn move_now(&self) {
        self.stop.move_now();
    }
}

impl Drop for Worker {
    /// Cuts any search short and waits for the thread.
    fn drop(&mut self) {
        self.stop.quit();
        self.requests = None;
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}

/// The engine at the chosen level, and a full-strength one for hints when the level is
/// weaker (created on the first hint).
struct Engines {
    handicap: Handicap,
    opponent: Option<Engine>,
    adviser: Option<Engine>,
}

impl Engines {
    fn think(&mut self, request: Request, stop: &Stop, events: &Sender<Event>) -> SearchResult {
        let (slot, handicap) = if request.advice && self.handicap != Handicap::default() {
            (&mut self.adviser, Handicap::default())
        } else {
            (&mut self.opponent, self.handicap)
        };
        let stale = slot
            .as_ref()
            .map_or(true, |engine| engine.board().size() != request.size);
        if stale {
            // Drop the old engine (and its table) before making the new one.
            *slot = None;
            *slot = Some(Engine::new(
                request.size,
                request.settings.clone(),
                handicap,
            ));
        }
        let engine = slot.as_mut().expect("the engine was just made");
        engine.set_settings(request.settings);
        engine.set_position(&request.stones);
        let mut reporter = Progress {
            id: request.id,
            events,
        };
        stop.begin();
        let result = engine.think_with(request.multipv, &[], stop, &mut reporter);
        stop.end();
        result
    }
}

/// Sends each finished iteration to the game loop (for `think`).
struct Progress<'a> {
    id: u64,
    events: &'a Sender<Event>,
}

impl Reporter for Progress<'_> {
    fn iteration(&mut self, result: &SearchResult) {
        let _ = self.events.send(Event::Progress {
            id: self.id,
            result: result.clone(),
        });
    }
}

/// Starts the thread that reads lines from `input` into `events` (then [`Event::Eof`]).
/// It is not joined: on a terminal it may sit in a read until the process ends.
pub fn spawn_reader(input: Box<dyn BufRead + Send>, events: Sender<Event>) -> Result<(), String> {
    std::thread::Builder::new()
        .name("input".into())
        .stack_size(INPUT_STACK)
        .spawn(move || {
            let mut input = input;
            let mut buffer = Vec::new();
            loop {
                buffer.clear();
                match (&mut input)
                    .take(MAX_LINE_BYTES)
                    .read_until(b'\n', &mut buffer)
                {
                    Ok(0) | Err(_) => break,
                    Ok(_) => {
                        let line = String::from_utf8_lossy(&buffer);
                        let line = line.trim_end_matches(&['\r', '\n'][..]).to_string();
                        if events.send(Event::Line(line)).is_err() {
                            return;
                        }
                    }
                }
            }
            let _ = events.send(Event::Eof);
        })
        .map(|_| ())
        .map_err(|e| format!("cannot start the input thread: {e}"))
}
