//! No control character of a file's text reaches a terminal: text reports, JSON and errors
//! (`gamedata_io::printable`, the CLI's `output::Text` and `output::Json`).

use super::*;

/// The bytes of `stream` that a terminal takes as commands: C0 but the line feed, DEL, and
/// the C1 controls (UTF-8 0xC2 0x80 to 0xC2 0x9F).
fn controls(stream: &[u8]) -> Vec<String> {
    let mut found = Vec::new();
    for (i, pair) in stream.windows(2).enumerate() {
        if pair[0] == 0xc2 && (0x80..0xa0).contains(&pair[1]) {
            found.push(format!("C1 {:#x} at {i}", pair[1]));
        }
    }
    for (i, &b) in stream.iter().enumerate() {
        if (b < 0x20 && b != b'\n') || b == 0x7f {
            found.push(format!("{b:#04x} at {i}"));
        }
    }
    found
}

/// A level whose name holds ESC, a terminal title sequence, DEL and two bytes that
/// Windows-1252 leaves undefined (0x81, 0x8D: the C1 controls U+0081, U+008D once
/// decoded).
/// A line feed too, which would forge a line of the report.
const NAME: &[u8] = b"lvl\x1b]0;owned\x07\x1b[2J\x7f\x81\x8d\nforged";

#[test]
fn a_level_s_name_prints_escaped_as_text_and_json() {
    let dir = tempfile::tempdir().unwrap();
    let mut data = wap_core::synth::level(5, 8, 6);
    data.header.name = [0; 64];
    data.header.name[..NAME.len()].copy_from_slice(NAME);
    std::fs::write(dir.path().join("L.WWD"), data.to_file(true).unwrap()).unwrap();

    let text = gamedata_ok(&["wwd", "info", "L.WWD"], dir.path());
    assert_eq!(controls(&text.stdout), Vec::<String>::new());
    let stdout = String::from_utf8(text.stdout).unwrap();
    assert!(
        stdout.contains(r"lvl\x1b]0;owned\x07\x1b[2J\x7f\u{81}\u{8d}\nforged ("),
        "{stdout}"
    );

    // A file whose name holds a line feed, in a folder validated: one line a file.
    std::fs::copy(
        dir.path().join("L.WWD"),
        dir.path().join("a\nok      forged.WWD"),
    )
    .unwrap();
    let validate = gamedata_ok(&["wwd", "validate", "."], dir.path());
    assert_eq!(controls(&validate.stdout), Vec::<String>::new());
    let listing = String::from_utf8(validate.stdout).unwrap();
    assert!(
        !listing.lines().any(|l| l.starts_with("ok      forged")),
        "{listing}"
    );
    assert!(listing.contains(r"a\nok      forged.WWD ("), "{listing}");

    let json = gamedata_ok(&["--json", "wwd", "info", "L.WWD"], dir.path());
    assert_eq!(controls(&json.stdout), Vec::<String>::new());
    // The escapes are JSON's: the name reads back as the level holds it.
    let report: Value = serde_json::from_slice(&json.stdout).unwrap();
    assert_eq!(
        report["name"],
        "lvl\u{1b}]0;owned\u{7}\u{1b}[2J\u{7f}\u{81}\u{8d}\nforged"
    );
}

#[test]
fn an_import_error_quotes_the_map_s_text_escaped() {
    let dir = tempfile::tempdir().unwrap();
    let tmx = b"<?xml version=\"1.0\"?>\n<map width=\"1\x1b]0;owned\x07\x7f\xc2\x9b\" height=\"1\"></map>\n";
    std::fs::write(dir.path().join("bad.tmx"), tmx).unwrap();
    for json in [false, true] {
        let mut args = vec!["wwd", "from-tmx", "bad.tmx", "-o", "out.wwd"];
        if json {
            args.insert(0, "--json");
        }
        let out = gamedata(&args, dir.path());
        assert_eq!(out.status.code(), Some(1));
        assert_eq!(controls(&out.stderr), Vec::<String>::new(), "json {json}");
        assert_eq!(controls(&out.stdout), Vec::<String>::new(), "json {json}");
        let stderr = String::from_utf8(out.stderr).unwrap();
        assert!(
            stderr.contains(r"found 1\x1b]0;owned\x07\x7f\u{9b}, expected a count"),
            "{stderr}"
        );
        if json {
            let last = stderr.lines().last().unwrap();
            let error: Value = serde_json::from_str(last).unwrap();
            assert!(
                error["error"]["message"]
                    .as_str()
                    .unwrap()
                    .contains(r"1\x1b]0;owned\x07\x7f\u{9b}"),
                "{last}"
            );
        }
        assert!(!dir.path().join("out.wwd").exists());
    }
}
