//! Hostile heights, ids, tiledata, art and texture maps.

use gamedata_render::uo::world::{WorldSource, WorldView};
use mul_core::Limits;

use super::build::{
    DOT, Files, GRASS, Pic, Placed, art_files, both, item_bytes, map_bytes, opaque, statics_files,
    texmap_files, tiledata_hs, tiledata_old,
};

const SIDE: u32 = 32;

fn render_frame(files: &Files) -> (Vec<u8>, gamedata_render::uo::world::WorldCounts) {
    let (facet, art, tex) = (files.facet(), files.art(), files.texmaps());
    let source = WorldSource::new(&facet, &art, Some(&tex)).unwrap();
    let view = source.frame(None).unwrap();
    both(&source, view)
}

/// z -128 or 127 on every tile: each tile drawn once (flat inside, stretched on the east and
/// south edges, whose neighbours past the map are -125), render and write_png alike.
#[test]
fn extreme_heights_everywhere_draw_each_tile_once() {
    for z in [-128i8, 127] {
        let mut files = Files::plain(SIDE, SIDE);
        files.map = map_bytes(SIDE, SIDE, |_, _| (GRASS, z));
        let (pixels, counts) = render_frame(&files);
        assert_eq!(counts.tiles_drawn, u64::from(SIDE * SIDE), "z {z}");
        assert!(
            counts.stretched > 0 && counts.stretched < counts.tiles_drawn,
            "z {z}"
        );
        assert!(opaque(&pixels) > 0);
    }
}

/// Neighbours alternating -128 and 127: cliffs of 255 that fold triangles over; each tile
/// stretches, a tile both of whose triangles turn away draws nothing, and nothing panics.
#[test]
fn alternating_cliffs_fold_triangles_and_stay_bounded() {
    let mut files = Files::plain(SIDE, SIDE);
    files.map = map_bytes(SIDE, SIDE, |x, y| {
        (GRASS, if (x + y) % 2 == 0 { -128 } else { 127 })
    });
    let (pixels, counts) = render_frame(&files);
    assert!(counts.tiles_drawn <= u64::from(SIDE * SIDE));
    assert_eq!(
        counts.stretched, counts.tiles_drawn,
        "every tile drawn stretches"
    );
    assert!(opaque(&pixels) > 0);
    // Rows of -128 and 127 (a cliff between each row).
    files.map = map_bytes(SIDE, SIDE, |_, y| {
        (GRASS, if y % 2 == 0 { -128 } else { 127 })
    });
    let (_, counts) = render_frame(&files);
    assert!(counts.tiles_drawn <= u64::from(SIDE * SIDE));
}

/// Past the east edge `GetTileZ` reads -125: the edge tiles at z 0 stretch 500 pixels down,
/// below every tile's flat picture; without texture maps the same pixels stay transparent.
#[test]
fn the_minus_125_past_the_east_edge_stretches_edge_tiles_down() {
    let files = Files::plain(SIDE, SIDE);
    let (facet, art, tex) = (files.facet(), files.art(), files.texmaps());
    // Tile (31, 0): left 660, top 660; only it covers columns 683..704; its right corner
    // at -125 lies at y 660 + 22 + 500.
    let view = WorldView {
        x: 690,
        y: 800,
        width: 10,
        height: 300,
    };
    let source = WorldSource::new(&facet, &art, Some(&tex)).unwrap();
    let (pixels, counts) = both(&source, view);
    assert!(opaque(&pixels) > 0);
    assert_eq!((counts.tiles_drawn, counts.stretched), (1, 1));
    let flat = WorldSource::new(&facet, &art, None).unwrap();
    let (pixels, counts) = both(&flat, view);
    assert_eq!(opaque(&pixels), 0);
    assert_eq!(counts.tiles_drawn, 0);
}

/// Land ids 0x3FFF and 0xFFFF (whose TexID 0x7FFF is past texidx), statics 0xFFFF, past the
/// art's end and past the art's items: nothing to draw, so a transparent picture and counts
/// of 0.
#[test]
fn ids_past_every_table_draw_nothing() {
    let mut files = Files::plain(SIDE, SIDE);
    files.map = map_bytes(SIDE, SIDE, |x, y| {
        (
            if (x + y) % 2 == 0 { 0x3FFF } else { 0xFFFF },
            (x % 3) as i8 * 20,
        )
    });
    files.tiledata = tiledata_hs(|id| (0, if id == 0x3FFF { 0x7FFF } else { 1 }), |_| (0, 1));
    let placed: Vec<Placed> = (0..SIDE * SIDE)
        .map(|k| Placed {
            x: k % SIDE,
            y: k / SIDE,
            z: 0,
            id: [0xFFFF, 0xFFFE, 0x8000, 0x4000, 0x0101][(k % 5) as usize],
            hue: 0xFFFF,
        })
        .collect();
    (files.staidx, files.statics) = statics_files(SIDE, SIDE, &placed);
    let (pixels, counts) = render_frame(&files);
    assert_eq!(opaque(&pixels), 0);
    assert_eq!(
        (counts.tiles_drawn, counts.statics_drawn, counts.stretched),
        (0, 0, 0)
    );
}

