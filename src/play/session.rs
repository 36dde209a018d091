//! The game loop: one thread that owns the game, the clocks and the screen, and waits on one
//! channel for typed lines and the engine's answers (see `worker`).
//!
//! Lines typed while the engine thinks are kept and obeyed in order once it has moved
//! (typing ahead). At a terminal, `quit`, `stop`, `think` and `help` act at once instead,
//! unless lines typed before them are still waiting; from a script every line waits its
//! turn, so a script means the same whatever the engine's speed. The end of the input is a
//! `quit` in that queue: a script of moves plays out, then the game ends.

use super::clock::{format_ms, Clocks};
use super::game::{color_name, Game};
use super::input::{self, Command, HELP};
use super::options::{Options, Player};
use super::render::{draw, Marks, Style};
use super::worker::{spawn_reader, Event, Request, Worker};
use crate::engine::Settings;
use crate::game::{BoardSize, Color, Rule};
use crate::record::Record;
use crate::search::params::{WIN, WIN_THRESHOLD};
use crate::search::SearchResult;
use std::collections::VecDeque;
use std::io::{self, BufRead, Write};
use std::path::{Path, PathBuf};
use std::sync::mpsc::{channel, Receiver, RecvTimeoutError};
use std::time::{Duration, Instant};

/// How many moves a hint ranks.
const HINT_MOVES: usize = 5;
/// A hint's thinking time: the engine's move time, within these bounds.
const HINT_MIN_MS: u64 = 1_000;
const HINT_MAX_MS: u64 = 5_000;
/// Principal variations are cut after this many moves on screen.
const PV_SHOWN: usize = 12;

/// How the screen behaves.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Screen {
    /// ANSI colours, and the screen cleared before each board (a terminal).
    pub colour: bool,
    /// A person types at a terminal: the terminal echoes what they type, and `quit`,
    /// `stop`, `think` and `help` act at once while the engine thinks. Otherwise (a script)
    /// every line is echoed after its prompt and obeyed in order.
    pub interactive: bool,
    /// Engine against engine: at least this long between moves, to be watchable.
    pub pace: Duration,
}

/// What a session leaves behind.
#[derive(Clone, Debug)]
pub struct Summary {
    /// Every record written, in order (finished games and `save`s).
    pub saved: Vec<PathBuf>,
    /// The game on the board when the session ended.
    pub last: Record,
}

/// Plays until `quit` or the end of `input`.
pub fn play(
    options: &Options,
    records: &Path,
    input: Box<dyn BufRead + Send>,
    out: &mut dyn Write,
    screen: Screen,
) -> Result<Summary, String> {
    let (sender, events) = channel();
    let worker = Worker::spawn(options.level.handicap, sender.clone())?;
    spawn_reader(input, sender)?;
    let mut session = Session::new(options, records, worker, events, out, screen);
    let run = session.run();
    // Stop the engine before reporting (a search may still be running).
    let Session {
        worker,
        game,
        players,
        saved,
        options,
        ..
    } = session;
    drop(worker);
    run.map_err(|e| format!("cannot write to the screen: {e}"))?;
    Ok(Summary {
        saved,
        last: game.to_record(
            &player_name(options, players[0]),
            &player_name(options, players[1]),
        ),
    })
}

/// An engine search under way.
#[derive(Clone, Copy, Debug)]
struct Job {
    id: u64,
    /// The move of this colour, or a hint.
    kind: JobKind,
    started: Instant,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum JobKind {
    Move(Color),
    Hint,
}

/// The latest search output, for `think`.
#[derive(Clone, Debug)]
struct Analysis {
    result: SearchResult,
    mover: Color,
    kind: JobKind,
    size: BoardSize,
    finished: bool,
}

struct Session<'a> {
    options: &'a Options,
    rule: Rule,
    size: BoardSize,
    players: [Player; 2],
    game: Game,
    clocks: Option<Clocks>,
    worker: Worker,
    events: Receiver<Event>,
    /// Lines (and the end of input) typed while the engine was busy.
    queue: VecDeque<Event>,
    busy: Option<Job>,
    next_id: u64,
    analysis: Option<Analysis>,
    numbers: bool,
    out: &'a mut dyn Write,
    screen: Screen,
    records: PathBuf,
    saved: Vec<PathBuf>,
    /// Whether the finished game on the board has been written (or came from a file).
    recorded: bool,
    /// When the side to move began its turn (for the record's times).
    turn_started: Instant,
    /// Engine against engine: no new search before this.
    next_engine_at: Option<Instant>,
    prompted: bool,
    quit: bool,
}

