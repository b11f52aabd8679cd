//! The shared helpers: text fields, record tables, optional lookup, exact-size inflation.

use std::io::Write;

use flate2::Compression;
use flate2::write::ZlibEncoder;
use gamedata_io::{
    CodePage, InflateError, LimitError, Limits, RecordLengthError, decode, field_text,
    find_optional, inflate_counts, inflate_exact, inflate_shared, latin1, records, whole_records,
};
use zerocopy::little_endian::{U16, U32};

fn zlib(data: &[u8]) -> Vec<u8> {
    let mut e = ZlibEncoder::new(Vec::new(), Compression::default());
    e.write_all(data).unwrap();
    e.finish().unwrap()
}

#[test]
fn text_fields_stop_at_the_first_nul_and_decode_without_failing() {
    assert_eq!(field_text(b"grass\0\0\0\0\0"), b"grass");
    assert_eq!(field_text(b"a\0b\0"), b"a");
    assert_eq!(field_text(b"twelve chars"), b"twelve chars");
    assert_eq!(field_text(b"\0abc"), b"");
    assert_eq!(field_text(b""), b"");
    // Latin-1: every byte is a character; ASCII is borrowed.
    assert!(matches!(
        latin1(b"ankh"),
        std::borrow::Cow::Borrowed("ankh")
    ));
    assert_eq!(latin1(b"\xc0 la carte \xff"), "\u{c0} la carte \u{ff}");
    assert_eq!(latin1(&[0xe9]).chars().count(), 1);
    // Code pages differ above 0x7F: 0x8C is Œ in cp1252, Ś in cp1250.
    assert_eq!(decode(b"\x8c", CodePage::Cp1252), "\u{152}");
    assert_eq!(decode(b"\x8c", CodePage::Cp1250), "\u{15a}");
    assert_eq!(decode(b"Claw", CodePage::default()), "Claw");
}

#[test]
fn record_tables_are_whole_or_an_error_with_the_length() {
    let bytes = [1, 0, 0, 0, 2, 0, 0, 0, 9];
    let err = records::<U32>(&bytes).unwrap_err();
    assert_eq!(err, RecordLengthError { len: 9, record: 4 });
    assert_eq!(
        err.to_string(),
        "9 bytes are not a whole number of 4-byte records"
    );
    let table = records::<U32>(&bytes[..8]).unwrap();
    assert_eq!(table.iter().map(|v| v.get()).collect::<Vec<_>>(), [1, 2]);
    // Cast in place, not copied.
    assert_eq!(table.as_ptr().cast::<u8>(), bytes.as_ptr());
    assert!(records::<U16>(&[]).unwrap().is_empty());
    // The whole part and the leftover, for files whose tail is reported, not fatal.
    let (whole, left) = whole_records::<U32>(&bytes);
    assert_eq!((whole.len(), left), (2, 1));
    assert_eq!(whole_records::<U32>(&bytes[..3]).0.len(), 0);
    assert_eq!(whole_records::<()>(&bytes), (&[][..], 9));
}

#[test]
fn optional_lookup_is_none_for_a_missing_file_and_an_error_for_a_missing_folder() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("HUES.MUL"), b"x").unwrap();
    let found = find_optional(dir.path(), "hues.mul").unwrap().unwrap();
    assert!(found.ends_with("HUES.MUL"));
    assert_eq!(find_optional(dir.path(), "radarcol.mul").unwrap(), None);
    assert!(find_optional(dir.path().join("nowhere"), "hues.mul").is_err());
}

