//! A facet's isometric plane as a [`TileSource`]: the web map pyramid of the world view,
//! at the native zoom (a pixel a screen pixel) or from a base scale of 2, 4 or 8 below it.

// Pixel arithmetic on i64 from u32 regions times a scale of at most 8: far from overflow.
#![allow(clippy::arithmetic_side_effects)]

use super::scene::{Window, reaches};
use super::{WorldSource, WorldView};
use crate::picture::TileSource;
use crate::{Region, RenderError, Result, RgbaImage};

/// The base scales a world pyramid may start from: screen pixels a pyramid pixel along
/// each side.
pub const BASE_SCALES: [u32; 4] = [1, 2, 4, 8];

/// The whole facet's isometric plane ([`WorldSource::frame`] of the whole facet) as a
/// tile source at `1 / scale` of the screen's pixels: each pixel the average of `scale` x
/// `scale` screen pixels made by halving as the pyramid's own levels are (the colour over
/// the opaque pixels, the alpha over all), so that a pyramid from base scale 2^k holds the
/// same tiles as the native one's levels k below it. Tiles that no block can reach are
/// empty: neither drawn nor written, nor those drawn wholly transparent.
pub struct WorldTiles<'s, 'a, 'data> {
    source: &'s WorldSource<'a, 'data>,
    frame: WorldView,
    scale: u32,
}

impl std::fmt::Debug for WorldTiles<'_, '_, '_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("WorldTiles")
            .field("frame", &self.frame)
            .field("scale", &self.scale)
            .finish_non_exhaustive()
    }
}

impl<'s, 'a, 'data> WorldTiles<'s, 'a, 'data> {
    /// The pyramid source of `source`'s whole facet at `scale` (one of [`BASE_SCALES`]).
    ///
    /// Returns [`RenderError::Scale`] for another scale.
    pub fn new(source: &'s WorldSource<'a, 'data>, scale: u32) -> Result<Self> {
        if !BASE_SCALES.contains(&scale) {
            return Err(RenderError::Scale { scale });
        }
        let frame = source.frame(None)?;
        Ok(WorldTiles {
            source,
            frame,
            scale,
        })
    }

    /// The screen pixels the whole picture covers (its pixel (0, 0) is the frame's
    /// top-left, `scale` screen pixels a side each).
    pub fn frame(&self) -> WorldView {
        self.frame
    }

    /// The screen window of `region` of the picture.
    fn window(&self, region: Region) -> Window {
        let k = i64::from(self.scale);
        let x0 = self.frame.x + i64::from(region.x) * k;
        let y0 = self.frame.y + i64::from(region.y) * k;
        Window {
            x0,
            y0,
            x1: x0 + i64::from(region.width) * k,
            y1: y0 + i64::from(region.height) * k,
        }
    }
}

impl TileSource for WorldTiles<'_, '_, '_> {
    fn size(&self) -> (u32, u32) {
        (
            self.frame.width.div_ceil(self.scale),
            self.frame.height.div_ceil(self.scale),
        )
    }

    fn draw(&self, region: Region) -> Result<RgbaImage> {
        let window = self.window(region);
        let view = WorldView {
            x: window.x0,
            y: window.y0,
            width: region.width.saturating_mul(self.scale),
            height: region.height.saturating_mul(self.scale),
        };
        let (mut image, _) = self.source.render(view)?;
        let mut k = self.scale;
        while k > 1 {
            image = crate::tiles::halve(&image)?;
            k /= 2;
        }
        Ok(image)
    }

    fn is_empty(&self, region: Region) -> bool {
        !reaches(
            self.source.facet,
            &self.source.lookups,
            &self.window(region),
        )
    }

    fn writes_transparent(&self) -> bool {
        false
    }
}
