//! UOP animations across files: entries written and read back in each compression, the
//! synthetic files, the first file winning (errors naming the entry), AnimationSequence.uop's
//! replacements, a folder's UOP files found in any case, and the fuzz seeds.

use mul_core::anim::write::{
    AnimFramePicture, SYNTHETIC_UOP_ENTRIES, UopAnimCompression, UopFramePicture,
    synthetic_uop_animations, write_uop_animation, write_uop_animations, write_uop_sequences,
};
use mul_core::anim::{
    UOP_ANIM_FILES, UOP_SEQUENCE_FILE, UopAnimationFiles, UopSequence, UopSequences,
    uop_anim_entry_name, uop_sequence_entry_name,
};
use mul_core::{
    AnimFrame, AnimProblem, BodyType, ErrorKind, Limits, UopAnimation, UopAnimations, name_hash,
};

use crate::anim_uop::{anim_problem, entry, frame, hand_built, palette_bytes};

/// `w` x `h` pixels from runs, `None` where no run reaches.
fn picture(frame: &AnimFrame<'_>) -> Vec<Option<u8>> {
    let (w, h) = (frame.width() as usize, frame.height() as usize);
    let mut out = vec![None; w * h];
    for r in frame.runs() {
        let r = r.unwrap();
        for (k, &p) in r.pixels.iter().enumerate() {
            out[r.y as usize * w + r.x as usize + k] = Some(p);
        }
    }
    out
}

#[test]
fn written_entries_read_back() {
    let palette: [u16; 256] = std::array::from_fn(|i| i as u16 * 5);
    let pixels_a: Vec<Option<u8>> = (0..12)
        .map(|i| if i % 5 == 0 { None } else { Some(i as u8) })
        .collect();
    let pixels_b = vec![Some(9u8); 2];
    let a = AnimFramePicture {
        centre_x: 2,
        centre_y: -1,
        width: 4,
        height: 3,
        pixels: &pixels_a,
    };
    let b = AnimFramePicture {
        centre_x: 0,
        centre_y: 0,
        width: 2,
        height: 1,
        pixels: &pixels_b,
    };
    let frames = [
        UopFramePicture {
            group: 6,
            number: 1,
            palette: &palette,
            picture: a,
        },
        UopFramePicture {
            group: 6,
            number: 7,
            palette: &palette,
            picture: b,
        },
    ];
    let bytes = write_uop_animation(&frames).unwrap();
    // The header as the clients' files have it: "AMOU", version 1, the entry's length,
    // zeros, the frame count at byte 32 and the table's offset (40) at 36; each 16-byte
    // record its group, number, zeros and its frame's offset from the record.
    let word = |at: usize| u32::from_le_bytes(bytes[at..at + 4].try_into().unwrap());
    assert_eq!(&bytes[..4], b"AMOU");
    assert_eq!((word(4), word(8) as usize), (1, bytes.len()));
    assert!(bytes[12..32].iter().all(|&b| b == 0));
    assert_eq!((word(32), word(36)), (2, 40));
    assert_eq!(bytes[40..44], [6, 0, 1, 0]);
    assert_eq!(bytes[56..60], [6, 0, 7, 0]);
    assert!(bytes[44..52].iter().chain(&bytes[60..68]).all(|&b| b == 0));
    // Frame 0's palette right after the table; frame 1's after frame 0's palette and
    // frame (its header of 8 bytes; runs of a 4-byte header and their pixels: row 0 one
    // of 3, rows 1 and 2 two each, of 1 and 2, of 2 and 1; the end's 4 bytes).
    let frame_0 = 72usize;
    let frame_0_len = 8 + (4 + 3) + (4 + 1) + (4 + 2) + (4 + 2) + (4 + 1) + 4;
    assert_eq!(word(52) as usize, frame_0 - 40);
    assert_eq!(word(68) as usize, frame_0 + 512 + frame_0_len - 56);
    let anim = UopAnimation::parse(&bytes).unwrap();
    // Frames 1 and 7: the list is 1, then 2 to 6 empty, then 7: 7 long, 1.4 -> 1 a
    // direction; frame 7 is direction 6 / 1 = 6, past the stored five.
    assert_eq!((anim.record_count(), anim.list_len()), (2, 7));
    let f = anim.record_frame(0).unwrap().unwrap();
    assert_eq!(picture(&f.frame()), pixels_a);
    assert_eq!(f.palette()[3].get(), 15);
    assert_eq!((f.frame().centre_x(), f.frame().centre_y()), (2, -1));
    let g = anim.record_frame(1).unwrap().unwrap();
    assert_eq!((g.number(), g.group()), (7, 6));
    assert_eq!(picture(&g.frame()), pixels_b);
    // Numbers that do not rise cannot be written.
    let back = [frames[1], frames[0]];
    assert!(matches!(
        write_uop_animation(&back).unwrap_err().kind(),
        ErrorKind::Write(_)
    ));
}

