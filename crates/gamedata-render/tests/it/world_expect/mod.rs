//! ClassicUO's world view (issue 58) against an independent expectation: `expect.rs` draws
//! the rules of docs/formats/uo.md, "The client's world view (isometric)", by brute force,
//! on the crafted 64 x 64 facet of `build.rs`; `checks.rs` holds that expectation to facts
//! computed by hand, `compare.rs` holds the library's pictures to it.

mod build;
mod checks;
mod compare;
mod expect;
mod priorities;
mod raster;
