// Shared part of tensim's reduce_max_mcast readers: after the scaler tile is in c_2, read `n` input tiles
// from tile `start` into c_0. Runtime args 0..2: src address, start, n.
#pragma once
#include <cstdint>

inline void read_rows() {
    uint32_t src = get_arg_val<uint32_t>(0);
    uint32_t start = get_arg_val<uint32_t>(1);
    uint32_t n = get_arg_val<uint32_t>(2);
    constexpr uint32_t cb_in = tt::CBIndex::c_0;
    const InterleavedAddrGenFast<true> in = {
        .bank_base_address = src, .page_size = get_tile_size(cb_in), .data_format = DataFormat::Float16_b};
    for (uint32_t t = start; t < start + n; t++) {
        cb_reserve_back(cb_in, 1);
        noc_async_read_tile(t, in, get_write_ptr(cb_in));
        noc_async_read_barrier();
        cb_push_back(cb_in, 1);
    }
}
