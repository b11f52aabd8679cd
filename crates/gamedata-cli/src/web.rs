//! The `tiles` commands' common part: a picture's web map pyramid (`{z}/{x}/{y}.png`, 256
//! pixels a side, `gamedata_render::tiles`) written under a folder with a Leaflet viewer,
//! `index.html`, that works from `file://` (Leaflet's files are embedded in the binary and
//! written beside it).

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Instant;

use anyhow::{Context, Result, bail};
use clap::Args;
use gamedata_render::tiles::{Levels, TileSource, build_pyramid};
use serde::Serialize;

use crate::files::{elapsed_ms, write_small};
use crate::output::{Output, progress_bar};

/// Leaflet 1.9.4 (`assets/leaflet/README.md`).
const LEAFLET_JS: &[u8] = include_bytes!("../assets/leaflet/leaflet.js");
const LEAFLET_CSS: &[u8] = include_bytes!("../assets/leaflet/leaflet.css");
const LEAFLET_LICENSE: &[u8] = include_bytes!("../assets/leaflet/LICENSE");
/// The viewer, with `__TITLE__` and `__CONFIG__` to fill.
const INDEX_HTML: &str = include_str!("../assets/index.html");

/// The most tiles a pyramid may have (a facet 0 is 599 at its native zoom; each magnified
/// level has four times the tiles of the one above).
const MAX_TILES: u64 = 1 << 20;

/// Where the pyramid goes and how deep.
#[derive(Args)]
pub(crate) struct PyramidArgs {
    /// The folder to write {z}/{x}/{y}.png and index.html into (created).
    #[arg(short, long, value_name = "OUT_DIR")]
    output: PathBuf,
    /// Zoom levels past the native one (where a pixel is a map tile or a game pixel), each
    /// doubling the pixels; by default none.
    #[arg(long, value_name = "Z")]
    max_zoom: Option<u8>,
}

/// How the viewer names the picture and the coordinates under the cursor.
pub(crate) struct Viewer {
    /// The page's title: the facet or level.
    pub(crate) title: String,
    /// The name of a picture pixel in the game ("tile" for a UO facet, "pixel" ...).
    pub(crate) unit: &'static str,
    /// Picture pixels a game cell (a Cosmo tile is 8); 1 when a pixel is a cell.
    pub(crate) cell: u32,
    /// The name of a cell ("tile").
    pub(crate) cell_unit: &'static str,
    /// What the picture was drawn with, added to the `--json` report (a Cosmo map's
    /// `backdrop` and `actors`); empty for the others.
    pub(crate) drawn_with: serde_json::Map<String, serde_json::Value>,
    /// For an isometric picture (the UO world style): the screen position of the picture's
    /// pixel (0, 0) and the screen pixels a picture pixel, so that the page shows the tile
    /// under the pointer (at height 0).
    pub(crate) iso: Option<[i64; 3]>,
}

/// The viewer's settings, as the page reads them.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct ViewerConfig<'a> {
    title: &'a str,
    width: u32,
    height: u32,
    native_zoom: u8,
    max_zoom: u8,
    unit: &'a str,
    cell: u32,
    cell_unit: &'a str,
    #[serde(skip_serializing_if = "Option::is_none")]
    iso: Option<[i64; 3]>,
}

/// What a `tiles` command's `--json` prints.
#[derive(Serialize)]
struct TilesReport {
    out_dir: String,
    index: String,
    title: String,
    /// Pixels at the native zoom.
    width: u32,
    /// Pixels at the native zoom.
    height: u32,
    native_zoom: u8,
    max_zoom: u8,
    tiles: u64,
    /// Bytes of the tiles' PNGs.
    bytes: u64,
    #[serde(flatten)]
    drawn_with: serde_json::Map<String, serde_json::Value>,
    elapsed_ms: f64,
}

/// How a pyramid's tiles are stored.
#[derive(Clone, Copy, Debug)]
pub(crate) struct TilePng {
    /// How each tile's rows are filtered.
    pub(crate) filter: gamedata_render::PngFilter,
    /// Whether a tile opaque everywhere is stored without alpha
    /// ([`gamedata_render::PngColour::OpaqueRgb`]; radar maps, whose only transparent
    /// pixels are those past the map's edge).
    pub(crate) opaque_rgb: bool,
}

impl TilePng {
    /// Rows filtered as `filter` says, every tile RGBA.
    pub(crate) fn rgba(filter: gamedata_render::PngFilter) -> Self {
        TilePng {
            filter,
            opaque_rgb: false,
        }
    }
}

