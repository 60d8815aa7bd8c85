//! Running numbered units of work on the rayon pool with no barrier between batches, while the
//! checkpoint still always holds an exact prefix of the units.
//!
//! Workers take the next unit from a shared counter, so a slow unit holds up only its own thread.
//! A finished unit waits in a small buffer until every unit before it is finished, then joins the
//! running total in unit order: the total is the same for any thread count (the merges the
//! searches use are commutative anyway), and `checkpoint(done, total)` always describes units
//! `0..done` exactly, so `--resume` can skip them. Runs cut into batches with a barrier after each
//! lose the time of the slowest unit of every batch; on `search exhaustive --deck 16-2J2Q2K2A`
//! that was about 3 s of a 61 s run on two cores.

use std::collections::BTreeMap;
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

/// What the workers share: the total of the finished prefix and the units finished past it.
struct Shared<'a, A, S, E> {
    /// Units `0..done` are merged into `total`.
    done: u64,
    total: A,
    waiting: BTreeMap<u64, Option<S>>,
    checkpoint: &'a mut (dyn FnMut(u64, &A) -> Result<(), E> + Send),
    error: Option<E>,
}

/// Runs units `from..to` (those `owns` accepts; the others count as finished at once) on the
/// current rayon pool. `init` makes one scratch value per worker, `play` runs one unit with it,
/// `merge` adds a finished unit to the total. After each unit that extends the finished prefix,
/// `checkpoint(done, &total)` is called (it may throttle itself), under a lock, so it may write a
/// file; its first error stops the run (units started go on to their end) and is returned.
/// `total` holds units `0..from` on entry and units `0..to` on success.
#[allow(clippy::too_many_arguments)]
pub fn run<A, S, W, E>(
    from: u64,
    to: u64,
    total: A,
    owns: &(dyn Fn(u64) -> bool + Sync),
    init: &(dyn Fn() -> W + Sync),
    play: &(dyn Fn(&mut W, u64) -> S + Sync),
    merge: &(dyn Fn(&mut A, S) + Sync),
    checkpoint: &mut (dyn FnMut(u64, &A) -> Result<(), E> + Send),
) -> Result<A, E>
where
    A: Send,
    S: Send,
    E: Send,
{
    let next = AtomicU64::new(from);
    let stop = AtomicBool::new(false);
    let shared = Mutex::new(Shared {
        done: from,
        total,
        waiting: BTreeMap::new(),
        checkpoint,
        error: None,
    });
    let worker = || {
        let mut scratch = init();
        while !stop.load(Ordering::Relaxed) {
            let u = next.fetch_add(1, Ordering::Relaxed);
            if u >= to {
                break;
            }
            // A unit this run does not own is finished at once, with nothing to merge.
            let result = owns(u).then(|| play(&mut scratch, u));
            let mut guard = shared
                .lock()
                .expect("no worker panics while holding the lock");
            let s = &mut *guard;
            s.waiting.insert(u, result);
            let before = s.done;
            while let Some(r) = s.waiting.remove(&s.done) {
                if let Some(r) = r {
                    merge(&mut s.total, r);
                }
                s.done += 1;
            }
            if s.done > before
                && s.error.is_none()
                && let Err(e) = (s.checkpoint)(s.done, &s.total)
            {
                s.error = Some(e);
                stop.store(true, Ordering::Relaxed);
            }
        }
    };
    let threads = rayon::current_num_threads().max(1);
    rayon::scope(|scope| {
        for _ in 0..threads {
            scope.spawn(|_| worker());
        }
    });
    let s = shared.into_inner().expect("no worker panicked");
    match s.error {
        Some(e) => Err(e),
        None => {
            debug_assert_eq!(s.done, to.max(from), "every unit merged");
            debug_assert!(s.waiting.is_empty());
            Ok(s.total)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Runs units `from..to` (unit `u` is worth `u * u`, with uneven work) on `threads` threads,
    /// and checks every checkpoint against the sum over its prefix.
    fn sum_of_squares(
        from: u64,
        to: u64,
        threads: usize,
        owns: &(dyn Fn(u64) -> bool + Sync),
    ) -> u64 {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .unwrap();
        let prefix = |d: u64| (0..d).filter(|&u| owns(u)).map(|u| u * u).sum::<u64>();
        let mut seen = from;
        pool.install(|| {
            run::<u64, u64, u64, ()>(
                from,
                to,
                prefix(from),
                owns,
                &|| 0,
                &|calls, u| {
                    *calls += 1;
                    // Uneven units, so later units often finish before earlier ones.
                    let spin = (u * 7919) % 13 * 2000;
                    std::hint::black_box((0..spin).sum::<u64>());
                    u * u
                },
                &|total, s| *total += s,
                &mut |done, total| {
                    assert!(done > seen, "the prefix only grows");
                    assert_eq!(
                        *total,
                        prefix(done),
                        "a checkpoint holds exactly units 0..{done}"
                    );
                    seen = done;
                    Ok(())
                },
            )
            .unwrap()
        })
    }

    #[test]
    fn any_thread_count_gives_the_sequential_total_and_exact_prefixes() {
        let all = |_| true;
        let want: u64 = (0..500u64).map(|u| u * u).sum();
        for threads in [1, 2, 5] {
            assert_eq!(sum_of_squares(0, 500, threads, &all), want);
        }
        // A resumed run starts from the prefix total.
        assert_eq!(sum_of_squares(123, 500, 3, &all), want);
        // A shard skips the units it does not own but still moves the prefix past them.
        let odd = |u: u64| u % 2 == 1;
        let want_odd: u64 = (0..500u64).filter(|u| u % 2 == 1).map(|u| u * u).sum();
        assert_eq!(sum_of_squares(0, 500, 2, &odd), want_odd);
        // Nothing to do.
        assert_eq!(sum_of_squares(500, 500, 2, &all), want);
    }

    #[test]
    fn a_checkpoint_error_stops_the_run_and_is_returned() {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(2)
            .build()
            .unwrap();
        let played = AtomicU64::new(0);
        let mut calls = 0;
        let r = pool.install(|| {
            run::<u64, u64, (), &str>(
                0,
                100_000,
                0,
                &|_| true,
                &|| (),
                &|_, u| {
                    played.fetch_add(1, Ordering::Relaxed);
                    u
                },
                &|t, s| *t += s,
                &mut |_, _| {
                    calls += 1;
                    if calls == 3 { Err("disk full") } else { Ok(()) }
                },
            )
        });
        assert_eq!(r, Err("disk full"));
        assert!(
            played.load(Ordering::Relaxed) < 100_000,
            "the run stopped early"
        );
    }
}
