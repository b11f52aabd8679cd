//! A REZ archive read by ranges ([`wap_core::RezFetch`]) against the same archive read
//! whole: the same error, or the same tree.
#![allow(
    clippy::arithmetic_side_effects,
    clippy::panic,
    clippy::indexing_slicing,
    clippy::cast_possible_truncation
)]

use wap_core::rez::{Rez, RezEntry, RezFileEntry};
use wap_core::{RezFetch, RezOptions};

/// What a file entry says but its bytes (empty in a view of the tables alone).
type FileFacts = (String, u32, u32, u32, u32, Vec<u8>, usize);

fn facts(file: &RezFileEntry<'_>) -> FileFacts {
    (
        file.file_name(),
        file.offset,
        file.size,
        file.time,
        file.id,
        file.comment.to_vec(),
        file.at,
    )
}

/// `data` read by ranges: every range asked lies inside it, at most one a table kept (and
/// the header), and all together within half its length plus 1 MiB and the header; what the fetch holds stays
/// there too. It ends with the whole view's error, gives up, or gives tables whose view
/// walks the same files (names, ranges, entry offsets) with the same errors, in the same
/// order, whose root lists the same entries, and whose files' ranges are the whole
/// view's bytes.
pub(super) fn by_ranges(data: &[u8]) -> u64 {
    let len = data.len() as u64;
    let budget = len / 2 + (1 << 20) + 168;
    let mut fetch = RezFetch::new(len, &RezOptions::default());
    let mut asked = 0u64;
    let mut ranges = 0usize;
    while let Some((offset, length)) = fetch.wanted() {
        let end = offset + u64::from(length);
        assert!(end <= len, "{offset}+{length} asked of {len} bytes");
        ranges += 1;
        // The header, then at least one table kept a range (each table met is named by an
        // entry of 18 bytes or more of a table kept before).
        assert!(
            ranges <= data.len() / 18 + 2,
            "{ranges} ranges of {len} bytes"
        );
        asked += u64::from(length);
        assert!(asked <= budget, "{asked} bytes asked of {len}");
        fetch.give(data[offset as usize..end as usize].to_vec());
    }
    let whole = Rez::parse(data);
    let tables = match (fetch.finish(), &whole) {
        (Err(a), Err(b)) => {
            assert_eq!(a.to_string(), b.to_string());
            return 1;
        }
        (Err(a), Ok(_)) => panic!("read by ranges: {a}; whole: no error"),
        (Ok(_), Err(b)) => panic!("read by ranges: no error; whole: {b}"),
        (Ok(None), Ok(_)) => return 2,
        (Ok(Some(tables)), Ok(_)) => tables,
    };
    let Ok(whole) = whole else { return 0 };
    assert!(tables.held_bytes() <= budget);
    let view = tables.view();
    assert!(!view.is_whole() && whole.is_whole());
    assert_eq!(view.len(), whole.len());
    let bound = data.len() / 17 + 2;
    let walk = |rez: &Rez<'_>| -> Vec<Result<(String, FileFacts), String>> {
        rez.walk(&rez.root())
            .take(bound)
            .map(|item| {
                item.map(|(path, file)| (path, facts(&file)))
                    .map_err(|e| e.to_string())
            })
            .collect()
    };
    let (a, b) = (walk(&view), walk(&whole));
    assert_eq!(a, b);
    for item in whole.walk(&whole.root()).take(bound).flatten() {
        let file = item.1;
        // A file of no bytes may have any offset.
        if file.size > 0 {
            let start = file.offset as usize;
            assert_eq!(file.bytes, &data[start..start + file.size as usize]);
        }
    }
    let list = |rez: &Rez<'_>| -> Vec<Result<String, String>> {
        rez.entries(&rez.root())
            .map(|e| match e {
                Ok(RezEntry::Dir(d)) => Ok(format!("{:?}", d)),
                Ok(RezEntry::File(f)) => Ok(format!("{:?}", facts(&f))),
                Err(e) => Err(e.to_string()),
            })
            .collect()
    };
    assert_eq!(list(&view), list(&whole));
    for path in a.iter().take(16).flatten().map(|(p, _)| p) {
        let found = |rez: &Rez<'_>| rez.file(path).map(|f| f.map(|f| facts(&f)));
        assert_eq!(
            found(&view).map_err(|e| e.to_string()),
            found(&whole).map_err(|e| e.to_string())
        );
    }
    a.len() as u64
}
