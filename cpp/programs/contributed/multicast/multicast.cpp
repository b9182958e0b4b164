// tensim's C++ contributed/multicast: core (0,0) reads one bf16 tile from DRAM and multicasts it to cores
// (1,0)-(3,0) once all three signalled readiness on its semaphore; each receiver copies the tile from c_0
// to c_16 through L1 pointers and writes it to its own tile of a DRAM output. Checks that every receiver
// wrote the input tile. Unit-mesh host API.
#include <cstdint>
#include <random>
#include <vector>

#include <tt-metalium/bfloat16.hpp>
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
    const CoreCoord sender = {0, 0};
    const CoreRange receivers({1, 0}, {3, 0});
    const CoreRange all(sender, {3, 0});
    const uint32_t num_dests = receivers.size();
    constexpr uint32_t tile = sizeof(bfloat16) * constants::TILE_HW;

    distributed::DeviceLocalBufferConfig dram{.page_size = tile, .buffer_type = BufferType::DRAM};
    auto input = distributed::MeshBuffer::create(distributed::ReplicatedBufferConfig{.size = tile}, dram, mesh_device.get());
    auto output = distributed::MeshBuffer::create(distributed::ReplicatedBufferConfig{.size = num_dests * tile}, dram,
                                                  mesh_device.get());
    std::mt19937 rng(3);
    std::uniform_real_distribution<float> dist(-10.0f, 10.0f);
    std::vector<bfloat16> golden(constants::TILE_HW);
    for (auto& v : golden) v = bfloat16(dist(rng));
    distributed::EnqueueWriteMeshBuffer(cq, input, golden, false);

    Program program = CreateProgram();
    for (auto cb : {CBIndex::c_0, CBIndex::c_16}) {
        CreateCircularBuffer(program, all,
                             CircularBufferConfig(tile, {{cb, tt::DataFormat::Float16_b}}).set_page_size(cb, tile));
    }
    uint32_t sender_sem = CreateSemaphore(program, all, 0);
    uint32_t receiver_sem = CreateSemaphore(program, all, 0);
    CoreCoord s = mesh_device->worker_core_from_logical_core(sender);
    CoreCoord r0 = mesh_device->worker_core_from_logical_core(receivers.start_coord);
    CoreCoord r1 = mesh_device->worker_core_from_logical_core(receivers.end_coord);
    const DataMovementConfig brisc{.processor = DataMovementProcessor::RISCV_0, .noc = NOC::RISCV_0_default};
    const DataMovementConfig ncrisc{.processor = DataMovementProcessor::RISCV_1, .noc = NOC::RISCV_1_default};
    auto coordinator = CreateKernel(
        program, OVERRIDE_KERNEL_PREFIX "contributed/multicast/kernels/dataflow/coordinator_kernel.cpp", sender, brisc);
    auto inbound = CreateKernel(
        program, OVERRIDE_KERNEL_PREFIX "contributed/multicast/kernels/dataflow/inbound_kernel.cpp", receivers, brisc);
    auto outbound = CreateKernel(
        program, OVERRIDE_KERNEL_PREFIX "contributed/multicast/kernels/dataflow/outbound_kernel.cpp", receivers, ncrisc);
    CreateKernel(program, OVERRIDE_KERNEL_PREFIX "contributed/multicast/kernels/compute/void_compute_kernel.cpp", all,
                 ComputeConfig{});
    SetRuntimeArgs(program, coordinator, sender,
                   {static_cast<uint32_t>(input->address()), static_cast<uint32_t>(r0.x), static_cast<uint32_t>(r0.y),
                    static_cast<uint32_t>(r1.x), static_cast<uint32_t>(r1.y), num_dests, sender_sem, receiver_sem});
    uint32_t i = 0;
    for (const auto& core : corerange_to_cores(CoreRangeSet(receivers), std::nullopt, true)) {
        SetRuntimeArgs(program, inbound, core,
                       {static_cast<uint32_t>(s.x), static_cast<uint32_t>(s.y), sender_sem, receiver_sem});
        SetRuntimeArgs(program, outbound, core, {static_cast<uint32_t>(output->address()), i++});
    }

    distributed::MeshWorkload workload;
    workload.add_program(distributed::MeshCoordinateRange(mesh_device->shape()), std::move(program));
    distributed::EnqueueMeshWorkload(cq, workload, false);
    std::vector<bfloat16> result;
    distributed::EnqueueReadMeshBuffer(cq, result, output, true);
    mesh_device->close();

    bool pass = result.size() == num_dests * constants::TILE_HW;
    for (uint32_t d = 0; pass && d < num_dests; d++) {
        for (uint32_t k = 0; k < constants::TILE_HW; k++) {
            if (result[d * constants::TILE_HW + k].to_uint16() != golden[k].to_uint16()) {
                fmt::print("receiver {} differs at element {}\n", d + 1, k);
                pass = false;
                break;
            }
        }
    }
    fmt::print(pass ? "Test Passed\n" : "Test Failed\n");
    return pass ? 0 : 1;
}
