//! TexTerr.def: each line's group replaces the id's entry member by member, in the file's
//! order, as ClassicUO's `TexmapsLoader.Load` does over its array of index entries; the
//! model below is that loop, written out over an array.

use mul_core::{TexTerrDef, TexmapRedirect};

/// The client's loop over an array of entries (here each entry named by the id it first
/// belonged to): `(id, group)` lines, ids and members outside `0..records` skipped.
fn model(records: usize, lines: &[(i64, &[i64])]) -> Vec<u32> {
    let mut entries: Vec<u32> = (0..records as u32).collect();
    for &(id, group) in lines {
        if id < 0 || id as usize >= records {
            continue;
        }
        for &member in group {
            if member < 0 || member as usize >= records {
                continue;
            }
            entries[id as usize] = entries[member as usize];
        }
    }
    entries
}

fn sources(def: &TexTerrDef, records: usize) -> Vec<u32> {
    (0..records as u32).map(|id| def.source(id)).collect()
}

#[test]
fn the_last_member_inside_the_index_wins_and_earlier_lines_lend_what_they_gave() {
    let text = "# index {group}\n\
                6 {2} 1\n\
                3 {1, 4, 99}\n\
                5 {6}\n\
                6 {7}\n\
                7 {5}\n\
                8\t{ 8 }\n";
    let def = TexTerrDef::resolve(text.as_bytes(), 10);
    // By hand: 6 <- 2; 3 <- 1 then 4 (99 is past the index); 5 <- 6, which holds 2's
    // entry; 6 <- 7; 7 <- 5, which holds 2's; 8 <- itself.
    assert_eq!(
        def.redirects(),
        [
            TexmapRedirect { id: 3, source: 4 },
            TexmapRedirect { id: 5, source: 2 },
            TexmapRedirect { id: 6, source: 7 },
            TexmapRedirect { id: 7, source: 2 },
        ]
    );
    assert_eq!(def.lines(), 6);
    let lines: [(i64, &[i64]); 6] = [
        (6, &[2]),
        (3, &[1, 4, 99]),
        (5, &[6]),
        (6, &[7]),
        (7, &[5]),
        (8, &[8]),
    ];
    assert_eq!(sources(&def, 10), model(10, &lines));
    assert_eq!(def.source(0), 0);
    assert_eq!(def.source(1_000), 1_000, "past the index: its own");
}

#[test]
fn lines_the_client_skips_are_skipped() {
    let text = "\
        -1 {2}\n\
        12 {2}\n\
        4 {12}\n\
        4 2\n\
        4\n\
        x 4 {2}\n\
        # 4 {2}\n\
        \n\
        2 {1} # 2 {3}\n\
        1 {0x3}\n";
    let def = TexTerrDef::resolve(text.as_bytes(), 12);
    // Id 12 is outside 12 records, member 12 too; `2` is no group; lines of one word or
    // starting with anything but a digit (`-`, a letter, `#`) are not read; a comment ends
    // a line; `0x3` is no member (it must be a whole decimal number).
    assert_eq!(def.redirects(), [TexmapRedirect { id: 2, source: 1 }]);
    // Read: the lines of 2 words or more that start with a number.
    assert_eq!(def.lines(), 5);
}

#[test]
fn random_tables_resolve_as_the_client_s_loop() {
    let mut state = 0x1234_5678u32;
    let mut next = move |n: u32| {
        state ^= state << 13;
        state ^= state >> 17;
        state ^= state << 5;
        state % n
    };
    for round in 0..200 {
        let records = 1 + next(40) as usize;
        let mut lines: Vec<(i64, Vec<i64>)> = Vec::new();
        let mut text = String::new();
        for _ in 0..next(30) {
            let id = i64::from(next(50)) - 5;
            let group: Vec<i64> = (0..next(4)).map(|_| i64::from(next(50)) - 5).collect();
            let words: Vec<String> = group.iter().map(|m| m.to_string()).collect();
            text.push_str(&format!("{id} {{{}}}\n", words.join(", ")));
            lines.push((id, group));
        }
        let def = TexTerrDef::resolve(text.as_bytes(), records);
        let borrowed: Vec<(i64, &[i64])> = lines.iter().map(|(i, g)| (*i, g.as_slice())).collect();
        assert_eq!(
            sources(&def, records),
            model(records, &borrowed),
            "round {round}: {text}"
        );
        assert!(def.redirects().iter().all(|r| r.id != r.source));
        assert!(def.redirects().windows(2).all(|w| w[0].id < w[1].id));
    }
}
