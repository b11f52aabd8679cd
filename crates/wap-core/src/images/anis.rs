//! The animations a level's objects name, by key, as the engine registers them
//! (`docs/formats/wap32.md`, "ANI animations"; gruntz-decomp `src/Gruntz/PlayAssetLoad.cpp`,
//! `LoadLevelAnims` and `LoadGameAnims`).

use std::borrow::Cow;
use std::hash::{BuildHasher, Hasher, RandomState};

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
/// index's folders and one listing of each animation folder; it keeps 24 bytes a key (a
/// keyed 64-bit hash, checked against the file's path when looked up:
/// [`ImageIndex::find_animation`]), not the keys' text.
#[derive(Clone, Debug, Default)]
pub struct Animations {
    listings: Vec<Frames>,
    /// Each root's prefix and the number of folder names in its path.
    roots: Vec<(String, usize)>,
    /// (hash of the upper-case key, file, root), sorted by hash, then in the order found.
    slots: Vec<(u64, AniId, u32)>,
    hasher: RandomState,
    unread: u64,
}

impl Animations {
    /// Keys registered.
    pub fn len(&self) -> usize {
        self.slots.len()
    }

    /// True when no animation is registered.
    pub fn is_empty(&self) -> bool {
        self.slots.is_empty()
    }

    /// Animation folders that could not be listed (their animations are not registered).
    pub fn unread(&self) -> u64 {
        self.unread
    }

    /// The hash of `key` in any letter case.
    fn hash(&self, key: &[u8]) -> u64 {
        let mut h = self.hasher.build_hasher();
        for b in key {
            h.write_u8(b.to_ascii_uppercase());
        }
        h.finish()
    }
}

impl<'s> ImageIndex<'s> {
    /// The animations of the prefixes `names` gives ([`Animations`]): for each prefix
    /// whose folder is an `IMAGES` (`IMAGEZ`) folder, every `.ANI` file under the `ANIS`
    /// (`ANIZ`) folder beside it. Costs one walk of the index's folders and one listing of
    /// each animation folder, whatever the number of prefixes that share one.
    pub fn animations(&self, names: &ImageNames) -> Animations {
        let mut anis = Animations::default();
        // Each root as its folder names.
        let mut roots: Vec<Vec<Cow<'s, str>>> = Vec::new();
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
                let root = self.chain(root.0);
                anis.roots.push((prefix.clone(), root.len()));
                roots.push(root);
            }
        }
        for folder in self.folders() {
            if roots.is_empty() {
                break;
            }
            let chain = self.chain(folder.0);
            let mut listing = None;
            for (r, root) in (0u32..).zip(&roots) {
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
                let at = u32::try_from(anis.listings.len()).unwrap_or(u32::MAX);
                for file in 0..files.len() {
                    let id = AniId {
                        listing: at,
                        file: u32::try_from(file).unwrap_or(u32::MAX),
                    };
                    if let Some(key) = self.key_of(files, file, &anis, r) {
                        anis.slots.push((anis.hash(key.as_bytes()), id, r));
                    }
                }
            }
            if let Some(files) = listing {
                anis.listings.push(files);
            }
        }
        // Stable: of equal hashes, the first found stays first.
        anis.slots.sort_by_key(|(h, _, _)| *h);
        anis
    }

    /// The key file `file` of `files` has under root `root` of `anis`: the root's prefix,
    /// the folders below the root and the name without its extension, joined by `_`.
    fn key_of(&self, files: &Frames, file: usize, anis: &Animations, root: u32) -> Option<String> {
        let (prefix, depth) = anis.roots.get(root as usize)?;
        let path = self.image_path(files, file)?;
        let below = path.split('/').skip(*depth);
        let mut key = prefix.clone();
        for part in below {
            key.push('_');
            key.push_str(part);
        }
        let cut = key.rfind('.').filter(|&dot| dot > prefix.len())?;
        key.truncate(cut);
        Some(key)
    }

    /// The animation `key` names in `anis` (an object's animation string, any letter case),
    /// or `None`: the files whose key hashes alike, each checked against its path.
    pub fn find_animation(&self, anis: &Animations, key: &[u8]) -> Option<AniId> {
        let hash = anis.hash(key);
        let start = anis.slots.partition_point(|(h, _, _)| *h < hash);
        let key = gamedata_io::latin1(key);
        anis.slots
            .get(start..)?
            .iter()
            .take_while(|(h, _, _)| *h == hash)
            .find(|(_, id, root)| {
                let files = anis.listings.get(id.listing as usize);
                files
                    .and_then(|f| self.key_of(f, id.file as usize, anis, *root))
                    .is_some_and(|k| k.eq_ignore_ascii_case(&key))
            })
            .map(|(_, id, _)| *id)
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
