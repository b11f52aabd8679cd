//! Ultima Online's gumps as thumbnails by id, each as `gamedata uo gump` draws it (the same
//! library code: `gamedata_render::uo::gump`): verdata.mul's gump patches applied, gump.def's
//! borrowings resolved on the index before them with their load hue, and a hue
//! (`docs/formats/uo.md`, "Gumps"). For gumpidx.mul with gumpart.mul, the index is read
//! whole and each gump's entry alone from gumpart.mul. A gumpartLegacyMUL.uop's table is
//! read by ranges with each gump's 8 bytes of size (`mul_core::uop::UopFetch`), then each
//! gump's entry alone; a compressed one is decoded alone
//! (`mul_core::DecodedGump::from_uop_entry`). A table too scattered to read that way (only
//! a hostile file's) makes the container read whole.

use anyhow::{Context, Result};
use gamedata_io::Limits;
use gamedata_render::RgbaImage;
use gamedata_render::uo::gump::{GumpHue, gump_picture};
use mul_core::raw::UopEntryRaw;
use mul_core::{DecodedGump, Gump, GumpDef, Gumps, Hues, UopPictures, Verdata};

use crate::art::{has_picture, parse_id};
use crate::files::{File, Folder, PictureFiles, UopFrom, uop_index};

/// The gumps of one folder.
pub(crate) struct GumpCatalog {
    dir: String,
    source: PictureFiles,
    hues: Option<File>,
    verdata: Option<File>,
    def: Option<File>,
}

