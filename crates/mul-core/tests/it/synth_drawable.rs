//! The drawable synthetic world (`World::generate_drawable`): every land and item id it
//! places has a picture in its art, every land texture id a texture map of the stated size,
//! and the showcase's cases lie where `docs/formats/uo.md` ("Synthetic world") and
//! `synth::Showcase` say, with the flags they state.

use std::collections::BTreeSet;

use mul_core::synth::drawable::{self, LANDS};
use mul_core::synth::showcase::statics;
use mul_core::synth::{Showcase, World, item, land};
use mul_core::tiledata::{TileData, TileFlags};
use mul_core::{Art, Facet, Hues, MapSize, Texmaps};

/// The land ids and item ids a world places.
fn placed(world: &World) -> (BTreeSet<u16>, BTreeSet<u16>) {
    let facet = Facet::parse(world.facet_bytes(), world.size, None).unwrap();
    let (w, h) = (world.size.width(), world.size.height());
    let mut lands = BTreeSet::new();
    for y in 0..h {
        for x in 0..w {
            lands.insert(facet.map.cell(x, y).unwrap().id.get());
        }
    }
    let mut items = BTreeSet::new();
    for by in 0..world.size.height_blocks() {
        for bx in 0..world.size.width_blocks() {
            for s in facet.block_statics(bx, by).unwrap() {
                items.insert(s.id.get());
            }
        }
    }
    (lands, items)
}

/// Every land and item id placed in drawable worlds of several sizes (the showcase alone,
/// and worlds with towns, roads, forests and mountains) has a picture; each land id's
/// texture id is 0 or a non-empty texture map of its kind's side; both sides are used, and
/// water (wet, texture id 0), shallows (wet, with one) and dirt (not wet, texture id 0)
/// are all placed.
#[test]
fn every_placed_id_has_art_and_its_texture_map() {
    let (index, data) = drawable::art(1);
    let art = Art::parse(&index, &data).unwrap();
    let (tex_index, tex_data) = drawable::texmaps(1);
    let texmaps = Texmaps::parse(&tex_index, &tex_data).unwrap();
    assert_eq!(texmaps.len(), drawable::TEXMAPS);
    // Texture id 0 has no texture map: land with it is never stretched.
    assert!(texmaps.texmap(0).unwrap().is_none());
    for (w, h, seed) in [(64, 64, 1), (512, 512, 3), (1024, 512, 9)] {
        let world = World::generate_drawable(MapSize::from_tiles(w, h).unwrap(), seed);
        let tiledata = TileData::parse(&world.tiledata).unwrap();
        let (lands, items) = placed(&world);
        let mut sides = BTreeSet::new();
        for &id in &lands {
            assert!(art.land(id).unwrap().is_some(), "land {id:#06x} has no art");
            let tile = tiledata.land(id).unwrap();
            let kind = LANDS.iter().find(|l| l.id == id).unwrap();
            assert_eq!(tile.texture(), kind.texture, "land {id:#06x}");
            if kind.texture != 0 {
                let t = texmaps.texmap(u32::from(kind.texture)).unwrap().unwrap();
                assert_eq!(t.side(), kind.side, "land {id:#06x}");
                sides.insert(t.side());
            }
        }
        assert_eq!(sides, BTreeSet::from([64, 128]), "{w} x {h}");
        for id in [land::WATER, land::SHALLOWS, land::DIRT] {
            assert!(lands.contains(&id), "{w} x {h}: land {id:#06x} placed");
        }
        let wet = |id| tiledata.land(id).unwrap().flags().contains(TileFlags::WET);
        let texture = |id| tiledata.land(id).unwrap().texture();
        assert!(wet(land::WATER) && texture(land::WATER) == 0);
        assert!(wet(land::SHALLOWS) && texture(land::SHALLOWS) != 0);
        assert!(!wet(land::DIRT) && texture(land::DIRT) == 0);
        for &id in &items {
            let picture = art.item(id).unwrap();
            let picture = picture.unwrap_or_else(|| panic!("item {id:#06x} has no art"));
            assert!(
                picture.width() > 0 && picture.height() > 0,
                "item {id:#06x}"
            );
            let tile = tiledata.item(id).unwrap();
            assert!(!tile.name_lossy().is_empty(), "item {id:#06x} is named");
            assert!(
                !tile.name_lossy().to_lowercase().starts_with("nodraw"),
                "item {id:#06x}"
            );
        }
        if w >= 512 {
            // Towns, roads and forests are there too.
            for id in [
                item::WALL,
                item::FLOOR,
                item::ROOF,
                item::LAMP,
                item::TREES[0],
            ] {
                assert!(items.contains(&id), "{w} x {h}: item {id:#06x}");
            }
        }
    }
}

