//! `uo anim`'s drawing and writing: the command's budgets, a frame drawn, the distinct
//! pictures written one at a time, the sprite sheet laid out, drawn and written within
//! them.

use super::*;

/// What is left of the command's budgets, each 64 bytes a byte of input plus 64 MiB, as
/// `uo export`'s: the RGBA bytes the frames' pictures may take, and the PNG bytes (each
/// file and folder [`FILE_COST`] bytes at the least) that may be written.
pub(super) struct Budgets {
    pub(super) decoded: u64,
    pub(super) output: u64,
}

/// Takes `bytes` from `left`: false (nothing taken) when it has not that many.
pub(super) fn take(left: &mut u64, bytes: u64) -> bool {
    match left.checked_sub(bytes) {
        Some(rest) => {
            *left = rest;
            true
        }
        None => false,
    }
}

/// RGBA bytes of a picture of `report`'s size.
pub(super) fn rgba_bytes(report: &FrameReport) -> u64 {
    u64::from(report.width)
        .saturating_mul(u64::from(report.height))
        .saturating_mul(4)
}

/// Distinct picture `source` drawn within `cap` bytes, mirrored when `mirrored`; a 1 x 1
/// transparent picture for [`Source::Blank`].
pub(super) fn draw(source: Source<'_>, drawing: &Drawing<'_>, cap: u64) -> Result<RgbaImage> {
    let limits = Limits::default().with_max_decoded_bytes(cap);
    let mut picture = match source {
        Source::Mul(frame, palette) => frame_picture(&frame, palette, drawing.hue, &limits)?,
        Source::Uop(frame) => uop_frame_picture(&frame, drawing.hue, &limits)?,
        Source::Blank => return Ok(RgbaImage::new(1, 1, [0; 4])?),
    };
    if drawing.facing.mirrored {
        mirror_in_place(&mut picture);
    }
    Ok(picture)
}

/// `picture` mirrored left to right in its own buffer (as `gamedata_render`'s `mirror`,
/// without a copy).
pub(super) fn mirror_in_place(picture: &mut RgbaImage) {
    for y in 0..picture.height() {
        if let Some(row) = picture.row_mut(y) {
            // Whole pixels reversed: reverse the bytes, then each pixel's 4 back.
            row.reverse();
            for px in row.chunks_exact_mut(4) {
                px.reverse();
            }
        }
    }
}

/// What writing the frames came to.
pub(super) struct Outcome {
    /// One a distinct picture: the file written for it (`None` past the budget); `None`
    /// with `--sheet`.
    pub(super) names: Option<Vec<Option<String>>>,
    pub(super) written: usize,
    pub(super) over_budget: usize,
}

/// Writes each distinct picture of `plan` as `dir/NNN.png`, NNN its first frame, drawn
/// one at a time and written before the next is drawn (no fsync a file: as `uo export`'s
/// files), a frame of no pixel as a 1 x 1 transparent PNG; a repeat is named, not
/// written. Past a budget the rest is counted, not drawn or written.
pub(super) fn write_frames(
    dir: &Path,
    plan: &Plan<'_>,
    drawing: &Drawing<'_>,
    inputs: &[&Path],
    budgets: &mut Budgets,
) -> Result<Outcome> {
    let mut names: Vec<Option<String>> = vec![None; plan.pictures.len()];
    let mut written = 0usize;
    if take(&mut budgets.output, FILE_COST) {
        std::fs::create_dir_all(dir).with_context(|| format!("cannot create {}", dir.display()))?;
        for ((first, source), name) in plan.pictures.iter().zip(names.iter_mut()) {
            let bytes = plan.frames.get(*first).map_or(0, rgba_bytes);
            if !take(&mut budgets.decoded, bytes) {
                break;
            }
            let picture = draw(*source, drawing, plan.cap)?;
            let mut png = Vec::new();
            let pixels = gamedata_render::PngPixels::Image(&picture);
            gamedata_render::write_png(&mut png, pixels, &crate::render::png_options())?;
            drop(picture);
            if !take(&mut budgets.output, (png.len() as u64).max(FILE_COST)) {
                break;
            }
            let file = format!("{first:03}.png");
            crate::files::write_small(&dir.join(&file), inputs, &png)?;
            written = written.saturating_add(1);
            *name = Some(file);
        }
    }
    let over_budget = FileList {
        shows: &plan.shows,
        names: &names,
    }
    .missing();
    Ok(Outcome {
        names: Some(names),
        written,
        over_budget,
    })
}

