//! `gamedata_render::uo::world` against the expectation of `expect.rs` on the crafted
//! world: pixel-exact where the expectation's topmost fragment is flat land, a static or
//! nothing; within 1 a channel where it is stretched land (the texel chosen exactly, as
//! the docs state, so only the light's rounding may differ); and the counts. Each test names the ClassicUO source of its rule (files under
//! `src/ClassicUO.Client/` unless named otherwise).

use gamedata_render::uo::world::{WorldSource, WorldView};

use super::checks::world;
use super::expect::{Counts, Expected, Faults, Kind, Source, View};

/// The views: the whole facet, a view whose bottom edge cuts through the tall static's
/// art south of it, views at negative x, a view over the south and east edges, and small
/// views on each case.
pub(crate) const WHOLE: View = View {
    x: -1460,
    y: -600,
    width: 2940,
    height: 4000,
};
const TALL_CUT: View = View {
    x: -1100,
    y: 1300,
    width: 200,
    height: 150,
};

fn view(x: i64, y: i64, width: u32, height: u32) -> View {
    View {
        x,
        y,
        width,
        height,
    }
}

/// The expectation of `v`, with `faults`.
fn expected(v: View, faults: Faults) -> Expected {
    let w = world();
    let (facet, art, tex) = (w.facet(), w.art(), w.texmaps());
    let source = Source {
        facet: &facet,
        art: &art,
        texmaps: Some(&tex),
    };
    source.render(v, faults)
}

/// The library's picture and counts of `v`.
fn library(v: View) -> (Vec<u8>, (u32, u32), Counts) {
    let w = world();
    let (facet, art, tex) = (w.facet(), w.art(), w.texmaps());
    let source = WorldSource::new(&facet, &art, Some(&tex)).expect("the world source");
    let (image, counts) = source
        .render(WorldView {
            x: v.x,
            y: v.y,
            width: v.width,
            height: v.height,
        })
        .expect("the view renders");
    let size = (image.width(), image.height());
    let counts = Counts {
        tiles_drawn: counts.tiles_drawn,
        statics_drawn: counts.statics_drawn,
        stretched: counts.stretched,
    };
    (image.pixels().to_vec(), size, counts)
}

/// The differences between a picture and the expectation: up to 10 described, and the
/// count.
fn differences(e: &Expected, got: &[u8]) -> (usize, Vec<String>) {
    let mut count = 0;
    let mut shown = Vec::new();
    for (k, (want, have)) in e.pixels.chunks(4).zip(got.chunks(4)).enumerate() {
        let tol = e.tolerance[k];
        let ok = want.iter().zip(have).all(|(a, b)| a.abs_diff(*b) <= tol);
        if !ok {
            count += 1;
            if shown.len() < 10 {
                let (i, j) = (k % e.width as usize, k / e.width as usize);
                shown.push(format!(
                    "pixel ({i}, {j}): expected {want:?} ({:?}), got {have:?}",
                    e.kind[k]
                ));
            }
        }
    }
    (count, shown)
}

/// The library's picture of `v` against the expectation, and its counts.
fn assert_view(v: View) -> Expected {
    let e = expected(v, Faults::default());
    let (got, size, counts) = library(v);
    assert_eq!(size, (e.width, e.height), "the picture's size");
    assert_eq!(got.len(), e.pixels.len());
    let (count, shown) = differences(&e, &got);
    assert!(
        count == 0,
        "{count} pixels differ in {v:?}:\n{}",
        shown.join("\n")
    );
    assert_eq!(counts, e.counts, "the counts of {v:?}");
    e
}

/// The expectation with a fault differs from the faultless one in `v`: each comparison
/// can fail.
fn assert_fault_shows(v: View, faults: Faults) {
    let good = expected(v, Faults::default());
    let bad = expected(v, faults);
    let (count, _) = differences(&good, &bad.pixels);
    assert!(count > 0, "{faults:?} changes nothing in {v:?}");
}

fn kinds(e: &Expected, kind: Kind) -> usize {
    e.kind.iter().filter(|&&k| k == kind).count()
}

