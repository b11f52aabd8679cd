//! Animation frames (anim*.mul, and AnimationFrame*.uop: [`uop_direction_pictures`]) as the
//! client draws them, optionally hued and mirrored.
//!
//! Each pixel a run covers is the palette's colour, widened from 5 to 8 bits through the
//! client's table ([`client_rgb`]) and opaque, palette colour 0 (black) included; bit 15
//! plays no part; places no run covers are transparent. A hue ([`ArtHue`]) changes every
//! drawn pixel, black ones included (they take the hue's entry 0), or with a partial hue
//! only the grey ones; a hue number past hues.mul draws those pixels black. The client
//! draws directions 5, 6 and 7 by mirroring stored 3, 2 and 1 left to right
//! ([`mul_core::Facing`]), the centre x becoming width - centre x. Sources:
//! `docs/formats/uo.md`, "Animations" and "Hues on pictures" (ClassicUO's
//! `AnimationsLoader`, `MobileView` and its hue shader).

use std::collections::HashMap;

use mul_core::{
    AnimFileId, AnimFrame, BodyType, FrameGroup, LimitError, Limits, MobTypes, UopAnimation,
    UopFrame,
};
use zerocopy::little_endian::U16;

use super::art::ArtHue;
use super::client::client_rgb;
use crate::{RenderError, Result, RgbaImage};

/// Bytes [`group_pictures`] charges each frame besides its pixels, for its place in the
/// list it returns: a group of many empty frames costs memory too.
pub const FRAME_OVERHEAD: u64 = 64;

/// `bytes` of `what`, or the error saying they pass `limits.max_decoded_bytes`.
fn check_limit(what: &'static str, bytes: u64, limits: &Limits) -> Result<()> {
    if bytes > limits.max_decoded_bytes {
        let limit = LimitError {
            what,
            unit: "bytes",
            found: bytes,
            limit: limits.max_decoded_bytes,
        };
        return Err(RenderError::Uo(limit.into()));
    }
    Ok(())
}

/// RGBA bytes of a frame's picture.
fn frame_bytes(frame: &AnimFrame<'_>) -> u64 {
    u64::from(frame.width())
        .saturating_mul(u64::from(frame.height()))
        .saturating_mul(4)
}

/// The type the client gives body `body` when it reads its UOP animations: mobtypes.txt's
/// when `mobtypes` lists the body, else anim.mul's default ([`BodyType::of_body`])
/// (`docs/formats/uo.md`, "Which form: MUL or UOP").
pub fn uop_body_type(mobtypes: Option<&MobTypes>, body: u16) -> BodyType {
    mobtypes
        .and_then(|m| m.get(body))
        .map_or(BodyType::of_body(AnimFileId::Anim, body), |m| m.body_type)
}

/// A frame as the client draws it with the palette `palette` (its group's,
/// [`FrameGroup::palette`]): its width x height, the pixels runs cover opaque, the rest
/// transparent. An empty frame (a stored width or height of 0 or less) is a picture of 0 x
/// 0 pixels.
///
/// Returns `Err` ([`RenderError::Uo`] with a [`LimitError`]) for a picture whose RGBA bytes
/// pass `limits.max_decoded_bytes`, checked before anything is allocated, or
/// ([`RenderError::Uo`]) for runs the frame's bytes do not hold ([`AnimFrame::runs`]).
pub fn frame_picture(
    frame: &AnimFrame<'_>,
    palette: &[U16; 256],
    hue: ArtHue<'_>,
    limits: &Limits,
) -> Result<RgbaImage> {
    draw_runs(frame, palette, hue, limits, false)
}

