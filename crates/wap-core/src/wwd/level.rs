//! The borrowed view of a level image (header, then the main block as decompressed): planes,
//! tile properties, game detection and the layout report. Source: `docs/formats/wwd.md`.

use std::fmt;
use std::ops::Range;
use std::sync::Arc;

use gamedata_io::{Bytes, Overlaps, PreviewTable};

use crate::error::{DataError, ErrorKind, Result};
use crate::raw::{HEADER_LEN, PLANE_HEADER_LEN, PlaneHeader};
use crate::wwd::header::Header;
use crate::wwd::plane::Plane;
use crate::wwd::section::SectionKind;
use crate::wwd::tile_properties::TileProperties;

/// The game a level belongs to.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Game {
    /// Captain Claw (1997).
    Claw,
    /// Gruntz (1999).
    Gruntz,
    /// Neither could be told.
    Unknown,
}

impl Game {
    /// The name in reports: `claw`, `gruntz`, `unknown`.
    pub fn name(self) -> &'static str {
        match self {
            Game::Claw => "claw",
            Game::Gruntz => "gruntz",
            Game::Unknown => "unknown",
        }
    }
}

/// A level: the header and the plane header table, checked; everything else is read on
/// request, so a bad plane or table does not hide the rest. Offsets are absolute positions
/// in the image (1,524-byte header, then the main block as decompressed).
///
/// A plane whose tiles overlap another plane's is bad ([`ErrorKind::PlaneOverlap`]): of
/// planes whose tiles overlap, the one whose tiles start first is read, so reading every
/// plane reads each tile at most once (every real level gives each plane tiles of its own).
///
/// A plane's image-set names and objects are walked one after another from their offsets:
/// each walk stops at the next byte where any section of the level starts (another plane's
/// tiles, names or objects, the tile property table; else the image's end), and a plane's
/// names or objects that start where an earlier section starts (in the editor's order:
/// plane headers, tiles, names, objects, tile properties) are left out
/// ([`ErrorKind::SectionShared`]). So walking every plane reads each byte at most once, as
/// in every real level, whose sections follow each other.
#[derive(Clone)]
pub struct Level<'data> {
    image: &'data [u8],
    header: Header<'data>,
    planes: &'data [PlaneHeader],
    overlaps: Overlaps,
    starts: SectionStarts,
}

impl fmt::Debug for Level<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Level")
            .field("header", &self.header)
            .field("image_len", &self.image.len())
            .finish_non_exhaustive()
    }
}

impl<'data> Level<'data> {
    /// Reads the header and the plane header table of a level image.
    ///
    /// Returns `Err` ([`ErrorKind::TooShort`], [`ErrorKind::Signature`]) for a bad header, or
    /// ([`ErrorKind::PlaneTable`]) if `plane count * 160` bytes at the plane offset do not fit
    /// (the count overflowing included).
    pub fn parse(image: &'data [u8]) -> Result<Self, DataError> {
        let header = Header::parse(image)?;
        let (count, offset) = (header.plane_count(), header.raw().planes_offset.get());
        let planes = Bytes::new(image)
            .slice_at::<PlaneHeader>(offset as usize, count as usize)
            .map_err(|_| ErrorKind::PlaneTable {
                count,
                offset,
                image_len: image.len(),
            })?;
        // Each plane's tiles as a byte range, when its view can be made (once a plane).
        let tiles: Vec<Option<(u64, u64)>> = (0..planes.len())
            .map(|i| {
                let plane = Plane::new(i, planes.get(i)?, image).ok()?;
                let start = plane.raw().tiles_offset.get() as u64;
                Some((
                    start,
                    start.saturating_add(size_of_val(plane.tiles()) as u64),
                ))
            })
            .collect();
        let overlaps = Overlaps::find(planes.len(), |i| tiles.get(i).copied().flatten());
        let starts = SectionStarts::find(&header, planes, &tiles);
        Ok(Level {
            image,
            header,
            planes,
            overlaps,
            starts,
        })
    }

