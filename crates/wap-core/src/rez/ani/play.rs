//! Playing an animation on an object as the engine does: each record moves the object's
//! frame ([`Step`]), lasts its [`AniFrame::shown_ms`], then picks the record after it
//! ([`Next`]) (gruntz-decomp `src/Wwd/WwdFactoryObject.cpp`, `CAniAdvanceCursor::Advance`
//! and `Recompute`; `docs/formats/wap32.md`, "ANI animations").
//!
//! The records and the object's frame make a state that repeats: [`Ani::play`] finds the
//! repeat (Brent's cycle search, no memory per step) and jumps over whole periods, so
//! that any time costs at most a few times the steps of one pass through the cycle,
//! within a budget of steps the caller gives.

use super::Ani;
use super::{AniFrame, TICK_MS};
use crate::images::Frames;

/// How a record moves the object's frame (its step word at 0x2).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Step {
    /// 0, and any value past 7: the frame stays.
    Hold,
    /// 1: the next frame number, or the set's lowest when the set has no next.
    Next,
    /// 2: the number before, or from the lowest to the highest.
    Prev,
    /// 3: frame [`AniFrame::param`].
    Set,
    /// 4: the set's lowest number.
    First,
    /// 5: the set's highest number.
    Last,
    /// 6: [`AniFrame::param`] numbers on, or the highest when the set has no such frame.
    ForwardBy,
    /// 7: [`AniFrame::param`] numbers back, or the lowest when the set has no such frame.
    BackBy,
}

impl Step {
    /// The step a stored word names.
    pub fn from_raw(word: u16) -> Self {
        match word {
            1 => Step::Next,
            2 => Step::Prev,
            3 => Step::Set,
            4 => Step::First,
            5 => Step::Last,
            6 => Step::ForwardBy,
            7 => Step::BackBy,
            _ => Step::Hold,
        }
    }
}

/// Which record follows one (its word at 0x4). "Again" means the same record is applied
/// once more after its duration.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Next {
    /// 0: the following record; after the last, the first.
    Following,
    /// 1: the following record once the object's frame is [`AniFrame::param`], else again.
    WhenFrame,
    /// 2: the following record once the frame is the set's lowest, else again.
    WhenFirst,
    /// 3: the following record once the frame is the set's highest, else again.
    WhenLast,
    /// 4: the following record once the frame is the lowest plus one, else again.
    WhenSecond,
    /// 5: the following record once the frame is the highest minus one, else again.
    WhenBeforeLast,
    /// 7: the second record (the first when there is one), one game tick later whatever
    /// the duration.
    Second,
    /// 8: the first record.
    Restart,
    /// 9: none: the animation stops with this frame.
    Finish,
    /// 6, and any value past 9: this record again.
    Again,
}

impl Next {
    /// The rule a stored word names.
    pub fn from_raw(word: u16) -> Self {
        match word {
            0 => Next::Following,
            1 => Next::WhenFrame,
            2 => Next::WhenFirst,
            3 => Next::WhenLast,
            4 => Next::WhenSecond,
            5 => Next::WhenBeforeLast,
            7 => Next::Second,
            8 => Next::Restart,
            9 => Next::Finish,
            _ => Next::Again,
        }
    }
}

/// The frame numbers an image set holds, as the steps see them.
struct Set<'f> {
    frames: &'f Frames,
    lowest: i64,
    highest: i64,
}

impl Set<'_> {
    fn has(&self, n: i64) -> bool {
        n >= 0 && self.frames.candidates(n).next().is_some()
    }
}

/// The frame `record` leaves, from `f`.
fn apply(record: &AniFrame<'_>, f: i64, set: Option<&Set<'_>>) -> i64 {
    // Without an image set, no step moves the frame.
    let Some(set) = set else { return f };
    let param = i64::from(record.param());
    match record.step() {
        Step::Hold => f,
        Step::Next if set.has(f.saturating_add(1)) => f.saturating_add(1),
        Step::Next => set.lowest,
        Step::Prev if f == set.lowest => set.highest,
        Step::Prev => f.saturating_sub(1),
        Step::Set => param,
        Step::First => set.lowest,
        Step::Last => set.highest,
        Step::ForwardBy if set.has(f.saturating_add(param)) => f.saturating_add(param),
        Step::ForwardBy => set.highest,
        Step::BackBy if set.has(f.saturating_sub(param)) => f.saturating_sub(param),
        Step::BackBy => set.lowest,
    }
}

