//! `gamedata uo render --style world`: the facet drawn isometrically as the client draws it
//! (`gamedata_render::uo::world`), written as a PNG.

use std::path::{Path, PathBuf};

use anyhow::{Context, Result, bail};
use gamedata_render::uo::world::{WorldCounts, WorldSource, WorldTiles, WorldView};
use gamedata_render::{PngFilter, Region};
use mul_core::{ArtFiles, PicturePaths, TexmapFiles};
use serde::Serialize;

use super::folder::folder_verdata;
use crate::files::{Written, elapsed_ms, write_file};
use crate::output::{Output, progress_bar};
use crate::web::{PyramidArgs, TilePng, Viewer, write_tiles};

/// `--view SX,SY`: the view's top-left pixel, in the client's screen coordinates.
pub(super) fn parse_view(text: &str) -> Result<(i64, i64), String> {
    let parts: Vec<i64> = text
        .split(',')
        .map(|p| p.trim().parse::<i64>())
        .collect::<Result<_, _>>()
        .map_err(|e| format!("{text:?} is not SX,SY in pixels: {e}"))?;
    match parts.as_slice() {
        &[x, y] => Ok((x, y)),
        _ => Err(format!("{text:?} is not SX,SY in pixels")),
    }
}

/// `--view-size WxH`: the view's size in pixels.
pub(super) fn parse_view_size(text: &str) -> Result<(u32, u32), String> {
    let bad = || format!("{text:?} is not WxH in pixels (such as 1024x768)");
    let (w, h) = text.split_once(['x', 'X']).ok_or_else(bad)?;
    let w: u32 = w.trim().parse().map_err(|_| bad())?;
    let h: u32 = h.trim().parse().map_err(|_| bad())?;
    if w == 0 || h == 0 {
        return Err(bad());
    }
    Ok((w, h))
}

/// The art and texture maps of a client folder, mapped (verdata's art patches applied
/// unless `no_verdata`); no texture maps when the folder has none.
pub(crate) struct WorldFiles {
    art: ArtFiles,
    verdata: Option<(PathBuf, mul_core::VerdataFile)>,
    texmaps: Option<TexmapFiles>,
}

impl WorldFiles {
    /// The folder's art (required) and texture maps (optional: without them no land
    /// stretches, and a note says so).
    pub(crate) fn open(dir: &Path) -> Result<Self> {
        let art = map_art(dir).with_context(|| format!("reading art in {}", dir.display()))?;
        let verdata = folder_verdata(dir, false)?;
        let has_texmaps = gamedata_io::find_file_ignoring_case(dir, "texidx.mul").is_ok()
            && gamedata_io::find_file_ignoring_case(dir, "texmaps.mul").is_ok();
        let texmaps = if has_texmaps {
            Some(
                map_texmaps(dir)
                    .with_context(|| format!("reading texture maps in {}", dir.display()))?,
            )
        } else {
            crate::output::error_line(&format!(
                "note: no texidx.mul and texmaps.mul in {}: land is drawn flat",
                dir.display()
            ));
            None
        };
        Ok(WorldFiles {
            art,
            verdata,
            texmaps,
        })
    }

    /// `f` run on the world of `facet` drawn with these files (the art with verdata's
    /// patches); `dir` names the folder in the error for a facet without tiledata or hues.
    pub(crate) fn with_source<T>(
        &self,
        facet: &mul_core::Facet<'_>,
        dir: &Path,
        f: impl FnOnce(&WorldSource<'_, '_>) -> Result<T>,
    ) -> Result<T> {
        let patches = self.verdata.as_ref().map(|(_, v)| v.view()).transpose()?;
        let art = match &patches {
            Some(patches) => self.art.view()?.with_verdata(patches),
            None => self.art.view()?,
        };
        let texmaps = self.texmaps.as_ref().map(TexmapFiles::view).transpose()?;
        let source = match WorldSource::new(facet, &art, texmaps.as_ref()) {
            Ok(source) => source,
            Err(gamedata_render::RenderError::MissingTable { table, .. }) => bail!(
                "no {} in {}; the world style needs it",
                table.file_name(),
                dir.display()
            ),
            Err(other) => return Err(other.into()),
        };
        f(&source)
    }

