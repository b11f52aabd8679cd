//! Ultima Online's animations (anim.idx with anim.mul, and AnimationFrame1.uop to
//! AnimationFrame10.uop with AnimationSequence.uop), played: a body's action in one of the
//! eight directions, each frame as `gamedata uo anim` draws it (the same library code:
//! `gamedata_render::uo::anim`). anim.idx is read whole (12 bytes a record) and each frame
//! group alone from anim.mul, by its range; each AnimationFrame*.uop's table is read by
//! ranges (`mul_core::uop::UopFetch`) and each body's action alone, so a gigabyte of
//! animations is never read whole. A body's block of records follows mobtypes.txt's type
//! and flags when it lists the body, as the command and ClassicUO's
//! `AnimationsLoader.GetIndices` find it (`docs/formats/uo.md`, "Animations"); the form a
//! body is read from is the command's `--anim-format auto` choice ("Which form: MUL or
//! UOP"). anim2 to anim5 are the command's alone in this part.

use std::cell::OnceCell;
use std::collections::HashMap;

use anyhow::{Context, Result};
use gamedata_io::Limits;
use gamedata_render::RgbaImage;
use gamedata_render::uo::anim::{frame_picture, mirror, uop_body_type, uop_frame_picture};
use mul_core::anim::{UOP_ANIM_FILES, UopSequences, anim_entry_is_empty, uop_anim_entry_name};
use mul_core::raw::UopEntryRaw;
use mul_core::uop::{UopEntry, UopFetch, name_hash};
use mul_core::{
    AnimFileId, Animations, BodyRecords, DecodedUopAnimation, Facing, FrameGroup, MobTypes,
};

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

/// The animations of one folder: anim.idx with anim.mul (and anim2 to anim5),
/// AnimationFrame*.uop, or both.
pub(crate) struct AnimCatalog {
    /// Each MUL file's index and data, in the client's order.
    muls: Vec<(AnimFileId, File, File)>,
    uop: Option<UopAnims>,
    hues: Option<File>,
    mobtypes: Option<File>,
}

/// AnimationFrame1.uop to AnimationFrame10.uop, with AnimationSequence.uop, and their
/// tables once read.
struct UopAnims {
    /// (n, AnimationFrame`n`.uop), n rising.
    files: Vec<(u8, File)>,
    sequence: Option<File>,
    read: OnceCell<UopAnimTable>,
    /// AnimationSequence.uop's bytes once read and checked (`None` without the file).
    sequences: OnceCell<Option<OwnedSequences>>,
}

/// The UOP animation files' entries by name hash: the first file (by number) holding the
/// name, and in it the last entry of the name (as `mul_core::Uop::find` finds it).
struct UopAnimTable {
    by_hash: HashMap<u64, UopFound>,
}

/// Where an entry lies: its file's number and place in `UopAnims::files`, its table
/// position and raw entry.
#[derive(Clone, Copy)]
struct UopFound {
    number: u8,
    file: usize,
    index: usize,
    raw: UopEntryRaw,
}

/// Bodies the client's renderer keeps animations for: 0 to 2,047
/// (`MAX_ANIMATIONS_DATA_INDEX_COUNT`, ClassicUO 6854924f,
/// `ClassicUO.Renderer/Animations/Animation.cs`); the UOP bodies listed are those.
const UOP_BODIES: u16 = 2048;

/// Actions a UOP body has at most: the client's `MAX_ACTIONS` (80), as the command's export
/// (`docs/formats/uo.md`, "UOP animations").
const UOP_ACTIONS: u16 = 80;

impl AnimCatalog {
    /// The animations of `folder`, when it has anim.idx with anim.mul (or anim2 to anim5
    /// with theirs) or AnimationFrame1.uop (any letter case).
    pub(crate) fn find(folder: &Folder) -> Option<Self> {
        let muls: Vec<(AnimFileId, File, File)> = AnimFileId::ALL
            .into_iter()
            .filter_map(|id| {
                let idx = folder.find(id.index_name())?;
                let mul = folder.find(id.data_name())?;
                Some((id, idx.clone(), mul.clone()))
            })
            .collect();
        let files: Vec<(u8, File)> = (1u8..)
            .zip(UOP_ANIM_FILES)
            .filter_map(|(n, name)| Some((n, folder.find(name)?.clone())))
            .collect();
        let uop = files
            .first()
            .is_some_and(|(n, _)| *n == 1)
            .then(|| UopAnims {
                files,
                sequence: folder.find("AnimationSequence.uop").cloned(),
                read: OnceCell::new(),
                sequences: OnceCell::new(),
            });
        if muls.is_empty() && uop.is_none() {
            return None;
        }
        Some(AnimCatalog {
            muls,
            uop,
            hues: folder.find("hues.mul").cloned(),
            mobtypes: folder.find("mobtypes.txt").cloned(),
        })
    }

