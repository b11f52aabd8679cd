//! `gamedata uo ...` over the facet's other file forms and their damage: a map UOP read as
//! the MUL is, diff files applied, bad diff entries and statics blocks listed and counted,
//! overlapping index entries read once, a map UOP past the decoding limit refused, and
//! what the writing commands (`uo synth`, `uo render`, `uo convert`) report.

use std::path::Path;

use serde_json::{Value, json};

use super::uo::{UO_SIZE, synthetic_uo_dir};
use super::*;

#[test]
fn uo_commands_read_a_map_uop_as_they_read_the_mul() {
    // 40 x 160 blocks: 6,400 blocks, two chunks.
    let size = mul_core::MapSize::from_blocks(40, 160).unwrap();
    let world = mul_core::synth::World::generate(size, 4);
    let mul_dir = tempfile::tempdir().unwrap();
    let uop_dir = tempfile::tempdir().unwrap();
    world
        .write_as(mul_dir.path(), 3, mul_core::MapFormat::Mul)
        .unwrap();
    world
        .write_as(uop_dir.path(), 3, mul_core::MapFormat::Uop)
        .unwrap();
    let dims = ["--facet", "3", "--width", "320", "--height", "1280"];
    let run = |dir: &Path, args: &[&str]| {
        let d = dir.to_str().unwrap();
        stdout_json(&gamedata(
            &[&["uo", args[0], d][..], &dims, &args[1..], &["--json"]].concat(),
            dir,
        ))
    };
    let (m, u) = (mul_dir.path(), uop_dir.path());
    assert_eq!(run(m, &["info"])["map_format"], "mul");
    assert_eq!(run(u, &["info"])["map_format"], "uop");
    assert_eq!(
        without_timing(run(m, &["stats"])),
        without_timing(run(u, &["stats"]))
    );
    assert_eq!(
        without_timing(run(m, &["stats", "--sequential"])),
        without_timing(run(u, &["stats"]))
    );
    for (x, y) in ["0 0", "319 1279", "160 700", "5 1025"].map(|p| {
        let mut it = p.split(' ');
        (it.next().unwrap(), it.next().unwrap())
    }) {
        assert_eq!(
            run(m, &["tile", x, y]),
            run(u, &["tile", x, y]),
            "({x}, {y})"
        );
    }
    let find = |dir: &Path| without_timing(run(dir, &["find", "--flag", "wall"]));
    assert_eq!(find(m), find(u));
    for dir in [m, u] {
        let d = dir.to_str().unwrap();
        gamedata_ok(
            &[
                &["uo", "render", d][..],
                &dims,
                &["-o", "radar.png", "--scale", "4"],
            ]
            .concat(),
            dir,
        );
    }
    assert_eq!(
        png_pixels(&m.join("radar.png")),
        png_pixels(&u.join("radar.png"))
    );
    // Asked for the form it does not have.
    let out = gamedata(
        &[
            &["uo", "info", u.to_str().unwrap()][..],
            &dims,
            &["--map-format", "mul"],
        ]
        .concat(),
        u,
    );
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("no map3.mul in"));

    // The container's entries, named.
    let ls = stdout_json(&gamedata(
        &["uo", "uop", "ls", "map3LegacyMUL.uop", "--json"],
        u,
    ));
    assert_eq!(ls["count"], 2);
    assert_eq!(ls["entries"][0]["name"], "build/map3legacymul/00000000.dat");
    assert_eq!(ls["entries"][1]["decompressed_len"], 2304 * 196);
    assert_eq!(ls["entries"][1]["compression"], "none");
    assert_eq!(
        ls["entries"][0]["hash"],
        format!(
            "{:#018x}",
            mul_core::name_hash("build/map3legacymul/00000000.dat")
        )
    );

    // Convert MUL -> UOP -> MUL: the same bytes.
    let convert = |from: &Path, to: &str| {
        let out = tempfile::tempdir().unwrap();
        let args = [
            "uo",
            "convert",
            from.to_str().unwrap(),
            "--facet",
            "3",
            "--to",
            to,
        ];
        gamedata_ok(&[&args[..], &[out.path().to_str().unwrap()]].concat(), m);
        out
    };
    let out1 = convert(m, "uop");
    assert_eq!(
        std::fs::read(out1.path().join("map3LegacyMUL.uop")).unwrap(),
        std::fs::read(u.join("map3LegacyMUL.uop")).unwrap()
    );
    let out2 = convert(out1.path(), "mul");
    assert_eq!(
        std::fs::read(out2.path().join("map3.mul")).unwrap(),
        world.map
    );
}

