//! A level drawn in the game's layer order.

use mni_core::{Episode, Map, backdrop_name};

use super::{
    ActorsDrawn, BACKGROUND, draw_actors, draw_backdrop, draw_tiles, map_image, overlay_attributes,
};
use crate::{Result, RgbaImage};

/// The layers [`draw_level`] draws besides the map's tiles. `LayerOptions::default()` draws
/// the tiles alone (the pixels of [`draw_map`](super::draw_map)).
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
/// [`draw_map`](super::draw_map)'s. Sources: `docs/formats/cosmo.md`, "Backdrops", "Sprites", "Actors".
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
        let backdrop = episode
            .backdrop(number)?
            .ok_or_else(|| episode.missing(entry))?;
        draw_backdrop(&mut image, &backdrop);
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