    /// The MUL files present: `anim`, `anim2` ... in the client's order.
    pub(crate) fn files(&self) -> Vec<&'static str> {
        self.muls.iter().map(|(id, _, _)| id.name()).collect()
    }

    /// The index and data of MUL file `file`, when the folder has them.
    fn mul(&self, file: AnimFileId) -> Option<(&File, &File)> {
        self.muls
            .iter()
            .find(|(id, _, _)| *id == file)
            .map(|(_, idx, mul)| (idx, mul))
    }

    /// The file the messages name: anim.mul (or the first MUL file), else
    /// AnimationFrame1.uop.
    fn main_path(&self) -> &str {
        match (self.muls.first(), &self.uop) {
            (Some((_, _, mul)), _) => &mul.path,
            (None, Some(uop)) => uop.files.first().map_or("", |(_, f)| f.path.as_str()),
            (None, None) => "",
        }
    }

    /// mobtypes.txt's lines, when the folder has it.
    fn mobtypes(&self) -> Result<Option<MobTypes>> {
        let text = self.mobtypes.as_ref().map(File::bytes).transpose()?;
        Ok(text.as_deref().map(MobTypes::parse))
    }

    /// `f` run on `file`'s index over no data (the records only), when the folder has it.
    fn with_index<T>(
        &self,
        file: AnimFileId,
        f: impl FnOnce(Option<&Animations<'_>>) -> Result<T>,
    ) -> Result<T> {
        let Some((idx, _)) = self.mul(file) else {
            return f(None);
        };
        let index = idx.bytes()?;
        let anim = Animations::parse(file, &index, &[])
            .with_context(|| format!("reading {}", idx.path))?;
        f(Some(&anim))
    }

    /// The bodies with frames, and for each its actions with frames (rising): from the
    /// index's records alone for MUL file `file` (frames in some direction; anim.mul's
    /// blocks placed by mobtypes.txt, the others' by number, as the command places them),
    /// from the UOP tables for AnimationFrame*.uop (an entry for the action, through
    /// AnimationSequence.uop), each body's actions from the form the command reads it
    /// from.
    pub(crate) fn bodies(&self, file: AnimFileId) -> Result<Vec<(u16, Vec<u16>)>> {
        let mobtypes = self.mobtypes()?;
        let has_mul = self.mul(file).is_some();
        let blocks_by = mobtypes.as_ref().filter(|_| file == AnimFileId::Anim);
        // UOP files that cannot be read hide no MUL body (drawing one says why).
        let uop = match self.uop.as_ref().map(UopAnims::table).transpose() {
            Ok(uop) => uop,
            Err(_) if has_mul => None,
            Err(e) => return Err(e),
        };
        let owned = self.uop.as_ref().map(UopAnims::sequences).transpose();
        let sequences = owned.ok().flatten().flatten();
        let sequences = sequences.and_then(OwnedSequences::table);
        self.with_index(file, |anim| {
            let mut bodies = Vec::new();
            for body in 0..=u16::MAX {
                let mul_actions: Vec<u16> = anim
                    .and_then(|anim| Some((anim, block(anim, blocks_by, body)?)))
                    .map(|(anim, records)| {
                        (0..u16::from(records.actions))
                            .filter(|&action| {
                                (0..5).any(|direction| {
                                    records
                                        .record(action, direction)
                                        .ok()
                                        .and_then(|r| anim.index().get(r as usize))
                                        .is_some_and(has_frames)
                                })
                            })
                            .collect()
                    })
                    .unwrap_or_default();
                let uop_actions: Vec<u16> = match (&uop, body < UOP_BODIES) {
                    (Some(table), true) => {
                        // A sequence that cannot be read: each action under its own name
                        // here (drawing it says why).
                        let sequence = body_sequence(sequences.as_ref(), body).unwrap_or(None);
                        (0..UOP_ACTIONS)
                            .filter(|&action| {
                                let entry = entry_action(sequence.as_deref(), body, action)
                                    .unwrap_or(action);
                                table.find(body, entry).is_some()
                            })
                            .collect()
                    }
                    _ => Vec::new(),
                };
                let listed = mobtypes.as_ref().and_then(|m| m.get(body));
                let actions = match (has_mul, uop.is_some(), listed) {
                    (true, true, Some(mob)) if mob.uses_uop() => uop_actions,
                    (true, true, Some(_)) => mul_actions,
                    // Not listed: the MUL where it has frames, else the UOP.
                    (true, true, None) => {
                        let mut all = mul_actions;
                        all.extend(uop_actions);
                        all.sort_unstable();
                        all.dedup();
                        all
                    }
                    (true, false, _) => mul_actions,
                    (false, _, _) => uop_actions,
                };
                if !actions.is_empty() {
                    bodies.push((body, actions));
                }
            }
            Ok(bodies)
        })
    }

    /// Body `body`'s action `action` in direction `direction` (0 to 7 as the command
    /// numbers them: 5 to 7 mirror 3 to 1), with `hue`: each frame as `gamedata uo anim`
    /// draws it, in order (a repeated frame drawn again; a UOP place no record fills, 0 x
    /// 0). From the form the command reads it from (`--anim-format auto`): the only one
    /// the folder has; with both, the UOP for a body mobtypes.txt lists with flag 0x10000,
    /// the MUL for one it lists without, and for one it does not list the MUL unless the
    /// MUL has no frames there and the UOP has the action. Empty when the record is empty.
    ///
    /// Returns `Err` (a sentence naming the body, action and direction) for a body with no
    /// animation, an action or direction past the body's, a record past its file, or
    /// frames that cannot be decoded; a hue without hues.mul.
    pub(crate) fn frames(
        &self,
        file: AnimFileId,
        body: u16,
        action: u16,
        direction: u8,
        hue: u16,
    ) -> Result<Vec<AnimFramePicture>> {
        let facing = Facing::of(direction)
            .with_context(|| format!("direction {direction}: they are 0 to 7"))?;
        let hues = hues_for(hue, self.hues.as_ref(), self.main_path())?;
        let hue = art_hue(hues.as_deref(), hue)?;
        let mobtypes = self.mobtypes()?;
        let name = format!("body {body} action {action} direction {}", facing.stored);
        // The MUL's frame group: Ok(range or none) when the body has a block there, Err
        // with the index's length when not.
        let blocks_by = mobtypes.as_ref().filter(|_| file == AnimFileId::Anim);
        let mul_range = self.with_index(file, |anim| {
            let Some(anim) = anim else { return Ok(Err(0)) };
            let Some(records) = block(anim, blocks_by, body) else {
                return Ok(Err(anim.len()));
            };
            let record = records
                .record(action, facing.stored)
                .with_context(|| name.clone())?;
            Ok(Ok(anim
                .index()
                .get(record as usize)
                .filter(|r| has_frames(r))
                .map(|r| (u64::from(r.offset.get()), r.length.get()))))
        });
        // The UOP's entry for the action, found once: Some when the body is read from there.
        let uop_entry = match (self.mul(file), &self.uop) {
            (None, Some(uop)) => Some((uop, uop.entry_action(body, action)?)),
            (Some(_), Some(uop)) => match mobtypes.as_ref().and_then(|m| m.get(body)) {
                Some(mob) if mob.uses_uop() => Some((uop, uop.entry_action(body, action)?)),
                Some(_) => None,
                None if matches!(mul_range, Ok(Ok(Some(_)))) => None,
                None => {
                    let entry = uop.entry_action(body, action)?;
                    uop.table()?
                        .find(body, entry)
                        .is_some()
                        .then_some((uop, entry))
                }
            },
            _ => None,
        };
        if let Some((uop, entry)) = uop_entry {
            return uop.frames(body, action, entry, facing, hue, mobtypes.as_ref());
        }
        let Some((_, mul)) = self.mul(file) else {
            anyhow::bail!("no {} for {name}", file.data_name());
        };
        let range = mul_range?.map_err(|len| {
            anyhow::anyhow!(
                "body {body} has no animation in {} (its records pass the index's {len})",
                file.data_name()
            )
        })?;
        let Some((offset, length)) = range else {
            return Ok(Vec::new());
        };
        let in_entry = |e: anyhow::Error| e.context(format!("{}: {name}", mul.path));
        let bytes = mul.read_at(offset, length).map_err(in_entry)?;
        let group = FrameGroup::parse(&bytes).map_err(|e| in_entry(e.into()))?;
        let limits = Limits::default();
        let mut frames = Vec::with_capacity(group.frame_count().min(256));
        for i in 0..group.frame_count() {
            let Some(frame) = group.frame(i).map_err(|e| in_entry(e.into()))? else {
                frames.push(AnimFramePicture::empty()?);
                continue;
            };
            let picture = frame_picture(&frame, group.palette(), hue, &limits)?;
            frames.push(AnimFramePicture::placed(picture, &frame, facing));
        }
        Ok(frames)
    }
}

