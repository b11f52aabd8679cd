//! A WAP32 level as the game draws it: every plane's tiles from their tile sets and every
//! object's image, from a REZ archive or a folder of extracted files
//! ([`wap_core::ImageSource`]), by the engine's rules (`docs/formats/wap32.md`, "Levels";
//! each rule's source in the engine's code is named there and below).
//!
//! - A whole-level picture covers the main plane (or the plane chosen), `tile_px` output
//!   pixels a tile side; output pixel (x, y) shows game pixel (x * tile width / `tile_px`,
//!   y * tile height / `tile_px`), so that at the tile size every game pixel is drawn. It
//!   has no camera: every plane is drawn as if it scrolled with the main plane, from the
//!   level's top-left corner; a plane that wraps repeats across the picture, one that does
//!   not covers its own tiles only.
//! - A view ([`SceneOptions::view`], [`View`]) is the screen a player sees, one output
//!   pixel a game pixel: each plane shows the window the engine's camera gives it
//!   ([`super::camera`]), and objects move with their plane.
//! - Order (gruntz-decomp `src/Gruntz/GameLevel.cpp`, `CGameLevel::VisitVisible`): objects
//!   sorted by z, equal z in the level's order. With the header's z flag (0x1): plane 0,
//!   then before each later plane the objects whose z is below that plane's z, then the
//!   plane; the objects left last. Without it: the planes up to the main plane, the
//!   objects, the planes after it. Planes flagged not to be drawn (0x2) are not drawn.
//! - A tile draws its image at its top-left corner; 0xFFFFFFFF draws nothing and 0xEEEEEEEE
//!   the plane's fill colour (a palette index) (`src/DDrawMgr/LevelPlane.cpp`,
//!   `CDDrawWorkerHost::Draw`).
//! - An object is created only inside its plane and with a logic (`ReadPlaneObjects`);
//!   hidden (draw flag 0x1) it is not drawn. It draws its frame ([`Frames`]: the number in
//!   the file names, -1 the lowest) centred on its position (half the size, rounded down),
//!   moved by the image's offset; mirrored (0x2) with the x offset negated, upside down
//!   (0x4) with the y offset negated (`src/Image/CImage.cpp`).
//! - Colours come from the level's palette (the header's, `LEVEL1/PALETTES/MAIN.PAL`), else
//!   an image's own, else grey levels. An image that cannot be found or read draws nothing,
//!   as in the engine, or with [`SceneOptions::markers`] a magenta marker (the tile, or 32
//!   x 32 pixels for an object); either way it is counted and listed in the
//!   [`SceneReport`], never an error.
//!
//! What a scene costs, whatever the level and the archive hold (`docs/robustness.md`):
//! names are resolved through the source's index ([`wap_core::ImageIndex`], built once),
//! each folder's images listed once and each image decoded once, within
//! `Limits::max_decoded_bytes` counting the RGBA kept (4 bytes a pixel) and the indices and
//! mask of the image being decoded; the pixels the planes and objects would draw, each
//! clipped to the picture, are counted before anything is drawn and refused past
//! `SceneOptions::max_overdraw` times the picture's ([`RenderError::Overdraw`]); and the layers
//! are listed by bands of 64 rows, so that a row visits only the layers that draw in its
//! band, and a layer draws only its part inside the rows and columns asked for.

// Coordinates are game pixels and output pixels widened to i64: a picture has at most
// 2^28 pixels, tile sides at most 1,024 and positions are i32, so no product overflows.
#![allow(clippy::arithmetic_side_effects)]

mod anim;
mod images;
mod layers;
mod load;
mod order;
mod pixels;
mod report;
mod row;

use std::collections::HashMap;

use rayon::prelude::*;
use wap_core::{FolderId, ImageNames, ImageSource, Level, Limits, Palette, PlaneFlags};

pub use super::camera::View;
use crate::{Region, RenderError, Result, RgbaImage};
pub use anim::ANIMATION_STEPS;
pub use images::{ImageView, LevelImages, Placement, PlaneImages};
use layers::{Layer, PlaneLayer, Sprite};
use load::Loader;
use order::{Placed, engine_order};
pub use pixels::MISSING;
use pixels::{Image, Source, marker};
pub use report::{MAX_LISTED, MAX_NAME, SceneReport};
#[cfg(doc)]
use wap_core::Frames;

