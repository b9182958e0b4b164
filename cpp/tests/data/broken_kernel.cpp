// A kernel with a mistake on line 5, for the compile-error test.
#include <cstdint>

void kernel_main() {
    uint32_t n = get_arg_val<uint32_t>(0) + undeclared_name;
    (void)n;
}