impl<'a> Session<'a> {
    fn new(
        options: &'a Options,
        records: &Path,
        worker: Worker,
        events: Receiver<Event>,
        out: &'a mut dyn Write,
        screen: Screen,
    ) -> Session<'a> {
        Session {
            options,
            rule: options.rule,
            size: options.size,
            players: options.players,
            game: opening_game(options, options.size, options.rule),
            clocks: options.clock_ms.map(Clocks::new),
            worker,
            events,
            queue: VecDeque::new(),
            busy: None,
            next_id: 1,
            analysis: None,
            numbers: false,
            out,
            screen,
            records: records.to_path_buf(),
            saved: Vec::new(),
            recorded: false,
            turn_started: Instant::now(),
            next_engine_at: None,
            prompted: false,
            quit: false,
        }
    }

    fn run(&mut self) -> io::Result<()> {
        let hello = format!(
            "Quinto: {} on {}x{}. Type a move like {} or help.",
            self.rule.name(),
            self.size.width(),
            self.size.height(),
            self.size.to_human(self.size.center())
        );
        self.redraw(&[hello])?;
        while !self.quit {
            let now = Instant::now();
            self.sync_clocks(now);
            self.check_time(now)?;
            if !self.game.is_over() {
                self.recorded = false;
            } else if !self.recorded {
                self.record_game()?;
            }
            self.start_engine(now)?;
            if self.input_wanted() {
                if !self.prompted {
                    self.prompt()?;
                }
                if let Some(event) = self.queue.pop_front() {
                    self.input(event)?;
                    continue;
                }
            }
            let event = match self.wake_time() {
                Some(at) => {
                    match self
                        .events
                        .recv_timeout(at.saturating_duration_since(Instant::now()))
                    {
                        Ok(event) => event,
                        Err(RecvTimeoutError::Timeout) => continue,
                        Err(RecvTimeoutError::Disconnected) => break,
                    }
                }
                None => match self.events.recv() {
                    Ok(event) => event,
                    Err(_) => break,
                },
            };
            match event {
                Event::Line(_) | Event::Eof => {
                    // An immediate command waits its turn behind lines typed earlier.
                    let at_once =
                        self.screen.interactive && self.queue.is_empty() && immediate(&event);
                    if self.input_wanted() || at_once {
                        self.input(event)?;
                    } else {
                        if self.screen.interactive && matches!(event, Event::Line(_)) {
                            self.say("(kept until the engine has finished thinking)")?;
                        }
                        self.queue.push_back(event);
                    }
                }
                Event::Progress { id, result } => self.progress(id, result),
                Event::Done { id, result } => self.done(id, result)?,
            }
        }
        self.out.flush()
    }

    /// Whether the loop waits for a person: nobody is thinking, and the game is over or a
    /// person is to move.
    fn input_wanted(&self) -> bool {
        self.busy.is_none()
            && (self.game.is_over() || self.player(self.game.side_to_move()) == Player::Human)
    }

    fn player(&self, color: Color) -> Player {
        self.players[color.index()]
    }

    /// The next instant the loop must wake up without an event: a clock running out, or
    /// the next engine move in a paced engine-against-engine game.
    fn wake_time(&self) -> Option<Instant> {
        let flag = self
            .clocks
            .as_ref()
            .filter(|_| !self.game.is_over())
            .and_then(|c| c.deadline())
            .map(|(_, at)| at);
        let engine = self.next_engine_at.filter(|_| self.busy.is_none());
        match (flag, engine) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        }
    }

    fn sync_clocks(&mut self, now: Instant) {
        let running = (!self.game.is_over()).then(|| self.game.side_to_move());
        if let Some(clocks) = &mut self.clocks {
            clocks.run(running, now);
        }
    }

    /// A clock at zero loses the game (a search for that side is cut short).
    fn check_time(&mut self, now: Instant) -> io::Result<()> {
        let flagged = match &self.clocks {
            Some(clocks) if !self.game.is_over() => clocks
                .deadline()
                .filter(|&(_, at)| now >= at)
                .map(|(color, _)| color),
            _ => None,
        };
        if let Some(color) = flagged {
            if self.busy.take().is_some() {
                self.worker.move_now();
            }
            self.game.lose_on_time(color);
            self.sync_clocks(now);
            self.redraw(&[])?;
        }
        Ok(())
    }

    /// Asks the engine for a move when it is its turn.
    fn start_engine(&mut self, now: Instant) -> io::Result<()> {
        let color = self.game.side_to_move();
        if self.busy.is_some() || self.game.is_over() || self.player(color) != Player::Engine {
            return Ok(());
        }
        if self.next_engine_at.map_or(false, |at| now < at) {
            return Ok(());
        }
        self.next_engine_at = None;
        let settings = self.engine_settings(color, self.options.move_ms);
        self.ask(JobKind::Move(color), settings, 1, false);
        let line = format!("{} (quinto) is thinking...", color_name(color));
        self.say(&line)
    }

    fn ask(&mut self, kind: JobKind, settings: Settings, multipv: usize, advice: bool) {
        let id = self.next_id;
        self.next_id += 1;
        self.worker.think(Request {
            id,
            size: self.game.size(),
            stones: self.game.stones(),
            settings,
            multipv,
            advice,
        });
        self.busy = Some(Job {
            id,
            kind,
            started: Instant::now(),
        });
        self.analysis = None;
    }

    /// The rule, the move time and `color`'s clock.
    fn engine_settings(&self, color: Color, turn_ms: u64) -> Settings {
        let now = Instant::now();
        let (match_ms, time_left_ms) = match (&self.clocks, self.options.clock_ms) {
            (Some(clocks), Some(total)) => (total, clocks.left_ms(color, now)),
            _ => (0, i64::from(i32::MAX)),
        };
        Settings {
            rule: self.game.rule(),
            turn_ms,
            match_ms,
            time_left_ms,
            threads: self.options.threads,
            ..Settings::default()
        }
    }

    fn progress(&mut self, id: u64, result: SearchResult) {
        if let Some(job) = self.busy.filter(|job| job.id == id) {
            self.analysis = Some(Analysis {
                result,
                mover: self.game.side_to_move(),
                kind: job.kind,
                size: self.game.size(),
                finished: false,
            });
        }
    }

    /// An answer from the engine: its move, or a hint.
    fn done(&mut self, id: u64, result: SearchResult) -> io::Result<()> {
        let job = match self.busy.filter(|job| job.id == id) {
            Some(job) => job,
            None => return Ok(()), // cut short and forgotten (time ran out)
        };
        self.busy = None;
        self.analysis = Some(Analysis {
            result: result.clone(),
            mover: self.game.side_to_move(),
            kind: job.kind,
            size: self.game.size(),
            finished: true,
        });
        match job.kind {
            JobKind::Hint => {
                let line = self.hint_line(&result);
                self.say(&line)
            }
            JobKind::Move(color) => {
                let ms = job.started.elapsed().as_millis() as u64;
                let note = match result.best {
                    None => {
                        self.game.lose_without_move(color);
                        format!("{} (quinto) has no legal move", color_name(color))
                    }
                    Some(pos) => match self.game.play(pos, ms) {
                        Ok(()) => format!(
                            "{} (quinto) plays {} ({})",
                            color_name(color),
                            self.game.name(pos),
                            describe_search(&result)
                        ),
                        Err(why) => {
                            self.game.lose_without_move(color);
                            format!("quinto chose an illegal move and forfeits: {why}")
                        }
                    },
                };
                if self.players == [Player::Engine; 2] {
                    self.next_engine_at = Some(Instant::now() + self.screen.pace);
                }
                self.position_changed();
                self.redraw(&[note])
            }
        }
    }

    /// A typed line (or the end of input).
    fn input(&mut self, event: Event) -> io::Result<()> {
        let line = match event {
            Event::Line(line) => line,
            Event::Eof => {
                if self.prompted && !self.screen.interactive {
                    self.out.write_all(b"\n")?;
                }
                self.prompted = false;
                return self.quit();
            }
            _ => return Ok(()),
        };
        if self.prompted && !self.screen.interactive {
            writeln!(self.out, "{line}")?;
        }
        self.prompted = false;
        match input::parse(&line) {
            Ok(None) => Ok(()),
            Ok(Some(command)) => self.command(command),
            Err(why) => self.say(&why),
        }
    }

    fn command(&mut self, command: Command) -> io::Result<()> {
        match command {
            Command::Move(text) => self.human_move(&text),
            Command::Undo => self.undo(),
            Command::Redo => self.redo(),
            Command::Hint => self.hint(),
            Command::Think => {
                let text = self.think_text();
                self.say(&text)
            }
            Command::Stop => match self.busy {
                Some(_) => {
                    self.worker.move_now();
                    self.say("the engine will move now")
                }
                None => self.say("the engine is not thinking"),
            },
            Command::Swap => self.swap(),
            Command::Resign => self.resign(),
            Command::Save(file) => self.save(file.as_deref()),
            Command::Load(file) => self.load(&file),
            Command::New => {
                self.game = opening_game(self.options, self.size, self.rule);
                self.clocks = self.options.clock_ms.map(Clocks::new);
                self.analysis = None;
                self.position_changed();
                self.redraw(&["a new game".to_string()])
            }
            Command::Numbers => {
                self.numbers = !self.numbers;
                self.redraw(&[])
            }
            Command::Board => self.redraw(&[]),
            Command::Help => self.say(HELP),
            Command::Quit => self.quit(),
        }
    }

    fn human_move(&mut self, text: &str) -> io::Result<()> {
        if let Some(result) = self.game.result() {
            let why = super::game::MoveError::Over(result.summary()).to_string();
            return self.say(&why);
        }
        let pos = match self.game.size().parse_human(text) {
            Ok(pos) => pos,
            Err(why) => return self.say(&why),
        };
        let ms = self.turn_started.elapsed().as_millis() as u64;
        match self.game.play(pos, ms) {
            Ok(()) => {
                self.position_changed();
                self.redraw(&[])
            }
            Err(why) => self.say(&why.to_string()),
        }
    }

    /// Takes back moves until a person is to move again, at least one of theirs included.
    fn undo(&mut self) -> io::Result<()> {
        let human_moved = (0..self.game.move_count())
            .any(|i| self.player(Color::to_move_after(i)) == Player::Human);
        if !human_moved {
            let why = if self.players == [Player::Engine; 2] {
                "undo takes back a person's move: here the engine plays both sides"
            } else {
                "nothing to undo"
            };
            return self.say(why);
        }
        let mut taken = Vec::new();
        loop {
            match self.game.undo() {
                Ok(pos) => taken.push(self.game.name(pos)),
                Err(why) => return self.say(&why),
            }
            let side = self.game.side_to_move();
            if self.player(side) == Player::Human || self.game.move_count() == 0 {
                break;
            }
        }
        self.position_changed();
        self.redraw(&[format!("took back {}", taken.join(" and "))])
    }

    /// Replays moves taken back until a person is to move again.
    fn redo(&mut self) -> io::Result<()> {
        let mut played = Vec::new();
        loop {
            match self.game.redo() {
                Ok(pos) => played.push(self.game.name(pos)),
                Err(why) if played.is_empty() => return self.say(&why),
                Err(_) => break,
            }
            let side = self.game.side_to_move();
            if self.game.is_over() || self.player(side) == Player::Human || !self.game.can_redo() {
                break;
            }
        }
        self.position_changed();
        self.redraw(&[format!("played again {}", played.join(" and "))])
    }

    fn hint(&mut self) -> io::Result<()> {
        if let Some(result) = self.game.result() {
            let why = format!("the game is over ({}): no hint", result.summary());
            return self.say(&why);
        }
        let turn_ms = self.options.move_ms.clamp(HINT_MIN_MS, HINT_MAX_MS);
        let color = self.game.side_to_move();
        let settings = self.engine_settings(color, turn_ms);
        self.ask(JobKind::Hint, settings, HINT_MOVES, true);
        let line = format!(
            "looking for {}'s best moves ({} s)...",
            color_name(color),
            turn_ms as f64 / 1000.0
        );
        self.say(&line)
    }

    /// `hint for black: h9 (+115), h8 (+88), g8 (+85) at depth 5`: the search's choice, then
    /// the next best, each searched to the depth named, in the order of their scores.
    fn hint_line(&self, result: &SearchResult) -> String {
        let size = self.game.size();
        if result.ranked.is_empty() {
            return "hint: there is no legal move".into();
        }
        let moves: Vec<String> = result
            .ranked
            .iter()
            .map(|&(pos, score)| format!("{} ({})", size.to_human(pos), score_text(score)))
            .collect();
        format!(
            "hint for {}: {} at depth {}",
            color_name(self.game.side_to_move()),
            moves.join(", "),
            result.depth
        )
    }

    /// `think`: the latest search, running or finished.
    fn think_text(&self) -> String {
        let analysis = match &self.analysis {
            Some(a) => a,
            None => {
                return match self.busy {
                    Some(_) => "the engine has not finished its first iteration yet".into(),
                    None => {
                        "no analysis yet: the engine has not searched this game (try hint)".into()
                    }
                }
            }
        };
        let r = &analysis.result;
        let what = match analysis.kind {
            JobKind::Hint => "hint search",
            JobKind::Move(_) => "quinto's search",
        };
        let state = if analysis.finished {
            "finished"
        } else {
            "thinking"
        };
        let pv: Vec<String> =
            r.pv.iter()
                .take(PV_SHOWN)
                .map(|&p| analysis.size.to_human(p))
                .collect();
        format!(
            "{what} for {} ({state}): depth {}, score {}, {} nodes in {:.1} s, pv {}",
            color_name(analysis.mover),
            r.depth,
            score_text(r.score),
            r.nodes,
            r.elapsed.as_secs_f64(),
            if pv.is_empty() {
                "-".into()
            } else {
                pv.join(" ")
            }
        )
    }

    fn swap(&mut self) -> io::Result<()> {
        if self.players[0] == self.players[1] {
            return self.say(
                "swap changes sides with the engine: it needs one human and one engine player",
            );
        }
        if let Some(result) = self.game.result() {
            let why = format!(
                "the game is over ({}): type new for another",
                result.summary()
            );
            return self.say(&why);
        }
        self.players.swap(0, 1);
        let human = if self.players[0] == Player::Human {
            Color::Black
        } else {
            Color::White
        };
        self.redraw(&[format!("you now play {}", color_name(human))])
    }

    fn resign(&mut self) -> io::Result<()> {
        if let Some(result) = self.game.result() {
            let why = format!("the game is over ({})", result.summary());
            return self.say(&why);
        }
        let side = self.game.side_to_move();
        let loser = match self.players {
            [Player::Engine, Player::Engine] => {
                return self.say("resign is for a person: here the engine plays both sides")
            }
            [Player::Human, Player::Engine] => Color::Black,
            [Player::Engine, Player::Human] => Color::White,
            [Player::Human, Player::Human] => side,
        };
        self.game.resign(loser);
        self.position_changed();
        self.redraw(&[])
    }

    fn save(&mut self, file: Option<&str>) -> io::Result<()> {
        let record = self.record();
        let written = match file {
            Some(file) => {
                let path = PathBuf::from(file);
                record.write(&path).map(|_| path)
            }
            None => record.write_new(&self.records),
        };
        match written {
            Ok(path) => {
                let line = format!("saved to {}", path.display());
                self.saved.push(path);
                self.say(&line)
            }
            Err(why) => self.say(&why),
        }
    }

    fn load(&mut self, file: &str) -> io::Result<()> {
        let record = match Record::read(Path::new(file)) {
            Ok(record) => record,
            Err(why) => return self.say(&why),
        };
        let rule = record.rule.unwrap_or(self.rule);
        let game = match Game::from_record(&record, rule) {
            Ok(game) => game,
            Err(why) => {
                let line = format!("{file} cannot be loaded: {why}");
                return self.say(&line);
            }
        };
        let mut notes = vec![format!(
            "loaded {file}: {} moves on {}x{}",
            game.move_count(),
            record.size.width(),
            record.size.height()
        )];
        if rule != self.rule {
            notes.push(format!("the rule is now {} (from the record)", rule.name()));
        }
        self.rule = rule;
        self.size = record.size;
        self.game = game;
        self.recorded = self.game.is_over();
        self.analysis = None;
        self.position_changed();
        self.redraw(&notes)
    }

    fn quit(&mut self) -> io::Result<()> {
        self.quit = true;
        if self.busy.take().is_some() {
            self.worker.move_now();
        }
        if !self.game.is_over() && self.game.move_count() > 0 {
            self.say("the unfinished game is not saved (save FILE keeps one)")?;
        }
        Ok(())
    }

    /// Writes the finished game to the records directory.
    fn record_game(&mut self) -> io::Result<()> {
        self.recorded = true;
        let record = self.record();
        match record.write_new(&self.records) {
            Ok(path) => {
                let line = format!("game saved to {}", path.display());
                self.saved.push(path);
                self.say(&line)
            }
            Err(why) => self.say(&format!("the game could not be saved: {why}")),
        }
    }

    fn record(&self) -> Record {
        self.game.to_record(
            &player_name(self.options, self.players[0]),
            &player_name(self.options, self.players[1]),
        )
    }

    fn position_changed(&mut self) {
        self.turn_started = Instant::now();
    }

    /// Clears the screen (in colour), draws the board, the notes and the status line.
    fn redraw(&mut self, notes: &[String]) -> io::Result<()> {
        let game = &self.game;
        let marks = Marks {
            last: game.last_move(),
            forbidden: game
                .forbidden_points()
                .into_iter()
                .map(|(p, _)| p)
                .collect(),
            winning: if game.is_over() {
                game.winning_line()
            } else {
                Vec::new()
            },
        };
        let style = Style {
            colour: self.screen.colour,
            numbers: self.numbers,
        };
        let mut text = String::new();
        if self.prompted {
            text.push('\n');
        }
        if self.screen.colour {
            text.push_str("\x1b[H\x1b[2J");
        }
        text.push_str(&draw(game.board(), &marks, style));
        for note in notes {
            text.push_str(note);
            text.push('\n');
        }
        text.push_str(&self.status());
        text.push('\n');
        self.prompted = false;
        self.out.write_all(text.as_bytes())?;
        self.out.flush()
    }

    /// `renju 15x15, move 12: black (you) to move; clocks black 4:32, white 4:50`, or the
    /// result.
    fn status(&self) -> String {
        let game = &self.game;
        let mut line = match game.result() {
            Some(result) => format!("game over, {}", result.summary()),
            None => {
                let side = game.side_to_move();
                format!(
                    "{} {}x{}, move {}: {}{} to move",
                    game.rule().name(),
                    game.size().width(),
                    game.size().height(),
                    game.move_count() + 1,
                    color_name(side),
                    self.role(side)
                )
            }
        };
        if let Some(clocks) = &self.clocks {
            let now = Instant::now();
            line.push_str(&format!(
                "; clocks black {}, white {}",
                format_ms(clocks.left_ms(Color::Black, now)),
                format_ms(clocks.left_ms(Color::White, now))
            ));
        }
        line
    }

    /// ` (you)`, ` (quinto)` or nothing (two people).
    fn role(&self, color: Color) -> &'static str {
        match (self.player(color), self.players[0] == self.players[1]) {
            (Player::Engine, _) => " (quinto)",
            (Player::Human, false) => " (you)",
            (Player::Human, true) => "",
        }
    }

    fn prompt(&mut self) -> io::Result<()> {
        let side = self.game.side_to_move();
        let text = match &self.clocks {
            _ if self.game.is_over() => "game over> ".to_string(),
            Some(clocks) => format!(
                "{} {}> ",
                color_name(side),
                format_ms(clocks.left_ms(side, Instant::now()))
            ),
            None => format!("{}> ", color_name(side)),
        };
        self.out.write_all(text.as_bytes())?;
        self.out.flush()?;
        self.prompted = true;
        Ok(())
    }

    /// One message (a refusal, an answer), on its own line.
    fn say(&mut self, text: &str) -> io::Result<()> {
        if self.prompted {
            // Output that interrupts a prompt (the engine's move, `think` while it thinks).
            self.out.write_all(b"\n")?;
            self.prompted = false;
        }
        writeln!(self.out, "{text}")?;
        self.out.flush()
    }
}

