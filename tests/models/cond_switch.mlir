module @jit_branches attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<3x5xf32>, %arg1: tensor<i32>) -> (tensor<3x5xf32> {jax.result_info = "result[0]"}, tensor<3x5xf32> {jax.result_info = "result[1]"}) {
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %0 = stablehlo.reduce(%arg0 init: %cst) applies stablehlo.add across dimensions = [0, 1] : (tensor<3x5xf32>, tensor<f32>) -> tensor<f32>
    %cst_0 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %1 = stablehlo.compare GT, %0, %cst_0, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
    %2 = stablehlo.convert %1 : (tensor<i1>) -> tensor<i32>
    %3 = "stablehlo.case"(%2) ({
      %6 = stablehlo.cosine %arg0 : tensor<3x5xf32>
      %cst_2 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
      %7 = stablehlo.broadcast_in_dim %cst_2, dims = [] : (tensor<f32>) -> tensor<3x5xf32>
      %8 = stablehlo.subtract %6, %7 : tensor<3x5xf32>
      stablehlo.return %8 : tensor<3x5xf32>
    }, {
      %6 = stablehlo.sine %arg0 : tensor<3x5xf32>
      %cst_2 = stablehlo.constant dense<2.000000e+00> : tensor<f32>
      %7 = stablehlo.broadcast_in_dim %cst_2, dims = [] : (tensor<f32>) -> tensor<3x5xf32>
      %8 = stablehlo.multiply %6, %7 : tensor<3x5xf32>
      stablehlo.return %8 : tensor<3x5xf32>
    }) : (tensor<i32>) -> tensor<3x5xf32>
    %c = stablehlo.constant dense<0> : tensor<i32>
    %c_1 = stablehlo.constant dense<2> : tensor<i32>
    %4 = stablehlo.clamp %c, %arg1, %c_1 : tensor<i32>
    %5 = "stablehlo.case"(%4) ({
      %cst_2 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
      %6 = stablehlo.broadcast_in_dim %cst_2, dims = [] : (tensor<f32>) -> tensor<3x5xf32>
      %7 = stablehlo.add %3, %6 : tensor<3x5xf32>
      stablehlo.return %7 : tensor<3x5xf32>
    }, {
      %6 = stablehlo.multiply %3, %3 : tensor<3x5xf32>
      stablehlo.return %6 : tensor<3x5xf32>
    }, {
      %6 = stablehlo.negate %3 : tensor<3x5xf32>
      %7 = stablehlo.exponential %6 : tensor<3x5xf32>
      stablehlo.return %7 : tensor<3x5xf32>
    }) : (tensor<i32>) -> tensor<3x5xf32>
    return %3, %5 : tensor<3x5xf32>, tensor<3x5xf32>
  }
}
