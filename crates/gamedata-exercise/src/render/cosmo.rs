//! The Cosmo renderers' exercises: `cosmo_draw` and `cosmo_level`.

#![allow(clippy::arithmetic_side_effects, clippy::panic)]

use crate::io::split_parts;
use mni_core::{
    ActorDraw, ActorKind, ActorSprite, ActorSprites, Backdrop, Map, MaskedTiles, SolidTiles,
    TileAttrTable, TileImages,
};

use gamedata_render::{RgbaImage, cosmo};

/// A Cosmo map drawn with its tiles: four files (the map, TILES.MNI, MASKTILE.MNI,
/// TILEATTR.MNI). Checked: the picture is the map's cells times 8 pixels; drawn and
/// missing cells are the map's drawn cells; the first 64 cells drawn show their tile's
/// pixels over the background; with TILEATTR.MNI overlaid, the first 64 cells with no
/// attribute are unchanged and the picture keeps its size.
pub fn cosmo_draw(data: &[u8]) -> u64 {
    let [map, solid, masked, attrs] = split_parts::<4, 4>(data);
    match map_and_images(map, solid, masked) {
        Ok((map, images)) => check_draw(&map, &images, TileAttrTable::parse(attrs).ok().as_ref()),
        Err(result) => result,
    }
}

/// A map and its tile images parsed, or the number a target returns when one does not
/// parse.
fn map_and_images<'a>(
    map: &'a [u8],
    solid: &'a [u8],
    masked: &'a [u8],
) -> Result<(Map<'a>, TileImages<'a>), u64> {
    let map = Map::parse(map).map_err(|e| e.to_string().len() as u64)?;
    let (Ok(solid), Ok(masked)) = (SolidTiles::parse(solid), MaskedTiles::parse(masked)) else {
        return Err(1);
    };
    Ok((map, TileImages { solid, masked }))
}

/// A Cosmo map drawn with `images`, and with `attrs` overlaid when given, with the
/// properties [`cosmo_draw`] checks. Returns the cells drawn and missing plus, with the
/// overlay, the cells checked unchanged.
///
/// # Panics
///
/// When a property does not hold.
pub fn check_draw(
    map: &Map<'_>,
    images: &TileImages<'_>,
    attrs: Option<&TileAttrTable<'_>>,
) -> u64 {
    let background = [1, 2, 3, 255];
    let mut picture = match cosmo::draw_map(map, images, background) {
        Ok(picture) => picture,
        Err(e) => panic!("a map of {} x {} cells gave {e}", map.width(), map.height()),
    };
    let (w, h) = (u32::from(map.width()), u32::from(map.height()));
    assert_eq!(
        (picture.image.width(), picture.image.height()),
        (w * 8, h * 8)
    );
    assert_eq!(picture.drawn + picture.missing, map.drawn_cells().count());
    for (cx, cy, tile) in map.drawn_cells().take(64) {
        let pixels = images.pixels(tile);
        for (dy, row) in (0u32..8).zip(pixels.iter().flatten()) {
            for (dx, p) in (0u32..8).zip(row) {
                let want = p.map_or(background, mni_core::tiles::ega_rgba);
                let got = picture
                    .image
                    .get(u32::from(cx) * 8 + dx, u32::from(cy) * 8 + dy);
                assert_eq!(got, Some(want), "cell {cx},{cy} pixel {dx},{dy}");
            }
        }
    }
    let mut acc = (picture.drawn as u64).wrapping_add(picture.missing as u64);
    if let Some(attrs) = attrs {
        // The first 64 cells with no attribute, and their pixels before the overlay.
        let plain: Vec<(u16, u16)> = (0..map.height())
            .flat_map(|y| (0..map.width()).map(move |x| (x, y)))
            .filter(|&(x, y)| map.attributes(x, y, attrs).is_some_and(|a| a.bits() == 0))
            .take(64)
            .collect();
        let cell_pixels = |image: &RgbaImage, (x, y): (u16, u16)| {
            (0..64u32)
                .map(|d| image.get(u32::from(x) * 8 + d % 8, u32::from(y) * 8 + d / 8))
                .collect::<Vec<_>>()
        };
        let before: Vec<_> = plain
            .iter()
            .map(|&cell| cell_pixels(&picture.image, cell))
            .collect();
        let size = (picture.image.width(), picture.image.height());
        cosmo::overlay_attributes(&mut picture.image, map, attrs);
        assert_eq!((picture.image.width(), picture.image.height()), size);
        for (&cell, was) in plain.iter().zip(&before) {
            assert_eq!(&cell_pixels(&picture.image, cell), was, "cell {cell:?}");
        }
        acc = acc.wrapping_add(plain.len() as u64);
    }
    acc
}

