//! A directory's entries ([`RezEntry`]: a [`RezDir`] or a [`RezFileEntry`]) read from its
//! table: 16 bytes of kind, offset, size and time, then
//! a directory's NUL-ended name, or a file's 12 bytes (id, extension, keys), name, comment
//! and keys (`docs/formats/wap32.md`, "REZ archives"). The table is a slice of the archive
//! at a known offset, so that the same reading serves an archive held whole and one whose
//! tables alone were read ([`RezTables`](super::RezTables)); every offset named (an entry's
//! `at`, a table's end) is the archive's.

use gamedata_io::Bytes;
use zerocopy::FromBytes;
use zerocopy::little_endian::U32;

use crate::error::{DataError, ErrorKind, RezProblem};
use crate::raw::{RezEntryHead, RezFileHead};

use super::enclosed::enclosed_name;

/// A directory of an archive: where its entries lie.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RezDir<'data> {
    /// Its name as stored (empty for the root).
    pub name: &'data [u8],
    /// Absolute offset of its entries.
    pub offset: u32,
    /// Bytes of its entries.
    pub size: u32,
    /// Time (seconds since 1970).
    pub time: u32,
    /// Absolute offset of its entry in its parent (0 for the root).
    pub at: usize,
}

impl<'data> RezDir<'data> {
    /// The name as text, bytes above 0x7F as Latin-1.
    pub fn name_lossy(&self) -> std::borrow::Cow<'data, str> {
        gamedata_io::latin1(self.name)
    }

    /// The name as a relative path that cannot leave the folder it is joined to, or `None`
    /// (the root's empty name, `.`, `..`, a name holding `:` or a control character): see
    /// [`enclosed_name`].
    pub fn enclosed_name(&self) -> Option<std::path::PathBuf> {
        enclosed_name(&self.name_lossy())
    }
}

/// A file of an archive, its bytes borrowed from the archive.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RezFileEntry<'data> {
    /// Its name as stored, without the extension.
    pub name: &'data [u8],
    /// Its bytes; empty in a view of the tables alone ([`RezTables`](super::RezTables)), where they are read
    /// by their range, `size` bytes at `offset`.
    pub bytes: &'data [u8],
    /// Absolute offset of its bytes.
    pub offset: u32,
    /// Its length in bytes (with `offset`, checked to lie inside the archive, as `bytes`
    /// is; a file of no bytes is not checked, its offset may be anything).
    pub size: u32,
    /// Time (seconds since 1970).
    pub time: u32,
    /// Resource id.
    pub id: u32,
    /// Its comment as stored (empty in the real archives).
    pub comment: &'data [u8],
    /// Its keys (none in the real archives).
    pub keys: &'data [U32],
    /// Absolute offset of its entry.
    pub at: usize,
    pub(super) extension: [u8; 4],
}

impl<'data> RezFileEntry<'data> {
    /// The extension as the game names it (`PID`, `PAL`, `ANI`): the stored letters
    /// (`DIP`) reversed, up to the first NUL.
    pub fn extension(&self) -> &[u8] {
        let len = self
            .extension
            .iter()
            .position(|&b| b == 0)
            .unwrap_or(self.extension.len());
        self.extension.get(..len).unwrap_or_default()
    }

    /// `NAME.EXT` (or `NAME` without an extension), bytes above 0x7F as Latin-1.
    pub fn file_name(&self) -> String {
        let mut name = gamedata_io::latin1(self.name).into_owned();
        if !self.extension().is_empty() {
            name.push('.');
            name.push_str(&gamedata_io::latin1(self.extension()));
        }
        name
    }

    /// [`RezFileEntry::file_name`] as a relative path that cannot leave the folder it is
    /// joined to, or `None` (`..`, a name holding `:` or a control character): see
    /// [`enclosed_name`].
    pub fn enclosed_name(&self) -> Option<std::path::PathBuf> {
        enclosed_name(&self.file_name())
    }

    /// Whether `name` (`012.PID`, any letter case) is this file's name.
    pub fn is_named(&self, name: &[u8]) -> bool {
        let ext = self.extension();
        match name.len().checked_sub(self.name.len()) {
            Some(0) => ext.is_empty() && name.eq_ignore_ascii_case(self.name),
            Some(rest) => {
                let (stem, tail) = name.split_at(self.name.len());
                rest == ext.len().saturating_add(1)
                    && stem.eq_ignore_ascii_case(self.name)
                    && tail.first() == Some(&b'.')
                    && tail.get(1..).is_some_and(|e| e.eq_ignore_ascii_case(ext))
            }
            None => false,
        }
    }
}

/// An entry of a directory.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RezEntry<'data> {
    /// A directory.
    Dir(RezDir<'data>),
    /// A file.
    File(RezFileEntry<'data>),
}

/// The entries of a directory (see [`Rez::entries`](super::Rez::entries)).
#[derive(Clone, Debug)]
pub struct Entries<'data> {
    /// The archive's bytes when held whole (a file's bytes are borrowed from them).
    pub(super) whole: Option<&'data [u8]>,
    /// The archive's length.
    pub(super) len: usize,
    /// The directory's table.
    pub(super) table: &'data [u8],
    /// The archive's offset of the table's first byte.
    pub(super) base: usize,
    /// The archive's offset of the next entry.
    pub(super) pos: usize,
    /// The archive's offset of the table's end.
    pub(super) end: usize,
    /// The table's problem, reported once before any entry.
    pub(super) bad: Option<RezProblem>,
}

impl<'data> Iterator for Entries<'data> {
    type Item = Result<RezEntry<'data>, DataError>;