/// The most pixels [`Scene::with_max_pixels`] takes (2^32): the picture's sides stay
/// within `u32` and its bands of rows within 2^26.
pub const MAX_REGION_PIXELS: u64 = 1 << 32;

/// Output rows a band of the layer index: each band lists the layers drawing in it.
const BAND: u32 = 64;

/// What a [`Scene`] draws, and the cap on the work of drawing it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SceneOptions {
    /// Output pixels a tile side, 1 to 256; `None`: the tile size (every game pixel). Not
    /// with a view, which is drawn a game pixel an output pixel.
    pub tile_px: Option<u32>,
    /// Only this plane (its index), over its own extent (or in the view), drawn even when
    /// flagged not to be; `None`: every plane over the main plane's extent.
    pub plane: Option<usize>,
    /// Leave the objects out.
    pub no_objects: bool,
    /// Draw a magenta marker where an image is missing (the engine draws nothing).
    pub markers: bool,
    /// The screen a player sees with the camera at this place, instead of the whole level.
    pub view: Option<View>,
    /// Milliseconds after the level starts: each object whose animation string names an
    /// ANI animation is drawn at the frame it shows then, as the engine plays it
    /// ([`wap_core::Ani::play`]); `None`: every object at its level frame.
    pub time: Option<u64>,
    /// Most pixels the level's planes and objects may draw in all, as a multiple of the
    /// picture's own pixels: a level whose planes and objects would draw more is refused
    /// before drawing ([`RenderError::Overdraw`]), so that drawing costs at most this many
    /// times the picture. The planes and objects of the 14 retail and 5 community Claw
    /// levels draw at most 3.07 times their picture (objects alone at most 0.07; see
    /// `docs/cli.md`, "Level pictures"). Default: [`SceneOptions::DEFAULT_MAX_OVERDRAW`], 16.
    pub max_overdraw: u64,
}

impl SceneOptions {
    /// The default cap on pixels drawn by planes and objects: 16 times the picture's.
    pub const DEFAULT_MAX_OVERDRAW: u64 = 16;

    /// Sets [`SceneOptions::max_overdraw`].
    #[must_use]
    pub const fn with_max_overdraw(mut self, times: u64) -> Self {
        self.max_overdraw = times;
        self
    }
}

/// Every plane and its objects over the main plane's extent, at the tile size, at the
/// level frames, no markers, within [`SceneOptions::DEFAULT_MAX_OVERDRAW`].
impl Default for SceneOptions {
    fn default() -> Self {
        SceneOptions {
            tile_px: None,
            plane: None,
            no_objects: false,
            markers: false,
            view: None,
            time: None,
            max_overdraw: Self::DEFAULT_MAX_OVERDRAW,
        }
    }
}

/// A level ready to draw a stripe or a rectangle at a time (see the module's
/// documentation).
pub struct Scene<'l> {
    layers: Vec<Layer<'l>>,
    /// For each band of [`BAND`] output rows, the layers that draw in it, in order.
    bands: Vec<Vec<u32>>,
    /// The image each tile value's frame draws, by folder and frame number (found as the
    /// scene was made: no table a tile value).
    resolved: HashMap<(FolderId, i64), Option<usize>>,
    images: Vec<Image>,
    /// Game pixels a tile side of the plane the picture covers ((1, 1) for a view).
    tile: (i64, i64),
    /// Output pixels a tile side, as the scale's divisor (1 for a view, whose scale is 1).
    per_tile: u32,
    /// Output pixels a tile side of the covered plane (its tile width for a view).
    tile_px: u32,
    width: u32,
    height: u32,
    markers: bool,
    report: SceneReport,
}

impl std::fmt::Debug for Scene<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Scene")
            .field("layers", &self.layers.len())
            .field("images", &self.images.len())
            .field("width", &self.width)
            .field("height", &self.height)
            .field("tile_px", &self.tile_px)
            .field("report", &self.report)
            .finish()
    }
}

