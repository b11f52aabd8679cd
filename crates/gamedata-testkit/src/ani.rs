//! ANI animations for tests, written and played here without the readers' code: [`bytes`]
//! lays out a file of any records, [`frame_at`] follows the records one by one from the
//! start as the engine's `CAniAdvanceCursor::Advance` switch does (gruntz-decomp
//! `src/Wwd/WwdFactoryObject.cpp`; durations by `CAniRecordView::GetSize`,
//! `src/DDrawMgr/AniRecord.cpp`), with no cycle skipped: the expectation a player's
//! answer is checked against.

// Test arithmetic on small numbers.
#![allow(
    clippy::arithmetic_side_effects,
    clippy::cast_sign_loss,
    clippy::cast_possible_truncation
)]

/// One record: flags (0x1 ticks, 0x2 sound), step, next rule, parameter, duration.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Record {
    /// 0x1: the duration counts 22-ms ticks; 0x2: a sound follows (not written here).
    pub flags: u16,
    /// How the frame moves (3: to `param`).
    pub step: u16,
    /// Which record follows (0: the next).
    pub next: u16,
    /// The step's parameter.
    pub param: i16,
    /// Milliseconds (or ticks); 0 or less, one tick.
    pub duration: i16,
}

impl Record {
    /// A record that shows frame `image` for `ms` milliseconds, then the next record (the
    /// games' usual record: step 3, next 0).
    pub fn show(image: i16, ms: i16) -> Self {
        Record {
            flags: 0,
            step: 3,
            next: 0,
            param: image,
            duration: ms,
        }
    }
}

/// An ANI file: the 32-byte header (frame count at 0xC, path length at 0x10), `image_set`,
/// then each record's 20 bytes (flags, step, next, position 0, parameter, duration, 8
/// zero bytes), no sounds.
pub fn bytes(image_set: &[u8], records: &[Record]) -> Vec<u8> {
    let mut out = Vec::new();
    let count = records.len() as u32;
    for word in [0u32, 0, 0, count, image_set.len() as u32, 0, 0, 0] {
        out.extend_from_slice(&word.to_le_bytes());
    }
    out.extend_from_slice(image_set);
    for r in records {
        for word in [r.flags, r.step, r.next, 0] {
            out.extend_from_slice(&word.to_le_bytes());
        }
        out.extend_from_slice(&r.param.to_le_bytes());
        out.extend_from_slice(&r.duration.to_le_bytes());
        out.extend_from_slice(&[0; 8]);
    }
    out
}

/// The frame an object whose image set holds the numbers `set` (`None`: it has no image
/// set, and no step moves the frame; an empty set's lowest is 99,999 and highest 0, as the
/// engine's `CDDrawWorker` starts) and whose level frame is `start` (-1: the lowest) shows
/// `ms` milliseconds after `records` start playing on it, each record lasting as playback
/// counts on a steady clock of 22-ms updates. Walks every record from the start; `None`
/// past `max_steps` records.
pub fn frame_at(
    records: &[Record],
    set: Option<&[u32]>,
    start: i64,
    ms: u64,
    max_steps: u64,
) -> Option<i64> {
    let numbers = set.unwrap_or_default();
    let has = |n: i64| n >= 0 && numbers.iter().any(|&m| i64::from(m) == n);
    let lo = set.map(|s| s.iter().copied().min().map_or(99_999, i64::from));
    let hi = set.map(|s| s.iter().copied().max().map_or(0, i64::from));
    let mut f = match (lo, start) {
        (Some(lo), -1) => lo,
        _ => start,
    };
    let (mut r, mut t) = (0usize, 0u64);
    for _ in 0..max_steps {
        let Record {
            flags,
            step,
            next,
            param,
            duration,
        } = *records.get(r)?;
        let p = i64::from(param);
        if let (Some(lo), Some(hi)) = (lo, hi) {
            f = match step {
                1 => {
                    if has(f + 1) {
                        f + 1
                    } else {
                        lo
                    }
                }
                2 => {
                    if f == lo {
                        hi
                    } else {
                        f - 1
                    }
                }
                3 => p,
                4 => lo,
                5 => hi,
                6 => {
                    if has(f + p) {
                        f + p
                    } else {
                        hi
                    }
                }
                7 => {
                    if has(f - p) {
                        f - p
                    } else {
                        lo
                    }
                }
                _ => f,
            };
        }
        // The duration as an unsigned 32-bit count of milliseconds, or of updates with
        // flag 0x1 (lasting one more update than it counts); 0 ms lasts an update.
        let count = u64::from(i32::from(duration) as u32);
        let mut d = match (count, flags & 1) {
            (0, 0) => 22,
            (n, 0) => n,
            (n, _) => 22 * (n + 1),
        };
        let following = (r + 1) % records.len();
        let at = |want: Option<i64>| if want == Some(f) { following } else { r };
        let n = match next {
            0 => following,
            1 => at(Some(p)),
            2 => at(lo),
            3 => at(hi),
            4 => at(lo.map(|l| l + 1)),
            5 => at(hi.map(|h| h - 1)),
            7 => {
                d = 22;
                usize::from(records.len() > 1)
            }
            8 => 0,
            9 => return Some(f),
            _ => r,
        };
        if ms < t + d {
            return Some(f);
        }
        t += d;
        r = n;
    }
    None
}