/// The old tiledata layout has 16,384 items: a static of id 0x4100 (with art) has no entry
/// and is not drawn; DOT beside it is.
#[test]
fn tiledata_too_short_for_an_id_leaves_it_undrawn() {
    let mut files = Files::plain(SIDE, SIDE);
    files.tiledata = tiledata_old();
    (files.artidx, files.art) = art_files(&[
        (u32::from(GRASS), Pic::Land),
        (0x4000 + u32::from(DOT), Pic::item(2, 2, &[(0, 2)])),
        (0x4000 + 0x4100, Pic::item(2, 2, &[(0, 2)])),
    ]);
    let placed: Vec<Placed> = (0..10)
        .map(|k| Placed {
            x: 3 * k,
            y: 5,
            z: 0,
            id: if k % 2 == 0 { DOT } else { 0x4100 },
            hue: 0,
        })
        .collect();
    (files.staidx, files.statics) = statics_files(SIDE, SIDE, &placed);
    let (_, counts) = render_frame(&files);
    assert_eq!(counts.statics_drawn, 5);
    assert_eq!(counts.tiles_drawn, u64::from(SIDE * SIDE));
}

/// Texture map entries 0x2000 - 1, 0x2000 + 1, 0x8000 - 2, 0x8001 and 0 bytes long (the last
/// at offset 0), on slopes: none decodes, so every tile falls back to its art, drawn flat
/// at height 0 (docs: "its height ignored"; below the frame of the tiles' heights, so the
/// view reaches 160 pixels lower).
#[test]
fn texture_maps_of_wrong_lengths_fall_back_to_flat_art() {
    let mut files = Files::plain(SIDE, SIDE);
    let lengths = [0x1FFF, 0x2001, 0x7FFE, 0x8001];
    let mut entries: Vec<Option<Vec<u8>>> = vec![None];
    entries.extend(lengths.iter().map(|&n| Some(vec![0x33; n])));
    (files.texidx, files.texmaps) = texmap_files(&entries);
    // Entry 5: offset 0, length 0.
    files.texidx.extend_from_slice(&[0; 12]);
    files.tiledata = tiledata_hs(
        |id| (0, if (3..=8).contains(&id) { id - 2 } else { 0 }),
        |_| (0, 1),
    );
    (files.artidx, files.art) = art_files(&(3..=8).map(|id| (id, Pic::Land)).collect::<Vec<_>>());
    files.map = map_bytes(SIDE, SIDE, |x, y| {
        (3 + ((x + y) % 6) as u16, ((x * 7 + y * 3) % 40) as i8)
    });
    let (facet, art, tex) = (files.facet(), files.art(), files.texmaps());
    let source = WorldSource::new(&facet, &art, Some(&tex)).unwrap();
    let mut view = source.frame(None).unwrap();
    view.height += 160;
    let (pixels, counts) = both(&source, view);
    assert_eq!(counts.stretched, 0);
    assert_eq!(counts.tiles_drawn, u64::from(SIDE * SIDE));
    assert!(opaque(&pixels) > 0);
}

