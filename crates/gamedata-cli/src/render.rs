//! PNG output and the collision attribute overlay.

use std::io::BufWriter;
use std::path::Path;

use mni_core::{Map, RgbaImage, TileAttrTable, TileAttributes};

use crate::CliResult;

/// The overlay legend, shown by `gamedata cosmo map --help`.
pub(crate) const LEGEND: &str = "\
Attribute overlay (--attributes), drawn translucent over each 8x8 tile:
  red fill            blocks movement in all four directions (solid)
  yellow edge bar     blocks movement from one side: a bar on the top edge means the tile
                      can be stood on (block south), bottom edge = head hits it (block
                      north), left edge = blocks eastward movement, right edge = blocks
                      westward movement
  cyan hatching       slippery
  magenta side lines  clingable with the suction hands
  green diagonal      sloped (auto-ascend)";

const SOLID: [u8; 3] = [255, 40, 40];
const EDGE: [u8; 3] = [255, 230, 0];
const SLIPPERY: [u8; 3] = [0, 255, 255];
const CLINGABLE: [u8; 3] = [255, 0, 255];
const SLOPED: [u8; 3] = [0, 255, 0];

/// Writes `image` as an 8-bit RGBA PNG.
pub(crate) fn write_png(path: &Path, image: &RgbaImage) -> CliResult {
    let file = std::fs::File::create(path)
        .map_err(|e| format!("cannot create {}: {e}", path.display()))?;
    let mut encoder = png::Encoder::new(BufWriter::new(file), image.width, image.height);
    encoder.set_color(png::ColorType::Rgba);
    encoder.set_depth(png::BitDepth::Eight);
    let mut writer = encoder.write_header()?;
    writer.write_image_data(&image.pixels)?;
    writer.finish()?;
    Ok(())
}

/// Blends `colour` at opacity `alpha` / 256 (`alpha` at most 256) into pixel (`x`, `y`).
fn blend(image: &mut RgbaImage, x: u32, y: u32, colour: [u8; 3], alpha: u16) {
    let Some(under) = image.get(x, y) else {
        return;
    };
    let alpha = alpha.min(256);
    let mix = |src: u8, dst: u8| {
        let v = (u16::from(src) * alpha + u16::from(dst) * (256 - alpha)) / 256;
        u8::try_from(v).unwrap_or(u8::MAX)
    };
    image.set(
        x,
        y,
        [
            mix(colour[0], under[0]),
            mix(colour[1], under[1]),
            mix(colour[2], under[2]),
            255,
        ],
    );
}

/// Draws the collision attributes of every cell of `map` over its render (see [`LEGEND`]).
pub(crate) fn overlay_attributes(image: &mut RgbaImage, map: &Map<'_>, attrs: &TileAttrTable<'_>) {
    for y in 0..map.height() {
        for x in 0..map.width() {
            if let Some(a) = map.attributes(x, y, attrs) {
                overlay_cell(image, u32::from(x) * 8, u32::from(y) * 8, a);
            }
        }
    }
}

fn overlay_cell(image: &mut RgbaImage, x0: u32, y0: u32, a: TileAttributes) {
    for dy in 0..8 {
        for dx in 0..8 {
            let (x, y) = (x0 + dx, y0 + dy);
            if a.movement() == TileAttributes::MOVEMENT {
                blend(image, x, y, SOLID, 102);
            } else {
                let edge = (a.block_south() && dy < 2)
                    || (a.block_north() && dy >= 6)
                    || (a.block_east() && dx < 2)
                    || (a.block_west() && dx >= 6);
                if edge {
                    blend(image, x, y, EDGE, 218);
                }
            }
            if a.slippery() && (dx + dy) % 4 == 0 {
                blend(image, x, y, SLIPPERY, 179);
            }
            if a.clingable() && (dx == 0 || dx == 7) {
                blend(image, x, y, CLINGABLE, 205);
            }
            if a.sloped() && dx + dy == 7 {
                blend(image, x, y, SLOPED, 205);
            }
        }
    }
}
