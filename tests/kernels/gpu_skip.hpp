// GTEST_SKIP with the reason when there is nothing to run on (no CUDA build, no device).
#pragma once

#include <gtest/gtest.h>

#include "kernels/kernels.hpp"

#define TILESIM_SKIP_WITHOUT_GPU()                                            \
  do {                                                                        \
    const auto dev_ = ::tilesim::kernels::query_device();                     \
    if (!dev_.available) GTEST_SKIP() << "no GPU to run on: " << dev_.reason; \
  } while (0)
