//! Crafted levels shaped to multiply the readers' memory or work.

use gamedata_testkit::heap::{self, MIB};
use wap_core::raw::{PLANE_HEADER_LEN, WwdHeader};
use wap_core::{ErrorKind, Level, synth};
use zerocopy::FromBytes;

/// 5,000 plane headers, all copies of the main plane's (512 x 512 tiles, 1 MB), so that every
/// plane's tiles are the same bytes: only the first is read, the 4,999 others are bad, and a
/// walk of every plane reads the tiles once.
#[test]
fn planes_over_the_same_tiles_are_read_once() {
    let serial = heap::serial();
    let mut image = synth::level(5, 512, 512).image().unwrap();
    let table = WwdHeader::ref_from_prefix(&image)
        .unwrap()
        .0
        .planes_offset
        .get() as usize;
    let main = image[table + PLANE_HEADER_LEN..table + 2 * PLANE_HEADER_LEN].to_vec();
    let at = image.len() as u32;
    for _ in 0..5000 {
        image.extend_from_slice(&main);
    }
    let header = WwdHeader::mut_from_prefix(&mut image).unwrap().0;
    header.plane_count.set(5000);
    header.planes_offset.set(at);
    assert!(image.len() > 1_800_000, "{}", image.len());
    let ((unreadable, tiles_read, bad), peak) = heap::peak(&serial, || {
        let level = Level::parse(&image).unwrap();
        let mut tiles_read = 0usize;
        let mut bad = 0usize;
        for plane in level.planes() {
            match plane {
                Ok(p) => tiles_read += p.tiles().len(),
                Err(e) => {
                    assert!(
                        matches!(e.kind(), Some(ErrorKind::PlaneOverlap { other: 0, .. })),
                        "{e}"
                    );
                    bad += 1;
                }
            }
        }
        let layout = level.layout();
        (layout.unreadable.len(), tiles_read, bad)
    });
    // The layout report lists the 4,999 planes left out, and walks no names or objects of
    // theirs.
    assert_eq!(unreadable, 4999);
    assert_eq!(bad, 4999);
    assert_eq!(tiles_read, 512 * 512);
    // The overlap search (8 bytes a plane) and the layout's sections (5,000 tiles sections
    // and the error text of 4,999 planes).
    assert!(peak < 4 * MIB, "peak heap {peak}");
}
