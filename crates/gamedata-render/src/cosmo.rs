//! Cosmo maps: each cell's tile image, one picture pixel a game pixel, and an overlay of
//! the tile attributes (`docs/formats/cosmo.md`, "Maps" and "Tile attributes").
//!
//! A level as the game shows it at start is drawn in layers onto one [`RgbaImage`] of
//! `width * 8` x `height * 8` pixels: [`draw_backdrop`] (the map's backdrop, repeated),
//! [`draw_tiles`] (the map's tiles; [`draw_map`] is a picture of these alone), then
//! [`draw_actors`] (each actor's first frame, and the tiles the game draws in front of
//! sprites over them). Sources: `docs/formats/cosmo.md`, "Backdrops", "Sprites" and
//! "Actors". [`draw_level`] draws them all in the game's order, with the attribute overlay
//! on top when asked: what a pipeline calls.

// Cell coordinates are u16 and offsets inside a cell below 8: every pixel position here
// fits a u32 with room to spare.
#![allow(clippy::arithmetic_side_effects)]

use std::fmt;

use gamedata_io::Problems;
use mni_core::raw::MaskedTileRaw;
use mni_core::tiles::ega_rgba;
use mni_core::{
    ActorDraw, ActorKind, ActorSprite, ActorSprites, Backdrop, Episode, ErrorKind, Map,
    TileAttrTable, TileAttributes, TileImages, TilePixels, backdrop_name,
};

use crate::{Result, RgbaImage};

/// Background of rendered maps where nothing is drawn: EGA black, opaque.
pub const BACKGROUND: [u8; 4] = [0, 0, 0, 255];

/// The overlay legend, shown by `gamedata cosmo map --help`.
pub const LEGEND: &str = "\
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

/// What [`draw_map`] drew.
#[derive(Debug)]
pub struct MapPicture {
    /// `width * 8` x `height * 8` pixels (4096 x 512 for A1.MNI).
    pub image: RgbaImage,
    /// Cells drawn with a tile image.
    pub drawn: usize,
    /// Cells whose tile image index is past the end of its table (left as background).
    pub missing: usize,
}

/// Draws `map` with its tile images, one picture pixel a game pixel: `width * 8` x
/// `height * 8` pixels.
///
/// Cells below `mni_core::map::FIRST_DRAWN_VALUE`, the four unstored cells and transparent
/// pixels of masked tiles show `background`; cells whose image is missing are counted and
/// left as background. The picture is at most 32,768 cells x 64 pixels x 4 bytes = 8 MiB,
/// whatever the input, so the only error is [`crate::RenderError::TooLarge`] for a map
/// view past that, which the reader never makes.
pub fn draw_map(map: &Map<'_>, images: &TileImages<'_>, background: [u8; 4]) -> Result<MapPicture> {
    let mut image = map_image(map, background)?;
    let (drawn, missing) = draw_tiles(&mut image, map, images);
    Ok(MapPicture {
        image,
        drawn,
        missing,
    })
}

/// A picture the size of `map` (`width * 8` x `height * 8` pixels) filled with `background`.
///
/// Returns `Err` ([`crate::RenderError::TooLarge`]) only for a map past 32,768 cells,
/// which the reader never makes.
pub fn map_image(map: &Map<'_>, background: [u8; 4]) -> Result<RgbaImage> {
    let (w, h) = (u32::from(map.width()), u32::from(map.height()));
    RgbaImage::new(w.saturating_mul(8), h.saturating_mul(8), background)
}

/// Draws each cell's tile image over `image`, one picture pixel a game pixel from the
/// top-left; cells below `mni_core::map::FIRST_DRAWN_VALUE` and transparent pixels of
/// masked tiles leave what is there. Returns (cells drawn, cells whose tile image is
/// missing); pixels past the picture are left out.
pub fn draw_tiles(image: &mut RgbaImage, map: &Map<'_>, images: &TileImages<'_>) -> (usize, usize) {
    let (mut drawn, mut missing) = (0, 0);
    for (cx, cy, tile) in map.drawn_cells() {
        let Some(pixels) = images.pixels(tile) else {
            missing += 1;
            continue;
        };
        drawn += 1;
        draw_cell(image, i64::from(cx) * 8, i64::from(cy) * 8, &pixels);
    }
    (drawn, missing)
}

