//! Adversarial cases against `uo export` and `uo convert --art|--gumps`, found by an attack
//! (`tools/attack/measure.sh` measures the command on each at 1x and 10x). Each doc names
//! what the code did then; the assertions hold what it must do.

use serde_json::{Value, json};

use super::*;

/// 12-byte index records.
fn records(entries: &[(u32, u32, u32)]) -> Vec<u8> {
    entries
        .iter()
        .flat_map(|&(o, l, e)| [o, l, e])
        .flat_map(u32::to_le_bytes)
        .collect()
}

/// `n` 15-bit colours of noise, none 0.
fn noise(n: usize, mut state: u64) -> Vec<u16> {
    (0..n)
        .map(|_| {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            (state as u16 & 0x7FFF).max(1)
        })
        .collect()
}

/// Bytes of every file under `dir`.
fn tree_bytes(dir: &Path) -> u64 {
    std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap())
        .map(|e| {
            let kind = e.file_type().unwrap();
            if kind.is_dir() {
                tree_bytes(&e.path())
            } else {
                e.metadata().unwrap().len()
            }
        })
        .sum()
}

/// `uo export texmaps`: one 128 x 128 texture map of noise (32 KiB) under 4,000 ids (48 KB
/// of texidx.mul). The picture is decoded once; its PNG (about 45 KB) was once written under
/// every name, 180 MB out of 81 KB in. The bytes written are now held to the budget (64
/// bytes an input byte plus 64 MiB): the names past it are counted as over the budget, and
/// the command says so with status 1.
#[test]
fn uo_export_output_stays_within_a_constant_times_the_input() {
    let dir = tempfile::tempdir().unwrap();
    let folder = dir.path().join("m");
    std::fs::create_dir(&folder).unwrap();
    let pixels: Vec<u8> = noise(128 * 128, 7)
        .iter()
        .flat_map(|p| p.to_le_bytes())
        .collect();
    let index = records(&vec![(0, 0x8000, 0); 4000]);
    std::fs::write(folder.join("texidx.mul"), &index).unwrap();
    std::fs::write(folder.join("texmaps.mul"), &pixels).unwrap();
    let input = (index.len() + pixels.len()) as u64;
    let out = gamedata(
        &["uo", "export", "texmaps", "m", "-o", "out", "--json"],
        dir.path(),
    );
    assert_eq!(out.status.code(), Some(1));
    let report: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(report["decoded"], 1);
    let written = tree_bytes(&dir.path().join("out"));
    let allowed = 64 * input + (64 << 20);
    assert!(
        written <= allowed,
        "{written} bytes written from {input} bytes of input (allowed {allowed})"
    );
    assert_eq!(report["bytes"], written);
    let files = report["written"].as_u64().unwrap();
    assert!(files > 1000, "{report}");
    assert_eq!(files + report["over_budget"].as_u64().unwrap(), 4000);
}

/// Item 0 of art.mul under ids 0, 1 and 2 (exact repeats), art.mul a link to where item 0's
/// PNG goes: that name is refused (an input), rightly. But `export::run` writes a job's
/// names one after another with `?`, so the refusal of the first name leaves the other two
/// unwritten, and the report counts one failure for three entries not exported.
#[cfg(unix)]
#[test]
fn uo_export_a_refused_name_does_not_hide_the_other_names_of_its_picture() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(dir.path().join("in")).unwrap();
    std::fs::create_dir_all(dir.path().join("out/items")).unwrap();
    // A 2 x 1 item.
    let item: Vec<u8> = [0u16, 0, 2, 1, 0, 0, 2, 0x7FFF, 0x001F, 0, 0]
        .iter()
        .flat_map(|v| v.to_le_bytes())
        .collect();
    let mut entries = vec![(u32::MAX, u32::MAX, 0); 0x4000];
    entries.extend([(0, item.len() as u32, 0); 3]);
    std::fs::write(dir.path().join("out/items/0x0000.png"), &item).unwrap();
    std::fs::write(dir.path().join("in/artidx.mul"), records(&entries)).unwrap();
    std::os::unix::fs::symlink("../out/items/0x0000.png", dir.path().join("in/art.mul")).unwrap();
    let out = gamedata(
        &["uo", "export", "art", "in", "-o", "out", "--json"],
        dir.path(),
    );
    assert_eq!(out.status.code(), Some(1));
    let report: Value = serde_json::from_slice(&out.stdout).unwrap();
    // The input is untouched.
    assert_eq!(
        std::fs::read(dir.path().join("out/items/0x0000.png")).unwrap(),
        item
    );
    let exported: Vec<bool> = ["0x0001", "0x0002"]
        .iter()
        .map(|id| dir.path().join(format!("out/items/{id}.png")).exists())
        .collect();
    assert_eq!(
        (
            exported,
            report["written"].clone(),
            report["failed"].clone()
        ),
        (vec![true, true], json!(2), json!(1)),
        "{report}"
    );
}

