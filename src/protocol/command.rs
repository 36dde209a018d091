//! The manager's lines, parsed into commands. Pure: text in, [`Input`] out; multi-line blocks
//! (`BOARD`, `YXBOARD`, `SWAP2BOARD` … `DONE`) are gathered by [`Parser`].

/// Protocol coordinates as sent (range-checked later, against the board).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Point {
    pub x: i64,
    pub y: i64,
}

/// What a `BOARD` line says a stone is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Owner {
    Mine,
    Opponent,
}

/// An `INFO` setting.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Info {
    TimeoutTurn(i64),
    TimeoutMatch(i64),
    TimeLeft(i64),
    MaxMemory(i64),
    GameType(i64),
    Rule(i64),
    Folder(String),
    MaxDepth(i64),
    MaxNode(i64),
    ThreadNum(i64),
    /// Yixin-Board: the transposition table's size in KiB.
    HashSize(i64),
    /// Yixin-Board: milliseconds added to the clock after each move.
    TimeIncrement(i64),
    /// What a search prints besides the move: 0 nothing, else the full `MESSAGE` line, and
    /// as bits (Rapfi's and Yixin-Board's reading) 1 the `MESSAGE REALTIME` lines, 2 the
    /// `INFO` analysis lines.
    ShowDetail(i64),
    /// Yixin-Board: think on the opponent's time (1) or not (0).
    Pondering(i64),
    /// Yixin-Board's "Use Database": 1 opens the default database when none is chosen, 0
    /// closes the one in use.
    UseDatabase(i64),
    /// Yixin-Board's "Database Readonly": 1 refuses edits.
    DatabaseReadonly(i64),
    /// `evaluate` and keys we do not know: accepted and ignored.
    Ignored(String),
    /// A known key with a value that is not a number we can use.
    Invalid {
        key: String,
        value: String,
    },
}

/// Yixin-Board's database commands; all but `Set` and `Save` come with a position's moves.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum DatabaseOp {
    /// `yxsetdatabase` and its file name line.
    Set(String),
    Save,
    /// `yxquerydatabaseall`, with the comment too (`yxquerydatabaseallt`).
    QueryAll {
        text: bool,
    },
    QueryOne,
    QueryText,
    /// `yxedittvddatabase MASK TAG VALUE DEPTH`: mask bit 1 sets the tag, 2 the value, 4
    /// the depth.
    EditTvd {
        mask: i64,
        tag: i64,
        value: i64,
        depth: i64,
    },
    /// `yxedittextdatabase "comment"` (the comment may span lines).
    EditText(String),
    /// `yxeditlabeldatabase x,y TEXT`: the text on that point; none removes it.
    EditLabel {
        point: Point,
        label: String,
    },
    DeleteOne,
    /// `yxdeletedatabaseall`: the position and every one that adds stones to it.
    DeleteAll,
    /// A database command that could not be read (why): answered by a `MESSAGE`, as the GUI
    /// waits for no reply.
    Invalid(String),
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Command {
    /// `START n` or `RECTSTART w,h`.
    Start {
        width: i64,
        height: i64,
    },
    Restart,
    Begin,
    Turn(Point),
    /// `BOARD` (then move) or `YXBOARD` (set only).
    Board {
        stones: Vec<(Point, Owner)>,
        then_move: bool,
    },
    Takeback(Point),
    Play(Point),
    Swap2Board(Vec<Point>),
    Info(Info),
    End,
    About,
    /// `STOP` or `YXSTOP`: move now.
    Stop,
    YxShowForbid,
    /// Yixin-Board asks what the engine can use (threads, hash).
    YxShowInfo,
    YxNbest(i64),
    /// Yixin-Board's "search defence": every candidate move ranked, the lost ones marked.
    YxSearchDefend,
    /// Yixin-Board: forget the search results (`yxhashclear`).
    YxHashClear,
    /// Yixin-Board: the transposition table written to a file (`yxhashdump`) or read back
    /// (`yxhashload`).
    YxHashFile {
        path: String,
        load: bool,
    },
    /// Yixin-Board: how full the transposition table is (`yxshowhashusage`).
    YxHashUsage,
    /// Yixin-Board: the user offers a draw (`yxdraw`).
    YxDraw,
    /// Yixin-Board: the user resigns (`yxresign`).
    YxResign,
    /// Yixin-Board: a Swap2 step with Quinto to choose (`yxswap2step1` to `3`).
    YxSwap2Step(u8),
    /// Yixin-Board: points the answers must avoid (`yxblock`), or no longer (`yxblockundo`).
    YxBlock {
        points: Vec<Point>,
        undo: bool,
    },
    /// Yixin-Board: nothing blocked any more (`yxblockreset`).
    YxBlockReset,
    /// Yixin-Board: the move (`yxbalanceone S`) or the two (`yxbalancetwo S`) that leave the
    /// position worth S to the side that played last.
    YxBalance {
        two: bool,
        bias: i64,
    },
    /// Yixin-Board's analysis database.
    Database {
        op: DatabaseOp,
        moves: Vec<Point>,
    },
    Bench,
    /// Rapfi's debugging commands on Yixin-Board's toolbar: `traceboard`, `tracesearch`,
    /// `reloadconfig FILE`.
    TraceBoard,
    TraceSearch,
    ReloadConfig,
}

