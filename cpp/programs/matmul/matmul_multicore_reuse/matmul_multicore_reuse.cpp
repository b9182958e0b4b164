// tensim's C++ matmul_multicore_reuse: C = A·B (bf16, 640 × 640 × 640, A and B uniform in [-1, 1)) cut into one
// output block per core; each core reuses its A and B blocks across its output block, keeping partial sums in
// c_24 (sharing memory with c_16). Checked by PCC against the CPU. Unit-mesh host API.
#include <cstdint>
#include <random>
#include <vector>

#include <fmt/base.h>
#include <tt-metalium/bfloat16.hpp>
#include <tt-metalium/constants.hpp>
#include <tt-metalium/distributed.hpp>
#include <tt-metalium/host_api.hpp>
#include <tt-metalium/tensor_accessor_args.hpp>
#include <tt-metalium/tilize_utils.hpp>

#include "bmm_op.hpp"

#ifndef OVERRIDE_KERNEL_PREFIX
#define OVERRIDE_KERNEL_PREFIX ""
#endif

using namespace tt;
using namespace tt::tt_metal;

int main() {
    constexpr uint32_t M = 640, N = 640, K = 640;
    constexpr uint32_t Mt = M / constants::TILE_HEIGHT, Nt = N / constants::TILE_WIDTH, Kt = K / constants::TILE_WIDTH;
    auto mesh_device = distributed::MeshDevice::create_unit_mesh(0);
    auto& cq = mesh_device->mesh_command_queue();
    std::mt19937 rng(5);
    std::uniform_real_distribution<float> dist(-1.0f, 1.0f);
    std::vector<bfloat16> a(M * K), b(K * N);
    for (auto& v : a) v = bfloat16(dist(rng));
    for (auto& v : b) v = bfloat16(dist(rng));
    auto golden = golden_matmul(a, b, M, N, K);

    constexpr uint32_t tile_bytes = sizeof(bfloat16) * constants::TILE_HW;
    distributed::DeviceLocalBufferConfig dram{.page_size = tile_bytes, .buffer_type = BufferType::DRAM};
    auto src0 = distributed::MeshBuffer::create(distributed::ReplicatedBufferConfig{.size = Mt * Kt * tile_bytes}, dram, mesh_device.get());
    auto src1 = distributed::MeshBuffer::create(distributed::ReplicatedBufferConfig{.size = Kt * Nt * tile_bytes}, dram, mesh_device.get());
    auto dst = distributed::MeshBuffer::create(distributed::ReplicatedBufferConfig{.size = Mt * Nt * tile_bytes}, dram, mesh_device.get());
    distributed::EnqueueWriteMeshBuffer(cq, src0, tilize_nfaces(a, M, K), false);
    distributed::EnqueueWriteMeshBuffer(cq, src1, tilize_nfaces(b, K, N), false);

    Program program = CreateProgram();
    const CoreCoord grid = mesh_device->compute_with_storage_grid_size();
    constexpr uint32_t dst_tiles = 8;  // half of a 16-bit DST
    const BlockPlan plan = plan_blocked_matmul(Mt, Nt, Kt, grid.x, grid.y, dst_tiles);
    const CoreRange cores({0, 0}, {plan.cores_x - 1, plan.cores_y - 1});
    const uint32_t in0_block_tiles = plan.per_core_M * plan.in0_block_w;
    const uint32_t in1_block_tiles = plan.per_core_N * plan.in0_block_w;
    const uint32_t out_block_tiles = plan.per_core_M * plan.per_core_N;
    CreateCircularBuffer(program, cores,
                         CircularBufferConfig(2 * in0_block_tiles * tile_bytes, {{CBIndex::c_0, tt::DataFormat::Float16_b}})
                             .set_page_size(CBIndex::c_0, tile_bytes));
    CreateCircularBuffer(program, cores,
                         CircularBufferConfig(2 * in1_block_tiles * tile_bytes, {{CBIndex::c_1, tt::DataFormat::Float16_b}})
                             .set_page_size(CBIndex::c_1, tile_bytes));
    CreateCircularBuffer(program, cores,
                         CircularBufferConfig(out_block_tiles * tile_bytes,
                                              {{CBIndex::c_16, tt::DataFormat::Float16_b}, {CBIndex::c_24, tt::DataFormat::Float16_b}})
                             .set_page_size(CBIndex::c_16, tile_bytes)
                             .set_page_size(CBIndex::c_24, tile_bytes));
    std::vector<uint32_t> reader_args, writer_args;
    TensorAccessorArgs(*src0).append_to(reader_args);
    TensorAccessorArgs(*src1).append_to(reader_args);
    TensorAccessorArgs(*dst).append_to(writer_args);
    auto reader = CreateKernel(program, OVERRIDE_KERNEL_PREFIX "matmul/matmul_multicore_reuse/kernels/dataflow/reader_bmm_tile_layout.cpp",
                               cores, ReaderDataMovementConfig(reader_args));
    auto writer = CreateKernel(program, OVERRIDE_KERNEL_PREFIX "matmul/matmul_multicore_reuse/kernels/dataflow/writer_bmm_tile_layout.cpp",
                               cores, WriterDataMovementConfig(writer_args));
    CreateKernel(program, OVERRIDE_KERNEL_PREFIX "matmul/matmul_multicore_reuse/kernels/compute/bmm_large_block_zm.cpp", cores,
                 ComputeConfig{.math_fidelity = MathFidelity::HiFi4, .compile_args = bmm_compute_args(plan)});
    for (uint32_t by = 0; by < plan.cores_y; by++) {
        for (uint32_t bx = 0; bx < plan.cores_x; bx++) {
            CoreCoord core = {bx, by};
            SetRuntimeArgs(program, reader, core,
                           {src0->address(), by * plan.per_core_M * Kt, Kt, plan.in0_block_w,
                            plan.in0_block_w, plan.per_core_M, src1->address(),
                            bx * plan.per_core_N, Nt, plan.in0_block_w * Nt, plan.per_core_N, plan.num_blocks});
            SetRuntimeArgs(program, writer, core, bmm_writer_args(plan, dst->address(), Nt, bx, by));
        }
    }

    distributed::MeshWorkload workload;
    workload.add_program(distributed::MeshCoordinateRange(mesh_device->shape()), std::move(program));
    distributed::EnqueueMeshWorkload(cq, workload, false);
    std::vector<bfloat16> result;
    distributed::EnqueueReadMeshBuffer(cq, result, dst, true);
    result = untilize_nfaces(result, M, N);
    mesh_device->close();

    return report_pcc(golden, result, 0.99f);
}