/// The pictures' sizes fit the things: trees tall, walls taller than a tile, floors flat,
/// the lamp post thin, the tower at least 200 pixels high; the partially hued banner and
/// the vases have pure grey pixels; land tiles read as their terrain.
#[test]
fn pictures_fit_their_things() {
    let (index, data) = drawable::art(1);
    let art = Art::parse(&index, &data).unwrap();
    let size = |id| {
        let a = art.item(id).unwrap().unwrap();
        (a.width(), a.height())
    };
    for id in item::TREES {
        let (w, h) = size(id);
        assert!(w >= 44 && h >= 100, "tree {id:#06x}: {w} x {h}");
    }
    let (w, h) = size(item::WALL);
    assert!(w == 44 && h >= 60);
    assert_eq!(size(item::FLOOR), (44, 22));
    let (w, h) = size(item::LAMP);
    assert!(w <= 16 && h >= 80);
    let (w, h) = size(item::TOWER);
    assert!(w >= 44 && h >= 200);
    let grey = |id| {
        let a = art.item(id).unwrap().unwrap();
        a.runs()
            .map(|r| r.unwrap())
            .flat_map(|r| r.pixels.iter().map(|p| p.get()))
            .filter(|&p| {
                let (r, g, b) = ((p >> 10) & 31, (p >> 5) & 31, p & 31);
                r == g && g == b
            })
            .count()
    };
    assert!(grey(item::BANNER) > 100 && grey(item::VASE) > 100);
    // Land tiles: the mean colour reads as the terrain.
    let mean = |id| {
        let a = art.land(id).unwrap().unwrap();
        let px = a.pixels();
        let sum = |shift: u16| {
            px.iter()
                .map(|p| u32::from((p.get() >> shift) & 31))
                .sum::<u32>()
        };
        let n = px.len() as u32;
        (sum(10) / n, sum(5) / n, sum(0) / n)
    };
    let (r, g, b) = mean(land::WATER);
    assert!(b > r && b > g, "water is blue");
    let (r, g, b) = mean(land::GRASS);
    assert!(g > r && g > b, "grass is green");
    let (r, g, b) = mean(land::SAND);
    assert!(r > b && g > b, "sand is yellow");
    let (r, g, b) = mean(land::SNOW);
    assert!(r >= 25 && g >= 25 && b >= 25, "snow is white");
    let (r, g, b) = mean(land::LAVA);
    assert!(r > g && g > b, "lava is orange");
    let (r, g, b) = mean(land::ROCK);
    assert!(r == g && g == b, "rock is grey");
}

/// The art set keeps the synthetic set's facts: land tiles 0 to 63 drawn, item 200 an exact
/// repeat of item 10, item 255 empty; it runs to item 0x21BC.
#[test]
fn the_art_keeps_the_synthetic_sets_facts() {
    let (index, data) = drawable::art(4);
    let art = Art::parse(&index, &data).unwrap();
    assert_eq!(art.item_count(), 0x21BD);
    for id in 0..64 {
        assert!(art.land(id).unwrap().is_some());
    }
    let entry = |n: usize| art.index()[n];
    assert_eq!(entry(0x4000 + 200), entry(0x4000 + 10));
    assert!(art.item(255).unwrap().is_none());
    // The random items the world does not use are the synthetic set's.
    let (base_index, base_data) = mul_core::art::write::synthetic_art(4);
    let base = Art::parse(&base_index, &base_data).unwrap();
    for id in [0u16, 2, 10, 100, 254] {
        assert_eq!(
            art.entry(0x4000 + u32::from(id)).unwrap(),
            base.entry(0x4000 + u32::from(id)).unwrap()
        );
    }
}

/// The land's z at (x, y).
fn z(facet: &Facet<'_>, (x, y): (u32, u32)) -> i8 {
    facet.map.cell(x, y).unwrap().z
}

/// Whether the four corners of tile (x, y) (its own z, east, south and south-east
/// neighbours', as the client samples them) differ.
fn corners_differ(facet: &Facet<'_>, (x, y): (u32, u32)) -> bool {
    let c = [(x, y), (x + 1, y), (x, y + 1), (x + 1, y + 1)].map(|t| z(facet, t));
    c.iter().any(|&v| v != c[0])
}