/// One parsed line's worth of meaning.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Input {
    Command(Command),
    /// Malformed: answer `ERROR <why>`.
    Error(String),
    /// Not a command we know: answer `UNKNOWN <what>`.
    Unknown(String),
    /// Nothing to do yet (empty line, or a line inside a block).
    Nothing,
}

/// Longest echo of a bad line in a reply.
const ECHO_CHARS: usize = 40;
/// More lines than this in a block cannot be a board (32×32 = 1024 points).
const MAX_BLOCK_LINES: usize = 1024;

#[derive(Clone, Debug, PartialEq, Eq)]
enum BlockKind {
    Board,
    YxBoard,
    Swap2,
    /// Yixin-Board's block points (`x,y` lines); `undo` frees them.
    Blocks {
        undo: bool,
    },
    /// Yixin-Board's stone list after a command Quinto does not carry out: read up to DONE
    /// unchecked (a comment may run over lines), then answered by nothing or this refusal.
    Skipped(Option<String>),
    /// The file name line after a Yixin-Board command: whatever it is, then this refusal.
    Path(String),
    /// A database command's moves up to DONE; `comment` gathers an open quoted comment.
    Database {
        op: DatabaseOp,
        comment: Option<String>,
    },
    /// The file name line of a command Quinto carries out.
    FilePath(FileCommand),
}

/// Yixin-Board's commands that Quinto carries out with the file named on the next line.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum FileCommand {
    SetDatabase,
    HashDump,
    HashLoad,
}

impl FileCommand {
    fn with_path(self, path: String) -> Command {
        match self {
            FileCommand::SetDatabase => Command::Database {
                op: DatabaseOp::Set(path),
                moves: Vec::new(),
            },
            FileCommand::HashDump => Command::YxHashFile { path, load: false },
            FileCommand::HashLoad => Command::YxHashFile { path, load: true },
        }
    }
}

/// What Yixin-Board sends after one of its commands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Follows {
    Nothing,
    Stones,
    Path,
}

const NO_DATABASE: &str = "not supported by Quinto's database";
const UNSUPPORTED: &str = "not supported by Quinto";

/// Yixin-Board's commands that Quinto does not carry out (their arguments are ignored):
/// what follows each, and the refusal it gets (`None`: no answer, as from an engine with
/// no database or nothing blocked; the GUI sends these by itself after every move).
const YIXIN_UNSUPPORTED: &[(&str, Follows, Option<&str>)] = &[
    ("YXBLOCKPATHRESET", Follows::Nothing, None),
    ("YXSETBESTMOVEDATABASE", Follows::Stones, Some(NO_DATABASE)),
    (
        "YXCLEARBESTMOVEDATABASE",
        Follows::Stones,
        Some(NO_DATABASE),
    ),
    ("YXDBCHECK", Follows::Nothing, Some(NO_DATABASE)),
    ("YXDBFIX", Follows::Nothing, Some(NO_DATABASE)),
    ("YXDBTOPOS", Follows::Path, Some(NO_DATABASE)),
    ("YXDBTOTXT", Follows::Path, Some(NO_DATABASE)),
    ("YXDBTOTXTALL", Follows::Path, Some(NO_DATABASE)),
    ("YXTXTTODB", Follows::Path, Some(NO_DATABASE)),
    ("YXLIBTODB", Follows::Path, Some(NO_DATABASE)),
    ("YXDBMERGE", Follows::Path, Some(NO_DATABASE)),
    ("YXDBSPLIT", Follows::Path, Some(NO_DATABASE)),
    ("YXBLOCKPATH", Follows::Stones, Some(UNSUPPORTED)),
    ("YXBLOCKPATHUNDO", Follows::Stones, Some(UNSUPPORTED)),
    ("YXSOOSORVSTEP1", Follows::Nothing, Some(UNSUPPORTED)),
    ("YXSOOSORVSTEP2", Follows::Stones, Some(UNSUPPORTED)),
    ("YXSOOSORVSTEP3", Follows::Stones, Some(UNSUPPORTED)),
    ("YXSOOSORVSTEP4", Follows::Stones, Some(UNSUPPORTED)),
    ("YXSOOSORVSTEP5", Follows::Stones, Some(UNSUPPORTED)),
    ("YXSOOSORVSTEP6", Follows::Stones, Some(UNSUPPORTED)),
    ("YXFORBID", Follows::Nothing, Some(UNSUPPORTED)),
    ("YXPRINTFEATURE", Follows::Nothing, Some(UNSUPPORTED)),
];

