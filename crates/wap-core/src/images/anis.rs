//! The animations a level's objects name, by key, as the engine registers them
//! (`docs/formats/wap32.md`, "ANI animations"; gruntz-decomp `src/Gruntz/PlayAssetLoad.cpp`,
//! `LoadLevelAnims` and `LoadGameAnims`).

use std::borrow::Cow;
use std::collections::HashMap;

use super::{Frames, ImageIndex, ImageNames};
use crate::error::Result;

/// Whether `name` ends in `.ANI` in any letter case.
fn is_ani(name: &str) -> bool {
    name.rsplit_once('.')
        .is_some_and(|(_, e)| e.eq_ignore_ascii_case("ANI"))
}

/// The animation folder beside an image folder named `name`: `ANIS` beside Claw's
/// `IMAGES`, `ANIZ` beside Gruntz's `IMAGEZ`.
fn animation_folder(name: &str) -> Option<&'static str> {
    if name.eq_ignore_ascii_case("IMAGES") {
        Some("ANIS")
    } else if name.eq_ignore_ascii_case("IMAGEZ") {
        Some("ANIZ")
    } else {
        None
    }
}

/// One animation file of [`Animations`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct AniId {
    listing: u32,
    file: u32,
}

/// Every `.ANI` file under the animation folders of a level's image-set prefixes, by the
/// key an object's animation string gives it: the prefix, the folders below the animation
/// folder and the file's name without `.ANI`, joined by `_` (`LEVEL1/ANIS/MANICALS/
/// MANICAL.ANI` is `LEVEL_MANICALS_MANICAL` when `LEVEL` stands for `LEVEL1/IMAGES`; Gruntz's
/// `GAME/ANIZ/CYCLE100.ANI` is `GAME_CYCLE100`). Keys match in any letter case; of two
/// files with one key the first found wins (folders in the index's walk order, files in
/// their folder's order). Built by [`ImageIndex::animations`], in one pass over the
/// index's folders and one listing of each animation folder.
#[derive(Clone, Debug, Default)]
pub struct Animations {
    listings: Vec<Frames>,
    by_key: HashMap<String, AniId>,
    unread: u64,
}

impl Animations {
    /// The animation `key` names (an object's animation string), or `None`.
    pub fn find(&self, key: &[u8]) -> Option<AniId> {
        let key = gamedata_io::latin1(key).to_ascii_uppercase();
        self.by_key.get(&key).copied()
    }

    /// Keys registered.
    pub fn len(&self) -> usize {
        self.by_key.len()
    }

    /// True when no animation is registered.
    pub fn is_empty(&self) -> bool {
        self.by_key.is_empty()
    }

    /// Animation folders that could not be listed (their animations are not registered).
    pub fn unread(&self) -> u64 {
        self.unread
    }
}

impl<'s> ImageIndex<'s> {
    /// The animations of the prefixes `names` gives ([`Animations`]): for each prefix
    /// whose folder is an `IMAGES` (`IMAGEZ`) folder, every `.ANI` file under the `ANIS`
    /// (`ANIZ`) folder beside it. Costs one walk of the index's folders and one listing of
    /// each animation folder, whatever the number of prefixes that share one.
    pub fn animations(&self, names: &ImageNames) -> Animations {
        // Each root as its folder names, with its prefix.
        let mut roots: Vec<(Vec<Cow<'s, str>>, &str)> = Vec::new();
        for (prefix, key) in &names.prefixes {
            let Some(images) = self.find_set(key) else {
                continue;
            };
            let mut chain = self.chain(images.0);
            let Some(beside) = chain.last().and_then(|n| animation_folder(n)) else {
                continue;
            };
            chain.pop();
            chain.push(Cow::Borrowed(beside));
            if let Some(root) = self.folder(&chain.join("/")) {
                roots.push((self.chain(root.0), prefix));
            }
        }
        let mut anis = Animations::default();
        if roots.is_empty() {
            return anis;
        }
        for folder in self.folders() {
            let chain = self.chain(folder.0);
            let mut listing = None;
            for (root, prefix) in &roots {
                let under = chain.len() >= root.len()
                    && chain
                        .iter()
                        .zip(root)
                        .all(|(a, b)| a.eq_ignore_ascii_case(b));
                if !under {
                    continue;
                }
                if listing.is_none() {
                    match self.listing(folder, is_ani) {
                        Ok(l) => listing = Some(l),
                        Err(_) => {
                            anis.unread = anis.unread.saturating_add(1);
                            break;
                        }
                    }
                }
                let Some(files) = &listing else { break };
                let below = chain.get(root.len()..).unwrap_or_default();
                let at = u32::try_from(anis.listings.len()).unwrap_or(u32::MAX);
                for file in 0..files.len() {
                    let Some(path) = self.image_path(files, file) else {
                        continue;
                    };
                    let name = path.rsplit('/').next().unwrap_or_default();
                    let stem = name.rsplit_once('.').map_or(name, |(s, _)| s);
                    let mut key = (*prefix).to_owned();
                    for part in below {
                        key.push('_');
                        key.push_str(part);
                    }
                    key.push('_');
                    key.push_str(stem);
                    let id = AniId {
                        listing: at,
                        file: u32::try_from(file).unwrap_or(u32::MAX),
                    };
                    anis.by_key.entry(key.to_ascii_uppercase()).or_insert(id);
                }
            }
            if let Some(files) = listing {
                anis.listings.push(files);
            }
        }
        anis
    }

    /// The bytes of animation `id` of `anis`: borrowed from an archive, read from a disk
    /// folder (up to `Limits::max_stream_bytes` for a file that is not a regular one).
    ///
    /// Returns `Err` when a disk file cannot be read.
    pub fn animation(&self, anis: &Animations, id: AniId) -> Result<Option<Cow<'s, [u8]>>> {
        match anis.listings.get(id.listing as usize) {
            Some(files) => self.image(files, id.file as usize),
            None => Ok(None),
        }
    }

    /// The path of animation `id` of `anis` (`LEVEL1/ANIS/MANICALS/MANICAL.ANI`).
    pub fn animation_path(&self, anis: &Animations, id: AniId) -> Option<String> {
        self.image_path(anis.listings.get(id.listing as usize)?, id.file as usize)
    }
}
