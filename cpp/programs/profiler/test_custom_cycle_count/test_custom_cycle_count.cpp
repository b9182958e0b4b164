// tensim's C++ profiler/test_custom_cycle_count: kernels on a 2 × 2 core grid time their own loops with
// DeviceZoneScopedN zones (RISCV_0: NoC reads; the three TRISCs: tile copies) and log values with
// DeviceTimestampedData; the host asks for the profiler's results after the run. tensim prints each zone's
// duration per RISC and the logged values, and writes every record with --stats and --trace.
#include <cstdint>
#include <vector>

#include <tt-metalium/distributed.hpp>
#include <tt-metalium/host_api.hpp>

#ifndef OVERRIDE_KERNEL_PREFIX
#define OVERRIDE_KERNEL_PREFIX ""
#endif

using namespace tt;
using namespace tt::tt_metal;

int main() {
    constexpr uint32_t loops = 16, page = 2048;
    auto mesh_device = distributed::MeshDevice::create_unit_mesh(0);
    auto& cq = mesh_device->mesh_command_queue();
    distributed::DeviceLocalBufferConfig dram{.page_size = page, .buffer_type = BufferType::DRAM};
    auto src = distributed::MeshBuffer::create(distributed::ReplicatedBufferConfig{.size = 8 * page}, dram,
                                               mesh_device.get());
    distributed::DeviceLocalBufferConfig l1{.page_size = page, .buffer_type = BufferType::L1};
    auto scratch = distributed::MeshBuffer::create(distributed::ReplicatedBufferConfig{.size = page}, l1,
                                                   mesh_device.get());

    Program program = CreateProgram();
    const CoreRange cores({0, 0}, {1, 1});
    for (auto cb : {CBIndex::c_0, CBIndex::c_16}) {
        CreateCircularBuffer(program, cores,
                             CircularBufferConfig(page, {{cb, tt::DataFormat::Float16_b}}).set_page_size(cb, page));
    }
    auto reader = CreateKernel(program, OVERRIDE_KERNEL_PREFIX "profiler/test_custom_cycle_count/kernels/custom_cycle_count.cpp",
                               cores, DataMovementConfig{.processor = DataMovementProcessor::RISCV_0, .noc = NOC::RISCV_0_default});
    CreateKernel(program, OVERRIDE_KERNEL_PREFIX "profiler/test_custom_cycle_count/kernels/fill_tile.cpp", cores,
                 DataMovementConfig{.processor = DataMovementProcessor::RISCV_1, .noc = NOC::RISCV_1_default});
    auto compute = CreateKernel(program,
                                OVERRIDE_KERNEL_PREFIX "profiler/test_custom_cycle_count/kernels/custom_cycle_count_compute.cpp",
                                cores, ComputeConfig{});
    SetRuntimeArgs(program, reader, cores,
                   {static_cast<uint32_t>(src->address()), static_cast<uint32_t>(scratch->address()), loops});
    SetRuntimeArgs(program, compute, cores, {loops});

    distributed::MeshWorkload workload;
    workload.add_program(distributed::MeshCoordinateRange(mesh_device->shape()), std::move(program));
    distributed::EnqueueMeshWorkload(cq, workload, false);
    distributed::Finish(cq);
    ReadMeshDeviceProfilerResults(*mesh_device);
    mesh_device->close();
    fmt::print("Test Passed\n");
    return 0;
}
