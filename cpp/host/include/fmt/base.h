// tensim: {fmt}'s base API (fmt::print, fmt::println, fmt::format_string, fmt::format_to), from the small
// {fmt} tensim ships (tensim/fmt.hpp), which also has fmt::format and fmt::join.
#pragma once
#include "tensim/fmt.hpp"
