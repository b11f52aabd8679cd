//! One element of a map as the import reads it (a TMX element, or the TMX element a TMJ
//! object stands for), its custom properties by name, and the text forms of their values.
//!
//! An element's names, attributes and text are borrowed from the map's text where they can
//! be (`Cow::Borrowed`): an attribute or text that XML normalises, or a JSON number, is
//! owned.

use std::borrow::Cow;
use std::cell::Cell;
use std::fmt;

use wap_core::Limits;
use wap_core::raw::Rect;

#[cfg(test)]
use super::probes;

use crate::TiledError;

/// An element: its name, attributes, text and children.
pub(super) struct Element<'a> {
    pub(super) name: Cow<'a, str>,
    pub(super) attributes: Vec<(Cow<'a, str>, Cow<'a, str>)>,
    pub(super) text: Cow<'a, str>,
    pub(super) children: Vec<Element<'a>>,
}

#[cfg(test)]
impl Drop for Element<'_> {
    fn drop(&mut self) {
        live::dropped();
    }
}

impl<'a> Element<'a> {
    /// An element named `name`, with nothing in it yet.
    pub(super) fn new(name: impl Into<Cow<'a, str>>) -> Self {
        #[cfg(test)]
        live::made();
        Element {
            name: name.into(),
            attributes: Vec::new(),
            text: Cow::Borrowed(""),
            children: Vec::new(),
        }
    }

    pub(super) fn attribute(&self, name: &str) -> Option<&str> {
        self.attributes
            .iter()
            .find(|(k, _)| k == name)
            .map(|(_, v)| v.as_ref())
    }

    pub(super) fn children<'e>(&'e self, name: &'e str) -> impl Iterator<Item = &'e Element<'a>> {
        self.children.iter().filter(move |c| c.name == name)
    }

    /// What the element costs, its children left out (each is charged on its own): the
    /// element twice (its slot in its parent's children, and the room a growing list may
    /// keep for one more), its attribute slots and the bytes of its owned names, attributes
    /// and text.
    pub(super) fn cost(&self) -> u64 {
        let slots = self.attributes.capacity() as u64;
        let strings: u64 = self
            .attributes
            .iter()
            .map(|(k, v)| owned(k).saturating_add(owned(v)))
            .sum();
        (std::mem::size_of::<Element<'_>>() as u64)
            .saturating_mul(2)
            .saturating_add(
                slots.saturating_mul(std::mem::size_of::<(Cow<'_, str>, Cow<'_, str>)>() as u64),
            )
            .saturating_add(strings)
            .saturating_add(owned(&self.name))
            .saturating_add(owned(&self.text))
    }

    /// Adds `text` to the element's text (borrowed while it is one piece).
    pub(super) fn push_text(&mut self, text: Cow<'a, str>) {
        if self.text.is_empty() {
            self.text = text;
        } else {
            self.text.to_mut().push_str(&text);
        }
    }

    /// Its custom properties, by name: those of each `<properties>` child, a later one of
    /// a name over an earlier one; errors name them `what`.
    pub(super) fn properties<'e>(&'e self, what: impl Into<What<'e>>) -> Props<'e> {
        let mut list = Vec::new();
        for properties in self.children("properties") {
            for p in properties.children("property") {
                if let Some(name) = p.attribute("name") {
                    list.push((name, p.attribute("value").unwrap_or(p.text.as_ref())));
                }
            }
        }
        let mut props = Props::new(what);
        props.extend(list);
        props
    }
}

/// The bytes the import may hold of what it keeps of the text: elements (an [`Element`]
/// and its slot in its parent's children, its attribute slots, the bytes of its owned
/// names, attributes and text) and the TMJ items read before they are made elements (each
/// list item's value and slot, owned strings). Charged as each is made, before it is kept;
/// given back ([`Budget::release`]) when a layer's or an object's elements are dropped:
/// at most `Limits::max_decoded_bytes` held at once.
pub(super) struct Budget {
    spent: Cell<u64>,
    limit: u64,
    /// The charge that passed the limit, once one did.
    over: Cell<Option<u64>>,
}

/// What the budget's error names.
const KEPT: &str = "bytes of the elements and JSON items kept at once";

impl Budget {
    pub(super) fn new(limits: &Limits) -> Self {
        Budget {
            spent: Cell::new(0),
            limit: limits.max_decoded_bytes,
            over: Cell::new(None),
        }
    }

    /// Spends `bytes`; past the limit, [`TiledError::TooLarge`].
    pub(super) fn charge(&self, bytes: u64) -> Result<(), TiledError> {
        let spent = self.spent.get().saturating_add(bytes);
        self.spent.set(spent);
        if spent > self.limit {
            self.over.set(Some(spent));
            return Err(self.error(spent));
        }
        Ok(())
    }

