//! Where reports go: one JSON document or text on stdout, notes on stderr; never a panic.
//!
//! Every byte for stdout goes through [`Output`], which holds the locked stdout behind one
//! `BufWriter` (a large answer is written in 8 KiB pieces, not a system call a line) and
//! returns write errors instead of panicking as `println!` does. A closed pipe (`gamedata ... | head`)
//! surfaces as an error that [`is_broken_pipe`] recognises, and `main` ends quietly.
//!
//! No control character of a file's text reaches a terminal: text reports and listings
//! are written through [`Text`], which escapes every control character but the line feed
//! (`gamedata_io::printable_lines`); JSON through [`Json`], which writes DEL and the C1
//! controls as `\u` escapes (serde_json escapes the C0 ones); stderr's lines through
//! [`error_line`], the same as text. Only binary output ([`Output::raw`]) is as given.
//! A line feed in a file's text would still start a line of its own: the reports escape
//! the names they print one by one (`gamedata_io::printable`: `wwd info`, `wwd validate`,
//! `wwd objects`, `cosmo ls`, `rez ls`), errors each cause.

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
            serde_json::to_writer_pretty(Json::new(&mut self.stdout), report)
                .map_err(std::io::Error::from)?;
            writeln!(self.stdout)?;
        } else {
            text(&mut Text(&mut self.stdout))?;
        }
        Ok(())
    }

    /// Raw stdout, for binary output (`extract -o -`): bytes as given.
    pub(crate) fn raw(&mut self) -> &mut dyn Write {
        &mut self.stdout
    }

    /// Stdout for text, control characters but the line feed escaped ([`Text`]).
    pub(crate) fn text(&mut self) -> Text<'_> {
        Text(&mut self.stdout)
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
                serde_json::to_writer(Json::new(&mut self.stdout), &row?)
                    .map_err(std::io::Error::from)?;
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
                serde_json::to_writer(Json::new(&mut self.stdout), &row)
                    .map_err(std::io::Error::from)?;
                count = count.saturating_add(1);
            }
            let close = if count == 0 { "]" } else { "\n  ]" };
            writeln!(self.stdout, "{close},\n  \"count\": {count}\n}}")?;
            return Ok(());
        }
        writeln!(self.stdout, "{}", text.header)?;
        let mut count = 0u64;
        for row in rows.by_ref() {
            (text.row)(&mut Text(&mut self.stdout), &row?)?;
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

/// Writes a line to stderr, its control characters but the line feed escaped
/// (`gamedata_io::printable_lines`), ignoring failure (there is nowhere left to report it).
pub(crate) fn error_line(line: &str) {
    let _ = writeln!(
        std::io::stderr().lock(),
        "{}",
        gamedata_io::printable_lines(line)
    );
}

/// Writes `document` to stderr as one line of JSON ([`Json`]: no control character),
/// ignoring failure.
pub(crate) fn json_error_line<T: Serialize>(document: &T) {
    let mut line = Vec::new();
    if serde_json::to_writer(Json::new(&mut line), document).is_ok() {
        line.push(b'\n');
        let _ = std::io::stderr().lock().write_all(&line);
    }
}

/// A writer of text: what is written is taken as UTF-8 text and written with its control
/// characters but the line feed escaped (`gamedata_io::printable_lines`); bytes that are
/// not UTF-8 are written with their C0 and DEL bytes escaped as `\xNN`.
pub(crate) struct Text<'w>(pub(crate) &'w mut dyn Write);

impl Write for Text<'_> {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        match std::str::from_utf8(buf) {
            Ok(text) => self
                .0
                .write_all(gamedata_io::printable_lines(text).as_bytes())?,
            Err(_) => {
                for piece in buf.split_inclusive(|&b| (b < 0x20 && b != b'\n') || b == 0x7f) {
                    match piece.split_last() {
                        Some((&b, rest)) if (b < 0x20 && b != b'\n') || b == 0x7f => {
                            self.0.write_all(rest)?;
                            write!(self.0, "\\x{b:02x}")?;
                        }
                        _ => self.0.write_all(piece)?,
                    }
                }
            }
        }
        Ok(buf.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        self.0.flush()
    }
}

/// A writer of JSON text: DEL and the C1 controls (U+0080 to U+009F, bytes 0xC2 0x80 to
/// 0xC2 0x9F), which serde_json writes as they are, written as `\u007f` and `\u0080` to
/// `\u009f`. In serde_json's output they can only be inside strings, where the escape
/// means the same character.
pub(crate) struct Json<W: Write> {
    out: W,
    /// The last byte written was 0xC2 and is held until the next tells what it leads.
    lead: bool,
}

impl<W: Write> Json<W> {
    pub(crate) fn new(out: W) -> Self {
        Json { out, lead: false }
    }
}

impl<W: Write> Write for Json<W> {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        let mut start = 0usize;
        for (i, &b) in buf.iter().enumerate() {
            if self.lead {
                self.lead = false;
                if (0x80..0xa0).contains(&b) {
                    write!(self.out, "\\u{b:04x}")?;
                } else {
                    self.out.write_all(&[0xc2, b])?;
                }
                start = i.saturating_add(1);
            } else if b == 0x7f || b == 0xc2 {
                self.out.write_all(buf.get(start..i).unwrap_or_default())?;
                if b == 0x7f {
                    self.out.write_all(b"\\u007f")?;
                } else {
                    self.lead = true;
                }
                start = i.saturating_add(1);
            }
        }
        self.out.write_all(buf.get(start..).unwrap_or_default())?;
        Ok(buf.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        if std::mem::take(&mut self.lead) {
            self.out.write_all(&[0xc2])?;
        }
        self.out.flush()
    }
}

impl<W: Write> Drop for Json<W> {
    fn drop(&mut self) {
        if self.lead {
            // A document never ends inside a character; should one, its byte is kept.
            let _ = self.out.write_all(&[0xc2]);
        }
    }
}

/// True if `err` is, or was caused by, an I/O error of kind `BrokenPipe`.
pub(crate) fn is_broken_pipe(err: &anyhow::Error) -> bool {
    err.chain().any(|e| {
        e.downcast_ref::<std::io::Error>()
            .is_some_and(|io| io.kind() == std::io::ErrorKind::BrokenPipe)
    })
}
