//! Actors drawn as the game shows them at level start (`docs/formats/cosmo.md`, "Sprites"
//! and "Actors").

use std::fmt;

use gamedata_io::Problems;
use mni_core::raw::MaskedTileRaw;
use mni_core::{
    ActorDraw, ActorKind, ActorSprite, ActorSprites, ErrorKind, Map, TileAttrTable, TileAttributes,
    TileImages, TilePixels,
};

use super::draw_cell;
use crate::RgbaImage;

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
        let found = sprites
            .frame(look.sprite, 0)
            .and_then(|f| f.ok_or_else(|| sprites.missing(look.sprite, 0)));
        let frame = match found {
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