/// The showcase's cases at their documented tiles, in a 64 x 64 world (which holds all of
/// it) and in a larger one (the same places).
#[test]
fn the_showcase_cases_lie_where_documented() {
    for (w, h, seed) in [(64, 64, 1), (640, 320, 2)] {
        let world = World::generate_drawable(MapSize::from_tiles(w, h).unwrap(), seed);
        let facet = Facet::parse(world.facet_bytes(), world.size, None).unwrap();
        let tiledata = TileData::parse(&world.tiledata).unwrap();
        let hues = Hues::parse(&world.hues).unwrap();
        let (index, data) = drawable::art(seed);
        let art = Art::parse(&index, &data).unwrap();
        let id = |t: (u32, u32)| facet.map.cell(t.0, t.1).unwrap().id.get();
        let at = |(x, y): (u32, u32)| facet.statics_at(x, y).unwrap().copied().collect::<Vec<_>>();
        let flags = |id: u16| tiledata.item(id).unwrap().flags();
        let height = |id: u16| tiledata.item(id).unwrap().height();

        // Flat land, and a flat patch of every kind.
        assert!(!corners_differ(&facet, Showcase::FLAT));
        for (tile, kind) in Showcase::FLAT_LANDS {
            assert_eq!((id(tile), z(&facet, tile)), (kind, 0));
            assert!(!corners_differ(&facet, tile));
        }
        // Slopes rising north, east, south and west, on 128 (grass) and 64 (sand) texture
        // maps, all with differing corners (stretched).
        for (rising, kind, side) in [
            (Showcase::GRASS_RISING, land::GRASS, 128),
            (Showcase::SAND_RISING, land::SAND, 64),
        ] {
            let [north, east, south, west] = rising;
            assert!(z(&facet, (north.0, north.1 - 1)) > z(&facet, north));
            assert!(z(&facet, (east.0 + 1, east.1)) > z(&facet, east));
            assert!(z(&facet, (south.0, south.1 + 1)) > z(&facet, south));
            assert!(z(&facet, (west.0 - 1, west.1)) > z(&facet, west));
            for t in rising {
                assert_eq!((id(t), z(&facet, t)), (kind, 10));
                assert!(corners_differ(&facet, t));
            }
            let texture = tiledata.land(kind).unwrap().texture();
            assert_eq!(LANDS.iter().find(|l| l.id == kind).unwrap().side, side);
            assert_ne!(texture, 0);
        }
        // The cliff.
        let jump =
            i16::from(z(&facet, Showcase::CLIFF_TOP)) - i16::from(z(&facet, Showcase::CLIFF_FOOT));
        assert!(jump >= 20, "{jump}");
        assert_eq!(Showcase::CLIFF_FOOT.0 + 1, Showcase::CLIFF_TOP.0);
        // Wet land of both kinds; dirt (texture id 0) on a slope.
        assert_eq!(id(Showcase::WATER), land::WATER);
        assert_eq!(id(Showcase::SHALLOWS), land::SHALLOWS);
        assert!(corners_differ(&facet, Showcase::SHALLOWS));
        assert_eq!(id(Showcase::DIRT_SLOPE), land::DIRT);
        assert!(corners_differ(&facet, Showcase::DIRT_SLOPE));

        // Two items of the same flags and height at the same z.
        let equal = at(Showcase::STACK_EQUAL);
        let ids: Vec<u16> = equal.iter().map(|s| s.id.get()).collect();
        assert_eq!(ids, [item::CRATE, item::BARREL]);
        assert_eq!(equal[0].z, equal[1].z);
        assert_eq!(flags(item::CRATE), flags(item::BARREL));
        assert_eq!(height(item::CRATE), height(item::BARREL));
        // Different priorities at one z: tall, surface, height 0, background.
        let stack = at(Showcase::STACK_PRIORITY);
        let ids: Vec<u16> = stack.iter().map(|s| s.id.get()).collect();
        assert_eq!(ids, [item::LAMP, item::TABLE, item::GOLD, item::RUG]);
        assert!(stack.iter().all(|s| s.z == 0));
        assert!(height(item::LAMP) >= 18);
        assert!(flags(item::TABLE).contains(TileFlags::SURFACE) && height(item::TABLE) > 0);
        assert!(height(item::GOLD) == 0 && !flags(item::GOLD).contains(TileFlags::BACKGROUND));
        assert!(flags(item::RUG).contains(TileFlags::BACKGROUND) && height(item::RUG) == 0);
        // Items at different z.
        let zs: Vec<i8> = at(Showcase::STACK_Z).iter().map(|s| s.z).collect();
        assert_eq!(zs, [12, 0, 6]);

        // The tall static, near the south edge, 200 pixels high or more.
        let tall = at(Showcase::TALL);
        assert_eq!(tall[0].id.get(), item::TOWER);
        assert!(art.item(item::TOWER).unwrap().unwrap().height() >= 200);
        assert!(Showcase::AREA[3] - Showcase::TALL.1 <= 2);

        // Hues: full (1 to the file's count), partial by the flag, partial by the hue's
        // bit, the flag without a hue, past the file.
        let count = hues.len();
        assert_eq!(count, 64);
        let full: Vec<u16> = Showcase::HUE_FULL
            .iter()
            .map(|&(t, hue)| {
                let s = at(t);
                assert_eq!((s[0].id.get(), s[0].hue.get()), (item::VASE, hue));
                hue
            })
            .collect();
        assert!(full.iter().all(|&h| h >= 1 && usize::from(h) <= count));
        assert!(full.contains(&1) && full.contains(&64));
        let (t, hue) = Showcase::HUE_PARTIAL;
        let s = at(t);
        assert_eq!((s[0].id.get(), s[0].hue.get()), (item::BANNER, hue));
        assert!(flags(item::BANNER).contains(TileFlags::PARTIAL_HUE) && hue != 0);
        let (t, hue) = Showcase::HUE_PARTIAL_BIT;
        assert_eq!(at(t)[0].hue.get(), hue);
        assert!(hue & 0x8000 != 0 && usize::from(hue & 0x3FFF) <= count);
        assert_eq!(at(Showcase::PARTIAL_NO_HUE)[0].hue.get(), 0);
        let (t, hue) = Showcase::HUE_PAST;
        assert_eq!(at(t)[0].hue.get(), hue);
        assert!(usize::from(hue) > count && hue < 0x4000);

        // Foliage, translucent, wet; the ids the client never draws.
        for t in Showcase::TREES {
            assert!(flags(at(t)[0].id.get()).contains(TileFlags::FOLIAGE));
        }
        assert_eq!(at(Showcase::TRANSLUCENT)[0].id.get(), item::CRYSTAL);
        assert!(flags(item::CRYSTAL).contains(TileFlags::TRANSLUCENT));
        assert_eq!(at(Showcase::WET_ITEM)[0].id.get(), item::PUDDLE);
        assert!(flags(item::PUDDLE).contains(TileFlags::WET));
        assert_eq!(at(Showcase::UNDRAWN_LOW)[0].id.get(), 0x0001);
        assert_eq!(at(Showcase::UNDRAWN_HIGH)[0].id.get(), 0x21BC);

        // Every static of the list is there, and nothing else inside the square.
        let mut inside = 0;
        for y in Showcase::AREA[1]..Showcase::AREA[3] {
            for x in Showcase::AREA[0]..Showcase::AREA[2] {
                inside += at((x, y)).len();
            }
        }
        assert_eq!(inside, statics().len());
    }
}

