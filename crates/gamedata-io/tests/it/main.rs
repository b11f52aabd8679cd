//! gamedata-io: every reading path and every error path.

mod bytes;
mod file;
mod limits;
