//! One cycle of the router model: wires deliver into buffers and credits come back, every NIU takes a flit
//! from its ejection port and injects one, then every router input picks a VC (blind or not) and every
//! output grants one input (round-robin, or by a fixed priority over its inputs).

use super::channels::{Flit, NO_OWNER, Req, has_credit, pick, queue_order, take_credit};
use super::{Happened, RESPONSE_VC, RouterEvent, RouterNoc, VCS};
use sim_core::Cycle;

impl RouterNoc {
    /// A flit of packet `pkt` at tree node `k` (`tail`: its last), with its first branch's channel and VC.
    #[inline]
    fn flit(&self, pkt: u32, k: u16, tail: bool) -> Flit {
        let hops = &self.pkts[pkt as usize].hops;
        let h = &hops[k as usize];
        let (next, next_vc) = if h.nkids > 0 {
            let kid = &hops[h.kids[0] as usize];
            (kid.chan, kid.vc)
        } else {
            (0, 0)
        };
        Flit { pkt, next, k, nkids: h.nkids, taken: 0, next_vc, tail }
    }

    fn make_live(&mut self, c: usize) {
        if !self.ch[c].live {
            self.ch[c].live = true;
            self.live.push(c as u32);
        }
    }

    fn set_held(&mut self, c: usize, delta: i32) {
        let now = self.now;
        // A flit entering or leaving a buffer is progress (see `RouterNoc::stuck`).
        self.last_move = now;
        let ch = &mut self.ch[c];
        ch.occupancy += ch.held as u64 * (now - ch.since);
        ch.since = now;
        ch.held = (ch.held as i32 + delta) as u32;
        self.buffered = (self.buffered as i64 + delta as i64) as u64;
    }

    /// One cycle (`self.now`), then `now` moves on.
    pub(super) fn step(&mut self) {
        let now = self.now;
        self.due.set(None);
        self.stats.cycles += 1;
        let r = self.p.reserved_flits;
        let live = std::mem::take(&mut self.live);
        let first_eject = self.eject(0) as u32;
        let (mut inputs, mut ejects) = (std::mem::take(&mut self.inputs), std::mem::take(&mut self.ejects));
        inputs.clear();
        ejects.clear();
        // Flits reach the buffers at the far ends of their wires, and credits come back to senders. (A channel
        // takes at most one flit and one credit a cycle: one flit leaves a buffer, and one enters a wire.)
        let arrivals = self.wires.take(now);
        for &(c, v, f) in &arrivals {
            let ch = &mut self.ch[c as usize];
            // A flit of another VC gives a sleeping input another VC to pick.
            if ch.full & (1 << v) == 0 {
                ch.asleep = false;
            }
            ch.on_wire -= 1;
            self.rings.push(ch, v as usize, f);
            self.set_held(c as usize, 1);
        }
        self.wires.put_back(now, arrivals);
        let credits = self.credits.take(now);
        let (first_inject, first_eject_ch) = (self.inject(0) as u32, self.eject(0) as u32);
        for &(c, v) in &credits {
            if (first_inject..first_eject_ch).contains(&c) {
                // A credit for an NIU's injection port wakes the NIU if it sleeps for want of one.
                self.nius[(c - first_inject) as usize].asleep = false;
            }
            self.ch[c as usize].credits_back -= 1;
            let tx = &mut self.tx[c as usize];
            if tx.vc[v as usize].out > r {
                tx.shared_used -= 1;
            }
            tx.vc[v as usize].out -= 1;
            self.wake(c as usize, false);
        }
        self.credits.put_back(now, credits);
        for &c in &live {
            // The channels whose buffers hold flits this cycle, in live-list order: ejection ports, and router
            // inputs (nothing below adds a flit to a buffer before the routers' pass).
            if self.ch[c as usize].full != 0 {
                if c >= first_eject { ejects.push(c) } else { inputs.push(c) }
            }
        }
        self.live = live;
        self.inputs = inputs;
        self.ejects = ejects;
        self.eject_flits();
        self.inject_flits();
        self.route_flits();
        // Channels with nothing left drop off the live list; then when the next flit, credit or packet is due
        // (what `next_activity` asks when no flit is buffered).
        let ch = &mut self.ch;
        self.live.retain(|&c| {
            let x = &mut ch[c as usize];
            x.live = x.full != 0 || x.on_wire != 0 || x.credits_back != 0;
            x.live
        });
        let mut due = u64::MAX;
        if self.buffered == 0 {
            for w in [self.wires.next_due(now + 1), self.credits.next_due(now + 1)].into_iter().flatten() {
                due = due.min(w);
            }
        }
        let (nius, pkts) = (&mut self.nius, &self.pkts);
        self.live_nius.retain(|&n| {
            let x = &mut nius[n as usize];
            for q in 0..2 {
                if let Some(&p) = x.q[q].front() {
                    due = due.min(x.front_due(q, &pkts[p as usize]));
                }
            }
            x.live = !x.q[0].is_empty() || !x.q[1].is_empty();
            x.live
        });
        self.due.set(Some(due));
        self.now += 1;
    }

