//! An archive shaped like GRUNTZ.REZ, for the web app's figures (`benches/web.sh`): every
//! path of `$GAMEDATA_DIR/wap32/gruntz-rez-paths.txt` (22,827, their extensions stored
//! reversed there, as the archive stores them), each PID a 64 x 64 picture with its own
//! palette (5,004 bytes), each other file 2,048 bytes.
//!
//! `rez_shaped OUT`: writes the archive at OUT; prints `rez_shaped_bytes N files F`.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::print_stdout,
    clippy::panic,
    clippy::cast_possible_truncation
)]

use wap_core::{PidFlags, PidPixels, write_pid, write_rez};

fn main() {
    let out = std::env::args().nth(1).expect("usage: rez_shaped OUT");
    let list =
        std::fs::read_to_string(gamedata_testkit::require_file("wap32/gruntz-rez-paths.txt"))
            .expect("the path list");
    let paths: Vec<String> = list
        .lines()
        .filter(|l| !l.is_empty())
        .map(|l| {
            let path = l.replace('\\', "/");
            match path.rsplit_once('.') {
                Some((stem, ext)) => format!("{stem}.{}", ext.chars().rev().collect::<String>()),
                None => path,
            }
        })
        .collect();
    let palette: [u8; 768] = std::array::from_fn(|i| (i * 7 % 256) as u8);
    let contents: Vec<Vec<u8>> = paths
        .iter()
        .enumerate()
        .map(|(n, path)| {
            if path.to_ascii_uppercase().ends_with(".PID") {
                let pixels = PidPixels {
                    width: 64,
                    height: 64,
                    indices: (0..4096u32).map(|i| (i as usize + n) as u8).collect(),
                    opaque: (0..4096u32).map(|i| i % 9 != 0).collect(),
                };
                write_pid(&pixels, (0, 0), PidFlags::empty(), Some(&palette), false)
            } else {
                vec![(n % 251) as u8; 2048]
            }
        })
        .collect();
    let files: Vec<(&str, &[u8])> = paths
        .iter()
        .map(String::as_str)
        .zip(contents.iter().map(Vec::as_slice))
        .collect();
    let archive = write_rez(&files).expect("the archive");
    std::fs::write(&out, &archive).expect("writing the archive");
    println!("rez_shaped_bytes {} files {}", archive.len(), files.len());
}
