// tensim's C++ distributed program dispatch, in today's TT-Metalium API: one program (an empty data-movement
// kernel on every worker core) dispatched to all devices of a 2x4 mesh in one mesh workload. Run without
// --system it takes the smallest built-in system with a 2x4 mesh.
#include <cstdint>

#include <fmt/base.h>
#include <tt-metalium/distributed.hpp>
#include <tt-metalium/host_api.hpp>
#include <tt-metalium/mesh_config.hpp>

#ifndef OVERRIDE_KERNEL_PREFIX
#define OVERRIDE_KERNEL_PREFIX ""
#endif

using namespace tt;
using namespace tt::tt_metal;

int main() {
    auto mesh_device = distributed::MeshDevice::create(distributed::MeshDeviceConfig(distributed::MeshShape(2, 4)));
    distributed::MeshCommandQueue& cq = mesh_device->mesh_command_queue();

    auto grid = mesh_device->compute_with_storage_grid_size();
    CoreRange all_cores({0, 0}, {grid.x - 1, grid.y - 1});
    Program program = CreateProgram();
    CreateKernel(program, OVERRIDE_KERNEL_PREFIX "distributed/1_distributed_program_dispatch/kernels/void_kernel.cpp",
                 all_cores, DataMovementConfig{.processor = DataMovementProcessor::RISCV_0, .noc = NOC::RISCV_0_default});

    distributed::MeshWorkload workload;
    workload.add_program(distributed::MeshCoordinateRange(mesh_device->shape()), std::move(program));
    cq.enqueue_mesh_workload(workload, false);
    cq.finish();
    fmt::print("Program dispatched to {} devices of a {}x{} mesh\n", mesh_device->num_devices(), mesh_device->num_rows(),
               mesh_device->num_cols());
    mesh_device->close();
    fmt::print("Test Passed\n");
    return 0;
}
