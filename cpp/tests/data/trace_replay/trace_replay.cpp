// tensim test program: mesh traces. A workload (one sender zeroing two DRAM pages, two receivers writing the
// other two once it signals) runs once, then from two traces: one whose workload is destroyed right after
// its capture, and one whose program's runtime args are changed after its capture. A replay runs what was
// captured — the programs and the runtime args as they were — as tt-metal replays its recorded commands.
// Between replays the host scribbles over the buffer, so each check sees that replay's writes. A released
// trace cannot be replayed.
#include <cstdint>
#include <string>
#include <vector>

#include <tt-metalium/distributed.hpp>
#include <tt-metalium/host_api.hpp>
#include <tt-metalium/tensor_accessor_args.hpp>

using namespace tt;
using namespace tt::tt_metal;

constexpr uint32_t kPage = 2048, kPages = 4;

// The program: sender on (0,0), receivers on (1,0) (page 2) and (2,0) (page 3).
static Program make_program(distributed::MeshDevice* mesh, const std::shared_ptr<distributed::MeshBuffer>& buf,
                            KernelHandle* rx_out) {
    Program program = CreateProgram();
    const CoreRange all({0, 0}, {2, 0});
    const uint32_t sem = CreateSemaphore(program, all, 0);
    CreateCircularBuffer(program, all,
                         CircularBufferConfig(kPage, {{tt::CBIndex::c_0, tt::DataFormat::Float16_b}})
                             .set_page_size(tt::CBIndex::c_0, kPage));
    std::vector<uint32_t> ct;
    TensorAccessorArgs(*buf).append_to(ct);
    const CoreCoord sender{0, 0};
    auto tx = CreateKernel(program, "kernels/sender.cpp", sender,
                           DataMovementConfig{.processor = DataMovementProcessor::RISCV_0,
                                              .noc = NOC::RISCV_0_default,
                                              .compile_args = ct});
    auto rx = CreateKernel(program, "kernels/receiver.cpp", CoreRange({1, 0}, {2, 0}),
                           DataMovementConfig{.processor = DataMovementProcessor::RISCV_1,
                                              .noc = NOC::RISCV_1_default,
                                              .compile_args = ct});
    IDevice* dev = mesh->get_devices()[0];
    const CoreCoord a = dev->worker_core_from_logical_core({1, 0}), b = dev->worker_core_from_logical_core({2, 0});
    SetRuntimeArgs(program, tx, sender, {buf->address(), a.x, a.y, b.x, b.y, sem});
    SetRuntimeArgs(program, rx, CoreCoord{1, 0}, {buf->address(), 2, sem});
    SetRuntimeArgs(program, rx, CoreCoord{2, 0}, {buf->address(), 3, sem});
    *rx_out = rx;
    return program;
}

int main() {
    auto meshes = distributed::MeshDevice::create_unit_meshes({0});
    auto mesh = meshes.at(0);
    auto& cq = mesh->mesh_command_queue();
    distributed::DeviceLocalBufferConfig dram{.page_size = kPage, .buffer_type = BufferType::DRAM};
    distributed::ReplicatedBufferConfig size{.size = kPage * kPages};
    auto buf = distributed::MeshBuffer::create(size, dram, mesh.get());
    const std::vector<uint32_t> junk(kPage * kPages / 4, 0xdeadbeef);
    auto check = [&](const char* when) {
        std::vector<uint32_t> out;
        distributed::EnqueueReadMeshBuffer(cq, out, buf, true);
        for (uint32_t w = 0; w < out.size(); ++w) {
            const uint32_t p = w / 512, i = w % 512;
            const uint32_t want = p < 2 ? 0u : (0xA0000000u | (p << 16) | i);
            if (out[w] != want) TT_THROW("{}: word {} is {:#x}, expected {:#x}", when, w, out[w], want);
        }
    };
    const distributed::MeshCoordinateRange everywhere(mesh->shape());

    KernelHandle rx = 0;
    distributed::MeshWorkload workload;
    workload.add_program(everywhere, make_program(mesh.get(), buf, &rx));
    distributed::EnqueueWriteMeshBuffer(cq, buf, junk, false);
    distributed::EnqueueMeshWorkload(cq, workload, false);
    check("the first run");

    // A trace whose workload is gone before it is replayed.
    auto gone = distributed::BeginTraceCapture(mesh.get(), cq.id());
    {
        KernelHandle unused = 0;
        distributed::MeshWorkload scoped;
        scoped.add_program(everywhere, make_program(mesh.get(), buf, &unused));
        distributed::EnqueueMeshWorkload(cq, scoped, false);
    }
    distributed::EndTraceCapture(mesh.get(), cq.id(), gone);

    // A trace of the first workload, whose receivers' args change after the capture.
    auto kept = distributed::BeginTraceCapture(mesh.get(), cq.id());
    distributed::EnqueueMeshWorkload(cq, workload, false);
    distributed::EndTraceCapture(mesh.get(), cq.id(), kept);
    Program& program = workload.get_programs()[0].second;
    GetRuntimeArgs(program, rx, CoreCoord{1, 0})[1] = 0;
    GetRuntimeArgs(program, rx, CoreCoord{2, 0})[1] = 1;

    for (auto [tid, name] : {std::pair{gone, "the replay of the destroyed workload"},
                             std::pair{kept, "the replay after the args changed"}}) {
        for (int r = 0; r < 2; ++r) {
            distributed::EnqueueWriteMeshBuffer(cq, buf, junk, false);
            distributed::ReplayTrace(mesh.get(), cq.id(), tid, false);
            auto ev = distributed::EnqueueRecordEventToHost(cq);
            distributed::EventSynchronize(ev);
            check(name);
        }
        distributed::ReleaseTrace(mesh.get(), tid);
    }
    // A released trace is gone: replaying it is an error, not a silent no-op.
    bool refused = false;
    try {
        distributed::ReplayTrace(mesh.get(), cq.id(), kept, false);
    } catch (const std::exception& e) {
        refused = std::string(e.what()).find("trace 1 was released") != std::string::npos;
    }
    if (!refused) TT_THROW("replaying a released trace was not refused");
    distributed::Synchronize(mesh.get(), std::nullopt);
    mesh->close();
    fmt::print("Test Passed: 5 runs\n");
    return 0;
}
