//! One facet of the world: its map (MUL or UOP), statics, the diff patches applied to them,
//! and the files read beside them (tiledata, radar colours, hues), with their owner
//! ([`FacetFiles`]), the whole-facet queries ([`query`]) and the writers (`write`, the
//! `write` feature: map UOPs from MUL maps, a synthetic world's files).
//!
//! [`map`] reads map{N}.mul, [`map_uop`] the same blocks in a map UOP's chunks, [`statics`]
//! staidx{N}.mul with statics{N}.mul, [`diff`] the diff patches (mapdif, stadif); [`Facet`]
//! holds their views. Source: `docs/formats/uo.md`, "Map", "Statics" and "Diff patches".

use std::fmt;

use gamedata_io::PreviewBytes;

use crate::colours::{Hues, RadarColours};
use crate::error::{DataError, ErrorKind};
use crate::facet::map::{Map, MapSize};
use crate::facet::statics::{StaticFormat, StaticSlice, Statics};
use crate::raw::StaticRecord;
use crate::tiledata::{TileData, TileFlags};

pub mod diff;
mod files;
pub mod map;
pub mod map_uop;
pub mod query;
mod size;
pub mod statics;
#[cfg(feature = "write")]
pub mod write;

pub use files::{
    DiffData, DiffPaths, FacetData, FacetFiles, FacetOptions, FacetPaths, FacetSet, MapFormat,
};

/// The bytes of a facet's three required files, for [`Facet::parse`] (named fields, so
/// that two slices cannot be swapped unnoticed).
#[derive(Clone, Copy)]
pub struct FacetBytes<'data> {
    /// The map file's bytes (MUL form).
    pub map: &'data [u8],
    /// staidx{N}.mul.
    pub staidx: &'data [u8],
    /// statics{N}.mul.
    pub statics: &'data [u8],
}

impl fmt::Debug for FacetBytes<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("FacetBytes")
            .field("map", &PreviewBytes(self.map))
            .field("staidx", &PreviewBytes(self.staidx))
            .field("statics", &PreviewBytes(self.statics))
            .finish()
    }
}

/// The views over one facet's files.
#[derive(Clone, Debug)]
pub struct Facet<'data> {
    /// The map.
    pub map: Map<'data>,
    /// The statics.
    pub statics: Statics<'data>,
    /// tiledata.mul, if present.
    pub tiledata: Option<TileData<'data>>,
    /// radarcol.mul, if present.
    pub radar: Option<RadarColours<'data>>,
    /// hues.mul, if present.
    pub hues: Option<Hues<'data>>,
}

impl<'data> Facet<'data> {
    /// Views over bytes: a MUL map of `size`, a statics index and data (`format` `None`
    /// detects the record size); no tiledata, radar colours or hues.
    ///
    /// Returns `Err` as [`Map::parse`] and [`Statics::parse`] do.
    pub fn parse(
        bytes: FacetBytes<'data>,
        size: MapSize,
        format: Option<StaticFormat>,
    ) -> Result<Self, DataError> {
        Ok(Facet {
            map: Map::parse(bytes.map, size)?,
            statics: Statics::parse(bytes.staidx, bytes.statics, format)?,
            tiledata: None,
            radar: None,
            hues: None,
        })
    }

    /// The map's size.
    pub fn size(&self) -> MapSize {
        self.map.size()
    }

    /// The statics of block (`bx`, `by`).
    ///
    /// Returns `Err` if the block is outside the map ([`ErrorKind::OutsideMap`]), the index has
    /// no entry for it ([`ErrorKind::MissingIndexEntry`]) or its entry is bad
    /// ([`ErrorKind::IndexEntry`]).
    pub fn block_statics(&self, bx: u32, by: u32) -> Result<StaticSlice<'data>, DataError> {
        let size = self.size();
        let block = size.block_index(bx, by).ok_or(ErrorKind::OutsideMap {
            bx,
            by,
            width_blocks: size.width_blocks(),
            height_blocks: size.height_blocks(),
        })?;
        self.statics.block(block)
    }

    /// The statics standing on tile (`x`, `y`), in file order.
    ///
    /// Returns `Err` as [`Facet::block_statics`] does.
    pub fn statics_at(
        &self,
        x: u32,
        y: u32,
    ) -> Result<impl Iterator<Item = &'data StaticRecord> + 'data, DataError> {
        let statics = self.block_statics(x / 8, y / 8)?;
        let in_block = |v: u32| u8::try_from(v % 8).unwrap_or(u8::MAX);
        let (cx, cy) = (in_block(x), in_block(y));
        Ok(statics.into_iter().filter(move |s| s.x == cx && s.y == cy))
    }

    /// The top surface at tile (`x`, `y`): the highest of the land's z and, for each static
    /// there, its z plus its tiledata height. Without tiledata, statics count with height 0.
    ///
    /// Returns `Ok(None)` outside the map, and `Err` as [`Facet::block_statics`] does.
    pub fn top_surface(&self, x: u32, y: u32) -> Result<Option<i16>, DataError> {
        let Some(cell) = self.map.cell(x, y) else {
            return Ok(None);
        };
        let mut top = i16::from(cell.z);
        for s in self.statics_at(x, y)? {
            let height = self
                .tiledata
                .and_then(|t| t.item(s.id.get()))
                .map_or(0, |t| t.height());
            // An i8 plus a u8 fits an i16.
            top = top.max(i16::from(s.z).saturating_add(i16::from(height)));
        }
        Ok(Some(top))
    }

    /// True if the static's item tile has any of `flags` (false without tiledata).
    pub fn has_flags(&self, s: &StaticRecord, flags: TileFlags) -> bool {
        self.tiledata
            .and_then(|t| t.item(s.id.get()))
            .is_some_and(|t| t.flags().intersects(flags))
    }
}
