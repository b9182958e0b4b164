// tensim's C++ reduce_max_multi_core: the row maxima of a 2048 × 1024 bf16 matrix, its 64 tile-rows split
// over the compute grid by split_work_to_cores; every core reads its own tile-rows (and writes its own
// scaler tile), reduces them with REDUCE_ROW / MAX and writes one tile per tile-row. Checked exactly.
#include <cstdint>
#include <vector>

#include <tt-metalium/distributed.hpp>
#include <tt-metalium/host_api.hpp>
#include <tt-metalium/tilize_utils.hpp>
#include <tt-metalium/work_split.hpp>

#include "reduce_max/reduce_max_common.hpp"

#ifndef OVERRIDE_KERNEL_PREFIX
#define OVERRIDE_KERNEL_PREFIX ""
#endif

using namespace tt;
using namespace tt::tt_metal;

int main() {
    constexpr uint32_t H = 2048, W = 1024;
    constexpr uint32_t Ht = H / constants::TILE_HEIGHT, Wt = W / constants::TILE_WIDTH;
    auto mesh_device = distributed::MeshDevice::create_unit_mesh(0);
    std::vector<bfloat16> x = reduce_max::input(H, W, 6);

    auto [src, dst] = reduce_max::buffers(*mesh_device, x, H, W);

    Program program = CreateProgram();
    auto [num_cores, all_cores, group_1, group_2, rows_1, rows_2] =
        split_work_to_cores(mesh_device->compute_with_storage_grid_size(), Ht, true);
    reduce_max::create_cbs(program, all_cores);
    auto reader = CreateKernel(
        program, OVERRIDE_KERNEL_PREFIX "reduce_max/reduce_max_single_core/kernels/dataflow/reader_reduce_max.cpp",
        all_cores, ReaderDataMovementConfig{});
    auto writer = CreateKernel(
        program, OVERRIDE_KERNEL_PREFIX "reduce_max/reduce_max_single_core/kernels/dataflow/writer_reduce_max.cpp",
        all_cores, WriterDataMovementConfig{});
    auto compute = CreateKernel(
        program, OVERRIDE_KERNEL_PREFIX "reduce_max/reduce_max_single_core/kernels/compute/reduce_max.cpp", all_cores,
        ComputeConfig{.math_fidelity = MathFidelity::HiFi4});
    uint32_t row = 0;
    for (const auto& core : corerange_to_cores(all_cores, std::nullopt, true)) {
        uint32_t rows = group_1.contains(core) ? rows_1 : rows_2;
        SetRuntimeArgs(program, reader, core,
                       {static_cast<uint32_t>(src->address()), row * Wt, rows * Wt, reduce_max::scaler_one});
        SetRuntimeArgs(program, writer, core, {static_cast<uint32_t>(dst->address()), rows, row});
        SetRuntimeArgs(program, compute, core, {rows, Wt});
        row += rows;
    }
    fmt::print("{} tile-rows on {} cores\n", Ht, num_cores);

    return reduce_max::run_and_check(mesh_device, std::move(program), {src, dst}, x, H, W);
}
