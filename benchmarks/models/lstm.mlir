module @jit__lambda attributes {jax.uses_shape_polymorphism = false, mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<16x256xf32>, %arg1: tensor<64x256xf32>, %arg2: tensor<256xf32>, %arg3: tensor<64x256xf32>, %arg4: tensor<64x256xf32>, %arg5: tensor<256xf32>, %arg6: tensor<64x10xf32>, %arg7: tensor<10xf32>, %arg8: tensor<4x24x16xf32>) -> (tensor<4x10xf32> {jax.result_info = "result"}) {
    %c = stablehlo.constant dense<1> : tensor<i32>
    %c_0 = stablehlo.constant dense<24> : tensor<i32>
    %c_1 = stablehlo.constant dense<0> : tensor<i32>
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %0 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<4x64xf32>
    %1 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<4x64xf32>
    %2 = stablehlo.transpose %arg8, dims = [1, 0, 2] : (tensor<4x24x16xf32>) -> tensor<24x4x16xf32>
    %3 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<24x4x64xf32>
    %4:8 = stablehlo.while(%iterArg = %2, %iterArg_2 = %arg0, %iterArg_3 = %arg1, %iterArg_4 = %arg2, %iterArg_5 = %c_1, %iterArg_6 = %0, %iterArg_7 = %1, %iterArg_8 = %3) : tensor<24x4x16xf32>, tensor<16x256xf32>, tensor<64x256xf32>, tensor<256xf32>, tensor<i32>, tensor<4x64xf32>, tensor<4x64xf32>, tensor<24x4x64xf32>
    cond {
      %17 = stablehlo.compare LT, %iterArg_5, %c_0, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
      stablehlo.return %17 : tensor<i1>
    } do {
      %17 = func.call @dynamic_index_in_dim(%iterArg, %iterArg_5) : (tensor<24x4x16xf32>, tensor<i32>) -> tensor<4x16xf32>
      %18:3 = func.call @closed_call(%iterArg_2, %iterArg_3, %iterArg_4, %iterArg_6, %iterArg_7, %17) : (tensor<16x256xf32>, tensor<64x256xf32>, tensor<256xf32>, tensor<4x64xf32>, tensor<4x64xf32>, tensor<4x16xf32>) -> (tensor<4x64xf32>, tensor<4x64xf32>, tensor<4x64xf32>)
      %19 = func.call @dynamic_update_index_in_dim(%iterArg_8, %18#2, %iterArg_5) : (tensor<24x4x64xf32>, tensor<4x64xf32>, tensor<i32>) -> tensor<24x4x64xf32>
      %20 = stablehlo.add %iterArg_5, %c : tensor<i32>
      stablehlo.return %iterArg, %iterArg_2, %iterArg_3, %iterArg_4, %20, %18#0, %18#1, %19 : tensor<24x4x16xf32>, tensor<16x256xf32>, tensor<64x256xf32>, tensor<256xf32>, tensor<i32>, tensor<4x64xf32>, tensor<4x64xf32>, tensor<24x4x64xf32>
    }
    %5 = stablehlo.transpose %4#7, dims = [1, 0, 2] : (tensor<24x4x64xf32>) -> tensor<4x24x64xf32>
    %6 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<4x64xf32>
    %7 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<4x64xf32>
    %8 = stablehlo.transpose %5, dims = [1, 0, 2] : (tensor<4x24x64xf32>) -> tensor<24x4x64xf32>
    %9 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<24x4x64xf32>
    %10:8 = stablehlo.while(%iterArg = %8, %iterArg_2 = %arg3, %iterArg_3 = %arg4, %iterArg_4 = %arg5, %iterArg_5 = %c_1, %iterArg_6 = %6, %iterArg_7 = %7, %iterArg_8 = %9) : tensor<24x4x64xf32>, tensor<64x256xf32>, tensor<64x256xf32>, tensor<256xf32>, tensor<i32>, tensor<4x64xf32>, tensor<4x64xf32>, tensor<24x4x64xf32>
    cond {
      %17 = stablehlo.compare LT, %iterArg_5, %c_0, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
      stablehlo.return %17 : tensor<i1>
    } do {
      %17 = func.call @dynamic_index_in_dim_0(%iterArg, %iterArg_5) : (tensor<24x4x64xf32>, tensor<i32>) -> tensor<4x64xf32>
      %18:3 = func.call @closed_call_1(%iterArg_2, %iterArg_3, %iterArg_4, %iterArg_6, %iterArg_7, %17) : (tensor<64x256xf32>, tensor<64x256xf32>, tensor<256xf32>, tensor<4x64xf32>, tensor<4x64xf32>, tensor<4x64xf32>) -> (tensor<4x64xf32>, tensor<4x64xf32>, tensor<4x64xf32>)
      %19 = func.call @dynamic_update_index_in_dim(%iterArg_8, %18#2, %iterArg_5) : (tensor<24x4x64xf32>, tensor<4x64xf32>, tensor<i32>) -> tensor<24x4x64xf32>
      %20 = stablehlo.add %iterArg_5, %c : tensor<i32>
      stablehlo.return %iterArg, %iterArg_2, %iterArg_3, %iterArg_4, %20, %18#0, %18#1, %19 : tensor<24x4x64xf32>, tensor<64x256xf32>, tensor<64x256xf32>, tensor<256xf32>, tensor<i32>, tensor<4x64xf32>, tensor<4x64xf32>, tensor<24x4x64xf32>
    }
    %11 = stablehlo.slice %10#7 [23:24, 0:4, 0:64] : (tensor<24x4x64xf32>) -> tensor<1x4x64xf32>
    %12 = stablehlo.reshape %11 : (tensor<1x4x64xf32>) -> tensor<4x64xf32>
    %13 = stablehlo.dot_general %12, %arg6, contracting_dims = [1] x [0] : (tensor<4x64xf32>, tensor<64x10xf32>) -> tensor<4x10xf32>
    %14 = stablehlo.broadcast_in_dim %arg7, dims = [1] : (tensor<10xf32>) -> tensor<1x10xf32>
    %15 = stablehlo.broadcast_in_dim %14, dims = [0, 1] : (tensor<1x10xf32>) -> tensor<4x10xf32>
    %16 = stablehlo.add %13, %15 : tensor<4x10xf32>
    return %16 : tensor<4x10xf32>
  }
  func.func private @dynamic_index_in_dim(%arg0: tensor<24x4x16xf32>, %arg1: tensor<i32>) -> tensor<4x16xf32> {
    %c = stablehlo.constant dense<0> : tensor<i32>
    %0 = stablehlo.dynamic_slice %arg0, %arg1, %c, %c, sizes = [1, 4, 16] : (tensor<24x4x16xf32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<1x4x16xf32>
    %1 = stablehlo.reshape %0 : (tensor<1x4x16xf32>) -> tensor<4x16xf32>
    return %1 : tensor<4x16xf32>
  }
  func.func private @closed_call(%arg0: tensor<16x256xf32>, %arg1: tensor<64x256xf32>, %arg2: tensor<256xf32>, %arg3: tensor<4x64xf32>, %arg4: tensor<4x64xf32>, %arg5: tensor<4x16xf32>) -> (tensor<4x64xf32>, tensor<4x64xf32>, tensor<4x64xf32>) {
    %cst = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %0 = stablehlo.dot_general %arg5, %arg0, contracting_dims = [1] x [0] : (tensor<4x16xf32>, tensor<16x256xf32>) -> tensor<4x256xf32>
    %1 = stablehlo.dot_general %arg3, %arg1, contracting_dims = [1] x [0] : (tensor<4x64xf32>, tensor<64x256xf32>) -> tensor<4x256xf32>
    %2 = stablehlo.add %0, %1 : tensor<4x256xf32>
    %3 = stablehlo.broadcast_in_dim %arg2, dims = [1] : (tensor<256xf32>) -> tensor<1x256xf32>
    %4 = stablehlo.broadcast_in_dim %3, dims = [0, 1] : (tensor<1x256xf32>) -> tensor<4x256xf32>
    %5 = stablehlo.add %2, %4 : tensor<4x256xf32>
    %6 = stablehlo.slice %5 [0:4, 0:64] : (tensor<4x256xf32>) -> tensor<4x64xf32>
    %7 = stablehlo.slice %5 [0:4, 64:128] : (tensor<4x256xf32>) -> tensor<4x64xf32>
    %8 = stablehlo.slice %5 [0:4, 128:192] : (tensor<4x256xf32>) -> tensor<4x64xf32>
    %9 = stablehlo.slice %5 [0:4, 192:256] : (tensor<4x256xf32>) -> tensor<4x64xf32>
    %10 = stablehlo.negate %6 : tensor<4x64xf32>
    %11 = stablehlo.exponential %10 : tensor<4x64xf32>
    %12 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<4x64xf32>
    %13 = stablehlo.add %12, %11 : tensor<4x64xf32>
    %14 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<4x64xf32>
    %15 = stablehlo.divide %14, %13 : tensor<4x64xf32>
    %16 = stablehlo.negate %7 : tensor<4x64xf32>
    %17 = stablehlo.exponential %16 : tensor<4x64xf32>
    %18 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<4x64xf32>
    %19 = stablehlo.add %18, %17 : tensor<4x64xf32>
    %20 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<4x64xf32>
    %21 = stablehlo.divide %20, %19 : tensor<4x64xf32>
    %22 = stablehlo.multiply %21, %arg4 : tensor<4x64xf32>
    %23 = stablehlo.tanh %8 : tensor<4x64xf32>
    %24 = stablehlo.multiply %15, %23 : tensor<4x64xf32>
    %25 = stablehlo.add %22, %24 : tensor<4x64xf32>
    %26 = stablehlo.negate %9 : tensor<4x64xf32>
    %27 = stablehlo.exponential %26 : tensor<4x64xf32>
    %28 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<4x64xf32>
    %29 = stablehlo.add %28, %27 : tensor<4x64xf32>
    %30 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<4x64xf32>
    %31 = stablehlo.divide %30, %29 : tensor<4x64xf32>
    %32 = stablehlo.tanh %25 : tensor<4x64xf32>
    %33 = stablehlo.multiply %31, %32 : tensor<4x64xf32>
    return %33, %25, %33 : tensor<4x64xf32>, tensor<4x64xf32>, tensor<4x64xf32>
  }
  func.func private @dynamic_update_index_in_dim(%arg0: tensor<24x4x64xf32>, %arg1: tensor<4x64xf32>, %arg2: tensor<i32>) -> tensor<24x4x64xf32> {
    %c = stablehlo.constant dense<0> : tensor<i32>
    %0 = stablehlo.broadcast_in_dim %arg1, dims = [1, 2] : (tensor<4x64xf32>) -> tensor<1x4x64xf32>
    %1 = stablehlo.dynamic_update_slice %arg0, %0, %arg2, %c, %c : (tensor<24x4x64xf32>, tensor<1x4x64xf32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<24x4x64xf32>
    return %1 : tensor<24x4x64xf32>
  }
  func.func private @dynamic_index_in_dim_0(%arg0: tensor<24x4x64xf32>, %arg1: tensor<i32>) -> tensor<4x64xf32> {
    %c = stablehlo.constant dense<0> : tensor<i32>
    %0 = stablehlo.dynamic_slice %arg0, %arg1, %c, %c, sizes = [1, 4, 64] : (tensor<24x4x64xf32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<1x4x64xf32>
    %1 = stablehlo.reshape %0 : (tensor<1x4x64xf32>) -> tensor<4x64xf32>
    return %1 : tensor<4x64xf32>
  }
  func.func private @closed_call_1(%arg0: tensor<64x256xf32>, %arg1: tensor<64x256xf32>, %arg2: tensor<256xf32>, %arg3: tensor<4x64xf32>, %arg4: tensor<4x64xf32>, %arg5: tensor<4x64xf32>) -> (tensor<4x64xf32>, tensor<4x64xf32>, tensor<4x64xf32>) {
    %cst = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %0 = stablehlo.dot_general %arg5, %arg0, contracting_dims = [1] x [0] : (tensor<4x64xf32>, tensor<64x256xf32>) -> tensor<4x256xf32>
    %1 = stablehlo.dot_general %arg3, %arg1, contracting_dims = [1] x [0] : (tensor<4x64xf32>, tensor<64x256xf32>) -> tensor<4x256xf32>
    %2 = stablehlo.add %0, %1 : tensor<4x256xf32>
    %3 = stablehlo.broadcast_in_dim %arg2, dims = [1] : (tensor<256xf32>) -> tensor<1x256xf32>
    %4 = stablehlo.broadcast_in_dim %3, dims = [0, 1] : (tensor<1x256xf32>) -> tensor<4x256xf32>
    %5 = stablehlo.add %2, %4 : tensor<4x256xf32>
    %6 = stablehlo.slice %5 [0:4, 0:64] : (tensor<4x256xf32>) -> tensor<4x64xf32>
    %7 = stablehlo.slice %5 [0:4, 64:128] : (tensor<4x256xf32>) -> tensor<4x64xf32>
    %8 = stablehlo.slice %5 [0:4, 128:192] : (tensor<4x256xf32>) -> tensor<4x64xf32>
    %9 = stablehlo.slice %5 [0:4, 192:256] : (tensor<4x256xf32>) -> tensor<4x64xf32>
    %10 = stablehlo.negate %6 : tensor<4x64xf32>
    %11 = stablehlo.exponential %10 : tensor<4x64xf32>
    %12 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<4x64xf32>
    %13 = stablehlo.add %12, %11 : tensor<4x64xf32>
    %14 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<4x64xf32>
    %15 = stablehlo.divide %14, %13 : tensor<4x64xf32>
    %16 = stablehlo.negate %7 : tensor<4x64xf32>
    %17 = stablehlo.exponential %16 : tensor<4x64xf32>
    %18 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<4x64xf32>
    %19 = stablehlo.add %18, %17 : tensor<4x64xf32>
    %20 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<4x64xf32>
    %21 = stablehlo.divide %20, %19 : tensor<4x64xf32>
    %22 = stablehlo.multiply %21, %arg4 : tensor<4x64xf32>
    %23 = stablehlo.tanh %8 : tensor<4x64xf32>
    %24 = stablehlo.multiply %15, %23 : tensor<4x64xf32>
    %25 = stablehlo.add %22, %24 : tensor<4x64xf32>
    %26 = stablehlo.negate %9 : tensor<4x64xf32>
    %27 = stablehlo.exponential %26 : tensor<4x64xf32>
    %28 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<4x64xf32>
    %29 = stablehlo.add %28, %27 : tensor<4x64xf32>
    %30 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<4x64xf32>
    %31 = stablehlo.divide %30, %29 : tensor<4x64xf32>
    %32 = stablehlo.tanh %25 : tensor<4x64xf32>
    %33 = stablehlo.multiply %31, %32 : tensor<4x64xf32>
    return %33, %25, %33 : tensor<4x64xf32>, tensor<4x64xf32>, tensor<4x64xf32>
  }
}
