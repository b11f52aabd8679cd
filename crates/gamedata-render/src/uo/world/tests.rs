//! The world view's own checks; the independent expectation lives in `tests/it/world_expect`.

#![allow(clippy::indexing_slicing, clippy::arithmetic_side_effects)]

use super::raster::coverage_for_tests;

/// The sample points inside a triangle by testing every pixel of its box: the plain rule
/// the span rasteriser must match.
fn brute(q: [[i64; 2]; 3]) -> Vec<(i64, i64)> {
    let edge = |a: [i64; 2], b: [i64; 2], p: [i64; 2]| {
        (b[0] - a[0]) * (p[1] - a[1]) - (b[1] - a[1]) * (p[0] - a[0])
    };
    let tl = |a: [i64; 2], b: [i64; 2]| {
        let (dx, dy) = (b[0] - a[0], b[1] - a[1]);
        dy < 0 || (dy == 0 && dx > 0)
    };
    let [a, b, c] = q;
    if edge(a, b, c) <= 0 {
        return Vec::new();
    }
    let mut out = Vec::new();
    for y in -40..40 {
        for x in -40..40 {
            let p = [4 * x + 2, 4 * y + 2];
            let ins = |e: i64, t: bool| e > 0 || (e == 0 && t);
            if ins(edge(b, c, p), tl(b, c))
                && ins(edge(c, a, p), tl(c, a))
                && ins(edge(a, b, p), tl(a, b))
            {
                out.push((x, y));
            }
        }
    }
    out
}

#[test]
fn the_span_rasteriser_covers_what_the_per_pixel_rule_covers() {
    let mut seed = 12345u64;
    let mut next = |m: i64| {
        seed = seed
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        ((seed >> 33) as i64).rem_euclid(m) - m / 2
    };
    for _ in 0..3000 {
        let q = [
            [next(120), next(120)],
            [next(120), next(120)],
            [next(120), next(120)],
        ];
        let q = q.map(|[x, y]| [x - 1, y - 1]);
        assert_eq!(coverage_for_tests(q), brute(q), "{q:?}");
    }
    // Quarter-pixel corners as the land's quads have them (4 v - 1).
    for _ in 0..3000 {
        let q = [
            [next(30), next(30)],
            [next(30), next(30)],
            [next(30), next(30)],
        ];
        let q = q.map(|[x, y]| [4 * x - 1, 4 * y - 1]);
        assert_eq!(coverage_for_tests(q), brute(q), "{q:?}");
    }
}
