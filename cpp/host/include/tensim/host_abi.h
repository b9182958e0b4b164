// tensim's host ABI: the table through which a C++ host program compiled against tensim's TT-Metalium
// headers reaches tensim's Rust host API (devices, buffers, programs, runs). Written for tensim; the Rust
// side is cpp/src/host/abi.rs, and the two must list the same members in the same order with the same
// types: cpp/build.rs turns this struct into compile-time checks of the Rust table, and
// TENSIM_HOST_ABI_VERSION guards compiled objects. Every call returns 0 or an error whose text
// last_error() holds. The contract is cpp/ABI.md.
#pragma once
#include <cstdint>

#define TENSIM_HOST_ABI_VERSION 5

extern "C" {
// A kernel's configuration (DataMovementConfig, ComputeConfig or EthernetConfig flattened).
struct tensim_kernel_config {
    uint32_t kind;  // 0 data movement, 1 compute, 2 Ethernet
    uint32_t processor;
    uint32_t noc;
    uint32_t noc_mode;
    uint32_t math_fidelity;  // 0 LoFi, 2 HiFi2, 3 HiFi3, 4 HiFi4
    uint32_t fp32_dest_acc_en;
    uint32_t dst_full_sync_en;
    uint32_t math_approx_mode;
    uint32_t eth_mode;  // 0 sender, 1 receiver, 2 idle
    const uint32_t* compile_args;
    uint32_t num_compile_args;
    const char* const* define_keys;
    const char* const* define_values;
    uint32_t num_defines;
    const char* const* named_keys;
    const uint32_t* named_values;
    uint32_t num_named;
    const uint32_t* unpack_to_dest;  // per CB index: 0 UnpackToDestFp32, 1 Default (the enum's values)
    uint32_t num_unpack_to_dest;
};

// Core ranges travel as quadruples (start x, start y, end x, end y), inclusive.
struct tensim_host_api {
    uint32_t version;
    const char* (*last_error)(void);
    int32_t (*num_devices)(uint32_t* n);
    int32_t (*open_device)(int32_t id, uint32_t* dev);
    int32_t (*close_device)(uint32_t dev);
    // what: see TENSIM_DEV_* below; a, b: a logical core for the coordinate queries.
    int32_t (*device_query)(uint32_t dev, uint32_t what, uint32_t a, uint32_t b, uint64_t* out);
    // layout: 0 interleaved, 1 height, 2 width, 3 block sharded. shard (sharded only): ranges count,
    // ranges, shard h, w, orientation (0 row, 1 col), page h, w, tensor pages h, w. address: UINT64_MAX to
    // allocate, else the buffer at that address in every bank, not allocated (CreateBuffer(config, address)).
    int32_t (*create_buffer)(uint32_t dev, uint64_t size, uint64_t page_size, uint32_t type, uint32_t layout,
                             const uint32_t* shard, uint32_t shard_len, uint64_t address, uint32_t* buf);
    int32_t (*buffer_query)(uint32_t buf, uint32_t what, uint64_t* out);
    int32_t (*free_buffer)(uint32_t buf);
    int32_t (*write_buffer)(uint32_t buf, const void* src, uint64_t bytes);
    int32_t (*read_buffer)(uint32_t buf, void* dst, uint64_t bytes);
    // Raw L1 of a logical core (write != 0: from data into L1).
    // flags: bit 0 write (else read), bit 1 an Ethernet core (logical (0, channel)), bit 2 DRAM channel x.
    int32_t (*l1)(uint32_t dev, uint32_t x, uint32_t y, uint32_t addr, void* data, uint64_t bytes, uint32_t flags);
    int32_t (*create_program)(uint32_t* prog);
    int32_t (*free_program)(uint32_t prog);
    int32_t (*create_kernel)(uint32_t prog, const char* path, const char* source, const uint32_t* ranges,
                             uint32_t nranges, const struct tensim_kernel_config* cfg, uint32_t* kernel);
    // formats: triples (index, DataFormat code, page size); buffer: a buffer handle, or -1.
    int32_t (*create_cb)(uint32_t prog, const uint32_t* ranges, uint32_t nranges, uint32_t total,
                         const uint32_t* formats, uint32_t nformats, int64_t buffer, uint32_t* cb);
    int32_t (*update_cb)(uint32_t prog, uint32_t cb, uint32_t total, int64_t buffer);
    // eth != 0: on Ethernet cores (logical (0, channel)), CoreType::ETH.
    int32_t (*create_semaphore)(uint32_t prog, const uint32_t* ranges, uint32_t nranges, uint32_t init,
                                uint32_t eth, uint32_t* id);
    // common != 0: the kernel's common runtime args (x, y ignored).
    int32_t (*set_args)(uint32_t prog, uint32_t kernel, uint32_t x, uint32_t y, uint32_t common,
                        const uint32_t* args, uint32_t n);
    int32_t (*run_program)(uint32_t dev, uint32_t prog);
    // A buffer's TensorAccessorArgs words for the ArgsConfig bits `config`: its compile-time words, then its
    // common runtime words, up to cap into out; the two counts into n_ct and n_crta.
    int32_t (*accessor_args)(uint32_t buf, uint32_t config, uint32_t* out, uint32_t cap, uint32_t* n_ct,
                             uint32_t* n_crta);
    // Meshes: open a rows x cols mesh (its device ids, row-major, into out); SetFabricConfig (0 disabled,
    // 1 FABRIC_1D, 2 FABRIC_1D_RING, 3 FABRIC_2D); run the open mesh's devices together, progs[i] the
    // program of its device i or -1; a worker's fabric connection args from device src towards device dst
    // (a credit semaphore is created on core (x, y) of prog; up to cap words into out, the count into n).
    int32_t (*open_mesh)(uint32_t rows, uint32_t cols, uint32_t* out);
    int32_t (*set_fabric)(uint32_t config);
    int32_t (*run_mesh)(const int64_t* progs, uint32_t n);
    int32_t (*fabric_args)(uint32_t prog, uint32_t src, uint32_t dst, uint32_t link, uint32_t x, uint32_t y,
                           uint32_t* out, uint32_t cap, uint32_t* n);
    // TensorAccessorArgs words were appended to a compile-time args vector at `offset` (tensim recognises
    // kernels written for the older one-word layout by these positions).
    int32_t (*accessor_appended)(uint32_t offset, const uint32_t* words, uint32_t n);
    // UpdateCircularBufferPageSize: the page size of one buffer index of a program's circular buffer.
    int32_t (*update_cb_page_size)(uint32_t prog, uint32_t cb, uint32_t index, uint32_t page_size);
    // A region of a buffer (BufferRegion: offset and size in bytes, host page order): write != 0 from data
    // into the buffer, else from the buffer into data.
    int32_t (*buffer_region)(uint32_t buf, uint64_t offset, void* data, uint64_t size, uint32_t write);
};
}

