// The rest of the FPU compute API, written for tensim: broadcasts (bcast.h), transposes (transpose_wh.h,
// transpose.h), block matmuls, DST-reuse binaries, and layout conversion (tilize.h, untilize.h,
// pack_untilize.h). Each call forwards to the Rust API like those of tensim/compute.h. Reductions are in
// tensim/reduce.h, whose defaults depend on the kernel's REDUCE_OP / REDUCE_DIM.
#pragma once
#include "tensim/compute.h"

namespace ckernel {
namespace tensim_detail {
// EltwiseBinaryType → tensim's binary kind (0 add, 1 sub, 2 mul); others are not FPU broadcasts.
constexpr uint32_t binary_kind(EltwiseBinaryType t) {
    return t == ELWADD ? 0 : t == ELWSUB ? 1 : t == ELWMUL ? 2 : 99;
}
// A broadcast row index in 16 bits (tensim says a row past 31 is not a row of the tile).
constexpr uint32_t row16(uint32_t r) { return r < 0xFFFF ? r : 0xFFFF; }
}  // namespace tensim_detail

// Broadcasts: the second operand's row `bcast_row_idx` (ROW, default 0), column 0 (COL) or element (0,0)
// (SCALAR) for all.
template <EltwiseBinaryType tBcastOp, BroadcastType tBcastDim, bool fp32 = DST_ACCUM_MODE>
ALWI void init_bcast(uint32_t icb0, uint32_t icb1, uint32_t ocb, uint32_t = __builtin_LINE()) {
    compute(tensim::OP_BCAST_INIT, tensim_detail::binary_kind(tBcastOp), tBcastDim, icb0, icb1, ocb, 1);
}
#define TENSIM_BCAST(op, kind)                                                                             \
    template <BroadcastType tBcastDim, bool fp32 = DST_ACCUM_MODE>                                         \
    ALWI void op##_tiles_bcast(uint32_t icb0, uint32_t icb1, uint32_t itile0, uint32_t itile1, uint32_t idst, \
                               uint32_t bcast_row_idx = 0) {                                               \
        compute(tensim::OP_BCAST_TILES, kind | (uint32_t(tBcastDim) << 8) | (tensim_detail::row16(bcast_row_idx) << 16), \
                icb0, icb1, itile0, itile1, idst);                                                         \
    }                                                                                                      \
    template <bool fp32 = DST_ACCUM_MODE>                                                                  \
    ALWI void op##_tiles_bcast_rows(uint32_t icb0, uint32_t icb1, uint32_t itile0, uint32_t itile1,        \
                                    uint32_t idst, uint32_t bcast_row_idx = 0) {                           \
        op##_tiles_bcast<BroadcastType::ROW>(icb0, icb1, itile0, itile1, idst, bcast_row_idx);             \
    }                                                                                                      \
    template <bool fp32 = DST_ACCUM_MODE>                                                                  \
    ALWI void op##_tiles_bcast_cols(uint32_t icb0, uint32_t icb1, uint32_t itile0, uint32_t itile1,        \
                                    uint32_t idst) {                                                       \
        op##_tiles_bcast<BroadcastType::COL>(icb0, icb1, itile0, itile1, idst);                            \
    }                                                                                                      \
    template <bool fp32 = DST_ACCUM_MODE>                                                                  \
    ALWI void op##_tiles_bcast_scalar(uint32_t icb0, uint32_t icb1, uint32_t itile0, uint32_t itile1,      \
                                      uint32_t idst) {                                                     \
        op##_tiles_bcast<BroadcastType::SCALAR>(icb0, icb1, itile0, itile1, idst);                         \
    }                                                                                                      \
    ALWI void op##_bcast_rows_init_short(uint32_t icb0, uint32_t icb1, uint32_t = __builtin_LINE()) {      \
        compute(tensim::OP_BCAST_INIT, kind, BroadcastType::ROW, icb0, icb1, 0, 0);                        \
    }                                                                                                      \
    ALWI void op##_bcast_cols_init_short(uint32_t icb0, uint32_t icb1, uint32_t = __builtin_LINE()) {      \
        compute(tensim::OP_BCAST_INIT, kind, BroadcastType::COL, icb0, icb1, 0, 0);                        \
    }                                                                                                      \
    ALWI void op##_bcast_scalar_init_short(uint32_t icb0, uint32_t icb1, uint32_t = __builtin_LINE()) {    \
        compute(tensim::OP_BCAST_INIT, kind, BroadcastType::SCALAR, icb0, icb1, 0, 0);                     \
    }                                                                                                      \
    ALWI void op##_tiles_bcast_scalar_init_short(uint32_t icb0, uint32_t icb1, uint32_t = __builtin_LINE()) { \
        op##_bcast_scalar_init_short(icb0, icb1);                                                          \
    }
