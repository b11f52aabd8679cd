//! One stored stream inflated once for every picture of the export that names
//! it (UOP gumps and animations whose entries share their stored bytes, whatever each
//! declares), its work taken from the decoding budget by the bytes it reads and writes.

use gamedata_io::{InflateError, Limits, inflate_shared};

use super::job::Job;
use super::tally::Drawn;

/// What a picture decodes from the shared stream: the stream's bytes when it decodes to
/// the picture's declared length (or why not), with the bytes of the budget taken for
/// them (the decoder's `reserved`, [`Job::decode_within`]); or what to report instead.
pub(super) enum FromStream {
    Bytes(Result<Vec<u8>, InflateError>, u64),
    Instead(Drawn),
}

/// Inflates the zlib stream `stored` once for pictures declaring it decodes to
/// `declared[i]` bytes each, and gives each picture its part, in the order of `declared`.
///
/// Work and memory: one inflate, reading at most `stored` and writing at most the largest
/// declared length the budget and the job's share afford, plus one byte; before it runs,
/// the stored bytes and those declared are taken from the decoding budget and the
/// declared ones held ([`Job::inflating`]), whatever the stream decodes to. A picture
/// declaring more than that is past the budget or put off (as [`Job::inflating`] says for
/// it), and the next smaller length is tried (at most one try a distinct length); a
/// picture declaring more than the deflate bound allows is an error for itself, as
/// [`gamedata_io::inflate_exact`] says. Pictures declaring the length the stream decodes
/// to take its bytes: the last in place, each other one a copy taken from the budget and
/// held ([`Job::inflated`]).
pub(super) fn inflate_once(
    job: &Job,
    what: &'static str,
    stored: &[u8],
    declared: &[u64],
) -> Vec<FromStream> {
    let read = stored.len() as u64;
    let bound = read.saturating_mul(gamedata_io::MAX_INFLATE_RATIO);
    let mut lengths: Vec<u64> = declared.iter().copied().filter(|&d| d <= bound).collect();
    lengths.sort_unstable_by(|a, b| b.cmp(a));
    lengths.dedup();
    let mut instead: Vec<(u64, Drawn)> = Vec::new();
    let mut max = None;
    for length in lengths {
        match job.inflating(read, length) {
            None => {
                max = Some(length);
                break;
            }
            Some(drawn) => instead.push((length, drawn)),
        }
    }
    let place = |d: u64| instead.iter().position(|&(length, _)| length == d);
    let stream = max.map(|max| {
        inflate_shared(
            what,
            stored,
            max,
            &[],
            &Limits::default().with_max_decoded_bytes(max),
        )
    });
    // Pictures whose length the stream decodes to: all but the last take a copy.
    let good: Vec<usize> = match &stream {
        Some(Ok(stream)) => (0..declared.len())
            .filter(|&i| {
                declared
                    .get(i)
                    .is_some_and(|&d| place(d).is_none() && stream.check(d).is_ok())
            })
            .collect(),
        _ => Vec::new(),
    };
    let mut out: Vec<Option<FromStream>> = declared
        .iter()
        .enumerate()
        .map(|(i, &d)| {
            if let Some(at) = place(d) {
                let drawn = match instead.get(at).map(|(_, drawn)| drawn) {
                    Some(Drawn::Later) => Drawn::Later,
                    _ => Drawn::OverBudget,
                };
                return Some(FromStream::Instead(drawn));
            }
            match &stream {
                // Past the deflate bound (no length asked for then).
                None => Some(FromStream::Bytes(
                    Err(InflateError::Impossible {
                        declared: d,
                        stored: read,
                    }),
                    0,
                )),
                Some(Err(e)) => Some(FromStream::Bytes(Err(*e), 0)),
                Some(Ok(stream)) => match stream.check(d) {
                    Err(e) => Some(FromStream::Bytes(Err(e), 0)),
                    Ok(()) if good.last() == Some(&i) => None,
                    Ok(()) => Some(match job.inflated(d) {
                        None => FromStream::Bytes(Ok(stream.bytes().to_vec()), d),
                        Some(drawn) => FromStream::Instead(drawn),
                    }),
                },
            }
        })
        .collect();
    if let (Some(&last), Some(Ok(stream))) = (good.last(), stream)
        && let (Some(slot), Some(&d)) = (out.get_mut(last), declared.get(last))
    {
        *slot = Some(FromStream::Bytes(stream.into_exact(d), d));
    }
    out.into_iter()
        .map(|o| o.unwrap_or(FromStream::Instead(Drawn::OverBudget)))
        .collect()
}
