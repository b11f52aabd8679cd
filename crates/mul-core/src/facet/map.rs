//! Map files (map0.mul ... map5.mul): land tiles and altitudes in 8 x 8 blocks.
//!
//! A map is an array of 196-byte [`MapBlock`]s stored column by column: block (bx, by) is
//! number `bx * height_blocks + by`. A MUL file holds the array whole; a map UOP holds it in
//! chunks of 4,096 blocks, which [`Map`] reads in place just the same. Inside a block the
//! 64 cells are row-major. Each facet has known sizes (facets 0 and 1 two widths, 6144 and
//! 7168 tiles); [`MapSize::detect`] picks the one the file's length proves and refuses any
//! other length, which then needs its size given. One trailing padding block is accepted.
//! Source: `docs/formats/uo.md`, "Map".

use std::fmt;

use gamedata_io::Bytes;
use zerocopy::FromBytes;

use crate::error::{ArgumentProblem, DataError, ErrorKind, Result};
use crate::facet::diff::MapPatch;
use crate::facet::map_uop::MapChunk;
use crate::raw::{BLOCK_SIDE, MAP_BLOCK_LEN, MapBlock, MapCell, UOP_MAP_CHUNK_BLOCKS};

pub use crate::facet::size::MapSize;

impl MapSize {
    /// A size in blocks.
    ///
    /// Returns `Err` ([`ArgumentProblem::Dimensions`]) if either side is 0, or a side in tiles does
    /// not fit in a `u32`, or the map's bytes would not fit in memory's address range.
    pub fn from_blocks(width_blocks: u32, height_blocks: u32) -> Result<Self, DataError> {
        let bad = |why| ArgumentProblem::Dimensions {
            width_blocks,
            height_blocks,
            why,
        };
        if width_blocks == 0 || height_blocks == 0 {
            return Err(bad("a side is 0").into());
        }
        let bytes = u64::from(width_blocks)
            .checked_mul(u64::from(height_blocks))
            .and_then(|blocks| blocks.checked_mul(MAP_BLOCK_LEN as u64))
            .and_then(|bytes| usize::try_from(bytes).ok());
        let tiles = width_blocks
            .checked_mul(8)
            .zip(height_blocks.checked_mul(8));
        if bytes.is_none() || tiles.is_none() {
            return Err(bad("too large to address").into());
        }
        Ok(MapSize::checked(width_blocks, height_blocks))
    }

    /// A size in tiles; both sides must be multiples of 8.
    ///
    /// Returns `Err` ([`ArgumentProblem::Dimensions`]) if a side is not a multiple of 8 or as
    /// [`MapSize::from_blocks`].
    pub fn from_tiles(width: u32, height: u32) -> Result<Self, DataError> {
        if !width.is_multiple_of(8) || !height.is_multiple_of(8) {
            return Err(ArgumentProblem::Dimensions {
                width_blocks: width / 8,
                height_blocks: height / 8,
                why: "the size in tiles is not a multiple of 8",
            }
            .into());
        }
        Self::from_blocks(width / 8, height / 8)
    }

    /// The size of facet `facet` (0 to 5) in current clients: 7168 x 4096 tiles for facets
    /// 0 and 1, the one known size for the others. For writing new maps; to read a map, use
    /// [`MapSize::detect`], which checks the file's length.
    ///
    /// Returns `Err` ([`ArgumentProblem::UnknownFacet`]) for a facet above 5.
    pub fn preset(facet: u8) -> Result<Self, DataError> {
        Self::known(facet)
            .next()
            .ok_or(ArgumentProblem::UnknownFacet { facet }.into())
    }

