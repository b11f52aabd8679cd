//! `gamedata rez` on crafted archives (`gamedata_testkit::rez`): names that would forge
//! listing lines or reach the terminal, listings whose output would multiply the archive,
//! file entries over the same bytes, names repeated in a folder, images at the decode cap.
//! Each test counts what it bounds: lines, bytes printed, bytes written.

use std::path::Path;

use gamedata_testkit::rez::{Builder, Entry, pid};

use super::*;

fn write(dir: &Path, name: &str, bytes: &[u8]) -> String {
    let path = dir.join(name);
    std::fs::write(&path, bytes).unwrap();
    path.to_str().unwrap().to_owned()
}

#[test]
fn rez_ls_prints_one_line_an_entry_and_no_control_character() {
    let dir = tempfile::tempdir().unwrap();
    let mut b = Builder::new();
    let data = b.data(b"xy");
    let names: [&[u8]; 4] = [b"A\nB 1 2", b"\x1b[31mRED", b"C1\x9b2J", b"PLAIN"];
    let files: Vec<Entry<'_>> = names
        .iter()
        .map(|n| Entry::File {
            name: n,
            ext: b"PID",
            data,
        })
        .collect();
    let root = b.table(&files);
    let rez = write(dir.path(), "names.rez", &b.finish(root));
    let out = gamedata_ok(&["rez", "ls", &rez], dir.path());
    let text = String::from_utf8(out.stdout).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(
        lines,
        [
            "A\\nB 1 2.PID 2 168",
            "\\x1b[31mRED.PID 2 168",
            "C1\\u{9b}2J.PID 2 168",
            "PLAIN.PID 2 168"
        ]
    );
    assert!(
        !text.chars().any(|c| c.is_control() && c != '\n'),
        "{text:?}"
    );
    // JSON escapes them its own way, and a program reads the names back exactly.
    let doc = stdout_json(&gamedata(&["rez", "ls", &rez, "--json"], dir.path()));
    assert_eq!(doc["count"], 4);
    assert_eq!(doc["files"][0]["path"], "A\nB 1 2.PID");
    assert_eq!(doc["files"][2]["path"], "C1\u{9b}2J.PID");
}

/// 8,000 one-byte file names of a control character under a folder whose 200-byte name is
/// all control characters: every way of listing prints at most 64 bytes an archive byte.
#[test]
fn rez_ls_output_stays_within_64_bytes_an_archive_byte() {
    let dir = tempfile::tempdir().unwrap();
    let mut b = Builder::new();
    let data = b.data(b"x");
    // 8,000 distinct names of three bytes, the first two control characters.
    let names: Vec<[u8; 3]> = (0..8000u32)
        .map(|i| {
            [
                1 + (i % 31) as u8,
                1 + (i / 31 % 31) as u8,
                b'A' + (i / 961) as u8,
            ]
        })
        .collect();
    let files: Vec<Entry<'_>> = names
        .iter()
        .map(|n| Entry::File {
            name: n,
            ext: b"",
            data,
        })
        .collect();
    let inner = b.table(&files);
    let long = vec![1u8; 200];
    let too_long = vec![b'L'; 300];
    let root = b.table(&[
        Entry::Dir {
            name: &long,
            table: inner,
        },
        Entry::Dir {
            name: &too_long,
            table: inner,
        },
    ]);
    let bytes = b.finish(root);
    let rez = write(dir.path(), "long.rez", &bytes);
    for args in [&[][..], &["--json"], &["--jsonl"]] {
        let mut all = vec!["rez", "ls", rez.as_str()];
        all.extend_from_slice(args);
        let out = gamedata(&all, dir.path());
        // The 300-byte name passes the 260-byte cap: reported, exit 1, the rest listed.
        assert_eq!(out.status.code(), Some(1), "{args:?}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(
            err.contains("a path of 300 bytes, more than the 260 allowed"),
            "{err}"
        );
        let listed = match args.first() {
            None => out
                .stdout
                .split(|&b| b == b'\n')
                .filter(|l| !l.is_empty())
                .count(),
            Some(&"--jsonl") => out
                .stdout
                .split(|&b| b == b'\n')
                .filter(|l| !l.is_empty())
                .count(),
            Some(_) => {
                let doc: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
                doc["count"].as_u64().unwrap() as usize
            }
        };
        assert_eq!(listed, 8000, "{args:?}");
        let ratio = out.stdout.len() as f64 / bytes.len() as f64;
        assert!(
            ratio <= 64.0,
            "{args:?}: {} bytes out of {}",
            out.stdout.len(),
            bytes.len()
        );
    }
}

