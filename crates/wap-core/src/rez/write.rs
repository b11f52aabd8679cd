//! The REZ archive writer (feature `write`): files given by path become an archive that
//! [`crate::Rez`] reads, laid out as header, file bytes, then directories (the root's
//! entries first, then each directory's, depth first). Directory entries are sorted by
//! name; a file name may come twice in a directory, as in the real GRUNTZ.REZ. Format facts: `docs/formats/wap32.md`, "REZ archives".

// Every length summed is that of bytes in memory (their total cannot pass usize), and the
// archive's total is checked to fit the format's 32-bit fields before any offset is cast.
#![allow(clippy::arithmetic_side_effects, clippy::cast_possible_truncation)]

use std::collections::BTreeMap;

use crate::error::{DataError, ErrorKind, WriteProblem};
use crate::raw::REZ_HEADER_LEN;

/// The header's text: CR LF, the file type in 60 bytes, CR LF, a user title in 60 bytes,
/// CR LF, 0x1A.
fn header_text() -> [u8; 127] {
    let mut text = [b' '; 127];
    let put = |text: &mut [u8; 127], at: usize, bytes: &[u8]| {
        for (t, b) in text.iter_mut().skip(at).zip(bytes) {
            *t = *b;
        }
    };
    put(&mut text, 0, b"\r\n");
    put(
        &mut text,
        2,
        b"RezMgr Version 1 Copyright (C) 1995 MONOLITH INC.",
    );
    put(&mut text, 62, b"\r\n");
    put(&mut text, 124, b"\r\n\x1a");
    text
}

/// A directory being built: its subdirectories and files by name.
#[derive(Default)]
struct Node<'a> {
    dirs: BTreeMap<&'a str, Node<'a>>,
    /// Full name, name without extension, extension, bytes, in the order given (sorted by
    /// full name before writing; the same name may come twice, as in the real GRUNTZ.REZ).
    files: Vec<(&'a str, &'a str, &'a str, &'a [u8])>,
}

impl Node<'_> {
    /// Bytes of this directory's entries.
    fn table_len(&self) -> usize {
        let dirs: usize = self.dirs.keys().map(|n| 16 + n.len() + 1).sum();
        let files: usize = self
            .files
            .iter()
            .map(|(_, name, _, _)| 16 + 12 + name.len() + 2)
            .sum();
        dirs + files
    }

    /// Bytes of this directory's entries and all those under it.
    fn tree_len(&self) -> usize {
        self.table_len() + self.dirs.values().map(Node::tree_len).sum::<usize>()
    }
}

/// An archive holding `files`, each a `/`- or `\\`-separated path (`LEVEL1/TILES/ACTION/012.PID`)
/// and its bytes; directories are made as the paths need them.
///
/// Returns `Err` ([`WriteProblem::RezPath`]) for a path with an empty component, a NUL, an
/// extension past 4 letters or the path of another entry, and
/// ([`WriteProblem::TooLarge`]) for an archive past 4 GiB.
pub fn write_rez<'a>(files: &[(&'a str, &'a [u8])]) -> Result<Vec<u8>, DataError> {
    let bad = |file| DataError::from(ErrorKind::Write(WriteProblem::RezPath { file }));
    let mut root = Node::default();
    for (i, (path, bytes)) in files.iter().enumerate() {
        let parts: Vec<&str> = path.split(['/', '\\']).collect();
        let Some((last, dirs)) = parts.split_last() else {
            return Err(bad(i));
        };
        if parts.iter().any(|p| p.is_empty() || p.contains('\0')) {
            return Err(bad(i));
        }
        let mut node = &mut root;
        for d in dirs {
            if node.files.iter().any(|f| f.0 == *d) {
                return Err(bad(i));
            }
            node = node.dirs.entry(d).or_default();
        }
        let (name, ext) = last.rsplit_once('.').unwrap_or((last, ""));
        if ext.len() > 4 || name.is_empty() || node.dirs.contains_key(last) {
            return Err(bad(i));
        }
        node.files.push((last, name, ext, bytes));
    }
    sort_files(&mut root);
    let data_len: usize = files.iter().map(|(_, b)| b.len()).sum();
    let total = REZ_HEADER_LEN + data_len + root.tree_len();
    let too_large = |what, found: usize| {
        DataError::from(ErrorKind::Write(WriteProblem::TooLarge {
            what,
            found: found as u64,
        }))
    };
    let total32 = u32::try_from(total).map_err(|_| too_large("REZ archive's length", total))?;
    let mut out = Vec::with_capacity(total);
    out.extend_from_slice(&header_text());
    let root_offset = (REZ_HEADER_LEN + data_len) as u32;
    let now = 0u32;
    for v in [
        1,
        root_offset,
        root.table_len() as u32,
        now,
        total32,
        now,
        0,
        0,
        0,
        0,
    ] {
        out.extend_from_slice(&u32::to_le_bytes(v));
    }
    out.push(1);
    // File bytes in walk order, remembering where each went.
    let mut offsets = Vec::new();
    place_files(&root, &mut out, &mut offsets);
    let mut next_table = root_offset as usize;
    write_tables(&root, &mut out, &mut offsets.into_iter(), &mut next_table);
    debug_assert_eq!(out.len(), total);
    Ok(out)
}

/// Sorts every directory's files by name, keeping the order of equal names.
fn sort_files(node: &mut Node<'_>) {
    node.files.sort_by_key(|f| f.0);
    for d in node.dirs.values_mut() {
        sort_files(d);
    }
}

/// Appends the bytes of `node`'s files, then those under it, in walk order (files before
/// subdirectories, as [`write_tables`] lists them), noting each offset.
fn place_files(node: &Node<'_>, out: &mut Vec<u8>, offsets: &mut Vec<u32>) {
    for (_, _, _, bytes) in &node.files {
        offsets.push(out.len() as u32);
        out.extend_from_slice(bytes);
    }
    for d in node.dirs.values() {
        place_files(d, out, offsets);
    }
}

/// Appends `node`'s entries at `*next` (the next free table offset), then its
/// subdirectories' tables.
fn write_tables(
    node: &Node<'_>,
    out: &mut Vec<u8>,
    offsets: &mut impl Iterator<Item = u32>,
    next: &mut usize,
) {
    *next += node.table_len();
    let mut file_offsets = Vec::new();
    for (_, name, ext, bytes) in &node.files {
        let offset = offsets.next().unwrap_or(0);
        file_offsets.push(offset);
        for v in [0, offset, bytes.len() as u32, 0, 0] {
            out.extend_from_slice(&u32::to_le_bytes(v));
        }
        let mut stored = [0u8; 4];
        for (s, b) in stored.iter_mut().zip(ext.bytes().rev()) {
            *s = b;
        }
        out.extend_from_slice(&stored);
        out.extend_from_slice(&0u32.to_le_bytes());
        out.extend_from_slice(name.as_bytes());
        out.extend_from_slice(&[0, 0]);
    }
    // Subdirectories' tables follow, each after the whole tree of the one before.
    let mut at = *next;
    for (name, d) in &node.dirs {
        for v in [1, at as u32, d.table_len() as u32, 0] {
            out.extend_from_slice(&u32::to_le_bytes(v));
        }
        out.extend_from_slice(name.as_bytes());
        out.push(0);
        at += d.tree_len();
    }
    for d in node.dirs.values() {
        write_tables(d, out, offsets, next);
    }
}
