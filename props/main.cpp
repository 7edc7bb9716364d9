// The doctest entry point of the props suite; each *.props.cpp holds the laws of one part of spec/.
#define DOCTEST_CONFIG_IMPLEMENT_WITH_MAIN
#include <doctest/doctest.h>
