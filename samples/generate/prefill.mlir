module @jit_decoder_prefill attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<512x128xf32>, %arg1: tensor<64x128xf32>, %arg2: tensor<128xf32>, %arg3: tensor<128xf32>, %arg4: tensor<128x384xf32>, %arg5: tensor<384xf32>, %arg6: tensor<128x128xf32>, %arg7: tensor<128xf32>, %arg8: tensor<128xf32>, %arg9: tensor<128xf32>, %arg10: tensor<128x512xf32>, %arg11: tensor<512xf32>, %arg12: tensor<512x128xf32>, %arg13: tensor<128xf32>, %arg14: tensor<128xf32>, %arg15: tensor<128xf32>, %arg16: tensor<128x384xf32>, %arg17: tensor<384xf32>, %arg18: tensor<128x128xf32>, %arg19: tensor<128xf32>, %arg20: tensor<128xf32>, %arg21: tensor<128xf32>, %arg22: tensor<128x512xf32>, %arg23: tensor<512xf32>, %arg24: tensor<512x128xf32>, %arg25: tensor<128xf32>, %arg26: tensor<128xf32>, %arg27: tensor<128xf32>, %arg28: tensor<128x512xf32>, %arg29: tensor<8xi32>) -> (tensor<64x4x32xf32> {jax.result_info = "result[0][0]"}, tensor<64x4x32xf32> {jax.result_info = "result[0][1]"}, tensor<64x4x32xf32> {jax.result_info = "result[1][0]"}, tensor<64x4x32xf32> {jax.result_info = "result[1][1]"}, tensor<i32> {jax.result_info = "result[2]"}) {
    %c = stablehlo.constant dense<0> : tensor<i32>
    %0 = stablehlo.broadcast_in_dim %c, dims = [] : (tensor<i32>) -> tensor<8xi32>
    %1 = stablehlo.compare LT, %arg29, %0, SIGNED : (tensor<8xi32>, tensor<8xi32>) -> tensor<8xi1>
    %c_0 = stablehlo.constant dense<512> : tensor<i32>
    %2 = stablehlo.broadcast_in_dim %c_0, dims = [] : (tensor<i32>) -> tensor<8xi32>
    %3 = stablehlo.add %arg29, %2 : tensor<8xi32>
    %4 = stablehlo.select %1, %3, %arg29 : tensor<8xi1>, tensor<8xi32>
    %5 = stablehlo.broadcast_in_dim %4, dims = [0] : (tensor<8xi32>) -> tensor<8x1xi32>
    %6 = "stablehlo.gather"(%arg0, %5) <{dimension_numbers = #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>, indices_are_sorted = false, slice_sizes = array<i64: 1, 128>}> : (tensor<512x128xf32>, tensor<8x1xi32>) -> tensor<8x128xf32>
    %7 = stablehlo.slice %arg1 [0:8, 0:128] : (tensor<64x128xf32>) -> tensor<8x128xf32>
    %8 = stablehlo.add %6, %7 : tensor<8x128xf32>
    %c_1 = stablehlo.constant dense<true> : tensor<i1>
    %9 = stablehlo.broadcast_in_dim %c_1, dims = [] : (tensor<i1>) -> tensor<8x8xi1>
    %10 = call @tril(%9) : (tensor<8x8xi1>) -> tensor<8x8xi1>
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %11 = stablehlo.reduce(%8 init: %cst) applies stablehlo.add across dimensions = [1] : (tensor<8x128xf32>, tensor<f32>) -> tensor<8xf32>
    %12 = stablehlo.broadcast_in_dim %11, dims = [0] : (tensor<8xf32>) -> tensor<8x1xf32>
    %cst_2 = stablehlo.constant dense<1.280000e+02> : tensor<f32>
    %13 = stablehlo.broadcast_in_dim %cst_2, dims = [] : (tensor<f32>) -> tensor<8x1xf32>
    %14 = stablehlo.divide %12, %13 : tensor<8x1xf32>
    %15 = stablehlo.broadcast_in_dim %14, dims = [0, 1] : (tensor<8x1xf32>) -> tensor<8x128xf32>
    %16 = stablehlo.subtract %8, %15 : tensor<8x128xf32>
    %17 = stablehlo.multiply %16, %16 : tensor<8x128xf32>
    %cst_3 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %18 = stablehlo.reduce(%17 init: %cst_3) applies stablehlo.add across dimensions = [1] : (tensor<8x128xf32>, tensor<f32>) -> tensor<8xf32>
    %19 = stablehlo.broadcast_in_dim %18, dims = [0] : (tensor<8xf32>) -> tensor<8x1xf32>
    %cst_4 = stablehlo.constant dense<1.280000e+02> : tensor<f32>
    %20 = stablehlo.broadcast_in_dim %cst_4, dims = [] : (tensor<f32>) -> tensor<8x1xf32>
    %21 = stablehlo.divide %19, %20 : tensor<8x1xf32>
    %22 = stablehlo.broadcast_in_dim %14, dims = [0, 1] : (tensor<8x1xf32>) -> tensor<8x128xf32>
    %23 = stablehlo.subtract %8, %22 : tensor<8x128xf32>
    %cst_5 = stablehlo.constant dense<9.99999974E-6> : tensor<f32>
    %24 = stablehlo.broadcast_in_dim %cst_5, dims = [] : (tensor<f32>) -> tensor<8x1xf32>
    %25 = stablehlo.add %21, %24 : tensor<8x1xf32>
    %26 = stablehlo.rsqrt %25 : tensor<8x1xf32>
    %27 = stablehlo.broadcast_in_dim %26, dims = [0, 1] : (tensor<8x1xf32>) -> tensor<8x128xf32>
    %28 = stablehlo.multiply %23, %27 : tensor<8x128xf32>
    %29 = stablehlo.broadcast_in_dim %arg2, dims = [1] : (tensor<128xf32>) -> tensor<1x128xf32>
    %30 = stablehlo.broadcast_in_dim %29, dims = [0, 1] : (tensor<1x128xf32>) -> tensor<8x128xf32>
    %31 = stablehlo.multiply %28, %30 : tensor<8x128xf32>
    %32 = stablehlo.broadcast_in_dim %arg3, dims = [1] : (tensor<128xf32>) -> tensor<1x128xf32>
    %33 = stablehlo.broadcast_in_dim %32, dims = [0, 1] : (tensor<1x128xf32>) -> tensor<8x128xf32>
    %34 = stablehlo.add %31, %33 : tensor<8x128xf32>
    %35 = stablehlo.dot_general %34, %arg4, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<8x128xf32>, tensor<128x384xf32>) -> tensor<8x384xf32>
    %36 = stablehlo.broadcast_in_dim %arg5, dims = [1] : (tensor<384xf32>) -> tensor<1x384xf32>
    %37 = stablehlo.broadcast_in_dim %36, dims = [0, 1] : (tensor<1x384xf32>) -> tensor<8x384xf32>
    %38 = stablehlo.add %35, %37 : tensor<8x384xf32>
    %39 = stablehlo.slice %38 [0:8, 0:128] : (tensor<8x384xf32>) -> tensor<8x128xf32>
    %40 = stablehlo.slice %38 [0:8, 128:256] : (tensor<8x384xf32>) -> tensor<8x128xf32>
    %41 = stablehlo.slice %38 [0:8, 256:384] : (tensor<8x384xf32>) -> tensor<8x128xf32>
    %42 = stablehlo.reshape %39 : (tensor<8x128xf32>) -> tensor<8x4x32xf32>
    %43 = stablehlo.reshape %40 : (tensor<8x128xf32>) -> tensor<8x4x32xf32>
    %44 = stablehlo.reshape %41 : (tensor<8x128xf32>) -> tensor<8x4x32xf32>
    %45 = stablehlo.dot_general %42, %43, batching_dims = [1] x [1], contracting_dims = [2] x [2], precision = [DEFAULT, DEFAULT] : (tensor<8x4x32xf32>, tensor<8x4x32xf32>) -> tensor<4x8x8xf32>
    %cst_6 = stablehlo.constant dense<5.65685415> : tensor<f32>
    %46 = stablehlo.broadcast_in_dim %cst_6, dims = [] : (tensor<f32>) -> tensor<4x8x8xf32>
    %47 = stablehlo.divide %45, %46 : tensor<4x8x8xf32>
    %48 = stablehlo.broadcast_in_dim %10, dims = [1, 2] : (tensor<8x8xi1>) -> tensor<1x8x8xi1>
    %cst_7 = stablehlo.constant dense<-1.000000e+09> : tensor<f32>
    %49 = call @_where(%48, %47, %cst_7) : (tensor<1x8x8xi1>, tensor<4x8x8xf32>, tensor<f32>) -> tensor<4x8x8xf32>
    %cst_8 = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %50 = stablehlo.reduce(%49 init: %cst_8) applies stablehlo.maximum across dimensions = [2] : (tensor<4x8x8xf32>, tensor<f32>) -> tensor<4x8xf32>
    %cst_9 = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %51 = stablehlo.broadcast_in_dim %cst_9, dims = [] : (tensor<f32>) -> tensor<4x8xf32>
    %52 = stablehlo.maximum %51, %50 : tensor<4x8xf32>
    %53 = stablehlo.broadcast_in_dim %52, dims = [0, 1] : (tensor<4x8xf32>) -> tensor<4x8x1xf32>
    %54 = stablehlo.broadcast_in_dim %53, dims = [0, 1, 2] : (tensor<4x8x1xf32>) -> tensor<4x8x8xf32>
    %55 = stablehlo.subtract %49, %54 : tensor<4x8x8xf32>
    %56 = stablehlo.exponential %55 : tensor<4x8x8xf32>
    %cst_10 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %57 = stablehlo.reduce(%56 init: %cst_10) applies stablehlo.add across dimensions = [2] : (tensor<4x8x8xf32>, tensor<f32>) -> tensor<4x8xf32>
    %58 = stablehlo.broadcast_in_dim %57, dims = [0, 1] : (tensor<4x8xf32>) -> tensor<4x8x1xf32>
    %59 = stablehlo.broadcast_in_dim %58, dims = [0, 1, 2] : (tensor<4x8x1xf32>) -> tensor<4x8x8xf32>
    %60 = stablehlo.divide %56, %59 : tensor<4x8x8xf32>
    %61 = stablehlo.dot_general %44, %60, batching_dims = [1] x [0], contracting_dims = [0] x [2], precision = [DEFAULT, DEFAULT] : (tensor<8x4x32xf32>, tensor<4x8x8xf32>) -> tensor<4x32x8xf32>
    %62 = stablehlo.transpose %61, dims = [2, 0, 1] : (tensor<4x32x8xf32>) -> tensor<8x4x32xf32>
    %63 = stablehlo.reshape %62 : (tensor<8x4x32xf32>) -> tensor<8x128xf32>
    %64 = stablehlo.dot_general %63, %arg6, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<8x128xf32>, tensor<128x128xf32>) -> tensor<8x128xf32>
    %65 = stablehlo.add %8, %64 : tensor<8x128xf32>
    %66 = stablehlo.broadcast_in_dim %arg7, dims = [1] : (tensor<128xf32>) -> tensor<1x128xf32>
    %67 = stablehlo.broadcast_in_dim %66, dims = [0, 1] : (tensor<1x128xf32>) -> tensor<8x128xf32>
    %68 = stablehlo.add %65, %67 : tensor<8x128xf32>
    %cst_11 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %69 = stablehlo.reduce(%68 init: %cst_11) applies stablehlo.add across dimensions = [1] : (tensor<8x128xf32>, tensor<f32>) -> tensor<8xf32>
    %70 = stablehlo.broadcast_in_dim %69, dims = [0] : (tensor<8xf32>) -> tensor<8x1xf32>
    %cst_12 = stablehlo.constant dense<1.280000e+02> : tensor<f32>
    %71 = stablehlo.broadcast_in_dim %cst_12, dims = [] : (tensor<f32>) -> tensor<8x1xf32>
    %72 = stablehlo.divide %70, %71 : tensor<8x1xf32>
    %73 = stablehlo.broadcast_in_dim %72, dims = [0, 1] : (tensor<8x1xf32>) -> tensor<8x128xf32>
    %74 = stablehlo.subtract %68, %73 : tensor<8x128xf32>
    %75 = stablehlo.multiply %74, %74 : tensor<8x128xf32>
    %cst_13 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %76 = stablehlo.reduce(%75 init: %cst_13) applies stablehlo.add across dimensions = [1] : (tensor<8x128xf32>, tensor<f32>) -> tensor<8xf32>
    %77 = stablehlo.broadcast_in_dim %76, dims = [0] : (tensor<8xf32>) -> tensor<8x1xf32>
    %cst_14 = stablehlo.constant dense<1.280000e+02> : tensor<f32>
    %78 = stablehlo.broadcast_in_dim %cst_14, dims = [] : (tensor<f32>) -> tensor<8x1xf32>
    %79 = stablehlo.divide %77, %78 : tensor<8x1xf32>
    %80 = stablehlo.broadcast_in_dim %72, dims = [0, 1] : (tensor<8x1xf32>) -> tensor<8x128xf32>
    %81 = stablehlo.subtract %68, %80 : tensor<8x128xf32>
    %cst_15 = stablehlo.constant dense<9.99999974E-6> : tensor<f32>
    %82 = stablehlo.broadcast_in_dim %cst_15, dims = [] : (tensor<f32>) -> tensor<8x1xf32>
    %83 = stablehlo.add %79, %82 : tensor<8x1xf32>
    %84 = stablehlo.rsqrt %83 : tensor<8x1xf32>
    %85 = stablehlo.broadcast_in_dim %84, dims = [0, 1] : (tensor<8x1xf32>) -> tensor<8x128xf32>
    %86 = stablehlo.multiply %81, %85 : tensor<8x128xf32>
    %87 = stablehlo.broadcast_in_dim %arg8, dims = [1] : (tensor<128xf32>) -> tensor<1x128xf32>
    %88 = stablehlo.broadcast_in_dim %87, dims = [0, 1] : (tensor<1x128xf32>) -> tensor<8x128xf32>
    %89 = stablehlo.multiply %86, %88 : tensor<8x128xf32>
    %90 = stablehlo.broadcast_in_dim %arg9, dims = [1] : (tensor<128xf32>) -> tensor<1x128xf32>
    %91 = stablehlo.broadcast_in_dim %90, dims = [0, 1] : (tensor<1x128xf32>) -> tensor<8x128xf32>
    %92 = stablehlo.add %89, %91 : tensor<8x128xf32>
    %93 = stablehlo.dot_general %92, %arg10, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<8x128xf32>, tensor<128x512xf32>) -> tensor<8x512xf32>
    %94 = stablehlo.broadcast_in_dim %arg11, dims = [1] : (tensor<512xf32>) -> tensor<1x512xf32>
    %95 = stablehlo.broadcast_in_dim %94, dims = [0, 1] : (tensor<1x512xf32>) -> tensor<8x512xf32>
    %96 = stablehlo.add %93, %95 : tensor<8x512xf32>
    %97 = stablehlo.multiply %96, %96 : tensor<8x512xf32>
    %98 = stablehlo.multiply %97, %96 : tensor<8x512xf32>
    %cst_16 = stablehlo.constant dense<4.471500e-02> : tensor<f32>
    %99 = stablehlo.broadcast_in_dim %cst_16, dims = [] : (tensor<f32>) -> tensor<8x512xf32>
    %100 = stablehlo.multiply %99, %98 : tensor<8x512xf32>
    %101 = stablehlo.add %96, %100 : tensor<8x512xf32>
    %cst_17 = stablehlo.constant dense<0.797884583> : tensor<f32>
    %102 = stablehlo.broadcast_in_dim %cst_17, dims = [] : (tensor<f32>) -> tensor<8x512xf32>
    %103 = stablehlo.multiply %102, %101 : tensor<8x512xf32>
    %104 = stablehlo.tanh %103 : tensor<8x512xf32>
    %cst_18 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %105 = stablehlo.broadcast_in_dim %cst_18, dims = [] : (tensor<f32>) -> tensor<8x512xf32>
    %106 = stablehlo.add %105, %104 : tensor<8x512xf32>
    %cst_19 = stablehlo.constant dense<5.000000e-01> : tensor<f32>
    %107 = stablehlo.broadcast_in_dim %cst_19, dims = [] : (tensor<f32>) -> tensor<8x512xf32>
    %108 = stablehlo.multiply %107, %106 : tensor<8x512xf32>
    %109 = stablehlo.multiply %96, %108 : tensor<8x512xf32>
    %110 = stablehlo.dot_general %109, %arg12, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<8x512xf32>, tensor<512x128xf32>) -> tensor<8x128xf32>
    %111 = stablehlo.add %68, %110 : tensor<8x128xf32>
    %112 = stablehlo.broadcast_in_dim %arg13, dims = [1] : (tensor<128xf32>) -> tensor<1x128xf32>
    %113 = stablehlo.broadcast_in_dim %112, dims = [0, 1] : (tensor<1x128xf32>) -> tensor<8x128xf32>
    %114 = stablehlo.add %111, %113 : tensor<8x128xf32>
    %c_20 = stablehlo.constant dense<0> : tensor<i32>
    %115 = call @_pad(%43, %c_20) : (tensor<8x4x32xf32>, tensor<i32>) -> tensor<64x4x32xf32>
    %c_21 = stablehlo.constant dense<0> : tensor<i32>
    %116 = call @_pad(%44, %c_21) : (tensor<8x4x32xf32>, tensor<i32>) -> tensor<64x4x32xf32>
    %cst_22 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %117 = stablehlo.reduce(%114 init: %cst_22) applies stablehlo.add across dimensions = [1] : (tensor<8x128xf32>, tensor<f32>) -> tensor<8xf32>
    %118 = stablehlo.broadcast_in_dim %117, dims = [0] : (tensor<8xf32>) -> tensor<8x1xf32>
    %cst_23 = stablehlo.constant dense<1.280000e+02> : tensor<f32>
    %119 = stablehlo.broadcast_in_dim %cst_23, dims = [] : (tensor<f32>) -> tensor<8x1xf32>
    %120 = stablehlo.divide %118, %119 : tensor<8x1xf32>
    %121 = stablehlo.broadcast_in_dim %120, dims = [0, 1] : (tensor<8x1xf32>) -> tensor<8x128xf32>
    %122 = stablehlo.subtract %114, %121 : tensor<8x128xf32>
    %123 = stablehlo.multiply %122, %122 : tensor<8x128xf32>
    %cst_24 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %124 = stablehlo.reduce(%123 init: %cst_24) applies stablehlo.add across dimensions = [1] : (tensor<8x128xf32>, tensor<f32>) -> tensor<8xf32>
    %125 = stablehlo.broadcast_in_dim %124, dims = [0] : (tensor<8xf32>) -> tensor<8x1xf32>
    %cst_25 = stablehlo.constant dense<1.280000e+02> : tensor<f32>
    %126 = stablehlo.broadcast_in_dim %cst_25, dims = [] : (tensor<f32>) -> tensor<8x1xf32>
    %127 = stablehlo.divide %125, %126 : tensor<8x1xf32>
    %128 = stablehlo.broadcast_in_dim %120, dims = [0, 1] : (tensor<8x1xf32>) -> tensor<8x128xf32>
    %129 = stablehlo.subtract %114, %128 : tensor<8x128xf32>
    %cst_26 = stablehlo.constant dense<9.99999974E-6> : tensor<f32>
    %130 = stablehlo.broadcast_in_dim %cst_26, dims = [] : (tensor<f32>) -> tensor<8x1xf32>
    %131 = stablehlo.add %127, %130 : tensor<8x1xf32>
    %132 = stablehlo.rsqrt %131 : tensor<8x1xf32>
    %133 = stablehlo.broadcast_in_dim %132, dims = [0, 1] : (tensor<8x1xf32>) -> tensor<8x128xf32>
    %134 = stablehlo.multiply %129, %133 : tensor<8x128xf32>
    %135 = stablehlo.broadcast_in_dim %arg14, dims = [1] : (tensor<128xf32>) -> tensor<1x128xf32>
    %136 = stablehlo.broadcast_in_dim %135, dims = [0, 1] : (tensor<1x128xf32>) -> tensor<8x128xf32>
    %137 = stablehlo.multiply %134, %136 : tensor<8x128xf32>
    %138 = stablehlo.broadcast_in_dim %arg15, dims = [1] : (tensor<128xf32>) -> tensor<1x128xf32>
    %139 = stablehlo.broadcast_in_dim %138, dims = [0, 1] : (tensor<1x128xf32>) -> tensor<8x128xf32>
    %140 = stablehlo.add %137, %139 : tensor<8x128xf32>
    %141 = stablehlo.dot_general %140, %arg16, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<8x128xf32>, tensor<128x384xf32>) -> tensor<8x384xf32>
    %142 = stablehlo.broadcast_in_dim %arg17, dims = [1] : (tensor<384xf32>) -> tensor<1x384xf32>
    %143 = stablehlo.broadcast_in_dim %142, dims = [0, 1] : (tensor<1x384xf32>) -> tensor<8x384xf32>
    %144 = stablehlo.add %141, %143 : tensor<8x384xf32>
    %145 = stablehlo.slice %144 [0:8, 0:128] : (tensor<8x384xf32>) -> tensor<8x128xf32>
    %146 = stablehlo.slice %144 [0:8, 128:256] : (tensor<8x384xf32>) -> tensor<8x128xf32>
    %147 = stablehlo.slice %144 [0:8, 256:384] : (tensor<8x384xf32>) -> tensor<8x128xf32>
    %148 = stablehlo.reshape %145 : (tensor<8x128xf32>) -> tensor<8x4x32xf32>
    %149 = stablehlo.reshape %146 : (tensor<8x128xf32>) -> tensor<8x4x32xf32>
    %150 = stablehlo.reshape %147 : (tensor<8x128xf32>) -> tensor<8x4x32xf32>
    %151 = stablehlo.dot_general %148, %149, batching_dims = [1] x [1], contracting_dims = [2] x [2], precision = [DEFAULT, DEFAULT] : (tensor<8x4x32xf32>, tensor<8x4x32xf32>) -> tensor<4x8x8xf32>
    %cst_27 = stablehlo.constant dense<5.65685415> : tensor<f32>
    %152 = stablehlo.broadcast_in_dim %cst_27, dims = [] : (tensor<f32>) -> tensor<4x8x8xf32>
    %153 = stablehlo.divide %151, %152 : tensor<4x8x8xf32>
    %154 = stablehlo.broadcast_in_dim %10, dims = [1, 2] : (tensor<8x8xi1>) -> tensor<1x8x8xi1>
    %cst_28 = stablehlo.constant dense<-1.000000e+09> : tensor<f32>
    %155 = call @_where(%154, %153, %cst_28) : (tensor<1x8x8xi1>, tensor<4x8x8xf32>, tensor<f32>) -> tensor<4x8x8xf32>
    %cst_29 = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %156 = stablehlo.reduce(%155 init: %cst_29) applies stablehlo.maximum across dimensions = [2] : (tensor<4x8x8xf32>, tensor<f32>) -> tensor<4x8xf32>
    %cst_30 = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %157 = stablehlo.broadcast_in_dim %cst_30, dims = [] : (tensor<f32>) -> tensor<4x8xf32>
    %158 = stablehlo.maximum %157, %156 : tensor<4x8xf32>
    %159 = stablehlo.broadcast_in_dim %158, dims = [0, 1] : (tensor<4x8xf32>) -> tensor<4x8x1xf32>
    %160 = stablehlo.broadcast_in_dim %159, dims = [0, 1, 2] : (tensor<4x8x1xf32>) -> tensor<4x8x8xf32>
    %161 = stablehlo.subtract %155, %160 : tensor<4x8x8xf32>
    %162 = stablehlo.exponential %161 : tensor<4x8x8xf32>
    %cst_31 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %163 = stablehlo.reduce(%162 init: %cst_31) applies stablehlo.add across dimensions = [2] : (tensor<4x8x8xf32>, tensor<f32>) -> tensor<4x8xf32>
    %164 = stablehlo.broadcast_in_dim %163, dims = [0, 1] : (tensor<4x8xf32>) -> tensor<4x8x1xf32>
    %165 = stablehlo.broadcast_in_dim %164, dims = [0, 1, 2] : (tensor<4x8x1xf32>) -> tensor<4x8x8xf32>
    %166 = stablehlo.divide %162, %165 : tensor<4x8x8xf32>
    %167 = stablehlo.dot_general %150, %166, batching_dims = [1] x [0], contracting_dims = [0] x [2], precision = [DEFAULT, DEFAULT] : (tensor<8x4x32xf32>, tensor<4x8x8xf32>) -> tensor<4x32x8xf32>
    %168 = stablehlo.transpose %167, dims = [2, 0, 1] : (tensor<4x32x8xf32>) -> tensor<8x4x32xf32>
    %169 = stablehlo.reshape %168 : (tensor<8x4x32xf32>) -> tensor<8x128xf32>
    %170 = stablehlo.dot_general %169, %arg18, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<8x128xf32>, tensor<128x128xf32>) -> tensor<8x128xf32>
    %171 = stablehlo.add %114, %170 : tensor<8x128xf32>
    %172 = stablehlo.broadcast_in_dim %arg19, dims = [1] : (tensor<128xf32>) -> tensor<1x128xf32>
    %173 = stablehlo.broadcast_in_dim %172, dims = [0, 1] : (tensor<1x128xf32>) -> tensor<8x128xf32>
    %174 = stablehlo.add %171, %173 : tensor<8x128xf32>
    %cst_32 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %175 = stablehlo.reduce(%174 init: %cst_32) applies stablehlo.add across dimensions = [1] : (tensor<8x128xf32>, tensor<f32>) -> tensor<8xf32>
    %176 = stablehlo.broadcast_in_dim %175, dims = [0] : (tensor<8xf32>) -> tensor<8x1xf32>
    %cst_33 = stablehlo.constant dense<1.280000e+02> : tensor<f32>
    %177 = stablehlo.broadcast_in_dim %cst_33, dims = [] : (tensor<f32>) -> tensor<8x1xf32>
    %178 = stablehlo.divide %176, %177 : tensor<8x1xf32>
    %179 = stablehlo.broadcast_in_dim %178, dims = [0, 1] : (tensor<8x1xf32>) -> tensor<8x128xf32>
    %180 = stablehlo.subtract %174, %179 : tensor<8x128xf32>
    %181 = stablehlo.multiply %180, %180 : tensor<8x128xf32>
    %cst_34 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %182 = stablehlo.reduce(%181 init: %cst_34) applies stablehlo.add across dimensions = [1] : (tensor<8x128xf32>, tensor<f32>) -> tensor<8xf32>
    %183 = stablehlo.broadcast_in_dim %182, dims = [0] : (tensor<8xf32>) -> tensor<8x1xf32>
    %cst_35 = stablehlo.constant dense<1.280000e+02> : tensor<f32>
    %184 = stablehlo.broadcast_in_dim %cst_35, dims = [] : (tensor<f32>) -> tensor<8x1xf32>
    %185 = stablehlo.divide %183, %184 : tensor<8x1xf32>
    %186 = stablehlo.broadcast_in_dim %178, dims = [0, 1] : (tensor<8x1xf32>) -> tensor<8x128xf32>
    %187 = stablehlo.subtract %174, %186 : tensor<8x128xf32>
    %cst_36 = stablehlo.constant dense<9.99999974E-6> : tensor<f32>
    %188 = stablehlo.broadcast_in_dim %cst_36, dims = [] : (tensor<f32>) -> tensor<8x1xf32>
    %189 = stablehlo.add %185, %188 : tensor<8x1xf32>
    %190 = stablehlo.rsqrt %189 : tensor<8x1xf32>
    %191 = stablehlo.broadcast_in_dim %190, dims = [0, 1] : (tensor<8x1xf32>) -> tensor<8x128xf32>
    %192 = stablehlo.multiply %187, %191 : tensor<8x128xf32>
    %193 = stablehlo.broadcast_in_dim %arg20, dims = [1] : (tensor<128xf32>) -> tensor<1x128xf32>
    %194 = stablehlo.broadcast_in_dim %193, dims = [0, 1] : (tensor<1x128xf32>) -> tensor<8x128xf32>
    %195 = stablehlo.multiply %192, %194 : tensor<8x128xf32>
    %196 = stablehlo.broadcast_in_dim %arg21, dims = [1] : (tensor<128xf32>) -> tensor<1x128xf32>
    %197 = stablehlo.broadcast_in_dim %196, dims = [0, 1] : (tensor<1x128xf32>) -> tensor<8x128xf32>
    %198 = stablehlo.add %195, %197 : tensor<8x128xf32>
    %199 = stablehlo.dot_general %198, %arg22, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<8x128xf32>, tensor<128x512xf32>) -> tensor<8x512xf32>
    %200 = stablehlo.broadcast_in_dim %arg23, dims = [1] : (tensor<512xf32>) -> tensor<1x512xf32>
    %201 = stablehlo.broadcast_in_dim %200, dims = [0, 1] : (tensor<1x512xf32>) -> tensor<8x512xf32>
    %202 = stablehlo.add %199, %201 : tensor<8x512xf32>
    %203 = stablehlo.multiply %202, %202 : tensor<8x512xf32>
    %204 = stablehlo.multiply %203, %202 : tensor<8x512xf32>
    %cst_37 = stablehlo.constant dense<4.471500e-02> : tensor<f32>
    %205 = stablehlo.broadcast_in_dim %cst_37, dims = [] : (tensor<f32>) -> tensor<8x512xf32>
    %206 = stablehlo.multiply %205, %204 : tensor<8x512xf32>
    %207 = stablehlo.add %202, %206 : tensor<8x512xf32>
    %cst_38 = stablehlo.constant dense<0.797884583> : tensor<f32>
    %208 = stablehlo.broadcast_in_dim %cst_38, dims = [] : (tensor<f32>) -> tensor<8x512xf32>
    %209 = stablehlo.multiply %208, %207 : tensor<8x512xf32>
    %210 = stablehlo.tanh %209 : tensor<8x512xf32>
    %cst_39 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %211 = stablehlo.broadcast_in_dim %cst_39, dims = [] : (tensor<f32>) -> tensor<8x512xf32>
    %212 = stablehlo.add %211, %210 : tensor<8x512xf32>
    %cst_40 = stablehlo.constant dense<5.000000e-01> : tensor<f32>
    %213 = stablehlo.broadcast_in_dim %cst_40, dims = [] : (tensor<f32>) -> tensor<8x512xf32>
    %214 = stablehlo.multiply %213, %212 : tensor<8x512xf32>
    %215 = stablehlo.multiply %202, %214 : tensor<8x512xf32>
    %216 = stablehlo.dot_general %215, %arg24, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<8x512xf32>, tensor<512x128xf32>) -> tensor<8x128xf32>
    %217 = stablehlo.add %174, %216 : tensor<8x128xf32>
    %218 = stablehlo.broadcast_in_dim %arg25, dims = [1] : (tensor<128xf32>) -> tensor<1x128xf32>
    %219 = stablehlo.broadcast_in_dim %218, dims = [0, 1] : (tensor<1x128xf32>) -> tensor<8x128xf32>
    %220 = stablehlo.add %217, %219 : tensor<8x128xf32>
    %c_41 = stablehlo.constant dense<0> : tensor<i32>
    %221 = call @_pad(%149, %c_41) : (tensor<8x4x32xf32>, tensor<i32>) -> tensor<64x4x32xf32>
    %c_42 = stablehlo.constant dense<0> : tensor<i32>
    %222 = call @_pad(%150, %c_42) : (tensor<8x4x32xf32>, tensor<i32>) -> tensor<64x4x32xf32>
    %223 = stablehlo.slice %220 [7:8, 0:128] : (tensor<8x128xf32>) -> tensor<1x128xf32>
    %224 = stablehlo.reshape %223 : (tensor<1x128xf32>) -> tensor<128xf32>
    %cst_43 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %225 = stablehlo.reduce(%224 init: %cst_43) applies stablehlo.add across dimensions = [0] : (tensor<128xf32>, tensor<f32>) -> tensor<f32>
    %226 = stablehlo.broadcast_in_dim %225, dims = [] : (tensor<f32>) -> tensor<1xf32>
    %cst_44 = stablehlo.constant dense<1.280000e+02> : tensor<f32>
    %227 = stablehlo.broadcast_in_dim %cst_44, dims = [] : (tensor<f32>) -> tensor<1xf32>
    %228 = stablehlo.divide %226, %227 : tensor<1xf32>
    %229 = stablehlo.broadcast_in_dim %228, dims = [0] : (tensor<1xf32>) -> tensor<128xf32>
    %230 = stablehlo.subtract %224, %229 : tensor<128xf32>
    %231 = stablehlo.multiply %230, %230 : tensor<128xf32>
    %cst_45 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %232 = stablehlo.reduce(%231 init: %cst_45) applies stablehlo.add across dimensions = [0] : (tensor<128xf32>, tensor<f32>) -> tensor<f32>
    %233 = stablehlo.broadcast_in_dim %232, dims = [] : (tensor<f32>) -> tensor<1xf32>
    %cst_46 = stablehlo.constant dense<1.280000e+02> : tensor<f32>
    %234 = stablehlo.broadcast_in_dim %cst_46, dims = [] : (tensor<f32>) -> tensor<1xf32>
    %235 = stablehlo.divide %233, %234 : tensor<1xf32>
    %236 = stablehlo.broadcast_in_dim %228, dims = [0] : (tensor<1xf32>) -> tensor<128xf32>
    %237 = stablehlo.subtract %224, %236 : tensor<128xf32>
    %cst_47 = stablehlo.constant dense<9.99999974E-6> : tensor<f32>
    %238 = stablehlo.broadcast_in_dim %cst_47, dims = [] : (tensor<f32>) -> tensor<1xf32>
    %239 = stablehlo.add %235, %238 : tensor<1xf32>
    %240 = stablehlo.rsqrt %239 : tensor<1xf32>
    %241 = stablehlo.broadcast_in_dim %240, dims = [0] : (tensor<1xf32>) -> tensor<128xf32>
    %242 = stablehlo.multiply %237, %241 : tensor<128xf32>
    %243 = stablehlo.multiply %242, %arg26 : tensor<128xf32>
    %244 = stablehlo.add %243, %arg27 : tensor<128xf32>
    %245 = stablehlo.dot_general %244, %arg28, contracting_dims = [0] x [0], precision = [DEFAULT, DEFAULT] : (tensor<128xf32>, tensor<128x512xf32>) -> tensor<512xf32>
    %246 = call @argmax(%245) : (tensor<512xf32>) -> tensor<i32>
    return %115, %221, %116, %222, %246 : tensor<64x4x32xf32>, tensor<64x4x32xf32>, tensor<64x4x32xf32>, tensor<64x4x32xf32>, tensor<i32>
  }
  func.func private @tril(%arg0: tensor<8x8xi1>) -> tensor<8x8xi1> {
    %0 = stablehlo.iota dim = 0 : tensor<8x8xi32>
    %c = stablehlo.constant dense<0> : tensor<i32>
    %1 = stablehlo.broadcast_in_dim %c, dims = [] : (tensor<i32>) -> tensor<8x8xi32>
    %2 = stablehlo.add %0, %1 : tensor<8x8xi32>
    %3 = stablehlo.iota dim = 1 : tensor<8x8xi32>
    %4 = stablehlo.compare GE, %2, %3, SIGNED : (tensor<8x8xi32>, tensor<8x8xi32>) -> tensor<8x8xi1>
    %c_0 = stablehlo.constant dense<false> : tensor<i1>
    %5 = stablehlo.broadcast_in_dim %c_0, dims = [] : (tensor<i1>) -> tensor<8x8xi1>
    %6 = stablehlo.select %4, %arg0, %5 : tensor<8x8xi1>, tensor<8x8xi1>
    return %6 : tensor<8x8xi1>
  }
  func.func private @_where(%arg0: tensor<1x8x8xi1>, %arg1: tensor<4x8x8xf32>, %arg2: tensor<f32>) -> tensor<4x8x8xf32> {
    %0 = stablehlo.convert %arg2 : tensor<f32>
    %1 = stablehlo.broadcast_in_dim %arg0, dims = [0, 1, 2] : (tensor<1x8x8xi1>) -> tensor<4x8x8xi1>
    %2 = stablehlo.broadcast_in_dim %0, dims = [] : (tensor<f32>) -> tensor<4x8x8xf32>
    %3 = stablehlo.select %1, %arg1, %2 : tensor<4x8x8xi1>, tensor<4x8x8xf32>
    return %3 : tensor<4x8x8xf32>
  }
  func.func private @_pad(%arg0: tensor<8x4x32xf32>, %arg1: tensor<i32>) -> tensor<64x4x32xf32> {
    %0 = stablehlo.convert %arg1 : (tensor<i32>) -> tensor<f32>
    %1 = stablehlo.pad %arg0, %0, low = [0, 0, 0], high = [56, 0, 0], interior = [0, 0, 0] : (tensor<8x4x32xf32>, tensor<f32>) -> tensor<64x4x32xf32>
    return %1 : tensor<64x4x32xf32>
  }
  func.func private @argmax(%arg0: tensor<512xf32>) -> tensor<i32> {
    %0 = stablehlo.iota dim = 0 : tensor<512xi32>
    %cst = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %c = stablehlo.constant dense<0> : tensor<i32>
    %1:2 = stablehlo.reduce(%arg0 init: %cst), (%0 init: %c) across dimensions = [0] : (tensor<512xf32>, tensor<512xi32>, tensor<f32>, tensor<i32>) -> (tensor<f32>, tensor<i32>)
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
}
