//! The single files opened from a path, mapped, or wrapped from bytes the caller owns.

use std::fs;
use std::sync::Arc;

use mul_core::synth::World;
use mul_core::{
    Error, ErrorKind, FileOptions, Hues, HuesFile, Limits, MapSize, MultiFiles, RadarColours,
    RadarColoursFile, TileData, TileDataFile, UopFile,
};

use crate::index_record;

#[test]
fn tiledata_radarcol_and_hues_open_map_and_wrap_the_same_bytes() {
    let w = World::generate(MapSize::from_blocks(16, 16).unwrap(), 3);
    let dir = tempfile::tempdir().unwrap();
    let tiledata = dir.path().join("TileData.mul");
    fs::write(&tiledata, &w.tiledata).unwrap();
    fs::write(dir.path().join("radarcol.mul"), &w.radarcol).unwrap();
    fs::write(dir.path().join("hues.mul"), &w.hues).unwrap();

    let parsed = TileData::parse(&w.tiledata).unwrap();
    let read = TileDataFile::open(&tiledata).unwrap();
    assert!(!read.data().is_mapped());
    // SAFETY: the files are private to this test and nothing changes them while mapped.
    #[allow(unsafe_code)]
    let mapped = unsafe { TileDataFile::map(&tiledata) }.unwrap();
    assert!(mapped.data().is_mapped());
    let shared: Arc<[u8]> = Arc::from(&w.tiledata[..]);
    let wrapped = TileDataFile::from_data(Arc::clone(&shared), &FileOptions::default()).unwrap();
    assert_eq!(wrapped.data().as_ptr(), shared.as_ptr(), "no copy");
    for owner in [&read, &mapped, &wrapped] {
        let view = owner.view().unwrap();
        assert_eq!(view.layout(), parsed.layout());
        for id in [0u16, 1, 0x0CCA, 0x1363] {
            let (a, b) = (view.item(id).unwrap(), parsed.item(id).unwrap());
            assert_eq!(
                (a.name(), a.flags(), a.height()),
                (b.name(), b.flags(), b.height())
            );
        }
    }

    let radar = RadarColoursFile::open(dir.path().join("radarcol.mul")).unwrap();
    let want = RadarColours::parse(&w.radarcol).unwrap();
    assert_eq!(radar.view().unwrap().land(3), want.land(3));
    assert_eq!(radar.view().unwrap().item_count(), want.item_count());
    let hues = HuesFile::open(dir.path().join("hues.mul")).unwrap();
    assert_eq!(
        hues.view().unwrap().groups(),
        Hues::parse(&w.hues).unwrap().groups()
    );

    // A bad file is a data error naming the file; a missing one an I/O error.
    let bad = dir.path().join("short.mul");
    fs::write(&bad, [0u8; 5]).unwrap();
    let err = TileDataFile::open(&bad).unwrap_err();
    assert!(
        matches!(err.kind(), Some(ErrorKind::TileDataLength { found: 5 })),
        "{err}"
    );
    assert_eq!(err.file(), Some("short.mul"));
    let err = HuesFile::open(dir.path().join("none.mul")).unwrap_err();
    assert!(matches!(err, Error::File(_)), "{err}");
}