    /// The size of facet `facet`'s map whose blocks take `map_len` bytes: the known size
    /// ([`MapSize::known`]) whose block count is the length's, with or without the one
    /// padding block modern clients write. Nothing else is guessed: a map of any other
    /// length needs its size given.
    ///
    /// Returns `Err` ([`ErrorKind::MapSizeUnknown`]) if no known size of the facet fits (any
    /// facet above 5 included); the error gives the length, the block count and, when the
    /// count is a square, the square size that would fit.
    pub fn detect(facet: u8, map_len: u64) -> Result<Self, DataError> {
        let block = MAP_BLOCK_LEN as u64;
        let blocks = map_len.checked_div(block).unwrap_or_default();
        if map_len.is_multiple_of(block) {
            for size in Self::known(facet) {
                let exact = size.block_count();
                if blocks == exact || blocks == exact.saturating_add(1) {
                    return Ok(size);
                }
            }
        }
        let square = [blocks, blocks.saturating_sub(1)]
            .into_iter()
            .filter(|_| map_len.is_multiple_of(block))
            .find_map(|n| {
                let side = n.isqrt();
                (side > 0 && side.checked_mul(side) == Some(n))
                    .then(|| u32::try_from(side).ok())
                    .flatten()
            });
        Err(ErrorKind::MapSizeUnknown {
            facet,
            length: map_len,
            blocks,
            square,
        }
        .into())
    }
}

/// A size in tiles written `WIDTHxHEIGHT` (`1024x1024`, also `1024 x 1024`), as the
/// examples and command lines take it; both sides multiples of 8.
///
/// ```
/// let size: mul_core::MapSize = "1024x1024".parse()?;
/// assert_eq!(size.width_blocks(), 128);
/// # Ok::<(), mul_core::Error>(())
/// ```
impl std::str::FromStr for MapSize {
    type Err = DataError;

    /// Returns `Err` ([`ArgumentProblem::SizeText`]) if the text is not two numbers around an `x`,
    /// or as [`MapSize::from_tiles`].
    fn from_str(text: &str) -> Result<Self, DataError> {
        let (w, h) = text
            .split_once(['x', 'X'])
            .ok_or(ArgumentProblem::SizeText)?;
        match (w.trim().parse(), h.trim().parse()) {
            (Ok(w), Ok(h)) => Self::from_tiles(w, h),
            _ => Err(ArgumentProblem::SizeText.into()),
        }
    }
}

/// Where a map's blocks are.
#[derive(Clone, Copy)]
enum Storage<'data> {
    /// One array, as in a MUL file.
    Flat(&'data [MapBlock]),
    /// Chunks of 4,096 blocks (the last shorter), as in a map UOP: stored chunks over the
    /// container's bytes, decoded ones owned by the caller.
    Chunked {
        data: &'data [u8],
        chunks: &'data [MapChunk],
    },
}

/// A map: its blocks cast in place over the file's bytes, from a MUL file (one array) or a
/// map UOP (chunks of 4,096 blocks; see [`crate::uop`]). The same API and results either way.
#[derive(Clone, Copy)]
pub struct Map<'data> {
    size: MapSize,
    storage: Storage<'data>,
    padded: bool,
    patch: Option<MapPatch<'data>>,
    /// Read from a map UOP's chunks (even when they lie in one run and are used as one).
    from_chunks: bool,
}

impl fmt::Debug for Map<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Map")
            .field("size", &self.size)
            .field("padded", &self.padded)
            .field("from_chunks", &self.from_chunks)
            .field("one_run", &matches!(self.storage, Storage::Flat(_)))
            .field("patched_blocks", &self.patch.map_or(0, |p| p.index.len()))
            .finish()
    }
}

impl<'data> Map<'data> {
    /// Casts a map file of `size` in place.
    ///
    /// Returns `Err` ([`ErrorKind::MapLength`]) unless `data` is exactly `size.blocks()` blocks
    /// of 196 bytes, or one block more (the padding modern clients write).
    pub fn parse(data: &'data [u8], size: MapSize) -> Result<Self, DataError> {
        let blocks = size.blocks();
        let wrong = || ErrorKind::MapLength {
            what: "map",
            found: data.len() as u64,
            size,
        };
        let exact = size.map_len();
        let len = data.len() as u64;
        if len != exact && len != exact.saturating_add(MAP_BLOCK_LEN as u64) {
            return Err(wrong().into());
        }
        let blocks = Bytes::new(data)
            .slice_at::<MapBlock>(0, blocks)
            .map_err(|_| wrong())?;
        Ok(Map {
            size,
            storage: Storage::Flat(blocks),
            padded: len != exact,
            patch: None,
            from_chunks: false,
        })
    }

