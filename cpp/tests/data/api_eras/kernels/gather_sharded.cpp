// Today's accessor: a sharded L1 buffer whose rank, bank count, shapes and bank coordinates are all runtime
// fields (the common runtime args at offset 0), walked page by page with pages(); each page is copied to an
// interleaved DRAM buffer (default page sizes from the compile-time args). Prints the bank and offset of the
// last page.
#include <cstdint>

#include "api/dataflow/dataflow_api.h"
#include "api/debug/dprint.h"
#include "api/tensor/tensor_accessor.h"

void kernel_main() {
    uint32_t src = get_arg_val<uint32_t>(0);
    uint32_t dst = get_arg_val<uint32_t>(1);
    uint32_t l1 = get_arg_val<uint32_t>(2);
    constexpr auto src_args = TensorAccessorArgs<0, 0>();
    constexpr auto dst_args = TensorAccessorArgs<src_args.next_compile_time_args_offset()>();
    static_assert(src_args.is_sharded && src_args.rank_is_crta && src_args.bank_coords_is_crta, "runtime fields");
    const auto in = TensorAccessor(src_args, src);
    const auto out = TensorAccessor(dst_args, dst);
    uint32_t copied = 0, last = 0;
    for (const auto& page : in.pages()) {
        noc_async_read(page.noc_addr(), l1, in.get_aligned_page_size());
        noc_async_read_barrier();
        noc_async_write_page(page.page_id(), out, l1);
        noc_async_write_barrier();
        copied++;
        last = page.page_id();
    }
    auto m = in.get_bank_and_offset(last);
    DPRINT("sharded: {} pages over {} banks, rank {}; page {} in bank {} at {}\n", copied, src_args.get_num_banks(),
           src_args.get_rank(), last, m.bank_id, m.bank_page_offset);
}
