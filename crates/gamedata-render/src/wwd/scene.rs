//! A WAP32 level as the game draws it: every plane's tiles from their tile sets and every
//! object's image, in z order, from a REZ archive or a folder of extracted files
//! ([`wap_core::ImageSource`]). Naming rules, transparency and placement:
//! `docs/formats/wap32.md`, "Levels" (libwap32's `wwd2html` and OpenClaw).
//!
//! - The picture covers the main plane (or the plane chosen), `tile_px` output pixels a
//!   tile side; output pixel (x, y) shows game pixel (x * tile width / `tile_px`, y *
//!   tile height / `tile_px`), so that at the tile size every game pixel is drawn.
//! - Planes and objects are drawn back to front by z, a plane before the objects of its
//!   z. Every plane but those flagged not to be drawn is drawn as if it scrolled with the
//!   main plane, from the level's top-left corner: a plane that wraps repeats across the
//!   picture (cropped to it, as WapMap draws wrapping planes); one that does not covers its
//!   own tiles only. (libwap32's `wwd2html` draws only the planes moving at 100 %.)
//! - A tile draws its image at its top-left corner; 0xFFFFFFFF draws nothing and 0xEEEEEEEE
//!   the plane's fill colour (a palette index). An object draws its image centred on its
//!   position, moved by the image's offset, mirrored and upside down by its draw flags.
//! - Colours come from the level's palette (the header's, `LEVEL1/PALETTES/MAIN.PAL`), else
//!   an image's own, else grey levels. An image that cannot be found or read is drawn as a
//!   magenta marker (the tile, or 32 x 32 pixels for an object), counted and listed in the
//!   [`SceneReport`]; never an error.
//!
//! What a scene costs, whatever the level and the archive hold (`docs/robustness.md`):
//! names are resolved through the source's index ([`wap_core::ImageIndex`], built once),
//! each folder's images listed once and each image decoded once, within
//! `Limits::max_decoded_bytes` counting the RGBA kept (4 bytes a pixel) and the indices and
//! mask of the image being decoded; the pixels the planes and objects would draw, each
//! clipped to the picture, are counted before anything is drawn and refused past
//! `Limits::max_overdraw` times the picture's ([`RenderError::Overdraw`]); and the layers
//! are listed by bands of 64 rows, so that a row visits only the layers that draw in its
//! band, and a layer draws only its part inside the rows and columns asked for.

// Coordinates are game pixels and output pixels widened to i64: a picture has at most
// 2^28 pixels, tile sides at most 1,024 and positions are i32, so no product overflows.
#![allow(clippy::arithmetic_side_effects)]

use std::borrow::Cow;
use std::collections::HashMap;

use rayon::prelude::*;
use wap_core::{
    DrawFlags, FolderId, Frames, ImageIndex, ImageNames, ImageSource, Level, Limits, Palette, Pid,
    PlaneFlags, Tile,
};
use zerocopy::little_endian::U32;

use crate::{Region, RenderError, Result, RgbaImage};

/// Colour of markers for images that cannot be found (magenta).
pub const MISSING: [u8; 4] = [255, 0, 255, 255];

/// Side of an object's marker, in game pixels (libwap32's placeholder is 32 x 32).
const MARKER_SIDE: i64 = 32;

/// Output rows a band of the layer index: each band lists the layers drawing in it.
const BAND: u32 = 64;

/// The longest name of a missing image listed in a [`SceneReport`], in bytes (longer ones
/// are cut, ending in `…`).
pub const MAX_NAME: usize = 300;

/// The most missing images listed in a [`SceneReport`].
pub const MAX_LISTED: usize = 100;

/// What a [`Scene`] draws.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SceneOptions {
    /// Output pixels a tile side, 1 to 256; `None`: the tile size (every game pixel).
    pub tile_px: Option<u32>,
    /// Only this plane (its index), over its own extent; `None`: every plane over the main
    /// plane's extent.
    pub plane: Option<usize>,
    /// Leave the objects out.
    pub no_objects: bool,
}