impl AnimFramePicture {
    /// An empty frame: 0 x 0, its centre at 0, 0.
    fn empty() -> Result<Self> {
        Ok(AnimFramePicture {
            picture: RgbaImage::new(0, 0, [0; 4])?,
            centre_x: 0,
            centre_y: 0,
        })
    }

    /// `picture`, drawn from `frame`, mirrored (with its centre's x) when `facing` is.
    fn placed(picture: RgbaImage, frame: &mul_core::AnimFrame<'_>, facing: Facing) -> Self {
        let width = i32::try_from(frame.width()).unwrap_or(i32::MAX);
        let centre_x = i32::from(frame.centre_x());
        let (picture, centre_x) = if facing.mirrored {
            (mirror(&picture), width.saturating_sub(centre_x))
        } else {
            (picture, centre_x)
        };
        AnimFramePicture {
            picture,
            centre_x,
            centre_y: i32::from(frame.centre_y()),
        }
    }
}

impl UopAnims {
    /// The files' entries, their tables read by ranges on first use.
    ///
    /// Returns `Err` (naming the file) for a table that cannot be read.
    fn table(&self) -> Result<&UopAnimTable> {
        if let Some(done) = self.read.get() {
            return Ok(done);
        }
        let limits = Limits::default();
        let mut by_hash = HashMap::new();
        for (place, (number, file)) in self.files.iter().enumerate() {
            let in_file = |e: mul_core::DataError| {
                anyhow::Error::from(e).context(format!("reading {}", file.path))
            };
            let mut fetch = UopFetch::new(file.size, &limits);
            while let Some((offset, length)) = fetch.wanted() {
                fetch.give(file.read_at(offset, u32::try_from(length).unwrap_or(u32::MAX))?);
            }
            let tables = match fetch.finish() {
                Some(tables) => tables,
                None => anyhow::bail!(
                    "reading {}: its table is too scattered to read by ranges",
                    file.path
                ),
            };
            let mut here = HashMap::new();
            for entry in tables.entries(&limits).map_err(in_file)? {
                here.insert(
                    entry.hash(),
                    UopFound {
                        number: *number,
                        file: place,
                        index: entry.index(),
                        raw: *entry.raw(),
                    },
                );
            }
            // The first file holding a name wins.
            for (hash, found) in here {
                by_hash.entry(hash).or_insert(found);
            }
        }
        Ok(self.read.get_or_init(|| UopAnimTable { by_hash }))
    }

