//! Where reports go: one JSON document or text on stdout, notes on stderr; never a panic.
//!
//! Every byte for stdout goes through [`Output`], which holds the locked stdout behind one
//! `BufWriter` (a large answer is written in 8 KiB pieces, not a system call a line) and
//! returns write errors instead of panicking as `println!` does. A closed pipe (`gamedata ... | head`)
//! surfaces as an error that [`is_broken_pipe`] recognises, and `main` ends quietly.

use std::io::{BufWriter, IsTerminal, StdoutLock, Write};

use anyhow::Result;
use clap::Args;
use serde::Serialize;

/// The command's stdout, in JSON mode or text mode.
pub(crate) struct Output {
    json: bool,
    stdout: BufWriter<StdoutLock<'static>>,
}

impl Output {
    /// Text or JSON output, as `--json` says.
    pub(crate) fn new(json: bool) -> Self {
        Output {
            json,
            stdout: BufWriter::new(std::io::stdout().lock()),
        }
    }

    /// Whether `--json` was given.
    pub(crate) fn is_json(&self) -> bool {
        self.json
    }

    /// Prints `report`: as one pretty JSON document in JSON mode, else as `text` writes it.
    pub(crate) fn report<T: Serialize>(
        &mut self,
        report: &T,
        text: impl FnOnce(&mut dyn Write) -> std::io::Result<()>,
    ) -> Result<()> {
        if self.json {
            // As an io::Error, so that a closed pipe is seen as one (`is_broken_pipe`).
            serde_json::to_writer_pretty(&mut self.stdout, report).map_err(std::io::Error::from)?;
            writeln!(self.stdout)?;
        } else {
            text(&mut self.stdout)?;
        }
        Ok(())
    }

    /// Raw stdout, for text-mode sections and binary output (`extract -o -`).
    pub(crate) fn raw(&mut self) -> &mut dyn Write {
        &mut self.stdout
    }

    /// Flushes stdout.
    pub(crate) fn flush(&mut self) -> Result<()> {
        Ok(self.stdout.flush()?)
    }
}

/// How a command that lists results (`uo find`, `wwd objects`) prints them.
#[derive(Args, Clone, Copy, Debug, Default)]
pub(crate) struct ListArgs {
    /// Print one JSON object a line (JSON Lines) as the results are found, instead of one
    /// document.
    #[arg(long)]
    pub(crate) jsonl: bool,
    /// Stop after N results.
    #[arg(long, value_name = "N")]
    pub(crate) limit: Option<u64>,
    /// Print only the number of results (with --json: {"count": N}).
    #[arg(long, conflicts_with = "jsonl")]
    pub(crate) count: bool,
}

/// `{"count": N}`, what `--count --json` prints.
#[derive(Serialize)]
struct CountReport {
    count: u64,
}

/// How [`Output::list`] prints a listing as text: a header line naming the columns, each
/// row, and a last line from the count.
pub(crate) struct TextListing<'a, T> {
    /// The first line, naming the columns.
    pub(crate) header: &'a str,
    /// One row.
    pub(crate) row: &'a dyn Fn(&mut dyn Write, &T) -> std::io::Result<()>,
    /// The last line, from the number of rows ("12 statics").
    pub(crate) footer: &'a dyn Fn(u64) -> String,
}

impl Output {
    /// Prints the results `rows` as `args` say: only their number (`--count`), one JSON
    /// object a line as they come (`--jsonl`), one JSON document `{"<key>": [...],
    /// "count": N}` written as they come (`--json`: one row a line, the count last), or
    /// text (`text`). Nothing is collected: memory stays that of one row whatever their
    /// number; `--limit` stops after N. An `Err` row stops the listing with that error.
    pub(crate) fn list<T: Serialize>(
        &mut self,
        args: &ListArgs,
        rows: impl Iterator<Item = Result<T>>,
        text: &TextListing<'_, T>,
        key: &str,
    ) -> Result<()> {
        let limit = usize::try_from(args.limit.unwrap_or(u64::MAX)).unwrap_or(usize::MAX);
        let mut rows = rows.take(limit);
        if args.count {
            let mut count = 0u64;
            for row in rows {
                row?;
                count = count.saturating_add(1);
            }
            return self.report(&CountReport { count }, |w| writeln!(w, "{count}"));
        }
        if args.jsonl {
            for row in rows {
                // As an io::Error, so that a closed pipe is seen as one (`is_broken_pipe`).
                serde_json::to_writer(&mut self.stdout, &row?).map_err(std::io::Error::from)?;
                self.stdout.write_all(b"\n")?;
            }
            return Ok(());
        }
        if self.json {
            write!(self.stdout, "{{\n  ")?;
            serde_json::to_writer(&mut self.stdout, key).map_err(std::io::Error::from)?;
            write!(self.stdout, ": [")?;
            let mut count = 0u64;
            for row in rows {
                let row = row?;
                self.stdout
                    .write_all(if count == 0 { b"\n    " } else { b",\n    " })?;
                serde_json::to_writer(&mut self.stdout, &row).map_err(std::io::Error::from)?;
                count = count.saturating_add(1);
            }
            let close = if count == 0 { "]" } else { "\n  ]" };
            writeln!(self.stdout, "{close},\n  \"count\": {count}\n}}")?;
            return Ok(());
        }
        writeln!(self.stdout, "{}", text.header)?;
        let mut count = 0u64;
        for row in rows.by_ref() {
            (text.row)(&mut self.stdout, &row?)?;
            count = count.saturating_add(1);
        }
        writeln!(self.stdout, "{}", (text.footer)(count))?;
        Ok(())
    }
}

/// A progress bar on stderr, `template` its indicatif style, when stderr is a terminal;
/// a hidden one when it is piped.
pub(crate) fn progress_bar(len: u64, template: &str) -> indicatif::ProgressBar {
    if !std::io::stderr().is_terminal() {
        return indicatif::ProgressBar::hidden();
    }
    let bar = indicatif::ProgressBar::new(len);
    if let Ok(style) = indicatif::ProgressStyle::with_template(template) {
        bar.set_style(style);
    }
    bar
}

/// Writes a line to stderr, ignoring failure (there is nowhere left to report it).
pub(crate) fn error_line(line: &str) {
    let _ = writeln!(std::io::stderr().lock(), "{line}");
}

/// True if `err` is, or was caused by, an I/O error of kind `BrokenPipe`.
pub(crate) fn is_broken_pipe(err: &anyhow::Error) -> bool {
    err.chain().any(|e| {
        e.downcast_ref::<std::io::Error>()
            .is_some_and(|io| io.kind() == std::io::ErrorKind::BrokenPipe)
    })
}
