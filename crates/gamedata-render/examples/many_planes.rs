//! Writes a level of many full-size planes, the worst case of compositing: RETAIL01's
//! planes copied into `PLANES` planes of 1,445 x 481 tiles (the size of a large community
//! level's planes), their tiles repeated from the original's and each plane shifted, so
//! that every tile names an image of RETAIL01's sets (`claw_like_rez` draws them all). The
//! first plane is the background (its tiles, wrapping), the last the front (mostly
//! transparent), the main plane in the middle with RETAIL01's objects; the planes between
//! are copies of the action plane (opaque ground, transparent sky). What the README's
//! compositing figures are measured with:
//!
//! ```sh
//! cargo run --release -p gamedata-render --example many_planes -- \
//!     "$GAMEDATA_DIR/wwd/RETAIL01.WWD" target/MANY.WWD 12
//! gamedata wwd render target/MANY.WWD --rez target/CLAWLIKE.REZ --tile-px 16 -o many.png
//! ```

use std::path::PathBuf;

use wap_core::write::{LevelData, PlaneData};
use zerocopy::little_endian::{I32, U32};

/// Tiles across and down of every plane.
const WIDE: u32 = 1445;
const HIGH: u32 = 481;

/// `from`'s tiles repeated over a `WIDE` x `HIGH` grid, shifted by `shift` tiles.
fn repeated(from: &PlaneData, shift: u32) -> Vec<u32> {
    let (w, h) = (
        from.header.tiles_wide.get().max(1).unsigned_abs(),
        from.header.tiles_high.get().max(1).unsigned_abs(),
    );
    let mut tiles = Vec::with_capacity((WIDE * HIGH) as usize);
    for y in 0..HIGH {
        for x in 0..WIDE {
            let (sx, sy) = ((x + shift) % w, (y + shift / 3) % h);
            let at = (sy * w + sx) as usize;
            tiles.push(from.tiles.get(at).copied().unwrap_or(u32::MAX));
        }
    }
    tiles
}

/// A copy of `from` resized to `WIDE` x `HIGH` tiles, named `name`, at `z`.
fn plane(from: &PlaneData, name: &str, z: i32, shift: u32, keep_objects: bool) -> PlaneData {
    let mut plane = from.clone();
    plane.tiles = repeated(from, shift);
    let h = &mut plane.header;
    h.tiles_wide = I32::new(WIDE as i32);
    h.tiles_high = I32::new(HIGH as i32);
    h.width_px = I32::new(WIDE as i32 * h.tile_width.get());
    h.height_px = I32::new(HIGH as i32 * h.tile_height.get());
    h.z = I32::new(z);
    h.name = [0; 64];
    for (to, from) in h.name.iter_mut().zip(name.bytes()) {
        *to = from;
    }
    if !keep_objects {
        plane.objects.clear();
        // Only one main plane.
        h.flags = U32::new(h.flags.get() & !1);
    }
    plane
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut args = std::env::args_os().skip(1).map(PathBuf::from);
    let (Some(input), Some(out)) = (args.next(), args.next()) else {
        return Err("usage: many_planes RETAIL01.WWD OUT.WWD [PLANES]".into());
    };
    let planes: u32 = match args.next() {
        Some(n) => n.to_string_lossy().parse()?,
        None => 12,
    };
    if planes < 3 {
        return Err("at least 3 planes: background, main, front".into());
    }
    let file = wap_core::LevelFile::open(&input)?;
    let level = LevelData::from_level(&file.level()?)?;
    let [back, action, front] = level.planes.as_slice() else {
        return Err("the level must have three planes (background, action, front)".into());
    };
    let main = planes / 2;
    let mut made = Vec::new();
    for i in 0..planes {
        let z = i as i32 * 100 - 1000;
        let p = if i == 0 {
            plane(back, "Background", z, 0, false)
        } else if i + 1 == planes {
            plane(front, "Front", z, 0, false)
        } else if i == main {
            plane(action, "Action", 0, 0, true)
        } else {
            plane(action, &format!("Action {i}"), z, i * 37, false)
        };
        made.push(p);
    }
    let mut level = level.clone();
    level.planes = made;
    let bytes = level.to_file(true)?;
    std::fs::write(&out, &bytes)?;
    println!(
        "wrote {} ({planes} planes of {WIDE} x {HIGH} tiles, {} bytes)",
        out.display(),
        bytes.len()
    );
    Ok(())
}