#[test]
fn uo_apply_diffs_shows_the_patched_land_and_statics() {
    let size = mul_core::MapSize::from_blocks(40, 24).unwrap();
    let world = mul_core::synth::World::generate(size, 8);
    let dir = tempfile::tempdir().unwrap();
    world.write_to(dir.path(), 0).unwrap();
    let patched = world.write_diffs(dir.path(), 0, 12, 5).unwrap();
    let d = dir.path().to_str().unwrap();
    let run = |command: &str, extra: &[&str], apply: bool| {
        let mut args = vec!["uo", command, d];
        args.extend(UO_SIZE);
        args.extend(extra);
        args.push("--json");
        if apply {
            args.push("--apply-diffs");
        }
        stdout_json(&gamedata(&args, dir.path()))
    };
    assert_eq!(
        run("info", &[], false)["diffs"],
        json!({
            "map_blocks": 12,
            "statics_blocks": 12,
            "applied": false,
            "problems": [],
            "problem_count": 0
        })
    );
    assert_eq!(run("info", &[], true)["diffs"]["applied"], true);
    let block = patched[0];
    let (bx, by) = size.block_coords(block).unwrap();
    let (x, y) = ((bx * 8 + 3).to_string(), (by * 8 + 3).to_string());
    let (before, after) = (run("tile", &[&x, &y], false), run("tile", &[&x, &y], true));
    let map = mul_core::Map::parse(&world.map, size).unwrap();
    let own = map.cell(bx * 8 + 3, by * 8 + 3).unwrap();
    assert_eq!(before["land"]["id"], own.id.get());
    assert_eq!(
        after["land"],
        json!({"id": mul_core::synth::land::LAVA, "z": 10})
    );
    let ids: Vec<&Value> = after["statics"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| &s["id"])
        .collect();
    assert_eq!(ids, [&json!(mul_core::synth::item::GOLD)]);
    // Whole-map search: the 12 gold coins exist only with the diffs applied.
    assert_eq!(run("find", &["--id", "0x0EED"], false)["count"], 0);
    assert_eq!(run("find", &["--id", "0x0EED"], true)["count"], 12);
}

#[test]
fn uo_info_lists_the_first_hundred_bad_diff_entries_and_counts_the_rest() {
    let (dir, _) = synthetic_uo_dir();
    let d = dir.path().to_str().unwrap();
    // 1,000 block numbers past any map, and one replacing block: every entry is left out.
    let list: Vec<u8> = (0..1000u32).flat_map(|_| u32::MAX.to_le_bytes()).collect();
    std::fs::write(dir.path().join("mapdifl0.mul"), list).unwrap();
    std::fs::write(dir.path().join("mapdif0.mul"), vec![0u8; 196]).unwrap();
    let info = stdout_json(&gamedata(
        &[&["uo", "info", d][..], &UO_SIZE, &["--json"]].concat(),
        dir.path(),
    ));
    let diffs = &info["diffs"];
    assert_eq!(diffs["problem_count"], 1000);
    assert_eq!(diffs["problems"].as_array().unwrap().len(), 100);
    assert_eq!(
        diffs["problems"][0],
        "mapdifl entry 0: block number 4294967295 is past any map"
    );
    let text = gamedata_ok(&[&["uo", "info", d][..], &UO_SIZE].concat(), dir.path());
    let text = String::from_utf8_lossy(&text.stdout);
    assert_eq!(text.matches("  left out: ").count(), 100, "{text}");
    assert!(
        text.contains("and 900 more entries left out (the first 100 are listed)"),
        "{text}"
    );
}

