//! A program outside the library: it depends on mni-core, mul-core and wap-core alone and
//! uses only their public names, opening each format every way an embedding program does,
//! through every owner's name: `LevelFile`, `RezFile`, `FacetFiles`, `TileDataFile`,
//! `RadarColoursFile`, `HuesFile`, `UopFile`, `MultiFiles`, `EpisodeFiles`. Options
//! are built from `Default` and then set, as the crates' options are `#[non_exhaustive]`. It
//! runs as a test (`cargo test -p outside-program`) and as a program (`cargo run -p
//! outside-program`), on synthetic files written to a temporary folder.

use std::path::{Path, PathBuf};
use std::sync::Arc;

type Result<T> = std::result::Result<T, Box<dyn std::error::Error>>;

/// Each reader re-exports the same set of gamedata-io's items (`docs/naming.md`), so that a
/// program needs none but the reader it uses: the three imports compile, and each crate's
/// names are gamedata-io's own.
mod shared_names {
    macro_rules! shared_set {
        ($krate:ident) => {
            #[allow(unused_imports)]
            pub(crate) use $krate::{
                Access, Category, CodePage, FileData, FileError, FileOptions, FileSet, Format,
                FormatError, FormatOptions, InflateError, LimitError, Limits, MapOptions, Owned,
                OwnedSet, Problems, ReadError, decode, field_text,
            };
        };
    }
    pub(crate) mod mul {
        shared_set!(mul_core);
    }
    pub(crate) mod wap {
        shared_set!(wap_core);
    }
    pub(crate) mod mni {
        shared_set!(mni_core);
    }
}

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
    use wap_core::{LevelFile, LevelOptions};

    let data = wap_core::synth::level(7, 40, 20);
    let mut counts = Vec::new();
    for compress in [false, true] {
        let bytes = data.to_file(compress)?;
        let path = dir.join(if compress { "PACKED.WWD" } else { "PLAIN.WWD" });
        std::fs::write(&path, &bytes)?;

        let read = LevelFile::open(&path)?;
        let mut options = LevelOptions::default();
        options.limits.max_decoded_bytes = 16 << 20;
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
            let counts_here = file.view()?.validate()?;
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
    use mul_core::{FacetFiles, FacetOptions, MapSize, facet::query};

    let size = MapSize::from_blocks(40, 24)?;
    let world = mul_core::synth::World::generate(size, 11);
    world.write_to(dir, 3)?;
    let mut options = FacetOptions::default();
    options.size = Some(size);
    let files = FacetFiles::open_with(dir, 3, &options)?;
    let facet = files.view()?;
    // SAFETY: the files are this program's own and nothing changes them while mapped.
    #[allow(unsafe_code)]
    let mapped = unsafe { FacetFiles::map_with(dir, 3, &options) }?;
    let again = mapped.view()?;
    assert_eq!(facet.map.as_slice(), again.map.as_slice());
    let statics = query::statics_stats(&facet.statics, size.blocks()).count;
    assert_eq!(statics, world.static_count);
    // Facet 3 has no known size of 40 x 24 blocks: without the size it is refused.
    assert!(FacetFiles::open(dir, 3)?.view().is_err());
    Ok((facet.size().width(), facet.size().height(), statics))
}

