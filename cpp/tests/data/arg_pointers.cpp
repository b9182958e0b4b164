// Reads its runtime args through get_arg_addr / get_common_arg_addr pointers (as generated kernels do) and
// stores, at the L1 address in unique arg 0, the sum of unique args 1..3 and common args 0..1 and the
// address of unique arg 0.
#include <cstdint>

void kernel_main() {
    tt_l1_ptr uint32_t* args = reinterpret_cast<tt_l1_ptr uint32_t*>(get_arg_addr(0));
    tt_l1_ptr uint32_t* common = reinterpret_cast<tt_l1_ptr uint32_t*>(get_common_arg_addr(0));
    volatile tt_l1_ptr uint32_t* out = reinterpret_cast<volatile tt_l1_ptr uint32_t*>(args[0]);
    out[0] = args[1] + args[2] + args[3] + common[0] + common[1];
    out[1] = get_arg_addr(0);
    out[2] = get_arg_val<uint32_t>(2) == args[2];
}
