// tensim: the older spelling of umd/device/types/xy_pair.hpp.
#pragma once
#include "umd/device/types/xy_pair.hpp"
