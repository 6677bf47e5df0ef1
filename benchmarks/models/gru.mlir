module @jit__lambda attributes {jax.uses_shape_polymorphism = false, mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<16x192xf32>, %arg1: tensor<64x192xf32>, %arg2: tensor<2x192xf32>, %arg3: tensor<64x192xf32>, %arg4: tensor<64x192xf32>, %arg5: tensor<2x192xf32>, %arg6: tensor<64x10xf32>, %arg7: tensor<10xf32>, %arg8: tensor<4x24x16xf32>) -> (tensor<4x10xf32> {jax.result_info = "result"}) {
    %c = stablehlo.constant dense<1> : tensor<i32>
    %c_0 = stablehlo.constant dense<24> : tensor<i32>
    %c_1 = stablehlo.constant dense<0> : tensor<i32>
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %0 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<4x64xf32>
    %1 = stablehlo.slice %arg2 [0:1, 0:192] : (tensor<2x192xf32>) -> tensor<1x192xf32>
    %2 = stablehlo.reshape %1 : (tensor<1x192xf32>) -> tensor<192xf32>
    %3 = stablehlo.slice %arg2 [1:2, 0:192] : (tensor<2x192xf32>) -> tensor<1x192xf32>
    %4 = stablehlo.reshape %3 : (tensor<1x192xf32>) -> tensor<192xf32>
    %5 = stablehlo.dot_general %arg8, %arg0, contracting_dims = [2] x [0] : (tensor<4x24x16xf32>, tensor<16x192xf32>) -> tensor<4x24x192xf32>
    %6 = stablehlo.broadcast_in_dim %2, dims = [2] : (tensor<192xf32>) -> tensor<1x1x192xf32>
    %7 = stablehlo.broadcast_in_dim %6, dims = [0, 1, 2] : (tensor<1x1x192xf32>) -> tensor<4x24x192xf32>
    %8 = stablehlo.add %5, %7 : tensor<4x24x192xf32>
    %9 = stablehlo.transpose %8, dims = [1, 0, 2] : (tensor<4x24x192xf32>) -> tensor<24x4x192xf32>
    %10 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<24x4x64xf32>
    %11:6 = stablehlo.while(%iterArg = %9, %iterArg_2 = %arg1, %iterArg_3 = %4, %iterArg_4 = %c_1, %iterArg_5 = %0, %iterArg_6 = %10) : tensor<24x4x192xf32>, tensor<64x192xf32>, tensor<192xf32>, tensor<i32>, tensor<4x64xf32>, tensor<24x4x64xf32>
    cond {
      %29 = stablehlo.compare LT, %iterArg_4, %c_0, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
      stablehlo.return %29 : tensor<i1>
    } do {
      %29 = func.call @dynamic_index_in_dim(%iterArg, %iterArg_4) : (tensor<24x4x192xf32>, tensor<i32>) -> tensor<4x192xf32>
      %30:2 = func.call @closed_call(%iterArg_2, %iterArg_3, %iterArg_5, %29) : (tensor<64x192xf32>, tensor<192xf32>, tensor<4x64xf32>, tensor<4x192xf32>) -> (tensor<4x64xf32>, tensor<4x64xf32>)
      %31 = func.call @dynamic_update_index_in_dim(%iterArg_6, %30#1, %iterArg_4) : (tensor<24x4x64xf32>, tensor<4x64xf32>, tensor<i32>) -> tensor<24x4x64xf32>
      %32 = stablehlo.add %iterArg_4, %c : tensor<i32>
      stablehlo.return %iterArg, %iterArg_2, %iterArg_3, %32, %30#0, %31 : tensor<24x4x192xf32>, tensor<64x192xf32>, tensor<192xf32>, tensor<i32>, tensor<4x64xf32>, tensor<24x4x64xf32>
    }
    %12 = stablehlo.transpose %11#5, dims = [1, 0, 2] : (tensor<24x4x64xf32>) -> tensor<4x24x64xf32>
    %13 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<4x64xf32>
    %14 = stablehlo.slice %arg5 [0:1, 0:192] : (tensor<2x192xf32>) -> tensor<1x192xf32>
    %15 = stablehlo.reshape %14 : (tensor<1x192xf32>) -> tensor<192xf32>
    %16 = stablehlo.slice %arg5 [1:2, 0:192] : (tensor<2x192xf32>) -> tensor<1x192xf32>
    %17 = stablehlo.reshape %16 : (tensor<1x192xf32>) -> tensor<192xf32>
    %18 = stablehlo.dot_general %12, %arg3, contracting_dims = [2] x [0] : (tensor<4x24x64xf32>, tensor<64x192xf32>) -> tensor<4x24x192xf32>
    %19 = stablehlo.broadcast_in_dim %15, dims = [2] : (tensor<192xf32>) -> tensor<1x1x192xf32>
    %20 = stablehlo.broadcast_in_dim %19, dims = [0, 1, 2] : (tensor<1x1x192xf32>) -> tensor<4x24x192xf32>
    %21 = stablehlo.add %18, %20 : tensor<4x24x192xf32>
    %22 = stablehlo.transpose %21, dims = [1, 0, 2] : (tensor<4x24x192xf32>) -> tensor<24x4x192xf32>
    %23 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<24x4x64xf32>
    %24:6 = stablehlo.while(%iterArg = %22, %iterArg_2 = %arg4, %iterArg_3 = %17, %iterArg_4 = %c_1, %iterArg_5 = %13, %iterArg_6 = %23) : tensor<24x4x192xf32>, tensor<64x192xf32>, tensor<192xf32>, tensor<i32>, tensor<4x64xf32>, tensor<24x4x64xf32>
    cond {
      %29 = stablehlo.compare LT, %iterArg_4, %c_0, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
      stablehlo.return %29 : tensor<i1>
    } do {
      %29 = func.call @dynamic_index_in_dim(%iterArg, %iterArg_4) : (tensor<24x4x192xf32>, tensor<i32>) -> tensor<4x192xf32>
      %30:2 = func.call @closed_call_0(%iterArg_2, %iterArg_3, %iterArg_5, %29) : (tensor<64x192xf32>, tensor<192xf32>, tensor<4x64xf32>, tensor<4x192xf32>) -> (tensor<4x64xf32>, tensor<4x64xf32>)
      %31 = func.call @dynamic_update_index_in_dim(%iterArg_6, %30#1, %iterArg_4) : (tensor<24x4x64xf32>, tensor<4x64xf32>, tensor<i32>) -> tensor<24x4x64xf32>
      %32 = stablehlo.add %iterArg_4, %c : tensor<i32>
      stablehlo.return %iterArg, %iterArg_2, %iterArg_3, %32, %30#0, %31 : tensor<24x4x192xf32>, tensor<64x192xf32>, tensor<192xf32>, tensor<i32>, tensor<4x64xf32>, tensor<24x4x64xf32>
    }
    %25 = stablehlo.dot_general %24#4, %arg6, contracting_dims = [1] x [0] : (tensor<4x64xf32>, tensor<64x10xf32>) -> tensor<4x10xf32>
    %26 = stablehlo.broadcast_in_dim %arg7, dims = [1] : (tensor<10xf32>) -> tensor<1x10xf32>
    %27 = stablehlo.broadcast_in_dim %26, dims = [0, 1] : (tensor<1x10xf32>) -> tensor<4x10xf32>
    %28 = stablehlo.add %25, %27 : tensor<4x10xf32>
    return %28 : tensor<4x10xf32>
  }
  func.func private @dynamic_index_in_dim(%arg0: tensor<24x4x192xf32>, %arg1: tensor<i32>) -> tensor<4x192xf32> {
    %c = stablehlo.constant dense<0> : tensor<i32>
    %0 = stablehlo.dynamic_slice %arg0, %arg1, %c, %c, sizes = [1, 4, 192] : (tensor<24x4x192xf32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<1x4x192xf32>
    %1 = stablehlo.reshape %0 : (tensor<1x4x192xf32>) -> tensor<4x192xf32>
    return %1 : tensor<4x192xf32>
  }
  func.func private @closed_call(%arg0: tensor<64x192xf32>, %arg1: tensor<192xf32>, %arg2: tensor<4x64xf32>, %arg3: tensor<4x192xf32>) -> (tensor<4x64xf32>, tensor<4x64xf32>) {
    %cst = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %0 = stablehlo.dot_general %arg2, %arg0, contracting_dims = [1] x [0] : (tensor<4x64xf32>, tensor<64x192xf32>) -> tensor<4x192xf32>
    %1 = stablehlo.broadcast_in_dim %arg1, dims = [1] : (tensor<192xf32>) -> tensor<1x192xf32>
    %2 = stablehlo.broadcast_in_dim %1, dims = [0, 1] : (tensor<1x192xf32>) -> tensor<4x192xf32>
    %3 = stablehlo.add %0, %2 : tensor<4x192xf32>
    %4 = stablehlo.slice %arg3 [0:4, 0:64] : (tensor<4x192xf32>) -> tensor<4x64xf32>
    %5 = stablehlo.slice %arg3 [0:4, 64:128] : (tensor<4x192xf32>) -> tensor<4x64xf32>
    %6 = stablehlo.slice %arg3 [0:4, 128:192] : (tensor<4x192xf32>) -> tensor<4x64xf32>
    %7 = stablehlo.slice %3 [0:4, 0:64] : (tensor<4x192xf32>) -> tensor<4x64xf32>
    %8 = stablehlo.slice %3 [0:4, 64:128] : (tensor<4x192xf32>) -> tensor<4x64xf32>
    %9 = stablehlo.slice %3 [0:4, 128:192] : (tensor<4x192xf32>) -> tensor<4x64xf32>
    %10 = stablehlo.add %4, %7 : tensor<4x64xf32>
    %11 = stablehlo.negate %10 : tensor<4x64xf32>
    %12 = stablehlo.exponential %11 : tensor<4x64xf32>
    %13 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<4x64xf32>
    %14 = stablehlo.add %13, %12 : tensor<4x64xf32>
    %15 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<4x64xf32>
    %16 = stablehlo.divide %15, %14 : tensor<4x64xf32>
    %17 = stablehlo.add %5, %8 : tensor<4x64xf32>
    %18 = stablehlo.negate %17 : tensor<4x64xf32>
    %19 = stablehlo.exponential %18 : tensor<4x64xf32>
    %20 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<4x64xf32>
    %21 = stablehlo.add %20, %19 : tensor<4x64xf32>
    %22 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<4x64xf32>
    %23 = stablehlo.divide %22, %21 : tensor<4x64xf32>
    %24 = stablehlo.multiply %23, %9 : tensor<4x64xf32>
    %25 = stablehlo.add %6, %24 : tensor<4x64xf32>
    %26 = stablehlo.tanh %25 : tensor<4x64xf32>
    %27 = stablehlo.multiply %16, %arg2 : tensor<4x64xf32>
    %28 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<4x64xf32>
    %29 = stablehlo.subtract %28, %16 : tensor<4x64xf32>
    %30 = stablehlo.multiply %29, %26 : tensor<4x64xf32>
    %31 = stablehlo.add %27, %30 : tensor<4x64xf32>
    return %31, %31 : tensor<4x64xf32>, tensor<4x64xf32>
  }
  func.func private @dynamic_update_index_in_dim(%arg0: tensor<24x4x64xf32>, %arg1: tensor<4x64xf32>, %arg2: tensor<i32>) -> tensor<24x4x64xf32> {
    %c = stablehlo.constant dense<0> : tensor<i32>
    %0 = stablehlo.broadcast_in_dim %arg1, dims = [1, 2] : (tensor<4x64xf32>) -> tensor<1x4x64xf32>
    %1 = stablehlo.dynamic_update_slice %arg0, %0, %arg2, %c, %c : (tensor<24x4x64xf32>, tensor<1x4x64xf32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<24x4x64xf32>
    return %1 : tensor<24x4x64xf32>
  }
  func.func private @closed_call_0(%arg0: tensor<64x192xf32>, %arg1: tensor<192xf32>, %arg2: tensor<4x64xf32>, %arg3: tensor<4x192xf32>) -> (tensor<4x64xf32>, tensor<4x64xf32>) {
    %cst = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %0 = stablehlo.dot_general %arg2, %arg0, contracting_dims = [1] x [0] : (tensor<4x64xf32>, tensor<64x192xf32>) -> tensor<4x192xf32>
    %1 = stablehlo.broadcast_in_dim %arg1, dims = [1] : (tensor<192xf32>) -> tensor<1x192xf32>
    %2 = stablehlo.broadcast_in_dim %1, dims = [0, 1] : (tensor<1x192xf32>) -> tensor<4x192xf32>
    %3 = stablehlo.add %0, %2 : tensor<4x192xf32>
    %4 = stablehlo.slice %arg3 [0:4, 0:64] : (tensor<4x192xf32>) -> tensor<4x64xf32>
    %5 = stablehlo.slice %arg3 [0:4, 64:128] : (tensor<4x192xf32>) -> tensor<4x64xf32>
    %6 = stablehlo.slice %arg3 [0:4, 128:192] : (tensor<4x192xf32>) -> tensor<4x64xf32>
    %7 = stablehlo.slice %3 [0:4, 0:64] : (tensor<4x192xf32>) -> tensor<4x64xf32>
    %8 = stablehlo.slice %3 [0:4, 64:128] : (tensor<4x192xf32>) -> tensor<4x64xf32>
    %9 = stablehlo.slice %3 [0:4, 128:192] : (tensor<4x192xf32>) -> tensor<4x64xf32>
    %10 = stablehlo.add %4, %7 : tensor<4x64xf32>
    %11 = stablehlo.negate %10 : tensor<4x64xf32>
    %12 = stablehlo.exponential %11 : tensor<4x64xf32>
    %13 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<4x64xf32>
    %14 = stablehlo.add %13, %12 : tensor<4x64xf32>
    %15 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<4x64xf32>
    %16 = stablehlo.divide %15, %14 : tensor<4x64xf32>
    %17 = stablehlo.add %5, %8 : tensor<4x64xf32>
    %18 = stablehlo.negate %17 : tensor<4x64xf32>
    %19 = stablehlo.exponential %18 : tensor<4x64xf32>
    %20 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<4x64xf32>
    %21 = stablehlo.add %20, %19 : tensor<4x64xf32>
    %22 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<4x64xf32>
    %23 = stablehlo.divide %22, %21 : tensor<4x64xf32>
    %24 = stablehlo.multiply %23, %9 : tensor<4x64xf32>
    %25 = stablehlo.add %6, %24 : tensor<4x64xf32>
    %26 = stablehlo.tanh %25 : tensor<4x64xf32>
    %27 = stablehlo.multiply %16, %arg2 : tensor<4x64xf32>
    %28 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<4x64xf32>
    %29 = stablehlo.subtract %28, %16 : tensor<4x64xf32>
    %30 = stablehlo.multiply %29, %26 : tensor<4x64xf32>
    %31 = stablehlo.add %27, %30 : tensor<4x64xf32>
    return %31, %31 : tensor<4x64xf32>, tensor<4x64xf32>
  }
}