/// Sets the opaque pixels of an 8x8 tile with its top-left at pixel (`x0`, `y0`), which may
/// lie partly outside the picture.
fn draw_cell(image: &mut RgbaImage, x0: i64, y0: i64, pixels: &TilePixels) {
    for (dy, pixel_row) in (0i64..).zip(pixels) {
        for (dx, pixel) in (0i64..).zip(pixel_row) {
            if let (Some(colour), Ok(x), Ok(y)) =
                (pixel, u32::try_from(x0 + dx), u32::try_from(y0 + dy))
            {
                image.set(x, y, ega_rgba(*colour));
            }
        }
    }
}

/// Fills `image` with `backdrop` (40 x 18 tiles, 320 x 144 pixels) repeated from the
/// top-left corner, as a whole-map picture of the game's backdrop layer (the game scrolls it
/// behind its 38 x 18-tile window; this project repeats it over the map, see
/// `docs/formats/cosmo.md`, "Backdrops").
pub fn draw_backdrop(image: &mut RgbaImage, backdrop: &Backdrop<'_>) {
    const W: usize = Backdrop::WIDTH as usize * 8;
    const H: usize = Backdrop::HEIGHT as usize * 8;
    // The backdrop decoded once: 320 x 144 RGBA values, 184,320 bytes.
    let mut picture = vec![[0u8; 4]; W * H];
    for (i, tile) in backdrop.tiles().iter().enumerate() {
        let (tx, ty) = (
            i % usize::from(Backdrop::WIDTH),
            i / usize::from(Backdrop::WIDTH),
        );
        for (py, row) in tile.pixels().iter().enumerate() {
            for (px, &colour) in row.iter().enumerate() {
                if let Some(p) = picture.get_mut((ty * 8 + py) * W + tx * 8 + px) {
                    *p = ega_rgba(colour);
                }
            }
        }
    }
    for y in 0..image.height() {
        let row = (y as usize % H) * W;
        for x in 0..image.width() {
            if let Some(&rgba) = picture.get(row + x as usize % W) {
                image.set(x, y, rgba);
            }
        }
    }
}

/// Why an actor of a map was not drawn (see [`ActorsDrawn::not_drawn`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NotDrawn {
    /// The game defines no actor of this type, and creates none.
    UnknownType,
    /// The first frame of its sprite type cannot be had from ACTRINFO.MNI and ACTORS.MNI.
    Frame {
        /// The sprite type.
        sprite: u16,
        /// What is wrong.
        error: ErrorKind,
    },
}

/// An actor of a map that was not drawn, and why.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ActorNotDrawn {
    /// Its place in the map's actor list, from 0.
    pub index: usize,
    /// Its actor type (the stored type minus 31).
    pub actor_type: u16,
    /// Column in tiles.
    pub x: u16,
    /// Row in tiles.
    pub y: u16,
    /// Why.
    pub why: NotDrawn,
}

impl fmt::Display for ActorNotDrawn {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let Self {
            index,
            actor_type,
            x,
            y,
            why,
        } = self;
        write!(f, "actor {index} (type {actor_type}) at tile ({x}, {y}): ")?;
        match why {
            NotDrawn::UnknownType => write!(f, "the game defines no actor of this type"),
            NotDrawn::Frame { sprite, error } => write!(f, "sprite type {sprite}: {error}"),
        }
    }
}

