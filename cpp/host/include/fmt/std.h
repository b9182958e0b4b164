// tensim: the {fmt} subset TT-Metalium programs use.
#pragma once
#include "tensim/fmt.hpp"
