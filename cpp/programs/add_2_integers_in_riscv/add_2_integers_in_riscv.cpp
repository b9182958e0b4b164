// tensim's C++ add_2_integers_in_riscv, in today's TT-Metalium API: one data-movement kernel reads two
// integers from DRAM into L1, adds them on the RISC-V through L1 pointers, and writes the sum back. Unit mesh;
// the kernel finds the buffers through TensorAccessorArgs.
#include <cstdint>
#include <vector>

#include <fmt/base.h>
#include <tt-logger/tt-logger.hpp>
#include <tt-metalium/distributed.hpp>
#include <tt-metalium/host_api.hpp>
#include <tt-metalium/tensor_accessor_args.hpp>
#include <tt_stl/assert.hpp>

#ifndef OVERRIDE_KERNEL_PREFIX
#define OVERRIDE_KERNEL_PREFIX ""
#endif

using namespace tt;
using namespace tt::tt_metal;

int main() {
    auto mesh_device = distributed::MeshDevice::create_unit_mesh(0);
    distributed::MeshCommandQueue& cq = mesh_device->mesh_command_queue();
    Program program = CreateProgram();
    constexpr CoreCoord core = {0, 0};

    distributed::ReplicatedBufferConfig word{.size = sizeof(uint32_t)};
    distributed::DeviceLocalBufferConfig dram{.page_size = sizeof(uint32_t), .buffer_type = BufferType::DRAM};
    distributed::DeviceLocalBufferConfig l1{.page_size = sizeof(uint32_t), .buffer_type = BufferType::L1};
    auto src0 = distributed::MeshBuffer::create(word, dram, mesh_device.get());
    auto src1 = distributed::MeshBuffer::create(word, dram, mesh_device.get());
    auto dst = distributed::MeshBuffer::create(word, dram, mesh_device.get());
    auto src0_l1 = distributed::MeshBuffer::create(word, l1, mesh_device.get());
    auto src1_l1 = distributed::MeshBuffer::create(word, l1, mesh_device.get());
    auto dst_l1 = distributed::MeshBuffer::create(word, l1, mesh_device.get());

    std::vector<uint32_t> a{14}, b{7};
    distributed::EnqueueWriteMeshBuffer(cq, src0, a, false);
    distributed::EnqueueWriteMeshBuffer(cq, src1, b, false);

    std::vector<uint32_t> ct_args;
    TensorAccessorArgs(*src0).append_to(ct_args);
    TensorAccessorArgs(*src1).append_to(ct_args);
    TensorAccessorArgs(*dst).append_to(ct_args);
    KernelHandle k = CreateKernel(program, OVERRIDE_KERNEL_PREFIX "add_2_integers_in_riscv/kernels/reader_writer_add_in_riscv.cpp",
                                  core, DataMovementConfig{.processor = DataMovementProcessor::RISCV_0,
                                                           .noc = NOC::RISCV_0_default,
                                                           .compile_args = ct_args});
    SetRuntimeArgs(program, k, core,
                   {src0->address(), src1->address(), dst->address(), src0_l1->address(), src1_l1->address(),
                    dst_l1->address()});
    distributed::MeshWorkload workload;
    workload.add_program(distributed::MeshCoordinateRange(mesh_device->shape()), std::move(program));
    distributed::EnqueueMeshWorkload(cq, workload, false);
    distributed::Finish(cq);

    std::vector<uint32_t> result;
    distributed::EnqueueReadMeshBuffer(cq, result, dst, true);
    TT_FATAL(result.size() == 1, "expected one word back, got {}", result.size());
    log_info(tt::LogTest, "14 + 7 = {}", result[0]);
    mesh_device->close();
    if (result[0] != 21) TT_THROW("Test Failed: {} != 21", result[0]);
    fmt::print("Test Passed\n");
    return 0;
}
