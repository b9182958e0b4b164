// tensim's C++ softmax: a fused softmax over the rows of a 2048 × 512 bf16 tensor (values uniform in
// [-4, 4)), tile-rows split over the compute grid by split_work_to_cores. Each core's reader writes the
// reduction scaler tile, the compute kernel does exp, a row-sum reduction, a reciprocal and a column-
// broadcast multiply. Checked per element and by PCC against the CPU. Unit-mesh host API.
#include <cmath>
#include <cstdint>
#include <random>
#include <vector>

#include <tt-metalium/bfloat16.hpp>
#include <tt-metalium/distributed.hpp>
#include <tt-metalium/host_api.hpp>
#include <tt-metalium/tilize_utils.hpp>
#include <tt-metalium/work_split.hpp>

#include "matmul/matmul_common/bmm_op.hpp"

#ifndef OVERRIDE_KERNEL_PREFIX
#define OVERRIDE_KERNEL_PREFIX ""
#endif

using namespace tt;
using namespace tt::tt_metal;

int main() {
    constexpr uint32_t H = 2048, W = 512;
    constexpr uint32_t Ht = H / constants::TILE_HEIGHT, Wt = W / constants::TILE_WIDTH;
    auto mesh_device = distributed::MeshDevice::create_unit_mesh(0);
    auto& cq = mesh_device->mesh_command_queue();

    std::mt19937 rng(17);
    std::uniform_real_distribution<float> dist(-4.0f, 4.0f);
    std::vector<bfloat16> x(H * W);
    for (auto& v : x) v = bfloat16(dist(rng));
    std::vector<bfloat16> golden(H * W);
    for (uint32_t r = 0; r < H; r++) {
        double sum = 0;
        for (uint32_t c = 0; c < W; c++) sum += std::exp(static_cast<double>(x[r * W + c].to_float()));
        for (uint32_t c = 0; c < W; c++) {
            golden[r * W + c] = bfloat16(static_cast<float>(std::exp(static_cast<double>(x[r * W + c].to_float())) / sum));
        }
    }

    constexpr uint32_t tile_bytes = sizeof(bfloat16) * constants::TILE_HW;
    distributed::DeviceLocalBufferConfig dram{.page_size = tile_bytes, .buffer_type = BufferType::DRAM};
    distributed::ReplicatedBufferConfig size{.size = Ht * Wt * tile_bytes};
    auto src = distributed::MeshBuffer::create(size, dram, mesh_device.get());
    auto dst = distributed::MeshBuffer::create(size, dram, mesh_device.get());
    distributed::EnqueueWriteMeshBuffer(cq, src, tilize_nfaces(x, H, W), false);

    Program program = CreateProgram();
    auto [num_cores, all_cores, group_1, group_2, rows_1, rows_2] =
        split_work_to_cores(mesh_device->compute_with_storage_grid_size(), Ht, true);
    const std::pair<CBIndex, uint32_t> cbs[] = {
        {CBIndex::c_0, 2}, {CBIndex::c_2, 1}, {CBIndex::c_16, 2}, {CBIndex::c_24, Wt}, {CBIndex::c_25, 1}};
    for (auto [cb, tiles] : cbs) {
        CreateCircularBuffer(program, all_cores,
                             CircularBufferConfig(tiles * tile_bytes, {{cb, tt::DataFormat::Float16_b}})
                                 .set_page_size(cb, tile_bytes));
    }
    auto reader = CreateKernel(program, OVERRIDE_KERNEL_PREFIX "softmax/kernels/dataflow/reader_softmax.cpp", all_cores,
                               ReaderDataMovementConfig{});
    auto writer = CreateKernel(program, OVERRIDE_KERNEL_PREFIX "softmax/kernels/dataflow/writer_unary.cpp", all_cores,
                               WriterDataMovementConfig{});
    auto compute =
        CreateKernel(program, OVERRIDE_KERNEL_PREFIX "softmax/kernels/compute/softmax.cpp", all_cores, ComputeConfig{});
    uint32_t row = 0;
    const float one = 1.0f;
    uint32_t one_bits;
    std::memcpy(&one_bits, &one, sizeof one_bits);
    for (const auto& core : corerange_to_cores(all_cores, std::nullopt, true)) {
        uint32_t rows = group_1.contains(core) ? rows_1 : rows_2;
        SetRuntimeArgs(program, reader, core, {static_cast<uint32_t>(src->address()), row * Wt, rows, Wt, one_bits});
        SetRuntimeArgs(program, writer, core, {static_cast<uint32_t>(dst->address()), rows * Wt, row * Wt});
        SetRuntimeArgs(program, compute, core, {rows, Wt});
        row += rows;
    }

    distributed::MeshWorkload workload;
    workload.add_program(distributed::MeshCoordinateRange(mesh_device->shape()), std::move(program));
    distributed::EnqueueMeshWorkload(cq, workload, false);
    std::vector<bfloat16> result;
    distributed::EnqueueReadMeshBuffer(cq, result, dst, true);
    result = untilize_nfaces(result, H, W);
    mesh_device->close();

    uint32_t far = 0;
    for (uint32_t i = 0; i < H * W; i++) {
        float g = golden[i].to_float(), r = result[i].to_float();
        if (std::fabs(r - g) > 5e-2f * std::fabs(g)) far++;
    }
    float pcc = check_bfloat16_vector_pcc(golden, result);
    fmt::print("{} of {} values more than 5% off; PCC = {}\n", far, H * W, pcc);
    if (far > 0 || pcc < 0.995f) {
        fmt::print("Test Failed\n");
        return 1;
    }
    fmt::print("Test Passed\n");
    return 0;
}
