// Copies 64 words of 64 bytes each from one L1 area of a peer core to its own L1 and back to another area of
// the peer, 64 bytes per NoC command. WITH_STATE uses *_one_packet_set_state once and *_with_state calls;
// otherwise plain one-packet reads and writes. TRID tags the writes with id 3 and waits on that id at the end.
// Runtime args: peer NoC x, y, peer source address, local scratch, peer destination address.
#include <cstdint>

void kernel_main() {
    uint32_t x = get_arg_val<uint32_t>(0), y = get_arg_val<uint32_t>(1);
    uint32_t src = get_arg_val<uint32_t>(2), local = get_arg_val<uint32_t>(3), dst = get_arg_val<uint32_t>(4);
#ifdef TRID
    noc_async_write_set_trid(3);
#endif
#ifdef WITH_STATE
    noc_async_read_one_packet_set_state(get_noc_addr(x, y, src), 64);
    for (uint32_t i = 0; i < 64; i++) noc_async_read_one_packet_with_state(src + 64 * i, local + 64 * i);
    noc_async_read_barrier();
    noc_async_write_one_packet_set_state(get_noc_addr(x, y, dst), 64);
    for (uint32_t i = 0; i < 64; i++) noc_async_write_one_packet_with_state(local + 64 * i, dst + 64 * i);
#else
    for (uint32_t i = 0; i < 64; i++) noc_async_read_one_packet(get_noc_addr(x, y, src + 64 * i), local + 64 * i, 64);
    noc_async_read_barrier();
    for (uint32_t i = 0; i < 64; i++) noc_async_write_one_packet(local + 64 * i, get_noc_addr(x, y, dst + 64 * i), 64);
#endif
#ifdef TRID
    noc_async_write_barrier_with_trid(3);
#else
    noc_async_write_barrier();
#endif
}
