//! The order and cull rules one at a time, on a flat patch of the crafted land with only the
//! statics each test places, the winner of each overlap reasoned by hand from the rule (not
//! from the expectation or the library): the priority z of `Chunk.AddGameObject`, the
//! statics drawn the older way after the mesh (`RenderLists.DrawRenderLists`,
//! `ChunkMesh.IsStaticExcludedFromMesh`), and the height cull of `CalculateObjectHeight`
//! (files under `src/ClassicUO.Client/`).

use gamedata_render::uo::world::{WorldSource, WorldView};

use super::build::{
    ANIMATED, BACK, BEAM, BOX, Crafted, FERN, MOVER, PLAIN, Placed, crafted_with, item_pixel,
    item_size,
};
use super::raster::rgb8;

/// A flat grass tile of the crafted land, away from its features.
const AT: (usize, usize) = (24, 24);

/// The world with `statics` on tile `AT`, in this file order.
fn world(statics: &[(i8, u16)]) -> Crafted {
    crafted_with(
        statics
            .iter()
            .map(|&(z, id)| Placed {
                x: AT.0,
                y: AT.1,
                z,
                id,
                hue: 0,
            })
            .collect(),
    )
}

/// Where item `id` at height `z` on `AT` has its picture's top-left corner on the screen
/// (docs: `View.DrawStatic`).
fn corner(id: u16, z: i8) -> (i64, i64) {
    let (w, h) = item_size(id);
    let (x, y) = (AT.0 as i64, AT.1 as i64);
    (
        (x - y) * 22 - i64::from(w) / 2,
        (x + y) * 22 - 4 * i64::from(z) + 22 - i64::from(h),
    )
}

/// A screen pixel where both `a` (at `za`) and `b` (at `zb`) have an opaque pixel of
/// different colours, and those two colours.
fn overlap(a: (u16, i8), b: (u16, i8)) -> ((i64, i64), [u8; 3], [u8; 3]) {
    let (ca, cb) = (corner(a.0, a.1), corner(b.0, b.1));
    let (wa, ha) = item_size(a.0);
    for j in 0..ha {
        for i in 0..wa {
            let (x, y) = (ca.0 + i64::from(i), ca.1 + i64::from(j));
            let (bi, bj) = (x - cb.0, y - cb.1);
            let (wb, hb) = item_size(b.0);
            if bi < 0 || bj < 0 || bi >= i64::from(wb) || bj >= i64::from(hb) {
                continue;
            }
            let pa = item_pixel(a.0, i, j);
            let pb = item_pixel(b.0, bi as u16, bj as u16);
            if pa != 0 && pb != 0 && rgb8(pa) != rgb8(pb) {
                return ((x, y), rgb8(pa), rgb8(pb));
            }
        }
    }
    panic!("{a:?} and {b:?} do not overlap with different colours");
}

/// The library's colour at screen pixel `p`.
fn drawn(world: &Crafted, p: (i64, i64)) -> [u8; 3] {
    let (facet, art, tex) = (world.facet(), world.art(), world.texmaps());
    let source = WorldSource::new(&facet, &art, Some(&tex)).expect("a source");
    let (image, _) = source
        .render(WorldView {
            x: p.0,
            y: p.1,
            width: 1,
            height: 1,
        })
        .expect("a pixel");
    let px = image.pixels();
    [px[0], px[1], px[2]]
}

/// `Chunk.AddGameObject`: a Background item's priority z is its z less 1, so a plain item
/// of the same z placed before it in the file still draws over it (by file order alone the
/// later one would).
#[test]
fn background_lowers_the_priority() {
    let w = world(&[(0, PLAIN), (0, BACK)]);
    let (p, plain, back) = overlap((PLAIN, 0), (BACK, 0));
    assert_eq!(drawn(&w, p), plain, "not the background's {back:?}");
}

/// `Chunk.AddGameObject`: an item with a height adds 1 to its priority z, so a box (height
/// 5) placed first draws over a plain item (height 0) of the same z placed after it.
#[test]
fn a_height_raises_the_priority() {
    let w = world(&[(0, BOX), (0, PLAIN)]);
    let (p, boxed, plain) = overlap((BOX, 0), (PLAIN, 0));
    assert_eq!(drawn(&w, p), boxed, "not the plain item's {plain:?}");
}

/// `Chunk.AddGameObject`: MultiMovable (tiledata bit 40) adds 1 to the priority z.
#[test]
fn multi_movable_raises_the_priority() {
    let w = world(&[(0, MOVER), (0, PLAIN)]);
    let (p, mover, plain) = overlap((MOVER, 0), (PLAIN, 0));
    assert_eq!(drawn(&w, p), mover, "not the plain item's {plain:?}");
}

/// `RenderLists.DrawRenderLists` draws the statics mesh before the statics drawn the older
/// way (`ChunkMesh.IsStaticExcludedFromMesh`: foliage, animated items): at equal depth the
/// fern and the animated item win though placed first.
#[test]
fn foliage_and_animated_items_draw_after_the_mesh() {
    let w = world(&[(0, FERN), (0, PLAIN)]);
    let (p, fern, plain) = overlap((FERN, 0), (PLAIN, 0));
    assert_eq!(drawn(&w, p), fern, "not the plain item's {plain:?}");
    // The animated item (height 4) and the box (height 5): both priority z 1.
    let w = world(&[(0, ANIMATED), (0, BOX)]);
    let (p, animated, boxed) = overlap((ANIMATED, 0), (BOX, 0));
    assert_eq!(drawn(&w, p), animated, "not the box's {boxed:?}");
}

