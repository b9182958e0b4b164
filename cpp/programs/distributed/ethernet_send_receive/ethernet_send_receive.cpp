// tensim's C++ Ethernet send/receive: two chips linked by Ethernet (run with `--system n300` or
// `--system t3000`). The ERISC of a link on device 0 reads a DRAM buffer and sends it over the link; the
// ERISC at the other end writes it into a DRAM buffer of device 1. The buffer read back from device 1 must
// equal what was written to device 0. Host API: get_ethernet_sockets, get_connected_ethernet_core,
// EthernetConfig kernels, a 1x2 MeshDevice.
#include <cstdint>
#include <random>
#include <vector>

#include <tt-metalium/distributed.hpp>
#include <tt-metalium/host_api.hpp>
#include <tt-metalium/tensor_accessor_args.hpp>

#ifndef OVERRIDE_KERNEL_PREFIX
#define OVERRIDE_KERNEL_PREFIX ""
#endif

using namespace tt;
using namespace tt::tt_metal;

int main() {
    auto mesh = distributed::MeshDevice::create(distributed::MeshDeviceConfig(distributed::MeshShape(1, 2)));
    auto& cq = mesh->mesh_command_queue();
    const distributed::MeshCoordinate a(0, 0), b(0, 1);
    IDevice* dev_a = mesh->get_device(a);
    IDevice* dev_b = mesh->get_device(b);
    const auto sockets = dev_a->get_ethernet_sockets(dev_b->id());
    TT_FATAL(!sockets.empty(), "devices {} and {} are not linked by Ethernet", dev_a->id(), dev_b->id());
    const CoreCoord sender_core = sockets[0];
    const auto [peer, receiver_core] = dev_a->get_connected_ethernet_core(sender_core);
    TT_FATAL(peer == dev_b->id(), "the link leads to device {}, not {}", peer, dev_b->id());

    constexpr uint32_t page_size = 1024, num_pages = 16, bytes_per_send = 4096;
    distributed::DeviceLocalBufferConfig dram{.page_size = page_size, .buffer_type = BufferType::DRAM};
    distributed::ReplicatedBufferConfig size{.size = page_size * num_pages};
    auto src_buf = distributed::MeshBuffer::create(size, dram, mesh.get());
    auto dst_buf = distributed::MeshBuffer::create(size, dram, mesh.get());
    std::mt19937 rng(3);
    std::vector<uint32_t> data(page_size * num_pages / 4), zeros(data.size(), 0);
    for (auto& v : data) v = rng();
    distributed::WriteShard(cq, src_buf, data, a);
    distributed::WriteShard(cq, dst_buf, zeros, b);

    std::vector<uint32_t> src_ct, dst_ct;
    TensorAccessorArgs(src_buf).append_to(src_ct);
    TensorAccessorArgs(dst_buf).append_to(dst_ct);
    Program send = CreateProgram();
    auto tx = CreateKernel(send, OVERRIDE_KERNEL_PREFIX "distributed/ethernet_send_receive/kernels/eth_sender.cpp",
                           sender_core, EthernetConfig{.noc = NOC::NOC_0, .compile_args = src_ct});
    SetRuntimeArgs(send, tx, sender_core,
                   {static_cast<uint32_t>(src_buf->address()), num_pages, page_size, bytes_per_send});
    Program receive = CreateProgram();
    auto rx = CreateKernel(receive, OVERRIDE_KERNEL_PREFIX "distributed/ethernet_send_receive/kernels/eth_receiver.cpp",
                           receiver_core, EthernetConfig{.noc = NOC::NOC_0, .compile_args = dst_ct});
    SetRuntimeArgs(receive, rx, receiver_core, {static_cast<uint32_t>(dst_buf->address()), num_pages, page_size});

    distributed::MeshWorkload workload;
    workload.add_program(distributed::MeshCoordinateRange(a, a), std::move(send));
    workload.add_program(distributed::MeshCoordinateRange(b, b), std::move(receive));
    distributed::EnqueueMeshWorkload(cq, workload, true);

    std::vector<uint32_t> out;
    distributed::ReadShard(cq, out, dst_buf, b);
    mesh->close();
    size_t bad = 0;
    for (size_t i = 0; i < data.size(); i++) bad += out.size() != data.size() || out[i] != data[i];
    if (bad != 0) {
        fmt::print("Test Failed: {} of {} words differ on device 1\n", bad, data.size());
        return 1;
    }
    fmt::print("Test Passed: {} bytes crossed Ethernet channel {} -> {}\n", page_size * num_pages, sender_core.y,
               receiver_core.y);
    return 0;
}
