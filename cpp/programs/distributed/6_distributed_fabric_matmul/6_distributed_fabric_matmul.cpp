// tensim's C++ distributed fabric matmul: C = A·B (bf16, 640 × 640 × 640) on a 1x2 mesh with the 1-D fabric
// (run with `--system t3000`, `--system n300` or a Blackhole system). Each device computes half of C's
// tile rows on its compute cores (matmul_multi_core's reader and compute kernels over its half); device 1
// then forwards its half through the fabric into C on device 0, whose receiver waits for the last tile. C
// read back from device 0 alone is checked by PCC against the CPU. Host API: SetFabricConfig,
// MeshDevice::create, a MeshWorkload of two programs, append_fabric_connection_rt_args.
#include <cstdint>
#include <random>
#include <vector>

#include <tt-metalium/bfloat16.hpp>
#include <tt-metalium/distributed.hpp>
#include <tt-metalium/fabric.hpp>
#include <tt-metalium/host_api.hpp>
#include <tt-metalium/tilize_utils.hpp>

#include "matmul/matmul_common/bmm_op.hpp"

#ifndef OVERRIDE_KERNEL_PREFIX
#define OVERRIDE_KERNEL_PREFIX ""
#endif

using namespace tt;
using namespace tt::tt_metal;

int main() {
    constexpr uint32_t M = 640, N = 640, K = 640;
    constexpr uint32_t Mt = M / constants::TILE_HEIGHT, Nt = N / constants::TILE_WIDTH, Kt = K / constants::TILE_WIDTH;
    constexpr uint32_t tile_bytes = sizeof(bfloat16) * constants::TILE_HW;
    tt_fabric::SetFabricConfig(tt_fabric::FabricConfig::FABRIC_1D);
    auto mesh = distributed::MeshDevice::create(distributed::MeshDeviceConfig(distributed::MeshShape(1, 2)));
    auto& cq = mesh->mesh_command_queue();

    std::mt19937 rng(5);
    std::uniform_real_distribution<float> dist(-1.0f, 1.0f);
    std::vector<bfloat16> a(M * K), b(K * N);
    for (auto& v : a) v = bfloat16(dist(rng));
    for (auto& v : b) v = bfloat16(dist(rng));
    auto golden = golden_matmul(a, b, M, N, K);

    distributed::DeviceLocalBufferConfig dram{.page_size = tile_bytes, .buffer_type = BufferType::DRAM};
    auto src0 = distributed::MeshBuffer::create(distributed::ReplicatedBufferConfig{.size = Mt * Kt * tile_bytes}, dram, mesh.get());
    auto src1 = distributed::MeshBuffer::create(distributed::ReplicatedBufferConfig{.size = Kt * Nt * tile_bytes}, dram, mesh.get());
    auto dst = distributed::MeshBuffer::create(distributed::ReplicatedBufferConfig{.size = Mt * Nt * tile_bytes}, dram, mesh.get());
    distributed::EnqueueWriteMeshBuffer(cq, src0, tilize_nfaces(a, M, K), false);
    distributed::EnqueueWriteMeshBuffer(cq, src1, tilize_nfaces(b, K, N), false);

    // Compute on every core but the last row's first, which forwards (device 1) or receives (device 0).
    const CoreCoord grid = mesh->compute_with_storage_grid_size();
    const CoreCoord compute_grid = {grid.x, grid.y - 1};
    const CoreCoord edge_core = {0, grid.y - 1};
    const uint32_t half = Mt / 2 * Nt;
    const distributed::MeshCoordinate home(0, 0), away(0, 1);
    const CoreCoord home_edge_xy = mesh->get_device(home)->worker_core_from_logical_core(edge_core);
    const CoreCoord away_edge_xy = mesh->get_device(away)->worker_core_from_logical_core(edge_core);

    // Returns the cores computing and the forwarder's semaphore (device 1).
    auto half_program = [&](uint32_t first, bool forwards, Program& program) -> std::pair<uint32_t, uint32_t> {
        auto [num_cores, all_cores, group_1, group_2, per_core_1, per_core_2] = split_work_to_cores(compute_grid, half, true);
        for (auto cb : {CBIndex::c_0, CBIndex::c_1, CBIndex::c_16})
            CreateCircularBuffer(program, all_cores,
                                 CircularBufferConfig(2 * tile_bytes, {{cb, tt::DataFormat::Float16_b}}).set_page_size(cb, tile_bytes));
        std::vector<uint32_t> reader_args, writer_args;
        TensorAccessorArgs(*src0).append_to(reader_args);
        TensorAccessorArgs(*src1).append_to(reader_args);
        if (!forwards) TensorAccessorArgs(*dst).append_to(writer_args);
        auto reader = CreateKernel(program,
                                   OVERRIDE_KERNEL_PREFIX "matmul/matmul_multi_core/kernels/dataflow/reader_mm_output_tiles_partitioned.cpp",
                                   all_cores, ReaderDataMovementConfig(reader_args));
        auto writer = CreateKernel(program,
                                   forwards ? OVERRIDE_KERNEL_PREFIX "distributed/6_distributed_fabric_matmul/kernels/fabric_matmul_writer_kernel.cpp"
                                            : OVERRIDE_KERNEL_PREFIX "matmul/matmul_multi_core/kernels/dataflow/writer_unary_interleaved_start_id.cpp",
                                   all_cores, WriterDataMovementConfig(writer_args));
        auto compute = CreateKernel(program, OVERRIDE_KERNEL_PREFIX "matmul/matmul_multi_core/kernels/compute/mm.cpp", all_cores,
                                    ComputeConfig{.math_fidelity = MathFidelity::HiFi4});
        const uint32_t fwd_sem = forwards ? CreateSemaphore(program, edge_core, 0) : 0;
        uint32_t start = first;
        for (const auto& core : corerange_to_cores(all_cores, std::nullopt, true)) {
            uint32_t n = group_1.contains(core) ? per_core_1 : per_core_2;
            SetRuntimeArgs(program, reader, core,
                           {static_cast<uint32_t>(src0->address()), static_cast<uint32_t>(src1->address()), Mt, Kt, Nt, start, n});
            if (forwards)
                SetRuntimeArgs(program, writer, core,
                               {static_cast<uint32_t>(dst->address()), n, start, static_cast<uint32_t>(away_edge_xy.x),
                                static_cast<uint32_t>(away_edge_xy.y), fwd_sem});
            else
                SetRuntimeArgs(program, writer, core, {static_cast<uint32_t>(dst->address()), n, start});
            SetRuntimeArgs(program, compute, core, {n, Kt});
            start += n;
        }
        return {num_cores, fwd_sem};
    };

    // Device 0: the first half, and a receiver for the second.
    Program p0 = CreateProgram();
    half_program(0, false, p0);
    const uint32_t rx_sem = CreateSemaphore(p0, edge_core, 0);
    auto rx = CreateKernel(p0, OVERRIDE_KERNEL_PREFIX "distributed/6_distributed_fabric_matmul/kernels/fabric_matmul_receiver_kernel.cpp",
                           edge_core, DataMovementConfig{.processor = DataMovementProcessor::RISCV_0, .noc = NOC::RISCV_0_default});
    SetRuntimeArgs(p0, rx, edge_core, {rx_sem});

    // Device 1: the second half, forwarded to device 0.
    Program p1 = CreateProgram();
    const auto [writers, done_sem] = half_program(half, true, p1);
    CreateCircularBuffer(p1, edge_core,
                         CircularBufferConfig(tile_bytes, {{CBIndex::c_0, tt::DataFormat::Float16_b}}).set_page_size(CBIndex::c_0, tile_bytes));
    auto fwd = CreateKernel(p1, OVERRIDE_KERNEL_PREFIX "distributed/6_distributed_fabric_matmul/kernels/fabric_matmul_reader_kernel.cpp",
                            edge_core, DataMovementConfig{.processor = DataMovementProcessor::RISCV_0, .noc = NOC::RISCV_0_default});
    std::vector<uint32_t> args = {static_cast<uint32_t>(dst->address()), half, half, writers, done_sem,
                                  static_cast<uint32_t>(home_edge_xy.x), static_cast<uint32_t>(home_edge_xy.y), rx_sem, 1u};
    tt_fabric::append_fabric_connection_rt_args(mesh->get_fabric_node_id(away), mesh->get_fabric_node_id(home), 0, p1,
                                                edge_core, args);
    SetRuntimeArgs(p1, fwd, edge_core, args);

    distributed::MeshWorkload workload;
    workload.add_program(distributed::MeshCoordinateRange(home, home), std::move(p0));
    workload.add_program(distributed::MeshCoordinateRange(away, away), std::move(p1));
    distributed::EnqueueMeshWorkload(cq, workload, true);
    std::vector<bfloat16> result;
    distributed::ReadShard(cq, result, dst, home);
    result = untilize_nfaces(result, M, N);
    mesh->close();

    return report_pcc(golden, result, 0.97f);
}
