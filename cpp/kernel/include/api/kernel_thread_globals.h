// tensim: get_my_thread_id() / get_num_threads() (api/kernel_thread_globals.h) live with the accessor.
#pragma once
#include "api/dataflow/dataflow_api.h"
