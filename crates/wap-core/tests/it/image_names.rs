//! How levels name their pictures: every tile set and object image set of the 14 retail
//! Claw levels resolved through the header's names, checked against the real CLAW.REZ's
//! folders and frames as `claw-image-sets.dict` lists them (`GAMEDATA_DIR`); and the
//! naming rules on a hand-made header.

use std::collections::{BTreeMap, BTreeSet};

use wap_core::images::frame_number;
use wap_core::{ImageNames, LevelFile, Tile};

/// `claw-image-sets.dict` (a Python literal): each folder key and its frame numbers, read
/// by scanning for `'KEY': {` and `N: ('`.
fn image_sets(text: &str) -> BTreeMap<String, BTreeSet<i64>> {
    let mut sets: BTreeMap<String, BTreeSet<i64>> = BTreeMap::new();
    let mut current = String::new();
    let bytes = text.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'\'' => {
                let end = i + 1 + text[i + 1..].find('\'').unwrap();
                if text[end + 1..].starts_with(": {") {
                    current = text[i + 1..end].to_owned();
                    sets.entry(current.clone()).or_default();
                }
                i = end + 1;
            }
            b'-' | b'0'..=b'9' if i > 0 && matches!(bytes[i - 1], b'{' | b' ') => {
                let len = text[i..]
                    .find(|c: char| c != '-' && !c.is_ascii_digit())
                    .unwrap();
                if text[i + len..].starts_with(": ('") {
                    let n: i64 = text[i..i + len].parse().unwrap();
                    sets.get_mut(&current).unwrap().insert(n);
                }
                i += len.max(1);
            }
            _ => i += 1,
        }
    }
    sets
}

#[test]
fn frame_numbers_are_the_first_digits_of_a_name() {
    assert_eq!(frame_number("FRAME007.PID"), Some(7));
    assert_eq!(frame_number("012.PID"), Some(12));
    assert_eq!(frame_number("ARROWDOWN003.PID"), Some(3));
    assert_eq!(frame_number("RACER1.PID"), Some(1));
    assert_eq!(frame_number("SMALLGHOST.PID"), Some(0));
    assert_eq!(frame_number("X0042Y7.PID"), Some(42));
    assert_eq!(frame_number("A2147483647.PID"), Some(2_147_483_647));
    assert_eq!(frame_number("A2147483648.PID"), None);
    assert_eq!(frame_number("A99999999999.PID"), None);
}