/// An item whose run passes its width, under 1,000 ids (exact repeats): the job fails once
/// and `export::run` counts one failure (`Tally::fail`), where `over_budget` and `empty`
/// count every name of a job: 999 entries not exported are in no count of the report.
#[test]
fn uo_export_counts_every_entry_of_a_picture_that_fails() {
    let dir = tempfile::tempdir().unwrap();
    let folder = dir.path().join("m");
    std::fs::create_dir(&folder).unwrap();
    // 1 x 1, one run of 2 pixels: past the width.
    let item: Vec<u8> = [0u16, 0, 1, 1, 0, 0, 2, 0x7FFF, 0x7FFF, 0, 0]
        .iter()
        .flat_map(|v| v.to_le_bytes())
        .collect();
    let mut entries = vec![(u32::MAX, u32::MAX, 0); 0x4000];
    entries.extend(vec![(0, item.len() as u32, 0); 1000]);
    std::fs::write(folder.join("artidx.mul"), records(&entries)).unwrap();
    std::fs::write(folder.join("art.mul"), &item).unwrap();
    let out = gamedata(
        &["uo", "export", "art", "m", "-o", "out", "--json"],
        dir.path(),
    );
    assert_eq!(out.status.code(), Some(1));
    let report: Value = serde_json::from_slice(&out.stdout).unwrap();
    let counted: u64 = ["written", "empty", "failed", "over_budget"]
        .iter()
        .map(|k| report[k].as_u64().unwrap())
        .sum();
    assert_eq!(counted, 1000, "{report}");
}

/// `uo convert --art --to uop` of 100 good items and one entry overlapping the last (an
/// error for that entry alone when read): `pictures_to_uop` stops at the first entry that
/// cannot be read (`entry(number)?`), so nothing is written and the 100 good items are
/// hidden by the bad one. The same for `--to mul` (`pictures_to_mul`), for gumps, and for a
/// UOP with one slot whose name two entries share or whose bytes lie outside the file.
#[test]
fn uo_convert_writes_the_good_entries_and_reports_the_bad() {
    use mul_core::art::ITEM_BASE;
    use mul_core::art::write::{ArtPicture, write_art};

    let dir = tempfile::tempdir().unwrap();
    let folder = dir.path().join("m");
    std::fs::create_dir(&folder).unwrap();
    let pixels = noise(4, 3);
    let mut pictures = vec![ArtPicture::Empty; ITEM_BASE + 101];
    for picture in pictures.iter_mut().skip(ITEM_BASE).take(100) {
        *picture = ArtPicture::Item {
            width: 2,
            height: 2,
            pixels: &pixels,
        };
    }
    let (mut index, data) = write_art(&pictures).unwrap();
    // Item 100: the last item's bytes but one.
    let last = (ITEM_BASE + 99) * 12;
    let offset = u32::from_le_bytes(index[last..last + 4].try_into().unwrap());
    let length = u32::from_le_bytes(index[last + 4..last + 8].try_into().unwrap());
    let bad = records(&[(offset + 1, length - 1, 0)]);
    index[(ITEM_BASE + 100) * 12..].copy_from_slice(&bad);
    std::fs::write(folder.join("artidx.mul"), &index).unwrap();
    std::fs::write(folder.join("art.mul"), &data).unwrap();
    // The reader: the good ones read, the bad one alone an error.
    gamedata_ok(
        &["uo", "art", "m", "--item", "99", "-o", "99.png"],
        dir.path(),
    );
    assert_eq!(
        gamedata(
            &["uo", "art", "m", "--item", "100", "-o", "100.png"],
            dir.path()
        )
        .status
        .code(),
        Some(1)
    );
    let out = gamedata(
        &[
            "uo", "convert", "--art", "--to", "uop", "m", "out", "--json",
        ],
        dir.path(),
    );
    assert!(
        dir.path().join("out/artLegacyMUL.uop").exists(),
        "nothing written: {}",
        String::from_utf8_lossy(&out.stderr)
    );
}