/// What a [`Scene`] drew and could not.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct SceneReport {
    /// Tiles of the drawn planes with an image or the fill colour (each tile of a plane
    /// once, however often a wrapping plane repeats).
    pub tiles_drawn: u64,
    /// Objects drawn with their image.
    pub objects_drawn: u64,
    /// Tiles and objects whose image could not be found or read (drawn as markers).
    pub missing_images: u64,
    /// Pixels the planes and objects draw, each clipped to the picture (a pixel drawn by
    /// two layers counts twice); at most [`Limits::max_overdraw`] times the picture's.
    pub pixels_drawn: u64,
    /// The first [`MAX_LISTED`] images missing, each once: `FOLDER frame N` (the folder as
    /// found, or the image set's key when no folder is), cut at [`MAX_NAME`] bytes.
    pub missing: Vec<String>,
}

/// A decoded image: RGBA, its size and offset in game pixels.
struct Image {
    width: i64,
    height: i64,
    offset: (i64, i64),
    rgba: Vec<[u8; 4]>,
}

impl Image {
    fn pixel(&self, x: i64, y: i64) -> Option<[u8; 4]> {
        if x < 0 || y < 0 || x >= self.width || y >= self.height {
            return None;
        }
        self.rgba
            .get(usize::try_from(y * self.width + x).ok()?)
            .copied()
    }
}

/// A plane to draw, its tiles borrowed from the level.
struct PlaneLayer<'l> {
    /// Plane size in game pixels and tiles.
    tile: (i64, i64),
    tiles: (i64, i64),
    wrap: (bool, bool),
    /// Raw tile values, row by row, in the level's bytes.
    cells: &'l [U32],
    fill: [u8; 4],
    /// The folder of each of the plane's tile sets (`None`: not found).
    sets: Vec<Option<FolderId>>,
}

/// An object to draw.
struct Sprite {
    /// Top-left corner and size in game pixels.
    left: i64,
    top: i64,
    width: i64,
    height: i64,
    image: Option<usize>,
    mirror: bool,
    invert: bool,
}

/// What is drawn, in order.
enum Layer<'l> {
    Plane(PlaneLayer<'l>),
    Sprite(Sprite),
}

/// A level ready to draw a stripe or a rectangle at a time (see the module's
/// documentation).
pub struct Scene<'l> {
    layers: Vec<Layer<'l>>,
    /// For each band of [`BAND`] output rows, the layers that draw in it, in order.
    bands: Vec<Vec<u32>>,
    /// The folders' images by frame number, and the image decoded for each (the tiles'
    /// images are found through them as they are drawn: no table a tile value).
    frames: HashMap<FolderId, Frames>,
    by_file: HashMap<(FolderId, usize), Option<usize>>,
    images: Vec<Image>,
    /// Game pixels a tile side of the plane the picture covers.
    tile: (i64, i64),
    tile_px: u32,
    width: u32,
    height: u32,
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

/// Finds, reads and decodes images, each once, within a budget of decoded bytes: every
/// name through the source's index, each folder's listing read once, each image decoded
/// once whatever the number of tiles and objects that use it.
struct Loader<'a> {
    index: ImageIndex<'a>,
    palette: Option<[[u8; 3]; 256]>,
    limits: Limits,
    decoded: u64,
    images: Vec<Image>,
    /// Each image decoded (or not), by folder and position in its folder.
    by_file: HashMap<(FolderId, usize), Option<usize>>,
    /// Each image decoded (or not), by the address and length of its bytes in an archive.
    by_bytes: HashMap<(usize, usize), Option<usize>>,
    /// Each image decoded (or not), by its disk file's device and inode.
    by_disk_file: HashMap<(u64, u64), Option<usize>>,
    folders: HashMap<FolderId, Frames>,
    /// Tile set folders by path, image sets by key, each found once.
    paths: HashMap<String, Option<FolderId>>,
    sets: HashMap<String, Option<FolderId>>,
    report: SceneReport,
}

