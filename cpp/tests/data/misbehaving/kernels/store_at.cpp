// Stores through a pointer made from runtime arg 0 (an address outside this core's L1).
void kernel_main() {
    volatile uint32_t* p = reinterpret_cast<volatile uint32_t*>(static_cast<uintptr_t>(get_arg_val<uint32_t>(0)));
    *p = 7;
}
