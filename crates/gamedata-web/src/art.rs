//! Ultima Online's art as thumbnails by id, as `gamedata uo art` draws each (the same
//! library code: `gamedata_render::uo::art`), with a hue. The art of a client folder is
//! artidx.mul with art.mul, or artLegacyMUL.uop (`docs/formats/uo.md`, "Art").
//!
//! Reading: artidx.mul is read whole (12 bytes an entry) and each picture's entry alone
//! from art.mul, by its range (`Blob.slice` in the page), so that browsing art never reads
//! art.mul whole. An art UOP's table is read by ranges (the header and its chain of table
//! blocks, `mul_core::uop::UopFetch`), then each picture's entry alone as for art.mul; a
//! table too scattered to read that way (only a hostile file's) makes the container read
//! whole. verdata.mul's art patches are applied as the command does (a patched entry is
//! read from verdata.mul, whole). Entries are checked as they are read: inside the file,
//! and the picture's own checks; the check that an entry does not overlap another's bytes,
//! which needs the whole index against the whole file, is the command's alone.

use anyhow::{Context, Result};
use gamedata_io::Limits;
use gamedata_render::RgbaImage;
use gamedata_render::uo::art::{ArtHue, item_picture, land_picture};
use mul_core::{Art, Hues, ItemArt, LandArt, TileData, UopPictures, Verdata};

use crate::files::{File, Folder, PictureFiles, uop_index};

/// The art numbers of items start here (land tiles are 0 to 0x3FFF).
const ITEM_BASE: u32 = 0x4000;

/// Which art: land tiles or items.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ArtKind {
    /// Land tiles, ids 0 to 0x3FFF (art numbers the same).
    Land,
    /// Items, ids from 0 (art number 0x4000 + id).
    Item,
}

impl ArtKind {
    /// `land` or `item`.
    pub fn parse(kind: &str) -> Result<Self> {
        match kind {
            "land" => Ok(ArtKind::Land),
            "item" => Ok(ArtKind::Item),
            other => anyhow::bail!("{other:?} is no kind of art: give land or item"),
        }
    }

    fn number(self, id: u32) -> u32 {
        match self {
            ArtKind::Land => id,
            ArtKind::Item => id.saturating_add(ITEM_BASE),
        }
    }
}

/// The art of one folder.
pub(crate) struct ArtCatalog {
    pub(crate) dir: String,
    source: PictureFiles,
    hues: Option<File>,
    tiledata: Option<File>,
    verdata: Option<File>,
}

impl ArtCatalog {
    /// The art of `folder`, if it has some (artidx.mul with art.mul first, as the command
    /// chooses).
    pub(crate) fn find(folder: &Folder) -> Option<Self> {
        let source = PictureFiles::find(folder, "artidx.mul", "art.mul", "artLegacyMUL.uop")?;
        Some(ArtCatalog {
            dir: folder.path.clone(),
            source,
            hues: folder.find("hues.mul").cloned(),
            tiledata: folder.find("tiledata.mul").cloned(),
            verdata: folder.find("verdata.mul").cloned(),
        })
    }

    /// A sentence saying what is here.
    pub(crate) fn describe(&self) -> String {
        let place = if self.dir.is_empty() {
            "the files given"
        } else {
            &self.dir
        };
        let file = match &self.source {
            PictureFiles::Mul { mul, .. } => mul.name(),
            PictureFiles::Uop(uop, _) => uop.name(),
        };
        format!("Ultima Online art: {file} in {place}")
    }