TENSIM_BCAST(add, 0)
TENSIM_BCAST(sub, 1)
TENSIM_BCAST(mul, 2)
#undef TENSIM_BCAST

// Transposes.
ALWI void transpose_wh_init(uint32_t icb, uint32_t ocb) { compute(tensim::OP_TRANSPOSE_INIT, icb, ocb, 1); }
ALWI void transpose_wh_init_short(uint32_t icb) { compute(tensim::OP_TRANSPOSE_INIT, icb, 0, 0); }
ALWI void transpose_wh_tile(uint32_t icb, uint32_t itile, uint32_t idst) {
    compute(tensim::OP_TRANSPOSE_TILE, icb, itile, idst);
}
ALWI void transpose_init(uint32_t icb) { transpose_wh_init_short(icb); }
ALWI void transpose_tile(uint32_t icb, uint32_t itile, uint32_t idst) { transpose_wh_tile(icb, itile, idst); }

// Block matmul: an rt_dim × ct_dim block of DST tiles per K step. Packed arguments: CB ids below 256,
// block dimensions below 65536.
ALWI void mm_block_init(uint32_t in0_cb_id, uint32_t in1_cb_id, uint32_t out_cb_id, const uint32_t transpose = 0,
                        uint32_t = 1, uint32_t = 1, uint32_t = 1, uint32_t = __builtin_LINE()) {
    compute(tensim::OP_MM_INIT, in0_cb_id, in1_cb_id, out_cb_id, transpose);
}
ALWI void mm_block_init_short(uint32_t in0_cb_id, uint32_t in1_cb_id, const uint32_t transpose = 0, uint32_t = 1,
                              uint32_t = 1, uint32_t = 1, uint32_t = __builtin_LINE()) {
    compute(tensim::OP_MM_INIT_SHORT, in0_cb_id, in1_cb_id, transpose);
}
ALWI void mm_init_short_with_dt(uint32_t in0_cb_id, uint32_t in1_cb_id, uint32_t c_in_old_srca,
                                const uint32_t transpose = 0) {
    compute(tensim::OP_MM_INIT_SHORT_WITH_DT, in0_cb_id, in1_cb_id, c_in_old_srca, transpose);
}
ALWI void mm_block_init_short_with_dt(uint32_t in0_cb_id, uint32_t in1_cb_id, uint32_t old_in1_cb_id,
                                      const uint32_t transpose = 0, uint32_t = 1, uint32_t = 1, uint32_t = 1) {
    mm_init_short_with_dt(in0_cb_id, in1_cb_id, old_in1_cb_id, transpose);
}
ALWI void matmul_block(uint32_t in0_cb_id, uint32_t in1_cb_id, uint32_t in0_tile_index, uint32_t in1_tile_index,
                       uint32_t idst, const uint32_t transpose, uint32_t ct_dim, uint32_t rt_dim, uint32_t kt_dim,
                       uint32_t = __builtin_LINE()) {
    compute(tensim::OP_MATMUL_BLOCK, in0_cb_id | (in1_cb_id << 8) | (transpose ? 1u << 16 : 0u), in0_tile_index,
            in1_tile_index, idst, ct_dim | (rt_dim << 16), kt_dim);
}
ALWI void copy_tile_to_dst_init_short_with_dt(uint32_t old_cbid, uint32_t new_cbid, uint32_t transpose = 0) {
    compute(tensim::OP_COPY_INIT_WITH_DT, old_cbid, new_cbid, transpose);
}
template <bool to_from_int8 = false>
ALWI void reconfig_data_format_srca(uint32_t srca_new) {
    compute(tensim::OP_RECONFIG_SRCA, srca_new);
}
template <bool to_from_int8 = false>
ALWI void reconfig_data_format_srca(uint32_t, uint32_t srca_new) {
    compute(tensim::OP_RECONFIG_SRCA, srca_new);
}
template <bool to_from_int8 = false>
ALWI void reconfig_data_format_srcb(uint32_t srcb_new) {
    compute(tensim::OP_RECONFIG_SRCB, srcb_new);
}
template <bool to_from_int8 = false>
ALWI void reconfig_data_format_srcb(uint32_t, uint32_t srcb_new) {
    compute(tensim::OP_RECONFIG_SRCB, srcb_new);
}
// ntiles consecutive copies into DST (matmul kernels reload their partials with it).
ALWI void copy_block_matmul_partials(uint32_t in_cb_id, uint32_t start_in_tile_index, uint32_t start_dst_tile_index,
                                     uint32_t ntiles) {
    for (uint32_t i = 0; i < ntiles; i++) copy_tile(in_cb_id, start_in_tile_index + i, start_dst_tile_index + i);
}
ALWI void pack_reconfig_l1_acc(uint32_t l1_acc_en) { compute(tensim::OP_PACK_L1_ACC, l1_acc_en); }