    /// Put input `u` to sleep if the flit at the front of `v`, its only VC with flits, which could not move,
    /// has one way on and a static VC there (see [`Chan::asleep`]): on the VC's owner when another packet
    /// holds it, else on the channel's credits.
    fn sleep(&mut self, u: usize, v: usize) {
        let f = self.rings.front(&self.ch[u], v);
        if f.nkids != 1 || (self.p.dynamic_responses && f.next_vc & 0b110 == RESPONSE_VC) {
            return;
        }
        let n = f.next as usize;
        let o = self.tx[n].vc[f.next_vc as usize].owner;
        let on_owner = o != NO_OWNER && o != f.pkt;
        let c = &mut self.ch[u];
        c.asleep = true;
        c.sleep_on = f.next;
        self.sleepers[n][on_owner as usize].push(u as u32);
    }

    /// Wake the inputs asleep on channel `n` on its credits (`owner` false: one came back) or its VC owners
    /// (`owner` true: a packet's tail freed a VC): they pick again from the next routers' pass on.
    #[inline]
    fn wake(&mut self, n: usize, owner: bool) {
        let side = owner as usize;
        if self.sleepers[n][side].is_empty() {
            return;
        }
        let mut s = std::mem::take(&mut self.sleepers[n][side]);
        for &u in &s {
            let c = &mut self.ch[u as usize];
            if c.asleep && c.sleep_on == n as u32 {
                c.asleep = false;
            }
        }
        s.clear();
        self.sleepers[n][side] = s;
    }

    /// Every NIU takes one flit per cycle from its ejection port, round-robin over VCs.
    // Kept out of line so that profiles show the cycle's stages apart.
    #[inline(never)]
    fn eject_flits(&mut self) {
        let now = self.now;
        for i in 0..self.ejects.len() {
            let e = self.ejects[i] as usize;
            let c = &mut self.ch[e];
            let v = pick(c.full, c.in_rr);
            c.in_rr = (v as u8 + 1) % VCS as u8;
            let f = self.rings.pop(c, v);
            c.credits_back += 1;
            self.credits.push(now + self.p.credit_delay.max(1), (e as u32, v as u8));
            self.set_held(e, -1);
            self.stats.moves += 1;
            let pk = &mut self.pkts[f.pkt as usize];
            let h = &mut pk.hops[f.k as usize];
            h.arrived += 1;
            let dest = h.dest;
            // A packet to its own tile turns around inside the NIU: it lands `turn` later.
            if h.arrived == 1 {
                // A one-flit packet that passes between others counts as arrived when its flit is in.
                let at = Cycle(now + pk.turn + u64::from(pk.ser == 0));
                self.events.push(RouterEvent { token: pk.token, at, what: Happened::FirstByte(dest) });
            }
            if h.arrived == pk.flits {
                let at = Cycle(now + 1 + pk.extra + pk.turn);
                self.events.push(RouterEvent { token: pk.token, at, what: Happened::Arrived(dest) });
                pk.left -= 1;
                if pk.left == 0 {
                    self.free_pkts.push(f.pkt);
                }
            }
        }
    }

