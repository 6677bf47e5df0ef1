module @jit__lambda attributes {jax.uses_shape_polymorphism = false, mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<1000x128xf32>, %arg1: tensor<64x128xf32>, %arg2: tensor<128xf32>, %arg3: tensor<128x384xf32>, %arg4: tensor<128x128xf32>, %arg5: tensor<128xf32>, %arg6: tensor<128x512xf32>, %arg7: tensor<512x128xf32>, %arg8: tensor<128xf32>, %arg9: tensor<128x384xf32>, %arg10: tensor<128x128xf32>, %arg11: tensor<128xf32>, %arg12: tensor<128x512xf32>, %arg13: tensor<512x128xf32>, %arg14: tensor<128xf32>, %arg15: tensor<8xi32>, %arg16: tensor<i32>) -> (tensor<64xi32> {jax.result_info = "result[0]"}, tensor<i32> {jax.result_info = "result[1]"}) {
    %0:2 = call @"<lambda>"(%arg0, %arg1, %arg2, %arg3, %arg4, %arg5, %arg6, %arg7, %arg8, %arg9, %arg10, %arg11, %arg12, %arg13, %arg14, %arg15, %arg16) : (tensor<1000x128xf32>, tensor<64x128xf32>, tensor<128xf32>, tensor<128x384xf32>, tensor<128x128xf32>, tensor<128xf32>, tensor<128x512xf32>, tensor<512x128xf32>, tensor<128xf32>, tensor<128x384xf32>, tensor<128x128xf32>, tensor<128xf32>, tensor<128x512xf32>, tensor<512x128xf32>, tensor<128xf32>, tensor<8xi32>, tensor<i32>) -> (tensor<64xi32>, tensor<i32>)
    return %0#0, %0#1 : tensor<64xi32>, tensor<i32>
  }
  func.func private @"<lambda>"(%arg0: tensor<1000x128xf32>, %arg1: tensor<64x128xf32>, %arg2: tensor<128xf32>, %arg3: tensor<128x384xf32>, %arg4: tensor<128x128xf32>, %arg5: tensor<128xf32>, %arg6: tensor<128x512xf32>, %arg7: tensor<512x128xf32>, %arg8: tensor<128xf32>, %arg9: tensor<128x384xf32>, %arg10: tensor<128x128xf32>, %arg11: tensor<128xf32>, %arg12: tensor<128x512xf32>, %arg13: tensor<512x128xf32>, %arg14: tensor<128xf32>, %arg15: tensor<8xi32>, %arg16: tensor<i32>) -> (tensor<64xi32>, tensor<i32>) {
    %c = stablehlo.constant dense<64> : tensor<i32>
    %c_0 = stablehlo.constant dense<9> : tensor<i32>
    %c_1 = stablehlo.constant dense<8> : tensor<i32>
    %c_2 = stablehlo.constant dense<1> : tensor<i32>
    %cst = stablehlo.constant dense<5.000000e-01> : tensor<f32>
    %cst_3 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %cst_4 = stablehlo.constant dense<0.797884583> : tensor<f32>
    %cst_5 = stablehlo.constant dense<4.471500e-02> : tensor<f32>
    %cst_6 = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %cst_7 = stablehlo.constant dense<-1.000000e+30> : tensor<f32>
    %cst_8 = stablehlo.constant dense<0.176776692> : tensor<f32>
    %cst_9 = stablehlo.constant dense<9.99999974E-6> : tensor<f32>
    %cst_10 = stablehlo.constant dense<1.280000e+02> : tensor<f32>
    %c_11 = stablehlo.constant dense<0> : tensor<i32>
    %cst_12 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %0 = stablehlo.broadcast_in_dim %cst_12, dims = [] : (tensor<f32>) -> tensor<2x2x64x4x32xf32>
    %1 = stablehlo.iota dim = 0 : tensor<8xi32>
    %2 = stablehlo.broadcast_in_dim %c_11, dims = [] : (tensor<i32>) -> tensor<8xi32>
    %3 = stablehlo.add %2, %1 : tensor<8xi32>
    %4 = call @_take(%arg0, %arg15) : (tensor<1000x128xf32>, tensor<8xi32>) -> tensor<8x128xf32>
    %5 = stablehlo.dynamic_slice %arg1, %c_11, %c_11, sizes = [8, 128] : (tensor<64x128xf32>, tensor<i32>, tensor<i32>) -> tensor<8x128xf32>
    %6 = stablehlo.add %4, %5 : tensor<8x128xf32>
    %7 = stablehlo.reduce(%6 init: %cst_12) applies stablehlo.add across dimensions = [1] : (tensor<8x128xf32>, tensor<f32>) -> tensor<8xf32>
    %8 = stablehlo.broadcast_in_dim %7, dims = [0] : (tensor<8xf32>) -> tensor<8x1xf32>
    %9 = stablehlo.broadcast_in_dim %cst_10, dims = [] : (tensor<f32>) -> tensor<8x1xf32>
    %10 = stablehlo.divide %8, %9 : tensor<8x1xf32>
    %11 = stablehlo.broadcast_in_dim %10, dims = [0, 1] : (tensor<8x1xf32>) -> tensor<8x128xf32>
    %12 = stablehlo.subtract %6, %11 : tensor<8x128xf32>
    %13 = stablehlo.multiply %12, %12 : tensor<8x128xf32>
    %14 = stablehlo.reduce(%13 init: %cst_12) applies stablehlo.add across dimensions = [1] : (tensor<8x128xf32>, tensor<f32>) -> tensor<8xf32>
    %15 = stablehlo.broadcast_in_dim %14, dims = [0] : (tensor<8xf32>) -> tensor<8x1xf32>
    %16 = stablehlo.broadcast_in_dim %cst_10, dims = [] : (tensor<f32>) -> tensor<8x1xf32>
    %17 = stablehlo.divide %15, %16 : tensor<8x1xf32>
    %18 = stablehlo.broadcast_in_dim %cst_9, dims = [] : (tensor<f32>) -> tensor<8x1xf32>
    %19 = stablehlo.add %17, %18 : tensor<8x1xf32>
    %20 = stablehlo.rsqrt %19 : tensor<8x1xf32>
    %21 = stablehlo.broadcast_in_dim %20, dims = [0, 1] : (tensor<8x1xf32>) -> tensor<8x128xf32>
    %22 = stablehlo.multiply %12, %21 : tensor<8x128xf32>
    %23 = stablehlo.broadcast_in_dim %arg2, dims = [1] : (tensor<128xf32>) -> tensor<1x128xf32>
    %24 = stablehlo.broadcast_in_dim %23, dims = [0, 1] : (tensor<1x128xf32>) -> tensor<8x128xf32>
    %25 = stablehlo.multiply %22, %24 : tensor<8x128xf32>
    %26 = stablehlo.dot_general %25, %arg3, contracting_dims = [1] x [0] : (tensor<8x128xf32>, tensor<128x384xf32>) -> tensor<8x384xf32>
    %27 = stablehlo.slice %26 [0:8, 0:128] : (tensor<8x384xf32>) -> tensor<8x128xf32>
    %28 = stablehlo.slice %26 [0:8, 128:256] : (tensor<8x384xf32>) -> tensor<8x128xf32>
    %29 = stablehlo.slice %26 [0:8, 256:384] : (tensor<8x384xf32>) -> tensor<8x128xf32>
    %30 = stablehlo.reshape %28 : (tensor<8x128xf32>) -> tensor<8x4x32xf32>
    %31 = stablehlo.reshape %29 : (tensor<8x128xf32>) -> tensor<8x4x32xf32>
    %32 = stablehlo.broadcast_in_dim %30, dims = [1, 2, 3] : (tensor<8x4x32xf32>) -> tensor<1x8x4x32xf32>
    %33 = stablehlo.broadcast_in_dim %31, dims = [1, 2, 3] : (tensor<8x4x32xf32>) -> tensor<1x8x4x32xf32>
    %34 = stablehlo.concatenate %32, %33, dim = 0 : (tensor<1x8x4x32xf32>, tensor<1x8x4x32xf32>) -> tensor<2x8x4x32xf32>
    %35 = stablehlo.broadcast_in_dim %34, dims = [1, 2, 3, 4] : (tensor<2x8x4x32xf32>) -> tensor<1x2x8x4x32xf32>
    %36 = stablehlo.dynamic_update_slice %0, %35, %c_11, %c_11, %c_11, %c_11, %c_11 : (tensor<2x2x64x4x32xf32>, tensor<1x2x8x4x32xf32>, tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<2x2x64x4x32xf32>
    %37 = stablehlo.reshape %27 : (tensor<8x128xf32>) -> tensor<8x4x32xf32>
    %38 = stablehlo.slice %36 [0:1, 0:1, 0:64, 0:4, 0:32] : (tensor<2x2x64x4x32xf32>) -> tensor<1x1x64x4x32xf32>
    %39 = stablehlo.reshape %38 : (tensor<1x1x64x4x32xf32>) -> tensor<64x4x32xf32>
    %40 = stablehlo.dot_general %37, %39, batching_dims = [1] x [1], contracting_dims = [2] x [2] : (tensor<8x4x32xf32>, tensor<64x4x32xf32>) -> tensor<4x8x64xf32>
    %41 = stablehlo.broadcast_in_dim %cst_8, dims = [] : (tensor<f32>) -> tensor<4x8x64xf32>
    %42 = stablehlo.multiply %40, %41 : tensor<4x8x64xf32>
    %43 = stablehlo.iota dim = 0 : tensor<64xi32>
    %44 = stablehlo.broadcast_in_dim %43, dims = [2] : (tensor<64xi32>) -> tensor<1x1x64xi32>
    %45 = stablehlo.broadcast_in_dim %3, dims = [1] : (tensor<8xi32>) -> tensor<1x8x1xi32>
    %46 = stablehlo.broadcast_in_dim %44, dims = [0, 1, 2] : (tensor<1x1x64xi32>) -> tensor<1x8x64xi32>
    %47 = stablehlo.broadcast_in_dim %45, dims = [0, 1, 2] : (tensor<1x8x1xi32>) -> tensor<1x8x64xi32>
    %48 = stablehlo.compare LE, %46, %47, SIGNED : (tensor<1x8x64xi32>, tensor<1x8x64xi32>) -> tensor<1x8x64xi1>
    %49 = call @_where_0(%48, %42, %cst_7) : (tensor<1x8x64xi1>, tensor<4x8x64xf32>, tensor<f32>) -> tensor<4x8x64xf32>
    %50 = stablehlo.reduce(%49 init: %cst_6) applies stablehlo.maximum across dimensions = [2] : (tensor<4x8x64xf32>, tensor<f32>) -> tensor<4x8xf32>
    %51 = stablehlo.broadcast_in_dim %cst_6, dims = [] : (tensor<f32>) -> tensor<4x8xf32>
    %52 = stablehlo.maximum %51, %50 : tensor<4x8xf32>
    %53 = stablehlo.broadcast_in_dim %52, dims = [0, 1] : (tensor<4x8xf32>) -> tensor<4x8x1xf32>
    %54 = stablehlo.broadcast_in_dim %53, dims = [0, 1, 2] : (tensor<4x8x1xf32>) -> tensor<4x8x64xf32>
    %55 = stablehlo.subtract %49, %54 : tensor<4x8x64xf32>
    %56 = stablehlo.exponential %55 : tensor<4x8x64xf32>
    %57 = stablehlo.reduce(%56 init: %cst_12) applies stablehlo.add across dimensions = [2] : (tensor<4x8x64xf32>, tensor<f32>) -> tensor<4x8xf32>
    %58 = stablehlo.broadcast_in_dim %57, dims = [0, 1] : (tensor<4x8xf32>) -> tensor<4x8x1xf32>
    %59 = stablehlo.broadcast_in_dim %58, dims = [0, 1, 2] : (tensor<4x8x1xf32>) -> tensor<4x8x64xf32>
    %60 = stablehlo.divide %56, %59 : tensor<4x8x64xf32>
    %61 = stablehlo.slice %36 [0:1, 1:2, 0:64, 0:4, 0:32] : (tensor<2x2x64x4x32xf32>) -> tensor<1x1x64x4x32xf32>
    %62 = stablehlo.reshape %61 : (tensor<1x1x64x4x32xf32>) -> tensor<64x4x32xf32>
    %63 = stablehlo.dot_general %62, %60, batching_dims = [1] x [0], contracting_dims = [0] x [2] : (tensor<64x4x32xf32>, tensor<4x8x64xf32>) -> tensor<4x32x8xf32>
    %64 = stablehlo.transpose %63, dims = [2, 0, 1] : (tensor<4x32x8xf32>) -> tensor<8x4x32xf32>
    %65 = stablehlo.reshape %64 : (tensor<8x4x32xf32>) -> tensor<8x128xf32>
    %66 = stablehlo.dot_general %65, %arg4, contracting_dims = [1] x [0] : (tensor<8x128xf32>, tensor<128x128xf32>) -> tensor<8x128xf32>
    %67 = stablehlo.add %6, %66 : tensor<8x128xf32>
    %68 = stablehlo.reduce(%67 init: %cst_12) applies stablehlo.add across dimensions = [1] : (tensor<8x128xf32>, tensor<f32>) -> tensor<8xf32>
    %69 = stablehlo.broadcast_in_dim %68, dims = [0] : (tensor<8xf32>) -> tensor<8x1xf32>
    %70 = stablehlo.broadcast_in_dim %cst_10, dims = [] : (tensor<f32>) -> tensor<8x1xf32>
    %71 = stablehlo.divide %69, %70 : tensor<8x1xf32>
    %72 = stablehlo.broadcast_in_dim %71, dims = [0, 1] : (tensor<8x1xf32>) -> tensor<8x128xf32>
    %73 = stablehlo.subtract %67, %72 : tensor<8x128xf32>
    %74 = stablehlo.multiply %73, %73 : tensor<8x128xf32>
    %75 = stablehlo.reduce(%74 init: %cst_12) applies stablehlo.add across dimensions = [1] : (tensor<8x128xf32>, tensor<f32>) -> tensor<8xf32>
    %76 = stablehlo.broadcast_in_dim %75, dims = [0] : (tensor<8xf32>) -> tensor<8x1xf32>
    %77 = stablehlo.broadcast_in_dim %cst_10, dims = [] : (tensor<f32>) -> tensor<8x1xf32>
    %78 = stablehlo.divide %76, %77 : tensor<8x1xf32>
    %79 = stablehlo.broadcast_in_dim %cst_9, dims = [] : (tensor<f32>) -> tensor<8x1xf32>
    %80 = stablehlo.add %78, %79 : tensor<8x1xf32>
    %81 = stablehlo.rsqrt %80 : tensor<8x1xf32>
    %82 = stablehlo.broadcast_in_dim %81, dims = [0, 1] : (tensor<8x1xf32>) -> tensor<8x128xf32>
    %83 = stablehlo.multiply %73, %82 : tensor<8x128xf32>
    %84 = stablehlo.broadcast_in_dim %arg5, dims = [1] : (tensor<128xf32>) -> tensor<1x128xf32>
    %85 = stablehlo.broadcast_in_dim %84, dims = [0, 1] : (tensor<1x128xf32>) -> tensor<8x128xf32>
    %86 = stablehlo.multiply %83, %85 : tensor<8x128xf32>
    %87 = stablehlo.dot_general %86, %arg6, contracting_dims = [1] x [0] : (tensor<8x128xf32>, tensor<128x512xf32>) -> tensor<8x512xf32>
    %88 = stablehlo.multiply %87, %87 : tensor<8x512xf32>
    %89 = stablehlo.multiply %88, %87 : tensor<8x512xf32>
    %90 = stablehlo.broadcast_in_dim %cst_5, dims = [] : (tensor<f32>) -> tensor<8x512xf32>
    %91 = stablehlo.multiply %90, %89 : tensor<8x512xf32>
    %92 = stablehlo.add %87, %91 : tensor<8x512xf32>
    %93 = stablehlo.broadcast_in_dim %cst_4, dims = [] : (tensor<f32>) -> tensor<8x512xf32>
    %94 = stablehlo.multiply %93, %92 : tensor<8x512xf32>
    %95 = stablehlo.tanh %94 : tensor<8x512xf32>
    %96 = stablehlo.broadcast_in_dim %cst_3, dims = [] : (tensor<f32>) -> tensor<8x512xf32>
    %97 = stablehlo.add %96, %95 : tensor<8x512xf32>
    %98 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<8x512xf32>
    %99 = stablehlo.multiply %98, %97 : tensor<8x512xf32>
    %100 = stablehlo.multiply %87, %99 : tensor<8x512xf32>
    %101 = stablehlo.dot_general %100, %arg7, contracting_dims = [1] x [0] : (tensor<8x512xf32>, tensor<512x128xf32>) -> tensor<8x128xf32>
    %102 = stablehlo.add %67, %101 : tensor<8x128xf32>
    %103 = stablehlo.reduce(%102 init: %cst_12) applies stablehlo.add across dimensions = [1] : (tensor<8x128xf32>, tensor<f32>) -> tensor<8xf32>
    %104 = stablehlo.broadcast_in_dim %103, dims = [0] : (tensor<8xf32>) -> tensor<8x1xf32>
    %105 = stablehlo.broadcast_in_dim %cst_10, dims = [] : (tensor<f32>) -> tensor<8x1xf32>
    %106 = stablehlo.divide %104, %105 : tensor<8x1xf32>
    %107 = stablehlo.broadcast_in_dim %106, dims = [0, 1] : (tensor<8x1xf32>) -> tensor<8x128xf32>
    %108 = stablehlo.subtract %102, %107 : tensor<8x128xf32>
    %109 = stablehlo.multiply %108, %108 : tensor<8x128xf32>
    %110 = stablehlo.reduce(%109 init: %cst_12) applies stablehlo.add across dimensions = [1] : (tensor<8x128xf32>, tensor<f32>) -> tensor<8xf32>
    %111 = stablehlo.broadcast_in_dim %110, dims = [0] : (tensor<8xf32>) -> tensor<8x1xf32>
    %112 = stablehlo.broadcast_in_dim %cst_10, dims = [] : (tensor<f32>) -> tensor<8x1xf32>
    %113 = stablehlo.divide %111, %112 : tensor<8x1xf32>
    %114 = stablehlo.broadcast_in_dim %cst_9, dims = [] : (tensor<f32>) -> tensor<8x1xf32>
    %115 = stablehlo.add %113, %114 : tensor<8x1xf32>
    %116 = stablehlo.rsqrt %115 : tensor<8x1xf32>
    %117 = stablehlo.broadcast_in_dim %116, dims = [0, 1] : (tensor<8x1xf32>) -> tensor<8x128xf32>
    %118 = stablehlo.multiply %108, %117 : tensor<8x128xf32>
    %119 = stablehlo.broadcast_in_dim %arg8, dims = [1] : (tensor<128xf32>) -> tensor<1x128xf32>
    %120 = stablehlo.broadcast_in_dim %119, dims = [0, 1] : (tensor<1x128xf32>) -> tensor<8x128xf32>
    %121 = stablehlo.multiply %118, %120 : tensor<8x128xf32>
    %122 = stablehlo.dot_general %121, %arg9, contracting_dims = [1] x [0] : (tensor<8x128xf32>, tensor<128x384xf32>) -> tensor<8x384xf32>
    %123 = stablehlo.slice %122 [0:8, 0:128] : (tensor<8x384xf32>) -> tensor<8x128xf32>
    %124 = stablehlo.slice %122 [0:8, 128:256] : (tensor<8x384xf32>) -> tensor<8x128xf32>
    %125 = stablehlo.slice %122 [0:8, 256:384] : (tensor<8x384xf32>) -> tensor<8x128xf32>
    %126 = stablehlo.reshape %124 : (tensor<8x128xf32>) -> tensor<8x4x32xf32>
    %127 = stablehlo.reshape %125 : (tensor<8x128xf32>) -> tensor<8x4x32xf32>
    %128 = stablehlo.broadcast_in_dim %126, dims = [1, 2, 3] : (tensor<8x4x32xf32>) -> tensor<1x8x4x32xf32>
    %129 = stablehlo.broadcast_in_dim %127, dims = [1, 2, 3] : (tensor<8x4x32xf32>) -> tensor<1x8x4x32xf32>
    %130 = stablehlo.concatenate %128, %129, dim = 0 : (tensor<1x8x4x32xf32>, tensor<1x8x4x32xf32>) -> tensor<2x8x4x32xf32>
    %131 = stablehlo.broadcast_in_dim %130, dims = [1, 2, 3, 4] : (tensor<2x8x4x32xf32>) -> tensor<1x2x8x4x32xf32>
    %132 = stablehlo.dynamic_update_slice %36, %131, %c_2, %c_11, %c_11, %c_11, %c_11 : (tensor<2x2x64x4x32xf32>, tensor<1x2x8x4x32xf32>, tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<2x2x64x4x32xf32>
    %133 = stablehlo.reshape %123 : (tensor<8x128xf32>) -> tensor<8x4x32xf32>
    %134 = stablehlo.slice %132 [1:2, 0:1, 0:64, 0:4, 0:32] : (tensor<2x2x64x4x32xf32>) -> tensor<1x1x64x4x32xf32>
    %135 = stablehlo.reshape %134 : (tensor<1x1x64x4x32xf32>) -> tensor<64x4x32xf32>
    %136 = stablehlo.dot_general %133, %135, batching_dims = [1] x [1], contracting_dims = [2] x [2] : (tensor<8x4x32xf32>, tensor<64x4x32xf32>) -> tensor<4x8x64xf32>
    %137 = stablehlo.broadcast_in_dim %cst_8, dims = [] : (tensor<f32>) -> tensor<4x8x64xf32>
    %138 = stablehlo.multiply %136, %137 : tensor<4x8x64xf32>
    %139 = stablehlo.iota dim = 0 : tensor<64xi32>
    %140 = stablehlo.broadcast_in_dim %139, dims = [2] : (tensor<64xi32>) -> tensor<1x1x64xi32>
    %141 = stablehlo.broadcast_in_dim %3, dims = [1] : (tensor<8xi32>) -> tensor<1x8x1xi32>
    %142 = stablehlo.broadcast_in_dim %140, dims = [0, 1, 2] : (tensor<1x1x64xi32>) -> tensor<1x8x64xi32>
    %143 = stablehlo.broadcast_in_dim %141, dims = [0, 1, 2] : (tensor<1x8x1xi32>) -> tensor<1x8x64xi32>
    %144 = stablehlo.compare LE, %142, %143, SIGNED : (tensor<1x8x64xi32>, tensor<1x8x64xi32>) -> tensor<1x8x64xi1>
    %145 = call @_where_0(%144, %138, %cst_7) : (tensor<1x8x64xi1>, tensor<4x8x64xf32>, tensor<f32>) -> tensor<4x8x64xf32>
    %146 = stablehlo.reduce(%145 init: %cst_6) applies stablehlo.maximum across dimensions = [2] : (tensor<4x8x64xf32>, tensor<f32>) -> tensor<4x8xf32>
    %147 = stablehlo.broadcast_in_dim %cst_6, dims = [] : (tensor<f32>) -> tensor<4x8xf32>
    %148 = stablehlo.maximum %147, %146 : tensor<4x8xf32>
    %149 = stablehlo.broadcast_in_dim %148, dims = [0, 1] : (tensor<4x8xf32>) -> tensor<4x8x1xf32>
    %150 = stablehlo.broadcast_in_dim %149, dims = [0, 1, 2] : (tensor<4x8x1xf32>) -> tensor<4x8x64xf32>
    %151 = stablehlo.subtract %145, %150 : tensor<4x8x64xf32>
    %152 = stablehlo.exponential %151 : tensor<4x8x64xf32>
    %153 = stablehlo.reduce(%152 init: %cst_12) applies stablehlo.add across dimensions = [2] : (tensor<4x8x64xf32>, tensor<f32>) -> tensor<4x8xf32>
    %154 = stablehlo.broadcast_in_dim %153, dims = [0, 1] : (tensor<4x8xf32>) -> tensor<4x8x1xf32>
    %155 = stablehlo.broadcast_in_dim %154, dims = [0, 1, 2] : (tensor<4x8x1xf32>) -> tensor<4x8x64xf32>
    %156 = stablehlo.divide %152, %155 : tensor<4x8x64xf32>
    %157 = stablehlo.slice %132 [1:2, 1:2, 0:64, 0:4, 0:32] : (tensor<2x2x64x4x32xf32>) -> tensor<1x1x64x4x32xf32>
    %158 = stablehlo.reshape %157 : (tensor<1x1x64x4x32xf32>) -> tensor<64x4x32xf32>
    %159 = stablehlo.dot_general %158, %156, batching_dims = [1] x [0], contracting_dims = [0] x [2] : (tensor<64x4x32xf32>, tensor<4x8x64xf32>) -> tensor<4x32x8xf32>
    %160 = stablehlo.transpose %159, dims = [2, 0, 1] : (tensor<4x32x8xf32>) -> tensor<8x4x32xf32>
    %161 = stablehlo.reshape %160 : (tensor<8x4x32xf32>) -> tensor<8x128xf32>
    %162 = stablehlo.dot_general %161, %arg10, contracting_dims = [1] x [0] : (tensor<8x128xf32>, tensor<128x128xf32>) -> tensor<8x128xf32>
    %163 = stablehlo.add %102, %162 : tensor<8x128xf32>
    %164 = stablehlo.reduce(%163 init: %cst_12) applies stablehlo.add across dimensions = [1] : (tensor<8x128xf32>, tensor<f32>) -> tensor<8xf32>
    %165 = stablehlo.broadcast_in_dim %164, dims = [0] : (tensor<8xf32>) -> tensor<8x1xf32>
    %166 = stablehlo.broadcast_in_dim %cst_10, dims = [] : (tensor<f32>) -> tensor<8x1xf32>
    %167 = stablehlo.divide %165, %166 : tensor<8x1xf32>
    %168 = stablehlo.broadcast_in_dim %167, dims = [0, 1] : (tensor<8x1xf32>) -> tensor<8x128xf32>
    %169 = stablehlo.subtract %163, %168 : tensor<8x128xf32>
    %170 = stablehlo.multiply %169, %169 : tensor<8x128xf32>
    %171 = stablehlo.reduce(%170 init: %cst_12) applies stablehlo.add across dimensions = [1] : (tensor<8x128xf32>, tensor<f32>) -> tensor<8xf32>
    %172 = stablehlo.broadcast_in_dim %171, dims = [0] : (tensor<8xf32>) -> tensor<8x1xf32>
    %173 = stablehlo.broadcast_in_dim %cst_10, dims = [] : (tensor<f32>) -> tensor<8x1xf32>
    %174 = stablehlo.divide %172, %173 : tensor<8x1xf32>
    %175 = stablehlo.broadcast_in_dim %cst_9, dims = [] : (tensor<f32>) -> tensor<8x1xf32>
    %176 = stablehlo.add %174, %175 : tensor<8x1xf32>
    %177 = stablehlo.rsqrt %176 : tensor<8x1xf32>
    %178 = stablehlo.broadcast_in_dim %177, dims = [0, 1] : (tensor<8x1xf32>) -> tensor<8x128xf32>
    %179 = stablehlo.multiply %169, %178 : tensor<8x128xf32>
    %180 = stablehlo.broadcast_in_dim %arg11, dims = [1] : (tensor<128xf32>) -> tensor<1x128xf32>
    %181 = stablehlo.broadcast_in_dim %180, dims = [0, 1] : (tensor<1x128xf32>) -> tensor<8x128xf32>
    %182 = stablehlo.multiply %179, %181 : tensor<8x128xf32>
    %183 = stablehlo.dot_general %182, %arg12, contracting_dims = [1] x [0] : (tensor<8x128xf32>, tensor<128x512xf32>) -> tensor<8x512xf32>
    %184 = stablehlo.multiply %183, %183 : tensor<8x512xf32>
    %185 = stablehlo.multiply %184, %183 : tensor<8x512xf32>
    %186 = stablehlo.broadcast_in_dim %cst_5, dims = [] : (tensor<f32>) -> tensor<8x512xf32>
    %187 = stablehlo.multiply %186, %185 : tensor<8x512xf32>
    %188 = stablehlo.add %183, %187 : tensor<8x512xf32>
    %189 = stablehlo.broadcast_in_dim %cst_4, dims = [] : (tensor<f32>) -> tensor<8x512xf32>
    %190 = stablehlo.multiply %189, %188 : tensor<8x512xf32>
    %191 = stablehlo.tanh %190 : tensor<8x512xf32>
    %192 = stablehlo.broadcast_in_dim %cst_3, dims = [] : (tensor<f32>) -> tensor<8x512xf32>
    %193 = stablehlo.add %192, %191 : tensor<8x512xf32>
    %194 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<8x512xf32>
    %195 = stablehlo.multiply %194, %193 : tensor<8x512xf32>
    %196 = stablehlo.multiply %183, %195 : tensor<8x512xf32>
    %197 = stablehlo.dot_general %196, %arg13, contracting_dims = [1] x [0] : (tensor<8x512xf32>, tensor<512x128xf32>) -> tensor<8x128xf32>
    %198 = stablehlo.add %163, %197 : tensor<8x128xf32>
    %199 = stablehlo.slice %198 [7:8, 0:128] : (tensor<8x128xf32>) -> tensor<1x128xf32>
    %200 = stablehlo.reshape %199 : (tensor<1x128xf32>) -> tensor<128xf32>
    %201 = stablehlo.reduce(%200 init: %cst_12) applies stablehlo.add across dimensions = [0] : (tensor<128xf32>, tensor<f32>) -> tensor<f32>
    %202 = stablehlo.broadcast_in_dim %201, dims = [] : (tensor<f32>) -> tensor<1xf32>
    %203 = stablehlo.broadcast_in_dim %cst_10, dims = [] : (tensor<f32>) -> tensor<1xf32>
    %204 = stablehlo.divide %202, %203 : tensor<1xf32>
    %205 = stablehlo.broadcast_in_dim %204, dims = [0] : (tensor<1xf32>) -> tensor<128xf32>
    %206 = stablehlo.subtract %200, %205 : tensor<128xf32>
    %207 = stablehlo.multiply %206, %206 : tensor<128xf32>
    %208 = stablehlo.reduce(%207 init: %cst_12) applies stablehlo.add across dimensions = [0] : (tensor<128xf32>, tensor<f32>) -> tensor<f32>
    %209 = stablehlo.broadcast_in_dim %208, dims = [] : (tensor<f32>) -> tensor<1xf32>
    %210 = stablehlo.broadcast_in_dim %cst_10, dims = [] : (tensor<f32>) -> tensor<1xf32>
    %211 = stablehlo.divide %209, %210 : tensor<1xf32>
    %212 = stablehlo.broadcast_in_dim %cst_9, dims = [] : (tensor<f32>) -> tensor<1xf32>
    %213 = stablehlo.add %211, %212 : tensor<1xf32>
    %214 = stablehlo.rsqrt %213 : tensor<1xf32>
    %215 = stablehlo.broadcast_in_dim %214, dims = [0] : (tensor<1xf32>) -> tensor<128xf32>
    %216 = stablehlo.multiply %206, %215 : tensor<128xf32>
    %217 = stablehlo.multiply %216, %arg14 : tensor<128xf32>
    %218 = stablehlo.transpose %arg0, dims = [1, 0] : (tensor<1000x128xf32>) -> tensor<128x1000xf32>
    %219 = stablehlo.dot_general %217, %218, contracting_dims = [0] x [0] : (tensor<128xf32>, tensor<128x1000xf32>) -> tensor<1000xf32>
    %220 = call @argmax(%219) : (tensor<1000xf32>) -> tensor<i32>
    %221 = stablehlo.broadcast_in_dim %c_11, dims = [] : (tensor<i32>) -> tensor<64xi32>
    %222 = stablehlo.dynamic_update_slice %221, %arg15, %c_11 : (tensor<64xi32>, tensor<8xi32>, tensor<i32>) -> tensor<64xi32>
    %223 = call @dynamic_update_index_in_dim(%222, %220, %c_1) : (tensor<64xi32>, tensor<i32>, tensor<i32>) -> tensor<64xi32>
    %224:20 = stablehlo.while(%iterArg = %arg16, %iterArg_13 = %arg0, %iterArg_14 = %arg1, %iterArg_15 = %arg2, %iterArg_16 = %arg3, %iterArg_17 = %arg4, %iterArg_18 = %arg5, %iterArg_19 = %arg6, %iterArg_20 = %arg7, %iterArg_21 = %arg8, %iterArg_22 = %arg9, %iterArg_23 = %arg10, %iterArg_24 = %arg11, %iterArg_25 = %arg12, %iterArg_26 = %arg13, %iterArg_27 = %arg14, %iterArg_28 = %c_0, %iterArg_29 = %220, %iterArg_30 = %132, %iterArg_31 = %223) : tensor<i32>, tensor<1000x128xf32>, tensor<64x128xf32>, tensor<128xf32>, tensor<128x384xf32>, tensor<128x128xf32>, tensor<128xf32>, tensor<128x512xf32>, tensor<512x128xf32>, tensor<128xf32>, tensor<128x384xf32>, tensor<128x128xf32>, tensor<128xf32>, tensor<128x512xf32>, tensor<512x128xf32>, tensor<128xf32>, tensor<i32>, tensor<i32>, tensor<2x2x64x4x32xf32>, tensor<64xi32>
    cond {
      %225 = stablehlo.compare NE, %iterArg_29, %iterArg, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
      %226 = stablehlo.compare LT, %iterArg_28, %c, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
      %227 = stablehlo.and %225, %226 : tensor<i1>
      stablehlo.return %227 : tensor<i1>
    } do {
      %225 = stablehlo.broadcast_in_dim %iterArg_29, dims = [] : (tensor<i32>) -> tensor<1xi32>
      %226 = stablehlo.subtract %iterArg_28, %c_2 : tensor<i32>
      %227 = stablehlo.iota dim = 0 : tensor<1xi32>
      %228 = stablehlo.broadcast_in_dim %226, dims = [] : (tensor<i32>) -> tensor<1xi32>
      %229 = stablehlo.add %228, %227 : tensor<1xi32>
      %230 = func.call @_take_1(%iterArg_13, %225) : (tensor<1000x128xf32>, tensor<1xi32>) -> tensor<1x128xf32>
      %231 = stablehlo.compare LT, %226, %c_11, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
      %232 = stablehlo.add %226, %c : tensor<i32>
      %233 = stablehlo.select %231, %232, %226 : tensor<i1>, tensor<i32>
      %234 = stablehlo.dynamic_slice %iterArg_14, %233, %c_11, sizes = [1, 128] : (tensor<64x128xf32>, tensor<i32>, tensor<i32>) -> tensor<1x128xf32>
      %235 = stablehlo.add %230, %234 : tensor<1x128xf32>
      %236 = stablehlo.reduce(%235 init: %cst_12) applies stablehlo.add across dimensions = [1] : (tensor<1x128xf32>, tensor<f32>) -> tensor<1xf32>
      %237 = stablehlo.broadcast_in_dim %236, dims = [0] : (tensor<1xf32>) -> tensor<1x1xf32>
      %238 = stablehlo.broadcast_in_dim %cst_10, dims = [] : (tensor<f32>) -> tensor<1x1xf32>
      %239 = stablehlo.divide %237, %238 : tensor<1x1xf32>
      %240 = stablehlo.broadcast_in_dim %239, dims = [0, 1] : (tensor<1x1xf32>) -> tensor<1x128xf32>
      %241 = stablehlo.subtract %235, %240 : tensor<1x128xf32>
      %242 = stablehlo.multiply %241, %241 : tensor<1x128xf32>
      %243 = stablehlo.reduce(%242 init: %cst_12) applies stablehlo.add across dimensions = [1] : (tensor<1x128xf32>, tensor<f32>) -> tensor<1xf32>
      %244 = stablehlo.broadcast_in_dim %243, dims = [0] : (tensor<1xf32>) -> tensor<1x1xf32>
      %245 = stablehlo.broadcast_in_dim %cst_10, dims = [] : (tensor<f32>) -> tensor<1x1xf32>
      %246 = stablehlo.divide %244, %245 : tensor<1x1xf32>
      %247 = stablehlo.broadcast_in_dim %cst_9, dims = [] : (tensor<f32>) -> tensor<1x1xf32>
      %248 = stablehlo.add %246, %247 : tensor<1x1xf32>
      %249 = stablehlo.rsqrt %248 : tensor<1x1xf32>
      %250 = stablehlo.broadcast_in_dim %249, dims = [0, 1] : (tensor<1x1xf32>) -> tensor<1x128xf32>
      %251 = stablehlo.multiply %241, %250 : tensor<1x128xf32>
      %252 = stablehlo.broadcast_in_dim %iterArg_15, dims = [1] : (tensor<128xf32>) -> tensor<1x128xf32>
      %253 = stablehlo.multiply %251, %252 : tensor<1x128xf32>
      %254 = stablehlo.dot_general %253, %iterArg_16, contracting_dims = [1] x [0] : (tensor<1x128xf32>, tensor<128x384xf32>) -> tensor<1x384xf32>
      %255 = stablehlo.slice %254 [0:1, 0:128] : (tensor<1x384xf32>) -> tensor<1x128xf32>
      %256 = stablehlo.slice %254 [0:1, 128:256] : (tensor<1x384xf32>) -> tensor<1x128xf32>
      %257 = stablehlo.slice %254 [0:1, 256:384] : (tensor<1x384xf32>) -> tensor<1x128xf32>
      %258 = stablehlo.reshape %256 : (tensor<1x128xf32>) -> tensor<1x4x32xf32>
      %259 = stablehlo.reshape %257 : (tensor<1x128xf32>) -> tensor<1x4x32xf32>
      %260 = stablehlo.broadcast_in_dim %258, dims = [1, 2, 3] : (tensor<1x4x32xf32>) -> tensor<1x1x4x32xf32>
      %261 = stablehlo.broadcast_in_dim %259, dims = [1, 2, 3] : (tensor<1x4x32xf32>) -> tensor<1x1x4x32xf32>
      %262 = stablehlo.concatenate %260, %261, dim = 0 : (tensor<1x1x4x32xf32>, tensor<1x1x4x32xf32>) -> tensor<2x1x4x32xf32>
      %263 = stablehlo.broadcast_in_dim %262, dims = [1, 2, 3, 4] : (tensor<2x1x4x32xf32>) -> tensor<1x2x1x4x32xf32>
      %264 = stablehlo.compare LT, %226, %c_11, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
      %265 = stablehlo.add %226, %c : tensor<i32>
      %266 = stablehlo.select %264, %265, %226 : tensor<i1>, tensor<i32>
      %267 = stablehlo.dynamic_update_slice %iterArg_30, %263, %c_11, %c_11, %266, %c_11, %c_11 : (tensor<2x2x64x4x32xf32>, tensor<1x2x1x4x32xf32>, tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<2x2x64x4x32xf32>
      %268 = stablehlo.reshape %255 : (tensor<1x128xf32>) -> tensor<1x4x32xf32>
      %269 = stablehlo.slice %267 [0:1, 0:1, 0:64, 0:4, 0:32] : (tensor<2x2x64x4x32xf32>) -> tensor<1x1x64x4x32xf32>
      %270 = stablehlo.reshape %269 : (tensor<1x1x64x4x32xf32>) -> tensor<64x4x32xf32>
      %271 = stablehlo.dot_general %268, %270, batching_dims = [1] x [1], contracting_dims = [2] x [2] : (tensor<1x4x32xf32>, tensor<64x4x32xf32>) -> tensor<4x1x64xf32>
      %272 = stablehlo.broadcast_in_dim %cst_8, dims = [] : (tensor<f32>) -> tensor<4x1x64xf32>
      %273 = stablehlo.multiply %271, %272 : tensor<4x1x64xf32>
      %274 = stablehlo.iota dim = 0 : tensor<64xi32>
      %275 = stablehlo.broadcast_in_dim %274, dims = [2] : (tensor<64xi32>) -> tensor<1x1x64xi32>
      %276 = stablehlo.broadcast_in_dim %229, dims = [1] : (tensor<1xi32>) -> tensor<1x1x1xi32>
      %277 = stablehlo.broadcast_in_dim %276, dims = [0, 1, 2] : (tensor<1x1x1xi32>) -> tensor<1x1x64xi32>
      %278 = stablehlo.compare LE, %275, %277, SIGNED : (tensor<1x1x64xi32>, tensor<1x1x64xi32>) -> tensor<1x1x64xi1>
      %279 = func.call @_where_3(%278, %273, %cst_7) : (tensor<1x1x64xi1>, tensor<4x1x64xf32>, tensor<f32>) -> tensor<4x1x64xf32>
      %280 = stablehlo.reduce(%279 init: %cst_6) applies stablehlo.maximum across dimensions = [2] : (tensor<4x1x64xf32>, tensor<f32>) -> tensor<4x1xf32>
      %281 = stablehlo.broadcast_in_dim %cst_6, dims = [] : (tensor<f32>) -> tensor<4x1xf32>
      %282 = stablehlo.maximum %281, %280 : tensor<4x1xf32>
      %283 = stablehlo.broadcast_in_dim %282, dims = [0, 1] : (tensor<4x1xf32>) -> tensor<4x1x1xf32>
      %284 = stablehlo.broadcast_in_dim %283, dims = [0, 1, 2] : (tensor<4x1x1xf32>) -> tensor<4x1x64xf32>
      %285 = stablehlo.subtract %279, %284 : tensor<4x1x64xf32>
      %286 = stablehlo.exponential %285 : tensor<4x1x64xf32>
      %287 = stablehlo.reduce(%286 init: %cst_12) applies stablehlo.add across dimensions = [2] : (tensor<4x1x64xf32>, tensor<f32>) -> tensor<4x1xf32>
      %288 = stablehlo.broadcast_in_dim %287, dims = [0, 1] : (tensor<4x1xf32>) -> tensor<4x1x1xf32>
      %289 = stablehlo.broadcast_in_dim %288, dims = [0, 1, 2] : (tensor<4x1x1xf32>) -> tensor<4x1x64xf32>
      %290 = stablehlo.divide %286, %289 : tensor<4x1x64xf32>
      %291 = stablehlo.slice %267 [0:1, 1:2, 0:64, 0:4, 0:32] : (tensor<2x2x64x4x32xf32>) -> tensor<1x1x64x4x32xf32>
      %292 = stablehlo.reshape %291 : (tensor<1x1x64x4x32xf32>) -> tensor<64x4x32xf32>
      %293 = stablehlo.dot_general %292, %290, batching_dims = [1] x [0], contracting_dims = [0] x [2] : (tensor<64x4x32xf32>, tensor<4x1x64xf32>) -> tensor<4x32x1xf32>
      %294 = stablehlo.transpose %293, dims = [2, 0, 1] : (tensor<4x32x1xf32>) -> tensor<1x4x32xf32>
      %295 = stablehlo.reshape %294 : (tensor<1x4x32xf32>) -> tensor<1x128xf32>
      %296 = stablehlo.dot_general %295, %iterArg_17, contracting_dims = [1] x [0] : (tensor<1x128xf32>, tensor<128x128xf32>) -> tensor<1x128xf32>
      %297 = stablehlo.add %235, %296 : tensor<1x128xf32>
      %298 = stablehlo.reduce(%297 init: %cst_12) applies stablehlo.add across dimensions = [1] : (tensor<1x128xf32>, tensor<f32>) -> tensor<1xf32>
      %299 = stablehlo.broadcast_in_dim %298, dims = [0] : (tensor<1xf32>) -> tensor<1x1xf32>
      %300 = stablehlo.broadcast_in_dim %cst_10, dims = [] : (tensor<f32>) -> tensor<1x1xf32>
      %301 = stablehlo.divide %299, %300 : tensor<1x1xf32>
      %302 = stablehlo.broadcast_in_dim %301, dims = [0, 1] : (tensor<1x1xf32>) -> tensor<1x128xf32>
      %303 = stablehlo.subtract %297, %302 : tensor<1x128xf32>
      %304 = stablehlo.multiply %303, %303 : tensor<1x128xf32>
      %305 = stablehlo.reduce(%304 init: %cst_12) applies stablehlo.add across dimensions = [1] : (tensor<1x128xf32>, tensor<f32>) -> tensor<1xf32>
      %306 = stablehlo.broadcast_in_dim %305, dims = [0] : (tensor<1xf32>) -> tensor<1x1xf32>
      %307 = stablehlo.broadcast_in_dim %cst_10, dims = [] : (tensor<f32>) -> tensor<1x1xf32>
      %308 = stablehlo.divide %306, %307 : tensor<1x1xf32>
      %309 = stablehlo.broadcast_in_dim %cst_9, dims = [] : (tensor<f32>) -> tensor<1x1xf32>
      %310 = stablehlo.add %308, %309 : tensor<1x1xf32>
      %311 = stablehlo.rsqrt %310 : tensor<1x1xf32>
      %312 = stablehlo.broadcast_in_dim %311, dims = [0, 1] : (tensor<1x1xf32>) -> tensor<1x128xf32>
      %313 = stablehlo.multiply %303, %312 : tensor<1x128xf32>
      %314 = stablehlo.broadcast_in_dim %iterArg_18, dims = [1] : (tensor<128xf32>) -> tensor<1x128xf32>
      %315 = stablehlo.multiply %313, %314 : tensor<1x128xf32>
      %316 = stablehlo.dot_general %315, %iterArg_19, contracting_dims = [1] x [0] : (tensor<1x128xf32>, tensor<128x512xf32>) -> tensor<1x512xf32>
      %317 = stablehlo.multiply %316, %316 : tensor<1x512xf32>
      %318 = stablehlo.multiply %317, %316 : tensor<1x512xf32>
      %319 = stablehlo.broadcast_in_dim %cst_5, dims = [] : (tensor<f32>) -> tensor<1x512xf32>
      %320 = stablehlo.multiply %319, %318 : tensor<1x512xf32>
      %321 = stablehlo.add %316, %320 : tensor<1x512xf32>
      %322 = stablehlo.broadcast_in_dim %cst_4, dims = [] : (tensor<f32>) -> tensor<1x512xf32>
      %323 = stablehlo.multiply %322, %321 : tensor<1x512xf32>
      %324 = stablehlo.tanh %323 : tensor<1x512xf32>
      %325 = stablehlo.broadcast_in_dim %cst_3, dims = [] : (tensor<f32>) -> tensor<1x512xf32>
      %326 = stablehlo.add %325, %324 : tensor<1x512xf32>
      %327 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<1x512xf32>
      %328 = stablehlo.multiply %327, %326 : tensor<1x512xf32>
      %329 = stablehlo.multiply %316, %328 : tensor<1x512xf32>
      %330 = stablehlo.dot_general %329, %iterArg_20, contracting_dims = [1] x [0] : (tensor<1x512xf32>, tensor<512x128xf32>) -> tensor<1x128xf32>
      %331 = stablehlo.add %297, %330 : tensor<1x128xf32>
      %332 = stablehlo.reduce(%331 init: %cst_12) applies stablehlo.add across dimensions = [1] : (tensor<1x128xf32>, tensor<f32>) -> tensor<1xf32>
      %333 = stablehlo.broadcast_in_dim %332, dims = [0] : (tensor<1xf32>) -> tensor<1x1xf32>
      %334 = stablehlo.broadcast_in_dim %cst_10, dims = [] : (tensor<f32>) -> tensor<1x1xf32>
      %335 = stablehlo.divide %333, %334 : tensor<1x1xf32>
      %336 = stablehlo.broadcast_in_dim %335, dims = [0, 1] : (tensor<1x1xf32>) -> tensor<1x128xf32>
      %337 = stablehlo.subtract %331, %336 : tensor<1x128xf32>
      %338 = stablehlo.multiply %337, %337 : tensor<1x128xf32>
      %339 = stablehlo.reduce(%338 init: %cst_12) applies stablehlo.add across dimensions = [1] : (tensor<1x128xf32>, tensor<f32>) -> tensor<1xf32>
      %340 = stablehlo.broadcast_in_dim %339, dims = [0] : (tensor<1xf32>) -> tensor<1x1xf32>
      %341 = stablehlo.broadcast_in_dim %cst_10, dims = [] : (tensor<f32>) -> tensor<1x1xf32>
      %342 = stablehlo.divide %340, %341 : tensor<1x1xf32>
      %343 = stablehlo.broadcast_in_dim %cst_9, dims = [] : (tensor<f32>) -> tensor<1x1xf32>
      %344 = stablehlo.add %342, %343 : tensor<1x1xf32>
      %345 = stablehlo.rsqrt %344 : tensor<1x1xf32>
      %346 = stablehlo.broadcast_in_dim %345, dims = [0, 1] : (tensor<1x1xf32>) -> tensor<1x128xf32>
      %347 = stablehlo.multiply %337, %346 : tensor<1x128xf32>
      %348 = stablehlo.broadcast_in_dim %iterArg_21, dims = [1] : (tensor<128xf32>) -> tensor<1x128xf32>
      %349 = stablehlo.multiply %347, %348 : tensor<1x128xf32>
      %350 = stablehlo.dot_general %349, %iterArg_22, contracting_dims = [1] x [0] : (tensor<1x128xf32>, tensor<128x384xf32>) -> tensor<1x384xf32>
      %351 = stablehlo.slice %350 [0:1, 0:128] : (tensor<1x384xf32>) -> tensor<1x128xf32>
      %352 = stablehlo.slice %350 [0:1, 128:256] : (tensor<1x384xf32>) -> tensor<1x128xf32>
      %353 = stablehlo.slice %350 [0:1, 256:384] : (tensor<1x384xf32>) -> tensor<1x128xf32>
      %354 = stablehlo.reshape %352 : (tensor<1x128xf32>) -> tensor<1x4x32xf32>
      %355 = stablehlo.reshape %353 : (tensor<1x128xf32>) -> tensor<1x4x32xf32>
      %356 = stablehlo.broadcast_in_dim %354, dims = [1, 2, 3] : (tensor<1x4x32xf32>) -> tensor<1x1x4x32xf32>
      %357 = stablehlo.broadcast_in_dim %355, dims = [1, 2, 3] : (tensor<1x4x32xf32>) -> tensor<1x1x4x32xf32>
      %358 = stablehlo.concatenate %356, %357, dim = 0 : (tensor<1x1x4x32xf32>, tensor<1x1x4x32xf32>) -> tensor<2x1x4x32xf32>
      %359 = stablehlo.broadcast_in_dim %358, dims = [1, 2, 3, 4] : (tensor<2x1x4x32xf32>) -> tensor<1x2x1x4x32xf32>
      %360 = stablehlo.compare LT, %226, %c_11, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
      %361 = stablehlo.add %226, %c : tensor<i32>
      %362 = stablehlo.select %360, %361, %226 : tensor<i1>, tensor<i32>
      %363 = stablehlo.dynamic_update_slice %267, %359, %c_2, %c_11, %362, %c_11, %c_11 : (tensor<2x2x64x4x32xf32>, tensor<1x2x1x4x32xf32>, tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<2x2x64x4x32xf32>
      %364 = stablehlo.reshape %351 : (tensor<1x128xf32>) -> tensor<1x4x32xf32>
      %365 = stablehlo.slice %363 [1:2, 0:1, 0:64, 0:4, 0:32] : (tensor<2x2x64x4x32xf32>) -> tensor<1x1x64x4x32xf32>
      %366 = stablehlo.reshape %365 : (tensor<1x1x64x4x32xf32>) -> tensor<64x4x32xf32>
      %367 = stablehlo.dot_general %364, %366, batching_dims = [1] x [1], contracting_dims = [2] x [2] : (tensor<1x4x32xf32>, tensor<64x4x32xf32>) -> tensor<4x1x64xf32>
      %368 = stablehlo.broadcast_in_dim %cst_8, dims = [] : (tensor<f32>) -> tensor<4x1x64xf32>
      %369 = stablehlo.multiply %367, %368 : tensor<4x1x64xf32>
      %370 = stablehlo.iota dim = 0 : tensor<64xi32>
      %371 = stablehlo.broadcast_in_dim %370, dims = [2] : (tensor<64xi32>) -> tensor<1x1x64xi32>
      %372 = stablehlo.broadcast_in_dim %229, dims = [1] : (tensor<1xi32>) -> tensor<1x1x1xi32>
      %373 = stablehlo.broadcast_in_dim %372, dims = [0, 1, 2] : (tensor<1x1x1xi32>) -> tensor<1x1x64xi32>
      %374 = stablehlo.compare LE, %371, %373, SIGNED : (tensor<1x1x64xi32>, tensor<1x1x64xi32>) -> tensor<1x1x64xi1>
      %375 = func.call @_where_3(%374, %369, %cst_7) : (tensor<1x1x64xi1>, tensor<4x1x64xf32>, tensor<f32>) -> tensor<4x1x64xf32>
      %376 = stablehlo.reduce(%375 init: %cst_6) applies stablehlo.maximum across dimensions = [2] : (tensor<4x1x64xf32>, tensor<f32>) -> tensor<4x1xf32>
      %377 = stablehlo.broadcast_in_dim %cst_6, dims = [] : (tensor<f32>) -> tensor<4x1xf32>
      %378 = stablehlo.maximum %377, %376 : tensor<4x1xf32>
      %379 = stablehlo.broadcast_in_dim %378, dims = [0, 1] : (tensor<4x1xf32>) -> tensor<4x1x1xf32>
      %380 = stablehlo.broadcast_in_dim %379, dims = [0, 1, 2] : (tensor<4x1x1xf32>) -> tensor<4x1x64xf32>
      %381 = stablehlo.subtract %375, %380 : tensor<4x1x64xf32>
      %382 = stablehlo.exponential %381 : tensor<4x1x64xf32>
      %383 = stablehlo.reduce(%382 init: %cst_12) applies stablehlo.add across dimensions = [2] : (tensor<4x1x64xf32>, tensor<f32>) -> tensor<4x1xf32>
      %384 = stablehlo.broadcast_in_dim %383, dims = [0, 1] : (tensor<4x1xf32>) -> tensor<4x1x1xf32>
      %385 = stablehlo.broadcast_in_dim %384, dims = [0, 1, 2] : (tensor<4x1x1xf32>) -> tensor<4x1x64xf32>
      %386 = stablehlo.divide %382, %385 : tensor<4x1x64xf32>
      %387 = stablehlo.slice %363 [1:2, 1:2, 0:64, 0:4, 0:32] : (tensor<2x2x64x4x32xf32>) -> tensor<1x1x64x4x32xf32>
      %388 = stablehlo.reshape %387 : (tensor<1x1x64x4x32xf32>) -> tensor<64x4x32xf32>
      %389 = stablehlo.dot_general %388, %386, batching_dims = [1] x [0], contracting_dims = [0] x [2] : (tensor<64x4x32xf32>, tensor<4x1x64xf32>) -> tensor<4x32x1xf32>
      %390 = stablehlo.transpose %389, dims = [2, 0, 1] : (tensor<4x32x1xf32>) -> tensor<1x4x32xf32>
      %391 = stablehlo.reshape %390 : (tensor<1x4x32xf32>) -> tensor<1x128xf32>
      %392 = stablehlo.dot_general %391, %iterArg_23, contracting_dims = [1] x [0] : (tensor<1x128xf32>, tensor<128x128xf32>) -> tensor<1x128xf32>
      %393 = stablehlo.add %331, %392 : tensor<1x128xf32>
      %394 = stablehlo.reduce(%393 init: %cst_12) applies stablehlo.add across dimensions = [1] : (tensor<1x128xf32>, tensor<f32>) -> tensor<1xf32>
      %395 = stablehlo.broadcast_in_dim %394, dims = [0] : (tensor<1xf32>) -> tensor<1x1xf32>
      %396 = stablehlo.broadcast_in_dim %cst_10, dims = [] : (tensor<f32>) -> tensor<1x1xf32>
      %397 = stablehlo.divide %395, %396 : tensor<1x1xf32>
      %398 = stablehlo.broadcast_in_dim %397, dims = [0, 1] : (tensor<1x1xf32>) -> tensor<1x128xf32>
      %399 = stablehlo.subtract %393, %398 : tensor<1x128xf32>
      %400 = stablehlo.multiply %399, %399 : tensor<1x128xf32>
      %401 = stablehlo.reduce(%400 init: %cst_12) applies stablehlo.add across dimensions = [1] : (tensor<1x128xf32>, tensor<f32>) -> tensor<1xf32>
      %402 = stablehlo.broadcast_in_dim %401, dims = [0] : (tensor<1xf32>) -> tensor<1x1xf32>
      %403 = stablehlo.broadcast_in_dim %cst_10, dims = [] : (tensor<f32>) -> tensor<1x1xf32>
      %404 = stablehlo.divide %402, %403 : tensor<1x1xf32>
      %405 = stablehlo.broadcast_in_dim %cst_9, dims = [] : (tensor<f32>) -> tensor<1x1xf32>
      %406 = stablehlo.add %404, %405 : tensor<1x1xf32>
      %407 = stablehlo.rsqrt %406 : tensor<1x1xf32>
      %408 = stablehlo.broadcast_in_dim %407, dims = [0, 1] : (tensor<1x1xf32>) -> tensor<1x128xf32>
      %409 = stablehlo.multiply %399, %408 : tensor<1x128xf32>
      %410 = stablehlo.broadcast_in_dim %iterArg_24, dims = [1] : (tensor<128xf32>) -> tensor<1x128xf32>
      %411 = stablehlo.multiply %409, %410 : tensor<1x128xf32>
      %412 = stablehlo.dot_general %411, %iterArg_25, contracting_dims = [1] x [0] : (tensor<1x128xf32>, tensor<128x512xf32>) -> tensor<1x512xf32>
      %413 = stablehlo.multiply %412, %412 : tensor<1x512xf32>
      %414 = stablehlo.multiply %413, %412 : tensor<1x512xf32>
      %415 = stablehlo.broadcast_in_dim %cst_5, dims = [] : (tensor<f32>) -> tensor<1x512xf32>
      %416 = stablehlo.multiply %415, %414 : tensor<1x512xf32>
      %417 = stablehlo.add %412, %416 : tensor<1x512xf32>
      %418 = stablehlo.broadcast_in_dim %cst_4, dims = [] : (tensor<f32>) -> tensor<1x512xf32>
      %419 = stablehlo.multiply %418, %417 : tensor<1x512xf32>
      %420 = stablehlo.tanh %419 : tensor<1x512xf32>
      %421 = stablehlo.broadcast_in_dim %cst_3, dims = [] : (tensor<f32>) -> tensor<1x512xf32>
      %422 = stablehlo.add %421, %420 : tensor<1x512xf32>
      %423 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<1x512xf32>
      %424 = stablehlo.multiply %423, %422 : tensor<1x512xf32>
      %425 = stablehlo.multiply %412, %424 : tensor<1x512xf32>
      %426 = stablehlo.dot_general %425, %iterArg_26, contracting_dims = [1] x [0] : (tensor<1x512xf32>, tensor<512x128xf32>) -> tensor<1x128xf32>
      %427 = stablehlo.add %393, %426 : tensor<1x128xf32>
      %428 = stablehlo.reshape %427 : (tensor<1x128xf32>) -> tensor<128xf32>
      %429 = stablehlo.reduce(%428 init: %cst_12) applies stablehlo.add across dimensions = [0] : (tensor<128xf32>, tensor<f32>) -> tensor<f32>
      %430 = stablehlo.broadcast_in_dim %429, dims = [] : (tensor<f32>) -> tensor<1xf32>
      %431 = stablehlo.broadcast_in_dim %cst_10, dims = [] : (tensor<f32>) -> tensor<1xf32>
      %432 = stablehlo.divide %430, %431 : tensor<1xf32>
      %433 = stablehlo.broadcast_in_dim %432, dims = [0] : (tensor<1xf32>) -> tensor<128xf32>
      %434 = stablehlo.subtract %428, %433 : tensor<128xf32>
      %435 = stablehlo.multiply %434, %434 : tensor<128xf32>
      %436 = stablehlo.reduce(%435 init: %cst_12) applies stablehlo.add across dimensions = [0] : (tensor<128xf32>, tensor<f32>) -> tensor<f32>
      %437 = stablehlo.broadcast_in_dim %436, dims = [] : (tensor<f32>) -> tensor<1xf32>
      %438 = stablehlo.broadcast_in_dim %cst_10, dims = [] : (tensor<f32>) -> tensor<1xf32>
      %439 = stablehlo.divide %437, %438 : tensor<1xf32>
      %440 = stablehlo.broadcast_in_dim %cst_9, dims = [] : (tensor<f32>) -> tensor<1xf32>
      %441 = stablehlo.add %439, %440 : tensor<1xf32>
      %442 = stablehlo.rsqrt %441 : tensor<1xf32>
      %443 = stablehlo.broadcast_in_dim %442, dims = [0] : (tensor<1xf32>) -> tensor<128xf32>
      %444 = stablehlo.multiply %434, %443 : tensor<128xf32>
      %445 = stablehlo.multiply %444, %iterArg_27 : tensor<128xf32>
      %446 = stablehlo.transpose %iterArg_13, dims = [1, 0] : (tensor<1000x128xf32>) -> tensor<128x1000xf32>
      %447 = stablehlo.dot_general %445, %446, contracting_dims = [0] x [0] : (tensor<128xf32>, tensor<128x1000xf32>) -> tensor<1000xf32>
      %448 = func.call @argmax(%447) : (tensor<1000xf32>) -> tensor<i32>
      %449 = stablehlo.add %iterArg_28, %c_2 : tensor<i32>
      %450 = func.call @dynamic_update_index_in_dim_4(%iterArg_31, %448, %iterArg_28) : (tensor<64xi32>, tensor<i32>, tensor<i32>) -> tensor<64xi32>
      stablehlo.return %iterArg, %iterArg_13, %iterArg_14, %iterArg_15, %iterArg_16, %iterArg_17, %iterArg_18, %iterArg_19, %iterArg_20, %iterArg_21, %iterArg_22, %iterArg_23, %iterArg_24, %iterArg_25, %iterArg_26, %iterArg_27, %449, %448, %363, %450 : tensor<i32>, tensor<1000x128xf32>, tensor<64x128xf32>, tensor<128xf32>, tensor<128x384xf32>, tensor<128x128xf32>, tensor<128xf32>, tensor<128x512xf32>, tensor<512x128xf32>, tensor<128xf32>, tensor<128x384xf32>, tensor<128x128xf32>, tensor<128xf32>, tensor<128x512xf32>, tensor<512x128xf32>, tensor<128xf32>, tensor<i32>, tensor<i32>, tensor<2x2x64x4x32xf32>, tensor<64xi32>
    }
    return %224#19, %224#16 : tensor<64xi32>, tensor<i32>
  }
  func.func private @_take(%arg0: tensor<1000x128xf32>, %arg1: tensor<8xi32>) -> tensor<8x128xf32> {
    %cst = stablehlo.constant dense<0x7FC00000> : tensor<f32>
    %c = stablehlo.constant dense<true> : tensor<i1>
    %c_0 = stablehlo.constant dense<999> : tensor<1xi32>
    %c_1 = stablehlo.constant dense<1000> : tensor<i32>
    %c_2 = stablehlo.constant dense<0> : tensor<i32>
    %0 = stablehlo.broadcast_in_dim %c_2, dims = [] : (tensor<i32>) -> tensor<8xi32>
    %1 = stablehlo.compare LT, %arg1, %0, SIGNED : (tensor<8xi32>, tensor<8xi32>) -> tensor<8xi1>
    %2 = stablehlo.broadcast_in_dim %c_1, dims = [] : (tensor<i32>) -> tensor<8xi32>
    %3 = stablehlo.add %arg1, %2 : tensor<8xi32>
    %4 = call @_where(%1, %3, %arg1) : (tensor<8xi1>, tensor<8xi32>, tensor<8xi32>) -> tensor<8xi32>
    %5 = stablehlo.broadcast_in_dim %4, dims = [0] : (tensor<8xi32>) -> tensor<8x1xi32>
    %6 = stablehlo.broadcast_in_dim %c_2, dims = [] : (tensor<i32>) -> tensor<8x1xi32>
    %7 = stablehlo.compare GE, %5, %6, SIGNED : (tensor<8x1xi32>, tensor<8x1xi32>) -> tensor<8x1xi1>
    %8 = stablehlo.broadcast_in_dim %c_0, dims = [1] : (tensor<1xi32>) -> tensor<1x1xi32>
    %9 = stablehlo.broadcast_in_dim %8, dims = [0, 1] : (tensor<1x1xi32>) -> tensor<8x1xi32>
    %10 = stablehlo.compare LE, %5, %9, SIGNED : (tensor<8x1xi32>, tensor<8x1xi32>) -> tensor<8x1xi1>
    %11 = stablehlo.and %7, %10 : tensor<8x1xi1>
    %12 = stablehlo.reduce(%11 init: %c) applies stablehlo.and across dimensions = [1] : (tensor<8x1xi1>, tensor<i1>) -> tensor<8xi1>
    %13 = "stablehlo.gather"(%arg0, %5) <{dimension_numbers = #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>, slice_sizes = array<i64: 1, 128>}> : (tensor<1000x128xf32>, tensor<8x1xi32>) -> tensor<8x128xf32>
    %14 = stablehlo.broadcast_in_dim %12, dims = [0] : (tensor<8xi1>) -> tensor<8x128xi1>
    %15 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<8x128xf32>
    %16 = stablehlo.select %14, %13, %15 : tensor<8x128xi1>, tensor<8x128xf32>
    return %16 : tensor<8x128xf32>
  }
  func.func private @_where(%arg0: tensor<8xi1>, %arg1: tensor<8xi32>, %arg2: tensor<8xi32>) -> tensor<8xi32> {
    %0 = stablehlo.select %arg0, %arg1, %arg2 : tensor<8xi1>, tensor<8xi32>
    return %0 : tensor<8xi32>
  }
  func.func private @_where_0(%arg0: tensor<1x8x64xi1>, %arg1: tensor<4x8x64xf32>, %arg2: tensor<f32>) -> tensor<4x8x64xf32> {
    %0 = stablehlo.convert %arg2 : tensor<f32>
    %1 = stablehlo.broadcast_in_dim %arg0, dims = [0, 1, 2] : (tensor<1x8x64xi1>) -> tensor<4x8x64xi1>
    %2 = stablehlo.broadcast_in_dim %0, dims = [] : (tensor<f32>) -> tensor<4x8x64xf32>
    %3 = stablehlo.select %1, %arg1, %2 : tensor<4x8x64xi1>, tensor<4x8x64xf32>
    return %3 : tensor<4x8x64xf32>
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
  func.func private @dynamic_update_index_in_dim(%arg0: tensor<64xi32>, %arg1: tensor<i32>, %arg2: tensor<i32>) -> tensor<64xi32> {
    %c = stablehlo.constant dense<64> : tensor<i32>
    %c_0 = stablehlo.constant dense<0> : tensor<i32>
    %0 = stablehlo.broadcast_in_dim %arg1, dims = [] : (tensor<i32>) -> tensor<1xi32>
    %1 = stablehlo.compare LT, %arg2, %c_0, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    %2 = stablehlo.convert %arg2 : tensor<i32>
    %3 = stablehlo.add %2, %c : tensor<i32>
    %4 = stablehlo.select %1, %3, %arg2 : tensor<i1>, tensor<i32>
    %5 = stablehlo.dynamic_update_slice %arg0, %0, %4 : (tensor<64xi32>, tensor<1xi32>, tensor<i32>) -> tensor<64xi32>
    return %5 : tensor<64xi32>
  }
  func.func private @_take_1(%arg0: tensor<1000x128xf32>, %arg1: tensor<1xi32>) -> tensor<1x128xf32> {
    %cst = stablehlo.constant dense<0x7FC00000> : tensor<f32>
    %c = stablehlo.constant dense<true> : tensor<i1>
    %c_0 = stablehlo.constant dense<999> : tensor<1xi32>
    %c_1 = stablehlo.constant dense<1000> : tensor<i32>
    %c_2 = stablehlo.constant dense<0> : tensor<i32>
    %0 = stablehlo.broadcast_in_dim %c_2, dims = [] : (tensor<i32>) -> tensor<1xi32>
    %1 = stablehlo.compare LT, %arg1, %0, SIGNED : (tensor<1xi32>, tensor<1xi32>) -> tensor<1xi1>
    %2 = stablehlo.broadcast_in_dim %c_1, dims = [] : (tensor<i32>) -> tensor<1xi32>
    %3 = stablehlo.add %arg1, %2 : tensor<1xi32>
    %4 = call @_where_2(%1, %3, %arg1) : (tensor<1xi1>, tensor<1xi32>, tensor<1xi32>) -> tensor<1xi32>
    %5 = stablehlo.broadcast_in_dim %4, dims = [0] : (tensor<1xi32>) -> tensor<1x1xi32>
    %6 = stablehlo.broadcast_in_dim %c_2, dims = [] : (tensor<i32>) -> tensor<1x1xi32>
    %7 = stablehlo.compare GE, %5, %6, SIGNED : (tensor<1x1xi32>, tensor<1x1xi32>) -> tensor<1x1xi1>
    %8 = stablehlo.broadcast_in_dim %c_0, dims = [1] : (tensor<1xi32>) -> tensor<1x1xi32>
    %9 = stablehlo.compare LE, %5, %8, SIGNED : (tensor<1x1xi32>, tensor<1x1xi32>) -> tensor<1x1xi1>
    %10 = stablehlo.and %7, %9 : tensor<1x1xi1>
    %11 = stablehlo.reduce(%10 init: %c) applies stablehlo.and across dimensions = [1] : (tensor<1x1xi1>, tensor<i1>) -> tensor<1xi1>
    %12 = "stablehlo.gather"(%arg0, %5) <{dimension_numbers = #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>, slice_sizes = array<i64: 1, 128>}> : (tensor<1000x128xf32>, tensor<1x1xi32>) -> tensor<1x128xf32>
    %13 = stablehlo.broadcast_in_dim %11, dims = [0] : (tensor<1xi1>) -> tensor<1x128xi1>
    %14 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<1x128xf32>
    %15 = stablehlo.select %13, %12, %14 : tensor<1x128xi1>, tensor<1x128xf32>
    return %15 : tensor<1x128xf32>
  }
  func.func private @_where_2(%arg0: tensor<1xi1>, %arg1: tensor<1xi32>, %arg2: tensor<1xi32>) -> tensor<1xi32> {
    %0 = stablehlo.select %arg0, %arg1, %arg2 : tensor<1xi1>, tensor<1xi32>
    return %0 : tensor<1xi32>
  }
  func.func private @_where_3(%arg0: tensor<1x1x64xi1>, %arg1: tensor<4x1x64xf32>, %arg2: tensor<f32>) -> tensor<4x1x64xf32> {
    %0 = stablehlo.convert %arg2 : tensor<f32>
    %1 = stablehlo.broadcast_in_dim %arg0, dims = [0, 1, 2] : (tensor<1x1x64xi1>) -> tensor<4x1x64xi1>
    %2 = stablehlo.broadcast_in_dim %0, dims = [] : (tensor<f32>) -> tensor<4x1x64xf32>
    %3 = stablehlo.select %1, %arg1, %2 : tensor<4x1x64xi1>, tensor<4x1x64xf32>
    return %3 : tensor<4x1x64xf32>
  }
  func.func private @dynamic_update_index_in_dim_4(%arg0: tensor<64xi32>, %arg1: tensor<i32>, %arg2: tensor<i32>) -> tensor<64xi32> {
    %c = stablehlo.constant dense<64> : tensor<i32>
    %c_0 = stablehlo.constant dense<0> : tensor<i32>
    %0 = stablehlo.broadcast_in_dim %arg1, dims = [] : (tensor<i32>) -> tensor<1xi32>
    %1 = stablehlo.compare LT, %arg2, %c_0, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    %2 = stablehlo.add %arg2, %c : tensor<i32>
    %3 = stablehlo.select %1, %2, %arg2 : tensor<i1>, tensor<i32>
    %4 = stablehlo.dynamic_update_slice %arg0, %0, %3 : (tensor<64xi32>, tensor<1xi32>, tensor<i32>) -> tensor<64xi32>
    return %4 : tensor<64xi32>
  }
}