/// The same seed gives the same bytes; the land outside the showcase is `World::generate`'s;
/// maps smaller than the showcase hold what fits.
#[test]
fn drawable_worlds_are_deterministic_and_fit_any_size() {
    let size = MapSize::from_tiles(256, 128).unwrap();
    let a = World::generate_drawable(size, 11);
    let b = World::generate_drawable(size, 11);
    assert_eq!(
        (a.map.clone(), a.staidx.clone(), a.statics.clone()),
        (b.map, b.staidx, b.statics)
    );
    assert_eq!(
        (&a.tiledata, &a.radarcol, &a.hues),
        (&b.tiledata, &b.radarcol, &b.hues)
    );
    assert_eq!(drawable::art(11), drawable::art(11));
    assert_eq!(drawable::texmaps(11), drawable::texmaps(11));
    let plain = World::generate(size, 11);
    let (fa, fp) = (
        Facet::parse(a.facet_bytes(), size, None).unwrap(),
        Facet::parse(plain.facet_bytes(), size, None).unwrap(),
    );
    for y in 0..128 {
        for x in 0..256 {
            if !Showcase::contains(x, y) {
                assert_eq!(fa.map.cell(x, y), fp.map.cell(x, y), "({x}, {y})");
            }
        }
    }
    assert_eq!(plain.hues, a.hues);
    for (w, h) in [(8, 8), (16, 48), (48, 16)] {
        let size = MapSize::from_tiles(w, h).unwrap();
        let world = World::generate_drawable(size, 1);
        let facet = Facet::parse(world.facet_bytes(), size, None).unwrap();
        let expected = statics().iter().filter(|s| s.x < w && s.y < h).count();
        let mut found = 0;
        for by in 0..size.height_blocks() {
            for bx in 0..size.width_blocks() {
                found += facet
                    .block_statics(bx, by)
                    .unwrap()
                    .into_iter()
                    .filter(|s| {
                        Showcase::contains(bx * 8 + u32::from(s.x), by * 8 + u32::from(s.y))
                    })
                    .count();
            }
        }
        assert_eq!(found, expected, "{w} x {h}");
    }
}
