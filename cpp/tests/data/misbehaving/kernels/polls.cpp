// Polls an L1 word (in its CB) that nothing will ever write.
void kernel_main() {
    volatile uint32_t* flag = reinterpret_cast<volatile uint32_t*>(get_write_ptr(tt::CBIndex::c_0));
    *flag = 0;
    while (*flag != 7) {
    }
}
