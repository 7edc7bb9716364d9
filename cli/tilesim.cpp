// Placeholder: replaced by the `tilesim layout` command.
#include <cstdio>
int main() { std::puts("tilesim"); return 0; }
