//! A resource calendar: the busy intervals of one link, NIU port or DRAM channel. A packet reserves the
//! earliest gap of its length that starts no earlier than it arrives (first come, first served in the
//! order packets are processed, with back-filling of earlier gaps), so resources are never double-booked
//! and are work-conserving up to the order of processing.
//!
//! Intervals are kept in time order in a vector whose live part starts at `head`. Reservations on one
//! resource arrive roughly in time order, so a search starts where the previous one booked (a cursor);
//! intervals that ended before the current time (the `floor` the caller passes) are dropped from the front
//! by each search and whenever the vector is full (`head` moves on, and the dead prefix is reclaimed now
//! and then), which keeps the calendar to what is still ahead. Between those, ended intervals may stay:
//! they lie before every start a search can return, so they change no answer. An interval inserted in the middle, or a booking that joins its two
//! neighbours into one, shifts the shorter side: the front moves back into the dead prefix when it can,
//! or forward into it.
//!
//! On a congested resource the search for a gap walks many short gaps. Each search leaves a hint: "no
//! reservation of `dur` or more cycles can start in `[from, to)`". Reservations only add busy time, so the
//! hint stays true, and the next search with at least that length and a start inside the range begins at
//! `to` — the same answer as a full search, reached without walking the gaps again.
//!
//! A one-flit packet of another virtual channel (a read request, a write acknowledgement) books no gap:
//! routers interleave the flits of different virtual channels one by one, so it does not wait for the
//! data and the data does not wait for a gap around it. Its cycle lengthens the data it meets instead
//! ([`Calendar::pass_flit`]).

/// Busy intervals of one resource, plus its counters.
///
/// A reservation that falls after everything booked (most of them) reads and writes only the first 64
/// bytes: the vector's pointer and length, the mirror of the last interval's end, the counters and the
/// debt. Everything the searches need sits after them, and intervals that ended are forgotten only by a
/// search or when the vector is full: thousands of calendars are touched in turn, so a reservation that
/// reaches into a second line or the front of its buffer waits for memory.
#[derive(Debug, Clone, Default)]
#[repr(C, align(64))]
pub struct Calendar {
    /// Sorted, disjoint, non-adjacent `[start, end)` intervals (cycles) from `head` on; before `head`,
    /// forgotten ones. Intervals that ended before the current time may still be live: they never change
    /// an answer (no reservation starts before the time it is made at).
    iv: Vec<(u64, u64)>,
    /// The end of the last interval (`0`: none, as every interval ends after cycle 0).
    last_end: u64,
    /// Total cycles reserved.
    pub busy: u64,
    /// Total payload bytes carried.
    pub bytes: u64,
    /// Reservations made.
    pub uses: u64,
    /// Cycles owed by the next reservation: one-flit packets of other virtual channels that crossed while
    /// the resource was idle ([`Calendar::pass_flit`]).
    debt: u64,
    /// Just after the latest of those flits crossed: a reservation from this time on does not meet them.
    debt_until: u64,
    /// Index of the first live interval.
    head: usize,
    /// At most the end of the first live interval (`0` after the calendar was found idle): a search whose
    /// floor is before it has nothing to forget and leaves the front of the buffer, rarely near its back in
    /// memory, alone.
    front_end: u64,
    /// Where the last search placed its booking (an index into `iv`, possibly stale): the next search on a
    /// busy resource mostly lands within a few intervals of it, so it starts there.
    cursor: usize,
    /// The last search's hint: no start in `[hint.1, hint.2)` fits `hint.0` or more cycles (`hint.0 == 0`:
    /// none yet).
    hint: (u64, u64, u64),
}

impl Calendar {
    /// An idle resource.
    pub fn new() -> Calendar {
        Calendar::default()
    }

