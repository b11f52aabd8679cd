//! `gamedata uo synth`: a custom size (`--width`/`--height`, multiples of 8), and with
//! `--art` a drawable world: every land and item id placed has a picture, every land
//! texture id a texture map of its kind's side, the showcase where the docs say; the same
//! seed gives the same bytes.

use std::collections::BTreeSet;

use serde_json::json;

use mul_core::synth::drawable::{self, LANDS};
use mul_core::synth::{Showcase, World, item};
use mul_core::tiledata::{TileData, TileFlags};
use mul_core::{Art, Facet, FacetBytes, MapFormat, MapSize, Texmaps};

use super::*;

/// A folder's files, by name.
fn files(dir: &Path) -> Vec<(String, Vec<u8>)> {
    let mut out: Vec<_> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap())
        .map(|e| {
            (
                e.file_name().to_string_lossy().into_owned(),
                std::fs::read(e.path()).unwrap(),
            )
        })
        .collect();
    out.sort();
    out
}

/// `uo synth --width 64 --height 64 --art`: the size reported, the world's files those of
/// `World::generate_drawable`, the art and texture maps those of `synth::drawable`; every
/// land and item id placed has a picture, every land texture id a texture map of its
/// kind's side; the showcase's tall tower drawn by `uo art` at least 200 pixels high.
#[test]
fn uo_synth_art_writes_a_drawable_world_of_a_custom_size() {
    let dir = tempfile::tempdir().unwrap();
    let p = |name: &str| dir.path().join(name).to_str().unwrap().to_owned();
    let out = gamedata_ok(
        &[
            "uo",
            "synth",
            &p("w"),
            "--width",
            "64",
            "--height",
            "64",
            "--art",
            "--seed",
            "5",
            "--json",
        ],
        dir.path(),
    );
    let report = stdout_json(&out);
    assert_eq!(
        (&report["width"], &report["height"]),
        (&json!(64), &json!(64))
    );
    let size = MapSize::from_tiles(64, 64).unwrap();
    let world = World::generate_drawable(size, 5);
    assert_eq!(report["statics"], world.static_count);
    let read = |name: &str| std::fs::read(dir.path().join("w").join(name)).unwrap();
    for (name, bytes) in world.files(0, MapFormat::Mul).unwrap() {
        assert!(read(&name) == *bytes, "{name}");
    }
    let (index, data) = (read("artidx.mul"), read("art.mul"));
    assert!((index.clone(), data.clone()) == drawable::art(5));
    let (tex_index, tex_data) = (read("texidx.mul"), read("texmaps.mul"));
    assert!((tex_index.clone(), tex_data.clone()) == drawable::texmaps(5));

    // Read back as a renderer would: every placed id drawable.
    let (map, staidx, statics) = (read("map0.mul"), read("staidx0.mul"), read("statics0.mul"));
    let facet = Facet::parse(
        FacetBytes {
            map: &map,
            staidx: &staidx,
            statics: &statics,
        },
        size,
        None,
    )
    .unwrap();
    let tiledata_bytes = read("tiledata.mul");
    let tiledata = TileData::parse(&tiledata_bytes).unwrap();
    let art = Art::parse(&index, &data).unwrap();
    let texmaps = Texmaps::parse(&tex_index, &tex_data).unwrap();
    let mut sides = BTreeSet::new();
    let mut items = BTreeSet::new();
    for y in 0..64 {
        for x in 0..64 {
            let id = facet.map.cell(x, y).unwrap().id.get();
            assert!(art.land(id).unwrap().is_some(), "land {id:#06x}");
            let texture = tiledata.land(id).unwrap().texture();
            if texture != 0 {
                let t = texmaps.texmap(u32::from(texture)).unwrap().unwrap();
                let kind = LANDS.iter().find(|l| l.id == id).unwrap();
                assert_eq!(t.side(), kind.side);
                sides.insert(t.side());
            }
            for s in facet.statics_at(x, y).unwrap() {
                items.insert(s.id.get());
            }
        }
    }
    assert_eq!(sides, BTreeSet::from([64, 128]));
    assert!(texmaps.texmap(0).unwrap().is_none());
    for &id in &items {
        assert!(art.item(id).unwrap().is_some(), "item {id:#06x}");
    }
    assert!(items.contains(&0x0001) && items.contains(&0x21BC));
    let partial = tiledata.item(item::BANNER).unwrap().flags();
    assert!(partial.contains(TileFlags::PARTIAL_HUE));

    // The showcase's tower, drawn by the command.
    let (x, y) = Showcase::TALL;
    assert_eq!(
        facet.statics_at(x, y).unwrap().next().unwrap().id.get(),
        item::TOWER
    );
    let out = gamedata_ok(
        &[
            "uo",
            "art",
            &p("w"),
            "--item",
            "0x1F20",
            "-o",
            &p("tower.png"),
            "--json",
        ],
        dir.path(),
    );
    let report = stdout_json(&out);
    assert!(report["height"].as_u64().unwrap() >= 200, "{report}");
}

/// The same seed gives the same bytes, another seed other ones; without --art a custom size
/// is `World::generate`'s world.
#[test]
fn uo_synth_is_deterministic_and_plain_without_art() {
    let dir = tempfile::tempdir().unwrap();
    let p = |name: &str| dir.path().join(name).to_str().unwrap().to_owned();
    for (name, seed) in [("a", "3"), ("b", "3"), ("c", "4")] {
        gamedata_ok(
            &[
                "uo",
                "synth",
                &p(name),
                "--width",
                "128",
                "--height",
                "64",
                "--art",
                "--seed",
                seed,
            ],
            dir.path(),
        );
    }
    let (a, b, c) = (
        files(&dir.path().join("a")),
        files(&dir.path().join("b")),
        files(&dir.path().join("c")),
    );
    assert!(a == b);
    assert!(a != c);

    gamedata_ok(
        &[
            "uo",
            "synth",
            &p("plain"),
            "--facet",
            "3",
            "--width",
            "64",
            "--height",
            "32",
        ],
        dir.path(),
    );
    let world = World::generate(MapSize::from_tiles(64, 32).unwrap(), 1);
    let written = files(&dir.path().join("plain"));
    let expected: Vec<(String, Vec<u8>)> = {
        let mut v: Vec<_> = world
            .files(3, MapFormat::Mul)
            .unwrap()
            .into_iter()
            .map(|(n, b)| (n, b.into_owned()))
            .collect();
        v.sort();
        v
    };
    assert!(written == expected);
}

/// Sizes that are not multiples of 8 are refused with the reason; one side alone is a
/// usage error; nothing is written.
#[test]
fn uo_synth_refuses_bad_sizes() {
    let dir = tempfile::tempdir().unwrap();
    for (w, h) in [("60", "64"), ("64", "12"), ("0", "64")] {
        let message = gamedata_fails(
            &["uo", "synth", "out", "--width", w, "--height", h, "--art"],
            dir.path(),
        );
        assert!(
            message.contains("multiple of 8") || message.contains("a side is 0"),
            "{message}"
        );
        assert!(!dir.path().join("out").exists());
    }
    let out = gamedata(&["uo", "synth", "out", "--width", "64"], dir.path());
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("--height"));
}