impl<'l> Scene<'l> {
    /// Prepares `level` drawn from `source` as `options` say: finds and decodes every image
    /// the drawn planes and objects use (within `limits.max_decoded_bytes` of pixels in
    /// all; past it images count as missing).
    ///
    /// Returns [`RenderError::Scale`] for a `tile_px` outside 1 to 256 (or any with a
    /// view), [`RenderError::TileSize`] for tiles outside 1 to 1,024 pixels a side,
    /// [`RenderError::TooLarge`] for a picture past [`crate::MAX_PIXELS`] (or an empty
    /// plane or view), [`RenderError::NoPlane`] when the level has no main plane or
    /// `options.plane` is past its planes, [`RenderError::Level`] when a drawn plane or
    /// object list is bad, and [`RenderError::Overdraw`] past `options.max_overdraw`.
    pub fn new(
        level: &Level<'l>,
        source: &ImageSource,
        options: &SceneOptions,
        limits: &Limits,
    ) -> Result<Self> {
        Scene::with_max_pixels(level, source, options, limits, crate::MAX_PIXELS)
    }

    /// [`Scene::new`] for a picture of up to `max_pixels` pixels (at most
    /// [`MAX_REGION_PIXELS`]), for a caller that draws it a region at a time
    /// ([`Scene::rect`]) and never whole: a level past [`crate::MAX_PIXELS`] at the tile
    /// size (RETAIL03 is 49,152 x 12,288 pixels) compared region by region with another
    /// renderer's picture.
    ///
    /// Returns the errors of [`Scene::new`], [`RenderError::TooLarge`] past `max_pixels`.
    pub fn with_max_pixels(
        level: &Level<'l>,
        source: &ImageSource,
        options: &SceneOptions,
        limits: &Limits,
        max_pixels: u64,
    ) -> Result<Self> {
        let names = ImageNames::of(&level.header());
        let palette = level_palette(source, &names);
        let index = source
            .index(&wap_core::RezOptions::default().with_limits(*limits))
            .map_err(RenderError::Images)?;
        let mut loader = Loader::new(index, palette, limits);
        loader.animating = options.time.map(anim::Animating::new);
        let mut scene = Scene::geometry(level, options, max_pixels.min(MAX_REGION_PIXELS))?;
        let windows = match &options.view {
            Some(view) => super::camera::windows(level, view)?,
            None => vec![(0, 0); level.planes().len()],
        };
        let main = level
            .planes()
            .position(|p| p.is_ok_and(|p| p.flags().contains(PlaneFlags::MAIN)));
        let mut planes = Vec::new();
        let mut objects = Vec::new();
        for (index, plane) in level.planes().enumerate() {
            let chosen = options.plane.is_none_or(|p| p == index);
            // A plane not drawn that cannot be read takes no place in the order.
            let plane = match plane {
                Ok(plane) => plane,
                Err(_) if !chosen => continue,
                Err(e) => return Err(e.into()),
            };
            let origin = windows.get(index).copied().unwrap_or_default();
            let drawn =
                chosen && (options.plane.is_some() || !plane.flags().contains(PlaneFlags::NO_DRAW));
            let layer = drawn
                .then(|| loader.plane_layer(&plane, &names, origin))
                .flatten()
                .map(Layer::Plane);
            planes.push(Placed::Plane {
                index,
                z: plane.z(),
                layer,
            });
            if !chosen || options.no_objects {
                continue;
            }
            let (tw, th) = plane.tile_size();
            let size = (
                i64::from(tw) * i64::from(plane.tiles_wide()),
                i64::from(th) * i64::from(plane.tiles_high()),
            );
            for object in plane.objects() {
                let object = object?;
                let Some(sprite) = loader.sprite(&object, &names, size, origin, options.markers)
                else {
                    continue;
                };
                // Counted, but kept only when some of it is in the picture.
                let sprite = Layer::Sprite(sprite);
                let (rows, columns) = scene.extent(&sprite);
                if !rows.is_empty() && !columns.is_empty() {
                    objects.push(Placed::Object {
                        z: object.z(),
                        layer: sprite,
                    });
                }
            }
        }
        scene.layers = engine_order(planes, objects, level.header().uses_z(), main);
        scene.images = loader.images;
        scene.resolved = loader.resolved;
        scene.report = loader.report;
        scene.report.palette = palette.is_some().then(|| names.palette.clone());
        scene.markers = options.markers;
        scene.band(options.max_overdraw)?;
        Ok(scene)
    }