/// A frame's runs drawn with `palette`; with `zero_clear`, a pixel whose palette colour is
/// 0 (all 16 bits) is left transparent, as the client draws UOP frames.
fn draw_runs(
    frame: &AnimFrame<'_>,
    palette: &[U16; 256],
    hue: ArtHue<'_>,
    limits: &Limits,
    zero_clear: bool,
) -> Result<RgbaImage> {
    check_limit("the frame's picture", frame_bytes(frame), limits)?;
    let mut picture = RgbaImage::new(frame.width(), frame.height(), [0; 4])?;
    for run in frame.runs() {
        let run = run?;
        let Some(row) = picture.row_mut(run.y) else {
            continue;
        };
        let start = (run.x as usize).saturating_mul(4);
        let Some(out) = row.get_mut(start..) else {
            continue;
        };
        for (px, &index) in out.chunks_exact_mut(4).zip(run.pixels) {
            let colour = palette.get(usize::from(index)).map_or(0, |c| c.get());
            if zero_clear && colour == 0 {
                continue;
            }
            let [r, g, b] = client_rgb(hue.apply(colour));
            px.copy_from_slice(&[r, g, b, 0xFF]);
        }
    }
    Ok(picture)
}

/// A UOP animation's frame ([`UopFrame`]) as the client draws it with its own palette: as
/// [`frame_picture`], except that a run's pixel whose palette colour is 0 (all 16 bits;
/// 0x8000 is drawn black) is transparent (`docs/formats/uo.md`, "UOP animations").
///
/// Returns `Err` as [`frame_picture`].
pub fn uop_frame_picture(
    frame: &UopFrame<'_>,
    hue: ArtHue<'_>,
    limits: &Limits,
) -> Result<RgbaImage> {
    draw_runs(&frame.frame(), frame.palette(), hue, limits, true)
}

/// The frames of stored direction `direction` (0 to 4) of a UOP animation, a direction
/// having `per` frames ([`UopAnimation::frames_per_direction`]), drawn in order
/// ([`uop_frame_picture`]), mirrored left to right when `mirrored` (directions 5 to 7). A
/// place no record fills (a gap in the frame numbers, or past the last) is an empty frame:
/// a picture of 0 x 0 pixels, centre (0, 0), as the client zeroes it.
///
/// Returns `Err` ([`RenderError::Uo`] with a [`LimitError`]) when the frames' RGBA bytes
/// and [`FRAME_OVERHEAD`] a frame, together, pass `limits.max_decoded_bytes` (checked from
/// the frames' headers before any picture is drawn), or ([`RenderError::Uo`]) for a
/// direction past 4 or the first frame that cannot be read ([`UopAnimation::frame`],
/// [`AnimFrame::runs`]).
pub fn uop_direction_pictures(
    animation: &UopAnimation<'_>,
    direction: u8,
    per: u32,
    mirrored: bool,
    hue: ArtHue<'_>,
    limits: &Limits,
) -> Result<Vec<DrawnFrame>> {
    let mut frames = Vec::new();
    let mut total = 0u64;
    for frame in animation.direction(direction, per) {
        let frame = frame?;
        let bytes = frame.as_ref().map_or(0, |f| frame_bytes(&f.frame()));
        total = total.saturating_add(bytes).saturating_add(FRAME_OVERHEAD);
        // Checked as the list grows: `per` may be large and the places empty.
        check_limit("the direction's frames", total, limits)?;
        frames.push(frame);
    }
    let mut drawn = Vec::with_capacity(frames.len());
    for frame in frames {
        let Some(frame) = frame else {
            drawn.push(DrawnFrame {
                picture: RgbaImage::new(0, 0, [0; 4])?,
                centre_x: 0,
                centre_y: 0,
            });
            continue;
        };
        let picture = uop_frame_picture(&frame, hue, limits)?;
        let centre_x = i32::from(frame.frame().centre_x());
        let (picture, centre_x) = if mirrored {
            // The width is at most 32,767: the difference fits.
            let width = i32::try_from(picture.width()).unwrap_or(i32::MAX);
            (mirror(&picture), width.saturating_sub(centre_x))
        } else {
            (picture, centre_x)
        };
        drawn.push(DrawnFrame {
            picture,
            centre_x,
            centre_y: i32::from(frame.frame().centre_y()),
        });
    }
    Ok(drawn)
}

/// `picture` mirrored left to right.
pub fn mirror(picture: &RgbaImage) -> RgbaImage {
    let mut out = picture.clone();
    for y in 0..out.height() {
        if let Some(row) = out.row_mut(y) {
            // Whole pixels reversed: reverse the bytes, then each pixel's 4 back.
            row.reverse();
            for px in row.chunks_exact_mut(4) {
                px.reverse();
            }
        }
    }
    out
}

