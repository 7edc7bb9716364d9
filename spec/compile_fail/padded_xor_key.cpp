// A row key that would move a column out of its row (4 << 0 is not below cols = 4) stops at the rule's function.
// expect: padded_xor_key_out_of_range
#include "spec/spec.hpp"

constexpr auto d = tilesim::make_padded_xor_descriptor(4, 4, 1, 0, tilesim::row_xor_keys{2, {1, 4}});
