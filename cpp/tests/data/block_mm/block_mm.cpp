// tensim test program: C = s * (A x B) with one matmul_block call per inner tile (a 2x2 block of DST tiles,
// in0 rows strided by kt_dim), A in interleaved DRAM, B BLOCK_SHARDED over a 2x2 grid of L1 with a padded
// shard row, the scalar s broadcast from element (0,0) of a tile (mul_tiles_bcast_scalar), fp32 accumulation;
// then an Int32 tile copied through DST with UnpackToDestFp32 (values beyond 2^24, negative ones) after the
// data formats are reconfigured. The host checks C against a float reference and the integers exactly.
#include <cmath>
#include <cstdint>
#include <random>
#include <vector>

#include <fmt/base.h>
#include <tt-metalium/bfloat16.hpp>
#include <tt-metalium/constants.hpp>
#include <tt-metalium/distributed.hpp>
#include <tt-metalium/host_api.hpp>
#include <tt-metalium/tensor_accessor_args.hpp>
#include <tt-metalium/tilize_utils.hpp>
#include <tt_stl/assert.hpp>

using namespace tt;
using namespace tt::tt_metal;

int main() {
    constexpr uint32_t Mt = 2, Kt = 3, Nt = 2, M = Mt * 32, K = Kt * 32, N = Nt * 32;
    constexpr uint32_t tile_bf16 = 2 * constants::TILE_HW, tile_32 = 4 * constants::TILE_HW;
    auto mesh = distributed::MeshDevice::create_unit_mesh(0);
    auto& cq = mesh->mesh_command_queue();
    distributed::DeviceLocalBufferConfig dram{.page_size = tile_bf16, .buffer_type = BufferType::DRAM};
    auto a = distributed::MeshBuffer::create(distributed::ReplicatedBufferConfig{.size = Mt * Kt * tile_bf16}, dram, mesh.get());
    auto c = distributed::MeshBuffer::create(distributed::ReplicatedBufferConfig{.size = Mt * Nt * tile_bf16}, dram, mesh.get());
    // B: 3x2 tiles, shards of 2x1 tiles on a 2x2 grid: the second shard row holds one real tile row.
    ShardSpecBuffer spec(CoreRangeSet(CoreRange({0, 0}, {1, 1})), {64, 32}, ShardOrientation::ROW_MAJOR, {32, 32}, {Kt, Nt});
    distributed::DeviceLocalBufferConfig l1{.page_size = tile_bf16, .buffer_type = BufferType::L1,
                                            .sharding_args = BufferShardingArgs(spec, TensorMemoryLayout::BLOCK_SHARDED)};
    auto b = distributed::MeshBuffer::create(distributed::ReplicatedBufferConfig{.size = Kt * Nt * tile_bf16}, l1, mesh.get());
    distributed::DeviceLocalBufferConfig dram32{.page_size = tile_32, .buffer_type = BufferType::DRAM};
    auto ints = distributed::MeshBuffer::create(distributed::ReplicatedBufferConfig{.size = 2 * tile_32}, dram32, mesh.get());

    std::mt19937 rng(11);
    std::uniform_real_distribution<float> dist(-1.0f, 1.0f);
    std::vector<bfloat16> va(M * K), vb(K * N);
    for (auto& v : va) v = bfloat16(dist(rng));
    for (auto& v : vb) v = bfloat16(dist(rng));
    // Tiles in row-major tile order, each tile in face layout.
    auto tiles = [](const std::vector<bfloat16>& rm, uint32_t rows, uint32_t cols) {
        return tilize_nfaces(rm, rows, cols);
    };
    distributed::EnqueueWriteMeshBuffer(cq, a, tiles(va, M, K), false);
    distributed::EnqueueWriteMeshBuffer(cq, b, tiles(vb, K, N), false);
    std::vector<int32_t> vi(2 * constants::TILE_HW);
    for (uint32_t i = 0; i < vi.size(); i++) vi[i] = static_cast<int32_t>(rng()) ^ (i % 3 == 0 ? 0x40000001 : 0);
    vi[0] = (1 << 24) + 1;
    vi[1] = -((1 << 30) + 7);
    distributed::EnqueueWriteMeshBuffer(cq, ints, vi, false);

    Program program = CreateProgram();
    CoreCoord core{0, 0};
    auto cb = [&](CBIndex id, uint32_t pages, DataFormat f, uint32_t page) {
        CreateCircularBuffer(program, core, CircularBufferConfig(pages * page, {{id, f}}).set_page_size(id, page));
    };
    cb(CBIndex::c_0, Mt * Kt, DataFormat::Float16_b, tile_bf16);
    cb(CBIndex::c_1, Kt * Nt, DataFormat::Float16_b, tile_bf16);
    cb(CBIndex::c_2, 1, DataFormat::Float16_b, tile_bf16);
    cb(CBIndex::c_3, 1, DataFormat::Int32, tile_32);
    cb(CBIndex::c_24, Mt * Nt, DataFormat::Float16_b, tile_bf16);
    cb(CBIndex::c_16, Mt * Nt, DataFormat::Float16_b, tile_bf16);
    cb(CBIndex::c_17, 1, DataFormat::Int32, tile_32);
    std::vector<uint32_t> rct;
    TensorAccessorArgs(*a).append_to(rct);
    TensorAccessorArgs(*b).append_to(rct);
    TensorAccessorArgs(*ints).append_to(rct);
    std::vector<uint32_t> wct;
    TensorAccessorArgs(*c).append_to(wct);
    TensorAccessorArgs(*ints).append_to(wct);
    auto reader = CreateKernel(program, "block_mm/kernels/reader.cpp", core, ReaderDataMovementConfig(rct));
    auto writer = CreateKernel(program, "block_mm/kernels/writer.cpp", core, WriterDataMovementConfig(wct));
    std::vector<UnpackToDestMode> unpack(32, UnpackToDestMode::Default);
    unpack[static_cast<uint32_t>(CBIndex::c_3)] = UnpackToDestMode::UnpackToDestFp32;
    CreateKernel(program, "block_mm/kernels/mm.cpp", core,
                 ComputeConfig{.math_fidelity = MathFidelity::HiFi4, .fp32_dest_acc_en = true, .unpack_to_dest_mode = unpack,
                               .compile_args = {Mt, Kt, Nt}});
    const float s = 0.5f;
    SetRuntimeArgs(program, reader, core, {a->address(), b->address(), ints->address(), Mt, Kt, Nt, static_cast<uint32_t>(bfloat16(s).to_uint16())});
    SetRuntimeArgs(program, writer, core, {c->address(), ints->address(), Mt * Nt});
    distributed::MeshWorkload w;
    w.add_program(distributed::MeshCoordinateRange(mesh->shape()), std::move(program));
    distributed::EnqueueMeshWorkload(cq, w, false);
    std::vector<bfloat16> vc;
    distributed::EnqueueReadMeshBuffer(cq, vc, c, true);
    std::vector<int32_t> vo;
    distributed::EnqueueReadMeshBuffer(cq, vo, ints, true);
    mesh->close();

    const auto got = untilize_nfaces(vc, M, N);
    size_t bad = 0;
    for (uint32_t i = 0; i < M; i++) {
        for (uint32_t j = 0; j < N; j++) {
            double want = 0;
            for (uint32_t k = 0; k < K; k++) want += double(float(va[i * K + k])) * double(float(vb[k * N + j]));
            want *= s;
            const float g = float(got[i * N + j]);
            if (std::fabs(g - want) > 0.02 * std::max(1.0, std::fabs(want)) && bad++ < 8)
                fmt::print(stderr, "C[{}][{}] = {} != {}\n", i, j, g, want);
        }
    }
    // The second Int32 tile is the first copied through DST.
    for (uint32_t i = 0; i < constants::TILE_HW; i++) {
        if (vo[constants::TILE_HW + i] != vi[i] && bad++ < 16)
            fmt::print(stderr, "int {}: {} != {}\n", i, vo[constants::TILE_HW + i], vi[i]);
    }
    if (bad) TT_THROW("Test Failed: {} mismatches", bad);
    fmt::print("Test Passed\n");
}