    /// Every NIU with a packet ready injects one flit, alternating between its queues when both can go; a
    /// promised packet goes first.
    #[inline(never)]
    fn inject_flits(&mut self) {
        let now = self.now;
        for idx in 0..self.live_nius.len() {
            let port = self.live_nius[idx] as usize;
            let i = self.inject(port);
            let niu = &self.nius[port];
            if niu.asleep {
                continue;
            }
            // Whether every queue with a packet could go but for a credit on its VC (then nothing changes for
            // this NIU until a credit comes back or a packet is sent: it sleeps, see `Niu::asleep`).
            let mut credit_bound = true;
            let order = queue_order(niu.promised, niu.last);
            for qi in order {
                let niu = &self.nius[port];
                let Some(&p) = niu.q[qi].front() else { continue };
                let pk = &self.pkts[p as usize];
                let vo = pk.hops[0].vc as usize;
                let sent = niu.sent[qi];
                // A paced packet waits for the NIU to be done with the one before.
                let take_up = if pk.ser > 0 { pk.ready.max(niu.free_at) } else { pk.ready };
                if sent == 0 && pk.setup > 0 && !niu.taken[qi] {
                    credit_bound = false;
                    if take_up > now {
                        continue;
                    }
                    // The NIU takes up a packet with a path reservation now: the command buffer is free
                    // again, and the head follows once the path is reserved.
                    let token = pk.token;
                    self.pkts[p as usize].takeup = now;
                    self.nius[port].taken[qi] = true;
                    self.events.push(RouterEvent { token, at: Cycle(now), what: Happened::Started });
                    continue;
                }
                let pk = &self.pkts[p as usize];
                let earliest = if sent > 0 {
                    0
                } else if pk.setup > 0 {
                    pk.takeup + pk.setup
                } else {
                    take_up
                };
                if earliest > now {
                    credit_bound = false;
                    continue;
                }
                if !has_credit(&self.tx[i], vo, &self.p) {
                    continue;
                }
                let o = self.tx[i].vc[vo].owner;
                if o != NO_OWNER && o != p {
                    credit_bound = false;
                    continue;
                }
                let pk = &self.pkts[p as usize];
                let (flits, token) = (pk.flits, pk.token);
                take_credit(&mut self.tx[i], vo, &self.p);
                let f = self.flit(p, 0, sent + 1 == flits);
                let c = &mut self.ch[i];
                c.on_wire += 1;
                self.wires.push(now + c.lat, (i as u32, vo as u8, f));
                self.make_live(i);
                let ser = self.pkts[p as usize].ser;
                let setup = self.pkts[p as usize].setup;
                if sent == 0 {
                    self.pkts[p as usize].start = now;
                    // (A packet with a path reservation said so when the NIU took it up.)
                    if setup == 0 {
                        self.events.push(RouterEvent { token, at: Cycle(now), what: Happened::Started });
                    }
                    if ser > 0 {
                        self.nius[port].free_at = now + ser;
                    }
                }
                let start = self.pkts[p as usize].start;
                let niu = &mut self.nius[port];
                niu.promised[qi] = false;
                niu.sent[qi] += 1;
                niu.last = qi;
                if niu.sent[qi] == flits {
                    niu.sent[qi] = 0;
                    niu.taken[qi] = false;
                    niu.q[qi].pop_front();
                    self.tx[i].vc[vo].owner = NO_OWNER;
                    let at = Cycle((now + 1).max(start + ser));
                    self.events.push(RouterEvent { token, at, what: Happened::Departed });
                } else {
                    self.tx[i].vc[vo].owner = p;
                }
                credit_bound = false;
                break;
            }
            if credit_bound && self.p.skip_blocked {
                self.nius[port].asleep = true;
            }
        }
    }