/// Bytes the PNG encoder holds besides the picture while it encodes a `width` x `height`
/// RGBA picture of `bytes` bytes (`gamedata_render`'s parallel encoder): parts of whole rows
/// of about [`gamedata_render::PARALLEL_STRIPE_BYTES`] (one row at the least), at most 8 in
/// flight, each filtered into a copy (a filter byte a row more) and deflated into a buffer
/// counted as large again: twice the rows in flight, at most twice the picture.
pub(super) fn encoding_bytes(width: u32, height: u32, bytes: u64) -> u64 {
    let rows = u64::from(gamedata_render::parallel_stripe_rows(width)).min(u64::from(height));
    let row = u64::from(width).saturating_mul(4).saturating_add(1);
    let in_flight = row.saturating_mul(rows).saturating_mul(8);
    let whole = bytes.saturating_add(u64::from(height));
    in_flight.min(whole).saturating_mul(2)
}

/// A writer that passes bytes on while `left` has room for them, taking them from it, and
/// fails once it has not (the PNG's bytes charged to the output budget as written).
pub(super) struct Budgeted<'b, W> {
    inner: W,
    left: &'b mut u64,
}

impl<W: std::io::Write> std::io::Write for Budgeted<'_, W> {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        if !take(self.left, buf.len() as u64) {
            return Err(std::io::Error::other(
                "the sprite sheet's PNG passes the output budget (64 bytes a byte of input \
                 plus 64 MiB): not written",
            ));
        }
        self.inner.write_all(buf)?;
        Ok(buf.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        self.inner.flush()
    }
}

/// Writes the sheet at `path` (whole or not at all, as [`crate::render::write_png`]), its
/// PNG bytes taken from the output budget `left` as they are written ([`FILE_COST`] at the
/// least): past it the file is not written and the command fails.
pub(super) fn write_sheet(
    picture: &RgbaImage,
    path: &Path,
    inputs: &[&Path],
    left: &mut u64,
) -> Result<()> {
    let before = *left;
    crate::files::write_file(path, inputs, |w| {
        let mut out = Budgeted { inner: w, left };
        Ok(gamedata_render::write_png(
            &mut out,
            gamedata_render::PngPixels::Image(picture),
            &crate::render::png_options(),
        )?)
    })?;
    // A sheet's file counts FILE_COST bytes at the least, as each frame's file.
    let short = FILE_COST.saturating_sub(before.saturating_sub(*left));
    *left = left.saturating_sub(short);
    Ok(())
}

