//! Writers (the `write` feature): map UOPs from MUL maps, and a synthetic [`World`]'s files
//! under a client's names. Sources: `docs/formats/uo.md`, "UOP containers" and "Diff
//! patches".

// Writers: their arithmetic is on the lengths of buffers in memory (each at most
// isize::MAX bytes) and small constants; every stored field goes through a checked
// conversion to its width, which refuses what does not fit.
#![allow(clippy::arithmetic_side_effects)]

use std::borrow::Cow;
use std::path::Path;

use crate::error::{ChunkProblem, DataError, ErrorKind, Result};
use crate::facet::MapFormat;
use crate::facet::map_uop::map_chunk_name;
use crate::raw::{MAP_BLOCK_LEN, UOP_MAP_CHUNK_BLOCKS};
use crate::synth::World;
use crate::uop::name_hash;
use crate::uop::write::{UopWrite, WRITER_BLOCK_CAPACITY, write_uop};

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
            data: chunk,
            stored_as: None,
        })
        .collect();
    // Every block full: the table entries rounded up to the blocks' capacity.
    let total = entries.len().div_ceil(WRITER_BLOCK_CAPACITY) * WRITER_BLOCK_CAPACITY;
    Ok(write_uop(&entries, total))
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