#[derive(Debug)]
struct Block {
    kind: BlockKind,
    stones: Vec<(Point, Owner)>,
    points: Vec<Point>,
    error: Option<String>,
    lines: usize,
}

/// Turns lines into inputs, remembering an open block.
#[derive(Debug, Default)]
pub struct Parser {
    block: Option<Block>,
}

impl Parser {
    pub fn new() -> Parser {
        Parser::default()
    }

    /// Whether a block is open (a `DONE` is awaited).
    pub fn in_block(&self) -> bool {
        self.block.is_some()
    }

    /// Parses one line (without its line end).
    pub fn feed(&mut self, raw: &str) -> Input {
        let line = raw.trim();
        if line.is_empty() {
            return Input::Nothing;
        }
        let (word, rest) = split_word(line);
        let word = word.to_ascii_uppercase();
        if self.block.is_some() {
            return self.feed_block(&word, line);
        }
        if let Some(op) = database_op(&word, rest) {
            return match op {
                DatabaseOp::Save => Input::Command(Command::Database {
                    op,
                    moves: Vec::new(),
                }),
                DatabaseOp::Set(_) => self.open(BlockKind::FilePath(FileCommand::SetDatabase)),
                DatabaseOp::EditText(comment) => match comment.strip_prefix('"') {
                    // The comment runs to its closing quote, on this line or a later one.
                    Some(quoted) => {
                        self.open(BlockKind::Database {
                            op: DatabaseOp::EditText(String::new()),
                            comment: Some(String::new()),
                        });
                        self.feed_database(quoted)
                    }
                    None => self.open(BlockKind::Database {
                        op: DatabaseOp::EditText(comment),
                        comment: None,
                    }),
                },
                op => self.open(BlockKind::Database { op, comment: None }),
            };
        }
        match word.as_str() {
            "YXHASHDUMP" => return self.open(BlockKind::FilePath(FileCommand::HashDump)),
            "YXHASHLOAD" => return self.open(BlockKind::FilePath(FileCommand::HashLoad)),
            _ => {}
        }
        if let Some(&(_, follows, refusal)) = YIXIN_UNSUPPORTED.iter().find(|(w, ..)| *w == word) {
            let refusal = refusal.map(|why| format!("{}: {why}", word.to_ascii_lowercase()));
            return match follows {
                Follows::Nothing => refusal.map_or(Input::Nothing, Input::Error),
                Follows::Stones => self.open(BlockKind::Skipped(refusal)),
                Follows::Path => self.open(BlockKind::Path(refusal.unwrap_or_default())),
            };
        }
        match parse_command(&word, rest) {
            Ok(Some(command)) => Input::Command(command),
            Ok(None) => self.open(match word.as_str() {
                "BOARD" => BlockKind::Board,
                "YXBOARD" => BlockKind::YxBoard,
                "YXBLOCK" => BlockKind::Blocks { undo: false },
                "YXBLOCKUNDO" => BlockKind::Blocks { undo: true },
                _ => BlockKind::Swap2,
            }),
            Err(Reply::Error(why)) => Input::Error(why),
            Err(Reply::Unknown(what)) => Input::Unknown(what),
        }
    }

    fn open(&mut self, kind: BlockKind) -> Input {
        self.block = Some(Block {
            kind,
            stones: Vec::new(),
            points: Vec::new(),
            error: None,
            lines: 0,
        });
        Input::Nothing
    }

    /// A line that could not be read (too long): inside a block it spoils the block, so the
    /// block still gets exactly one reply (`ERROR` at `DONE`); outside it is an error now.
    pub fn reject(&mut self, why: String) -> Input {
        if self.skipping() {
            // A file name or a stone line Quinto does not read anyway.
            return self.feed_block("", "");
        }
        match self.block.as_mut() {
            Some(block) => {
                block.lines += 1;
                block.error.get_or_insert(why);
                Input::Nothing
            }
            None => Input::Error(why),
        }
    }