#[test]
fn inflation_gives_exactly_the_declared_size_after_the_prefix() {
    let plain: Vec<u8> = (0..10_000u32).map(|i| (i * 31 % 251) as u8).collect();
    let mut stored = zlib(&plain);
    let stream_len = stored.len();
    stored.extend_from_slice(b"trailer");
    let limits = Limits::default();
    let out = inflate_exact("test", &stored, 10_000, b"HEAD", &limits).unwrap();
    assert_eq!(
        format!("{out:?}"),
        format!("Inflated {{ data: 10004 bytes [48 45 41 44 ..], consumed: {stream_len} }}")
    );
    assert_eq!(&out.data[..4], b"HEAD");
    assert_eq!(&out.data[4..], plain);
    assert_eq!(out.consumed, stream_len);

    // Declared too small, too large, past the limit, past what the bytes can hold.
    assert_eq!(
        inflate_exact("test", &stored, 9_999, b"", &limits),
        Err(InflateError::WrongSize {
            found: 10_000,
            declared: 9_999
        })
    );
    // Far too small: decoding stops one byte past the declared size, with no end in sight.
    assert_eq!(
        inflate_exact("test", &stored, 100, b"", &limits),
        Err(InflateError::WrongSize {
            found: 101,
            declared: 100
        })
    );
    assert_eq!(
        inflate_exact("test", &stored, 10_001, b"", &limits),
        Err(InflateError::WrongSize {
            found: 10_000,
            declared: 10_001
        })
    );
    let small = Limits::default().with_max_decoded_bytes(5_000);
    assert_eq!(
        inflate_exact("the main block", &stored, 10_000, b"", &small),
        Err(InflateError::Limit(LimitError {
            what: "the main block",
            unit: "bytes",
            found: 10_000,
            limit: 5_000
        }))
    );
    let huge = u64::from(u32::MAX);
    assert_eq!(
        inflate_exact("test", &stored[..10], huge, b"", &Limits::unlimited()),
        Err(InflateError::Impossible {
            declared: huge,
            stored: 10
        })
    );
    assert!(inflate_exact("test", &[], u64::MAX, b"", &Limits::unlimited()).is_err());

    // Cut short, and not zlib at all.
    assert!(matches!(
        inflate_exact("test", &stored[..stream_len / 2], 10_000, b"", &limits),
        Err(InflateError::Truncated {
            declared: 10_000,
            ..
        })
    ));
    assert!(matches!(
        inflate_exact("test", &[0xFF; 64], 100, b"", &limits),
        Err(InflateError::Invalid { .. })
    ));
    // An empty stream declared empty.
    let empty = zlib(b"");
    let out = inflate_exact("test", &empty, 0, b"P", &limits).unwrap();
    assert_eq!((out.data, out.consumed), (b"P".to_vec(), empty.len()));
}

#[test]
fn problem_lists_keep_the_first_hundred_and_count_all() {
    let mut p = gamedata_io::Problems::new();
    assert!(p.is_empty());
    for i in 0..250u32 {
        p.push(i);
    }
    assert_eq!((p.kept().len(), p.total(), p.left_out()), (100, 250, 150));
    assert_eq!(p.kept()[99], 99);
    let mut q = gamedata_io::Problems::new();
    q.push(7u32);
    let mut more = gamedata_io::Problems::new();
    for i in 0..120u32 {
        more.push(1000 + i);
    }
    q.append(more);
    assert_eq!((q.kept().len(), q.total()), (100, 121));
    assert_eq!((q.kept()[0], q.kept()[1], q.kept()[99]), (7, 1000, 1098));
}

/// A zlib stream of `blocks` empty stored blocks and an empty last one: it decodes to
/// nothing while its decoder reads every byte (5 a block).
fn empty_blocks(blocks: usize) -> Vec<u8> {
    let mut stream = vec![0x78, 0x01];
    for _ in 0..blocks {
        stream.extend([0, 0, 0, 0xFF, 0xFF]);
    }
    stream.extend([1, 0, 0, 0xFF, 0xFF, 0, 0, 0, 1]);
    stream
}

/// A stream inflated once answers every declared size up to the most asked for as
/// `inflate_exact` with that size does (good, too long, cut short, not zlib, decoding to
/// nothing), so that entries naming one stream with different sizes need one inflate.
#[test]
fn a_shared_stream_answers_each_declared_size_as_an_exact_inflate_does() {
    let plain: Vec<u8> = (0..3_000u32).map(|i| (i * 31 % 251) as u8).collect();
    let good = zlib(&plain);
    let mut garbage_tail = good[..good.len() / 2].to_vec();
    garbage_tail.extend([0xFF; 40]);
    let streams = [
        good.clone(),
        good[..good.len() / 2].to_vec(),
        garbage_tail,
        vec![0xFF; 64],
        empty_blocks(50),
        zlib(b""),
    ];
    let limits = Limits::default();
    for stored in &streams {
        let shared = inflate_shared("test", stored, 3_100, b"P", &limits).unwrap();
        for declared in (0..=3_100)
            .step_by(7)
            .chain([0, 1, 2_999, 3_000, 3_001, 3_100])
        {
            let exact = inflate_exact("test", stored, declared, b"P", &limits);
            assert_eq!(
                shared.check(declared),
                exact.as_ref().map(|_| ()).map_err(|e| *e),
                "{declared} over {stored:?}"
            );
            if let Ok(exact) = exact {
                assert_eq!(shared.clone().into_exact(declared).unwrap(), exact.data);
            }
        }
        // Past the most asked for: not known, an error.
        assert!(matches!(
            shared.check(3_101),
            Err(InflateError::Impossible { .. })
        ));
    }
}

