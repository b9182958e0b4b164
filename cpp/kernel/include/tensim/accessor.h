// TensorAccessor on the kernel side (tt-metal's api/tensor/tensor_accessor.h), written for tensim: the
// description lives in the compile-time args at CTA_OFFSET in the layout tensim's host side appends (one
// config word for an interleaved buffer; config, rank, banks, tensor shape, shard shape, bank coordinates
// and an optional grid for a sharded one), and every address and transfer goes to the Rust TensorAccessor.
#pragma once
#include "tensim/common.h"

namespace tensim {
constexpr uint32_t ct_arg_or_zero(uint32_t i) { return i < tensim_num_compile_time_args ? kernel_compile_time_args[i] : 0; }
}  // namespace tensim

namespace tensor_accessor {
constexpr uint32_t SHARDED = 1, IS_DRAM = 2, GRID_2D = 1 << 8;
}  // namespace tensor_accessor

template <std::size_t CTA_OFFSET, std::size_t CRTA_OFFSET = 0>
struct TensorAccessorArgs {
    constexpr TensorAccessorArgs() {
        static_assert(CTA_OFFSET < tensim_num_compile_time_args || tensim_num_compile_time_args == 0,
                      "TensorAccessorArgs: the offset is past the kernel's compile-time args; append the buffer's "
                      "TensorAccessorArgs on the host");
    }
    explicit constexpr TensorAccessorArgs(uint32_t) {}
    static constexpr uint32_t config() { return tensim::ct_arg_or_zero(CTA_OFFSET); }
    static constexpr bool is_sharded = (config() & tensor_accessor::SHARDED) != 0;
    static constexpr bool is_dram = (config() & tensor_accessor::IS_DRAM) != 0;
    static constexpr uint32_t num_compile_time_args() {
        if (!is_sharded) return 1;
        uint32_t rank = tensim::ct_arg_or_zero(CTA_OFFSET + 1), banks = tensim::ct_arg_or_zero(CTA_OFFSET + 2);
        return 3 + 2 * rank + banks + ((config() & tensor_accessor::GRID_2D) ? 2 : 0);
    }
    static constexpr uint32_t next_compile_time_args_offset() { return CTA_OFFSET + num_compile_time_args(); }
    static constexpr uint32_t num_common_runtime_args() { return 0; }
    static constexpr uint32_t next_common_runtime_args_offset() { return CRTA_OFFSET; }
    static constexpr uint32_t cta_offset() { return CTA_OFFSET; }
};

template <typename Args = TensorAccessorArgs<0>>
struct TensorAccessor {
    uint32_t cta;
    uint32_t bank_base_address;
    uint32_t page_size;
    TensorAccessor(const Args&, uint32_t base, uint32_t page = 0)
        : cta(Args::cta_offset()), bank_base_address(base), page_size(page) {}
    uint64_t get_noc_addr(uint32_t page_id, uint32_t offset = 0, uint8_t noc = noc_index) const {
        return tensim::api->ta_noc_addr(cta, bank_base_address, page_size, page_id, offset, noc, 0);
    }
    uint64_t get_shard_noc_addr(uint32_t shard_id, uint32_t offset = 0, uint8_t noc = noc_index) const {
        return tensim::api->ta_noc_addr(cta, bank_base_address, page_size, shard_id, offset, noc, 1);
    }
    uint32_t get_aligned_page_size() const { return page_size; }
    uint32_t get_bank_base_address() const { return bank_base_address; }
};
template <typename A>
TensorAccessor(const A&, uint32_t) -> TensorAccessor<A>;
template <typename A>
TensorAccessor(const A&, uint32_t, uint32_t) -> TensorAccessor<A>;
template <typename A>
TensorAccessor(const A&, uint32_t, int) -> TensorAccessor<A>;
template <typename A>
TensorAccessor(const A&, int, uint32_t) -> TensorAccessor<A>;

template <typename A>
FORCE_INLINE uint64_t get_noc_addr(const uint32_t id, const TensorAccessor<A>& s, uint32_t offset = 0,
                                   uint8_t noc = noc_index) {
    return s.get_noc_addr(id, offset, noc);
}
template <typename A>
FORCE_INLINE void noc_async_read_page(const uint32_t id, const TensorAccessor<A>& s, uint32_t dst_local_l1_addr,
                                      uint32_t offset = 0, uint8_t noc = noc_index) {
    tensim::api->ta_read(s.cta, s.bank_base_address, s.page_size, id, dst_local_l1_addr, offset, noc);
}
template <typename A>
FORCE_INLINE void noc_async_read_tile(const uint32_t id, const TensorAccessor<A>& s, uint32_t dst_local_l1_addr,
                                      uint32_t offset = 0, uint8_t noc = noc_index) {
    noc_async_read_page(id, s, dst_local_l1_addr, offset, noc);
}
template <typename A>
FORCE_INLINE void noc_async_write_page(const uint32_t id, const TensorAccessor<A>& s, uint32_t src_local_l1_addr,
                                       uint32_t size = 0, uint32_t offset = 0, uint8_t noc = noc_index) {
    tensim::api->ta_write(s.cta, s.bank_base_address, s.page_size, id, src_local_l1_addr, size, noc);
}
template <typename A>
FORCE_INLINE void noc_async_write_tile(const uint32_t id, const TensorAccessor<A>& s, uint32_t src_local_l1_addr,
                                       uint8_t noc = noc_index) {
    noc_async_write_page(id, s, src_local_l1_addr, 0, 0, noc);
}
