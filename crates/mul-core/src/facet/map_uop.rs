//! Map UOPs (map{N}LegacyMUL.uop): a MUL map's blocks in chunks of 4,096, each an entry of
//! a UOP container ([`crate::uop`]) named `build/map{N}legacymul/{i:08}.dat`. The chunks are
//! located once ([`map_chunks`]); [`crate::Map::from_chunks`] reads the blocks in place.
//! Source: `docs/formats/uo.md`, "UOP containers".

use std::fmt;

use gamedata_io::{Bytes, Limits, Overlaps, PreviewBytes};
use zerocopy::IntoBytes;

use crate::error::{ChunkProblem, DataError, ErrorKind, Result};
use crate::raw::{MAP_BLOCK_LEN, MapBlock, UOP_MAP_CHUNK_BLOCKS};
use crate::uop::{Compression, Uop, UopEntry};

/// The name of chunk `chunk` of facet `facet`'s map UOP (the `x` variant files use the
/// same names).
pub fn map_chunk_name(facet: u8, chunk: usize) -> String {
    format!("build/map{facet}legacymul/{chunk:08}.dat")
}

/// Where one chunk of a map's blocks is: in the container's bytes, or decoded.
#[derive(Clone, PartialEq, Eq)]
pub enum MapChunk {
    /// `blocks` blocks stored as is from byte `offset` of the container: cast in place.
    InPlace {
        /// Absolute offset of the chunk's first block.
        offset: usize,
        /// Blocks in the chunk.
        blocks: usize,
    },
    /// A decompressed chunk: whole 196-byte blocks, cast in place from this buffer.
    Decoded(Vec<u8>),
}

impl fmt::Debug for MapChunk {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MapChunk::InPlace { offset, blocks } => f
                .debug_struct("InPlace")
                .field("offset", offset)
                .field("blocks", blocks)
                .finish(),
            MapChunk::Decoded(bytes) => f
                .debug_tuple("Decoded")
                .field(&PreviewBytes(bytes))
                .finish(),
        }
    }
}

impl MapChunk {
    /// Blocks in the chunk.
    pub fn len(&self) -> usize {
        match self {
            MapChunk::InPlace { blocks, .. } => *blocks,
            MapChunk::Decoded(v) => v.len() / MAP_BLOCK_LEN,
        }
    }

    /// True if the chunk holds no block.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The chunk's blocks over the container's bytes `data`, cast in place (from the
    /// container for a stored chunk, from the chunk's buffer for a decoded one); `None` if
    /// they do not lie in `data`.
    pub fn blocks<'a>(&'a self, data: &'a [u8]) -> Option<&'a [MapBlock]> {
        match self {
            MapChunk::InPlace { offset, blocks } => {
                Bytes::new(data).slice_at::<MapBlock>(*offset, *blocks).ok()
            }
            MapChunk::Decoded(v) => Bytes::new(v).slice_at::<MapBlock>(0, self.len()).ok(),
        }
    }
}

/// A chunk located and checked, not yet decoded.
struct Located<'a, 'data> {
    entry: &'a UopEntry<'data>,
    stored: std::ops::Range<usize>,
    blocks: usize,
}

