//! Ultima Online's texture maps (texidx.mul with texmaps.mul) as thumbnails by id, each as
//! `gamedata uo texmap` draws it (`gamedata_render::uo::texmap::texmap_picture`), with
//! TexTerr.def's redirections as the client loads them (`docs/formats/uo.md`, "Texture
//! maps"). texidx.mul is read whole, each texture map's entry alone from texmaps.mul.

use anyhow::{Context, Result};
use gamedata_render::RgbaImage;
use gamedata_render::uo::texmap::texmap_picture;
use mul_core::{TexTerrDef, Texmap, Texmaps};

use crate::art::has_picture;
use crate::files::{File, Folder};

/// The texture maps of one folder.
pub(crate) struct TexmapCatalog {
    idx: File,
    mul: File,
    def: Option<File>,
}

impl TexmapCatalog {
    /// The texture maps of `folder`, when it has texidx.mul with texmaps.mul.
    pub(crate) fn find(folder: &Folder) -> Option<Self> {
        Some(TexmapCatalog {
            idx: folder.find("texidx.mul")?.clone(),
            mul: folder.find("texmaps.mul")?.clone(),
            def: folder.find("TexTerr.def").cloned(),
        })
    }

    /// `f` run on texidx.mul's records (no data) and TexTerr.def resolved on them.
    fn with_index<T>(
        &self,
        f: impl FnOnce(&Texmaps<'_>, Option<&TexTerrDef>) -> Result<T>,
    ) -> Result<T> {
        let index = self.idx.bytes()?;
        let texmaps =
            Texmaps::parse(&index, &[]).with_context(|| format!("reading {}", self.idx.path))?;
        let text = self.def.as_ref().map(File::bytes).transpose()?;
        let def = text
            .as_deref()
            .map(|t| TexTerrDef::resolve(t, texmaps.len()));
        f(&texmaps, def.as_ref())
    }

    /// The ids whose entry (after TexTerr.def's redirection) holds a picture, rising; with
    /// `search`, the one it names (decimal or 0x hex).
    pub(crate) fn ids(&self, search: &str) -> Result<Vec<u32>> {
        let wanted = crate::art::parse_id(search.trim());
        self.with_index(|texmaps, def| {
            let len = u32::try_from(texmaps.len()).unwrap_or(u32::MAX);
            Ok((0..len)
                .filter(|&id| search.trim().is_empty() || wanted == Some(id))
                .filter(|&id| {
                    let source = def.map_or(id, |d| d.source(id));
                    texmaps
                        .index()
                        .get(source as usize)
                        .is_some_and(has_picture)
                })
                .collect())
        })
    }

    /// Texture map `id` as `gamedata uo texmap DIR ID` draws it; `None` for an empty entry
    /// or an id past the index.
    ///
    /// Returns `Err` (a sentence naming the entry) for an entry that cannot be read, or of
    /// a length that is neither 0x2000 nor 0x8000 bytes.
    pub(crate) fn picture(&self, id: u32) -> Result<Option<RgbaImage>> {
        let range = self.with_index(|texmaps, def| {
            let source = def.map_or(id, |d| d.source(id));
            Ok(texmaps
                .index()
                .get(source as usize)
                .filter(|r| has_picture(r))
                .map(|r| (u64::from(r.offset.get()), r.length.get())))
        })?;
        let Some((offset, length)) = range else {
            return Ok(None);
        };
        let name = format!("{}: texmap {id:#06X}", self.mul.path);
        let bytes = self
            .mul
            .read_at(offset, length)
            .with_context(|| name.clone())?;
        let texmap = Texmap::parse(&bytes).with_context(|| name.clone())?;
        Ok(Some(texmap_picture(&texmap)?))
    }
}
