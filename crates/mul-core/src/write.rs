//! Writers (the `write` feature): map UOPs from MUL maps, and a synthetic [`World`]'s files
//! under a client's names. Sources: `docs/formats/uo.md`, "UOP containers" and "Diff
//! patches".

// Writers: their arithmetic is on the lengths of buffers in memory (each at most
// isize::MAX bytes) and small constants; every stored field goes through a checked
// conversion to its width, which refuses what does not fit.
#![allow(clippy::arithmetic_side_effects)]

use std::borrow::Cow;
use std::path::Path;

use zerocopy::IntoBytes;

use crate::error::{ChunkProblem, DataError, ErrorKind, Result};
use crate::facet::MapFormat;
use crate::map_uop::map_chunk_name;
use crate::raw::{
    MAP_BLOCK_LEN, UOP_ENTRY_LEN, UOP_MAGIC, UOP_MAP_CHUNK_BLOCKS, UopEntryRaw, UopHeader,
    UopTableHeader,
};
use crate::synth::World;
use crate::uop::name_hash;

/// Bytes of the header this crate's writer puts before the first table block: 28 bytes of
/// header, padded as the clients' files are.
pub const WRITER_TABLE_OFFSET: usize = 0x200;
/// Entries a table block of this crate's writer holds.
pub const WRITER_BLOCK_CAPACITY: usize = 1000;
/// [`WRITER_BLOCK_CAPACITY`] as stored.
const CAPACITY_WORD: u32 = 1000;
const _: () = assert!(CAPACITY_WORD as usize == WRITER_BLOCK_CAPACITY);

/// Writes a map UOP holding `map` (a MUL map's bytes, whole blocks; a padding block is kept)
/// as facet `facet`'s chunks, stored as is, in chunk order, with their Adler-32s: the form
/// the clients' files have (version 5, header padded to 0x200, tables of 1,000 entries).
///
/// Returns `Err` ([`ErrorKind::ChunkSize`]) if `map` is not whole blocks.
pub fn write_map_uop(map: &[u8], facet: u8) -> Result<Vec<u8>, DataError> {
    if !map.len().is_multiple_of(MAP_BLOCK_LEN) || map.is_empty() {
        return Err(ErrorKind::ChunkSize {
            chunk: 0,
            found: map.len() as u64,
            problem: ChunkProblem::NotWholeBlocks,
        }
        .into());
    }
    let entries: Vec<UopWrite<'_>> = map
        .chunks(UOP_MAP_CHUNK_BLOCKS * MAP_BLOCK_LEN)
        .enumerate()
        .map(|(i, chunk)| UopWrite {
            hash: name_hash(&map_chunk_name(facet, i)),
            data: UopData::Bytes(chunk),
        })
        .collect();
    // Every block full: the table entries rounded up to the blocks' capacity.
    let total = entries.len().div_ceil(WRITER_BLOCK_CAPACITY) * WRITER_BLOCK_CAPACITY;
    Ok(write_uop(&entries, total))
}

/// An entry [`write_uop`] stores: its name's hash and its data.
pub(crate) struct UopWrite<'a> {
    pub(crate) hash: u64,
    pub(crate) data: UopData<'a>,
}

/// An entry's data: its bytes, or the same bytes as an earlier entry's (given by its place
/// in the list), stored once for both.
pub(crate) enum UopData<'a> {
    Bytes(&'a [u8]),
    Same(usize),
}

