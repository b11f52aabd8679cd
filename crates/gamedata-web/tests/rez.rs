//! A REZ archive's tree, PIDs and ANIs through the library, on an archive written here
//! with wap-core's writers: the listing is the tree written, a PID's pixels are its
//! indices through the palette (worked out here from the indices written), and an ANI's
//! frames are those written, each shown by the image of its number in the animation's
//! IMAGES folder. The archive given whole, and given by size: then its header and
//! directory tables are read by their ranges once, and each file by its own range.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::indexing_slicing,
    clippy::panic,
    clippy::cast_possible_truncation
)]

use std::cell::RefCell;
use std::rc::Rc;

use gamedata_web::Library;
use wap_core::{PidFlags, PidPixels, write_pid, write_rez};

fn pixels(width: u32, height: u32, seed: u8) -> PidPixels {
    let n = (width * height) as usize;
    PidPixels {
        width,
        height,
        indices: (0..n)
            .map(|i| (i as u8).wrapping_mul(7).wrapping_add(seed))
            .collect(),
        opaque: (0..n).map(|i| i % 5 != 0).collect(),
    }
}

#[test]
fn the_tree_pids_and_anis_of_an_archive() {
    // Given whole.
    the_tree_pids_and_anis(|library, rez| library.add_file("CLAW.REZ", rez));
    // Given by size: never read whole.
    let reads: Rc<RefCell<Vec<(u64, u32)>>> = Rc::default();
    let seen = Rc::clone(&reads);
    let given: Rc<RefCell<Vec<u8>>> = Rc::default();
    let kept = Rc::clone(&given);
    let len = the_tree_pids_and_anis(move |library, rez| {
        let len = rez.len() as u64;
        kept.borrow_mut().clone_from(&rez);
        library.add_lazy_file(
            "CLAW.REZ",
            len,
            Box::new(move |offset, length| {
                seen.borrow_mut().push((offset, length));
                let at = offset as usize;
                Ok(rez[at..at + length as usize].to_vec())
            }),
        );
    });
    let reads = reads.borrow();
    let largest = reads.iter().map(|&(_, l)| l).max().unwrap();
    assert!(
        u64::from(largest) < len / 2,
        "{largest} bytes at once of {len}"
    );
    // The header, then the tables: the writer lays them together at the archive's end,
    // so one range from the root's table to the end holds them all.
    let data = given.borrow();
    let root = u64::from(u32::from_le_bytes(data[131..135].try_into().unwrap()));
    assert_eq!(reads[0], (0, 168));
    assert_eq!(reads[1], (root, (len - root) as u32));
    // Past them, files alone, each by its own range: the tables are kept, not read again.
    let files = &reads[2..];
    assert!(files.iter().all(|&(offset, _)| offset < root), "{files:?}");
}

