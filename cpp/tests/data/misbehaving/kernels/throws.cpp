// Throws a std::runtime_error out of kernel_main.
#include <stdexcept>
void kernel_main() {
    if (get_arg_val<uint32_t>(0) == 0) throw std::runtime_error("the tile count is wrong");
}