/// What [`draw_actors`] drew.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ActorsDrawn {
    /// Actors drawn with the first frame of their sprite.
    pub drawn: usize,
    /// Actors the game never draws (triggers and emitters, [`ActorDraw::Hidden`]).
    pub hidden: usize,
    /// Special actors (stored type below 31: the player start, platforms, fountains and
    /// lights), which have no sprite in ACTORS.MNI.
    pub special: usize,
    /// Tiles the game draws in front of sprites (tile attribute "in front"), drawn again over
    /// the actors that overlap them.
    pub in_front: usize,
    /// Actors not drawn because their type or frame cannot be had (capped, all counted).
    pub not_drawn: Problems<ActorNotDrawn>,
}

/// Draws each actor of `map` as the game shows it at level start: the first frame of its
/// sprite type ([`ActorSprite::of`]), its bottom-left tile at the actor's map tile plus the
/// type's shift, flipped top to bottom for the two ceiling actors, in map order (later ones
/// over earlier ones); then draws again the tiles with the "in front" attribute that
/// actors overlap, as the game draws them over sprites. Pixels past the picture are left
/// out. Special actors and hidden types are counted, not drawn; an actor whose type the game
/// does not define, or whose frame is not in ACTORS.MNI, is listed in
/// [`ActorsDrawn::not_drawn`] and the others are still drawn.
pub fn draw_actors(
    image: &mut RgbaImage,
    map: &Map<'_>,
    sprites: &ActorSprites<'_>,
    images: &TileImages<'_>,
    attrs: &TileAttrTable<'_>,
) -> ActorsDrawn {
    let mut report = ActorsDrawn::default();
    let (width, height) = (usize::from(map.width()), usize::from(map.height()));
    // Cells an actor drew on: at most 32,768.
    let mut covered = vec![false; width * height];
    for (index, actor) in map.actors().enumerate() {
        let actor_type = match actor.kind {
            ActorKind::Special(_) => {
                report.special += 1;
                continue;
            }
            ActorKind::Normal(t) => t,
        };
        let not_drawn = |why| ActorNotDrawn {
            index,
            actor_type,
            x: actor.x,
            y: actor.y,
            why,
        };
        let Some(look) = ActorSprite::of(actor_type) else {
            report.not_drawn.push(not_drawn(NotDrawn::UnknownType));
            continue;
        };
        if look.draw == ActorDraw::Hidden {
            report.hidden += 1;
            continue;
        }
        let frame = match sprites.frame(look.sprite, 0) {
            Ok(frame) => frame,
            Err(e) => {
                let error = e.kind;
                report.not_drawn.push(not_drawn(NotDrawn::Frame {
                    sprite: look.sprite,
                    error,
                }));
                continue;
            }
        };
        let (left, top) = look.top_left(actor.x, actor.y, frame.height);
        let flipped = look.draw == ActorDraw::Flipped;
        for row in 0..frame.height {
            // Flipped: the frame's last tile row goes on top, each tile upside down.
            let from_row = if flipped { frame.height - 1 - row } else { row };
            for col in 0..frame.width {
                let Some(tile) = frame.tile(col, from_row) else {
                    continue;
                };
                let (cx, cy) = (
                    i64::from(left) + i64::from(col),
                    i64::from(top) + i64::from(row),
                );
                draw_cell(image, cx * 8, cy * 8, &sprite_pixels(tile, flipped));
                if let (Ok(cx), Ok(cy)) = (usize::try_from(cx), usize::try_from(cy))
                    && cx < width
                    && let Some(c) = covered.get_mut(cy * width + cx)
                {
                    *c = true;
                }
            }
        }
        report.drawn += 1;
    }
    for (cx, cy, tile) in map.drawn_cells() {
        // Only cells an actor drew on: their attribute is looked up, few others.
        let at = usize::from(cy) * width + usize::from(cx);
        if covered.get(at).copied().unwrap_or(false)
            && map
                .attributes(cx, cy, attrs)
                .is_some_and(TileAttributes::in_front)
            && let Some(pixels) = images.pixels(tile)
        {
            draw_cell(image, i64::from(cx) * 8, i64::from(cy) * 8, &pixels);
            report.in_front += 1;
        }
    }
    report
}

