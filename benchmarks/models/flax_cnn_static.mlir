module @jit_fn attributes {jax.uses_shape_polymorphism = false, mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<16xf32>, %arg1: tensor<16xf32>, %arg2: tensor<16xf32>, %arg3: tensor<16xf32>, %arg4: tensor<16xf32>, %arg5: tensor<3x3x3x16xf32>, %arg6: tensor<32xf32>, %arg7: tensor<3x3x16x32xf32>, %arg8: tensor<64xf32>, %arg9: tensor<2048x64xf32>, %arg10: tensor<10xf32>, %arg11: tensor<64x10xf32>, %arg12: tensor<16x32x32x3xf32>) -> (tensor<16x10xf32> {jax.result_info = "result"}) {
    %cst = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %cst_0 = stablehlo.constant dense<4.000000e+00> : tensor<f32>
    %cst_1 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %cst_2 = stablehlo.constant dense<9.99999974E-6> : tensor<f32>
    %0 = stablehlo.convolution(%arg12, %arg5) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {pad = [[1, 1], [1, 1]]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<16x32x32x3xf32>, tensor<3x3x3x16xf32>) -> tensor<16x32x32x16xf32>
    %1 = stablehlo.reshape %arg4 : (tensor<16xf32>) -> tensor<1x1x1x16xf32>
    %2 = stablehlo.broadcast_in_dim %1, dims = [0, 1, 2, 3] : (tensor<1x1x1x16xf32>) -> tensor<16x32x32x16xf32>
    %3 = stablehlo.add %0, %2 : tensor<16x32x32x16xf32>
    %4 = stablehlo.broadcast_in_dim %arg0, dims = [3] : (tensor<16xf32>) -> tensor<1x1x1x16xf32>
    %5 = stablehlo.broadcast_in_dim %arg1, dims = [3] : (tensor<16xf32>) -> tensor<1x1x1x16xf32>
    %6 = stablehlo.broadcast_in_dim %4, dims = [0, 1, 2, 3] : (tensor<1x1x1x16xf32>) -> tensor<16x32x32x16xf32>
    %7 = stablehlo.subtract %3, %6 : tensor<16x32x32x16xf32>
    %8 = stablehlo.broadcast_in_dim %cst_2, dims = [] : (tensor<f32>) -> tensor<1x1x1x16xf32>
    %9 = stablehlo.add %5, %8 : tensor<1x1x1x16xf32>
    %10 = stablehlo.rsqrt %9 : tensor<1x1x1x16xf32>
    %11 = stablehlo.reshape %arg3 : (tensor<16xf32>) -> tensor<1x1x1x16xf32>
    %12 = stablehlo.multiply %10, %11 : tensor<1x1x1x16xf32>
    %13 = stablehlo.broadcast_in_dim %12, dims = [0, 1, 2, 3] : (tensor<1x1x1x16xf32>) -> tensor<16x32x32x16xf32>
    %14 = stablehlo.multiply %7, %13 : tensor<16x32x32x16xf32>
    %15 = stablehlo.reshape %arg2 : (tensor<16xf32>) -> tensor<1x1x1x16xf32>
    %16 = stablehlo.broadcast_in_dim %15, dims = [0, 1, 2, 3] : (tensor<1x1x1x16xf32>) -> tensor<16x32x32x16xf32>
    %17 = stablehlo.add %14, %16 : tensor<16x32x32x16xf32>
    %18 = call @relu(%17) : (tensor<16x32x32x16xf32>) -> tensor<16x32x32x16xf32>
    %19 = stablehlo.broadcast_in_dim %cst_1, dims = [] : (tensor<f32>) -> tensor<f32>
    %20 = "stablehlo.reduce_window"(%18, %19) <{window_dimensions = array<i64: 1, 2, 2, 1>, window_strides = array<i64: 1, 2, 2, 1>}> ({
    ^bb0(%arg13: tensor<f32>, %arg14: tensor<f32>):
      %40 = stablehlo.add %arg13, %arg14 : tensor<f32>
      stablehlo.return %40 : tensor<f32>
    }) : (tensor<16x32x32x16xf32>, tensor<f32>) -> tensor<16x16x16x16xf32>
    %21 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<f32>) -> tensor<16x16x16x16xf32>
    %22 = stablehlo.divide %20, %21 : tensor<16x16x16x16xf32>
    %23 = stablehlo.convolution(%22, %arg7) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {pad = [[1, 1], [1, 1]]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<16x16x16x16xf32>, tensor<3x3x16x32xf32>) -> tensor<16x16x16x32xf32>
    %24 = stablehlo.reshape %arg6 : (tensor<32xf32>) -> tensor<1x1x1x32xf32>
    %25 = stablehlo.broadcast_in_dim %24, dims = [0, 1, 2, 3] : (tensor<1x1x1x32xf32>) -> tensor<16x16x16x32xf32>
    %26 = stablehlo.add %23, %25 : tensor<16x16x16x32xf32>
    %27 = call @relu_0(%26) : (tensor<16x16x16x32xf32>) -> tensor<16x16x16x32xf32>
    %28 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<f32>
    %29 = "stablehlo.reduce_window"(%27, %28) <{window_dimensions = array<i64: 1, 2, 2, 1>, window_strides = array<i64: 1, 2, 2, 1>}> ({
    ^bb0(%arg13: tensor<f32>, %arg14: tensor<f32>):
      %40 = stablehlo.maximum %arg13, %arg14 : tensor<f32>
      stablehlo.return %40 : tensor<f32>
    }) : (tensor<16x16x16x32xf32>, tensor<f32>) -> tensor<16x8x8x32xf32>
    %30 = stablehlo.reshape %29 : (tensor<16x8x8x32xf32>) -> tensor<16x2048xf32>
    %31 = stablehlo.dot_general %30, %arg9, contracting_dims = [1] x [0] : (tensor<16x2048xf32>, tensor<2048x64xf32>) -> tensor<16x64xf32>
    %32 = stablehlo.reshape %arg8 : (tensor<64xf32>) -> tensor<1x64xf32>
    %33 = stablehlo.broadcast_in_dim %32, dims = [0, 1] : (tensor<1x64xf32>) -> tensor<16x64xf32>
    %34 = stablehlo.add %31, %33 : tensor<16x64xf32>
    %35 = call @relu_1(%34) : (tensor<16x64xf32>) -> tensor<16x64xf32>
    %36 = stablehlo.dot_general %35, %arg11, contracting_dims = [1] x [0] : (tensor<16x64xf32>, tensor<64x10xf32>) -> tensor<16x10xf32>
    %37 = stablehlo.reshape %arg10 : (tensor<10xf32>) -> tensor<1x10xf32>
    %38 = stablehlo.broadcast_in_dim %37, dims = [0, 1] : (tensor<1x10xf32>) -> tensor<16x10xf32>
    %39 = stablehlo.add %36, %38 : tensor<16x10xf32>
    return %39 : tensor<16x10xf32>
  }
  func.func private @relu(%arg0: tensor<16x32x32x16xf32>) -> tensor<16x32x32x16xf32> {
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %0 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<16x32x32x16xf32>
    %1 = stablehlo.maximum %arg0, %0 : tensor<16x32x32x16xf32>
    return %1 : tensor<16x32x32x16xf32>
  }
  func.func private @relu_0(%arg0: tensor<16x16x16x32xf32>) -> tensor<16x16x16x32xf32> {
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %0 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<16x16x16x32xf32>
    %1 = stablehlo.maximum %arg0, %0 : tensor<16x16x16x32xf32>
    return %1 : tensor<16x16x16x32xf32>
  }
  func.func private @relu_1(%arg0: tensor<16x64xf32>) -> tensor<16x64xf32> {
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %0 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<16x64xf32>
    %1 = stablehlo.maximum %arg0, %0 : tensor<16x64xf32>
    return %1 : tensor<16x64xf32>
  }
}
