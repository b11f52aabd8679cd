//! Bounded `Debug` output for views over a file's bytes: the length and the first few items,
//! never the whole buffer (a derived `Debug` of a 90 MB mapping prints 90 MB).

use std::fmt;

/// Items a preview shows before the ellipsis.
pub const PREVIEW_ITEMS: usize = 4;

/// A byte view's `Debug`: its length and first [`PREVIEW_ITEMS`] bytes in hex, such as
/// `3211264 bytes [00 01 02 03 ..]`.
#[derive(Clone, Copy)]
pub struct PreviewBytes<'a>(pub &'a [u8]);

impl fmt::Debug for PreviewBytes<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} bytes [", self.0.len())?;
        for (i, b) in self.0.iter().take(PREVIEW_ITEMS).enumerate() {
            let sep = if i > 0 { " " } else { "" };
            write!(f, "{sep}{b:02x}")?;
        }
        if self.0.len() > PREVIEW_ITEMS {
            f.write_str(" ..")?;
        }
        f.write_str("]")
    }
}

/// A table's `Debug`: its length and its first [`PREVIEW_ITEMS`] items, such as
/// `16384 items [IndexRecord { .. }, ..]`. The items' own `Debug` must be bounded.
#[derive(Clone, Copy)]
pub struct PreviewTable<'a, T>(pub &'a [T]);

impl<T: fmt::Debug> fmt::Debug for PreviewTable<'_, T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} items ", self.0.len())?;
        let mut list = f.debug_list();
        list.entries(self.0.iter().take(PREVIEW_ITEMS));
        if self.0.len() > PREVIEW_ITEMS {
            list.finish_non_exhaustive()
        } else {
            list.finish()
        }
    }
}

#[cfg(test)]
mod tests {
    use super::{PreviewBytes, PreviewTable};

    #[test]
    fn previews_show_the_length_and_the_first_items() {
        assert_eq!(format!("{:?}", PreviewBytes(&[])), "0 bytes []");
        assert_eq!(format!("{:?}", PreviewBytes(&[1, 0xAB])), "2 bytes [01 ab]");
        let big = vec![7u8; 1 << 20];
        assert_eq!(
            format!("{:?}", PreviewBytes(&big)),
            "1048576 bytes [07 07 07 07 ..]"
        );
        assert_eq!(format!("{:?}", PreviewTable(&[1u16, 2])), "2 items [1, 2]");
        let words: Vec<u32> = (0..100_000).collect();
        assert_eq!(
            format!("{:?}", PreviewTable(&words)),
            "100000 items [0, 1, 2, 3, ..]"
        );
    }
}