/// 10,000 file entries over the same 100 KB: extract writes the bytes once and names the
/// entries it leaves out with the one they overlap.
#[test]
fn rez_extract_writes_no_byte_of_the_archive_twice() {
    let dir = tempfile::tempdir().unwrap();
    let mut b = Builder::new();
    let data = b.data(&vec![9u8; 100_000]);
    let half = (data.0 + 50_000, 100);
    let names: Vec<String> = (0..10_000).map(|i| format!("F{i:05}")).collect();
    let mut files: Vec<Entry<'_>> = names
        .iter()
        .map(|n| Entry::File {
            name: n.as_bytes(),
            ext: b"PID",
            data,
        })
        .collect();
    files.push(Entry::File {
        name: b"INSIDE",
        ext: b"PID",
        data: half,
    });
    files.push(Entry::File {
        name: b"EMPTY",
        ext: b"PID",
        data: (data.0, 0),
    });
    let table = b.table(&files);
    let root = b.table(&[Entry::Dir {
        name: b"SET",
        table,
    }]);
    let bytes = b.finish(root);
    let rez = write(dir.path(), "same.rez", &bytes);
    let out = gamedata(
        &["rez", "extract", &rez, "SET", "-o", "out", "--json"],
        dir.path(),
    );
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("F00001.PID (bytes 168..100168) overlaps F00000.PID's bytes"),
        "{err}"
    );
    assert!(err.contains("10000 file entries left out"), "{err}");
    // The first 20 named, all counted.
    assert_eq!(err.matches("overlaps F00000.PID's bytes").count(), 20);
    let report: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(
        (report["files"].as_u64(), report["overlapping"].as_u64()),
        (Some(2), Some(10_000))
    );
    let mut written = 0u64;
    let mut count = 0;
    for entry in std::fs::read_dir(dir.path().join("out/SET")).unwrap() {
        written += entry.unwrap().metadata().unwrap().len();
        count += 1;
    }
    assert_eq!((count, written), (2, 100_000));
    assert!(written <= bytes.len() as u64);
}

#[test]
fn rez_extract_keeps_the_first_of_a_repeated_name() {
    let dir = tempfile::tempdir().unwrap();
    let mut b = Builder::new();
    let first = b.data(b"first");
    let second = b.data(b"second");
    let third = b.data(b"third");
    let table = b.table(&[
        Entry::File {
            name: b"A",
            ext: b"PID",
            data: first,
        },
        Entry::File {
            name: b"A",
            ext: b"PID",
            data: second,
        },
        Entry::File {
            name: b"a",
            ext: b"pid",
            data: third,
        },
    ]);
    let root = b.table(&[Entry::Dir {
        name: b"SET",
        table,
    }]);
    let rez = write(dir.path(), "twice.rez", &b.finish(root));
    let out = gamedata(
        &["rez", "extract", &rez, "SET", "-o", "out", "--json"],
        dir.path(),
    );
    assert_eq!(out.status.code(), Some(0));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("note: A.PID repeats a name of its folder: the first is written"),
        "{err}"
    );
    assert!(err.contains("note: a.pid repeats a name"), "{err}");
    let report = stdout_json(&out);
    assert_eq!(
        (report["files"].as_u64(), report["repeated"].as_u64()),
        (Some(1), Some(2))
    );
    assert_eq!(
        std::fs::read(dir.path().join("out/SET/A.PID")).unwrap(),
        b"first"
    );
    assert!(!dir.path().join("out/SET/a.pid").exists());
    // rez ls lists all three and notes the repeats.
    let ls = gamedata_ok(&["rez", "ls", &rez], dir.path());
    assert_eq!(String::from_utf8(ls.stdout).unwrap().lines().count(), 3);
    assert!(String::from_utf8_lossy(&ls.stderr).contains("SET/A.PID repeats a name of its folder"));
}

#[test]
fn rez_pid_refuses_what_the_reader_or_the_limits_refuse() {
    let dir = tempfile::tempdir().unwrap();
    // 16,384 x 8,192 pixels, all skipped by an RLE body of 65,536 bytes of 255.
    let mut big = Vec::new();
    for v in [0i32, 0x20, 16_384, 8_192, 0, 0, 0, 0] {
        big.extend_from_slice(&v.to_le_bytes());
    }
    big.extend(std::iter::repeat_n(255u8, 1 << 20));
    let big = write(dir.path(), "big.pid", &big);
    let out = gamedata(&["rez", "pid", &big, "-o", "big.png"], dir.path());
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("a PID image as RGBA needs 805306368 bytes, over the limit of 268435456"),
        "{err}"
    );
    assert!(!dir.path().join("big.png").exists());
    for (w, h, side) in [
        (0, 5, "width"),
        (5, -1, "height"),
        (0, 0, "width and height"),
    ] {
        let bad = write(dir.path(), "bad.pid", &pid(w, h, 1));
        let out = gamedata(&["rez", "pid", &bad, "-o", "bad.png"], dir.path());
        assert_eq!(out.status.code(), Some(1));
        let err = String::from_utf8_lossy(&out.stderr);
        let want = format!("the PID image is {w} x {h} pixels: its {side} is outside 1 to 65536");
        assert!(err.contains(&want), "{err}");
    }
}

