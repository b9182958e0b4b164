// tensim's C++ eltwise_sfpu program: exp of 64 bf16 tiles (x uniform in [0, 1)) on the SFPU of one core,
// checked within 5% against the CPU. Today's host API: a unit mesh, the kernels' TensorAccessorArgs.
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
    constexpr CoreCoord core = {0, 0};
    constexpr uint32_t n_tiles = 64;
    constexpr uint32_t tile_bytes = sizeof(bfloat16) * constants::TILE_HW;
    distributed::DeviceLocalBufferConfig dram{.page_size = tile_bytes, .buffer_type = BufferType::DRAM};
    distributed::ReplicatedBufferConfig whole{.size = tile_bytes * n_tiles};
    auto src = distributed::MeshBuffer::create(whole, dram, mesh_device.get());
    auto dst = distributed::MeshBuffer::create(whole, dram, mesh_device.get());

    std::mt19937 rng(11);
    std::uniform_real_distribution<float> dist(0.0f, 1.0f);
    std::vector<bfloat16> x(n_tiles * constants::TILE_HW);
    for (auto& v : x) v = bfloat16(dist(rng));
    distributed::EnqueueWriteMeshBuffer(cq, src, x, false);

    for (auto cb : {CBIndex::c_0, CBIndex::c_16}) {
        CreateCircularBuffer(program, core,
                             CircularBufferConfig(2 * tile_bytes, {{cb, tt::DataFormat::Float16_b}}).set_page_size(cb, tile_bytes));
    }
    std::vector<uint32_t> reader_args, writer_args;
    TensorAccessorArgs(*src).append_to(reader_args);
    TensorAccessorArgs(*dst).append_to(writer_args);
    auto reader = CreateKernel(program, OVERRIDE_KERNEL_PREFIX "eltwise_sfpu/kernels/dataflow/read_tile.cpp",
                               core, ReaderDataMovementConfig(reader_args));
    auto writer = CreateKernel(program, OVERRIDE_KERNEL_PREFIX "eltwise_sfpu/kernels/dataflow/write_tile.cpp",
                               core, WriterDataMovementConfig(writer_args));
    auto compute = CreateKernel(program,
                                OVERRIDE_KERNEL_PREFIX "eltwise_sfpu/kernels/compute/eltwise_sfpu.cpp",
                                core, ComputeConfig{.math_fidelity = MathFidelity::HiFi4});
    SetRuntimeArgs(program, reader, core, {src->address(), n_tiles, 0u});
    SetRuntimeArgs(program, writer, core, {dst->address(), n_tiles, 0u});
    SetRuntimeArgs(program, compute, core, {n_tiles});

    workload.add_program(distributed::MeshCoordinateRange(mesh_device->shape()), std::move(program));
    distributed::EnqueueMeshWorkload(cq, workload, false);
    distributed::Finish(cq);
    std::vector<bfloat16> result;
    distributed::EnqueueReadMeshBuffer(cq, result, dst, true);

    size_t bad = 0;
    for (size_t i = 0; i < result.size(); i++) {
        float want = std::exp(static_cast<float>(x[i]));
        if (std::fabs(want - static_cast<float>(result[i])) > 5e-2f * want) {
            if (bad++ < 5) fmt::print(stderr, "mismatch at {}: {} != {}\n", i, static_cast<float>(result[i]), want);
        }
    }
    mesh_device->close();
    if (bad != 0 || result.size() != x.size()) {
        fmt::print("Test Failed: {} mismatches\n", bad);
        return 1;
    }
    fmt::print("Test Passed\n");
    return 0;
}
