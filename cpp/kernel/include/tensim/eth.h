// tensim's Ethernet dataflow API for ERISC kernels (tt-metal's eth/dataflow_api.h), written for tensim
// from the documented signatures: sends from this Ethernet core's L1 to the core at the other end of its
// link, and the erisc_info sync words of each channel. Every call forwards through the ABI table (op
// codes in cpp/src/abi/multichip.rs); sends are non-blocking, as on the device. ERISC_L1_UNRESERVED_BASE
// (also eth_l1_mem::address_map::ERISC_L1_UNRESERVED_BASE) is read at run time (it follows the arch's
// eth.l1_unreserved_base parameter), so it is not a constant expression.
#pragma once
#include "dataflow_api.h"

namespace tensim {
inline uint32_t eth_call(uint32_t op, uint32_t a = 0, uint32_t b = 0, uint32_t c = 0, uint32_t d = 0, uint32_t e = 0) {
    return api->eth(op, a, b, c, d, e);
}
}  // namespace tensim

namespace tensim {
// ERISC_L1_UNRESERVED_BASE: converts to the arch's value wherever a uint32_t is wanted.
struct EthUnreservedBase {
    operator uint32_t() const { return eth_call(20); }
};
}  // namespace tensim
inline constexpr tensim::EthUnreservedBase ERISC_L1_UNRESERVED_BASE{};
namespace eth_l1_mem::address_map {
inline constexpr tensim::EthUnreservedBase ERISC_L1_UNRESERVED_BASE{};
}  // namespace eth_l1_mem::address_map

// The ERISC gives way to its base firmware while it waits; tensim models no base firmware.
inline void risc_context_switch() {}
inline void run_routing() {}

inline bool eth_txq_is_busy() { return tensim::eth_call(0) != 0; }
inline void wait_for_eth_txq_cmd_space(uint32_t = 0) {
    while (eth_txq_is_busy()) {}
}
// bytes_per_send: the chunk of each command (16 B words per send); larger chunks mean fewer commands.
inline void eth_send_bytes(uint32_t src, uint32_t dst, uint32_t num_bytes, uint32_t num_bytes_per_send = 16,
                           uint32_t = 0) {
    tensim::eth_call(1, src, dst, num_bytes, num_bytes_per_send == 16 ? 0 : num_bytes_per_send);
}
inline void eth_send_bytes_over_channel_payload_only(uint32_t src, uint32_t dst, uint32_t num_bytes,
                                                     uint32_t num_bytes_per_send = 16, uint32_t = 0) {
    tensim::eth_call(2, src, dst, num_bytes, num_bytes_per_send);
}
inline void eth_send_bytes_over_channel_payload_only_unsafe(uint32_t src, uint32_t dst, uint32_t num_bytes,
                                                            uint32_t num_bytes_per_send = 16, uint32_t = 0) {
    tensim::eth_call(2, src, dst, num_bytes, num_bytes_per_send);
}
inline void eth_send_bytes_over_channel_payload_only_unsafe_one_packet(uint32_t src, uint32_t dst,
                                                                       uint32_t num_bytes) {
    tensim::eth_call(3, src, dst, num_bytes);
}
inline void eth_send_payload_complete_signal_over_channel(uint32_t ch, uint32_t num_bytes) {
    tensim::eth_call(4, ch, num_bytes);
}
inline void eth_send_bytes_over_channel(uint32_t src, uint32_t dst, uint32_t num_bytes, uint32_t ch,
                                        uint32_t num_bytes_per_send = 16, uint32_t = 0) {
    tensim::eth_call(5, src, dst, num_bytes, ch, num_bytes_per_send);
}
inline bool eth_bytes_are_available_on_channel(uint32_t ch) { return tensim::eth_call(6, ch) != 0; }
inline void eth_wait_for_bytes(uint32_t num_bytes, uint32_t = 0) { tensim::eth_call(7, num_bytes); }
inline void eth_wait_for_bytes_on_channel(uint32_t num_bytes, uint32_t ch, uint32_t = 0) {
    tensim::eth_call(8, num_bytes, ch);
}
inline void eth_receiver_channel_ack(uint32_t ch, uint32_t eth_channel_ack_word_addr) {
    tensim::eth_call(9, ch, eth_channel_ack_word_addr);
}
inline void eth_receiver_channel_done(uint32_t ch) { tensim::eth_call(10, ch); }
inline void eth_receiver_done() { tensim::eth_call(11); }
inline void eth_wait_for_receiver_done(uint32_t = 0) { tensim::eth_call(12); }
inline void eth_wait_receiver_done(uint32_t = 0) { tensim::eth_call(12); }
inline void eth_wait_for_receiver_channel_done(uint32_t ch) { tensim::eth_call(13, ch); }
inline bool eth_is_receiver_channel_send_done(uint32_t ch) { return tensim::eth_call(14, ch) != 0; }
inline bool eth_is_receiver_channel_send_acked(uint32_t ch) { return tensim::eth_call(15, ch) != 0; }
inline void eth_wait_for_receiver_channel_ack(uint32_t ch) { tensim::eth_call(16, ch); }
inline void eth_clear_sender_channel_ack(uint32_t ch) { tensim::eth_call(17, ch); }
template <typename P>
inline void eth_noc_semaphore_wait(P sem_addr, uint32_t val, uint32_t = 0) {
    tensim::eth_call(18, tensim::ptr(sem_addr), val);
}
template <typename P>
inline void eth_noc_semaphore_wait_min(P sem_addr, uint32_t val, uint32_t = 0) {
    noc_semaphore_wait_min(sem_addr, val);
}
inline void eth_noc_async_read_barrier(uint32_t = 0) { noc_async_read_barrier(); }
inline void eth_noc_async_write_barrier(uint32_t = 0) { noc_async_write_barrier(); }
// This core's Ethernet channel (tensim's helper: tt-metal kernels are given it as an argument).
inline uint32_t tensim_eth_channel() { return tensim::eth_call(19); }