#define TENSIM_DEV_ARCH 0           // 0 Grayskull, 1 Wormhole B0, 2 Blackhole
#define TENSIM_DEV_COMPUTE_GRID 1   // x in the low 32 bits, y in the high
#define TENSIM_DEV_LOGICAL_GRID 2
#define TENSIM_DEV_NOC_GRID 3
#define TENSIM_DEV_WORKER_XY 4      // of logical (a, b)
#define TENSIM_DEV_DRAM_CHANNELS 5
#define TENSIM_DEV_L1_SIZE 6
#define TENSIM_DEV_DRAM_ALIGNMENT 7
#define TENSIM_DEV_L1_ALIGNMENT 8
#define TENSIM_DEV_ID 9
#define TENSIM_DEV_DRAM_GRID 10
#define TENSIM_DEV_ETH_XY 11        // of channel a
#define TENSIM_DEV_ETH_CHANNELS 12
#define TENSIM_DEV_ETH_PEER 13      // of channel a: (device id, channel), all ones when not linked
// The allocator of DRAM (a = 0) or L1 (a = 1), per bank.
#define TENSIM_DEV_NUM_BANKS 14
#define TENSIM_DEV_BANK_SIZE 15
#define TENSIM_DEV_ALLOC_BASE 16
#define TENSIM_DEV_ALLOCATED 17
#define TENSIM_DEV_FREE 18
#define TENSIM_DEV_LARGEST_FREE 19

#define TENSIM_BUF_ADDRESS 0
#define TENSIM_BUF_SIZE 1
#define TENSIM_BUF_PAGE_SIZE 2
#define TENSIM_BUF_ALIGNED_PAGE_SIZE 3
#define TENSIM_BUF_TYPE 4           // 0 DRAM, 1 L1
#define TENSIM_BUF_LAYOUT 5
#define TENSIM_BUF_NUM_BANKS 6
#define TENSIM_BUF_DEVICE 7

namespace tensim {
// Set by the entry point before the host program's main runs.
inline const tensim_host_api* host_api = nullptr;
}  // namespace tensim
