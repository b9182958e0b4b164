// shard_transpose writer: 64-byte sticks of Y into DRAM rows; then the report round with the leader core.
#include <cstdint>
#include "api/dataflow/dataflow_api.h"
#include "api/dataflow/noc.h"
#include "api/dataflow/circular_buffer.h"
#include "api/dataflow/endpoints.h"
#include "api/dataflow/noc_semaphore.h"
#include "api/tensor/tensor_accessor.h"
#include "api/tensor/noc_traits.h"
#include "api/core_local_mem.h"

void kernel_main() {
    uint32_t i = 0;
    const uint32_t y_addr = get_arg_val<uint32_t>(i++), r_addr = get_arg_val<uint32_t>(i++), s = get_arg_val<uint32_t>(i++);
    const uint32_t lx = get_arg_val<uint32_t>(i++), ly = get_arg_val<uint32_t>(i++);
    const uint32_t last_x = get_arg_val<uint32_t>(i++), last_y = get_arg_val<uint32_t>(i++);
    Semaphore<> done(get_arg_val<uint32_t>(i++)), go_src(get_arg_val<uint32_t>(i++)), go(get_arg_val<uint32_t>(i++));
    Semaphore<> bump(get_arg_val<uint32_t>(i++)), echo(get_arg_val<uint32_t>(i++));
    constexpr uint32_t R = get_compile_time_arg_val(0), Wt = get_compile_time_arg_val(1), cores = get_compile_time_arg_val(2);
    constexpr auto ya = TensorAccessorArgs<3>();
    constexpr auto ra = TensorAccessorArgs<ya.next_compile_time_args_offset()>();
    const auto y = TensorAccessor(ya, y_addr);
    const auto r = TensorAccessor(ra, r_addr);
    Noc noc;
    CircularBuffer rm(tt::CBIndex::c_16), slots_cb(tt::CBIndex::c_20), checks(tt::CBIndex::c_21), report_cb(tt::CBIndex::c_22);
    constexpr uint32_t stick = 32 * 2, report_bytes = 64;

    // Tile (s*R + r, c) of X is tile (c, s*R + r) of Y: its 32 rows are rows c*32.. of Y at column s*R + r.
    for (uint32_t k = 0; k < R * Wt; k++) {
        const uint32_t col_tile = s * R + k / Wt, row_tile = k % Wt;
        rm.wait_front(1);
        for (uint32_t row = 0; row < 32; row++) {
            noc.async_write(use<CircularBuffer::AddrSelector::READ_PTR>(rm), y, stick, {.offset_bytes = row * stick},
                            {.page_id = row_tile * 32 + row, .offset_bytes = col_tile * stick});
        }
        noc.async_writes_flushed();
        rm.pop_front(1);
    }
    noc.async_write_barrier();

    // Report to the leader: one word into its slots, then a remote increment of its semaphore.
    const uint32_t slots = slots_cb.get_write_ptr();
    noc.inline_dw_write(UnicastEndpoint{}, R * Wt, {.noc_x = lx, .noc_y = ly, .addr = slots + 4 * s});
    noc.async_write_barrier();
    // Byte 1 only: the slot becomes 0xAB00 | R * Wt.
    noc.inline_dw_write(UnicastEndpoint{}, 0x5AB77, {.noc_x = lx, .noc_y = ly, .addr = slots + 4 * s}, 0x2);
    noc.async_write_barrier();
    done.up(noc, lx, ly, 1);
    noc.async_atomic_barrier();

    checks.wait_front(1);
    CoreLocalMem<uint32_t> from_reader(checks.get_read_ptr());
    report_cb.reserve_back(1);
    CoreLocalMem<uint32_t> rep(report_cb.get_write_ptr());
    for (uint32_t w = 0; w < report_bytes / 4; w++) rep[w] = 0;
    rep[0] = from_reader[0];
    rep[1] = from_reader[1];
    checks.pop_front(1);

    const uint32_t x1 = last_x, y1 = last_y;
    if (s == 0) {
        done.wait(cores);
        // Words 9..12 of its own slots through the classic inline-write state: stored address and value,
        // then each updated in turn (they stay stored), the last one not counted by the barrier.
        noc_inline_dw_write_set_state<false, true>(get_noc_addr(lx, ly, slots + 36), 0x11111111, 0xF);
        noc_inline_dw_write_with_state<>(0);
        noc_inline_dw_write_with_state<true>(0, slots + 40);
        noc_inline_dw_write_with_state<true, true, false, false, true>(0x22222222, slots + 44);
        noc_inline_dw_write_with_state<true>(0, slots + 48);
        noc.async_write_barrier();
        noc_inline_dw_write_with_state<true, false, false, false, true>(0x33333333, slots + 52);
        noc_inline_dw_write<InlineWriteDst::L1, true>(get_noc_addr(lx, ly, slots + 56), 0x44444444);
        // Neither of the last two is counted: wait for them by their values.
        CoreLocalMem<volatile uint32_t> own(slots);
        while (own[13] != 0x33333333 || own[14] != 0x44444444) {
        }
        // The slots, twice into page 0 of the reports: one state (the page's bank), two writes.
        noc.set_async_write_state(r, report_bytes, {.page_id = 0});
        for (uint32_t copy = 0; copy < 2; copy++) {
            noc.async_write_with_state(CoreLocalMem<uint32_t>(slots), r, report_bytes, {},
                                       {.page_id = 0, .offset_bytes = copy * report_bytes});
        }
        // The slots to every other core on the other NoC (whose rectangle runs the other way: start and end
        // swapped on NoC1), waited for there; then the go value, a bump, and the count to the last core.
        const uint8_t on = 1 - noc_index;
        const Noc other(on);
        const uint32_t sx = on == 1 ? x1 : lx, sy = on == 1 ? y1 : ly, ex = on == 1 ? lx : x1, ey = on == 1 ? ly : y1;
        other.async_write_multicast(CoreLocalMem<uint32_t>(slots), MulticastEndpoint{}, report_bytes, cores - 1, {},
                                    {.noc_x_start = sx, .noc_y_start = sy, .noc_x_end = ex, .noc_y_end = ey, .addr = slots});
        other.async_write_barrier();
        go_src.set(cores);
        go_src.relay_multicast(noc, go, lx, ly, x1, y1, cores - 1);
        bump.inc_multicast(noc, lx, ly, x1, y1, 1, cores - 1);
        done.relay_unicast(noc, echo, last_x, last_y);
        noc.async_write_barrier();
        noc.async_atomic_barrier();
    } else {
        go.wait(cores);
        bump.wait(1);
        CoreLocalMem<uint32_t> got(slots);
        uint32_t wrong = 0;
        for (uint32_t k = 0; k < cores; k++) wrong += got[k] != (0xAB00 | R * Wt);
        const uint32_t stored[] = {0x11111111, 0x11111111, 0x22222222, 0x22222222, 0x33333333, 0x44444444};
        for (uint32_t k = 0; k < 6; k++) wrong += got[9 + k] != stored[k];
        rep[2] = wrong;
        rep[3] = go.value();
        rep[4] = bump.value();
        if (s == cores - 1) {
            echo.wait(cores);
            rep[5] = echo.value();
        }
    }
    noc.async_write(use<CircularBuffer::AddrSelector::WRITE_PTR>(report_cb), r, report_bytes, {}, {.page_id = 1 + s});
    noc.async_write_barrier();
    report_cb.push_back(1);
}