    fn next(&mut self) -> Option<Self::Item> {
        if let Some(problem) = self.bad.take() {
            self.pos = self.end;
            return Some(Err(ErrorKind::Rez(problem).into()));
        }
        if self.pos >= self.end {
            return None;
        }
        let at = self.pos;
        match self.read(at) {
            Ok((entry, next)) => {
                self.pos = next;
                Some(Ok(entry))
            }
            Err(problem) => {
                self.pos = self.end;
                Some(Err(ErrorKind::Rez(problem).into()))
            }
        }
    }
}

impl<'data> Entries<'data> {
    /// The entries of `table`, which lies at byte `base` of an archive of `len` bytes
    /// (held whole as `whole`, or not).
    pub(super) fn over(
        whole: Option<&'data [u8]>,
        len: usize,
        table: &'data [u8],
        base: usize,
    ) -> Self {
        Entries {
            whole,
            len,
            table,
            base,
            pos: base,
            end: base.saturating_add(table.len()),
            bad: None,
        }
    }

    /// No entry: `problem` once.
    pub(super) fn failed(problem: RezProblem) -> Self {
        Entries {
            whole: None,
            len: 0,
            table: &[],
            base: 0,
            pos: 0,
            end: 0,
            bad: Some(problem),
        }
    }

    /// The entry at archive offset `at` and the offset after it.
    pub(super) fn read(&self, at: usize) -> Result<(RezEntry<'data>, usize), RezProblem> {
        let end = self.end;
        let cut = RezProblem::EntryCut { at, end };
        let base = self.base;
        // Offsets in the table, and back in the archive.
        let here = at.checked_sub(base).ok_or(cut)?;
        let table = self.table;
        let room = Bytes::new(table);
        let head: &RezEntryHead = room.read_at(here).map_err(|_| cut)?;
        let after_head = here.saturating_add(16);
        let (offset, size, time) = (head.offset.get(), head.size.get(), head.time.get());
        match head.kind.get() {
            1 => {
                let (name, next) = text(table, after_head).ok_or(cut)?;
                check_name(name, at)?;
                let dir = RezDir {
                    name,
                    offset,
                    size,
                    time,
                    at,
                };
                Ok((RezEntry::Dir(dir), base.saturating_add(next)))
            }
            0 => {
                let file: &RezFileHead = room.read_at(after_head).map_err(|_| cut)?;
                let (name, next) = text(table, after_head.saturating_add(12)).ok_or(cut)?;
                check_name(name, at)?;
                let (comment, next) = text(table, next).ok_or(cut)?;
                let keys = usize::try_from(file.keys.get()).unwrap_or(usize::MAX);
                let key_bytes = keys.checked_mul(4).ok_or(cut)?;
                let keys_end = next
                    .checked_add(key_bytes)
                    .filter(|&e| e <= table.len())
                    .ok_or(cut)?;
                let keys = <[U32]>::ref_from_bytes(table.get(next..keys_end).unwrap_or_default())
                    .map_err(|_| cut)?;
                let outside = RezProblem::FileOutside {
                    at,
                    offset,
                    size,
                    len: self.len,
                };
                let start = usize::try_from(offset).map_err(|_| outside)?;
                let stop = usize::try_from(size)
                    .ok()
                    .and_then(|size| start.checked_add(size))
                    .filter(|&stop| stop <= self.len);
                let bytes = match (size, stop, self.whole) {
                    (0, _, _) => &[][..],
                    (_, None, _) => return Err(outside),
                    (_, Some(stop), Some(whole)) => whole.get(start..stop).ok_or(outside)?,
                    // Tables alone: the bytes are read by their range when wanted.
                    (_, Some(_), None) => &[][..],
                };
                let mut extension = file.extension;
                let len = extension.iter().position(|&b| b == 0).unwrap_or(4);
                extension.get_mut(..len).unwrap_or_default().reverse();
                if extension.iter().any(|&b| b == b'/' || b == b'\\') {
                    return Err(RezProblem::Name { at });
                }
                let file = RezFileEntry {
                    name,
                    bytes,
                    offset,
                    size,
                    time,
                    id: file.id.get(),
                    comment,
                    keys,
                    at,
                    extension,
                };
                Ok((RezEntry::File(file), base.saturating_add(keys_end)))
            }
            found => Err(RezProblem::EntryKind { at, found }),
        }
    }
}

/// Refuses a name that would make paths ambiguous: empty, or holding `/` or `\`.
fn check_name(name: &[u8], at: usize) -> Result<(), RezProblem> {
    if name.is_empty() || name.iter().any(|&b| b == b'/' || b == b'\\') {
        return Err(RezProblem::Name { at });
    }
    Ok(())
}

/// The position of the first NUL of `bytes`, looked for 32 bytes at a time (a test over a
/// whole block compiles to vector instructions; names run to hundreds of bytes).
fn nul(bytes: &[u8]) -> Option<usize> {
    let mut at = 0usize;
    for block in bytes.chunks(32) {
        if block.iter().fold(false, |any, &b| any | (b == 0)) {
            return block
                .iter()
                .position(|&b| b == 0)
                .map(|i| at.saturating_add(i));
        }
        at = at.saturating_add(block.len());
    }
    None
}

/// The NUL-terminated text at `at` of `table`, and the offset after its NUL.
fn text(table: &[u8], at: usize) -> Option<(&[u8], usize)> {
    let room = table.get(at..)?;
    let len = nul(room)?;
    Some((room.get(..len)?, at.checked_add(len)?.checked_add(1)?))
}