/// A UOP container of `entries`, stored as is with their Adler-32s, in list order after
/// the tables: version 5, the header padded to 0x200, table blocks of up to 1,000 entries
/// whose counts add up to `total` (at least the entries; the places past them unused).
pub(crate) fn write_uop(entries: &[UopWrite<'_>], total: usize) -> Vec<u8> {
    let total = total.max(entries.len()).max(1);
    let tables = total.div_ceil(WRITER_BLOCK_CAPACITY);
    let block_len = |t: usize| (total - t * WRITER_BLOCK_CAPACITY).min(WRITER_BLOCK_CAPACITY);
    let table_bytes: usize = (0..tables)
        .map(|t| size_of::<UopTableHeader>() + block_len(t) * UOP_ENTRY_LEN)
        .sum();
    let data_start = WRITER_TABLE_OFFSET + table_bytes;
    let stored: usize = entries
        .iter()
        .map(|e| match e.data {
            UopData::Bytes(b) => b.len(),
            UopData::Same(_) => 0,
        })
        .sum();
    let mut out = Vec::with_capacity(data_start + stored);
    let header = UopHeader {
        magic: UOP_MAGIC.into(),
        version: 5.into(),
        signature: 0xFD23_EC43.into(),
        first_table: (WRITER_TABLE_OFFSET as u64).into(),
        block_capacity: CAPACITY_WORD.into(),
        file_count: u32::try_from(entries.len()).unwrap_or(u32::MAX).into(),
    };
    out.extend_from_slice(header.as_bytes());
    out.resize(WRITER_TABLE_OFFSET, 0);
    // Where each entry's bytes go: (offset, length, Adler-32).
    let mut placed: Vec<(u64, u32, u32)> = Vec::with_capacity(entries.len());
    let mut data_at = data_start as u64;
    for entry in entries {
        let place = match entry.data {
            UopData::Bytes(bytes) => {
                let len = u32::try_from(bytes.len()).unwrap_or(u32::MAX);
                let place = (data_at, len, adler2::adler32_slice(bytes));
                data_at += bytes.len() as u64;
                place
            }
            UopData::Same(earlier) => placed.get(earlier).copied().unwrap_or((0, 0, 1)),
        };
        placed.push(place);
    }
    let mut table_at = WRITER_TABLE_OFFSET;
    for t in 0..tables {
        let count = block_len(t);
        table_at += size_of::<UopTableHeader>() + count * UOP_ENTRY_LEN;
        let next = if t + 1 < tables { table_at as u64 } else { 0 };
        let table = UopTableHeader {
            count: u32::try_from(count).unwrap_or(u32::MAX).into(),
            next: next.into(),
        };
        out.extend_from_slice(table.as_bytes());
        let first = t * WRITER_BLOCK_CAPACITY;
        let group = entries.get(first..).unwrap_or_default();
        for (entry, &(offset, len, adler)) in group
            .iter()
            .zip(placed.get(first..).unwrap_or_default())
            .take(count)
        {
            let raw = UopEntryRaw {
                offset: offset.into(),
                header_len: 0.into(),
                compressed_len: len.into(),
                decompressed_len: len.into(),
                hash: entry.hash.into(),
                adler32: adler.into(),
                compression: 0.into(),
            };
            out.extend_from_slice(raw.as_bytes());
        }
        // Unused entries fill the block.
        let used = group.len().min(count);
        out.resize(out.len() + (count - used) * UOP_ENTRY_LEN, 0);
    }
    for entry in entries {
        if let UopData::Bytes(bytes) = entry.data {
            out.extend_from_slice(bytes);
        }
    }
    out
}

/// A file of [`World::files`]: its name as a client names it, and its bytes.
pub type NamedFile<'a> = (String, Cow<'a, [u8]>);

impl World {
    /// Writes the files into `dir` with the names a client has: map{N}.mul, staidx{N}.mul,
    /// statics{N}.mul, tiledata.mul, radarcol.mul, hues.mul.
    ///
    /// Returns `Err` if a file cannot be written.
    pub fn write_to(&self, dir: impl AsRef<Path>, facet: u8) -> std::io::Result<()> {
        self.write_as(dir, facet, MapFormat::Mul)
    }

