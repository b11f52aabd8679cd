//! TMX read as quick-xml's events arrive: the map's children in the document's order, each
//! `<properties>`, `<tileset>` and `<layer>` made an element when it ends and handed on,
//! each `<object>` of an `<objectgroup>` the same, one at a time; everything else skipped.
//! The whole document is checked all the same, to its end: every element counted, its
//! nesting bounded and its attributes read, a document type refused. Those errors come
//! first, as when the document was read whole before the map: past the map's first error
//! the reading goes on for them (and for the map's properties, whose header errors come
//! before the layers').
//!
//! Names, attributes and text are borrowed from the text where XML does not change them;
//! only the text of a property and of a layer's data is kept.

use std::borrow::Cow;

use quick_xml::events::attributes::Attributes;
use quick_xml::events::{BytesStart, Event};
use quick_xml::{Reader, XmlVersion};
use wap_core::{LevelData, Limits};

use super::Builder;
use super::element::{Budget, Element, bad, owned};
use crate::TiledError;

/// The deepest element nesting read (a TMX map's is 5).
const MAX_DEPTH: usize = 16;

/// Reads the level of TMX `text` (see the module's documentation): the map's children as
/// they come, then the rest of the document, checked.
pub(super) fn level_from_tmx(text: &str, limits: &Limits) -> Result<LevelData, TiledError> {
    let mut xml = Xml::new(text, limits);
    let mut level = None;
    loop {
        match xml.next()? {
            Item::Open(e, empty) if e.name == "map" && level.is_none() => {
                level = Some(map(&mut xml, &e, empty, limits)?);
            }
            Item::Open(_, false) => xml.skip()?,
            Item::Eof => break,
            Item::Open(_, true) | Item::Close | Item::Text(_) => {}
        }
    }
    level
        .ok_or_else(|| bad("the document", "no <map>", "a TMX map"))?
        .finish()
}

/// The children of `<map>` `e`, read into a level (past the level's first error, only the
/// map's properties are).
fn map<'a, 'l>(
    xml: &mut Xml<'a>,
    e: &Element<'a>,
    empty: bool,
    limits: &'l Limits,
) -> Result<Builder<'a, 'l>, TiledError> {
    let mut level = Builder::new(e, limits);
    if empty {
        return Ok(level);
    }
    loop {
        match xml.next()? {
            Item::Open(e, empty) => match e.name.as_ref() {
                "properties" => level.properties(xml.element(e, empty)?),
                "tileset" if level.reading() => level.tileset(xml.element(e, empty)?),
                "layer" if level.reading() => {
                    let mark = xml.budget.mark();
                    level.tile_layer(&xml.element(e, empty)?);
                    xml.budget.release(mark);
                }
                "objectgroup" if level.reading() => objects(xml, &mut level, &e, empty)?,
                _ if !empty => xml.skip()?,
                _ => {}
            },
            Item::Close | Item::Eof => return Ok(level),
            Item::Text(_) => {}
        }
    }
}

/// The objects of `<objectgroup>` `e`, one at a time.
fn objects<'a>(
    xml: &mut Xml<'a>,
    level: &mut Builder<'a, '_>,
    e: &Element<'a>,
    empty: bool,
) -> Result<(), TiledError> {
    level.begin_objects(e.attribute("name").unwrap_or_default());
    if !empty {
        loop {
            match xml.next()? {
                Item::Open(o, empty) if o.name == "object" && level.reading() => {
                    let mark = xml.budget.mark();
                    level.object(&xml.element(o, empty)?);
                    xml.budget.release(mark);
                }
                Item::Open(_, false) => xml.skip()?,
                Item::Close | Item::Eof => break,
                Item::Open(_, true) | Item::Text(_) => {}
            }
        }
    }
    level.end_objects();
    Ok(())
}

/// What the document holds next.
pub(super) enum Item<'a> {
    /// An element's start (its children follow) or, `true`, an empty element: its name
    /// and attributes.
    Open(Element<'a>, bool),
    /// The end of the element last opened.
    Close,
    /// Text, its line ends as XML 1.0 makes them.
    Text(Cow<'a, str>),
    /// The end of the document.
    Eof,
}

/// The document's events as [`Item`]s, checked: well-formed, no document type, at most
/// `Limits::max_records` elements of at most [`MAX_DEPTH`] levels; the elements kept
/// ([`Xml::element`]) charged to a [`Budget`] of `Limits::max_decoded_bytes`, a layer's
/// and an object's given back once read.
pub(super) struct Xml<'a> {
    text: &'a str,
    reader: Reader<&'a [u8]>,
    max_records: u64,
    count: u64,
    depth: usize,
    budget: Budget,
}

impl<'a> Xml<'a> {
    pub(super) fn new(text: &'a str, limits: &Limits) -> Self {
        Xml {
            text,
            reader: Reader::from_str(text),
            max_records: limits.max_records,
            count: 0,
            depth: 0,
            budget: Budget::new(limits),
        }
    }

