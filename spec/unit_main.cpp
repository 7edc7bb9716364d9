// The doctest entry point of the spec/ unit suite; the cases live beside the headers they test (*.test.cpp).
#define DOCTEST_CONFIG_IMPLEMENT_WITH_MAIN
#include <doctest/doctest.h>
