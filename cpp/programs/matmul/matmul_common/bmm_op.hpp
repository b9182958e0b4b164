// Host helpers tensim's C++ matmul programs share (the role of an example-local bmm_op.hpp): the Pearson
// correlation of two bf16 vectors and the programs' verdict on it, a row-major reference matmul, the blocked
// plan and its kernel args.
#pragma once
#include <cmath>
#include <cstdint>
#include <vector>

#include <tt-metalium/bfloat16.hpp>
#include <tt-metalium/host_api.hpp>

// Pearson correlation coefficient of two equally long vectors (1 for identical shapes of data).
inline float check_bfloat16_vector_pcc(const std::vector<tt::tt_metal::bfloat16>& a,
                                       const std::vector<tt::tt_metal::bfloat16>& b) {
    if (a.size() != b.size() || a.empty()) return 0.0f;
    double ma = 0, mb = 0;
    for (size_t i = 0; i < a.size(); i++) {
        ma += static_cast<float>(a[i]);
        mb += static_cast<float>(b[i]);
    }
    ma /= a.size();
    mb /= b.size();
    double cov = 0, va = 0, vb = 0;
    for (size_t i = 0; i < a.size(); i++) {
        double x = static_cast<float>(a[i]) - ma, y = static_cast<float>(b[i]) - mb;
        cov += x * y;
        va += x * x;
        vb += y * y;
    }
    return (va == 0 || vb == 0) ? 0.0f : static_cast<float>(cov / std::sqrt(va * vb));
}

// Print the PCC of `result` against `golden` and the verdict; main's return value (0 when PCC ≥ min_pcc).
inline int report_pcc(const std::vector<tt::tt_metal::bfloat16>& golden,
                      const std::vector<tt::tt_metal::bfloat16>& result, float min_pcc) {
    float pcc = check_bfloat16_vector_pcc(golden, result);
    fmt::print("Metalium vs golden -- PCC = {}\n", pcc);
    if (pcc < min_pcc) {
        fmt::print("Test Failed\n");
        return 1;
    }
    fmt::print("Test Passed\n");
    return 0;
}

// C = A·B for row-major bf16 A (M×K) and B (K×N), accumulated in float.
inline std::vector<tt::tt_metal::bfloat16> golden_matmul(const std::vector<tt::tt_metal::bfloat16>& a,
                                                         const std::vector<tt::tt_metal::bfloat16>& b, uint32_t M,
                                                         uint32_t N, uint32_t K) {
    std::vector<float> acc(static_cast<size_t>(M) * N, 0.0f);
    for (uint32_t i = 0; i < M; i++)
        for (uint32_t k = 0; k < K; k++) {
            float x = static_cast<float>(a[i * K + k]);
            for (uint32_t j = 0; j < N; j++) acc[i * N + j] += x * static_cast<float>(b[k * N + j]);
        }
    std::vector<tt::tt_metal::bfloat16> c(acc.size());
    for (size_t i = 0; i < acc.size(); i++) c[i] = tt::tt_metal::bfloat16(acc[i]);
    return c;
}

// How a blocked matmul cuts the output over a core grid: per-core blocks of per_core_M × per_core_N tiles
// (the smallest that divide Mt and Nt evenly and need no more cores than the grid has), K blocks of
// in0_block_w tiles (2, or 1 when Kt is odd), and the largest sub-block of at most dst_tiles tiles that
// divides the block, trying shapes in the usual order of preference.
struct BlockPlan {
    uint32_t per_core_M, per_core_N, in0_block_w, out_subblock_h, out_subblock_w, cores_x, cores_y, num_blocks;
};
inline BlockPlan plan_blocked_matmul(uint32_t Mt, uint32_t Nt, uint32_t Kt, uint32_t grid_x, uint32_t grid_y,
                                     uint32_t dst_tiles) {
    auto smallest_fit = [](uint32_t tiles, uint32_t cores) {
        for (uint32_t d = 1; d <= tiles; d++)
            if (tiles % d == 0 && tiles / d <= cores) return d;
        return tiles;
    };
    BlockPlan p{};
    p.per_core_M = smallest_fit(Mt, grid_y);
    p.per_core_N = smallest_fit(Nt, grid_x);
    p.in0_block_w = Kt % 2 == 0 ? 2 : 1;
    static const uint32_t choices[20][2] = {{4, 2}, {2, 4}, {8, 1}, {1, 8}, {7, 1}, {1, 7}, {3, 2}, {2, 3}, {6, 1}, {1, 6},
                                            {5, 1}, {1, 5}, {2, 2}, {4, 1}, {1, 4}, {3, 1}, {1, 3}, {2, 1}, {1, 2}, {1, 1}};
    p.out_subblock_h = 1;
    p.out_subblock_w = 1;
    for (const auto& c : choices) {
        if (c[0] * c[1] <= dst_tiles && p.per_core_M % c[0] == 0 && p.per_core_N % c[1] == 0) {
            p.out_subblock_h = c[0];
            p.out_subblock_w = c[1];
            break;
        }
    }
    p.cores_x = Nt / p.per_core_N;
    p.cores_y = Mt / p.per_core_M;
    p.num_blocks = Kt / p.in0_block_w;
    return p;
}

// The compile-time args of bmm_large_block_zm for `p`: in0_block_w, in0 sub-blocks, in0 block tiles, in0
// sub-block tiles, in1 sub-blocks, in1 block tiles, in1 per-core width, K blocks, sub-block h, w and tiles.
inline std::vector<uint32_t> bmm_compute_args(const BlockPlan& p) {
    return {p.in0_block_w,
            p.per_core_M / p.out_subblock_h,
            p.per_core_M * p.in0_block_w,
            p.out_subblock_h * p.in0_block_w,
            p.per_core_N / p.out_subblock_w,
            p.per_core_N * p.in0_block_w,
            p.per_core_N,
            p.num_blocks,
            p.out_subblock_h,
            p.out_subblock_w,
            p.out_subblock_h * p.out_subblock_w};
}

// The runtime args of writer_bmm_tile_layout for the core of output block (bx, by) of `p`.
inline std::vector<uint32_t> bmm_writer_args(const BlockPlan& p, uint32_t dst_addr, uint32_t Nt, uint32_t bx,
                                             uint32_t by) {
    return {dst_addr, by * p.per_core_M * Nt + bx * p.per_core_N, Nt, p.out_subblock_w, p.out_subblock_h * Nt,
            p.out_subblock_w, p.out_subblock_h, p.per_core_N / p.out_subblock_w, p.per_core_M / p.out_subblock_h};
}
