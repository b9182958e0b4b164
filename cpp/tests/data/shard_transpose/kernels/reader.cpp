// shard_transpose reader: the core's own shard of X, page by page, through the sharded accessor's views.
#include <cstdint>
#include "api/dataflow/dataflow_api.h"
#include "api/dataflow/noc.h"
#include "api/dataflow/circular_buffer.h"
#include "api/tensor/tensor_accessor.h"
#include "api/tensor/noc_traits.h"
#include "api/core_local_mem.h"

void kernel_main() {
    const uint32_t x_addr = get_arg_val<uint32_t>(0);
    const uint32_t shard = get_arg_val<uint32_t>(1);
    constexpr uint32_t Wt = get_compile_time_arg_val(0);
    constexpr uint32_t per_shard = get_compile_time_arg_val(1);
    constexpr auto args = TensorAccessorArgs<2>();
    const auto x = TensorAccessor(args, x_addr);
    Noc noc;
    CircularBuffer in(tt::CBIndex::c_0), checks(tt::CBIndex::c_21);
    const uint32_t bytes = in.get_tile_size();

    uint32_t mismatches = 0, pages = 0;
    // The whole shard at once, to compare with the page-by-page reads.
    CircularBuffer whole_cb(tt::CBIndex::c_24);
    const uint32_t whole = whole_cb.get_write_ptr();
    noc_async_read_shard(shard, x, whole);
    noc_async_read_barrier();
    if (x.get_bank_base_address() != x_addr) mismatches++;
    if (!x.is_local_shard(shard) || !noc.is_local_addr(x.get_shard_noc_addr(shard))) mismatches++;
    const ShardView shard_view(x);
    for (const auto& page : x.shard_pages(shard)) {
        // A shard holds whole tile rows here: page k of the shard is tile (shard * rows + k / Wt, k % Wt).
        const uint32_t k = pages++;
        if (page.page_id() != shard * per_shard + k) mismatches++;
        if (page.noc_addr() != x.get_shard_noc_addr(shard, k * bytes)) mismatches++;
        if (page.noc_addr() != x.get_noc_addr(page.page_id())) mismatches++;
        const auto where = x.get_bank_and_offset(page.page_id());
        if (where.bank_id != shard || where.bank_page_offset != k) mismatches++;
        in.reserve_back(1);
        if (k % Wt == 0) {
            noc.async_read(shard_view, in, bytes, {.shard_id = shard, .offset_bytes = k * bytes}, {});
        } else {
            noc.async_read(page, in, bytes, {}, {});
        }
        noc.async_read_barrier();
        // The same page in the whole-shard copy.
        CoreLocalMem<uint32_t> got(in.get_write_ptr()), copy(whole + k * bytes);
        for (uint32_t w = 0; w < bytes / 4; w++) mismatches += got[w] != copy[w];
        in.push_back(1);
    }
    // Marks in the shard's first and last words, written back whole, then read back page by page.
    CoreLocalMem<uint32_t> copy(whole);
    const uint32_t last = pages * bytes / 4 - 1;
    copy[0] = 0xC0FFEE00 | shard;
    copy[last] = 0xBEEF0000 | shard;
    noc_async_write_shard(shard, x, whole);
    noc_async_write_barrier();
    in.reserve_back(1);
    CoreLocalMem<uint32_t> page(in.get_write_ptr());
    noc_async_read(x.get_noc_addr(shard * per_shard), in.get_write_ptr(), bytes);
    noc_async_read_barrier();
    mismatches += page[0] != (0xC0FFEE00 | shard);
    noc_async_read(x.get_noc_addr(shard * per_shard + per_shard - 1), in.get_write_ptr(), bytes);
    noc_async_read_barrier();
    mismatches += page[bytes / 4 - 1] != (0xBEEF0000 | shard);
    checks.reserve_back(1);
    CoreLocalMem<uint32_t> out(checks.get_write_ptr());
    out[0] = mismatches;
    out[1] = pages;
    checks.push_back(1);
}