    /// A map of `size` over the chunks of a map UOP (from [`crate::facet::map_uop::map_chunks`]), whose
    /// stored chunks lie in `data`, the container's bytes.
    ///
    /// Returns `Err` ([`ErrorKind::MapLength`]) unless the chunks hold exactly `size.blocks()`
    /// blocks, or one more (padding), and every stored chunk lies in `data`.
    pub fn from_chunks(
        data: &'data [u8],
        chunks: &'data [MapChunk],
        size: MapSize,
    ) -> Result<Self, DataError> {
        let total = chunks
            .iter()
            .fold(0u64, |sum, c| sum.saturating_add(c.len() as u64));
        let blocks = size.blocks() as u64;
        let fits = chunks.iter().all(|c| c.blocks(data).is_some());
        if !fits || (total != blocks && total != blocks.saturating_add(1)) {
            return Err(ErrorKind::MapLength {
                what: "map UOP",
                found: total.saturating_mul(MAP_BLOCK_LEN as u64),
                size,
            }
            .into());
        }
        // Stored chunks that follow one another in chunk order (as the clients' files and
        // this crate's writer lay them out) are one run of blocks: cast it whole.
        let mut next = chunks.first().and_then(|c| match c {
            MapChunk::InPlace { offset, .. } => Some(*offset),
            MapChunk::Decoded(_) => None,
        });
        for chunk in chunks {
            next = match (chunk, next) {
                (MapChunk::InPlace { offset, blocks }, Some(at)) if *offset == at => blocks
                    .checked_mul(MAP_BLOCK_LEN)
                    .and_then(|len| offset.checked_add(len)),
                _ => None,
            };
        }
        let one_run = match (next, chunks.first()) {
            (Some(_), Some(MapChunk::InPlace { offset, .. })) => Bytes::new(data)
                .slice_at::<MapBlock>(*offset, usize::try_from(total).unwrap_or(usize::MAX))
                .ok(),
            _ => None,
        };
        Ok(Map {
            size,
            storage: match one_run {
                Some(blocks) => Storage::Flat(blocks),
                None => Storage::Chunked { data, chunks },
            },
            padded: total != blocks,
            patch: None,
            from_chunks: true,
        })
    }

