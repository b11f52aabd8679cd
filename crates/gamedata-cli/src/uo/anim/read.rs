//! `uo anim`'s reading: the form a body's action is read from, and the frames of a
//! direction read from anim*.mul or a UOP entry into the plan of distinct pictures.

use super::*;

/// The form body `args.body`'s action is read from (`docs/formats/uo.md`, "Which form:
/// MUL or UOP"): the only one the folder has (or `--anim-format` allows); with both, the
/// UOP for a body mobtypes.txt lists with flag 0x10000, the MUL for one it lists without;
/// for a body it does not list, the MUL, unless the MUL has no frames for the action's
/// direction and the UOP has the action (through AnimationSequence.uop).
pub(super) fn choose(args: &AnimArgs, folder: &AnimFolder, stored: u8) -> Result<AnimSource> {
    let (Some(mul), Some(uop)) = (&folder.mul, &folder.uop) else {
        return Ok(if folder.uop.is_some() {
            AnimSource::Uop
        } else {
            AnimSource::Mul
        });
    };
    if let Some(mob) = folder.mobtypes().and_then(|m| m.get(args.body)) {
        return Ok(if mob.uses_uop() {
            AnimSource::Uop
        } else {
            AnimSource::Mul
        });
    }
    if let Some(anim) = mul.view()?.get(AnimFileId::from(args.file))
        && mul_has(anim, args.body, args.action, stored)
    {
        return Ok(AnimSource::Mul);
    }
    let view = uop.view()?;
    let entry = uop_entry_action(&view, args.body, args.action, &Limits::default())?;
    Ok(if view.animations.find(args.body, entry).is_some() {
        AnimSource::Uop
    } else {
        AnimSource::Mul
    })
}

/// The direction from anim.mul (or `--file`'s file), read: each frame's header, each
/// distinct offset once.
pub(super) fn read_mul<'a>(
    args: &AnimArgs,
    folder: &AnimFolder,
    files: &'a mul_core::AnimationBytes<'a>,
    drawing: &Drawing<'_>,
) -> Result<Read<'a>> {
    let facing = drawing.facing;
    let file = AnimFileId::from(args.file);
    let anim = files.get(file).ok_or_else(|| {
        anyhow!(
            "{} has no {} with {}",
            args.dir.display(),
            file.data_name(),
            file.index_name()
        )
    })?;
    let (body, action) = (args.body, args.action);
    // anim.mul's block of a body mobtypes.txt lists is found with its type and flags, as
    // ClassicUO's `AnimationsLoader.GetIndices` finds it (`docs/formats/uo.md`,
    // "Animations"); any other body, or any body of anim2 to anim5 named by its own number,
    // with the type the client gives it by number.
    let records = match folder.mobtypes().and_then(|m| m.get(body)) {
        Some(mob) if file == AnimFileId::Anim => anim.body_as(body, mob.body_type, mob.flags),
        _ => anim.body(body),
    };
    let group = match &records {
        Some(r) => anim.group_of(r, action, facing.stored)?,
        None => None,
    };
    let group = group.ok_or_else(|| match records {
        None => anyhow!(
            "body {body} has no animation in {} (its records pass the index's {})",
            file.data_name(),
            anim.len()
        ),
        Some(_) => anyhow!(
            "body {body} action {action} direction {} has no frames in {}",
            facing.stored,
            file.data_name()
        ),
    })?;
    let mut plan = Plan::new(drawing.limits.max_decoded_bytes, group.frame_count());
    for i in 0..group.frame_count() {
        // Frames at one offset are one frame: read once.
        let offset = group.frame_offset(i).map(u64::from);
        if let Some(key) = offset
            && plan.repeat(key)?
        {
            continue;
        }
        let Some(frame) = group.frame(i)? else {
            continue;
        };
        let report = frame_report(&frame, facing.mirrored);
        plan.push(report, Source::Mul(frame, group.palette()), offset)?;
    }
    Ok(Read {
        plan,
        source: AnimSource::Mul,
        file: file.data_name(),
        entry_action: action,
    })
}

