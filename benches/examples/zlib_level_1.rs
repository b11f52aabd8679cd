//! The pictures' yardstick as a process would pay it: decodes a PNG (not timed), then times
//! one C zlib level-1 pass (`compress2`, one thread) over its raw RGBA (an RGB PNG's pixels
//! made RGBA, opaque), best of three, and
//! prints `SECONDS BYTES_IN BYTES_OUT` on one line. `benches/render.sh` sets it beside each
//! render command.
//!
//! ```sh
//! cargo run --release -p gamedata-benches --example zlib_level_1 -- picture.png
//! ```

// A measuring tool: a bad argument ends it.
#![allow(clippy::unwrap_used, clippy::expect_used, missing_docs)]

use std::time::Instant;

fn main() {
    let path = std::env::args_os()
        .nth(1)
        .expect("usage: zlib_level_1 PICTURE.png");
    // The picture's RGBA whatever the PNG stores: an opaque picture stored as RGB (radar
    // maps) gets its alpha back.
    let bytes = std::fs::read(&path).unwrap();
    let raw = gamedata_render::RgbaImage::from_png(&bytes)
        .unwrap()
        .into_pixels();
    let mut out = vec![0u8; raw.len() + raw.len() / 1000 + 64];
    let mut best = f64::MAX;
    let mut written = 0;
    for _ in 0..3 {
        let mut len = out.len() as libz_sys::uLongf;
        let start = Instant::now();
        // SAFETY: `out` holds `len` bytes and `raw` `raw.len()`; compress2 writes at most
        // `len` bytes into `out` (zlib's compressBound for these sizes is below it) and
        // sets `len` to what it wrote.
        #[allow(unsafe_code)]
        let status = unsafe {
            libz_sys::compress2(
                out.as_mut_ptr(),
                &mut len,
                raw.as_ptr(),
                raw.len() as libz_sys::uLong,
                1,
            )
        };
        best = best.min(start.elapsed().as_secs_f64());
        assert_eq!(status, libz_sys::Z_OK);
        written = len;
    }
    println!("{best:.3} {} {written}", raw.len());
}
