//! Drawing Cosmo maps with `gamedata_render::cosmo`: tile graphics and the collision
//! attribute overlay, written as a PNG.

use std::path::Path;

use anyhow::{Context, Result};
pub(crate) use gamedata_render::cosmo::BACKGROUND;
use gamedata_render::cosmo::{draw_map, overlay_attributes};
use mni_core::{Episode, Map};
use serde::Serialize;

use crate::render::write_png;

pub(crate) use gamedata_render::cosmo::LEGEND;

/// What a Cosmo map render wrote (in `cosmo map --render --json`, under `render`).
#[derive(Serialize, Debug)]
pub(crate) struct DrawReport {
    pub(crate) output: String,
    pub(crate) bytes: u64,
    /// Pixels.
    pub(crate) width: u32,
    /// Pixels.
    pub(crate) height: u32,
    /// Cells drawn with a tile image.
    pub(crate) drawn: usize,
    /// Cells whose tile image is missing, left as background.
    pub(crate) missing: usize,
    /// Whether the attribute overlay was drawn.
    pub(crate) attributes: bool,
    pub(crate) elapsed_ms: f64,
}

impl DrawReport {
    /// The sentence that says what was written.
    pub(crate) fn sentence(&self) -> String {
        let missing = if self.missing > 0 {
            format!(", {} cells with no tile image left blank", self.missing)
        } else {
            String::new()
        };
        format!(
            "wrote {} ({} x {} pixels, {} tiles drawn{missing}{})",
            self.output,
            self.width,
            self.height,
            self.drawn,
            if self.attributes {
                ", attributes overlaid"
            } else {
                ""
            }
        )
    }
}

/// Renders `map` of `ep` to a PNG at `out` (never over one of `inputs`), with the attribute
/// overlay if asked; returns what was written.
pub(crate) fn render_png(
    ep: &Episode<'_>,
    map: &Map<'_>,
    (out, inputs): (&Path, &[&Path]),
    overlay: bool,
) -> Result<DrawReport> {
    let start = std::time::Instant::now();
    let images = ep
        .tile_images()
        .context("reading TILES.MNI and MASKTILE.MNI")?;
    let mut picture = draw_map(map, &images, BACKGROUND)?;
    if overlay {
        let attrs = ep.tile_attributes().context("reading TILEATTR.MNI")?;
        overlay_attributes(&mut picture.image, map, &attrs);
    }
    write_png(&picture.image, out, inputs)?;
    Ok(DrawReport {
        output: out.display().to_string(),
        bytes: crate::files::Written::of(out)?.bytes,
        width: picture.image.width(),
        height: picture.image.height(),
        drawn: picture.drawn,
        missing: picture.missing,
        attributes: overlay,
        elapsed_ms: crate::files::elapsed_ms(start),
    })
}
