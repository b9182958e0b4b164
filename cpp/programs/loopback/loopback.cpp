// tensim's C++ loopback program: copy tiles from one DRAM buffer to another through a one-tile L1 scratch
// buffer on core (0,0), then compare. Written for tensim against today's TT-Metalium host API (unit mesh,
// accessor args with their page size).
#include <cstdint>
#include <cstdlib>
#include <random>
#include <vector>

#include <fmt/base.h>
#include <tt-metalium/bfloat16.hpp>
#include <tt-metalium/constants.hpp>
#include <tt-metalium/distributed.hpp>
#include <tt-metalium/host_api.hpp>
#include <tt-metalium/tensor_accessor_args.hpp>
#include <tt_stl/assert.hpp>

#ifndef OVERRIDE_KERNEL_PREFIX
#define OVERRIDE_KERNEL_PREFIX ""
#endif

using namespace tt;
using namespace tt::tt_metal;

int main(int argc, char** argv) {
    long requested = argc > 1 ? std::atol(argv[1]) : 50;
    TT_FATAL(requested >= 1 && requested <= 65536, "the number of tiles must be 1..65536, not {}", argv[1]);
    uint32_t num_tiles = static_cast<uint32_t>(requested);
    auto mesh_device = distributed::MeshDevice::create_unit_mesh(0);
    distributed::MeshCommandQueue& cq = mesh_device->mesh_command_queue();
    distributed::MeshWorkload workload;
    auto device_range = distributed::MeshCoordinateRange(mesh_device->shape());
    Program program = CreateProgram();
    constexpr CoreCoord core = {0, 0};

    constexpr uint32_t tile_bytes = sizeof(bfloat16) * constants::TILE_HW;
    const uint32_t buffer_bytes = tile_bytes * num_tiles;
    distributed::DeviceLocalBufferConfig dram_config{.page_size = tile_bytes, .buffer_type = BufferType::DRAM};
    distributed::DeviceLocalBufferConfig l1_config{.page_size = tile_bytes, .buffer_type = BufferType::L1};
    auto l1_buffer = distributed::MeshBuffer::create(distributed::ReplicatedBufferConfig{.size = tile_bytes}, l1_config,
                                                     mesh_device.get());
    auto input = distributed::MeshBuffer::create(distributed::ReplicatedBufferConfig{.size = buffer_bytes}, dram_config,
                                                 mesh_device.get());
    auto output = distributed::MeshBuffer::create(distributed::ReplicatedBufferConfig{.size = buffer_bytes}, dram_config,
                                                  mesh_device.get());

    std::mt19937 rng(42);
    std::uniform_real_distribution<float> dist(0.0f, 100.0f);
    std::vector<bfloat16> input_vec(buffer_bytes / sizeof(bfloat16));
    for (auto& v : input_vec) v = bfloat16(dist(rng));
    distributed::EnqueueWriteMeshBuffer(cq, input, input_vec, false);

    std::vector<uint32_t> ct_args;
    TensorAccessorArgs(*input).append_to(ct_args);
    TensorAccessorArgs(*output).append_to(ct_args);
    KernelHandle copy = CreateKernel(program, OVERRIDE_KERNEL_PREFIX "loopback/kernels/loopback_dram_copy.cpp", core,
                                     DataMovementConfig{.processor = DataMovementProcessor::RISCV_0,
                                                        .noc = NOC::RISCV_0_default,
                                                        .compile_args = ct_args});
    SetRuntimeArgs(program, copy, core, {l1_buffer->address(), input->address(), output->address(), num_tiles});

    workload.add_program(device_range, std::move(program));
    distributed::EnqueueMeshWorkload(cq, workload, false);
    distributed::Finish(cq);

    std::vector<bfloat16> result;
    distributed::EnqueueReadMeshBuffer(cq, result, output, true);
    bool pass = result.size() == input_vec.size();
    for (size_t i = 0; pass && i < result.size(); i++) pass = result[i] == input_vec[i];
    mesh_device->close();
    if (!pass) {
        fmt::print(stderr, "Test Failed: the output differs from the input\n");
        return 1;
    }
    fmt::print("Test Passed: {} tiles copied\n", num_tiles);
    return 0;
}
