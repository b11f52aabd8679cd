//! Ultima Online's animations (anim.idx with anim.mul), played: a body's action in one of
//! the eight directions, each frame as `gamedata uo anim` draws it (the same library code:
//! `gamedata_render::uo::anim`). anim.idx is read whole (12 bytes a record) and each frame
//! group alone from anim.mul, by its range, so a gigabyte of animations is never read
//! whole. A body's block of records follows mobtypes.txt's type and flags when it lists the
//! body, as the command and ClassicUO's `AnimationsLoader.GetIndices` find it
//! (`docs/formats/uo.md`, "Animations"). anim2 to anim5 and the UOP form are the command's
//! alone in this part.

use anyhow::{Context, Result};
use gamedata_io::Limits;
use gamedata_render::RgbaImage;
use gamedata_render::uo::anim::{frame_picture, mirror};
use mul_core::anim::anim_entry_is_empty;
use mul_core::{AnimFileId, Animations, BodyRecords, Facing, FrameGroup, MobTypes};

use crate::art::{art_hue, hues_for};
use crate::files::{File, Folder};

/// The client's time a frame of a mobile's animation stays shown, in milliseconds:
/// `Constants.CHARACTER_ANIMATION_DELAY` (80), which `Mobile.ProcessAnimation` waits
/// between frames (ClassicUO 6854924f, `Game/Constants.cs`, `Game/GameObjects/Mobile.cs`).
pub const FRAME_MS: u32 = 80;

/// One frame drawn: its picture and where its centre lies in it.
#[derive(Debug)]
pub struct AnimFramePicture {
    /// The frame's pixels (0 x 0 for an empty frame).
    pub picture: RgbaImage,
    /// The centre's x in the picture (mirrored with the picture).
    pub centre_x: i32,
    /// The centre's y.
    pub centre_y: i32,
}

/// The animations of one folder.
pub(crate) struct AnimCatalog {
    idx: File,
    mul: File,
    hues: Option<File>,
    mobtypes: Option<File>,
}

impl AnimCatalog {
    /// The animations of `folder`, when it has anim.idx with anim.mul.
    pub(crate) fn find(folder: &Folder) -> Option<Self> {
        Some(AnimCatalog {
            idx: folder.find("anim.idx")?.clone(),
            mul: folder.find("anim.mul")?.clone(),
            hues: folder.find("hues.mul").cloned(),
            mobtypes: folder.find("mobtypes.txt").cloned(),
        })
    }

    /// `f` run on anim.idx over no data (the records only) and mobtypes.txt's lines.
    fn with_index<T>(
        &self,
        f: impl FnOnce(&Animations<'_>, Option<&MobTypes>) -> Result<T>,
    ) -> Result<T> {
        let index = self.idx.bytes()?;
        let anim = Animations::parse(AnimFileId::Anim, &index, &[])
            .with_context(|| format!("reading {}", self.idx.path))?;
        let text = self.mobtypes.as_ref().map(File::bytes).transpose()?;
        let mobtypes = text.as_deref().map(MobTypes::parse);
        f(&anim, mobtypes.as_ref())
    }

    /// The bodies with frames, and for each its actions with frames in some direction
    /// (rising), found from the index's records alone.
    pub(crate) fn bodies(&self) -> Result<Vec<(u16, Vec<u16>)>> {
        self.with_index(|anim, mobtypes| {
            let mut bodies = Vec::new();
            for body in 0..=u16::MAX {
                let Some(records) = block(anim, mobtypes, body) else {
                    continue;
                };
                let actions: Vec<u16> = (0..u16::from(records.actions))
                    .filter(|&action| {
                        (0..5).any(|direction| {
                            records
                                .record(action, direction)
                                .ok()
                                .and_then(|r| anim.index().get(r as usize))
                                .is_some_and(has_frames)
                        })
                    })
                    .collect();
                if !actions.is_empty() {
                    bodies.push((body, actions));
                }
            }
            Ok(bodies)
        })
    }

    /// Body `body`'s action `action` in direction `direction` (0 to 7 as the command
    /// numbers them: 5 to 7 mirror 3 to 1), with `hue`: each frame as `gamedata uo anim`
    /// draws it, in order (a repeated frame drawn again). Empty when the record is empty.
    ///
    /// Returns `Err` (a sentence naming the body, action and direction) for a body with no
    /// animation, an action or direction past the body's, a record past anim.mul, or
    /// frames that cannot be decoded; a hue without hues.mul.
    pub(crate) fn frames(
        &self,
        body: u16,
        action: u16,
        direction: u8,
        hue: u16,
    ) -> Result<Vec<AnimFramePicture>> {
        let facing = Facing::of(direction)
            .with_context(|| format!("direction {direction}: they are 0 to 7"))?;
        let hues = hues_for(hue, self.hues.as_ref(), &self.mul.path)?;
        let hue = art_hue(hues.as_deref(), hue)?;
        let name = format!("body {body} action {action} direction {}", facing.stored);
        let range = self.with_index(|anim, mobtypes| {
            let records = block(anim, mobtypes, body).with_context(|| {
                format!(
                    "body {body} has no animation in anim.mul (its records pass the index's {})",
                    anim.len()
                )
            })?;
            let record = records
                .record(action, facing.stored)
                .with_context(|| name.clone())?;
            Ok(anim
                .index()
                .get(record as usize)
                .filter(|r| has_frames(r))
                .map(|r| (u64::from(r.offset.get()), r.length.get())))
        })?;
        let Some((offset, length)) = range else {
            return Ok(Vec::new());
        };
        let in_entry = |e: anyhow::Error| e.context(format!("{}: {name}", self.mul.path));
        let bytes = self.mul.read_at(offset, length).map_err(in_entry)?;
        let group = FrameGroup::parse(&bytes).map_err(|e| in_entry(e.into()))?;
        let limits = Limits::default();
        let mut frames = Vec::with_capacity(group.frame_count().min(256));
        for i in 0..group.frame_count() {
            let Some(frame) = group.frame(i).map_err(|e| in_entry(e.into()))? else {
                frames.push(AnimFramePicture {
                    picture: RgbaImage::new(0, 0, [0; 4])?,
                    centre_x: 0,
                    centre_y: 0,
                });
                continue;
            };
            let picture = frame_picture(&frame, group.palette(), hue, &limits)?;
            let width = i32::try_from(frame.width()).unwrap_or(i32::MAX);
            let centre_x = i32::from(frame.centre_x());
            let (picture, centre_x) = if facing.mirrored {
                (mirror(&picture), width.saturating_sub(centre_x))
            } else {
                (picture, centre_x)
            };
            frames.push(AnimFramePicture {
                picture,
                centre_x,
                centre_y: i32::from(frame.centre_y()),
            });
        }
        Ok(frames)
    }
}

/// Body `body`'s block of records: by mobtypes.txt's type and flags when it lists the
/// body, else by the type the client gives its number.
fn block(anim: &Animations<'_>, mobtypes: Option<&MobTypes>, body: u16) -> Option<BodyRecords> {
    match mobtypes.and_then(|m| m.get(body)) {
        Some(mob) => anim.body_as(body, mob.body_type, mob.flags),
        None => anim.body(body),
    }
}

/// True when an anim.idx record holds a frame group ([`anim_entry_is_empty`]).
fn has_frames(record: &mul_core::raw::IndexRecord) -> bool {
    !anim_entry_is_empty(record)
}
