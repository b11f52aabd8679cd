//! A program outside the library: it depends on mni-core, mul-core and wap-core alone and
//! uses only their public names (`LevelFile::open_with`, `FacetFiles::open_with`,
//! `Episode::level` ...), opening each format every way an embedding program does. It runs
//! as a test (`cargo test -p outside-program`) and as a program (`cargo run -p
//! outside-program`), on synthetic files written to a temporary folder.

use std::path::{Path, PathBuf};
use std::sync::Arc;

type Result<T> = std::result::Result<T, Box<dyn std::error::Error>>;

/// A folder of its own under the system's temporary folder, removed on drop.
struct Scratch(PathBuf);

impl Scratch {
    fn new(name: &str) -> Result<Self> {
        let dir = std::env::temp_dir().join(format!("outside-{name}-{}", std::process::id()));
        std::fs::create_dir_all(&dir)?;
        Ok(Scratch(dir))
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// A WWD level: from a path (read, with options, mapped), from an `Arc<[u8]>`, and from a
/// `&'static [u8]`, compressed and not. Returns the objects counted each way.
fn levels(dir: &Path) -> Result<Vec<usize>> {
    use wap_core::{LevelFile, LevelOptions, Limits};

    let data = wap_core::synth::level(7, 40, 20);
    let mut counts = Vec::new();
    for compress in [false, true] {
        let bytes = data.to_file(compress)?;
        let path = dir.join(if compress { "PACKED.WWD" } else { "PLAIN.WWD" });
        std::fs::write(&path, &bytes)?;

        let read = LevelFile::open(&path)?;
        let options = LevelOptions {
            limits: Limits {
                max_decoded_bytes: 16 << 20,
                ..Limits::default()
            },
        };
        let with = LevelFile::open_with(&path, &options)?;
        // SAFETY: the file is this program's own and nothing changes it while mapped.
        #[allow(unsafe_code)]
        let mapped = unsafe { LevelFile::map(&path) }?;
        // SAFETY: as above.
        #[allow(unsafe_code)]
        let mapped_with = unsafe { LevelFile::map_with(&path, &options) }?;
        let shared: Arc<[u8]> = Arc::from(bytes.clone());
        let from_arc = LevelFile::from_data(Arc::clone(&shared), &options)?;
        let leaked: &'static [u8] = Box::leak(bytes.into_boxed_slice());
        let from_static = LevelFile::from_data(leaked, &LevelOptions::default())?;
        if !compress {
            // Stored uncompressed: the level is read in place, not copied.
            assert_eq!(from_arc.image().as_ptr(), shared.as_ptr());
            assert_eq!(from_static.image().as_ptr(), leaked.as_ptr());
        }
        for file in [&read, &with, &mapped, &mapped_with, &from_arc, &from_static] {
            assert_eq!(file.compressed(), compress);
            let counts_here = file.level()?.validate()?;
            counts.push(counts_here.objects);
        }
        // A view's error has no file-system variant: its kind is there without an Option.
        let cut = leaked.get(..1000).unwrap_or_default();
        let err = LevelFile::from_data(cut, &LevelOptions::default()).err();
        let kind: Option<wap_core::ErrorKind> = err.map(|e| e.kind);
        assert_eq!(kind, Some(wap_core::ErrorKind::TooShort { found: 1000 }));
    }
    Ok(counts)
}

/// A facet: found in a folder and read with `open_with` and a size, mapped with `map_with`.
fn facet(dir: &Path) -> Result<(u32, u32, u64)> {
    use mul_core::{FacetFiles, FacetOptions, MapSize, query};

    let size = MapSize::from_blocks(40, 24)?;
    let world = mul_core::synth::World::generate(size, 11);
    world.write_to(dir, 3)?;
    let options = FacetOptions {
        size: Some(size),
        ..FacetOptions::default()
    };
    let files = FacetFiles::open_with(dir, 3, &options)?;
    let facet = files.facet()?;
    // SAFETY: the files are this program's own and nothing changes them while mapped.
    #[allow(unsafe_code)]
    let mapped = unsafe { FacetFiles::map_with(dir, 3, &options) }?;
    let again = mapped.facet()?;
    assert_eq!(facet.map.as_slice(), again.map.as_slice());
    let statics = query::statics_stats(&facet.statics, size.blocks()).count;
    assert_eq!(statics, world.static_count);
    // Facet 3 has no known size of 40 x 24 blocks: without the size it is refused.
    assert!(FacetFiles::open(dir, 3)?.facet().is_err());
    Ok((facet.size().width(), facet.size().height(), statics))
}

/// An episode: its group files found in a folder, a level by name; and from bytes owned.
fn episode(dir: &Path) -> Result<(u16, u16)> {
    use mni_core::{EpisodeFiles, EpisodeOptions, EpisodePaths};

    let synth = mni_core::synth::episode()?;
    std::fs::write(dir.join("cosmo1.stn"), &synth.stn)?;
    std::fs::write(dir.join("COSMO1.VOL"), &synth.vol)?;
    let files = EpisodeFiles::open(dir, 1)?;
    let episode = files.episode()?;
    let level = episode.level("a2.mni")?;
    let with = EpisodeFiles::open_with(dir, 1, &EpisodeOptions::default())?;
    assert_eq!(with.episode()?.level("A2.MNI")?.width(), level.width());
    let paths = EpisodePaths::find(dir, 1)?;
    let stn: Arc<[u8]> = Arc::from(synth.stn.clone());
    let owned = EpisodeFiles::from_data(paths, stn, synth.vol.clone(), &EpisodeOptions::default());
    assert_eq!(owned.episode()?.level("A2.MNI")?.height(), level.height());
    Ok((level.width(), level.height()))
}

fn run() -> Result<String> {
    let scratch = Scratch::new("program")?;
    let objects = levels(&scratch.0)?;
    let (w, h, statics) = facet(&scratch.0)?;
    let (cw, ch) = episode(&scratch.0)?;
    Ok(format!(
        "level objects {objects:?}; facet {w} x {h} tiles, {statics} statics; A2.MNI {cw} x {ch} tiles"
    ))
}

fn main() -> Result<()> {
    println!("{}", run()?);
    Ok(())
}

#[cfg(test)]
mod tests {
    #[test]
    fn every_format_opens_every_way_through_the_public_names() {
        let scratch = super::Scratch::new("test").unwrap();
        let objects = super::levels(&scratch.0).unwrap();
        // Twelve openings (six ways, plain and compressed), each the generator's objects.
        let want = wap_core::synth::level(7, 40, 20)
            .planes
            .iter()
            .map(|p| p.objects.len())
            .sum::<usize>();
        assert!(want > 0);
        assert_eq!(objects, vec![want; 12]);
        let (w, h, statics) = super::facet(&scratch.0).unwrap();
        assert_eq!((w, h), (320, 192));
        assert!(statics > 0);
        let (cw, ch) = super::episode(&scratch.0).unwrap();
        // A2.MNI is 64 tiles wide; a map holds 32,768 cells (4 fewer stored).
        assert_eq!((cw, ch), (64, 512));
    }
}
