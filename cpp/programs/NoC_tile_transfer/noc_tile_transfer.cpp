// tensim's C++ NoC_tile_transfer: core (0,0) reads a tile from DRAM and writes it over the NoC into core
// (0,1)'s circular buffer once core (0,1) has signalled room through a semaphore; core (0,1) writes it back
// to DRAM. Today's API: a unit mesh on the host, object-style kernels (Noc, CircularBuffer, Semaphore,
// endpoints).
#include <cstdint>
#include <vector>

#include <fmt/base.h>
#include <tt-metalium/constants.hpp>
#include <tt-metalium/distributed.hpp>
#include <tt-metalium/host_api.hpp>

#ifndef OVERRIDE_KERNEL_PREFIX
#define OVERRIDE_KERNEL_PREFIX ""
#endif

using namespace tt;
using namespace tt::tt_metal;

int main() {
    auto mesh_device = distributed::MeshDevice::create_unit_mesh(0);
    distributed::MeshCommandQueue& cq = mesh_device->mesh_command_queue();
    Program program = CreateProgram();
    constexpr CoreCoord core0 = {0, 0};
    constexpr CoreCoord core1 = {0, 1};
    const CoreRange cores(core0, core1);
    constexpr uint32_t tile_bytes = sizeof(uint16_t) * constants::TILE_HW;
    distributed::DeviceLocalBufferConfig dram{.page_size = tile_bytes, .buffer_type = BufferType::DRAM};
    distributed::ReplicatedBufferConfig one_tile{.size = tile_bytes};
    auto input = distributed::MeshBuffer::create(one_tile, dram, mesh_device.get());
    auto output = distributed::MeshBuffer::create(one_tile, dram, mesh_device.get());
    std::vector<uint16_t> in(constants::TILE_HW, 0);
    in[0] = 14;
    distributed::EnqueueWriteMeshBuffer(cq, input, in, false);

    for (auto cb : {CBIndex::c_0, CBIndex::c_1}) {
        CreateCircularBuffer(program, cores,
                             CircularBufferConfig(tile_bytes, {{cb, tt::DataFormat::UInt16}}).set_page_size(cb, tile_bytes));
    }
    uint32_t sem = CreateSemaphore(program, cores, 0);
    CoreCoord p0 = mesh_device->worker_core_from_logical_core(core0);
    CoreCoord p1 = mesh_device->worker_core_from_logical_core(core1);
    auto r0 = CreateKernel(program, OVERRIDE_KERNEL_PREFIX "NoC_tile_transfer/kernels/reader0.cpp", core0,
                           ReaderDataMovementConfig{});
    auto w0 = CreateKernel(program, OVERRIDE_KERNEL_PREFIX "NoC_tile_transfer/kernels/writer0.cpp", core0,
                           WriterDataMovementConfig{});
    auto r1 = CreateKernel(program, OVERRIDE_KERNEL_PREFIX "NoC_tile_transfer/kernels/reader1.cpp", core1,
                           ReaderDataMovementConfig{});
    auto w1 = CreateKernel(program, OVERRIDE_KERNEL_PREFIX "NoC_tile_transfer/kernels/writer1.cpp", core1,
                           WriterDataMovementConfig{});
    SetRuntimeArgs(program, r0, core0, {input->address(), 0u});
    SetRuntimeArgs(program, w0, core0, {static_cast<uint32_t>(p1.x), static_cast<uint32_t>(p1.y), sem});
    SetRuntimeArgs(program, r1, core1, {static_cast<uint32_t>(p0.x), static_cast<uint32_t>(p0.y), sem});
    SetRuntimeArgs(program, w1, core1, {output->address(), 0u});

    distributed::MeshWorkload workload;
    workload.add_program(distributed::MeshCoordinateRange(mesh_device->shape()), std::move(program));
    distributed::EnqueueMeshWorkload(cq, workload, false);
    distributed::Finish(cq);
    std::vector<uint16_t> out;
    distributed::EnqueueReadMeshBuffer(cq, out, output, true);
    mesh_device->close();
    fmt::print("Result = {} : Expected = {}\n", out.empty() ? 0 : out[0], in[0]);
    if (out != in) {
        fmt::print("Test Failed\n");
        return 1;
    }
    fmt::print("Test Passed\n");
    return 0;
}