#[test]
#[ignore = "needs GAMEDATA_DIR with the real game files"]
fn retail_levels_name_images_that_claw_rez_holds() {
    let dict =
        std::fs::read_to_string(gamedata_testkit::require_file("wap32/claw-image-sets.dict"))
            .unwrap();
    let sets = image_sets(&dict);
    assert_eq!(sets.len(), 926);
    let (mut objects, mut with_set, mut found, mut zero) = (0usize, 0usize, 0usize, 0usize);
    let mut missing: BTreeMap<String, usize> = BTreeMap::new();
    let (mut tiles, mut tiles_found) = (0usize, 0usize);
    for n in 1..=14 {
        let file = LevelFile::open(gamedata_testkit::require_file(&format!(
            "wwd/RETAIL{n:02}.WWD"
        )))
        .unwrap();
        let level = file.view().unwrap();
        let names = ImageNames::of(&level.header());
        assert_eq!(names.palette, format!("LEVEL{n}/PALETTES/MAIN.PAL"));
        assert_eq!(names.tiles, format!("LEVEL{n}/TILES"));
        for plane in level.planes() {
            let plane = plane.unwrap();
            let sets_of_plane: Vec<&[u8]> = plane.image_sets().collect::<Result<_, _>>().unwrap();
            let mut ids = BTreeSet::new();
            for y in 0..plane.tiles_high() {
                for x in 0..plane.tiles_wide() {
                    if let Some(Tile::Image { set, id }) = plane.tile(x, y) {
                        ids.insert((set, id));
                    }
                }
            }
            for (set, id) in ids {
                tiles += 1;
                let key = names
                    .tile_folder(sets_of_plane[usize::from(set)])
                    .replace('/', "_");
                if sets.get(&key).is_some_and(|f| f.contains(&i64::from(id))) {
                    tiles_found += 1;
                }
            }
            for object in plane.objects() {
                let object = object.unwrap();
                objects += 1;
                if object.image_set().is_empty() {
                    continue;
                }
                with_set += 1;
                let key = names.object_set(object.image_set());
                let frame = i64::from(object.raw().i.get());
                zero += usize::from(frame == 0);
                match sets.get(&key) {
                    Some(frames)
                        if frames.contains(&frame) || frames.contains(&-1) && frame == -1 =>
                    {
                        found += 1
                    }
                    Some(_) => *missing.entry(format!("{key} frame {frame}")).or_default() += 1,
                    None => *missing.entry(key).or_default() += 1,
                }
            }
        }
    }
    let not_found: usize = missing.values().sum();
    eprintln!(
        "{objects} objects, {with_set} with an image set, {found} found, {not_found} not: {missing:#?}"
    );
    eprintln!("{tiles} distinct tiles, {tiles_found} found; {zero} objects of frame 0");
    assert_eq!(found + not_found, with_set);
    // Every object has an image set; all but 133 resolve to an image the archive holds.
    // The 133, as `docs/cli.md` says ("Level pictures"): two LEVEL1 candelabras whose folder CLAW.REZ lacks, two
    // LEVEL6 "wanted" posters of frame 0 (the folder numbers from 1), and 129 LEVEL9 dart
    // shooters of frame 6 (their folders hold other numbers).
    assert_eq!(
        (objects, with_set, found, zero),
        (34_784, 34_784, 34_651, 2)
    );
    let expected: BTreeMap<String, usize> = [
        ("LEVEL1_IMAGES_CANDELABRASINGLE", 2),
        ("LEVEL6_IMAGES_WANTED frame 0", 2),
        ("LEVEL9_IMAGES_SHOOTERS_PUFFDARTDOWN frame 6", 43),
        ("LEVEL9_IMAGES_SHOOTERS_PUFFDARTLEFT frame 6", 43),
        ("LEVEL9_IMAGES_SHOOTERS_PUFFDARTRIGHT frame 6", 35),
        ("LEVEL9_IMAGES_SHOOTERS_PUFFDARTUP frame 6", 8),
    ]
    .into_iter()
    .map(|(k, v)| (k.to_owned(), v))
    .collect();
    assert_eq!(missing, expected);
    // Every tile of every plane names an image of its set's folder.
    assert_eq!((tiles, tiles_found), (3_267, 3_267));
}

/// `N` bytes holding `s` and NULs.
fn field<const N: usize>(s: &str) -> [u8; N] {
    let mut f = [0u8; N];
    f[..s.len()].copy_from_slice(s.as_bytes());
    f
}

/// The naming rules on a hand-made header: paths cleaned of their slashes either way, a
/// prefix kept only with both its name and its folder, tile sets under the tiles' folder,
/// image sets through the first prefix they start with, else under the tiles' folder.
#[test]
fn a_header_s_names_are_read_as_the_rules_say() {
    let mut data = wap_core::synth::level(1, 16, 16);
    let h = &mut data.header;
    h.image_dir = field("\\LEVEL3\\TILES\\");
    h.pal_rez = field("/LEVEL3//PALETTES\\MAIN.PAL");
    h.prefixes = [field("LEVEL"), field("GAME"), field("LONE"), field("")];
    h.image_sets = [
        field("LEVEL3\\IMAGES"),
        field("\\GAME\\IMAGES\\"),
        field(""),
        field("ORPHAN\\IMAGES"),
    ];
    let image = data.image().unwrap();
    let level = wap_core::Level::parse(&image).unwrap();
    let names = ImageNames::of(&level.header());
    assert_eq!(names.tiles, "LEVEL3/TILES");
    assert_eq!(names.palette, "LEVEL3/PALETTES/MAIN.PAL");
    assert_eq!(
        names.prefixes,
        [
            ("LEVEL".to_owned(), "LEVEL3_IMAGES".to_owned()),
            ("GAME".to_owned(), "GAME_IMAGES".to_owned()),
        ]
    );
    assert_eq!(names.tile_folder(b"ACTION"), "LEVEL3/TILES/ACTION");
    assert_eq!(names.tile_folder(b"\\BACK\\"), "LEVEL3/TILES/BACK");
    assert_eq!(names.object_set(b"LEVEL_OFFICER"), "LEVEL3_IMAGES_OFFICER");
    assert_eq!(names.object_set(b"GAMEX_Y"), "GAME_IMAGESX_Y");
    assert_eq!(names.object_set(b"LONE_ONE"), "LEVEL3_TILES_LONE_ONE");
    // Without a tiles folder, a tile set is its own folder.
    let bare = ImageNames {
        tiles: String::new(),
        ..names
    };
    assert_eq!(bare.tile_folder(b"ACTION"), "ACTION");
}
