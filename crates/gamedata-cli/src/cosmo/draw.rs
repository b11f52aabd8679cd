//! Drawing Cosmo maps with `gamedata_render::cosmo`: tile graphics and the collision
//! attribute overlay, written as a PNG.

use std::path::Path;

use anyhow::{Context, Result};
use gamedata_render::cosmo::{BACKGROUND, draw_map, overlay_attributes};
use mni_core::{Episode, Map};

use crate::render::write_png;

pub(crate) use gamedata_render::cosmo::LEGEND;

/// Renders `map` of `ep` to a PNG at `out` (never over one of `inputs`), with the attribute
/// overlay if asked; returns the sentence that says what was written.
pub(crate) fn render_png(
    ep: &Episode<'_>,
    map: &Map<'_>,
    (out, inputs): (&Path, &[&Path]),
    overlay: bool,
) -> Result<String> {
    let images = ep
        .tile_images()
        .context("reading TILES.MNI and MASKTILE.MNI")?;
    let mut picture = draw_map(map, &images, BACKGROUND)?;
    if overlay {
        let attrs = ep.tile_attributes().context("reading TILEATTR.MNI")?;
        overlay_attributes(&mut picture.image, map, &attrs);
    }
    write_png(&picture.image, out, inputs)?;
    let missing = if picture.missing > 0 {
        format!(", {} cells with no tile image left blank", picture.missing)
    } else {
        String::new()
    };
    Ok(format!(
        "wrote {} ({} x {} pixels, {} tiles drawn{missing}{})",
        out.display(),
        picture.image.width(),
        picture.image.height(),
        picture.drawn,
        if overlay { ", attributes overlaid" } else { "" }
    ))
}