/// One frame of a direction, drawn ([`group_pictures`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DrawnFrame {
    /// The picture (0 x 0 pixels for an empty frame).
    pub picture: RgbaImage,
    /// Centre x as the picture is placed: the stored one, or width - the stored one when
    /// mirrored. The picture's left edge is drawn this many pixels left of the mobile.
    pub centre_x: i32,
    /// Centre y, as stored: the picture's top edge is drawn `height + centre_y` pixels
    /// above the mobile.
    pub centre_y: i32,
}

/// Every frame of `group` drawn ([`frame_picture`]), mirrored left to right when `mirrored`
/// (directions 5 to 7), in order. Frames at one offset are one frame: drawn once, then
/// copied.
///
/// Returns `Err` ([`RenderError::Uo`] with a [`LimitError`]) when the frames' RGBA bytes
/// and [`FRAME_OVERHEAD`] a frame, together, pass `limits.max_decoded_bytes` (checked from
/// the frames' headers before any picture is drawn), or ([`RenderError::Uo`]) for the first
/// frame that cannot be read ([`FrameGroup::frame`], [`AnimFrame::runs`]).
pub fn group_pictures(
    group: &FrameGroup<'_>,
    mirrored: bool,
    hue: ArtHue<'_>,
    limits: &Limits,
) -> Result<Vec<DrawnFrame>> {
    let mut total = 0u64;
    for frame in group.frames() {
        let frame = frame?;
        total = total
            .saturating_add(frame_bytes(&frame))
            .saturating_add(FRAME_OVERHEAD);
    }
    check_limit("the direction's frames", total, limits)?;
    let mut drawn: Vec<DrawnFrame> = Vec::with_capacity(group.frame_count());
    let mut first_at: HashMap<u32, usize> = HashMap::with_capacity(group.frame_count());
    for (i, frame) in group.frames().enumerate() {
        let offset = group.frame_offset(i).unwrap_or(0);
        if let Some(earlier) = first_at.get(&offset).and_then(|&j| drawn.get(j)) {
            drawn.push(earlier.clone());
            continue;
        }
        let frame = frame?;
        let picture = frame_picture(&frame, group.palette(), hue, limits)?;
        let centre_x = i32::from(frame.centre_x());
        let (picture, centre_x) = if mirrored {
            // The width is at most 32,767: the difference fits.
            let width = i32::try_from(picture.width()).unwrap_or(i32::MAX);
            (mirror(&picture), width.saturating_sub(centre_x))
        } else {
            (picture, centre_x)
        };
        first_at.insert(offset, drawn.len());
        drawn.push(DrawnFrame {
            picture,
            centre_x,
            centre_y: i32::from(frame.centre_y()),
        });
    }
    Ok(drawn)
}

/// The pictures side by side, left to right in order, top-aligned, on a transparent sheet
/// as wide as their widths together and as high as the highest (empty pictures take no
/// room).
///
/// Returns `Err` ([`RenderError::TooLarge`]) for a sheet of no pixel or past
/// [`crate::MAX_PIXELS`], or ([`RenderError::Uo`] with a [`LimitError`]) for one whose
/// RGBA bytes pass `limits.max_decoded_bytes`, checked before anything is allocated.
pub fn sprite_sheet<'a>(
    pictures: impl IntoIterator<Item = &'a RgbaImage> + Clone,
    limits: &Limits,
) -> Result<RgbaImage> {
    let width = pictures
        .clone()
        .into_iter()
        .fold(0u64, |w, p| w.saturating_add(u64::from(p.width())));
    let height = pictures
        .clone()
        .into_iter()
        .map(RgbaImage::height)
        .max()
        .unwrap_or(0);
    let too_large = RenderError::TooLarge {
        width,
        height: u64::from(height),
        max: crate::MAX_PIXELS,
    };
    if width == 0 || height == 0 {
        return Err(too_large);
    }
    check_limit(
        "the sprite sheet",
        width.saturating_mul(u64::from(height)).saturating_mul(4),
        limits,
    )?;
    let width = u32::try_from(width).map_err(|_| too_large)?;
    let mut sheet = RgbaImage::new(width, height, [0; 4])?;
    let mut left = 0usize;
    for picture in pictures {
        let bytes = (picture.width() as usize).saturating_mul(4);
        for y in 0..picture.height() {
            let (Some(from), Some(to)) = (picture.row(y), sheet.row_mut(y)) else {
                continue;
            };
            let start = left.saturating_mul(4);
            if let Some(to) = to.get_mut(start..start.saturating_add(bytes)) {
                to.copy_from_slice(from);
            }
        }
        left = left.saturating_add(picture.width() as usize);
    }
    Ok(sheet)
}

