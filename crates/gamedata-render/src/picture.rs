//! What the pictures share: a picture drawn any rectangle at a time ([`TileSource`]: a
//! radar map, a level's collision map, a level drawn with its graphics, a picture held
//! whole), written whole as a PNG in parallel stripes ([`crate::write_source_png`]) or cut into
//! web map tiles ([`crate::tiles::build_pyramid`]), and the one way drawing reports
//! progress ([`Progress`]).

use crate::{Region, RenderError, Result, RgbaImage};

/// How a drawing or writing function reports progress: called, from any thread, with the
/// number of rows (output rows of a picture) just finished; the calls add up to the
/// picture's height. `&|_| {}` when nothing is to be reported.
pub type Progress<'a> = &'a (dyn Fn(u32) + Sync);

/// What draws a full-size picture any rectangle at a time: what [`crate::write_source_png`]
/// writes and a tile pyramid ([`crate::tiles::build_pyramid`]) is cut from.
pub trait TileSource: Sync {
    /// The picture's width and height in pixels at the native zoom.
    fn size(&self) -> (u32, u32);

    /// The pixels of `region` (wholly inside the picture), `region.width` x
    /// `region.height`.
    fn draw(&self, region: Region) -> Result<RgbaImage>;

    /// Whether the source knows, without drawing, that `region` is wholly transparent: a
    /// pyramid neither draws nor writes such a tile. `false` (the default): draw it.
    fn is_empty(&self, region: Region) -> bool {
        let _ = region;
        false
    }

    /// Whether a pyramid writes a tile that comes out wholly transparent; `true` (the
    /// default). A source whose transparent tiles are nothing (outside a world) says
    /// `false`, and the pyramid leaves them out.
    fn writes_transparent(&self) -> bool {
        true
    }
}

/// A picture held whole (a Cosmo map is at most 8 MiB) is its own source.
impl TileSource for RgbaImage {
    fn size(&self) -> (u32, u32) {
        (self.width, self.height)
    }

    fn draw(&self, region: Region) -> Result<RgbaImage> {
        if !region.is_inside(self.width, self.height) {
            return Err(RenderError::RegionOutside {
                region,
                width: self.width,
                height: self.height,
            });
        }
        let mut part = RgbaImage::new(region.width, region.height, [0; 4])?;
        // The region is inside the picture, so these bytes are inside its rows.
        let x0 = (region.x as usize).saturating_mul(4);
        let end = x0.saturating_add((region.width as usize).saturating_mul(4));
        for y in 0..region.height {
            let from = self
                .row(region.y.saturating_add(y))
                .and_then(|row| row.get(x0..end));
            if let (Some(from), Some(to)) = (from, part.row_mut(y)) {
                to.copy_from_slice(from);
            }
        }
        Ok(part)
    }
}