/// The sprite sheet of `plan`'s frames: side by side, left to right in order, top-aligned,
/// as wide as their widths together and as high as the highest, transparent elsewhere
/// (frames of no pixel take no room). Laid out from the frames' headers, then each distinct
/// picture drawn once and copied to each of its places before the next is drawn. Checked
/// before anything is drawn: the sheet and its largest picture together, and the sheet and
/// what its encoding holds ([`encoding_bytes`]) together, within the plan's cap (the limit
/// less a UOP entry's decoded bytes); the sheet's RGBA bytes and each distinct picture's
/// taken from the pixel budget (64 bytes a byte of input plus 64 MiB); the output budget
/// left with room for one file ([`FILE_COST`]).
pub(super) fn draw_sheet(
    plan: &Plan<'_>,
    drawing: &Drawing<'_>,
    budgets: &mut Budgets,
) -> Result<RgbaImage> {
    let no_sheet = "the frames make no sprite sheet (no frame has pixels)";
    let not_drawn = "the sprite sheet is not drawn";
    let width = plan
        .frames
        .iter()
        .fold(0u64, |w, f| w.saturating_add(u64::from(f.width)));
    let height = plan.frames.iter().map(|f| f.height).max().unwrap_or(0);
    if width == 0 || height == 0 {
        bail!(no_sheet);
    }
    let sheet_bytes = width.saturating_mul(u64::from(height)).saturating_mul(4);
    let largest = plan
        .pictures
        .iter()
        .filter_map(|(first, _)| plan.frames.get(*first))
        .map(rgba_bytes)
        .max()
        .unwrap_or(0);
    let held = sheet_bytes.saturating_add(largest);
    if held > plan.cap {
        return Err(LimitError {
            what: "the sprite sheet and its largest frame together",
            unit: "bytes",
            found: held,
            limit: plan.cap,
        })
        .context(not_drawn);
    }
    let width = u32::try_from(width).map_err(|_| anyhow!("{no_sheet}: {width} pixels wide"))?;
    let encoding = encoding_bytes(width, height, sheet_bytes);
    let held = sheet_bytes.saturating_add(encoding);
    if held > plan.cap {
        return Err(LimitError {
            what: "the sprite sheet and its PNG encoding's buffers together",
            unit: "bytes",
            found: held,
            limit: plan.cap,
        })
        .context(not_drawn);
    }
    if !take(&mut budgets.decoded, sheet_bytes) {
        return Err(anyhow!(
            "the sprite sheet's {sheet_bytes} bytes of pixels ({width} x {height}) pass the \
             pixel budget's {} bytes left (64 bytes a byte of input plus 64 MiB)",
            budgets.decoded
        )
        .context(not_drawn));
    }
    if !take(&mut budgets.output, FILE_COST) {
        bail!("{not_drawn}: the output budget has no room for a file");
    }
    let mut sheet = RgbaImage::new(width, height, [0; 4]).context(not_drawn)?;
    // Where each frame's picture goes (the sheet's width fits a u32), and the frames by
    // the picture they show ([`FRAME_OVERHEAD`] counts both).
    let mut left: Vec<u32> = Vec::with_capacity(plan.frames.len());
    let mut x = 0u32;
    for frame in &plan.frames {
        left.push(x);
        x = x.saturating_add(frame.width);
    }
    let frames = u32::try_from(plan.frames.len()).unwrap_or(u32::MAX);
    let mut by_picture: Vec<u32> = (0..frames).collect();
    // In place (a stable sort takes a buffer of half the list).
    by_picture.sort_unstable_by_key(|&i| (plan.shows.get(i as usize).copied().unwrap_or(0), i));
    let mut at = 0usize;
    for (index, (first, source)) in plan.pictures.iter().enumerate() {
        let index = u32::try_from(index).unwrap_or(u32::MAX);
        let start = at;
        while by_picture
            .get(at)
            .is_some_and(|&i| plan.shows.get(i as usize) == Some(&index))
        {
            at = at.saturating_add(1);
        }
        if matches!(source, Source::Blank) {
            continue;
        }
        let bytes = plan.frames.get(*first).map_or(0, rgba_bytes);
        if !take(&mut budgets.decoded, bytes) {
            bail!(
                "{no_sheet}: the frames' pixels pass the decoding budget (64 bytes a byte of \
                 input plus 64 MiB)"
            );
        }
        let picture = draw(*source, drawing, plan.cap)?;
        let row_bytes = (picture.width() as usize).saturating_mul(4);
        for &frame in by_picture.get(start..at).unwrap_or_default() {
            let from_x = left
                .get(frame as usize)
                .map_or(0, |&x| x as usize)
                .saturating_mul(4);
            for y in 0..picture.height() {
                let (Some(from), Some(to)) = (picture.row(y), sheet.row_mut(y)) else {
                    continue;
                };
                if let Some(to) = to.get_mut(from_x..from_x.saturating_add(row_bytes)) {
                    to.copy_from_slice(from);
                }
            }
        }
    }
    Ok(sheet)
}