    /// The bytes held now, to give back to with [`Budget::release`].
    pub(super) fn mark(&self) -> u64 {
        self.spent.get()
    }

    /// Gives back what was charged since `mark`: what was made since is dropped.
    pub(super) fn release(&self, mark: u64) {
        self.spent.set(self.spent.get().min(mark));
    }

    /// [`Budget::charge`] inside a serde deserializer: its error is a custom one, and
    /// [`Budget::exceeded`] gives the budget's.
    pub(super) fn charge_de<E: serde::de::Error>(&self, bytes: u64) -> Result<(), E> {
        self.charge(bytes)
            .map_err(|_| E::custom("past the import's byte budget"))
    }

    /// The budget's error, once a charge passed the limit.
    pub(super) fn exceeded(&self) -> Option<TiledError> {
        self.over.get().map(|spent| self.error(spent))
    }

    fn error(&self, found: u64) -> TiledError {
        TiledError::TooLarge {
            what: KEPT,
            found,
            limit: self.limit,
        }
    }

    /// Spends what element `e` costs as it is now ([`Element::cost`]).
    pub(super) fn element(&self, e: &Element<'_>) -> Result<(), TiledError> {
        self.charge(e.cost())
    }
}

/// The bytes of `s` the import owns (none when it is borrowed from the text).
// The `Cow` itself is asked: whether it borrows or owns.
#[allow(clippy::ptr_arg)]
pub(super) fn owned(s: &Cow<'_, str>) -> u64 {
    match s {
        Cow::Borrowed(_) => 0,
        Cow::Owned(s) => s.capacity() as u64,
    }
}

/// An import error: `what` was read, `found` what it holds (the map's text, its control
/// characters escaped by `gamedata_io::printable` so that the error prints on one line and
/// sends a terminal nothing but text), `expected` what a level needs there.
pub(super) fn bad(
    what: impl Into<String>,
    found: impl Into<String>,
    expected: &'static str,
) -> TiledError {
    let (what, found) = (what.into(), found.into());
    TiledError::Import {
        what: gamedata_io::printable(&what).into_owned(),
        found: gamedata_io::printable(&found).into_owned(),
        expected,
    }
}

/// Values by name: a list sorted by name, one value a name.
#[derive(Default)]
pub(super) struct PropMap<'e>(Vec<(&'e str, &'e str)>);

impl<'e> PropMap<'e> {
    pub(super) fn get(&self, name: &str) -> Option<&'e str> {
        let at = self
            .0
            .binary_search_by(|(k, _)| {
                #[cfg(test)]
                probes::compared(1);
                (*k).cmp(name)
            })
            .ok()?;
        self.0.get(at).map(|(_, v)| *v)
    }

    pub(super) fn contains_key(&self, name: &str) -> bool {
        self.get(name).is_some()
    }
}

/// A tile's custom properties kept past its element (a tileset's tiles are read once and
/// their elements dropped): a list sorted by name, one value a name, the last given of a
/// name (as [`Element::properties`] reads them).
#[derive(Default)]
pub(super) struct TileProps<'a> {
    list: Vec<(Cow<'a, str>, Cow<'a, str>)>,
    /// A name ends in `_hex`.
    hex: bool,
}

impl TileProps<'_> {
    pub(super) fn get(&self, name: &str) -> Option<&str> {
        let at = self
            .list
            .binary_search_by(|(k, _)| {
                #[cfg(test)]
                probes::compared(1);
                k.as_ref().cmp(name)
            })
            .ok()?;
        self.list.get(at).map(|(_, v)| v.as_ref())
    }
}

impl<'a> Element<'a> {
    /// Its custom properties, as [`Element::properties`] reads them, taken out of it (their
    /// names and values moved, not copied).
    pub(super) fn take_properties(&mut self) -> TileProps<'a> {
        let mut list = Vec::new();
        for properties in self.children.iter_mut().filter(|c| c.name == "properties") {
            for p in properties
                .children
                .iter_mut()
                .filter(|c| c.name == "property")
            {
                if let Some(name) = p.take_attribute("name") {
                    let value = match p.take_attribute("value") {
                        Some(v) => v,
                        None => std::mem::take(&mut p.text),
                    };
                    list.push((name, value));
                }
            }
        }
        // The last given first; sorted stably, of a name only the first is kept.
        list.reverse();
        list.sort_by(|a, b| {
            #[cfg(test)]
            probes::compared(1);
            a.0.cmp(&b.0)
        });
        list.dedup_by(|next, kept| next.0 == kept.0);
        TileProps {
            hex: list.iter().any(|(name, _)| name.ends_with("_hex")),
            list,
        }
    }

    /// The value of its first attribute `name`, taken out of it.
    fn take_attribute(&mut self, name: &str) -> Option<Cow<'a, str>> {
        self.attributes
            .iter_mut()
            .find(|(k, _)| k == name)
            .map(|(_, v)| std::mem::take(v))
    }
}