    /// Whether the open block is one of Yixin-Board's that Quinto does not read.
    fn skipping(&self) -> bool {
        matches!(
            self.block.as_ref().map(|b| &b.kind),
            Some(
                BlockKind::Path(_)
                    | BlockKind::Skipped(_)
                    | BlockKind::Database { .. }
                    | BlockKind::FilePath(_)
            )
        )
    }

    /// A line of a database command's block: in its comment until the closing quote (then
    /// what follows the quote is a line of its own), else a move or DONE.
    fn feed_database(&mut self, line: &str) -> Input {
        let block = match self.block.as_mut() {
            Some(block) => block,
            None => return Input::Nothing,
        };
        let (op, comment) = match &mut block.kind {
            BlockKind::Database { op, comment } => (op, comment),
            _ => return Input::Nothing,
        };
        if let Some(text) = comment.as_mut() {
            let (part, rest) = until_quote(line);
            text.push_str(&part);
            let rest = match rest {
                Some(rest) => rest.trim(),
                None => {
                    text.push('\n');
                    return Input::Nothing;
                }
            };
            *op = DatabaseOp::EditText(std::mem::take(text));
            *comment = None;
            if rest.is_empty() {
                return Input::Nothing;
            }
            return self.feed_database(rest);
        }
        if split_word(line).0.eq_ignore_ascii_case("DONE") {
            return match self.block.take() {
                Some(Block {
                    kind: BlockKind::Database { op, .. },
                    points,
                    error,
                    ..
                }) => Input::Command(Command::Database {
                    op: error.map_or(op, DatabaseOp::Invalid),
                    moves: points,
                }),
                _ => Input::Nothing,
            };
        }
        match parse_point(line) {
            Ok(point) => block.points.push(point),
            Err(why) => {
                block.error.get_or_insert(why);
            }
        }
        Input::Nothing
    }

    fn feed_block(&mut self, word: &str, line: &str) -> Input {
        match self.block.as_ref().map(|b| &b.kind) {
            Some(BlockKind::Database { .. }) => return self.feed_database(line),
            Some(&BlockKind::FilePath(command)) => {
                self.block = None;
                return Input::Command(command.with_path(line.to_string()));
            }
            _ => {}
        }
        if self.skipping() {
            // A file name is one line, whatever it says; a stone list ends at DONE only.
            let last = word == "DONE"
                || matches!(
                    self.block.as_ref().map(|b| &b.kind),
                    Some(BlockKind::Path(_))
                );
            if !last {
                return Input::Nothing;
            }
            return match self.block.take().map(|b| b.kind) {
                Some(BlockKind::Path(why) | BlockKind::Skipped(Some(why))) => Input::Error(why),
                _ => Input::Nothing,
            };
        }
        if word == "END" {
            // A manager that gives up mid-block still means END.
            self.block = None;
            return Input::Command(Command::End);
        }
        let block = match self.block.as_mut() {
            Some(block) => block,
            None => return Input::Nothing,
        };
        if word == "DONE" {
            let block = match self.block.take() {
                Some(block) => block,
                None => return Input::Nothing,
            };
            return match (block.error, block.kind) {
                (Some(error), _) => Input::Error(error),
                (None, BlockKind::Swap2) => Input::Command(Command::Swap2Board(block.points)),
                (None, BlockKind::Blocks { undo }) => Input::Command(Command::YxBlock {
                    points: block.points,
                    undo,
                }),
                (None, kind) => Input::Command(Command::Board {
                    stones: block.stones,
                    then_move: kind == BlockKind::Board,
                }),
            };
        }
        block.lines += 1;
        if block.error.is_some() {
            return Input::Nothing;
        }
        if block.lines > MAX_BLOCK_LINES {
            block.error = Some(format!("more than {MAX_BLOCK_LINES} lines in a block"));
            return Input::Nothing;
        }
        let parsed = match block.kind {
            BlockKind::Swap2 | BlockKind::Blocks { .. } => {
                parse_point(line).map(|p| block.points.push(p))
            }
            _ => parse_stone(line).map(|s| block.stones.push(s)),
        };
        if let Err(why) = parsed {
            block.error = Some(why);
        }
        Input::Nothing
    }
}

enum Reply {
    Error(String),
    Unknown(String),
}

