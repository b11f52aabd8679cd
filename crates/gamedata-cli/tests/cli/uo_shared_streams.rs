//! `uo export gumps|anims` over UOP entries that share one stored zlib stream (issue 56,
//! "decoded once, charged always"): the stream is inflated once for every name over it,
//! whatever each declares, and every inflate is taken from the decoding budget by the bytes
//! it reads and writes. The measure is the report's count of inflates and of the bytes
//! their decoders read (`inflated`), never a clock.

use mul_core::anim::write::{
    AnimFramePicture, UopAnimCompression, UopFramePicture, write_uop_animation,
    write_uop_animations,
};
use mul_core::gump::write::{GumpCompression, compressed_gump_entry};
use mul_core::uop::name_hash;
use serde_json::json;

use super::*;

/// One UOP entry: its name's hash, stored length, declared length and compression, its
/// stored bytes all starting at the one shared data block.
struct Entry {
    hash: u64,
    len: u32,
    declared: u32,
    compression: u16,
}

/// A UOP container of one table block holding `entries`, each over the bytes of `data`
/// from its start (as a crafted file may name one stream under many names).
fn uop(entries: &[Entry], data: &[u8]) -> Vec<u8> {
    let n = entries.len() as u32;
    let data_at = 28 + 12 + 34 * u64::from(n);
    let mut file = Vec::new();
    for word in [0x0050_594Du32, 5, 0] {
        file.extend(word.to_le_bytes());
    }
    file.extend(28u64.to_le_bytes());
    file.extend(n.to_le_bytes());
    file.extend(n.to_le_bytes());
    file.extend(n.to_le_bytes());
    file.extend(0u64.to_le_bytes());
    for e in entries {
        file.extend(data_at.to_le_bytes());
        file.extend(0u32.to_le_bytes());
        file.extend(e.len.to_le_bytes());
        file.extend(e.declared.to_le_bytes());
        file.extend(e.hash.to_le_bytes());
        file.extend(0u32.to_le_bytes());
        file.extend(e.compression.to_le_bytes());
    }
    file.extend_from_slice(data);
    file
}

/// A zlib stream of `len` bytes (at least 16) that decodes to nothing while its decoder
/// reads all of it: empty stored blocks, 5 bytes each, then an empty last one.
fn empty_blocks(len: usize) -> Vec<u8> {
    let mut stream = vec![0x78, 0x01];
    for _ in 0..(len - 2 - 9) / 5 {
        stream.extend([0, 0, 0, 0xFF, 0xFF]);
    }
    stream.extend([1, 0, 0, 0xFF, 0xFF, 0, 0, 0, 1]);
    stream
}

fn anim_name(i: usize) -> u64 {
    name_hash(&format!(
        "build/animationlegacyframe/{:06}/{:02}.bin",
        i / 80,
        i % 80
    ))
}

fn gump_name(i: usize) -> u64 {
    name_hash(&format!("build/gumpartlegacymul/{i:08}.tga"))
}

/// Runs `uo export WHAT` over the folder `sub` (status 1 expected: entries fail).
fn export(dir: &Path, what: &str, sub: &str) -> Value {
    let out = gamedata(
        &[
            "uo",
            "export",
            what,
            sub,
            "-o",
            &format!("out-{sub}"),
            "--json",
        ],
        dir,
    );
    assert_eq!(
        out.status.code(),
        Some(1),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).unwrap()
}

/// The decoding budget of `uo export` for `input` bytes: 64 bytes a byte plus 64 MiB.
fn budget(input: usize) -> u64 {
    64 * input as u64 + (64 << 20)
}