/// What errors name: a text, or an object of an object layer, written out only when an
/// error is made (so that an object does not copy its layer's name, however long).
#[derive(Clone)]
pub(super) enum What<'e> {
    Text(Cow<'e, str>),
    /// `object {id} of layer {layer:?}`.
    Object {
        id: &'e str,
        layer: &'e str,
    },
}

impl fmt::Display for What<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            What::Text(t) => f.write_str(t),
            What::Object { id, layer } => {
                #[cfg(test)]
                probes::named(layer.len());
                write!(f, "object {id} of layer {layer:?}")
            }
        }
    }
}

impl<'e> From<Cow<'e, str>> for What<'e> {
    fn from(t: Cow<'e, str>) -> Self {
        What::Text(t)
    }
}

impl From<String> for What<'_> {
    fn from(t: String) -> Self {
        What::Text(Cow::Owned(t))
    }
}

impl<'e> From<&'e str> for What<'e> {
    fn from(t: &'e str) -> Self {
        What::Text(Cow::Borrowed(t))
    }
}

/// Properties by name, for errors named by `what`: an element's own, and those of a tile
/// that it has where it has none of its own ([`Props::inherit`]).
pub(super) struct Props<'e> {
    pub(super) what: What<'e>,
    pub(super) map: PropMap<'e>,
    /// The tile's properties, looked up after the element's own.
    tile: Option<&'e TileProps<'e>>,
    /// A missing property reads as its default (0, no text, a rectangle of zeros): the
    /// properties of an object added in Tiled.
    pub(super) optional: bool,
    /// A name ends in `_hex` (only then is a text field looked for in hex).
    hex: bool,
}

impl<'e> Props<'e> {
    /// No properties yet, for errors named by `what`.
    pub(super) fn new(what: impl Into<What<'e>>) -> Self {
        Props {
            what: what.into(),
            map: PropMap::default(),
            tile: None,
            optional: false,
            hex: false,
        }
    }

    /// Adds `list`'s values by name, a later one of a name over an earlier one (and over
    /// one there).
    pub(super) fn extend(&mut self, list: Vec<(&'e str, &'e str)>) {
        self.hex |= list.iter().any(|(name, _)| name.ends_with("_hex"));
        // The last given first, then those there; sorted stably, of a name only the
        // first is kept.
        let mut entries: Vec<_> = list.into_iter().rev().collect();
        entries.append(&mut self.map.0);
        entries.sort_by(|a, b| {
            #[cfg(test)]
            probes::compared(1);
            a.0.cmp(b.0)
        });
        entries.dedup_by(|next, kept| next.0 == kept.0);
        self.map.0 = entries;
    }

    /// Gives it the properties of `tile` where it has none of its own, as Tiled does for a
    /// tile object (it may leave out of the file what equals the tile's): a tile's
    /// property `k` (or `k_hex`) is read unless the element has `k` or `k_hex`. The tile's
    /// list is looked up, not copied.
    pub(super) fn inherit(&mut self, tile: &'e TileProps<'e>) {
        self.hex |= tile.hex;
        self.tile = Some(tile);
    }