// DST reuse: DST[idst] = DST[idst] op tile (DEST_TO_SRCA) or tile op DST[idst] (DEST_TO_SRCB).
enum class EltwiseBinaryReuseDestType { NONE = 0, DEST_TO_SRCA = 1, DEST_TO_SRCB = 2 };
template <EltwiseBinaryType eltwise_binary_type = ELWADD,
          EltwiseBinaryReuseDestType binary_reuse_dest = EltwiseBinaryReuseDestType::NONE>
ALWI void binary_dest_reuse_tiles_init(uint32_t icb0, uint32_t = __builtin_LINE()) {
    compute(tensim::OP_DEST_REUSE_INIT, tensim_detail::binary_kind(eltwise_binary_type), uint32_t(binary_reuse_dest),
            icb0);
}
template <EltwiseBinaryType eltwise_binary_type = ELWADD,
          EltwiseBinaryReuseDestType binary_reuse_dest = EltwiseBinaryReuseDestType::NONE>
ALWI void binary_dest_reuse_tiles(uint32_t in_cb_id, uint32_t in_tile_index, uint32_t dst_tile_index) {
    compute(tensim::OP_DEST_REUSE, tensim_detail::binary_kind(eltwise_binary_type) | (uint32_t(binary_reuse_dest) << 8),
            in_cb_id, in_tile_index, dst_tile_index);
}

// Layout conversion. Sub-operations: 0 init, 1 block, 2 uninit.
ALWI void tilize_init(uint32_t icb, uint32_t block, uint32_t ocb) { compute(tensim::OP_TILIZE, 0, icb, block, ocb); }
ALWI void tilize_init_short(uint32_t icb, uint32_t block, uint32_t ocb) { tilize_init(icb, block, ocb); }
ALWI void tilize_init_short_with_dt(uint32_t, uint32_t new_icb, uint32_t block, uint32_t ocb) {
    tilize_init(new_icb, block, ocb);
}
ALWI void tilize_block(uint32_t icb, uint32_t block, uint32_t ocb, uint32_t input_tile_index = 0,
                       uint32_t output_tile_index = 0) {
    compute(tensim::OP_TILIZE, 1, icb, block, ocb, input_tile_index, output_tile_index);
}
ALWI void tilize_uninit(uint32_t icb, uint32_t ocb) { compute(tensim::OP_TILIZE, 2, icb, 0, ocb); }
ALWI void tilize_uninit_with_dt(uint32_t, uint32_t new_icb, uint32_t ocb) { tilize_uninit(new_icb, ocb); }