/// Land tile 0 and item 0 over the same 2,048 bytes, which read as a 44 x 44 land tile and
/// as a 1 x 1 item. `export::jobs` keys a job by the entry's bytes alone, so the item's
/// name joins the land tile's job: items/0x0000.png is the land tile's 44 x 44 picture,
/// where `uo art --item 0` draws 1 x 1.
#[test]
fn uo_export_an_item_over_a_land_tiles_bytes_is_drawn_as_an_item() {
    use mul_core::art::ITEM_BASE;

    let dir = tempfile::tempdir().unwrap();
    let folder = dir.path().join("m");
    std::fs::create_dir(&folder).unwrap();
    // As an item: flag, 1 x 1, row offset 0, one run of one red pixel, the row's end.
    let mut bytes: Vec<u8> = [0u16, 0, 1, 1, 0, 0, 1, 0x7C00, 0, 0]
        .iter()
        .flat_map(|v| v.to_le_bytes())
        .collect();
    bytes.resize(2048, 0);
    let mut entries = vec![(u32::MAX, u32::MAX, 0); ITEM_BASE + 1];
    entries[0] = (0, 2048, 0);
    entries[ITEM_BASE] = (0, 2048, 0);
    std::fs::write(folder.join("artidx.mul"), records(&entries)).unwrap();
    std::fs::write(folder.join("art.mul"), &bytes).unwrap();
    gamedata_ok(
        &["uo", "art", "m", "--item", "0", "-o", "item.png"],
        dir.path(),
    );
    assert_eq!(png_size(&dir.path().join("item.png")), (1, 1));
    gamedata_ok(&["uo", "export", "art", "m", "-o", "out"], dir.path());
    assert_eq!(png_size(&dir.path().join("out/land/0x0000.png")), (44, 44));
    assert_eq!(
        png_size(&dir.path().join("out/items/0x0000.png")),
        (1, 1),
        "the item exported as the land tile"
    );
}

/// Gumps 0 and 1 over the same 16 bytes with different sizes in their index records: 2 x 2
/// for gump 0, 4 x 1 for gump 1 (both valid: `uo gump` draws each). `export::jobs` keys a
/// job by the bytes alone, so gump 1's PNG is gump 0's 2 x 2 picture.
#[test]
fn uo_export_gumps_over_one_entrys_bytes_keep_their_own_sizes() {
    let dir = tempfile::tempdir().unwrap();
    let folder = dir.path().join("m");
    std::fs::create_dir(&folder).unwrap();
    // Words: row offsets 2 and 3 (2 rows) or 2 (1 row), then two runs of 2 pixels.
    let run = 0x7C00u32 | (2 << 16);
    let data: Vec<u8> = [2u32, 3, run, run]
        .iter()
        .flat_map(|v| v.to_le_bytes())
        .collect();
    let index = records(&[(0, 16, (2 << 16) | 2), (0, 16, (4 << 16) | 1)]);
    std::fs::write(folder.join("gumpidx.mul"), &index).unwrap();
    std::fs::write(folder.join("gumpart.mul"), &data).unwrap();
    gamedata_ok(&["uo", "gump", "m", "1", "-o", "one.png"], dir.path());
    assert_eq!(png_size(&dir.path().join("one.png")), (4, 1));
    gamedata_ok(&["uo", "export", "gumps", "m", "-o", "out"], dir.path());
    assert_eq!(png_size(&dir.path().join("out/gumps/0x0000.png")), (2, 2));
    assert_eq!(
        png_size(&dir.path().join("out/gumps/0x0001.png")),
        (4, 1),
        "gump 1 exported at gump 0's size"
    );
}

