//! Diff patches for a generated world: mapdifl/mapdif and stadifl/stadifi/stadif files that
//! patch chosen blocks (`docs/formats/uo.md`, "Diff patches").

// Generators: their arithmetic is on the caller's sizes and on small constants, never on
// values read from a file.
#![allow(clippy::arithmetic_side_effects)]

use std::fmt;

use gamedata_io::{PreviewBytes, PreviewTable};

use rand_chacha::ChaCha8Rng;
use rand_core::{RngCore, SeedableRng};
use zerocopy::IntoBytes;

use super::{World, item, land, record};

/// Diff files made by [`World::diffs`], in memory.
#[derive(Clone, Default)]
pub struct Diffs {
    /// mapdifl{N}.mul.
    pub mapdifl: Vec<u8>,
    /// mapdif{N}.mul.
    pub mapdif: Vec<u8>,
    /// stadifl{N}.mul.
    pub stadifl: Vec<u8>,
    /// stadifi{N}.mul.
    pub stadifi: Vec<u8>,
    /// stadif{N}.mul.
    pub stadif: Vec<u8>,
    /// The blocks patched, ascending.
    pub blocks: Vec<usize>,
}

impl fmt::Debug for Diffs {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Diffs")
            .field("mapdifl", &PreviewBytes(&self.mapdifl))
            .field("mapdif", &PreviewBytes(&self.mapdif))
            .field("stadifl", &PreviewBytes(&self.stadifl))
            .field("stadifi", &PreviewBytes(&self.stadifi))
            .field("stadif", &PreviewBytes(&self.stadif))
            .field("blocks", &PreviewTable(&self.blocks))
            .finish()
    }
}

impl World {
    /// Diff files patching `k` blocks chosen from `seed` (fewer if the map is smaller):
    /// each patched block's land becomes [`land::LAVA`] at z 10, and its statics a single
    /// [`item::GOLD`] at cell (3, 3), z 10. The lists name the blocks in random order, and
    /// the first block is listed twice, its first entry (snow, no statics) overridden by the
    /// later one, as later entries win.
    pub fn diffs(&self, k: usize, seed: u64) -> Diffs {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let blocks = self.size.blocks();
        let mut chosen: Vec<usize> = Vec::new();
        let mut taken = std::collections::HashSet::new();
        while chosen.len() < k.min(blocks) {
            let b = usize::try_from(rng.next_u64() % blocks as u64).unwrap_or(0);
            if taken.insert(b) {
                chosen.push(b);
            }
        }
        let mut d = Diffs::default();
        let entry = |d: &mut Diffs, block: usize, id: u16, statics: bool| {
            let number = u32::try_from(block).unwrap_or(u32::MAX);
            d.mapdifl.extend_from_slice(&number.to_le_bytes());
            d.stadifl.extend_from_slice(&number.to_le_bytes());
            d.mapdif.extend_from_slice(&0u32.to_le_bytes());
            for _ in 0..64 {
                d.mapdif.extend_from_slice(&id.to_le_bytes());
                d.mapdif.push(10);
            }
            let offset = u32::try_from(d.stadif.len()).unwrap_or(u32::MAX);
            let (at, len) = if statics {
                d.stadif
                    .extend_from_slice(record(item::GOLD, 3, 3, 10, 0).as_bytes());
                (offset, 7u32)
            } else {
                (u32::MAX, 0)
            };
            for word in [at, len, 0] {
                d.stadifi.extend_from_slice(&word.to_le_bytes());
            }
        };
        if let Some(&first) = chosen.first() {
            entry(&mut d, first, land::SNOW, false);
        }
        for &block in &chosen {
            entry(&mut d, block, land::LAVA, true);
        }
        chosen.sort_unstable();
        d.blocks = chosen;
        d
    }
}
