//! The images a level's tiles and objects draw, found, decoded and placed exactly as a
//! [`Scene`](super::Scene) finds, decodes and places them, for programs that draw the level
//! themselves (an export to a map editor's format): the same index, palette, frame
//! candidates, budget of decoded bytes and object placement (`docs/formats/wap32.md`,
//! "Levels").

use wap_core::{ImageNames, ImageSource, Level, Limits, Object, Plane};

use super::load::Loader;
use super::{PlaneLayer, SceneReport};
use crate::{RenderError, Result};

/// A level's images, each decoded once, for tiles and objects asked one at a time.
pub struct LevelImages<'a> {
    loader: Loader<'a>,
    names: ImageNames,
}

impl std::fmt::Debug for LevelImages<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("LevelImages")
            .field("images", &self.loader.images.len())
            .field("report", &self.loader.report)
            .finish()
    }
}

/// A plane's tile sets as found in the source, and its fill colour.
#[derive(Clone, Debug)]
pub struct PlaneImages {
    sets: Vec<Option<wap_core::FolderId>>,
    fill: [u8; 4],
}

impl PlaneImages {
    /// The colour tiles 0xEEEEEEEE draw: the plane's fill colour (a palette index) in the
    /// level's palette, else as a grey level; opaque RGBA.
    pub fn fill(&self) -> [u8; 4] {
        self.fill
    }
}

/// A decoded image: `width` x `height` pixels, RGBA rows top to bottom, each pixel's alpha
/// 0 (not drawn) or 255.
#[derive(Clone, Copy, Debug)]
pub struct ImageView<'i> {
    /// Width in pixels.
    pub width: u32,
    /// Height in pixels.
    pub height: u32,
    /// `width * height` pixels.
    pub rgba: &'i [[u8; 4]],
}

/// Where the engine draws an object's image, in its plane's pixels.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Placement {
    /// The image ([`LevelImages::image`]).
    pub image: usize,
    /// The image's top-left corner: the position less half the image's size (rounded
    /// down), moved by the image's offset (negated along a flipped axis).
    pub left: i64,
    /// See `left`.
    pub top: i64,
    /// Drawn mirrored left to right (draw flag 0x2).
    pub mirror: bool,
    /// Drawn upside down (draw flag 0x4).
    pub invert: bool,
}

impl<'a> LevelImages<'a> {
    /// Prepares to find `level`'s images in `source`, with the level's palette when the
    /// source holds it (as [`Scene::new`](super::Scene::new)), decoding within
    /// `limits.max_decoded_bytes` in all (past it images count as missing).
    ///
    /// Returns [`RenderError::Images`] when the source cannot be indexed.
    pub fn new(level: &Level<'_>, source: &'a ImageSource, limits: &Limits) -> Result<Self> {
        let names = ImageNames::of(&level.header());
        let palette = super::level_palette(source, &names);
        let index = source
            .index(&wap_core::RezOptions::default().with_limits(*limits))
            .map_err(RenderError::Images)?;
        let mut loader = Loader::new(index, palette, limits);
        loader.report.palette = palette.is_some().then(|| names.palette.clone());
        Ok(LevelImages { loader, names })
    }

    /// `plane`'s tile sets and fill colour, every image its tiles use found and decoded
    /// (counted in the report as a scene counts them); `None` for a plane whose tile size
    /// is not 1 to 1,024 pixels or that has no tiles (a scene draws nothing of it).
    pub fn plane(&mut self, plane: &Plane<'_>) -> Option<PlaneImages> {
        let layer: PlaneLayer<'_> = self.loader.plane_layer(plane, &self.names, (0, 0))?;
        Some(PlaneImages {
            sets: layer.sets,
            fill: layer.fill,
        })
    }

    /// The image tile `id` of tile set `set` (its index in the plane's list) draws at its
    /// cell's top-left corner, clipped to the cell; `None` when it is missing.
    pub fn tile(&self, plane: &PlaneImages, set: u16, id: u16) -> Option<usize> {
        let folder = (*plane.sets.get(usize::from(set))?)?;
        *self.loader.resolved.get(&(folder, i64::from(id)))?
    }

    /// Where `object`, of a plane `plane_size` pixels wide and high, draws its image, as
    /// the engine creates and places it (counted in the report); `None` for an object the
    /// engine does not create or draw (outside its plane, without a logic, hidden, without
    /// an image set) or whose image is missing.
    pub fn object(&mut self, object: &Object<'_>, plane_size: (i64, i64)) -> Option<Placement> {
        let sprite = self
            .loader
            .sprite(object, &self.names, plane_size, (0, 0), false)?;
        Some(Placement {
            image: sprite.image?,
            left: sprite.left,
            top: sprite.top,
            mirror: sprite.mirror,
            invert: sprite.invert,
        })
    }

    /// Image `index`, or `None` past the images decoded.
    pub fn image(&self, index: usize) -> Option<ImageView<'_>> {
        let image = self.loader.images.get(index)?;
        Some(ImageView {
            width: u32::try_from(image.width).ok()?,
            height: u32::try_from(image.height).ok()?,
            rgba: &image.rgba,
        })
    }

    /// The level's image-set names (the header's prefixes and folders).
    pub fn names(&self) -> &ImageNames {
        &self.names
    }

    /// What was found and missing so far (`objects_drawn`, `tiles_drawn`,
    /// `missing_images`, `missing`, `palette`; `pixels_drawn` stays 0).
    pub fn report(&self) -> &SceneReport {
        &self.loader.report
    }
}
