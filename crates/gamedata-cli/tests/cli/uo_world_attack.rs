//! Hostile arguments and folders for `uo render --style world`: views without their size,
//! `--view` with `--region`, negative and extreme views, views past the picture cap, the
//! output naming an input, and folders without art, tiledata or hues. Every refusal is a
//! message and status 1, and leaves no file behind.

use super::*;

/// A 64 x 64 drawable world in `dir/w` and the arguments that render it.
fn world(dir: &Path) -> Vec<&'static str> {
    gamedata_ok(
        &[
            "uo", "synth", "w", "--facet", "0", "--width", "64", "--height", "64", "--art",
        ],
        dir,
    );
    vec![
        "uo", "render", "w", "--facet", "0", "--width", "64", "--height", "64", "--style", "world",
    ]
}

fn with<'a>(base: &[&'a str], more: &[&'a str]) -> Vec<&'a str> {
    base.iter().chain(more).copied().collect()
}

#[test]
fn uo_render_world_refuses_bad_views_with_a_message_and_no_file() {
    let dir = tempfile::tempdir().unwrap();
    let base = world(dir.path());
    let cases: [(&[&str], &str); 4] = [
        (&["--view=-100,-100", "-o", "a.png"], "go together"),
        (&["--view-size", "10x10", "-o", "a.png"], "go together"),
        (
            &[
                "--view=-100,-100",
                "--view-size",
                "10x10",
                "--region",
                "0,0,4,4",
                "-o",
                "a.png",
            ],
            "not both",
        ),
        (
            &[
                "--view=-100,-100",
                "--view-size",
                "65536x32768",
                "-o",
                "a.png",
            ],
            "268435456 pixels",
        ),
    ];
    for (args, want) in cases {
        let message = gamedata_fails(&with(&base, args), dir.path());
        assert!(message.contains(want), "{args:?}: {message}");
        assert!(!dir.path().join("a.png").exists(), "{args:?}");
    }
    // A region past the map is refused too.
    let message = gamedata_fails(
        &with(&base, &["--region", "64,64,4,4", "-o", "a.png"]),
        dir.path(),
    );
    assert!(message.contains("outside"), "{message}");
    assert!(!dir.path().join("a.png").exists());
}

/// A negative view is a view: north-west of the world, transparent, written whole.
#[test]
fn uo_render_world_draws_a_negative_view() {
    let dir = tempfile::tempdir().unwrap();
    let base = world(dir.path());
    gamedata_ok(
        &with(
            &base,
            &["--view=-5000,-5000", "--view-size", "16x8", "-o", "n.png"],
        ),
        dir.path(),
    );
    let pixels = png_pixels(&dir.path().join("n.png"));
    assert_eq!(pixels.len(), 16 * 8 * 4);
    assert!(pixels.chunks(4).all(|p| p[3] == 0));
}

/// Views at the ends of i64 are transparent.
#[test]
fn uo_render_world_draws_views_at_the_ends_of_i64() {
    let dir = tempfile::tempdir().unwrap();
    let base = world(dir.path());
    for view in [
        "--view=-9223372036854775808,0",
        "--view=9223372036854775807,9223372036854775807",
    ] {
        gamedata_ok(
            &with(&base, &[view, "--view-size", "8x8", "-o", "x.png"]),
            dir.path(),
        );
        assert!(
            png_pixels(&dir.path().join("x.png"))
                .chunks(4)
                .all(|p| p[3] == 0)
        );
    }
}

/// The output naming an input is refused, and the input is left as it was.
#[test]
fn uo_render_world_refuses_to_write_over_an_input() {
    let dir = tempfile::tempdir().unwrap();
    let base = world(dir.path());
    for input in ["w/art.mul", "w/map0.mul", "w/texmaps.mul", "w/tiledata.mul"] {
        let before = std::fs::read(dir.path().join(input)).unwrap();
        let message = gamedata_fails(
            &with(&base, &["--view=0,0", "--view-size", "8x8", "-o", input]),
            dir.path(),
        );
        assert!(message.contains("inputs"), "{input}: {message}");
        assert_eq!(
            std::fs::read(dir.path().join(input)).unwrap(),
            before,
            "{input}"
        );
    }
}

/// Without texture maps land is drawn flat (a note says so); without tiledata, hues or art
/// the message names the file, and no picture is written.
#[test]
fn uo_render_world_names_the_missing_file() {
    let args = ["--view=-200,0", "--view-size", "400x400", "-o", "m.png"];
    let dir = tempfile::tempdir().unwrap();
    let base = world(dir.path());
    for name in ["texidx.mul", "texmaps.mul"] {
        std::fs::remove_file(dir.path().join("w").join(name)).unwrap();
    }
    let out = gamedata_ok(&with(&base, &args), dir.path());
    assert!(String::from_utf8_lossy(&out.stderr).contains("land is drawn flat"));
    std::fs::remove_file(dir.path().join("m.png")).unwrap();
    for (name, want) in [
        ("hues.mul", "no hues.mul in"),
        ("tiledata.mul", "no tiledata.mul in"),
        ("art.mul", "no art.mul in"),
    ] {
        let dir = tempfile::tempdir().unwrap();
        let base = world(dir.path());
        std::fs::remove_file(dir.path().join("w").join(name)).unwrap();
        let message = gamedata_fails(&with(&base, &args), dir.path());
        assert!(message.contains(want), "{name}: {message}");
        assert!(!dir.path().join("m.png").exists(), "{name}");
    }
}
