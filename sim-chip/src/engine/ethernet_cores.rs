//! Ethernet during a run. Each logical channel of the chip is an Ethernet core (an L1 and its ERISCs,
//! after the workers in the core list) and the sending end of one link. A send is timed on the link's
//! transmit side, which only this chip uses: it waits for the previous send to leave, takes the wire time
//! of its bytes plus per-frame overhead, and lands one link latency after its last byte left. Packets for
//! other chips collect in an outbox that the mesh runner delivers between time windows; since no packet
//! lands sooner than one link latency after it was sent, a window of that length is safe.

use super::eth_links::EthPacket;
use super::{ChipState, Engine, Ev};
use sim_core::Cycle;
use sim_tensix::{CoreIdx, EthError, EthSend};

impl ChipState {
    /// Number of worker cores (the Ethernet cores follow them in `cores`).
    pub fn is_eth_core(&self, c: CoreIdx) -> bool {
        c.0 >= self.num_workers
    }
}

impl Engine {
    /// For each channel linked to a chip of the run: `(that chip's slot, the earliest time anything this
    /// chip sends on it at or after `from` can land)`. A send cannot start before the transmit side is
    /// free and takes at least the wire time of an empty frame, so the bound holds for every later send
    /// too: the mesh runner lets the receiver run up to it.
    pub(crate) fn link_horizons(&self, from: Cycle) -> Vec<(u32, Cycle)> {
        let c = &self.chip;
        let flight = c.eth_timing.wire(0) + c.eth_timing.latency;
        c.eth.iter().filter_map(|p| p.peer.map(|(dev, _)| (dev, from.max(p.tx_free) + flight))).collect()
    }

    /// `eth_send_packet` at `now`: the transmit queue is free (the kernel waited for it).
    pub(crate) fn eth_send(&mut self, s: EthSend, now: Cycle) -> Result<Cycle, EthError> {
        let c = &mut self.chip;
        let port = c.eth.get(s.channel as usize).ok_or(EthError::Unlinked { channel: s.channel })?;
        let (to_dev, to_channel) = port.peer.ok_or(EthError::Unlinked { channel: s.channel })?;
        let l1 = &c.cores[s.core.0 as usize].l1;
        l1.check(s.src_l1 as u64, s.size as u64).map_err(|err| EthError::Range { side: "source", err })?;
        l1.check(s.dst_l1 as u64, s.size as u64).map_err(|err| EthError::Range { side: "destination", err })?;
        let mut data = Vec::new();
        if c.move_data || s.size <= sim_params::SEMAPHORE_BYTES {
            l1.append_to(s.src_l1 as u64, s.size as u64, &mut data).expect("checked");
        }
        let start = now.max(port.tx_free);
        let wire = c.eth_timing.wire(s.size);
        let arrive = start + wire + c.eth_timing.latency;
        let port = &mut c.eth[s.channel as usize];
        port.tx_free = start + wire;
        port.tx_busy += wire;
        port.tx_bytes += s.size as u64;
        let seq = port.tx_packets;
        port.tx_packets += 1;
        c.eth_out.push(EthPacket { to_dev, to_channel, dst_l1: s.dst_l1, size: s.size, data, arrive, seq });
        self.rec.last_arrival = self.rec.last_arrival.max(arrive);
        Ok(now)
    }

    /// A packet from another chip, to land at its arrival time.
    pub fn deliver(&mut self, p: EthPacket) {
        let (at, channel, seq) = (p.arrive, p.to_channel, p.seq);
        let slot = match self.chip.eth_free.pop() {
            Some(i) => {
                self.chip.eth_in[i as usize] = Some(p);
                i
            }
            None => {
                self.chip.eth_in.push(Some(p));
                self.chip.eth_in.len() as u32 - 1
            }
        };
        self.sched.queue.push_arrival(at, channel, seq, Ev::EthLand(slot));
    }

    /// A packet's last byte has landed in the receiving Ethernet core's L1.
    pub(crate) fn eth_land(&mut self, slot: u32, at: Cycle) {
        let p = self.chip.eth_in[slot as usize].take().expect("a landing packet");
        self.chip.eth_free.push(slot);
        let Some(port) = self.chip.eth.get_mut(p.to_channel as usize) else { return };
        port.rx_bytes += p.size as u64;
        let core = port.core;
        if !p.data.is_empty() {
            self.chip.cores[core.0 as usize].l1.write(p.dst_l1 as u64, &p.data).expect("checked by the sender");
        }
        self.fabric_landed(p.to_channel, p.dst_l1);
        self.notify_core(core, at);
    }

    /// Packets sent to other chips since the last call, in sending order.
    pub fn take_outbox(&mut self) -> Vec<EthPacket> {
        std::mem::take(&mut self.chip.eth_out)
    }
}
