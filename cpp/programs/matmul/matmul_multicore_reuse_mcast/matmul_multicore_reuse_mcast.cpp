// tensim's C++ matmul_multicore_reuse_mcast: the blocked matmul of matmul_multicore_reuse (bf16,
// 1024 × 1024 × 1024, A and B uniform in [-1, 1)), but each A block is read from DRAM once, by the core in
// column 0, and multicast along its row, and each B block once, by the core in row 0, and multicast down its
// column; four reader variants synchronise every block with semaphores. The writer and compute kernels are
// matmul_multicore_reuse's. Checked by PCC against the CPU. Unit-mesh host API.
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
    constexpr uint32_t M = 1024, N = 1024, K = 1024;
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
    constexpr uint32_t INVALID = 0;
    uint32_t sems[4];
    for (auto& s : sems) s = CreateSemaphore(program, cores, INVALID);
    const uint32_t gx = plan.cores_x, gy = plan.cores_y;
    std::vector<uint32_t> reader_args, writer_args;
    TensorAccessorArgs(*src0).append_to(reader_args);
    TensorAccessorArgs(*src1).append_to(reader_args);
    TensorAccessorArgs(*dst).append_to(writer_args);
    const DataMovementConfig reader_cfg{
        .processor = DataMovementProcessor::RISCV_1, .noc = NOC::RISCV_1_default, .compile_args = reader_args};
    const DataMovementConfig writer_cfg{
        .processor = DataMovementProcessor::RISCV_0, .noc = NOC::RISCV_0_default, .compile_args = writer_args};
    // (cores, reader variant): (0,0) sends both; column 0 sends A; row 0 sends B; the rest receive both.
    std::vector<std::pair<CoreRange, KernelHandle>> readers;
    auto add_reader = [&](CoreRange r, const char* variant) {
        std::string path = std::string(OVERRIDE_KERNEL_PREFIX "matmul/matmul_multicore_reuse_mcast/kernels/dataflow/reader_bmm_tile_layout_") +
                           variant + ".cpp";
        readers.emplace_back(r, CreateKernel(program, path, r, reader_cfg));
    };
    add_reader(CoreRange({0, 0}, {0, 0}), "in0_sender_in1_sender");
    if (gy > 1) add_reader(CoreRange({0, 1}, {0, gy - 1}), "in0_sender_in1_receiver");
    if (gx > 1) add_reader(CoreRange({1, 0}, {gx - 1, 0}), "in0_receiver_in1_sender");
    if (gx > 1 && gy > 1) add_reader(CoreRange({1, 1}, {gx - 1, gy - 1}), "in0_receiver_in1_receiver");
    auto writer = CreateKernel(program, OVERRIDE_KERNEL_PREFIX "matmul/matmul_multicore_reuse/kernels/dataflow/writer_bmm_tile_layout.cpp",
                               cores, writer_cfg);
    CreateKernel(program, OVERRIDE_KERNEL_PREFIX "matmul/matmul_multicore_reuse/kernels/compute/bmm_large_block_zm.cpp", cores,
                 ComputeConfig{.math_fidelity = MathFidelity::HiFi4, .compile_args = bmm_compute_args(plan)});
    auto noc_xy = [&](uint32_t x, uint32_t y) { return mesh_device->worker_core_from_logical_core(CoreCoord{x, y}); };
    for (const auto& [range, kernel] : readers) {
        for (const auto& core : corerange_to_cores(CoreRangeSet(range), std::nullopt, true)) {
            const uint32_t bx = core.x, by = core.y;
            // A: column 0 of this row multicasts to columns 1.. of the row; B: row 0 of this column to rows 1...
            CoreCoord s0 = noc_xy(0, by), s1 = noc_xy(bx, 0);
            std::vector<uint32_t> args = {src0->address(), by * plan.per_core_M * Kt, Kt,
                                          plan.in0_block_w, plan.in0_block_w, plan.per_core_M,
                                          src1->address(), bx * plan.per_core_N, Nt,
                                          plan.in0_block_w * Nt, plan.per_core_N, plan.num_blocks};
            if (gx > 1) {
                CoreCoord a = noc_xy(1, by), b = noc_xy(gx - 1, by);
                args.insert(args.end(), {static_cast<uint32_t>(a.x), static_cast<uint32_t>(a.y),
                                         static_cast<uint32_t>(b.x), static_cast<uint32_t>(b.y), gx - 1});
            } else {
                args.insert(args.end(), {0u, 0u, 0u, 0u, 0u});
            }
            args.insert(args.end(), {static_cast<uint32_t>(s0.x), static_cast<uint32_t>(s0.y)});
            if (gy > 1) {
                CoreCoord a = noc_xy(bx, 1), b = noc_xy(bx, gy - 1);
                args.insert(args.end(), {static_cast<uint32_t>(a.x), static_cast<uint32_t>(a.y),
                                         static_cast<uint32_t>(b.x), static_cast<uint32_t>(b.y), gy - 1});
            } else {
                args.insert(args.end(), {0u, 0u, 0u, 0u, 0u});
            }
            args.insert(args.end(), {static_cast<uint32_t>(s1.x), static_cast<uint32_t>(s1.y)});
            args.insert(args.end(), std::begin(sems), std::end(sems));
            SetRuntimeArgs(program, kernel, core, args);
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

    return report_pcc(golden, result, 0.98f);
}
