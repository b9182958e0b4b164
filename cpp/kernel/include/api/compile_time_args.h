// tensim: get_compile_time_arg_val and get_named_compile_time_arg_val (api/compile_time_args.h).
#pragma once
#include "tensim/common.h"
