//! `gamedata`: inspect, validate, query and render classic game data files.
//!
//! Every inspecting command takes `--json` and then prints exactly one JSON document to
//! stdout. Errors go to stderr, and the exit status is non-zero (1 for bad input or I/O,
//! 2 for bad usage).

#![forbid(unsafe_code)]

mod cosmo;
mod demo;
mod render;

use std::process::ExitCode;

use clap::{Parser, Subcommand};

/// Errors reported by the command: any error, shown with its chain of causes.
pub(crate) type CliResult<T = ()> = Result<T, Box<dyn std::error::Error + Send + Sync>>;

/// An error with a sentence saying what was being done; the error itself is its source.
#[derive(Debug)]
pub(crate) struct Context {
    doing: String,
    source: Box<dyn std::error::Error + Send + Sync>,
}

impl std::fmt::Display for Context {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.doing)
    }
}

impl std::error::Error for Context {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        Some(&*self.source)
    }
}

/// Adds what was being done to an error.
pub(crate) trait WithContext<T> {
    fn context(self, doing: impl FnOnce() -> String) -> CliResult<T>;
}

impl<T, E: std::error::Error + Send + Sync + 'static> WithContext<T> for Result<T, E> {
    fn context(self, doing: impl FnOnce() -> String) -> CliResult<T> {
        self.map_err(|e| {
            Box::new(Context {
                doing: doing(),
                source: Box::new(e),
            }) as _
        })
    }
}

#[derive(Parser)]
#[command(
    name = "gamedata",
    version,
    about = "Inspect, validate, query and render classic game data files",
    long_about = "Inspect, validate, query and render classic game data files.\n\n\
        Point it at real game files, for example the Cosmo's Cosmic Adventure episode 1 \
        shareware files COSMO1.STN and COSMO1.VOL, or run `gamedata demo` to see it work on \
        built-in synthetic data."
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Cosmo's Cosmic Adventure: group files (STN/VOL), tile attributes, maps.
    #[command(subcommand)]
    Cosmo(cosmo::CosmoCommand),
    /// Build a synthetic episode with the crate's writers, then list, summarise and render it.
    Demo(demo::DemoArgs),
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Cosmo(cmd) => cosmo::run(cmd),
        Command::Demo(args) => demo::run(&args),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        // A reader that stopped early (`gamedata ... | head`) is not an error of ours.
        Err(err) if is_broken_pipe(&*err) => ExitCode::SUCCESS,
        Err(err) => {
            let mut msg = format!("gamedata: error: {err}");
            let mut source = err.source();
            while let Some(cause) = source {
                msg.push_str(&format!("\n  caused by: {cause}"));
                source = cause.source();
            }
            eprintln!("{msg}");
            ExitCode::FAILURE
        }
    }
}

/// True if `err` is, or wraps, an I/O error of kind `BrokenPipe`.
fn is_broken_pipe(err: &(dyn std::error::Error + 'static)) -> bool {
    let mut current = Some(err);
    while let Some(e) = current {
        if e.downcast_ref::<std::io::Error>()
            .is_some_and(|io| io.kind() == std::io::ErrorKind::BrokenPipe)
        {
            return true;
        }
        current = e.source();
    }
    false
}
