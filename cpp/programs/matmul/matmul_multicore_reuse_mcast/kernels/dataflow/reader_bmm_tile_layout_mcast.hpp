// The four readers of tensim's matmul_multicore_reuse_mcast program, as one template: per K block, an in0
// (A) sender reads its A block from DRAM and multicasts it along its row, an in1 (B) sender reads its B
// block and multicasts it down its column; receivers reserve the CB, mark their receiver semaphore
// INVALID, tell the sender they are ready (a semaphore increment) and wait for VALID, which the sender
// multicasts after the data.
//
// Compile-time args: the TensorAccessorArgs of in0, then of in1 (today's layout, appended by the host).
// Runtime args: in0 address, start tile, stride_h, next block stride, block_w, block_h; in1 address, start
// tile, stride_h, next block stride, block_w; number of blocks; in0 multicast (NoC x/y start, x/y end,
// destinations, sender x/y); in1 multicast (the same seven); semaphore ids (in0 sender, in0 receiver,
// in1 sender, in1 receiver).
#pragma once
#include <cstdint>

#include "api/dataflow/dataflow_api.h"

namespace mcast_reader {
constexpr uint32_t VALID = 1;
constexpr uint32_t INVALID = 0;

struct Side {
    uint32_t cb, addr, block_h, block_w, stride_h, next_block;
    uint32_t mcast[7];
    uint32_t sender_sem, receiver_sem;
};

// The side's DRAM tensor is described by the TensorAccessorArgs at compile-time offset CTA.
template <uint32_t CTA>
inline void send_block(const Side& s, uint32_t first_tile) {
    const uint32_t n = s.block_h * s.block_w;
    const uint32_t tile = get_tile_size(s.cb);
    const auto g = TensorAccessor(TensorAccessorArgs<CTA>(), s.addr, tile);
    cb_reserve_back(s.cb, n);
    const uint32_t start = get_write_ptr(s.cb);
    uint32_t l1 = start;
    for (uint32_t h = 0; h < s.block_h; h++) {
        for (uint32_t w = 0; w < s.block_w; w++) {
            noc_async_read_tile(first_tile + h * s.stride_h + w, g, l1);
            l1 += tile;
        }
    }
    noc_async_read_barrier();
    const uint32_t dests = s.mcast[4];
    if (dests > 0) {
        auto* sender = reinterpret_cast<volatile tt_l1_ptr uint32_t*>(s.sender_sem);
        noc_semaphore_wait(sender, dests);
        noc_semaphore_set(sender, 0);
        uint64_t data = get_noc_multicast_addr(s.mcast[0], s.mcast[1], s.mcast[2], s.mcast[3], start);
        noc_async_write_multicast(start, data, n * tile, dests, true);
        uint64_t sem = get_noc_multicast_addr(s.mcast[0], s.mcast[1], s.mcast[2], s.mcast[3], s.receiver_sem);
        noc_semaphore_set_multicast(s.receiver_sem, sem, dests, false);
    }
    cb_push_back(s.cb, n);
}

inline void receive_block(const Side& s) {
    const uint32_t n = s.block_h * s.block_w;
    cb_reserve_back(s.cb, n);
    auto* receiver = reinterpret_cast<volatile tt_l1_ptr uint32_t*>(s.receiver_sem);
    noc_semaphore_set(receiver, INVALID);
    uint64_t sender = get_noc_addr(s.mcast[5], s.mcast[6], s.sender_sem);
    noc_semaphore_inc(sender, 1);
    noc_semaphore_wait(receiver, VALID);
    cb_push_back(s.cb, n);
}

template <bool in0_sends, bool in1_sends>
inline void run() {
    uint32_t a[30];
    for (uint32_t i = 0; i < 30; i++) a[i] = get_arg_val<uint32_t>(i);
    Side s0{tt::CBIndex::c_0, a[0], a[5], a[4], a[2], a[3], {}, get_semaphore(a[26]), get_semaphore(a[27])};
    Side s1{tt::CBIndex::c_1, a[6], a[4], a[10], a[8], a[9], {}, get_semaphore(a[28]), get_semaphore(a[29])};
    for (uint32_t i = 0; i < 7; i++) {
        s0.mcast[i] = a[12 + i];
        s1.mcast[i] = a[19 + i];
    }
    // A sender multicasts VALID from its own copy of the receiver semaphore.
    if (in0_sends) noc_semaphore_set(reinterpret_cast<volatile tt_l1_ptr uint32_t*>(s0.receiver_sem), VALID);
    if (in1_sends) noc_semaphore_set(reinterpret_cast<volatile tt_l1_ptr uint32_t*>(s1.receiver_sem), VALID);
    uint32_t t0 = a[1], t1 = a[7];
    for (uint32_t b = 0; b < a[11]; b++) {
        if (in0_sends) {
            send_block<0>(s0, t0);
        } else {
            receive_block(s0);
        }
        if (in1_sends) {
            send_block<TensorAccessorArgs<0>::next_compile_time_args_offset()>(s1, t1);
        } else {
            receive_block(s1);
        }
        t0 += s0.next_block;
        t1 += s1.next_block;
    }
}
}  // namespace mcast_reader
