//! verdata.mul over art and gumps: the table as the client reads it, and patched entries
//! read from verdata.mul in its place.

use mul_core::verdata::{ART_FILE, GUMPS_FILE};
use mul_core::{Art, ErrorKind, Gumps, Verdata};

use crate::io::split_parts;

/// Numbers a walk reads at most.
const NUMBERS: usize = 4096;

/// An index (behind a 4-byte length) over a data file (behind another), then verdata.mul:
/// its table (the entries that fit, none for a short file or a negative count), and the
/// first numbers read through art and gumps patched by it: a patched number's bytes lie in
/// verdata.mul at its last patch's place (or it is empty, or an error naming verdata.mul),
/// an unpatched one reads as without the patches.
pub fn verdata(data: &[u8]) -> u64 {
    let [index, art_data, rest] = split_parts::<3, 4>(data);
    let Ok(verdata) = Verdata::parse(rest) else {
        unreachable!("every length is a verdata.mul");
    };
    let entries = verdata.entries();
    assert!(4 + 20 * entries.len() <= rest.len().max(4));
    assert!(entries.len() <= usize::try_from(verdata.declared()).unwrap_or(0));
    let mut acc = format!("{verdata:?}").len() as u64;
    let (Ok(art), Ok(gumps)) = (Art::parse(index, art_data), Gumps::parse(index, art_data)) else {
        return acc;
    };
    let patched_art = art.clone().with_verdata(&verdata);
    let patched_gumps = gumps.clone().with_verdata(&verdata);
    for number in 0..art.len().min(NUMBERS) {
        let number32 = u32::try_from(number).expect("a small number");
        // The last patch of this number in the file, if the number is patched.
        let last = |file: u32| {
            entries
                .iter()
                .rev()
                .find(|e| e.file.get() == file && e.block.get() as usize == number)
        };
        for (file, patch) in [
            (ART_FILE, patched_art.patch(number32)),
            (GUMPS_FILE, patched_gumps.patch(number32)),
        ] {
            assert_eq!(patch, last(file), "{number}");
        }
        let read = [
            (
                patched_art.entry(number32),
                art.entry(number32),
                patched_art.patch(number32),
            ),
            (
                patched_gumps.entry(number32).map(|e| e.map(|(b, _)| b)),
                gumps.entry(number32).map(|e| e.map(|(b, _)| b)),
                patched_gumps.patch(number32),
            ),
        ];
        for (patched, plain, patch) in read {
            match (patch, patched) {
                (None, patched) => {
                    assert_eq!(patched.is_ok(), plain.is_ok());
                    if let (Ok(a), Ok(b)) = (patched, plain) {
                        assert_eq!(a, b);
                    }
                }
                (Some(p), Ok(Some(bytes))) => {
                    let at = bytes.as_ptr() as usize - rest.as_ptr() as usize;
                    assert_eq!(
                        (at, bytes.len()),
                        (p.offset.get() as usize, p.length.get() as usize)
                    );
                    acc = acc.wrapping_add(bytes.len() as u64);
                }
                (Some(p), Ok(None)) => assert!(matches!(p.length.get(), 0 | u32::MAX)),
                (Some(_), Err(e)) => {
                    assert!(
                        matches!(
                            e.kind,
                            ErrorKind::IndexEntry {
                                file: "verdata.mul",
                                ..
                            }
                        ),
                        "{e}"
                    );
                }
            }
        }
    }
    acc.wrapping_add((patched_art.patched() + patched_gumps.patched()) as u64)
}
