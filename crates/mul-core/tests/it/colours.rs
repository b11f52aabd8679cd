use mul_core::{ErrorKind, Hues, RadarColours, rgb555_to_rgb8, synth};

use crate::kind;

#[test]
fn rgb555_widens_each_channel_to_the_full_range() {
    assert_eq!(rgb555_to_rgb8(0), [0, 0, 0]);
    assert_eq!(rgb555_to_rgb8(0x7FFF), [255, 255, 255]);
    // Red 31, green 0, blue 16: 16 << 3 | 16 >> 2 = 132.
    assert_eq!(rgb555_to_rgb8(0b11111_00000_10000), [255, 0, 132]);
    assert_eq!(rgb555_to_rgb8(0x8000), [0, 0, 0], "bit 15 is not a colour");
}

#[test]
fn radar_colours_are_land_then_items() {
    let mut bytes = vec![0u8; (0x4000 + 3) * 2];
    bytes[6..8].copy_from_slice(&0x1234u16.to_le_bytes()); // land 3
    bytes[0x8000 + 4..0x8000 + 6].copy_from_slice(&0x0BCDu16.to_le_bytes()); // item 2
    let r = RadarColours::parse(&bytes).unwrap();
    assert_eq!(
        (r.land(3), r.item(2), r.item(3)),
        (Some(0x1234), Some(0x0BCD), None)
    );
    assert_eq!(r.item_count(), 3);
    assert!(matches!(
        kind(RadarColours::parse(&bytes[..5])),
        Some(ErrorKind::RecordMultiple {
            what: "radarcol.mul",
            found: 5,
            record: 2
        })
    ));
}

#[test]
fn hues_are_groups_of_eight() {
    let bytes = synth::hues();
    let h = Hues::parse(&bytes).unwrap();
    assert_eq!((h.len(), bytes.len()), (64, 8 * 708));
    // Hue 10 is entry 2 of group 1: header 4 bytes, then 88 bytes an entry; name at +68.
    let at = 708 + 4 + 2 * 88 + 68;
    let name_in_file = &bytes[at..at + 17];
    assert_eq!(name_in_file, b"synthetic hue 11\0");
    assert_eq!(h.get(10).unwrap().name_lossy(), "synthetic hue 11");
    assert!(h.get(64).is_none());
    assert!(matches!(
        kind(Hues::parse(&bytes[..700])),
        Some(ErrorKind::RecordMultiple {
            what: "hues.mul",
            found: 700,
            record: 708
        })
    ));
}

#[test]
fn radar_colours_must_hold_the_land_colours() {
    for len in [0usize, 2, 32_766] {
        assert_eq!(
            kind(RadarColours::parse(&vec![0; len])),
            Some(ErrorKind::RadarColLength { found: len as u64 }),
            "{len}"
        );
    }
    let land_only = vec![0; 0x4000 * 2];
    let r = RadarColours::parse(&land_only).unwrap();
    assert_eq!((r.colours().len(), r.item_count()), (0x4000, 0));
    let err = RadarColours::parse(&[]).unwrap_err();
    assert!(
        err.to_string()
            .starts_with("radarcol.mul is 0 bytes, expected at least 32768"),
        "{err}"
    );
}