/// verdata.mul patching item 200 (which repeats item 10's bytes exactly in `uo synth`'s
/// art) with a 1 x 1 red item: `uo art` and `uo export art` draw the patch for item 200
/// and item 10 as art.mul has it (the export keys a patched entry by its bytes in
/// verdata.mul, not by the art.mul range it shared); `--no-verdata` draws the original.
#[test]
fn verdata_patches_are_drawn_and_keep_repeats_apart() {
    let dir = tempfile::tempdir().unwrap();
    gamedata_ok(&["uo", "synth", "g", "--facet", "4", "--art"], dir.path());
    let item: Vec<u8> = [0u16, 0, 1, 1, 0, 0, 1, 0x7C00, 0, 0]
        .iter()
        .flat_map(|v| v.to_le_bytes())
        .collect();
    let mut verdata = 1i32.to_le_bytes().to_vec();
    for word in [4u32, 0x4000 + 200, 24, item.len() as u32, 0] {
        verdata.extend(word.to_le_bytes());
    }
    verdata.extend(&item);
    std::fs::write(dir.path().join("g/verdata.mul"), &verdata).unwrap();
    let p = |name: &str| dir.path().join(name);
    gamedata_ok(
        &["uo", "art", "g", "--item", "200", "-o", "patched.png"],
        dir.path(),
    );
    assert_eq!(png_pixels(&p("patched.png")), [255, 0, 0, 255]);
    gamedata_ok(
        &[
            "uo",
            "art",
            "g",
            "--item",
            "200",
            "-o",
            "plain.png",
            "--no-verdata",
        ],
        dir.path(),
    );
    gamedata_ok(
        &["uo", "art", "g", "--item", "10", "-o", "ten.png"],
        dir.path(),
    );
    assert_eq!(png_pixels(&p("plain.png")), png_pixels(&p("ten.png")));
    assert_ne!(png_size(&p("ten.png")), (1, 1));
    gamedata_ok(&["uo", "export", "art", "g", "-o", "out"], dir.path());
    assert_eq!(png_pixels(&p("out/items/0x00C8.png")), [255, 0, 0, 255]);
    assert_eq!(
        png_pixels(&p("out/items/0x000A.png")),
        png_pixels(&p("ten.png"))
    );
}

/// Gumps 0 and 1 both patched by verdata.mul over the same 16 bytes, with different sizes
/// in their patches: 2 x 2 for gump 0, 4 x 1 for gump 1. The export keys a patched gump by
/// its bytes in verdata.mul and its patch's size, so each keeps its own size. Gump 2, not
/// patched, lies in gumpart.mul at the offset the patches have in verdata.mul (44), with
/// gump 0's size: it is not gump 0's picture.
#[test]
fn uo_export_patched_gumps_over_one_patch_s_bytes_keep_their_own_sizes() {
    let dir = tempfile::tempdir().unwrap();
    let folder = dir.path().join("m");
    std::fs::create_dir(&folder).unwrap();
    // Words: row offsets 2 and 3 (2 rows) or 2 (1 row), then two runs of 2 pixels.
    let gump = |colour: u32| -> Vec<u8> {
        let run = colour | (2 << 16);
        [2u32, 3, run, run]
            .iter()
            .flat_map(|v| v.to_le_bytes())
            .collect()
    };
    let data = gump(0x7C00);
    // Two empty records (a patch past the index is skipped), then gump 2: blue, 2 x 2, at
    // offset 44 of gumpart.mul.
    let index = records(&[
        (u32::MAX, u32::MAX, 0),
        (u32::MAX, u32::MAX, 0),
        (44, 16, (2 << 16) | 2),
    ]);
    std::fs::write(folder.join("gumpidx.mul"), &index).unwrap();
    let mut gumpart = vec![0u8; 44];
    gumpart.extend(gump(0x001F));
    std::fs::write(folder.join("gumpart.mul"), &gumpart).unwrap();
    // verdata.mul: a count, two 20-byte entries (file 12: gumps), then the shared bytes.
    let mut verdata = 2u32.to_le_bytes().to_vec();
    for (id, size) in [(0u32, (2u32 << 16) | 2), (1, (4 << 16) | 1)] {
        for word in [12u32, id, 4 + 40, 16, size] {
            verdata.extend(word.to_le_bytes());
        }
    }
    verdata.extend(&data);
    std::fs::write(folder.join("verdata.mul"), &verdata).unwrap();
    let report = stdout_json(&gamedata_ok(
        &["uo", "export", "gumps", "m", "-o", "out", "--json"],
        dir.path(),
    ));
    assert_eq!(report["written"], 3);
    assert_eq!(report["decoded"], 3);
    assert_eq!(
        png_pixels(&dir.path().join("out/gumps/0x0002.png")),
        [[0, 0, 255, 255]; 4].concat()
    );
    assert_eq!(png_size(&dir.path().join("out/gumps/0x0000.png")), (2, 2));
    assert_eq!(
        png_size(&dir.path().join("out/gumps/0x0001.png")),
        (4, 1),
        "gump 1 exported at gump 0's size"
    );
    assert_eq!(
        png_pixels(&dir.path().join("out/gumps/0x0001.png")),
        [[255, 0, 0, 255]; 4].concat()
    );
}

