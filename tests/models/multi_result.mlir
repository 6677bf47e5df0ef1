module @jit_f attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<4x8xf32>, %arg1: tensor<8xi32>) -> (tensor<4x8xf32> {jax.result_info = "result[0]"}, tensor<8xi32> {jax.result_info = "result[1]"}, tensor<f32> {jax.result_info = "result[2]"}) {
    %0 = stablehlo.tanh %arg0 : tensor<4x8xf32>
    %cst = stablehlo.constant dense<2.000000e+00> : tensor<f32>
    %1 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<4x8xf32>
    %2 = stablehlo.multiply %0, %1 : tensor<4x8xf32>
    %3 = stablehlo.convert %arg1 : (tensor<8xi32>) -> tensor<8xf32>
    %4 = stablehlo.broadcast_in_dim %3, dims = [1] : (tensor<8xf32>) -> tensor<1x8xf32>
    %5 = stablehlo.broadcast_in_dim %4, dims = [0, 1] : (tensor<1x8xf32>) -> tensor<4x8xf32>
    %6 = stablehlo.add %2, %5 : tensor<4x8xf32>
    %c = stablehlo.constant dense<3> : tensor<i32>
    %7 = stablehlo.broadcast_in_dim %c, dims = [] : (tensor<i32>) -> tensor<8xi32>
    %8 = stablehlo.multiply %arg1, %7 : tensor<8xi32>
    %c_0 = stablehlo.constant dense<1> : tensor<i32>
    %9 = stablehlo.broadcast_in_dim %c_0, dims = [] : (tensor<i32>) -> tensor<8xi32>
    %10 = stablehlo.add %8, %9 : tensor<8xi32>
    %c_1 = stablehlo.constant dense<-10> : tensor<i32>
    %c_2 = stablehlo.constant dense<10> : tensor<i32>
    %11 = call @clip(%10, %c_1, %c_2) : (tensor<8xi32>, tensor<i32>, tensor<i32>) -> tensor<8xi32>
    %12 = stablehlo.multiply %arg0, %arg0 : tensor<4x8xf32>
    %cst_3 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %13 = stablehlo.reduce(%12 init: %cst_3) applies stablehlo.add across dimensions = [0, 1] : (tensor<4x8xf32>, tensor<f32>) -> tensor<f32>
    return %6, %11, %13 : tensor<4x8xf32>, tensor<8xi32>, tensor<f32>
  }
  func.func private @clip(%arg0: tensor<8xi32>, %arg1: tensor<i32>, %arg2: tensor<i32>) -> tensor<8xi32> {
    %0 = stablehlo.convert %arg1 : tensor<i32>
    %1 = stablehlo.broadcast_in_dim %0, dims = [] : (tensor<i32>) -> tensor<8xi32>
    %2 = stablehlo.maximum %1, %arg0 : tensor<8xi32>
    %3 = stablehlo.convert %arg2 : tensor<i32>
    %4 = stablehlo.broadcast_in_dim %3, dims = [] : (tensor<i32>) -> tensor<8xi32>
    %5 = stablehlo.minimum %4, %2 : tensor<8xi32>
    return %5 : tensor<8xi32>
  }
}
