module @jit_fn attributes {jax.uses_shape_polymorphism = true, mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<16xf32>, %arg1: tensor<16xf32>, %arg2: tensor<16xf32>, %arg3: tensor<16xf32>, %arg4: tensor<16xf32>, %arg5: tensor<3x3x3x16xf32>, %arg6: tensor<32xf32>, %arg7: tensor<3x3x16x32xf32>, %arg8: tensor<64xf32>, %arg9: tensor<2048x64xf32>, %arg10: tensor<10xf32>, %arg11: tensor<64x10xf32>, %arg12: tensor<?x32x32x3xf32>) -> (tensor<?x10xf32> {jax.result_info = "result"}) {
    %c = stablehlo.constant dense<1> : tensor<i32>
    %0 = stablehlo.get_dimension_size %arg12, dim = 0 : (tensor<?x32x32x3xf32>) -> tensor<i32>
    %1 = stablehlo.compare GE, %0, %c, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.custom_call @shape_assertion(%1, %0) {api_version = 2 : i32, error_message = "Input shapes do not match the polymorphic shapes specification. Expected value >= 1 for dimension variable 'b'. Using the following polymorphic shapes specifications: args[12].shape = (b, 32, 32, 3). Obtained dimension variables: 'b' = {0} from specification 'b' for dimension args[12].shape[0] (= {0}), . Please see https://docs.jax.dev/en/latest/export/shape_poly.html#shape-assertion-errors for more details.", has_side_effect = true} : (tensor<i1>, tensor<i32>) -> ()
    %2 = call @_wrapped_jax_export_main(%0, %arg0, %arg1, %arg2, %arg3, %arg4, %arg5, %arg6, %arg7, %arg8, %arg9, %arg10, %arg11, %arg12) : (tensor<i32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<3x3x3x16xf32>, tensor<32xf32>, tensor<3x3x16x32xf32>, tensor<64xf32>, tensor<2048x64xf32>, tensor<10xf32>, tensor<64x10xf32>, tensor<?x32x32x3xf32>) -> tensor<?x10xf32>
    return %2 : tensor<?x10xf32>
  }
  func.func private @_wrapped_jax_export_main(%arg0: tensor<i32> {jax.global_constant = "b"}, %arg1: tensor<16xf32>, %arg2: tensor<16xf32>, %arg3: tensor<16xf32>, %arg4: tensor<16xf32>, %arg5: tensor<16xf32>, %arg6: tensor<3x3x3x16xf32>, %arg7: tensor<32xf32>, %arg8: tensor<3x3x16x32xf32>, %arg9: tensor<64xf32>, %arg10: tensor<2048x64xf32>, %arg11: tensor<10xf32>, %arg12: tensor<64x10xf32>, %arg13: tensor<?x32x32x3xf32>) -> (tensor<?x10xf32> {jax.result_info = "result"}) {
    %c = stablehlo.constant dense<10> : tensor<1xi32>
    %c_0 = stablehlo.constant dense<64> : tensor<1xi32>
    %c_1 = stablehlo.constant dense<2048> : tensor<1xi32>
    %cst = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %cst_2 = stablehlo.constant dense<4.000000e+00> : tensor<f32>
    %cst_3 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %cst_4 = stablehlo.constant dense<9.99999974E-6> : tensor<f32>
    %c_5 = stablehlo.constant dense<16> : tensor<1xi32>
    %c_6 = stablehlo.constant dense<32> : tensor<1xi32>
    %0 = stablehlo.convolution(%arg13, %arg6) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {pad = [[1, 1], [1, 1]]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<?x32x32x3xf32>, tensor<3x3x3x16xf32>) -> tensor<?x32x32x16xf32>
    %1 = stablehlo.reshape %arg5 : (tensor<16xf32>) -> tensor<1x1x1x16xf32>
    %2 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %3 = stablehlo.concatenate %2, %c_6, %c_6, %c_5, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<4xi32>
    %4 = stablehlo.dynamic_broadcast_in_dim %1, %3, dims = [0, 1, 2, 3] : (tensor<1x1x1x16xf32>, tensor<4xi32>) -> tensor<?x32x32x16xf32>
    %5 = stablehlo.add %0, %4 : tensor<?x32x32x16xf32>
    %6 = stablehlo.broadcast_in_dim %arg1, dims = [3] : (tensor<16xf32>) -> tensor<1x1x1x16xf32>
    %7 = stablehlo.broadcast_in_dim %arg2, dims = [3] : (tensor<16xf32>) -> tensor<1x1x1x16xf32>
    %8 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %9 = stablehlo.concatenate %8, %c_6, %c_6, %c_5, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<4xi32>
    %10 = stablehlo.dynamic_broadcast_in_dim %6, %9, dims = [0, 1, 2, 3] : (tensor<1x1x1x16xf32>, tensor<4xi32>) -> tensor<?x32x32x16xf32>
    %11 = stablehlo.subtract %5, %10 : tensor<?x32x32x16xf32>
    %12 = stablehlo.broadcast_in_dim %cst_4, dims = [] : (tensor<f32>) -> tensor<1x1x1x16xf32>
    %13 = stablehlo.add %7, %12 : tensor<1x1x1x16xf32>
    %14 = stablehlo.rsqrt %13 : tensor<1x1x1x16xf32>
    %15 = stablehlo.reshape %arg4 : (tensor<16xf32>) -> tensor<1x1x1x16xf32>
    %16 = stablehlo.multiply %14, %15 : tensor<1x1x1x16xf32>
    %17 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %18 = stablehlo.concatenate %17, %c_6, %c_6, %c_5, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<4xi32>
    %19 = stablehlo.dynamic_broadcast_in_dim %16, %18, dims = [0, 1, 2, 3] : (tensor<1x1x1x16xf32>, tensor<4xi32>) -> tensor<?x32x32x16xf32>
    %20 = stablehlo.multiply %11, %19 : tensor<?x32x32x16xf32>
    %21 = stablehlo.reshape %arg3 : (tensor<16xf32>) -> tensor<1x1x1x16xf32>
    %22 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %23 = stablehlo.concatenate %22, %c_6, %c_6, %c_5, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<4xi32>
    %24 = stablehlo.dynamic_broadcast_in_dim %21, %23, dims = [0, 1, 2, 3] : (tensor<1x1x1x16xf32>, tensor<4xi32>) -> tensor<?x32x32x16xf32>
    %25 = stablehlo.add %20, %24 : tensor<?x32x32x16xf32>
    %26 = call @relu(%arg0, %25) : (tensor<i32>, tensor<?x32x32x16xf32>) -> tensor<?x32x32x16xf32>
    %27 = stablehlo.broadcast_in_dim %cst_3, dims = [] : (tensor<f32>) -> tensor<f32>
    %28 = "stablehlo.reduce_window"(%26, %27) <{window_dimensions = array<i64: 1, 2, 2, 1>, window_strides = array<i64: 1, 2, 2, 1>}> ({
    ^bb0(%arg14: tensor<f32>, %arg15: tensor<f32>):
      %58 = stablehlo.add %arg14, %arg15 : tensor<f32>
      stablehlo.return %58 : tensor<f32>
    }) : (tensor<?x32x32x16xf32>, tensor<f32>) -> tensor<?x16x16x16xf32>
    %29 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %30 = stablehlo.concatenate %29, %c_5, %c_5, %c_5, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<4xi32>
    %31 = stablehlo.dynamic_broadcast_in_dim %cst_2, %30, dims = [] : (tensor<f32>, tensor<4xi32>) -> tensor<?x16x16x16xf32>
    %32 = stablehlo.divide %28, %31 : tensor<?x16x16x16xf32>
    %33 = stablehlo.convolution(%32, %arg8) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {pad = [[1, 1], [1, 1]]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<?x16x16x16xf32>, tensor<3x3x16x32xf32>) -> tensor<?x16x16x32xf32>
    %34 = stablehlo.reshape %arg7 : (tensor<32xf32>) -> tensor<1x1x1x32xf32>
    %35 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %36 = stablehlo.concatenate %35, %c_5, %c_5, %c_6, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<4xi32>
    %37 = stablehlo.dynamic_broadcast_in_dim %34, %36, dims = [0, 1, 2, 3] : (tensor<1x1x1x32xf32>, tensor<4xi32>) -> tensor<?x16x16x32xf32>
    %38 = stablehlo.add %33, %37 : tensor<?x16x16x32xf32>
    %39 = call @relu_0(%arg0, %38) : (tensor<i32>, tensor<?x16x16x32xf32>) -> tensor<?x16x16x32xf32>
    %40 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<f32>
    %41 = "stablehlo.reduce_window"(%39, %40) <{window_dimensions = array<i64: 1, 2, 2, 1>, window_strides = array<i64: 1, 2, 2, 1>}> ({
    ^bb0(%arg14: tensor<f32>, %arg15: tensor<f32>):
      %58 = stablehlo.maximum %arg14, %arg15 : tensor<f32>
      stablehlo.return %58 : tensor<f32>
    }) : (tensor<?x16x16x32xf32>, tensor<f32>) -> tensor<?x8x8x32xf32>
    %42 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %43 = stablehlo.concatenate %42, %c_1, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
    %44 = stablehlo.dynamic_reshape %41, %43 : (tensor<?x8x8x32xf32>, tensor<2xi32>) -> tensor<?x2048xf32>
    %45 = stablehlo.dot_general %44, %arg10, contracting_dims = [1] x [0] : (tensor<?x2048xf32>, tensor<2048x64xf32>) -> tensor<?x64xf32>
    %46 = stablehlo.reshape %arg9 : (tensor<64xf32>) -> tensor<1x64xf32>
    %47 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %48 = stablehlo.concatenate %47, %c_0, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
    %49 = stablehlo.dynamic_broadcast_in_dim %46, %48, dims = [0, 1] : (tensor<1x64xf32>, tensor<2xi32>) -> tensor<?x64xf32>
    %50 = stablehlo.add %45, %49 : tensor<?x64xf32>
    %51 = call @relu_1(%arg0, %50) : (tensor<i32>, tensor<?x64xf32>) -> tensor<?x64xf32>
    %52 = stablehlo.dot_general %51, %arg12, contracting_dims = [1] x [0] : (tensor<?x64xf32>, tensor<64x10xf32>) -> tensor<?x10xf32>
    %53 = stablehlo.reshape %arg11 : (tensor<10xf32>) -> tensor<1x10xf32>
    %54 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %55 = stablehlo.concatenate %54, %c, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
    %56 = stablehlo.dynamic_broadcast_in_dim %53, %55, dims = [0, 1] : (tensor<1x10xf32>, tensor<2xi32>) -> tensor<?x10xf32>
    %57 = stablehlo.add %52, %56 : tensor<?x10xf32>
    return %57 : tensor<?x10xf32>
  }
  func.func private @relu(%arg0: tensor<i32> {jax.global_constant = "b"}, %arg1: tensor<?x32x32x16xf32>) -> tensor<?x32x32x16xf32> {
    %c = stablehlo.constant dense<16> : tensor<1xi32>
    %c_0 = stablehlo.constant dense<32> : tensor<1xi32>
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %0 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %1 = stablehlo.concatenate %0, %c_0, %c_0, %c, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<4xi32>
    %2 = stablehlo.dynamic_broadcast_in_dim %cst, %1, dims = [] : (tensor<f32>, tensor<4xi32>) -> tensor<?x32x32x16xf32>
    %3 = stablehlo.maximum %arg1, %2 : tensor<?x32x32x16xf32>
    return %3 : tensor<?x32x32x16xf32>
  }
  func.func private @relu_0(%arg0: tensor<i32> {jax.global_constant = "b"}, %arg1: tensor<?x16x16x32xf32>) -> tensor<?x16x16x32xf32> {
    %c = stablehlo.constant dense<32> : tensor<1xi32>
    %c_0 = stablehlo.constant dense<16> : tensor<1xi32>
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %0 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %1 = stablehlo.concatenate %0, %c_0, %c_0, %c, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<4xi32>
    %2 = stablehlo.dynamic_broadcast_in_dim %cst, %1, dims = [] : (tensor<f32>, tensor<4xi32>) -> tensor<?x16x16x32xf32>
    %3 = stablehlo.maximum %arg1, %2 : tensor<?x16x16x32xf32>
    return %3 : tensor<?x16x16x32xf32>
  }
  func.func private @relu_1(%arg0: tensor<i32> {jax.global_constant = "b"}, %arg1: tensor<?x64xf32>) -> tensor<?x64xf32> {
    %c = stablehlo.constant dense<64> : tensor<1xi32>
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %0 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %1 = stablehlo.concatenate %0, %c, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
    %2 = stablehlo.dynamic_broadcast_in_dim %cst, %1, dims = [] : (tensor<f32>, tensor<2xi32>) -> tensor<?x64xf32>
    %3 = stablehlo.maximum %arg1, %2 : tensor<?x64xf32>
    return %3 : tensor<?x64xf32>
  }
}