/// A sprite tile's pixels, upside down if `flipped`.
fn sprite_pixels(tile: &MaskedTileRaw, flipped: bool) -> TilePixels {
    let mut pixels = tile.pixels();
    if flipped {
        pixels.reverse();
    }
    pixels
}

/// Draws the collision attributes of every cell of `map` over its picture (see [`LEGEND`]).
pub fn overlay_attributes(image: &mut RgbaImage, map: &Map<'_>, attrs: &TileAttrTable<'_>) {
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
                image.blend(x, y, SOLID, 102);
            } else {
                let edge = (a.block_south() && dy < 2)
                    || (a.block_north() && dy >= 6)
                    || (a.block_east() && dx < 2)
                    || (a.block_west() && dx >= 6);
                if edge {
                    image.blend(x, y, EDGE, 218);
                }
            }
            if a.slippery() && (dx + dy) % 4 == 0 {
                image.blend(x, y, SLIPPERY, 179);
            }
            if a.clingable() && (dx == 0 || dx == 7) {
                image.blend(x, y, CLINGABLE, 205);
            }
            if a.sloped() && dx + dy == 7 {
                image.blend(x, y, SLOPED, 205);
            }
        }
    }
}

/// The layers [`draw_level`] draws besides the map's tiles. `LayerOptions::default()` draws
/// the tiles alone (the pixels of [`draw_map`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct LayerOptions {
    /// The map's backdrop behind the tiles ([`draw_backdrop`]).
    pub backdrop: bool,
    /// Each actor's first frame, and the "in front" tiles over them ([`draw_actors`]).
    pub actors: bool,
    /// The tile attribute overlay, on top of everything ([`overlay_attributes`]).
    pub attributes: bool,
}

/// The backdrop [`draw_level`] drew.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct BackdropDrawn {
    /// Its number in the map header (flags bits 0-4).
    pub number: u8,
    /// The entry it names ("BDROCKTK.MNI" ...).
    pub entry: &'static str,
}

/// A level drawn by [`draw_level`], with what was drawn.
#[derive(Debug)]
pub struct LevelPicture {
    /// `width * 8` x `height * 8` pixels.
    pub image: RgbaImage,
    /// Cells drawn with a tile image.
    pub drawn: usize,
    /// Cells whose tile image is missing (left as what is behind).
    pub missing: usize,
    /// The backdrop, when [`LayerOptions::backdrop`].
    pub backdrop: Option<BackdropDrawn>,
    /// The actors, when [`LayerOptions::actors`].
    pub actors: Option<ActorsDrawn>,
}

/// Draws `map` of `episode` as the game shows it at level start, in the game's order:
/// the backdrop (when `options.backdrop`), the tiles, the actors with the "in front" tiles
/// over them (when `options.actors`), then the attribute overlay (when
/// `options.attributes`). Actors that cannot be drawn are listed in
/// [`ActorsDrawn::not_drawn`]; the others are still drawn. With no layer the pixels are
/// [`draw_map`]'s. Sources: `docs/formats/cosmo.md`, "Backdrops", "Sprites", "Actors".
///
/// Returns `Err` ([`RenderError::Cosmo`](crate::RenderError::Cosmo)) if the episode's tile
/// images, the backdrop a layer needs, TILEATTR.MNI or the sprite files cannot be read, or
/// ([`RenderError::TooLarge`](crate::RenderError::TooLarge)) if the picture cannot be made.
pub fn draw_level(
    episode: &Episode<'_>,
    map: &Map<'_>,
    options: &LayerOptions,
) -> Result<LevelPicture> {
    let images = episode.tile_images()?;
    let mut image = map_image(map, BACKGROUND)?;
    let backdrop = if options.backdrop {
        let number = map.flags().backdrop;
        let entry = backdrop_name(number)?;
        draw_backdrop(&mut image, &episode.backdrop(number)?);
        Some(BackdropDrawn { number, entry })
    } else {
        None
    };
    let (drawn, missing) = draw_tiles(&mut image, map, &images);
    let attrs = if options.actors || options.attributes {
        Some(episode.tile_attributes()?)
    } else {
        None
    };
    let actors = match (&attrs, options.actors) {
        (Some(attrs), true) => {
            let sprites = episode.sprites()?;
            Some(draw_actors(&mut image, map, &sprites, &images, attrs))
        }
        _ => None,
    };
    if let (Some(attrs), true) = (&attrs, options.attributes) {
        overlay_attributes(&mut image, map, attrs);
    }
    Ok(LevelPicture {
        image,
        drawn,
        missing,
        backdrop,
        actors,
    })
}

