//! What the lines sent to the brain ask for, as the harness reads the protocol
//! (docs/protocol.md): an independent model of the engine's input side, so that every
//! reply can be checked against what the protocol says it must be.
//!
//! Text rules (the same as any Gomocup manager assumes): lines end at `\n`; bytes that are
//! not UTF-8 read as U+FFFD; a line is trimmed of Unicode white space (so `\r` and blanks
//! go) and an empty line means nothing; the first word is the command, case-insensitive;
//! numbers are decimal `i64` with an optional sign and blanks around them (`TURN 7, 8`).
//! A line of a megabyte or more is refused whole with one `ERROR`.

/// Lines at least this long are refused (the engine reads at most 1 MiB per line).
pub const MAX_LINE_BYTES: usize = 1 << 20;
/// More lines than this in a block cannot be a board (32×32 points).
const MAX_BLOCK_LINES: usize = 1024;

/// A `BOARD`/`YXBOARD` line: x, y and the owner (1 the brain's, 2 the opponent's).
pub type Stone = (i64, i64, u8);

/// One request, complete (a block counts once, at its `DONE`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Request {
    Start {
        width: i64,
        height: i64,
    },
    Restart,
    Begin,
    Turn(i64, i64),
    Play(i64, i64),
    Takeback(i64, i64),
    /// `BOARD` (the brain then moves) or `YXBOARD` (it does not).
    Board {
        stones: Vec<Stone>,
        then_move: bool,
    },
    Swap2(Vec<(i64, i64)>),
    /// `yxblock` (or with `undo`, `yxblockundo`) with its points: no reply; the brain's
    /// moves then avoid them (or may use them again).
    Block {
        points: Vec<(i64, i64)>,
        undo: bool,
    },
    /// `yxblockreset`: no reply; nothing is blocked.
    BlockReset,
    /// `yxbalanceone` (1) or `yxbalancetwo` (2), with an optional value: that many legal
    /// moves on one line, played in turn.
    Balance(usize),
    Info {
        key: String,
        value: String,
    },
    End,
    About,
    Stop,
    ShowForbid,
    ShowInfo,
    Nbest(i64),
    Bench,
    /// `yxdraw`: a `MESSAGE` with a game, else an `ERROR`.
    Draw,
    /// `yxswap2step1` to `3`: `MESSAGE SWAP2 …` lines when the board holds 0 (step 1 empties
    /// it), 3 or 5 stones, else an `ERROR`; the position stays.
    Swap2Step(u8),
    /// A Yixin-Board command answered by nothing or by `MESSAGE` lines alone, game or not
    /// (`yxhashclear`, `yxshowhashusage`, `yxresign`, a database query at its `done`, Rapfi's
    /// `traceboard`, `tracesearch` and `reloadconfig`, …).
    Quiet,
    /// Malformed: the brain must answer one `ERROR …`.
    Malformed(String),
    /// Not a command: the brain must answer one `UNKNOWN …`.
    Unknown,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum BlockKind {
    Board,
    YxBoard,
    Swap2,
    /// `x,y` lines to block, or to free when `undo`.
    Blocks {
        undo: bool,
    },
    /// Yixin-Board's stone list (`x,y` lines) after a database command or one the brain
    /// does not carry out: it ends at `done` only, with one `ERROR` when `refused`, else
    /// no answer but `MESSAGE` lines; `quoted` while a comment (`yxedittextdatabase "…`)
    /// runs on, over lines, to its closing quote.
    Skipped {
        refused: bool,
        quoted: bool,
    },
    /// The one line after a Yixin-Board command naming a file: whatever it says, then one
    /// `ERROR` when `refused` (the brain reads and writes no such file), else nothing but
    /// `MESSAGE` lines (`yxsetdatabase`).
    FileName {
        refused: bool,
    },
}

