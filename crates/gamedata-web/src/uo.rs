//! Ultima Online: a client folder's facets, drawn as `uo tiles` draws them (a radar style,
//! or the world as the client draws it when the folder has the art).

use anyhow::{Context, Result, bail};
use gamedata_io::FileOptions;
use gamedata_render::uo::world::{WorldSource, WorldTiles};
use gamedata_render::uo::{RadarOptions, RadarSource, RadarStyle};
use gamedata_render::{RenderError, TileSource};
use mul_core::{
    ArtFiles, DiffData, DiffPaths, FacetData, FacetFiles, FacetOptions, FacetPaths, MapFormat,
    MapSize, PictureData, PicturePaths, TexmapFiles, VerdataFile,
};

use crate::files::{File, Folder};
use crate::id::MapId;

/// The options of a facet's id: `uo tiles`' flags.
pub(crate) const OPTIONS: &[&str] = &[
    "width=",
    "height=",
    "apply-diffs",
    "hillshade",
    "base-scale=",
    "max-zoom=",
];

/// What is at one tile: the keys of `gamedata uo tile --json`, and the tiledata names.
#[derive(Debug, serde::Serialize)]
pub struct TileAt {
    /// Column in tiles.
    pub x: u32,
    /// Row in tiles.
    pub y: u32,
    /// The land cell.
    pub land: LandAt,
    /// The statics placed on the tile, in the file's order.
    pub statics: Vec<StaticAt>,
    /// The top surface's z (`Facet::top_surface`), with tiledata.
    pub top_z: Option<i16>,
    /// The land's and statics' names in tiledata.mul, when the folder has it.
    pub names: Option<TileNames>,
}

/// A land cell: its id and height.
#[derive(Debug, serde::Serialize)]
pub struct LandAt {
    /// The land tile id.
    pub id: u16,
    /// Its height.
    pub z: i8,
}

/// A static on a tile.
#[derive(Debug, serde::Serialize)]
pub struct StaticAt {
    /// The item id.
    pub id: u16,
    /// Its height.
    pub z: i8,
    /// Its hue.
    pub hue: u16,
}

/// The names tiledata.mul gives a tile's land and statics.
#[derive(Debug, serde::Serialize)]
pub struct TileNames {
    /// The land tile's name.
    pub land: String,
    /// Each static's name, in the statics' order.
    pub statics: Vec<String>,
}

/// The map's bytes a block (8 x 8 cells of 3 bytes and a 4-byte header).
const BLOCK_BYTES: u64 = 196;

/// One facet's files in a folder, and the tables the styles draw with.
pub(crate) struct Facet {
    /// The folder's path.
    pub(crate) dir: String,
    /// The facet number in the file names.
    pub(crate) number: u8,
    map: (File, MapFormat),
    staidx: File,
    statics: File,
    tiledata: Option<File>,
    radarcol: Option<File>,
    hues: Option<File>,
    diffs: [Option<File>; 5],
    /// artidx.mul with art.mul, or artLegacyMUL.uop.
    art: Option<Vec<File>>,
    texmaps: Option<[File; 2]>,
    verdata: Option<File>,
}

impl Facet {
    /// The facets in `folder`: each number with a map (map{N}.mul, else
    /// map{N}LegacyMUL.uop, else map{N}xLegacyMUL.uop), staidx{N}.mul and statics{N}.mul;
    /// a map without the other two is an error.
    pub(crate) fn find(folder: &Folder) -> Vec<Result<Facet>> {
        (0..=u8::MAX)
            .filter_map(|n| {
                let map = folder
                    .find(&MapFormat::Mul.file_name(n))
                    .map(|f| (f.clone(), MapFormat::Mul))
                    .or_else(|| {
                        [MapFormat::Uop.file_name(n), format!("map{n}xLegacyMUL.uop")]
                            .iter()
                            .find_map(|name| folder.find(name))
                            .map(|f| (f.clone(), MapFormat::Uop))
                    })?;
                Some(Self::with_map(folder, n, map))
            })
            .collect()
    }