/// Writes the pyramid of `source` and its viewer as `args` say (each file whole or not at
/// all, not waited for on the disk: [`write_small`]), never over one of
/// `inputs`, with a progress bar on a terminal, each tile stored as `png` says; reports
/// what was written.
pub(crate) fn write_tiles(
    source: &dyn TileSource,
    png: TilePng,
    args: &PyramidArgs,
    viewer: &Viewer,
    inputs: &[&Path],
    out: &mut Output,
) -> Result<()> {
    let start = Instant::now();
    let (width, height) = source.size();
    let levels = Levels::new(width, height, args.max_zoom)?;
    let count = gamedata_render::tiles::pyramid_tiles(source, &levels);
    if count > MAX_TILES {
        bail!(
            "{count} tiles to zoom {} are more than the {MAX_TILES} a pyramid may have: lower --max-zoom",
            levels.max
        );
    }
    let dir = &args.output;
    for z in 0..=levels.max {
        let (across, _) = levels.tiles_at(z);
        for x in 0..across {
            let column = dir.join(z.to_string()).join(x.to_string());
            std::fs::create_dir_all(&column)
                .with_context(|| format!("cannot create {}", column.display()))?;
        }
    }
    let bar = progress_bar(count, "tiles {bar:40} {pos}/{len} {eta}");
    let bytes = AtomicU64::new(0);
    // The first write error, with its path, comes back as it was made; the pyramid stops
    // at it.
    let built = build_pyramid(source, levels, &|z, x, y, tile| -> Result<()> {
        let path = dir
            .join(z.to_string())
            .join(x.to_string())
            .join(format!("{y}.png"));
        let mut bytes_out = Vec::new();
        let encode = |bytes_out: &mut Vec<u8>, colour| {
            bytes_out.clear();
            let options = crate::render::png_options()
                .with_filter(png.filter)
                .with_colour(colour);
            gamedata_render::write_png(bytes_out, gamedata_render::PngPixels::Image(tile), &options)
        };
        // A tile opaque everywhere as RGB; the encoder finds one that is not (a tile past
        // the map's edge) in the same pass, and it is stored RGBA.
        let opaque = png.opaque_rgb
            && match encode(&mut bytes_out, gamedata_render::PngColour::OpaqueRgb) {
                Ok(()) => true,
                Err(gamedata_render::RenderError::NotOpaque { .. }) => false,
                Err(e) => return Err(e.into()),
            };
        if !opaque {
            encode(&mut bytes_out, gamedata_render::PngColour::Rgba)?;
        }
        write_small(&path, inputs, &bytes_out)?;
        bytes.fetch_add(bytes_out.len() as u64, Ordering::Relaxed);
        bar.inc(1);
        Ok(())
    });
    bar.finish_and_clear();
    let tiles = built?;
    let leaflet = dir.join("leaflet");
    std::fs::create_dir_all(&leaflet)
        .with_context(|| format!("cannot create {}", leaflet.display()))?;
    for (name, data) in [
        ("leaflet.js", LEAFLET_JS),
        ("leaflet.css", LEAFLET_CSS),
        ("LICENSE", LEAFLET_LICENSE),
    ] {
        write_small(&leaflet.join(name), inputs, data)?;
    }
    let config = ViewerConfig {
        title: &viewer.title,
        width,
        height,
        native_zoom: levels.native,
        max_zoom: levels.max,
        unit: viewer.unit,
        cell: viewer.cell,
        cell_unit: viewer.cell_unit,
        iso: viewer.iso,
    };
    let page = INDEX_HTML
        .replace("__TITLE__", &html_text(&viewer.title))
        // JSON in a script: `<` escaped so that no text can end the script early.
        .replace(
            "__CONFIG__",
            &serde_json::to_string(&config)?.replace('<', "\\u003c"),
        );
    let index = dir.join("index.html");
    write_small(&index, inputs, page.as_bytes())?;
    let report = TilesReport {
        out_dir: dir.display().to_string(),
        index: index.display().to_string(),
        title: viewer.title.clone(),
        width,
        height,
        native_zoom: levels.native,
        max_zoom: levels.max,
        tiles,
        bytes: bytes.into_inner(),
        drawn_with: viewer.drawn_with.clone(),
        elapsed_ms: elapsed_ms(start),
    };
    out.report(&report, |w| {
        writeln!(
            w,
            "wrote {} tiles (zoom 0 to {}, {} x {} pixels at zoom {}) and index.html into {} \
             in {:.1} s",
            report.tiles,
            report.max_zoom,
            report.width,
            report.height,
            report.native_zoom,
            report.out_dir,
            report.elapsed_ms / 1000.0
        )
    })
}

/// `text` with HTML's special characters escaped.
fn html_text(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}
