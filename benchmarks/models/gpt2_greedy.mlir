module @jit_fn attributes {jax.uses_shape_polymorphism = false, mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<1000x128xf32>, %arg1: tensor<32x128xf32>, %arg2: tensor<128x2x64xf32>, %arg3: tensor<2x64xf32>, %arg4: tensor<128x2x64xf32>, %arg5: tensor<2x64xf32>, %arg6: tensor<128x2x64xf32>, %arg7: tensor<2x64xf32>, %arg8: tensor<2x64x128xf32>, %arg9: tensor<128xf32>, %arg10: tensor<128xf32>, %arg11: tensor<128xf32>, %arg12: tensor<128x512xf32>, %arg13: tensor<512xf32>, %arg14: tensor<512x128xf32>, %arg15: tensor<128xf32>, %arg16: tensor<128xf32>, %arg17: tensor<128xf32>, %arg18: tensor<128x2x64xf32>, %arg19: tensor<2x64xf32>, %arg20: tensor<128x2x64xf32>, %arg21: tensor<2x64xf32>, %arg22: tensor<128x2x64xf32>, %arg23: tensor<2x64xf32>, %arg24: tensor<2x64x128xf32>, %arg25: tensor<128xf32>, %arg26: tensor<128xf32>, %arg27: tensor<128xf32>, %arg28: tensor<128x512xf32>, %arg29: tensor<512xf32>, %arg30: tensor<512x128xf32>, %arg31: tensor<128xf32>, %arg32: tensor<128xf32>, %arg33: tensor<128xf32>, %arg34: tensor<128xf32>, %arg35: tensor<128xf32>, %arg36: tensor<1x32xi32>) -> (tensor<1x32xi32> {jax.result_info = "result"}) {
    %c = stablehlo.constant dense<1> : tensor<i32>
    %c_0 = stablehlo.constant dense<6> : tensor<i32>
    %c_1 = stablehlo.constant dense<0> : tensor<i32>
    %0:39 = stablehlo.while(%iterArg = %arg0, %iterArg_2 = %arg1, %iterArg_3 = %arg10, %iterArg_4 = %arg11, %iterArg_5 = %arg2, %iterArg_6 = %arg3, %iterArg_7 = %arg4, %iterArg_8 = %arg5, %iterArg_9 = %arg6, %iterArg_10 = %arg7, %iterArg_11 = %arg8, %iterArg_12 = %arg9, %iterArg_13 = %arg16, %iterArg_14 = %arg17, %iterArg_15 = %arg12, %iterArg_16 = %arg13, %iterArg_17 = %arg14, %iterArg_18 = %arg15, %iterArg_19 = %arg26, %iterArg_20 = %arg27, %iterArg_21 = %arg18, %iterArg_22 = %arg19, %iterArg_23 = %arg20, %iterArg_24 = %arg21, %iterArg_25 = %arg22, %iterArg_26 = %arg23, %iterArg_27 = %arg24, %iterArg_28 = %arg25, %iterArg_29 = %arg32, %iterArg_30 = %arg33, %iterArg_31 = %arg28, %iterArg_32 = %arg29, %iterArg_33 = %arg30, %iterArg_34 = %arg31, %iterArg_35 = %arg34, %iterArg_36 = %arg35, %iterArg_37 = %c_1, %iterArg_38 = %c_1, %iterArg_39 = %arg36) : tensor<1000x128xf32>, tensor<32x128xf32>, tensor<128xf32>, tensor<128xf32>, tensor<128x2x64xf32>, tensor<2x64xf32>, tensor<128x2x64xf32>, tensor<2x64xf32>, tensor<128x2x64xf32>, tensor<2x64xf32>, tensor<2x64x128xf32>, tensor<128xf32>, tensor<128xf32>, tensor<128xf32>, tensor<128x512xf32>, tensor<512xf32>, tensor<512x128xf32>, tensor<128xf32>, tensor<128xf32>, tensor<128xf32>, tensor<128x2x64xf32>, tensor<2x64xf32>, tensor<128x2x64xf32>, tensor<2x64xf32>, tensor<128x2x64xf32>, tensor<2x64xf32>, tensor<2x64x128xf32>, tensor<128xf32>, tensor<128xf32>, tensor<128xf32>, tensor<128x512xf32>, tensor<512xf32>, tensor<512x128xf32>, tensor<128xf32>, tensor<128xf32>, tensor<128xf32>, tensor<i32>, tensor<i32>, tensor<1x32xi32>
    cond {
      %1 = stablehlo.compare LT, %iterArg_37, %c_0, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
      stablehlo.return %1 : tensor<i1>
    } do {
      %1:2 = func.call @closed_call(%iterArg, %iterArg_2, %iterArg_3, %iterArg_4, %iterArg_5, %iterArg_6, %iterArg_7, %iterArg_8, %iterArg_9, %iterArg_10, %iterArg_11, %iterArg_12, %iterArg_13, %iterArg_14, %iterArg_15, %iterArg_16, %iterArg_17, %iterArg_18, %iterArg_19, %iterArg_20, %iterArg_21, %iterArg_22, %iterArg_23, %iterArg_24, %iterArg_25, %iterArg_26, %iterArg_27, %iterArg_28, %iterArg_29, %iterArg_30, %iterArg_31, %iterArg_32, %iterArg_33, %iterArg_34, %iterArg_35, %iterArg_36, %iterArg_38, %iterArg_39) : (tensor<1000x128xf32>, tensor<32x128xf32>, tensor<128xf32>, tensor<128xf32>, tensor<128x2x64xf32>, tensor<2x64xf32>, tensor<128x2x64xf32>, tensor<2x64xf32>, tensor<128x2x64xf32>, tensor<2x64xf32>, tensor<2x64x128xf32>, tensor<128xf32>, tensor<128xf32>, tensor<128xf32>, tensor<128x512xf32>, tensor<512xf32>, tensor<512x128xf32>, tensor<128xf32>, tensor<128xf32>, tensor<128xf32>, tensor<128x2x64xf32>, tensor<2x64xf32>, tensor<128x2x64xf32>, tensor<2x64xf32>, tensor<128x2x64xf32>, tensor<2x64xf32>, tensor<2x64x128xf32>, tensor<128xf32>, tensor<128xf32>, tensor<128xf32>, tensor<128x512xf32>, tensor<512xf32>, tensor<512x128xf32>, tensor<128xf32>, tensor<128xf32>, tensor<128xf32>, tensor<i32>, tensor<1x32xi32>) -> (tensor<i32>, tensor<1x32xi32>)
      %2 = stablehlo.add %iterArg_37, %c : tensor<i32>
      stablehlo.return %iterArg, %iterArg_2, %iterArg_3, %iterArg_4, %iterArg_5, %iterArg_6, %iterArg_7, %iterArg_8, %iterArg_9, %iterArg_10, %iterArg_11, %iterArg_12, %iterArg_13, %iterArg_14, %iterArg_15, %iterArg_16, %iterArg_17, %iterArg_18, %iterArg_19, %iterArg_20, %iterArg_21, %iterArg_22, %iterArg_23, %iterArg_24, %iterArg_25, %iterArg_26, %iterArg_27, %iterArg_28, %iterArg_29, %iterArg_30, %iterArg_31, %iterArg_32, %iterArg_33, %iterArg_34, %iterArg_35, %iterArg_36, %2, %1#0, %1#1 : tensor<1000x128xf32>, tensor<32x128xf32>, tensor<128xf32>, tensor<128xf32>, tensor<128x2x64xf32>, tensor<2x64xf32>, tensor<128x2x64xf32>, tensor<2x64xf32>, tensor<128x2x64xf32>, tensor<2x64xf32>, tensor<2x64x128xf32>, tensor<128xf32>, tensor<128xf32>, tensor<128xf32>, tensor<128x512xf32>, tensor<512xf32>, tensor<512x128xf32>, tensor<128xf32>, tensor<128xf32>, tensor<128xf32>, tensor<128x2x64xf32>, tensor<2x64xf32>, tensor<128x2x64xf32>, tensor<2x64xf32>, tensor<128x2x64xf32>, tensor<2x64xf32>, tensor<2x64x128xf32>, tensor<128xf32>, tensor<128xf32>, tensor<128xf32>, tensor<128x512xf32>, tensor<512xf32>, tensor<512x128xf32>, tensor<128xf32>, tensor<128xf32>, tensor<128xf32>, tensor<i32>, tensor<i32>, tensor<1x32xi32>
    }
    return %0#38 : tensor<1x32xi32>
  }
  func.func private @closed_call(%arg0: tensor<1000x128xf32>, %arg1: tensor<32x128xf32>, %arg2: tensor<128xf32>, %arg3: tensor<128xf32>, %arg4: tensor<128x2x64xf32>, %arg5: tensor<2x64xf32>, %arg6: tensor<128x2x64xf32>, %arg7: tensor<2x64xf32>, %arg8: tensor<128x2x64xf32>, %arg9: tensor<2x64xf32>, %arg10: tensor<2x64x128xf32>, %arg11: tensor<128xf32>, %arg12: tensor<128xf32>, %arg13: tensor<128xf32>, %arg14: tensor<128x512xf32>, %arg15: tensor<512xf32>, %arg16: tensor<512x128xf32>, %arg17: tensor<128xf32>, %arg18: tensor<128xf32>, %arg19: tensor<128xf32>, %arg20: tensor<128x2x64xf32>, %arg21: tensor<2x64xf32>, %arg22: tensor<128x2x64xf32>, %arg23: tensor<2x64xf32>, %arg24: tensor<128x2x64xf32>, %arg25: tensor<2x64xf32>, %arg26: tensor<2x64x128xf32>, %arg27: tensor<128xf32>, %arg28: tensor<128xf32>, %arg29: tensor<128xf32>, %arg30: tensor<128x512xf32>, %arg31: tensor<512xf32>, %arg32: tensor<512x128xf32>, %arg33: tensor<128xf32>, %arg34: tensor<128xf32>, %arg35: tensor<128xf32>, %arg36: tensor<i32>, %arg37: tensor<1x32xi32>) -> (tensor<i32>, tensor<1x32xi32>) {
    %cst = stablehlo.constant dense<5.000000e-01> : tensor<f32>
    %cst_0 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %cst_1 = stablehlo.constant dense<0.797884583> : tensor<f32>
    %cst_2 = stablehlo.constant dense<4.471500e-02> : tensor<f32>
    %cst_3 = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %cst_4 = stablehlo.constant dense<-2.38197633E+38> : tensor<f32>
    %c = stablehlo.constant dense<true> : tensor<i1>
    %cst_5 = stablehlo.constant dense<1.250000e-01> : tensor<f32>
    %cst_6 = stablehlo.constant dense<9.99999974E-6> : tensor<f32>
    %cst_7 = stablehlo.constant dense<1.280000e+02> : tensor<f32>
    %cst_8 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %c_9 = stablehlo.constant dense<0> : tensor<i32>
    %c_10 = stablehlo.constant dense<8> : tensor<i32>
    %c_11 = stablehlo.constant dense<1> : tensor<i32>
    %0 = stablehlo.add %arg36, %c_11 : tensor<i32>
    %1 = stablehlo.add %c_10, %arg36 : tensor<i32>
    %2 = stablehlo.iota dim = 0 : tensor<32xi32>
    %3 = stablehlo.broadcast_in_dim %2, dims = [1] : (tensor<32xi32>) -> tensor<1x32xi32>
    %4 = stablehlo.convert %1 : tensor<i32>
    %5 = stablehlo.broadcast_in_dim %4, dims = [] : (tensor<i32>) -> tensor<1x32xi32>
    %6 = stablehlo.compare LT, %3, %5, SIGNED : (tensor<1x32xi32>, tensor<1x32xi32>) -> tensor<1x32xi1>
    %7 = stablehlo.convert %6 : (tensor<1x32xi1>) -> tensor<1x32xi32>
    %8 = call @_take(%arg0, %arg37) : (tensor<1000x128xf32>, tensor<1x32xi32>) -> tensor<1x32x128xf32>
    %9 = stablehlo.dynamic_slice %arg1, %c_9, %c_9, sizes = [32, 128] : (tensor<32x128xf32>, tensor<i32>, tensor<i32>) -> tensor<32x128xf32>
    %10 = stablehlo.broadcast_in_dim %9, dims = [1, 2] : (tensor<32x128xf32>) -> tensor<1x32x128xf32>
    %11 = stablehlo.add %8, %10 : tensor<1x32x128xf32>
    %12 = stablehlo.broadcast_in_dim %7, dims = [0, 2] : (tensor<1x32xi32>) -> tensor<1x1x32xi32>
    %13 = stablehlo.iota dim = 0 : tensor<32xf32>
    %14 = stablehlo.broadcast_in_dim %cst_8, dims = [] : (tensor<f32>) -> tensor<32xf32>
    %15 = stablehlo.add %13, %14 : tensor<32xf32>
    %16 = stablehlo.broadcast_in_dim %15, dims = [0] : (tensor<32xf32>) -> tensor<32x1xf32>
    %17 = stablehlo.iota dim = 0 : tensor<32xf32>
    %18 = stablehlo.broadcast_in_dim %17, dims = [1] : (tensor<32xf32>) -> tensor<1x32xf32>
    %19 = stablehlo.broadcast_in_dim %16, dims = [0, 1] : (tensor<32x1xf32>) -> tensor<32x32xf32>
    %20 = stablehlo.broadcast_in_dim %18, dims = [0, 1] : (tensor<1x32xf32>) -> tensor<32x32xf32>
    %21 = stablehlo.compare GE, %19, %20, FLOAT : (tensor<32x32xf32>, tensor<32x32xf32>) -> tensor<32x32xi1>
    %22 = stablehlo.broadcast_in_dim %21, dims = [1, 2] : (tensor<32x32xi1>) -> tensor<1x32x32xi1>
    %23 = stablehlo.convert %22 : (tensor<1x32x32xi1>) -> tensor<1x32x32xi32>
    %24 = stablehlo.broadcast_in_dim %12, dims = [0, 1, 2] : (tensor<1x1x32xi32>) -> tensor<1x32x32xi32>
    %25 = stablehlo.minimum %24, %23 : tensor<1x32x32xi32>
    %26 = stablehlo.reduce(%11 init: %cst_8) applies stablehlo.add across dimensions = [2] : (tensor<1x32x128xf32>, tensor<f32>) -> tensor<1x32xf32>
    %27 = stablehlo.broadcast_in_dim %26, dims = [0, 1] : (tensor<1x32xf32>) -> tensor<1x32x1xf32>
    %28 = stablehlo.broadcast_in_dim %cst_7, dims = [] : (tensor<f32>) -> tensor<1x32x1xf32>
    %29 = stablehlo.divide %27, %28 : tensor<1x32x1xf32>
    %30 = call @_var(%11, %c_9) : (tensor<1x32x128xf32>, tensor<i32>) -> tensor<1x32x1xf32>
    %31 = stablehlo.reshape %arg2 : (tensor<128xf32>) -> tensor<1x1x128xf32>
    %32 = stablehlo.reshape %arg3 : (tensor<128xf32>) -> tensor<1x1x128xf32>
    %33 = stablehlo.broadcast_in_dim %cst_6, dims = [] : (tensor<f32>) -> tensor<1x32x1xf32>
    %34 = stablehlo.add %30, %33 : tensor<1x32x1xf32>
    %35 = stablehlo.rsqrt %34 : tensor<1x32x1xf32>
    %36 = stablehlo.broadcast_in_dim %35, dims = [0, 1, 2] : (tensor<1x32x1xf32>) -> tensor<1x32x128xf32>
    %37 = stablehlo.broadcast_in_dim %31, dims = [0, 1, 2] : (tensor<1x1x128xf32>) -> tensor<1x32x128xf32>
    %38 = stablehlo.multiply %36, %37 : tensor<1x32x128xf32>
    %39 = stablehlo.negate %29 : tensor<1x32x1xf32>
    %40 = stablehlo.broadcast_in_dim %39, dims = [0, 1, 2] : (tensor<1x32x1xf32>) -> tensor<1x32x128xf32>
    %41 = stablehlo.multiply %40, %38 : tensor<1x32x128xf32>
    %42 = stablehlo.broadcast_in_dim %32, dims = [0, 1, 2] : (tensor<1x1x128xf32>) -> tensor<1x32x128xf32>
    %43 = stablehlo.add %41, %42 : tensor<1x32x128xf32>
    %44 = stablehlo.multiply %11, %38 : tensor<1x32x128xf32>
    %45 = stablehlo.add %44, %43 : tensor<1x32x128xf32>
    %46 = stablehlo.dot_general %45, %arg4, contracting_dims = [2] x [0] : (tensor<1x32x128xf32>, tensor<128x2x64xf32>) -> tensor<1x32x2x64xf32>
    %47 = stablehlo.broadcast_in_dim %arg5, dims = [2, 3] : (tensor<2x64xf32>) -> tensor<1x1x2x64xf32>
    %48 = stablehlo.broadcast_in_dim %47, dims = [0, 1, 2, 3] : (tensor<1x1x2x64xf32>) -> tensor<1x32x2x64xf32>
    %49 = stablehlo.add %46, %48 : tensor<1x32x2x64xf32>
    %50 = stablehlo.dot_general %45, %arg6, contracting_dims = [2] x [0] : (tensor<1x32x128xf32>, tensor<128x2x64xf32>) -> tensor<1x32x2x64xf32>
    %51 = stablehlo.broadcast_in_dim %arg7, dims = [2, 3] : (tensor<2x64xf32>) -> tensor<1x1x2x64xf32>
    %52 = stablehlo.broadcast_in_dim %51, dims = [0, 1, 2, 3] : (tensor<1x1x2x64xf32>) -> tensor<1x32x2x64xf32>
    %53 = stablehlo.add %50, %52 : tensor<1x32x2x64xf32>
    %54 = stablehlo.dot_general %45, %arg8, contracting_dims = [2] x [0] : (tensor<1x32x128xf32>, tensor<128x2x64xf32>) -> tensor<1x32x2x64xf32>
    %55 = stablehlo.broadcast_in_dim %arg9, dims = [2, 3] : (tensor<2x64xf32>) -> tensor<1x1x2x64xf32>
    %56 = stablehlo.broadcast_in_dim %55, dims = [0, 1, 2, 3] : (tensor<1x1x2x64xf32>) -> tensor<1x32x2x64xf32>
    %57 = stablehlo.add %54, %56 : tensor<1x32x2x64xf32>
    %58 = stablehlo.broadcast_in_dim %25, dims = [0, 2, 3] : (tensor<1x32x32xi32>) -> tensor<1x1x32x32xi32>
    %59 = stablehlo.broadcast_in_dim %c_9, dims = [] : (tensor<i32>) -> tensor<1x1x32x32xi32>
    %60 = stablehlo.compare NE, %58, %59, SIGNED : (tensor<1x1x32x32xi32>, tensor<1x1x32x32xi32>) -> tensor<1x1x32x32xi1>
    %61 = stablehlo.convert %60 : tensor<1x1x32x32xi1>
    %62 = stablehlo.reshape %49 : (tensor<1x32x2x64xf32>) -> tensor<1x32x2x1x64xf32>
    %63 = stablehlo.broadcast_in_dim %61, dims = [0, 1, 3, 4] : (tensor<1x1x32x32xi1>) -> tensor<1x1x1x32x32xi1>
    %64 = stablehlo.dot_general %62, %53, batching_dims = [0, 2] x [0, 2], contracting_dims = [4] x [3] : (tensor<1x32x2x1x64xf32>, tensor<1x32x2x64xf32>) -> tensor<1x2x32x1x32xf32>
    %65 = stablehlo.broadcast_in_dim %cst_5, dims = [] : (tensor<f32>) -> tensor<1x2x32x1x32xf32>
    %66 = stablehlo.multiply %64, %65 : tensor<1x2x32x1x32xf32>
    %67 = stablehlo.broadcast_in_dim %c, dims = [] : (tensor<i1>) -> tensor<1x2x32x32xi1>
    %68 = stablehlo.broadcast_in_dim %67, dims = [1, 2, 3, 4] : (tensor<1x2x32x32xi1>) -> tensor<1x1x2x32x32xi1>
    %69 = stablehlo.transpose %63, dims = [2, 0, 1, 3, 4] : (tensor<1x1x1x32x32xi1>) -> tensor<1x1x1x32x32xi1>
    %70 = stablehlo.broadcast_in_dim %69, dims = [0, 1, 2, 3, 4] : (tensor<1x1x1x32x32xi1>) -> tensor<1x1x2x32x32xi1>
    %71 = stablehlo.and %68, %70 : tensor<1x1x2x32x32xi1>
    %72 = call @_where_1(%71, %66, %cst_4) : (tensor<1x1x2x32x32xi1>, tensor<1x2x32x1x32xf32>, tensor<f32>) -> tensor<1x1x2x32x32xf32>
    %73 = stablehlo.reduce(%72 init: %cst_3) applies stablehlo.maximum across dimensions = [4] : (tensor<1x1x2x32x32xf32>, tensor<f32>) -> tensor<1x1x2x32xf32>
    %74 = stablehlo.broadcast_in_dim %cst_3, dims = [] : (tensor<f32>) -> tensor<1x1x2x32xf32>
    %75 = stablehlo.maximum %74, %73 : tensor<1x1x2x32xf32>
    %76 = stablehlo.broadcast_in_dim %75, dims = [0, 1, 2, 3] : (tensor<1x1x2x32xf32>) -> tensor<1x1x2x32x1xf32>
    %77 = stablehlo.broadcast_in_dim %76, dims = [0, 1, 2, 3, 4] : (tensor<1x1x2x32x1xf32>) -> tensor<1x1x2x32x32xf32>
    %78 = stablehlo.subtract %72, %77 : tensor<1x1x2x32x32xf32>
    %79 = stablehlo.exponential %78 : tensor<1x1x2x32x32xf32>
    %80 = stablehlo.reduce(%79 init: %cst_8) applies stablehlo.add across dimensions = [4] : (tensor<1x1x2x32x32xf32>, tensor<f32>) -> tensor<1x1x2x32xf32>
    %81 = stablehlo.broadcast_in_dim %80, dims = [0, 1, 2, 3] : (tensor<1x1x2x32xf32>) -> tensor<1x1x2x32x1xf32>
    %82 = stablehlo.broadcast_in_dim %81, dims = [0, 1, 2, 3, 4] : (tensor<1x1x2x32x1xf32>) -> tensor<1x1x2x32x32xf32>
    %83 = stablehlo.divide %79, %82 : tensor<1x1x2x32x32xf32>
    %84 = stablehlo.dot_general %57, %83, batching_dims = [0, 2] x [1, 2], contracting_dims = [1] x [4] : (tensor<1x32x2x64xf32>, tensor<1x1x2x32x32xf32>) -> tensor<1x2x64x1x32xf32>
    %85 = stablehlo.transpose %84, dims = [3, 0, 4, 1, 2] : (tensor<1x2x64x1x32xf32>) -> tensor<1x1x32x2x64xf32>
    %86 = stablehlo.transpose %85, dims = [1, 2, 3, 0, 4] : (tensor<1x1x32x2x64xf32>) -> tensor<1x32x2x1x64xf32>
    %87 = stablehlo.reshape %86 : (tensor<1x32x2x1x64xf32>) -> tensor<1x32x2x64xf32>
    %88 = stablehlo.dot_general %87, %arg10, contracting_dims = [2, 3] x [0, 1] : (tensor<1x32x2x64xf32>, tensor<2x64x128xf32>) -> tensor<1x32x128xf32>
    %89 = stablehlo.broadcast_in_dim %arg11, dims = [2] : (tensor<128xf32>) -> tensor<1x1x128xf32>
    %90 = stablehlo.broadcast_in_dim %89, dims = [0, 1, 2] : (tensor<1x1x128xf32>) -> tensor<1x32x128xf32>
    %91 = stablehlo.add %88, %90 : tensor<1x32x128xf32>
    %92 = stablehlo.add %91, %11 : tensor<1x32x128xf32>
    %93 = stablehlo.reduce(%92 init: %cst_8) applies stablehlo.add across dimensions = [2] : (tensor<1x32x128xf32>, tensor<f32>) -> tensor<1x32xf32>
    %94 = stablehlo.broadcast_in_dim %93, dims = [0, 1] : (tensor<1x32xf32>) -> tensor<1x32x1xf32>
    %95 = stablehlo.broadcast_in_dim %cst_7, dims = [] : (tensor<f32>) -> tensor<1x32x1xf32>
    %96 = stablehlo.divide %94, %95 : tensor<1x32x1xf32>
    %97 = call @_var(%92, %c_9) : (tensor<1x32x128xf32>, tensor<i32>) -> tensor<1x32x1xf32>
    %98 = stablehlo.reshape %arg12 : (tensor<128xf32>) -> tensor<1x1x128xf32>
    %99 = stablehlo.reshape %arg13 : (tensor<128xf32>) -> tensor<1x1x128xf32>
    %100 = stablehlo.broadcast_in_dim %cst_6, dims = [] : (tensor<f32>) -> tensor<1x32x1xf32>
    %101 = stablehlo.add %97, %100 : tensor<1x32x1xf32>
    %102 = stablehlo.rsqrt %101 : tensor<1x32x1xf32>
    %103 = stablehlo.broadcast_in_dim %102, dims = [0, 1, 2] : (tensor<1x32x1xf32>) -> tensor<1x32x128xf32>
    %104 = stablehlo.broadcast_in_dim %98, dims = [0, 1, 2] : (tensor<1x1x128xf32>) -> tensor<1x32x128xf32>
    %105 = stablehlo.multiply %103, %104 : tensor<1x32x128xf32>
    %106 = stablehlo.negate %96 : tensor<1x32x1xf32>
    %107 = stablehlo.broadcast_in_dim %106, dims = [0, 1, 2] : (tensor<1x32x1xf32>) -> tensor<1x32x128xf32>
    %108 = stablehlo.multiply %107, %105 : tensor<1x32x128xf32>
    %109 = stablehlo.broadcast_in_dim %99, dims = [0, 1, 2] : (tensor<1x1x128xf32>) -> tensor<1x32x128xf32>
    %110 = stablehlo.add %108, %109 : tensor<1x32x128xf32>
    %111 = stablehlo.multiply %92, %105 : tensor<1x32x128xf32>
    %112 = stablehlo.add %111, %110 : tensor<1x32x128xf32>
    %113 = stablehlo.dot_general %112, %arg14, contracting_dims = [2] x [0] : (tensor<1x32x128xf32>, tensor<128x512xf32>) -> tensor<1x32x512xf32>
    %114 = stablehlo.broadcast_in_dim %arg15, dims = [2] : (tensor<512xf32>) -> tensor<1x1x512xf32>
    %115 = stablehlo.broadcast_in_dim %114, dims = [0, 1, 2] : (tensor<1x1x512xf32>) -> tensor<1x32x512xf32>
    %116 = stablehlo.add %113, %115 : tensor<1x32x512xf32>
    %117 = stablehlo.multiply %116, %116 : tensor<1x32x512xf32>
    %118 = stablehlo.multiply %117, %116 : tensor<1x32x512xf32>
    %119 = stablehlo.broadcast_in_dim %cst_2, dims = [] : (tensor<f32>) -> tensor<1x32x512xf32>
    %120 = stablehlo.multiply %119, %118 : tensor<1x32x512xf32>
    %121 = stablehlo.add %116, %120 : tensor<1x32x512xf32>
    %122 = stablehlo.broadcast_in_dim %cst_1, dims = [] : (tensor<f32>) -> tensor<1x32x512xf32>
    %123 = stablehlo.multiply %122, %121 : tensor<1x32x512xf32>
    %124 = stablehlo.tanh %123 : tensor<1x32x512xf32>
    %125 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<f32>) -> tensor<1x32x512xf32>
    %126 = stablehlo.add %125, %124 : tensor<1x32x512xf32>
    %127 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<1x32x512xf32>
    %128 = stablehlo.multiply %127, %126 : tensor<1x32x512xf32>
    %129 = stablehlo.multiply %116, %128 : tensor<1x32x512xf32>
    %130 = stablehlo.dot_general %129, %arg16, contracting_dims = [2] x [0] : (tensor<1x32x512xf32>, tensor<512x128xf32>) -> tensor<1x32x128xf32>
    %131 = stablehlo.broadcast_in_dim %arg17, dims = [2] : (tensor<128xf32>) -> tensor<1x1x128xf32>
    %132 = stablehlo.broadcast_in_dim %131, dims = [0, 1, 2] : (tensor<1x1x128xf32>) -> tensor<1x32x128xf32>
    %133 = stablehlo.add %130, %132 : tensor<1x32x128xf32>
    %134 = stablehlo.add %133, %92 : tensor<1x32x128xf32>
    %135 = stablehlo.broadcast_in_dim %7, dims = [0, 2] : (tensor<1x32xi32>) -> tensor<1x1x32xi32>
    %136 = stablehlo.iota dim = 0 : tensor<32xf32>
    %137 = stablehlo.broadcast_in_dim %cst_8, dims = [] : (tensor<f32>) -> tensor<32xf32>
    %138 = stablehlo.add %136, %137 : tensor<32xf32>
    %139 = stablehlo.broadcast_in_dim %138, dims = [0] : (tensor<32xf32>) -> tensor<32x1xf32>
    %140 = stablehlo.iota dim = 0 : tensor<32xf32>
    %141 = stablehlo.broadcast_in_dim %140, dims = [1] : (tensor<32xf32>) -> tensor<1x32xf32>
    %142 = stablehlo.broadcast_in_dim %139, dims = [0, 1] : (tensor<32x1xf32>) -> tensor<32x32xf32>
    %143 = stablehlo.broadcast_in_dim %141, dims = [0, 1] : (tensor<1x32xf32>) -> tensor<32x32xf32>
    %144 = stablehlo.compare GE, %142, %143, FLOAT : (tensor<32x32xf32>, tensor<32x32xf32>) -> tensor<32x32xi1>
    %145 = stablehlo.broadcast_in_dim %144, dims = [1, 2] : (tensor<32x32xi1>) -> tensor<1x32x32xi1>
    %146 = stablehlo.convert %145 : (tensor<1x32x32xi1>) -> tensor<1x32x32xi32>
    %147 = stablehlo.broadcast_in_dim %135, dims = [0, 1, 2] : (tensor<1x1x32xi32>) -> tensor<1x32x32xi32>
    %148 = stablehlo.minimum %147, %146 : tensor<1x32x32xi32>
    %149 = stablehlo.reduce(%134 init: %cst_8) applies stablehlo.add across dimensions = [2] : (tensor<1x32x128xf32>, tensor<f32>) -> tensor<1x32xf32>
    %150 = stablehlo.broadcast_in_dim %149, dims = [0, 1] : (tensor<1x32xf32>) -> tensor<1x32x1xf32>
    %151 = stablehlo.broadcast_in_dim %cst_7, dims = [] : (tensor<f32>) -> tensor<1x32x1xf32>
    %152 = stablehlo.divide %150, %151 : tensor<1x32x1xf32>
    %153 = call @_var(%134, %c_9) : (tensor<1x32x128xf32>, tensor<i32>) -> tensor<1x32x1xf32>
    %154 = stablehlo.reshape %arg18 : (tensor<128xf32>) -> tensor<1x1x128xf32>
    %155 = stablehlo.reshape %arg19 : (tensor<128xf32>) -> tensor<1x1x128xf32>
    %156 = stablehlo.broadcast_in_dim %cst_6, dims = [] : (tensor<f32>) -> tensor<1x32x1xf32>
    %157 = stablehlo.add %153, %156 : tensor<1x32x1xf32>
    %158 = stablehlo.rsqrt %157 : tensor<1x32x1xf32>
    %159 = stablehlo.broadcast_in_dim %158, dims = [0, 1, 2] : (tensor<1x32x1xf32>) -> tensor<1x32x128xf32>
    %160 = stablehlo.broadcast_in_dim %154, dims = [0, 1, 2] : (tensor<1x1x128xf32>) -> tensor<1x32x128xf32>
    %161 = stablehlo.multiply %159, %160 : tensor<1x32x128xf32>
    %162 = stablehlo.negate %152 : tensor<1x32x1xf32>
    %163 = stablehlo.broadcast_in_dim %162, dims = [0, 1, 2] : (tensor<1x32x1xf32>) -> tensor<1x32x128xf32>
    %164 = stablehlo.multiply %163, %161 : tensor<1x32x128xf32>
    %165 = stablehlo.broadcast_in_dim %155, dims = [0, 1, 2] : (tensor<1x1x128xf32>) -> tensor<1x32x128xf32>
    %166 = stablehlo.add %164, %165 : tensor<1x32x128xf32>
    %167 = stablehlo.multiply %134, %161 : tensor<1x32x128xf32>
    %168 = stablehlo.add %167, %166 : tensor<1x32x128xf32>
    %169 = stablehlo.dot_general %168, %arg20, contracting_dims = [2] x [0] : (tensor<1x32x128xf32>, tensor<128x2x64xf32>) -> tensor<1x32x2x64xf32>
    %170 = stablehlo.broadcast_in_dim %arg21, dims = [2, 3] : (tensor<2x64xf32>) -> tensor<1x1x2x64xf32>
    %171 = stablehlo.broadcast_in_dim %170, dims = [0, 1, 2, 3] : (tensor<1x1x2x64xf32>) -> tensor<1x32x2x64xf32>
    %172 = stablehlo.add %169, %171 : tensor<1x32x2x64xf32>
    %173 = stablehlo.dot_general %168, %arg22, contracting_dims = [2] x [0] : (tensor<1x32x128xf32>, tensor<128x2x64xf32>) -> tensor<1x32x2x64xf32>
    %174 = stablehlo.broadcast_in_dim %arg23, dims = [2, 3] : (tensor<2x64xf32>) -> tensor<1x1x2x64xf32>
    %175 = stablehlo.broadcast_in_dim %174, dims = [0, 1, 2, 3] : (tensor<1x1x2x64xf32>) -> tensor<1x32x2x64xf32>
    %176 = stablehlo.add %173, %175 : tensor<1x32x2x64xf32>
    %177 = stablehlo.dot_general %168, %arg24, contracting_dims = [2] x [0] : (tensor<1x32x128xf32>, tensor<128x2x64xf32>) -> tensor<1x32x2x64xf32>
    %178 = stablehlo.broadcast_in_dim %arg25, dims = [2, 3] : (tensor<2x64xf32>) -> tensor<1x1x2x64xf32>
    %179 = stablehlo.broadcast_in_dim %178, dims = [0, 1, 2, 3] : (tensor<1x1x2x64xf32>) -> tensor<1x32x2x64xf32>
    %180 = stablehlo.add %177, %179 : tensor<1x32x2x64xf32>
    %181 = stablehlo.broadcast_in_dim %148, dims = [0, 2, 3] : (tensor<1x32x32xi32>) -> tensor<1x1x32x32xi32>
    %182 = stablehlo.broadcast_in_dim %c_9, dims = [] : (tensor<i32>) -> tensor<1x1x32x32xi32>
    %183 = stablehlo.compare NE, %181, %182, SIGNED : (tensor<1x1x32x32xi32>, tensor<1x1x32x32xi32>) -> tensor<1x1x32x32xi1>
    %184 = stablehlo.convert %183 : tensor<1x1x32x32xi1>
    %185 = stablehlo.reshape %172 : (tensor<1x32x2x64xf32>) -> tensor<1x32x2x1x64xf32>
    %186 = stablehlo.broadcast_in_dim %184, dims = [0, 1, 3, 4] : (tensor<1x1x32x32xi1>) -> tensor<1x1x1x32x32xi1>
    %187 = stablehlo.dot_general %185, %176, batching_dims = [0, 2] x [0, 2], contracting_dims = [4] x [3] : (tensor<1x32x2x1x64xf32>, tensor<1x32x2x64xf32>) -> tensor<1x2x32x1x32xf32>
    %188 = stablehlo.broadcast_in_dim %cst_5, dims = [] : (tensor<f32>) -> tensor<1x2x32x1x32xf32>
    %189 = stablehlo.multiply %187, %188 : tensor<1x2x32x1x32xf32>
    %190 = stablehlo.broadcast_in_dim %c, dims = [] : (tensor<i1>) -> tensor<1x2x32x32xi1>
    %191 = stablehlo.broadcast_in_dim %190, dims = [1, 2, 3, 4] : (tensor<1x2x32x32xi1>) -> tensor<1x1x2x32x32xi1>
    %192 = stablehlo.transpose %186, dims = [2, 0, 1, 3, 4] : (tensor<1x1x1x32x32xi1>) -> tensor<1x1x1x32x32xi1>
    %193 = stablehlo.broadcast_in_dim %192, dims = [0, 1, 2, 3, 4] : (tensor<1x1x1x32x32xi1>) -> tensor<1x1x2x32x32xi1>
    %194 = stablehlo.and %191, %193 : tensor<1x1x2x32x32xi1>
    %195 = call @_where_1(%194, %189, %cst_4) : (tensor<1x1x2x32x32xi1>, tensor<1x2x32x1x32xf32>, tensor<f32>) -> tensor<1x1x2x32x32xf32>
    %196 = stablehlo.reduce(%195 init: %cst_3) applies stablehlo.maximum across dimensions = [4] : (tensor<1x1x2x32x32xf32>, tensor<f32>) -> tensor<1x1x2x32xf32>
    %197 = stablehlo.broadcast_in_dim %cst_3, dims = [] : (tensor<f32>) -> tensor<1x1x2x32xf32>
    %198 = stablehlo.maximum %197, %196 : tensor<1x1x2x32xf32>
    %199 = stablehlo.broadcast_in_dim %198, dims = [0, 1, 2, 3] : (tensor<1x1x2x32xf32>) -> tensor<1x1x2x32x1xf32>
    %200 = stablehlo.broadcast_in_dim %199, dims = [0, 1, 2, 3, 4] : (tensor<1x1x2x32x1xf32>) -> tensor<1x1x2x32x32xf32>
    %201 = stablehlo.subtract %195, %200 : tensor<1x1x2x32x32xf32>
    %202 = stablehlo.exponential %201 : tensor<1x1x2x32x32xf32>
    %203 = stablehlo.reduce(%202 init: %cst_8) applies stablehlo.add across dimensions = [4] : (tensor<1x1x2x32x32xf32>, tensor<f32>) -> tensor<1x1x2x32xf32>
    %204 = stablehlo.broadcast_in_dim %203, dims = [0, 1, 2, 3] : (tensor<1x1x2x32xf32>) -> tensor<1x1x2x32x1xf32>
    %205 = stablehlo.broadcast_in_dim %204, dims = [0, 1, 2, 3, 4] : (tensor<1x1x2x32x1xf32>) -> tensor<1x1x2x32x32xf32>
    %206 = stablehlo.divide %202, %205 : tensor<1x1x2x32x32xf32>
    %207 = stablehlo.dot_general %180, %206, batching_dims = [0, 2] x [1, 2], contracting_dims = [1] x [4] : (tensor<1x32x2x64xf32>, tensor<1x1x2x32x32xf32>) -> tensor<1x2x64x1x32xf32>
    %208 = stablehlo.transpose %207, dims = [3, 0, 4, 1, 2] : (tensor<1x2x64x1x32xf32>) -> tensor<1x1x32x2x64xf32>
    %209 = stablehlo.transpose %208, dims = [1, 2, 3, 0, 4] : (tensor<1x1x32x2x64xf32>) -> tensor<1x32x2x1x64xf32>
    %210 = stablehlo.reshape %209 : (tensor<1x32x2x1x64xf32>) -> tensor<1x32x2x64xf32>
    %211 = stablehlo.dot_general %210, %arg26, contracting_dims = [2, 3] x [0, 1] : (tensor<1x32x2x64xf32>, tensor<2x64x128xf32>) -> tensor<1x32x128xf32>
    %212 = stablehlo.broadcast_in_dim %arg27, dims = [2] : (tensor<128xf32>) -> tensor<1x1x128xf32>
    %213 = stablehlo.broadcast_in_dim %212, dims = [0, 1, 2] : (tensor<1x1x128xf32>) -> tensor<1x32x128xf32>
    %214 = stablehlo.add %211, %213 : tensor<1x32x128xf32>
    %215 = stablehlo.add %214, %134 : tensor<1x32x128xf32>
    %216 = stablehlo.reduce(%215 init: %cst_8) applies stablehlo.add across dimensions = [2] : (tensor<1x32x128xf32>, tensor<f32>) -> tensor<1x32xf32>
    %217 = stablehlo.broadcast_in_dim %216, dims = [0, 1] : (tensor<1x32xf32>) -> tensor<1x32x1xf32>
    %218 = stablehlo.broadcast_in_dim %cst_7, dims = [] : (tensor<f32>) -> tensor<1x32x1xf32>
    %219 = stablehlo.divide %217, %218 : tensor<1x32x1xf32>
    %220 = call @_var(%215, %c_9) : (tensor<1x32x128xf32>, tensor<i32>) -> tensor<1x32x1xf32>
    %221 = stablehlo.reshape %arg28 : (tensor<128xf32>) -> tensor<1x1x128xf32>
    %222 = stablehlo.reshape %arg29 : (tensor<128xf32>) -> tensor<1x1x128xf32>
    %223 = stablehlo.broadcast_in_dim %cst_6, dims = [] : (tensor<f32>) -> tensor<1x32x1xf32>
    %224 = stablehlo.add %220, %223 : tensor<1x32x1xf32>
    %225 = stablehlo.rsqrt %224 : tensor<1x32x1xf32>
    %226 = stablehlo.broadcast_in_dim %225, dims = [0, 1, 2] : (tensor<1x32x1xf32>) -> tensor<1x32x128xf32>
    %227 = stablehlo.broadcast_in_dim %221, dims = [0, 1, 2] : (tensor<1x1x128xf32>) -> tensor<1x32x128xf32>
    %228 = stablehlo.multiply %226, %227 : tensor<1x32x128xf32>
    %229 = stablehlo.negate %219 : tensor<1x32x1xf32>
    %230 = stablehlo.broadcast_in_dim %229, dims = [0, 1, 2] : (tensor<1x32x1xf32>) -> tensor<1x32x128xf32>
    %231 = stablehlo.multiply %230, %228 : tensor<1x32x128xf32>
    %232 = stablehlo.broadcast_in_dim %222, dims = [0, 1, 2] : (tensor<1x1x128xf32>) -> tensor<1x32x128xf32>
    %233 = stablehlo.add %231, %232 : tensor<1x32x128xf32>
    %234 = stablehlo.multiply %215, %228 : tensor<1x32x128xf32>
    %235 = stablehlo.add %234, %233 : tensor<1x32x128xf32>
    %236 = stablehlo.dot_general %235, %arg30, contracting_dims = [2] x [0] : (tensor<1x32x128xf32>, tensor<128x512xf32>) -> tensor<1x32x512xf32>
    %237 = stablehlo.broadcast_in_dim %arg31, dims = [2] : (tensor<512xf32>) -> tensor<1x1x512xf32>
    %238 = stablehlo.broadcast_in_dim %237, dims = [0, 1, 2] : (tensor<1x1x512xf32>) -> tensor<1x32x512xf32>
    %239 = stablehlo.add %236, %238 : tensor<1x32x512xf32>
    %240 = stablehlo.multiply %239, %239 : tensor<1x32x512xf32>
    %241 = stablehlo.multiply %240, %239 : tensor<1x32x512xf32>
    %242 = stablehlo.broadcast_in_dim %cst_2, dims = [] : (tensor<f32>) -> tensor<1x32x512xf32>
    %243 = stablehlo.multiply %242, %241 : tensor<1x32x512xf32>
    %244 = stablehlo.add %239, %243 : tensor<1x32x512xf32>
    %245 = stablehlo.broadcast_in_dim %cst_1, dims = [] : (tensor<f32>) -> tensor<1x32x512xf32>
    %246 = stablehlo.multiply %245, %244 : tensor<1x32x512xf32>
    %247 = stablehlo.tanh %246 : tensor<1x32x512xf32>
    %248 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<f32>) -> tensor<1x32x512xf32>
    %249 = stablehlo.add %248, %247 : tensor<1x32x512xf32>
    %250 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<1x32x512xf32>
    %251 = stablehlo.multiply %250, %249 : tensor<1x32x512xf32>
    %252 = stablehlo.multiply %239, %251 : tensor<1x32x512xf32>
    %253 = stablehlo.dot_general %252, %arg32, contracting_dims = [2] x [0] : (tensor<1x32x512xf32>, tensor<512x128xf32>) -> tensor<1x32x128xf32>
    %254 = stablehlo.broadcast_in_dim %arg33, dims = [2] : (tensor<128xf32>) -> tensor<1x1x128xf32>
    %255 = stablehlo.broadcast_in_dim %254, dims = [0, 1, 2] : (tensor<1x1x128xf32>) -> tensor<1x32x128xf32>
    %256 = stablehlo.add %253, %255 : tensor<1x32x128xf32>
    %257 = stablehlo.add %256, %215 : tensor<1x32x128xf32>
    %258 = stablehlo.reduce(%257 init: %cst_8) applies stablehlo.add across dimensions = [2] : (tensor<1x32x128xf32>, tensor<f32>) -> tensor<1x32xf32>
    %259 = stablehlo.broadcast_in_dim %258, dims = [0, 1] : (tensor<1x32xf32>) -> tensor<1x32x1xf32>
    %260 = stablehlo.broadcast_in_dim %cst_7, dims = [] : (tensor<f32>) -> tensor<1x32x1xf32>
    %261 = stablehlo.divide %259, %260 : tensor<1x32x1xf32>
    %262 = call @_var(%257, %c_9) : (tensor<1x32x128xf32>, tensor<i32>) -> tensor<1x32x1xf32>
    %263 = stablehlo.reshape %arg34 : (tensor<128xf32>) -> tensor<1x1x128xf32>
    %264 = stablehlo.reshape %arg35 : (tensor<128xf32>) -> tensor<1x1x128xf32>
    %265 = stablehlo.broadcast_in_dim %cst_6, dims = [] : (tensor<f32>) -> tensor<1x32x1xf32>
    %266 = stablehlo.add %262, %265 : tensor<1x32x1xf32>
    %267 = stablehlo.rsqrt %266 : tensor<1x32x1xf32>
    %268 = stablehlo.broadcast_in_dim %267, dims = [0, 1, 2] : (tensor<1x32x1xf32>) -> tensor<1x32x128xf32>
    %269 = stablehlo.broadcast_in_dim %263, dims = [0, 1, 2] : (tensor<1x1x128xf32>) -> tensor<1x32x128xf32>
    %270 = stablehlo.multiply %268, %269 : tensor<1x32x128xf32>
    %271 = stablehlo.negate %261 : tensor<1x32x1xf32>
    %272 = stablehlo.broadcast_in_dim %271, dims = [0, 1, 2] : (tensor<1x32x1xf32>) -> tensor<1x32x128xf32>
    %273 = stablehlo.multiply %272, %270 : tensor<1x32x128xf32>
    %274 = stablehlo.broadcast_in_dim %264, dims = [0, 1, 2] : (tensor<1x1x128xf32>) -> tensor<1x32x128xf32>
    %275 = stablehlo.add %273, %274 : tensor<1x32x128xf32>
    %276 = stablehlo.multiply %257, %270 : tensor<1x32x128xf32>
    %277 = stablehlo.add %276, %275 : tensor<1x32x128xf32>
    %278 = stablehlo.reshape %277 : (tensor<1x32x128xf32>) -> tensor<32x128xf32>
    %279 = stablehlo.subtract %1, %c_11 : tensor<i32>
    %280 = call @dynamic_index_in_dim(%278, %279) : (tensor<32x128xf32>, tensor<i32>) -> tensor<128xf32>
    %281 = stablehlo.dot_general %arg0, %280, contracting_dims = [1] x [0] : (tensor<1000x128xf32>, tensor<128xf32>) -> tensor<1000xf32>
    %282 = call @argmax(%281) : (tensor<1000xf32>) -> tensor<i32>
    %283 = stablehlo.broadcast_in_dim %282, dims = [] : (tensor<i32>) -> tensor<1xi32>
    %284 = call @dynamic_update_index_in_dim(%arg37, %283, %1) : (tensor<1x32xi32>, tensor<1xi32>, tensor<i32>) -> tensor<1x32xi32>
    return %0, %284 : tensor<i32>, tensor<1x32xi32>
  }
  func.func private @_take(%arg0: tensor<1000x128xf32>, %arg1: tensor<1x32xi32>) -> tensor<1x32x128xf32> {
    %cst = stablehlo.constant dense<0x7FC00000> : tensor<f32>
    %c = stablehlo.constant dense<true> : tensor<i1>
    %c_0 = stablehlo.constant dense<999> : tensor<1xi32>
    %c_1 = stablehlo.constant dense<1000> : tensor<i32>
    %c_2 = stablehlo.constant dense<0> : tensor<i32>
    %0 = stablehlo.broadcast_in_dim %c_2, dims = [] : (tensor<i32>) -> tensor<1x32xi32>
    %1 = stablehlo.compare LT, %arg1, %0, SIGNED : (tensor<1x32xi32>, tensor<1x32xi32>) -> tensor<1x32xi1>
    %2 = stablehlo.broadcast_in_dim %c_1, dims = [] : (tensor<i32>) -> tensor<1x32xi32>
    %3 = stablehlo.add %arg1, %2 : tensor<1x32xi32>
    %4 = call @_where(%1, %3, %arg1) : (tensor<1x32xi1>, tensor<1x32xi32>, tensor<1x32xi32>) -> tensor<1x32xi32>
    %5 = stablehlo.broadcast_in_dim %4, dims = [0, 1] : (tensor<1x32xi32>) -> tensor<1x32x1xi32>
    %6 = stablehlo.broadcast_in_dim %c_2, dims = [] : (tensor<i32>) -> tensor<1x32x1xi32>
    %7 = stablehlo.compare GE, %5, %6, SIGNED : (tensor<1x32x1xi32>, tensor<1x32x1xi32>) -> tensor<1x32x1xi1>
    %8 = stablehlo.broadcast_in_dim %c_0, dims = [2] : (tensor<1xi32>) -> tensor<1x1x1xi32>
    %9 = stablehlo.broadcast_in_dim %8, dims = [0, 1, 2] : (tensor<1x1x1xi32>) -> tensor<1x32x1xi32>
    %10 = stablehlo.compare LE, %5, %9, SIGNED : (tensor<1x32x1xi32>, tensor<1x32x1xi32>) -> tensor<1x32x1xi1>
    %11 = stablehlo.and %7, %10 : tensor<1x32x1xi1>
    %12 = stablehlo.reduce(%11 init: %c) applies stablehlo.and across dimensions = [2] : (tensor<1x32x1xi1>, tensor<i1>) -> tensor<1x32xi1>
    %13 = "stablehlo.gather"(%arg0, %5) <{dimension_numbers = #stablehlo.gather<offset_dims = [2], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 2>, slice_sizes = array<i64: 1, 128>}> : (tensor<1000x128xf32>, tensor<1x32x1xi32>) -> tensor<1x32x128xf32>
    %14 = stablehlo.broadcast_in_dim %12, dims = [0, 1] : (tensor<1x32xi1>) -> tensor<1x32x128xi1>
    %15 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<1x32x128xf32>
    %16 = stablehlo.select %14, %13, %15 : tensor<1x32x128xi1>, tensor<1x32x128xf32>
    return %16 : tensor<1x32x128xf32>
  }
  func.func private @_where(%arg0: tensor<1x32xi1>, %arg1: tensor<1x32xi32>, %arg2: tensor<1x32xi32>) -> tensor<1x32xi32> {
    %0 = stablehlo.select %arg0, %arg1, %arg2 : tensor<1x32xi1>, tensor<1x32xi32>
    return %0 : tensor<1x32xi32>
  }
  func.func private @_var(%arg0: tensor<1x32x128xf32>, %arg1: tensor<i32>) -> tensor<1x32x1xf32> {
    %cst = stablehlo.constant dense<0x7FC00000> : tensor<f32>
    %cst_0 = stablehlo.constant dense<1.280000e+02> : tensor<f32>
    %cst_1 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %0 = stablehlo.reduce(%arg0 init: %cst_1) applies stablehlo.add across dimensions = [2] : (tensor<1x32x128xf32>, tensor<f32>) -> tensor<1x32xf32>
    %1 = stablehlo.broadcast_in_dim %0, dims = [0, 1] : (tensor<1x32xf32>) -> tensor<1x32x1xf32>
    %2 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<f32>) -> tensor<1x32x1xf32>
    %3 = stablehlo.divide %1, %2 : tensor<1x32x1xf32>
    %4 = stablehlo.broadcast_in_dim %3, dims = [0, 1, 2] : (tensor<1x32x1xf32>) -> tensor<1x32x128xf32>
    %5 = stablehlo.subtract %arg0, %4 : tensor<1x32x128xf32>
    %6 = stablehlo.multiply %5, %5 : tensor<1x32x128xf32>
    %7 = stablehlo.convert %arg1 : (tensor<i32>) -> tensor<f32>
    %8 = stablehlo.subtract %cst_0, %7 : tensor<f32>
    %9 = stablehlo.reduce(%6 init: %cst_1) applies stablehlo.add across dimensions = [2] : (tensor<1x32x128xf32>, tensor<f32>) -> tensor<1x32xf32>
    %10 = stablehlo.broadcast_in_dim %9, dims = [0, 1] : (tensor<1x32xf32>) -> tensor<1x32x1xf32>
    %11 = stablehlo.broadcast_in_dim %8, dims = [] : (tensor<f32>) -> tensor<1x32x1xf32>
    %12 = stablehlo.divide %10, %11 : tensor<1x32x1xf32>
    %13 = stablehlo.compare GT, %8, %cst_1, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
    %14 = call @_where_0(%13, %12, %cst) : (tensor<i1>, tensor<1x32x1xf32>, tensor<f32>) -> tensor<1x32x1xf32>
    return %14 : tensor<1x32x1xf32>
  }
  func.func private @_where_0(%arg0: tensor<i1>, %arg1: tensor<1x32x1xf32>, %arg2: tensor<f32>) -> tensor<1x32x1xf32> {
    %0 = stablehlo.convert %arg2 : tensor<f32>
    %1 = stablehlo.broadcast_in_dim %0, dims = [] : (tensor<f32>) -> tensor<1x32x1xf32>
    %2 = stablehlo.select %arg0, %arg1, %1 : tensor<i1>, tensor<1x32x1xf32>
    return %2 : tensor<1x32x1xf32>
  }
  func.func private @_where_1(%arg0: tensor<1x1x2x32x32xi1>, %arg1: tensor<1x2x32x1x32xf32>, %arg2: tensor<f32>) -> tensor<1x1x2x32x32xf32> {
    %0 = stablehlo.broadcast_in_dim %arg2, dims = [] : (tensor<f32>) -> tensor<1x2x32x32xf32>
    %1 = stablehlo.broadcast_in_dim %0, dims = [1, 2, 3, 4] : (tensor<1x2x32x32xf32>) -> tensor<1x1x2x32x32xf32>
    %2 = stablehlo.transpose %arg1, dims = [3, 0, 1, 2, 4] : (tensor<1x2x32x1x32xf32>) -> tensor<1x1x2x32x32xf32>
    %3 = stablehlo.select %arg0, %2, %1 : tensor<1x1x2x32x32xi1>, tensor<1x1x2x32x32xf32>
    return %3 : tensor<1x1x2x32x32xf32>
  }
  func.func private @dynamic_index_in_dim(%arg0: tensor<32x128xf32>, %arg1: tensor<i32>) -> tensor<128xf32> {
    %c = stablehlo.constant dense<32> : tensor<i32>
    %c_0 = stablehlo.constant dense<0> : tensor<i32>
    %0 = stablehlo.compare LT, %arg1, %c_0, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    %1 = stablehlo.convert %arg1 : tensor<i32>
    %2 = stablehlo.add %1, %c : tensor<i32>
    %3 = stablehlo.select %0, %2, %arg1 : tensor<i1>, tensor<i32>
    %4 = stablehlo.dynamic_slice %arg0, %3, %c_0, sizes = [1, 128] : (tensor<32x128xf32>, tensor<i32>, tensor<i32>) -> tensor<1x128xf32>
    %5 = stablehlo.reshape %4 : (tensor<1x128xf32>) -> tensor<128xf32>
    return %5 : tensor<128xf32>
  }
  func.func private @argmax(%arg0: tensor<1000xf32>) -> tensor<i32> {
    %c = stablehlo.constant dense<0> : tensor<i32>
    %cst = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %0 = stablehlo.iota dim = 0 : tensor<1000xi32>
    %1:2 = stablehlo.reduce(%arg0 init: %cst), (%0 init: %c) across dimensions = [0] : (tensor<1000xf32>, tensor<1000xi32>, tensor<f32>, tensor<i32>) -> (tensor<f32>, tensor<i32>)
     reducer(%arg1: tensor<f32>, %arg3: tensor<f32>) (%arg2: tensor<i32>, %arg4: tensor<i32>)  {
      %2 = stablehlo.compare GT, %arg1, %arg3, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
      %3 = stablehlo.compare NE, %arg1, %arg1, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
      %4 = stablehlo.or %2, %3 : tensor<i1>
      %5 = stablehlo.compare EQ, %arg1, %arg3, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
      %6 = stablehlo.compare LT, %arg2, %arg4, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
      %7 = stablehlo.and %5, %6 : tensor<i1>
      %8 = stablehlo.or %4, %7 : tensor<i1>
      %9 = stablehlo.select %4, %arg1, %arg3 : tensor<i1>, tensor<f32>
      %10 = stablehlo.select %8, %arg2, %arg4 : tensor<i1>, tensor<i32>
      stablehlo.return %9, %10 : tensor<f32>, tensor<i32>
    }
    return %1#1 : tensor<i32>
  }
  func.func private @dynamic_update_index_in_dim(%arg0: tensor<1x32xi32>, %arg1: tensor<1xi32>, %arg2: tensor<i32>) -> tensor<1x32xi32> {
    %c = stablehlo.constant dense<32> : tensor<i32>
    %c_0 = stablehlo.constant dense<0> : tensor<i32>
    %0 = stablehlo.broadcast_in_dim %arg1, dims = [0] : (tensor<1xi32>) -> tensor<1x1xi32>
    %1 = stablehlo.compare LT, %arg2, %c_0, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    %2 = stablehlo.convert %arg2 : tensor<i32>
    %3 = stablehlo.add %2, %c : tensor<i32>
    %4 = stablehlo.select %1, %3, %arg2 : tensor<i1>, tensor<i32>
    %5 = stablehlo.dynamic_update_slice %arg0, %0, %c_0, %4 : (tensor<1x32xi32>, tensor<1x1xi32>, tensor<i32>, tensor<i32>) -> tensor<1x32xi32>
    return %5 : tensor<1x32xi32>
  }
}
