//! Map UOPs (map{N}LegacyMUL.uop): a MUL map's blocks in chunks of 4,096, each an entry of
//! a UOP container ([`crate::uop`]) named `build/map{N}legacymul/{i:08}.dat`. The chunks are
//! located once ([`map_chunks`]); [`crate::Map::from_chunks`] reads the blocks in place.
//! Source: `docs/formats/uo.md`, "UOP containers".

use gamedata_io::{Bytes, Limits};
use zerocopy::IntoBytes;

use crate::error::{ChunkProblem, ErrorKind, Result, UopEntryProblem};
use crate::raw::{MAP_BLOCK_LEN, MapBlock, UOP_MAP_CHUNK_BLOCKS};
use crate::uop::{Compression, UopFile};

/// The name of chunk `chunk` of facet `facet`'s map UOP (the `x` variant files use the
/// same names).
pub fn map_chunk_name(facet: u8, chunk: usize) -> String {
    format!("build/map{facet}legacymul/{chunk:08}.dat")
}

/// Where one chunk of a map's blocks is: in the container's bytes, or decoded.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MapChunk {
    /// `blocks` blocks stored as is from byte `offset` of the container: cast in place.
    InPlace {
        /// Absolute offset of the chunk's first block.
        offset: usize,
        /// Blocks in the chunk.
        blocks: usize,
    },
    /// A decompressed chunk.
    Decoded(Vec<MapBlock>),
}

impl MapChunk {
    /// Blocks in the chunk.
    pub fn len(&self) -> usize {
        match self {
            MapChunk::InPlace { blocks, .. } => *blocks,
            MapChunk::Decoded(v) => v.len(),
        }
    }

    /// True if the chunk holds no block.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The chunk's blocks over the container's bytes `data`, cast in place for a stored
    /// chunk; `None` if they do not lie in `data`.
    pub fn blocks<'a>(&'a self, data: &'a [u8]) -> Option<&'a [MapBlock]> {
        match self {
            MapChunk::InPlace { offset, blocks } => {
                Bytes::new(data).slice_at::<MapBlock>(*offset, *blocks).ok()
            }
            MapChunk::Decoded(v) => Some(v),
        }
    }
}

/// The chunks of facet `facet`'s map in a map UOP, in block order: every chunk
/// `build/map{N}legacymul/{i:08}.dat` from 0 while an entry has the name, each holding
/// whole blocks (4,096 but the last). Stored chunks are located, zlib ones decompressed
/// within `limits`.
///
/// Returns `Err` ([`ErrorKind::MissingChunk`]) if chunk 0 is missing, ([`ErrorKind::ChunkSize`]) if
/// a chunk does not hold whole blocks, or is short and not the last; or as
/// [`UopFile::contents`].
pub fn map_chunks(uop: &UopFile<'_>, facet: u8, limits: &Limits) -> Result<Vec<MapChunk>> {
    let mut chunks = Vec::new();
    let mut total_blocks = 0usize;
    loop {
        let i = chunks.len();
        let Some(entry) = uop.find_name(&map_chunk_name(facet, i)) else {
            if i == 0 {
                return Err(ErrorKind::MissingChunk {
                    facet,
                    chunk: 0,
                    chunks: 1,
                }
                .into());
            }
            break;
        };
        if let Some(MapChunk::InPlace { blocks, .. }) = chunks.last()
            && *blocks != UOP_MAP_CHUNK_BLOCKS
        {
            return Err(ErrorKind::ChunkSize {
                chunk: i.saturating_sub(1),
                found: (*blocks as u64).saturating_mul(MAP_BLOCK_LEN as u64),
                problem: ChunkProblem::ShortNotLast,
            }
            .into());
        }
        let whole = |len: usize| {
            if !len.is_multiple_of(MAP_BLOCK_LEN)
                || len == 0
                || len > UOP_MAP_CHUNK_BLOCKS * MAP_BLOCK_LEN
            {
                return Err(ErrorKind::ChunkSize {
                    chunk: i,
                    found: len as u64,
                    problem: ChunkProblem::NotWholeBlocks,
                });
            }
            Ok(len / MAP_BLOCK_LEN)
        };
        let chunk = match entry.compression() {
            Compression::None => {
                let range = uop.stored_range(entry)?;
                let blocks = whole(range.len())?;
                MapChunk::InPlace {
                    offset: range.start,
                    blocks,
                }
            }
            _ => {
                let bytes = uop.contents(entry, limits)?;
                let blocks = whole(bytes.len())?;
                let decoded = Bytes::new(&bytes)
                    .slice_at::<MapBlock>(0, blocks)
                    .map(<[MapBlock]>::to_vec)
                    .map_err(|_| entry.error(UopEntryProblem::NotWholeBlocks))?;
                MapChunk::Decoded(decoded)
            }
        };
        total_blocks = total_blocks.saturating_add(chunk.len());
        limits.check_records("map blocks", total_blocks as u64)?;
        chunks.push(chunk);
    }
    Ok(chunks)
}

/// The MUL map held by a map UOP: every chunk of facet `facet` in order, decompressed when
/// stored as zlib.
///
/// Returns `Err` as [`map_chunks`].
pub fn read_map_mul(uop: &UopFile<'_>, facet: u8, limits: &Limits) -> Result<Vec<u8>> {
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
