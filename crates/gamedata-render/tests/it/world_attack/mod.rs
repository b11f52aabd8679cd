//! `gamedata_render::uo::world` attacked: hostile facets, art, tiledata and texture maps
//! (`build.rs` writes them byte by byte) and hostile views. Each test holds the outcome the
//! contract asks for: an error, or a bounded picture whose property is checked (all
//! transparent, counts of 0, render and write_png agreeing).

mod build;
mod data;
mod piles;
mod views;