    /// The files read, never to be written over.
    pub(crate) fn inputs(&self) -> Vec<&Path> {
        self.art
            .paths
            .iter()
            .flat_map(PicturePaths::files)
            .chain(self.texmaps.iter().flat_map(|t| t.paths.iter().flatten()))
            .map(PathBuf::as_path)
            .chain(self.verdata.as_ref().map(|(p, _)| p.as_path()))
            .collect()
    }
}

/// Maps the art files through mul-core's owner.
///
/// SAFETY contract taken on here: as [`super::open_facet`]'s.
#[allow(unsafe_code)]
fn map_art(dir: &Path) -> Result<ArtFiles, mul_core::Error> {
    // SAFETY: see this function's documentation.
    unsafe { ArtFiles::map(dir, None) }
}

/// Maps texidx.mul and texmaps.mul through mul-core's owner.
///
/// SAFETY contract taken on here: as [`super::open_facet`]'s.
#[allow(unsafe_code)]
fn map_texmaps(dir: &Path) -> Result<TexmapFiles, mul_core::Error> {
    // SAFETY: see this function's documentation.
    unsafe { TexmapFiles::map(dir, ()) }
}

/// What `uo render --style world --json` prints.
#[derive(Serialize)]
struct WorldReport {
    output: String,
    bytes: u64,
    /// Pixels.
    width: u32,
    /// Pixels.
    height: u32,
    style: &'static str,
    /// The view: SX, SY, W, H in the client's screen pixels.
    view: [i64; 4],
    /// Land tiles drawn.
    tiles_drawn: u64,
    /// Statics drawn.
    statics_drawn: u64,
    /// Land tiles drawn as texture maps.
    stretched: u64,
    elapsed_ms: f64,
}

/// What a world render is asked for.
pub(super) struct WorldAsk<'a> {
    pub(super) dir: &'a Path,
    pub(super) output: &'a Path,
    pub(super) view: Option<(i64, i64)>,
    pub(super) view_size: Option<(u32, u32)>,
    pub(super) region: Option<Region>,
}

/// `uo render --style world`: the view asked for (or the frame of `--region`, or of the
/// whole facet) written to the output.
pub(super) fn render(
    facet: &mul_core::Facet<'_>,
    ask: &WorldAsk<'_>,
    facet_inputs: &[&Path],
    out: &mut Output,
) -> Result<()> {
    let start = std::time::Instant::now();
    let files = WorldFiles::open(ask.dir)?;
    let (view, counts) = files.with_source(facet, ask.dir, |source| {
        let view = world_view(source, facet, ask)?;
        let mut inputs: Vec<&Path> = facet_inputs.to_vec();
        inputs.extend(files.inputs());
        let bar = progress_bar(
            u64::from(view.height),
            "rendering {bar:40} {percent}% {eta}",
        );
        let mut counts = WorldCounts::default();
        write_file(ask.output, &inputs, |w| {
            let png = crate::render::compression();
            counts = source.write_png(view, png, w, &|n| bar.inc(u64::from(n)))?;
            Ok(())
        })?;
        bar.finish_and_clear();
        Ok((view, counts))
    })?;
    let report = WorldReport {
        bytes: Written::of(ask.output)?.bytes,
        output: ask.output.display().to_string(),
        width: view.width,
        height: view.height,
        style: "world",
        view: [
            view.x,
            view.y,
            i64::from(view.width),
            i64::from(view.height),
        ],
        tiles_drawn: counts.tiles_drawn,
        statics_drawn: counts.statics_drawn,
        stretched: counts.stretched,
        elapsed_ms: elapsed_ms(start),
    };
    out.report(&report, |w| {
        writeln!(
            w,
            "wrote {} ({} x {} pixels from ({}, {}), world style: {} land tiles, {} stretched, {} statics)",
            report.output,
            report.width,
            report.height,
            view.x,
            view.y,
            report.tiles_drawn,
            report.stretched,
            report.statics_drawn
        )
    })
}