/// `CalculateObjectHeight` halves a Bridge's height before the cull at 150: a beam of
/// height 120 at z 60 (priority z 61, plus 60) is drawn; at z 100 (101 plus 60) it is not,
/// and the land shows where it would be.
#[test]
fn a_bridge_s_height_is_halved_for_the_cull() {
    let (x, y) = corner(BEAM, 60);
    let (w, h) = item_size(BEAM);
    // An opaque pixel of the beam's picture.
    let (i, j) = (0..h)
        .flat_map(|j| (0..w).map(move |i| (i, j)))
        .find(|&(i, j)| item_pixel(BEAM, i, j) != 0)
        .expect("an opaque pixel");
    let at60 = (x + i64::from(i), y + i64::from(j));
    assert_eq!(
        drawn(&world(&[(60, BEAM)]), at60),
        rgb8(item_pixel(BEAM, i, j))
    );
    let (x, y) = corner(BEAM, 100);
    let at100 = (x + i64::from(i), y + i64::from(j));
    let culled = world(&[(100, BEAM)]);
    let bare = world(&[]);
    assert_eq!(drawn(&culled, at100), drawn(&bare, at100));
    assert_ne!(drawn(&culled, at100), rgb8(item_pixel(BEAM, i, j)));
}

/// The client's draw order across blocks (`GameScene.GetViewPort`: block columns outer,
/// rows inner; `ChunkMesh.Build`: cells x outer): of two trees of equal depth on tiles
/// (23, 24) (block (2, 3)) and (24, 23) (block (3, 2)), the second is drawn later and
/// shows where their pictures overlap.
#[test]
fn equal_depths_across_blocks_follow_the_block_order() {
    use super::build::TREE;
    let place = |x, y| Placed {
        x,
        y,
        z: 0,
        id: TREE,
        hue: 0,
    };
    let w = crafted_with(vec![place(24, 23), place(23, 24)]);
    let (tw, th) = item_size(TREE);
    let left = |x: i64, y: i64| (x - y) * 22 - i64::from(tw) / 2;
    let top = 47 * 22 + 22 - i64::from(th);
    let (a, b) = (left(23, 24), left(24, 23));
    // A pixel both pictures cover, opaque in both and of different colours.
    let (sx, sy, want) = (b..a + i64::from(tw))
        .flat_map(|x| (0..i64::from(th)).map(move |j| (x, j)))
        .find_map(|(x, j)| {
            let pa = item_pixel(TREE, (x - a) as u16, j as u16);
            let pb = item_pixel(TREE, (x - b) as u16, j as u16);
            (pa != 0 && pb != 0 && rgb8(pa) != rgb8(pb)).then_some((x, top + j, rgb8(pb)))
        })
        .expect("an overlap");
    assert_eq!(drawn(&w, (sx, sy)), want);
}

/// `WorldTiles`, the pyramid's source: the tiles of the crafted world's plane are drawn
/// and written, those no block reaches are neither (`TileSource::is_empty`), and each
/// native tile is the picture of its 256 x 256 screen pixels.
#[test]
fn the_world_pyramid_writes_the_tiles_the_world_reaches() {
    use gamedata_render::tiles::{Levels, build_pyramid};
    use gamedata_render::uo::world::WorldTiles;
    use gamedata_render::{Region, TileSource};
    use std::sync::Mutex;
    let w = world(&[]);
    let (facet, art, tex) = (w.facet(), w.art(), w.texmaps());
    let source = WorldSource::new(&facet, &art, Some(&tex)).expect("a source");
    let tiles = WorldTiles::new(&source, 1).expect("tiles");
    let (width, height) = tiles.size();
    let levels = Levels::new(width, height, None).expect("levels");
    let (across, down) = levels.tiles_at(levels.native);
    // A 64 x 64 facet's plane is a diamond: its corner tiles lie outside it.
    assert!(tiles.is_empty(Region::new(0, 0, 256, 256)));
    let middle = Region::new(256 * (across as u32 / 2), 256 * (down as u32 / 2), 256, 256);
    assert!(!tiles.is_empty(middle));
    let written = Mutex::new(Vec::new());
    let count = build_pyramid::<gamedata_render::RenderError>(&tiles, levels, &|z, x, y, t| {
        if z == levels.native {
            written
                .lock()
                .expect("a lock")
                .push((x, y, t.pixels().to_vec()));
        }
        Ok(())
    })
    .expect("a pyramid");
    let written = written.into_inner().expect("the tiles");
    assert!(count > written.len() as u64 && !written.is_empty());
    assert!(
        written.len() < (across * down) as usize,
        "the empty corners are left out"
    );
    let frame = tiles.frame();
    for (x, y, pixels) in written.iter().step_by(7) {
        let (image, _) = source
            .render(WorldView {
                x: frame.x + 256 * *x as i64,
                y: frame.y + 256 * *y as i64,
                width: 256,
                height: 256,
            })
            .expect("a view");
        assert_eq!(image.pixels(), &pixels[..], "tile ({x}, {y})");
        assert!(pixels.chunks(4).any(|p| p[3] != 0));
    }
}
