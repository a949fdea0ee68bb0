// Tests for the VShape part of the schedule library.

#include "pp/Schedule/Schedule.h"

#include "gtest/gtest.h"