/// Where gump `id`'s picture comes from.
enum Found<'a> {
    /// A range of gumpart.mul (offset, length) and the size word.
    Range(&'a File, u64, u32, u32),
    /// A compressed UOP entry read alone: the container, the slot, its table position and
    /// entry.
    Compressed(&'a File, usize, usize, UopEntryRaw),
    /// Decoded from the whole files (a verdata patch, or a UOP read whole).
    Drawn(Option<RgbaImage>),
}

impl GumpCatalog {
    /// The gumps of `folder`, if it has some (gumpidx.mul with gumpart.mul first, as the
    /// command chooses).
    pub(crate) fn find(folder: &Folder) -> Option<Self> {
        let source =
            PictureFiles::find(folder, "gumpidx.mul", "gumpart.mul", "gumpartLegacyMUL.uop")?;
        Some(GumpCatalog {
            dir: folder.path.clone(),
            source,
            hues: folder.find("hues.mul").cloned(),
            verdata: folder.find("verdata.mul").cloned(),
            def: folder.find("gump.def").cloned(),
        })
    }

    /// `f` run on the gumps as read (the MUL form over no data: its index only), the same
    /// with verdata's patches, and gump.def resolved on the first.
    fn with_gumps<T>(
        &self,
        f: impl FnOnce(&Gumps<'_>, &Gumps<'_>, Option<&GumpDef>) -> Result<T>,
    ) -> Result<T> {
        let verdata = self.verdata.as_ref().map(File::bytes).transpose()?;
        let patches = verdata
            .as_deref()
            .map(Verdata::parse)
            .transpose()
            .context("reading verdata.mul")?;
        let def_text = self.def.as_ref().map(File::bytes).transpose()?;
        let run = |plain: Gumps<'_>| {
            let def = def_text.as_deref().map(|t| GumpDef::resolve(t, &plain));
            let patched = match &patches {
                Some(p) => plain.clone().with_verdata(p),
                None => plain.clone(),
            };
            f(&plain, &patched, def.as_ref())
        };
        match &self.source {
            PictureFiles::Mul { idx, .. } => {
                let index = idx.bytes()?;
                run(Gumps::parse(&index, &[]).with_context(|| format!("reading {}", idx.path))?)
            }
            PictureFiles::Uop(uop, read) => {
                let read = uop_index(uop, read, UopPictures::Gumps)?;
                run(Gumps::from_uop(&read.index, read.data()))
            }
        }
    }

    /// The gump ids with a picture (their own entry, a verdata patch, or gump.def's
    /// borrowing), rising; with `search`, the one it names (decimal or 0x hex).
    pub(crate) fn ids(&self, search: &str) -> Result<Vec<u32>> {
        let wanted = parse_id(search.trim());
        self.with_gumps(|plain, patched, def| {
            let len = u32::try_from(plain.len()).unwrap_or(u32::MAX);
            Ok((0..len)
                .filter(|&id| search.trim().is_empty() || wanted == Some(id))
                .filter(|&id| {
                    patched.patch(id).is_some()
                        || plain.index().get(id as usize).is_some_and(has_picture)
                        || def.and_then(|d| d.get(id)).is_some()
                })
                .collect())
        })
    }

    /// Gump `id` with `hue` (0 for none; 0x8000 partial) as `gamedata uo gump DIR ID --hue
    /// HUE` draws it; `None` for an empty entry.
    ///
    /// Returns `Err` (a sentence naming the gump) for an entry that cannot be read or
    /// decoded, a hue without hues.mul, or a spectral hue.
    pub(crate) fn picture(&self, id: u32, hue: u16) -> Result<Option<RgbaImage>> {
        let limits = Limits::default();
        if hue & 0x7FFF != 0 && self.hues.is_none() {
            anyhow::bail!("no hues.mul in {} to draw hue {hue:#06X} with", self.dir);
        }
        // hues.mul when the folder has it: for the hue asked for and gump.def's load hues
        // (without it, a load hue is drawn as stored).
        let hues_bytes = self.hues.as_ref().map(File::bytes).transpose()?;
        let hues = hues_bytes
            .as_deref()
            .map(Hues::parse)
            .transpose()
            .context("reading hues.mul")?;
        let (found, def_hue) = self.with_gumps(|plain, patched, def| {
            let borrowed = def
                .filter(|_| patched.patch(id).is_none())
                .and_then(|d| d.get(id));
            let def_hue = borrowed.map(|b| b.hue);
            let source = borrowed.map_or(id, |b| b.source);
            // A borrowing gump draws its source's own entry, before verdata's patches.
            let from = if borrowed.is_some() { plain } else { patched };
            // The file whose entries are read alone, by their records' ranges.
            let (ranged, read) = self.source.ranged();
            if let (Some(file), None) = (ranged, from.patch(source)) {
                let slot = source as usize;
                let compressed = read.and_then(|r| match &r.from {
                    UopFrom::Tables(tables) => r.index.compressed_entry_in(tables, slot),
                    UopFrom::Whole(_) => None,
                });
                let found = match (plain.index().get(slot), compressed) {
                    (_, Some((position, raw))) => Found::Compressed(file, slot, position, *raw),
                    (Some(r), None) if has_picture(r) => Found::Range(
                        file,
                        u64::from(r.offset.get()),
                        r.length.get(),
                        r.extra.get(),
                    ),
                    // A UOP slot whose entry could not be taken: the reason, as the
                    // command gives it.
                    _ => match read.and_then(|r| r.problem(slot)) {
                        Some(problem) => {
                            return Err(anyhow::Error::from(problem)
                                .context(format!("{}: gump {id:#06X}", file.path)));
                        }
                        None => Found::Drawn(None),
                    },
                };
                return Ok((found, def_hue));
            }
            let gump_hue = gump_hue(hues.as_ref(), hue, def_hue)?;
            let drawn = match from.decoded(source, &limits)? {
                Some(decoded) => Some(gump_picture(&decoded.gump()?, gump_hue, &limits)?),
                None => None,
            };
            Ok((Found::Drawn(drawn), def_hue))
        })?;
        match found {
            Found::Drawn(picture) => Ok(picture),
            Found::Compressed(uop, slot, position, raw) => {
                let name = format!("{}: gump {id:#06X}", uop.path);
                let stored = uop.read_stored(&raw).with_context(|| name.clone())?;
                let Some(decoded) =
                    DecodedGump::from_uop_entry(slot, position, &raw, &stored, &limits)?
                else {
                    return Ok(None);
                };
                let gump_hue = gump_hue(hues.as_ref(), hue, def_hue)?;
                Ok(Some(gump_picture(&decoded.gump()?, gump_hue, &limits)?))
            }
            Found::Range(mul, offset, length, extra) => {
                let name = format!("{}: gump {id:#06X}", mul.path);
                let bytes = mul.read_at(offset, length).with_context(|| name.clone())?;
                let gump = Gump::parse(&bytes, extra).with_context(|| name.clone())?;
                let gump_hue = gump_hue(hues.as_ref(), hue, def_hue)?;
                Ok(Some(gump_picture(&gump, gump_hue, &limits)?))
            }
        }
    }
}

/// The hue a gump is drawn with, as the command draws it: `value` (0 for none) from
/// `hues`, then, for a gump gump.def lends (`def_hue`, its line's hue), the load hue when
/// there are hues.
fn gump_hue<'a>(hues: Option<&Hues<'a>>, value: u16, def_hue: Option<u16>) -> Result<GumpHue<'a>> {
    let mut hue = match hues {
        Some(h) if value != 0 => GumpHue::from_value(h, value)?,
        _ => GumpHue::default(),
    };
    if let (Some(load), Some(h)) = (def_hue, hues) {
        hue = hue.with_load_hue(h, load);
    }
    Ok(hue)
}
