//! Views are `Send + Sync` (checked at compile time), and the parallel queries give the
//! sequential answers when several threads run them at once over the same views.

use mul_core::synth::World;
use mul_core::{
    DiffIndex, Error, ErrorKind, Facet, FacetBytes, FacetData, FacetFiles, Hues, Map, MapChunk,
    MapSize, Multis, RadarColours, StaticSlice, Statics, TileData, TileFlags, Uop, UopEntry,
    facet::query,
};

const fn send_sync<T: Send + Sync>() {}

#[test]
fn every_public_view_is_send_and_sync() {
    const _: () = {
        send_sync::<Map<'static>>();
        send_sync::<Statics<'static>>();
        send_sync::<StaticSlice<'static>>();
        send_sync::<Facet<'static>>();
        send_sync::<FacetFiles>();
        send_sync::<FacetData>();
        send_sync::<TileData<'static>>();
        send_sync::<RadarColours<'static>>();
        send_sync::<Hues<'static>>();
        send_sync::<Multis<'static>>();
        send_sync::<Uop<'static>>();
        send_sync::<UopEntry<'static>>();
        send_sync::<MapChunk>();
        send_sync::<DiffIndex>();
        send_sync::<Error>();
        send_sync::<ErrorKind>();
    };
}

#[test]
fn parallel_queries_from_several_threads_at_once_agree_with_the_sequential_ones() {
    let world = World::generate(MapSize::from_blocks(32, 24).unwrap(), 7);
    let tiledata = TileData::parse(&world.tiledata).unwrap();
    let mut facet = Facet::parse(
        FacetBytes {
            map: &world.map,
            staidx: &world.staidx,
            statics: &world.statics,
        },
        world.size,
        None,
    )
    .unwrap();
    facet.tiledata = Some(tiledata);
    let facet = facet;
    let blocks = world.size.blocks();
    let land = query::land_stats(&facet.map);
    let statics = query::statics_stats(&facet.statics, blocks);
    let wanted = |s: &mul_core::raw::StaticRecord| facet.has_flags(s, TileFlags::IMPASSABLE);
    let found = query::find_statics(&facet.statics, world.size, wanted);
    assert!(!found.is_empty() && statics.count > 0);
    std::thread::scope(|scope| {
        let runs: Vec<_> = (0..4)
            .map(|_| {
                scope.spawn(|| {
                    (
                        query::land_stats_par(&facet.map),
                        query::statics_stats_par(&facet.statics, blocks),
                        query::find_statics_par(&facet.statics, world.size, wanted),
                    )
                })
            })
            .collect();
        for run in runs {
            let (l, s, f) = run.join().unwrap();
            assert_eq!(l, land);
            assert_eq!(s, statics);
            assert_eq!(f, found);
        }
    });
}
