//! gamedata-render: the renderers' fuzz seeds and findings replayed with their properties,
//! the views' thread safety, and renders of the real files (ignored without
//! `GAMEDATA_DIR`).

// The one place this test crate allows what library code may not: a failed unwrap, expect,
// index or panic is a failed test.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::indexing_slicing,
    clippy::panic,
    clippy::cast_possible_truncation
)]

mod engine;
mod engine_anim;
mod export;
mod fuzz_regressions;
mod real_files;
mod scene;
mod scene_anim;
mod scene_api;
mod scene_rules;
mod scene_time;
mod threads;
mod world_attack;
mod world_expect;
