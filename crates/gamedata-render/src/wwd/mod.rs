//! WAP32 collision maps: a plane's tiles drawn by the attribute of each pixel of their tile
//! property records (`docs/formats/wwd.md`, "Tile properties"), one colour an attribute,
//! objects marked with a cross.
//!
//! At `tile_px` equal to the tile size (64 in Claw) every pixel is exact. Smaller, each
//! output pixel covers several tile pixels and takes the most telling attribute among them
//! (ground, then death, climb, other, solid, clear), so that a thin ledge or a row of spikes
//! stays visible when a large level is drawn small. Tiles that are empty, filled or past
//! the table are clear.

pub mod camera;
pub mod pid;
pub mod scene;

pub use camera::View;
pub use pid::{PidPalette, pid_picture};
pub use scene::{ImageView, LevelImages, Placement, PlaneImages, Scene, SceneOptions, SceneReport};

use std::fmt;

use rayon::prelude::*;
use wap_core::{Attribute, Plane, Tile, TilePropertyIndex};

use crate::{Region, RenderError, Result, RgbaImage};

/// Colour of clear pixels (dark blue-grey).
pub const CLEAR: [u8; 3] = [24, 24, 32];
/// Colour of solid pixels (grey).
pub const SOLID: [u8; 3] = [150, 150, 150];
/// Colour of ground pixels, stood on from above (green).
pub const GROUND: [u8; 3] = [60, 170, 60];
/// Colour of climbable pixels (yellow).
pub const CLIMB: [u8; 3] = [230, 200, 40];
/// Colour of death pixels (red).
pub const DEATH: [u8; 3] = [220, 40, 40];
/// Colour of pixels of any other attribute value (purple).
pub const OTHER: [u8; 3] = [160, 70, 200];
/// Colour of the crosses marking objects (white).
pub const OBJECT: [u8; 3] = [255, 255, 255];

/// The attribute colours by class: clear, solid, ground, climb, death, other.
const COLOURS: [[u8; 3]; 6] = [CLEAR, SOLID, GROUND, CLIMB, DEATH, OTHER];

/// Which class wins when one output pixel covers several tile pixels (higher wins).
const PRIORITY: [u8; 6] = [0, 2, 4, 3, 5, 1];

/// The longest side [`default_tile_px`] gives a picture, in pixels.
pub const MAX_SIDE: u32 = 4096;

/// Most tile pixel samples the reduction of the used records may take (2^30).
const MAX_WORK: u64 = 1 << 30;

fn class(value: i32) -> u8 {
    match Attribute::from_raw(value) {
        Attribute::Clear => 0,
        Attribute::Solid => 1,
        Attribute::Ground => 2,
        Attribute::Climb => 3,
        Attribute::Death => 4,
        Attribute::Other(_) => 5,
    }
}

/// Pixels of each attribute class in a collision map (before objects are marked).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct PixelCounts {
    /// Clear pixels.
    pub clear: u64,
    /// Solid pixels.
    pub solid: u64,
    /// Ground pixels.
    pub ground: u64,
    /// Climbable pixels.
    pub climb: u64,
    /// Death pixels.
    pub death: u64,
    /// Pixels of other attribute values.
    pub other: u64,
}

impl std::ops::Add for PixelCounts {
    type Output = PixelCounts;

    /// The counts of two stripes together (saturating).
    fn add(self, b: PixelCounts) -> PixelCounts {
        PixelCounts {
            clear: self.clear.saturating_add(b.clear),
            solid: self.solid.saturating_add(b.solid),
            ground: self.ground.saturating_add(b.ground),
            climb: self.climb.saturating_add(b.climb),
            death: self.death.saturating_add(b.death),
            other: self.other.saturating_add(b.other),
        }
    }
}

impl PixelCounts {
    /// All pixels counted: the picture's width times its height.
    pub fn total(&self) -> u64 {
        [
            self.clear,
            self.solid,
            self.ground,
            self.climb,
            self.death,
            self.other,
        ]
        .iter()
        .fold(0u64, |t, n| t.saturating_add(*n))
    }
}

/// A collision map and what it shows.
#[derive(Clone, Debug)]
pub struct Collision {
    /// `tiles_wide * tile_px` x `tiles_high * tile_px` pixels, opaque.
    pub image: RgbaImage,
    /// Pixels of each attribute class.
    pub pixels: PixelCounts,
    /// Objects marked (those whose position falls inside the plane).
    pub objects: usize,
}

/// The default output pixels a tile side for `plane`: the largest that keeps both sides
/// within [`MAX_SIDE`], at least 1 and at most the tile width.
pub fn default_tile_px(plane: &Plane<'_>) -> u32 {
    let longest = plane.tiles_wide().max(plane.tiles_high()).max(1);
    let tile = u32::try_from(plane.tile_size().0).unwrap_or(1).max(1);
    MAX_SIDE.checked_div(longest).unwrap_or(1).clamp(1, tile)
}