    /// The header.
    pub fn header(&self) -> Header<'data> {
        self.header
    }

    /// The image the view is over.
    pub fn image(&self) -> &'data [u8] {
        self.image
    }

    /// The plane headers, cast in place.
    pub fn plane_headers(&self) -> &'data [PlaneHeader] {
        self.planes
    }

    /// Number of planes.
    pub fn plane_count(&self) -> usize {
        self.planes.len()
    }

    /// Plane `index`; `Ok(None)` past the last plane.
    ///
    /// Returns `Err` ([`ErrorKind::PlaneSize`], [`ErrorKind::PlaneTiles`]) if the plane's
    /// size or tiles are bad, or ([`ErrorKind::PlaneOverlap`]) if its tiles overlap another
    /// plane's.
    pub fn plane(&self, index: usize) -> Result<Option<Plane<'data>>, DataError> {
        self.planes
            .get(index)
            .map(|raw| self.checked_plane(index, raw))
            .transpose()
    }

    fn checked_plane(
        &self,
        index: usize,
        raw: &'data PlaneHeader,
    ) -> Result<Plane<'data>, DataError> {
        let mut plane = Plane::new(index, raw, self.image)?;
        // (A plane with no names or objects walks none: its room is never read.)
        let (names, objects) = (raw.image_sets_offset.get(), raw.objects_offset.get());
        plane.names_room = self
            .starts
            .room(self.image, names, SectionKind::ImageSets(index));
        plane.objects_room = self
            .starts
            .room(self.image, objects, SectionKind::Objects(index));
        match self.overlaps.overlapped_by(index) {
            None => Ok(plane),
            Some(other) => Err(ErrorKind::PlaneOverlap {
                plane: index,
                other,
                offset: raw.tiles_offset.get(),
            }
            .into()),
        }
    }

    /// Every plane in order, each checked on its own.
    pub fn planes(&self) -> impl ExactSizeIterator<Item = Result<Plane<'data>, DataError>> + '_ {
        self.planes
            .iter()
            .enumerate()
            .map(move |(index, raw)| self.checked_plane(index, raw))
    }

    /// The first plane with the main flag (exactly one in every real level); `Ok(None)` if
    /// no plane has it.
    ///
    /// Returns `Err` as [`Level::plane`].
    pub fn main_plane(&self) -> Result<Option<Plane<'data>>, DataError> {
        match self.planes.iter().position(|p| p.flags.get() & 1 != 0) {
            Some(index) => self.plane(index),
            None => Ok(None),
        }
    }

    /// The first plane whose name equals `name`, ASCII case ignored; `Ok(None)` if no plane
    /// has that name.
    ///
    /// Returns `Err` as [`Level::plane`].
    pub fn plane_named(&self, name: &str) -> Result<Option<Plane<'data>>, DataError> {
        let index = self
            .planes
            .iter()
            .position(|p| gamedata_io::field_text(&p.name).eq_ignore_ascii_case(name.as_bytes()));
        match index {
            Some(index) => self.plane(index),
            None => Ok(None),
        }
    }

    /// The tile property table.
    ///
    /// Returns `Err` ([`ErrorKind::TilePropertyTable`]) if its 32-byte header does not fit.
    pub fn tile_properties(&self) -> Result<TileProperties<'data>, DataError> {
        let offset = self.header.raw().tile_properties_offset.get() as usize;
        TileProperties::new(self.image, offset)
    }

    /// Reads everything in the level once, in file order: every plane with its tiles,
    /// image-set names and objects, then every tile property record. What a level loader
    /// needs to hold; `gamedata wwd validate` and the `validate` example call it.
    ///
    /// Returns the counts read, or `Err` with the first problem: a plane, a name or an
    /// object that cannot be read (as [`Level::planes`], [`Plane::image_sets`],
    /// [`Plane::objects`] report them), or a bad tile property table or record (as
    /// [`TileProperties::collect`]).
    pub fn validate(&self) -> Result<LevelCounts, DataError> {
        let mut counts = LevelCounts {
            planes: self.planes.len(),
            main_plane: self.planes.iter().any(|p| p.flags.get() & 1 != 0),
            ..LevelCounts::default()
        };
        for plane in self.planes() {
            let plane = plane?;
            counts.tiles = counts.tiles.saturating_add(plane.tiles().len());
            for name in plane.image_sets() {
                name?;
                counts.image_sets = counts.image_sets.saturating_add(1);
            }
            for object in plane.objects() {
                object?;
                counts.objects = counts.objects.saturating_add(1);
            }
        }
        counts.tile_properties = self.tile_properties()?.collect()?.records().len();
        Ok(counts)
    }

    /// Tells Claw from Gruntz: the tile image folder ends in `TILES` in Claw and `TILEZ` in
    /// Gruntz; failing that, the REZ or launch path names the game; failing that, the main
    /// plane's tiles are 64 pixels in Claw and 32 in Gruntz.
    pub fn game(&self) -> Game {
        let raw = self.header.raw();
        let folder = gamedata_io::field_text(&raw.image_dir).to_ascii_uppercase();
        if folder.ends_with(b"TILEZ") {
            return Game::Gruntz;
        }
        if folder.ends_with(b"TILES") {
            return Game::Claw;
        }
        for path in [&raw.rez_file[..], &raw.launch_app[..]] {
            let path = gamedata_io::field_text(path).to_ascii_uppercase();
            if path.windows(6).any(|w| w == b"GRUNTZ") {
                return Game::Gruntz;
            }
            if path.windows(4).any(|w| w == b"CLAW") {
                return Game::Claw;
            }
        }
        match self.main_plane().ok().flatten().map(|p| p.tile_size()) {
            Some((64, 64)) => Game::Claw,
            Some((32, 32)) => Game::Gruntz,
            _ => Game::Unknown,
        }
    }

    /// Where each section lies, and whether they follow the editor's order (plane headers,
    /// every plane's tiles, every plane's image-set names, every plane's objects, the tile
    /// property table, the end of the image) with no gaps or overlaps. Sections that cannot
    /// be read are listed in [`Layout::unreadable`].
    pub fn layout(&self) -> Layout {
        let mut sections = Vec::new();
        let mut unreadable = Vec::new();
        let table_start = self.header.raw().planes_offset.get() as usize;
        sections.push(Section {
            kind: SectionKind::PlaneHeaders,
            range: table_start
                ..table_start.saturating_add(self.planes.len().saturating_mul(PLANE_HEADER_LEN)),
        });
        // Every plane's tiles, overlapping ones included (O(1) a plane); the names and
        // objects are walked only for planes whose tiles are read (see `Level::plane`).
        for (index, raw) in self.planes.iter().enumerate() {
            match Plane::new(index, raw, self.image) {
                Ok(p) => {
                    let start = p.raw().tiles_offset.get() as usize;
                    sections.push(Section {
                        kind: SectionKind::Tiles(p.index()),
                        range: start..start.saturating_add(size_of_val(p.tiles())),
                    });
                }
                Err(e) => unreadable.push(e.to_string()),
            }
        }
        let planes: Vec<_> = self.planes().collect();
        // Planes left out for overlapping tiles (the other errors were listed above).
        unreadable.extend(
            planes
                .iter()
                .filter_map(|p| p.as_ref().err())
                .filter(|e| matches!(e.kind(), ErrorKind::PlaneOverlap { .. }))
                .map(ToString::to_string),
        );
        for plane in planes.iter().flatten() {
            let mut names = plane.image_sets();
            let start = names.offset();
            match names.by_ref().find_map(|n| n.err()) {
                Some(e) => unreadable.push(e.to_string()),
                None => sections.push(Section {
                    kind: SectionKind::ImageSets(plane.index()),
                    range: start..names.offset(),
                }),
            }
        }
        for plane in planes.iter().flatten() {
            if plane.object_count() == 0 {
                continue;
            }
            let mut objects = plane.objects();
            let start = objects.offset();
            match objects.by_ref().find_map(|o| o.err()) {
                Some(e) => unreadable.push(e.to_string()),
                None => sections.push(Section {
                    kind: SectionKind::Objects(plane.index()),
                    range: start..objects.offset(),
                }),
            }
        }
        match self.tile_properties() {
            Ok(table) => {
                let mut records = table.iter();
                match records.by_ref().find_map(|r| r.err()) {
                    Some(e) => unreadable.push(e.to_string()),
                    None => sections.push(Section {
                        kind: SectionKind::TileProperties,
                        range: table.offset()..records.offset(),
                    }),
                }
            }
            Err(e) => unreadable.push(e.to_string()),
        }
        Layout::new(sections, unreadable, self.image.len())
    }
}