/// A FIFO named as a game file is reported as what it is, not as a missing file.
#[cfg(unix)]
#[test]
fn a_fifo_where_a_game_file_is_expected_says_so() {
    let dir = tempfile::tempdir().unwrap();
    gamedata_testkit::mkfifo(&dir.path().join("MAP0.MUL"));
    let out = gamedata(&["uo", "info", ".", "--facet", "0"], dir.path());
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("MAP0.MUL is a FIFO, not a regular file"),
        "{err}"
    );
}

/// The path given to `rez ls` counts against the 260-byte cap with the paths below it: a
/// 200-byte folder holds files of up to 59 bytes more, a 300-byte one is refused at once.
#[test]
fn rez_ls_caps_the_path_given_too() {
    let dir = tempfile::tempdir().unwrap();
    let mut b = Builder::new();
    let data = b.data(b"x");
    let short = "S".repeat(50);
    let long = "L".repeat(60);
    let files = b.files([short.clone(), long.clone()], b"", data);
    let name_200 = "A".repeat(200);
    let name_300 = "B".repeat(300);
    let root = b.dirs([name_200.clone(), name_300.clone()], files);
    let rez = write(dir.path(), "deep.rez", &b.finish(root));
    let out = gamedata(&["rez", "ls", &rez, &name_200], dir.path());
    assert_eq!(out.status.code(), Some(1));
    let text = String::from_utf8(out.stdout).unwrap();
    assert_eq!(text, format!("{name_200}/{short} 1 168\n"));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("a path of 60 bytes, more than the 59 allowed"),
        "{err}"
    );
    let out = gamedata(&["rez", "ls", &rez, &name_300], dir.path());
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("is 300 bytes, more than the 260 a path may have"),
        "{err}"
    );
    assert!(out.stdout.is_empty());
}

/// 25 names repeated in a folder and 25 directories that loop back to the root: `rez ls`
/// prints the first 20 of each on stderr, then the counts.
#[test]
fn rez_ls_prints_the_first_20_problems_and_repeats_and_counts_them_all() {
    let dir = tempfile::tempdir().unwrap();
    let mut b = Builder::new();
    let data = b.data(b"x");
    let names: Vec<String> = (0..25).map(|i| format!("N{i:02}")).collect();
    let loops: Vec<String> = (0..25).map(|i| format!("D{i:02}")).collect();
    // The root's table is written last; its directories point at it.
    let root_at = b.next_offset();
    let mut entries: Vec<Entry<'_>> = Vec::new();
    for n in &names {
        for _ in 0..2 {
            entries.push(Entry::File {
                name: n.as_bytes(),
                ext: b"PID",
                data,
            });
        }
    }
    let table_len = gamedata_testkit::rez::table_len(&entries)
        + loops
            .iter()
            .map(|n| {
                Entry::Dir {
                    name: n.as_bytes(),
                    table: (0, 0),
                }
                .len()
            })
            .sum::<u32>();
    for n in &loops {
        entries.push(Entry::Dir {
            name: n.as_bytes(),
            table: (root_at, table_len),
        });
    }
    let root = b.table(&entries);
    assert_eq!(root, (root_at, table_len));
    let rez = write(dir.path(), "many.rez", &b.finish(root));
    let out = gamedata(&["rez", "ls", &rez], dir.path());
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    let repeats = err.lines().filter(|l| l.contains("repeats a name")).count();
    let loops_shown = err
        .lines()
        .filter(|l| l.contains("(the tree loops)"))
        .count();
    assert_eq!(repeats, 20, "{err}");
    assert!(
        err.contains("note: 25 names repeat in their folder in all"),
        "{err}"
    );
    assert_eq!(loops_shown, 20, "{err}");
    assert!(err.contains("25 directories could not be read"), "{err}");
    assert_eq!(String::from_utf8_lossy(&out.stdout).lines().count(), 50);
}

