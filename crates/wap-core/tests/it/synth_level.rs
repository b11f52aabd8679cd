//! The synthetic level reads as a level: its ground, pits, ledges, ladders and objects are
//! where a player would expect them, and its archive's pictures have the colours of what
//! they show (checked through the palette, by hue: sky blue, grass green, earth brown, gold
//! coins), each object's frame standing on the ground.

use wap_core::synth::{self, back_tiles, front_tiles, tiles};
use wap_core::{Limits, Pid, Rez};

const INVISIBLE: u32 = 0xFFFF_FFFF;
const FILLED: u32 = 0xEEEE_EEEE;

/// The tile at (x, y) of plane `p` of `data`.
fn at(data: &wap_core::LevelData, p: usize, x: i32, y: i32) -> Option<u32> {
    let plane = &data.planes[p];
    let (w, h) = (plane.header.tiles_wide.get(), plane.header.tiles_high.get());
    if !(0..w).contains(&x) || !(0..h).contains(&y) {
        return None;
    }
    plane.tiles.get((y * w + x) as usize).copied()
}

#[test]
fn the_ground_pits_ledges_and_ladders_are_where_a_player_expects_them() {
    for (seed, wide, high) in [(1, 80, 24), (2, 120, 36), (5, 40, 20), (9, 400, 100)] {
        let data = synth::level(seed, wide, high);
        let (w, h) = (wide as i32, high as i32);
        let main = |x, y| at(&data, 1, x, y);
        let id = |t: u16| u32::from(t);
        let (mut pits, mut ledges, mut ladders) = (0, 0, 0);
        for x in 0..w {
            // The ground's top: the first row of the column holding grass, a slope or a pit.
            let top = (0..h)
                .find(|&y| {
                    [tiles::GRASS, tiles::SLOPE, tiles::CLEAR]
                        .map(id)
                        .contains(&main(x, y).unwrap())
                })
                .unwrap_or_else(|| panic!("seed {seed}: column {x} has no ground"));
            assert!(top >= h / 3 && top < h - 1, "seed {seed}: ground at {top}");
            let column: Vec<u32> = (top..h).map(|y| main(x, y).unwrap()).collect();
            if column[0] == id(tiles::CLEAR) {
                // A pit: clear down to spikes on the bottom row.
                pits += 1;
                assert!(
                    column[..column.len() - 1]
                        .iter()
                        .all(|&t| t == id(tiles::CLEAR))
                );
                assert_eq!(*column.last().unwrap(), id(tiles::SPIKES));
            } else {
                // Grass or a slope over rock to the bottom.
                assert!(
                    column[1..].iter().all(|&t| t == id(tiles::ROCK)),
                    "seed {seed} x {x}"
                );
            }
            for y in 0..top {
                let t = main(x, y).unwrap();
                if t == id(tiles::LEDGE) {
                    ledges += 1;
                    // Room above it for what stands on it.
                    assert_eq!(main(x, y - 1), Some(INVISIBLE));
                    assert!(top - y >= 3, "a ledge 3 rows or more above the ground");
                } else if t == id(tiles::LADDER) {
                    ladders += 1;
                    // Every ladder reaches the ground, and its top is level with a ledge.
                    let below = main(x, y + 1).unwrap();
                    assert!(
                        [tiles::LADDER, tiles::GRASS, tiles::SLOPE]
                            .map(id)
                            .contains(&below),
                        "seed {seed} x {x} y {y}: {below:#x}"
                    );
                    if main(x, y - 1) != Some(id(tiles::LADDER)) {
                        assert_eq!(main(x + 1, y), Some(id(tiles::LEDGE)), "seed {seed} x {x}");
                    }
                } else {
                    assert!(t == INVISIBLE || t == id(tiles::HALF_WALL), "{t:#x}");
                }
            }
        }
        assert!(pits > 0 && ledges > 0 && ladders > 0, "seed {seed}");
        // Every object stands on grass or a ledge, its position 32 pixels above it.
        let objects = &data.planes[1].objects;
        assert!(
            objects.len() as u32 >= wide / 4,
            "seed {seed}: {}",
            objects.len()
        );
        for o in objects {
            let (x, y) = (o.fixed.x.get(), o.fixed.y.get());
            assert_eq!(x % 64, 32);
            assert_eq!((y + 32) % 64, 0);
            let under = main(x / 64, (y + 32) / 64).unwrap();
            assert!(
                under == id(tiles::GRASS) || under == id(tiles::LEDGE),
                "seed {seed}: {:?} at {x},{y} on {under:#x}",
                String::from_utf8_lossy(&o.logic)
            );
            assert_eq!(main(x / 64, (y - 32) / 64), Some(INVISIBLE));
        }
        let logics: Vec<&[u8]> = objects.iter().map(|o| &o.logic[..]).collect();
        for want in [&b"Treasure"[..], b"Officer", b"Soldier"] {
            assert!(logics.contains(&want), "seed {seed}");
        }
        assert_eq!(*logics.last().unwrap(), b"EndOfLevelPowerup");
        // The start on the ground too.
        let (sx, sy) = (data.header.start_x.get(), data.header.start_y.get());
        assert_eq!(main(sx / 64, (sy + 32) / 64), Some(id(tiles::GRASS)));
        // The background: filled sky and clouds on top, the gradient's 6 rows, hills below;
        // the front plane: leaves along the top, vines under them.
        let back = |x, y| at(&data, 0, x, y).unwrap();
        let clouds = (0..h * 16)
            .filter(|k| back(k % 16, k / 16) == id(back_tiles::CLOUD_LEFT))
            .count();
        assert_eq!(clouds, 3);
        assert!((0..16).all(|x| {
            [
                FILLED,
                id(back_tiles::CLOUD_LEFT),
                id(back_tiles::CLOUD_RIGHT),
            ]
            .contains(&back(x, 0))
        }));
        let first = (0..h)
            .find(|&y| back(0, y) == id(back_tiles::GRADIENT))
            .unwrap();
        for k in 0..6 {
            assert_eq!(back(0, first + k), id(back_tiles::GRADIENT) + k as u32);
        }
        assert!(
            [back_tiles::HILLS_LEFT, back_tiles::HILLS_RIGHT]
                .map(id)
                .contains(&back(0, first + 6))
        );
        assert_eq!(back(0, h - 1), id(back_tiles::HILL));
        let front = &data.planes[2].tiles;
        assert!(front.contains(&id(front_tiles::LEAVES)));
        for (k, &t) in front.iter().enumerate() {
            let row = k as i32 / w;
            let want = match row {
                0 => [INVISIBLE, id(front_tiles::LEAVES)],
                1 => [INVISIBLE, id(front_tiles::VINE)],
                _ => [INVISIBLE, INVISIBLE],
            };
            assert!(want.contains(&t), "front tile {k}: {t:#x}");
        }
    }
}

