// block_mm compute: the Mt x Nt block of C in DST by one matmul_block per inner tile (in0 index k, in1
// index k * Nt, kt_dim = Kt), packed to c_24; each tile times the scalar tile into c_16; then the Int32
// tile copied through DST into c_17 after reconfiguring the unpacker and packer formats.
#include <cstdint>
#include "api/compute/common.h"
#include "api/compute/compute_kernel_hw_startup.h"
#include "api/compute/matmul.h"
#include "api/compute/bcast.h"
#include "api/compute/tile_move_copy.h"
#include "api/compute/reconfig_data_format.h"
#include "api/compute/pack.h"
#include "api/compute/cb_api.h"
#include "api/compute/reg_api.h"

void kernel_main() {
    constexpr uint32_t mt = get_compile_time_arg_val(0), kt = get_compile_time_arg_val(1), nt = get_compile_time_arg_val(2);
    constexpr auto ca = tt::CBIndex::c_0, cb = tt::CBIndex::c_1, cs = tt::CBIndex::c_2, ci = tt::CBIndex::c_3;
    constexpr auto cm = tt::CBIndex::c_24, co = tt::CBIndex::c_16, cio = tt::CBIndex::c_17;
    compute_kernel_hw_startup(ca, cb, cm);
    mm_block_init(ca, cb, cm, false, nt, mt, kt);
    cb_wait_front(ca, mt * kt);
    cb_wait_front(cb, kt * nt);
    tile_regs_acquire();
    for (uint32_t k = 0; k < kt; k++) {
        matmul_block(ca, cb, k, k * nt, 0, false, nt, mt, kt);
    }
    tile_regs_commit();
    cb_pop_front(ca, mt * kt);
    cb_pop_front(cb, kt * nt);
    cb_reserve_back(cm, mt * nt);
    tile_regs_wait();
    for (uint32_t t = 0; t < mt * nt; t++) pack_tile(t, cm);
    tile_regs_release();
    cb_push_back(cm, mt * nt);

    cb_wait_front(cs, 1);
    cb_wait_front(cm, mt * nt);
    mul_tiles_bcast_scalar_init_short(cm, cs);
    for (uint32_t t = 0; t < mt * nt; t++) {
        tile_regs_acquire();
        mul_tiles_bcast_scalar(cm, cs, t, 0, 0);
        tile_regs_commit();
        cb_reserve_back(co, 1);
        tile_regs_wait();
        pack_tile(0, co);
        tile_regs_release();
        cb_push_back(co, 1);
    }
    cb_pop_front(cm, mt * nt);

    reconfig_data_format_srca(ci);
    pack_reconfig_data_format(cio);
    copy_tile_to_dst_init_short(ci);
    cb_wait_front(ci, 1);
    tile_regs_acquire();
    copy_tile(ci, 0, 0);
    tile_regs_commit();
    cb_reserve_back(cio, 1);
    tile_regs_wait();
    pack_tile(0, cio);
    tile_regs_release();
    cb_push_back(cio, 1);
    cb_pop_front(ci, 1);
}