/// Draws `plane` with the tile property records of `index` at `tile_px` output pixels a
/// tile side (1 to 256), and marks its objects: [`CollisionMap`] drawn whole.
///
/// Returns the errors of [`CollisionMap::new`] and [`CollisionMap::stripe`].
pub fn collision(
    plane: &Plane<'_>,
    index: &TilePropertyIndex<'_>,
    tile_px: u32,
) -> Result<Collision> {
    let map = CollisionMap::new(plane, index, tile_px)?;
    let (image, pixels) = map.stripe(0, map.height())?;
    Ok(Collision {
        image,
        pixels,
        objects: map.objects_marked()?,
    })
}

/// A plane's collision map ready to draw a stripe of rows at a time, so that a large
/// picture (RETAIL01's main plane at 64 pixels a tile is 24,576 x 6,144) can be encoded
/// without holding it whole ([`crate::PngPixels::Stripes`]). The stripes together are the
/// pixels of [`collision`].
#[derive()]
pub struct CollisionMap<'a, 'data> {
    plane: &'a Plane<'data>,
    /// Each used record's `tile_px` x `tile_px` grid of classes (empty when unused).
    grids: Vec<Vec<u8>>,
    /// The plane's tile size in pixels, 1 to 1,024 a side.
    tile: (u32, u32),
    tile_px: u32,
    width: u32,
    height: u32,
}

impl fmt::Debug for CollisionMap<'_, '_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("CollisionMap")
            .field("plane", &self.plane)
            .field("grids", &self.grids.len())
            .field("tile", &self.tile)
            .field("tile_px", &self.tile_px)
            .field("width", &self.width)
            .field("height", &self.height)
            .finish()
    }
}

impl<'a, 'data> CollisionMap<'a, 'data> {
    /// Prepares `plane` with the records of `index` at `tile_px` output pixels a tile side
    /// (1 to 256): reduces each record the plane uses to a `tile_px` x `tile_px` grid.
    ///
    /// Returns [`RenderError::Scale`] for a `tile_px` outside 1 to 256,
    /// [`RenderError::TileSize`] for tiles outside 1 to 1,024 pixels a side,
    /// [`RenderError::TooLarge`] for a picture past [`crate::MAX_PIXELS`] (or an empty
    /// plane), and [`RenderError::TooMuchWork`] when the records the plane uses would take
    /// more than 2^30 pixel samples to reduce.
    pub fn new(
        plane: &'a Plane<'data>,
        index: &TilePropertyIndex<'_>,
        tile_px: u32,
    ) -> Result<Self> {
        if !(1..=256).contains(&tile_px) {
            return Err(RenderError::Scale { scale: tile_px });
        }
        let (tw_raw, th_raw) = plane.tile_size();
        let tile_size = match (u32::try_from(tw_raw), u32::try_from(th_raw)) {
            (Ok(w @ 1..=1024), Ok(h @ 1..=1024)) => Some((w, h)),
            _ => None,
        };
        let Some((tw, th)) = tile_size else {
            return Err(RenderError::TileSize {
                width: tw_raw,
                height: th_raw,
            });
        };
        let width = u64::from(plane.tiles_wide()).saturating_mul(u64::from(tile_px));
        let height = u64::from(plane.tiles_high()).saturating_mul(u64::from(tile_px));
        let too_large = RenderError::TooLarge {
            width,
            height,
            max: crate::MAX_PIXELS,
        };
        if width == 0 || height == 0 || width.saturating_mul(height) > crate::MAX_PIXELS {
            return Err(too_large);
        }
        let (Ok(width), Ok(height)) = (u32::try_from(width), u32::try_from(height)) else {
            return Err(too_large);
        };
        // Only the records the plane's tiles use are reduced, within a work budget that a
        // crafted level cannot blow up.
        let mut used = vec![false; usize::from(u16::MAX).saturating_add(1)];
        for tile in plane.tiles() {
            if let Tile::Image { id, .. } = Tile::from_raw(tile.get())
                && let Some(u) = used.get_mut(usize::from(id))
            {
                *u = true;
            }
        }
        let distinct = index
            .records()
            .iter()
            .enumerate()
            .filter(|&(id, _)| used.get(id).copied().unwrap_or(false))
            .count() as u64;
        let per_record = u64::from(tw.max(tile_px)).saturating_mul(u64::from(th.max(tile_px)));
        if distinct.saturating_mul(per_record) > MAX_WORK {
            return Err(RenderError::TooMuchWork {
                records: distinct,
                tile_width: tw,
                tile_height: th,
                tile_px,
            });
        }
        Ok(CollisionMap {
            plane,
            grids: tile_grids(index, &used, (tw, th), tile_px),
            tile: (tw, th),
            tile_px,
            width,
            height,
        })
    }