/// A gumpart.mul of a gump of `width` x `height` pixels (a row offset and a run of the
/// full width a row, 8 bytes a row), then a red 1 x 1 gump, padded to `len` bytes, with
/// its gumpidx.mul in `dir`/m, exported: the big gump is counted as over the budget, not
/// drawn, and the small one is written.
fn export_big_gump_then_a_small_one(dir: &Path, width: u32, height: u32, len: usize) {
    let folder = dir.join("m");
    std::fs::create_dir(&folder).unwrap();
    let mut words: Vec<u32> = (0..height).map(|row| height + row).collect();
    words.extend((0..height).map(|_| 0x001F | (width << 16)));
    words.extend([1, 0x7C00 | (1 << 16)]);
    let mut data: Vec<u8> = words.iter().flat_map(|w| w.to_le_bytes()).collect();
    data.resize(data.len().max(len), 0);
    let big_len = height * 8;
    let index = records(&[
        (0, big_len, (width << 16) | height),
        (big_len, 8, (1 << 16) | 1),
    ]);
    std::fs::write(folder.join("gumpidx.mul"), &index).unwrap();
    std::fs::write(folder.join("gumpart.mul"), &data).unwrap();
    let out = gamedata(&["uo", "export", "gumps", "m", "-o", "out", "--json"], dir);
    assert_eq!(out.status.code(), Some(1));
    let report: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(
        (report["written"].clone(), report["over_budget"].clone()),
        (json!(1), json!(1)),
        "{report}"
    );
    assert!(!dir.join("out/gumps/0x0000.png").exists());
    assert_eq!(
        png_pixels(&dir.join("out/gumps/0x0001.png")),
        [255, 0, 0, 255]
    );
}

/// A gump of 32,767 x 2,048 pixels (each side at its largest but height) in 16 KiB: 268 MB
/// of RGBA, past the decoding budget of a 16 KiB set (64 bytes an input byte plus 64 MiB,
/// 68.2 MB), so it is counted as over the budget, not drawn, and a small gump beside it is
/// written.
#[test]
fn uo_export_a_gump_past_the_budget_is_counted_not_drawn() {
    let dir = tempfile::tempdir().unwrap();
    export_big_gump_then_a_small_one(dir.path(), 0x7FFF, 2048, 0);
}

/// Attack (attack33): anim.idx's 22,000 records (bodies 0 to 199, the high group) all
/// naming one frame group of two small frames. The group is decoded once, but each record
/// is a folder of two PNG files of about 80 bytes; counted by their bytes alone, a set like
/// this of 133 KB once wrote a million files (4.2 GB of disk). Each file and folder now
/// takes at least a 4 KiB block of the output budget (64 bytes an input byte plus 64 MiB),
/// so the records are written in order while it lasts, a folder then its two files, and
/// the rest counted as over it.
#[test]
fn uo_export_anims_counts_a_block_a_file_and_folder_against_the_budget() {
    let dir = tempfile::tempdir().unwrap();
    let folder = dir.path().join("m");
    std::fs::create_dir(&folder).unwrap();
    let group = super::uo_anim::group();
    let index = records(&vec![(0, group.len() as u32, 0); 22_000]);
    std::fs::write(folder.join("anim.idx"), &index).unwrap();
    std::fs::write(folder.join("anim.mul"), &group).unwrap();
    let input = (index.len() + group.len()) as u64;
    let out = gamedata(
        &["uo", "export", "anims", "m", "-o", "out", "--json"],
        dir.path(),
    );
    assert_eq!(out.status.code(), Some(1));
    let report: Value = serde_json::from_slice(&out.stdout).unwrap();
    // Blocks of 4 KiB the budget holds, three a record (its folder and two files).
    let blocks = (64 * input + (64 << 20)) / 4096;
    let written = 2 * (blocks / 3) + (blocks % 3).saturating_sub(1);
    assert_eq!(report["decoded"], 2, "{report}");
    assert_eq!(report["written"], written, "{report}");
    assert_eq!(report["over_budget"], 44_000 - written, "{report}");
    assert_eq!(files_under(&dir.path().join("out")), written);
    assert!(written < 44_000 / 2, "{written}");
}