/// The whole facet: every rule at once. Sources: `Game/Scenes/RenderLists.cs`,
/// `DrawRenderLists`; `Game/Map/ChunkMesh.cs`, `Build`, `TryAddLand`,
/// `TryAddStaticLike`; `Game/Map/Chunk.cs`, `Chunk.AddGameObject`.
#[test]
fn world_whole_facet_matches_expectation() {
    let e = assert_view(WHOLE);
    for kind in [Kind::Nothing, Kind::Flat, Kind::Stretched, Kind::Static] {
        assert!(kinds(&e, kind) > 0, "{kind:?} appears");
    }
    // The whole facet holds 64 x 64 tiles less the four of ids 0..2, less the cliff
    // faces round the plateau whose two triangles both fold over.
    assert!(e.counts.tiles_drawn < 64 * 64 - 4 && e.counts.tiles_drawn > 4000);
}

/// Where a tile and a static go: `Game/GameObjects/GameObject.cs`,
/// `UpdateRealScreenPosition`; `Game/GameObjects/Views/View.cs`, `DrawStatic`. The tall
/// static's art (230 rows) reaches up into a view whose bottom edge lies above its tile.
#[test]
fn world_tall_static_crosses_the_bottom_edge() {
    let e = assert_view(TALL_CUT);
    assert!(kinds(&e, Kind::Static) > 0 && e.counts.statics_drawn >= 1);
}

/// Views at negative x (and y), odd sizes: `GameObject.UpdateRealScreenPosition`.
#[test]
fn world_views_at_negative_x() {
    assert_view(view(-900, 1250, 333, 301));
    assert_view(view(-1, 1290, 50, 40));
    assert_view(view(-1460, -600, 97, 83));
}

/// Flat land: `Game/GameObjects/Land.cs`, `Land.ApplyStretch` (all four neighbourhoods
/// flat); `src/ClassicUO.Assets/ArtLoader.cs`, `LoadLand` (colour 0 opaque).
#[test]
fn world_flat_land_is_its_art() {
    let e = assert_view(view(-200, 1200, 200, 200));
    assert!(kinds(&e, Kind::Flat) > 0);
}

/// Slopes rising in four directions, 64 and 128 texture maps, the light:
/// `Land.ApplyStretch`, `Land.CalculateNormal`; `Game/Map/ChunkMesh.cs`,
/// `WriteStretchedLand`; `src/ClassicUO.Renderer/shaders/IsometricWorld.fx`, `get_light`.
#[test]
fn world_stretched_slopes_and_light() {
    // The pyramid (12, 12): x - y = 0, x + y = 24; z up to 20.
    let e = assert_view(view(-120, 350, 240, 250));
    assert!(kinds(&e, Kind::Stretched) > 1000 && e.counts.stretched > 20);
    // The single raised corner (40, 8).
    assert_view(view(600, 920, 120, 140));
    assert_fault_shows(
        view(-120, 350, 240, 250),
        Faults {
            other_diagonal: true,
            ..Faults::default()
        },
    );
}

/// Cliffs: a pit and a spike fold a triangle over, which is culled
/// (`src/ClassicUO.Renderer/Batcher2D.cs`, `CullMode.CullCounterClockwiseFace`,
/// `GenerateIndexArray`); a plateau 30 high.
#[test]
fn world_cliffs_fold_and_cull() {
    // Pit (30, 40): x - y = -10, x + y = 70; spike (36, 40); plateau (44..50, 36..42).
    assert_view(view(-300, 1400, 220, 260));
    assert_view(view(-200, 1480, 120, 200));
    assert_view(view(-60, 1500, 260, 360));
}

/// Wet land with TexID 0 never stretches; wet with a TexID does; an empty texture map
/// never does: `Land.Create` (`IsStretched = TexID == 0 && IsWet`), `Land.ApplyStretch`.
#[test]
fn world_wet_and_missing_texture_maps() {
    // The ramp (20..28, 4..8): x - y 12..24, x + y 24..36.
    let e = assert_view(view(230, 480, 320, 320));
    assert!(kinds(&e, Kind::Flat) > 0 && kinds(&e, Kind::Stretched) > 0);
    // Flat water (50..53, 10..12).
    assert_view(view(780, 1250, 160, 120));
}

/// Land ids 0 to 2 are not drawn: `Land.Create` (`AllowedToDraw = Graphic > 2`).
#[test]
fn world_land_ids_0_to_2_not_drawn() {
    // (2..4, 40): x - y -38..-36, x + y 42..44.
    let e = assert_view(view(-880, 880, 120, 120));
    assert!(kinds(&e, Kind::Nothing) > 0);
}

