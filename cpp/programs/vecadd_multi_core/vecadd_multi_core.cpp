// tensim's C++ vecadd_multi_core program: a + b over 640 bf16 tiles (uniform in [0, 10)) split across the
// compute grid with split_work_to_cores; CB indices reach the kernels as named compile-time args, the buffers as
// TensorAccessorArgs. Today's host API (unit mesh).
#include <cmath>
#include <cstdint>
#include <random>
#include <string>
#include <unordered_map>
#include <vector>

#include <fmt/base.h>
#include <tt-metalium/bfloat16.hpp>
#include <tt-metalium/constants.hpp>
#include <tt-metalium/distributed.hpp>
#include <tt-metalium/host_api.hpp>
#include <tt-metalium/tensor_accessor_args.hpp>
#include <tt-metalium/work_split.hpp>

#ifndef OVERRIDE_KERNEL_PREFIX
#define OVERRIDE_KERNEL_PREFIX ""
#endif

using namespace tt;
using namespace tt::tt_metal;

int main() {
    auto mesh_device = distributed::MeshDevice::create_unit_mesh(0);
    auto& cq = mesh_device->mesh_command_queue();
    distributed::MeshWorkload workload;
    Program program = CreateProgram();
    constexpr uint32_t n_tiles = 640;
    constexpr uint32_t tile_bytes = sizeof(bfloat16) * constants::TILE_HW;
    distributed::DeviceLocalBufferConfig dram{.page_size = tile_bytes, .buffer_type = BufferType::DRAM};
    distributed::ReplicatedBufferConfig whole{.size = tile_bytes * n_tiles};
    auto src0 = distributed::MeshBuffer::create(whole, dram, mesh_device.get());
    auto src1 = distributed::MeshBuffer::create(whole, dram, mesh_device.get());
    auto dst = distributed::MeshBuffer::create(whole, dram, mesh_device.get());

    std::mt19937 rng(7);
    std::uniform_real_distribution<float> dist(0.0f, 10.0f);
    std::vector<bfloat16> a(n_tiles * constants::TILE_HW), b(a.size());
    for (auto& v : a) v = bfloat16(dist(rng));
    for (auto& v : b) v = bfloat16(dist(rng));
    distributed::EnqueueWriteMeshBuffer(cq, src0, a, false);
    distributed::EnqueueWriteMeshBuffer(cq, src1, b, false);

    auto [num_cores, all_cores, group_1, group_2, per_core_1, per_core_2] =
        split_work_to_cores(mesh_device->compute_with_storage_grid_size(), n_tiles, true);
    for (auto cb : {CBIndex::c_0, CBIndex::c_1, CBIndex::c_16}) {
        CreateCircularBuffer(program, all_cores,
                             CircularBufferConfig(2 * tile_bytes, {{cb, tt::DataFormat::Float16_b}}).set_page_size(cb, tile_bytes));
    }
    std::unordered_map<std::string, uint32_t> cbs = {
        {"cb_in0", CBIndex::c_0}, {"cb_in1", CBIndex::c_1}, {"cb_out0", CBIndex::c_16}};
    std::vector<uint32_t> reader_args, writer_args;
    TensorAccessorArgs(*src0).append_to(reader_args);
    TensorAccessorArgs(*src1).append_to(reader_args);
    TensorAccessorArgs(*dst).append_to(writer_args);
    auto reader = CreateKernel(program, OVERRIDE_KERNEL_PREFIX "vecadd_multi_core/kernels/interleaved_tile_read_multi_core.cpp",
                               all_cores, ReaderDataMovementConfig(reader_args, {}, cbs));
    auto writer = CreateKernel(program, OVERRIDE_KERNEL_PREFIX "vecadd_multi_core/kernels/tile_write_multi_core.cpp",
                               all_cores, WriterDataMovementConfig(writer_args, {}, cbs));
    auto compute = CreateKernel(program, OVERRIDE_KERNEL_PREFIX "vecadd_multi_core/kernels/add_multi_core.cpp", all_cores,
                                ComputeConfig{.math_fidelity = MathFidelity::HiFi4, .named_compile_args = cbs});
    uint32_t start = 0;
    for (const auto& core : corerange_to_cores(all_cores, std::nullopt, true)) {
        uint32_t n = group_1.contains(core) ? per_core_1 : per_core_2;
        SetRuntimeArgs(program, reader, core, {src0->address(), src1->address(), n, start});
        SetRuntimeArgs(program, writer, core, {dst->address(), n, start});
        SetRuntimeArgs(program, compute, core, {n});
        start += n;
    }

    workload.add_program(distributed::MeshCoordinateRange(mesh_device->shape()), std::move(program));
    distributed::EnqueueMeshWorkload(cq, workload, false);
    distributed::Finish(cq);
    std::vector<bfloat16> result;
    distributed::EnqueueReadMeshBuffer(cq, result, dst, true);

    constexpr float eps = 0.3f;
    size_t bad = 0;
    for (size_t i = 0; i < result.size(); i++) {
        float want = static_cast<float>(a[i]) + static_cast<float>(b[i]);
        if (std::fabs(want - static_cast<float>(result[i])) > eps) {
            if (bad++ < 5) fmt::print(stderr, "mismatch at {}: {} != {}\n", i, static_cast<float>(result[i]), want);
        }
    }
    mesh_device->close();
    if (bad != 0 || result.size() != a.size()) {
        fmt::print("Test Failed: {} mismatches\n", bad);
        return 1;
    }
    fmt::print("Test Passed\n");
    return 0;
}