#[test]
fn synthetic_files_read_in_each_compression() {
    let limits = Limits::default();
    let mut first = None;
    for how in [
        UopAnimCompression::None,
        UopAnimCompression::Zlib,
        UopAnimCompression::ZlibBwt,
    ] {
        let file = synthetic_uop_animations(5, how);
        assert_eq!(file, synthetic_uop_animations(5, how));
        assert_ne!(file, synthetic_uop_animations(6, how));
        let uop = UopAnimations::parse([(1, file.as_slice())], &limits).unwrap();
        let mut decoded_all = Vec::new();
        for (body, action) in SYNTHETIC_UOP_ENTRIES {
            let decoded = uop.decoded(body, action, &limits).unwrap().unwrap();
            assert_eq!(decoded.is_decoded(), how != UopAnimCompression::None);
            assert_eq!(decoded.file(), "AnimationFrame1.uop");
            let anim = decoded.animation().unwrap();
            let per = anim.frames_per_direction(BodyType::Monster);
            let expected = match (body, action) {
                (1, 0) => 2,
                (1, 2) => 3,
                _ => 1,
            };
            assert_eq!(per, expected, "body {body} action {action}");
            for d in 0..5 {
                for (place, f) in anim.direction(d, per).enumerate() {
                    let f = f.unwrap();
                    let gap = (body, action, d) == (1, 2, 1) && place > 0;
                    assert_eq!(f.is_none(), gap, "body {body} action {action} dir {d}");
                    if let Some(f) = f {
                        assert_eq!(u32::from(f.number()), u32::from(d) * per + place as u32 + 1);
                        assert_eq!(f.palette()[0].get(), 0);
                        assert_eq!(f.palette()[1].get(), 0x7FFF);
                        // The others: 15-bit colours, none 0.
                        assert!(
                            f.palette()[2..]
                                .iter()
                                .all(|c| (1..0x8000).contains(&c.get()))
                        );
                        assert!(f.frame().runs().all(|r| r.is_ok()));
                        // 2 to 17 x 3 to 18 pixels; a pixel whose column and row add up to
                        // 3 (mod 4) transparent, the centre pixel colour 0 otherwise.
                        let (w, h) = (f.frame().width() as usize, f.frame().height() as usize);
                        assert!((2..=17).contains(&w) && (3..=18).contains(&h), "{w} x {h}");
                        // The centre at (w / 2, -(h / 3)).
                        let centre_at = (w as i16 / 2, -(h as i16 / 3));
                        assert_eq!((f.frame().centre_x(), f.frame().centre_y()), centre_at);
                        let p = picture(&f.frame());
                        let centre = ((w / 2 + h / 2) % 4 != 3).then_some(0);
                        assert_eq!(p[(h / 2) * w + w / 2], centre);
                        let at_1_1 = if (w / 2, h / 2) == (1, 1) {
                            0
                        } else {
                            1 + 7 + 3
                        };
                        assert_eq!(p[w + 1], Some(at_1_1));
                        assert_eq!(p[2 * w + 1], None);
                        assert!(p[0].is_some_and(|i| i != 0));
                    }
                }
            }
            decoded_all.push(decoded.bytes().to_vec());
        }
        assert!(uop.decoded(1, 1, &limits).unwrap().is_none());
        // The decoded bytes are the same whatever the compression.
        match &first {
            None => first = Some(decoded_all),
            Some(earlier) => assert_eq!(earlier, &decoded_all),
        }
    }
}

