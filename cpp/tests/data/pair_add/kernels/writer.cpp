// pair_add writer: the sums out of a DataflowBuffer with posted writes on VC 2 (every third on the other NoC),
// then the core's counts.
#include <cstdint>
#include "api/dataflow/dataflow_api.h"
#include "api/dataflow/noc.h"
#include "api/dataflow/dataflow_buffer.h"
#include "api/tensor/tensor_accessor.h"
#include "api/tensor/noc_traits.h"
#include "api/core_local_mem.h"

void kernel_main() {
    const uint32_t c_addr = get_arg_val<uint32_t>(0), counts_addr = get_arg_val<uint32_t>(1);
    const uint32_t first = get_arg_val<uint32_t>(2), n = get_arg_val<uint32_t>(3), slot = get_arg_val<uint32_t>(4);
    constexpr auto ca = TensorAccessorArgs<0>();
    constexpr auto ka = TensorAccessorArgs<ca.next_compile_time_args_offset()>();
    const auto c = TensorAccessor(ca, c_addr);
    const auto counts = TensorAccessor(ka, counts_addr);
    Noc noc;
    DataflowBuffer out(tt::CBIndex::c_16), scratch(tt::CBIndex::c_17);
    constexpr auto posted_vc = NocOptions::POSTED | NocOptions::CUSTOM_VC;
    uint32_t written = 0;
    for (uint32_t t = first; t < first + n; t++) {
        out.wait_front(1);
        if (t % 3 == 1) {
            // A posted write on the other NoC, flushed there.
            const Noc other(1 - noc_index);
            other.async_write<NocOptions::POSTED>(out, c, out.get_entry_size(), {}, {.page_id = t});
            other.async_writes_flushed<NocOptions::POSTED>();
        } else {
            noc.async_write<posted_vc>(out, c, out.get_entry_size(), {}, {.page_id = t}, {.vc = 2});
            noc.async_writes_flushed<NocOptions::POSTED>();
        }
        out.pop_front(1);
        written++;
    }
    scratch.reserve_back(1);
    {
        auto guard = scratch.scoped_write_lock();
        CoreLocalMem<uint32_t> w = guard.get_ptr<uint32_t>();
        for (uint32_t k = 0; k < 16; k++) w[k] = 0;
        w[0] = written;
        w[1] = out.get_entry_size();
        w[2] = out.get_total_num_entries();
        w[3] = out.get_total_size_bytes();
        w[4] = scratch.get_entry_size();
        w[5] = scratch.get_ring_span_num_entries();
        w[6] = scratch.get_local_size_bytes();
        // The free-function address forms agree with the accessor's and get_noc_addr's.
        uint32_t wrong = 0;
        const auto g_ct = get_interleaved_addr_gen<true, 2048>(c_addr);
        const auto g_log2 = get_interleaved_addr_gen<true, true>(c_addr, 11);
        const auto g_plain = get_interleaved_addr_gen<true, false>(c_addr, out.get_entry_size());
        for (uint32_t t = first; t < first + n; t++) {
            const uint64_t want = c.get_noc_addr(t);
            wrong += get_dram_noc_addr(t, out.get_entry_size(), c_addr) != want;
            wrong += (g_ct.get_noc_addr(t) != want) + (g_log2.get_noc_addr(t) != want) + (g_plain.get_noc_addr(t) != want);
        }
        wrong += get_noc_addr_helper(NOC_XY_ENCODING(my_x[noc_index], my_y[noc_index]), 0x1230) != get_noc_addr(0x1230);
        w[7] = wrong;
    }
    noc.async_write(scratch, counts, 64, {}, {.page_id = slot});
    scratch.write_barrier(noc);
    // The page's second half through an address generator at a byte offset.
    CoreLocalMem<uint32_t> w(scratch.get_write_ptr());
    for (uint32_t k = 16; k < 32; k++) w[k] = 0x0FF5E700 + k;
    const InterleavedAddrGen<true> gen{.bank_base_address = counts_addr, .page_size = 128};
    noc_async_write_page(slot, gen, scratch.get_write_ptr() + 64, 64, 64);
    noc_async_write_barrier();
    scratch.push_back(1);
}
