// tensim test program: four compute paths on one 2x2-tile bf16 matrix A, each checked on the host —
// pack_untilize_block of two block rows of two tiles into row-major rows; transpose_wh_tile of each tile; a MAX
// reduction over the whole matrix (REDUCE_SCALAR, accumulated over the four tiles); and tile 0 times tile 1
// by binary_dest_reuse_tiles<ELWMUL, DEST_TO_SRCA> on tile 0 copied to DST.
#include <algorithm>
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
    constexpr uint32_t n = 64, tile = 2 * constants::TILE_HW;
    auto mesh = distributed::MeshDevice::create_unit_mesh(0);
    auto& cq = mesh->mesh_command_queue();
    distributed::DeviceLocalBufferConfig tiles{.page_size = tile, .buffer_type = BufferType::DRAM};
    distributed::DeviceLocalBufferConfig rows{.page_size = n * 2, .buffer_type = BufferType::DRAM};
    auto make = [&](const distributed::DeviceLocalBufferConfig& c, uint32_t bytes) {
        return distributed::MeshBuffer::create(distributed::ReplicatedBufferConfig{.size = bytes}, c, mesh.get());
    };
    auto a = make(tiles, 4 * tile), rm = make(rows, n * n * 2), tr = make(tiles, 4 * tile), mx = make(tiles, tile),
         pr = make(tiles, tile);
    std::mt19937 rng(5);
    std::uniform_real_distribution<float> dist(-4.0f, 4.0f);
    std::vector<bfloat16> va(n * n);
    for (auto& v : va) v = bfloat16(dist(rng));
    va[37 * n + 50] = bfloat16(9.5f);  // the maximum, in tile 3
    const auto va_tiled = tilize_nfaces(va, n, n);
    distributed::EnqueueWriteMeshBuffer(cq, a, va_tiled, false);

    Program program = CreateProgram();
    CoreCoord core{0, 0};
    auto cb = [&](CBIndex id, uint32_t pages, uint32_t page) {
        CreateCircularBuffer(program, core, CircularBufferConfig(pages * page, {{id, DataFormat::Float16_b}}).set_page_size(id, page));
    };
    cb(CBIndex::c_0, 4, tile);   // A
    cb(CBIndex::c_1, 1, tile);   // scaler 1.0
    cb(CBIndex::c_16, 4, tile);  // untilized rows: two block rows of two tiles' worth
    cb(CBIndex::c_17, 1, tile);  // transposed tiles
    cb(CBIndex::c_18, 1, tile);  // max
    cb(CBIndex::c_19, 1, tile);  // product
    std::vector<uint32_t> rct, wct;
    TensorAccessorArgs(*a).append_to(rct);
    for (const auto& b : {rm, tr, mx, pr}) TensorAccessorArgs(*b).append_to(wct);
    auto reader = CreateKernel(program, "tile_ops/kernels/reader.cpp", core, ReaderDataMovementConfig(rct));
    auto writer = CreateKernel(program, "tile_ops/kernels/writer.cpp", core, WriterDataMovementConfig(wct));
    CreateKernel(program, "tile_ops/kernels/ops.cpp", core, ComputeConfig{.math_fidelity = MathFidelity::HiFi4});
    SetRuntimeArgs(program, reader, core, {a->address()});
    SetRuntimeArgs(program, writer, core, {rm->address(), tr->address(), mx->address(), pr->address()});
    distributed::MeshWorkload w;
    w.add_program(distributed::MeshCoordinateRange(mesh->shape()), std::move(program));
    distributed::EnqueueMeshWorkload(cq, w, false);
    std::vector<bfloat16> got_rm, got_tr, got_mx, got_pr;
    distributed::EnqueueReadMeshBuffer(cq, got_rm, rm, true);
    distributed::EnqueueReadMeshBuffer(cq, got_tr, tr, true);
    distributed::EnqueueReadMeshBuffer(cq, got_mx, mx, true);
    distributed::EnqueueReadMeshBuffer(cq, got_pr, pr, true);
    mesh->close();

    size_t bad = 0;
    auto f = [](bfloat16 v) { return static_cast<float>(v); };
    for (uint32_t i = 0; i < n * n; i++) {
        if (f(got_rm[i]) != f(va[i]) && bad++ < 4) fmt::print(stderr, "untilized [{}]: {} != {}\n", i, f(got_rm[i]), f(va[i]));
    }
    // Tile t of A transposed: element (r, c) of the result tile is element (c, r) of A's tile.
    const auto tr_rows = untilize_nfaces(got_tr, n, n);
    for (uint32_t t = 0; t < 4; t++) {
        const uint32_t r0 = (t / 2) * 32, c0 = (t % 2) * 32;
        for (uint32_t r = 0; r < 32; r++) {
            for (uint32_t c = 0; c < 32; c++) {
                const float g = f(tr_rows[(r0 + r) * n + c0 + c]), want = f(va[(r0 + c) * n + c0 + r]);
                if (g != want && bad++ < 8) fmt::print(stderr, "transposed tile {} ({},{}): {} != {}\n", t, r, c, g, want);
            }
        }
    }
    if (f(got_mx[0]) != 9.5f && bad++ < 12) fmt::print(stderr, "max {} != 9.5\n", f(got_mx[0]));
    const auto pr_rows = untilize_nfaces(got_pr, 32, 32);
    for (uint32_t r = 0; r < 32; r++) {
        for (uint32_t c = 0; c < 32; c++) {
            const float want = f(bfloat16(f(va[r * n + c]) * f(va[r * n + 32 + c])));
            const float g = f(pr_rows[r * 32 + c]);
            if (std::fabs(g - want) > 0.02f * std::max(1.0f, std::fabs(want)) && bad++ < 16)
                fmt::print(stderr, "product ({},{}): {} != {}\n", r, c, g, want);
        }
    }
    if (bad) TT_THROW("Test Failed: {} mismatches", bad);
    fmt::print("Test Passed\n");
}