/// Art entries cut short: a land tile of 1,000 bytes, an item of its header alone, an item
/// whose row table passes its end, one whose run is cut, one whose run passes its width,
/// one whose row offset passes its end. None is drawn; counts are 0. (No texture maps: the
/// edge tiles would stretch them, and a stretched tile needs no art.)
#[test]
fn truncated_art_entries_draw_nothing() {
    let mut files = Files::plain(SIDE, SIDE);
    let header_only = item_bytes(44, 100, &[])[..8].to_vec();
    let short_table = item_bytes(44, 100, &[])[..50].to_vec();
    let mut cut_run = item_bytes(10, 10, &[(0, 10)]);
    cut_run.truncate(cut_run.len() - 12);
    let past_width = item_bytes(10, 10, &[(5, 10)]);
    let mut bad_offset = item_bytes(10, 3, &[(0, 10)]);
    bad_offset[8..10].copy_from_slice(&0x7000u16.to_le_bytes());
    let items = [header_only, short_table, cut_run, past_width, bad_offset];
    let mut pictures = vec![(u32::from(GRASS), Pic::Raw(vec![0x11; 1000]))];
    pictures.extend(
        items
            .into_iter()
            .enumerate()
            .map(|(k, b)| (0x4100 + k as u32, Pic::Raw(b))),
    );
    (files.artidx, files.art) = art_files(&pictures);
    let placed: Vec<Placed> = (0..SIDE * SIDE)
        .map(|k| Placed {
            x: k % SIDE,
            y: k / SIDE,
            z: 0,
            id: 0x100 + (k % 5) as u16,
            hue: 0,
        })
        .collect();
    (files.staidx, files.statics) = statics_files(SIDE, SIDE, &placed);
    let (facet, art) = (files.facet(), files.art());
    let source = WorldSource::new(&facet, &art, None).unwrap();
    let (pixels, counts) = both(&source, source.frame(None).unwrap());
    assert_eq!(opaque(&pixels), 0);
    assert_eq!((counts.tiles_drawn, counts.statics_drawn), (0, 0));
}

/// Items of 0 x 0, 1 x 0x7FFF, 0x7FFF x 1, 0xFFFF x 1 (negative to the client) and 2,000 x
/// 2,000 (16 MB as RGBA): the empty and negative ones never drawn, the big one drawn under
/// the default limits and not under a limit of 1 MiB.
#[test]
fn item_sizes_at_the_extremes() {
    let mut files = Files::plain(SIDE, SIDE);
    files.map = map_bytes(SIDE, SIDE, |_, _| (0, 0));
    type Runs = &'static [(u16, u16)];
    let sizes: [(u16, u16, Runs); 5] = [
        (0, 0, &[]),
        (1, 0x7FFF, &[(0, 1)]),
        (0x7FFF, 1, &[(0, 2000)]),
        (0xFFFF, 1, &[(0, 1)]),
        (2000, 2000, &[(0, 2000)]),
    ];
    let pictures: Vec<(u32, Pic)> = sizes
        .iter()
        .enumerate()
        .map(|(k, &(w, h, runs))| (0x4200 + k as u32, Pic::item(w, h, runs)))
        .collect();
    (files.artidx, files.art) = art_files(&pictures);
    // Each on its own tile of the diagonal, far apart.
    let placed: Vec<Placed> = (0..5u16)
        .map(|k| Placed {
            x: 4 + 6 * u32::from(k),
            y: 4 + 6 * u32::from(k),
            z: 0,
            id: 0x200 + k,
            hue: 0,
        })
        .collect();
    (files.staidx, files.statics) = statics_files(SIDE, SIDE, &placed);
    let (facet, art, tex) = (files.facet(), files.art(), files.texmaps());
    // The tall one's top at tile (10, 10), the wide one's left end at (16, 16), the big
    // one's top-left corner at (28, 28); the 0 x 0 at (4, 4) and 0xFFFF x 1 at (22, 22) are
    // never drawn anywhere, so the frame of the facet shows the big one only at (28, 28).
    let views = [
        (-10, 440 + 22 - 0x7FFF, 20, 400),
        (-16_383, 32 * 22 + 22 - 1, 100, 1),
        (-1000, 56 * 22 + 22 - 2000, 50, 50),
    ]
    .map(|(x, y, width, height)| WorldView {
        x,
        y,
        width,
        height,
    });
    let source = WorldSource::new(&facet, &art, Some(&tex)).unwrap();
    for view in views {
        let (pixels, counts) = both(&source, view);
        assert_eq!(counts.statics_drawn, 1, "{view:?}");
        assert!(opaque(&pixels) > 0);
    }
    // The frame spans x -704..704: the wide one's 2,000 opaque pixels lie west of it.
    let (_, counts) = both(&source, source.frame(None).unwrap());
    assert_eq!(
        counts.statics_drawn, 2,
        "1 x 0x7FFF and 2000 x 2000 reach the frame"
    );
    let limits = Limits::new().with_max_decoded_bytes(1 << 20);
    let small = WorldSource::with_limits(&facet, &art, Some(&tex), limits).unwrap();
    let (pixels, counts) = both(&small, views[2]);
    assert_eq!(
        (counts.statics_drawn, opaque(&pixels)),
        (0, 0),
        "2000 x 2000 passes 1 MiB"
    );
}
