//! PNG output of the library's pictures (`gamedata_render::RgbaImage`).

use std::path::Path;

use anyhow::Result;
use gamedata_render::RgbaImage;

/// Writes `image` as an 8-bit RGBA PNG to `path`, whole or not at all, never over one of
/// `inputs` ([`crate::files::write_file`]).
pub(crate) fn write_png(image: &RgbaImage, path: &Path, inputs: &[&Path]) -> Result<()> {
    crate::files::write_file(path, inputs, |w| Ok(image.write_png(w)?))
}