    /// AnimationSequence.uop's bytes, read whole (a table of replacements) and checked the
    /// first time, when the folder has it.
    ///
    /// Returns `Err` for a file that cannot be read or whose table fails (asked again, it
    /// is read again).
    fn sequences(&self) -> Result<Option<&OwnedSequences>> {
        if let Some(read) = self.sequences.get() {
            return Ok(read.as_ref());
        }
        let read = match &self.sequence {
            None => None,
            Some(file) => {
                let bytes = file.bytes()?;
                UopSequences::parse(&bytes, &Limits::default())
                    .with_context(|| format!("reading {}", file.path))?;
                Some(OwnedSequences { bytes })
            }
        };
        Ok(self.sequences.get_or_init(|| read).as_ref())
    }

    /// The action whose entry the client reads for body `body`'s action `action`
    /// ([`entry_action`]).
    ///
    /// Returns `Err` for AnimationSequence.uop or the body's sequence that cannot be read.
    fn entry_action(&self, body: u16, action: u16) -> Result<u16> {
        let table = self.sequences()?.and_then(OwnedSequences::table);
        let sequence = body_sequence(table.as_ref(), body)?;
        entry_action(sequence.as_deref(), body, action)
    }

    /// Body `body`'s action `action` in `facing`, read from its UOP entry alone: the entry
    /// of action `entry` (`action` with its sequence applied, [`UopAnims::entry_action`]).
    fn frames(
        &self,
        body: u16,
        action: u16,
        entry: u16,
        facing: Facing,
        hue: gamedata_render::uo::art::ArtHue<'_>,
        mobtypes: Option<&MobTypes>,
    ) -> Result<Vec<AnimFramePicture>> {
        let limits = Limits::default();
        let found = self.table()?.find(body, entry).with_context(|| {
            format!("body {body} action {action} has no entry in AnimationFrame*.uop")
        })?;
        let file = self
            .files
            .get(found.file)
            .map(|(_, f)| f)
            .context("the entry's file")?;
        let raw = found.raw;
        let stored = file
            .read_stored(&raw)
            .with_context(|| format!("{}: body {body} action {action}", file.path))?;
        let entry_ref = UopEntry::new(&raw, found.index);
        let decoded = DecodedUopAnimation::from_entry(
            found.number,
            body,
            entry,
            &entry_ref,
            &stored,
            &limits,
        )?;
        let animation = decoded.animation()?;
        let per = animation.frames_per_direction(uop_body_type(mobtypes, body));
        let mut frames = Vec::new();
        for place in 0..per {
            let Some(frame) = animation.frame(facing.stored, place, per)? else {
                frames.push(AnimFramePicture::empty()?);
                continue;
            };
            let picture = uop_frame_picture(&frame, hue, &limits)?;
            frames.push(AnimFramePicture::placed(picture, &frame.frame(), facing));
        }
        Ok(frames)
    }
}