/// Where the sections of a level start, for bounding the walks of planes' image-set names
/// and objects (see [`Level`]). Each start of the plane header table, a plane's tiles, names
/// or objects is one `u64`: its offset in the high 32 bits, then the section's kind (2
/// bits, in the editor's order) and its plane (30 bits), so a sort puts the sections that
/// start at one byte in the editor's order. Eight bytes a section: at most 3 sections a
/// 160-byte plane header, 15 % of the image. The tile property table, which comes last in
/// that order, only ends the walks that start before it.
#[derive(Clone, Default)]
struct SectionStarts {
    keys: Arc<[u64]>,
    tile_properties: u32,
}

const PLANE_BITS: u32 = 30;

impl SectionStarts {
    /// The key of a section; `None` for the tile property table, and for a plane past
    /// 2^30 - 1 (an image of 160 GB).
    fn key(offset: u32, kind: SectionKind) -> Option<u64> {
        let (rank, plane) = match kind {
            SectionKind::PlaneHeaders => (0, 0),
            SectionKind::Tiles(p) => (1, p),
            SectionKind::ImageSets(p) => (2, p),
            SectionKind::Objects(p) => (3, p),
            SectionKind::TileProperties => return None,
        };
        let plane = u64::try_from(plane).ok().filter(|&p| p < 1 << PLANE_BITS)?;
        Some((u64::from(offset) << 32) | (rank << PLANE_BITS) | plane)
    }