    /// The picture's size and scale, before any layer: a view's, or the covered plane's
    /// tiles at `tile_px`.
    fn geometry(level: &Level<'l>, options: &SceneOptions, max_pixels: u64) -> Result<Self> {
        let no_plane = || RenderError::NoPlane {
            plane: options.plane,
            planes: level.planes().len(),
        };
        let cover = match options.plane {
            Some(i) => level.plane(i)?.ok_or_else(no_plane)?,
            None => level.main_plane()?.ok_or_else(no_plane)?,
        };
        let (tw, th) = cover.tile_size();
        let tile = match (u32::try_from(tw), u32::try_from(th)) {
            (Ok(w @ 1..=1024), Ok(h @ 1..=1024)) => (w, h),
            _ => {
                return Err(RenderError::TileSize {
                    width: tw,
                    height: th,
                });
            }
        };
        let tile_side = tile.0;
        let (tile, tile_px, width, height) = match &options.view {
            Some(view) => {
                if let Some(scale) = options.tile_px {
                    return Err(RenderError::Scale { scale });
                }
                ((1, 1), 1, u64::from(view.width), u64::from(view.height))
            }
            None => {
                let tile_px = options.tile_px.unwrap_or(tile.0);
                if !(1..=256).contains(&tile_px) {
                    return Err(RenderError::Scale { scale: tile_px });
                }
                (
                    tile,
                    tile_px,
                    u64::from(cover.tiles_wide()) * u64::from(tile_px),
                    u64::from(cover.tiles_high()) * u64::from(tile_px),
                )
            }
        };
        let too_large = RenderError::TooLarge {
            width,
            height,
            max: max_pixels,
        };
        if width == 0 || height == 0 || width.saturating_mul(height) > max_pixels {
            return Err(too_large);
        }
        let (Ok(width), Ok(height)) = (u32::try_from(width), u32::try_from(height)) else {
            return Err(too_large);
        };
        Ok(Scene {
            layers: Vec::new(),
            bands: Vec::new(),
            resolved: HashMap::new(),
            images: Vec::new(),
            tile: (i64::from(tile.0), i64::from(tile.1)),
            per_tile: tile_px,
            tile_px: options.tile_px.unwrap_or(tile_side),
            width,
            height,
            markers: false,
            report: SceneReport::default(),
        })
    }

    /// The output rows and columns `layer` draws in, clipped to the picture.
    fn extent(&self, layer: &Layer<'_>) -> (std::ops::Range<i64>, std::ops::Range<i64>) {
        let (w, h) = (i64::from(self.width), i64::from(self.height));
        let span = |start: i64, len: i64, tile: i64, wrap: bool, max: i64| {
            if wrap {
                return 0..max;
            }
            let first = self.output(start, tile).clamp(0, max);
            let end = self.output(start + len, tile).clamp(first, max);
            first..end
        };
        match layer {
            Layer::Plane(p) => (
                span(-p.origin.1, p.tiles.1 * p.tile.1, self.tile.1, p.wrap.1, h),
                span(-p.origin.0, p.tiles.0 * p.tile.0, self.tile.0, p.wrap.0, w),
            ),
            Layer::Sprite(s) => (
                span(s.top, s.height, self.tile.1, false, h),
                span(s.left, s.width, self.tile.0, false, w),
            ),
        }
    }

