//! Paths of an archive's entries as relative paths on disk that cannot leave the folder they
//! are written under, as zip's `ZipFile::enclosed_name` gives them: what `gamedata rez
//! extract` writes.

use std::path::PathBuf;

/// Whether `part` is safe as one file or folder name under an output folder: not empty,
/// not `.` or `..`, without `/`, `\`, `:` (a Windows drive or stream) or NUL, and without a
/// control character (a name prints on one line).
fn safe_part(part: &str) -> bool {
    !(part.is_empty()
        || part == "."
        || part == ".."
        || part.contains(['/', '\\', ':', '\0'])
        || part.chars().any(char::is_control))
}

/// `path` (`/`-separated, as a walk gives it: `LEVEL1/TILES/012.PID`) as a relative path
/// that stays under the folder it is joined to, or `None` when a part of it could leave it
/// or cannot be a name on disk: an empty part, `.` or `..`, a part holding `\`, `:` or NUL,
/// or a control character. The text is not otherwise changed (no case folding).
///
/// ```
/// use std::path::PathBuf;
/// use wap_core::rez::enclosed_name;
///
/// assert_eq!(enclosed_name("LEVEL1/TILES/012.PID"), Some(PathBuf::from("LEVEL1/TILES/012.PID")));
/// assert_eq!(enclosed_name("LEVEL1/../../etc"), None);
/// assert_eq!(enclosed_name("C:"), None);
/// ```
pub fn enclosed_name(path: &str) -> Option<PathBuf> {
    let mut out = PathBuf::new();
    for part in path.split('/') {
        if !safe_part(part) {
            return None;
        }
        out.push(part);
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every part that could leave the folder, or is no name, refuses the whole path; the
    /// others come out part for part.
    #[test]
    fn unsafe_parts_refuse_the_path() {
        for bad in [
            "",
            "/",
            "A//B",
            "A/",
            "/A",
            ".",
            "..",
            "A/../B",
            "A/./B",
            "C:",
            "A:B/C",
            "A\\B",
            "A\0B",
            "A\nB",
            "A\u{1b}[2J",
            "A\u{85}B",
        ] {
            assert_eq!(enclosed_name(bad), None, "{bad:?}");
        }
        assert_eq!(
            enclosed_name("LEVEL1/TILES/012.PID"),
            Some(["LEVEL1", "TILES", "012.PID"].iter().collect())
        );
        assert_eq!(
            enclosed_name("...").as_deref(),
            Some(std::path::Path::new("..."))
        );
        assert_eq!(
            enclosed_name("É.PID").as_deref(),
            Some(std::path::Path::new("É.PID"))
        );
    }
}
