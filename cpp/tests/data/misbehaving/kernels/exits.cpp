// Calls exit(2) from a kernel.
#include <cstdlib>
void kernel_main() {
    if (get_arg_val<uint32_t>(0) == 0) std::exit(2);
}
