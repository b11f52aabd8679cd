//! gumpart.mul and gumpidx.mul (or a gumpartLegacyMUL.uop): each gump's size, its runs and
//! its picture, compressed gumps decoded; and the BWT stage over the same bytes.

// Ids are below 4,096 and counts below the input's length: the casts cut nothing.
#![allow(clippy::cast_possible_truncation)]

use gamedata_render::uo::gump::{GumpHue, gump_picture};
use mul_core::gump::bwt::compress as bwt_compress;
use mul_core::{ErrorKind, Gump, Gumps, Limits, UopIndex, UopPictures};

use crate::io::split_parts;

/// The gumps a walk reads at most, so that one input costs a bounded time.
const GUMPS: usize = 4096;

/// An index (behind a 4-byte length) and gumpart.mul: every gump (the first 4,096), its
/// runs checked to lie in its size, no more runs than the entry's 4-byte words, each row
/// covered exactly, and drawn within a 1 MiB cap. When the second part is a UOP container,
/// its gumps are read through the client's slots too (the first 4,096): a gump stored
/// compressed is an error in place and decoded within a 1 MiB cap (an error naming it, or
/// its runs checked as the others'). The whole input also goes through the BWT stage
/// ([`bwt`]).
pub fn gump(data: &[u8]) -> u64 {
    let [index, rest] = split_parts::<2, 4>(data);
    let mut acc = bwt(data);
    if let Ok(gumps) = Gumps::parse(index, rest) {
        acc = acc.wrapping_add(walk(&gumps));
    }
    if rest.starts_with(b"MYP\0") {
        let limits = Limits::new().with_max_records(1 << 20);
        if let Ok(slots) = UopIndex::build(rest, &limits, UopPictures::Gumps) {
            assert!(slots.records().len() >= 65_535 + 0x4000);
            acc = acc.wrapping_add(walk(&Gumps::from_uop(&slots, rest)));
        }
    }
    acc
}

/// Mythic's BWT stage over `data`: an error of the stage or of the 1 MiB cap, or at most
/// 1 MiB; and the writer's stage over `data`'s first 64 KiB decodes back to them.
pub fn bwt(data: &[u8]) -> u64 {
    let limits = Limits::new().with_max_decoded_bytes(1 << 20);
    let acc = match mul_core::gump::bwt::decompress(data.to_vec(), &limits) {
        Ok(out) => {
            assert!(out.len() <= 1 << 20);
            out.len() as u64
        }
        Err(e) => {
            assert!(
                matches!(e.kind, ErrorKind::Bwt(_) | ErrorKind::Limit(_)),
                "{e}"
            );
            e.to_string().len() as u64
        }
    };
    let input = data.get(..data.len().min(1 << 16)).unwrap_or_default();
    let Ok(stored) = bwt_compress(input) else {
        panic!("the writer refused {} bytes", input.len());
    };
    let back = mul_core::gump::bwt::decompress(stored, &Limits::default());
    assert!(
        back.as_deref().ok() == Some(input),
        "the BWT stage did not round-trip"
    );
    acc
}

fn walk(gumps: &Gumps<'_>) -> u64 {
    let mut acc = format!("{gumps:?}").len() as u64;
    let limits = Limits::new().with_max_decoded_bytes(1 << 20);
    for id in 0..gumps.len().min(GUMPS) {
        let id32 = u32::try_from(id).expect("a small id");
        if gumps.is_compressed(id32) {
            acc = acc.wrapping_add(compressed(gumps, id, &limits));
            continue;
        }
        let gump = match gumps.gump(id as u32) {
            Ok(Some(gump)) => gump,
            Ok(None) => continue,
            Err(e) => {
                let kind_ok = matches!(
                    e.kind,
                    ErrorKind::IndexEntry { .. } | ErrorKind::UopEntry { .. }
                ) || e.entry().is_some();
                assert!(kind_ok, "{e}");
                acc = acc.wrapping_add(e.to_string().len() as u64);
                continue;
            }
        };
        let Some(Some((bytes, _))) = gumps.entry(id32).ok() else {
            panic!("gump {id} read but not its entry");
        };
        // In place either way.
        let Ok(Some(same)) = gumps.decoded(id as u32, &limits) else {
            panic!("gump {id} read but not decoded in place");
        };
        assert!(!same.is_decoded() && same.bytes() == bytes);
        acc = acc.wrapping_add(runs(&gump, bytes.len(), &limits));
    }
    acc
}