ALWI void untilize_init(uint32_t icb) { compute(tensim::OP_UNTILIZE, 0, icb); }
ALWI void untilize_init(uint32_t icb, uint32_t) { untilize_init(icb); }
ALWI void untilize_init_short(uint32_t icb) { untilize_init(icb); }
template <uint32_t block_ct_dim = 1>
ALWI void untilize_block(uint32_t icb, uint32_t full_ct_dim, uint32_t ocb) {
    compute(tensim::OP_UNTILIZE, 1, icb, full_ct_dim, ocb);
}
ALWI void untilize_uninit(uint32_t icb) { compute(tensim::OP_UNTILIZE, 2, icb); }

template <uint32_t block_ct_dim = 8, uint32_t full_ct_dim = block_ct_dim>
ALWI void pack_untilize_init(uint32_t icb, uint32_t ocb) {
    compute(tensim::OP_PACK_UNTILIZE, 0, icb, 0, ocb);
}
template <uint32_t block_ct_dim = 8, uint32_t full_ct_dim = block_ct_dim>
ALWI void pack_untilize_block(uint32_t icb, uint32_t block_rt_dim, uint32_t ocb, uint32_t block_c_index = 0) {
    static_assert(block_ct_dim < 65536 && full_ct_dim < 65536, "tensim: block widths below 65536 tiles");
    compute(tensim::OP_PACK_UNTILIZE, 1, icb, block_rt_dim, ocb, block_ct_dim | (full_ct_dim << 16), block_c_index);
}
ALWI void pack_untilize_uninit(uint32_t ocb) { compute(tensim::OP_PACK_UNTILIZE, 2, 0, 0, ocb); }
// From DST: the tiles a MATH operation left there, packed row-major (between tile_regs_wait and
// tile_regs_release). Tiny tiles (face_r_dim != 16, num_faces != 4) and the narrow/dense row forms are not
// modelled.
template <uint32_t block_ct_dim = 8, uint32_t full_ct_dim = block_ct_dim, bool narrow_row = false,
          std::uint32_t row_num_datums = 32, bool dense = false>
ALWI void pack_untilize_dest_init(uint32_t ocb, uint32_t face_r_dim = 16, uint32_t num_faces = 4) {
    static_assert(!narrow_row && row_num_datums == 32 && !dense,
                  "tensim: not modelled: pack_untilize_dest with narrow or dense rows");
    if (face_r_dim != 16 || num_faces != 4) tensim::fail("pack_untilize_dest_init: not modelled: tiny tiles (face_r_dim, num_faces)");
    compute(tensim::OP_PACK_UNTILIZE, 3, 0, 0, ocb);
}
template <uint32_t block_ct_dim = 8, uint32_t full_ct_dim = block_ct_dim, bool narrow_row = false,
          std::uint32_t row_num_datums = 32, bool dense = false>
ALWI void pack_untilize_dest(uint32_t ocb, uint32_t block_rt_dim = 1, uint32_t block_c_index = 0, uint32_t face_r_dim = 16,
                             uint32_t num_faces = 4, uint32_t tile_dst_rt_offset = 0) {
    static_assert(block_ct_dim < 65536 && full_ct_dim < 65536, "tensim: block widths below 65536 tiles");
    static_assert(!narrow_row && row_num_datums == 32 && !dense,
                  "tensim: not modelled: pack_untilize_dest with narrow or dense rows");
    if (face_r_dim != 16 || num_faces != 4) tensim::fail("pack_untilize_dest: not modelled: tiny tiles (face_r_dim, num_faces)");
    if (block_c_index > 0xFFFF || tile_dst_rt_offset > 0xFFFF) tensim::fail("pack_untilize_dest: an index of 65536 or more");
    compute(tensim::OP_PACK_UNTILIZE, 4, 0, block_rt_dim, ocb, block_ct_dim | (full_ct_dim << 16),
            block_c_index | (tile_dst_rt_offset << 16));
}
}  // namespace ckernel
