//! PNG output of the library's pictures (`gamedata_render::RgbaImage`).

use std::path::Path;
use std::sync::OnceLock;

use anyhow::Result;
use gamedata_render::{PngCompression, PngOptions, PngPixels, RgbaImage};

/// `--compression`: how hard written PNG pictures are compressed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub(crate) enum Compression {
    /// zlib-rs level 2 (`gamedata_render::PngCompression::Fast`).
    Fast,
    /// Level 6.
    Default,
    /// Level 9.
    Best,
}

/// The command's `--compression`, set once as it starts.
static COMPRESSION: OnceLock<PngCompression> = OnceLock::new();

/// Sets the compression of every PNG the command writes (once; later calls change nothing).
pub(crate) fn set_compression(c: Compression) {
    let level = match c {
        Compression::Fast => PngCompression::Fast,
        Compression::Default => PngCompression::Default,
        Compression::Best => PngCompression::Best,
    };
    let _ = COMPRESSION.set(level);
}

/// The compression of the PNG pictures the command writes (`--compression`; fast when
/// not set).
pub(crate) fn compression() -> PngCompression {
    COMPRESSION.get().copied().unwrap_or_default()
}

/// The PNG options of the pictures the command writes: 8-bit RGBA, rows filtered `Up`,
/// compressed as `--compression` says.
pub(crate) fn png_options() -> PngOptions {
    PngOptions::default().with_compression(compression())
}

/// Writes `image` as an 8-bit RGBA PNG to `path`, whole or not at all, never over one of
/// `inputs` ([`crate::files::write_file`]), compressed as `--compression` says.
pub(crate) fn write_png(image: &RgbaImage, path: &Path, inputs: &[&Path]) -> Result<()> {
    crate::files::write_file(path, inputs, |w| {
        Ok(gamedata_render::write_png(
            w,
            PngPixels::Image(image),
            &png_options(),
        )?)
    })
}