    /// The value of `name`: the element's own, else its tile's.
    fn value(&self, name: &str) -> Option<&'e str> {
        if let Some(v) = self.map.get(name) {
            return Some(v);
        }
        let v = self.tile?.get(name)?;
        let base = name.strip_suffix("_hex").unwrap_or(name);
        let own = self.map.contains_key(base) || self.map.contains_key(&format!("{base}_hex"));
        (!own).then_some(v)
    }

    /// Whether it has `name`, its own or its tile's.
    pub(super) fn contains(&self, name: &str) -> bool {
        self.value(name).is_some()
    }

    /// The value of `name_hex`.
    fn hex(&self, name: &str) -> Option<&'e str> {
        if !self.hex {
            return None;
        }
        self.value(&format!("{name}_hex"))
    }

    pub(super) fn get(&self, name: &str) -> Result<&str, TiledError> {
        self.value(name).ok_or_else(|| {
            bad(
                format!("{}: property {name}", self.what),
                "none",
                "the property",
            )
        })
    }

    /// `name`'s value, or `default` when it is missing from optional properties.
    pub(super) fn get_or<'s>(
        &'s self,
        name: &str,
        default: &'static str,
    ) -> Result<&'s str, TiledError> {
        match self.value(name) {
            Some(v) => Ok(v),
            None if self.optional => Ok(default),
            None => self.get(name),
        }
    }

    pub(super) fn int(&self, name: &str) -> Result<i32, TiledError> {
        let v = self.get_or(name, "0")?;
        v.trim()
            .parse()
            .map_err(|_| bad(format!("{}: property {name}", self.what), v, "a 32-bit int"))
    }

    /// A 32-bit word written as Tiled's signed int.
    pub(super) fn word(&self, name: &str) -> Result<u32, TiledError> {
        Ok(u32::from_le_bytes(self.int(name)?.to_le_bytes()))
    }

    /// A text field: `name` encoded as Windows-1252, or `name_hex`'s bytes.
    pub(super) fn text(&self, name: &str) -> Result<Vec<u8>, TiledError> {
        if let Some(hex) = self.hex(name) {
            return from_hex(hex).ok_or_else(|| {
                bad(
                    format!("{}: property {name}_hex", self.what),
                    hex,
                    "hex digits",
                )
            });
        }
        let s = self.get_or(name, "")?;
        cp1252(format_args!("{}: property {name}", self.what), s)
    }

    /// Whether the text field `name` (or `name_hex`) is there.
    pub(super) fn has_text(&self, name: &str) -> bool {
        self.contains(name) || self.hex(name).is_some()
    }

    /// A fixed text field of `N` bytes (the text and a NUL at least).
    pub(super) fn field<const N: usize>(&self, name: &str) -> Result<[u8; N], TiledError> {
        let bytes = self.text(name)?;
        let mut out = [0u8; N];
        if bytes.len() >= N {
            return Err(bad(
                format!("{}: property {name}", self.what),
                format!("{} bytes", bytes.len()),
                "fewer bytes than the field",
            ));
        }
        for (o, b) in out.iter_mut().zip(&bytes) {
            *o = *b;
        }
        Ok(out)
    }

    /// A rectangle written `left,top,right,bottom`.
    pub(super) fn rect(&self, name: &str) -> Result<Rect, TiledError> {
        let v = self.get_or(name, "0,0,0,0")?;
        match ints::<4>(v) {
            Some([l, t, r, b]) => Ok(Rect::new(l, t, r, b)),
            None => Err(bad(
                format!("{}: property {name}", self.what),
                v,
                "left,top,right,bottom",
            )),
        }
    }
}

/// `s` encoded as Windows-1252, for the field `what` (written out only for an error).
pub(super) fn cp1252(what: impl fmt::Display, s: &str) -> Result<Vec<u8>, TiledError> {
    let (bytes, _, unmappable) = encoding_rs::WINDOWS_1252.encode(s);
    if unmappable {
        return Err(bad(what.to_string(), s, "Windows-1252 characters"));
    }
    Ok(bytes.into_owned())
}

/// `N` comma-separated 32-bit ints (white space ignored): `None` for another count or a
/// value that is not one.
pub(super) fn ints<const N: usize>(text: &str) -> Option<[i32; N]> {
    let mut out = [0; N];
    let mut n = 0usize;
    for value in csv(text) {
        *out.get_mut(n)? = value.parse().ok()?;
        n = n.saturating_add(1);
    }
    (n == N).then_some(out)
}

/// The values of comma-separated text, trimmed, empty ones left out.
pub(super) fn csv(text: &str) -> impl Iterator<Item = &str> {
    text.split(',').map(str::trim).filter(|s| !s.is_empty())
}

pub(super) fn from_hex(text: &str) -> Option<Vec<u8>> {
    let digits = text.as_bytes();
    if !digits.len().is_multiple_of(2) {
        return None;
    }
    digits
        .chunks_exact(2)
        .map(|p| u8::from_str_radix(std::str::from_utf8(p).ok()?, 16).ok())
        .collect()
}

#[cfg(test)]
pub(super) mod live {
    //! How many elements are alive at once on this thread, at most: what the tests read to
    //! see that the import holds one layer's or one object's elements at a time.
    use std::cell::Cell;

    thread_local! {
        static LIVE: Cell<usize> = const { Cell::new(0) };
        static PEAK: Cell<usize> = const { Cell::new(0) };
    }

    pub(in crate::from_tmx) fn made() {
        LIVE.with(|l| {
            let now = l.get().saturating_add(1);
            l.set(now);
            PEAK.with(|p| p.set(p.get().max(now)));
        });
    }

    pub(in crate::from_tmx) fn dropped() {
        LIVE.with(|l| l.set(l.get().saturating_sub(1)));
    }

    /// The most elements alive at once since the last call (which starts a new count).
    pub(in crate::from_tmx) fn take_peak() -> usize {
        let now = LIVE.with(Cell::get);
        PEAK.with(|p| p.replace(now))
    }
}