/// A frame's report as drawn: its size, and its centre (x mirrored when `mirrored`).
pub(super) fn frame_report(frame: &AnimFrame<'_>, mirrored: bool) -> FrameReport {
    let centre_x = i32::from(frame.centre_x());
    // The width is at most 32,767: the difference fits.
    let width = i32::try_from(frame.width()).unwrap_or(i32::MAX);
    FrameReport {
        width: frame.width(),
        height: frame.height(),
        centre_x: if mirrored {
            width.saturating_sub(centre_x)
        } else {
            centre_x
        },
        centre_y: i32::from(frame.centre_y()),
    }
}

/// Body `args.body`'s action's entry in AnimationFrame*.uop, through AnimationSequence.uop:
/// the entry action and the entry decoded.
pub(super) fn uop_entry<'a>(
    args: &AnimArgs,
    files: &'a mul_core::UopAnimationBytes<'a>,
    limits: &Limits,
) -> Result<(u16, mul_core::DecodedUopAnimation<'a>)> {
    let (body, action) = (args.body, args.action);
    let entry_action = uop_entry_action(files, body, action, limits)?;
    let decoded = files
        .animations
        .decoded(body, entry_action, limits)?
        .ok_or_else(|| {
            anyhow!(
                "body {body} action {action}{} has no entry in AnimationFrame*.uop",
                replaced(action, entry_action)
            )
        })?;
    Ok((entry_action, decoded))
}

/// " (its entry action N by AnimationSequence.uop)" when the entry action is another.
pub(super) fn replaced(action: u16, entry_action: u16) -> String {
    if entry_action == action {
        String::new()
    } else {
        format!(" (its entry action {entry_action} by AnimationSequence.uop)")
    }
}

/// The direction from AnimationFrame*.uop's decoded entry, read: each place's frame (a
/// place no record fills missing, empty), each distinct data place once. The entry's
/// decoded bytes, when held in a buffer of their own, come off the limit the frames are
/// drawn within.
pub(super) fn read_uop<'a>(
    args: &AnimArgs,
    folder: &AnimFolder,
    decoded: &'a mul_core::DecodedUopAnimation<'a>,
    entry_action: u16,
    drawing: &Drawing<'_>,
) -> Result<Read<'a>> {
    let facing = drawing.facing;
    let (body, action) = (args.body, args.action);
    let animation = decoded.animation()?;
    let per = animation.frames_per_direction(folder.uop_body_type(body));
    if per == 0 {
        return Err(anyhow!(
            "body {body} action {action}{} has no frames in {} (its {} frames make \
             none a direction)",
            replaced(action, entry_action),
            decoded.file(),
            animation.list_len()
        ));
    }
    let held = if decoded.is_decoded() {
        decoded.bytes().len() as u64
    } else {
        0
    };
    let count = usize::try_from(per).unwrap_or(usize::MAX);
    let mut plan = Plan::new(drawing.limits.max_decoded_bytes.saturating_sub(held), count);
    for place in 0..per {
        let Some(frame) = animation.frame(facing.stored, place, per)? else {
            // A place no record fills: the client zeroes it (centre 0, 0).
            plan.missing = plan.missing.saturating_add(1);
            let report = FrameReport {
                width: 0,
                height: 0,
                centre_x: 0,
                centre_y: 0,
            };
            plan.push(report, Source::Blank, None)?;
            continue;
        };
        let key = frame.data_offset() as u64;
        if plan.repeat(key)? {
            continue;
        }
        let report = frame_report(&frame.frame(), facing.mirrored);
        plan.push(report, Source::Uop(frame), Some(key))?;
    }
    Ok(Read {
        plan,
        source: AnimSource::Uop,
        file: decoded.file(),
        entry_action,
    })
}