#[cfg(test)]
#[allow(
    clippy::indexing_slicing,
    clippy::arithmetic_side_effects,
    clippy::cast_possible_truncation
)]
mod tests {
    use mul_core::Hues;

    use super::*;

    /// The client's widening, written out: `v * 255 / 31` rounded down.
    fn rgba(colour: u16) -> [u8; 4] {
        let w = |v: u16| (u32::from(v & 31) * 255 / 31) as u8;
        [w(colour >> 10), w(colour >> 5), w(colour), 255]
    }

    /// hues.mul of one group: hue i's colour r is `((i + 1) << 10) | r` (hue 1 = index 0).
    fn hues_file() -> Vec<u8> {
        let mut file = vec![0u8; 4];
        for hue in 0..8u16 {
            for r in 0..32u16 {
                file.extend_from_slice(&(((hue + 1) << 10) | r).to_le_bytes());
            }
            file.extend_from_slice(&[0; 4 + 20]);
        }
        file
    }

    /// A palette: 0 black, 1 grey (4, 4, 4), 2 red with bit 15 set, 3 green, 4 blue.
    const PALETTE: [u16; 5] = [0, 0x1084, 0xFC00, 0x03E0, 0x001F];

    /// A group of one 3 x 2 frame, centre (1, -3): row 0 columns 0 to 2 indices 1, 0, 2
    /// (header: x = 0 - 1 = -1, y = 0 + 3 - 2 = 1, 3 pixels: 0xFFC01003), row 1 column 2
    /// index 4 (x = 1, y = 2, 1 pixel: 0x00402001); (0, 1) and (1, 1) uncovered.
    fn group() -> Vec<u8> {
        let mut out = vec![0u8; 512];
        for (i, c) in PALETTE.iter().enumerate() {
            out[2 * i..2 * i + 2].copy_from_slice(&c.to_le_bytes());
        }
        out.extend(1u32.to_le_bytes());
        out.extend(8u32.to_le_bytes());
        for v in [1i16, -3, 3, 2] {
            out.extend(v.to_le_bytes());
        }
        out.extend(0xFFC0_1003u32.to_le_bytes());
        out.extend([1, 0, 2]);
        out.extend(0x0040_2001u32.to_le_bytes());
        out.extend([4]);
        out.extend(0x7FFF_7FFFu32.to_le_bytes());
        out
    }

    fn pixels(picture: &RgbaImage) -> Vec<[u8; 4]> {
        picture
            .pixels()
            .chunks(4)
            .map(|p| [p[0], p[1], p[2], p[3]])
            .collect()
    }

    #[test]
    fn runs_draw_opaque_palette_colours_black_included() {
        let bytes = group();
        let g = FrameGroup::parse(&bytes).unwrap();
        let frame = g.frame(0).unwrap().unwrap();
        let picture = frame_picture(&frame, g.palette(), ArtHue::None, &Limits::default()).unwrap();
        assert_eq!((picture.width(), picture.height()), (3, 2));
        // Bit 15 of index 2 (0xFC00) plays no part: red.
        assert_eq!(
            pixels(&picture),
            [
                rgba(0x1084),
                [0, 0, 0, 255],
                [255, 0, 0, 255],
                [0; 4],
                [0; 4],
                rgba(0x001F)
            ]
        );
        // 4 in each channel widens to 32 (bit replication would give 33).
        assert_eq!(rgba(0x1084), [32, 32, 32, 255]);
        // Mirrored: the columns flipped, the centre 3 - 1.
        let drawn = group_pictures(&g, true, ArtHue::None, &Limits::default()).unwrap();
        assert_eq!(drawn.len(), 1);
        assert_eq!((drawn[0].centre_x, drawn[0].centre_y), (2, -3));
        assert_eq!(
            pixels(&drawn[0].picture),
            [
                [255, 0, 0, 255],
                [0, 0, 0, 255],
                rgba(0x1084),
                rgba(0x001F),
                [0; 4],
                [0; 4]
            ]
        );
        let plain = group_pictures(&g, false, ArtHue::None, &Limits::default()).unwrap();
        assert_eq!(plain[0].picture, picture);
        assert_eq!(plain[0].centre_x, 1);
    }