/// Attack: 1,500 names (AnimationFrame1.uop, compression 3) over one stream of 150 KB of
/// empty blocks, each declaring another length (0 to 6; the stream decodes to 0 bytes), and
/// 10 times that (15,000 names over 1.5 MB). Each name inflated the stream again, charged
/// by the length it declared (0: nothing), so the work was names x stream length (1,500
/// names over 1.5 MB took 21 s). Now the stream is inflated once: one inflate, its bytes
/// read once, at both sizes; each name's five directions fail for themselves (a wrong
/// length, or the BWT stage's input of 0 bytes).
#[test]
fn uo_export_anims_inflates_a_stream_many_names_share_once() {
    one_stream_under_many_names("anims", "AnimationFrame1.uop", anim_name, 5);
}

/// The same attack on gumpartLegacyMUL.uop: 1,500 compressed gumps (and 15,000) over one
/// stream of 150 KB (1.5 MB), declaring 0 to 6 bytes: one inflate at each size, every gump
/// failed for itself.
#[test]
fn uo_export_gumps_inflates_a_stream_many_gumps_share_once() {
    one_stream_under_many_names("gumps", "gumpartLegacyMUL.uop", gump_name, 1);
}

/// Attack: 300 names over one region of empty blocks, each with another stored length
/// (the region's length less 5 bytes a name), so that each is a stream of its own, read
/// almost whole: 300 times the region. Each inflate is now taken from the decoding budget
/// by the bytes it may read (its stored length) and write, whatever it declares (0 here),
/// so the bytes read stay within the budget (64 bytes an input byte plus 64 MiB) and the
/// names past it are over the budget, not inflated: at 1x (a region of 1 MiB, 300 MiB to
/// read in all) and 2x (2 MiB).
#[test]
fn uo_export_anims_charges_each_inflate_by_the_bytes_it_reads() {
    let dir = tempfile::tempdir().unwrap();
    for (sub, len) in [("x1", 1usize << 20), ("x2", 2 << 20)] {
        let stream = empty_blocks(len);
        let names = 300usize;
        let entries: Vec<Entry> = (0..names)
            .map(|i| Entry {
                hash: anim_name(i),
                len: (stream.len() - 5 * i) as u32,
                declared: 0,
                compression: 3,
            })
            .collect();
        let file = uop(&entries, &stream);
        std::fs::create_dir(dir.path().join(sub)).unwrap();
        std::fs::write(dir.path().join(sub).join("AnimationFrame1.uop"), &file).unwrap();
        let report = export(dir.path(), "anims", sub);
        let read = report["inflated"]["read"].as_u64().unwrap();
        let streams = report["inflated"]["streams"].as_u64().unwrap();
        let over = report["over_budget"].as_u64().unwrap();
        let failed = report["failed"].as_u64().unwrap();
        assert!(read <= budget(file.len()), "{report}");
        assert!(read >= budget(file.len()) - 2 * len as u64, "{report}");
        assert!(streams < names as u64 && over > 0, "{report}");
        assert_eq!(
            (failed, over),
            (5 * streams, 5 * (names as u64 - streams)),
            "{report}"
        );
    }
}

/// One frame of 1 x 1 pixels (palette colour 1, white) in each of the five directions.
fn small_animation() -> Vec<u8> {
    let mut palette = Box::new([0u16; 256]);
    palette[1] = 0x7FFF;
    let pixels = [Some(1u8)];
    let frames: Vec<UopFramePicture<'_>> = (1..=5u16)
        .map(|number| UopFramePicture {
            group: 0,
            number,
            palette: &palette,
            picture: AnimFramePicture {
                centre_x: 0,
                centre_y: 0,
                width: 1,
                height: 1,
                pixels: &pixels,
            },
        })
        .collect();
    write_uop_animation(&frames).unwrap()
}