/// The checks, on an archive that `give` adds to a library; returns its length.
fn the_tree_pids_and_anis(give: impl FnOnce(&mut Library, Vec<u8>)) -> u64 {
    let palette: Vec<u8> = (0..768u32).map(|i| (i * 3 % 256) as u8).collect();
    let own: [u8; 768] = std::array::from_fn(|i| (255 - (i % 256)) as u8);
    let frame1 = pixels(6, 4, 1);
    let frame2 = pixels(5, 3, 9);
    let pid1 = write_pid(&frame1, (0, 0), PidFlags::empty(), None, true);
    let pid2 = write_pid(&frame2, (0, 0), PidFlags::empty(), Some(&own), false);
    let ani = wap_core::write_ani(b"LEVEL_OFFICER", &[(2, 100, None), (1, 50, Some(b"SOUND"))]);
    let rez = write_rez(&[
        ("LEVEL1/PALETTES/MAIN.PAL", palette.as_slice()),
        ("LEVEL1/IMAGES/OFFICER/FRAME001.PID", pid1.as_slice()),
        ("LEVEL1/IMAGES/OFFICER/FRAME002.PID", pid2.as_slice()),
        ("LEVEL1/ANIS/OFFICER/STRIKE.ANI", ani.as_slice()),
    ])
    .unwrap();
    let len = rez.len() as u64;
    let mut library = Library::new();
    give(&mut library, rez);
    library.scan();
    assert!(
        library
            .found()
            .iter()
            .any(|f| f.starts_with("REZ archive: CLAW.REZ"))
    );

    let root = library.rez_list("").unwrap();
    assert_eq!(root.len(), 1);
    assert!(root[0].dir && root[0].name == "LEVEL1" && root[0].path == "LEVEL1");
    let names: Vec<String> = library
        .rez_list("LEVEL1/IMAGES/OFFICER")
        .unwrap()
        .into_iter()
        .map(|i| format!("{} {} {}", i.path, i.dir, i.size))
        .collect();
    assert_eq!(
        names,
        [
            format!("LEVEL1/IMAGES/OFFICER/FRAME001.PID false {}", pid1.len()),
            format!("LEVEL1/IMAGES/OFFICER/FRAME002.PID false {}", pid2.len()),
        ]
    );

    // Without a palette of its own and none given: no picture; with MAIN.PAL: each opaque
    // pixel its index's colour.
    assert!(
        library
            .rez_pid("LEVEL1/IMAGES/OFFICER/FRAME001.PID", None)
            .unwrap()
            .is_none()
    );
    let drawn = library
        .rez_pid(
            "LEVEL1/IMAGES/OFFICER/FRAME001.PID",
            Some("LEVEL1/PALETTES/MAIN.PAL"),
        )
        .unwrap()
        .unwrap();
    assert_eq!((drawn.width(), drawn.height()), (6, 4));
    for (i, px) in drawn.pixels().chunks_exact(4).enumerate() {
        let index = usize::from(frame1.indices[i]);
        if frame1.opaque[i] {
            let want = [
                palette[index * 3],
                palette[index * 3 + 1],
                palette[index * 3 + 2],
                255,
            ];
            assert_eq!(px, want, "pixel {i}");
        } else {
            assert_eq!(px[3], 0, "pixel {i} is transparent");
        }
    }
    // Its own palette when it has one.
    let own_drawn = library
        .rez_pid("LEVEL1/IMAGES/OFFICER/FRAME002.PID", None)
        .unwrap()
        .unwrap();
    let i = (0..15).find(|&i| frame2.opaque[i]).unwrap();
    let index = usize::from(frame2.indices[i]);
    assert_eq!(
        &own_drawn.pixels()[i * 4..i * 4 + 4],
        [own[index * 3], own[index * 3 + 1], own[index * 3 + 2], 255]
    );

    let info = library.rez_ani("LEVEL1/ANIS/OFFICER/STRIKE.ANI").unwrap();
    assert_eq!(info.image_set, "LEVEL_OFFICER");
    assert_eq!((info.frame_count, info.total_ms), (2, 150));
    let frames: Vec<(u16, u16, Option<&str>)> = info
        .frames
        .iter()
        .map(|f| (f.image, f.duration_ms, f.sound.as_deref()))
        .collect();
    assert_eq!(frames, [(2, 100, None), (1, 50, Some("SOUND"))]);
    assert_eq!(info.images.as_deref(), Some("LEVEL1/IMAGES/OFFICER"));
    assert_eq!(
        info.pictures,
        [
            Some("LEVEL1/IMAGES/OFFICER/FRAME002.PID".to_owned()),
            Some("LEVEL1/IMAGES/OFFICER/FRAME001.PID".to_owned())
        ]
    );

    let e = library.rez_list("LEVEL1/NOPE").unwrap_err();
    assert!(
        format!("{e:#}").contains("no \"LEVEL1/NOPE\" in CLAW.REZ"),
        "{e:#}"
    );
    let e = library
        .rez_pid("LEVEL1/ANIS/OFFICER/STRIKE.ANI", None)
        .unwrap_err();
    assert!(
        format!("{e:#}").contains("reading LEVEL1/ANIS/OFFICER/STRIKE.ANI"),
        "{e:#}"
    );
    let e = Library::new().rez_list("").unwrap_err();
    assert!(format!("{e:#}").contains("no REZ archive"), "{e:#}");
    len
}

#[test]
fn pid_and_pal_files_given_alone_are_drawn_as_rez_pid_draws_them() {
    let palette: Vec<u8> = (0..768u32).map(|i| (i * 5 % 256) as u8).collect();
    let own: [u8; 768] = std::array::from_fn(|i| (i % 256) as u8);
    let plain = pixels(6, 4, 3);
    let with_own = pixels(5, 3, 8);
    let mut library = Library::new();
    library.add_file(
        "pid/PLAIN.PID",
        write_pid(&plain, (0, 0), PidFlags::empty(), None, true),
    );
    library.add_file(
        "OWN.pid",
        write_pid(&with_own, (0, 0), PidFlags::empty(), Some(&own), false),
    );
    library.add_file("pid/MAIN.PAL", palette.clone());
    library.scan();
    assert!(
        library
            .found()
            .iter()
            .any(|f| f.starts_with("PID images: 2"))
    );
    let mut listed: Vec<String> = library
        .rez_list("")
        .unwrap()
        .into_iter()
        .map(|i| i.path)
        .collect();
    listed.sort();
    assert_eq!(listed, ["OWN.pid", "pid/MAIN.PAL", "pid/PLAIN.PID"]);
    // Without a palette of its own and none given: none; with the PAL file given: each
    // opaque pixel its index's colour.
    assert!(library.rez_pid("pid/PLAIN.PID", None).unwrap().is_none());
    let drawn = library
        .rez_pid("pid/PLAIN.PID", Some("pid/MAIN.PAL"))
        .unwrap()
        .unwrap();
    for (i, px) in drawn.pixels().chunks_exact(4).enumerate() {
        let index = usize::from(plain.indices[i]);
        if plain.opaque[i] {
            assert_eq!(
                px,
                [
                    palette[index * 3],
                    palette[index * 3 + 1],
                    palette[index * 3 + 2],
                    255
                ]
            );
        } else {
            assert_eq!(px[3], 0);
        }
    }
    let drawn = library.rez_pid("OWN.pid", None).unwrap().unwrap();
    let i = (0..15).find(|&i| with_own.opaque[i]).unwrap();
    let index = usize::from(with_own.indices[i]);
    assert_eq!(
        &drawn.pixels()[i * 4..i * 4 + 4],
        [own[index * 3], own[index * 3 + 1], own[index * 3 + 2], 255]
    );
    let e = library.rez_list("LEVEL1").unwrap_err();
    assert!(format!("{e:#}").contains("no REZ archive"), "{e:#}");
}
