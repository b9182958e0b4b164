//! The Ethernet dataflow API of an ERISC kernel (tt-metal's `eth/dataflow_api.h`): send bytes from this
//! Ethernet core's L1 to the L1 of the core at the other end of its link, and the `erisc_info_t` sync
//! words both ends keep at the same address — the sender's `bytes_sent` handed over with the data, the
//! receiver's first-level ack and its "done" that clears the word and sends it back.
//!
//! Sends are non-blocking: a send waits only for the transmit queue to take the command; the data lands
//! later on the other chip. Sizes and addresses are multiples of 16 bytes (Ethernet words).

use super::Dataflow;
use crate::args::{ETH_SYNC_CHANNELS, EthInfo};
use crate::hw::core::WordCond;
use crate::kernel_host::EthSend;

/// Bytes of one Ethernet word (`eth_send_packet` counts in these).
pub const ETH_WORD_BYTES: u32 = 16;

impl Dataflow<'_> {
    fn eth_info(&self, api: &str) -> EthInfo {
        match self.ctx.k.eth {
            Some(e) => e,
            None => self.ctx.fail(format!(
                "{api}: this kernel runs on a Tensix core; the Ethernet API needs a kernel created on an Ethernet core with an Ethernet config"
            )),
        }
    }

    fn sync_channel(&self, api: &str, ch: u32) -> u32 {
        let e = self.eth_info(api);
        if ch >= ETH_SYNC_CHANNELS {
            self.ctx
                .fail(format!("{api}: sync channel {ch} is out of range (erisc_info_t has 0..{ETH_SYNC_CHANNELS})"));
        }
        e.channel_addr(ch)
    }

    /// One `eth_send_packet`: wait for the transmit queue, program it, hand the data to the link.
    fn eth_packet(&mut self, api: &str, src: u32, dst: u32, size: u32) {
        let e = self.eth_info(api);
        if !src.is_multiple_of(ETH_WORD_BYTES)
            || !dst.is_multiple_of(ETH_WORD_BYTES)
            || !size.is_multiple_of(ETH_WORD_BYTES)
        {
            self.ctx.fail(format!(
                "{api}: source {src:#x}, destination {dst:#x} and size {size} must be multiples of {ETH_WORD_BYTES} bytes (Ethernet words)"
            ));
        }
        if size == 0 {
            return;
        }
        self.ctx.sync();
        let free = self.ctx.host.borrow().eth_txq_free(e.channel);
        if free > self.ctx.now() {
            // `eth_txq_is_busy` spinning (with context switches to the base firmware).
            self.ctx.clock.catch_up(free);
            self.ctx.sync();
        }
        self.ctx.spend(self.ctx.costs.eth_send_cmd);
        self.ctx.sync();
        self.ctx.trace_noc("eth_send_packet", size, dst as u64);
        let req = EthSend { core: self.ctx.k.core, channel: e.channel, src_l1: src, dst_l1: dst, size };
        let now = self.ctx.now();
        let r = self.ctx.host.borrow_mut().eth_send(req, now);
        match r {
            Ok(t) => self.ctx.clock.catch_up(t),
            Err(err) => self.ctx.fail(format!("{api}: {err}")),
        }
    }

    fn eth_send_chunks(&mut self, api: &str, src: u32, dst: u32, n: u32, per_send: u32) {
        if per_send == 0 {
            self.ctx.fail(format!("{api}: num_bytes_per_send must be at least {ETH_WORD_BYTES}"));
        }
        let mut off = 0;
        while off < n {
            let len = per_send.min(n - off);
            self.eth_packet(api, src + off, dst + off, len);
            off += len;
        }
    }

    /// Send this core's sync word of channel `ch` to the same address on the other end.
    fn eth_send_sync_word(&mut self, api: &str, ch: u32) {
        let a = self.sync_channel(api, ch);
        self.eth_packet(api, a, a, ETH_WORD_BYTES);
    }

    /// `eth_txq_is_busy()`: whether the transmit queue still holds a command.
    pub fn eth_txq_is_busy(&mut self) -> bool {
        let e = self.eth_info("eth_txq_is_busy");
        self.ctx.spend(self.ctx.costs.l1_load);
        self.ctx.sync();
        self.ctx.host.borrow().eth_txq_free(e.channel) > self.ctx.now()
    }

    /// `eth_send_bytes(src, dst, num_bytes)`: send in 16-byte commands (tt-metal's default) and add
    /// `num_bytes` to sync channel 0's `bytes_sent`.
    pub fn eth_send_bytes(&mut self, src_addr: u32, dst_addr: u32, num_bytes: u32) {
        self.eth_send_bytes_per_send(src_addr, dst_addr, num_bytes, ETH_WORD_BYTES);
    }

    /// `eth_send_bytes(src, dst, num_bytes, num_bytes_per_send)`: the same with larger commands.
    pub fn eth_send_bytes_per_send(&mut self, src_addr: u32, dst_addr: u32, num_bytes: u32, num_bytes_per_send: u32) {
        self.eth_send_chunks("eth_send_bytes", src_addr, dst_addr, num_bytes, num_bytes_per_send);
        let a = self.sync_channel("eth_send_bytes", 0);
        let sent = self.l1_read_u32(a);
        self.l1_write_u32(a, sent.wrapping_add(num_bytes));
    }

    /// `eth_send_bytes_over_channel_payload_only(src, dst, num_bytes, num_bytes_per_send)`: data only.
    pub fn eth_send_bytes_over_channel_payload_only(
        &mut self,
        src_addr: u32,
        dst_addr: u32,
        num_bytes: u32,
        num_bytes_per_send: u32,
    ) {
        self.eth_send_chunks(
            "eth_send_bytes_over_channel_payload_only",
            src_addr,
            dst_addr,
            num_bytes,
            num_bytes_per_send,
        );
    }

    /// `eth_send_bytes_over_channel_payload_only_unsafe_one_packet(src, dst, num_bytes)`: one command.
    pub fn eth_send_bytes_over_channel_payload_only_unsafe_one_packet(
        &mut self,
        src_addr: u32,
        dst_addr: u32,
        num_bytes: u32,
    ) {
        self.eth_packet("eth_send_bytes_over_channel_payload_only_unsafe_one_packet", src_addr, dst_addr, num_bytes);
    }

    /// `eth_send_payload_complete_signal_over_channel(ch, num_bytes)`: set `bytes_sent = num_bytes`,
    /// `receiver_ack = 0` and send the sync word.
    pub fn eth_send_payload_complete_signal_over_channel(&mut self, ch: u32, num_bytes: u32) {
        let api = "eth_send_payload_complete_signal_over_channel";
        let a = self.sync_channel(api, ch);
        self.l1_write_u32(a, num_bytes);
        self.l1_write_u32(a + 4, 0);
        self.eth_send_sync_word(api, ch);
    }

    /// `eth_send_bytes_over_channel(src, dst, num_bytes, ch, num_bytes_per_send)`: payload, then the complete
    /// signal on `ch`.
    pub fn eth_send_bytes_over_channel(
        &mut self,
        src_addr: u32,
        dst_addr: u32,
        num_bytes: u32,
        ch: u32,
        num_bytes_per_send: u32,
    ) {
        self.eth_send_chunks("eth_send_bytes_over_channel", src_addr, dst_addr, num_bytes, num_bytes_per_send);
        self.eth_send_payload_complete_signal_over_channel(ch, num_bytes);
    }

    /// `eth_bytes_are_available_on_channel(ch)`: the sender's `bytes_sent` has arrived.
    pub fn eth_bytes_are_available_on_channel(&mut self, ch: u32) -> bool {
        let a = self.sync_channel("eth_bytes_are_available_on_channel", ch);
        self.l1_read_u32(a) != 0
    }

    /// `eth_wait_for_bytes(num_bytes)`: wait until channel 0's `bytes_sent` equals `num_bytes`.
    pub fn eth_wait_for_bytes(&mut self, num_bytes: u32) {
        self.eth_wait_for_bytes_on_channel(num_bytes, 0);
    }

    /// `eth_wait_for_bytes_on_channel(num_bytes, ch)`.
    pub fn eth_wait_for_bytes_on_channel(&mut self, num_bytes: u32, ch: u32) {
        let a = self.sync_channel("eth_wait_for_bytes_on_channel", ch);
        self.l1_poll_u32(a, WordCond::Eq(num_bytes));
    }

    /// `eth_receiver_channel_ack(ch, ack_word_addr)`: the first-level ack — `receiver_ack = 1` sent from a
    /// separate 16-byte word (which must not alias the channel's).
    pub fn eth_receiver_channel_ack(&mut self, ch: u32, eth_channel_ack_word_addr: u32) {
        let api = "eth_receiver_channel_ack";
        let a = self.sync_channel(api, ch);
        if eth_channel_ack_word_addr.abs_diff(a) < ETH_WORD_BYTES {
            self.ctx.fail(format!(
                "{api}: the ack word {eth_channel_ack_word_addr:#x} overlaps sync channel {ch} at {a:#x}"
            ));
        }
        let sent = self.l1_read_u32(a);
        self.l1_write_u32(eth_channel_ack_word_addr, sent);
        self.l1_write_u32(eth_channel_ack_word_addr + 4, 1);
        self.eth_packet(api, eth_channel_ack_word_addr, a, ETH_WORD_BYTES);
    }

    /// `eth_receiver_channel_done(ch)`: clear the sync word and send it back (the buffer is free again).
    pub fn eth_receiver_channel_done(&mut self, ch: u32) {
        let api = "eth_receiver_channel_done";
        let a = self.sync_channel(api, ch);
        self.l1_write_u32(a, 0);
        self.l1_write_u32(a + 4, 0);
        self.eth_send_sync_word(api, ch);
    }

    /// `eth_receiver_done()`: [`Dataflow::eth_receiver_channel_done`] on channel 0.
    pub fn eth_receiver_done(&mut self) {
        self.eth_receiver_channel_done(0);
    }

    /// `eth_wait_for_receiver_done()`: send channel 0's sync word (its `bytes_sent`), then wait until the
    /// receiver has cleared it.
    pub fn eth_wait_for_receiver_done(&mut self) {
        let api = "eth_wait_for_receiver_done";
        let a = self.sync_channel(api, 0);
        self.eth_send_sync_word(api, 0);
        self.l1_poll_u32(a, WordCond::Eq(0));
    }

    /// `eth_wait_for_receiver_channel_done(ch)`: wait until the receiver has cleared channel `ch`.
    pub fn eth_wait_for_receiver_channel_done(&mut self, ch: u32) {
        let a = self.sync_channel("eth_wait_for_receiver_channel_done", ch);
        self.l1_poll_u32(a, WordCond::Eq(0));
    }

    /// `eth_is_receiver_channel_send_done(ch)`: the receiver has cleared channel `ch`.
    pub fn eth_is_receiver_channel_send_done(&mut self, ch: u32) -> bool {
        let a = self.sync_channel("eth_is_receiver_channel_send_done", ch);
        self.l1_read_u32(a) == 0
    }

    /// `eth_is_receiver_channel_send_acked(ch)`: the receiver's first-level ack has arrived.
    pub fn eth_is_receiver_channel_send_acked(&mut self, ch: u32) -> bool {
        let a = self.sync_channel("eth_is_receiver_channel_send_acked", ch);
        self.l1_read_u32(a + 4) != 0
    }

    /// `eth_wait_receiver_acknowledge(ch)`: wait for the first-level ack of channel `ch`.
    pub fn eth_wait_for_receiver_channel_ack(&mut self, ch: u32) {
        let a = self.sync_channel("eth_wait_for_receiver_channel_ack", ch);
        self.l1_poll_u32(a + 4, WordCond::Ne(0));
    }

    /// `eth_clear_sender_channel_ack(ch)`: reset the first-level ack.
    pub fn eth_clear_sender_channel_ack(&mut self, ch: u32) {
        let a = self.sync_channel("eth_clear_sender_channel_ack", ch);
        self.l1_write_u32(a + 4, 0);
    }

    /// `eth_noc_semaphore_wait(addr, val)`: a semaphore wait that lets the base firmware run.
    pub fn eth_noc_semaphore_wait(&mut self, sem_addr: u32, val: u32) {
        self.noc_semaphore_wait(sem_addr, val);
    }

    /// The channel of this Ethernet core.
    pub fn eth_channel(&self) -> u32 {
        self.eth_info("eth_channel").channel
    }

    /// `ERISC_L1_UNRESERVED_BASE`: the first L1 byte an Ethernet kernel may use.
    pub fn eth_l1_unreserved_base(&self) -> u32 {
        self.eth_info("eth_l1_unreserved_base").unreserved_base
    }
}
