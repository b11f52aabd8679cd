//! Drawing Cosmo maps with `gamedata_render::cosmo`: tile graphics and the collision
//! attribute overlay, written as a PNG.

use std::path::Path;

use anyhow::{Context, Result};
pub(crate) use gamedata_render::cosmo::LEGEND;
use gamedata_render::cosmo::{ActorsDrawn, BackdropDrawn, LayerOptions, LevelPicture, draw_level};
use mni_core::{Episode, Map};
use serde::Serialize;

use crate::render::write_png;

/// The layers drawn besides the map's tiles (`--backdrop`, `--actors`, `--attributes`);
/// the order is gamedata-render's ([`draw_level`]).
pub(crate) type Layers = LayerOptions;

/// The backdrop and actors drawn, as `--json` reports them (`backdrop`, `actors`; each only
/// when drawn).
pub(crate) fn layers_report(
    picture: &LevelPicture,
) -> Result<serde_json::Map<String, serde_json::Value>> {
    let mut report = serde_json::Map::new();
    if let Some(b) = &picture.backdrop {
        report.insert("backdrop".into(), serde_json::to_value(b)?);
    }
    if let Some(a) = &picture.actors {
        report.insert("actors".into(), serde_json::to_value(a)?);
    }
    Ok(report)
}

/// Draws `map` (named `name` in notes) of `ep` with `layers` ([`draw_level`]). Actors that
/// cannot be drawn are listed on stderr (the first 20, and how many more), the rest still
/// drawn.
pub(crate) fn draw(
    ep: &Episode<'_>,
    map: &Map<'_>,
    name: &str,
    layers: Layers,
) -> Result<LevelPicture> {
    let picture = draw_level(ep, map, &layers).with_context(|| format!("drawing {name}"))?;
    if let Some(actors) = &picture.actors {
        const SHOWN: usize = 20;
        for problem in actors.not_drawn.kept().iter().take(SHOWN) {
            crate::output::error_line(&format!("note: {name}: {problem}, not drawn"));
        }
        let more = actors.not_drawn.total().saturating_sub(SHOWN as u64);
        if more > 0 {
            crate::output::error_line(&format!("note: {name}: {more} more actors not drawn"));
        }
    }
    Ok(picture)
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
    pub(crate) backdrop: Option<BackdropDrawn>,
    /// The actors drawn (`--actors`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) actors: Option<ActorsDrawn>,
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
                a.drawn,
                a.hidden,
                a.special,
                a.not_drawn.total()
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
