// tilesim/sim/engine/thread_context.cpp: ids, barriers, labels and buffer lookup of a simulated thread.
#include "sim/engine/thread_context.hpp"

#include <cstring>

#include "sim/engine/internal/block_state.hpp"

namespace tilesim::sim {

index_t thread_context::block_size() const { return state_->config->block; }
index_t thread_context::grid_size() const { return state_->config->grid; }
index_t thread_context::warp_size() const { return state_->config->wave_size; }

void thread_context::barrier(const char* file, int line) {
  if (cancelled_) throw detail::fiber_cancelled{};
  barrier_file_ = file ? file : "";
  barrier_line_ = line;
  close_alu_interval();
  status_ = status::at_barrier;
  state_->fibers->suspend();
  if (cancelled_) throw detail::fiber_cancelled{};
  ++interval_;
  if (!in_flight_.empty()) touch_in_flight();
}

void thread_context::label(const char* name) { label_ = state_->labels.intern(name); }

std::uint64_t thread_context::exchange(shuffle_kind kind, std::uint64_t value, index_t operand, int bytes) {
  if (cancelled_) throw detail::fiber_cancelled{};
  shuffle_ = {kind, value, operand, bytes, 0};
  note_alu(static_cast<int>(alu_op::shuffle), 1);
  status_ = status::at_shuffle;
  state_->fibers->suspend();
  if (cancelled_) throw detail::fiber_cancelled{};
  return shuffle_.result;
}

mma_m16n8k16_c thread_context::mma(const mma_m16n8k16_a& a, const mma_m16n8k16_b& b, const mma_m16n8k16_c& c) {
  return exchange_mma(a, b, c, false);
}

mma_m16n8k16_c thread_context::mma_bf16(const mma_m16n8k16_a& a, const mma_m16n8k16_b& b, const mma_m16n8k16_c& c) {
  return exchange_mma(a, b, c, true);
}

mma_m16n8k16_c thread_context::exchange_mma(const mma_m16n8k16_a& a, const mma_m16n8k16_b& b, const mma_m16n8k16_c& c,
                                            bool bf16) {
  if (cancelled_) throw detail::fiber_cancelled{};
  shuffle_ = {};
  shuffle_.mma = true;
  shuffle_.bf16 = bf16;
  for (int k = 0; k < 4; ++k) shuffle_.row[k] = a.r[k], shuffle_.c[k] = c.r[k];
  for (int k = 0; k < 2; ++k) shuffle_.b[k] = b.r[k];
  note_alu(static_cast<int>(alu_op::matrix), 1);
  status_ = status::at_shuffle;
  state_->fibers->suspend();
  if (cancelled_) throw detail::fiber_cancelled{};
  mma_m16n8k16_c d;
  for (int k = 0; k < 4; ++k) std::memcpy(&d.r[k], &shuffle_.words[k], 4);
  return d;
}

void thread_context::exchange_mfma(mfma_shape shape, const mfma_f16_operand& a, const mfma_f16_operand& b,
                                   const float* c, float* d) {
  if (cancelled_) throw detail::fiber_cancelled{};
  shuffle_ = {};
  shuffle_.mfma = shape;
  for (int k = 0; k < 2; ++k) shuffle_.row[k] = a.r[k], shuffle_.b[k] = b.r[k];
  for (int k = 0; k < mfma_c_count(shape); ++k) shuffle_.c[k] = c[k];
  note_alu(static_cast<int>(alu_op::matrix), mfma_matrix_units(shape));
  status_ = status::at_shuffle;
  state_->fibers->suspend();
  if (cancelled_) throw detail::fiber_cancelled{};
  for (int k = 0; k < mfma_c_count(shape); ++k) std::memcpy(&d[k], &shuffle_.words[k], 4);
}

mfma_32x32x8_c thread_context::mfma_32x32x8(const mfma_f16_operand& a, const mfma_f16_operand& b, const mfma_32x32x8_c& c) {
  mfma_32x32x8_c d;
  exchange_mfma(mfma_shape::f32_32x32x8_f16, a, b, c.r, d.r);
  return d;
}

mfma_16x16x16_c thread_context::mfma_16x16x16(const mfma_f16_operand& a, const mfma_f16_operand& b,
                                              const mfma_16x16x16_c& c) {
  mfma_16x16x16_c d;
  exchange_mfma(mfma_shape::f32_16x16x16_f16, a, b, c.r, d.r);
  return d;
}

void thread_context::collect_matrix(const std::uint32_t* row, int matrices, bool trans, std::uint32_t* out) {
  if (cancelled_) throw detail::fiber_cancelled{};
  shuffle_ = {};
  shuffle_.matrices = matrices;
  shuffle_.trans = trans;
  for (int k = 0; k < 4; ++k) shuffle_.row[k] = row[k];
  status_ = status::at_shuffle;
  state_->fibers->suspend();
  if (cancelled_) throw detail::fiber_cancelled{};
  for (int i = 0; i < matrices; ++i) out[i] = shuffle_.words[i];
}

void thread_context::scatter_matrix(const std::uint32_t* registers, int matrices, bool trans, std::uint32_t* row) {
  if (cancelled_) throw detail::fiber_cancelled{};
  shuffle_ = {};
  shuffle_.matrices = matrices;
  shuffle_.trans = trans;
  shuffle_.matrix_store = true;
  for (int i = 0; i < matrices; ++i) shuffle_.words[i] = registers[i];
  status_ = status::at_shuffle;
  state_->fibers->suspend();
  if (cancelled_) throw detail::fiber_cancelled{};
  for (int k = 0; k < 4; ++k) row[k] = shuffle_.row[k];
}

detail::window_memo& thread_context::window_memo() {
  state_->windows.enter(state_->block);
  return state_->windows;
}

buffer_ref thread_context::global_ref(int slot, type_key type, name_function type_name, void** data) {
  global_memory& m = *state_->memory;
  if (slot < 0 || slot >= m.size())
    throw program_usage_error("ctx.global(" + std::to_string(slot) + "): there are " + std::to_string(m.size()) +
                              " global buffers (slots 0-" + std::to_string(m.size() - 1) + ")");
  const global_buffer_info& info = m.info(slot);
  if (info.type != type)
    throw program_usage_error("ctx.global<" + type_name() + ">(" + std::to_string(slot) + "): global buffer " +
                              std::to_string(slot) + " ('" + info.name + "') holds " + info.type_name);
  *data = m.data(slot);
  return {memory_space::global, slot, info.base, info.count, static_cast<index_t>(info.element_bytes)};
}

buffer_ref thread_context::lds_ref(index_t count, type_key type, name_function type_name, std::size_t element_bytes,
                                   std::size_t alignment, void** data) {
  detail::block_state& s = *state_;
  const int index = lds_calls_++;
  auto call = [&] { return "ctx.lds<" + type_name() + ">(" + std::to_string(count) + ")"; };
  if (index < static_cast<int>(s.lds.size())) {  // another thread made it: it must be the same request
    const detail::lds_slot& a = s.lds[static_cast<std::size_t>(index)];
    if (a.type != type || a.info.count != count)
      throw program_usage_error(call() + " is LDS allocation " + std::to_string(index) +
                                ", which another thread made as " + std::to_string(a.info.count) + " " +
                                a.info.type_name + " elements");
    *data = s.lds_storage.get() + a.info.offset;
    return {memory_space::lds, index, a.info.offset, count, static_cast<index_t>(element_bytes)};
  }
  const std::size_t align = alignment > 16 ? alignment : 16;
  const std::size_t offset = (s.lds_used + align - 1) / align * align;
  const std::size_t room = s.config->max_lds_bytes > offset ? s.config->max_lds_bytes - offset : 0;
  if (count < 0 || static_cast<std::size_t>(count) > room / element_bytes)
    throw program_usage_error(call() + " needs " + std::to_string(count) + " elements of " +
                              std::to_string(element_bytes) + " bytes at LDS offset " + std::to_string(offset) +
                              ", but launch::max_lds_bytes is " + std::to_string(s.config->max_lds_bytes));
  detail::lds_slot a;
  a.type = type;
  a.info = {index, type_name(), element_bytes, count, offset};
  s.lds_used = offset + static_cast<std::size_t>(count) * element_bytes;
  s.lds.push_back(a);
  s.record->lds.push_back(a.info);
  s.record->lds_bytes = s.lds_used;
  *data = s.lds_storage.get() + offset;
  std::memset(*data, 0, static_cast<std::size_t>(count) * element_bytes);  // zero-filled when created
  return {memory_space::lds, index, offset, count, static_cast<index_t>(element_bytes)};
}

}  // namespace tilesim::sim
