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
/// `GAME/ANIZ/CYCLE100.ANI` is `GAME_CYCLE100`). Keys match in any letter case (the
/// engine's map is exact, and the games' names are upper case; a folder of extracted files
/// may not be). Of two files with one key the last the engine's scan meets wins, as its
/// registry keeps the last (gruntz-decomp `src/DDrawMgr/DDrawSubMgrLeaf.cpp`, `ScanTree`
/// and `CreateAniEntry`): a folder's subfolders first, in order, then its own files, in
/// order (this project takes the archive's stored order). Built by [`ImageIndex::animations`], in one pass over the
/// index's folders and one listing of each animation folder; it keeps 24 bytes a key (a
/// keyed 64-bit hash, checked against the file's path when looked up:
/// [`ImageIndex::find_animation`]), not the keys' text.
#[derive(Clone, Debug, Default)]
pub struct Animations {
    listings: Vec<Frames>,
    /// For each listing, where its files come in the engine's scan: the last folder of its
    /// subtree in the index's order, and its depth (of two folders with the same last one,
    /// the deeper is scanned first).
    scan: Vec<(u32, u32)>,
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
        // The last folder of each folder's subtree (a parent always comes before its
        // folders, so one pass from the end finds them).
        let mut last: Vec<u32> = Vec::new();
        if !roots.is_empty() {
            last = (0..u32::try_from(self.len()).unwrap_or(u32::MAX)).collect();
            for i in (1..last.len()).rev() {
                let parent = self.parent_of(u32::try_from(i).unwrap_or(0)) as usize;
                let end = last.get(i).copied().unwrap_or(0);
                if let Some(p) = last.get_mut(parent) {
                    *p = (*p).max(end);
                }
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
                let end = last.get(folder.0 as usize).copied().unwrap_or(folder.0);
                let depth = u32::try_from(chain.len()).unwrap_or(u32::MAX);
                anis.scan.push((end, depth));
            }
        }
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
    /// or `None`: the files whose key hashes alike, each checked against its path; of
    /// several, the last the engine's scan meets.
    pub fn find_animation(&self, anis: &Animations, key: &[u8]) -> Option<AniId> {
        let hash = anis.hash(key);
        let start = anis.slots.partition_point(|(h, _, _)| *h < hash);
        let key = gamedata_io::latin1(key);
        anis.slots
            .get(start..)?
            .iter()
            .take_while(|(h, _, _)| *h == hash)
            .filter(|(_, id, root)| {
                let files = anis.listings.get(id.listing as usize);
                files
                    .and_then(|f| self.key_of(f, id.file as usize, anis, *root))
                    .is_some_and(|k| k.eq_ignore_ascii_case(&key))
            })
            .max_by_key(|(_, id, _)| {
                let (end, depth) = anis
                    .scan
                    .get(id.listing as usize)
                    .copied()
                    .unwrap_or_default();
                // Later subtrees last; of one subtree's end, the shallower folder last.
                (end, std::cmp::Reverse(depth), id.file)
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