    pub(super) fn next(&mut self) -> Result<Item<'a>, TiledError> {
        loop {
            let event = self.reader.read_event().map_err(|e| {
                bad(
                    format!("the XML at byte {}", self.reader.error_position()),
                    e.to_string(),
                    "well-formed XML",
                )
            })?;
            let (e, empty) = match event {
                Event::Start(e) => (e, false),
                Event::Empty(e) => (e, true),
                Event::End(_) => {
                    self.depth = self
                        .depth
                        .checked_sub(1)
                        .ok_or_else(|| bad("the XML", "an end tag too many", "balanced tags"))?;
                    return Ok(Item::Close);
                }
                Event::Text(t) => return Ok(Item::Text(t.xml_content(XmlVersion::Implicit1_0))),
                Event::DocType(_) => {
                    return Err(bad("the XML", "a document type", "none (no entities)"));
                }
                Event::Eof if self.depth > 0 => {
                    return Err(bad("the XML", "unclosed elements", "balanced tags"));
                }
                Event::Eof => return Ok(Item::Eof),
                _ => continue,
            };
            let element = self.start(&e)?;
            self.count = self.count.saturating_add(1);
            if self.count > self.max_records {
                return Err(TiledError::TooLarge {
                    what: "XML elements",
                    found: self.count,
                    limit: self.max_records,
                });
            }
            if self.depth >= MAX_DEPTH {
                return Err(bad(
                    format!("<{}>", element.name),
                    "nested deeper",
                    "at most 16 levels",
                ));
            }
            if !empty {
                self.depth = self.depth.saturating_add(1);
            }
            return Ok(Item::Open(element, empty));
        }
    }

    /// A start tag as an element, its attributes normalised as XML 1.0 says, borrowed
    /// from the text.
    fn start(&self, e: &BytesStart<'_>) -> Result<Element<'a>, TiledError> {
        let name_len = e.name().as_ref().len();
        match within(self.text, e) {
            Some(tag) => start_tag(tag, name_len),
            // Not met from a text (the reader's events borrow from it): owned copies.
            None => start_tag(e, name_len).map(|el| {
                let mut owned = Element::new(Cow::<'a, str>::Owned(el.name.to_string()));
                owned.attributes = el
                    .attributes
                    .iter()
                    .map(|(k, v)| (Cow::Owned(k.to_string()), Cow::Owned(v.to_string())))
                    .collect();
                owned
            }),
        }
    }

    /// The rest of the element whose start `top` is (nothing more when `empty`), with its
    /// children and text: each element and text charged to the budget before it is kept.
    pub(super) fn element(
        &mut self,
        top: Element<'a>,
        empty: bool,
    ) -> Result<Element<'a>, TiledError> {
        self.budget.element(&top)?;
        let mut current = top;
        if empty {
            return Ok(current);
        }
        // The ancestors of `current` inside `top`, outermost first (their slots are charged
        // with them: an open element is one of its parent's children once it closes).
        let mut open: Vec<Element<'a>> = Vec::new();
        loop {
            match self.next()? {
                Item::Open(e, true) => {
                    self.budget.element(&e)?;
                    current.children.push(e);
                }
                Item::Open(e, false) => {
                    self.budget.element(&e)?;
                    open.push(std::mem::replace(&mut current, e));
                }
                Item::Close => match open.pop() {
                    Some(parent) => {
                        let done = std::mem::replace(&mut current, parent);
                        current.children.push(done);
                    }
                    None => return Ok(current),
                },
                // Only a property's text (its value) and a layer's data are read: the
                // white space between other elements is not kept.
                Item::Text(t) if current.name == "property" || current.name == "data" => {
                    let before = owned(&current.text);
                    current.push_text(t);
                    self.budget
                        .charge(owned(&current.text).saturating_sub(before))?;
                }
                Item::Text(_) => {}
                Item::Eof => return Err(bad("the XML", "unclosed elements", "balanced tags")),
            }
        }
    }

    /// Skips the rest of the element just opened (not empty), checking it.
    pub(super) fn skip(&mut self) -> Result<(), TiledError> {
        let mut level = 0usize;
        loop {
            match self.next()? {
                Item::Open(_, false) => level = level.saturating_add(1),
                Item::Close if level == 0 => return Ok(()),
                Item::Close => level = level.saturating_sub(1),
                Item::Eof => return Err(bad("the XML", "unclosed elements", "balanced tags")),
                Item::Open(_, true) | Item::Text(_) => {}
            }
        }
    }
}

/// The text of tag `e` (between `<` and `>`) as the same part of `text`, when it is one.
fn within<'a>(text: &'a str, e: &BytesStart<'_>) -> Option<&'a str> {
    let tag: &str = e;
    let start = tag.as_ptr().addr().checked_sub(text.as_ptr().addr())?;
    let part = text.get(start..start.checked_add(tag.len())?)?;
    std::ptr::eq(part.as_ptr(), tag.as_ptr()).then_some(part)
}

/// The element of start tag `tag` (its text between `<` and `>`), its name `name_len`
/// bytes long, borrowing from it.
fn start_tag(tag: &str, name_len: usize) -> Result<Element<'_>, TiledError> {
    let name = tag.get(..name_len).unwrap_or_default();
    let mut element = Element::new(name);
    for a in Attributes::new(tag, name_len) {
        let a = a.map_err(|err| {
            bad(
                format!("an attribute of <{name}>"),
                err.to_string(),
                "key=\"value\"",
            )
        })?;
        let key = a.key.into_inner();
        let value = a.normalized_value(XmlVersion::Implicit1_0).map_err(|err| {
            bad(
                format!("attribute {key} of <{name}>"),
                err.to_string(),
                "text",
            )
        })?;
        element.attributes.push((Cow::Borrowed(key), value));
    }
    Ok(element)
}
