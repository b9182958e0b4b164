// tile_ops compute: pack-untilize A (two block rows of two tiles), transpose each tile, MAX over the matrix into
// one tile, and tile 0 times tile 1 through DST reuse. A stays at the front of c_0 throughout.
#include <cstdint>
#include "api/compute/common.h"
#include "api/compute/compute_kernel_hw_startup.h"
#include "api/compute/pack_untilize.h"
#include "api/compute/transpose_wh.h"
#include "api/compute/reduce.h"
#include "api/compute/tile_move_copy.h"
#include "api/compute/eltwise_binary.h"
#include "api/compute/pack.h"
#include "api/compute/cb_api.h"
#include "api/compute/reg_api.h"

void kernel_main() {
    constexpr auto ca = tt::CBIndex::c_0, cs = tt::CBIndex::c_1;
    constexpr auto crm = tt::CBIndex::c_16, ctr = tt::CBIndex::c_17, cmx = tt::CBIndex::c_18, cpr = tt::CBIndex::c_19;
    compute_kernel_hw_startup(ca, crm);
    cb_wait_front(ca, 4);

    // Both block rows of two tiles in one call (block_rt_dim 2): 64 rows of 64 values.
    pack_untilize_init<2>(ca, crm);
    cb_reserve_back(crm, 4);
    pack_untilize_block<2>(ca, 2, crm);
    cb_push_back(crm, 4);
    pack_untilize_uninit(crm);

    transpose_wh_init(ca, ctr);
    for (uint32_t t = 0; t < 4; t++) {
        tile_regs_acquire();
        transpose_wh_tile(ca, t, 0);
        tile_regs_commit();
        cb_reserve_back(ctr, 1);
        tile_regs_wait();
        pack_tile(0, ctr);
        tile_regs_release();
        cb_push_back(ctr, 1);
    }

    cb_wait_front(cs, 1);
    reduce_init<PoolType::MAX, ReduceDim::REDUCE_SCALAR>(ca, cs, cmx);
    tile_regs_acquire();
    for (uint32_t t = 0; t < 4; t++) reduce_tile<PoolType::MAX, ReduceDim::REDUCE_SCALAR>(ca, cs, t, 0, 0);
    tile_regs_commit();
    reduce_uninit();
    cb_reserve_back(cmx, 1);
    tile_regs_wait();
    pack_tile(0, cmx);
    tile_regs_release();
    cb_push_back(cmx, 1);

    copy_tile_to_dst_init_short(ca);
    tile_regs_acquire();
    copy_tile(ca, 0, 0);
    binary_dest_reuse_tiles_init<ELWMUL, EltwiseBinaryReuseDestType::DEST_TO_SRCA>(ca);
    binary_dest_reuse_tiles<ELWMUL, EltwiseBinaryReuseDestType::DEST_TO_SRCA>(ca, 1, 0);
    tile_regs_commit();
    cb_reserve_back(cpr, 1);
    tile_regs_wait();
    pack_tile(0, cpr);
    tile_regs_release();
    cb_push_back(cpr, 1);
    cb_pop_front(ca, 4);
    cb_pop_front(cs, 1);
}
