//! The lines a brain may print (docs/protocol.md §4), recognised strictly: a move is two
//! unsigned decimal numbers and a comma, nothing else on the line.

/// One line of the brain's output.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Reply {
    /// `x,y`, or several separated by single spaces (SWAP2 answers).
    Moves(Vec<(usize, usize)>),
    Ok,
    Swap,
    /// `ERROR <text>`.
    Error,
    /// `UNKNOWN <text>`.
    Unknown,
    /// `MESSAGE <text>` (or `DEBUG <text>`): may come before any reply.
    Message,
    /// `INFO <KEY> <value>`: a live analysis line, which only a GUI that asked for it
    /// (`INFO show_detail` with bit 2) may get, while a move is searched.
    Analysis,
    /// `name="…", version="…", author="…", country="…"`.
    About,
    /// `FORBID xxyyxxyy….`: the points in it.
    Forbid(Vec<(usize, usize)>),
    /// Anything else: never allowed.
    Other,
}

impl Reply {
    /// A name for counting.
    pub fn kind(&self) -> &'static str {
        match self {
            Reply::Moves(moves) if moves.len() == 1 => "move",
            Reply::Moves(_) => "moves",
            Reply::Ok => "OK",
            Reply::Swap => "SWAP",
            Reply::Error => "ERROR",
            Reply::Unknown => "UNKNOWN",
            Reply::Message => "MESSAGE",
            Reply::Analysis => "INFO",
            Reply::About => "ABOUT",
            Reply::Forbid(_) => "FORBID",
            Reply::Other => "other",
        }
    }

    pub fn parse(line: &str) -> Reply {
        if let Some(moves) = parse_moves(line) {
            return Reply::Moves(moves);
        }
        if line == "OK" {
            return Reply::Ok;
        }
        if line == "SWAP" {
            return Reply::Swap;
        }
        let has_text = |prefix: &str| {
            line.strip_prefix(prefix)
                .map_or(false, |rest| !rest.trim().is_empty())
        };
        if has_text("ERROR ") {
            return Reply::Error;
        }
        if has_text("UNKNOWN ") {
            return Reply::Unknown;
        }
        if has_text("MESSAGE ") || has_text("DEBUG ") {
            return Reply::Message;
        }
        if has_text("INFO ") {
            return Reply::Analysis;
        }
        if let Some(points) = parse_forbid(line) {
            return Reply::Forbid(points);
        }
        if is_about(line) {
            return Reply::About;
        }
        Reply::Other
    }
}

/// Whether a line is one of the live analysis lines a GUI draws while a move is searched
/// (`MESSAGE REALTIME …`, `INFO …`).
pub fn is_live(line: &str) -> bool {
    line.starts_with("MESSAGE REALTIME ") || Reply::parse(line) == Reply::Analysis
}

/// One move `x,y`.
pub fn parse_move(text: &str) -> Option<(usize, usize)> {
    let (x, y) = text.split_once(',')?;
    Some((unsigned(x)?, unsigned(y)?))
}

fn parse_moves(line: &str) -> Option<Vec<(usize, usize)>> {
    line.split(' ').map(parse_move).collect()
}

fn unsigned(text: &str) -> Option<usize> {
    if text.is_empty() || text.len() > 3 || !text.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    text.parse().ok()
}

fn parse_forbid(line: &str) -> Option<Vec<(usize, usize)>> {
    let digits = line.strip_prefix("FORBID ")?.strip_suffix('.')?;
    if digits.len() % 4 != 0 || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let number = |i: usize| digits[i..i + 2].parse::<usize>().ok();
    (0..digits.len())
        .step_by(4)
        .map(|i| Some((number(i)?, number(i + 2)?)))
        .collect()
}

/// `name="Quinto", version="…", author="…", country="…"`: these keys, in this order, each
/// with a non-empty quoted value, and nothing else (Quinto has no web page to name in `www`).
pub fn is_about(line: &str) -> bool {
    let keys = ["name", "version", "author", "country"];
    let mut rest = line;
    for (i, key) in keys.iter().enumerate() {
        if i > 0 {
            rest = match rest.strip_prefix(", ") {
                Some(r) => r,
                None => return false,
            };
        }
        let value_start = match rest.strip_prefix(key).and_then(|r| r.strip_prefix("=\"")) {
            Some(r) => r,
            None => return false,
        };
        let end = match value_start.find('"') {
            Some(end) if end > 0 => end,
            _ => return false,
        };
        if i == 0 && &value_start[..end] != "Quinto" {
            return false;
        }
        rest = &value_start[end + 1..];
    }
    rest.is_empty()
}
