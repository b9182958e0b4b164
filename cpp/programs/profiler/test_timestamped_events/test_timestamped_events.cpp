// tensim's C++ profiler/test_timestamped_events: both data-movement RISCs of cores (0,0) and (1,0) log ten
// timestamped values, each inside its own zone, and record an event; tensim prints the zones' durations and
// a summary of the values (--stats and --trace carry each one with its cycle).
#include <cstdint>

#include <tt-metalium/distributed.hpp>
#include <tt-metalium/host_api.hpp>

#ifndef OVERRIDE_KERNEL_PREFIX
#define OVERRIDE_KERNEL_PREFIX ""
#endif

using namespace tt;
using namespace tt::tt_metal;

int main() {
    auto mesh_device = distributed::MeshDevice::create_unit_mesh(0);
    auto& cq = mesh_device->mesh_command_queue();
    Program program = CreateProgram();
    const CoreRange cores({0, 0}, {1, 0});
    const char* kernel = OVERRIDE_KERNEL_PREFIX "profiler/test_timestamped_events/kernels/timestamped_events.cpp";
    auto k0 = CreateKernel(program, kernel, cores,
                           DataMovementConfig{.processor = DataMovementProcessor::RISCV_0, .noc = NOC::RISCV_0_default});
    auto k1 = CreateKernel(program, kernel, cores,
                           DataMovementConfig{.processor = DataMovementProcessor::RISCV_1, .noc = NOC::RISCV_1_default});
    SetRuntimeArgs(program, k0, cores, {10u});
    SetRuntimeArgs(program, k1, cores, {10u});
    distributed::MeshWorkload workload;
    workload.add_program(distributed::MeshCoordinateRange(mesh_device->shape()), std::move(program));
    distributed::EnqueueMeshWorkload(cq, workload, false);
    distributed::Finish(cq);
    ReadMeshDeviceProfilerResults(*mesh_device);
    mesh_device->close();
    fmt::print("Test Passed\n");
    return 0;
}
