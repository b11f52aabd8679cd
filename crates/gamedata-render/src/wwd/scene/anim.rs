//! Objects at a time of their animations: the frame an object's ANI animation shows after
//! so many milliseconds, as the engine plays it (`docs/formats/wap32.md`, "ANI
//! animations": the registry of `ANIS`/`ANIZ` files by key, [`wap_core::Ani::play`]).

use std::borrow::Cow;
use std::collections::HashMap;

use wap_core::{AniId, Animations, FolderId, Frames, ImageIndex, ImageNames};

/// Records a scene may play in all, its animations' records read counted too: past it,
/// objects keep their level frame ([`super::SceneReport::unplayed`]). A constant, so that
/// a level of many objects naming long animations costs at most this much work.
pub const ANIMATION_STEPS: u64 = 1 << 24;

/// What a scene at a time keeps: the registry, built at the first object that names an
/// animation; each animation's bytes, read once; each object's answer, by animation, image
/// set and start frame, found once.
pub(in crate::wwd) struct Animating<'a> {
    time: u64,
    anis: Option<Animations>,
    bytes: HashMap<AniId, Option<Cow<'a, [u8]>>>,
    played: HashMap<(AniId, Option<FolderId>, i64), Option<i64>>,
    budget: u64,
}

impl Animating<'_> {
    /// Playing animations `time` milliseconds after the level starts.
    pub(in crate::wwd) fn new(time: u64) -> Self {
        Animating {
            time,
            anis: None,
            bytes: HashMap::new(),
            played: HashMap::new(),
            budget: ANIMATION_STEPS,
        }
    }
}

impl<'a> Animating<'a> {
    /// The frame number an object whose animation string is `animation`, image set
    /// `folder` and level frame `frame` shows at the scene's time, found once: `None` when
    /// the string names no animation; `Some(None)` when its animation cannot be read or
    /// played within the budget. `frames` lists the image set's frames (called once, when
    /// the answer is not known yet).
    pub(super) fn frame_at<'f>(
        &mut self,
        index: &ImageIndex<'a>,
        names: &ImageNames,
        (animation, folder, frame): (&[u8], Option<FolderId>, i64),
        frames: impl FnOnce(FolderId) -> &'f Frames,
    ) -> Option<Option<i64>> {
        if animation.is_empty() {
            return None;
        }
        let anis = self.anis.get_or_insert_with(|| index.animations(names));
        let id = index.find_animation(anis, animation)?;
        let key = (id, folder, frame);
        if let Some(done) = self.played.get(&key) {
            return Some(*done);
        }
        let answer = play(self, index, id, folder.map(frames), frame);
        self.played.insert(key, answer);
        Some(answer)
    }
}

/// Plays animation `id` on an object of `frames` from `frame`, its bytes read once; the
/// bytes walked to check its records are charged to the budget with the records played.
fn play<'a>(
    playing: &mut Animating<'a>,
    index: &ImageIndex<'a>,
    id: AniId,
    frames: Option<&Frames>,
    frame: i64,
) -> Option<i64> {
    let anis = playing.anis.as_ref()?;
    let bytes = playing
        .bytes
        .entry(id)
        .or_insert_with(|| index.animation(anis, id).ok().flatten())
        .as_deref()?;
    // Every 20 bytes may be a record that parsing walks.
    let walk = u64::try_from(bytes.len() / 20).unwrap_or(u64::MAX);
    playing.budget = playing.budget.checked_sub(walk)?;
    let ani = wap_core::Ani::parse(bytes).ok()?;
    ani.play(playing.time, frames, frame, &mut playing.budget)
}
