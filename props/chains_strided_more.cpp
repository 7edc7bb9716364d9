// tilesim/props/chains_strided_more.cpp: a strided base, a linear layer, then morton, embed, freeze, insert or
// replicate (kept apart from chains_strided.cpp so that the two compile in parallel). 5 x 6 chain types.
#include "props/chain_layers.hpp"

namespace tilesim::props {

any_descriptor grow_strided_chain_more(family f) {
  using namespace layers;
  using mixing_slot =
      slot<keep_layer, morton_layer, embed_layer, freeze_layer, broadcast_layer<insert>, broadcast_layer<replicate<1>>>;
  return grow_from_strided_base(f, linear_slot{}, mixing_slot{});
}

}  // namespace tilesim::props