/// Commands that act at once even while the engine thinks.
fn immediate(event: &Event) -> bool {
    match event {
        Event::Line(line) => matches!(input::parse(line), Ok(Some(c)) if c.is_immediate()),
        _ => false,
    }
}

/// A new game with the opening, when it fits the board and rule.
fn opening_game(options: &Options, size: BoardSize, rule: Rule) -> Game {
    let mut game = Game::new(size, rule);
    if size == options.size && rule == options.rule {
        for &pos in &options.opening {
            // Checked when the flags were read.
            let _ = game.play(pos, 0);
        }
    }
    game
}

/// The name in records: `human` or `quinto-LEVEL`.
fn player_name(options: &Options, player: Player) -> String {
    match player {
        Player::Human => "human".into(),
        Player::Engine => format!("quinto-{}", options.level.name),
    }
}

/// `+35`, `-120`, `win in 7`, `loss in 4` (plies, both sides' moves).
fn score_text(score: i32) -> String {
    if score > WIN_THRESHOLD {
        format!("win in {}", WIN - score)
    } else if score < -WIN_THRESHOLD {
        format!("loss in {}", WIN + score)
    } else {
        format!("{score:+}")
    }
}

/// `1.3 s, depth 7, score +35`.
fn describe_search(result: &SearchResult) -> String {
    format!(
        "{:.1} s, depth {}, score {}",
        result.elapsed.as_secs_f64(),
        result.depth,
        score_text(result.score)
    )
}