impl Loader<'_> {
    /// The image of `folder`'s frame `frame`, decoded once.
    fn frame(&mut self, folder: FolderId, frame: i64) -> Option<usize> {
        let index = &self.index;
        let frames = self
            .folders
            .entry(folder)
            .or_insert_with(|| index.frames(folder).unwrap_or_default());
        let at = frames.get(frame)?;
        if let Some(done) = self.by_file.get(&(folder, at)) {
            return *done;
        }
        let image = self.decode(folder, at);
        self.by_file.insert((folder, at), image);
        image
    }

    fn decode(&mut self, folder: FolderId, at: usize) -> Option<usize> {
        let frames = self.folders.get(&folder)?;
        // A disk file reached by several names (links) is one image, read once.
        let file = self.index.image_identity(frames, at);
        if let Some(done) = file.and_then(|k| self.by_disk_file.get(&k)) {
            return *done;
        }
        let bytes = self.index.image(frames, at).ok()??;
        // Entries over the same bytes of an archive are one image, decoded once.
        let same = match &bytes {
            Cow::Borrowed(b) => Some((b.as_ptr() as usize, b.len())),
            Cow::Owned(_) => None,
        };
        if let Some(done) = same.and_then(|k| self.by_bytes.get(&k)) {
            return *done;
        }
        let image = self.decode_bytes(&bytes);
        if let Some(key) = same {
            self.by_bytes.insert(key, image);
        }
        if let Some(key) = file {
            self.by_disk_file.insert(key, image);
        }
        image
    }

    /// Decodes a PID's bytes into an image, charging its pixels to the budget whether the
    /// decode succeeds or not (an image whose data ends early costs its fill all the same).
    fn decode_bytes(&mut self, bytes: &[u8]) -> Option<usize> {
        let pid = Pid::parse(bytes).ok()?;
        // Four bytes a pixel kept, and while decoding one each of indices and mask.
        let kept = pid.pixel_count().saturating_mul(4);
        let peak = self
            .decoded
            .saturating_add(kept)
            .saturating_add(pid.pixel_count().saturating_mul(2));
        self.limits.check_decoded("level images", peak).ok()?;
        self.decoded = self.decoded.saturating_add(kept);
        let pixels = pid.decode(&Limits::unlimited()).ok()?;
        let palette = self.palette.or_else(|| pid.palette().map(|p| *p.colours()));
        let rgba = pixels
            .indices
            .iter()
            .zip(&pixels.opaque)
            .map(|(&i, &o)| {
                let [r, g, b] = palette.map_or([i; 3], |p| {
                    p.get(usize::from(i)).copied().unwrap_or_default()
                });
                [r, g, b, if o { 255 } else { 0 }]
            })
            .collect();
        let (x, y) = pid.offset();
        self.images.push(Image {
            width: i64::from(pixels.width),
            height: i64::from(pixels.height),
            offset: (i64::from(x), i64::from(y)),
            rgba,
        });
        Some(self.images.len() - 1)
    }

    /// Notes `n` tiles or objects missing image `what`: counted, and listed the first time
    /// up to [`MAX_LISTED`], each name cut at [`MAX_NAME`] bytes.
    fn missing(&mut self, what: String, n: u64) {
        self.report.missing_images += n;
        if self.report.missing.len() >= MAX_LISTED {
            return;
        }
        let what = cut(what);
        if !self.report.missing.contains(&what) {
            self.report.missing.push(what);
        }
    }

    /// Whether `name` may name a folder: no longer than `Limits::max_path_bytes` (a longer
    /// one is missing without a lookup, and not kept).
    fn may_name(&self, name: &str) -> bool {
        u64::try_from(name.len()).is_ok_and(|n| n <= self.limits.max_path_bytes)
    }

    /// The folder at `path` (a tile set), found once.
    fn folder(&mut self, path: &str) -> Option<FolderId> {
        if !self.may_name(path) {
            return None;
        }
        once(&mut self.paths, path, |p| self.index.folder(p))
    }

    /// The folder of an object image set's key, found once.
    fn set_folder(&mut self, key: &str) -> Option<FolderId> {
        if !self.may_name(key) {
            return None;
        }
        once(&mut self.sets, key, |k| self.index.find_set(k))
    }
}

/// What `find` gives for `name`, asked once and kept in `found`.
fn once(
    found: &mut HashMap<String, Option<FolderId>>,
    name: &str,
    find: impl FnOnce(&str) -> Option<FolderId>,
) -> Option<FolderId> {
    if let Some(done) = found.get(name) {
        return *done;
    }
    let folder = find(name);
    found.insert(name.to_owned(), folder);
    folder
}