/// `Ok(None)` opens a block.
fn parse_command(word: &str, rest: &str) -> Result<Option<Command>, Reply> {
    let no_argument = |command: Command| {
        if rest.is_empty() {
            Ok(Some(command))
        } else {
            Err(Reply::Error(format!(
                "{word} takes no argument, got '{}'",
                echo(rest)
            )))
        }
    };
    let point = |command: fn(Point) -> Command| {
        parse_point(rest)
            .map(|p| Some(command(p)))
            .map_err(Reply::Error)
    };
    match word {
        "START" => parse_number(rest)
            .map(|n| {
                Some(Command::Start {
                    width: n,
                    height: n,
                })
            })
            .map_err(|why| Reply::Error(format!("START needs a board size: {why}"))),
        "RECTSTART" => parse_point(rest)
            .map(|p| {
                Some(Command::Start {
                    width: p.x,
                    height: p.y,
                })
            })
            .map_err(|why| Reply::Error(format!("RECTSTART needs width,height: {why}"))),
        "RESTART" => no_argument(Command::Restart),
        "BEGIN" => no_argument(Command::Begin),
        "TURN" => point(Command::Turn),
        "TAKEBACK" => point(Command::Takeback),
        "PLAY" => point(Command::Play),
        "BOARD" | "YXBOARD" | "SWAP2BOARD" | "YXBLOCK" | "YXBLOCKUNDO" => {
            if rest.is_empty() {
                Ok(None)
            } else {
                Err(Reply::Error(format!("{word} takes no argument")))
            }
        }
        "INFO" => Ok(Some(Command::Info(parse_info(rest)))),
        "END" => Ok(Some(Command::End)),
        "ABOUT" => no_argument(Command::About),
        "STOP" | "YXSTOP" => no_argument(Command::Stop),
        "YXSHOWFORBID" => no_argument(Command::YxShowForbid),
        "YXSHOWINFO" => no_argument(Command::YxShowInfo),
        "YXNBEST" => parse_number(rest)
            .map(|n| Some(Command::YxNbest(n)))
            .map_err(|why| Reply::Error(format!("YXNBEST needs a count: {why}"))),
        "YXSEARCHDEFEND" => no_argument(Command::YxSearchDefend),
        "YXHASHCLEAR" => no_argument(Command::YxHashClear),
        "YXSHOWHASHUSAGE" => no_argument(Command::YxHashUsage),
        "YXDRAW" => no_argument(Command::YxDraw),
        "YXRESIGN" => no_argument(Command::YxResign),
        "YXSWAP2STEP1" => no_argument(Command::YxSwap2Step(1)),
        "YXSWAP2STEP2" => no_argument(Command::YxSwap2Step(2)),
        "YXSWAP2STEP3" => no_argument(Command::YxSwap2Step(3)),
        "YXBLOCKRESET" => no_argument(Command::YxBlockReset),
        "YXBALANCEONE" | "YXBALANCETWO" => {
            let bias = if rest.is_empty() {
                Ok(0)
            } else {
                parse_number(rest)
            };
            bias.map(|bias| {
                Some(Command::YxBalance {
                    two: word == "YXBALANCETWO",
                    bias,
                })
            })
            .map_err(|why| Reply::Error(format!("{word} needs a value: {why}")))
        }
        "BENCH" => no_argument(Command::Bench),
        "TRACEBOARD" => no_argument(Command::TraceBoard),
        "TRACESEARCH" => no_argument(Command::TraceSearch),
        // Its argument is Rapfi's file name, which Quinto has no use for.
        "RELOADCONFIG" => Ok(Some(Command::ReloadConfig)),
        "DONE" => Err(Reply::Error(
            "DONE without BOARD, YXBOARD, SWAP2BOARD or YXBLOCK".into(),
        )),
        _ => Err(Reply::Unknown(format!("command '{}'", echo(word)))),
    }
}

