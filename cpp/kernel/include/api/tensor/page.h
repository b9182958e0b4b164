// tensim: tensor_accessor::Page and the page walks (api/tensor/page.h) live with the accessor.
#pragma once
#include "api/dataflow/dataflow_api.h"
