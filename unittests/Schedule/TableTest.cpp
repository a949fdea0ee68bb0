// Tests for the Table part of the schedule library.

#include "pp/Schedule/Schedule.h"

#include "gtest/gtest.h"
