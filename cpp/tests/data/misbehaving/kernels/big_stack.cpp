// A local array of runtime arg 0 MiB: far more than a kernel thread's stack.
#include <cstring>
void kernel_main() {
    uint32_t mib = get_arg_val<uint32_t>(0);
    volatile char big[8u << 20];
    for (uint32_t i = 0; i < (mib << 20); i += 4096) big[(8u << 20) - 1 - i] = 1;
    DPRINT << "touched " << (uint32_t)big[(8u << 20) - 1] << ENDL();
}