/// `Map.GetTileZ` (`Game/Map/Map.cs`) at the south and east edges, with the wrap past
/// the south edge into the next block column.
#[test]
fn world_edges_and_wrap() {
    // South edge (x, 63) for x 8..16: x - y -55..-47, x + y 71..79.
    assert_view(view(-1250, 1480, 260, 800));
    // East edge (63, y): x - y 33..63.
    assert_view(view(700, 600, 760, 1600));
    // North-west corner: negative neighbours.
    assert_view(view(-80, -80, 160, 160));
}

/// Statics of one tile sorted by priority z (background, height, surface, multi-movable)
/// and, at equal priority, by file order: `Game/Map/Chunk.cs`, `Chunk.AddGameObject`;
/// `View.cs`, `CalculateDepthZ`.
#[test]
fn world_static_stacks_and_priorities() {
    // (10, 50): x - y -40, x + y 60; (10, 54); (20, 56).
    assert_view(view(-950, 1200, 140, 140));
    assert_view(view(-1000, 1270, 140, 160));
    assert_view(view(-850, 1580, 120, 160));
    assert_fault_shows(
        view(-850, 1580, 120, 160),
        Faults {
            earlier_wins: true,
            ..Faults::default()
        },
    );
}

/// A tree and foliage (drawn the older way, after the mesh) win depth ties with meshed
/// statics: `ChunkMesh.IsStaticExcludedFromMesh`, `Game/Data/StaticFilters.cs`
/// (`treeTiles`), `RenderLists.DrawRenderLists`; their 0x8000 hue is partial
/// (`src/ClassicUO.Renderer/ShaderHueTranslator.cs`, `GetHueVector`).
#[test]
fn world_trees_and_foliage_after_the_mesh() {
    // (12, 50) and (14, 50).
    assert_view(view(-900, 1240, 140, 160));
    assert_fault_shows(
        view(-900, 1240, 140, 160),
        Faults {
            earlier_wins: true,
            ..Faults::default()
        },
    );
}

/// Hues full, partial by tiledata, past hues.mul (black), 0x8003 on a meshed static
/// (full): `Game/Scenes/GameSceneDrawingSorting.cs`, `ApplyMeshHue`;
/// `IsometricWorld.fx`, `PixelShader_Hue`; `src/ClassicUO.Assets/HuesLoader.cs`.
#[test]
fn world_hues() {
    // (16..22, 52).
    assert_view(view(-830, 1440, 200, 200));
}

/// Translucent statics at 178 / 255: `GameSceneDrawingSorting.cs`, `ProcessAlpha`,
/// `CalculateAlpha`; over flat land and over stretched land.
#[test]
fn world_translucent() {
    assert_view(view(-650, 1640, 60, 60));
    // GLASS on the pyramid at (11, 13), z 15: (-66, 446).
    assert_view(view(-80, 430, 80, 80));
}

/// Statics never drawn: ids 0x0001, 0x21BC, 0x2198, NoDiagonal, "nodraw" names
/// (`GameObject.CanBeDrawn`), Internal (`ChunkMesh.IsStaticExcludedFromMesh`,
/// `GameSceneDrawingSorting.AddTileToRenderList`), and a record outside its block
/// (`Game/Map/Chunk.cs`, `Chunk.Load`).
#[test]
fn world_statics_not_drawn() {
    // (26..36, 52): x - y -26..-16, x + y 78..88.
    assert_view(view(-620, 1660, 320, 320));
    // Block (1, 6)'s record at x = 9, y = 1: neither on (17, 49) at (-726, 1430) nor on
    // cell 17's (9, 50) at (-924, 1276).
    assert_view(view(-960, 1230, 280, 260));
}

/// The height cull at 150 (`GameSceneDrawingSorting.cs`, `CalculateObjectHeight`,
/// `ProcessStaticLikeTail`, `AddTileToRenderList`): bridge halves, 255 never culls, a
/// culled tree hides the rest of its tile, a culled meshed static only itself.
#[test]
fn world_height_cull() {
    // (40..48, 52..54) at z 100..127: x - y -12..-4, x + y 92..100, 4 z up to 508.
    assert_view(view(-330, 1250, 300, 500));
}

/// The expectation's faults show in the whole facet: the comparison can fail.
#[test]
fn world_faults_show() {
    let diagonal = Faults {
        other_diagonal: true,
        ..Faults::default()
    };
    let ties = Faults {
        earlier_wins: true,
        ..Faults::default()
    };
    assert_fault_shows(view(-120, 350, 240, 250), diagonal);
    assert_fault_shows(view(600, 920, 120, 140), diagonal);
    assert_fault_shows(view(-900, 1200, 400, 500), ties);
    assert_fault_shows(WHOLE, diagonal);
}