#[test]
fn multis_are_found_in_any_case_and_a_uop_container_opens_within_the_limits() {
    let dir = tempfile::tempdir().unwrap();
    let component = |id: u16| {
        let mut c = id.to_le_bytes().to_vec();
        c.extend_from_slice(&[0; 6]);
        c.extend_from_slice(&1u32.to_le_bytes());
        c.extend_from_slice(&0u32.to_le_bytes());
        c
    };
    let data = [component(7), component(8)].concat();
    fs::write(dir.path().join("MULTI.IDX"), index_record(0, 32)).unwrap();
    fs::write(dir.path().join("Multi.mul"), &data).unwrap();
    let owned = MultiFiles::open(dir.path(), ()).unwrap();
    let paths = owned.paths.clone().unwrap();
    assert!(paths[0].ends_with("MULTI.IDX") && paths[1].ends_with("Multi.mul"));
    let multis = owned.view().unwrap();
    let ids: Vec<u16> = multis
        .get(0)
        .unwrap()
        .unwrap()
        .iter()
        .map(|c| c.id.get())
        .collect();
    assert_eq!(ids, [7, 8]);
    // SAFETY: private files, unchanged while mapped.
    #[allow(unsafe_code)]
    let mapped = unsafe { MultiFiles::map(dir.path(), ()) }.unwrap();
    assert_eq!(mapped.view().unwrap().len(), 1);
    let debug = format!("{mapped:?}");
    assert!(debug.starts_with("MultiFiles { paths: Some(["), "{debug}");
    assert!(debug.contains("Multi.mul"), "{debug}");
    fs::remove_file(dir.path().join("Multi.mul")).unwrap();
    assert!(matches!(
        MultiFiles::open(dir.path(), ()),
        Err(Error::File(_))
    ));

    // A UOP container: its table is read at opening, within the options' limits.
    let map = vec![0u8; 4096 * 196 * 2];
    let uop = mul_core::write_map_uop(&map, 0).unwrap();
    let path = dir.path().join("map0LegacyMUL.uop");
    fs::write(&path, &uop).unwrap();
    let owned = UopFile::open(&path).unwrap();
    assert_eq!(owned.view().unwrap().entries().len(), 2);
    let tight = FileOptions::default().with_limits(Limits::default().with_max_records(1));
    let err = UopFile::open_with(&path, &tight).unwrap_err();
    assert!(
        matches!(
            err.kind(),
            Some(ErrorKind::UopTable { .. } | ErrorKind::Limit(_))
        ),
        "{err}"
    );
    assert_eq!(err.file(), Some("map0LegacyMUL.uop"));
}

#[test]
fn art_is_found_in_any_case_opens_every_way_and_keeps_its_overlaps() {
    use mul_core::ArtFiles;
    use mul_core::art::write::{ArtPicture, write_art};
    let dir = tempfile::tempdir().unwrap();
    let land = vec![0x1234u16; 1012];
    let (index, data) = write_art(&[ArtPicture::Land(&land), ArtPicture::Repeat(0)]).unwrap();
    fs::write(dir.path().join("ARTIDX.MUL"), &index).unwrap();
    fs::write(dir.path().join("art.Mul"), &data).unwrap();
    let owned = ArtFiles::open(dir.path(), None).unwrap();
    let paths = owned.paths.clone().unwrap();
    let paths = paths.files();
    assert!(paths[0].ends_with("ARTIDX.MUL") && paths[1].ends_with("art.Mul"));
    assert_eq!(owned.format(), mul_core::ArtFormat::Mul);
    let art = owned.view().unwrap();
    assert_eq!(art.len(), 2);
    assert_eq!(art.land(1).unwrap().unwrap().pixels()[5].get(), 0x1234);
    // A second view shares the first's overlaps and reads the same.
    assert_eq!(
        owned.view().unwrap().entry(0).unwrap(),
        art.entry(0).unwrap()
    );
    let debug = format!("{owned:?}");
    assert!(debug.starts_with("ArtFiles { paths: Some(Mul(["), "{debug}");
    // SAFETY: private files, unchanged while mapped.
    #[allow(unsafe_code)]
    let mapped = unsafe { ArtFiles::map(dir.path(), None) }.unwrap();
    assert!(mapped.view().unwrap().land(0).unwrap().is_some());
    let handed = ArtFiles::from_data(
        None,
        mul_core::PictureData::Mul([index.clone().into(), data.into()]),
        &FileOptions::default(),
    )
    .unwrap();
    assert_eq!(handed.view().unwrap().len(), 2);
    // A bad index names its file; a missing art.mul is a file error.
    fs::write(dir.path().join("ARTIDX.MUL"), &index[..13]).unwrap();
    let err = ArtFiles::open(dir.path(), None).unwrap_err();
    assert_eq!(err.file(), Some("ARTIDX.MUL"));
    fs::remove_file(dir.path().join("art.Mul")).unwrap();
    assert!(matches!(
        ArtFiles::open(dir.path(), None),
        Err(Error::File(_))
    ));
}
