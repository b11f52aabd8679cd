//! What `wwd tmx` and `cosmo tmx` share: the map's form chosen by its name, the images'
//! folder beside it, the writing of both, and the summary their `--json` starts with.

use std::path::{Path, PathBuf};

use anyhow::{Context, Result};
use gamedata_tiled::map::{LayerData, Map};
use gamedata_tiled::wwd::ExportImage;
use rayon::prelude::*;
use serde::Serialize;

/// Where an export goes: the map file, its form, and the images' folder beside it.
pub(crate) struct MapTarget<'a> {
    /// The map file named on the command line.
    pub(crate) output: &'a Path,
    /// Tiled's JSON form (TMJ), for a name ending in `.tmj` or `.json`; TMX otherwise.
    pub(crate) json: bool,
    /// The images' folder relative to the map, as the map names it (`NAME_images`).
    pub(crate) images_dir: String,
    /// The folder the map is written in (`.` for a bare name).
    folder: PathBuf,
}

impl<'a> MapTarget<'a> {
    /// The target for the map file `output`. Errors: a name that is not text.
    pub(crate) fn new(output: &'a Path) -> Result<Self> {
        let json = output
            .extension()
            .and_then(|e| e.to_str())
            .is_some_and(|e| e.eq_ignore_ascii_case("tmj") || e.eq_ignore_ascii_case("json"));
        let stem = output
            .file_stem()
            .and_then(|s| s.to_str())
            .context("the output's name is not text")?;
        let folder = match output.parent() {
            Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
            _ => PathBuf::from("."),
        };
        Ok(MapTarget {
            output,
            json,
            images_dir: format!("{stem}_images"),
            folder,
        })
    }

    /// Writes the images (encoded in parallel, then each written whole) and then the map
    /// (whole or not at all), none of them over one of `inputs`. Returns the summary of
    /// what was written.
    pub(crate) fn write(
        &self,
        map: &Map,
        images: &[ExportImage],
        inputs: &[&Path],
    ) -> Result<MapSummary> {
        let options = crate::render::png_options();
        let encoded: Vec<(PathBuf, Vec<u8>)> = images
            .par_iter()
            .map(|image| {
                let mut bytes = Vec::new();
                gamedata_render::write_png(
                    &mut bytes,
                    gamedata_render::PngPixels::Image(&image.image),
                    &options,
                )?;
                Ok((self.folder.join(&image.path), bytes))
            })
            .collect::<Result<_>>()?;
        let mut image_bytes = 0u64;
        for (path, bytes) in &encoded {
            if let Some(parent) = path.parent() {
                std::fs::create_dir_all(parent)
                    .with_context(|| format!("cannot create {}", parent.display()))?;
            }
            crate::files::write_small(path, inputs, bytes)?;
            image_bytes += bytes.len() as u64;
        }
        crate::files::write_file(self.output, inputs, |w| {
            if self.json {
                gamedata_tiled::tmj::write_tmj(map, std::io::BufWriter::new(w))?;
            } else {
                gamedata_tiled::tmx::write_tmx(map, std::io::BufWriter::new(w))?;
            }
            Ok(())
        })?;
        let kinds = |f: fn(&LayerData) -> bool| map.layers.iter().filter(|l| f(&l.data)).count();
        Ok(MapSummary {
            tmx: self.output.display().to_string(),
            format: if self.json { "tmj" } else { "tmx" },
            width: map.width,
            height: map.height,
            layers: map.layers.len(),
            tile_layers: kinds(|d| matches!(d, LayerData::Tiles(_))),
            object_layers: kinds(|d| matches!(d, LayerData::Objects(_))),
            image_layers: kinds(|d| matches!(d, LayerData::Image(_))),
            objects: map.objects().count(),
            tilesets: map.tilesets.len(),
            tiles: map.tilesets.iter().map(|t| u64::from(t.tile_count)).sum(),
            images_dir: self.folder.join(&self.images_dir).display().to_string(),
            images: encoded.len(),
            image_bytes,
            bytes: crate::files::Written::of(self.output)?.bytes,
        })
    }
}

/// The first keys of `wwd tmx --json` and `cosmo tmx --json`: the map and images written.
#[derive(Serialize)]
pub(crate) struct MapSummary {
    /// The map written.
    pub(crate) tmx: String,
    /// "tmx" or "tmj".
    pub(crate) format: &'static str,
    /// The map's size in tiles.
    pub(crate) width: u32,
    pub(crate) height: u32,
    /// Layers in all, tile layers, object layers and image layers.
    pub(crate) layers: usize,
    pub(crate) tile_layers: usize,
    pub(crate) object_layers: usize,
    pub(crate) image_layers: usize,
    /// Objects in all.
    pub(crate) objects: usize,
    pub(crate) tilesets: usize,
    /// Tiles of the tilesets in all.
    pub(crate) tiles: u64,
    /// The images' folder, the images written and their bytes.
    pub(crate) images_dir: String,
    pub(crate) images: usize,
    pub(crate) image_bytes: u64,
    /// The map file's bytes.
    pub(crate) bytes: u64,
}

impl MapSummary {
    /// The first line the commands print without `--json`, `things` naming the objects.
    pub(crate) fn line(&self, things: &str, drawn: Option<u64>) -> String {
        let drawn = drawn.map(|d| format!(", {d} drawn")).unwrap_or_default();
        format!(
            "wrote {} ({} x {} tiles, {} layers, {} {things}{drawn}, {} tilesets) and {} images in {}",
            self.tmx,
            self.width,
            self.height,
            self.layers,
            self.objects,
            self.tilesets,
            self.images,
            self.images_dir
        )
    }
}
