// tilesim/props/chains_packed.cpp: a packed base, a permuting or reshaping layer, then a linear layer: pads,
// slices and swizzles on top of permuted or reshaped tiles. 6 x 5 + 3 x 2 chain types.
#include "props/chain_layers.hpp"

namespace tilesim::props {

any_descriptor grow_packed_chain(family f) {
  using namespace layers;
  using mixing_slot = slot<keep_layer, xor_layer, rotation_layer<inverse_cyclic_shift>, reshape_layer,
                           flat_swizzle_layer, morton_layer>;
  return grow_from_packed_base(f, mixing_slot{}, linear_slot{});
}

// Only swizzles and morton keep a guarantee without keeping offsets linear beyond it, so a pad or window above
// them is where an uncut guarantee shows: the vector law draws this shape half of the time.
any_descriptor grow_misaligned_chain(family f) {
  using namespace layers;
  return grow_from_packed_base(f, slot<swizzle_layer, flat_swizzle_layer, morton_layer>{},
                               slot<pad_layer, window_layer>{});
}

}  // namespace tilesim::props
