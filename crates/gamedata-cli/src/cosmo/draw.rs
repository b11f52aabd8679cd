//! Drawing Cosmo maps with `gamedata_render::cosmo`: tile graphics and the collision
//! attribute overlay, written as a PNG.

use std::path::Path;

use anyhow::{Context, Result};
use gamedata_render::RgbaImage;
pub(crate) use gamedata_render::cosmo::BACKGROUND;
use gamedata_render::cosmo::{
    draw_actors, draw_backdrop, draw_tiles, map_image, overlay_attributes,
};
use mni_core::{Episode, Map, backdrop_name};
use serde::Serialize;

use crate::render::write_png;

pub(crate) use gamedata_render::cosmo::LEGEND;

/// What is drawn besides the map's tiles (`--backdrop`, `--actors`, `--attributes`).
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Layers {
    /// The map's backdrop behind the tiles.
    pub(crate) backdrop: bool,
    /// Each actor's first frame.
    pub(crate) actors: bool,
    /// The collision attribute overlay, on top.
    pub(crate) attributes: bool,
}

/// The backdrop drawn (in `--json`, under `render.backdrop`).
#[derive(Serialize, Debug)]
pub(crate) struct BackdropReport {
    /// Its number in the map header (flags bits 0-4).
    pub(crate) number: u8,
    /// The entry it names.
    pub(crate) entry: &'static str,
}

/// The actors drawn (in `--json`, under `render.actors`).
#[derive(Serialize, Debug)]
pub(crate) struct ActorsReport {
    /// Actors drawn with the first frame of their sprite.
    pub(crate) drawn: usize,
    /// Actors the game never draws (triggers, emitters).
    pub(crate) hidden: usize,
    /// Special actors (player start, platforms, fountains, lights): no sprite.
    pub(crate) special: usize,
    /// "In front" tiles drawn again over the actors they overlap.
    pub(crate) in_front_tiles: usize,
    /// Actors not drawn (no such actor type, or no frame): all counted.
    pub(crate) not_drawn: u64,
    /// The first 100 of them, one sentence each.
    pub(crate) not_drawn_list: Vec<String>,
}

/// A map drawn with its layers.
pub(crate) struct Picture {
    pub(crate) image: RgbaImage,
    /// Cells drawn with a tile image.
    pub(crate) drawn: usize,
    /// Cells whose tile image is missing.
    pub(crate) missing: usize,
    pub(crate) backdrop: Option<BackdropReport>,
    pub(crate) actors: Option<ActorsReport>,
}

impl Picture {
    /// The backdrop and actors drawn, as `--json` reports them (`backdrop`, `actors`; each
    /// only when drawn).
    pub(crate) fn layers_report(&self) -> Result<serde_json::Map<String, serde_json::Value>> {
        let mut report = serde_json::Map::new();
        if let Some(b) = &self.backdrop {
            report.insert("backdrop".into(), serde_json::to_value(b)?);
        }
        if let Some(a) = &self.actors {
            report.insert("actors".into(), serde_json::to_value(a)?);
        }
        Ok(report)
    }
}

