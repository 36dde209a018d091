//! The black-box protocol harness shared by the transcript and fuzz tests: a brain process,
//! the lines it may print, the harness's model of what each request asks for, and a mirror
//! of the game that checks every reply.
#![allow(dead_code)]

pub mod brain;
pub mod conversation;
pub mod mirror;
pub mod parallel;
pub mod reply;
pub mod request;
pub mod transcript;