impl<'l> Scene<'l> {
    /// Prepares `level` drawn from `source` as `options` say: finds and decodes every image
    /// the drawn planes and objects use (within `limits.max_decoded_bytes` of pixels in
    /// all; past it images count as missing).
    ///
    /// Returns [`RenderError::Scale`] for a `tile_px` outside 1 to 256,
    /// [`RenderError::TileSize`] for tiles outside 1 to 1,024 pixels a side,
    /// [`RenderError::TooLarge`] for a picture past [`crate::MAX_PIXELS`] (or an empty
    /// plane), [`RenderError::NoPlane`] when the level has no main plane or
    /// `options.plane` is past its planes, and [`RenderError::Level`] when a drawn plane or
    /// object list is bad.
    pub fn new(
        level: &Level<'l>,
        source: &ImageSource,
        options: &SceneOptions,
        limits: &Limits,
    ) -> Result<Self> {
        let names = ImageNames::of(&level.header());
        let palette = source
            .file(&names.palette)
            .ok()
            .flatten()
            .and_then(|b| Palette::parse(&b).ok().map(|p| *p.colours()));
        let mut loader = Loader {
            index: source.index(limits).map_err(RenderError::Images)?,
            palette,
            limits: *limits,
            decoded: 0,
            images: Vec::new(),
            by_file: HashMap::new(),
            by_bytes: HashMap::new(),
            by_disk_file: HashMap::new(),
            folders: HashMap::new(),
            paths: HashMap::new(),
            sets: HashMap::new(),
            report: SceneReport::default(),
        };
        let no_plane = || RenderError::NoPlane {
            plane: options.plane,
            planes: level.planes().len(),
        };
        let cover = match options.plane {
            Some(i) => level.plane(i).ok_or_else(no_plane)??,
            None => level.main_plane().ok_or_else(no_plane)??,
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
        let tile_px = options.tile_px.unwrap_or(tile.0);
        if !(1..=256).contains(&tile_px) {
            return Err(RenderError::Scale { scale: tile_px });
        }
        let width = u64::from(cover.tiles_wide()) * u64::from(tile_px);
        let height = u64::from(cover.tiles_high()) * u64::from(tile_px);
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
        // The picture's geometry first: a layer wholly outside it is not kept.
        let mut scene = Scene {
            layers: Vec::new(),
            bands: Vec::new(),
            frames: HashMap::new(),
            by_file: HashMap::new(),
            images: Vec::new(),
            tile: (i64::from(tile.0), i64::from(tile.1)),
            tile_px,
            width,
            height,
            report: SceneReport::default(),
        };
        let mut layers = Vec::new();
        for (index, plane) in level.planes().enumerate() {
            if options.plane.is_some_and(|p| p != index) {
                continue;
            }
            let plane = plane?;
            if plane.flags().contains(PlaneFlags::NO_DRAW) && options.plane.is_none() {
                continue;
            }
            if let Some(layer) = plane_layer(&plane, &names, &mut loader) {
                layers.push((plane.z(), 0u8, layers.len(), Layer::Plane(layer)));
            }
            if options.no_objects {
                continue;
            }
            for object in plane.objects() {
                let object = object?;
                if object.image_set().is_empty() || object.draw_flags().contains(DrawFlags::NO_DRAW)
                {
                    continue;
                }
                let key = names.object_set(object.image_set());
                let frame = i64::from(object.raw().i.get());
                let folder = loader.set_folder(&key);
                let image = folder.and_then(|f| loader.frame(f, frame));
                let (x, y) = object.position();
                let (x, y) = (i64::from(x), i64::from(y));
                let sprite = match image.and_then(|i| loader.images.get(i).map(|im| (i, im))) {
                    Some((i, im)) => {
                        loader.report.objects_drawn += 1;
                        Sprite {
                            left: x - im.width / 2 + im.offset.0,
                            top: y - im.height / 2 + im.offset.1,
                            width: im.width,
                            height: im.height,
                            image: Some(i),
                            mirror: object.draw_flags().contains(DrawFlags::MIRROR),
                            invert: object.draw_flags().contains(DrawFlags::INVERT),
                        }
                    }
                    None => {
                        if loader.report.missing.len() < MAX_LISTED {
                            let name = cut(folder.map_or(key, |f| loader.index.path(f)));
                            loader.missing(format!("{name} frame {frame}"), 1);
                        } else {
                            loader.report.missing_images += 1;
                        }
                        Sprite {
                            left: x - MARKER_SIDE / 2,
                            top: y - MARKER_SIDE / 2,
                            width: MARKER_SIDE,
                            height: MARKER_SIDE,
                            image: None,
                            mirror: false,
                            invert: false,
                        }
                    }
                };
                // Counted, but kept only when some of it is in the picture.
                let sprite = Layer::Sprite(sprite);
                let (rows, columns) = scene.extent(&sprite);
                if !rows.is_empty() && !columns.is_empty() {
                    layers.push((object.z(), 1, layers.len(), sprite));
                }
            }
        }
        // Back to front by z; at equal z a plane first, then in level order.
        layers.sort_by_key(|(z, kind, order, _)| (*z, *kind, *order));
        scene.layers = layers.into_iter().map(|(_, _, _, l)| l).collect();
        scene.images = loader.images;
        scene.frames = loader.folders;
        scene.by_file = loader.by_file;
        scene.report = loader.report;
        scene.band(limits)?;
        Ok(scene)
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
                span(0, p.tiles.1 * p.tile.1, self.tile.1, p.wrap.1, h),
                span(0, p.tiles.0 * p.tile.0, self.tile.0, p.wrap.0, w),
            ),
            Layer::Sprite(s) => (
                span(s.top, s.height, self.tile.1, false, h),
                span(s.left, s.width, self.tile.0, false, w),
            ),
        }
    }

    /// Counts the pixels the layers draw (refused past `limits.max_overdraw` times the
    /// picture's) and lists in each band of [`BAND`] rows the layers that draw in it.
    fn band(&mut self, limits: &Limits) -> Result<()> {
        let pixels = u64::from(self.width) * u64::from(self.height);
        let mut drawn = 0u64;
        for layer in &self.layers {
            let (rows, columns) = self.extent(layer);
            let area = (rows.end - rows.start) as u64 * (columns.end - columns.start) as u64;
            drawn = drawn.saturating_add(area);
        }
        self.report.pixels_drawn = drawn;
        if drawn > pixels.saturating_mul(limits.max_overdraw) {
            return Err(RenderError::Overdraw {
                drawn,
                pixels,
                max: limits.max_overdraw,
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

    /// Output pixels a tile side.
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
        let mut image = RgbaImage::new(region.width, region.height, [0, 0, 0, 255])?;
        let row_bytes = (region.width as usize).saturating_mul(4).max(1);
        image
            .pixels
            .par_chunks_mut(row_bytes)
            .enumerate()
            .for_each(|(dy, row)| {
                let oy = i64::from(region.y) + dy as i64;
                self.draw_row(row, oy, i64::from(region.x));
            });
        Ok(image)
    }

    /// The game pixel output coordinate `o` shows along an axis of `tile` game pixels a
    /// tile.
    fn game(&self, o: i64, tile: i64) -> i64 {
        o * tile / i64::from(self.tile_px)
    }

    /// The first output coordinate showing game pixel `g` or later.
    fn output(&self, g: i64, tile: i64) -> i64 {
        let p = i64::from(self.tile_px);
        (g * p).div_euclid(tile) + i64::from((g * p).rem_euclid(tile) != 0)
    }

    /// Draws output row `oy` from column `ox0` into `row` (RGBA): the layers of its band,
    /// each over its own columns only.
    fn draw_row(&self, row: &mut [u8], oy: i64, ox0: i64) {
        let gy = self.game(oy, self.tile.1);
        let columns = (row.len() / 4) as i64;
        let band = self
            .bands
            .get(usize::try_from(oy / i64::from(BAND)).unwrap_or(usize::MAX))
            .map_or(&[][..], Vec::as_slice);
        if band.is_empty() {
            return;
        }
        // The game x of each output column, once a row.
        let gxs: Vec<i64> = (0..columns)
            .map(|dx| self.game(ox0 + dx, self.tile.0))
            .collect();
        for layer in band.iter().filter_map(|&i| self.layers.get(i as usize)) {
            match layer {
                Layer::Plane(plane) => {
                    let (_, span) = self.extent(layer);
                    let to_row = |x: i64| usize::try_from((x - ox0).clamp(0, columns)).unwrap_or(0);
                    let columns = to_row(span.start)..to_row(span.end);
                    self.draw_plane_row(plane, row, gy, &gxs, columns);
                }
                Layer::Sprite(sprite) => self.draw_sprite_row(sprite, row, gy, ox0, &gxs),
            }
        }
    }

    /// Draws the part of `sprite` in game row `gy` over output columns `ox0..` (`gxs`
    /// their game x).
    fn draw_sprite_row(&self, sprite: &Sprite, row: &mut [u8], gy: i64, ox0: i64, gxs: &[i64]) {
        if gy < sprite.top || gy >= sprite.top + sprite.height {
            return;
        }
        let columns = gxs.len() as i64;
        let first = (self.output(sprite.left, self.tile.0) - ox0).max(0);
        let end = (self.output(sprite.left + sprite.width, self.tile.0) - ox0).min(columns);
        if first >= end {
            return;
        }
        let iy = gy - sprite.top;
        let iy = if sprite.invert {
            sprite.height - 1 - iy
        } else {
            iy
        };
        let (Ok(first), Ok(end)) = (usize::try_from(first), usize::try_from(end)) else {
            return;
        };
        let pixels = row.chunks_exact_mut(4).zip(gxs).take(end).skip(first);
        let column = |gx: i64| {
            let ix = gx - sprite.left;
            if sprite.mirror {
                sprite.width - 1 - ix
            } else {
                ix
            }
        };
        match sprite.image.and_then(|i| self.images.get(i)) {
            Some(image) => {
                let (Ok(w), Ok(iy)) = (usize::try_from(image.width), usize::try_from(iy)) else {
                    return;
                };
                let Some(src) = image.rgba.get(iy * w..(iy + 1) * w) else {
                    return;
                };
                for (out, &gx) in pixels {
                    if let Some(c) = usize::try_from(column(gx)).ok().and_then(|ix| src.get(ix))
                        && c[3] != 0
                    {
                        out.copy_from_slice(c);
                    }
                }
            }
            None => {
                for (out, &gx) in pixels {
                    if let Some(c) = marker(column(gx), iy, sprite.width, sprite.height) {
                        out.copy_from_slice(&c);
                    }
                }
            }
        }
    }

    /// The image of tile `id` of `plane`'s tile set `set`, if found and decoded.
    fn tile_image(&self, plane: &PlaneLayer<'_>, set: u16, id: u16) -> Option<&Image> {
        let folder = (*plane.sets.get(usize::from(set))?)?;
        let at = self.frames.get(&folder)?.get(i64::from(id))?;
        let index = (*self.by_file.get(&(folder, at))?)?;
        self.images.get(index)
    }

    /// Draws the part of `plane` in game row `gy` over the output columns `columns` of the
    /// row (`gxs` their game x): only the columns the plane covers are visited.
    fn draw_plane_row(
        &self,
        plane: &PlaneLayer<'_>,
        row: &mut [u8],
        gy: i64,
        gxs: &[i64],
        columns: std::ops::Range<usize>,
    ) {
        let (pw, ph) = (plane.tiles.0 * plane.tile.0, plane.tiles.1 * plane.tile.1);
        if pw <= 0 || ph <= 0 {
            return;
        }
        let py = if plane.wrap.1 { gy.rem_euclid(ph) } else { gy };
        if py < 0 || py >= ph {
            return;
        }
        let (ty, iy) = (py / plane.tile.1, py % plane.tile.1);
        // What the last tile column draws: neighbouring pixels mostly share a tile.
        let mut last: Option<(i64, Source<'_>)> = None;
        let visited = gxs.iter().enumerate().take(columns.end).skip(columns.start);
        for (dx, &gx) in visited {
            let dx = dx as i64;
            let px = if plane.wrap.0 { gx.rem_euclid(pw) } else { gx };
            if px < 0 || px >= pw {
                continue;
            }
            let (tx, ix) = (px / plane.tile.0, px % plane.tile.0);
            let source = match last {
                Some((t, source)) if t == tx => source,
                _ => {
                    let value = usize::try_from(ty * plane.tiles.0 + tx)
                        .ok()
                        .and_then(|i| plane.cells.get(i));
                    let source = match value.map(|v| (v.get(), Tile::from_raw(v.get()))) {
                        None | Some((_, Tile::Invisible)) => Source::Nothing,
                        Some((_, Tile::Filled)) => Source::Fill,
                        Some((_, Tile::Image { set, id })) => {
                            match self.tile_image(plane, set, id) {
                                Some(image) => Source::Image(image),
                                None => Source::Marker,
                            }
                        }
                    };
                    last = Some((tx, source));
                    source
                }
            };
            let colour = match source {
                Source::Nothing => None,
                Source::Fill => Some(plane.fill),
                Source::Image(image) => image.pixel(ix, iy),
                Source::Marker => marker(ix, iy, plane.tile.0, plane.tile.1),
            };
            put(row, dx, colour);
        }
    }
}

/// What a tile draws.
#[derive(Clone, Copy)]
enum Source<'a> {
    Nothing,
    Fill,
    Image(&'a Image),
    Marker,
}

/// Writes an opaque `colour` at column `x` of `row`.
fn put(row: &mut [u8], x: i64, colour: Option<[u8; 4]>) {
    let Some(c) = colour.filter(|c| c[3] != 0) else {
        return;
    };
    let at = usize::try_from(x).unwrap_or(usize::MAX).saturating_mul(4);
    if let Some(p) = row.get_mut(at..at.saturating_add(4)) {
        p.copy_from_slice(&c);
    }
}

/// The marker of a missing image: a magenta frame two pixels wide with a cross.
fn marker(x: i64, y: i64, width: i64, height: i64) -> Option<[u8; 4]> {
    let edge = x < 2 || y < 2 || x >= width - 2 || y >= height - 2;
    let cross = (x * height - y * width).abs() < width.max(height)
        || (x * height + y * width - width * height).abs() < width.max(height);
    (edge || cross).then_some(MISSING)
}

/// A plane's layer: its cells and the image of each tile value it uses, found once; counts
/// its tiles drawn and missing. `None` for a plane whose tile size is not 1 to 1,024.
fn plane_layer<'l>(
    plane: &wap_core::Plane<'l>,
    names: &ImageNames,
    loader: &mut Loader<'_>,
) -> Option<PlaneLayer<'l>> {
    let (tw, th) = plane.tile_size();
    let tile = match (u32::try_from(tw), u32::try_from(th)) {
        (Ok(w @ 1..=1024), Ok(h @ 1..=1024)) => (i64::from(w), i64::from(h)),
        _ => return None,
    };
    // A plane of no tiles draws nothing (and has no size to wrap by).
    if plane.tiles_wide() == 0 || plane.tiles_high() == 0 {
        return None;
    }
    // Each tile set's folder, found once; its name for reports, cut.
    let mut sets = Vec::new();
    let mut set_names = Vec::new();
    for set in plane.image_sets() {
        let path = set.map(|s| names.tile_folder(s)).unwrap_or_default();
        sets.push(loader.folder(&path));
        set_names.push(cut(path));
    }
    // Each tile's image found (each image decoded once), counted; the first missing ones
    // listed, each value once.
    let cells = plane.tiles();
    let mut last: Option<(u32, bool)> = None;
    let mut listed: Vec<u32> = Vec::new();
    for value in cells.iter().map(|t| t.get()) {
        let found = match last {
            Some((v, found)) if v == value => found,
            _ => {
                let found = match Tile::from_raw(value) {
                    Tile::Invisible | Tile::Filled => true,
                    Tile::Image { set, id } => sets
                        .get(usize::from(set))
                        .copied()
                        .flatten()
                        .and_then(|f| loader.frame(f, i64::from(id)))
                        .is_some(),
                };
                last = Some((value, found));
                found
            }
        };
        match Tile::from_raw(value) {
            Tile::Invisible => {}
            Tile::Filled => loader.report.tiles_drawn += 1,
            Tile::Image { .. } if found => loader.report.tiles_drawn += 1,
            Tile::Image { set, id } => {
                if loader.report.missing.len() < MAX_LISTED && !listed.contains(&value) {
                    listed.push(value);
                    let name = set_names.get(usize::from(set)).map_or("", String::as_str);
                    loader.missing(format!("{name} frame {id}"), 1);
                } else {
                    loader.report.missing_images += 1;
                }
            }
        }
    }
    let fill = u8::try_from(plane.fill_color()).unwrap_or(0);
    let [r, g, b] = loader
        .palette
        .and_then(|p| p.get(usize::from(fill)).copied())
        .unwrap_or([fill; 3]);
    let flags = plane.flags();
    Some(PlaneLayer {
        tile,
        tiles: (i64::from(plane.tiles_wide()), i64::from(plane.tiles_high())),
        wrap: (
            flags.contains(PlaneFlags::WRAP_X),
            flags.contains(PlaneFlags::WRAP_Y),
        ),
        cells,
        fill: [r, g, b, 255],
        sets,
    })
}

/// `name` cut at [`MAX_NAME`] bytes (on a character's boundary), ending in `…` when cut.
fn cut(mut name: String) -> String {
    if name.len() > MAX_NAME {
        let mut at = MAX_NAME;
        while !name.is_char_boundary(at) {
            at -= 1;
        }
        name.truncate(at);
        name.push('…');
    }
    name
}

impl crate::tiles::TileSource for Scene<'_> {
    fn size(&self) -> (u32, u32) {
        (self.width, self.height)
    }

    fn draw(&self, region: Region) -> Result<RgbaImage> {
        self.rect(region)
    }
}
