// Writes a word 16 bytes past the end of this core's L1.
#include <cstdint>
void kernel_main() {
    volatile uint32_t* p = reinterpret_cast<volatile uint32_t*>(uintptr_t(1499136 + 16));
    *p = 1;
}
