module @jit_fn attributes {jax.uses_shape_polymorphism = false, mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<1000x128xf32>, %arg1: tensor<32x128xf32>, %arg2: tensor<128x2x64xf32>, %arg3: tensor<2x64xf32>, %arg4: tensor<128x2x64xf32>, %arg5: tensor<2x64xf32>, %arg6: tensor<128x2x64xf32>, %arg7: tensor<2x64xf32>, %arg8: tensor<2x64x128xf32>, %arg9: tensor<128xf32>, %arg10: tensor<128xf32>, %arg11: tensor<128xf32>, %arg12: tensor<128x512xf32>, %arg13: tensor<512xf32>, %arg14: tensor<512x128xf32>, %arg15: tensor<128xf32>, %arg16: tensor<128xf32>, %arg17: tensor<128xf32>, %arg18: tensor<128x2x64xf32>, %arg19: tensor<2x64xf32>, %arg20: tensor<128x2x64xf32>, %arg21: tensor<2x64xf32>, %arg22: tensor<128x2x64xf32>, %arg23: tensor<2x64xf32>, %arg24: tensor<2x64x128xf32>, %arg25: tensor<128xf32>, %arg26: tensor<128xf32>, %arg27: tensor<128xf32>, %arg28: tensor<128x512xf32>, %arg29: tensor<512xf32>, %arg30: tensor<512x128xf32>, %arg31: tensor<128xf32>, %arg32: tensor<128xf32>, %arg33: tensor<128xf32>, %arg34: tensor<128xf32>, %arg35: tensor<128xf32>, %arg36: tensor<1x32xi32>, %arg37: tensor<1x32xi32>) -> (tensor<1x32xi32> {jax.result_info = "result"}) {
    %cst = stablehlo.constant dense<-1.17549435E-38> : tensor<f32>
    %c = stablehlo.constant dense<1> : tensor<i32>
    %c_0 = stablehlo.constant dense<32> : tensor<i32>
    %c_1 = stablehlo.constant dense<2147483647> : tensor<i32>
    %cst_2 = stablehlo.constant dense<5.000000e-01> : tensor<f32>
    %cst_3 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %cst_4 = stablehlo.constant dense<0.797884583> : tensor<f32>
    %cst_5 = stablehlo.constant dense<4.471500e-02> : tensor<f32>
    %cst_6 = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %cst_7 = stablehlo.constant dense<-2.38197633E+38> : tensor<f32>
    %c_8 = stablehlo.constant dense<true> : tensor<i1>
    %cst_9 = stablehlo.constant dense<1.250000e-01> : tensor<f32>
    %cst_10 = stablehlo.constant dense<9.99999974E-6> : tensor<f32>
    %cst_11 = stablehlo.constant dense<1.280000e+02> : tensor<f32>
    %c_12 = stablehlo.constant dense<0> : tensor<i32>
    %cst_13 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %0 = stablehlo.broadcast_in_dim %cst_13, dims = [] : (tensor<f32>) -> tensor<1x2x2x32x2x64xf32>
    %1 = call @_take(%arg0, %arg37) : (tensor<1000x128xf32>, tensor<1x32xi32>) -> tensor<1x32x128xf32>
    %2 = stablehlo.dynamic_slice %arg1, %c_12, %c_12, sizes = [32, 128] : (tensor<32x128xf32>, tensor<i32>, tensor<i32>) -> tensor<32x128xf32>
    %3 = stablehlo.broadcast_in_dim %2, dims = [1, 2] : (tensor<32x128xf32>) -> tensor<1x32x128xf32>
    %4 = stablehlo.add %1, %3 : tensor<1x32x128xf32>
    %5 = stablehlo.slice %0 [0:1, 0:1, 0:2, 0:32, 0:2, 0:64] : (tensor<1x2x2x32x2x64xf32>) -> tensor<1x1x2x32x2x64xf32>
    %6 = stablehlo.reshape %5 : (tensor<1x1x2x32x2x64xf32>) -> tensor<1x2x32x2x64xf32>
    %7 = stablehlo.iota dim = 0 : tensor<32xf32>
    %8 = stablehlo.broadcast_in_dim %cst_13, dims = [] : (tensor<f32>) -> tensor<32xf32>
    %9 = stablehlo.add %7, %8 : tensor<32xf32>
    %10 = stablehlo.broadcast_in_dim %9, dims = [0] : (tensor<32xf32>) -> tensor<32x1xf32>
    %11 = stablehlo.iota dim = 0 : tensor<32xf32>
    %12 = stablehlo.broadcast_in_dim %11, dims = [1] : (tensor<32xf32>) -> tensor<1x32xf32>
    %13 = stablehlo.broadcast_in_dim %10, dims = [0, 1] : (tensor<32x1xf32>) -> tensor<32x32xf32>
    %14 = stablehlo.broadcast_in_dim %12, dims = [0, 1] : (tensor<1x32xf32>) -> tensor<32x32xf32>
    %15 = stablehlo.compare GE, %13, %14, FLOAT : (tensor<32x32xf32>, tensor<32x32xf32>) -> tensor<32x32xi1>
    %16 = stablehlo.broadcast_in_dim %15, dims = [1, 2] : (tensor<32x32xi1>) -> tensor<1x32x32xi1>
    %17 = stablehlo.reduce(%4 init: %cst_13) applies stablehlo.add across dimensions = [2] : (tensor<1x32x128xf32>, tensor<f32>) -> tensor<1x32xf32>
    %18 = stablehlo.broadcast_in_dim %17, dims = [0, 1] : (tensor<1x32xf32>) -> tensor<1x32x1xf32>
    %19 = stablehlo.broadcast_in_dim %cst_11, dims = [] : (tensor<f32>) -> tensor<1x32x1xf32>
    %20 = stablehlo.divide %18, %19 : tensor<1x32x1xf32>
    %21 = call @_var(%4, %c_12) : (tensor<1x32x128xf32>, tensor<i32>) -> tensor<1x32x1xf32>
    %22 = stablehlo.reshape %arg10 : (tensor<128xf32>) -> tensor<1x1x128xf32>
    %23 = stablehlo.reshape %arg11 : (tensor<128xf32>) -> tensor<1x1x128xf32>
    %24 = stablehlo.broadcast_in_dim %cst_10, dims = [] : (tensor<f32>) -> tensor<1x32x1xf32>
    %25 = stablehlo.add %21, %24 : tensor<1x32x1xf32>
    %26 = stablehlo.rsqrt %25 : tensor<1x32x1xf32>
    %27 = stablehlo.broadcast_in_dim %26, dims = [0, 1, 2] : (tensor<1x32x1xf32>) -> tensor<1x32x128xf32>
    %28 = stablehlo.broadcast_in_dim %22, dims = [0, 1, 2] : (tensor<1x1x128xf32>) -> tensor<1x32x128xf32>
    %29 = stablehlo.multiply %27, %28 : tensor<1x32x128xf32>
    %30 = stablehlo.negate %20 : tensor<1x32x1xf32>
    %31 = stablehlo.broadcast_in_dim %30, dims = [0, 1, 2] : (tensor<1x32x1xf32>) -> tensor<1x32x128xf32>
    %32 = stablehlo.multiply %31, %29 : tensor<1x32x128xf32>
    %33 = stablehlo.broadcast_in_dim %23, dims = [0, 1, 2] : (tensor<1x1x128xf32>) -> tensor<1x32x128xf32>
    %34 = stablehlo.add %32, %33 : tensor<1x32x128xf32>
    %35 = stablehlo.multiply %4, %29 : tensor<1x32x128xf32>
    %36 = stablehlo.add %35, %34 : tensor<1x32x128xf32>
    %37 = stablehlo.dot_general %36, %arg2, contracting_dims = [2] x [0] : (tensor<1x32x128xf32>, tensor<128x2x64xf32>) -> tensor<1x32x2x64xf32>
    %38 = stablehlo.broadcast_in_dim %arg3, dims = [2, 3] : (tensor<2x64xf32>) -> tensor<1x1x2x64xf32>
    %39 = stablehlo.broadcast_in_dim %38, dims = [0, 1, 2, 3] : (tensor<1x1x2x64xf32>) -> tensor<1x32x2x64xf32>
    %40 = stablehlo.add %37, %39 : tensor<1x32x2x64xf32>
    %41 = stablehlo.slice %6 [0:1, 0:1, 0:32, 0:2, 0:64] : (tensor<1x2x32x2x64xf32>) -> tensor<1x1x32x2x64xf32>
    %42 = stablehlo.reshape %41 : (tensor<1x1x32x2x64xf32>) -> tensor<1x32x2x64xf32>
    %43 = stablehlo.slice %6 [0:1, 1:2, 0:32, 0:2, 0:64] : (tensor<1x2x32x2x64xf32>) -> tensor<1x1x32x2x64xf32>
    %44 = stablehlo.reshape %43 : (tensor<1x1x32x2x64xf32>) -> tensor<1x32x2x64xf32>
    %45 = stablehlo.dot_general %36, %arg4, contracting_dims = [2] x [0] : (tensor<1x32x128xf32>, tensor<128x2x64xf32>) -> tensor<1x32x2x64xf32>
    %46 = stablehlo.broadcast_in_dim %arg5, dims = [2, 3] : (tensor<2x64xf32>) -> tensor<1x1x2x64xf32>
    %47 = stablehlo.broadcast_in_dim %46, dims = [0, 1, 2, 3] : (tensor<1x1x2x64xf32>) -> tensor<1x32x2x64xf32>
    %48 = stablehlo.add %45, %47 : tensor<1x32x2x64xf32>
    %49 = stablehlo.dot_general %36, %arg6, contracting_dims = [2] x [0] : (tensor<1x32x128xf32>, tensor<128x2x64xf32>) -> tensor<1x32x2x64xf32>
    %50 = stablehlo.broadcast_in_dim %arg7, dims = [2, 3] : (tensor<2x64xf32>) -> tensor<1x1x2x64xf32>
    %51 = stablehlo.broadcast_in_dim %50, dims = [0, 1, 2, 3] : (tensor<1x1x2x64xf32>) -> tensor<1x32x2x64xf32>
    %52 = stablehlo.add %49, %51 : tensor<1x32x2x64xf32>
    %53 = stablehlo.dynamic_update_slice %42, %48, %c_12, %c_12, %c_12, %c_12 : (tensor<1x32x2x64xf32>, tensor<1x32x2x64xf32>, tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<1x32x2x64xf32>
    %54 = stablehlo.dynamic_update_slice %44, %52, %c_12, %c_12, %c_12, %c_12 : (tensor<1x32x2x64xf32>, tensor<1x32x2x64xf32>, tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<1x32x2x64xf32>
    %55 = stablehlo.broadcast_in_dim %53, dims = [0, 2, 3, 4] : (tensor<1x32x2x64xf32>) -> tensor<1x1x32x2x64xf32>
    %56 = stablehlo.broadcast_in_dim %54, dims = [0, 2, 3, 4] : (tensor<1x32x2x64xf32>) -> tensor<1x1x32x2x64xf32>
    %57 = stablehlo.concatenate %55, %56, dim = 1 : (tensor<1x1x32x2x64xf32>, tensor<1x1x32x2x64xf32>) -> tensor<1x2x32x2x64xf32>
    %58 = stablehlo.broadcast_in_dim %16, dims = [0, 2, 3] : (tensor<1x32x32xi1>) -> tensor<1x1x32x32xi1>
    %59 = stablehlo.reshape %40 : (tensor<1x32x2x64xf32>) -> tensor<1x32x2x1x64xf32>
    %60 = stablehlo.broadcast_in_dim %58, dims = [0, 1, 3, 4] : (tensor<1x1x32x32xi1>) -> tensor<1x1x1x32x32xi1>
    %61 = stablehlo.dot_general %59, %53, batching_dims = [0, 2] x [0, 2], contracting_dims = [4] x [3] : (tensor<1x32x2x1x64xf32>, tensor<1x32x2x64xf32>) -> tensor<1x2x32x1x32xf32>
    %62 = stablehlo.broadcast_in_dim %cst_9, dims = [] : (tensor<f32>) -> tensor<1x2x32x1x32xf32>
    %63 = stablehlo.multiply %61, %62 : tensor<1x2x32x1x32xf32>
    %64 = stablehlo.broadcast_in_dim %c_8, dims = [] : (tensor<i1>) -> tensor<1x2x32x32xi1>
    %65 = stablehlo.broadcast_in_dim %64, dims = [1, 2, 3, 4] : (tensor<1x2x32x32xi1>) -> tensor<1x1x2x32x32xi1>
    %66 = stablehlo.transpose %60, dims = [2, 0, 1, 3, 4] : (tensor<1x1x1x32x32xi1>) -> tensor<1x1x1x32x32xi1>
    %67 = stablehlo.broadcast_in_dim %66, dims = [0, 1, 2, 3, 4] : (tensor<1x1x1x32x32xi1>) -> tensor<1x1x2x32x32xi1>
    %68 = stablehlo.and %65, %67 : tensor<1x1x2x32x32xi1>
    %69 = call @_where_1(%68, %63, %cst_7) : (tensor<1x1x2x32x32xi1>, tensor<1x2x32x1x32xf32>, tensor<f32>) -> tensor<1x1x2x32x32xf32>
    %70 = stablehlo.reduce(%69 init: %cst_6) applies stablehlo.maximum across dimensions = [4] : (tensor<1x1x2x32x32xf32>, tensor<f32>) -> tensor<1x1x2x32xf32>
    %71 = stablehlo.broadcast_in_dim %cst_6, dims = [] : (tensor<f32>) -> tensor<1x1x2x32xf32>
    %72 = stablehlo.maximum %71, %70 : tensor<1x1x2x32xf32>
    %73 = stablehlo.broadcast_in_dim %72, dims = [0, 1, 2, 3] : (tensor<1x1x2x32xf32>) -> tensor<1x1x2x32x1xf32>
    %74 = stablehlo.broadcast_in_dim %73, dims = [0, 1, 2, 3, 4] : (tensor<1x1x2x32x1xf32>) -> tensor<1x1x2x32x32xf32>
    %75 = stablehlo.subtract %69, %74 : tensor<1x1x2x32x32xf32>
    %76 = stablehlo.exponential %75 : tensor<1x1x2x32x32xf32>
    %77 = stablehlo.reduce(%76 init: %cst_13) applies stablehlo.add across dimensions = [4] : (tensor<1x1x2x32x32xf32>, tensor<f32>) -> tensor<1x1x2x32xf32>
    %78 = stablehlo.broadcast_in_dim %77, dims = [0, 1, 2, 3] : (tensor<1x1x2x32xf32>) -> tensor<1x1x2x32x1xf32>
    %79 = stablehlo.broadcast_in_dim %78, dims = [0, 1, 2, 3, 4] : (tensor<1x1x2x32x1xf32>) -> tensor<1x1x2x32x32xf32>
    %80 = stablehlo.divide %76, %79 : tensor<1x1x2x32x32xf32>
    %81 = stablehlo.dot_general %54, %80, batching_dims = [0, 2] x [1, 2], contracting_dims = [1] x [4] : (tensor<1x32x2x64xf32>, tensor<1x1x2x32x32xf32>) -> tensor<1x2x64x1x32xf32>
    %82 = stablehlo.transpose %81, dims = [3, 0, 4, 1, 2] : (tensor<1x2x64x1x32xf32>) -> tensor<1x1x32x2x64xf32>
    %83 = stablehlo.transpose %82, dims = [1, 2, 3, 0, 4] : (tensor<1x1x32x2x64xf32>) -> tensor<1x32x2x1x64xf32>
    %84 = stablehlo.reshape %83 : (tensor<1x32x2x1x64xf32>) -> tensor<1x32x2x64xf32>
    %85 = stablehlo.dot_general %84, %arg8, contracting_dims = [2, 3] x [0, 1] : (tensor<1x32x2x64xf32>, tensor<2x64x128xf32>) -> tensor<1x32x128xf32>
    %86 = stablehlo.broadcast_in_dim %arg9, dims = [2] : (tensor<128xf32>) -> tensor<1x1x128xf32>
    %87 = stablehlo.broadcast_in_dim %86, dims = [0, 1, 2] : (tensor<1x1x128xf32>) -> tensor<1x32x128xf32>
    %88 = stablehlo.add %85, %87 : tensor<1x32x128xf32>
    %89 = stablehlo.add %88, %4 : tensor<1x32x128xf32>
    %90 = stablehlo.reduce(%89 init: %cst_13) applies stablehlo.add across dimensions = [2] : (tensor<1x32x128xf32>, tensor<f32>) -> tensor<1x32xf32>
    %91 = stablehlo.broadcast_in_dim %90, dims = [0, 1] : (tensor<1x32xf32>) -> tensor<1x32x1xf32>
    %92 = stablehlo.broadcast_in_dim %cst_11, dims = [] : (tensor<f32>) -> tensor<1x32x1xf32>
    %93 = stablehlo.divide %91, %92 : tensor<1x32x1xf32>
    %94 = call @_var(%89, %c_12) : (tensor<1x32x128xf32>, tensor<i32>) -> tensor<1x32x1xf32>
    %95 = stablehlo.reshape %arg16 : (tensor<128xf32>) -> tensor<1x1x128xf32>
    %96 = stablehlo.reshape %arg17 : (tensor<128xf32>) -> tensor<1x1x128xf32>
    %97 = stablehlo.broadcast_in_dim %cst_10, dims = [] : (tensor<f32>) -> tensor<1x32x1xf32>
    %98 = stablehlo.add %94, %97 : tensor<1x32x1xf32>
    %99 = stablehlo.rsqrt %98 : tensor<1x32x1xf32>
    %100 = stablehlo.broadcast_in_dim %99, dims = [0, 1, 2] : (tensor<1x32x1xf32>) -> tensor<1x32x128xf32>
    %101 = stablehlo.broadcast_in_dim %95, dims = [0, 1, 2] : (tensor<1x1x128xf32>) -> tensor<1x32x128xf32>
    %102 = stablehlo.multiply %100, %101 : tensor<1x32x128xf32>
    %103 = stablehlo.negate %93 : tensor<1x32x1xf32>
    %104 = stablehlo.broadcast_in_dim %103, dims = [0, 1, 2] : (tensor<1x32x1xf32>) -> tensor<1x32x128xf32>
    %105 = stablehlo.multiply %104, %102 : tensor<1x32x128xf32>
    %106 = stablehlo.broadcast_in_dim %96, dims = [0, 1, 2] : (tensor<1x1x128xf32>) -> tensor<1x32x128xf32>
    %107 = stablehlo.add %105, %106 : tensor<1x32x128xf32>
    %108 = stablehlo.multiply %89, %102 : tensor<1x32x128xf32>
    %109 = stablehlo.add %108, %107 : tensor<1x32x128xf32>
    %110 = stablehlo.dot_general %109, %arg12, contracting_dims = [2] x [0] : (tensor<1x32x128xf32>, tensor<128x512xf32>) -> tensor<1x32x512xf32>
    %111 = stablehlo.broadcast_in_dim %arg13, dims = [2] : (tensor<512xf32>) -> tensor<1x1x512xf32>
    %112 = stablehlo.broadcast_in_dim %111, dims = [0, 1, 2] : (tensor<1x1x512xf32>) -> tensor<1x32x512xf32>
    %113 = stablehlo.add %110, %112 : tensor<1x32x512xf32>
    %114 = stablehlo.multiply %113, %113 : tensor<1x32x512xf32>
    %115 = stablehlo.multiply %114, %113 : tensor<1x32x512xf32>
    %116 = stablehlo.broadcast_in_dim %cst_5, dims = [] : (tensor<f32>) -> tensor<1x32x512xf32>
    %117 = stablehlo.multiply %116, %115 : tensor<1x32x512xf32>
    %118 = stablehlo.add %113, %117 : tensor<1x32x512xf32>
    %119 = stablehlo.broadcast_in_dim %cst_4, dims = [] : (tensor<f32>) -> tensor<1x32x512xf32>
    %120 = stablehlo.multiply %119, %118 : tensor<1x32x512xf32>
    %121 = stablehlo.tanh %120 : tensor<1x32x512xf32>
    %122 = stablehlo.broadcast_in_dim %cst_3, dims = [] : (tensor<f32>) -> tensor<1x32x512xf32>
    %123 = stablehlo.add %122, %121 : tensor<1x32x512xf32>
    %124 = stablehlo.broadcast_in_dim %cst_2, dims = [] : (tensor<f32>) -> tensor<1x32x512xf32>
    %125 = stablehlo.multiply %124, %123 : tensor<1x32x512xf32>
    %126 = stablehlo.multiply %113, %125 : tensor<1x32x512xf32>
    %127 = stablehlo.dot_general %126, %arg14, contracting_dims = [2] x [0] : (tensor<1x32x512xf32>, tensor<512x128xf32>) -> tensor<1x32x128xf32>
    %128 = stablehlo.broadcast_in_dim %arg15, dims = [2] : (tensor<128xf32>) -> tensor<1x1x128xf32>
    %129 = stablehlo.broadcast_in_dim %128, dims = [0, 1, 2] : (tensor<1x1x128xf32>) -> tensor<1x32x128xf32>
    %130 = stablehlo.add %127, %129 : tensor<1x32x128xf32>
    %131 = stablehlo.add %130, %89 : tensor<1x32x128xf32>
    %132 = stablehlo.slice %0 [0:1, 1:2, 0:2, 0:32, 0:2, 0:64] : (tensor<1x2x2x32x2x64xf32>) -> tensor<1x1x2x32x2x64xf32>
    %133 = stablehlo.reshape %132 : (tensor<1x1x2x32x2x64xf32>) -> tensor<1x2x32x2x64xf32>
    %134 = stablehlo.iota dim = 0 : tensor<32xf32>
    %135 = stablehlo.broadcast_in_dim %cst_13, dims = [] : (tensor<f32>) -> tensor<32xf32>
    %136 = stablehlo.add %134, %135 : tensor<32xf32>
    %137 = stablehlo.broadcast_in_dim %136, dims = [0] : (tensor<32xf32>) -> tensor<32x1xf32>
    %138 = stablehlo.iota dim = 0 : tensor<32xf32>
    %139 = stablehlo.broadcast_in_dim %138, dims = [1] : (tensor<32xf32>) -> tensor<1x32xf32>
    %140 = stablehlo.broadcast_in_dim %137, dims = [0, 1] : (tensor<32x1xf32>) -> tensor<32x32xf32>
    %141 = stablehlo.broadcast_in_dim %139, dims = [0, 1] : (tensor<1x32xf32>) -> tensor<32x32xf32>
    %142 = stablehlo.compare GE, %140, %141, FLOAT : (tensor<32x32xf32>, tensor<32x32xf32>) -> tensor<32x32xi1>
    %143 = stablehlo.broadcast_in_dim %142, dims = [1, 2] : (tensor<32x32xi1>) -> tensor<1x32x32xi1>
    %144 = stablehlo.reduce(%131 init: %cst_13) applies stablehlo.add across dimensions = [2] : (tensor<1x32x128xf32>, tensor<f32>) -> tensor<1x32xf32>
    %145 = stablehlo.broadcast_in_dim %144, dims = [0, 1] : (tensor<1x32xf32>) -> tensor<1x32x1xf32>
    %146 = stablehlo.broadcast_in_dim %cst_11, dims = [] : (tensor<f32>) -> tensor<1x32x1xf32>
    %147 = stablehlo.divide %145, %146 : tensor<1x32x1xf32>
    %148 = call @_var(%131, %c_12) : (tensor<1x32x128xf32>, tensor<i32>) -> tensor<1x32x1xf32>
    %149 = stablehlo.reshape %arg26 : (tensor<128xf32>) -> tensor<1x1x128xf32>
    %150 = stablehlo.reshape %arg27 : (tensor<128xf32>) -> tensor<1x1x128xf32>
    %151 = stablehlo.broadcast_in_dim %cst_10, dims = [] : (tensor<f32>) -> tensor<1x32x1xf32>
    %152 = stablehlo.add %148, %151 : tensor<1x32x1xf32>
    %153 = stablehlo.rsqrt %152 : tensor<1x32x1xf32>
    %154 = stablehlo.broadcast_in_dim %153, dims = [0, 1, 2] : (tensor<1x32x1xf32>) -> tensor<1x32x128xf32>
    %155 = stablehlo.broadcast_in_dim %149, dims = [0, 1, 2] : (tensor<1x1x128xf32>) -> tensor<1x32x128xf32>
    %156 = stablehlo.multiply %154, %155 : tensor<1x32x128xf32>
    %157 = stablehlo.negate %147 : tensor<1x32x1xf32>
    %158 = stablehlo.broadcast_in_dim %157, dims = [0, 1, 2] : (tensor<1x32x1xf32>) -> tensor<1x32x128xf32>
    %159 = stablehlo.multiply %158, %156 : tensor<1x32x128xf32>
    %160 = stablehlo.broadcast_in_dim %150, dims = [0, 1, 2] : (tensor<1x1x128xf32>) -> tensor<1x32x128xf32>
    %161 = stablehlo.add %159, %160 : tensor<1x32x128xf32>
    %162 = stablehlo.multiply %131, %156 : tensor<1x32x128xf32>
    %163 = stablehlo.add %162, %161 : tensor<1x32x128xf32>
    %164 = stablehlo.dot_general %163, %arg18, contracting_dims = [2] x [0] : (tensor<1x32x128xf32>, tensor<128x2x64xf32>) -> tensor<1x32x2x64xf32>
    %165 = stablehlo.broadcast_in_dim %arg19, dims = [2, 3] : (tensor<2x64xf32>) -> tensor<1x1x2x64xf32>
    %166 = stablehlo.broadcast_in_dim %165, dims = [0, 1, 2, 3] : (tensor<1x1x2x64xf32>) -> tensor<1x32x2x64xf32>
    %167 = stablehlo.add %164, %166 : tensor<1x32x2x64xf32>
    %168 = stablehlo.slice %133 [0:1, 0:1, 0:32, 0:2, 0:64] : (tensor<1x2x32x2x64xf32>) -> tensor<1x1x32x2x64xf32>
    %169 = stablehlo.reshape %168 : (tensor<1x1x32x2x64xf32>) -> tensor<1x32x2x64xf32>
    %170 = stablehlo.slice %133 [0:1, 1:2, 0:32, 0:2, 0:64] : (tensor<1x2x32x2x64xf32>) -> tensor<1x1x32x2x64xf32>
    %171 = stablehlo.reshape %170 : (tensor<1x1x32x2x64xf32>) -> tensor<1x32x2x64xf32>
    %172 = stablehlo.dot_general %163, %arg20, contracting_dims = [2] x [0] : (tensor<1x32x128xf32>, tensor<128x2x64xf32>) -> tensor<1x32x2x64xf32>
    %173 = stablehlo.broadcast_in_dim %arg21, dims = [2, 3] : (tensor<2x64xf32>) -> tensor<1x1x2x64xf32>
    %174 = stablehlo.broadcast_in_dim %173, dims = [0, 1, 2, 3] : (tensor<1x1x2x64xf32>) -> tensor<1x32x2x64xf32>
    %175 = stablehlo.add %172, %174 : tensor<1x32x2x64xf32>
    %176 = stablehlo.dot_general %163, %arg22, contracting_dims = [2] x [0] : (tensor<1x32x128xf32>, tensor<128x2x64xf32>) -> tensor<1x32x2x64xf32>
    %177 = stablehlo.broadcast_in_dim %arg23, dims = [2, 3] : (tensor<2x64xf32>) -> tensor<1x1x2x64xf32>
    %178 = stablehlo.broadcast_in_dim %177, dims = [0, 1, 2, 3] : (tensor<1x1x2x64xf32>) -> tensor<1x32x2x64xf32>
    %179 = stablehlo.add %176, %178 : tensor<1x32x2x64xf32>
    %180 = stablehlo.dynamic_update_slice %169, %175, %c_12, %c_12, %c_12, %c_12 : (tensor<1x32x2x64xf32>, tensor<1x32x2x64xf32>, tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<1x32x2x64xf32>
    %181 = stablehlo.dynamic_update_slice %171, %179, %c_12, %c_12, %c_12, %c_12 : (tensor<1x32x2x64xf32>, tensor<1x32x2x64xf32>, tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<1x32x2x64xf32>
    %182 = stablehlo.broadcast_in_dim %180, dims = [0, 2, 3, 4] : (tensor<1x32x2x64xf32>) -> tensor<1x1x32x2x64xf32>
    %183 = stablehlo.broadcast_in_dim %181, dims = [0, 2, 3, 4] : (tensor<1x32x2x64xf32>) -> tensor<1x1x32x2x64xf32>
    %184 = stablehlo.concatenate %182, %183, dim = 1 : (tensor<1x1x32x2x64xf32>, tensor<1x1x32x2x64xf32>) -> tensor<1x2x32x2x64xf32>
    %185 = stablehlo.broadcast_in_dim %143, dims = [0, 2, 3] : (tensor<1x32x32xi1>) -> tensor<1x1x32x32xi1>
    %186 = stablehlo.reshape %167 : (tensor<1x32x2x64xf32>) -> tensor<1x32x2x1x64xf32>
    %187 = stablehlo.broadcast_in_dim %185, dims = [0, 1, 3, 4] : (tensor<1x1x32x32xi1>) -> tensor<1x1x1x32x32xi1>
    %188 = stablehlo.dot_general %186, %180, batching_dims = [0, 2] x [0, 2], contracting_dims = [4] x [3] : (tensor<1x32x2x1x64xf32>, tensor<1x32x2x64xf32>) -> tensor<1x2x32x1x32xf32>
    %189 = stablehlo.broadcast_in_dim %cst_9, dims = [] : (tensor<f32>) -> tensor<1x2x32x1x32xf32>
    %190 = stablehlo.multiply %188, %189 : tensor<1x2x32x1x32xf32>
    %191 = stablehlo.broadcast_in_dim %c_8, dims = [] : (tensor<i1>) -> tensor<1x2x32x32xi1>
    %192 = stablehlo.broadcast_in_dim %191, dims = [1, 2, 3, 4] : (tensor<1x2x32x32xi1>) -> tensor<1x1x2x32x32xi1>
    %193 = stablehlo.transpose %187, dims = [2, 0, 1, 3, 4] : (tensor<1x1x1x32x32xi1>) -> tensor<1x1x1x32x32xi1>
    %194 = stablehlo.broadcast_in_dim %193, dims = [0, 1, 2, 3, 4] : (tensor<1x1x1x32x32xi1>) -> tensor<1x1x2x32x32xi1>
    %195 = stablehlo.and %192, %194 : tensor<1x1x2x32x32xi1>
    %196 = call @_where_1(%195, %190, %cst_7) : (tensor<1x1x2x32x32xi1>, tensor<1x2x32x1x32xf32>, tensor<f32>) -> tensor<1x1x2x32x32xf32>
    %197 = stablehlo.reduce(%196 init: %cst_6) applies stablehlo.maximum across dimensions = [4] : (tensor<1x1x2x32x32xf32>, tensor<f32>) -> tensor<1x1x2x32xf32>
    %198 = stablehlo.broadcast_in_dim %cst_6, dims = [] : (tensor<f32>) -> tensor<1x1x2x32xf32>
    %199 = stablehlo.maximum %198, %197 : tensor<1x1x2x32xf32>
    %200 = stablehlo.broadcast_in_dim %199, dims = [0, 1, 2, 3] : (tensor<1x1x2x32xf32>) -> tensor<1x1x2x32x1xf32>
    %201 = stablehlo.broadcast_in_dim %200, dims = [0, 1, 2, 3, 4] : (tensor<1x1x2x32x1xf32>) -> tensor<1x1x2x32x32xf32>
    %202 = stablehlo.subtract %196, %201 : tensor<1x1x2x32x32xf32>
    %203 = stablehlo.exponential %202 : tensor<1x1x2x32x32xf32>
    %204 = stablehlo.reduce(%203 init: %cst_13) applies stablehlo.add across dimensions = [4] : (tensor<1x1x2x32x32xf32>, tensor<f32>) -> tensor<1x1x2x32xf32>
    %205 = stablehlo.broadcast_in_dim %204, dims = [0, 1, 2, 3] : (tensor<1x1x2x32xf32>) -> tensor<1x1x2x32x1xf32>
    %206 = stablehlo.broadcast_in_dim %205, dims = [0, 1, 2, 3, 4] : (tensor<1x1x2x32x1xf32>) -> tensor<1x1x2x32x32xf32>
    %207 = stablehlo.divide %203, %206 : tensor<1x1x2x32x32xf32>
    %208 = stablehlo.dot_general %181, %207, batching_dims = [0, 2] x [1, 2], contracting_dims = [1] x [4] : (tensor<1x32x2x64xf32>, tensor<1x1x2x32x32xf32>) -> tensor<1x2x64x1x32xf32>
    %209 = stablehlo.transpose %208, dims = [3, 0, 4, 1, 2] : (tensor<1x2x64x1x32xf32>) -> tensor<1x1x32x2x64xf32>
    %210 = stablehlo.transpose %209, dims = [1, 2, 3, 0, 4] : (tensor<1x1x32x2x64xf32>) -> tensor<1x32x2x1x64xf32>
    %211 = stablehlo.reshape %210 : (tensor<1x32x2x1x64xf32>) -> tensor<1x32x2x64xf32>
    %212 = stablehlo.dot_general %211, %arg24, contracting_dims = [2, 3] x [0, 1] : (tensor<1x32x2x64xf32>, tensor<2x64x128xf32>) -> tensor<1x32x128xf32>
    %213 = stablehlo.broadcast_in_dim %arg25, dims = [2] : (tensor<128xf32>) -> tensor<1x1x128xf32>
    %214 = stablehlo.broadcast_in_dim %213, dims = [0, 1, 2] : (tensor<1x1x128xf32>) -> tensor<1x32x128xf32>
    %215 = stablehlo.add %212, %214 : tensor<1x32x128xf32>
    %216 = stablehlo.add %215, %131 : tensor<1x32x128xf32>
    %217 = stablehlo.reduce(%216 init: %cst_13) applies stablehlo.add across dimensions = [2] : (tensor<1x32x128xf32>, tensor<f32>) -> tensor<1x32xf32>
    %218 = stablehlo.broadcast_in_dim %217, dims = [0, 1] : (tensor<1x32xf32>) -> tensor<1x32x1xf32>
    %219 = stablehlo.broadcast_in_dim %cst_11, dims = [] : (tensor<f32>) -> tensor<1x32x1xf32>
    %220 = stablehlo.divide %218, %219 : tensor<1x32x1xf32>
    %221 = call @_var(%216, %c_12) : (tensor<1x32x128xf32>, tensor<i32>) -> tensor<1x32x1xf32>
    %222 = stablehlo.reshape %arg32 : (tensor<128xf32>) -> tensor<1x1x128xf32>
    %223 = stablehlo.reshape %arg33 : (tensor<128xf32>) -> tensor<1x1x128xf32>
    %224 = stablehlo.broadcast_in_dim %cst_10, dims = [] : (tensor<f32>) -> tensor<1x32x1xf32>
    %225 = stablehlo.add %221, %224 : tensor<1x32x1xf32>
    %226 = stablehlo.rsqrt %225 : tensor<1x32x1xf32>
    %227 = stablehlo.broadcast_in_dim %226, dims = [0, 1, 2] : (tensor<1x32x1xf32>) -> tensor<1x32x128xf32>
    %228 = stablehlo.broadcast_in_dim %222, dims = [0, 1, 2] : (tensor<1x1x128xf32>) -> tensor<1x32x128xf32>
    %229 = stablehlo.multiply %227, %228 : tensor<1x32x128xf32>
    %230 = stablehlo.negate %220 : tensor<1x32x1xf32>
    %231 = stablehlo.broadcast_in_dim %230, dims = [0, 1, 2] : (tensor<1x32x1xf32>) -> tensor<1x32x128xf32>
    %232 = stablehlo.multiply %231, %229 : tensor<1x32x128xf32>
    %233 = stablehlo.broadcast_in_dim %223, dims = [0, 1, 2] : (tensor<1x1x128xf32>) -> tensor<1x32x128xf32>
    %234 = stablehlo.add %232, %233 : tensor<1x32x128xf32>
    %235 = stablehlo.multiply %216, %229 : tensor<1x32x128xf32>
    %236 = stablehlo.add %235, %234 : tensor<1x32x128xf32>
    %237 = stablehlo.dot_general %236, %arg28, contracting_dims = [2] x [0] : (tensor<1x32x128xf32>, tensor<128x512xf32>) -> tensor<1x32x512xf32>
    %238 = stablehlo.broadcast_in_dim %arg29, dims = [2] : (tensor<512xf32>) -> tensor<1x1x512xf32>
    %239 = stablehlo.broadcast_in_dim %238, dims = [0, 1, 2] : (tensor<1x1x512xf32>) -> tensor<1x32x512xf32>
    %240 = stablehlo.add %237, %239 : tensor<1x32x512xf32>
    %241 = stablehlo.multiply %240, %240 : tensor<1x32x512xf32>
    %242 = stablehlo.multiply %241, %240 : tensor<1x32x512xf32>
    %243 = stablehlo.broadcast_in_dim %cst_5, dims = [] : (tensor<f32>) -> tensor<1x32x512xf32>
    %244 = stablehlo.multiply %243, %242 : tensor<1x32x512xf32>
    %245 = stablehlo.add %240, %244 : tensor<1x32x512xf32>
    %246 = stablehlo.broadcast_in_dim %cst_4, dims = [] : (tensor<f32>) -> tensor<1x32x512xf32>
    %247 = stablehlo.multiply %246, %245 : tensor<1x32x512xf32>
    %248 = stablehlo.tanh %247 : tensor<1x32x512xf32>
    %249 = stablehlo.broadcast_in_dim %cst_3, dims = [] : (tensor<f32>) -> tensor<1x32x512xf32>
    %250 = stablehlo.add %249, %248 : tensor<1x32x512xf32>
    %251 = stablehlo.broadcast_in_dim %cst_2, dims = [] : (tensor<f32>) -> tensor<1x32x512xf32>
    %252 = stablehlo.multiply %251, %250 : tensor<1x32x512xf32>
    %253 = stablehlo.multiply %240, %252 : tensor<1x32x512xf32>
    %254 = stablehlo.dot_general %253, %arg30, contracting_dims = [2] x [0] : (tensor<1x32x512xf32>, tensor<512x128xf32>) -> tensor<1x32x128xf32>
    %255 = stablehlo.broadcast_in_dim %arg31, dims = [2] : (tensor<128xf32>) -> tensor<1x1x128xf32>
    %256 = stablehlo.broadcast_in_dim %255, dims = [0, 1, 2] : (tensor<1x1x128xf32>) -> tensor<1x32x128xf32>
    %257 = stablehlo.add %254, %256 : tensor<1x32x128xf32>
    %258 = stablehlo.add %257, %216 : tensor<1x32x128xf32>
    %259 = stablehlo.broadcast_in_dim %57, dims = [0, 2, 3, 4, 5] : (tensor<1x2x32x2x64xf32>) -> tensor<1x1x2x32x2x64xf32>
    %260 = stablehlo.broadcast_in_dim %184, dims = [0, 2, 3, 4, 5] : (tensor<1x2x32x2x64xf32>) -> tensor<1x1x2x32x2x64xf32>
    %261 = stablehlo.concatenate %259, %260, dim = 1 : (tensor<1x1x2x32x2x64xf32>, tensor<1x1x2x32x2x64xf32>) -> tensor<1x2x2x32x2x64xf32>
    %262 = call @_var(%258, %c_12) : (tensor<1x32x128xf32>, tensor<i32>) -> tensor<1x32x1xf32>
    %263 = stablehlo.reduce(%arg36 init: %c_12) applies stablehlo.add across dimensions = [1] : (tensor<1x32xi32>, tensor<i32>) -> tensor<1xi32>
    %264 = stablehlo.reduce(%263 init: %c_1) applies stablehlo.minimum across dimensions = [0] : (tensor<1xi32>, tensor<i32>) -> tensor<i32>
    %265 = stablehlo.broadcast_in_dim %c_12, dims = [] : (tensor<i32>) -> tensor<1x32xi32>
    %266 = stablehlo.compare NE, %arg36, %265, SIGNED : (tensor<1x32xi32>, tensor<1x32xi32>) -> tensor<1x32xi1>
    %267 = stablehlo.convert %266 : tensor<1x32xi1>
    %268 = stablehlo.subtract %c_0, %264 : tensor<i32>
    %269:42 = stablehlo.while(%iterArg = %268, %iterArg_14 = %arg0, %iterArg_15 = %arg1, %iterArg_16 = %arg2, %iterArg_17 = %arg3, %iterArg_18 = %arg4, %iterArg_19 = %arg5, %iterArg_20 = %arg6, %iterArg_21 = %arg7, %iterArg_22 = %arg8, %iterArg_23 = %arg9, %iterArg_24 = %arg10, %iterArg_25 = %arg11, %iterArg_26 = %arg12, %iterArg_27 = %arg13, %iterArg_28 = %arg14, %iterArg_29 = %arg15, %iterArg_30 = %arg16, %iterArg_31 = %arg17, %iterArg_32 = %arg18, %iterArg_33 = %arg19, %iterArg_34 = %arg20, %iterArg_35 = %arg21, %iterArg_36 = %arg22, %iterArg_37 = %arg23, %iterArg_38 = %arg24, %iterArg_39 = %arg25, %iterArg_40 = %arg26, %iterArg_41 = %arg27, %iterArg_42 = %arg28, %iterArg_43 = %arg29, %iterArg_44 = %arg30, %iterArg_45 = %arg31, %iterArg_46 = %arg32, %iterArg_47 = %arg33, %iterArg_48 = %arg34, %iterArg_49 = %arg35, %iterArg_50 = %267, %iterArg_51 = %arg37, %iterArg_52 = %261, %iterArg_53 = %264, %iterArg_54 = %c_12) : tensor<i32>, tensor<1000x128xf32>, tensor<32x128xf32>, tensor<128x2x64xf32>, tensor<2x64xf32>, tensor<128x2x64xf32>, tensor<2x64xf32>, tensor<128x2x64xf32>, tensor<2x64xf32>, tensor<2x64x128xf32>, tensor<128xf32>, tensor<128xf32>, tensor<128xf32>, tensor<128x512xf32>, tensor<512xf32>, tensor<512x128xf32>, tensor<128xf32>, tensor<128xf32>, tensor<128xf32>, tensor<128x2x64xf32>, tensor<2x64xf32>, tensor<128x2x64xf32>, tensor<2x64xf32>, tensor<128x2x64xf32>, tensor<2x64xf32>, tensor<2x64x128xf32>, tensor<128xf32>, tensor<128xf32>, tensor<128xf32>, tensor<128x512xf32>, tensor<512xf32>, tensor<512x128xf32>, tensor<128xf32>, tensor<128xf32>, tensor<128xf32>, tensor<128xf32>, tensor<128xf32>, tensor<1x32xi1>, tensor<1x32xi32>, tensor<1x2x2x32x2x64xf32>, tensor<i32>, tensor<i32>
    cond {
      %270 = stablehlo.convert %iterArg_54 : tensor<i32>
      %271 = stablehlo.compare LT, %270, %iterArg, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
      %272 = stablehlo.and %c_8, %271 : tensor<i1>
      stablehlo.return %272 : tensor<i1>
    } do {
      %270 = stablehlo.subtract %iterArg_53, %c : tensor<i32>
      %271 = stablehlo.compare LT, %270, %c_12, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
      %272 = stablehlo.add %270, %c_0 : tensor<i32>
      %273 = stablehlo.select %271, %272, %270 : tensor<i1>, tensor<i32>
      %274 = stablehlo.dynamic_slice %iterArg_51, %c_12, %273, sizes = [1, 1] : (tensor<1x32xi32>, tensor<i32>, tensor<i32>) -> tensor<1x1xi32>
      %275 = func.call @_take_2(%iterArg_14, %274) : (tensor<1000x128xf32>, tensor<1x1xi32>) -> tensor<1x1x128xf32>
      %276 = stablehlo.compare LT, %270, %c_12, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
      %277 = stablehlo.add %270, %c_0 : tensor<i32>
      %278 = stablehlo.select %276, %277, %270 : tensor<i1>, tensor<i32>
      %279 = stablehlo.dynamic_slice %iterArg_15, %278, %c_12, sizes = [1, 128] : (tensor<32x128xf32>, tensor<i32>, tensor<i32>) -> tensor<1x128xf32>
      %280 = stablehlo.broadcast_in_dim %279, dims = [1, 2] : (tensor<1x128xf32>) -> tensor<1x1x128xf32>
      %281 = stablehlo.add %275, %280 : tensor<1x1x128xf32>
      %282 = stablehlo.slice %iterArg_52 [0:1, 0:1, 0:2, 0:32, 0:2, 0:64] : (tensor<1x2x2x32x2x64xf32>) -> tensor<1x1x2x32x2x64xf32>
      %283 = stablehlo.reshape %282 : (tensor<1x1x2x32x2x64xf32>) -> tensor<1x2x32x2x64xf32>
      %284 = stablehlo.iota dim = 0 : tensor<1xf32>
      %285 = stablehlo.convert %270 : (tensor<i32>) -> tensor<f32>
      %286 = stablehlo.broadcast_in_dim %285, dims = [] : (tensor<f32>) -> tensor<1xf32>
      %287 = stablehlo.add %284, %286 : tensor<1xf32>
      %288 = stablehlo.broadcast_in_dim %287, dims = [0] : (tensor<1xf32>) -> tensor<1x1xf32>
      %289 = stablehlo.iota dim = 0 : tensor<32xf32>
      %290 = stablehlo.broadcast_in_dim %289, dims = [1] : (tensor<32xf32>) -> tensor<1x32xf32>
      %291 = stablehlo.broadcast_in_dim %288, dims = [0, 1] : (tensor<1x1xf32>) -> tensor<1x32xf32>
      %292 = stablehlo.compare GE, %291, %290, FLOAT : (tensor<1x32xf32>, tensor<1x32xf32>) -> tensor<1x32xi1>
      %293 = stablehlo.broadcast_in_dim %292, dims = [1, 2] : (tensor<1x32xi1>) -> tensor<1x1x32xi1>
      %294 = stablehlo.reduce(%281 init: %cst_13) applies stablehlo.add across dimensions = [2] : (tensor<1x1x128xf32>, tensor<f32>) -> tensor<1x1xf32>
      %295 = stablehlo.broadcast_in_dim %294, dims = [0, 1] : (tensor<1x1xf32>) -> tensor<1x1x1xf32>
      %296 = stablehlo.broadcast_in_dim %cst_11, dims = [] : (tensor<f32>) -> tensor<1x1x1xf32>
      %297 = stablehlo.divide %295, %296 : tensor<1x1x1xf32>
      %298 = func.call @_var_4(%281, %c_12) : (tensor<1x1x128xf32>, tensor<i32>) -> tensor<1x1x1xf32>
      %299 = stablehlo.reshape %iterArg_24 : (tensor<128xf32>) -> tensor<1x1x128xf32>
      %300 = stablehlo.reshape %iterArg_25 : (tensor<128xf32>) -> tensor<1x1x128xf32>
      %301 = stablehlo.broadcast_in_dim %cst_10, dims = [] : (tensor<f32>) -> tensor<1x1x1xf32>
      %302 = stablehlo.add %298, %301 : tensor<1x1x1xf32>
      %303 = stablehlo.rsqrt %302 : tensor<1x1x1xf32>
      %304 = stablehlo.broadcast_in_dim %303, dims = [0, 1, 2] : (tensor<1x1x1xf32>) -> tensor<1x1x128xf32>
      %305 = stablehlo.multiply %304, %299 : tensor<1x1x128xf32>
      %306 = stablehlo.negate %297 : tensor<1x1x1xf32>
      %307 = stablehlo.broadcast_in_dim %306, dims = [0, 1, 2] : (tensor<1x1x1xf32>) -> tensor<1x1x128xf32>
      %308 = stablehlo.multiply %307, %305 : tensor<1x1x128xf32>
      %309 = stablehlo.add %308, %300 : tensor<1x1x128xf32>
      %310 = stablehlo.multiply %281, %305 : tensor<1x1x128xf32>
      %311 = stablehlo.add %310, %309 : tensor<1x1x128xf32>
      %312 = stablehlo.dot_general %311, %iterArg_16, contracting_dims = [2] x [0] : (tensor<1x1x128xf32>, tensor<128x2x64xf32>) -> tensor<1x1x2x64xf32>
      %313 = stablehlo.broadcast_in_dim %iterArg_17, dims = [2, 3] : (tensor<2x64xf32>) -> tensor<1x1x2x64xf32>
      %314 = stablehlo.add %312, %313 : tensor<1x1x2x64xf32>
      %315 = stablehlo.slice %283 [0:1, 0:1, 0:32, 0:2, 0:64] : (tensor<1x2x32x2x64xf32>) -> tensor<1x1x32x2x64xf32>
      %316 = stablehlo.reshape %315 : (tensor<1x1x32x2x64xf32>) -> tensor<1x32x2x64xf32>
      %317 = stablehlo.slice %283 [0:1, 1:2, 0:32, 0:2, 0:64] : (tensor<1x2x32x2x64xf32>) -> tensor<1x1x32x2x64xf32>
      %318 = stablehlo.reshape %317 : (tensor<1x1x32x2x64xf32>) -> tensor<1x32x2x64xf32>
      %319 = stablehlo.dot_general %311, %iterArg_18, contracting_dims = [2] x [0] : (tensor<1x1x128xf32>, tensor<128x2x64xf32>) -> tensor<1x1x2x64xf32>
      %320 = stablehlo.broadcast_in_dim %iterArg_19, dims = [2, 3] : (tensor<2x64xf32>) -> tensor<1x1x2x64xf32>
      %321 = stablehlo.add %319, %320 : tensor<1x1x2x64xf32>
      %322 = stablehlo.dot_general %311, %iterArg_20, contracting_dims = [2] x [0] : (tensor<1x1x128xf32>, tensor<128x2x64xf32>) -> tensor<1x1x2x64xf32>
      %323 = stablehlo.broadcast_in_dim %iterArg_21, dims = [2, 3] : (tensor<2x64xf32>) -> tensor<1x1x2x64xf32>
      %324 = stablehlo.add %322, %323 : tensor<1x1x2x64xf32>
      %325 = stablehlo.compare LT, %270, %c_12, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
      %326 = stablehlo.add %270, %c_0 : tensor<i32>
      %327 = stablehlo.select %325, %326, %270 : tensor<i1>, tensor<i32>
      %328 = stablehlo.dynamic_update_slice %316, %321, %c_12, %327, %c_12, %c_12 : (tensor<1x32x2x64xf32>, tensor<1x1x2x64xf32>, tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<1x32x2x64xf32>
      %329 = stablehlo.compare LT, %270, %c_12, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
      %330 = stablehlo.add %270, %c_0 : tensor<i32>
      %331 = stablehlo.select %329, %330, %270 : tensor<i1>, tensor<i32>
      %332 = stablehlo.dynamic_update_slice %318, %324, %c_12, %331, %c_12, %c_12 : (tensor<1x32x2x64xf32>, tensor<1x1x2x64xf32>, tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<1x32x2x64xf32>
      %333 = stablehlo.broadcast_in_dim %328, dims = [0, 2, 3, 4] : (tensor<1x32x2x64xf32>) -> tensor<1x1x32x2x64xf32>
      %334 = stablehlo.broadcast_in_dim %332, dims = [0, 2, 3, 4] : (tensor<1x32x2x64xf32>) -> tensor<1x1x32x2x64xf32>
      %335 = stablehlo.concatenate %333, %334, dim = 1 : (tensor<1x1x32x2x64xf32>, tensor<1x1x32x2x64xf32>) -> tensor<1x2x32x2x64xf32>
      %336 = stablehlo.broadcast_in_dim %293, dims = [0, 2, 3] : (tensor<1x1x32xi1>) -> tensor<1x1x1x32xi1>
      %337 = stablehlo.reshape %314 : (tensor<1x1x2x64xf32>) -> tensor<1x1x2x1x64xf32>
      %338 = stablehlo.broadcast_in_dim %336, dims = [0, 1, 3, 4] : (tensor<1x1x1x32xi1>) -> tensor<1x1x1x1x32xi1>
      %339 = stablehlo.dot_general %337, %328, batching_dims = [0, 2] x [0, 2], contracting_dims = [4] x [3] : (tensor<1x1x2x1x64xf32>, tensor<1x32x2x64xf32>) -> tensor<1x2x1x1x32xf32>
      %340 = stablehlo.broadcast_in_dim %cst_9, dims = [] : (tensor<f32>) -> tensor<1x2x1x1x32xf32>
      %341 = stablehlo.multiply %339, %340 : tensor<1x2x1x1x32xf32>
      %342 = stablehlo.broadcast_in_dim %c_8, dims = [] : (tensor<i1>) -> tensor<1x2x1x32xi1>
      %343 = stablehlo.broadcast_in_dim %342, dims = [1, 2, 3, 4] : (tensor<1x2x1x32xi1>) -> tensor<1x1x2x1x32xi1>
      %344 = stablehlo.transpose %338, dims = [2, 0, 1, 3, 4] : (tensor<1x1x1x1x32xi1>) -> tensor<1x1x1x1x32xi1>
      %345 = stablehlo.broadcast_in_dim %344, dims = [0, 1, 2, 3, 4] : (tensor<1x1x1x1x32xi1>) -> tensor<1x1x2x1x32xi1>
      %346 = stablehlo.and %343, %345 : tensor<1x1x2x1x32xi1>
      %347 = func.call @_where_6(%346, %341, %cst_7) : (tensor<1x1x2x1x32xi1>, tensor<1x2x1x1x32xf32>, tensor<f32>) -> tensor<1x1x2x1x32xf32>
      %348 = stablehlo.reduce(%347 init: %cst_6) applies stablehlo.maximum across dimensions = [4] : (tensor<1x1x2x1x32xf32>, tensor<f32>) -> tensor<1x1x2x1xf32>
      %349 = stablehlo.broadcast_in_dim %cst_6, dims = [] : (tensor<f32>) -> tensor<1x1x2x1xf32>
      %350 = stablehlo.maximum %349, %348 : tensor<1x1x2x1xf32>
      %351 = stablehlo.broadcast_in_dim %350, dims = [0, 1, 2, 3] : (tensor<1x1x2x1xf32>) -> tensor<1x1x2x1x1xf32>
      %352 = stablehlo.broadcast_in_dim %351, dims = [0, 1, 2, 3, 4] : (tensor<1x1x2x1x1xf32>) -> tensor<1x1x2x1x32xf32>
      %353 = stablehlo.subtract %347, %352 : tensor<1x1x2x1x32xf32>
      %354 = stablehlo.exponential %353 : tensor<1x1x2x1x32xf32>
      %355 = stablehlo.reduce(%354 init: %cst_13) applies stablehlo.add across dimensions = [4] : (tensor<1x1x2x1x32xf32>, tensor<f32>) -> tensor<1x1x2x1xf32>
      %356 = stablehlo.broadcast_in_dim %355, dims = [0, 1, 2, 3] : (tensor<1x1x2x1xf32>) -> tensor<1x1x2x1x1xf32>
      %357 = stablehlo.broadcast_in_dim %356, dims = [0, 1, 2, 3, 4] : (tensor<1x1x2x1x1xf32>) -> tensor<1x1x2x1x32xf32>
      %358 = stablehlo.divide %354, %357 : tensor<1x1x2x1x32xf32>
      %359 = stablehlo.dot_general %332, %358, batching_dims = [0, 2] x [1, 2], contracting_dims = [1] x [4] : (tensor<1x32x2x64xf32>, tensor<1x1x2x1x32xf32>) -> tensor<1x2x64x1x1xf32>
      %360 = stablehlo.transpose %359, dims = [3, 0, 4, 1, 2] : (tensor<1x2x64x1x1xf32>) -> tensor<1x1x1x2x64xf32>
      %361 = stablehlo.transpose %360, dims = [1, 2, 3, 0, 4] : (tensor<1x1x1x2x64xf32>) -> tensor<1x1x2x1x64xf32>
      %362 = stablehlo.reshape %361 : (tensor<1x1x2x1x64xf32>) -> tensor<1x1x2x64xf32>
      %363 = stablehlo.dot_general %362, %iterArg_22, contracting_dims = [2, 3] x [0, 1] : (tensor<1x1x2x64xf32>, tensor<2x64x128xf32>) -> tensor<1x1x128xf32>
      %364 = stablehlo.broadcast_in_dim %iterArg_23, dims = [2] : (tensor<128xf32>) -> tensor<1x1x128xf32>
      %365 = stablehlo.add %363, %364 : tensor<1x1x128xf32>
      %366 = stablehlo.add %365, %281 : tensor<1x1x128xf32>
      %367 = stablehlo.reduce(%366 init: %cst_13) applies stablehlo.add across dimensions = [2] : (tensor<1x1x128xf32>, tensor<f32>) -> tensor<1x1xf32>
      %368 = stablehlo.broadcast_in_dim %367, dims = [0, 1] : (tensor<1x1xf32>) -> tensor<1x1x1xf32>
      %369 = stablehlo.broadcast_in_dim %cst_11, dims = [] : (tensor<f32>) -> tensor<1x1x1xf32>
      %370 = stablehlo.divide %368, %369 : tensor<1x1x1xf32>
      %371 = func.call @_var_4(%366, %c_12) : (tensor<1x1x128xf32>, tensor<i32>) -> tensor<1x1x1xf32>
      %372 = stablehlo.reshape %iterArg_30 : (tensor<128xf32>) -> tensor<1x1x128xf32>
      %373 = stablehlo.reshape %iterArg_31 : (tensor<128xf32>) -> tensor<1x1x128xf32>
      %374 = stablehlo.broadcast_in_dim %cst_10, dims = [] : (tensor<f32>) -> tensor<1x1x1xf32>
      %375 = stablehlo.add %371, %374 : tensor<1x1x1xf32>
      %376 = stablehlo.rsqrt %375 : tensor<1x1x1xf32>
      %377 = stablehlo.broadcast_in_dim %376, dims = [0, 1, 2] : (tensor<1x1x1xf32>) -> tensor<1x1x128xf32>
      %378 = stablehlo.multiply %377, %372 : tensor<1x1x128xf32>
      %379 = stablehlo.negate %370 : tensor<1x1x1xf32>
      %380 = stablehlo.broadcast_in_dim %379, dims = [0, 1, 2] : (tensor<1x1x1xf32>) -> tensor<1x1x128xf32>
      %381 = stablehlo.multiply %380, %378 : tensor<1x1x128xf32>
      %382 = stablehlo.add %381, %373 : tensor<1x1x128xf32>
      %383 = stablehlo.multiply %366, %378 : tensor<1x1x128xf32>
      %384 = stablehlo.add %383, %382 : tensor<1x1x128xf32>
      %385 = stablehlo.dot_general %384, %iterArg_26, contracting_dims = [2] x [0] : (tensor<1x1x128xf32>, tensor<128x512xf32>) -> tensor<1x1x512xf32>
      %386 = stablehlo.broadcast_in_dim %iterArg_27, dims = [2] : (tensor<512xf32>) -> tensor<1x1x512xf32>
      %387 = stablehlo.add %385, %386 : tensor<1x1x512xf32>
      %388 = stablehlo.multiply %387, %387 : tensor<1x1x512xf32>
      %389 = stablehlo.multiply %388, %387 : tensor<1x1x512xf32>
      %390 = stablehlo.broadcast_in_dim %cst_5, dims = [] : (tensor<f32>) -> tensor<1x1x512xf32>
      %391 = stablehlo.multiply %390, %389 : tensor<1x1x512xf32>
      %392 = stablehlo.add %387, %391 : tensor<1x1x512xf32>
      %393 = stablehlo.broadcast_in_dim %cst_4, dims = [] : (tensor<f32>) -> tensor<1x1x512xf32>
      %394 = stablehlo.multiply %393, %392 : tensor<1x1x512xf32>
      %395 = stablehlo.tanh %394 : tensor<1x1x512xf32>
      %396 = stablehlo.broadcast_in_dim %cst_3, dims = [] : (tensor<f32>) -> tensor<1x1x512xf32>
      %397 = stablehlo.add %396, %395 : tensor<1x1x512xf32>
      %398 = stablehlo.broadcast_in_dim %cst_2, dims = [] : (tensor<f32>) -> tensor<1x1x512xf32>
      %399 = stablehlo.multiply %398, %397 : tensor<1x1x512xf32>
      %400 = stablehlo.multiply %387, %399 : tensor<1x1x512xf32>
      %401 = stablehlo.dot_general %400, %iterArg_28, contracting_dims = [2] x [0] : (tensor<1x1x512xf32>, tensor<512x128xf32>) -> tensor<1x1x128xf32>
      %402 = stablehlo.broadcast_in_dim %iterArg_29, dims = [2] : (tensor<128xf32>) -> tensor<1x1x128xf32>
      %403 = stablehlo.add %401, %402 : tensor<1x1x128xf32>
      %404 = stablehlo.add %403, %366 : tensor<1x1x128xf32>
      %405 = stablehlo.slice %iterArg_52 [0:1, 1:2, 0:2, 0:32, 0:2, 0:64] : (tensor<1x2x2x32x2x64xf32>) -> tensor<1x1x2x32x2x64xf32>
      %406 = stablehlo.reshape %405 : (tensor<1x1x2x32x2x64xf32>) -> tensor<1x2x32x2x64xf32>
      %407 = stablehlo.iota dim = 0 : tensor<1xf32>
      %408 = stablehlo.convert %270 : (tensor<i32>) -> tensor<f32>
      %409 = stablehlo.broadcast_in_dim %408, dims = [] : (tensor<f32>) -> tensor<1xf32>
      %410 = stablehlo.add %407, %409 : tensor<1xf32>
      %411 = stablehlo.broadcast_in_dim %410, dims = [0] : (tensor<1xf32>) -> tensor<1x1xf32>
      %412 = stablehlo.iota dim = 0 : tensor<32xf32>
      %413 = stablehlo.broadcast_in_dim %412, dims = [1] : (tensor<32xf32>) -> tensor<1x32xf32>
      %414 = stablehlo.broadcast_in_dim %411, dims = [0, 1] : (tensor<1x1xf32>) -> tensor<1x32xf32>
      %415 = stablehlo.compare GE, %414, %413, FLOAT : (tensor<1x32xf32>, tensor<1x32xf32>) -> tensor<1x32xi1>
      %416 = stablehlo.broadcast_in_dim %415, dims = [1, 2] : (tensor<1x32xi1>) -> tensor<1x1x32xi1>
      %417 = stablehlo.reduce(%404 init: %cst_13) applies stablehlo.add across dimensions = [2] : (tensor<1x1x128xf32>, tensor<f32>) -> tensor<1x1xf32>
      %418 = stablehlo.broadcast_in_dim %417, dims = [0, 1] : (tensor<1x1xf32>) -> tensor<1x1x1xf32>
      %419 = stablehlo.broadcast_in_dim %cst_11, dims = [] : (tensor<f32>) -> tensor<1x1x1xf32>
      %420 = stablehlo.divide %418, %419 : tensor<1x1x1xf32>
      %421 = func.call @_var_4(%404, %c_12) : (tensor<1x1x128xf32>, tensor<i32>) -> tensor<1x1x1xf32>
      %422 = stablehlo.reshape %iterArg_40 : (tensor<128xf32>) -> tensor<1x1x128xf32>
      %423 = stablehlo.reshape %iterArg_41 : (tensor<128xf32>) -> tensor<1x1x128xf32>
      %424 = stablehlo.broadcast_in_dim %cst_10, dims = [] : (tensor<f32>) -> tensor<1x1x1xf32>
      %425 = stablehlo.add %421, %424 : tensor<1x1x1xf32>
      %426 = stablehlo.rsqrt %425 : tensor<1x1x1xf32>
      %427 = stablehlo.broadcast_in_dim %426, dims = [0, 1, 2] : (tensor<1x1x1xf32>) -> tensor<1x1x128xf32>
      %428 = stablehlo.multiply %427, %422 : tensor<1x1x128xf32>
      %429 = stablehlo.negate %420 : tensor<1x1x1xf32>
      %430 = stablehlo.broadcast_in_dim %429, dims = [0, 1, 2] : (tensor<1x1x1xf32>) -> tensor<1x1x128xf32>
      %431 = stablehlo.multiply %430, %428 : tensor<1x1x128xf32>
      %432 = stablehlo.add %431, %423 : tensor<1x1x128xf32>
      %433 = stablehlo.multiply %404, %428 : tensor<1x1x128xf32>
      %434 = stablehlo.add %433, %432 : tensor<1x1x128xf32>
      %435 = stablehlo.dot_general %434, %iterArg_32, contracting_dims = [2] x [0] : (tensor<1x1x128xf32>, tensor<128x2x64xf32>) -> tensor<1x1x2x64xf32>
      %436 = stablehlo.broadcast_in_dim %iterArg_33, dims = [2, 3] : (tensor<2x64xf32>) -> tensor<1x1x2x64xf32>
      %437 = stablehlo.add %435, %436 : tensor<1x1x2x64xf32>
      %438 = stablehlo.slice %406 [0:1, 0:1, 0:32, 0:2, 0:64] : (tensor<1x2x32x2x64xf32>) -> tensor<1x1x32x2x64xf32>
      %439 = stablehlo.reshape %438 : (tensor<1x1x32x2x64xf32>) -> tensor<1x32x2x64xf32>
      %440 = stablehlo.slice %406 [0:1, 1:2, 0:32, 0:2, 0:64] : (tensor<1x2x32x2x64xf32>) -> tensor<1x1x32x2x64xf32>
      %441 = stablehlo.reshape %440 : (tensor<1x1x32x2x64xf32>) -> tensor<1x32x2x64xf32>
      %442 = stablehlo.dot_general %434, %iterArg_34, contracting_dims = [2] x [0] : (tensor<1x1x128xf32>, tensor<128x2x64xf32>) -> tensor<1x1x2x64xf32>
      %443 = stablehlo.broadcast_in_dim %iterArg_35, dims = [2, 3] : (tensor<2x64xf32>) -> tensor<1x1x2x64xf32>
      %444 = stablehlo.add %442, %443 : tensor<1x1x2x64xf32>
      %445 = stablehlo.dot_general %434, %iterArg_36, contracting_dims = [2] x [0] : (tensor<1x1x128xf32>, tensor<128x2x64xf32>) -> tensor<1x1x2x64xf32>
      %446 = stablehlo.broadcast_in_dim %iterArg_37, dims = [2, 3] : (tensor<2x64xf32>) -> tensor<1x1x2x64xf32>
      %447 = stablehlo.add %445, %446 : tensor<1x1x2x64xf32>
      %448 = stablehlo.compare LT, %270, %c_12, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
      %449 = stablehlo.add %270, %c_0 : tensor<i32>
      %450 = stablehlo.select %448, %449, %270 : tensor<i1>, tensor<i32>
      %451 = stablehlo.dynamic_update_slice %439, %444, %c_12, %450, %c_12, %c_12 : (tensor<1x32x2x64xf32>, tensor<1x1x2x64xf32>, tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<1x32x2x64xf32>
      %452 = stablehlo.compare LT, %270, %c_12, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
      %453 = stablehlo.add %270, %c_0 : tensor<i32>
      %454 = stablehlo.select %452, %453, %270 : tensor<i1>, tensor<i32>
      %455 = stablehlo.dynamic_update_slice %441, %447, %c_12, %454, %c_12, %c_12 : (tensor<1x32x2x64xf32>, tensor<1x1x2x64xf32>, tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<1x32x2x64xf32>
      %456 = stablehlo.broadcast_in_dim %451, dims = [0, 2, 3, 4] : (tensor<1x32x2x64xf32>) -> tensor<1x1x32x2x64xf32>
      %457 = stablehlo.broadcast_in_dim %455, dims = [0, 2, 3, 4] : (tensor<1x32x2x64xf32>) -> tensor<1x1x32x2x64xf32>
      %458 = stablehlo.concatenate %456, %457, dim = 1 : (tensor<1x1x32x2x64xf32>, tensor<1x1x32x2x64xf32>) -> tensor<1x2x32x2x64xf32>
      %459 = stablehlo.broadcast_in_dim %416, dims = [0, 2, 3] : (tensor<1x1x32xi1>) -> tensor<1x1x1x32xi1>
      %460 = stablehlo.reshape %437 : (tensor<1x1x2x64xf32>) -> tensor<1x1x2x1x64xf32>
      %461 = stablehlo.broadcast_in_dim %459, dims = [0, 1, 3, 4] : (tensor<1x1x1x32xi1>) -> tensor<1x1x1x1x32xi1>
      %462 = stablehlo.dot_general %460, %451, batching_dims = [0, 2] x [0, 2], contracting_dims = [4] x [3] : (tensor<1x1x2x1x64xf32>, tensor<1x32x2x64xf32>) -> tensor<1x2x1x1x32xf32>
      %463 = stablehlo.broadcast_in_dim %cst_9, dims = [] : (tensor<f32>) -> tensor<1x2x1x1x32xf32>
      %464 = stablehlo.multiply %462, %463 : tensor<1x2x1x1x32xf32>
      %465 = stablehlo.broadcast_in_dim %c_8, dims = [] : (tensor<i1>) -> tensor<1x2x1x32xi1>
      %466 = stablehlo.broadcast_in_dim %465, dims = [1, 2, 3, 4] : (tensor<1x2x1x32xi1>) -> tensor<1x1x2x1x32xi1>
      %467 = stablehlo.transpose %461, dims = [2, 0, 1, 3, 4] : (tensor<1x1x1x1x32xi1>) -> tensor<1x1x1x1x32xi1>
      %468 = stablehlo.broadcast_in_dim %467, dims = [0, 1, 2, 3, 4] : (tensor<1x1x1x1x32xi1>) -> tensor<1x1x2x1x32xi1>
      %469 = stablehlo.and %466, %468 : tensor<1x1x2x1x32xi1>
      %470 = func.call @_where_6(%469, %464, %cst_7) : (tensor<1x1x2x1x32xi1>, tensor<1x2x1x1x32xf32>, tensor<f32>) -> tensor<1x1x2x1x32xf32>
      %471 = stablehlo.reduce(%470 init: %cst_6) applies stablehlo.maximum across dimensions = [4] : (tensor<1x1x2x1x32xf32>, tensor<f32>) -> tensor<1x1x2x1xf32>
      %472 = stablehlo.broadcast_in_dim %cst_6, dims = [] : (tensor<f32>) -> tensor<1x1x2x1xf32>
      %473 = stablehlo.maximum %472, %471 : tensor<1x1x2x1xf32>
      %474 = stablehlo.broadcast_in_dim %473, dims = [0, 1, 2, 3] : (tensor<1x1x2x1xf32>) -> tensor<1x1x2x1x1xf32>
      %475 = stablehlo.broadcast_in_dim %474, dims = [0, 1, 2, 3, 4] : (tensor<1x1x2x1x1xf32>) -> tensor<1x1x2x1x32xf32>
      %476 = stablehlo.subtract %470, %475 : tensor<1x1x2x1x32xf32>
      %477 = stablehlo.exponential %476 : tensor<1x1x2x1x32xf32>
      %478 = stablehlo.reduce(%477 init: %cst_13) applies stablehlo.add across dimensions = [4] : (tensor<1x1x2x1x32xf32>, tensor<f32>) -> tensor<1x1x2x1xf32>
      %479 = stablehlo.broadcast_in_dim %478, dims = [0, 1, 2, 3] : (tensor<1x1x2x1xf32>) -> tensor<1x1x2x1x1xf32>
      %480 = stablehlo.broadcast_in_dim %479, dims = [0, 1, 2, 3, 4] : (tensor<1x1x2x1x1xf32>) -> tensor<1x1x2x1x32xf32>
      %481 = stablehlo.divide %477, %480 : tensor<1x1x2x1x32xf32>
      %482 = stablehlo.dot_general %455, %481, batching_dims = [0, 2] x [1, 2], contracting_dims = [1] x [4] : (tensor<1x32x2x64xf32>, tensor<1x1x2x1x32xf32>) -> tensor<1x2x64x1x1xf32>
      %483 = stablehlo.transpose %482, dims = [3, 0, 4, 1, 2] : (tensor<1x2x64x1x1xf32>) -> tensor<1x1x1x2x64xf32>
      %484 = stablehlo.transpose %483, dims = [1, 2, 3, 0, 4] : (tensor<1x1x1x2x64xf32>) -> tensor<1x1x2x1x64xf32>
      %485 = stablehlo.reshape %484 : (tensor<1x1x2x1x64xf32>) -> tensor<1x1x2x64xf32>
      %486 = stablehlo.dot_general %485, %iterArg_38, contracting_dims = [2, 3] x [0, 1] : (tensor<1x1x2x64xf32>, tensor<2x64x128xf32>) -> tensor<1x1x128xf32>
      %487 = stablehlo.broadcast_in_dim %iterArg_39, dims = [2] : (tensor<128xf32>) -> tensor<1x1x128xf32>
      %488 = stablehlo.add %486, %487 : tensor<1x1x128xf32>
      %489 = stablehlo.add %488, %404 : tensor<1x1x128xf32>
      %490 = stablehlo.reduce(%489 init: %cst_13) applies stablehlo.add across dimensions = [2] : (tensor<1x1x128xf32>, tensor<f32>) -> tensor<1x1xf32>
      %491 = stablehlo.broadcast_in_dim %490, dims = [0, 1] : (tensor<1x1xf32>) -> tensor<1x1x1xf32>
      %492 = stablehlo.broadcast_in_dim %cst_11, dims = [] : (tensor<f32>) -> tensor<1x1x1xf32>
      %493 = stablehlo.divide %491, %492 : tensor<1x1x1xf32>
      %494 = func.call @_var_4(%489, %c_12) : (tensor<1x1x128xf32>, tensor<i32>) -> tensor<1x1x1xf32>
      %495 = stablehlo.reshape %iterArg_46 : (tensor<128xf32>) -> tensor<1x1x128xf32>
      %496 = stablehlo.reshape %iterArg_47 : (tensor<128xf32>) -> tensor<1x1x128xf32>
      %497 = stablehlo.broadcast_in_dim %cst_10, dims = [] : (tensor<f32>) -> tensor<1x1x1xf32>
      %498 = stablehlo.add %494, %497 : tensor<1x1x1xf32>
      %499 = stablehlo.rsqrt %498 : tensor<1x1x1xf32>
      %500 = stablehlo.broadcast_in_dim %499, dims = [0, 1, 2] : (tensor<1x1x1xf32>) -> tensor<1x1x128xf32>
      %501 = stablehlo.multiply %500, %495 : tensor<1x1x128xf32>
      %502 = stablehlo.negate %493 : tensor<1x1x1xf32>
      %503 = stablehlo.broadcast_in_dim %502, dims = [0, 1, 2] : (tensor<1x1x1xf32>) -> tensor<1x1x128xf32>
      %504 = stablehlo.multiply %503, %501 : tensor<1x1x128xf32>
      %505 = stablehlo.add %504, %496 : tensor<1x1x128xf32>
      %506 = stablehlo.multiply %489, %501 : tensor<1x1x128xf32>
      %507 = stablehlo.add %506, %505 : tensor<1x1x128xf32>
      %508 = stablehlo.dot_general %507, %iterArg_42, contracting_dims = [2] x [0] : (tensor<1x1x128xf32>, tensor<128x512xf32>) -> tensor<1x1x512xf32>
      %509 = stablehlo.broadcast_in_dim %iterArg_43, dims = [2] : (tensor<512xf32>) -> tensor<1x1x512xf32>
      %510 = stablehlo.add %508, %509 : tensor<1x1x512xf32>
      %511 = stablehlo.multiply %510, %510 : tensor<1x1x512xf32>
      %512 = stablehlo.multiply %511, %510 : tensor<1x1x512xf32>
      %513 = stablehlo.broadcast_in_dim %cst_5, dims = [] : (tensor<f32>) -> tensor<1x1x512xf32>
      %514 = stablehlo.multiply %513, %512 : tensor<1x1x512xf32>
      %515 = stablehlo.add %510, %514 : tensor<1x1x512xf32>
      %516 = stablehlo.broadcast_in_dim %cst_4, dims = [] : (tensor<f32>) -> tensor<1x1x512xf32>
      %517 = stablehlo.multiply %516, %515 : tensor<1x1x512xf32>
      %518 = stablehlo.tanh %517 : tensor<1x1x512xf32>
      %519 = stablehlo.broadcast_in_dim %cst_3, dims = [] : (tensor<f32>) -> tensor<1x1x512xf32>
      %520 = stablehlo.add %519, %518 : tensor<1x1x512xf32>
      %521 = stablehlo.broadcast_in_dim %cst_2, dims = [] : (tensor<f32>) -> tensor<1x1x512xf32>
      %522 = stablehlo.multiply %521, %520 : tensor<1x1x512xf32>
      %523 = stablehlo.multiply %510, %522 : tensor<1x1x512xf32>
      %524 = stablehlo.dot_general %523, %iterArg_44, contracting_dims = [2] x [0] : (tensor<1x1x512xf32>, tensor<512x128xf32>) -> tensor<1x1x128xf32>
      %525 = stablehlo.broadcast_in_dim %iterArg_45, dims = [2] : (tensor<128xf32>) -> tensor<1x1x128xf32>
      %526 = stablehlo.add %524, %525 : tensor<1x1x128xf32>
      %527 = stablehlo.add %526, %489 : tensor<1x1x128xf32>
      %528 = stablehlo.broadcast_in_dim %335, dims = [0, 2, 3, 4, 5] : (tensor<1x2x32x2x64xf32>) -> tensor<1x1x2x32x2x64xf32>
      %529 = stablehlo.broadcast_in_dim %458, dims = [0, 2, 3, 4, 5] : (tensor<1x2x32x2x64xf32>) -> tensor<1x1x2x32x2x64xf32>
      %530 = stablehlo.concatenate %528, %529, dim = 1 : (tensor<1x1x2x32x2x64xf32>, tensor<1x1x2x32x2x64xf32>) -> tensor<1x2x2x32x2x64xf32>
      %531 = stablehlo.reduce(%527 init: %cst_13) applies stablehlo.add across dimensions = [2] : (tensor<1x1x128xf32>, tensor<f32>) -> tensor<1x1xf32>
      %532 = stablehlo.broadcast_in_dim %531, dims = [0, 1] : (tensor<1x1xf32>) -> tensor<1x1x1xf32>
      %533 = stablehlo.broadcast_in_dim %cst_11, dims = [] : (tensor<f32>) -> tensor<1x1x1xf32>
      %534 = stablehlo.divide %532, %533 : tensor<1x1x1xf32>
      %535 = func.call @_var_4(%527, %c_12) : (tensor<1x1x128xf32>, tensor<i32>) -> tensor<1x1x1xf32>
      %536 = stablehlo.reshape %iterArg_48 : (tensor<128xf32>) -> tensor<1x1x128xf32>
      %537 = stablehlo.reshape %iterArg_49 : (tensor<128xf32>) -> tensor<1x1x128xf32>
      %538 = stablehlo.broadcast_in_dim %cst_10, dims = [] : (tensor<f32>) -> tensor<1x1x1xf32>
      %539 = stablehlo.add %535, %538 : tensor<1x1x1xf32>
      %540 = stablehlo.rsqrt %539 : tensor<1x1x1xf32>
      %541 = stablehlo.broadcast_in_dim %540, dims = [0, 1, 2] : (tensor<1x1x1xf32>) -> tensor<1x1x128xf32>
      %542 = stablehlo.multiply %541, %536 : tensor<1x1x128xf32>
      %543 = stablehlo.negate %534 : tensor<1x1x1xf32>
      %544 = stablehlo.broadcast_in_dim %543, dims = [0, 1, 2] : (tensor<1x1x1xf32>) -> tensor<1x1x128xf32>
      %545 = stablehlo.multiply %544, %542 : tensor<1x1x128xf32>
      %546 = stablehlo.add %545, %537 : tensor<1x1x128xf32>
      %547 = stablehlo.multiply %527, %542 : tensor<1x1x128xf32>
      %548 = stablehlo.add %547, %546 : tensor<1x1x128xf32>
      %549 = stablehlo.transpose %iterArg_14, dims = [1, 0] : (tensor<1000x128xf32>) -> tensor<128x1000xf32>
      %550 = stablehlo.dot_general %548, %549, contracting_dims = [2] x [0] : (tensor<1x1x128xf32>, tensor<128x1000xf32>) -> tensor<1x1x1000xf32>
      %551 = stablehlo.reshape %550 : (tensor<1x1x1000xf32>) -> tensor<1x1000xf32>
      %552 = stablehlo.broadcast_in_dim %cst_3, dims = [] : (tensor<f32>) -> tensor<1x1000xf32>
      %553 = stablehlo.divide %551, %552 : tensor<1x1000xf32>
      %554 = stablehlo.reduce(%553 init: %cst_6) applies stablehlo.maximum across dimensions = [1] : (tensor<1x1000xf32>, tensor<f32>) -> tensor<1xf32>
      %555 = stablehlo.broadcast_in_dim %cst_6, dims = [] : (tensor<f32>) -> tensor<1xf32>
      %556 = stablehlo.maximum %555, %554 : tensor<1xf32>
      %557 = stablehlo.broadcast_in_dim %556, dims = [0] : (tensor<1xf32>) -> tensor<1x1xf32>
      %558 = stablehlo.broadcast_in_dim %557, dims = [0, 1] : (tensor<1x1xf32>) -> tensor<1x1000xf32>
      %559 = stablehlo.subtract %553, %558 : tensor<1x1000xf32>
      %560 = stablehlo.exponential %559 : tensor<1x1000xf32>
      %561 = stablehlo.reduce(%560 init: %cst_13) applies stablehlo.add across dimensions = [1] : (tensor<1x1000xf32>, tensor<f32>) -> tensor<1xf32>
      %562 = stablehlo.broadcast_in_dim %561, dims = [0] : (tensor<1xf32>) -> tensor<1x1xf32>
      %563 = stablehlo.broadcast_in_dim %562, dims = [0, 1] : (tensor<1x1xf32>) -> tensor<1x1000xf32>
      %564 = stablehlo.divide %560, %563 : tensor<1x1000xf32>
      %565 = stablehlo.broadcast_in_dim %cst_13, dims = [] : (tensor<f32>) -> tensor<1x1000xf32>
      %566 = stablehlo.compare EQ, %564, %565, FLOAT : (tensor<1x1000xf32>, tensor<1x1000xf32>) -> tensor<1x1000xi1>
      %567 = func.call @signbit(%564) : (tensor<1x1000xf32>) -> tensor<1x1000xi1>
      %568 = stablehlo.and %566, %567 : tensor<1x1000xi1>
      %569 = func.call @_where_7(%568, %cst, %564) : (tensor<1x1000xi1>, tensor<f32>, tensor<1x1000xf32>) -> tensor<1x1000xf32>
      %570 = func.call @argmax(%569) : (tensor<1x1000xf32>) -> tensor<1xi32>
      %571 = stablehlo.compare LT, %c_12, %c_12, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
      %572 = stablehlo.add %c_12, %c : tensor<i32>
      %573 = stablehlo.select %571, %572, %c_12 : tensor<i1>, tensor<i32>
      %574 = stablehlo.compare LT, %iterArg_53, %c_12, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
      %575 = stablehlo.add %iterArg_53, %c_0 : tensor<i32>
      %576 = stablehlo.select %574, %575, %iterArg_53 : tensor<i1>, tensor<i32>
      %577 = stablehlo.dynamic_slice %iterArg_50, %573, %576, sizes = [1, 1] : (tensor<1x32xi1>, tensor<i32>, tensor<i32>) -> tensor<1x1xi1>
      %578 = stablehlo.reshape %577 : (tensor<1x1xi1>) -> tensor<1xi1>
      %579 = stablehlo.compare LT, %c_12, %c_12, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
      %580 = stablehlo.add %c_12, %c : tensor<i32>
      %581 = stablehlo.select %579, %580, %c_12 : tensor<i1>, tensor<i32>
      %582 = stablehlo.compare LT, %iterArg_53, %c_12, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
      %583 = stablehlo.add %iterArg_53, %c_0 : tensor<i32>
      %584 = stablehlo.select %582, %583, %iterArg_53 : tensor<i1>, tensor<i32>
      %585 = stablehlo.dynamic_slice %iterArg_51, %581, %584, sizes = [1, 1] : (tensor<1x32xi32>, tensor<i32>, tensor<i32>) -> tensor<1x1xi32>
      %586 = stablehlo.reshape %585 : (tensor<1x1xi32>) -> tensor<1xi32>
      %587 = func.call @_where_8(%578, %586, %570) : (tensor<1xi1>, tensor<1xi32>, tensor<1xi32>) -> tensor<1xi32>
      %588 = stablehlo.broadcast_in_dim %587, dims = [0] : (tensor<1xi32>) -> tensor<1x1xi32>
      %589 = stablehlo.compare LT, %iterArg_53, %c_12, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
      %590 = stablehlo.add %iterArg_53, %c_0 : tensor<i32>
      %591 = stablehlo.select %589, %590, %iterArg_53 : tensor<i1>, tensor<i32>
      %592 = stablehlo.dynamic_update_slice %iterArg_51, %588, %c_12, %591 : (tensor<1x32xi32>, tensor<1x1xi32>, tensor<i32>, tensor<i32>) -> tensor<1x32xi32>
      %593 = stablehlo.add %iterArg_53, %c : tensor<i32>
      %594 = stablehlo.add %iterArg_54, %c : tensor<i32>
      stablehlo.return %iterArg, %iterArg_14, %iterArg_15, %iterArg_16, %iterArg_17, %iterArg_18, %iterArg_19, %iterArg_20, %iterArg_21, %iterArg_22, %iterArg_23, %iterArg_24, %iterArg_25, %iterArg_26, %iterArg_27, %iterArg_28, %iterArg_29, %iterArg_30, %iterArg_31, %iterArg_32, %iterArg_33, %iterArg_34, %iterArg_35, %iterArg_36, %iterArg_37, %iterArg_38, %iterArg_39, %iterArg_40, %iterArg_41, %iterArg_42, %iterArg_43, %iterArg_44, %iterArg_45, %iterArg_46, %iterArg_47, %iterArg_48, %iterArg_49, %iterArg_50, %592, %530, %593, %594 : tensor<i32>, tensor<1000x128xf32>, tensor<32x128xf32>, tensor<128x2x64xf32>, tensor<2x64xf32>, tensor<128x2x64xf32>, tensor<2x64xf32>, tensor<128x2x64xf32>, tensor<2x64xf32>, tensor<2x64x128xf32>, tensor<128xf32>, tensor<128xf32>, tensor<128xf32>, tensor<128x512xf32>, tensor<512xf32>, tensor<512x128xf32>, tensor<128xf32>, tensor<128xf32>, tensor<128xf32>, tensor<128x2x64xf32>, tensor<2x64xf32>, tensor<128x2x64xf32>, tensor<2x64xf32>, tensor<128x2x64xf32>, tensor<2x64xf32>, tensor<2x64x128xf32>, tensor<128xf32>, tensor<128xf32>, tensor<128xf32>, tensor<128x512xf32>, tensor<512xf32>, tensor<512x128xf32>, tensor<128xf32>, tensor<128xf32>, tensor<128xf32>, tensor<128xf32>, tensor<128xf32>, tensor<1x32xi1>, tensor<1x32xi32>, tensor<1x2x2x32x2x64xf32>, tensor<i32>, tensor<i32>
    }
    return %269#38 : tensor<1x32xi32>
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
  func.func private @_take_2(%arg0: tensor<1000x128xf32>, %arg1: tensor<1x1xi32>) -> tensor<1x1x128xf32> {
    %cst = stablehlo.constant dense<0x7FC00000> : tensor<f32>
    %c = stablehlo.constant dense<true> : tensor<i1>
    %c_0 = stablehlo.constant dense<999> : tensor<1xi32>
    %c_1 = stablehlo.constant dense<1000> : tensor<i32>
    %c_2 = stablehlo.constant dense<0> : tensor<i32>
    %0 = stablehlo.broadcast_in_dim %c_2, dims = [] : (tensor<i32>) -> tensor<1x1xi32>
    %1 = stablehlo.compare LT, %arg1, %0, SIGNED : (tensor<1x1xi32>, tensor<1x1xi32>) -> tensor<1x1xi1>
    %2 = stablehlo.broadcast_in_dim %c_1, dims = [] : (tensor<i32>) -> tensor<1x1xi32>
    %3 = stablehlo.add %arg1, %2 : tensor<1x1xi32>
    %4 = call @_where_3(%1, %3, %arg1) : (tensor<1x1xi1>, tensor<1x1xi32>, tensor<1x1xi32>) -> tensor<1x1xi32>
    %5 = stablehlo.broadcast_in_dim %4, dims = [0, 1] : (tensor<1x1xi32>) -> tensor<1x1x1xi32>
    %6 = stablehlo.broadcast_in_dim %c_2, dims = [] : (tensor<i32>) -> tensor<1x1x1xi32>
    %7 = stablehlo.compare GE, %5, %6, SIGNED : (tensor<1x1x1xi32>, tensor<1x1x1xi32>) -> tensor<1x1x1xi1>
    %8 = stablehlo.broadcast_in_dim %c_0, dims = [2] : (tensor<1xi32>) -> tensor<1x1x1xi32>
    %9 = stablehlo.compare LE, %5, %8, SIGNED : (tensor<1x1x1xi32>, tensor<1x1x1xi32>) -> tensor<1x1x1xi1>
    %10 = stablehlo.and %7, %9 : tensor<1x1x1xi1>
    %11 = stablehlo.reduce(%10 init: %c) applies stablehlo.and across dimensions = [2] : (tensor<1x1x1xi1>, tensor<i1>) -> tensor<1x1xi1>
    %12 = "stablehlo.gather"(%arg0, %5) <{dimension_numbers = #stablehlo.gather<offset_dims = [2], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 2>, slice_sizes = array<i64: 1, 128>}> : (tensor<1000x128xf32>, tensor<1x1x1xi32>) -> tensor<1x1x128xf32>
    %13 = stablehlo.broadcast_in_dim %11, dims = [0, 1] : (tensor<1x1xi1>) -> tensor<1x1x128xi1>
    %14 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<1x1x128xf32>
    %15 = stablehlo.select %13, %12, %14 : tensor<1x1x128xi1>, tensor<1x1x128xf32>
    return %15 : tensor<1x1x128xf32>
  }
  func.func private @_where_3(%arg0: tensor<1x1xi1>, %arg1: tensor<1x1xi32>, %arg2: tensor<1x1xi32>) -> tensor<1x1xi32> {
    %0 = stablehlo.select %arg0, %arg1, %arg2 : tensor<1x1xi1>, tensor<1x1xi32>
    return %0 : tensor<1x1xi32>
  }
  func.func private @_var_4(%arg0: tensor<1x1x128xf32>, %arg1: tensor<i32>) -> tensor<1x1x1xf32> {
    %cst = stablehlo.constant dense<0x7FC00000> : tensor<f32>
    %cst_0 = stablehlo.constant dense<1.280000e+02> : tensor<f32>
    %cst_1 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %0 = stablehlo.reduce(%arg0 init: %cst_1) applies stablehlo.add across dimensions = [2] : (tensor<1x1x128xf32>, tensor<f32>) -> tensor<1x1xf32>
    %1 = stablehlo.broadcast_in_dim %0, dims = [0, 1] : (tensor<1x1xf32>) -> tensor<1x1x1xf32>
    %2 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<f32>) -> tensor<1x1x1xf32>
    %3 = stablehlo.divide %1, %2 : tensor<1x1x1xf32>
    %4 = stablehlo.broadcast_in_dim %3, dims = [0, 1, 2] : (tensor<1x1x1xf32>) -> tensor<1x1x128xf32>
    %5 = stablehlo.subtract %arg0, %4 : tensor<1x1x128xf32>
    %6 = stablehlo.multiply %5, %5 : tensor<1x1x128xf32>
    %7 = stablehlo.convert %arg1 : (tensor<i32>) -> tensor<f32>
    %8 = stablehlo.subtract %cst_0, %7 : tensor<f32>
    %9 = stablehlo.reduce(%6 init: %cst_1) applies stablehlo.add across dimensions = [2] : (tensor<1x1x128xf32>, tensor<f32>) -> tensor<1x1xf32>
    %10 = stablehlo.broadcast_in_dim %9, dims = [0, 1] : (tensor<1x1xf32>) -> tensor<1x1x1xf32>
    %11 = stablehlo.broadcast_in_dim %8, dims = [] : (tensor<f32>) -> tensor<1x1x1xf32>
    %12 = stablehlo.divide %10, %11 : tensor<1x1x1xf32>
    %13 = stablehlo.compare GT, %8, %cst_1, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
    %14 = call @_where_5(%13, %12, %cst) : (tensor<i1>, tensor<1x1x1xf32>, tensor<f32>) -> tensor<1x1x1xf32>
    return %14 : tensor<1x1x1xf32>
  }
  func.func private @_where_5(%arg0: tensor<i1>, %arg1: tensor<1x1x1xf32>, %arg2: tensor<f32>) -> tensor<1x1x1xf32> {
    %0 = stablehlo.convert %arg2 : tensor<f32>
    %1 = stablehlo.broadcast_in_dim %0, dims = [] : (tensor<f32>) -> tensor<1x1x1xf32>
    %2 = stablehlo.select %arg0, %arg1, %1 : tensor<i1>, tensor<1x1x1xf32>
    return %2 : tensor<1x1x1xf32>
  }
  func.func private @_where_6(%arg0: tensor<1x1x2x1x32xi1>, %arg1: tensor<1x2x1x1x32xf32>, %arg2: tensor<f32>) -> tensor<1x1x2x1x32xf32> {
    %0 = stablehlo.broadcast_in_dim %arg2, dims = [] : (tensor<f32>) -> tensor<1x2x1x32xf32>
    %1 = stablehlo.broadcast_in_dim %0, dims = [1, 2, 3, 4] : (tensor<1x2x1x32xf32>) -> tensor<1x1x2x1x32xf32>
    %2 = stablehlo.transpose %arg1, dims = [3, 0, 1, 2, 4] : (tensor<1x2x1x1x32xf32>) -> tensor<1x1x2x1x32xf32>
    %3 = stablehlo.select %arg0, %2, %1 : tensor<1x1x2x1x32xi1>, tensor<1x1x2x1x32xf32>
    return %3 : tensor<1x1x2x1x32xf32>
  }
  func.func private @signbit(%arg0: tensor<1x1000xf32>) -> tensor<1x1000xi1> {
    %c = stablehlo.constant dense<0> : tensor<i32>
    %c_0 = stablehlo.constant dense<31> : tensor<i32>
    %0 = stablehlo.bitcast_convert %arg0 : (tensor<1x1000xf32>) -> tensor<1x1000xi32>
    %1 = stablehlo.broadcast_in_dim %c_0, dims = [] : (tensor<i32>) -> tensor<1x1000xi32>
    %2 = stablehlo.shift_right_arithmetic %0, %1 : tensor<1x1000xi32>
    %3 = stablehlo.broadcast_in_dim %c, dims = [] : (tensor<i32>) -> tensor<1x1000xi32>
    %4 = stablehlo.compare NE, %2, %3, SIGNED : (tensor<1x1000xi32>, tensor<1x1000xi32>) -> tensor<1x1000xi1>
    %5 = stablehlo.convert %4 : tensor<1x1000xi1>
    return %5 : tensor<1x1000xi1>
  }
  func.func private @_where_7(%arg0: tensor<1x1000xi1>, %arg1: tensor<f32>, %arg2: tensor<1x1000xf32>) -> tensor<1x1000xf32> {
    %0 = stablehlo.broadcast_in_dim %arg1, dims = [] : (tensor<f32>) -> tensor<1x1000xf32>
    %1 = stablehlo.select %arg0, %0, %arg2 : tensor<1x1000xi1>, tensor<1x1000xf32>
    return %1 : tensor<1x1000xf32>
  }
  func.func private @argmax(%arg0: tensor<1x1000xf32>) -> tensor<1xi32> {
    %c = stablehlo.constant dense<0> : tensor<i32>
    %cst = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %0 = stablehlo.iota dim = 1 : tensor<1x1000xi32>
    %1:2 = stablehlo.reduce(%arg0 init: %cst), (%0 init: %c) across dimensions = [1] : (tensor<1x1000xf32>, tensor<1x1000xi32>, tensor<f32>, tensor<i32>) -> (tensor<1xf32>, tensor<1xi32>)
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
    return %1#1 : tensor<1xi32>
  }
  func.func private @_where_8(%arg0: tensor<1xi1>, %arg1: tensor<1xi32>, %arg2: tensor<1xi32>) -> tensor<1xi32> {
    %0 = stablehlo.select %arg0, %arg1, %arg2 : tensor<1xi1>, tensor<1xi32>
    return %0 : tensor<1xi32>
  }
}