/// Yixin-Board's database commands and those the brain does not carry out (Yixin-Board's
/// main.c, which sends them: a stone list in move order and `done`, a file name line, or
/// nothing more). Database queries and edits get `MESSAGE` lines at most (the GUI waits
/// for no reply); the block path reset nothing (no path is blocked).
const YIXIN_DATABASE: [&str; 9] = [
    "YXQUERYDATABASEALL",
    "YXQUERYDATABASEALLT",
    "YXQUERYDATABASEONE",
    "YXQUERYDATABASETEXT",
    "YXEDITLABELDATABASE",
    "YXEDITTEXTDATABASE",
    "YXEDITTVDDATABASE",
    "YXDELETEDATABASEONE",
    "YXDELETEDATABASEALL",
];
const YIXIN_STONES_REFUSED: [&str; 9] = [
    "YXSETBESTMOVEDATABASE",
    "YXCLEARBESTMOVEDATABASE",
    "YXBLOCKPATH",
    "YXBLOCKPATHUNDO",
    "YXSOOSORVSTEP2",
    "YXSOOSORVSTEP3",
    "YXSOOSORVSTEP4",
    "YXSOOSORVSTEP5",
    "YXSOOSORVSTEP6",
];
const YIXIN_FILE_NAME: [&str; 7] = [
    "YXDBTOPOS",
    "YXDBTOTXT",
    "YXDBTOTXTALL",
    "YXTXTTODB",
    "YXLIBTODB",
    "YXDBMERGE",
    "YXDBSPLIT",
];
const YIXIN_REFUSED: [&str; 5] = [
    "YXDBCHECK",
    "YXDBFIX",
    "YXSOOSORVSTEP1",
    "YXFORBID",
    "YXPRINTFEATURE",
];

#[derive(Debug)]
struct Block {
    kind: BlockKind,
    stones: Vec<Stone>,
    points: Vec<(i64, i64)>,
    lines: usize,
    error: Option<String>,
}

/// Splits what is written into lines and lines into requests, keeping an open block.
#[derive(Debug, Default)]
pub struct RequestReader {
    partial: Vec<u8>,
    block: Option<Block>,
}

impl RequestReader {
    pub fn new() -> RequestReader {
        RequestReader::default()
    }

    /// Whether a block is open (the brain waits for `DONE`).
    pub fn in_block(&self) -> bool {
        self.block.is_some()
    }

    /// Reads bytes as written to the brain; returns the requests they complete.
    pub fn write(&mut self, bytes: &[u8]) -> Vec<Request> {
        let mut requests = Vec::new();
        for &byte in bytes {
            if byte == b'\n' {
                let line = std::mem::take(&mut self.partial);
                requests.extend(self.line(&line));
            } else {
                self.partial.push(byte);
            }
        }
        requests
    }

    /// End of input: a last unterminated line still counts.
    pub fn close(&mut self) -> Vec<Request> {
        let line = std::mem::take(&mut self.partial);
        let mut requests = Vec::new();
        if !line.is_empty() {
            requests.extend(self.line(&line));
        }
        requests
    }