/// The chunks of facet `facet`'s map in a map UOP, in block order: every chunk
/// `build/map{N}legacymul/{i:08}.dat` from 0 while an entry has the name, each holding
/// whole blocks (4,096 but the last). Stored chunks are located, zlib ones decompressed.
///
/// Every chunk is located and checked before anything is decoded: its stored bytes inside
/// the container and overlapping no other chunk's, its size (stored, or declared for a zlib
/// chunk) whole blocks, at most 4,096; the zlib chunks' declared sizes together within
/// `limits.max_decoded_bytes`, and all blocks within `limits.max_records`. So the memory a
/// call takes is at most what the limits allow, and a container whose chunks would decode
/// past them is refused before any is decoded. Each zlib chunk is decoded once, into its
/// own buffer, and stops at its declared size.
///
/// Returns `Err` ([`ErrorKind::MissingChunk`]) if chunk 0 is missing, ([`ErrorKind::ChunkSize`])
/// if a chunk does not hold whole blocks, or is short and not the last,
/// ([`ErrorKind::ChunkOverlap`]) if two chunks' stored bytes overlap, ([`ErrorKind::Limit`]) if
/// the totals pass `limits`; or as [`Uop::contents`].
pub fn map_chunks(uop: &Uop<'_>, facet: u8, limits: &Limits) -> Result<Vec<MapChunk>, DataError> {
    let mut located: Vec<Located<'_, '_>> = Vec::new();
    let (mut total_blocks, mut decoded_bytes) = (0u64, 0u64);
    while let Some(entry) = uop.find_name(&map_chunk_name(facet, located.len())) {
        let chunk = located.len();
        if let Some(last) = located.last()
            && last.blocks != UOP_MAP_CHUNK_BLOCKS
        {
            return Err(ErrorKind::ChunkSize {
                chunk: chunk.saturating_sub(1),
                found: (last.blocks as u64).saturating_mul(MAP_BLOCK_LEN as u64),
                problem: ChunkProblem::ShortNotLast,
            }
            .into());
        }
        let stored = uop.stored_range(entry)?;
        let len = match entry.compression() {
            Compression::None => stored.len() as u64,
            _ => u64::from(entry.raw().decompressed_len.get()),
        };
        let blocks = whole_blocks(chunk, len)?;
        if !matches!(entry.compression(), Compression::None) {
            decoded_bytes = decoded_bytes.saturating_add(len);
            limits.check_decoded("the map UOP's compressed chunks", decoded_bytes)?;
        }
        total_blocks = total_blocks.saturating_add(blocks as u64);
        limits.check_records("map blocks", total_blocks)?;
        located.push(Located {
            entry,
            stored,
            blocks,
        });
    }
    if located.is_empty() {
        return Err(ErrorKind::MissingChunk {
            facet,
            chunk: 0,
            chunks: 1,
        }
        .into());
    }
    let overlaps = Overlaps::find(located.len(), |i| {
        let r = &located.get(i)?.stored;
        Some((r.start as u64, r.end as u64))
    });
    if let Some((chunk, other)) = overlaps.iter().next() {
        return Err(ErrorKind::ChunkOverlap { chunk, other }.into());
    }
    located
        .into_iter()
        .map(|c| match c.entry.compression() {
            Compression::None => Ok(MapChunk::InPlace {
                offset: c.stored.start,
                blocks: c.blocks,
            }),
            _ => Ok(MapChunk::Decoded(
                uop.contents(c.entry, limits)?.into_owned(),
            )),
        })
        .collect()
}

/// The blocks in `len` bytes of chunk `chunk`: a whole number of them, 1 to 4,096.
fn whole_blocks(chunk: usize, len: u64) -> Result<usize, DataError> {
    const BLOCK: u64 = MAP_BLOCK_LEN as u64;
    const MOST: u64 = (UOP_MAP_CHUNK_BLOCKS * MAP_BLOCK_LEN) as u64;
    if !len.is_multiple_of(BLOCK) || len == 0 || len > MOST {
        return Err(ErrorKind::ChunkSize {
            chunk,
            found: len,
            problem: ChunkProblem::NotWholeBlocks,
        }
        .into());
    }
    // At most 4,096.
    Ok(len
        .checked_div(BLOCK)
        .and_then(|n| usize::try_from(n).ok())
        .unwrap_or(UOP_MAP_CHUNK_BLOCKS))
}

/// The MUL map held by a map UOP: every chunk of facet `facet` in order, decompressed when
/// stored as zlib.
///
/// Returns `Err` as [`map_chunks`].
pub fn read_map_mul(uop: &Uop<'_>, facet: u8, limits: &Limits) -> Result<Vec<u8>, DataError> {
    let chunks = map_chunks(uop, facet, limits)?;
    // map_chunks checked the block count against the limits.
    let total = chunks
        .iter()
        .fold(0usize, |sum, c| sum.saturating_add(c.len()));
    let mut out = Vec::with_capacity(total.saturating_mul(MAP_BLOCK_LEN));
    for chunk in &chunks {
        let blocks = chunk.blocks(uop.data()).unwrap_or_default();
        out.extend_from_slice(blocks.as_bytes());
    }
    Ok(out)
}