    /// The front flit of VC `v` of channel `u` (which holds one) as a request: per branch that can move now,
    /// the output channel and the VC it would take there (none: nothing can move).
    // Always inlined: its request comes back in registers, not through memory the caller reads back whole.
    #[inline(always)]
    fn movable(&self, u: usize, v: usize) -> Req {
        let f = self.rings.front(&self.ch[u], v);
        let mut r = Req { u: u as u32, v: v as u8, f, outs: [0; 3], vos: [0; 3], asked: 0, granted: false };
        if f.nkids == 1 {
            // One way on (every unicast hop): the flit says where.
            if let Some(vo) = self.fits(f.pkt, f.next as usize, f.next_vc) {
                r.outs[0] = f.next;
                r.vos[0] = vo;
                r.asked = 1;
            }
            return r;
        }
        let pk = &self.pkts[f.pkt as usize];
        let h = &pk.hops[f.k as usize];
        for b in 0..h.nkids as usize {
            if f.taken & (1 << b) != 0 {
                continue;
            }
            let kid = &pk.hops[h.kids[b] as usize];
            if let Some(vo) = self.fits(f.pkt, kid.chan as usize, kid.vc) {
                r.outs[b] = kid.chan;
                r.vos[b] = vo;
                r.asked |= 1 << b;
            }
        }
        r
    }

    /// The VC on channel `n` that a flit of packet `pkt` asking for VC `vc` takes now, if it can move.
    #[inline]
    fn fits(&self, pkt: u32, n: usize, vc: u8) -> Option<u8> {
        let tx = &self.tx[n];
        let fits = |vo: u8| {
            let o = tx.vc[vo as usize].owner;
            (o == NO_OWNER || o == pkt) && has_credit(tx, vo as usize, &self.p)
        };
        let mut vo = vc;
        // A response is not static: its head may take either buddy VC of its class at each hop
        // (noc-flow-control.md §1), the one its packet holds for the body.
        if self.p.dynamic_responses && vc & 0b110 == RESPONSE_VC {
            let buddy = vo ^ 1;
            let holds = |x: u8| tx.vc[x as usize].owner == pkt;
            if holds(buddy) || (!holds(vo) && !fits(vo) && fits(buddy)) {
                vo = buddy;
            }
        }
        fits(vo).then_some(vo)
    }

    /// The first VC of input `u` from `start` on (round-robin over the VCs in `full`) whose front flit can
    /// move, as a request; the input's pointer moves past it. (Out of line: the blind pick, every built-in
    /// chip's, is the hot path, and it stays leaner with one copy of `movable` inlined.)
    #[inline(never)]
    fn first_movable(&mut self, u: usize, full: u16, start: u8) -> Option<Req> {
        for j in 0..VCS {
            let v = (start as usize + j) % VCS;
            if full & (1 << v) == 0 {
                continue;
            }
            let r = self.movable(u, v);
            if r.asked != 0 {
                self.ch[u].in_rr = (v as u8 + 1) % VCS as u8;
                return Some(r);
            }
        }
        None
    }

