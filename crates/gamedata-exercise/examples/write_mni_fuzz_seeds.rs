//! Writes the fuzz seeds (synthetic files, this project's own) under a folder:
//! `cargo run -p gamedata-exercise --example write_mni_fuzz_seeds -- fuzz/seeds`.

use std::path::PathBuf;

use mni_core::{Group, synth, write_group};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let root = PathBuf::from(
        std::env::args()
            .nth(1)
            .unwrap_or_else(|| "fuzz/seeds".into()),
    );
    let e = synth::episode()?;
    let vol = Group::parse(&e.vol)?;
    let small = write_group([("A.MNI", &b"abc"[..]), ("LONGNAME.MNI", &b""[..])])?;
    let whole_episode = gamedata_exercise::io::join_parts::<4>(&[&e.stn, &e.vol]);
    let (info, tiles) = synth::sprites();
    let sprites = gamedata_exercise::io::join_parts::<4>(&[&info, &tiles]);
    let backdrop = gamedata_exercise::io::join_parts::<4>(&[
        info.get(..2).unwrap_or_default(),
        &synth::backdrop(),
    ]);
    let seeds: [(&str, &str, &[u8]); 13] = [
        ("cosmo_sprites", "synthetic_sprites", &sprites),
        ("cosmo_sprites", "synthetic_backdrop", &backdrop),
        ("cosmo_episode", "synthetic_episode", &whole_episode),
        ("cosmo_round_trip", "synthetic_stn", &e.stn),
        ("cosmo_round_trip", "small_group", &small),
        (
            "cosmo_round_trip",
            "synthetic_a2",
            vol.get("A2.MNI")?.ok_or("no A2.MNI")?,
        ),
        ("cosmo_group", "synthetic_stn", &e.stn),
        ("cosmo_group", "small_group", &small),
        (
            "cosmo_map",
            "synthetic_a2",
            vol.get("A2.MNI")?.ok_or("no A2.MNI")?,
        ),
        (
            "cosmo_render",
            "synthetic_a2",
            vol.get("A2.MNI")?.ok_or("no A2.MNI")?,
        ),
        (
            "cosmo_tileattr",
            "synthetic_tileattr",
            &synth::tile_attributes(),
        ),
        ("cosmo_tiles", "synthetic_tiles", &synth::solid_tiles()),
        ("cosmo_tiles", "synthetic_masktile", &synth::masked_tiles()),
    ];
    for (target, name, bytes) in seeds {
        let dir = root.join(target);
        std::fs::create_dir_all(&dir)?;
        std::fs::write(dir.join(name), bytes)?;
        println!("wrote {}/{name} ({} bytes)", dir.display(), bytes.len());
    }
    Ok(())
}