/// Draws `map` (named `name` in notes) of `ep` with `layers`: backdrop, tiles, actors, then
/// the attribute overlay. Actors that cannot be drawn are listed on stderr (the first 20, and
/// how many more), the rest still drawn. Without layers the pixels are
/// `gamedata_render::cosmo::draw_map`'s.
pub(crate) fn draw(ep: &Episode<'_>, map: &Map<'_>, name: &str, layers: Layers) -> Result<Picture> {
    let images = ep
        .tile_images()
        .context("reading TILES.MNI and MASKTILE.MNI")?;
    let mut image = map_image(map, BACKGROUND)?;
    let backdrop = if layers.backdrop {
        let number = map.flags().backdrop;
        let entry = backdrop_name(number).with_context(|| format!("{name}'s backdrop"))?;
        let b = ep
            .backdrop(number)
            .with_context(|| format!("reading {name}'s backdrop {number}, {entry}"))?;
        draw_backdrop(&mut image, &b);
        Some(BackdropReport { number, entry })
    } else {
        None
    };
    let (drawn, missing) = draw_tiles(&mut image, map, &images);
    let attrs = if layers.actors || layers.attributes {
        Some(ep.tile_attributes().context("reading TILEATTR.MNI")?)
    } else {
        None
    };
    let actors = match (&attrs, layers.actors) {
        (Some(attrs), true) => {
            let sprites = ep
                .sprites()
                .context("reading ACTRINFO.MNI and ACTORS.MNI")?;
            let r = draw_actors(&mut image, map, &sprites, &images, attrs);
            const SHOWN: usize = 20;
            for problem in r.not_drawn.kept().iter().take(SHOWN) {
                crate::output::error_line(&format!("note: {name}: {problem}, not drawn"));
            }
            let more = r.not_drawn.total().saturating_sub(SHOWN as u64);
            if more > 0 {
                crate::output::error_line(&format!("note: {name}: {more} more actors not drawn"));
            }
            Some(ActorsReport {
                drawn: r.drawn,
                hidden: r.hidden,
                special: r.special,
                in_front_tiles: r.in_front,
                not_drawn: r.not_drawn.total(),
                not_drawn_list: r.not_drawn.kept().iter().map(ToString::to_string).collect(),
            })
        }
        _ => None,
    };
    if let (Some(attrs), true) = (&attrs, layers.attributes) {
        overlay_attributes(&mut image, map, attrs);
    }
    Ok(Picture {
        image,
        drawn,
        missing,
        backdrop,
        actors,
    })
}

/// What a Cosmo map render wrote (in `cosmo map --render --json`, under `render`).
#[derive(Serialize, Debug)]
pub(crate) struct DrawReport {
    pub(crate) output: String,
    pub(crate) bytes: u64,
    /// Pixels.
    pub(crate) width: u32,
    /// Pixels.
    pub(crate) height: u32,
    /// Cells drawn with a tile image.
    pub(crate) drawn: usize,
    /// Cells whose tile image is missing, left as background.
    pub(crate) missing: usize,
    /// Whether the attribute overlay was drawn.
    pub(crate) attributes: bool,
    /// The backdrop drawn behind the tiles (`--backdrop`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) backdrop: Option<BackdropReport>,
    /// The actors drawn (`--actors`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) actors: Option<ActorsReport>,
    pub(crate) elapsed_ms: f64,
}

impl DrawReport {
    /// The sentence that says what was written.
    pub(crate) fn sentence(&self) -> String {
        let mut extra = String::new();
        if self.missing > 0 {
            extra += &format!(", {} cells with no tile image left blank", self.missing);
        }
        if let Some(b) = &self.backdrop {
            extra += &format!(", backdrop {} ({})", b.number, b.entry);
        }
        if let Some(a) = &self.actors {
            extra += &format!(
                ", {} actors drawn ({} hidden by the game, {} special, {} not drawn)",
                a.drawn, a.hidden, a.special, a.not_drawn
            );
        }
        if self.attributes {
            extra += ", attributes overlaid";
        }
        format!(
            "wrote {} ({} x {} pixels, {} tiles drawn{extra})",
            self.output, self.width, self.height, self.drawn,
        )
    }
}

/// Renders `map` (named `name`) of `ep` to a PNG at `out` (never over one of `inputs`) with
/// `layers`; returns what was written.
pub(crate) fn render_png(
    ep: &Episode<'_>,
    map: &Map<'_>,
    name: &str,
    (out, inputs): (&Path, &[&Path]),
    layers: Layers,
) -> Result<DrawReport> {
    let start = std::time::Instant::now();
    let picture = draw(ep, map, name, layers)?;
    write_png(&picture.image, out, inputs)?;
    Ok(DrawReport {
        output: out.display().to_string(),
        bytes: crate::files::Written::of(out)?.bytes,
        width: picture.image.width(),
        height: picture.image.height(),
        drawn: picture.drawn,
        missing: picture.missing,
        attributes: layers.attributes,
        backdrop: picture.backdrop,
        actors: picture.actors,
        elapsed_ms: crate::files::elapsed_ms(start),
    })
}
