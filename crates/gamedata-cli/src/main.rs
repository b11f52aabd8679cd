//! `gamedata`: inspect, validate, query and render classic game data files.
//!
//! Every command takes `--json` (before or after the subcommand) and then prints exactly
//! one JSON document to stdout: what it found, or, for the writing commands, what it
//! wrote. Errors go to stderr with their chain of causes, and the exit status is non-zero
//! (1 for bad input or I/O, 2 for bad usage). A reader that stops early
//! (`gamedata ... | head`) ends the command quietly with status 0.
//!
//! Each game family is a module folder (`cosmo/`) with its commands; adding a family adds a
//! folder, a variant of [`Command`] and a section of the demo.

// The Ultima Online commands map their files through mul-core's `map` entry points
// (`uo::open_facet`, `uo::map_single!`), and the REZ commands map archives through
// wap-core's (`rez::map_archive`); the SAFETY notes are there.
#![deny(unsafe_code)]

mod cosmo;
mod demo;
mod errors;
mod files;
mod output;
mod render;
mod rez;
mod tiled;
mod uo;
mod web;
mod wwd;

use std::process::ExitCode;

/// The unit tests' allocator: dhat's, which counts the peak heap of a call
/// (`gamedata_testkit::heap::peak`) and passes every allocation on.
#[cfg(test)]
#[global_allocator]
static ALLOC: dhat::Alloc = dhat::Alloc;

use clap::{Parser, Subcommand};

use crate::output::Output;

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
    /// Print exactly one JSON document to stdout instead of text (writing commands: what
    /// they wrote).
    #[arg(long, global = true)]
    json: bool,
    /// How hard the PNG pictures a command writes are compressed (zlib-rs levels 2, 6 and
    /// 9, stripes deflated in parallel): fast (about 1.1 times the size of zlib level 1's
    /// output, in a third of its time), default, or best (smallest, for archives of tiles);
    /// the pixels are the same.
    #[arg(long, global = true, value_enum, default_value_t = render::Compression::Fast)]
    compression: render::Compression,
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Cosmo's Cosmic Adventure: group files (STN/VOL), tile attributes, maps.
    #[command(subcommand)]
    Cosmo(cosmo::CosmoCommand),
    /// Ultima Online: map, statics, tiledata, multis, radar map, synthetic worlds.
    #[command(subcommand)]
    Uo(uo::UoCommand),
    /// WWD levels of the WAP32 engine (Claw, Gruntz): info, validate, objects, collision
    /// maps, checksums, rewriting.
    #[command(subcommand)]
    Wwd(wwd::WwdCommand),
    /// REZ archives of the WAP32 games (CLAW.REZ, GRUNTZ.REZ): list, extract, PID images
    /// as PNG.
    #[command(subcommand)]
    Rez(rez::RezCommand),
    /// Build synthetic game files with the crates' writers, then inspect and render them.
    Demo(demo::DemoArgs),
}

/// Bad usage (or `--help`, `--version`): the help as clap prints it; an error's message
/// as plain text, escaped (`output::error_line`), since it may quote an argument, a file
/// name a shell glob made, whose control characters clap's coloured output would send to
/// the terminal. The status is clap's: 0 for help and version, 2 for bad usage.
fn usage_error(err: &clap::Error) -> ExitCode {
    use clap::error::ErrorKind;
    let status = u8::try_from(err.exit_code()).unwrap_or(2);
    match err.kind() {
        ErrorKind::DisplayHelp
        | ErrorKind::DisplayVersion
        | ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand => {
            let _ = err.print();
        }
        _ => output::error_line(err.render().to_string().trim_end()),
    }
    ExitCode::from(status)
}

fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(err) => return usage_error(&err),
    };
    render::set_compression(cli.compression);
    let mut out = Output::new(cli.json);
    let result = match cli.command {
        Command::Cosmo(cmd) => cosmo::run(cmd, &mut out),
        Command::Uo(cmd) => uo::run(cmd, &mut out),
        Command::Wwd(cmd) => wwd::run(cmd, &mut out),
        Command::Rez(cmd) => rez::run(cmd, &mut out),
        Command::Demo(args) => demo::run(&args, &mut out),
    }
    .and_then(|()| out.flush());
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(err) if output::is_broken_pipe(&err) => ExitCode::SUCCESS,
        Err(err) => {
            // Each cause escaped on its own (a file's text in it prints on its line, and
            // sends the terminal no control character), then laid out one a line.
            let mut msg = format!(
                "gamedata: error: {}",
                gamedata_io::printable(&err.to_string())
            );
            for cause in err.chain().skip(1) {
                let cause = cause.to_string();
                msg.push_str("\n  caused by: ");
                msg.push_str(&gamedata_io::printable(&cause));
            }
            output::error_line(&msg);
            if out.is_json() {
                // With --json, stderr's last line is the error as JSON; stdout stays as
                // the command left it (empty, or binary output such as `extract -o -`).
                let message = msg.trim_start_matches("gamedata: error: ").to_owned();
                let document = errors::ErrorDocument::new(&err, message);
                output::json_error_line(&document);
            }
            ExitCode::FAILURE
        }
    }
}