/// A good entry and two names over its stream declaring other lengths: the stream is
/// inflated once; the good entry's directions are written, and each other name fails for
/// itself alone (anims: body 0 good, bodies 1 and 2 wrong; gumps: gump 0 good, 1 and 2
/// wrong, with a repeat of the good one, gump 3, written from the same decode).
#[test]
fn uo_export_a_wrong_length_over_a_shared_stream_fails_alone() {
    let dir = tempfile::tempdir().unwrap();
    let file =
        write_uop_animations(&[(0, 0, small_animation())], UopAnimCompression::ZlibBwt).unwrap();
    let (stored, declared) = {
        let parsed = mul_core::Uop::parse(&file, &mul_core::Limits::default()).unwrap();
        let entry = parsed.entries()[0];
        (
            parsed.stored(&entry).unwrap().to_vec(),
            entry.raw().decompressed_len.get(),
        )
    };
    let entries: Vec<Entry> = [declared, declared + 1, 3]
        .iter()
        .enumerate()
        .map(|(i, &d)| Entry {
            hash: anim_name(i * 80),
            len: stored.len() as u32,
            declared: d,
            compression: 3,
        })
        .collect();
    std::fs::create_dir(dir.path().join("a")).unwrap();
    std::fs::write(
        dir.path().join("a/AnimationFrame1.uop"),
        uop(&entries, &stored),
    )
    .unwrap();
    let report = export(dir.path(), "anims", "a");
    assert_eq!(
        (
            report["written"].clone(),
            report["failed"].clone(),
            report["inflated"]["streams"].clone()
        ),
        (json!(5), json!(10), json!(1)),
        "{report}"
    );
    assert!(
        dir.path()
            .join("out-a/anims/uop/0x0000/00/4/000.png")
            .exists()
    );

    // A 1 x 1 gump, one run of colour 0x7FFF.
    let gump = [1u8, 0, 0, 0, 0xFF, 0x7F, 1, 0];
    let (stored, declared) = compressed_gump_entry(1, 1, &gump, GumpCompression::ZlibBwt).unwrap();
    let entries: Vec<Entry> = [declared, declared + 1, 3, declared]
        .iter()
        .enumerate()
        .map(|(i, &d)| Entry {
            hash: gump_name(i),
            len: stored.len() as u32,
            declared: d,
            compression: 3,
        })
        .collect();
    std::fs::create_dir(dir.path().join("g")).unwrap();
    std::fs::write(
        dir.path().join("g/gumpartLegacyMUL.uop"),
        uop(&entries, &stored),
    )
    .unwrap();
    let report = export(dir.path(), "gumps", "g");
    assert_eq!(
        (
            report["written"].clone(),
            report["decoded"].clone(),
            report["failed"].clone(),
            report["inflated"]["streams"].clone()
        ),
        (json!(2), json!(1), json!(2), json!(1)),
        "{report}"
    );
    assert_eq!(
        png_pixels(&dir.path().join("out-g/gumps/0x0000.png")),
        png_pixels(&dir.path().join("out-g/gumps/0x0003.png"))
    );
}

/// 1,500 compressed entries of `file` named by `name` (and 15,000) over one stream of 150
/// KB (1.5 MB) of empty blocks, declaring 0 to 6 bytes, exported as `kind`: one inflate
/// at each size, its bytes read once, every entry failed for itself (`failed` pictures a
/// name).
fn one_stream_under_many_names(kind: &str, file: &str, name: fn(usize) -> u64, failed: usize) {
    let dir = tempfile::tempdir().unwrap();
    for (sub, names, len) in [("x1", 1_500usize, 150_000usize), ("x10", 15_000, 1_500_000)] {
        let stream = empty_blocks(len);
        let entries: Vec<Entry> = (0..names)
            .map(|i| Entry {
                hash: name(i),
                len: stream.len() as u32,
                declared: (i % 7) as u32,
                compression: 3,
            })
            .collect();
        std::fs::create_dir(dir.path().join(sub)).unwrap();
        std::fs::write(dir.path().join(sub).join(file), uop(&entries, &stream)).unwrap();
        let report = export(dir.path(), kind, sub);
        assert_eq!(
            (
                report["failed"].clone(),
                report["over_budget"].clone(),
                report["inflated"].clone()
            ),
            (
                json!(names * failed),
                json!(0),
                json!({"streams": 1, "read": stream.len(), "written": 0})
            ),
            "{report}"
        );
    }
}