    fn kind(key: u64) -> SectionKind {
        let plane = (key & ((1 << PLANE_BITS) - 1)) as usize;
        match (key >> PLANE_BITS) & 3 {
            0 => SectionKind::PlaneHeaders,
            1 => SectionKind::Tiles(plane),
            2 => SectionKind::ImageSets(plane),
            _ => SectionKind::Objects(plane),
        }
    }

    /// The starts of the plane header table and of every plane's tiles (when it has any and
    /// they fit: `tiles` gives each plane's tile bytes, `None` when its view cannot be
    /// made), names and objects (when it has any), sorted.
    fn find(header: &Header<'_>, planes: &[PlaneHeader], tiles: &[Option<(u64, u64)>]) -> Self {
        let raw = header.raw();
        let mut keys = Vec::with_capacity(planes.len().saturating_mul(3).saturating_add(1));
        keys.extend(Self::key(
            raw.planes_offset.get(),
            SectionKind::PlaneHeaders,
        ));
        for (index, plane) in planes.iter().enumerate() {
            if tiles
                .get(index)
                .copied()
                .flatten()
                .is_some_and(|(start, end)| end > start)
            {
                keys.extend(Self::key(
                    plane.tiles_offset.get(),
                    SectionKind::Tiles(index),
                ));
            }
            if plane.image_set_count.get() > 0 {
                let offset = plane.image_sets_offset.get();
                keys.extend(Self::key(offset, SectionKind::ImageSets(index)));
            }
            if plane.object_count.get() > 0 {
                let offset = plane.objects_offset.get();
                keys.extend(Self::key(offset, SectionKind::Objects(index)));
            }
        }
        keys.sort_unstable();
        SectionStarts {
            keys: keys.into(),
            tile_properties: raw.tile_properties_offset.get(),
        }
    }