    /// `f` run on the art's index (the pictures' bytes not read: an empty data file for
    /// the MUL form) with verdata's patches, and the data for the UOP form.
    fn with_art<T>(&self, f: impl FnOnce(&Art<'_>) -> Result<T>) -> Result<T> {
        let verdata = self.verdata.as_ref().map(File::bytes).transpose()?;
        let patches = verdata
            .as_deref()
            .map(Verdata::parse)
            .transpose()
            .context("reading verdata.mul")?;
        match &self.source {
            PictureFiles::Mul { idx, .. } => {
                let index = idx.bytes()?;
                let art =
                    Art::parse(&index, &[]).with_context(|| format!("reading {}", idx.path))?;
                match &patches {
                    Some(p) => f(&art.with_verdata(p)),
                    None => f(&art),
                }
            }
            PictureFiles::Uop(uop, read) => {
                let read = uop_index(uop, read, UopPictures::Art)?;
                let art = Art::from_uop(&read.index, read.data());
                match &patches {
                    Some(p) => f(&art.with_verdata(p)),
                    None => f(&art),
                }
            }
        }
    }

    /// The ids of `kind` whose entry holds a picture (or a verdata patch), rising; with
    /// `search`, those whose id is it (decimal or 0x hex) or whose tiledata name holds it
    /// (ASCII case ignored).
    pub(crate) fn ids(&self, kind: ArtKind, search: &str) -> Result<Vec<u32>> {
        let tiledata = self.tiledata.as_ref().map(File::bytes).transpose()?;
        let tiledata = tiledata
            .as_deref()
            .map(TileData::parse)
            .transpose()
            .context("reading tiledata.mul")?;
        let search = search.trim();
        let wanted_id = parse_id(search);
        let needle = search.to_ascii_lowercase();
        self.with_art(|art| {
            // An index holds at most one record a 12 bytes of a file under 4 GiB.
            let len = u32::try_from(art.len()).unwrap_or(u32::MAX);
            let (first, end) = match kind {
                ArtKind::Land => (0, ITEM_BASE.min(len)),
                ArtKind::Item => (ITEM_BASE, len),
            };
            let mut ids = Vec::new();
            for number in first..end {
                let id = number - first;
                let present = art.patch(number).is_some()
                    || art.index().get(number as usize).is_some_and(has_picture);
                if !present {
                    continue;
                }
                let matches = search.is_empty()
                    || wanted_id == Some(id)
                    || tiledata.as_ref().is_some_and(|t| {
                        let name = match (kind, u16::try_from(id)) {
                            (ArtKind::Land, Ok(id)) => t.land(id).map(|l| l.name_lossy()),
                            (ArtKind::Item, Ok(id)) => t.item(id).map(|i| i.name_lossy()),
                            _ => None,
                        };
                        name.is_some_and(|n| n.to_ascii_lowercase().contains(&needle))
                    });
                if matches {
                    ids.push(id);
                }
            }
            Ok(ids)
        })
    }

    /// The picture of `id` of `kind` hued with `hue` (as the client stores it: 0 none,
    /// 0x8000 partial), as `gamedata uo art --land|--item ID --hue HUE` draws it; `None`
    /// for an empty entry, an item past the index, or an empty picture.
    ///
    /// Returns `Err` (a sentence naming the entry) for an entry that cannot be read or
    /// decoded, a land id past 0x3FFF or the index, a hue without hues.mul, or a spectral
    /// hue.
    pub(crate) fn picture(&self, kind: ArtKind, id: u32, hue: u16) -> Result<Option<RgbaImage>> {
        let hues = hues_for(hue, self.hues.as_ref(), &self.dir)?;
        let hue = art_hue(hues.as_deref(), hue)?;
        let name = match kind {
            ArtKind::Land => format!("land {id:#06X}"),
            ArtKind::Item => format!("item {id:#06X}"),
        };
        let land_id = u16::try_from(id).ok().filter(|&l| u32::from(l) < ITEM_BASE);
        if kind == ArtKind::Land && land_id.is_none() {
            anyhow::bail!("{name} is no land tile: their ids end at 0x3FFF");
        }
        let number = kind.number(id);
        let found = self.with_art(|art| {
            // The file whose entries are read alone, by their records' ranges.
            let (ranged, read) = self.source.ranged();
            if let (Some(mul), None) = (ranged, art.patch(number)) {
                return match art.index().get(number as usize) {
                    Some(r) if has_picture(r) => {
                        Ok(Found::Range(mul, u64::from(r.offset.get()), r.length.get()))
                    }
                    // A UOP slot whose entry could not be taken: the reason, as the
                    // command gives it.
                    Some(_) => {
                        match read.and_then(|r| r.problem(number as usize)) {
                            Some(problem) => Err(anyhow::Error::from(problem)
                                .context(format!("{}: {name}", mul.path))),
                            None => Ok(Found::Drawn(None)),
                        }
                    }
                    None if kind == ArtKind::Item => Ok(Found::Drawn(None)),
                    None => anyhow::bail!("{name} is past {}'s {} entries", mul.name(), art.len()),
                };
            }
            // Patched, or the UOP form: drawn from the art as the command draws it.
            Ok(Found::Drawn(match kind {
                ArtKind::Land => art
                    .land(land_id.unwrap_or_default())?
                    .map(|l| land_picture(&l, hue))
                    .transpose()?,
                ArtKind::Item => match art.item_at(number)? {
                    Some(item) => drawn_item(&item, hue)?,
                    None => None,
                },
            }))
        })?;
        let (mul, offset, length) = match found {
            Found::Drawn(picture) => return Ok(picture),
            Found::Range(mul, offset, length) => (mul, offset, length),
        };
        let bytes = mul
            .read_at(offset, length)
            .with_context(|| format!("{}: {name}", mul.path))?;
        let in_entry = |e: mul_core::DataError| {
            anyhow::Error::from(e).context(format!("{}: {name}", mul.path))
        };
        match kind {
            ArtKind::Land => {
                let land = LandArt::parse(&bytes).map_err(in_entry)?;
                Ok(Some(land_picture(&land, hue)?))
            }
            ArtKind::Item => drawn_item(&ItemArt::parse(&bytes).map_err(in_entry)?, hue),
        }
    }
}

/// A land or item tile's tiledata record, as `gamedata uo tiledata --land|--item ID --json`
/// reports it.
#[derive(Debug, serde::Serialize)]
pub struct TileRecord {
    /// The id.
    pub id: u32,
    /// Its name.
    pub name: String,
    /// Its flags' names, in bit order, lower case.
    pub flags: Vec<String>,
    /// An item's height (`None` for land).
    pub height: Option<u8>,
    /// An item's weight (`None` for land).
    pub weight: Option<u8>,
}

impl ArtCatalog {
    /// The tiledata record of `id` of `kind`; `None` without tiledata.mul or past its
    /// tiles.
    ///
    /// Returns `Err` (a sentence) when tiledata.mul cannot be read.
    pub(crate) fn tiledata(&self, kind: ArtKind, id: u32) -> Result<Option<TileRecord>> {
        let Some(file) = &self.tiledata else {
            return Ok(None);
        };
        let bytes = file.bytes()?;
        let t = TileData::parse(&bytes).with_context(|| format!("reading {}", file.path))?;
        let Ok(small) = u16::try_from(id) else {
            return Ok(None);
        };
        let names = |f: mul_core::TileFlags| f.names().map(str::to_ascii_lowercase).collect();
        Ok(match kind {
            ArtKind::Land => t.land(small).map(|l| TileRecord {
                id,
                name: l.name_lossy().into_owned(),
                flags: names(l.flags()),
                height: None,
                weight: None,
            }),
            ArtKind::Item => t.item(small).map(|i| TileRecord {
                id,
                name: i.name_lossy().into_owned(),
                flags: names(i.flags()),
                height: Some(i.height()),
                weight: Some(i.weight()),
            }),
        })
    }
}

/// Where a picture comes from: a range of art.mul (the file, offset, length), or drawn.
enum Found<'a> {
    Range(&'a File, u64, u32),
    Drawn(Option<RgbaImage>),
}

/// An item's picture; `None` when it is empty (no width or height: the command refuses
/// it).
fn drawn_item(item: &ItemArt<'_>, hue: ArtHue<'_>) -> Result<Option<RgbaImage>> {
    if item.width() == 0 || item.height() == 0 {
        return Ok(None);
    }
    Ok(Some(item_picture(item, hue, &Limits::default())?))
}

/// hues.mul's bytes when `hue` asks for a hue (not 0 or 0x8000 alone): the page's file,
/// read whole once.
///
/// Returns `Err` (a sentence naming `place`) when a hue is asked for without hues.mul, or
/// the file cannot be read.
pub(crate) fn hues_for(
    hue: u16,
    hues: Option<&File>,
    place: &str,
) -> Result<Option<std::sync::Arc<[u8]>>> {
    match (hue & 0x7FFF, hues) {
        (0, _) => Ok(None),
        (_, Some(file)) => Ok(Some(file.bytes()?)),
        (_, None) => anyhow::bail!("no hues.mul in {place} to draw hue {hue:#06X} with"),
    }
}

/// What hue value `hue` asks of a picture with `hues` (hues.mul's bytes, when a hue is
/// asked for: [`hues_for`]), as `gamedata uo art --hue` and `uo anim --hue` draw it.
///
/// Returns `Err` when hues.mul cannot be read, or for a spectral hue (bit 0x4000).
pub(crate) fn art_hue(hues: Option<&[u8]>, hue: u16) -> Result<ArtHue<'_>> {
    match hues {
        Some(bytes) => {
            let table = Hues::parse(bytes).context("reading hues.mul")?;
            Ok(ArtHue::from_value(&table, hue)?)
        }
        None => Ok(ArtHue::None),
    }
}

/// True when an index record holds a picture (offset and length set, as the client reads
/// them: `docs/formats/uo.md`, "Index files"; the rule of mul-core's picture indexes).
pub(crate) fn has_picture(record: &mul_core::raw::IndexRecord) -> bool {
    let (offset, length) = (record.offset.get(), record.length.get());
    offset != u32::MAX && length != 0 && length != u32::MAX
}

/// `search` as an id: decimal or 0x hex.
pub(crate) fn parse_id(search: &str) -> Option<u32> {
    match search
        .strip_prefix("0x")
        .or_else(|| search.strip_prefix("0X"))
    {
        Some(hex) => u32::from_str_radix(hex, 16).ok(),
        None => search.parse().ok(),
    }
}
