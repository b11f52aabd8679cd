use gamedata_io::{Bytes, ReadError};
use zerocopy::little_endian::{U16, U32};
use zerocopy::{FromBytes, Immutable, KnownLayout, Unaligned};

/// A 6-byte record: u16 kind, u32 value.
#[repr(C)]
#[derive(Debug, FromBytes, KnownLayout, Immutable, Unaligned)]
struct Rec {
    kind: U16,
    value: U32,
}

#[rustfmt::skip]
const DATA: [u8; 15] = [
    0x01, 0x00, 0x78, 0x56, 0x34, 0x12, // Rec { kind 1, value 0x12345678 } at 0
    0x02, 0x00, 0x01, 0x00, 0x00, 0x00, // Rec { kind 2, value 1 } at 6
    0xAA, 0xBB, 0xCC,                   // three loose bytes at 12
];

#[test]
fn reads_records_slices_and_bytes_in_order() {
    let mut b = Bytes::new(&DATA);
    assert!(!b.is_empty());
    let first = b.read::<Rec>().unwrap();
    assert_eq!((first.kind.get(), first.value.get()), (1, 0x1234_5678));
    assert!(!b.is_empty());
    assert_eq!(b.position(), 6);
    let rest = b.read_slice::<Rec>(1).unwrap();
    assert_eq!(rest[0].value.get(), 1);
    assert_eq!(b.read_bytes(2).unwrap(), [0xAA, 0xBB]);
    b.skip(1).unwrap();
    assert!(b.is_empty());
    assert_eq!((b.len(), b.position()), (0, 15));
    // Zero-size reads at the end are fine.
    assert_eq!(b.read_slice::<Rec>(0).unwrap().len(), 0);
    assert_eq!(b.read_bytes(0).unwrap(), [] as [u8; 0]);
}

#[test]
fn records_borrow_the_data_not_the_cursor() {
    let value = {
        let mut b = Bytes::new(&DATA);
        b.read::<Rec>().unwrap()
    };
    assert_eq!(value.kind.get(), 1);
}

#[test]
fn reads_at_offsets_do_not_move_the_cursor() {
    let b = Bytes::new(&DATA);
    assert_eq!(b.read_at::<Rec>(6).unwrap().kind.get(), 2);
    assert_eq!(b.slice_at::<U16>(12, 1).unwrap()[0].get(), 0xBBAA);
    assert_eq!(b.bytes_at(14, 1).unwrap(), [0xCC]);
    assert_eq!(b.position(), 0);
    // Alignment 1: a record at an odd offset casts too.
    assert_eq!(b.read_at::<U32>(1).unwrap().get(), 0x3456_7800);
}

#[test]
fn a_short_read_is_an_error_that_leaves_the_cursor_alone() {
    let mut b = Bytes::new(&DATA);
    b.skip(12).unwrap();
    let err = b.read::<Rec>().unwrap_err();
    assert_eq!(
        err,
        ReadError {
            offset: 12,
            size: 6,
            len: 15
        }
    );
    assert_eq!(err.end(), Some(18));
    assert_eq!(
        err.to_string(),
        "bytes 12..18 are past the end of the 15-byte data"
    );
    assert_eq!(b.position(), 12, "a failed read does not move the cursor");
    assert_eq!(b.read_bytes(4).unwrap_err().size, 4);
    assert_eq!(b.skip(4).unwrap_err().offset, 12);
    assert_eq!(b.read_slice::<U16>(2).unwrap_err().size, 4);
    assert_eq!(b.len(), 3);
}

#[test]
fn offsets_past_the_end_are_errors_with_absolute_positions() {
    let mut b = Bytes::new(&DATA);
    b.skip(6).unwrap();
    let err = b.read_at::<Rec>(5).unwrap_err();
    assert_eq!((err.offset, err.size, err.len), (11, 6, 15));
    let err = b.bytes_at(100, 1).unwrap_err();
    assert_eq!(err.offset, 106);
    let err = b.slice_at::<U32>(0, 3).unwrap_err();
    assert_eq!((err.offset, err.size), (6, 12));
}

#[test]
fn overflowing_sizes_and_offsets_are_errors() {
    let b = Bytes::new(&DATA);
    let err = b.slice_at::<U32>(0, usize::MAX / 2).unwrap_err();
    assert_eq!(err.size, u64::MAX);
    assert_eq!(err.end(), None);
    assert!(err.to_string().contains("too large to address"), "{err}");
    let err = b.bytes_at(usize::MAX, 2).unwrap_err();
    assert_eq!(err.offset, u64::try_from(usize::MAX).unwrap());
    assert!(b.read_at::<U16>(usize::MAX).is_err());
    assert!(b.sub(usize::MAX, usize::MAX).is_err());
}

#[test]
fn sub_cursors_keep_absolute_positions() {
    let b = Bytes::new(&DATA);
    let mut sub = b.sub(6, 6).unwrap();
    assert_eq!((sub.position(), sub.len()), (6, 6));
    assert_eq!(sub.read::<Rec>().unwrap().kind.get(), 2);
    let err = sub.read::<U16>().unwrap_err();
    // The sub-cursor ends at 12 but the error names the original buffer's length.
    assert_eq!((err.offset, err.size, err.len), (12, 2, 15));
    assert!(b.sub(10, 6).is_err());
}

#[test]
fn debug_prints_at_most_eight_bytes() {
    let big = vec![0x5Au8; 1 << 20];
    let text = format!("{:?}", Bytes::new(&big));
    assert!(text.len() < 200, "{text}");
    assert!(text.contains("remaining: 1048576"), "{text}");
    assert_eq!(text.matches("90").count(), 8, "{text}");
}

#[test]
fn empty_data() {
    let mut b = Bytes::new(&[]);
    assert!(b.is_empty());
    assert_eq!(
        b.read::<U16>().unwrap_err(),
        ReadError {
            offset: 0,
            size: 2,
            len: 0
        }
    );
    assert_eq!(Bytes::default().len(), 0);
}