/// Files under `dir`, in every folder.
fn files_under(dir: &Path) -> u64 {
    std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap())
        .map(|e| {
            if e.file_type().unwrap().is_dir() {
                files_under(&e.path())
            } else {
                1
            }
        })
        .sum()
}

/// Attack (attack33): a gump of 5,000 x 5,000 pixels (100 MB of RGBA) in a gumpart.mul
/// padded to 2 MiB, so that the decoding budget (64 bytes an input byte plus 64 MiB, 192
/// MiB) holds it. Every thread of the export may hold a picture at once, so one picture may
/// take at most 64 MiB: this one is counted as over the budget, not drawn (an 8.4 MB set
/// of such frames once held 525 MB), and the small gump after it is written.
#[test]
fn uo_export_a_picture_past_64_mib_is_counted_not_drawn() {
    let dir = tempfile::tempdir().unwrap();
    export_big_gump_then_a_small_one(dir.path(), 5000, 5000, 2 << 20);
    // `uo gump` draws it: the bound is the export's.
    gamedata_ok(&["uo", "gump", "m", "0", "-o", "big.png"], dir.path());
    assert_eq!(png_size(&dir.path().join("big.png")), (5000, 5000));
}

/// Four gumps of 1,500 pixels a side (9 MB of RGBA each, held three times over with their
/// PNG and the encoder's parts: 27 MB), one of 2,400 (23 MB, 69 MB held) and one of 1 x 1,
/// exported with four threads: a thread's share of the 64 MiB the export's pictures may
/// hold at once is 16 MiB, so the four are put off and drawn after the threads, one at a
/// time, and written; the one past 64 MiB even alone is counted as over the budget, not
/// drawn.
#[test]
fn uo_export_draws_pictures_past_a_thread_s_share_alone() {
    let dir = tempfile::tempdir().unwrap();
    let folder = dir.path().join("m");
    std::fs::create_dir(&folder).unwrap();
    let mut data = Vec::new();
    let mut index = Vec::new();
    for (width, height) in [
        (1500u32, 1500u32),
        (1500, 1501),
        (1500, 1502),
        (1500, 1503),
        (2400, 2400),
        (1, 1),
    ] {
        // A row table, then one run of `width` blue pixels a row.
        let mut words: Vec<u32> = (0..height).map(|row| height + row).collect();
        words.extend((0..height).map(|_| 0x001F | (width << 16)));
        let start = data.len() as u32;
        data.extend(words.iter().flat_map(|w| w.to_le_bytes()));
        index.push((start, height * 8, (width << 16) | height));
    }
    std::fs::write(folder.join("gumpidx.mul"), records(&index)).unwrap();
    std::fs::write(folder.join("gumpart.mul"), &data).unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_gamedata"))
        .args(["uo", "export", "gumps", "m", "-o", "out", "--json"])
        .env("RAYON_NUM_THREADS", "4")
        .current_dir(dir.path())
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let report: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(
        (
            report["written"].clone(),
            report["over_budget"].clone(),
            report["drawn_alone"].clone()
        ),
        (json!(5), json!(1), json!(4)),
        "{report}"
    );
    for (id, height) in [(0, 1500), (3, 1503)] {
        let path = dir.path().join(format!("out/gumps/{id:#06X}.png"));
        assert_eq!(png_size(&path), (1500, height));
        assert_eq!(png_pixels(&path)[..4], [0, 0, 255, 255]);
    }
    assert!(!dir.path().join("out/gumps/0x0004.png").exists());
    assert!(dir.path().join("out/gumps/0x0005.png").exists());
}

/// A frame group of `frames` frames in anim.mul, every one the same frame of no pixel.
fn empty_frames_group(frames: u32) -> Vec<u8> {
    let mut out = vec![0u8; 512];
    out.extend(frames.to_le_bytes());
    // Offsets from the frame count's start: the one frame after the table.
    let frame = 4 + 4 * frames;
    for _ in 0..frames {
        out.extend(frame.to_le_bytes());
    }
    // Centre (0, 0), 0 x 0 pixels, then the end of its runs.
    out.extend([0u8; 8]);
    out.extend(0x7FFF_7FFFu32.to_le_bytes());
    out
}

