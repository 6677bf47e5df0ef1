/* Fused bias + GELU (tanh form) for tensorvm's cpu target.
 *
 * custom_call @bias_gelu(h: tensor<BxNxf32>, b: tensor<Nxf32>) -> tensor<BxNxf32>
 * One workgroup per row (workgroups = "out0[0]"); the runtime hands each
 * worker a range [wg_begin, wg_end) of rows.  Bindings: inputs, then outputs.
 * N comes from the byte length of the bias binding, so one source serves
 * every width. */
static int bias_gelu(const tvm_dispatch_state_t* st, uint32_t wg_begin, uint32_t wg_end) {
  const float* h = (const float*)st->bindings[0];
  const float* b = (const float*)st->bindings[1];
  float* y = (float*)st->bindings[2];
  const int64_t n = (int64_t)(st->binding_lengths[1] / sizeof(float));
  for (uint32_t row = wg_begin; row < wg_end; ++row) {
    const float* hr = h + (int64_t)row * n;
    float* yr = y + (int64_t)row * n;
    for (int64_t j = 0; j < n; ++j) {
      const float x = hr[j] + b[j];
      const float inner = 0.7978845608f * (x + 0.044715f * x * x * x);
      yr[j] = 0.5f * x * (1.0f + tanhf(inner));
    }
  }
  return 0;
}
