// Loads through a null pointer, after one tensim call.
void kernel_main() {
    uint32_t n = get_arg_val<uint32_t>(0);
    volatile uint32_t* p = nullptr;
    DPRINT << "loaded " << p[n] << ENDL();
}
