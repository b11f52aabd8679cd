//! The bulk export as a library: a synthetic art set (64 land tiles and 256 items, item 200
//! an exact repeat of item 10, item 255 absent: mul-core's `synthetic_art`) exported into a
//! sink of the caller's (memory) and into a folder, each picture the renderer's own.

use std::collections::BTreeMap;
use std::sync::Mutex;
use std::sync::atomic::{AtomicU64, Ordering};

use gamedata_render::mul_core::art::write::{SYNTHETIC_ITEMS, SYNTHETIC_LANDS, synthetic_art};
use gamedata_render::mul_core::{Art, Limits};
use gamedata_render::uo::art::{ArtHue, item_picture, land_picture};
use gamedata_render::uo::export::{
    ExportOptions, ExportProgress, FolderWriter, Pictures, PngSink, WriteError, budget_for, export,
};
use gamedata_render::{PngCompression, PngOptions, RgbaImage};

/// The pictures in memory, by name.
#[derive(Default)]
struct Memory(Mutex<BTreeMap<String, Vec<u8>>>);

impl PngSink for Memory {
    fn create_folder(&self, _: &str) -> Result<(), WriteError> {
        Ok(())
    }

    fn write(&self, name: &str, png: &[u8]) -> Result<(), WriteError> {
        let old = self.0.lock().unwrap().insert(name.to_owned(), png.to_vec());
        assert!(old.is_none(), "{name} written twice");
        Ok(())
    }
}

/// The entries the progress saw: started and advanced.
#[derive(Default)]
struct Counted {
    started: AtomicU64,
    advanced: AtomicU64,
}

impl ExportProgress for Counted {
    fn start(&self, entries: u64) {
        self.started.fetch_add(entries, Ordering::Relaxed);
    }

    fn advance(&self, entries: u64) {
        self.advanced.fetch_add(entries, Ordering::Relaxed);
    }
}

#[test]
fn art_exported_into_memory_is_each_picture_as_the_renderer_draws_it() {
    let (index, data) = synthetic_art(1);
    let art = Art::parse(&index, &data).unwrap();
    let sink = Memory::default();
    let progress = Counted::default();
    let options = ExportOptions::for_input((index.len() + data.len()) as u64);
    let report = export(&Pictures::Art(&art), &sink, &options, &progress).unwrap();
    // Every land tile and every item but the absent one, the repeat decoded once.
    let pictures = SYNTHETIC_LANDS + SYNTHETIC_ITEMS - 1;
    assert_eq!(
        (report.what, report.format, report.written, report.decoded),
        ("art", "mul", pictures, pictures - 1)
    );
    assert_eq!((report.empty, report.failed, report.over_budget), (0, 0, 0));
    assert!(report.errors.is_empty());
    assert_eq!((report.written_mul, report.written_uop), (None, None));
    let files = sink.0.into_inner().unwrap();
    assert_eq!(files.len(), pictures);
    assert_eq!(
        report.bytes,
        files.values().map(|png| png.len() as u64).sum::<u64>()
    );
    // The used entries went through the progress.
    assert_eq!(progress.started.into_inner(), pictures as u64);
    assert_eq!(progress.advanced.into_inner(), pictures as u64);
    for id in 0..SYNTHETIC_LANDS as u16 {
        let land = art.land(id).unwrap().unwrap();
        let png = &files[&format!("land/{id:#06X}.png")];
        let drawn = land_picture(&land, ArtHue::None).unwrap();
        assert_eq!(RgbaImage::from_png(png).unwrap(), drawn, "land {id}");
    }
    for id in 0..SYNTHETIC_ITEMS as u16 - 1 {
        let item = art.item(id).unwrap().unwrap();
        let png = &files[&format!("items/{id:#06X}.png")];
        let drawn = item_picture(&item, ArtHue::None, &Limits::default()).unwrap();
        assert_eq!(RgbaImage::from_png(png).unwrap(), drawn, "item {id}");
    }
    assert!(!files.contains_key("items/0x00FF.png"));
    assert_eq!(files["items/0x00C8.png"], files["items/0x000A.png"]);
}

#[test]
fn a_folder_gets_the_same_bytes_and_a_budget_of_nothing_draws_nothing() {
    let (index, data) = synthetic_art(2);
    let art = Art::parse(&index, &data).unwrap();
    let best = PngOptions::default().with_compression(PngCompression::Best);
    let options = ExportOptions::default().with_png(best);
    assert_eq!(options.decode_budget, budget_for(0));
    let memory = Memory::default();
    export(&Pictures::Art(&art), &memory, &options, &()).unwrap();
    let dir = tempfile::tempdir().unwrap();
    let folder = FolderWriter::new(dir.path(), Vec::new());
    let report = export(&Pictures::Art(&art), &folder, &options, &()).unwrap();
    let files = memory.0.into_inner().unwrap();
    assert_eq!(report.written, files.len());
    for (name, png) in &files {
        assert_eq!(&std::fs::read(folder.path(name)).unwrap(), png, "{name}");
    }
    // No decoding budget: every entry is over it.
    let none = options.with_decode_budget(0);
    let report = export(&Pictures::Art(&art), &Memory::default(), &none, &()).unwrap();
    assert_eq!(
        (report.written, report.decoded, report.over_budget),
        (0, 0, SYNTHETIC_LANDS + SYNTHETIC_ITEMS - 1)
    );
    // No output budget: every picture is drawn, none written.
    let none = options.with_output_budget(0);
    let report = export(&Pictures::Art(&art), &Memory::default(), &none, &()).unwrap();
    let pictures = SYNTHETIC_LANDS + SYNTHETIC_ITEMS - 1;
    assert_eq!(
        (report.written, report.decoded, report.over_budget),
        (0, pictures - 1, pictures)
    );
}

/// A sink that cannot make the top folders stops the export with its error; one that
/// cannot write counts each picture failed, naming it as the sink locates it.
#[test]
fn a_sink_s_errors_stop_the_export_or_fail_the_entries() {
    struct Refusing(bool);
    impl PngSink for Refusing {
        fn create_folder(&self, name: &str) -> Result<(), WriteError> {
            match self.0 {
                true => Err(WriteError::new(format!("no folder {name}"))),
                false => Ok(()),
            }
        }
        fn write(&self, _: &str, _: &[u8]) -> Result<(), WriteError> {
            Err(WriteError::with_source(
                "full",
                std::io::Error::other("disk"),
            ))
        }
        fn locate(&self, name: &str) -> String {
            format!("zip:{name}")
        }
    }
    let (index, data) = synthetic_art(3);
    let art = Art::parse(&index, &data).unwrap();
    let options = ExportOptions::for_input(1 << 20);
    let err = export(&Pictures::Art(&art), &Refusing(true), &options, &()).unwrap_err();
    assert_eq!(err.to_string(), "no folder land");
    let report = export(&Pictures::Art(&art), &Refusing(false), &options, &()).unwrap();
    assert_eq!(
        (report.written, report.failed),
        (0, SYNTHETIC_LANDS + SYNTHETIC_ITEMS - 1)
    );
    assert_eq!(report.errors.len(), 10);
    assert!(
        report
            .errors
            .iter()
            .all(|e| e.starts_with("zip:") && e.ends_with(".png: full: disk")),
        "{:?}",
        report.errors
    );
}
