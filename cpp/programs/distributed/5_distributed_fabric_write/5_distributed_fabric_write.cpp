// tensim's C++ distributed fabric write: a 1x2 mesh with the 1-D fabric (run with `--system t3000`, or any
// system whose first two chips are linked). A worker on device 0 copies a DRAM buffer to the same buffer on
// device 1 through the fabric, page by page, then increments a semaphore on device 1 whose kernel waits
// for it. The buffer read back from device 1 must equal what was written to device 0. Mesh and fabric
// host API: SetFabricConfig, MeshDevice::create, get_fabric_node_id, append_fabric_connection_rt_args.
#include <cstdint>
#include <random>
#include <vector>

#include <tt-metalium/distributed.hpp>
#include <tt-metalium/fabric.hpp>
#include <tt-metalium/host_api.hpp>
#include <tt-metalium/tensor_accessor_args.hpp>

#ifndef OVERRIDE_KERNEL_PREFIX
#define OVERRIDE_KERNEL_PREFIX ""
#endif

using namespace tt;
using namespace tt::tt_metal;

int main() {
    tt_fabric::SetFabricConfig(tt_fabric::FabricConfig::FABRIC_1D);
    auto mesh = distributed::MeshDevice::create(distributed::MeshDeviceConfig(distributed::MeshShape(1, 2)));
    auto& cq = mesh->mesh_command_queue();
    const distributed::MeshCoordinate sender_coord(0, 0), receiver_coord(0, 1);

    constexpr uint32_t page_size = 2048, num_pages = 32;
    distributed::DeviceLocalBufferConfig dram{.page_size = page_size, .buffer_type = BufferType::DRAM};
    distributed::ReplicatedBufferConfig size{.size = page_size * num_pages};
    auto src_buf = distributed::MeshBuffer::create(size, dram, mesh.get());
    auto dst_buf = distributed::MeshBuffer::create(size, dram, mesh.get());

    std::mt19937 rng(5);
    std::vector<uint32_t> data(page_size * num_pages / 4), zeros(data.size(), 0);
    for (auto& v : data) v = rng();
    distributed::WriteShard(cq, src_buf, data, sender_coord);
    distributed::WriteShard(cq, dst_buf, zeros, receiver_coord);

    const CoreCoord sender_core = {0, 0}, receiver_core = {1, 1};
    const CoreCoord receiver_xy = mesh->get_device(receiver_coord)->worker_core_from_logical_core(receiver_core);

    // Device 1: a semaphore the sender increments and a kernel waiting on it.
    Program receiver = CreateProgram();
    const uint32_t rx_sem = CreateSemaphore(receiver, receiver_core, 0);
    auto rx = CreateKernel(receiver, OVERRIDE_KERNEL_PREFIX "distributed/5_distributed_fabric_write/kernels/fabric_receiver_kernel.cpp",
                           receiver_core, DataMovementConfig{.processor = DataMovementProcessor::RISCV_0, .noc = NOC::RISCV_0_default});
    SetRuntimeArgs(receiver, rx, receiver_core, {rx_sem});

    // Device 0: the sender, connected to the router towards device 1.
    Program sender = CreateProgram();
    CreateCircularBuffer(sender, sender_core,
                         CircularBufferConfig(page_size, {{CBIndex::c_0, tt::DataFormat::Float16_b}}).set_page_size(CBIndex::c_0, page_size));
    std::vector<uint32_t> ct_args;
    TensorAccessorArgs(src_buf).append_to(ct_args);
    TensorAccessorArgs(dst_buf).append_to(ct_args);
    auto tx = CreateKernel(sender, OVERRIDE_KERNEL_PREFIX "distributed/5_distributed_fabric_write/kernels/fabric_write_kernel.cpp",
                           sender_core,
                           DataMovementConfig{.processor = DataMovementProcessor::RISCV_0, .noc = NOC::RISCV_0_default,
                                              .compile_args = ct_args});
    std::vector<uint32_t> args = {static_cast<uint32_t>(src_buf->address()), static_cast<uint32_t>(dst_buf->address()),
                                  num_pages, page_size, static_cast<uint32_t>(receiver_xy.x),
                                  static_cast<uint32_t>(receiver_xy.y), rx_sem, 1u};
    tt_fabric::append_fabric_connection_rt_args(mesh->get_fabric_node_id(sender_coord),
                                                mesh->get_fabric_node_id(receiver_coord), 0, sender, sender_core, args);
    SetRuntimeArgs(sender, tx, sender_core, args);

    distributed::MeshWorkload workload;
    workload.add_program(distributed::MeshCoordinateRange(sender_coord, sender_coord), std::move(sender));
    workload.add_program(distributed::MeshCoordinateRange(receiver_coord, receiver_coord), std::move(receiver));
    distributed::EnqueueMeshWorkload(cq, workload, true);

    std::vector<uint32_t> out;
    distributed::ReadShard(cq, out, dst_buf, receiver_coord);
    mesh->close();
    size_t bad = 0;
    for (size_t i = 0; i < data.size(); i++) bad += out.size() != data.size() || out[i] != data[i];
    if (bad != 0) {
        fmt::print("Test Failed: {} of {} words differ on device 1\n", bad, data.size());
        return 1;
    }
    fmt::print("Test Passed: {} pages of {} bytes crossed the fabric\n", num_pages, page_size);
    return 0;
}
