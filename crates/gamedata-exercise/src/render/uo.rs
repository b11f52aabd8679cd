//! The radar map's exercise: `uo_radar`.

#![allow(clippy::arithmetic_side_effects, clippy::panic)]

use super::{check_pyramid, decode_png};
use std::sync::atomic::{AtomicU64, Ordering};

use crate::io::split_parts;
use mul_core::{Facet, FacetBytes, Hues, MapSize, RadarColours, TileData, rgb555_to_rgb8};

use gamedata_render::uo::client::{client_draws, client_rgb, relief};
use gamedata_render::uo::{RadarOptions, RadarStyle, radar, radar_with_progress, write_radar_png};
use gamedata_render::{PngCompression, Region, RenderError, RgbaImage};

/// A small facet and its radar map: seven files (a control file, map, staidx, statics,
/// radarcol, a window of tiledata's item records and hues). The control bytes give the
/// facet's size in blocks (1 to 16 a side), the scale (1 to 8), a region (x, y, width and
/// height, each 1 byte), hillshading (the eighth byte odd), the style (the ninth byte: flat,
/// client, altitude, or client without hues, which must be refused) and where the window
/// lies (the tenth and eleventh bytes, little-endian: the group of 32 items it starts at)
/// in an otherwise zeroed High Seas tiledata; hues.mul is cut to whole groups. Checked: a
/// region not wholly inside is refused and its clipped part drawn instead; at scale 1
/// every pixel is the colour of its tile, found tile by tile through `Facet::statics_at`
/// (in the flat style the highest static at or above the land's z less 1, the later of
/// equals, else the land, shaded against its north-west neighbour's height when asked; in
/// the client style the client's rule with its relief against the south-west neighbour; in
/// the altitude style the client's height as grey; black where the map block is
/// unreadable); at the scale, every pixel is the scale-1 picture averaged over the tiles
/// it covers; the progress calls add up to the width; the PNG written in stripes decodes
/// to the same pixels; the picture's web map pyramid holds them.
pub fn uo_radar(data: &[u8]) -> u64 {
    let [control, map, staidx, statics, radarcol, items, hues] = split_parts::<7, 4>(data);
    let c = |i: usize| u32::from(control.get(i).copied().unwrap_or(0));
    let Ok(size) = MapSize::from_blocks(c(0) % 16 + 1, c(1) % 16 + 1) else {
        panic!("sizes of 1 to 16 blocks a side are valid");
    };
    let mut facet = match Facet::parse(
        FacetBytes {
            map,
            staidx,
            statics,
        },
        size,
        None,
    ) {
        Ok(facet) => facet,
        Err(e) => return e.to_string().len() as u64,
    };
    let colours = match RadarColours::parse(radarcol) {
        Ok(colours) => colours,
        Err(e) => return e.to_string().len() as u64,
    };
    let style = match c(8) % 4 {
        0 => RadarStyle::Flat,
        2 => RadarStyle::Altitude,
        _ => RadarStyle::Client,
    };
    let hues = hues.get(..hues.len() / 708 * 708).unwrap_or_default();
    facet.hues = (c(8) % 4 != 3).then(|| Hues::parse(hues).ok()).flatten();
    let asked = Region::new(c(3), c(4), c(5) + 1, c(6) + 1);
    let group = (c(9) | c(10) << 8) as usize % 2048;
    with_tiledata(items, group, |tiledata| {
        let facet = Facet {
            tiledata: Some(tiledata),
            ..facet
        };
        if c(8) % 4 == 3 {
            let options = RadarOptions {
                style,
                ..RadarOptions::default()
            };
            match radar(&facet, &colours, &options) {
                Err(RenderError::MissingTable { table, style }) => {
                    assert_eq!((table.file_name(), style), ("hues.mul", "client"));
                    return 1;
                }
                other => panic!("the client style without hues gave {other:?}"),
            }
        }
        check_radar(
            &facet,
            &colours,
            asked,
            c(2) % 8 + 1,
            (c(7) % 2 == 1, style),
        )
    })
}

