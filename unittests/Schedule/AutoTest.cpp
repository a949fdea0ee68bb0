// Tests for the Auto part of the schedule library.

#include "pp/Schedule/Schedule.h"

#include "gtest/gtest.h"