    /// Drop the intervals that ended at or before `t` (nothing will be reserved before `t` any more), and
    /// reclaim the dead prefix once it outweighs the live part.
    fn forget_until(&mut self, t: u64) {
        if self.front_end > t {
            return;
        }
        let mut h = self.head;
        while h < self.iv.len() && self.iv[h].1 <= t {
            h += 1;
        }
        if h == self.iv.len() {
            self.iv.clear();
            self.head = 0;
            self.cursor = 0;
            self.last_end = 0;
            self.front_end = 0;
            return;
        }
        if h >= 64 && h >= self.iv.len() - h {
            self.iv.drain(..h);
            self.cursor = self.cursor.saturating_sub(h);
            h = 0;
        }
        self.head = h;
        self.front_end = self.iv[h].1;
    }

    /// The live intervals.
    #[inline]
    fn live(&self) -> &[(u64, u64)] {
        &self.iv[self.head..]
    }

    /// Reserve `dur` cycles starting at the earliest time ≥ `earliest` where the resource is free for
    /// that long; returns the start. `bytes` is added to the counters.
    pub fn reserve(&mut self, earliest: u64, dur: u64, bytes: u64) -> u64 {
        self.reserve_after(0, earliest, dur, bytes)
    }

    /// [`Calendar::reserve`], where no reservation will ever again start before `floor` (the current
    /// time, at most `earliest`): intervals that ended by then may be forgotten.
    pub fn reserve_after(&mut self, floor: u64, earliest: u64, dur: u64, bytes: u64) -> u64 {
        self.busy += dur;
        self.bytes += bytes;
        self.uses += 1;
        if dur == 0 {
            return earliest;
        }
        let dur = if self.debt != 0 {
            let (debt, until) = (std::mem::take(&mut self.debt), std::mem::take(&mut self.debt_until));
            if earliest < until { dur + debt } else { dur }
        } else {
            dur
        };
        // Most reservations fall after everything booked so far.
        if earliest >= self.last_end {
            let end = earliest + dur;
            if earliest == self.last_end && earliest != 0 {
                self.iv.last_mut().expect("a last end is an interval's").1 = end;
            } else {
                if self.iv.len() == self.iv.capacity() {
                    self.forget_until(floor);
                }
                self.iv.push((earliest, end));
            }
            self.last_end = end;
            return earliest;
        }
        self.forget_until(floor);
        self.search(earliest, dur)
    }

    /// Book `dur` cycles at the earliest start ≥ `earliest` that is free for that long, when something is
    /// booked after `earliest`.
    #[inline(never)]
    fn search(&mut self, earliest: u64, dur: u64) -> u64 {
        // Where the search may start: after the range the last search found too full for this length.
        let (hd, hf, ht) = self.hint;
        let from = if hd != 0 && dur >= hd && earliest >= hf && earliest < ht { ht } else { earliest };
        let live = self.live();
        let mut i = Self::first_ending_after(live, from, self.cursor.saturating_sub(self.head));
        let mut t = from;
        for &(s, e) in &live[i..] {
            if t + dur <= s {
                break;
            }
            t = t.max(e);
            i += 1;
        }
        self.hint = (dur, earliest, t);
        // Insert [t, t+dur) before live index i, merging with neighbours that touch it.
        let end = t + dur;
        let h = self.head;
        let n = self.iv.len() - h;
        let merge_prev = i > 0 && self.iv[h + i - 1].1 == t;
        let merge_next = i < n && self.iv[h + i].0 == end;
        self.cursor = match (merge_prev, merge_next) {
            (true, true) => {
                // The booking joins its two neighbours into one: the shorter side moves by one.
                if i - 1 < n - i - 1 {
                    self.iv[h + i].0 = self.iv[h + i - 1].0;
                    self.iv.copy_within(h..h + i - 1, h + 1);
                    self.head = h + 1;
                    h + i
                } else {
                    self.iv[h + i - 1].1 = self.iv[h + i].1;
                    self.iv.remove(h + i);
                    h + i - 1
                }
            }
            (true, false) => {
                self.iv[h + i - 1].1 = end;
                h + i - 1
            }
            (false, true) => {
                self.iv[h + i].0 = t;
                h + i
            }
            (false, false) => {
                if i == 0 {
                    // A new first interval, ending before the old one did.
                    self.front_end = self.front_end.min(end);
                }
                if h > 0 && i < n - i {
                    // Move the front back into the dead prefix.
                    self.iv.copy_within(h..h + i, h - 1);
                    self.head = h - 1;
                    self.iv[h - 1 + i] = (t, end);
                    h - 1 + i
                } else {
                    self.iv.insert(h + i, (t, end));
                    h + i
                }
            }
        };
        // The busy time now ends at the later of the old end and this booking's.
        self.last_end = self.last_end.max(end);
        debug_assert_eq!(self.last_end, self.iv.last().map_or(0, |l| l.1));
        debug_assert!(self.live().first().is_none_or(|f| self.front_end <= f.1), "front_end is a lower bound");
        t
    }

