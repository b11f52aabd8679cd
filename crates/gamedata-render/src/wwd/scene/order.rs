//! The order the engine draws a level's planes and objects in (gruntz-decomp
//! `src/Gruntz/GameLevel.cpp`, `CGameLevel::VisitVisible`).

use super::layers::Layer;

/// A layer and where it goes: a plane's index and z, or an object's z and place in the
/// level.
pub(super) enum Placed<'l> {
    Plane {
        index: usize,
        z: i32,
        layer: Option<Layer<'l>>,
    },
    Object {
        z: i32,
        layer: Layer<'l>,
    },
}

/// The layers in the engine's order (gruntz-decomp `src/Gruntz/GameLevel.cpp`,
/// `CGameLevel::VisitVisible`): objects sorted by z, equal z in the level's order; with
/// the header's z flag, plane 0, then before each later plane the objects whose z is below
/// its z, then the plane, the other objects last; without it, the planes up to the main
/// plane (`main`, its index), the objects, the other planes. `planes` are in the level's
/// order, each with its index and z (with or without a layer to draw).
pub(super) fn engine_order<'l>(
    planes: Vec<Placed<'l>>,
    objects: Vec<Placed<'l>>,
    uses_z: bool,
    main: Option<usize>,
) -> Vec<Layer<'l>> {
    let mut objects: Vec<(i32, Layer<'l>)> = objects
        .into_iter()
        .filter_map(|o| match o {
            Placed::Object { z, layer } => Some((z, layer)),
            Placed::Plane { .. } => None,
        })
        .collect();
    // Stable: equal z keep the level's order.
    objects.sort_by_key(|(z, _)| *z);
    let mut objects = objects.into_iter().peekable();
    let mut out = Vec::new();
    for (position, placed) in planes.into_iter().enumerate() {
        let Placed::Plane { index, z, layer } = placed else {
            continue;
        };
        if uses_z {
            if position > 0 {
                while let Some((_, o)) = objects.next_if(|(oz, _)| *oz < z) {
                    out.push(o);
                }
            }
        } else if main.is_some_and(|m| index > m) {
            out.extend(objects.by_ref().map(|(_, o)| o));
        }
        out.extend(layer);
    }
    out.extend(objects.map(|(_, o)| o));
    out
}