/// A database command of Yixin-Board's, with what its first line says.
fn database_op(word: &str, rest: &str) -> Option<DatabaseOp> {
    let numbers: Vec<Option<i64>> = rest
        .split_whitespace()
        .map(|n| parse_number(n).ok())
        .collect();
    Some(match word {
        "YXSETDATABASE" => DatabaseOp::Set(String::new()),
        "YXSAVEDATABASE" => DatabaseOp::Save,
        "YXQUERYDATABASEALL" => DatabaseOp::QueryAll { text: false },
        "YXQUERYDATABASEALLT" => DatabaseOp::QueryAll { text: true },
        "YXQUERYDATABASEONE" => DatabaseOp::QueryOne,
        "YXQUERYDATABASETEXT" => DatabaseOp::QueryText,
        "YXEDITTVDDATABASE" => match numbers.as_slice() {
            [Some(mask), Some(tag), Some(value), Some(depth)] => DatabaseOp::EditTvd {
                mask: *mask,
                tag: *tag,
                value: *value,
                depth: *depth,
            },
            _ => DatabaseOp::Invalid(format!(
                "yxedittvddatabase needs MASK TAG VALUE DEPTH, got '{}'",
                echo(rest)
            )),
        },
        "YXEDITTEXTDATABASE" => DatabaseOp::EditText(rest.to_string()),
        "YXEDITLABELDATABASE" => {
            let (at, label) = split_word(rest);
            match parse_point(at) {
                Ok(point) => DatabaseOp::EditLabel {
                    point,
                    label: label.to_string(),
                },
                Err(why) => DatabaseOp::Invalid(format!("yxeditlabeldatabase: {why}")),
            }
        }
        "YXDELETEDATABASEONE" => DatabaseOp::DeleteOne,
        // Yixin-Board's filters (by label, by step) are not told apart: all of them go.
        "YXDELETEDATABASEALL" => DatabaseOp::DeleteAll,
        _ => return None,
    })
}

/// A quoted comment's text up to its closing quote (Yixin-Board escapes `"` and `\\` with
/// a backslash), and what follows the quote, if the quote closes on this line.
fn until_quote(line: &str) -> (String, Option<&str>) {
    let mut text = String::new();
    let mut chars = line.char_indices();
    while let Some((at, c)) = chars.next() {
        match c {
            '"' => return (text, Some(&line[at + 1..])),
            '\\' => text.extend(chars.next().map(|(_, c)| c)),
            c => text.push(c),
        }
    }
    (text, None)
}

fn parse_info(rest: &str) -> Info {
    let (key, value) = split_word(rest);
    let key = key.to_ascii_lowercase();
    let number = |make: fn(i64) -> Info| match parse_number(value) {
        Ok(n) => make(n),
        Err(_) => Info::Invalid {
            key: key.clone(),
            value: echo(value),
        },
    };
    match key.as_str() {
        "timeout_turn" => number(Info::TimeoutTurn),
        "timeout_match" => number(Info::TimeoutMatch),
        "time_left" => number(Info::TimeLeft),
        "max_memory" => number(Info::MaxMemory),
        "game_type" => number(Info::GameType),
        "rule" => number(Info::Rule),
        "max_depth" => number(Info::MaxDepth),
        "max_node" => number(Info::MaxNode),
        "thread_num" => number(Info::ThreadNum),
        "hash_size" => number(Info::HashSize),
        "time_increment" => number(Info::TimeIncrement),
        "show_detail" => number(Info::ShowDetail),
        "pondering" => number(Info::Pondering),
        "usedatabase" => number(Info::UseDatabase),
        "database_readonly" => number(Info::DatabaseReadonly),
        "folder" => Info::Folder(value.to_string()),
        _ => Info::Ignored(echo(&key)),
    }
}

/// `x,y`.
fn parse_point(text: &str) -> Result<Point, String> {
    let fields: Vec<&str> = text.split(',').collect();
    match fields.as_slice() {
        [x, y] => Ok(Point {
            x: parse_number(x)?,
            y: parse_number(y)?,
        }),
        _ => Err(format!("expected x,y but got '{}'", echo(text))),
    }
}

/// `x,y,field` with field 1 (mine) or 2 (opponent's).
fn parse_stone(text: &str) -> Result<(Point, Owner), String> {
    let fields: Vec<&str> = text.split(',').collect();
    match fields.as_slice() {
        [x, y, field] => {
            let point = Point {
                x: parse_number(x)?,
                y: parse_number(y)?,
            };
            match parse_number(field)? {
                1 => Ok((point, Owner::Mine)),
                2 => Ok((point, Owner::Opponent)),
                3 => Err("field 3 (continuous game) is not supported".into()),
                other => Err(format!(
                    "bad field {other} in '{}': must be 1 or 2",
                    echo(text)
                )),
            }
        }
        _ => Err(format!("expected x,y,field but got '{}'", echo(text))),
    }
}

fn parse_number(text: &str) -> Result<i64, String> {
    let text = text.trim();
    text.parse::<i64>().map_err(|_| {
        if !text.is_empty()
            && text
                .trim_start_matches(['-', '+'])
                .chars()
                .all(|c| c.is_ascii_digit())
        {
            format!("number '{}' out of range", echo(text))
        } else {
            format!("'{}' is not a number", echo(text))
        }
    })
}

/// The first word and the rest, trimmed.
fn split_word(line: &str) -> (&str, &str) {
    match line.find(char::is_whitespace) {
        Some(at) => (&line[..at], line[at..].trim()),
        None => (line, ""),
    }
}

