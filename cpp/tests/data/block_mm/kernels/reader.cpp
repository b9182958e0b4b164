// block_mm reader: A's Mt x Kt tiles (row-major) from DRAM, B's Kt x Nt tiles from the block-sharded L1
// buffer, the scalar tile (s at element (0,0), the rest zero), the first Int32 tile.
#include <cstdint>
#include "api/dataflow/dataflow_api.h"
#include "api/tensor/tensor_accessor.h"

void kernel_main() {
    const uint32_t a_addr = get_arg_val<uint32_t>(0), b_addr = get_arg_val<uint32_t>(1), i_addr = get_arg_val<uint32_t>(2);
    const uint32_t mt = get_arg_val<uint32_t>(3), kt = get_arg_val<uint32_t>(4), nt = get_arg_val<uint32_t>(5);
    const uint32_t s_bits = get_arg_val<uint32_t>(6);
    constexpr auto a_args = TensorAccessorArgs<0>();
    constexpr auto b_args = TensorAccessorArgs<a_args.next_compile_time_args_offset()>();
    constexpr auto i_args = TensorAccessorArgs<b_args.next_compile_time_args_offset()>();
    const auto a = TensorAccessor(a_args, a_addr, get_tile_size(tt::CBIndex::c_0));
    const auto b = TensorAccessor(b_args, b_addr, get_tile_size(tt::CBIndex::c_1));
    const auto ints = TensorAccessor(i_args, i_addr, get_tile_size(tt::CBIndex::c_3));

    cb_reserve_back(tt::CBIndex::c_2, 1);
    volatile tt_l1_ptr uint16_t* sp = reinterpret_cast<volatile tt_l1_ptr uint16_t*>(get_write_ptr(tt::CBIndex::c_2));
    for (uint32_t i = 0; i < 1024; i++) sp[i] = 0;
    sp[0] = static_cast<uint16_t>(s_bits);
    cb_push_back(tt::CBIndex::c_2, 1);

    cb_reserve_back(tt::CBIndex::c_0, mt * kt);
    const uint32_t at = get_tile_size(tt::CBIndex::c_0);
    for (uint32_t t = 0; t < mt * kt; t++) noc_async_read_page(t, a, get_write_ptr(tt::CBIndex::c_0) + t * at);
    cb_reserve_back(tt::CBIndex::c_1, kt * nt);
    for (uint32_t t = 0; t < kt * nt; t++) noc_async_read_page(t, b, get_write_ptr(tt::CBIndex::c_1) + t * at);
    cb_reserve_back(tt::CBIndex::c_3, 1);
    noc_async_read_page(0, ints, get_write_ptr(tt::CBIndex::c_3));
    noc_async_read_barrier();
    cb_push_back(tt::CBIndex::c_0, mt * kt);
    cb_push_back(tt::CBIndex::c_1, kt * nt);
    cb_push_back(tt::CBIndex::c_3, 1);
}