/// Exports the animations of a folder `m` under `dir` whose anim.mul holds `big` for body
/// 0's action 0, direction 0, then a group of three empty frames for direction 1; returns
/// the report of a run that exits with status 1.
fn export_two_groups(dir: &Path, big: Vec<u8>) -> Value {
    let folder = dir.join("m");
    std::fs::create_dir(&folder).unwrap();
    let small = empty_frames_group(3);
    // Body 0's block of 110 records (the high group's), the others empty.
    let mut body = vec![
        (0, big.len() as u32, 0),
        (big.len() as u32, small.len() as u32, 0),
    ];
    body.resize(110, (u32::MAX, 0, 0));
    std::fs::write(folder.join("anim.idx"), records(&body)).unwrap();
    std::fs::write(folder.join("anim.mul"), [big, small].concat()).unwrap();
    let out = gamedata(&["uo", "export", "anims", "m", "-o", "out", "--json"], dir);
    assert_eq!(out.status.code(), Some(1));
    serde_json::from_slice(&out.stdout).unwrap()
}

/// Attack (helper's A and B, 2026-11-27): a frame group naming one frame of no pixel
/// 200,000 times (4 bytes each): every frame is written as a 1 x 1 PNG, so each counts a
/// 4 KiB block of the decoding budget (820 MB here, past its 77 MB) and the group is over
/// the budget, not drawn; a group of three such frames beside it is written. (Counted as
/// no pixel, a group of 4 million such frames once held 1 GB while it was drawn.)
#[test]
fn uo_export_anims_counts_frames_of_no_pixel_against_the_budget() {
    let dir = tempfile::tempdir().unwrap();
    let report = export_two_groups(dir.path(), empty_frames_group(200_000));
    assert_eq!(
        (
            report["written"].clone(),
            report["over_budget"].clone(),
            report["failed"].clone()
        ),
        (json!(3), json!(1), json!(0)),
        "{report}"
    );
    assert!(!dir.path().join("out/anims/anim/0x0000/00/0").exists());
    let small = dir.path().join("out/anims/anim/0x0000/00/1");
    assert_eq!(png_size(&small.join("002.png")), (1, 1));
    assert_eq!(png_pixels(&small.join("000.png")), [0, 0, 0, 0]);
}

/// A frame group of one frame of 3,000 x 3,000 pixels and no run (36 MB of RGBA, within
/// the decoding budget of a small set, 67 MB): held three times over with its PNG it is
/// past the 64 MiB the export's pictures may hold even alone, so its direction is counted
/// as over the budget, not drawn; a group of three empty frames beside it is written.
#[test]
fn uo_export_anims_counts_a_frame_s_pixels_three_times_held() {
    let dir = tempfile::tempdir().unwrap();
    let mut big = vec![0u8; 512];
    big.extend(1u32.to_le_bytes());
    big.extend(8u32.to_le_bytes());
    for v in [0i16, 0, 3000, 3000] {
        big.extend(v.to_le_bytes());
    }
    big.extend(0x7FFF_7FFFu32.to_le_bytes());
    let report = export_two_groups(dir.path(), big);
    assert_eq!(
        (
            report["written"].clone(),
            report["over_budget"].clone(),
            report["drawn_alone"].clone()
        ),
        (json!(3), json!(1), json!(0)),
        "{report}"
    );
    assert!(!dir.path().join("out/anims/anim/0x0000/00/0").exists());
}

/// Twelve gumps whose records point past gumpart.mul, each at its own offset: all twelve
/// counted as failed, the first ten named in the report.
#[test]
fn uo_export_names_the_first_ten_failures_and_counts_them_all() {
    let dir = tempfile::tempdir().unwrap();
    let folder = dir.path().join("m");
    std::fs::create_dir(&folder).unwrap();
    let bad: Vec<(u32, u32, u32)> = (0..12).map(|i| (100 + 16 * i, 16, (2 << 16) | 2)).collect();
    std::fs::write(folder.join("gumpidx.mul"), records(&bad)).unwrap();
    std::fs::write(folder.join("gumpart.mul"), [0u8; 16]).unwrap();
    let out = gamedata(
        &["uo", "export", "gumps", "m", "-o", "out", "--json"],
        dir.path(),
    );
    assert_eq!(out.status.code(), Some(1));
    let report: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(report["failed"], 12, "{report}");
    let errors = report["errors"].as_array().unwrap();
    assert_eq!(errors.len(), 10, "{errors:?}");
}