/// The view `ask` names: its `--view` and `--view-size`, or the frame of its `--region` (or
/// of the whole facet), within the picture cap.
fn world_view(
    source: &WorldSource<'_, '_>,
    facet: &mul_core::Facet<'_>,
    ask: &WorldAsk<'_>,
) -> Result<WorldView> {
    let view = match (ask.view, ask.view_size, ask.region) {
        (Some(_), _, Some(_)) => bail!("give --view with --view-size, or --region, not both"),
        (Some((x, y)), Some((width, height)), None) => WorldView {
            x,
            y,
            width,
            height,
        },
        (Some(_), None, None) | (None, Some(_), _) => {
            bail!("--view SX,SY and --view-size WxH go together")
        }
        (None, None, region) => {
            let size = facet.size();
            let region = match region {
                Some(asked) => asked
                    .clip(size.width(), size.height())
                    .with_context(|| format!("the region {asked} is outside the {size} map"))?,
                None => Region::whole(size.width(), size.height()),
            };
            source.frame(Some(region))?
        }
    };
    if view.check().is_err() {
        bail!(
            "a {} x {} pixel view cannot be drawn: a picture has 1 to {} pixels (give \
             --view with a smaller --view-size, or a smaller --region; `uo tiles --style \
             world` draws a whole facet)",
            view.width,
            view.height,
            gamedata_render::MAX_PIXELS
        );
    }
    Ok(view)
}

/// What a world pyramid is asked for.
pub(super) struct PyramidAsk<'a> {
    pub(super) dir: &'a Path,
    pub(super) facet_number: u8,
    pub(super) base_scale: u32,
    pub(super) pyramid: &'a PyramidArgs,
}

/// `uo tiles --style world`: the whole facet's isometric plane as web map tiles with the
/// viewer, tiles outside the world not written.
pub(super) fn tiles(
    facet: &mul_core::Facet<'_>,
    ask: &PyramidAsk<'_>,
    facet_inputs: &[&Path],
    out: &mut Output,
) -> Result<()> {
    let files = WorldFiles::open(ask.dir)?;
    files.with_source(facet, ask.dir, |source| {
        let tiles = WorldTiles::new(source, ask.base_scale)?;
        let frame = tiles.frame();
        let mut drawn_with = serde_json::Map::new();
        drawn_with.insert("style".into(), "world".into());
        drawn_with.insert("base_scale".into(), ask.base_scale.into());
        drawn_with.insert(
            "view".into(),
            serde_json::json!([frame.x, frame.y, frame.width, frame.height]),
        );
        let viewer = Viewer {
            title: format!(
                "Facet {}: {}, as the client draws it",
                ask.facet_number,
                facet.size()
            ),
            unit: "pixel",
            cell: 1,
            cell_unit: "pixel",
            drawn_with,
            iso: Some([frame.x, frame.y, i64::from(ask.base_scale)]),
        };
        let mut inputs: Vec<&Path> = facet_inputs.to_vec();
        inputs.extend(files.inputs());
        write_tiles(
            &tiles,
            TilePng::rgba(PngFilter::Up),
            ask.pyramid,
            &viewer,
            &inputs,
            out,
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn views_and_sizes_parse_and_refuse() {
        assert_eq!(parse_view("-5,10"), Ok((-5, 10)));
        assert_eq!(parse_view(" 3 , -4 "), Ok((3, -4)));
        assert!(parse_view("3").is_err());
        assert!(parse_view("3,4,5").is_err());
        assert_eq!(parse_view_size("1024x768"), Ok((1024, 768)));
        assert_eq!(parse_view_size("2X3"), Ok((2, 3)));
        assert!(parse_view_size("0x5").is_err());
        assert!(parse_view_size("5").is_err());
        assert!(parse_view_size("-1x5").is_err());
    }
}