#[test]
fn first_file_wins_and_errors_name_the_entry() {
    let limits = Limits::default();
    let good = synthetic_uop_animations(1, UopAnimCompression::Zlib);
    // File 2 holds body 1 action 0 too (a bad one) and body 7 action 3 (bad).
    let bad = entry(3, 40, &[], &[0; 47]);
    let file2 = write_uop_animations(
        &[(1, 0, bad.clone()), (7, 3, bad)],
        UopAnimCompression::Zlib,
    )
    .unwrap();
    let uop = UopAnimations::parse([(2, file2.as_slice()), (1, good.as_slice())], &limits).unwrap();
    assert_eq!(uop.files().collect::<Vec<_>>(), vec![1, 2]);
    let (n, _, entry1) = uop.find(1, 0).unwrap();
    assert_eq!(n, 1);
    assert_eq!(
        entry1.hash(),
        name_hash("build/animationlegacyframe/000001/00.bin")
    );
    assert_eq!(
        uop_anim_entry_name(1, 0),
        "build/animationlegacyframe/000001/00.bin"
    );
    assert!(
        uop.decoded(1, 0, &limits)
            .unwrap()
            .unwrap()
            .animation()
            .is_ok()
    );
    let decoded = uop.decoded(7, 3, &limits).unwrap().unwrap();
    assert_eq!(decoded.file(), UOP_ANIM_FILES[1]);
    let err = decoded.animation().unwrap_err();
    assert_eq!(err.entry(), Some("body 7 action 3"));
    assert_eq!(
        (err.file(), err.slot()),
        (Some("AnimationFrame2.uop"), Some(1))
    );
    assert!(matches!(
        err.kind(),
        ErrorKind::Anim(AnimProblem::UopFrameTable { count: 3, .. })
    ));
    // A frame's run error names the entry too.
    let mut tail = palette_bytes();
    tail.extend(frame(0, 0, 1, 1, &[(0x003F_F002, &[1, 2])], true));
    let runs_bad = entry(1, 40, &[(0, 1, 16)], &tail);
    let file3 = write_uop_animations(&[(9, 0, runs_bad)], UopAnimCompression::None).unwrap();
    let uop = UopAnimations::parse([(3, file3.as_slice())], &limits).unwrap();
    let decoded = uop.decoded(9, 0, &limits).unwrap().unwrap();
    let anim = decoded.animation().unwrap();
    let err = anim
        .record_frame(0)
        .unwrap()
        .unwrap()
        .frame()
        .runs()
        .find_map(Result::err)
        .unwrap();
    assert_eq!(err.entry(), Some("body 9 action 0"));
    assert_eq!(err.file(), Some("AnimationFrame3.uop"));
    // Decoding passes no limit.
    let tight = Limits::default().with_max_decoded_bytes(100);
    let err = UopAnimations::parse([(1, good.as_slice())], &limits)
        .unwrap()
        .decoded(1, 0, &tight)
        .unwrap_err();
    assert!(matches!(err.kind(), ErrorKind::Limit(_)), "{err}");
    assert_eq!(err.entry(), Some("body 1 action 0"));
    // A file that is not a container is named.
    let err = UopAnimations::parse([(4, &[0u8; 40][..])], &limits).unwrap_err();
    assert_eq!(err.file(), Some("AnimationFrame4.uop"));
}

/// A sequence entry: body, 48 zero bytes, the count, then each record (old action, frame
/// count, new action, 60 zero bytes).
fn sequence(body: u32, count: i32, records: &[(i32, u32, i32)]) -> Vec<u8> {
    let mut out = body.to_le_bytes().to_vec();
    out.resize(52, 0);
    out.extend(count.to_le_bytes());
    for &(old, frames, new) in records {
        out.extend(old.to_le_bytes());
        out.extend(frames.to_le_bytes());
        out.extend(new.to_le_bytes());
        out.extend([0u8; 60]);
    }
    out
}

