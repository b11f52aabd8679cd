//! One PID image as RGBA, as `gamedata rez pid` writes it: its pixels through a palette
//! (the one given, else its own), transparent where its mask says; a light map without a
//! palette as grey levels (`docs/formats/wap32.md`, "PID images").

use wap_core::{Palette, Pid, PidFlags};

use crate::{RenderError, Result, RgbaImage};
use gamedata_io::Limits;

/// Which palette a PID picture was drawn with.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PidPalette {
    /// The palette the caller gave.
    Given,
    /// The image's own.
    Embedded,
    /// None: a light map's indices as grey levels.
    Grey,
}

impl PidPalette {
    /// `given`, `embedded` or `grey`, as `rez pid --json` says it.
    pub fn name(self) -> &'static str {
        match self {
            PidPalette::Given => "given",
            PidPalette::Embedded => "embedded",
            PidPalette::Grey => "grey",
        }
    }
}

/// `image` as RGBA with `palette` when given, else its own palette, else (a light map,
/// flag [`PidFlags::LIGHTS`]) grey levels; `Ok(None)` for an image without a palette of its
/// own that is no light map, when none is given. Also the count of transparent pixels.
///
/// Returns `Err` ([`RenderError`] from the image's decoding, or a limit error) when the
/// indices, mask and RGBA (6 bytes a pixel together) pass `limits.max_decoded_bytes`,
/// checked first, or the image's runs cannot be decoded.
pub fn pid_picture(
    image: &Pid<'_>,
    palette: Option<&Palette<'_>>,
    limits: &Limits,
) -> Result<Option<(RgbaImage, PidPalette, u64)>> {
    limits
        .check_decoded("a PID image as RGBA", image.pixel_count().saturating_mul(6))
        .map_err(|e| RenderError::Level(e.into()))?;
    let pixels = image.decode(limits)?;
    let transparent = pixels.opaque.iter().filter(|&&o| !o).count() as u64;
    let (rgba, kind) = match (palette, image.palette()) {
        (Some(given), _) => (pixels.rgba(given), PidPalette::Given),
        (None, Some(own)) => (pixels.rgba(&own), PidPalette::Embedded),
        (None, None) if image.flags().contains(PidFlags::LIGHTS) => {
            let grey = pixels
                .indices
                .iter()
                .zip(&pixels.opaque)
                .flat_map(|(&i, &o)| if o { [i, i, i, 255] } else { [0; 4] })
                .collect();
            (grey, PidPalette::Grey)
        }
        (None, None) => return Ok(None),
    };
    let picture = RgbaImage::from_pixels(image.width(), image.height(), rgba).ok_or(
        RenderError::TooLarge {
            width: u64::from(image.width()),
            height: u64::from(image.height()),
            max: crate::MAX_PIXELS,
        },
    )?;
    Ok(Some((picture, kind, transparent)))
}