/// The colour (r, g, b) of each of a picture's drawn pixels, row by row (`None` where
/// transparent).
fn colours(pid: &[u8], palette: &[u8; 768]) -> (u32, u32, Vec<Option<[u8; 3]>>) {
    let pid = Pid::parse(pid).unwrap();
    let pixels = pid.decode(&Limits::default()).unwrap();
    let rgb = pixels
        .indices
        .iter()
        .zip(&pixels.opaque)
        .map(|(&i, &o)| {
            let i = usize::from(i) * 3;
            o.then(|| [palette[i], palette[i + 1], palette[i + 2]])
        })
        .collect();
    (pixels.width, pixels.height, rgb)
}

fn blue(c: [u8; 3]) -> bool {
    c[2] > c[0] + 40 && c[2] > c[1]
}
fn green(c: [u8; 3]) -> bool {
    c[1] > c[0] + 30 && c[1] > c[2] + 30
}
fn brown(c: [u8; 3]) -> bool {
    c[0] > c[1] + 20 && c[1] > c[2] + 10 && c[0] < 200
}
fn gold(c: [u8; 3]) -> bool {
    c[0] > 180 && c[1] > 130 && c[2] < 100
}

/// The share of `pixels` (of rows `rows`) that `test` accepts, transparent ones counting
/// as not.
fn share(
    (w, _, pixels): &(u32, u32, Vec<Option<[u8; 3]>>),
    rows: std::ops::Range<u32>,
    test: fn([u8; 3]) -> bool,
) -> f64 {
    let picked: Vec<_> = rows
        .flat_map(|y| (0..*w).map(move |x| (y * w + x) as usize))
        .map(|k| pixels[k])
        .collect();
    picked.iter().filter(|c| c.is_some_and(test)).count() as f64 / picked.len() as f64
}

