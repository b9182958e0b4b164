// Two RISCs of one core hand off through L1 pointers only. WRITER (NCRISC) stores 100 words and then a
// flag; the other (BRISC) spins on the flag with plain loads, then copies the words to arg 1.
// Runtime args: L1 address of the words (the flag follows them), L1 address of the copy.
#include <cstdint>

void kernel_main() {
    volatile tt_l1_ptr uint32_t* words = reinterpret_cast<volatile tt_l1_ptr uint32_t*>(get_arg_val<uint32_t>(0));
#ifdef WRITER
    for (uint32_t i = 0; i < 100; i++) words[i] = 3 * i + 1;
    words[100] = 7;
#else
    volatile tt_l1_ptr uint32_t* copy = reinterpret_cast<volatile tt_l1_ptr uint32_t*>(get_arg_val<uint32_t>(1));
    while (words[100] != 7) {
    }
    for (uint32_t i = 0; i < 100; i++) copy[i] = words[i];
#endif
}