    #[test]
    fn hues_change_every_drawn_pixel_black_included_or_only_greys() {
        let bytes = group();
        let g = FrameGroup::parse(&bytes).unwrap();
        let frame = g.frame(0).unwrap().unwrap();
        let file = hues_file();
        let hues = Hues::parse(&file).unwrap();
        let draw = |value| {
            let hue = ArtHue::from_value(&hues, value).unwrap();
            pixels(&frame_picture(&frame, g.palette(), hue, &Limits::default()).unwrap())
        };
        // Hue 3: entry r of ((3) << 10) | r; black takes entry 0; uncovered stay clear.
        let full = draw(3);
        assert_eq!(full[0], rgba((3 << 10) | 4));
        assert_eq!(full[1], rgba(3 << 10));
        assert_eq!(full[2], rgba((3 << 10) | 31));
        assert_eq!(full[3], [0; 4]);
        assert_eq!(full[5], rgba(3 << 10));
        // Partial: the grey and the black change; red and blue do not.
        let partial = draw(0x8003);
        assert_eq!(partial[0], rgba((3 << 10) | 4));
        assert_eq!(partial[1], rgba(3 << 10));
        assert_eq!(partial[2], [255, 0, 0, 255]);
        assert_eq!(partial[5], rgba(0x001F));
        // Past the file's 8 hues: black where the hue applies.
        let missing = draw(9);
        assert_eq!(missing[2], [0, 0, 0, 255]);
    }

    #[test]
    fn a_huge_frame_or_direction_is_refused_before_drawing() {
        let mut bytes = group();
        bytes[520 + 4..520 + 8].copy_from_slice(&[0xFF, 0x7F, 0xFF, 0x7F]);
        let g = FrameGroup::parse(&bytes).unwrap();
        let frame = g.frame(0).unwrap().unwrap();
        assert_eq!((frame.width(), frame.height()), (0x7FFF, 0x7FFF));
        let limits = Limits::default();
        assert!(matches!(
            frame_picture(&frame, g.palette(), ArtHue::None, &limits),
            Err(RenderError::Uo(e)) if matches!(e.kind, mul_core::ErrorKind::Limit(_))
        ));
        assert!(group_pictures(&g, false, ArtHue::None, &limits).is_err());
        // A limit below the 3 x 2 frame's 24 bytes and its overhead refuses the direction.
        let bytes = group();
        let g = FrameGroup::parse(&bytes).unwrap();
        let small = Limits::new().with_max_decoded_bytes(24 + FRAME_OVERHEAD - 1);
        assert!(group_pictures(&g, false, ArtHue::None, &small).is_err());
        let enough = Limits::new().with_max_decoded_bytes(24 + FRAME_OVERHEAD);
        assert!(group_pictures(&g, false, ArtHue::None, &enough).is_ok());
    }

    /// A UOP entry of frames numbered 1, 3 and 4 (2 a gap: 4 in the list, so (4 + 2) / 5 =
    /// 1 a direction): number 1 is 2 x 1, centre (0, 0), indices 0 and 1, palette colour 0
    /// at index 0 (transparent here) and grey 0x1084 at index 1.
    fn uop_entry(height: u16) -> Vec<u8> {
        use mul_core::anim::write::{AnimFramePicture, UopFramePicture, write_uop_animation};
        let mut palette = [0u16; 256];
        palette[1] = 0x1084;
        let two = vec![Some(0u8); 2 * usize::from(height)];
        let mut pixels = two.clone();
        pixels[1] = Some(1);
        let frames: Vec<UopFramePicture<'_>> = [1u16, 3, 4]
            .into_iter()
            .map(|number| UopFramePicture {
                group: 0,
                number,
                palette: &palette,
                picture: AnimFramePicture {
                    centre_x: 0,
                    centre_y: 0,
                    width: 2,
                    height: if number == 1 { 1 } else { height },
                    pixels: if number == 1 { &pixels[..2] } else { &two },
                },
            })
            .collect();
        write_uop_animation(&frames).unwrap()
    }

