// tensim's C++ custom_sfpi_add program: 16 tiles of a + b (bf16, uniform in [-1, 1)) added by an SFPI face
// function over DST, checked against the CPU.
// Unit-mesh host API.
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
    auto src0 = distributed::MeshBuffer::create(whole, dram, mesh_device.get());
    auto src1 = distributed::MeshBuffer::create(whole, dram, mesh_device.get());
    auto dst = distributed::MeshBuffer::create(whole, dram, mesh_device.get());

    std::mt19937 rng(7);
    std::uniform_real_distribution<float> dist(-1.0f, 1.0f);
    std::vector<bfloat16> a(n_tiles * constants::TILE_HW), b(a.size());
    for (auto& v : a) v = bfloat16(dist(rng));
    for (auto& v : b) v = bfloat16(dist(rng));
    distributed::EnqueueWriteMeshBuffer(cq, src0, a, false);
    distributed::EnqueueWriteMeshBuffer(cq, src1, b, false);

    for (auto cb : {CBIndex::c_0, CBIndex::c_1, CBIndex::c_16}) {
        CreateCircularBuffer(program, core,
                             CircularBufferConfig(2 * tile_bytes, {{cb, tt::DataFormat::Float16_b}}).set_page_size(cb, tile_bytes));
    }
    std::vector<uint32_t> reader_args, writer_args;
    TensorAccessorArgs(*src0).append_to(reader_args);
    TensorAccessorArgs(*src1).append_to(reader_args);
    TensorAccessorArgs(*dst).append_to(writer_args);
    auto reader = CreateKernel(program, OVERRIDE_KERNEL_PREFIX "custom_sfpi_add/kernels/dataflow/read_tiles.cpp", core,
                               ReaderDataMovementConfig(reader_args));
    auto writer = CreateKernel(program, OVERRIDE_KERNEL_PREFIX "custom_sfpi_add/kernels/dataflow/write_tile.cpp", core,
                               WriterDataMovementConfig(writer_args));
    auto compute = CreateKernel(program, OVERRIDE_KERNEL_PREFIX "custom_sfpi_add/kernels/compute/tiles_add.cpp", core,
                                ComputeConfig{.math_fidelity = MathFidelity::HiFi4});
    SetRuntimeArgs(program, reader, core, {src0->address(), src1->address(), n_tiles, 0u});
    SetRuntimeArgs(program, writer, core, {dst->address(), n_tiles, 0u});
    SetRuntimeArgs(program, compute, core, {n_tiles});

    workload.add_program(distributed::MeshCoordinateRange(mesh_device->shape()), std::move(program));
    distributed::EnqueueMeshWorkload(cq, workload, false);
    distributed::Finish(cq);
    std::vector<bfloat16> result;
    distributed::EnqueueReadMeshBuffer(cq, result, dst, true);

    constexpr float eps = 1e-2f;
    size_t bad = 0;
    for (size_t i = 0; i < result.size(); i++) {
        float want = static_cast<float>(bfloat16(static_cast<float>(a[i]) + static_cast<float>(b[i])));
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
