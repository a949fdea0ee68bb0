// Tests for the Interleaved part of the schedule library.

#include "pp/Schedule/Schedule.h"

#include "gtest/gtest.h"
