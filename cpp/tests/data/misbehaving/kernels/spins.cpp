// Spins on a local variable that nothing will ever change: no tensim call, no simulated time.
void kernel_main() {
    volatile uint32_t flag = get_arg_val<uint32_t>(0);
    while (flag == 0) {
    }
}