/// Names made only of the controls a quick scan looks for (DEL, a C0 control) and the
/// first C1 control (U+0080): each escaped; and exactly 20 repeated names: each noted, no
/// count line.
#[test]
fn rez_ls_escapes_lone_controls_and_counts_only_past_20() {
    let dir = tempfile::tempdir().unwrap();
    let mut b = Builder::new();
    let data = b.data(b"x");
    let names: Vec<Vec<u8>> = (0..20).map(|i| format!("R{i:02}").into_bytes()).collect();
    let mut entries: Vec<Entry<'_>> = Vec::new();
    // Without an extension the path is the controls alone.
    for name in [&b"\x7f\x7f"[..], b"\x01", b"\x80"] {
        entries.push(Entry::File {
            name,
            ext: b"",
            data,
        });
    }
    for n in &names {
        for _ in 0..2 {
            entries.push(Entry::File {
                name: n,
                ext: b"PID",
                data,
            });
        }
    }
    let root = b.table(&entries);
    let rez = write(dir.path(), "lone.rez", &b.finish(root));
    let out = gamedata_ok(&["rez", "ls", &rez], dir.path());
    let text = String::from_utf8(out.stdout).unwrap();
    let lines: Vec<&str> = text.lines().take(3).collect();
    assert_eq!(lines, ["\\x7f\\x7f 1 168", "\\x01 1 168", "\\u{80} 1 168"]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(
        err.lines().filter(|l| l.contains("repeats a name")).count(),
        20
    );
    assert!(!err.contains("in all"), "{err}");
}

/// Names that are no safe file name under the output folder (`.`, a drive's `:`, a
/// control character) are refused, nothing written.
#[test]
fn rez_extract_refuses_names_unsafe_on_disk() {
    let dir = tempfile::tempdir().unwrap();
    for (k, name) in [&b"."[..], b"C:X", b"A\x01B"].into_iter().enumerate() {
        let mut b = Builder::new();
        let data = b.data(b"x");
        let inner = b.table(&[Entry::File {
            name,
            ext: b"",
            data,
        }]);
        let root = b.table(&[Entry::Dir {
            name: b"D",
            table: inner,
        }]);
        let rez = write(dir.path(), &format!("unsafe{k}.rez"), &b.finish(root));
        let out = dir.path().join(format!("out{k}"));
        let refused = gamedata(
            &["rez", "extract", &rez, "D", "-o", out.to_str().unwrap()],
            dir.path(),
        );
        assert_eq!(refused.status.code(), Some(1), "{name:?}");
        let err = String::from_utf8_lossy(&refused.stderr);
        assert!(err.contains("cannot be written safely"), "{name:?}: {err}");
        assert!(!out.join("D").exists(), "{name:?}");
    }
}

/// `rez pid --palette` takes a palette file from the disk before a path inside the source
/// (a folder of that name is not a palette); a light map without a palette is drawn in
/// grey, any other image without one is refused.
#[test]
fn rez_pid_takes_a_palette_file_and_draws_light_maps_in_grey() {
    use wap_core::{PidFlags, PidPixels, write_pid};
    let dir = tempfile::tempdir().unwrap();
    let pixels = PidPixels {
        width: 2,
        height: 1,
        indices: vec![3, 9],
        opaque: vec![true, true],
    };
    let light = write_pid(&pixels, (0, 0), PidFlags::LIGHTS, None, false);
    let plain = write_pid(&pixels, (0, 0), PidFlags::empty(), None, false);
    let inside: [u8; 768] = std::array::from_fn(|i| (i % 3) as u8 * 100);
    let rez = dir.path().join("P.REZ");
    std::fs::write(
        &rez,
        wap_core::write_rez(&[
            ("L.PID", &light[..]),
            ("N.PID", &plain[..]),
            ("PAL/MAIN.PAL", &inside[..]),
        ])
        .unwrap(),
    )
    .unwrap();
    let r = rez.to_str().unwrap();
    let png = dir.path().join("o.png");
    let p = png.to_str().unwrap();
    // A file on the disk: every colour (7, 7, 7).
    let disk = dir.path().join("GREY.PAL");
    std::fs::write(&disk, [7u8; 768]).unwrap();
    gamedata_ok(
        &[
            "rez",
            "pid",
            r,
            "N.PID",
            "-o",
            p,
            "--palette",
            disk.to_str().unwrap(),
        ],
        dir.path(),
    );
    assert_eq!(png_pixels(&png), [7, 7, 7, 255, 7, 7, 7, 255]);
    // A folder of the palette's path is not read as one: the path inside the archive is.
    std::fs::create_dir_all(dir.path().join("PAL").join("MAIN.PAL")).unwrap();
    gamedata_ok(
        &[
            "rez",
            "pid",
            r,
            "N.PID",
            "-o",
            p,
            "--palette",
            "PAL/MAIN.PAL",
        ],
        dir.path(),
    );
    assert_eq!(png_pixels(&png), [0, 100, 200, 255, 0, 100, 200, 255]);
    // A light map alone: grey levels of its indices; another image alone: refused.
    gamedata_ok(&["rez", "pid", r, "L.PID", "-o", p], dir.path());
    assert_eq!(png_pixels(&png), [3, 3, 3, 255, 9, 9, 9, 255]);
    let out = gamedata(&["rez", "pid", r, "N.PID", "-o", p], dir.path());
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("has no palette of its own"));
}
