// Umbrella header for the simulator library: include what you use where you can.
#pragma once
#include "sim/footprint.hpp"
#include "sim/launch_order.hpp"
#include "sim/listing.hpp"
#include "sim/problem.hpp"
#include "sim/program_trace.hpp"
