//! `claw-image-sets.dict` (libwap32's list of every PID folder of the real CLAW.REZ, a
//! Python literal): its images, read by scanning for `('PATH', (W, H), (X, Y))`.

/// An image of the list: its path without `.PID`, size and offset in pixels.
pub type ClawImage = (String, (u32, u32), (i32, i32));

/// Every image the list names, each path once, in the list's order.
///
/// # Panics
///
/// If the text is not in the list's form.
pub fn claw_images(text: &str) -> Vec<ClawImage> {
    let mut seen = std::collections::HashSet::new();
    let mut images = Vec::new();
    let mut rest = text;
    while let Some(at) = rest.find("('") {
        rest = &rest[at + 2..];
        let end = rest.find('\'').expect("a closing quote");
        let path = rest[..end].to_owned();
        rest = &rest[end + 1..];
        let numbers: Vec<i64> = rest
            .split(')')
            .take(2)
            .flat_map(|part| part.split(['(', ',']))
            .filter_map(|n| n.trim().parse().ok())
            .collect();
        let [w, h, x, y] = numbers[..] else {
            panic!("{path}: not (W, H), (X, Y) after it");
        };
        if seen.insert(path.clone()) {
            let side = |v: i64| u32::try_from(v).expect("a size in pixels");
            let shift = |v: i64| i32::try_from(v).expect("an offset in pixels");
            images.push((path, (side(w), side(h)), (shift(x), shift(y))));
        }
    }
    images
}