#[test]
fn sequences_replace_actions_twice_over() {
    // 2 plays 5 and 5 plays 7: the client's double look-up sends 2 to 7. Action 3's record
    // has frames (no replacement); action 1's target is negative (none).
    let bytes = sequence(400, 4, &[(2, 0, 5), (5, 0, 7), (3, 12, 9), (1, 0, -1)]);
    assert_eq!(bytes.len(), 56 + 4 * 72);
    let seq = UopSequence::parse(&bytes).unwrap();
    assert_eq!((seq.body(), seq.records().len()), (400, 4));
    assert_eq!(seq.replacement(2), Some(5));
    assert_eq!(seq.replacement(3), None);
    assert_eq!(seq.replacement(1), None);
    // The last record of an action wins, even one that replaces nothing.
    let last = sequence(1, 2, &[(6, 0, 8), (6, 0, -3)]);
    assert_eq!(UopSequence::parse(&last).unwrap().replacement(6), None);
    let last = sequence(1, 2, &[(6, 0, -3), (6, 0, 8)]);
    assert_eq!(UopSequence::parse(&last).unwrap().replacement(6), Some(8));
    assert_eq!(
        [0, 1, 2, 3, 5, 7].map(|a| seq.resolve(a)),
        [0, 1, 7, 3, 7, 7]
    );
    // Counts 48 and 68 read no record; others must fit.
    for count in [48, 68] {
        assert!(
            UopSequence::parse(&sequence(1, count, &[]))
                .unwrap()
                .records()
                .is_empty()
        );
    }
    let short = sequence(1, 2, &[(0, 0, 1)]);
    assert_eq!(
        anim_problem(UopSequence::parse(&short)),
        AnimProblem::UopSequence {
            count: Some(2),
            found: 128
        }
    );
    assert_eq!(
        anim_problem(UopSequence::parse(&[0; 55])),
        AnimProblem::UopSequence {
            count: None,
            found: 55
        }
    );
    assert_eq!(
        anim_problem(UopSequence::parse(&sequence(1, -1, &[]))),
        AnimProblem::UopSequence {
            count: Some(-1),
            found: 56
        }
    );

    // In a container: body 400's sequence, and action 2 read as action 7's entry.
    let limits = Limits::default();
    let file = write_uop_sequences(&[(400, bytes)], UopAnimCompression::Zlib).unwrap();
    let seqs = UopSequences::parse(&file, &limits).unwrap();
    assert!(seqs.decoded(401, &limits).unwrap().is_none());
    let decoded = seqs.decoded(400, &limits).unwrap().unwrap();
    let seq = UopSequence::parse(&decoded).unwrap();
    assert_eq!(seq.resolve(2), 7);
    let err = seqs
        .decoded(400, &Limits::default().with_max_decoded_bytes(10))
        .unwrap_err();
    assert_eq!(err.entry(), Some("body 400 sequence"));
    assert_eq!(err.file(), Some(UOP_SEQUENCE_FILE));
    assert_eq!(
        name_hash(&uop_sequence_entry_name(400)),
        name_hash("build/animationsequence/00000400.bin")
    );
}