/// The counters: one inflate of a stream of 1,000 empty blocks reads its 5,011 bytes and
/// writes none, whatever size is declared; counted on this thread and in the process.
#[test]
fn inflates_count_the_bytes_they_read_and_write() {
    let stored = empty_blocks(1_000);
    let limits = Limits::default();
    let (all_before, here_before) = inflate_counts();
    assert!(inflate_exact("test", &stored, 0, b"", &limits).is_ok());
    assert!(inflate_exact("test", &stored, 100, b"", &limits).is_err());
    let shared = inflate_shared("test", &stored, 100, b"", &limits).unwrap();
    assert_eq!(shared.consumed(), stored.len());
    let (all, here) = inflate_counts();
    assert_eq!(
        (
            here.streams - here_before.streams,
            here.read - here_before.read,
            here.written - here_before.written
        ),
        (3, 3 * 5_011, 0)
    );
    assert!(all.read - all_before.read >= 3 * 5_011);
    let plain = [7u8; 500];
    assert!(inflate_exact("test", &zlib(&plain), 100, b"", &limits).is_err());
    assert_eq!(inflate_counts().1.written - here.written, 101);
}

/// A shared stream's answers worked out by hand (the exact inflate goes the same way, so
/// comparing the two cannot see a rule that both break): what it holds, and each way a
/// declared size can be wrong.
#[test]
fn a_shared_stream_s_answers_by_hand() {
    let plain: Vec<u8> = (0..3_000u32).map(|i| (i * 31 % 251) as u8).collect();
    let good = zlib(&plain);
    let limits = Limits::default();
    let shared = inflate_shared("test", &good, 3_100, b"P", &limits).unwrap();
    assert_eq!(shared.decoded(), 3_000);
    assert_eq!(shared.max(), 3_100);
    assert_eq!(shared.bytes()[0], b'P');
    assert_eq!(&shared.bytes()[1..], &plain[..]);
    assert_eq!(shared.check(3_000), Ok(()));
    assert_eq!(
        shared.check(2_999),
        Err(InflateError::WrongSize {
            found: 3_000,
            declared: 2_999
        })
    );
    assert_eq!(
        shared.check(3_001),
        Err(InflateError::WrongSize {
            found: 3_000,
            declared: 3_001
        })
    );

    // Cut in half: what it decoded is all there is, and not a whole stream.
    let cut = inflate_shared("test", &good[..good.len() / 2], 3_100, b"", &limits).unwrap();
    let k = cut.decoded();
    assert!(k > 0 && k < 3_000, "{k}");
    assert_eq!(cut.bytes(), &plain[..usize::try_from(k).unwrap()]);
    assert_eq!(
        cut.check(k),
        Err(InflateError::Truncated {
            decoded: k,
            declared: k
        })
    );
    assert_eq!(
        cut.check(k - 1),
        Err(InflateError::WrongSize {
            found: k,
            declared: k - 1
        })
    );

    // Bad further on (a stored block of five bytes, then a block of the reserved type
    // 3): bad for a size it reaches, too long for a shorter one.
    let bad = [
        0x78, 0x01, 0x00, 0x05, 0x00, 0xfa, 0xff, b'h', b'e', b'l', b'l', b'o', 0x07, 0, 0,
    ];
    let bad = inflate_shared("test", &bad, 3_100, b"", &limits).unwrap();
    let t = bad.decoded();
    assert_eq!(t, 5);
    assert_eq!(bad.bytes(), b"hello");
    assert_eq!(bad.check(t), Err(InflateError::Invalid { decoded: t }));
    assert_eq!(
        bad.check(t - 1),
        Err(InflateError::WrongSize {
            found: t,
            declared: t - 1
        })
    );
}