/// A short, printable excerpt of input for an error reply.
fn echo(text: &str) -> String {
    let clean: String = text
        .chars()
        .map(|c| if c.is_control() { '?' } else { c })
        .take(ECHO_CHARS)
        .collect();
    if text.chars().count() > ECHO_CHARS {
        format!("{clean}…")
    } else {
        clean
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn one(line: &str) -> Input {
        Parser::new().feed(line)
    }

    #[test]
    fn commands_are_case_insensitive_and_trimmed() {
        assert_eq!(
            one("start 15\r"),
            Input::Command(Command::Start {
                width: 15,
                height: 15
            })
        );
        assert_eq!(
            one("  Turn 7,8 "),
            Input::Command(Command::Turn(Point { x: 7, y: 8 }))
        );
        assert_eq!(
            one("RECTSTART 20,15"),
            Input::Command(Command::Start {
                width: 20,
                height: 15
            })
        );
        assert_eq!(
            one("INFO TIMEOUT_TURN 1000"),
            Input::Command(Command::Info(Info::TimeoutTurn(1000)))
        );
        assert_eq!(
            one("INFO time_left -5"),
            Input::Command(Command::Info(Info::TimeLeft(-5)))
        );
        assert_eq!(
            one("INFO folder C:\\my dir\\x"),
            Input::Command(Command::Info(Info::Folder("C:\\my dir\\x".into())))
        );
        assert_eq!(one(""), Input::Nothing);
    }

    #[test]
    fn bad_lines_become_errors_or_unknowns() {
        assert!(matches!(one("TURN 7"), Input::Error(_)));
        assert!(matches!(one("TURN a,b"), Input::Error(_)));
        assert!(
            matches!(one("START 99999999999999999999999"), Input::Error(e) if e.contains("out of range"))
        );
        assert!(matches!(one("FOO bar"), Input::Unknown(_)));
        assert!(matches!(one("DONE"), Input::Error(_)));
        assert!(matches!(one("BEGIN now"), Input::Error(_)));
        assert_eq!(
            one("INFO timeout_turn lots"),
            Input::Command(Command::Info(Info::Invalid {
                key: "timeout_turn".into(),
                value: "lots".into()
            }))
        );
        let long = "X".repeat(100_000);
        match one(&long) {
            Input::Unknown(text) => assert!(text.len() < 100),
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn blocks_gather_until_done_and_report_one_error() {
        let mut parser = Parser::new();
        assert_eq!(parser.feed("BOARD"), Input::Nothing);
        assert_eq!(parser.feed("7,7,1"), Input::Nothing);
        assert_eq!(parser.feed("7,8,2"), Input::Nothing);
        assert_eq!(
            parser.feed("done"),
            Input::Command(Command::Board {
                stones: vec![
                    (Point { x: 7, y: 7 }, Owner::Mine),
                    (Point { x: 7, y: 8 }, Owner::Opponent)
                ],
                then_move: true
            })
        );
        assert_eq!(parser.feed("YXBOARD"), Input::Nothing);
        assert_eq!(parser.feed("1,1,5"), Input::Nothing);
        assert_eq!(parser.feed("garbage"), Input::Nothing);
        assert!(matches!(parser.feed("DONE"), Input::Error(e) if e.contains("field 5")));
        assert!(!parser.in_block());
        assert_eq!(parser.feed("SWAP2BOARD"), Input::Nothing);
        assert_eq!(
            parser.feed("DONE"),
            Input::Command(Command::Swap2Board(vec![]))
        );
        assert_eq!(parser.feed("BOARD"), Input::Nothing);
        assert_eq!(parser.feed("END"), Input::Command(Command::End));
    }

    #[test]
    fn yixin_blocks_quinto_does_not_read_are_skipped_with_one_answer_at_most() {
        let mut parser = Parser::new();
        // A refused edit: one ERROR at DONE, END in its list read as a line.
        for line in ["yxsetbestmovedatabase", "7,8", "END of a comment"] {
            assert_eq!(parser.feed(line), Input::Nothing, "{line}");
        }
        assert!(matches!(parser.feed("DONE"), Input::Error(e) if e.contains("database")));
        // A file name, whatever it says, then the refusal; also when it is unreadable.
        assert_eq!(parser.feed("yxdbsplit"), Input::Nothing);
        assert!(matches!(parser.feed("DONE"), Input::Error(e) if e.starts_with("yxdbsplit")));
        assert_eq!(parser.feed("yxdbtotxt"), Input::Nothing);
        assert!(matches!(parser.reject("too long".into()), Input::Error(_)));
        assert!(matches!(parser.feed("yxprintfeature"), Input::Error(_)));
        // The hash file commands read their file name line, whatever it says.
        assert_eq!(parser.feed("yxhashdump"), Input::Nothing);
        assert_eq!(
            parser.feed("DONE"),
            Input::Command(Command::YxHashFile {
                path: "DONE".into(),
                load: false
            })
        );
        assert_eq!(
            parser.feed("yxsearchdefend"),
            Input::Command(Command::YxSearchDefend)
        );
        assert_eq!(
            parser.feed("yxbalancetwo -20"),
            Input::Command(Command::YxBalance {
                two: true,
                bias: -20
            })
        );
        assert!(matches!(parser.feed("yxbalanceone x"), Input::Error(_)));
        assert_eq!(
            parser.feed("YXBLOCKRESET"),
            Input::Command(Command::YxBlockReset)
        );
        assert_eq!(
            parser.feed("yxhashclear"),
            Input::Command(Command::YxHashClear)
        );
        assert_eq!(
            parser.feed("INFO hash_size 262144"),
            Input::Command(Command::Info(Info::HashSize(262144)))
        );
    }

    #[test]
    fn database_commands_carry_their_position_and_a_comment_over_lines() {
        let mut parser = Parser::new();
        let point = |x, y| Point { x, y };
        for line in ["yxquerydatabaseallt", "7,7", "8,8"] {
            assert_eq!(parser.feed(line), Input::Nothing, "{line}");
        }
        assert_eq!(
            parser.feed("done"),
            Input::Command(Command::Database {
                op: DatabaseOp::QueryAll { text: true },
                moves: vec![point(7, 7), point(8, 8)],
            })
        );
        // Yixin-Board's comment: escapes, a line break, END inside, the first move after it.
        for line in [r#"yxedittextdatabase "a \"b\""#, r#"END" 7,7"#] {
            assert_eq!(parser.feed(line), Input::Nothing, "{line}");
        }
        assert_eq!(
            parser.feed("done"),
            Input::Command(Command::Database {
                op: DatabaseOp::EditText("a \"b\"\nEND".into()),
                moves: vec![point(7, 7)],
            })
        );
        assert_eq!(
            parser.feed(r#"yxedittextdatabase "closed"done"#),
            Input::Command(Command::Database {
                op: DatabaseOp::EditText("closed".into()),
                moves: vec![],
            })
        );
        assert_eq!(parser.feed("yxeditlabeldatabase 3,4 W12"), Input::Nothing);
        assert!(matches!(
            parser.feed("done"),
            Input::Command(Command::Database { op: DatabaseOp::EditLabel { label, .. }, .. }) if label == "W12"
        ));
        assert_eq!(parser.feed("yxedittvddatabase 1 x"), Input::Nothing);
        assert!(matches!(
            parser.feed("done"),
            Input::Command(Command::Database {
                op: DatabaseOp::Invalid(_),
                ..
            })
        ));
        assert_eq!(parser.feed("yxsetdatabase"), Input::Nothing);
        assert_eq!(
            parser.feed("  /tmp/my db.txt "),
            Input::Command(Command::Database {
                op: DatabaseOp::Set("/tmp/my db.txt".into()),
                moves: vec![],
            })
        );
    }

    #[test]
    fn block_points_are_read_to_done() {
        let mut parser = Parser::new();
        for line in ["yxblock", "7,7", "8,9"] {
            assert_eq!(parser.feed(line), Input::Nothing, "{line}");
        }
        assert_eq!(
            parser.feed("done"),
            Input::Command(Command::YxBlock {
                points: vec![Point { x: 7, y: 7 }, Point { x: 8, y: 9 }],
                undo: false
            })
        );
        for line in ["yxblockundo", "seven"] {
            assert_eq!(parser.feed(line), Input::Nothing, "{line}");
        }
        assert!(matches!(parser.feed("done"), Input::Error(_)));
    }

    #[test]
    fn an_unreadable_line_spoils_an_open_block_instead_of_answering_twice() {
        let mut parser = Parser::new();
        assert!(matches!(parser.reject("too long".into()), Input::Error(_)));
        assert_eq!(parser.feed("BOARD"), Input::Nothing);
        assert_eq!(parser.reject("too long".into()), Input::Nothing);
        assert_eq!(parser.feed("7,7,1"), Input::Nothing);
        assert!(matches!(parser.feed("DONE"), Input::Error(e) if e == "too long"));
    }
}