    /// Input stage, then output stage, over every router input that holds a flit.
    #[inline(never)]
    fn route_flits(&mut self) {
        let now = self.now;
        let mut outs = std::mem::take(&mut self.outs);
        outs.clear();
        let mut reqs = std::mem::take(&mut self.reqs);
        reqs.clear();
        let fixed = self.p.fixed_priority;
        for i in 0..self.inputs.len() {
            let u = self.inputs[i] as usize;
            let full = self.ch[u].full;
            let start = self.ch[u].in_rr;
            let mut chosen = None;
            if self.ch[u].asleep {
                // It would pick the same VC and lose again (see `Chan::asleep`).
                self.ch[u].hol_cycles += 1;
                self.stats.hol_cycles += 1;
            } else if self.p.blind {
                let v = pick(full, start);
                self.ch[u].in_rr = (v as u8 + 1) % VCS as u8;
                let r = self.movable(u, v);
                if r.asked != 0 {
                    chosen = Some(r);
                } else if !self.p.blind_responses && v as u8 & 0b110 == RESPONSE_VC {
                    // A blocked response VC is passed over: the input looks on as if not blind.
                    self.ch[u].in_rr = start;
                    chosen = self.first_movable(u, full, start);
                } else {
                    self.ch[u].hol_cycles += 1;
                    self.stats.hol_cycles += 1;
                    if full.count_ones() == 1 && self.p.skip_blocked {
                        self.sleep(u, v);
                    }
                }
            } else {
                chosen = self.first_movable(u, full, start);
            }
            if let Some(r) = chosen {
                let (rank_of, prio) = (self.in_idx[u], self.prio[u] as u32);
                let idx = reqs.len() as u32;
                // Each output grants the requesting input that comes first round-robin from its pointer (or by
                // the fixed priority `prio`); the inputs of a router feed all its outputs in one order
                // (`in_idx`), so the rank is known here.
                for b in 0..3 {
                    if r.asked & (1 << b) == 0 {
                        continue;
                    }
                    let n = r.outs[b];
                    let o = &mut self.arb[n as usize];
                    let len = o.inputs as u32;
                    // (`rank_of` and `out_rr` are both below `len`: one subtraction wraps the distance.)
                    let rank = if fixed {
                        prio
                    } else {
                        let d = rank_of as u32 + len - o.out_rr as u32;
                        if d >= len { d - len } else { d }
                    };
                    if o.stamp != now + 1 {
                        o.stamp = now + 1;
                        o.rank = rank as u8;
                        o.input = idx;
                        o.branch = b as u8;
                        outs.push(n);
                    } else if (rank as u8) < o.rank {
                        o.rank = rank as u8;
                        o.input = idx;
                        o.branch = b as u8;
                    }
                }
                reqs.push(r);
            }
        }
        for &n in &outs {
            let n = n as usize;
            let o = &mut self.arb[n];
            let (ri, b) = (o.input as usize, o.branch as usize);
            let r = &mut reqs[ri];
            let u = r.u as usize;
            let next = self.in_idx[u] + 1;
            o.out_rr = if next == o.inputs { 0 } else { next };
            r.asked &= !(1 << b);
            r.f.taken |= 1 << b;
            r.granted = true;
            let (f, vo) = (r.f, r.vos[b] as usize);
            let moved = self.flit(f.pkt, self.pkts[f.pkt as usize].hops[f.k as usize].kids[b], f.tail);
            let tx = &mut self.tx[n];
            take_credit(tx, vo, &self.p);
            // The output VC belongs to the packet until its tail has gone.
            tx.vc[vo].owner = if f.tail { NO_OWNER } else { f.pkt };
            if f.tail {
                self.wake(n, true);
            }
            let c = &mut self.ch[n];
            c.on_wire += 1;
            self.wires.push(now + c.lat, (n as u32, vo as u8, moved));
            self.make_live(n);
            self.stats.moves += 1;
        }
        // Inputs: a flit every branch of which has taken a copy leaves its buffer; an input whose pick moved
        // nothing lost the cycle.
        for r in &reqs {
            let (u, v) = (r.u as usize, r.v as usize);
            if r.granted {
                if r.f.taken == (1u8 << r.f.nkids) - 1 {
                    let c = &mut self.ch[u];
                    self.rings.pop(c, v);
                    c.credits_back += 1;
                    self.credits.push(now + self.p.credit_delay.max(1), (u as u32, v as u8));
                    self.set_held(u, -1);
                } else {
                    // A multicast flit some of whose branches are still to take their copy.
                    self.rings.front_mut(&self.ch[u], v).taken = r.f.taken;
                }
            } else {
                self.ch[u].hol_cycles += 1;
                self.stats.hol_cycles += 1;
            }
        }
        self.outs = outs;
        self.reqs = reqs;
    }
}