    /// Index of the first interval that ends after `t`, searched from index `c` (any index gives the same
    /// answer). After the past is forgotten, searches on a busy resource start far from the front of a
    /// calendar whose bookings run far ahead — about 126 intervals from the front of 262 on average in the
    /// 16 KiB × 256 Blackhole all-to-all point — but 9 in 10 of them within 8 intervals of where the
    /// resource's previous search booked. So the search gallops from `c` (1, 2, 4, … intervals, forward or
    /// back) and then bisects the last step.
    fn first_ending_after(iv: &[(u64, u64)], t: u64, c: usize) -> usize {
        let n = iv.len();
        let c = c.min(n);
        // Every interval before `lo` ends at or before `t`; the one at `hi` (if any) ends after it.
        let (mut lo, mut hi);
        let mut step = 1;
        if c < n && iv[c].1 <= t {
            lo = c + 1;
            hi = loop {
                let j = lo + step - 1;
                if j >= n {
                    break n;
                }
                if iv[j].1 > t {
                    break j;
                }
                lo = j + 1;
                step *= 2;
            };
        } else {
            hi = c;
            lo = loop {
                if hi < step {
                    break 0;
                }
                let j = hi - step;
                if iv[j].1 <= t {
                    break j + 1;
                }
                hi = j;
                step *= 2;
            };
        }
        while lo < hi {
            let mid = lo + (hi - lo) / 2;
            if iv[mid].1 <= t {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        lo
    }

    /// A one-flit packet of another virtual channel (a read request, a write acknowledgement) crossing at
    /// `t`. Its flit interleaves with the data booked here rather than waiting for a gap, so it books
    /// no gap of its own: if the resource is booked at or after `t`, the booked data ends one cycle later;
    /// if it is idle then, the next reservation that starts by `t` pays the cycle.
    pub fn pass_flit(&mut self, t: u64) {
        self.busy += 1;
        self.uses += 1;
        if t < self.last_end {
            self.last_end += 1;
            self.iv.last_mut().expect("a last end is an interval's").1 = self.last_end;
        } else {
            self.debt += 1;
            self.debt_until = self.debt_until.max(t + 1);
        }
    }

    /// Forget intervals that ended at or before `now` (nothing can be reserved before `now` any more).
    pub fn prune(&mut self, now: u64) {
        self.forget_until(now);
    }

    /// When the last reservation ends (0: nothing booked since the calendar was last found idle).
    pub fn free_after(&self) -> u64 {
        self.last_end
    }

    /// Number of stored intervals.
    pub fn intervals(&self) -> usize {
        self.iv.len() - self.head
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn first_come_first_served_with_back_filling() {
        let mut c = Calendar::new();
        assert_eq!(c.reserve(100, 50, 0), 100); // [100,150)
        assert_eq!(c.reserve(120, 10, 0), 150); // overlaps: after
        assert_eq!(c.reserve(10, 20, 0), 10); // fits before
        // The gap [30,100) is too short for 80 cycles: the next start is after [100,160).
        assert_eq!(c.reserve(20, 80, 0), 160);
        assert_eq!(c.reserve(20, 70, 0), 30); // but 70 cycles fit exactly
        assert_eq!(c.busy, 230);
    }

    #[test]
    fn exact_fit_gaps_are_used_and_intervals_merge() {
        let mut c = Calendar::new();
        c.reserve(0, 10, 0);
        c.reserve(20, 10, 0);
        assert_eq!(c.reserve(0, 10, 0), 10);
        assert_eq!(c.intervals(), 1);
        assert_eq!(c.free_after(), 30);
        c.prune(30);
        assert_eq!(c.intervals(), 0);
        assert_eq!(c.reserve(5, 3, 0), 5);
    }

    /// The search as it was before hints: the first start ≥ `earliest` free for `dur` cycles.
    fn naive(iv: &[(u64, u64)], earliest: u64, dur: u64) -> u64 {
        let mut t = earliest;
        for &(s, e) in iv {
            if e <= t {
                continue;
            }
            if t + dur <= s {
                break;
            }
            t = t.max(e);
        }
        t
    }

    /// Sorted disjoint intervals `iv` with `booking` added, touching neighbours merged.
    fn with_booking(mut iv: Vec<(u64, u64)>, booking: (u64, u64)) -> Vec<(u64, u64)> {
        iv.push(booking);
        iv.sort_unstable();
        let mut merged: Vec<(u64, u64)> = Vec::new();
        for (s, e) in iv {
            match merged.last_mut() {
                Some(l) if l.1 >= s => {
                    assert_eq!(l.1, s, "never double-booked");
                    l.1 = e;
                }
                _ => merged.push((s, e)),
            }
        }
        merged
    }

    #[test]
    fn the_search_from_any_start_finds_the_first_interval_ending_after_t() {
        for n in [0usize, 1, 2, 3, 7, 64, 300] {
            let iv: Vec<(u64, u64)> = (0..n as u64).map(|k| (10 * k + 2, 10 * k + 7)).collect();
            for t in (0..10 * n as u64 + 12).step_by(3) {
                let want = iv.iter().position(|&(_, e)| e > t).unwrap_or(n);
                for c in 0..n + 3 {
                    assert_eq!(Calendar::first_ending_after(&iv, t, c), want, "n {n}, t {t}, from {c}");
                }
            }
        }
    }

    #[test]
    fn hinted_searches_give_the_full_searchs_answer() {
        // A congested resource: many reservations of a few lengths, arriving out of order around a
        // slowly advancing floor; every answer equals a full search over the intervals at that moment.
        let mut c = Calendar::new();
        let mut x = 88172645463325252u64;
        let mut floor = 0u64;
        for _ in 0..20000 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            floor += x % 3;
            let earliest = floor + (x >> 8) % 400;
            let dur = [16, 16, 16, 33, 8, 1][(x >> 20) as usize % 6];
            let before: Vec<(u64, u64)> = c.live().iter().copied().filter(|&(_, e)| e > floor).collect();
            let want = naive(&before, earliest, dur);
            assert_eq!(c.reserve_after(floor, earliest, dur, 0), want);
            assert_eq!(c.live().to_vec(), with_booking(before, (want, want + dur)));
        }
    }

    /// The reference: one sorted vector, searched from the front, with the same debt rule.
    #[derive(Default)]
    struct Naive {
        iv: Vec<(u64, u64)>,
        debt: u64,
        debt_until: u64,
    }

    impl Naive {
        fn reserve(&mut self, floor: u64, earliest: u64, dur: u64) -> u64 {
            let (debt, until) = (std::mem::take(&mut self.debt), std::mem::take(&mut self.debt_until));
            let dur = if earliest < until { dur + debt } else { dur };
            self.iv.retain(|&(_, e)| e > floor);
            let t = naive(&self.iv, earliest, dur);
            self.iv = with_booking(std::mem::take(&mut self.iv), (t, t + dur));
            t
        }

        fn pass_flit(&mut self, t: u64) {
            match self.iv.last_mut() {
                Some(l) if t < l.1 => l.1 += 1,
                _ => {
                    self.debt += 1;
                    self.debt_until = self.debt_until.max(t + 1);
                }
            }
        }
    }

    #[test]
    fn deep_calendars_book_merge_and_forget_as_one_plain_sorted_vector_would() {
        // Bookings spread far ahead of a moving floor keep hundreds of intervals live, passing flits fall on
        // booked and idle stretches, gaps open and close anywhere, and the front is forgotten; every answer
        // and the whole calendar match the reference.
        for seed in [1u64, 0x9e3779b97f4a7c15, 88172645463325252] {
            let (mut c, mut r) = (Calendar::new(), Naive::default());
            let mut x = seed;
            let mut floor = 0u64;
            let mut deepest = 0;
            for step in 0..30000 {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                floor += x % 128;
                let earliest = floor + (x >> 8) % [300, 5000, 40000][step / 10000];
                let dur = [40, 3, 1, 257, 16, 2][(x >> 20) as usize % 6];
                if (x >> 30) % 5 == 0 {
                    c.pass_flit(earliest);
                    r.pass_flit(earliest);
                } else {
                    assert_eq!(c.reserve_after(floor, earliest, dur, 0), r.reserve(floor, earliest, dur));
                }
                if step % 97 == 0 {
                    r.iv.retain(|&(_, e)| e > floor);
                    c.prune(floor);
                    assert_eq!(c.live().to_vec(), r.iv, "seed {seed:#x}, step {step}");
                    assert_eq!(c.intervals(), r.iv.len());
                    assert_eq!(c.free_after(), r.iv.last().map_or(0, |l| l.1));
                }
                deepest = deepest.max(c.intervals());
            }
            assert!(deepest >= 128, "the test keeps calendars deep (seed {seed:#x}: {deepest} intervals at most)");
        }
    }

    #[test]
    fn a_passing_flit_lengthens_the_booked_data_or_the_next_reservation_that_meets_it() {
        let mut c = Calendar::new();
        assert_eq!(c.reserve(10, 20, 0), 10); // [10,30)
        c.pass_flit(15); // crosses the booked data: it ends at 31
        assert_eq!(c.free_after(), 31);
        assert_eq!(c.reserve(12, 5, 0), 31);
        // On the idle link at 50, a flit is paid by a reservation that starts by then...
        c.pass_flit(50);
        assert_eq!(c.reserve(48, 4, 0), 48);
        assert_eq!(c.free_after(), 53);
        // ...and not by one that starts after it crossed.
        c.pass_flit(60);
        assert_eq!(c.reserve(70, 4, 0), 70);
        assert_eq!(c.free_after(), 74);
        assert_eq!(c.busy, 20 + 5 + 4 + 4 + 3, "every flit counts once");
    }

    #[test]
    fn bookings_that_never_search_still_forget_the_past_when_the_vector_fills() {
        // Every booking falls after everything booked (the fast path, which forgets nothing by itself),
        // with gaps so that each is an interval of its own; the floor follows 1000 cycles behind. Only
        // about 50 intervals are ever live, and the vector stays near that instead of holding all 100 k.
        let mut c = Calendar::new();
        for k in 0..100_000u64 {
            let at = k * 20;
            assert_eq!(c.reserve_after(at.saturating_sub(1000), at, 10, 0), at);
        }
        assert!(c.iv.capacity() <= 256, "{} intervals kept", c.iv.capacity());
        c.prune(100_000 * 20 - 1000);
        assert_eq!(c.intervals(), 50);
        assert_eq!(c.free_after(), 99_999 * 20 + 10);
    }

    #[test]
    fn the_past_is_forgotten_but_never_double_booked() {
        let mut c = Calendar::new();
        for k in 0..10 {
            c.reserve(k * 100, 10, 0);
        }
        // At time 550 the first six intervals are over.
        assert_eq!(c.reserve_after(550, 600, 10, 0), 610);
        assert_eq!(c.intervals(), 4);
        assert_eq!(c.reserve_after(550, 555, 45, 0), 555);
        assert_eq!(c.reserve_after(550, 555, 50, 0), 620);
    }
}
