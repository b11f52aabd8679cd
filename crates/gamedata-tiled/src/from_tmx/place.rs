//! The objects read put in their planes: those added in Tiled given their nearest
//! exported neighbour's plane and z at the end of their layer, then each plane's exported
//! objects by `wwd_order` and its added ones after them, reordered where they are so that
//! the objects are not held twice.

use wap_core::{ObjectData, PlaneData};

use super::element::bad;
use super::objects::{Objects, Place};
use crate::TiledError;

impl Objects<'_> {
    /// Gives each object added in Tiled among those from `first` on (one layer's objects)
    /// the plane and z of the nearest exported object of the layer: the previous one, else
    /// the next. Two passes, so that many added objects cost no more than one look each.
    pub(super) fn settle_added(&mut self, first: usize) {
        fn settle(p: &mut Place<'_>, o: &mut ObjectData, near: Option<(Option<u32>, i32)>) {
            if let Some((plane, z)) = near {
                p.plane = plane;
                if !p.z_given {
                    o.fixed.z.set(z);
                }
            }
        }
        let places = self.places.get_mut(first..).unwrap_or_default();
        let data = self.data.get_mut(first..).unwrap_or_default();
        // The previous exported object, for those that have one.
        let mut previous = None;
        let mut settled = vec![false; places.len()];
        for ((p, o), done) in places.iter_mut().zip(data.iter_mut()).zip(&mut settled) {
            if p.order.is_some() {
                previous = Some((p.plane, o.fixed.z.get()));
            } else if previous.is_some() {
                settle(p, o, previous);
                *done = true;
            }
        }
        // The next one, for those before the layer's first exported object.
        let mut next = None;
        for ((p, o), done) in places.iter_mut().zip(data.iter_mut()).zip(&settled).rev() {
            if p.order.is_some() {
                next = Some((p.plane, o.fixed.z.get()));
            } else if !done {
                settle(p, o, next);
            }
        }
    }

    /// Puts the objects in their planes: each plane's exported objects by `wwd_order`,
    /// then those added in Tiled in the map's order, each given an id above the level's
    /// largest unless it has one; an added object with no plane found goes to the main
    /// plane.
    ///
    /// The objects are reordered where they are and the plane with the most keeps their
    /// list, so that the objects are not held twice.
    pub(super) fn place(mut self, planes: &mut [PlaneData]) -> Result<(), TiledError> {
        let main = planes
            .iter()
            .position(|p| p.header.flags.get() & 0x1 != 0)
            .and_then(|m| u32::try_from(m).ok());
        let mut next_id = self
            .data
            .iter()
            .map(|o| o.fixed.id.get())
            .max()
            .unwrap_or(0);
        let mut plane_of = Vec::with_capacity(self.places.len());
        for (index, (p, o)) in self.places.iter().zip(self.data.iter_mut()).enumerate() {
            if !p.id_given {
                next_id = match next_id.checked_add(1) {
                    Some(id) => id,
                    None => {
                        return Err(bad(
                            self.what(index),
                            "no id left above the level's largest",
                            "an id below 2^31",
                        ));
                    }
                };
                o.fixed.id.set(next_id);
            }
            match p.plane.or(main) {
                Some(plane) => plane_of.push(plane),
                None => {
                    return Err(bad(
                        self.what(index),
                        "no plane flagged main (0x1) to add it to",
                        "a main plane",
                    ));
                }
            }
        }
        let count = planes.len();
        let mut sizes = vec![0usize; count];
        for &plane in &plane_of {
            match usize::try_from(plane).ok().and_then(|p| sizes.get_mut(p)) {
                Some(n) => *n = n.saturating_add(1),
                None => {
                    let lowest = plane_of
                        .iter()
                        .filter(|&&p| usize::try_from(p).map_or(true, |p| p >= count))
                        .min()
                        .copied()
                        .unwrap_or(plane);
                    return Err(bad(
                        format!("an object's wwd_plane {lowest}"),
                        format!("{count} planes"),
                        "one of the map's tile layers",
                    ));
                }
            }
        }
        // The plane with the most objects first, then the others in order; in a plane its
        // exported objects by `wwd_order`, then the added ones in the map's order.
        let largest = sizes
            .iter()
            .enumerate()
            .max_by_key(|&(p, n)| (*n, std::cmp::Reverse(p)))
            .map_or(0, |(p, _)| p);
        let mut by = (0..self.data.len()).collect::<Vec<usize>>();
        by.sort_unstable_by_key(|&i| {
            let plane = plane_of.get(i).copied().unwrap_or(0);
            let order = self.places.get(i).and_then(|p| p.order);
            (
                usize::try_from(plane) != Ok(largest),
                plane,
                order.is_none(),
                order.unwrap_or(0),
                i,
            )
        });
        drop(plane_of);
        self.places = Vec::new();
        permute(&mut self.data, &by);
        drop(by);
        // Each plane's objects from the end of the list (the largest plane's stay).
        let mut objects = self.data;
        for (index, (plane, &n)) in planes.iter_mut().zip(&sizes).enumerate().rev() {
            if index != largest {
                let at = objects.len().saturating_sub(n);
                plane.objects = objects.split_off(at);
            }
        }
        objects.shrink_to_fit();
        if let Some(p) = planes.get_mut(largest) {
            p.objects = objects;
        }
        Ok(())
    }
}

/// Reorders `items` so that item `k` is the one that was at `from[k]`, in place (`from` a
/// permutation of the indices).
fn permute<T>(items: &mut [T], from: &[usize]) {
    let mut done = vec![false; items.len()];
    for start in 0..items.len() {
        if done.get(start).copied().unwrap_or(true) {
            continue;
        }
        let mut at = start;
        loop {
            if let Some(d) = done.get_mut(at) {
                *d = true;
            }
            let Some(&source) = from.get(at) else {
                break;
            };
            if source == start {
                break;
            }
            items.swap(at, source);
            at = source;
        }
    }
}