/// In a report (`gamedata cosmo map --render --json`, under `render.actors`): the counts,
/// `in_front_tiles`, `not_drawn` (all counted) and `not_drawn_list` (the first 100, one
/// sentence each).
#[cfg(feature = "serde")]
impl serde::Serialize for ActorsDrawn {
    fn serialize<S: serde::Serializer>(
        &self,
        serializer: S,
    ) -> std::result::Result<S::Ok, S::Error> {
        use serde::ser::SerializeStruct;
        let mut s = serializer.serialize_struct("ActorsDrawn", 6)?;
        s.serialize_field("drawn", &self.drawn)?;
        s.serialize_field("hidden", &self.hidden)?;
        s.serialize_field("special", &self.special)?;
        s.serialize_field("in_front_tiles", &self.in_front)?;
        s.serialize_field("not_drawn", &self.not_drawn.total())?;
        let list: Vec<String> = self
            .not_drawn
            .kept()
            .iter()
            .map(ToString::to_string)
            .collect();
        s.serialize_field("not_drawn_list", &list)?;
        s.end()
    }
}

#[cfg(test)]
// Test coordinates are small: u32 pixel positions / 8 fit u16 tile positions.
#[allow(clippy::cast_possible_truncation)]
mod tests {
    use mni_core::{Actor, MapFlags, MapTile, MaskedTiles, SolidTiles, synth, write_map};

    use super::*;

    #[test]
    fn draw_level_layers_in_the_game_s_order() {
        let e = synth::episode().unwrap();
        let episode = Episode::parse(&e.stn, &e.vol).unwrap();
        let map = episode.level("A2.MNI").unwrap();
        let (images, attrs) = (
            episode.tile_images().unwrap(),
            episode.tile_attributes().unwrap(),
        );
        let sprites = episode.sprites().unwrap();
        // By hand: backdrop, tiles, actors, overlay.
        let mut image = map_image(&map, BACKGROUND).unwrap();
        draw_backdrop(&mut image, &episode.backdrop(map.flags().backdrop).unwrap());
        draw_tiles(&mut image, &map, &images);
        let by_hand = draw_actors(&mut image, &map, &sprites, &images, &attrs);
        overlay_attributes(&mut image, &map, &attrs);
        let all = LayerOptions {
            backdrop: true,
            actors: true,
            attributes: true,
        };
        let level = draw_level(&episode, &map, &all).unwrap();
        assert!(level.image.pixels() == image.pixels());
        assert_eq!(level.actors, Some(by_hand));
        assert_eq!(
            level.backdrop,
            Some(BackdropDrawn {
                number: map.flags().backdrop,
                entry: "BDROCKTK.MNI"
            })
        );
        let plain = draw_level(&episode, &map, &LayerOptions::default()).unwrap();
        let tiles = draw_map(&map, &images, BACKGROUND).unwrap();
        assert!(plain.image.pixels() == tiles.image.pixels());
        assert_eq!((plain.drawn, plain.missing), (tiles.drawn, tiles.missing));
    }