    /// This map with `patch` applied: its blocks replace the map's (see [`crate::facet::diff`]).
    pub fn with_patch<'a>(self, patch: MapPatch<'a>) -> Map<'a>
    where
        'data: 'a,
    {
        Map {
            patch: Some(patch),
            ..self
        }
    }

    /// The patch applied, if any.
    pub fn patch(&self) -> Option<MapPatch<'data>> {
        self.patch
    }

    /// The size.
    pub fn size(&self) -> MapSize {
        self.size
    }

    /// True if the file has the one trailing padding block.
    pub fn padded(&self) -> bool {
        self.padded
    }

    /// True if the map comes from a map UOP's chunks. (Chunks stored one after another
    /// in order are read as one run, as a MUL file is; others chunk by chunk.)
    pub fn is_chunked(&self) -> bool {
        self.from_chunks
    }

    /// Every block as one slice, column-major (block (bx, by) at `bx * height_blocks + by`),
    /// cast in place; `None` for a patched map, or a map UOP whose chunks are not stored
    /// one after another in order (see [`Map::runs`]).
    pub fn as_slice(&self) -> Option<&'data [MapBlock]> {
        if self.patch.is_some_and(|p| !p.index.is_empty()) {
            return None;
        }
        match self.storage {
            Storage::Flat(blocks) => Some(blocks.get(..self.size.blocks()).unwrap_or(blocks)),
            Storage::Chunked { .. } => None,
        }
    }

    /// Block number `index` (column-major), or `None` past the last.
    #[inline]
    pub fn block_at(&self, index: usize) -> Option<&'data MapBlock> {
        if index >= self.size.blocks() {
            return None;
        }
        if let Some(block) = self.patch.and_then(|p| p.block(index)) {
            return Some(block);
        }
        self.base_block(index)
    }

    /// Block `index` of the map file itself, patch or not.
    #[inline]
    fn base_block(&self, index: usize) -> Option<&'data MapBlock> {
        match self.storage {
            Storage::Flat(blocks) => blocks.get(index),
            Storage::Chunked { data, chunks } => {
                let within = index.checked_rem(UOP_MAP_CHUNK_BLOCKS)?;
                match chunks.get(index.checked_div(UOP_MAP_CHUNK_BLOCKS)?)? {
                    // One block cast straight from the container's bytes: no chunk slice
                    // is built for a single lookup.
                    MapChunk::InPlace { offset, blocks } if within < *blocks => {
                        let at = offset.checked_add(within.checked_mul(MAP_BLOCK_LEN)?)?;
                        let bytes = data.get(at..at.checked_add(MAP_BLOCK_LEN)?)?;
                        MapBlock::ref_from_bytes(bytes).ok()
                    }
                    MapChunk::InPlace { .. } => None,
                    MapChunk::Decoded(bytes) => {
                        let at = within.checked_mul(MAP_BLOCK_LEN)?;
                        let bytes = bytes.get(at..at.checked_add(MAP_BLOCK_LEN)?)?;
                        MapBlock::ref_from_bytes(bytes).ok()
                    }
                }
            }
        }
    }

    /// Block (`bx`, `by`), or `None` outside the map.
    #[inline]
    pub fn block(&self, bx: u32, by: u32) -> Option<&'data MapBlock> {
        self.block_at(self.size.block_index(bx, by)?)
    }

    /// The cell at tile (`x`, `y`), or `None` outside the map.
    #[inline]
    pub fn cell(&self, x: u32, y: u32) -> Option<&'data MapCell> {
        let block = self.block(x / 8, y / 8)?;
        block.cells.get(cell_in_block(x, y))
    }

    /// The blocks of column `bx`, top to bottom, or `None` past the last column.
    pub fn column(&self, bx: u32) -> Option<impl Iterator<Item = &'data MapBlock> + 'data> {
        let start = self.size.block_index(bx, 0)?;
        let height = usize::try_from(self.size.height_blocks()).ok()?;
        let map = *self;
        Some((start..start.saturating_add(height)).filter_map(move |i| map.block_at(i)))
    }

    /// Every block in order (column-major), padding excluded.
    pub fn blocks(&self) -> impl Iterator<Item = &'data MapBlock> + 'data {
        self.runs().flatten()
    }

    /// The blocks in contiguous runs, in order, each cast in place: the columns of a MUL
    /// map, and the columns cut by chunk ends in a map UOP. What a whole-map scan (and
    /// rayon) splits its work over.
    pub fn runs(&self) -> impl Iterator<Item = &'data [MapBlock]> + 'data {
        let height = usize::try_from(self.size.height_blocks())
            .unwrap_or(usize::MAX)
            .max(1);
        let blocks = self.size.blocks();
        let pieces: Box<dyn Iterator<Item = &'data [MapBlock]> + 'data> = match self.storage {
            Storage::Flat(all) => Box::new(std::iter::once(all.get(..blocks).unwrap_or(all))),
            Storage::Chunked { data, chunks } => {
                let mut left = blocks;
                Box::new(chunks.iter().map(move |c| {
                    let run = c.blocks(data).unwrap_or_default();
                    let run = run.get(..left.min(run.len())).unwrap_or(run);
                    left = left.saturating_sub(run.len());
                    run
                }))
            }
        };
        // Cut at column ends, so that runs are at most a column long and start where
        // columns start when the chunk size allows; then at patched blocks, which come
        // as runs of one from the patch.
        let mut at = 0usize;
        let patch = self.patch;
        pieces
            .flat_map(move |piece| {
                // Positions count blocks held in memory: they cannot pass usize::MAX.
                let start = at;
                at = at.saturating_add(piece.len());
                ColumnCuts {
                    rest: piece,
                    position: start,
                    height,
                }
            })
            .scan(0usize, |position, run| {
                let start = *position;
                *position = position.saturating_add(run.len());
                Some((start, run))
            })
            .flat_map(move |(start, run)| PatchCuts {
                rest: run,
                position: start,
                patch,
            })
    }

    /// Blocks in the map (`size().blocks()`), padding excluded.
    pub fn len(&self) -> usize {
        self.size.blocks()
    }

    /// True if the map has no block (never: sizes are at least one block).
    pub fn is_empty(&self) -> bool {
        self.size.blocks() == 0
    }

    /// The cells of the rectangle of tiles from (`x`, `y`), `width` x `height`, clipped to
    /// the map, row by row: (x, y, cell). What a renderer drawing a viewport reads.
    pub fn region(
        &self,
        x: u32,
        y: u32,
        width: u32,
        height: u32,
    ) -> impl Iterator<Item = (u32, u32, &'data MapCell)> + 'data {
        let map = *self;
        let x_end = x.saturating_add(width).min(self.size.width());
        let y_end = y.saturating_add(height).min(self.size.height());
        (y..y_end).flat_map(move |cy| {
            (x..x_end).filter_map(move |cx| map.cell(cx, cy).map(|c| (cx, cy, c)))
        })
    }
}