/// The record after record `r` of `count` (whose rule is `next`), the frame being `f`, and
/// how long record `r` lasts; `None` when the animation stops.
fn after(
    record: &AniFrame<'_>,
    r: usize,
    count: usize,
    f: i64,
    set: Option<&Set<'_>>,
) -> Option<(usize, u64)> {
    let following = if r.saturating_add(1) < count {
        r.saturating_add(1)
    } else {
        0
    };
    let when = |hit: bool| if hit { following } else { r };
    let bound = |pick: fn(&Set<'_>) -> i64| set.is_some_and(|s| f == pick(s));
    let shown = record.shown_ms();
    let next = match record.next() {
        Next::Following => following,
        Next::WhenFrame => when(f == i64::from(record.param())),
        Next::WhenFirst => when(bound(|s| s.lowest)),
        Next::WhenLast => when(bound(|s| s.highest)),
        Next::WhenSecond => when(bound(|s| s.lowest.saturating_add(1))),
        Next::WhenBeforeLast => when(bound(|s| s.highest.saturating_sub(1))),
        Next::Second => return Some((if count > 1 { 1 } else { 0 }, TICK_MS)),
        Next::Restart => 0,
        Next::Finish => return None,
        Next::Again => r,
    };
    Some((next, shown))
}

impl Ani<'_> {
    /// The frame number an object shows `ms` milliseconds after this animation starts on
    /// it, its image set holding `frames` (`None`: the object has no image set, and no
    /// step moves its frame, nor do the next rules that compare the frame with the set's
    /// bounds find them, where the engine would fault; an empty set's lowest number is
    /// 99,999 and its highest 0, as the engine starts them) and its frame being `start`
    /// (-1: the set's lowest number, as the engine gives an object of frame -1). At 0 ms the first record has been applied.
    /// The number may be one the set does not hold (the engine then draws nothing).
    ///
    /// Each record read and each applied takes one step of `budget`; `None` when the budget runs out
    /// before `ms` is reached, or when the animation has no records. A cycle of states is
    /// found and skipped whole, so the steps are a few times those of the states before
    /// the cycle and of one cycle, whatever `ms`.
    pub fn play(
        &self,
        ms: u64,
        frames: Option<&Frames>,
        start: i64,
        budget: &mut u64,
    ) -> Option<i64> {
        // Reading the records counts one step each.
        *budget = budget.checked_sub(u64::from(self.frame_count()))?;
        let records: Vec<AniFrame<'_>> = self.frames().collect();
        let count = records.len();
        // An empty set's bounds are where the engine's `CDDrawWorker` starts them
        // (gruntz-decomp `src/Wwd/WwdGameObject.cpp`, `Unload`): 99,999 and 0.
        let set = frames.map(|frames| Set {
            frames,
            lowest: frames.lowest().map_or(99_999, i64::from),
            highest: frames.highest().map_or(0, i64::from),
        });
        let mut f = match (&set, start) {
            (Some(s), -1) => s.lowest,
            _ => start,
        };
        // `left`: the milliseconds from the start of record `r` to `ms`.
        let (mut r, mut left) = (0usize, ms);
        // Brent: the state saved at the last power of two, and the steps since.
        let (mut saved, mut saved_left, mut power, mut steps) = ((r, f), left, 1u64, 0u64);
        let mut skipped = false;
        loop {
            *budget = budget.checked_sub(1)?;
            let record = records.get(r)?;
            f = apply(record, f, set.as_ref());
            let Some((next, shown)) = after(record, r, count, f, set.as_ref()) else {
                return Some(f);
            };
            if left < shown {
                return Some(f);
            }
            (r, left) = (next, left.saturating_sub(shown));
            if skipped {
                continue;
            }
            if (r, f) == saved {
                // The state now is the state `period` milliseconds ago: skip whole
                // periods.
                let period = saved_left.saturating_sub(left).max(1);
                left = left.checked_rem(period).unwrap_or(0);
                skipped = true;
                continue;
            }
            steps = steps.saturating_add(1);
            if steps == power {
                (saved, saved_left, power, steps) = ((r, f), left, power.saturating_mul(2), 0);
            }
        }
    }
}

#[cfg(test)]
#[allow(
    clippy::arithmetic_side_effects,
    clippy::cast_possible_truncation,
    clippy::cast_possible_wrap,
    clippy::cast_sign_loss
)]
mod tests {
    use super::*;

    use gamedata_testkit::ani::{Record, bytes as ani_bytes, frame_at};

    /// An animation of records (flags, step, next, param, duration), no image set path.
    fn records(list: &[(u16, u16, u16, i16, i16)]) -> Vec<Record> {
        list.iter()
            .map(|&(flags, step, next, param, duration)| Record {
                flags,
                step,
                next,
                param,
                duration,
            })
            .collect()
    }

    fn bytes(list: &[(u16, u16, u16, i16, i16)]) -> Vec<u8> {
        ani_bytes(b"", &records(list))
    }

    /// The frame at `ms` by the test kit's plain walk of every record.
    fn naive(list: &[(u16, u16, u16, i16, i16)], set: &[u32], start: i64, ms: u64) -> Option<i64> {
        frame_at(&records(list), Some(set), start, ms, 1 << 20)
    }