    /// The picture's width in pixels: the plane's tiles across times `tile_px`.
    pub fn width(&self) -> u32 {
        self.width
    }

    /// The picture's height in pixels: the plane's tiles down times `tile_px`.
    pub fn height(&self) -> u32 {
        self.height
    }

    /// Rows `y..y + rows` of the picture (fewer at the bottom), with the objects' marks
    /// that fall on them, and the pixels of each attribute class in them.
    ///
    /// Returns [`RenderError::Stripe`] when `y` is past the last row or `rows` is 0, and
    /// [`RenderError::Level`] when the plane's object list is bad.
    pub fn stripe(&self, y: u32, rows: u32) -> Result<(RgbaImage, PixelCounts)> {
        let rows_left = self.height.saturating_sub(y);
        let rows = rows.min(rows_left);
        if rows == 0 {
            return Err(RenderError::Stripe {
                width: self.width,
                rows,
                expected_width: self.width,
                rows_left,
            });
        }
        self.rect(Region::new(0, y, self.width, rows))
    }

    /// The pixels of `region` of the picture (wholly inside it), with the objects' marks
    /// that fall on them, and the pixels of each attribute class in them.
    ///
    /// Returns [`RenderError::RegionOutside`] for a region not wholly inside the picture,
    /// and [`RenderError::Level`] when the plane's object list is bad.
    pub fn rect(&self, region: Region) -> Result<(RgbaImage, PixelCounts)> {
        if !region.is_inside(self.width, self.height) {
            return Err(RenderError::RegionOutside {
                region,
                width: self.width,
                height: self.height,
            });
        }
        let mut image = RgbaImage::new(region.width, region.height, [0, 0, 0, 255])?;
        let at = (region.x, region.y);
        let pixels = draw_tiles(&mut image, self.plane, &self.grids, self.tile_px, at);
        mark_objects(&mut image, self.plane, self.tile, self.tile_px, at)?;
        Ok((image, pixels))
    }

    /// The objects whose position falls inside the picture (those [`Self::stripe`] marks).
    ///
    /// Returns [`RenderError::Level`] when the plane's object list is bad.
    pub fn objects_marked(&self) -> Result<usize> {
        let mut marked = 0usize;
        for object in self.plane.objects() {
            if self.object_pixel(object?.position()).is_some() {
                marked = marked.saturating_add(1);
            }
        }
        Ok(marked)
    }

    fn object_pixel(&self, position: (i32, i32)) -> Option<(u32, u32)> {
        object_pixel(position, self.tile, self.tile_px, (self.width, self.height))
    }
}

/// Fills every pixel of `image`, the part of the picture from (`x0`, `y0`), with its
/// attribute class's colour, rows over rayon's pool; returns the pixels of each class.
fn draw_tiles(
    image: &mut RgbaImage,
    plane: &Plane<'_>,
    grids: &[Vec<u8>],
    tile_px: u32,
    (x0, y0): (u32, u32),
) -> PixelCounts {
    let side = tile_px as usize;
    let row_bytes = (image.width as usize).saturating_mul(4);
    let counts: Vec<[u64; 6]> = image
        .pixels
        .par_chunks_mut(row_bytes.max(1))
        .enumerate()
        .map(|(oy, row)| {
            let mut counts = [0u64; 6];
            let oy = u32::try_from(oy).unwrap_or(u32::MAX).saturating_add(y0);
            let ty = oy.checked_div(tile_px).unwrap_or(0);
            let sy = oy.checked_rem(tile_px).unwrap_or(0) as usize;
            for (ox, pixel) in (x0..).zip(row.chunks_exact_mut(4)) {
                let tx = ox.checked_div(tile_px).unwrap_or(0);
                let sx = ox.checked_rem(tile_px).unwrap_or(0) as usize;
                let c = match plane.tile(tx, ty) {
                    Some(Tile::Image { id, .. }) => grids
                        .get(usize::from(id))
                        .and_then(|g| g.get(sy.saturating_mul(side).saturating_add(sx)))
                        .map_or(0, |&c| usize::from(c)),
                    _ => 0,
                };
                if let (Some(n), Some(colour)) = (counts.get_mut(c), COLOURS.get(c)) {
                    *n = n.saturating_add(1);
                    pixel.copy_from_slice(&[colour[0], colour[1], colour[2], 255]);
                }
            }
            counts
        })
        .collect();
    let mut total = [0u64; 6];
    for row in &counts {
        for (t, n) in total.iter_mut().zip(row) {
            *t = t.saturating_add(*n);
        }
    }
    let [clear, solid, ground, climb, death, other] = total;
    PixelCounts {
        clear,
        solid,
        ground,
        climb,
        death,
        other,
    }
}

