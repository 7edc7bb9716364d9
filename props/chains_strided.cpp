// tilesim/props/chains_strided.cpp: a strided base, a linear layer, then a permuting or reshaping layer: the CK
// convolution pattern (pad or slice the tensor, then merge and split its dims). 5 x 5 chain types.
#include "props/chain_layers.hpp"

namespace tilesim::props {

any_descriptor grow_strided_chain(family f) {
  using namespace layers;
  using mixing_slot = slot<keep_layer, xor_layer, rotation_layer<cyclic_shift>, reshape_layer, flat_swizzle_layer>;
  return grow_from_strided_base(f, linear_slot{}, mixing_slot{});
}

}  // namespace tilesim::props