impl UopAnimTable {
    /// Body `body`'s action `action`'s entry, if a file has its name.
    fn find(&self, body: u16, action: u16) -> Option<UopFound> {
        self.by_hash
            .get(&name_hash(&uop_anim_entry_name(body, action)))
            .copied()
    }
}

/// AnimationSequence.uop's bytes, its table checked.
struct OwnedSequences {
    bytes: std::sync::Arc<[u8]>,
}

impl OwnedSequences {
    /// The table, read again (its check passed when the bytes were read).
    fn table(&self) -> Option<UopSequences<'_>> {
        UopSequences::parse(&self.bytes, &Limits::default()).ok()
    }
}

/// Body `body`'s AnimationSequence.uop entry, decoded, when `sequences` has one.
///
/// Returns `Err` (naming the entry) for one that cannot be decoded.
fn body_sequence(
    sequences: Option<&UopSequences<'_>>,
    body: u16,
) -> Result<Option<std::borrow::Cow<'static, [u8]>>> {
    let Some(table) = sequences else {
        return Ok(None);
    };
    Ok(table
        .decoded(u32::from(body), &Limits::default())?
        .map(|bytes| std::borrow::Cow::Owned(bytes.into_owned())))
}

/// The action whose entry the client reads for body `body`'s action `action`, its
/// sequence `sequence` ([`body_sequence`]) applied as the command's `uo anim` applies it
/// (`mul_core::anim::UopSequence::resolve`); `action` itself without one.
///
/// Returns `Err` (naming the body) for a sequence that cannot be read.
fn entry_action(sequence: Option<&[u8]>, body: u16, action: u16) -> Result<u16> {
    let Some(bytes) = sequence else {
        return Ok(action);
    };
    let sequence = mul_core::anim::UopSequence::parse(bytes)
        .with_context(|| format!("AnimationSequence.uop: body {body}'s sequence"))?;
    Ok(sequence.resolve(action))
}

/// The MUL animation file named `name`: `anim`, `anim2` ... `anim5`.
///
/// Returns `Err` (a sentence) for another name.
pub(crate) fn file_id(name: &str) -> Result<AnimFileId> {
    AnimFileId::ALL
        .into_iter()
        .find(|id| id.name() == name)
        .with_context(|| format!("{name:?} is no animation file: give anim, anim2 ... anim5"))
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