#[test]
fn uo_info_lists_the_first_hundred_bad_statics_blocks_and_counts_the_rest() {
    let (dir, world) = synthetic_uo_dir();
    let d = dir.path().to_str().unwrap();
    // Every index record points past the end of a 7-byte statics file: 960 bad blocks.
    let index: Vec<u8> = (0..world.size.blocks())
        .flat_map(|_| [1000u32, 7, 0])
        .flat_map(u32::to_le_bytes)
        .collect();
    std::fs::write(dir.path().join("staidx0.mul"), index).unwrap();
    std::fs::write(dir.path().join("statics0.mul"), [0u8; 7]).unwrap();
    let info = stdout_json(&gamedata(
        &[&["uo", "info", d][..], &UO_SIZE, &["--json"]].concat(),
        dir.path(),
    ));
    let statics = &info["statics"];
    assert_eq!(statics["bad_blocks"], 960);
    assert_eq!(statics["problems"].as_array().unwrap().len(), 100);
    assert_eq!(
        statics["problems"][0],
        "staidx entry 0: offset 1000, length 7: it runs past the end of the data (the data \
         file is 7 bytes)"
    );
    let text = gamedata_ok(&[&["uo", "info", d][..], &UO_SIZE].concat(), dir.path());
    let text = String::from_utf8_lossy(&text.stdout);
    assert_eq!(text.matches("  bad block: ").count(), 100, "{text}");
    assert!(
        text.contains("and 860 more bad blocks (the first 100 are listed)"),
        "{text}"
    );
}

#[test]
fn uo_writing_commands_report_what_they_wrote() {
    let dir = tempfile::tempdir().unwrap();
    let cwd = dir.path();
    let len = |p: &str| std::fs::metadata(cwd.join(p)).unwrap().len();
    // Facet 4 (1448 x 1448 tiles) with 3 diff blocks: every file listed with its length.
    let synth = stdout_json(&gamedata(
        &["--json", "uo", "synth", "w", "--facet", "4", "--diffs", "3"],
        cwd,
    ));
    assert_eq!(
        (synth["width"].as_u64(), synth["height"].as_u64()),
        (Some(1448), Some(1448))
    );
    assert_eq!(synth["diff_blocks"], 3);
    let files = synth["files"].as_array().unwrap();
    assert_eq!(files.len(), 11, "six world files and five diff files");
    for f in files {
        assert_eq!(f["bytes"].as_u64(), Some(len(f["path"].as_str().unwrap())));
    }
    assert_eq!(files[0]["path"], "w/map4.mul");
    assert_eq!(len("w/map4.mul"), 181 * 181 * 196);
    // A region reaching past the map is cut to it, said on stderr and in the report.
    let out = gamedata(
        &[
            "--json",
            "uo",
            "render",
            "w",
            "--facet",
            "4",
            "--scale",
            "4",
            "--region",
            "1400,0,100,40",
            "-o",
            "r.png",
        ],
        cwd,
    );
    let render = stdout_json(&out);
    assert_eq!(render["clipped"], true);
    assert_eq!(
        render["region"],
        json!({"x": 1400, "y": 0, "width": 48, "height": 40})
    );
    assert_eq!(
        (render["width"].as_u64(), render["height"].as_u64()),
        (Some(12), Some(10))
    );
    assert_eq!(png_size(&cwd.join("r.png")), (12, 10));
    assert_eq!(render["bytes"].as_u64(), Some(len("r.png")));
    assert!(String::from_utf8_lossy(&out.stderr).contains("is clipped to the 1448 x 1448"));
    // Wholly outside: an error.
    let out = gamedata(
        &[
            "uo",
            "render",
            "w",
            "--facet",
            "4",
            "--region",
            "1448,0,10,10",
            "-o",
            "x.png",
        ],
        cwd,
    );
    assert_eq!(out.status.code(), Some(1));
    assert!(!cwd.join("x.png").exists());
    let convert = stdout_json(&gamedata(
        &[
            "--json", "uo", "convert", "w", "--facet", "4", "--to", "uop", "u",
        ],
        cwd,
    ));
    assert_eq!(convert["bytes"].as_u64(), Some(len("u/map4LegacyMUL.uop")));
    assert!(convert["elapsed_ms"].as_f64().is_some());
}

