//! Every reading path of `gamedata-io` over arbitrary bytes, with the properties the fuzz
//! targets `io_bytes` and `io_limits` check (`fuzz/fuzz_targets/io_*.rs`) and the tests
//! replay. Each function returns a number derived from what it read; errors are results.
//!
//! # Panics
//!
//! Only when a property below does not hold: that is a bug, and a fuzz run reports it.

// Fuzzing drivers: their sums only keep results alive (wrapping on purpose).
#![allow(clippy::arithmetic_side_effects, clippy::panic, clippy::expect_used)]

use zerocopy::little_endian::{U16, U32};

use gamedata_io::{
    Bytes, CodePage, FormatError, InflateError, Limits, MAX_INFLATE_RATIO, Overlaps, Problems,
    decode, field_text, inflate_exact, latin1, records, whole_records,
};

gamedata_io::record! {
    /// A 6-byte test record.
    pub struct Pair {
        /// A word.
        pub a: U16,
        /// A double word.
        pub b: U32,
    } = 6;
}

/// Splits one fuzz input into `N` files: each of the first `N - 1` behind a little-endian
/// length of `W` bytes (2 or 4; a length past what is left takes the rest), the last the
/// rest. What the multi-file targets (a world, an episode, a facet with a renderer's
/// files) read their files from; [`join_parts`] makes such inputs.
pub fn split_parts<const N: usize, const W: usize>(data: &[u8]) -> [&[u8]; N] {
    let mut parts = [&[][..]; N];
    let mut rest = data;
    for (i, part) in parts.iter_mut().enumerate() {
        if i + 1 == N {
            *part = rest;
            break;
        }
        let Some((len, tail)) = rest.split_at_checked(W) else {
            break;
        };
        let len = len.iter().rev().fold(0u64, |n, &b| (n << 8) | u64::from(b));
        let len = usize::try_from(len).unwrap_or(usize::MAX).min(tail.len());
        (*part, rest) = tail.split_at(len);
    }
    parts
}

/// Joins files into one input for [`split_parts`] with `W`-byte lengths; a file (but the
/// last) longer than a `W`-byte length can say is cut to that length.
pub fn join_parts<const W: usize>(parts: &[&[u8]]) -> Vec<u8> {
    let max = if W >= 8 {
        u64::MAX
    } else {
        (1u64 << (8 * W)) - 1
    };
    let mut out = Vec::new();
    for (i, part) in parts.iter().enumerate() {
        if i + 1 == parts.len() {
            out.extend_from_slice(part);
        } else {
            let len = (part.len() as u64).min(max);
            out.extend(len.to_le_bytes().iter().take(W));
            let kept = usize::try_from(len).unwrap_or(usize::MAX);
            out.extend_from_slice(part.get(..kept).unwrap_or(part));
        }
    }
    out
}

/// The cursor driven by the input itself: each step takes an operation byte and a
/// little-endian u32 argument from the front of `data` and applies it to a cursor over the
/// whole input (reads, slices, skips, sub-cursors, reads at offsets). Checked after each
/// step: a failed read leaves the cursor where it was, a good one moves it by exactly the
/// bytes read, and the position never passes the length.
pub fn bytes(data: &[u8]) -> u64 {
    let mut program = Bytes::new(data);
    let mut cursor = Bytes::new(data);
    let mut acc = 0u64;
    while let (Ok(&op), Ok(arg)) = (program.read::<u8>(), program.read::<U32>()) {
        let arg = arg.get() as usize;
        let before = cursor.position();
        let moved = match op % 8 {
            0 => cursor.read::<Pair>().map(|p| u64::from(p.a.get()) + 6),
            1 => cursor
                .read_slice::<Pair>(arg % 64)
                .map(|s| s.len() as u64 * 6),
            2 => cursor.read_bytes(arg).map(|b| b.len() as u64),
            3 => cursor.skip(arg).map(|()| arg as u64),
            4 => cursor.read_at::<Pair>(arg).map(|_| 0),
            5 => cursor.slice_at::<Pair>(arg & 0xFFFF, arg >> 16).map(|_| 0),
            6 => cursor.bytes_at(arg & 0xFFFF, arg >> 16).map(|_| 0),
            _ => cursor.sub(arg & 0xFFFF, arg >> 16).map(|sub| {
                acc = acc.wrapping_add(sub.len() as u64);
                0
            }),
        };
        let after = cursor.position();
        match moved {
            Ok(n) => {
                let step = if matches!(op % 8, 0..=3) {
                    (after - before) as u64
                } else {
                    0
                };
                if op % 8 == 0 {
                    assert_eq!(step, 6, "a record read moves 6 bytes");
                } else if matches!(op % 8, 1..=3) {
                    assert_eq!(step, n, "a read moves by the bytes read");
                } else {
                    assert_eq!(after, before, "a read at an offset leaves the cursor");
                }
                acc = acc.wrapping_add(n);
            }
            Err(e) => {
                assert_eq!(after, before, "a failed read leaves the cursor");
                assert_eq!(e.len, data.len() as u64);
                acc = acc.wrapping_add(e.to_string().len() as u64);
            }
        }
        assert!(cursor.position() <= data.len());
        assert_eq!(cursor.position() + cursor.len(), data.len());
    }
    acc = acc.wrapping_add(format!("{cursor:?} {program:?}").len() as u64);
    // The problem list: each byte a problem; the first 100 kept, all counted.
    let mut problems = Problems::new();
    let mut more = Problems::new();
    for (i, &b) in data.iter().enumerate() {
        if i % 2 == 0 {
            problems.push(b);
        } else {
            more.push(b);
        }
    }
    problems.append(more);
    assert_eq!(problems.total(), data.len() as u64);
    assert_eq!(problems.kept().len(), data.len().min(Problems::<u8>::KEEP));
    assert_eq!(
        problems.left_out() + problems.kept().len() as u64,
        problems.total()
    );
    assert_eq!(problems.is_empty(), data.is_empty());
    let error: FormatError<u8> = FormatError::data(data.first().copied().unwrap_or(0));
    acc = acc.wrapping_add(u64::from(error.kind().unwrap_or(0)));
    let (whole, rest) = whole_records::<Pair>(data);
    assert_eq!(whole.len() * 6 + rest, data.len());
    acc = acc.wrapping_add(records::<Pair>(data).map_or(1, |r| r.len() as u64));
    acc = acc.wrapping_add(field_text(data).len() as u64);
    acc = acc.wrapping_add(latin1(data).chars().count() as u64);
    for page in [CodePage::Cp1252, CodePage::Cp1250] {
        acc = acc.wrapping_add(decode(data, page).len() as u64);
    }
    acc.wrapping_add(overlaps(data))
}

