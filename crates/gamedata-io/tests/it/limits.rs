use gamedata_io::{LimitError, Limits};

#[test]
fn defaults_are_documented_values() {
    let l = Limits::default();
    assert_eq!(l, Limits::new());
    assert_eq!(l.max_decoded_bytes, 256 * 1024 * 1024);
    assert_eq!(l.max_records, 16_777_216);
    assert_eq!(l.max_stream_bytes, 256 * 1024 * 1024);
    // The largest real WWD main block (32.5 MB) is admitted.
    assert!(l.check_decoded("main block", 32_500_000).is_ok());
}

#[test]
fn going_past_a_cap_is_an_error_saying_what_and_how_much() {
    let l = Limits::default()
        .with_max_decoded_bytes(100)
        .with_max_records(10)
        .with_max_stream_bytes(0);
    assert!(l.check_decoded("x", 100).is_ok());
    assert_eq!(
        l.check_decoded("main block", 101).unwrap_err(),
        LimitError {
            what: "main block",
            unit: "bytes",
            found: 101,
            limit: 100
        }
    );
    let err = l.check_records("objects", 11).unwrap_err();
    assert_eq!((err.unit, err.found, err.limit), ("records", 11, 10));
    assert_eq!(
        err.to_string(),
        "objects needs 11 records, over the limit of 10 (raise it in Limits for trusted files)"
    );
    assert!(l.check_records("objects", 10).is_ok());
}

#[test]
fn unlimited_admits_everything() {
    let l = Limits::unlimited();
    assert!(l.check_decoded("x", u64::MAX).is_ok());
    assert!(l.check_records("x", u64::MAX).is_ok());
}