    #[test]
    fn draws_tiles_at_their_cells_and_skips_commands() {
        // The synthetic tile set; pixel decoding itself is tested in mni-core.
        let (solid, masked) = (synth::solid_tiles(), synth::masked_tiles());
        let images = TileImages {
            solid: SolidTiles::parse(&solid).unwrap(),
            masked: MaskedTiles::parse(&masked).unwrap(),
        };
        let grass = MapTile::Solid(synth::solid::GRASS);
        let flower = MapTile::Masked(synth::masked::FLOWER);
        let mut tiles = vec![0u16; 32_764];
        tiles[0] = synth::solid_value(synth::solid::GRASS); // (0, 0)
        tiles[1] = synth::masked_value(synth::masked::FLOWER); // (1, 0)
        tiles[2] = 72; // solid 9: a value below 80, not drawn
        tiles[32 + 3] = 8 * 500; // solid 500 at (3, 1): no such image
        let bytes = write_map(MapFlags::default(), 32, &[], &tiles).unwrap();
        let map = Map::parse(&bytes).unwrap();
        let bg = [1, 2, 3, 255];
        let r = draw_map(&map, &images, bg).unwrap();
        assert_eq!((r.image.width, r.image.height), (256, 8192));
        assert_eq!((r.drawn, r.missing), (2, 1));
        // Every pixel of the two drawn cells is its tile's pixel, or the background where
        // the masked tile is transparent.
        for (tile, x0) in [(grass, 0), (flower, 8)] {
            let pixels = images.pixels(tile).unwrap();
            for (dy, row) in (0u32..).zip(pixels) {
                for (dx, p) in (0u32..).zip(row) {
                    let want = p.map_or(bg, ega_rgba);
                    assert_eq!(r.image.get(x0 + dx, dy), Some(want), "{tile:?} {dx},{dy}");
                }
            }
        }
        assert!(
            images
                .pixels(flower)
                .unwrap()
                .iter()
                .flatten()
                .any(Option::is_none),
            "the flower has transparent pixels, so the background check above means something"
        );
        for (x, y, why) in [(16, 0, "value 72 is not drawn"), (24, 8, "missing image")] {
            for d in 0..8 {
                assert_eq!(r.image.get(x + d, y + d), Some(bg), "{why}");
            }
        }
        assert_eq!(r.image.get(256, 0), None);
    }

    /// A 32-wide map of actors and tiles, the synthetic sprites and tile images, and a
    /// TILEATTR.MNI giving the flower the "in front" attribute: the files' bytes.
    struct Scene {
        map: Vec<u8>,
        info: Vec<u8>,
        actor_tiles: Vec<u8>,
        solid: Vec<u8>,
        masked: Vec<u8>,
        attrs: Vec<u8>,
    }

    impl Scene {
        /// `actors` on a map with `tiles` set (cell index, value).
        fn new(actors: &[Actor], tiles: &[(usize, u16)]) -> Scene {
            let mut values = vec![0u16; 32_764];
            for &(i, v) in tiles {
                values[i] = v;
            }
            let mut attrs = vec![0u8; 7000];
            attrs[usize::from(synth::masked_value(synth::masked::FLOWER) / 8)] =
                TileAttributes::IN_FRONT;
            let (info, actor_tiles) = synth::sprites();
            Scene {
                map: write_map(MapFlags::default(), 32, actors, &values).unwrap(),
                info,
                actor_tiles,
                solid: synth::solid_tiles(),
                masked: synth::masked_tiles(),
                attrs,
            }
        }

        /// The views, ACTORS.MNI cut to `actor_bytes` bytes.
        fn views(
            &self,
            actor_bytes: usize,
        ) -> (Map<'_>, ActorSprites<'_>, TileImages<'_>, TileAttrTable<'_>) {
            let tiles = &self.actor_tiles[..actor_bytes.min(self.actor_tiles.len())];
            (
                Map::parse(&self.map).unwrap(),
                ActorSprites::parse(&self.info, tiles).unwrap(),
                TileImages {
                    solid: SolidTiles::parse(&self.solid).unwrap(),
                    masked: MaskedTiles::parse(&self.masked).unwrap(),
                },
                TileAttrTable::parse(&self.attrs).unwrap(),
            )
        }
    }