    fn with_map(folder: &Folder, n: u8, map: (File, MapFormat)) -> Result<Facet> {
        let required = |name: String| {
            folder.find(&name).cloned().with_context(|| {
                format!(
                    "facet {n} in {}: {} has no {name} beside it",
                    folder.path, map.0.path
                )
            })
        };
        let optional = |name: &str| folder.find(name).cloned();
        let art = match (optional("artidx.mul"), optional("art.mul")) {
            (Some(idx), Some(mul)) => Some(vec![idx, mul]),
            _ => optional("artLegacyMUL.uop").map(|uop| vec![uop]),
        };
        Ok(Facet {
            dir: folder.path.clone(),
            number: n,
            staidx: required(format!("staidx{n}.mul"))?,
            statics: required(format!("statics{n}.mul"))?,
            map,
            tiledata: optional("tiledata.mul"),
            radarcol: optional("radarcol.mul"),
            hues: optional("hues.mul"),
            diffs: [
                optional(&format!("mapdifl{n}.mul")),
                optional(&format!("mapdif{n}.mul")),
                optional(&format!("stadifl{n}.mul")),
                optional(&format!("stadifi{n}.mul")),
                optional(&format!("stadif{n}.mul")),
            ],
            art,
            texmaps: match (optional("texidx.mul"), optional("texmaps.mul")) {
                (Some(idx), Some(mul)) => Some([idx, mul]),
                _ => None,
            },
            verdata: optional("verdata.mul"),
        })
    }

    /// The styles listed for this facet (`flat` and `client` need radarcol.mul, `client`
    /// and `world` tiledata.mul and hues.mul, `world` the art), and the size options the
    /// ids carry: none when the map's length proves its size, `width=W,height=H` when it
    /// does not but its blocks make a square (a guess the id shows).
    ///
    /// Returns `Err` (the reader's sentence) when the facet cannot be opened at all.
    pub(crate) fn listing(&self) -> Result<(Vec<&'static str>, String)> {
        let opened = |options: &FacetOptions| {
            self.open(options)
                .and_then(|f| f.view().map(drop).with_context(|| self.doing()))
        };
        let size_options = match opened(&FacetOptions::default()) {
            Ok(()) => String::new(),
            Err(first) => {
                let Some(side) = self.square_side() else {
                    return Err(first);
                };
                let size = MapSize::from_tiles(side, side)?;
                match opened(&FacetOptions::default().with_size(size)) {
                    Ok(()) => format!("?width={side},height={side}"),
                    Err(_) => return Err(first),
                }
            }
        };
        let tables = self.tiledata.is_some() && self.hues.is_some();
        let mut styles = Vec::new();
        if self.radarcol.is_some() {
            styles.push("flat");
            if tables {
                styles.push("client");
            }
        }
        if tables && self.art.is_some() {
            styles.push("world");
        }
        Ok((styles, size_options))
    }

    /// The side in tiles of a square map of the MUL map's length, if it is whole blocks
    /// making a square.
    fn square_side(&self) -> Option<u32> {
        if self.map.1 != MapFormat::Mul {
            return None;
        }
        let len = self.map.0.size;
        let blocks = len
            .is_multiple_of(BLOCK_BYTES)
            .then_some(len / BLOCK_BYTES)?;
        let side = blocks.isqrt();
        (side > 0 && side * side == blocks)
            .then(|| u32::try_from(side * 8).ok())
            .flatten()
    }

    fn doing(&self) -> String {
        format!("reading facet {} in {}", self.number, self.dir)
    }

    /// The facet's files opened with `options`, as `uo tiles` opens them.
    fn open(&self, options: &FacetOptions) -> Result<FacetFiles> {
        let path = |f: &Option<File>| f.as_ref().map(File::path_buf);
        let data = |f: &Option<File>| f.as_ref().map(File::data).transpose();
        let [mapdifl, mapdif, stadifl, stadifi, stadif] = &self.diffs;
        let paths = FacetPaths {
            facet: self.number,
            map: self.map.0.path_buf(),
            map_format: self.map.1,
            staidx: self.staidx.path_buf(),
            statics: self.statics.path_buf(),
            tiledata: path(&self.tiledata),
            radarcol: path(&self.radarcol),
            hues: path(&self.hues),
            diffs: DiffPaths {
                mapdifl: path(mapdifl),
                mapdif: path(mapdif),
                stadifl: path(stadifl),
                stadifi: path(stadifi),
                stadif: path(stadif),
            },
        };
        let files = FacetData {
            map: self.map.0.data()?,
            staidx: self.staidx.data()?,
            statics: self.statics.data()?,
            tiledata: data(&self.tiledata)?,
            radarcol: data(&self.radarcol)?,
            hues: data(&self.hues)?,
            diffs: DiffData {
                mapdifl: data(mapdifl)?,
                mapdif: data(mapdif)?,
                stadifl: data(stadifl)?,
                stadifi: data(stadifi)?,
                stadif: data(stadif)?,
            },
        };
        FacetFiles::from_data(paths, files, options)
            .with_context(|| format!("opening facet {} in {}", self.number, self.dir))
    }