    /// Counts the pixels the layers draw (refused past `max_overdraw` times the
    /// picture's) and lists in each band of [`BAND`] rows the layers that draw in it.
    fn band(&mut self, max_overdraw: u64) -> Result<()> {
        let pixels = u64::from(self.width) * u64::from(self.height);
        let mut drawn = 0u64;
        for layer in &self.layers {
            let (rows, columns) = self.extent(layer);
            let area = (rows.end - rows.start) as u64 * (columns.end - columns.start) as u64;
            drawn = drawn.saturating_add(area);
        }
        self.report.pixels_drawn = drawn;
        if drawn > pixels.saturating_mul(max_overdraw) {
            return Err(RenderError::Overdraw {
                drawn,
                pixels,
                max: max_overdraw,
            });
        }
        let mut bands = vec![Vec::new(); self.height.div_ceil(BAND) as usize];
        for (i, layer) in self.layers.iter().enumerate() {
            let (rows, columns) = self.extent(layer);
            if rows.is_empty() || columns.is_empty() {
                continue;
            }
            let band_of = |row: i64| usize::try_from(row / i64::from(BAND)).unwrap_or(0);
            let (first, last) = (band_of(rows.start), band_of(rows.end - 1));
            let Ok(i) = u32::try_from(i) else {
                break;
            };
            for band in bands.iter_mut().take(last + 1).skip(first) {
                band.push(i);
            }
        }
        self.bands = bands;
        Ok(())
    }

    /// The picture's width in pixels.
    pub fn width(&self) -> u32 {
        self.width
    }

    /// The picture's height in pixels.
    pub fn height(&self) -> u32 {
        self.height
    }

    /// Output pixels a tile side of the plane the picture covers (for a view, the tile's
    /// width: a view is drawn a game pixel a pixel).
    pub fn tile_px(&self) -> u32 {
        self.tile_px
    }

    /// What was drawn and what was missing.
    pub fn report(&self) -> &SceneReport {
        &self.report
    }

    /// Rows `y..y + rows` of the picture (fewer at the bottom).
    ///
    /// Returns [`RenderError::Stripe`] when `y` is past the last row or `rows` is 0.
    pub fn stripe(&self, y: u32, rows: u32) -> Result<RgbaImage> {
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

    /// The pixels of `region` of the picture (wholly inside it); black where nothing is
    /// drawn.
    ///
    /// Returns [`RenderError::RegionOutside`] for a region not wholly inside the picture.
    pub fn rect(&self, region: Region) -> Result<RgbaImage> {
        if !region.is_inside(self.width, self.height) {
            return Err(RenderError::RegionOutside {
                region,
                width: self.width,
                height: self.height,
            });
        }
        // Drawn front to back: a pixel still transparent is one no layer has drawn.
        let mut image = RgbaImage::new(region.width, region.height, [0; 4])?;
        let row_bytes = (region.width as usize).saturating_mul(4).max(1);
        // The game x of each output column, once.
        let ox0 = i64::from(region.x);
        let gxs: Vec<i64> = (0..i64::from(region.width))
            .map(|dx| self.game(ox0 + dx, self.tile.0))
            .collect();
        image
            .pixels
            .par_chunks_mut(row_bytes)
            .enumerate()
            .for_each_init(row::Open::default, |open, (dy, row)| {
                let oy = i64::from(region.y) + dy as i64;
                self.draw_row(row, oy, ox0, &gxs, open);
            });
        Ok(image)
    }

    /// The game pixel output coordinate `o` shows along an axis of `tile` game pixels a
    /// tile.
    fn game(&self, o: i64, tile: i64) -> i64 {
        o * tile / i64::from(self.per_tile)
    }

    /// The first output coordinate showing game pixel `g` or later.
    fn output(&self, g: i64, tile: i64) -> i64 {
        let p = i64::from(self.per_tile);
        (g * p).div_euclid(tile) + i64::from((g * p).rem_euclid(tile) != 0)
    }
}

/// The level's palette when its file is a palette's 768 bytes (its length asked first: a
/// pipe or a huge file at that path is never read).
fn level_palette(source: &ImageSource, names: &ImageNames) -> Option<[[u8; 3]; 256]> {
    match source.file_len(&names.palette) {
        Ok(Some(768)) => source
            .file(&names.palette)
            .ok()
            .flatten()
            .and_then(|b| Palette::parse(&b).ok().map(|p| *p.colours())),
        _ => None,
    }
}

impl crate::picture::TileSource for Scene<'_> {
    fn size(&self) -> (u32, u32) {
        (self.width, self.height)
    }

    fn draw(&self, region: Region) -> Result<RgbaImage> {
        self.rect(region)
    }
}
