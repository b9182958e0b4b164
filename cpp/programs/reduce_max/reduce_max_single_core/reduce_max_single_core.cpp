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
    auto& cq = mesh_device->mesh_command_queue();
    std::vector<bfloat16> x = reduce_max::input(H, W, 5);

    constexpr uint32_t tile_bytes = reduce_max::tile_bytes;
    distributed::DeviceLocalBufferConfig dram{.page_size = tile_bytes, .buffer_type = BufferType::DRAM};
    auto src = distributed::MeshBuffer::create(distributed::ReplicatedBufferConfig{.size = Ht * Wt * tile_bytes},
                                               dram, mesh_device.get());
    auto dst = distributed::MeshBuffer::create(distributed::ReplicatedBufferConfig{.size = Ht * tile_bytes}, dram,
                                               mesh_device.get());
    distributed::EnqueueWriteMeshBuffer(cq, src, tilize_nfaces(x, H, W), false);

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

    distributed::MeshWorkload workload;
    workload.add_program(distributed::MeshCoordinateRange(mesh_device->shape()), std::move(program));
    distributed::EnqueueMeshWorkload(cq, workload, false);
    std::vector<bfloat16> result;
    distributed::EnqueueReadMeshBuffer(cq, result, dst, true);
    mesh_device->close();
    return reduce_max::check(x, untilize_nfaces(result, H, constants::TILE_WIDTH), H, W);
}