    /// The tile under pixel (`px`, `py`) of the picture `style` and `id` ask for (at the
    /// native zoom): the pixel's tile for the radar styles; for the world the tile whose
    /// diamond at height 0 holds the pixel's centre (as the command's viewer tells it).
    /// `None` past the map.
    pub(crate) fn tile_under(
        &self,
        style: &str,
        id: &MapId,
        id_text: &str,
        (px, py): (u32, u32),
    ) -> Result<Option<(u32, u32)>> {
        let files = self.open(&Self::options(id, id_text)?)?;
        let facet = files.view().with_context(|| self.doing())?;
        let size = facet.size();
        let (x, y) = if style == "world" {
            let base_scale: u32 = id.number(id_text, "base-scale")?.unwrap_or(1);
            let frame = self.with_world(&facet, base_scale, |tiles| Ok(tiles.frame()))?;
            // Screen point (sx, sy) lies on tile ((sx + sy) / 44, (sy - sx) / 44) at height
            // 0: tile (x, y)'s diamond has its top corner at ((x - y) * 22, (x + y) * 22 - 22).
            let k = f64::from(base_scale);
            let sx = frame.x as f64 + (f64::from(px) + 0.5) * k;
            let sy = frame.y as f64 + (f64::from(py) + 0.5) * k + 22.0;
            ((sx + sy) / 44.0, (sy - sx) / 44.0)
        } else {
            (f64::from(px), f64::from(py))
        };
        let (w, h) = (f64::from(size.width()), f64::from(size.height()));
        if !(0.0..w).contains(&x) || !(0.0..h).contains(&y) {
            return Ok(None);
        }
        #[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)]
        Ok(Some((x.floor() as u32, y.floor() as u32)))
    }

    /// The land and statics at tile (`x`, `y`) and its top surface, as `gamedata uo tile
    /// --json` reports them, with the tiledata names when there is tiledata.
    pub(crate) fn tile_at(&self, id: &MapId, id_text: &str, (x, y): (u32, u32)) -> Result<TileAt> {
        let files = self.open(&Self::options(id, id_text)?)?;
        let facet = files.view().with_context(|| self.doing())?;
        let size = facet.size();
        let cell = facet
            .map
            .cell(x, y)
            .with_context(|| format!("tile ({x}, {y}) is outside the {size} map"))?;
        let statics: Vec<StaticAt> = facet
            .statics_at(x, y)
            .with_context(|| format!("reading the statics of block ({}, {})", x / 8, y / 8))?
            .map(|s| StaticAt {
                id: s.id.get(),
                z: s.z,
                hue: s.hue.get(),
            })
            .collect();
        let top_z = match facet.tiledata {
            Some(_) => facet.top_surface(x, y)?,
            None => None,
        };
        let names = facet.tiledata.as_ref().map(|t| TileNames {
            land: t
                .land(cell.id.get() & 0x3FFF)
                .map(|l| l.name_lossy().into_owned())
                .unwrap_or_default(),
            statics: statics
                .iter()
                .map(|s| {
                    t.item(s.id)
                        .map(|i| i.name_lossy().into_owned())
                        .unwrap_or_default()
                })
                .collect(),
        });
        Ok(TileAt {
            x,
            y,
            land: LandAt {
                id: cell.id.get(),
                z: cell.z,
            },
            statics,
            top_z,
            names,
        })
    }

    /// The options `id` gives (`width=`, `height=`, `apply-diffs`).
    fn options(id: &MapId, id_text: &str) -> Result<FacetOptions> {
        let mut options = FacetOptions::default();
        match (id.number(id_text, "width")?, id.number(id_text, "height")?) {
            (Some(w), Some(h)) => options.size = Some(MapSize::from_tiles(w, h)?),
            (None, None) => {}
            _ => bail!("the map id {id_text:?} gives width= or height= alone: give both"),
        }
        options.apply_diffs = id.flag("apply-diffs");
        Ok(options)
    }

