// tilesim/spec/spec.hpp: everything in spec/, in reading order.
//
//   config, multi_index, math, rules   the vocabulary: index type, host+device macro, parameter rules
//   transform + transforms/*           one coordinate transform per file (upper -> lower index maps)
//   adaptor, coordinate, descriptor    transforms wired into chains, evaluated and moved
//   layouts/*                          named LDS layouts built from the above (CK XOR, CuTe swizzle, Morton)
#pragma once

#include "spec/config.hpp"
#include "spec/math.hpp"
#include "spec/multi_index.hpp"
#include "spec/rules.hpp"
#include "spec/transform.hpp"
#include "spec/transforms/cyclic_shift.hpp"
#include "spec/transforms/embed.hpp"
#include "spec/transforms/freeze.hpp"
#include "spec/transforms/insert.hpp"
#include "spec/transforms/merge.hpp"
#include "spec/transforms/modulo.hpp"
#include "spec/transforms/morton.hpp"
#include "spec/transforms/offset.hpp"
#include "spec/transforms/pad.hpp"
#include "spec/transforms/pass_through.hpp"
#include "spec/transforms/replicate.hpp"
#include "spec/transforms/slice.hpp"
#include "spec/transforms/swizzle.hpp"
#include "spec/transforms/unmerge.hpp"
#include "spec/transforms/xor.hpp"
#include "spec/adaptor.hpp"
#include "spec/coordinate.hpp"
#include "spec/descriptor.hpp"
#include "spec/layouts/ck_lds_xor.hpp"
#include "spec/layouts/cute_swizzle.hpp"
#include "spec/layouts/morton.hpp"
#include "spec/layouts/row_major.hpp"
#include "spec/distribution/encoding.hpp"
#include "spec/distribution/space_filling_curve.hpp"
#include "spec/distribution/ps_ys_to_xs.hpp"
#include "spec/distribution/distributed_tensor.hpp"
#include "spec/window/load_store_traits.hpp"
#include "spec/window/tensor_view.hpp"
#include "spec/window/tile_window.hpp"