/// A compressed gump `id`: an error in place, and decoded within `limits`.
fn compressed(gumps: &Gumps<'_>, id: usize, limits: &Limits) -> u64 {
    let Err(e) = gumps.gump(id as u32) else {
        panic!("compressed gump {id} read in place");
    };
    assert!(
        matches!(e.kind, ErrorKind::UopEntry { .. }) && e.entry().is_some(),
        "{e}"
    );
    let decoded = gumps.decoded(id as u32, limits);
    // One inflate shared by every entry naming the stream, made longer than this entry
    // asks, answers as the entry's own.
    if let Ok(Some(stream)) = gumps.compressed_stream(id as u32) {
        let declared = u64::from(stream.declared);
        let inflated = shared("a gump's zlib stream", stream.stored, declared, limits);
        let again = gumps.decoded_from(id as u32, inflated, limits);
        assert_eq!(format!("{again:?}"), format!("{decoded:?}"), "gump {id}");
    }
    match decoded {
        Ok(Some(decoded)) => {
            assert!(decoded.is_decoded());
            assert!(decoded.bytes().len() as u64 <= limits.max_decoded_bytes);
            match decoded.gump() {
                Ok(gump) => runs(&gump, decoded.bytes().len(), limits),
                Err(e) => {
                    assert!(matches!(e.kind, ErrorKind::Picture(_)), "{e}");
                    assert!(e.entry().is_some(), "{e}");
                    e.to_string().len() as u64
                }
            }
        }
        Ok(None) => 0,
        Err(e) => {
            // An index entry's error names its entry itself; the decoders' name the gump.
            let kind_ok = matches!(e.kind, ErrorKind::IndexEntry { .. })
                || matches!(
                    e.kind,
                    ErrorKind::UopEntry { .. } | ErrorKind::Bwt(_) | ErrorKind::Limit(_)
                ) && e.entry().is_some();
            assert!(kind_ok, "{e}");
            e.to_string().len() as u64
        }
    }
}

/// The zlib stream `stored` (`what`, for a limit's error) inflated once to 64 bytes past `declared` (within `limits` and
/// the deflate bound, else to `declared`), then checked for `declared` bytes: what an
/// export sharing the stream among its entries hands each.
pub(super) fn shared(
    what: &'static str,
    stored: &[u8],
    declared: u64,
    limits: &Limits,
) -> Result<Vec<u8>, gamedata_io::InflateError> {
    let bound = (stored.len() as u64).saturating_mul(gamedata_io::MAX_INFLATE_RATIO);
    let max = declared
        .saturating_add(64)
        .min(limits.max_decoded_bytes)
        .min(bound)
        .max(declared);
    gamedata_io::inflate_shared(what, stored, max, &[], limits)
        .and_then(|stream| stream.into_exact(declared))
}

/// A gump's runs over its `len` bytes: inside its size, no more than its words, each row
/// covered exactly, and drawn within `limits` when they are good.
fn runs(gump: &Gump<'_>, len: usize, limits: &Limits) -> u64 {
    let mut acc = 0u64;
    let (w, h) = (gump.width(), gump.height());
    assert!((1..0x8000).contains(&w) && (1..0x8000).contains(&h));
    let words = (len / 4) as u64;
    let mut runs = 0u64;
    let mut covered = 0u64;
    let mut failed = false;
    for run in gump.runs() {
        match run {
            Ok(run) => {
                assert!(
                    run.count > 0 && run.x + run.count <= w && run.y < h,
                    "{run:?}"
                );
                runs += 1;
                covered += u64::from(run.count);
                acc = acc.wrapping_add(u64::from(run.colour));
            }
            Err(e) => {
                assert!(matches!(e.kind, ErrorKind::Picture(_)), "{e}");
                assert!(e.entry().is_some(), "{e}");
                failed = true;
                break;
            }
        }
    }
    assert!(runs <= words, "{runs} runs from {words} words");
    if !failed {
        // Every row covered exactly: the runs cover the whole picture.
        assert_eq!(covered, u64::from(w) * u64::from(h));
    }
    if let Ok(picture) = gump_picture(gump, GumpHue::default(), limits) {
        assert_eq!((picture.width(), picture.height()), (w, h));
        assert!(!failed);
        acc = acc.wrapping_add(picture.pixels().len() as u64);
    }
    acc
}
