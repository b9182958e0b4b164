// tensim's C++ sfpu_eltwise_chain program: softplus(x) = log(1 + exp(x)) of 16 bf16 tiles (x uniform in
// [-4, 4)) as a chain of SFPU operations in DST, checked within 0.1 against the CPU. Unit-mesh host API.
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
    constexpr uint32_t n_tiles = 16;
    constexpr uint32_t tile_bytes = sizeof(bfloat16) * constants::TILE_HW;
    distributed::DeviceLocalBufferConfig dram{.page_size = tile_bytes, .buffer_type = BufferType::DRAM};
    distributed::ReplicatedBufferConfig whole{.size = tile_bytes * n_tiles};
    auto src = distributed::MeshBuffer::create(whole, dram, mesh_device.get());
    auto dst = distributed::MeshBuffer::create(whole, dram, mesh_device.get());
    auto ones = distributed::MeshBuffer::create(distributed::ReplicatedBufferConfig{.size = tile_bytes}, dram, mesh_device.get());

    std::mt19937 rng(11);
    std::uniform_real_distribution<float> dist(-4.0f, 4.0f);
    std::vector<bfloat16> x(n_tiles * constants::TILE_HW);
    for (auto& v : x) v = bfloat16(dist(rng));
    distributed::EnqueueWriteMeshBuffer(cq, src, x, false);
    std::vector<bfloat16> one(constants::TILE_HW, bfloat16(1.0f));
    distributed::EnqueueWriteMeshBuffer(cq, ones, one, false);

    for (auto [cb, depth] : {std::pair{CBIndex::c_0, 2u}, std::pair{CBIndex::c_1, 1u}, std::pair{CBIndex::c_16, 2u}}) {
        CreateCircularBuffer(program, core,
                             CircularBufferConfig(depth * tile_bytes, {{cb, tt::DataFormat::Float16_b}}).set_page_size(cb, tile_bytes));
    }
    std::vector<uint32_t> reader_args, writer_args;
    TensorAccessorArgs(*src).append_to(reader_args);
    TensorAccessorArgs(*ones).append_to(reader_args);
    TensorAccessorArgs(*dst).append_to(writer_args);
    auto reader = CreateKernel(program, OVERRIDE_KERNEL_PREFIX "sfpu_eltwise_chain/kernels/dataflow/reader.cpp",
                               core, ReaderDataMovementConfig(reader_args));
    auto writer = CreateKernel(program, OVERRIDE_KERNEL_PREFIX "sfpu_eltwise_chain/kernels/dataflow/writer.cpp",
                               core, WriterDataMovementConfig(writer_args));
    auto compute = CreateKernel(program,
                                OVERRIDE_KERNEL_PREFIX "sfpu_eltwise_chain/kernels/compute/compute.cpp",
                                core, ComputeConfig{.math_fidelity = MathFidelity::HiFi4});
    SetRuntimeArgs(program, reader, core, {src->address(), ones->address(), n_tiles});
    SetRuntimeArgs(program, writer, core, {dst->address(), n_tiles, 0u});
    SetRuntimeArgs(program, compute, core, {n_tiles});

    workload.add_program(distributed::MeshCoordinateRange(mesh_device->shape()), std::move(program));
    distributed::EnqueueMeshWorkload(cq, workload, false);
    distributed::Finish(cq);
    std::vector<bfloat16> result;
    distributed::EnqueueReadMeshBuffer(cq, result, dst, true);

    size_t bad = 0;
    for (size_t i = 0; i < result.size(); i++) {
        float want = std::log(1.0f + std::exp(static_cast<float>(x[i])));
        if (std::fabs(want - static_cast<float>(result[i])) > 0.1f) {
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