    fn normal(actor_type: u16, x: u16, y: u16) -> Actor {
        Actor {
            kind: ActorKind::Normal(actor_type),
            x,
            y,
        }
    }

    #[test]
    fn actors_stand_on_their_shifted_bottom_left_tile() {
        // Actor type 4 (the east arrow piston): sprite type 4, shifted 4 tiles west; the
        // synthetic sprite 4 is 2 x 2 tiles. At (10, 5) its bottom-left tile is (6, 5).
        let scene = Scene::new(&[normal(4, 10, 5)], &[]);
        let (map, sprites, images, attrs) = scene.views(usize::MAX);
        let bg = [1, 2, 3, 255];
        let mut image = map_image(&map, bg).unwrap();
        let r = draw_actors(&mut image, &map, &sprites, &images, &attrs);
        assert_eq!(
            (r.drawn, r.hidden, r.special, r.not_drawn.total()),
            (1, 0, 0, 0)
        );
        let frame = sprites.frame(4, 0).unwrap();
        assert_eq!((frame.width, frame.height), (2, 2));
        let mut opaque = 0;
        for y in 0..64u32 {
            for x in 0..96u32 {
                let (col, row) = (x / 8, y / 8);
                let inside = (6..8).contains(&col) && (4..6).contains(&row);
                let want = if inside {
                    let p = frame.tile_pixels(col as u16 - 6, row as u16 - 4).unwrap();
                    p[(y % 8) as usize][(x % 8) as usize].map_or(bg, ega_rgba)
                } else {
                    bg
                };
                opaque += usize::from(want != bg);
                assert_eq!(image.get(x, y), Some(want), "{x},{y}");
            }
        }
        assert!(opaque > 100, "the sprite has opaque pixels: {opaque}");
    }

    #[test]
    fn ceiling_actors_are_flipped_and_in_front_tiles_cover_sprites() {
        // Actor type 96 (the ceiling eye plant): sprite type 95 (3 x 2 tiles here), shifted
        // one tile south, flipped top to bottom. At (2, 3): bottom-left (2, 4), top-left (2, 3).
        // A flower (in front of sprites) at cell (3, 3).
        let flower = synth::masked_value(synth::masked::FLOWER);
        let scene = Scene::new(&[normal(96, 2, 3)], &[(3 * 32 + 3, flower)]);
        let (map, sprites, images, attrs) = scene.views(usize::MAX);
        let bg = [1, 2, 3, 255];
        let mut image = map_image(&map, bg).unwrap();
        draw_tiles(&mut image, &map, &images);
        let r = draw_actors(&mut image, &map, &sprites, &images, &attrs);
        assert_eq!((r.drawn, r.in_front), (1, 1));
        let frame = sprites.frame(95, 0).unwrap();
        assert_eq!((frame.width, frame.height), (3, 2));
        let flower_pixels = images
            .pixels(MapTile::Masked(synth::masked::FLOWER))
            .unwrap();
        let (mut flower_seen, mut sprite_under_flower) = (0, 0);
        for y in 0..16u32 {
            for x in 0..24u32 {
                // Frame pixel (x, 15 - y): the picture is the frame upside down.
                let fy = 15 - y;
                let p = frame.tile_pixels((x / 8) as u16, (fy / 8) as u16).unwrap();
                let mut want = p[(fy % 8) as usize][(x % 8) as usize].map_or(bg, ega_rgba);
                if (8..16).contains(&x) && y < 8 {
                    match flower_pixels[y as usize][(x - 8) as usize] {
                        Some(c) => {
                            want = ega_rgba(c);
                            flower_seen += 1;
                        }
                        None => sprite_under_flower += usize::from(want != bg),
                    }
                }
                assert_eq!(image.get(16 + x, 24 + y), Some(want), "{x},{y}");
            }
        }
        assert!(flower_seen > 0 && sprite_under_flower > 0);
    }

