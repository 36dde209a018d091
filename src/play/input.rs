//! What a person types: a move (`h8`, `8h`) or a command, in a game or in a replay.

/// A line typed during a game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Command {
    /// Text that looks like a point; the game checks it against its board.
    Move(String),
    Undo,
    Redo,
    Hint,
    Think,
    /// The engine plays its best move so far at once.
    Stop,
    Swap,
    Resign,
    /// `save` (a new file in the records directory) or `save FILE`.
    Save(Option<String>),
    Load(String),
    New,
    Numbers,
    Board,
    Help,
    Quit,
}

impl Command {
    /// Commands obeyed at once even while the engine thinks; the others wait for the move
    /// (typed ahead, they run in order once it is the typist's turn).
    pub fn is_immediate(&self) -> bool {
        matches!(
            self,
            Command::Quit | Command::Think | Command::Stop | Command::Help
        )
    }
}

/// The commands, for `help`.
pub const HELP: &str = "Commands:
  h8 or 8h     play there (column letter, row counted from the bottom)
  undo         take back your last move (and the engine's reply)
  redo         play again what undo took back
  hint         the engine's best moves for you, with scores
  think        the engine's latest analysis: depth, score, principal variation
  stop         make the engine move now
  swap         change sides with the engine
  resign       give up the game
  save [FILE]  save the game as a .psq record (default: a new file in the records directory)
  load FILE    continue from a .psq record's position
  new          start a new game with the same settings
  numbers      show move numbers on the board (again: hide them)
  board        draw the board again
  help         this list
  quit         leave (a finished game is already saved)";

/// Parses one line: `Ok(None)` for an empty one.
pub fn parse(line: &str) -> Result<Option<Command>, String> {
    let line = line.trim();
    let (word, rest) = match line.split_once(char::is_whitespace) {
        Some((word, rest)) => (word, rest.trim()),
        None => (line, ""),
    };
    if word.is_empty() {
        return Ok(None);
    }
    let word_lower = word.to_ascii_lowercase();
    if word.chars().any(|c| c.is_ascii_digit()) {
        if !rest.is_empty() {
            return Err(format!(
                "one move at a time: '{line}' has more than a point like h8"
            ));
        }
        return Ok(Some(Command::Move(word_lower)));
    }
    let no_argument = |command: Command| {
        if rest.is_empty() {
            Ok(Some(command))
        } else {
            Err(format!("{word_lower} takes nothing after it"))
        }
    };
    match word_lower.as_str() {
        "undo" => no_argument(Command::Undo),
        "redo" => no_argument(Command::Redo),
        "hint" => no_argument(Command::Hint),
        "think" => no_argument(Command::Think),
        "stop" => no_argument(Command::Stop),
        "swap" => no_argument(Command::Swap),
        "resign" => no_argument(Command::Resign),
        "new" => no_argument(Command::New),
        "numbers" => no_argument(Command::Numbers),
        "board" => no_argument(Command::Board),
        "help" | "?" => no_argument(Command::Help),
        "quit" | "exit" | "q" => no_argument(Command::Quit),
        "save" => Ok(Some(Command::Save(
            Some(rest.to_string()).filter(|f| !f.is_empty()),
        ))),
        "load" if rest.is_empty() => Err("load needs a file: load FILE".into()),
        "load" => Ok(Some(Command::Load(rest.to_string()))),
        _ => Err(format!(
            "'{}' is not a move or a command: a move is a point like h8, help lists the commands",
            clip(word)
        )),
    }
}

/// A line typed during a replay.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Step {
    Next,
    Back,
    Start,
    End,
    /// Show the position after this many moves.
    To(usize),
    Numbers,
    Help,
    Quit,
}

pub const REPLAY_HELP: &str = "Replay commands:
  next, n or Enter   one move forward
  back or b          one move back
  start, end         the empty board, the final position
  12                 the position after move 12
  numbers            show move numbers (again: hide them)
  quit               leave";

pub fn parse_step(line: &str) -> Result<Step, String> {
    let word = line.trim().to_ascii_lowercase();
    match word.as_str() {
        "" | "next" | "n" => Ok(Step::Next),
        "back" | "b" => Ok(Step::Back),
        "start" => Ok(Step::Start),
        "end" => Ok(Step::End),
        "numbers" => Ok(Step::Numbers),
        "help" | "?" => Ok(Step::Help),
        "quit" | "exit" | "q" => Ok(Step::Quit),
        _ => word.parse().map(Step::To).map_err(|_| {
            format!(
                "'{}' is not a replay command: next (n), back (b), start, end, a move number, quit",
                clip(line.trim())
            )
        }),
    }
}

/// At most 30 characters of what was typed, for a message.
fn clip(text: &str) -> String {
    let mut clipped: String = text.chars().take(30).collect();
    if clipped.len() < text.len() {
        clipped.push_str("...");
    }
    clipped
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn moves_and_commands() {
        assert_eq!(parse("  H8 "), Ok(Some(Command::Move("h8".into()))));
        assert_eq!(parse("8h"), Ok(Some(Command::Move("8h".into()))));
        assert_eq!(parse("Undo"), Ok(Some(Command::Undo)));
        assert_eq!(parse(""), Ok(None));
        assert_eq!(parse("save"), Ok(Some(Command::Save(None))));
        assert_eq!(
            parse("save my game.psq"),
            Ok(Some(Command::Save(Some("my game.psq".into()))))
        );
        assert_eq!(parse("load x.psq"), Ok(Some(Command::Load("x.psq".into()))));
        assert!(parse("load").unwrap_err().contains("load needs a file"));
        assert!(parse("undo 2").unwrap_err().contains("undo takes nothing"));
        assert!(parse("h8 h9").unwrap_err().contains("one move at a time"));
        assert!(parse("hello")
            .unwrap_err()
            .contains("'hello' is not a move or a command"));
        assert!(Command::Quit.is_immediate() && !Command::Undo.is_immediate());
    }

    #[test]
    fn replay_steps() {
        assert_eq!(parse_step(""), Ok(Step::Next));
        assert_eq!(parse_step("B"), Ok(Step::Back));
        assert_eq!(parse_step("12"), Ok(Step::To(12)));
        assert!(parse_step("fly")
            .unwrap_err()
            .contains("not a replay command"));
    }
}