/// An episode: its group files found in a folder, a level by name; and from bytes owned.
fn episode(dir: &Path) -> Result<(u16, u16)> {
    use mni_core::{EpisodeFiles, EpisodeOptions, EpisodePaths};

    let synth = mni_core::synth::episode()?;
    std::fs::write(dir.join("cosmo1.stn"), &synth.stn)?;
    std::fs::write(dir.join("COSMO1.VOL"), &synth.vol)?;
    let files = EpisodeFiles::open(dir, 1)?;
    let episode = files.view()?;
    let level = episode.level("a2.mni")?.ok_or("no A2.MNI")?;
    let mut options = EpisodeOptions::default();
    options.limits.max_stream_bytes = 1 << 20;
    let with = EpisodeFiles::open_with(dir, 1, &options)?;
    assert_eq!(
        with.view()?.level("A2.MNI")?.map(|m| m.width()),
        Some(level.width())
    );
    // SAFETY: the files are this program's own and nothing changes them while mapped.
    #[allow(unsafe_code)]
    let mapped = unsafe { EpisodeFiles::map_with(dir, 1, &options) }?;
    assert_eq!(
        mapped.view()?.level("A2.MNI")?.map(|m| m.width()),
        Some(level.width())
    );
    let paths = EpisodePaths::find(dir, 1)?;
    let stn: Arc<[u8]> = Arc::from(synth.stn.clone());
    let owned = EpisodeFiles::from_data(
        paths,
        [stn.into(), synth.vol.clone().into()],
        &EpisodeOptions::default(),
    )?;
    assert_eq!(
        owned.view()?.level("A2.MNI")?.map(|m| m.height()),
        Some(level.height())
    );
    // A name that is not there is no error; the error a caller needing it gives names it
    // and the files, as data too.
    let view = owned.view()?;
    if view.level("NOPE.MNI")?.is_some() {
        return Err("a name that is not there was found".into());
    }
    let err = view.missing("NOPE.MNI");
    assert_eq!(err.entry(), Some("NOPE.MNI"));
    assert_eq!(err.fields().name, "EntryNotFound");
    Ok((level.width(), level.height()))
}

/// A REZ archive: read, with options, mapped, and from a `Vec`; the same tree each way.
/// Returns the files counted each way.
fn archive(dir: &Path) -> Result<Vec<usize>> {
    use wap_core::{RezFile, RezOptions};

    let bytes = wap_core::synth::level_archive(&wap_core::synth::level(3, 20, 10))?;
    let path = dir.join("LEVEL.REZ");
    std::fs::write(&path, &bytes)?;
    let mut options = RezOptions::default();
    options.max_path_bytes = 200;
    let read = RezFile::open(&path)?;
    let with = RezFile::open_with(&path, &options)?;
    // SAFETY: the file is this program's own and nothing changes it while mapped.
    #[allow(unsafe_code)]
    let mapped = unsafe { RezFile::map(&path) }?;
    // SAFETY: as above.
    #[allow(unsafe_code)]
    let mapped_with = unsafe { RezFile::map_with(&path, &options) }?;
    let from_vec = RezFile::from_data(bytes.clone(), &RezOptions::default())?;
    let mut counts = Vec::new();
    for archive in [&read, &with, &mapped, &mapped_with, &from_vec] {
        let rez = archive.view()?;
        let files = rez.walk(&rez.root()).filter(|e| e.is_ok()).count();
        let view = archive.view()?;
        assert_eq!(view.walk(&view.root()).count(), files);
        counts.push(files);
    }
    let cut = bytes.get(..100).unwrap_or_default().to_vec();
    assert!(RezFile::from_data(cut, &RezOptions::default()).is_err());
    Ok(counts)
}

