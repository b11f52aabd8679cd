//! The fuzz properties of the gamedata crates, kept out of the libraries: what the fuzz
//! targets in `fuzz/` check and what the replay tests (`tests/it/fuzz_regressions.rs`,
//! `tests/bounds/sweeps.rs` of each reader) run, so that both run exactly the same code.
//!
//! Each function takes arbitrary bytes (`fn(&[u8]) -> u64`), runs a reader or renderer
//! over them and asserts properties of what it read or drew. It returns a number derived
//! from that work, so that it cannot be optimised away; errors of the readers are results,
//! not failures.
//!
//! | module | reading paths of | fuzz targets |
//! |---|---|---|
//! | [`io`] | `gamedata-io`: the cursor, the decoding limits; [`io::split_parts`] and [`io::join_parts`], the form of multi-file inputs | `io_*` |
//! | [`cosmo`] | `mni-core`: group files, TILEATTR.MNI, maps, tiles, sprites, episodes, round trips | `cosmo_*` but `cosmo_draw`, `cosmo_level` |
//! | [`uo`] | `mul-core`: tiledata, maps, statics, multis, art (with its pictures), texture maps, colours, UOP containers, map sizes, facets with diffs, client folders, round trips | `uo_*` but `uo_radar` |
//! | [`wwd`] | `wap-core`: levels, main blocks, REZ archives, image names, ANI, PID, round trips | `wwd_*` but `wwd_collision`, `wwd_level_picture` |
//! | [`tiled`] | `gamedata-tiled`: a level read back from a TMX or TMJ map | `tiled_from_tmx`, `tiled_from_tmj` |
//! | [`render`] | `gamedata-render`: the radar map, collision maps, level pictures, Cosmo maps and levels | `uo_radar`, `wwd_collision`, `wwd_level_picture`, `cosmo_draw`, `cosmo_level` |
//!
//! The examples `write_{io,mni,mul,wap,render,tiled}_fuzz_seeds` write the targets' seed inputs
//! (synthetic files, this project's own) under a folder, `fuzz/seeds/` by default:
//! `cargo run -p gamedata-exercise --example write_mul_fuzz_seeds -- fuzz/seeds`.
//!
//! Not a library to build on: it depends on every reader (with their `write` features) and
//! is not published.
//!
//! # Panics
//!
//! On purpose, when a property does not hold: that is a bug in a reader or renderer, and a
//! fuzz run reports it (clippy's `panic`, `expect_used` and `arithmetic_side_effects` are
//! allowed in each module for that reason). Never otherwise, on any input.

// As in the libraries this code comes from: denied, and allowed module by module where the
// sums only keep results alive.
#![deny(clippy::arithmetic_side_effects)]

pub mod cosmo;
pub mod io;
pub mod render;
pub mod tiled;
pub mod uo;
pub mod wwd;