#[test]
fn the_archive_s_pictures_show_sky_grass_earth_and_gold() {
    let data = synth::level(1, 80, 24);
    let bytes = synth::level_archive(&data).unwrap();
    let rez = Rez::parse(&bytes).unwrap();
    let file = |path: &str| match rez.find(path).unwrap() {
        Some(wap_core::RezEntry::File(f)) => f,
        _ => panic!("{path}"),
    };
    let palette: [u8; 768] = file("LEVEL1/PALETTES/MAIN.PAL").bytes.try_into().unwrap();
    assert_eq!(palette, synth::level_palette());
    let tile = |set: &str, id: u16| {
        colours(
            file(&format!("LEVEL1/TILES/{set}/{id:03}.PID")).bytes,
            &palette,
        )
    };
    // The sky's gradient: blue, lighter tile after tile.
    let mut last = 0;
    for k in 0..6 {
        let sky = tile("BACK", back_tiles::GRADIENT + k);
        assert_eq!(share(&sky, 0..64, blue), 1.0, "sky tile {k}");
        let light: u32 = sky
            .2
            .iter()
            .map(|c| c.unwrap().iter().map(|&v| u32::from(v)).sum::<u32>())
            .sum();
        assert!(light > last);
        last = light;
    }
    // Grass over earth; earth; the rock tile opaque throughout.
    let grass = tile("ACTION", tiles::GRASS);
    assert!(share(&grass, 0..8, green) > 0.95);
    assert!(share(&grass, 20..64, brown) > 0.95);
    let rock = tile("ACTION", tiles::ROCK);
    assert!(share(&rock, 0..64, brown) > 0.95);
    // A ledge: drawn in its top rows, transparent in its bottom half (the sky shows).
    let ledge = tile("ACTION", tiles::LEDGE);
    assert!(ledge.2[..64 * 8].iter().all(Option::is_some));
    assert!(ledge.2[64 * 32..].iter().all(Option::is_none));
    // The slope: earth under the diagonal, nothing above it.
    let slope = tile("ACTION", tiles::SLOPE);
    for y in 0..64 {
        for x in 0..64 {
            // Blades of grass may stand one pixel above the diagonal.
            let drawn = slope.2[y * 64 + x].is_some();
            assert!(drawn || x + y < 63, "{x},{y}");
            assert!(!drawn || x + y >= 62, "{x},{y}");
        }
    }
    // Coins are gold; every frame's bottom row is drawn, and lies 32 pixels below the
    // object's position (the ground).
    let mut sets = 0;
    for entry in rez.walk(&rez.root()) {
        let (path, file) = entry.unwrap();
        if !path.contains("/FRAME") {
            continue;
        }
        sets += 1;
        let pid = Pid::parse(file.bytes).unwrap();
        let (w, h) = (pid.width() as i32, pid.height() as i32);
        let (_, oy) = pid.offset();
        // Drawn from the position less half the size, moved by the offset.
        assert_eq!(-(h / 2) + oy + h, 32, "{path}");
        let pixels = colours(file.bytes, &palette);
        let bottom = (h as u32 - 1)..h as u32;
        assert!(share(&pixels, bottom, |_| true) > 0.2, "{path}: {w} x {h}");
        if path.contains("COINS") {
            assert!(share(&pixels, 0..h as u32, gold) > 0.3, "{path}");
        }
    }
    assert_eq!(sets, 5, "coins, officer, soldier, flag, map piece");
}

/// The palette's own promise, checked without drawing: 0 black, 1 to 48 the sky from a deep
/// blue to a pale one (no shade darker than the one before), and the named colours looking
/// like their names.
#[test]
fn the_palette_runs_the_sky_from_deep_to_pale_and_its_colours_look_their_names() {
    use wap_core::synth::colour;
    let palette = synth::level_palette();
    let rgb = |i: u8| {
        let at = usize::from(i) * 3;
        [palette[at], palette[at + 1], palette[at + 2]]
    };
    assert_eq!(rgb(0), [0, 0, 0]);
    let sky: Vec<[u8; 3]> = (colour::SKY..=colour::HORIZON).map(rgb).collect();
    assert_eq!(sky.len(), 48);
    for pair in sky.windows(2) {
        for c in 0..3 {
            assert!(pair[1][c] >= pair[0][c], "{pair:?}");
        }
    }
    assert!(sky.iter().all(|s| s[2] > s[0] && s[2] > s[1]), "{sky:?}");
    let brightness = |s: [u8; 3]| s.iter().map(|&v| u32::from(v)).sum::<u32>();
    assert!(brightness(sky[0]) < 360, "{:?}", sky[0]);
    assert!(sky[47].iter().all(|&v| v >= 180), "{:?}", sky[47]);
    // A colour whose channel `c` is above both others.
    let leads = |i: u8, c: usize| {
        let v = rgb(i);
        (0..3).filter(|&k| k != c).all(|k| v[c] > v[k])
    };
    for green in [
        colour::GRASS,
        colour::GRASS_DARK,
        colour::LEAF,
        colour::HILL,
    ] {
        assert!(leads(green, 1), "{green}: {:?}", rgb(green));
    }
    for red in [colour::RED, colour::RED_DARK, colour::EARTH, colour::WOOD] {
        assert!(leads(red, 0), "{red}: {:?}", rgb(red));
    }
    for blue in [colour::BLUE, colour::BLUE_DARK, colour::CLOUD] {
        assert!(leads(blue, 2), "{blue}: {:?}", rgb(blue));
    }
    let gold = rgb(colour::GOLD);
    assert!(gold[0] > 200 && gold[1] > 150 && gold[2] < 100, "{gold:?}");
    assert!(rgb(colour::CLOUD).iter().all(|&v| v >= 240));
    assert!(rgb(colour::BLACK).iter().all(|&v| v <= 40));
}