/// Ultima Online's single files through their owners: tiledata, radarcol and hues read and
/// mapped, a UOP container within limits, multi.idx with multi.mul found in a folder.
fn single_files(dir: &Path) -> Result<(usize, usize)> {
    use mul_core::{
        FileOptions, HuesFile, MapSize, MultiFiles, RadarColoursFile, TileDataFile, UopFile,
    };

    let world = mul_core::synth::World::generate(MapSize::from_blocks(16, 16)?, 5);
    std::fs::write(dir.join("tiledata.mul"), &world.tiledata)?;
    std::fs::write(dir.join("radarcol.mul"), &world.radarcol)?;
    std::fs::write(dir.join("hues.mul"), &world.hues)?;
    let tiledata = TileDataFile::open(dir.join("tiledata.mul"))?;
    // SAFETY: the files are this program's own and nothing changes them while mapped.
    #[allow(unsafe_code)]
    let mapped = unsafe { TileDataFile::map(dir.join("tiledata.mul")) }?;
    assert_eq!(tiledata.view()?.layout(), mapped.view()?.layout());
    let mut options = FileOptions::default();
    options.limits.max_stream_bytes = 64 << 20;
    let radar = RadarColoursFile::open_with(dir.join("radarcol.mul"), &options)?;
    let hues = HuesFile::from_data(world.hues.clone(), &FileOptions::default())?;
    assert_eq!(
        hues.view()?.groups(),
        HuesFile::open(dir.join("hues.mul"))?.view()?.groups()
    );

    let uop = mul_core::write_map_uop(&world.map, 0)?;
    std::fs::write(dir.join("map0LegacyMUL.uop"), &uop)?;
    let container = UopFile::open_with(dir.join("map0LegacyMUL.uop"), &options)?;
    let mut tight = FileOptions::default();
    tight.limits.max_records = 0;
    assert!(UopFile::open_with(dir.join("map0LegacyMUL.uop"), &tight).is_err());

    // One multi of one component (id 7): a 12-byte index record, a 16-byte component.
    let mut index = 0u32.to_le_bytes().to_vec();
    index.extend_from_slice(&16u32.to_le_bytes());
    index.extend_from_slice(&0u32.to_le_bytes());
    let mut component = 7u16.to_le_bytes().to_vec();
    component.extend_from_slice(&[0; 6]);
    component.extend_from_slice(&1u32.to_le_bytes());
    component.extend_from_slice(&0u32.to_le_bytes());
    std::fs::write(dir.join("MULTI.IDX"), &index)?;
    std::fs::write(dir.join("multi.mul"), &component)?;
    let multis = MultiFiles::open(dir, ())?;
    let view = multis.view()?;
    let multi = view.get(0)?.ok_or("multi 0 is empty")?;
    let ids: Vec<u16> = multi.iter().map(|c| c.id.get()).collect();
    assert_eq!(ids, [7]);
    let want = mul_core::RadarColours::parse(&world.radarcol)?;
    assert_eq!(radar.view()?.land(1), want.land(1));
    Ok((container.view()?.entries().len(), ids.len()))
}

fn run() -> Result<String> {
    let scratch = Scratch::new("program")?;
    let objects = levels(&scratch.0)?;
    let (w, h, statics) = facet(&scratch.0)?;
    let (cw, ch) = episode(&scratch.0)?;
    let files = archive(&scratch.0)?;
    let (entries, components) = single_files(&scratch.0)?;
    Ok(format!(
        "level objects {objects:?}; facet {w} x {h} tiles, {statics} statics; A2.MNI {cw} x {ch} \
         tiles; archive files {files:?}; UOP entries {entries}, multi components {components}"
    ))
}

fn main() -> Result<()> {
    println!("{}", run()?);
    Ok(())
}

#[cfg(test)]
mod tests {
    /// The three readers' `Limits` (and so the rest of the shared set) are one type.
    #[test]
    fn the_readers_share_gamedata_ios_names() {
        use super::shared_names::{mni, mul, wap};
        let limits: mul::Limits = wap::Limits::default().with_max_records(7);
        let same: mni::Limits = limits;
        assert_eq!(same.max_records, 7);
        assert_eq!(mul::CodePage::Cp1252, wap::CodePage::Cp1252);
        assert_eq!(mni::Category::Data, mul::Category::Data);
    }

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
        // Five openings of one archive, each the same files, as many as its level uses.
        let files = super::archive(&scratch.0).unwrap();
        assert!(files[0] > 0);
        assert_eq!(files, vec![files[0]; 5]);
        // A 16 x 16-block map in a UOP: one chunk of 4,096 blocks; one multi of one part.
        assert_eq!(super::single_files(&scratch.0).unwrap(), (1, 1));
    }
}
