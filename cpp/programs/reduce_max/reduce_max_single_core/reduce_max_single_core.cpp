// tensim's C++ reduce_max_single_core: the maximum of every row of a 256 × 512 bf16 matrix (values uniform
// in [-10, 10)) on one core, REDUCE_ROW with PoolType::MAX. The result is one tile per tile-row with the
// maxima in column 0; each is compared exactly with the CPU's (a maximum of bf16 values is exact).
#include <cstdint>
#include <vector>

#include <tt-metalium/distributed.hpp>
#include <tt-metalium/host_api.hpp>
#include <tt-metalium/tilize_utils.hpp>

#include "reduce_max/reduce_max_common.hpp"

#ifndef OVERRIDE_KERNEL_PREFIX
#define OVERRIDE_KERNEL_PREFIX ""
#endif

using namespace tt;
using namespace tt::tt_metal;

int main() {
    constexpr uint32_t H = 256, W = 512;
    constexpr uint32_t Ht = H / constants::TILE_HEIGHT, Wt = W / constants::TILE_WIDTH;
    auto mesh_device = distributed::MeshDevice::create_unit_mesh(0);
    std::vector<bfloat16> x = reduce_max::input(H, W, 5);

    auto [src, dst] = reduce_max::buffers(*mesh_device, x, H, W);

    Program program = CreateProgram();
    constexpr CoreCoord core = {0, 0};
    reduce_max::create_cbs(program, core);
    auto reader = CreateKernel(
        program, OVERRIDE_KERNEL_PREFIX "reduce_max/reduce_max_single_core/kernels/dataflow/reader_reduce_max.cpp",
        core, DataMovementConfig{.processor = DataMovementProcessor::RISCV_1, .noc = NOC::RISCV_1_default});
    auto writer = CreateKernel(
        program, OVERRIDE_KERNEL_PREFIX "reduce_max/reduce_max_single_core/kernels/dataflow/writer_reduce_max.cpp",
        core, DataMovementConfig{.processor = DataMovementProcessor::RISCV_0, .noc = NOC::RISCV_0_default});
    auto compute = CreateKernel(
        program, OVERRIDE_KERNEL_PREFIX "reduce_max/reduce_max_single_core/kernels/compute/reduce_max.cpp", core,
        ComputeConfig{.math_fidelity = MathFidelity::HiFi4});
    SetRuntimeArgs(program, reader, core, {static_cast<uint32_t>(src->address()), 0u, Ht * Wt, reduce_max::scaler_one});
    SetRuntimeArgs(program, writer, core, {static_cast<uint32_t>(dst->address()), Ht, 0u});
    SetRuntimeArgs(program, compute, core, {Ht, Wt});

    return reduce_max::run_and_check(mesh_device, std::move(program), {src, dst}, x, H, W);
}