    #[test]
    fn actors_that_cannot_be_drawn_are_listed_and_the_rest_drawn() {
        let actors = [
            Actor {
                kind: ActorKind::Special(0),
                x: 1,
                y: 1,
            },
            normal(15, 2, 2),  // no actor type 15
            normal(165, 3, 3), // an end-of-episode trigger: never shown
            normal(1, 4, 4),   // sprite type 1: past the cut ACTORS.MNI below
            normal(0, 5, 5),   // sprite type 0: its one tile is there
        ];
        let scene = Scene::new(&actors, &[]);
        // Sprite type 0 is one tile, 40 bytes; sprite type 1 starts after it.
        let (map, sprites, images, attrs) = scene.views(40);
        let mut image = map_image(&map, BACKGROUND).unwrap();
        let r = draw_actors(&mut image, &map, &sprites, &images, &attrs);
        assert_eq!((r.drawn, r.hidden, r.special), (1, 1, 1));
        let kept = r.not_drawn.kept();
        assert_eq!(kept.len(), 2);
        assert_eq!((kept[0].index, kept[0].why), (1, NotDrawn::UnknownType));
        assert_eq!(
            kept[0].to_string(),
            "actor 1 (type 15) at tile (2, 2): the game defines no actor of this type"
        );
        assert!(
            matches!(
                kept[1].why,
                NotDrawn::Frame {
                    sprite: 1,
                    error: ErrorKind::FrameData { file_len: 40, .. }
                }
            ),
            "{:?}",
            kept[1]
        );
    }

    #[test]
    fn the_backdrop_repeats_from_the_top_left() {
        let bytes = synth::backdrop();
        let backdrop = Backdrop::parse(&bytes).unwrap();
        let mut image = RgbaImage::new(700, 300, BACKGROUND).unwrap();
        draw_backdrop(&mut image, &backdrop);
        for (x, y) in [
            (0, 0),
            (19, 3),
            (319, 143),
            (320, 144),
            (333, 150),
            (699, 299),
        ] {
            let (bx, by) = (x % 320, y % 144);
            let tile = backdrop.tile((bx / 8) as u16, (by / 8) as u16).unwrap();
            let want = ega_rgba(tile.pixels()[(by % 8) as usize][(bx % 8) as usize]);
            assert_eq!(image.get(x, y), Some(want), "{x},{y}");
        }
        // Bands of different blues: the picture is not one colour.
        assert_ne!(image.get(0, 0), image.get(0, 100));
    }

    #[test]
    fn overlay_marks_standable_tiles_on_their_top_edge() {
        let mut attrs = vec![0u8; 7000];
        attrs[10] = TileAttributes::BLOCK_SOUTH; // value 80
        let attrs = TileAttrTable::parse(&attrs).unwrap();
        let mut tiles = vec![0u16; 32_764];
        tiles[0] = 80;
        let bytes = write_map(MapFlags::default(), 32, &[], &tiles).unwrap();
        let map = Map::parse(&bytes).unwrap();
        let mut image = RgbaImage::new(256, 8192, BACKGROUND).unwrap();
        overlay_attributes(&mut image, &map, &attrs);
        // Yellow at 218/256 over black: 255 * 218 / 256 = 217, 230 * 218 / 256 = 195.
        assert_eq!(image.get(3, 0), Some([217, 195, 0, 255]));
        assert_eq!(image.get(3, 1), Some([217, 195, 0, 255]));
        assert_eq!(
            image.get(3, 2),
            Some(BACKGROUND),
            "the bar is two pixels high"
        );
        assert_eq!(
            image.get(8, 0),
            Some(BACKGROUND),
            "the next cell blocks nothing"
        );
    }
}
