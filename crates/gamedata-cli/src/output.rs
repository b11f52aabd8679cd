//! Where reports go: one JSON document or text on stdout, notes on stderr; never a panic.
//!
//! Every byte for stdout goes through [`Output`], which holds the locked stdout and returns
//! write errors instead of panicking as `println!` does. A closed pipe (`gamedata ... | head`)
//! surfaces as an error that [`is_broken_pipe`] recognises, and `main` ends quietly.

use std::io::{StdoutLock, Write};

use anyhow::Result;
use serde::Serialize;

/// The command's stdout, in JSON mode or text mode.
pub(crate) struct Output {
    json: bool,
    stdout: StdoutLock<'static>,
}

impl Output {
    /// Text or JSON output, as `--json` says.
    pub(crate) fn new(json: bool) -> Self {
        Output {
            json,
            stdout: std::io::stdout().lock(),
        }
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

    /// A line of text for the user: to stdout in text mode, to stderr in JSON mode (stdout
    /// then holds only the JSON document).
    pub(crate) fn note(&mut self, line: &str) -> Result<()> {
        if self.json {
            error_line(line);
        } else {
            writeln!(self.stdout, "{line}")?;
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
