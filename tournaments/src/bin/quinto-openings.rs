//! `quinto-openings`: the opening-suite generator (coming in the next commit).

fn main() {
    eprintln!("quinto-openings: not written yet");
    std::process::exit(2);
}