/// Runs `f` with a High Seas tiledata.mul (zeroed, 3,188,736 bytes, kept a thread) whose
/// item records from group `group` on are `items`' bytes (cut at the file's end).
fn with_tiledata<R>(items: &[u8], group: usize, f: impl FnOnce(TileData<'_>) -> R) -> R {
    use std::cell::RefCell;
    // The High Seas layout: 512 land groups of 4 + 32 x 30 bytes, then 2,048 item groups
    // of 4 + 32 x 41 bytes.
    const ITEMS_AT: usize = 512 * (4 + 32 * 30);
    const LEN: usize = ITEMS_AT + 2048 * (4 + 32 * 41);
    thread_local! {
        static TILEDATA: RefCell<Vec<u8>> = RefCell::new(vec![0; LEN]);
    }
    TILEDATA.with(|cell| {
        let mut buf = cell.borrow_mut();
        let start = ITEMS_AT + group * (4 + 32 * 41);
        let window = buf.get_mut(start..).unwrap_or_default();
        let n = items.len().min(window.len());
        for (b, i) in window.iter_mut().zip(items) {
            *b = *i;
        }
        let result = match TileData::parse(&buf) {
            Ok(tiledata) => f(tiledata),
            Err(e) => panic!("a zeroed High Seas tiledata does not parse: {e}"),
        };
        buf.iter_mut().skip(start).take(n).for_each(|b| *b = 0);
        result
    })
}

/// The radar map of `asked` at `scale` (1 to 256), hillshaded or not, in a style, with its
/// properties, as [`uo_radar`] checks them: a region not wholly inside is refused and its
/// clipped part drawn instead; at scale 1 every pixel is its tile's colour, found tile by
/// tile; at `scale` every pixel is the scale-1 picture averaged; the progress calls add up
/// to the width; the PNG in stripes decodes to the same pixels; the pyramid holds them.
/// Returns a sum of what was drawn (more than the scaled picture's bytes).
///
/// # Panics
///
/// When a property does not hold, or the style needs a table `facet` lacks.
pub fn check_radar(
    facet: &Facet<'_>,
    colours: &RadarColours<'_>,
    asked: Region,
    scale: u32,
    (hillshade, style): (bool, RadarStyle),
) -> u64 {
    let (w, h) = (facet.size().width(), facet.size().height());
    let options = |region, scale| RadarOptions {
        scale,
        region: Some(region),
        hillshade,
        style,
    };
    let mut acc = 0u64;
    if !asked.is_inside(w, h) {
        match radar(facet, colours, &options(asked, 1)) {
            Err(RenderError::RegionOutside { region, .. }) => assert_eq!(region, asked),
            other => panic!("{asked} outside {w} x {h} gave {other:?}"),
        }
        acc += 1;
    }
    let Some(region) = asked.clip(w, h) else {
        return acc;
    };
    let full = match radar(facet, colours, &options(region, 1)) {
        Ok(full) => full,
        Err(e) => panic!("a {region} region of a {w} x {h} facet gave {e}"),
    };
    assert_eq!((full.width(), full.height()), (region.width, region.height));
    for y in 0..region.height {
        for x in 0..region.width {
            let (tx, ty) = (region.x + x, region.y + y);
            let [r, g, b] = match style {
                RadarStyle::Flat => flat_pixel(facet, colours, tx, ty, hillshade),
                _ => client_pixel(facet, colours, tx, ty, style),
            };
            assert_eq!(
                full.get(x, y),
                Some([r, g, b, 255]),
                "tile {x},{y} of {region}"
            );
        }
    }
    let done = AtomicU64::new(0);
    let progress = |n: u32| {
        done.fetch_add(u64::from(n), Ordering::Relaxed);
    };
    let scaled = match radar_with_progress(facet, colours, &options(region, scale), &progress) {
        Ok(scaled) => scaled,
        Err(e) => panic!("a {region} region at scale {scale} gave {e}"),
    };
    assert_eq!(done.load(Ordering::Relaxed), u64::from(scaled.height()));
    assert_eq!(
        (scaled.width(), scaled.height()),
        (region.width.div_ceil(scale), region.height.div_ceil(scale))
    );
    for oy in 0..scaled.height() {
        for ox in 0..scaled.width() {
            let [r, g, b] = averaged(&full, ox * scale, oy * scale, scale);
            assert_eq!(scaled.get(ox, oy), Some([r, g, b, 255]), "pixel {ox},{oy}");
        }
    }
    // Written as a PNG in stripes, it decodes to the same pixels.
    let mut png = Vec::new();
    match write_radar_png(
        facet,
        colours,
        &options(region, scale),
        PngCompression::Fast,
        &mut png,
        &|_| {},
    ) {
        Ok(size) => assert_eq!(size, (scaled.width(), scaled.height())),
        Err(e) => panic!("the PNG of a {region} region at scale {scale}: {e}"),
    }
    assert_eq!(decode_png(&png).as_ref(), Some(&scaled));
    acc = acc.wrapping_add(png.len() as u64);
    acc = acc.wrapping_add(check_pyramid(&scaled));
    acc.wrapping_add(scaled.pixels().iter().map(|&p| u64::from(p)).sum::<u64>())
}

/// Tile (`x`, `y`)'s pixel in the `Flat` style, shaded against its north-west
/// neighbour when `hillshade`, found for that tile alone.
fn flat_pixel(
    facet: &Facet<'_>,
    colours: &RadarColours<'_>,
    x: u32,
    y: u32,
    hillshade: bool,
) -> [u8; 3] {
    let colour = tile_colour(facet, colours, x, y);
    let north_west = x.checked_sub(1).zip(y.checked_sub(1));
    let nw = north_west.and_then(|(nx, ny)| tile_height(facet, nx, ny));
    match (tile_height(facet, x, y), nw) {
        (Some(h), Some(n)) if hillshade => gamedata_render::uo::shade(colour, h - n),
        _ => colour,
    }
}

/// Tile (`x`, `y`)'s pixel in the `Client` or `Altitude` style, found for that tile
/// alone: its client colour and height, with the relief against its south-west
/// neighbour's height off the map's border.
fn client_pixel(
    facet: &Facet<'_>,
    colours: &RadarColours<'_>,
    x: u32,
    y: u32,
    style: RadarStyle,
) -> [u8; 3] {
    let Some((colour, z0)) = client_tile(facet, colours, x, y) else {
        return [0; 3];
    };
    if style == RadarStyle::Altitude {
        return [z0.cast_unsigned() ^ 0x80; 3];
    }
    let rgb = client_rgb(colour);
    let (w, h) = (facet.size().width(), facet.size().height());
    if x == 0 || y == 0 || x + 1 >= w || y + 1 >= h {
        return rgb;
    }
    match client_tile(facet, colours, x - 1, y + 1) {
        Some((_, z1)) => relief(rgb, z0, z1),
        None => rgb,
    }
}

/// Tile (`x`, `y`)'s RGB555 colour and height under the client's rule, found for that tile
/// alone through `Facet::statics_at`; `None` when its map block cannot be read.
fn client_tile(facet: &Facet<'_>, colours: &RadarColours<'_>, x: u32, y: u32) -> Option<(u16, i8)> {
    let cell = facet.map.cell(x, y)?;
    let Some(tiledata) = facet.tiledata else {
        panic!("the client styles need tiledata");
    };
    let mut colour = colours.land(cell.id.get() & 0x3FFF).unwrap_or(0);
    let mut z = cell.z;
    for s in facet.statics_at(x, y).ok().into_iter().flatten() {
        let id = s.id.get();
        if id == 0 || id == 0xFFFF || !client_draws(&tiledata, id) || s.z < z {
            continue;
        }
        z = s.z;
        colour = match (s.hue.get(), facet.hues) {
            (0, _) | (_, None) => colours.item(id).unwrap_or(0),
            (hue, Some(hues)) => {
                // Entry 16 of hue `hue - 1` (groups of 8) when there is one, else 0x4000.
                let n = usize::from(hue);
                let group = hues.groups().get((n - 1) / 8).filter(|_| n < hues.len());
                let entry = group.and_then(|g| g.entries.get((n - 1) % 8));
                entry.map_or(0x4000, |e| e.colours[16].get())
            }
        };
    }
    Some((colour, z))
}

/// The radar colour of tile (`x`, `y`), found for that tile alone.
fn tile_colour(facet: &Facet<'_>, colours: &RadarColours<'_>, x: u32, y: u32) -> [u8; 3] {
    let Some(cell) = facet.map.cell(x, y) else {
        return [0; 3];
    };
    let land_z = i16::from(cell.z) - 1;
    let top = facet.statics_at(x, y).ok().and_then(|statics| {
        statics
            .filter(|s| i16::from(s.z) >= land_z)
            .max_by_key(|s| s.z)
    });
    let colour = match top {
        Some(s) => colours.item(s.id.get()),
        None => colours.land(cell.id.get()),
    };
    rgb555_to_rgb8(colour.unwrap_or(0))
}

/// The height of tile (`x`, `y`) for hillshading, found for that tile alone: the z of the
/// static that shows (the highest at or above the land's z less 1), else the land's.
fn tile_height(facet: &Facet<'_>, x: u32, y: u32) -> Option<i16> {
    let cell = facet.map.cell(x, y)?;
    let land_z = i16::from(cell.z);
    let shown = facet
        .statics_at(x, y)
        .ok()
        .into_iter()
        .flatten()
        .filter(|s| i16::from(s.z) >= land_z - 1)
        .map(|s| i16::from(s.z))
        .max();
    Some(shown.unwrap_or(land_z))
}

/// The average of the up to `scale` x `scale` pixels of `full` from (`x0`, `y0`), rounded
/// down a channel at a time.
fn averaged(full: &RgbaImage, x0: u32, y0: u32, scale: u32) -> [u8; 3] {
    let (mut sum, mut n) = ([0u32; 3], 0u32);
    for y in y0..(y0 + scale).min(full.height()) {
        for x in x0..(x0 + scale).min(full.width()) {
            if let Some([r, g, b, _]) = full.get(x, y) {
                for (s, v) in sum.iter_mut().zip([r, g, b]) {
                    *s += u32::from(v);
                }
                n += 1;
            }
        }
    }
    sum.map(|s| u8::try_from(s / n.max(1)).unwrap_or(u8::MAX))
}
