//! Animations: the synthetic set (its bodies, a repeat, an empty record and an empty frame),
//! a folder's five files found in any case, numbered and named as the client names them,
//! opened three ways, and held in place by the view.

use std::fs;

use mul_core::anim::DIRECTIONS;
use mul_core::anim::write::{SYNTHETIC_ACTIONS, SYNTHETIC_BODIES, synthetic_animations};
use mul_core::{AnimFileId, AnimGroup, AnimationFiles, Animations, FileOptions};

use crate::anim::{drawn, index};

#[test]
fn the_synthetic_set_holds_its_bodies_a_repeat_an_empty_record_and_an_empty_frame() {
    let (idx, data) = synthetic_animations(7);
    assert_eq!((idx.clone(), data.clone()), synthetic_animations(7));
    assert_ne!(synthetic_animations(8).1, data);
    assert_eq!(idx.len(), 35_175 * 12);
    let anim = Animations::parse(AnimFileId::Anim, &idx, &data).unwrap();
    let mut frames = 0;
    for body in SYNTHETIC_BODIES {
        for action in 0..SYNTHETIC_ACTIONS {
            for direction in 0..DIRECTIONS as u8 {
                let Some(g) = anim.group(body, action, direction).unwrap() else {
                    assert_eq!((body, action, direction), (1, 2, 4));
                    continue;
                };
                assert_eq!(g.palette()[0].get(), 0);
                assert_eq!(g.palette()[7].get() & 0x8000, 0x8000);
                // Entry 7's bit 15 alone; no entry past 0 is 0.
                for (i, colour) in g.palette().iter().enumerate() {
                    assert_eq!(colour.get() & 0x8000 != 0, i == 7, "{body} {action} {i}");
                    assert_eq!(colour.get() == 0, i == 0, "{body} {action} {i}");
                }
                assert!(
                    (1..=4).contains(&g.frame_count()),
                    "{body} {action} {direction}"
                );
                for f in g.frames() {
                    let f = f.unwrap();
                    assert!(f.runs().all(|r| r.is_ok()));
                    frames += 1;
                    if f.is_empty() {
                        assert_eq!((body, action, direction), (400, 1, 2));
                        continue;
                    }
                    // 3 to 26 x 4 to 31 pixels, a blob: the corners transparent, the
                    // centre column at the middle.
                    let (w, h) = (f.width() as usize, f.height() as usize);
                    assert!((3..=26).contains(&w) && (4..=31).contains(&h), "{w} x {h}");
                    assert_eq!(f.centre_x() as usize, w / 2);
                    let below = -((h / 4) as i16);
                    assert!(
                        (below - 2..=below).contains(&f.centre_y()),
                        "{}",
                        f.centre_y()
                    );
                    let d = drawn(&f);
                    for corner in [0, w - 1, (h - 1) * w, h * w - 1] {
                        assert_eq!(d[corner], None, "{body} {action} {direction}");
                    }
                    // Holes at every 5th pixel (from 2) of every 3rd row (from 1); the
                    // centre index 0 unless it is a hole, every other drawn pixel index
                    // 1 + (s + x + 3y) mod 255, s (0 to 199) read back from the first.
                    let mut shade = None;
                    for (i, &p) in d.iter().enumerate() {
                        let (x, y) = (i % w, i / w);
                        if y % 3 == 1 && x % 5 == 2 {
                            assert_eq!(p, None, "({x}, {y})");
                        } else if (x, y) == (w / 2, h / 2) {
                            assert_eq!(p, Some(0));
                        } else if let Some(p) = p {
                            let s = *shade.get_or_insert(
                                (usize::from(p) + 255 * 3 - 1 - (x + 3 * y) % 255) % 255,
                            );
                            assert!(s < 200, "shade {s}");
                            let want = 1 + (s + x + 3 * y) % 255;
                            assert_eq!(usize::from(p), want, "({x}, {y})");
                        }
                    }
                    assert!(shade.is_some());
                    assert_ne!(d[(h / 2) * w + 1], None, "{w} x {h}");
                }
            }
        }
        // Past the synthetic actions: empty records.
        assert!(anim.group(body, SYNTHETIC_ACTIONS, 0).unwrap().is_none());
    }
    assert!(frames > 100, "{frames}");
    let repeat = anim.body(2).unwrap().record(0, 0).unwrap();
    let original = anim.body(1).unwrap().record(0, 0).unwrap();
    assert_eq!(anim.entry(repeat).unwrap(), anim.entry(original).unwrap());
    let g = anim.group(400, 1, 2).unwrap().unwrap();
    assert_eq!(g.frame_count(), 3);
    assert!(g.frame(1).unwrap().unwrap().is_empty());
    assert!(!g.frame(0).unwrap().unwrap().is_empty());
    // The black centre pixel is index 0, drawn.
    let f = g.frame(0).unwrap().unwrap();
    let (w, h) = (f.width() as usize, f.height() as usize);
    assert_eq!(drawn(&f)[(h / 2) * w + w / 2], Some(0));
}

