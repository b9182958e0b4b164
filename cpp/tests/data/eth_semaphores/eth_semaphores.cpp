// tensim test program: semaphores on an Ethernet core (CreateSemaphore(…, CoreType::ETH)). A worker writes a
// block into an idle Ethernet core's L1 and increments that core's semaphore, whose address it builds with
// get_semaphore<ProgrammableCoreType::ACTIVE_ETH>; the ERISC kernel waits on it, doubles the block in place
// and increments the worker's semaphore; the worker waits, reads the block back into DRAM. A second
// Ethernet semaphore starts at 7 and is only read. The host checks the data and both semaphores' values.
#include <algorithm>
#include <cstdint>
#include <vector>

#include <fmt/base.h>
#include <tt-metalium/distributed.hpp>
#include <tt-metalium/host_api.hpp>
#include <tt-metalium/tensor_accessor_args.hpp>
#include <tt_stl/assert.hpp>

using namespace tt;
using namespace tt::tt_metal;

int main() {
    constexpr uint32_t words = 256, bytes = words * 4;
    auto mesh = distributed::MeshDevice::create_unit_mesh(0);
    auto& cq = mesh->mesh_command_queue();
    IDevice* device = mesh->get_devices()[0];
    auto idle = device->get_inactive_ethernet_cores();
    TT_FATAL(!idle.empty(), "this chip has no idle Ethernet core");
    const CoreCoord eth = *std::min_element(idle.begin(), idle.end(), [](auto a, auto b) { return a.y < b.y; });
    const CoreCoord eth_noc = device->ethernet_core_from_logical_core(eth);
    const CoreCoord worker{1, 1};
    const CoreCoord worker_noc = device->worker_core_from_logical_core(worker);

    distributed::DeviceLocalBufferConfig dram{.page_size = bytes, .buffer_type = BufferType::DRAM};
    auto out = distributed::MeshBuffer::create(distributed::ReplicatedBufferConfig{.size = bytes}, dram, mesh.get());

    Program program = CreateProgram();
    const uint32_t sem_go = CreateSemaphore(program, CoreRange(eth, eth), 0, CoreType::ETH);
    const uint32_t sem_seven = CreateSemaphore(program, CoreRange(eth, eth), 7, CoreType::ETH);
    const uint32_t sem_done = CreateSemaphore(program, CoreRange(worker, worker), 0);
    TT_FATAL(sem_go == 0 && sem_seven == 1 && sem_done == 0, "semaphore ids {} {} {}", sem_go, sem_seven, sem_done);
    CreateCircularBuffer(program, worker, CircularBufferConfig(bytes, {{CBIndex::c_0, DataFormat::Float32}}).set_page_size(CBIndex::c_0, bytes));
    std::vector<uint32_t> ct;
    TensorAccessorArgs(*out).append_to(ct);
    auto w = CreateKernel(program, "eth_semaphores/kernels/worker.cpp", worker,
                          DataMovementConfig{.processor = DataMovementProcessor::RISCV_0, .noc = NOC::RISCV_0_default, .compile_args = ct});
    auto e = CreateKernel(program, "eth_semaphores/kernels/erisc.cpp", eth, EthernetConfig{.noc = NOC::NOC_0});
    // The block's place in the Ethernet core's L1: inside the kernel region of both arches' ERISCs.
    constexpr uint32_t eth_block = 0x20000;
    SetRuntimeArgs(program, w, worker, {eth_noc.x, eth_noc.y, sem_go, sem_done, out->address(), words, eth_block});
    SetRuntimeArgs(program, e, eth, {worker_noc.x, worker_noc.y, sem_go, sem_done, sem_seven, words, eth_block});

    distributed::MeshWorkload wl;
    wl.add_program(distributed::MeshCoordinateRange(mesh->shape()), std::move(program));
    distributed::EnqueueMeshWorkload(cq, wl, true);
    std::vector<uint32_t> got;
    distributed::EnqueueReadMeshBuffer(cq, got, out, true);
    size_t bad = 0;
    for (uint32_t i = 0; i < words; i++) {
        const uint32_t want = 2 * (0x1000 + i) + 7;
        if (got[i] != want && bad++ < 8) fmt::print(stderr, "word {}: {:#x} != {:#x}\n", i, got[i], want);
    }
    mesh->close();
    if (bad) TT_THROW("Test Failed: {} mismatches", bad);
    fmt::print("Test Passed\n");
}