#[test]
fn a_folder_s_uop_files_are_found_in_any_case() {
    let limits = Limits::default();
    let frames1 = synthetic_uop_animations(2, UopAnimCompression::Zlib);
    // AnimationFrame3.uop holds body 9 action 1 (one frame a direction, numbers 1 to 5).
    let palette = [0u16; 256];
    let pixels = [Some(1u8)];
    let picture = AnimFramePicture {
        centre_x: 0,
        centre_y: 0,
        width: 1,
        height: 1,
        pixels: &pixels,
    };
    let frames: Vec<UopFramePicture<'_>> = (1..=5)
        .map(|number| UopFramePicture {
            group: 1,
            number,
            palette: &palette,
            picture,
        })
        .collect();
    let entry9 = write_uop_animation(&frames).unwrap();
    let frames3 =
        write_uop_animations(&[(9, 1, entry9.clone())], UopAnimCompression::None).unwrap();
    let seq = write_uop_sequences(
        &[(9, sequence(9, 1, &[(4, 0, 1)]))],
        UopAnimCompression::None,
    )
    .unwrap();
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("animationframe1.uop"), &frames1).unwrap();
    std::fs::write(dir.path().join("AnimationFrame3.uop"), &frames3).unwrap();
    std::fs::write(dir.path().join("ANIMATIONSEQUENCE.UOP"), &seq).unwrap();
    let owner = UopAnimationFiles::open(dir.path(), ()).unwrap();
    assert_eq!(owner.input_paths().count(), 3);
    let view = owner.view().unwrap();
    assert_eq!(view.animations.files().collect::<Vec<_>>(), vec![1, 3]);
    // Body 9's action 4 plays action 1's entry, found in file 3.
    let seqs = view.sequences.as_ref().unwrap();
    let decoded = seqs.decoded(9, &limits).unwrap().unwrap();
    let action = UopSequence::parse(&decoded).unwrap().resolve(4);
    assert_eq!(action, 1);
    let anim = view
        .animations
        .decoded(9, action, &limits)
        .unwrap()
        .unwrap();
    assert_eq!(anim.file(), "AnimationFrame3.uop");
    // Stored as is: the entry's bytes in place.
    assert_eq!(anim.bytes(), &entry9[..]);
    assert!(!anim.is_decoded());
    let shown = format!("{anim:?}");
    assert!(
        shown.starts_with("DecodedUopAnimation { origin: ") && shown.contains("decoded: false"),
        "{shown}"
    );
    let anim = anim.animation().unwrap();
    assert_eq!(anim.frames_per_direction(BodyType::Animal), 1);
    let frame = anim.frame(4, 0, 1).unwrap().unwrap();
    assert_eq!(frame.number(), 5);
    // Debug shows what a reader looks for, never the bytes.
    let shown = format!("{view:?} {owner:?} {anim:?} {frame:?}");
    for part in [
        "UopAnimations { files: [1, 3] }",
        "UopAnimationFiles",
        "AnimationFrame3.uop",
        "UopAnimation { len: ",
        "records: 5, list_len: 5",
        "UopFrame { record: 4, number: 5",
    ] {
        assert!(shown.contains(part), "{part}: {shown}");
    }
    assert!(view.animations.decoded(1, 0, &limits).unwrap().is_some());
    // Each entry's place in its file's table, as the container itself gives it.
    let table = mul_core::Uop::parse(&frames1, &limits).unwrap();
    for (body, action) in SYNTHETIC_UOP_ENTRIES {
        let place = table
            .find_name(&uop_anim_entry_name(body, action))
            .unwrap()
            .index();
        let decoded = view.animations.decoded(body, action, &limits).unwrap();
        assert_eq!(decoded.unwrap().entry_index(), place, "{body} {action}");
    }
    assert_eq!(
        table
            .find_name(&uop_anim_entry_name(400, 4))
            .unwrap()
            .index(),
        2
    );
    // AnimationFrame1.uop is required; a file that is not a container is named.
    let empty = tempfile::tempdir().unwrap();
    assert!(
        UopAnimationFiles::open(empty.path(), ())
            .unwrap_err()
            .kind()
            .is_none()
    );
    std::fs::write(empty.path().join("AnimationFrame1.uop"), &frames1).unwrap();
    std::fs::write(empty.path().join("AnimationFrame2.uop"), [0u8; 8]).unwrap();
    let err = UopAnimationFiles::open(empty.path(), ()).unwrap_err();
    assert!(err.to_string().starts_with("AnimationFrame2.uop"), "{err}");
}

#[test]
fn the_fuzz_seeds_reach_frames_and_replacements() {
    let seeds =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fuzz/seeds/uo_anim_uop");
    // The seed is the hand-built entry above as the writer lays it out (the writer's
    // header fields and zeros where the hand-built one has 0xAA), as write_mul_fuzz_seeds
    // writes it.
    let entry_seed = std::fs::read(seeds.join("three_frames_a_gap")).unwrap();
    let mut expected = hand_built();
    expected[4..8].copy_from_slice(&1u32.to_le_bytes());
    let total = expected.len() as u32;
    expected[8..12].copy_from_slice(&total.to_le_bytes());
    for record in 0..3 {
        expected[40 + 16 * record + 4..40 + 16 * record + 12].fill(0);
    }
    assert_eq!(entry_seed, expected);
    let palette: [u16; 256] = std::array::from_fn(|i| 3 * i as u16);
    let pixels = [Some(0u8), Some(5), None, None, None, None];
    let picture = |centre_x, centre_y, width, height, pixels| AnimFramePicture {
        centre_x,
        centre_y,
        width,
        height,
        pixels,
    };
    let frames = [
        (1, picture(1, -3, 3, 2, &pixels[..])),
        (2, picture(0, 0, 0, 0, &[][..])),
        (4, picture(0, -1, 1, 1, &[Some(7u8)][..])),
    ]
    .map(|(number, picture)| UopFramePicture {
        group: 2,
        number,
        palette: &palette,
        picture,
    });
    assert_eq!(write_uop_animation(&frames).unwrap(), entry_seed);
    let seq_seed = std::fs::read(seeds.join("sequence_two_replacements")).unwrap();
    assert_eq!(seq_seed, sequence(400, 2, &[(2, 0, 5), (5, 0, 7)]));
    assert_eq!(UopSequence::parse(&seq_seed).unwrap().resolve(2), 7);
    assert_ne!(gamedata_exercise::uo::anim_uop(&entry_seed), 0);
}