    fn play(
        records: &[(u16, u16, u16, i16, i16)],
        set: &[u32],
        start: i64,
        ms: u64,
    ) -> Option<i64> {
        let data = bytes(records);
        let ani = Ani::parse(&data).unwrap_or_else(|e| panic!("{e}"));
        let frames = Frames::numbered(set);
        ani.play(ms, Some(&frames), start, &mut 1_000_000)
    }

    #[test]
    fn records_that_set_frames_loop_with_their_durations() {
        let records = [(0, 3, 0, 1, 100), (0, 3, 0, 3, 50), (0, 3, 0, 2, 25)];
        let at = |ms| play(&records, &[1, 2, 3], 0, ms);
        assert_eq!(
            [at(0), at(99), at(100), at(149), at(150), at(174), at(175)],
            [
                Some(1),
                Some(1),
                Some(3),
                Some(3),
                Some(2),
                Some(2),
                Some(1)
            ]
        );
        // 1,000,000,050 ms is 5,714,286 periods of 175 ms.
        assert_eq!(at(1_000_000_050 + 49), Some(1));
        assert_eq!(at(1_000_000_050 + 149), Some(3));
        assert_eq!(at(1_000_000_050 + 174), Some(2));
    }

    #[test]
    fn durations_are_the_engine_s() {
        // No duration lasts a 22-ms update; with flag 0x1, the count of updates plus one;
        // a negative duration is read unsigned (-5: 4,294,967,291 ms).
        let records = [(0, 3, 0, 1, 0), (1, 3, 0, 3, 2), (0, 3, 0, 2, -5)];
        let at = |ms| play(&records, &[1, 2, 3], 0, ms);
        assert_eq!(
            [
                at(21),
                at(22),
                at(87),
                at(88),
                at(4_294_967_378),
                at(4_294_967_379)
            ],
            [Some(1), Some(3), Some(3), Some(2), Some(2), Some(1)]
        );
    }

    #[test]
    fn steps_move_the_frame_within_the_set() {
        // Next wraps to the lowest; the set skips 4.
        let next = [(0, 1, 0, 0, 10)];
        let at = |ms| play(&next, &[1, 2, 3, 5], 2, ms);
        assert_eq!(
            [at(0), at(10), at(20), at(30)],
            [Some(3), Some(1), Some(2), Some(3)]
        );
        // Prev from the lowest goes to the highest.
        let prev = [(0, 2, 0, 0, 10)];
        assert_eq!(play(&prev, &[1, 2, 3, 5], 1, 0), Some(5));
        assert_eq!(play(&prev, &[1, 2, 3, 5], 5, 0), Some(4));
        // First, last; forward and back by the parameter, or clamped.
        assert_eq!(play(&[(0, 4, 0, 0, 10)], &[7, 2, 9], 9, 0), Some(2));
        assert_eq!(play(&[(0, 5, 0, 0, 10)], &[7, 2, 9], 2, 0), Some(9));
        assert_eq!(play(&[(0, 6, 0, 5, 10)], &[2, 7, 9], 2, 0), Some(7));
        assert_eq!(play(&[(0, 6, 0, 6, 10)], &[2, 7, 9], 2, 0), Some(9));
        assert_eq!(play(&[(0, 7, 0, 5, 10)], &[2, 7, 9], 7, 0), Some(2));
        assert_eq!(play(&[(0, 7, 0, 2, 10)], &[2, 7, 9], 9, 0), Some(7));
        // Hold, and a step past 7, keep the frame; frame -1 starts at the lowest.
        assert_eq!(play(&[(0, 0, 0, 5, 10)], &[2, 7, 9], -1, 0), Some(2));
        assert_eq!(play(&[(0, 12, 0, 5, 10)], &[2, 7, 9], 7, 0), Some(7));
        // A frame the set does not hold is still the frame.
        assert_eq!(play(&[(0, 3, 0, 40, 10)], &[2, 7, 9], 7, 0), Some(40));
    }

    #[test]
    fn without_an_image_set_no_step_moves_the_frame() {
        let data = bytes(&[(0, 3, 0, 4, 10), (0, 1, 0, 0, 10)]);
        let ani = Ani::parse(&data).unwrap_or_else(|e| panic!("{e}"));
        for ms in [0, 10, 25] {
            assert_eq!(ani.play(ms, None, 3, &mut 100), Some(3));
        }
        // An empty set is 99,999 to 0: frame -1 starts at 99,999; the set holds no 5, so
        // the step on goes to the lowest.
        let empty = Frames::numbered(&[]);
        assert_eq!(ani.play(0, Some(&empty), -1, &mut 100), Some(4));
        assert_eq!(ani.play(10, Some(&empty), -1, &mut 100), Some(99_999));
        let stay = bytes(&[(0, 0, 0, 0, 10)]);
        let stay = Ani::parse(&stay).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(stay.play(0, Some(&empty), -1, &mut 100), Some(99_999));
    }