/// The output pixel of an object at `position` (game pixels), if inside the picture.
fn object_pixel(
    (x, y): (i32, i32),
    (tw, th): (u32, u32),
    tile_px: u32,
    (width, height): (u32, u32),
) -> Option<(u32, u32)> {
    let (x, y) = (u64::try_from(x).ok()?, u64::try_from(y).ok()?);
    // Positions are below 2^31 and tile_px at most 256: no overflow.
    let ox = x
        .saturating_mul(u64::from(tile_px))
        .checked_div(u64::from(tw))?;
    let oy = y
        .saturating_mul(u64::from(tile_px))
        .checked_div(u64::from(th))?;
    let (ox, oy) = (u32::try_from(ox).ok()?, u32::try_from(oy).ok()?);
    (ox < width && oy < height).then_some((ox, oy))
}

/// Marks each object of `plane` inside the picture with a cross of arms `tile_px / 8`
/// pixels long (at least 1), where it falls on `image`: the part of the picture from
/// (`x0`, `y0`).
fn mark_objects(
    image: &mut RgbaImage,
    plane: &Plane<'_>,
    tile: (u32, u32),
    tile_px: u32,
    (x0, y0): (u32, u32),
) -> Result<()> {
    let height = y0.saturating_add(image.height);
    let right = x0.saturating_add(image.width);
    let side = |tiles: u32| {
        u32::try_from(u64::from(tiles).saturating_mul(u64::from(tile_px))).unwrap_or(u32::MAX)
    };
    let picture = (side(plane.tiles_wide()), side(plane.tiles_high()));
    let arm = (tile_px / 8).max(1);
    for object in plane.objects() {
        let Some((ox, oy)) = object_pixel(object?.position(), tile, tile_px, picture) else {
            continue;
        };
        if oy.saturating_add(arm) < y0
            || oy.saturating_sub(arm) >= height
            || ox.saturating_add(arm) < x0
            || ox.saturating_sub(arm) >= right
        {
            continue;
        }
        for d in 0..=arm {
            for (x, y) in [
                (ox.saturating_add(d), oy),
                (ox.saturating_sub(d), oy),
                (ox, oy.saturating_add(d)),
                (ox, oy.saturating_sub(d)),
            ] {
                if y >= y0 && x >= x0 {
                    let (x, y) = (x.saturating_sub(x0), y.saturating_sub(y0));
                    image.set(x, y, [OBJECT[0], OBJECT[1], OBJECT[2], 255]);
                }
            }
        }
    }
    Ok(())
}

/// For every tile property record a tile uses (`used[id]`), its `tile_px x tile_px` grid of
/// attribute classes: each output pixel gets the highest-priority class among the tile
/// pixels it covers (exact when `tile_px` is the tile size). Unused records get no grid.
fn tile_grids(
    index: &TilePropertyIndex<'_>,
    used: &[bool],
    (tw, th): (u32, u32),
    tile_px: u32,
) -> Vec<Vec<u8>> {
    // Sizes are at most 1,024 and tile_px 1 to 256: the products stay below 2^19.
    let span = |s: u32, size: u32| {
        let start = s.saturating_mul(size).checked_div(tile_px).unwrap_or(0);
        let end = s
            .saturating_add(1)
            .saturating_mul(size)
            .checked_div(tile_px)
            .unwrap_or(0)
            .max(start.saturating_add(1));
        start..end
    };
    let rank = |c: u8| PRIORITY.get(usize::from(c)).copied().unwrap_or(0);
    index
        .records()
        .par_iter()
        .enumerate()
        .map(|(id, record)| {
            if !used.get(id).copied().unwrap_or(false) {
                return Vec::new();
            }
            let mut grid = Vec::with_capacity(tile_px.saturating_mul(tile_px) as usize);
            for sy in 0..tile_px {
                for sx in 0..tile_px {
                    let mut best = 0u8;
                    for y in span(sy, th) {
                        for x in span(sx, tw) {
                            let value = record.attribute_at(
                                i32::try_from(x).unwrap_or(i32::MAX),
                                i32::try_from(y).unwrap_or(i32::MAX),
                            );
                            let c = class(value);
                            if rank(c) > rank(best) {
                                best = c;
                            }
                        }
                    }
                    grid.push(best);
                }
            }
            grid
        })
        .collect()
}

/// A WWD collision map's pyramid: its pixels drawn a tile at a time.
impl crate::picture::TileSource for CollisionMap<'_, '_> {
    fn size(&self) -> (u32, u32) {
        (self.width(), self.height())
    }

    fn draw(&self, region: Region) -> Result<RgbaImage> {
        Ok(self.rect(region)?.0)
    }
}
