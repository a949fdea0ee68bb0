// Tests for the ZeroBubble part of the schedule library.

#include "pp/Schedule/Schedule.h"

#include "gtest/gtest.h"
