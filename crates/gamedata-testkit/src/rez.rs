//! Crafted REZ archives, byte by byte from the format's facts (`docs/formats/wap32.md`, "REZ
//! archives"), with any offsets: tables that point into each other, share bytes or list
//! themselves, which the crate's writer never makes. For the resource contract's tests and
//! the fuzz seeds.

/// Bytes of the header.
pub const HEADER_LEN: u32 = 168;

/// An entry of a directory table.
#[derive(Clone, Copy, Debug)]
pub enum Entry<'a> {
    /// A directory named `name` whose table is `table` (offset, size in bytes).
    Dir {
        /// Its name, without the NUL.
        name: &'a [u8],
        /// Offset and size of its table.
        table: (u32, u32),
    },
    /// A file named `name` (without the extension) with extension `ext` (as the game names
    /// it: `PID`; stored reversed) whose bytes are `data` (offset, size).
    File {
        /// Its name, without the NUL.
        name: &'a [u8],
        /// Its extension, up to 4 bytes.
        ext: &'a [u8],
        /// Offset and size of its bytes.
        data: (u32, u32),
    },
}

impl Entry<'_> {
    /// Bytes of the entry in its table.
    pub fn len(&self) -> u32 {
        let len = match self {
            Entry::Dir { name, .. } => 16 + name.len() + 1,
            Entry::File { name, .. } => 16 + 12 + name.len() + 2,
        };
        u32::try_from(len).unwrap_or(u32::MAX)
    }

    /// Always false: an entry has at least its fixed fields.
    pub fn is_empty(&self) -> bool {
        false
    }

    /// The entry's bytes.
    pub fn bytes(&self) -> Vec<u8> {
        let mut out = Vec::new();
        let word = |out: &mut Vec<u8>, v: u32| out.extend_from_slice(&v.to_le_bytes());
        match self {
            Entry::Dir { name, table } => {
                for v in [1, table.0, table.1, 0x3000_0000] {
                    word(&mut out, v);
                }
                out.extend_from_slice(name);
                out.push(0);
            }
            Entry::File { name, ext, data } => {
                for v in [0, data.0, data.1, 0x3000_0000, 7] {
                    word(&mut out, v);
                }
                let mut stored = [0u8; 4];
                for (s, b) in stored.iter_mut().zip(ext.iter().rev()) {
                    *s = *b;
                }
                out.extend_from_slice(&stored);
                word(&mut out, 0);
                out.extend_from_slice(name);
                out.extend_from_slice(&[0, 0]);
            }
        }
        out
    }
}