    fn line(&mut self, bytes: &[u8]) -> Option<Request> {
        if bytes.len() + 1 > MAX_LINE_BYTES {
            return self.refuse("line too long".into());
        }
        let text = String::from_utf8_lossy(bytes);
        let line = text.trim();
        if line.is_empty() {
            return None;
        }
        let (word, rest) = split_word(line);
        let word = word.to_ascii_uppercase();
        if self.block.is_some() {
            return self.block_line(&word, line);
        }
        let named = |list: &[&str]| list.contains(&word.as_str());
        let skipped = if named(&YIXIN_DATABASE) {
            if word == "YXEDITTEXTDATABASE" {
                if let Some(comment) = rest.strip_prefix('"') {
                    // A comment closed on its first line ends the block when `done` follows.
                    match after_quote(comment) {
                        None => {
                            self.open(BlockKind::Skipped {
                                refused: false,
                                quoted: true,
                            });
                            return None;
                        }
                        Some(rest) if split_word(rest).0.eq_ignore_ascii_case("DONE") => {
                            return Some(Request::Quiet)
                        }
                        Some(_) => {}
                    }
                }
            }
            Some(BlockKind::Skipped {
                refused: false,
                quoted: false,
            })
        } else if named(&YIXIN_STONES_REFUSED) {
            Some(BlockKind::Skipped {
                refused: true,
                quoted: false,
            })
        } else if ["YXSETDATABASE", "YXHASHDUMP", "YXHASHLOAD"].contains(&word.as_str()) {
            Some(BlockKind::FileName { refused: false })
        } else if named(&YIXIN_FILE_NAME) {
            Some(BlockKind::FileName { refused: true })
        } else {
            None
        };
        if let Some(kind) = skipped {
            self.open(kind);
            return None;
        }
        if named(&YIXIN_REFUSED) {
            return Some(malformed(
                "a Yixin-Board command the brain does not carry out",
            ));
        }
        let request = match word.as_str() {
            "START" => match number(rest) {
                Some(n) => Request::Start {
                    width: n,
                    height: n,
                },
                None => malformed("START needs a size"),
            },
            "RECTSTART" => match point(rest) {
                Some((width, height)) => Request::Start { width, height },
                None => malformed("RECTSTART needs w,h"),
            },
            "RESTART" => bare(rest, Request::Restart),
            "BEGIN" => bare(rest, Request::Begin),
            "TURN" => {
                point(rest).map_or_else(|| malformed("TURN x,y"), |(x, y)| Request::Turn(x, y))
            }
            "PLAY" => {
                point(rest).map_or_else(|| malformed("PLAY x,y"), |(x, y)| Request::Play(x, y))
            }
            "TAKEBACK" => point(rest).map_or_else(
                || malformed("TAKEBACK x,y"),
                |(x, y)| Request::Takeback(x, y),
            ),
            "BOARD" | "YXBOARD" | "SWAP2BOARD" | "YXBLOCK" | "YXBLOCKUNDO" if rest.is_empty() => {
                self.open(match word.as_str() {
                    "BOARD" => BlockKind::Board,
                    "YXBOARD" => BlockKind::YxBoard,
                    "YXBLOCK" => BlockKind::Blocks { undo: false },
                    "YXBLOCKUNDO" => BlockKind::Blocks { undo: true },
                    _ => BlockKind::Swap2,
                });
                return None;
            }
            "BOARD" | "YXBOARD" | "SWAP2BOARD" | "YXBLOCK" | "YXBLOCKUNDO" => {
                malformed("a block command takes no argument")
            }
            "INFO" => {
                let (key, value) = split_word(rest);
                Request::Info {
                    key: key.to_ascii_lowercase(),
                    value: value.to_string(),
                }
            }
            "END" => Request::End,
            "ABOUT" => bare(rest, Request::About),
            "STOP" | "YXSTOP" => bare(rest, Request::Stop),
            "YXSHOWFORBID" => bare(rest, Request::ShowForbid),
            "YXSHOWINFO" => bare(rest, Request::ShowInfo),
            "BENCH" => bare(rest, Request::Bench),
            "YXDRAW" => bare(rest, Request::Draw),
            "YXSWAP2STEP1" => bare(rest, Request::Swap2Step(1)),
            "YXSWAP2STEP2" => bare(rest, Request::Swap2Step(2)),
            "YXSWAP2STEP3" => bare(rest, Request::Swap2Step(3)),
            "YXHASHCLEAR" | "YXSHOWHASHUSAGE" | "YXRESIGN" => bare(rest, Request::Quiet),
            "YXSAVEDATABASE" => Request::Quiet,
            "TRACEBOARD" | "TRACESEARCH" => bare(rest, Request::Quiet),
            "RELOADCONFIG" => Request::Quiet,
            "YXBALANCEONE" | "YXBALANCETWO" if rest.is_empty() || number(rest).is_some() => {
                Request::Balance(if word == "YXBALANCEONE" { 1 } else { 2 })
            }
            "YXBALANCEONE" | "YXBALANCETWO" => malformed("a balance value is a number"),
            "YXBLOCKRESET" => bare(rest, Request::BlockReset),
            "YXBLOCKPATHRESET" => Request::Quiet,
            "YXNBEST" => number(rest).map_or_else(|| malformed("YXNBEST n"), Request::Nbest),
            // Every move ranked: answered as YXNBEST is, with a move.
            "YXSEARCHDEFEND" => bare(rest, Request::Nbest(1)),
            "DONE" => malformed("DONE without a block"),
            _ => Request::Unknown,
        };
        Some(request)
    }

    fn open(&mut self, kind: BlockKind) {
        self.block = Some(Block {
            kind,
            stones: Vec::new(),
            points: Vec::new(),
            lines: 0,
            error: None,
        });
    }