    /// The bytes a walk of section `kind`, starting at `offset`, may read: the image up to
    /// the next section's start; `Err` with the earlier section when one starts at `offset`.
    pub(crate) fn room<'data>(
        &self,
        image: &'data [u8],
        offset: u32,
        kind: SectionKind,
    ) -> std::result::Result<&'data [u8], SectionKind> {
        let at = u64::from(offset) << 32;
        let first = self.keys.partition_point(|&k| k < at);
        if let Some(&key) = self.keys.get(first)
            && key >> 32 == u64::from(offset)
            && Self::kind(key) != kind
        {
            return Err(Self::kind(key));
        }
        let next = self.keys.partition_point(|&k| k >> 32 <= u64::from(offset));
        let mut end = self.keys.get(next).map_or(u64::MAX, |&k| k >> 32);
        if self.tile_properties > offset {
            end = end.min(u64::from(self.tile_properties));
        }
        let end = usize::try_from(end).unwrap_or(usize::MAX);
        Ok(image.get(..end).unwrap_or(image))
    }
}

/// What [`Level::validate`] read: counts over the whole level.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct LevelCounts {
    /// Planes.
    pub planes: usize,
    /// Tiles of every plane (each plane's width times height).
    pub tiles: usize,
    /// Image-set names of every plane.
    pub image_sets: usize,
    /// Objects of every plane.
    pub objects: usize,
    /// Tile property records held (at most 65,536: a tile id is 16 bits).
    pub tile_properties: usize,
    /// True if a plane has the main flag.
    pub main_plane: bool,
}

/// One section: what it holds and its absolute byte range.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Section {
    /// What it holds.
    pub kind: SectionKind,
    /// Its bytes in the image.
    pub range: Range<usize>,
}

/// The layout report of [`Level::layout`].
#[derive(Clone, PartialEq, Eq)]
pub struct Layout {
    /// The readable sections, in the editor's order (see [`Level::layout`]).
    pub sections: Vec<Section>,
    /// Errors of the sections that could not be read.
    pub unreadable: Vec<String>,
    /// Bytes between sections (in address order) and between the last one and the image's
    /// end, not covered by any section.
    pub gaps: Vec<Range<usize>>,
    /// Pairs of sections that share bytes.
    pub overlaps: Vec<(SectionKind, SectionKind)>,
    /// True if the sections lie at increasing offsets in the editor's order.
    pub in_usual_order: bool,
}

impl fmt::Debug for Layout {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Layout")
            .field("sections", &PreviewTable(&self.sections))
            .field("unreadable", &PreviewTable(&self.unreadable))
            .field("gaps", &PreviewTable(&self.gaps))
            .field("overlaps", &PreviewTable(&self.overlaps))
            .field("in_usual_order", &self.in_usual_order)
            .finish()
    }
}

impl Layout {
    fn new(sections: Vec<Section>, unreadable: Vec<String>, image_len: usize) -> Self {
        let in_usual_order = sections
            .windows(2)
            .all(|w| matches!(w, [a, b] if a.range.start <= b.range.start));
        let mut by_start: Vec<&Section> = sections.iter().filter(|s| !s.range.is_empty()).collect();
        by_start.sort_by_key(|s| (s.range.start, s.range.end));
        let mut gaps = Vec::new();
        let mut overlaps = Vec::new();
        let mut covered = HEADER_LEN;
        let mut last: Option<&Section> = None;
        for section in by_start {
            if section.range.start > covered {
                gaps.push(covered..section.range.start);
            }
            if let Some(prev) = last
                && section.range.start < prev.range.end
            {
                overlaps.push((prev.kind, section.kind));
            }
            if last.is_none_or(|prev| section.range.end > prev.range.end) {
                last = Some(section);
            }
            covered = covered.max(section.range.end);
        }
        if image_len > covered {
            gaps.push(covered..image_len);
        }
        Layout {
            sections,
            unreadable,
            gaps,
            overlaps,
            in_usual_order,
        }
    }

    /// True if every section was read, in the usual order, with no gap and no overlap.
    pub fn is_canonical(&self) -> bool {
        self.unreadable.is_empty()
            && self.in_usual_order
            && self.gaps.is_empty()
            && self.overlaps.is_empty()
    }
}