#[test]
fn a_folder_s_files_are_found_in_any_case_and_opened_three_ways() {
    let (idx, data) = synthetic_animations(3);
    let dir = tempfile::tempdir().unwrap();
    fs::write(dir.path().join("ANIM.IDX"), &idx).unwrap();
    fs::write(dir.path().join("Anim.mul"), &data).unwrap();
    // anim3's pair is there; anim2 has only its index, so it is not read.
    fs::write(dir.path().join("anim3.idx"), &idx).unwrap();
    fs::write(dir.path().join("ANIM3.MUL"), &data).unwrap();
    fs::write(dir.path().join("anim2.idx"), &idx).unwrap();
    let read = AnimationFiles::open(dir.path(), ()).unwrap();
    // SAFETY: the files are private to this test and nothing changes them while mapped.
    #[allow(unsafe_code)]
    let mapped = unsafe { AnimationFiles::map(dir.path(), ()) }.unwrap();
    for owner in [&read, &mapped] {
        assert_eq!(
            owner.files().collect::<Vec<_>>(),
            [AnimFileId::Anim, AnimFileId::Anim3]
        );
        assert_eq!(owner.input_paths().count(), 4);
        let view = owner.view().unwrap();
        let anim = view.get(AnimFileId::Anim).unwrap();
        assert!(view.get(AnimFileId::Anim2).is_none());
        assert_eq!(
            anim.entry(110).unwrap(),
            Animations::parse(AnimFileId::Anim, &idx, &data)
                .unwrap()
                .entry(110)
                .unwrap()
        );
        // anim3's body 1 is an animal there: the low group.
        let anim3 = view.get(AnimFileId::Anim3).unwrap();
        assert_eq!(anim3.body(1).map(|b| b.group), Some(AnimGroup::Low));
        // Debug names the files held with their sizes, and not anim2's lone index.
        let debug = format!("{owner:?}");
        assert!(
            debug.starts_with("AnimationFiles { paths: Some("),
            "{debug}"
        );
        for name in ["anim.idx", "anim3.idx"] {
            let field = format!("{name}: FileData {{ kind: ");
            assert!(debug.contains(&field), "{debug}");
        }
        assert_eq!(
            debug.matches(&format!("len: {} }}", idx.len())).count(),
            2,
            "{debug}"
        );
        assert_eq!(
            debug.matches(&format!("len: {} }}", data.len())).count(),
            2,
            "{debug}"
        );
        assert!(!debug.contains("anim2.idx: FileData"), "{debug}");
    }
    let wrapped = AnimationFiles::from_data(
        None,
        [
            Some([idx.clone().into(), data.clone().into()]),
            None,
            None,
            None,
            None,
        ],
        &FileOptions::default(),
    )
    .unwrap();
    assert_eq!(wrapped.view().unwrap().iter().count(), 1);
    // A missing anim.mul is a file error; a bad index a data error naming it.
    let empty = tempfile::tempdir().unwrap();
    fs::write(empty.path().join("anim.idx"), [0u8; 13]).unwrap();
    assert!(
        AnimationFiles::open(empty.path(), ())
            .unwrap_err()
            .kind()
            .is_none()
    );
    fs::write(empty.path().join("anim.mul"), [0u8; 4]).unwrap();
    let err = AnimationFiles::open(empty.path(), ()).unwrap_err();
    assert!(err.to_string().starts_with("anim.idx"), "{err}");
}

#[test]
fn the_five_files_are_numbered_and_named_as_the_client_names_them() {
    use AnimFileId::*;
    let files = [
        (Anim, "anim", "anim.idx", "anim.mul"),
        (Anim2, "anim2", "anim2.idx", "anim2.mul"),
        (Anim3, "anim3", "anim3.idx", "anim3.mul"),
        (Anim4, "anim4", "anim4.idx", "anim4.mul"),
        (Anim5, "anim5", "anim5.idx", "anim5.mul"),
    ];
    for (number, (file, name, index, data)) in files.into_iter().enumerate() {
        assert_eq!(file.number(), number);
        assert_eq!(AnimFileId::from_number(number), Some(file));
        assert_eq!(file.name(), name);
        assert_eq!(file.to_string(), name);
        assert_eq!(file.index_name(), index);
        assert_eq!(file.data_name(), data);
    }
    assert_eq!(AnimFileId::from_number(5), None);
    assert_eq!(AnimFileId::from_number(usize::MAX), None);
}

#[test]
fn the_view_holds_its_files_in_place_and_prints_their_sizes() {
    let idx = index(3, &[(1, 2, 5)]);
    let data = [7u8; 9];
    let anim = Animations::parse(AnimFileId::Anim4, &idx, &data).unwrap();
    assert_eq!(
        (anim.len(), anim.is_empty(), anim.file()),
        (3, false, AnimFileId::Anim4)
    );
    assert_eq!(anim.index().len(), 3);
    assert_eq!(
        (anim.index()[1].offset.get(), anim.index()[1].length.get()),
        (2, 5)
    );
    assert_eq!(anim.index().as_ptr().cast::<u8>(), idx.as_ptr());
    assert_eq!(anim.data().as_ptr(), data.as_ptr());
    assert_eq!(anim.data().len(), 9);
    assert_eq!(
        format!("{anim:?}"),
        "Animations { file: Anim4, records: 3, data_len: 9 }"
    );
    let none = Animations::parse(AnimFileId::Anim, &[], &[]).unwrap();
    assert_eq!((none.len(), none.is_empty()), (0, true));
}