    /// `f` run on the picture `style` and `id` ask for, as `uo tiles --style STYLE` draws it.
    pub(crate) fn with_source<T>(
        &self,
        style: &str,
        id: &MapId,
        id_text: &str,
        f: impl FnOnce(&dyn TileSource) -> Result<T>,
    ) -> Result<T> {
        let files = self.open(&Self::options(id, id_text)?)?;
        let facet = files.view().with_context(|| self.doing())?;
        let base_scale: u32 = id.number(id_text, "base-scale")?.unwrap_or(1);
        if style == "world" {
            if id.flag("hillshade") {
                bail!("hillshade does not apply to the world style");
            }
            if ![1, 2, 4, 8].contains(&base_scale) {
                bail!("base-scale={base_scale} in {id_text:?}: it is 1, 2, 4 or 8");
            }
            return self.with_world(&facet, base_scale, |tiles| f(tiles));
        }
        if base_scale != 1 {
            bail!("base-scale goes with the world style");
        }
        let style: RadarStyle = style
            .parse()
            .map_err(|e| anyhow::anyhow!("{e} (the map id {id_text:?})"))?;
        let options = RadarOptions {
            hillshade: id.flag("hillshade"),
            style,
            ..RadarOptions::default()
        };
        let Some(colours) = facet.radar else {
            bail!("no radarcol.mul in {}; the radar styles need one", self.dir);
        };
        let source = match RadarSource::new(&facet, &colours, &options) {
            Ok(source) => source,
            Err(RenderError::MissingTable { table, style }) => bail!(
                "no {} in {}; the {style} style needs one",
                table.file_name(),
                self.dir
            ),
            Err(other) => return Err(other.into()),
        };
        f(&source)
    }

    /// The world style: the art (verdata's patches applied, as `uo tiles` does), the
    /// texture maps when there are some.
    fn with_world<T>(
        &self,
        facet: &mul_core::Facet<'_>,
        base_scale: u32,
        f: impl FnOnce(&WorldTiles<'_, '_, '_>) -> Result<T>,
    ) -> Result<T> {
        let options = FileOptions::default();
        let reading = |what: &str| format!("reading {what} in {}", self.dir);
        let art = match self.art.as_deref() {
            Some([idx, mul]) => ArtFiles::from_data(
                Some(PicturePaths::Mul([idx.path_buf(), mul.path_buf()])),
                PictureData::Mul([idx.data()?, mul.data()?]),
                &options,
            ),
            Some([uop]) => ArtFiles::from_data(
                Some(PicturePaths::Uop(uop.path_buf())),
                PictureData::Uop(uop.data()?),
                &options,
            ),
            _ => bail!(
                "no art (artidx.mul with art.mul, or artLegacyMUL.uop) in {}",
                self.dir
            ),
        }
        .with_context(|| reading("art"))?;
        let verdata = (self.verdata.as_ref())
            .map(|v| {
                VerdataFile::from_data(v.data()?, &options).with_context(|| reading("verdata.mul"))
            })
            .transpose()?;
        let texmaps = (self.texmaps.as_ref())
            .map(|[idx, mul]| {
                TexmapFiles::from_data(
                    Some([idx.path_buf(), mul.path_buf()]),
                    [idx.data()?, mul.data()?],
                    &options,
                )
                .with_context(|| reading("texture maps"))
            })
            .transpose()?;
        let patches = verdata.as_ref().map(VerdataFile::view).transpose()?;
        let art = match &patches {
            Some(patches) => art.view()?.with_verdata(patches),
            None => art.view()?,
        };
        let texmaps = texmaps.as_ref().map(TexmapFiles::view).transpose()?;
        let source = match WorldSource::new(facet, &art, texmaps.as_ref()) {
            Ok(source) => source,
            Err(RenderError::MissingTable { table, .. }) => bail!(
                "no {} in {}; the world style needs it",
                table.file_name(),
                self.dir
            ),
            Err(other) => return Err(other.into()),
        };
        let tiles = WorldTiles::new(&source, base_scale)?;
        f(&tiles)
    }
}
