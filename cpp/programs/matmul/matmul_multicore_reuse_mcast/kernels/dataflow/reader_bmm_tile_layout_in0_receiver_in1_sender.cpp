// Reader of tensim's matmul_multicore_reuse_mcast program for cores where A is received and
// B is read and multicast (see reader_bmm_tile_layout_mcast.hpp).
#include "reader_bmm_tile_layout_mcast.hpp"

void kernel_main() { mcast_reader::run<false, true>(); }
