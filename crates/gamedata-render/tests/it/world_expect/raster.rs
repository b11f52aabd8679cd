//! The arithmetic of "The client's world view (isometric)" (docs/formats/uo.md), written
//! again from the text: the 5-to-8-bit table, `CalculateNormal`, the light, and a
//! triangle rasteriser in quarter pixels with the top-left rule and counter-clockwise
//! culling.

/// The client's 5-to-8-bit table: `v * 255 / 31` rounded down (docs/formats/uo.md, "The
/// client's radar map").
pub(crate) fn c5to8(v: u16) -> u8 {
    (u32::from(v & 31) * 255 / 31) as u8
}

/// A 15-bit colour (red bits 10..14) as 8-bit red, green, blue.
pub(crate) fn rgb8(c: u16) -> [u8; 3] {
    [c5to8(c >> 10), c5to8(c >> 5), c5to8(c)]
}

fn cross(a: [f32; 3], b: [f32; 3]) -> [f32; 3] {
    [
        a[1] * b[2] - a[2] * b[1],
        a[2] * b[0] - a[0] * b[2],
        a[0] * b[1] - a[1] * b[0],
    ]
}

/// `Land.CalculateNormal(tile, north, east, south, west)`: the normal and whether the
/// neighbourhood is not flat. Each of the four (u, v) pairs adds v x u; the sum is
/// normalised, in 32-bit floats.
pub(crate) fn normal(tile: i32, north: i32, east: i32, south: i32, west: i32) -> ([f32; 3], bool) {
    if tile == north && tile == east && tile == south && tile == west {
        return ([0.0, 0.0, 1.0], false);
    }
    let d = |h: i32| (4 * (h - tile)) as f32;
    let (w, s, e, n) = (d(west), d(south), d(east), d(north));
    let pairs = [
        ([-22.0, -22.0, w], [-22.0, 22.0, s]),
        ([-22.0, 22.0, s], [22.0, 22.0, e]),
        ([22.0, 22.0, e], [22.0, -22.0, n]),
        ([22.0, -22.0, n], [-22.0, -22.0, w]),
    ];
    let mut sum = [0.0f32; 3];
    for (u, v) in pairs {
        let c = cross(v, u);
        for k in 0..3 {
            sum[k] += c[k];
        }
    }
    (normalise(sum), true)
}

/// `v` over its length.
pub(crate) fn normalise(v: [f32; 3]) -> [f32; 3] {
    let len = (v[0] * v[0] + v[1] * v[1] + v[2] * v[2]).sqrt();
    [v[0] / len, v[1] / len, v[2] / len]
}

/// `get_light` with Brightlight 1.5: base = max(n . l, 0) / 2 + 0.5 with l = (0, 1, 1)
/// normalised; light = base + 1.5 (base - 0.85355339) - (base - 0.85355339).
pub(crate) fn light(n: [f32; 3]) -> f32 {
    let n = normalise(n);
    let l = normalise([0.0, 1.0, 1.0]);
    let dot = n[0] * l[0] + n[1] * l[1] + n[2] * l[2];
    let base = dot.max(0.0) / 2.0 + 0.5;
    let k = base - 0.853_553_4;
    base + (1.5 * k - k)
}

/// A channel times the light, rounded to nearest and clamped.
pub(crate) fn lit(c: u8, light: f32) -> u8 {
    (f32::from(c) * light).round().clamp(0.0, 255.0) as u8
}

/// A point in quarter pixels.
type Q = (i64, i64);

/// The edge function of a -> b at p: positive on the right-hand side of travel on a screen
/// whose y grows down.
fn edge(a: Q, b: Q, p: Q) -> i64 {
    (b.0 - a.0) * (p.1 - a.1) - (b.1 - a.1) * (p.0 - a.0)
}

/// A top edge (horizontal, the triangle below it) or a left edge (the triangle to its
/// right), for a triangle clockwise on the screen.
fn top_left(a: Q, b: Q) -> bool {
    let (dx, dy) = (b.0 - a.0, b.1 - a.1);
    (dy == 0 && dx > 0) || dy < 0
}

/// The pixels whose sample point lies in the triangle of the whole-pixel vertices `v`
/// (each moved a quarter pixel left and up), restricted to the pixels x in x0..x1, y in
/// y0..y1, with the barycentric weights of the three vertices at the sample point
/// (32-bit floats), and the exact edge values and area the weights are ratios of (for the
/// exact texel). A triangle counter-clockwise on the screen, or degenerate, gives none.
pub(crate) fn triangle(
    v: [(i64, i64); 3],
    clip: (i64, i64, i64, i64),
    mut f: impl FnMut(i64, i64, [f32; 3], [i64; 3], i64),
) {
    let q = v.map(|(x, y)| (4 * x - 1, 4 * y - 1));
    let [a, b, c] = q;
    let area = edge(a, b, c);
    if area <= 0 {
        return;
    }
    let min = |k: fn(&Q) -> i64| q.iter().map(k).min().unwrap_or(0);
    let max = |k: fn(&Q) -> i64| q.iter().map(k).max().unwrap_or(0);
    // Pixel p samples 4p + 2: 4p + 2 >= lo means p >= ceil((lo - 2) / 4).
    let first = |lo: i64| -((2 - lo).div_euclid(4));
    let last = |hi: i64| (hi - 2).div_euclid(4);
    let (x0, y0, x1, y1) = clip;
    let xs = first(min(|p| p.0)).max(x0)..=last(max(|p| p.0)).min(x1 - 1);
    let ys = first(min(|p| p.1)).max(y0)..=last(max(|p| p.1)).min(y1 - 1);
    let edges = [(b, c), (c, a), (a, b)];
    let rules = edges.map(|(s, e)| top_left(s, e));
    for py in ys {
        for px in xs.clone() {
            let p = (4 * px + 2, 4 * py + 2);
            let w = edges.map(|(s, e)| edge(s, e, p));
            let inside = w
                .iter()
                .zip(rules)
                .all(|(&w, rule)| w > 0 || (w == 0 && rule));
            if inside {
                let total = area as f32;
                f(px, py, w.map(|w| w as f32 / total), w, area);
            }
        }
    }
}