    /// [`World::write_to`] with the map in `format`: map{N}.mul, or map{N}LegacyMUL.uop
    /// written by [`write_map_uop`]. Each file is written whole or not at all (a temporary
    /// file beside it, then renamed).
    ///
    /// Returns `Err` if a file cannot be written.
    pub fn write_as(
        &self,
        dir: impl AsRef<Path>,
        facet: u8,
        format: MapFormat,
    ) -> std::io::Result<()> {
        let dir = dir.as_ref();
        std::fs::create_dir_all(dir)?;
        let files = self
            .files(facet, format)
            .map_err(|e| std::io::Error::new(std::io::ErrorKind::InvalidData, e))?;
        for (name, bytes) in files {
            write_whole(&dir.join(name), &bytes)?;
        }
        Ok(())
    }

    /// The files of [`World::write_as`], named as a client names them, with their bytes: the
    /// map in `format`, then staidx{N}.mul, statics{N}.mul, tiledata.mul, radarcol.mul and
    /// hues.mul.
    ///
    /// Returns `Err` as [`write_map_uop`] (a map that is not whole blocks).
    pub fn files(&self, facet: u8, format: MapFormat) -> Result<Vec<NamedFile<'_>>, DataError> {
        let map = match format {
            MapFormat::Mul => Cow::Borrowed(&self.map[..]),
            MapFormat::Uop => Cow::Owned(write_map_uop(&self.map, facet)?),
        };
        Ok(vec![
            (format.file_name(facet), map),
            (
                format!("staidx{facet}.mul"),
                Cow::Borrowed(&self.staidx[..]),
            ),
            (
                format!("statics{facet}.mul"),
                Cow::Borrowed(&self.statics[..]),
            ),
            ("tiledata.mul".to_owned(), Cow::Borrowed(&self.tiledata[..])),
            ("radarcol.mul".to_owned(), Cow::Borrowed(&self.radarcol[..])),
            ("hues.mul".to_owned(), Cow::Borrowed(&self.hues[..])),
        ])
    }

    /// Writes [`World::diffs`] into `dir` as mapdifl{N}.mul, mapdif{N}.mul, stadifl{N}.mul,
    /// stadifi{N}.mul and stadif{N}.mul (each whole or not at all); returns the blocks
    /// patched.
    ///
    /// Returns `Err` if a file cannot be written.
    pub fn write_diffs(
        &self,
        dir: impl AsRef<Path>,
        facet: u8,
        k: usize,
        seed: u64,
    ) -> std::io::Result<Vec<usize>> {
        let dir = dir.as_ref();
        let (files, blocks) = self.diff_files(facet, k, seed);
        for (name, bytes) in files {
            write_whole(&dir.join(name), &bytes)?;
        }
        Ok(blocks)
    }

    /// The files of [`World::write_diffs`] with their bytes, and the blocks patched.
    pub fn diff_files(
        &self,
        facet: u8,
        k: usize,
        seed: u64,
    ) -> (Vec<(String, Vec<u8>)>, Vec<usize>) {
        let d = self.diffs(k, seed);
        let files = [
            ("mapdifl", d.mapdifl),
            ("mapdif", d.mapdif),
            ("stadifl", d.stadifl),
            ("stadifi", d.stadifi),
            ("stadif", d.stadif),
        ]
        .into_iter()
        .map(|(name, bytes)| (format!("{name}{facet}.mul"), bytes))
        .collect();
        (files, d.blocks)
    }
}

/// Writes `bytes` to `path` whole or not at all: to `path` + `.partial` first, renamed over
/// `path` once written and flushed to disk.
fn write_whole(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    let mut partial = path.as_os_str().to_owned();
    partial.push(".partial");
    let partial = std::path::PathBuf::from(partial);
    let result = (|| {
        let mut file = std::fs::File::create(&partial)?;
        std::io::Write::write_all(&mut file, bytes)?;
        file.sync_all()?;
        std::fs::rename(&partial, path)
    })();
    if result.is_err() {
        // Best effort: the error reported is the write's.
        let _ = std::fs::remove_file(&partial);
    }
    result
}
