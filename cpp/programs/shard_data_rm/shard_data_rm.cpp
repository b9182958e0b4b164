// tensim's C++ shard_data_rm: a row-major DRAM tensor of 16 bf16 values (1, 2, …, 16) in sticks of two
// values (4-byte pages) is read by four cores (0,0)-(0,3), two sticks each, with a TensorAccessor; each
// core prints its sticks. The run's printed lines are the check (tensim's test compares them). Unit-mesh
// host API.
#include <cstdint>
#include <vector>

#include <fmt/base.h>
#include <tt-metalium/bfloat16.hpp>
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
    const CoreRange cores({0, 0}, {0, 3});
    constexpr uint32_t values = 16, values_per_stick = 2, cores_n = 4;
    constexpr uint32_t stick_size = values_per_stick * sizeof(bfloat16);
    constexpr uint32_t sticks = values / values_per_stick, shard_height = sticks / cores_n;

    distributed::DeviceLocalBufferConfig dram{.page_size = stick_size, .buffer_type = BufferType::DRAM};
    auto src = distributed::MeshBuffer::create(distributed::ReplicatedBufferConfig{.size = values * sizeof(bfloat16)},
                                               dram, mesh_device.get());
    std::vector<bfloat16> input(values);
    for (uint32_t i = 0; i < values; i++) input[i] = bfloat16(static_cast<float>(i + 1));
    distributed::EnqueueWriteMeshBuffer(cq, src, input, false);

    Program program = CreateProgram();
    constexpr uint32_t cb = CBIndex::c_0;
    CreateCircularBuffer(program, cores,
                         CircularBufferConfig(shard_height * values_per_stick * stick_size, {{cb, tt::DataFormat::Float16_b}})
                             .set_page_size(cb, stick_size));
    std::vector<uint32_t> ct_args = {cb};
    TensorAccessorArgs(*src).append_to(ct_args);
    auto reader = CreateKernel(program, OVERRIDE_KERNEL_PREFIX "shard_data_rm/kernels/reader_sharded_rm.cpp", cores,
                               DataMovementConfig{.processor = DataMovementProcessor::RISCV_0,
                                                  .noc = NOC::RISCV_0_default,
                                                  .compile_args = ct_args});
    uint32_t start = 0;
    for (const auto& core : corerange_to_cores(CoreRangeSet(cores), std::nullopt, true)) {
        SetRuntimeArgs(program, reader, core, {src->address(), stick_size, shard_height, start});
        start += shard_height;
    }

    distributed::MeshWorkload workload;
    workload.add_program(distributed::MeshCoordinateRange(mesh_device->shape()), std::move(program));
    distributed::EnqueueMeshWorkload(cq, workload, false);
    distributed::Finish(cq);
    mesh_device->close();
    fmt::print("Test Passed\n");
    return 0;
}
