/* Fused bias + GELU (tanh form) for tensorvm's opencl target.
 *
 * One work-group per row (get_group_id(0)); its work-items stride over the
 * row's columns.  Arguments: the bindings as pointers, inputs then outputs.
 * N is a compile-time constant here: tensorvm passes no lengths to GPU kernels. */
#define BIAS_GELU_N 64
void bias_gelu(__global const float* h, __global const float* b, __global float* y) {
  const long row = get_group_id(0);
  for (long j = get_local_id(0); j < BIAS_GELU_N; j += get_local_size(0)) {
    const float x = h[row * BIAS_GELU_N + j] + b[j];
    const float inner = 0.7978845608f * (x + 0.044715f * x * x * x);
    y[row * BIAS_GELU_N + j] = 0.5f * x * (1.0f + tanh(inner));
  }
}
