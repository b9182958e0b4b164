// tensim test program: y = x - mean_row(x) over an (Ht*32) x (Wt*32) bf16 matrix, tile rows split over cores
// (split_work_to_cores); object-style NoC reads and writes, a reduce and a column broadcast. Its 40-core
// default run stalls packets beyond the routers' buffers on the calendar NoC model.
#include <cmath>
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
#include <tt-metalium/work_split.hpp>
#include <tt_stl/assert.hpp>

#ifndef OVERRIDE_KERNEL_PREFIX
#define OVERRIDE_KERNEL_PREFIX ""
#endif

using namespace tt;
using namespace tt::tt_metal;

int main(int argc, char** argv) {
    uint32_t Ht = argc > 1 ? std::stoul(argv[1]) : 40;
    uint32_t Wt = argc > 2 ? std::stoul(argv[2]) : 8;
    auto mesh = distributed::MeshDevice::create_unit_mesh(0);
    auto& cq = mesh->mesh_command_queue();
    Program program = CreateProgram();
    const uint32_t M = Ht * constants::TILE_HEIGHT, N = Wt * constants::TILE_WIDTH;
    const uint32_t tile_bytes = sizeof(bfloat16) * constants::TILE_HW;

    distributed::DeviceLocalBufferConfig dram{.page_size = tile_bytes, .buffer_type = BufferType::DRAM};
    distributed::ReplicatedBufferConfig whole{.size = tile_bytes * Ht * Wt};
    auto src = distributed::MeshBuffer::create(whole, dram, mesh.get());
    auto dst = distributed::MeshBuffer::create(whole, dram, mesh.get());

    std::mt19937 rng(11);
    std::uniform_real_distribution<float> dist(-4.0f, 4.0f);
    std::vector<bfloat16> x(M * N);
    for (auto& v : x) v = bfloat16(dist(rng));
    auto tiled = tilize_nfaces(x, M, N);
    distributed::EnqueueWriteMeshBuffer(cq, src, tiled, false);

    auto grid = mesh->compute_with_storage_grid_size();
    auto [num_cores, all_cores, group_1, group_2, rows_1, rows_2] = split_work_to_cores(grid, Ht);
    fmt::print("{} tile rows over {} cores ({} and {} rows)\n", Ht, num_cores, rows_1, rows_2);

    auto cb = [&](CBIndex id, uint32_t pages) {
        CreateCircularBuffer(program, all_cores,
                             CircularBufferConfig(pages * tile_bytes, {{id, DataFormat::Float16_b}}).set_page_size(id, tile_bytes));
    };
    cb(CBIndex::c_0, 2 * Wt);  // x row
    cb(CBIndex::c_2, 1);       // scaler
    cb(CBIndex::c_3, 1);       // mean
    cb(CBIndex::c_16, 2);      // out

    bfloat16 inv_n(1.0f / N);
    uint32_t packed = (uint32_t(std::bit_cast<uint16_t>(inv_n)) << 16) | std::bit_cast<uint16_t>(inv_n);
    std::vector<uint32_t> reader_ct{Wt, packed};
    TensorAccessorArgs(*src).append_to(reader_ct);
    std::vector<uint32_t> writer_ct{Wt};
    TensorAccessorArgs(*dst).append_to(writer_ct);

    auto reader = CreateKernel(program, OVERRIDE_KERNEL_PREFIX "row_center/kernels/dataflow/reader.cpp", all_cores,
                               DataMovementConfig{.processor = DataMovementProcessor::RISCV_1, .noc = NOC::RISCV_1_default, .compile_args = reader_ct});
    auto writer = CreateKernel(program, OVERRIDE_KERNEL_PREFIX "row_center/kernels/dataflow/writer.cpp", all_cores,
                               DataMovementConfig{.processor = DataMovementProcessor::RISCV_0, .noc = NOC::RISCV_0_default, .compile_args = writer_ct});
    auto compute = CreateKernel(program, OVERRIDE_KERNEL_PREFIX "row_center/kernels/compute/center.cpp", all_cores,
                                ComputeConfig{.math_fidelity = MathFidelity::HiFi4, .compile_args = {Wt},
                                              .defines = {{"REDUCE_OP", "PoolType::SUM"}, {"REDUCE_DIM", "ReduceDim::REDUCE_ROW"}}});

    uint32_t row = 0;
    for (const auto& [group, rows] : {std::pair{group_1, rows_1}, std::pair{group_2, rows_2}}) {
        for (const auto& range : group.ranges()) {
            for (const auto& core : range) {
                SetRuntimeArgs(program, reader, core, {src->address(), row, rows});
                SetRuntimeArgs(program, writer, core, {dst->address(), row, rows});
                SetRuntimeArgs(program, compute, core, {rows});
                row += rows;
            }
        }
    }
    TT_FATAL(row == Ht, "assigned {} rows of {}", row, Ht);

    distributed::MeshWorkload workload;
    workload.add_program(distributed::MeshCoordinateRange(mesh->shape()), std::move(program));
    distributed::EnqueueMeshWorkload(cq, workload, false);
    std::vector<bfloat16> out_tiled;
    distributed::EnqueueReadMeshBuffer(cq, out_tiled, dst, true);
    auto out = untilize_nfaces(out_tiled, M, N);

    size_t bad = 0;
    double worst = 0;
    for (uint32_t i = 0; i < M; i++) {
        double sum = 0;
        for (uint32_t j = 0; j < N; j++) sum += static_cast<float>(x[i * N + j]);
        double mean = sum / N;
        for (uint32_t j = 0; j < N; j++) {
            double want = static_cast<float>(x[i * N + j]) - mean;
            double got = static_cast<float>(out[i * N + j]);
            double err = std::fabs(want - got);
            worst = std::max(worst, err);
            if (err > 0.08) {
                if (bad++ < 5) fmt::print(stderr, "({}, {}): {} != {}\n", i, j, got, want);
            }
        }
    }
    mesh->close();
    fmt::print("worst abs error {}\n", worst);
    if (bad) TT_THROW("Test Failed: {} mismatches", bad);
    fmt::print("Test Passed\n");
}
