// Divides an integer by runtime arg 0 (zero).
void kernel_main() {
    volatile uint32_t d = get_arg_val<uint32_t>(0);
    volatile uint32_t q = 100u / d;
    DPRINT << q << ENDL();
}