/// A 1024 x 1024 facet whose 16,384 index entries all cover the same 2.1 MB of statics
/// (300,000 records): each command reads them once and reports the 16,383 overlapping
/// entries (the commands once counted 4.9 billion statics and took a minute).
#[test]
fn uo_commands_read_overlapping_index_entries_once() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path().to_str().unwrap();
    let statics: Vec<u8> = (0..300_000u32)
        .flat_map(|i| {
            let id: u16 = if i % 3 == 0 { 0x0EED } else { 1 };
            let [a, b] = id.to_le_bytes();
            [a, b, (i % 8) as u8, (i / 8 % 8) as u8, 0, 0, 0]
        })
        .collect();
    let index: Vec<u8> = (0..16_384)
        .flat_map(|_| [0, statics.len() as u32, 0])
        .flat_map(u32::to_le_bytes)
        .collect();
    std::fs::write(dir.path().join("statics0.mul"), &statics).unwrap();
    std::fs::write(dir.path().join("staidx0.mul"), index).unwrap();
    std::fs::write(dir.path().join("map0.mul"), vec![0u8; 16_384 * 196]).unwrap();
    let size = ["--width", "1024", "--height", "1024"];
    let info = stdout_json(&gamedata(
        &[&["uo", "info", d][..], &size, &["--json"]].concat(),
        dir.path(),
    ));
    assert_eq!(info["statics"]["count"], 300_000);
    assert_eq!(info["statics"]["bad_blocks"], 16_383);
    assert_eq!(
        info["statics"]["problems"][0],
        "staidx entry 1: offset 0, length 2100000: its bytes overlap entry 0's, which is read \
         instead (the data file is 2100000 bytes)"
    );
    let found = stdout_json(&gamedata(
        &[
            &["uo", "find", d][..],
            &size,
            &["--id", "0x0EED", "--count", "--json"],
        ]
        .concat(),
        dir.path(),
    ));
    assert_eq!(found["count"], 100_000);
    let stats = stdout_json(&gamedata(
        &[&["uo", "stats", d][..], &size, &["--json"]].concat(),
        dir.path(),
    ));
    assert_eq!(stats["statics"]["count"], 300_000);
    assert_eq!(stats["statics"]["top"][0]["count"], 200_000);
}

/// A 3.4 MB map UOP whose 4,096 zlib chunks would decode to 3.2 GB: refused before any is
/// decoded, with the total and the limit.
#[test]
fn uo_refuses_a_map_uop_whose_chunks_decode_past_the_limit() {
    use std::io::Write as _;
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path().to_str().unwrap();
    let mut z = flate2::write::ZlibEncoder::new(Vec::new(), flate2::Compression::best());
    z.write_all(&vec![0u8; 4096 * 196]).unwrap();
    let chunk = z.finish().unwrap();
    let n = 4096usize;
    let mut uop = Vec::new();
    for word in [0x0050_594Du32, 5, 0xFD23_EC43] {
        uop.extend(word.to_le_bytes());
    }
    uop.extend(28u64.to_le_bytes());
    uop.extend([n as u32, n as u32].map(u32::to_le_bytes).concat());
    uop.extend((n as u32).to_le_bytes());
    uop.extend(0u64.to_le_bytes());
    let mut at = (28 + 12 + 34 * n) as u64;
    for i in 0..n {
        let name = mul_core::facet::map_uop::map_chunk_name(0, i);
        uop.extend(at.to_le_bytes());
        uop.extend(0u32.to_le_bytes());
        uop.extend((chunk.len() as u32).to_le_bytes());
        uop.extend((4096u32 * 196).to_le_bytes());
        uop.extend(mul_core::name_hash(&name).to_le_bytes());
        uop.extend(0u32.to_le_bytes());
        uop.extend(1u16.to_le_bytes());
        at += chunk.len() as u64;
    }
    for _ in 0..n {
        uop.extend_from_slice(&chunk);
    }
    std::fs::write(dir.path().join("map0LegacyMUL.uop"), &uop).unwrap();
    std::fs::write(dir.path().join("staidx0.mul"), b"").unwrap();
    std::fs::write(dir.path().join("statics0.mul"), b"").unwrap();
    let err = gamedata_fails(&["uo", "info", d, "--facet", "0"], dir.path());
    assert!(
        err.contains(
            "map0LegacyMUL.uop: the map UOP's compressed chunks needs 268943360 bytes, over the \
             limit of 268435456"
        ),
        "{err}"
    );
}
