// tensim's adder kernel: two 4-byte reads into L1, the sum computed through L1 pointers, one write back.
// RT args: src0, src1, dst DRAM addresses; src0, src1, dst L1 addresses.
#include <cstdint>

void kernel_main() {
    uint32_t src0_dram = get_arg_val<uint32_t>(0);
    uint32_t src1_dram = get_arg_val<uint32_t>(1);
    uint32_t dst_dram = get_arg_val<uint32_t>(2);
    uint32_t src0_l1 = get_arg_val<uint32_t>(3);
    uint32_t src1_l1 = get_arg_val<uint32_t>(4);
    uint32_t dst_l1 = get_arg_val<uint32_t>(5);
    const InterleavedAddrGen<true> src0 = {.bank_base_address = src0_dram, .page_size = 4};
    const InterleavedAddrGen<true> src1 = {.bank_base_address = src1_dram, .page_size = 4};
    const InterleavedAddrGen<true> dst = {.bank_base_address = dst_dram, .page_size = 4};
    uint64_t src0_noc = get_noc_addr(0, src0);
    uint64_t src1_noc = get_noc_addr(0, src1);
    noc_async_read(src0_noc, src0_l1, 4);
    noc_async_read(src1_noc, src1_l1, 4);
    noc_async_read_barrier();
    volatile tt_l1_ptr uint32_t* a = (volatile tt_l1_ptr uint32_t*)src0_l1;
    volatile tt_l1_ptr uint32_t* b = (volatile tt_l1_ptr uint32_t*)src1_l1;
    volatile tt_l1_ptr uint32_t* c = (volatile tt_l1_ptr uint32_t*)dst_l1;
    *c = *a + *b;
    noc_async_write(dst_l1, get_noc_addr(0, dst), 4);
    noc_async_write_barrier();
}