/// Cuts a run of blocks around patched blocks, yielding each patched block alone.
struct PatchCuts<'data> {
    rest: &'data [MapBlock],
    /// Block number of `rest[0]`.
    position: usize,
    patch: Option<MapPatch<'data>>,
}

impl<'data> Iterator for PatchCuts<'data> {
    type Item = &'data [MapBlock];

    fn next(&mut self) -> Option<Self::Item> {
        if self.rest.is_empty() {
            return None;
        }
        let Some(patch) = self.patch.filter(|p| !p.index.is_empty()) else {
            let run = self.rest;
            self.rest = &[];
            return Some(run);
        };
        if let Some(block) = patch.block(self.position) {
            self.rest = self.rest.get(1..).unwrap_or_default();
            self.position = self.position.saturating_add(1);
            return Some(std::slice::from_ref(block));
        }
        let clean = (1..self.rest.len())
            .find(|&i| patch.index.contains(self.position.saturating_add(i)))
            .unwrap_or(self.rest.len());
        let (run, rest) = self.rest.split_at(clean);
        self.rest = rest;
        self.position = self.position.saturating_add(run.len());
        Some(run)
    }
}

/// Cuts a run of blocks at column ends.
struct ColumnCuts<'data> {
    rest: &'data [MapBlock],
    /// Block number of `rest[0]`.
    position: usize,
    height: usize,
}

impl<'data> Iterator for ColumnCuts<'data> {
    type Item = &'data [MapBlock];

    fn next(&mut self) -> Option<Self::Item> {
        if self.rest.is_empty() {
            return None;
        }
        let into_column = self.position.checked_rem(self.height).unwrap_or_default();
        let to_column_end = self.height.saturating_sub(into_column).max(1);
        let (run, rest) = self.rest.split_at(to_column_end.min(self.rest.len()));
        self.rest = rest;
        self.position = self.position.saturating_add(run.len());
        Some(run)
    }
}

/// Index of tile (x, y)'s cell inside its block.
#[inline]
#[allow(clippy::arithmetic_side_effects)] // Both remainders are below 8: at most 63.
pub(crate) fn cell_in_block(x: u32, y: u32) -> usize {
    (y as usize % BLOCK_SIDE) * BLOCK_SIDE + x as usize % BLOCK_SIDE
}