/// The input as a table of ranges (start, length: a byte each): the entries [`Overlaps`]
/// keeps are pairwise disjoint, and each entry left out overlaps the kept entry it names.
fn overlaps(data: &[u8]) -> u64 {
    let table: Vec<(u64, u64)> = data
        .chunks_exact(2)
        .map(|c| match c {
            [start, len] => (u64::from(*start), u64::from(*start) + u64::from(len % 16)),
            _ => (0, 0),
        })
        .collect();
    let found = Overlaps::find(table.len(), |i| table.get(i).copied());
    let mut kept: Vec<(u64, u64)> = (0..table.len())
        .filter(|&i| found.overlapped_by(i).is_none())
        .filter_map(|i| table.get(i).copied())
        .filter(|&(s, e)| e > s)
        .collect();
    kept.sort_unstable();
    assert!(
        kept.windows(2).all(|w| matches!(w, [a, b] if a.1 <= b.0)),
        "kept ranges overlap"
    );
    for (entry, by) in found.iter() {
        let (&(s, e), &(ks, ke)) = (
            table.get(entry).expect("an entry"),
            table.get(by).expect("one"),
        );
        assert!(s < ke && ks < e && ks <= s, "{entry} does not overlap {by}");
        assert!(found.overlapped_by(by).is_none(), "{by} is left out too");
    }
    found.len() as u64
}

/// The decoding limits: the first 8 bytes are the declared size (little-endian u64), the
/// next 8 the caller's limit on decoded bytes; the rest is a zlib stream, decoded with a
/// 3-byte prefix. Checked: a result is exactly prefix + declared bytes; a declared size above
/// the limit or above 1,032 bytes a stored byte is refused before decoding; the stream
/// consumed is within the input.
pub fn limits(data: &[u8]) -> u64 {
    let word = |at: usize| {
        data.get(at..at + 8)
            .and_then(|b| <[u8; 8]>::try_from(b).ok())
            .map_or(0, u64::from_le_bytes)
    };
    // Declared sizes mostly small, so that the fuzzer finds streams that match them.
    let declared = word(0) % (1 << 20);
    let declared = if word(0) >> 63 == 1 {
        word(0)
    } else {
        declared
    };
    let limits = Limits::default()
        .with_max_decoded_bytes(word(8))
        .with_max_records(word(8));
    let stored = data.get(16..).unwrap_or_default();
    match inflate_exact("a fuzzed stream", stored, declared, b"pre", &limits) {
        Ok(inflated) => {
            assert_eq!(inflated.data.len() as u64, declared + 3);
            assert!(inflated.data.starts_with(b"pre"));
            assert!(inflated.consumed <= stored.len());
            assert!(declared <= limits.max_decoded_bytes);
            inflated.consumed as u64
        }
        Err(InflateError::Limit(e)) => {
            assert!(declared > limits.max_decoded_bytes);
            assert_eq!(e.limit, limits.max_decoded_bytes);
            std::hint::black_box(e.to_string());
            e.found
        }
        Err(InflateError::Impossible { declared: d, .. }) => {
            assert!(d > (stored.len() as u64).saturating_mul(MAX_INFLATE_RATIO));
            d
        }
        Err(e) => e.to_string().len() as u64,
    }
    .wrapping_add(u64::from(limits.check_records("records", declared).is_ok()))
    .wrapping_add(checked_limits(declared))
}

/// The default and the unlimited limits against `n`: 0 (the properties are asserted).
fn checked_limits(n: u64) -> u64 {
    assert_eq!(
        Limits::new().check_decoded("bytes", n).is_ok(),
        n <= Limits::DEFAULT_MAX_DECODED_BYTES
    );
    assert_eq!(
        Limits::default().check_records("records", n).is_ok(),
        n <= Limits::DEFAULT_MAX_RECORDS
    );
    assert!(Limits::unlimited().check_records("records", n).is_ok());
    assert!(Limits::unlimited().check_decoded("bytes", n).is_ok());
    0
}