    /// A line that cannot be read: inside a block it spoils the block (one `ERROR` at
    /// `DONE`), outside it is answered at once. A file name or a skipped stone list's line
    /// is not read anyway.
    fn refuse(&mut self, why: String) -> Option<Request> {
        if let Some(Block {
            kind: BlockKind::FileName { .. } | BlockKind::Skipped { .. },
            ..
        }) = self.block
        {
            return self.block_line("", "");
        }
        match self.block.as_mut() {
            Some(block) => {
                block.lines += 1;
                block.error.get_or_insert(why);
                None
            }
            None => Some(Request::Malformed(why)),
        }
    }

    fn block_line(&mut self, word: &str, line: &str) -> Option<Request> {
        match self.block.as_ref().map(|b| b.kind) {
            Some(BlockKind::FileName { refused }) => {
                self.block = None;
                return Some(if refused {
                    malformed("a Yixin-Board file command")
                } else {
                    Request::Quiet
                });
            }
            Some(BlockKind::Skipped { refused, quoted }) => {
                let rest = if quoted {
                    // What follows the comment's closing quote is a line of its own.
                    match after_quote(line) {
                        Some(rest) => {
                            self.block = Some(Block {
                                kind: BlockKind::Skipped {
                                    refused,
                                    quoted: false,
                                },
                                ..self.block.take()?
                            });
                            rest
                        }
                        None => return None,
                    }
                } else {
                    word
                };
                if !split_word(rest).0.eq_ignore_ascii_case("DONE") {
                    return None;
                }
                self.block = None;
                return Some(if refused {
                    malformed("a Yixin-Board command the brain does not carry out")
                } else {
                    Request::Quiet
                });
            }
            _ => {}
        }
        if word == "END" {
            self.block = None;
            return Some(Request::End);
        }
        if word == "DONE" {
            let block = self.block.take()?;
            return Some(match (block.error, block.kind) {
                (Some(why), _) => Request::Malformed(why),
                (None, BlockKind::Swap2) => Request::Swap2(block.points),
                (None, BlockKind::Blocks { undo }) => Request::Block {
                    points: block.points,
                    undo,
                },
                (None, kind) => Request::Board {
                    stones: block.stones,
                    then_move: kind == BlockKind::Board,
                },
            });
        }
        let block = self.block.as_mut()?;
        block.lines += 1;
        if block.lines > MAX_BLOCK_LINES {
            block.error.get_or_insert_with(|| "too many lines".into());
        }
        if block.error.is_some() {
            return None;
        }
        let fields: Vec<&str> = line.split(',').collect();
        match (block.kind, fields.as_slice()) {
            (BlockKind::Swap2 | BlockKind::Blocks { .. }, [x, y]) => match (number(x), number(y)) {
                (Some(x), Some(y)) => block.points.push((x, y)),
                _ => block.error = Some(format!("bad point '{line}'")),
            },
            (BlockKind::Board | BlockKind::YxBoard, [x, y, f]) => {
                match (number(x), number(y), number(f)) {
                    (Some(x), Some(y), Some(f @ (1 | 2))) => block.stones.push((x, y, f as u8)),
                    _ => block.error = Some(format!("bad stone '{line}'")),
                }
            }
            _ => block.error = Some(format!("bad block line '{line}'")),
        }
        None
    }
}

fn malformed(why: &str) -> Request {
    Request::Malformed(why.to_string())
}

/// A command that takes no argument.
fn bare(rest: &str, request: Request) -> Request {
    if rest.is_empty() {
        request
    } else {
        malformed("no argument expected")
    }
}

/// What follows the closing quote of a comment (a backslash escapes the next character).
fn after_quote(text: &str) -> Option<&str> {
    let mut chars = text.char_indices();
    while let Some((at, c)) = chars.next() {
        match c {
            '"' => return Some(&text[at + 1..]),
            '\\' => {
                chars.next();
            }
            _ => {}
        }
    }
    None
}

/// A decimal `i64`, blanks around it allowed.
pub fn number(text: &str) -> Option<i64> {
    text.trim().parse().ok()
}

/// `x,y`.
fn point(text: &str) -> Option<(i64, i64)> {
    let fields: Vec<&str> = text.split(',').collect();
    match fields.as_slice() {
        [x, y] => Some((number(x)?, number(y)?)),
        _ => None,
    }
}

/// The first word and the trimmed rest.
pub fn split_word(line: &str) -> (&str, &str) {
    match line.find(char::is_whitespace) {
        Some(at) => (&line[..at], line[at..].trim()),
        None => (line, ""),
    }
}
