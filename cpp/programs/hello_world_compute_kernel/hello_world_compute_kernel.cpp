// tensim's C++ hello world for compute kernels: a compute kernel on core (0,0) whose UNPACK, MATH and PACK
// threads each print a line. Unit-mesh host API.
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
    constexpr CoreCoord core = {0, 0};
    CreateKernel(program, OVERRIDE_KERNEL_PREFIX "hello_world_compute_kernel/kernels/compute/void_compute_kernel.cpp", core,
                 ComputeConfig{});
    distributed::MeshWorkload workload;
    workload.add_program(distributed::MeshCoordinateRange(mesh_device->shape()), std::move(program));
    fmt::print("Hello, Core {{0, 0}} on Device 0, I am sending you a compute kernel. Standby awaiting communication.\n");
    distributed::EnqueueMeshWorkload(cq, workload, false);
    fmt::print("Waiting until the program finishes...\n");
    distributed::Finish(cq);
    fmt::print("Thank you, Core {{0, 0}} on Device 0, for the completed task.\n");
    mesh_device->close();
    return 0;
}
