// pair_add reader: A through a type-erased accessor (even tiles) and state-based reads in four pieces (odd
// tiles); B through a PageView with transaction id 3, every third tile as a page read on the other NoC.
#include <cstdint>
#include <tuple>
#include "api/dataflow/dataflow_api.h"
#include "api/dataflow/noc.h"
#include "api/dataflow/circular_buffer.h"
#include "api/tensor/tensor_accessor.h"
#include "api/tensor/noc_traits.h"

void kernel_main() {
    const uint32_t first = get_arg_val<uint32_t>(2), n = get_arg_val<uint32_t>(3);
    constexpr auto args = make_tensor_accessor_args_tuple<2, 0>();
    const auto accessors = make_tensor_accessor_tuple(args, 0);  // base addresses: runtime args 0 and 1
    const auto& a = std::get<0>(accessors);
    const auto& b = std::get<1>(accessors);
    const auto erased = make_abstract_tensor_accessor_wrappers(accessors);
    Noc noc;
    CircularBuffer in_a(tt::CBIndex::c_0), in_b(tt::CBIndex::c_1);
    const uint32_t bytes = in_a.get_tile_size(), piece = bytes / 4;
    for (uint32_t t = first; t < first + n; t++) {
        in_a.reserve_back(1);
        if (t % 2 == 0) {
            noc.async_read(erased[0], in_a, bytes, {.page_id = t}, {});
        } else {
            noc.set_async_read_state(a, piece, {.page_id = t});
            for (uint32_t k = 0; k < 4; k++) {
                noc.async_read_with_state(a, in_a, piece, {.page_id = t, .offset_bytes = k * piece}, {.offset_bytes = k * piece});
            }
        }
        in_b.reserve_back(1);
        noc.async_read_barrier();
        in_a.push_back(1);
        if (t % 3 == 2) {
            // A page read on the other NoC: only that NoC's barrier waits for it.
            const uint8_t other = 1 - noc_index;
            noc_async_read_page(t, b, in_b.get_write_ptr(), 0, other);
            noc_async_read_barrier(other);
        } else {
            noc.async_read<NocOptions::TXN_ID>(PageView(b), in_b, bytes, {.page_id = t}, {}, {.trid = 3});
            noc.async_read_barrier<NocOptions::TXN_ID>({.trid = 3});
        }
        in_b.push_back(1);
    }
}