/// Bytes of a table holding `entries`.
pub fn table_len(entries: &[Entry<'_>]) -> u32 {
    entries.iter().map(Entry::len).sum()
}

/// An archive being written: the header first, then whatever is pushed, in order.
#[derive(Clone, Debug)]
pub struct Builder {
    bytes: Vec<u8>,
}

impl Default for Builder {
    fn default() -> Self {
        Self::new()
    }
}

impl Builder {
    /// An archive of the header alone (its root set by [`Builder::finish`]).
    pub fn new() -> Self {
        let mut bytes = b"\r\n".to_vec();
        bytes.resize(124, b' ');
        bytes.extend_from_slice(b"\r\n\x1a");
        bytes.extend_from_slice(&1u32.to_le_bytes());
        bytes.resize(HEADER_LEN as usize, 0);
        Builder { bytes }
    }

    /// Where the next bytes pushed will be.
    pub fn next_offset(&self) -> u32 {
        u32::try_from(self.bytes.len()).unwrap_or(u32::MAX)
    }

    /// Appends `data`; returns its offset and size.
    pub fn data(&mut self, data: &[u8]) -> (u32, u32) {
        let at = self.next_offset();
        self.bytes.extend_from_slice(data);
        (at, u32::try_from(data.len()).unwrap_or(u32::MAX))
    }

    /// Appends a table of `entries`; returns its offset and size.
    pub fn table(&mut self, entries: &[Entry<'_>]) -> (u32, u32) {
        let at = self.next_offset();
        for e in entries {
            self.bytes.extend_from_slice(&e.bytes());
        }
        (at, self.next_offset() - at)
    }

    /// Appends a table of files, one a name, each of extension `ext` and bytes `data`;
    /// returns its offset and size.
    pub fn files(
        &mut self,
        names: impl IntoIterator<Item = String>,
        ext: &[u8],
        data: (u32, u32),
    ) -> (u32, u32) {
        let names: Vec<String> = names.into_iter().collect();
        let entries: Vec<Entry<'_>> = names
            .iter()
            .map(|n| Entry::File {
                name: n.as_bytes(),
                ext,
                data,
            })
            .collect();
        self.table(&entries)
    }

    /// Appends a table of directories, one a name, each with the table `table`; returns its
    /// offset and size.
    pub fn dirs(
        &mut self,
        names: impl IntoIterator<Item = String>,
        table: (u32, u32),
    ) -> (u32, u32) {
        let names: Vec<String> = names.into_iter().collect();
        let entries: Vec<Entry<'_>> = names
            .iter()
            .map(|n| Entry::Dir {
                name: n.as_bytes(),
                table,
            })
            .collect();
        self.table(&entries)
    }

    /// Appends a table of `count` directories named `{prefix}{i}`, directory i's table
    /// `size` bytes at `start + i` (tables that each start a byte after the last: distinct,
    /// and overlapping when `size` passes 1); returns its offset and size.
    pub fn sliding_dirs(&mut self, prefix: &str, count: u32, start: u32, size: u32) -> (u32, u32) {
        let names: Vec<String> = (0..count).map(|i| format!("{prefix}{i}")).collect();
        let entries: Vec<Entry<'_>> = names
            .iter()
            .zip(0u32..)
            .map(|(n, i)| Entry::Dir {
                name: n.as_bytes(),
                table: (start.saturating_add(i), size),
            })
            .collect();
        self.table(&entries)
    }

    /// The archive, its root directory's table at `root`.
    pub fn finish(mut self, root: (u32, u32)) -> Vec<u8> {
        let fields = [root.0.to_le_bytes(), root.1.to_le_bytes()].concat();
        if let Some(at) = self.bytes.get_mut(131..139) {
            at.copy_from_slice(&fields);
        }
        self.bytes
    }
}

/// A PID image of `width x height` pixels in the plain form, every pixel index `index`
/// (runs of 63), with no palette: the image format's facts (`docs/formats/wap32.md`, "PID
/// images").
pub fn pid(width: i32, height: i32, index: u8) -> Vec<u8> {
    let mut out = Vec::new();
    for v in [0, 0, width, height, 0, 0, 0, 0] {
        out.extend_from_slice(&v.to_le_bytes());
    }
    let mut left =
        u64::try_from(width.max(0)).unwrap_or(0) * u64::try_from(height.max(0)).unwrap_or(0);
    while left > 0 {
        let n = left.min(63);
        out.push(192 + u8::try_from(n).unwrap_or(63));
        out.push(index);
        left -= n;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn entries_have_the_format_s_lengths() {
        let dir = Entry::Dir {
            name: b"TILES",
            table: (200, 30),
        };
        assert_eq!(dir.len(), 22);
        assert_eq!(dir.bytes().len(), 22);
        assert_eq!(&dir.bytes()[..4], &[1, 0, 0, 0]);
        let file = Entry::File {
            name: b"001",
            ext: b"PID",
            data: (7, 9),
        };
        assert_eq!(file.len(), 33);
        let bytes = file.bytes();
        assert_eq!(bytes.len(), 33);
        assert_eq!(&bytes[20..24], b"DIP\0");
        assert_eq!(&bytes[28..33], b"001\0\0");
    }

    #[test]
    fn a_built_archive_has_its_root_in_the_header() {
        let mut b = Builder::new();
        let data = b.data(b"xyz");
        assert_eq!(data, (168, 3));
        let root = b.table(&[Entry::File {
            name: b"A",
            ext: b"PID",
            data,
        }]);
        let bytes = b.finish(root);
        assert_eq!(&bytes[127..131], &1u32.to_le_bytes());
        assert_eq!(&bytes[131..135], &171u32.to_le_bytes());
        assert_eq!(&bytes[135..139], &31u32.to_le_bytes());
        assert_eq!(bytes.len(), 202);
    }

    #[test]
    fn tables_of_named_files_and_directories() {
        let mut b = Builder::new();
        let files = b.files((0..3).map(|i| format!("F{i}")), b"PID", (9, 1));
        // 16 + 12 + 2 + 2 bytes a file.
        assert_eq!(files, (168, 96));
        let dirs = b.dirs(["A".to_owned(), "BB".to_owned()], files);
        assert_eq!(dirs, (264, 18 + 19));
        let bytes = b.finish(dirs);
        assert_eq!(&bytes[264 + 4..264 + 12], &[168, 0, 0, 0, 96, 0, 0, 0]);
        assert_eq!(&bytes[264 + 16..264 + 18], b"A\0");
    }

    #[test]
    fn a_plain_pid_fills_its_pixels_in_runs() {
        let p = pid(10, 10, 5);
        // 100 pixels: runs of 63 and 37.
        assert_eq!(&p[32..], &[255, 5, 229, 5]);
        assert_eq!(&p[8..12], &10i32.to_le_bytes());
    }
}
