//! The web app's tiles drawn natively, one thread, by the same library the page runs
//! (`gamedata_web::Library`): the time of each of a block of tiles, beside the page's
//! worker in `benches/web.sh`.
//!
//! `web_tiles DIR ID Z X Y COLS ROWS`: the files of DIR (read whole), then tile
//! (X + 1, Y + ROWS) of map ID first (opening the files, not counted), then the COLS x ROWS
//! tiles from (X, Y) at zoom Z; prints `tiles N mean_ms M median_ms D`.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::print_stdout,
    clippy::panic,
    clippy::indexing_slicing
)]

use std::time::Instant;

use gamedata_web::Library;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [dir, id, z, x, y, cols, rows] = args.as_slice() else {
        panic!("usage: web_tiles DIR ID Z X Y COLS ROWS");
    };
    let number = |s: &String| -> u32 { s.parse().expect("a number") };
    let (z, x, y, cols, rows) = (number(z), number(x), number(y), number(cols), number(rows));
    let z = u8::try_from(z).expect("a zoom");
    let mut library = Library::new();
    for entry in std::fs::read_dir(dir).expect("the folder") {
        let path = entry.expect("an entry").path();
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        if gamedata_web::Gamedata::wants(&name) {
            library.add_file(&name, std::fs::read(&path).expect("the file"));
        }
    }
    library.scan();
    library
        .tile(id, z, x + 1, y + rows)
        .expect("the first tile");
    let mut times = Vec::new();
    for ty in y..y + rows {
        for tx in x..x + cols {
            let start = Instant::now();
            library.tile(id, z, tx, ty).expect("a tile");
            times.push(start.elapsed().as_secs_f64() * 1000.0);
        }
    }
    let mean = times.iter().sum::<f64>() / times.len() as f64;
    times.sort_by(f64::total_cmp);
    let median = times[times.len() / 2];
    println!(
        "tiles {} mean_ms {mean:.2} median_ms {median:.2}",
        times.len()
    );
}