    #[test]
    fn uop_frames_leave_colour_zero_clear_and_gaps_empty() {
        let bytes = uop_entry(1);
        let animation = UopAnimation::parse(&bytes).unwrap();
        let per = animation.frames_per_direction(mul_core::BodyType::Monster);
        assert_eq!(per, 1);
        let limits = Limits::default();
        let first =
            uop_direction_pictures(&animation, 0, per, false, ArtHue::None, &limits).unwrap();
        assert_eq!(pixels(&first[0].picture), [[0; 4], rgba(0x1084)]);
        // Mirrored: the grey first, the centre 2 - 0.
        let mirrored =
            uop_direction_pictures(&animation, 0, per, true, ArtHue::None, &limits).unwrap();
        assert_eq!(pixels(&mirrored[0].picture), [rgba(0x1084), [0; 4]]);
        assert_eq!(mirrored[0].centre_x, 2);
        // Direction 1 is number 2, a gap: one empty frame, centre (0, 0).
        let gap = uop_direction_pictures(&animation, 1, per, false, ArtHue::None, &limits).unwrap();
        assert_eq!((gap[0].picture.width(), gap[0].picture.height()), (0, 0));
        assert_eq!((gap[0].centre_x, gap[0].centre_y), (0, 0));
        // Direction 5 is past the stored ones.
        assert!(uop_direction_pictures(&animation, 5, per, false, ArtHue::None, &limits).is_err());
    }

    #[test]
    fn a_uop_direction_past_the_limit_is_refused_before_drawing() {
        // Frame 3 of 2 x 300 pixels: 2,400 bytes of RGBA and 64 of overhead.
        let bytes = uop_entry(300);
        let animation = UopAnimation::parse(&bytes).unwrap();
        let tight = Limits::new().with_max_decoded_bytes(2400 + FRAME_OVERHEAD - 1);
        assert!(uop_direction_pictures(&animation, 2, 1, false, ArtHue::None, &tight).is_err());
        let enough = Limits::new().with_max_decoded_bytes(2400 + FRAME_OVERHEAD);
        assert!(uop_direction_pictures(&animation, 2, 1, false, ArtHue::None, &enough).is_ok());
    }

    #[test]
    fn a_sheet_puts_frames_side_by_side_top_aligned() {
        let red = RgbaImage::new(2, 3, [255, 0, 0, 255]).unwrap();
        let empty = RgbaImage::new(0, 0, [0; 4]).unwrap();
        let blue = RgbaImage::new(1, 1, [0, 0, 255, 255]).unwrap();
        let sheet = sprite_sheet([&red, &empty, &blue], &Limits::default()).unwrap();
        assert_eq!((sheet.width(), sheet.height()), (3, 3));
        assert_eq!(sheet.get(1, 2), Some([255, 0, 0, 255]));
        assert_eq!(sheet.get(2, 0), Some([0, 0, 255, 255]));
        assert_eq!(sheet.get(2, 1), Some([0; 4]));
        assert!(sprite_sheet([&empty], &Limits::default()).is_err());
        // Pictures with width but no height make no sheet, nor those with height alone.
        let flat = RgbaImage::new(3, 0, [0; 4]).unwrap();
        let thin = RgbaImage::new(0, 3, [0; 4]).unwrap();
        assert!(sprite_sheet([&flat, &flat], &Limits::default()).is_err());
        assert!(sprite_sheet([&thin], &Limits::default()).is_err());
        let tight = Limits::new().with_max_decoded_bytes(35);
        assert!(sprite_sheet([&red, &blue], &tight).is_err());
    }
}
