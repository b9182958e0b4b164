// tensim's kernel ABI: the table of calls through which a C++ kernel compiled against tensim's headers
// reaches tensim's Rust kernel API. Written for tensim; the Rust side is cpp/src/abi/, and the two must list
// the same members in the same order with the same types: cpp/build.rs turns this struct into compile-time
// checks of the Rust table, and TENSIM_ABI_VERSION guards compiled objects. The contract is cpp/ABI.md.
#pragma once
#include <cstdint>

#define TENSIM_ABI_VERSION 10

extern "C" {
struct tensim_api {
    uint32_t version;
    // Arguments and prints (every kernel kind). dprint: a print statement's text; lines end at its newlines.
    uint32_t (*arg)(uint32_t idx);
    uint32_t (*common_arg)(uint32_t idx);
    void (*dprint)(const char* text, uint32_t len);
    void (*zone)(const char* name, uint32_t begin);
    // Circular buffers: op 0 reserve_back, 1 push_back, 2 wait_front, 3 pop_front.
    void (*cb)(uint32_t op, uint32_t cb, uint32_t pages);
    // Queries: 0 write ptr, 1 read ptr, 2 tile size, 3 data format, 4 tile hw, 5 faces, 6 pages
    // reservable at back, 7 pages available at front (arg2 = pages), 8 my_x(noc=arg1), 9 my_y(noc),
    // 10 logical x, 11 logical y, 12 semaphore address (arg1 = id), 15 runtime arg address (arg1 = idx),
    // 16 common runtime arg address.
    uint32_t (*query)(uint32_t what, uint32_t arg1, uint32_t arg2);
    // NoC addresses.
    uint64_t (*noc_addr_xy)(uint32_t x, uint32_t y, uint32_t addr, uint32_t noc);
    uint64_t (*noc_addr_bank)(uint32_t dram, uint32_t bank, uint32_t offset, uint32_t noc);
    // gen: 0 InterleavedAddrGen, 1 InterleavedAddrGenFast.
    uint64_t (*noc_addr_page)(uint32_t gen, uint32_t dram, uint32_t base, uint32_t page_size, uint32_t format,
                              uint32_t id, uint32_t offset, uint32_t noc);
    uint64_t (*noc_addr_mcast)(uint32_t xs, uint32_t ys, uint32_t xe, uint32_t ye, uint32_t addr, uint32_t noc);
    // Transfers.
    void (*read)(uint64_t src, uint32_t dst_l1, uint32_t size, uint32_t noc);
    void (*write)(uint32_t src_l1, uint64_t dst, uint32_t size, uint32_t noc, uint32_t posted);
    // write_page: size 0 = the generator's page size; flags = noc | posted << 1 | byte offset << 8.
    void (*read_page)(uint32_t gen, uint32_t dram, uint32_t base, uint32_t page_size, uint32_t format, uint32_t id,
                      uint32_t l1, uint32_t offset, uint32_t noc);
    void (*write_page)(uint32_t gen, uint32_t dram, uint32_t base, uint32_t page_size, uint32_t format, uint32_t id,
                       uint32_t l1, uint32_t size, uint32_t flags);
    void (*write_mcast)(uint32_t src_l1, uint64_t dst, uint32_t size, uint32_t num_dests, uint32_t linked,
                        uint32_t loopback, uint32_t noc);
    // which: 0 read, 1 write, 2 writes flushed, 3 posted writes flushed, 4 atomic, 5 full.
    void (*barrier)(uint32_t which, uint32_t noc);
    // Semaphores: wait (min != 0: until >= val), set, remote increment, remote set, multicast set.
    void (*sem_wait)(uint32_t addr, uint32_t val, uint32_t min);
    void (*sem_set)(uint32_t addr, uint32_t val);
    void (*sem_inc)(uint64_t addr, uint32_t incr, uint32_t flags);  // noc | posted << 8 | vc << 16
    void (*sem_set_remote)(uint32_t src_l1, uint64_t dst, uint32_t noc);
    void (*sem_set_mcast)(uint32_t src_l1, uint64_t dst, uint32_t num_dests, uint32_t linked, uint32_t loopback,
                          uint32_t noc);
    void (*inline_write)(uint64_t addr, uint32_t val, uint32_t flags);  // noc | be << 8 | posted << 16 | vc << 24
    // Compute: one entry, an operation code (tensim/compute_ops.h) and up to six operands.
    void (*compute)(uint32_t op, uint32_t a, uint32_t b, uint32_t c, uint32_t d, uint32_t e, uint32_t f);
    // TensorAccessor: described by `desc` (its compile-time offset in today's layout in the low 16 bits, its
    // common runtime-arg offset above), base address and page size (0: the aligned page size of the args).
    // shard != 0: the NoC address of shard `id` instead of page `id`. ta_write size 0 = the page size.
    uint64_t (*ta_noc_addr)(uint32_t cta, uint32_t base, uint32_t page, uint32_t id, uint32_t offset, uint32_t noc,
                            uint32_t shard);
    void (*ta_read)(uint32_t cta, uint32_t base, uint32_t page, uint32_t id, uint32_t l1, uint32_t offset,
                    uint32_t noc);
    void (*ta_write)(uint32_t cta, uint32_t base, uint32_t page, uint32_t id, uint32_t l1, uint32_t size,
                     uint32_t noc);
    // SFPI (tensim/sfpi.h): 0 open (a = wrapper, b = start tile; returns the lanes, 0 when not MATH),
    // 1 seek (a = tile, b = face), 2 load dst_reg[a] into data, 3 store floats / 4 store integer bits from
    // data to dst_reg[a] on the lanes of mask (a byte per lane, null = all), 5 dst_reg++, 6 close (b =
    // instructions counted). data and mask hold 64 lanes.
    uint32_t (*sfpi)(uint32_t op, int32_t a, uint32_t b, float* data, const uint8_t* mask);
    // L1 pointers (tensim/l1_access.h): the core's L1 size; a load (store 0) or store of `bytes` at `addr`
    // through an L1 pointer, about to happen. Non-zero: the kernel must stop (the run ended while it
    // waited): the hook jumps back to the entry, since nothing may unwind through a sanitizer hook's caller.
    uint32_t (*l1_size)();
    uint32_t (*l1_access)(uint32_t addr, uint32_t bytes, uint32_t store);
    // DPRINT tile slices (tensim/dprint.h): the text of TSLICE(cb, tile, range) into `out` (at most `cap`
    // bytes); returns its full length. `range` packs h0, h1, hs, w0, w1, ws a byte each from the lowest;
    // `flags`: bit 0 write pointer, bit 1 endl_rows, bit 2 untilized, bits 8.. the precision.
    uint32_t (*tile_slice)(uint32_t cb, uint32_t tile, uint64_t range, uint32_t flags, char* out, uint32_t cap);
    // DeviceTimestampedData(name, data) / DeviceRecordEvent(id).
    void (*timestamped_data)(const char* name, uint64_t data);
    // Command-buffer state and transaction ids (dataflow_api.h): op 0-5 the read/write set_state and
    // with_state calls, 6 set a trid (b: 0 read, 1 write), 7-9 the read barrier, write barrier and write flush with a trid, 10-11
    // the one-packet write with_trid_set_state / with_trid_with_state (addr: size | trid << 32), 12 the
    // multicast semaphore increment (addr: the multicast address, a: the increment, b: destinations), 13
    // zero L1 by a NoC read of zeros (a: the address, b: bytes, c: the NoC).
    void (*noc_state)(uint32_t op, uint64_t addr, uint32_t a, uint32_t b, uint32_t c);
    // Ethernet dataflow API of ERISC kernels (tensim/eth.h lists the ops).
    uint32_t (*eth)(uint32_t op, uint32_t a, uint32_t b, uint32_t c, uint32_t d, uint32_t e);
    // Fabric API of worker kernels (tensim/fabric.h lists the ops): conn is the connection's argument words
    // and packets written, updated by the call; p the op's operands.
    uint32_t (*fabric)(uint32_t op, uint32_t* conn, const uint64_t* p);
    // TensorAccessor distribution queries (tensim/accessor.h): what 0 bank << 32 | page offset in the bank
    // of page id; 1 the page in slot `extra` of shard id; 2 tensor pages; 3 shards; 4 pages of a shard.
    // All ones where there is none (padding, past the end, interleaved).
    uint64_t (*ta_info)(uint32_t desc, uint32_t what, uint32_t id, uint32_t extra);
    // The NoC coordinates x | y << 16 a unicast address names.
    uint32_t (*noc_xy)(uint64_t addr);
    // End the kernel with an error (a misuse the headers detect, or an exception the kernel threw).
    void (*fail)(const char* text);
    // The DPRINT stream's sticky format state of this RISC (tensim/dprint.h): stores `value` first when
    // `set` != 0; returns the stored word (0 until stored).
    uint32_t (*dprint_state)(uint32_t set, uint32_t value);
    // The running kernel's exit jump (tensim/kernel_entry.h): stores `set` when not null; returns the one
    // stored for this kernel (null until stored). Kept per kernel: kernels of one object run interleaved.
    void* (*exit_jump)(void* set);
    // A unicast write on static VC number `vc` (0..=3): `noc_async_write(…, noc, vc)`.
    void (*write_vc)(uint32_t src_l1, uint64_t dst, uint32_t size, uint32_t noc, uint32_t posted, uint32_t vc);
};
}

namespace tensim {
// Set by the entry point before the kernel runs; the same table serves every core.
inline const tensim_api* api = nullptr;
// End the kernel with an error message (tensim names the kernel, core and RISC).
[[noreturn]] inline void fail(const char* text) {
    api->fail(text);
    __builtin_unreachable();
}
}  // namespace tensim