/// A Cosmo level drawn in layers: seven files (TILES.MNI, MASKTILE.MNI, TILEATTR.MNI,
/// ACTRINFO.MNI, ACTORS.MNI, a backdrop, then the map last, so that most cuts of an input
/// leave no whole map and cost nothing). Checked: backdrop and tiles alone, the tiles
/// without a backdrop are `draw_map`'s picture; with a backdrop, the first 64 cells no tile
/// is drawn on show the backdrop repeated from the top-left; the actors are each drawn,
/// hidden, special or listed as not drawn; outside the rectangles of the actors drawn,
/// drawing them changes no pixel.
pub fn cosmo_level(data: &[u8]) -> u64 {
    let [solid, masked, attrs, info, tiles, backdrop, map] = split_parts::<7, 4>(data);
    let (map, images) = match map_and_images(map, solid, masked) {
        Ok(parsed) => parsed,
        Err(result) => return result,
    };
    let background = [1, 2, 3, 255];
    let plain = match cosmo::draw_map(&map, &images, background) {
        Ok(p) => p,
        Err(e) => panic!("a map of {} x {} cells gave {e}", map.width(), map.height()),
    };
    let Ok(mut image) = cosmo::map_image(&map, background) else {
        panic!("draw_map made a picture of this size");
    };
    let backdrop = Backdrop::parse(backdrop).ok();
    if let Some(b) = &backdrop {
        cosmo::draw_backdrop(&mut image, b);
    }
    let (drawn, missing) = cosmo::draw_tiles(&mut image, &map, &images);
    assert_eq!((drawn, missing), (plain.drawn, plain.missing));
    match &backdrop {
        None => assert!(image.pixels() == plain.image.pixels()),
        Some(b) => {
            let drawn_cells: std::collections::HashSet<(u16, u16)> =
                map.drawn_cells().map(|(x, y, _)| (x, y)).collect();
            let bare = (0..map.height())
                .flat_map(|y| (0..map.width()).map(move |x| (x, y)))
                .filter(|c| !drawn_cells.contains(c))
                .take(64);
            for (cx, cy) in bare {
                for d in 0..64u32 {
                    let (x, y) = (u32::from(cx) * 8 + d % 8, u32::from(cy) * 8 + d / 8);
                    let (bx, by) = (x % 320, y % 144);
                    let (tx, ty) = (u16::try_from(bx / 8), u16::try_from(by / 8));
                    let colour = tx
                        .ok()
                        .zip(ty.ok())
                        .and_then(|(tx, ty)| b.tile(tx, ty))
                        .and_then(|t| {
                            t.pixels()
                                .get((by % 8) as usize)?
                                .get((bx % 8) as usize)
                                .copied()
                        });
                    let Some(colour) = colour else {
                        panic!("({bx}, {by}) is inside 320 x 144");
                    };
                    let want = mni_core::tiles::ega_rgba(colour);
                    assert_eq!(image.get(x, y), Some(want), "backdrop at {x},{y}");
                }
            }
        }
    }
    let mut acc = (drawn as u64).wrapping_add(missing as u64);
    let (Ok(attrs), Ok(sprites)) = (
        TileAttrTable::parse(attrs),
        ActorSprites::parse(info, tiles),
    ) else {
        return acc;
    };
    let before = image.clone();
    let r = cosmo::draw_actors(&mut image, &map, &sprites, &images, &attrs);
    assert_eq!(
        r.drawn + r.hidden + r.special + usize::try_from(r.not_drawn.total()).unwrap_or(usize::MAX),
        map.actors().len()
    );
    // The rectangles (in pixels) of the actors drawn.
    let rects: Vec<(i64, i64, i64, i64)> = map
        .actors()
        .filter_map(|a| match a.kind {
            ActorKind::Normal(t) => Some((a, ActorSprite::of(t)?)),
            ActorKind::Special(_) => None,
        })
        .filter(|(_, look)| look.draw != ActorDraw::Hidden)
        .filter_map(|(a, look)| {
            let f = sprites.frame(look.sprite, 0).ok()??;
            let (l, t) = look.top_left(a.x, a.y, f.height);
            Some((
                i64::from(l) * 8,
                i64::from(t) * 8,
                i64::from(f.width) * 8,
                i64::from(f.height) * 8,
            ))
        })
        .collect();
    assert_eq!(rects.len(), r.drawn);
    // With at most 256 actors drawn: every pixel outside their rectangles is unchanged.
    if rects.len() <= 256 {
        let (w, h) = (i64::from(image.width()), i64::from(image.height()));
        let mut inside = vec![false; image.pixels().len() / 4];
        for &(l, t, rw, rh) in &rects {
            for y in t.max(0)..(t + rh).min(h) {
                for x in l.max(0)..(l + rw).min(w) {
                    if let Some(p) = usize::try_from(y * w + x)
                        .ok()
                        .and_then(|i| inside.get_mut(i))
                    {
                        *p = true;
                    }
                }
            }
        }
        for (i, (now, was)) in image
            .pixels()
            .chunks_exact(4)
            .zip(before.pixels().chunks_exact(4))
            .enumerate()
        {
            let covered = inside.get(i).copied().unwrap_or(false);
            assert!(covered || now == was, "outside the actors at pixel {i}");
        }
    }
    acc = acc.wrapping_add(r.drawn as u64 + r.in_front as u64);
    acc.wrapping_add(
        r.not_drawn
            .kept()
            .iter()
            .map(|p| p.to_string().len() as u64)
            .sum(),
    )
}
