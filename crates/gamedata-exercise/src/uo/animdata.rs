//! animdata.mul: every record the file holds, as the client places them.

use mul_core::AnimData;

/// Reads `data` as animdata.mul: every item's record (their count checked against the
/// file's length), each frame's item, the group headers, and ids past the records.
pub fn animdata(data: &[u8]) -> u64 {
    let Ok(animdata) = AnimData::parse(data) else {
        unreachable!("every length is an animdata.mul");
    };
    let mut acc = format!("{animdata:?}").len() as u64;
    let len = animdata.len();
    assert_eq!(animdata.is_empty(), len == 0);
    // Each record ends inside the file: 68 * i + 4 * (i / 8 + 1) + 68 <= the length.
    if let Some(last) = len.checked_sub(1) {
        assert!(68 * last + 4 * (last / 8 + 1) + 68 <= data.len());
    }
    assert!(68 * len + 4 * (len / 8 + 1) + 68 > data.len());
    // Item ids are the client's 16-bit graphics: records past 0xFFFF are not reached.
    for id in (0..len).map_while(|item| u16::try_from(item).ok()) {
        let Some(record) = animdata.get(id) else {
            unreachable!("item {id} lies inside the file");
        };
        assert!(record.offsets().len() <= 64);
        assert!(record.frame_ms() >= 100);
        acc = acc.wrapping_add(record.frame_items(id).flatten().map(u64::from).sum::<u64>());
    }
    for past in [len, len + 1] {
        if let Ok(past) = u16::try_from(past) {
            assert!(animdata.get(past).is_none());
        }
    }
    for group in 0..=len / 8 {
        acc = acc.wrapping_add(u64::from(animdata.group_header(group).unwrap_or(0)));
    }
    acc
}