    #[test]
    fn what_follows_a_record() {
        // Advance by one each 10 ms until the highest, then a record that shows 7 and stops.
        let records = [(0, 1, 3, 0, 10), (0, 3, 9, 7, 10)];
        let at = |ms| play(&records, &[1, 2, 3], 1, ms);
        assert_eq!(
            [at(0), at(10), at(20), at(30), at(1 << 40)],
            [Some(2), Some(3), Some(7), Some(7), Some(7)]
        );
        // Restart (8) goes back to the first record; again (6) stays.
        let restart = [(0, 3, 0, 1, 10), (0, 3, 8, 2, 10), (0, 3, 0, 3, 10)];
        let at = |ms| play(&restart, &[1, 2, 3], 1, ms);
        assert_eq!([at(10), at(20), at(30)], [Some(2), Some(1), Some(2)]);
        let again = [(0, 1, 6, 0, 10), (0, 3, 0, 9, 10)];
        assert_eq!(play(&again, &[1, 2, 3], 1, 20), Some(1));
        // Second (7): the second record one tick later, whatever the duration.
        // Of one record, the first again, a tick later: frames 2, 3 at 0 and 22 ms.
        assert_eq!(play(&[(0, 1, 7, 0, 10)], &[1, 2, 3], 1, 30), Some(3));
        let second = [(0, 3, 7, 1, 500), (0, 3, 0, 2, 10)];
        let at = |ms| play(&second, &[1, 2], 1, ms);
        assert_eq!(
            [at(21), at(22), at(31), at(32)],
            [Some(1), Some(2), Some(2), Some(1)]
        );
    }

    #[test]
    fn the_cycle_skip_agrees_with_following_every_record() {
        // Small animations of every step and rule, with a few sets and starts, compared at
        // many times with the plain walk.
        let mut seed = 0x2545_f491_4f6c_dd1du64;
        let mut next = |n: u64| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed % n
        };
        let mut compared = 0;
        for _ in 0..300 {
            let count = 1 + next(4) as usize;
            let records: Vec<_> = (0..count)
                .map(|_| {
                    (
                        next(2) as u16,
                        next(9) as u16,
                        next(11) as u16,
                        next(8) as i16 - 1,
                        next(40) as i16 - 3,
                    )
                })
                .collect();
            let set: Vec<u32> = (0..1 + next(5)).map(|_| next(7) as u32).collect();
            let start = next(8) as i64 - 1;
            for _ in 0..20 {
                let ms = next(3_000);
                // Skip walks whose frame drifts out of range (the plain walk would too).
                let got = play(&records, &set, start, ms);
                if let Some(got) = got {
                    let want = naive(&records, &set, start, ms);
                    assert_eq!(Some(got), want, "{records:?} {set:?} {start} {ms}");
                    compared += 1;
                }
            }
        }
        // Nearly every walk ends: few frames drift for ever.
        assert!(compared > 5_000, "{compared}");
    }

    #[test]
    fn a_late_time_costs_a_cycle_not_the_time() {
        let records = [(0, 3, 0, 1, 1), (0, 3, 0, 2, 1), (0, 3, 0, 3, 1)];
        let data = bytes(&records);
        let ani = Ani::parse(&data).unwrap_or_else(|e| panic!("{e}"));
        let frames = Frames::numbered(&[1, 2, 3]);
        let mut budget = 100;
        // u64::MAX is a multiple of 3 (2^64 - 1 = 3 x 6,148,914,691,236,517,205).
        assert_eq!(ani.play(u64::MAX, Some(&frames), 0, &mut budget), Some(1));
        assert!(budget > 80, "{budget}");
    }

    #[test]
    fn a_frame_that_never_repeats_runs_out_of_budget() {
        // Stepping back from below the lowest: the frame falls for ever.
        let records = [(0, 2, 0, 0, 1)];
        let data = bytes(&records);
        let ani = Ani::parse(&data).unwrap_or_else(|e| panic!("{e}"));
        let frames = Frames::numbered(&[5, 6]);
        let mut budget = 1_000;
        assert_eq!(ani.play(5_000, Some(&frames), 3, &mut budget), None);
        assert_eq!(budget, 0);
        // With the budget, the same walk reaches its time.
        assert_eq!(ani.play(500, Some(&frames), 3, &mut 1_000), Some(3 - 501));
        // No records: nothing to play.
        let none = bytes(&[]);
        let ani = Ani::parse(&none).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(ani.play(0, Some(&frames), 3, &mut 10), None);
    }
}
