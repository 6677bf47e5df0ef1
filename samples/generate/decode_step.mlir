module @jit_decoder_step attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<512x128xf32>, %arg1: tensor<64x128xf32>, %arg2: tensor<128xf32>, %arg3: tensor<128xf32>, %arg4: tensor<128x384xf32>, %arg5: tensor<384xf32>, %arg6: tensor<128x128xf32>, %arg7: tensor<128xf32>, %arg8: tensor<128xf32>, %arg9: tensor<128xf32>, %arg10: tensor<128x512xf32>, %arg11: tensor<512xf32>, %arg12: tensor<512x128xf32>, %arg13: tensor<128xf32>, %arg14: tensor<128xf32>, %arg15: tensor<128xf32>, %arg16: tensor<128x384xf32>, %arg17: tensor<384xf32>, %arg18: tensor<128x128xf32>, %arg19: tensor<128xf32>, %arg20: tensor<128xf32>, %arg21: tensor<128xf32>, %arg22: tensor<128x512xf32>, %arg23: tensor<512xf32>, %arg24: tensor<512x128xf32>, %arg25: tensor<128xf32>, %arg26: tensor<128xf32>, %arg27: tensor<128xf32>, %arg28: tensor<128x512xf32>, %arg29: tensor<64x4x32xf32> {tf.aliasing_output = 0 : i32}, %arg30: tensor<64x4x32xf32> {tf.aliasing_output = 1 : i32}, %arg31: tensor<64x4x32xf32> {tf.aliasing_output = 2 : i32}, %arg32: tensor<64x4x32xf32> {tf.aliasing_output = 3 : i32}, %arg33: tensor<i32>, %arg34: tensor<i32>) -> (tensor<64x4x32xf32> {jax.result_info = "result[0][0]"}, tensor<64x4x32xf32> {jax.result_info = "result[0][1]"}, tensor<64x4x32xf32> {jax.result_info = "result[1][0]"}, tensor<64x4x32xf32> {jax.result_info = "result[1][1]"}, tensor<i32> {jax.result_info = "result[2]"}) {
    %c = stablehlo.constant dense<0> : tensor<i32>
    %0 = stablehlo.compare LT, %arg33, %c, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    %c_0 = stablehlo.constant dense<512> : tensor<i32>
    %1 = stablehlo.add %arg33, %c_0 : tensor<i32>
    %2 = stablehlo.select %0, %1, %arg33 : tensor<i1>, tensor<i32>
    %c_1 = stablehlo.constant dense<0> : tensor<i32>
    %c_2 = stablehlo.constant dense<0> : tensor<i32>
    %3 = stablehlo.compare LT, %c_1, %c_2, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    %c_3 = stablehlo.constant dense<0> : tensor<i32>
    %c_4 = stablehlo.constant dense<128> : tensor<i32>
    %4 = stablehlo.add %c_3, %c_4 : tensor<i32>
    %c_5 = stablehlo.constant dense<0> : tensor<i32>
    %5 = stablehlo.select %3, %4, %c_5 : tensor<i1>, tensor<i32>
    %6 = stablehlo.dynamic_slice %arg0, %2, %5, sizes = [1, 128] : (tensor<512x128xf32>, tensor<i32>, tensor<i32>) -> tensor<1x128xf32>
    %7 = stablehlo.reshape %6 : (tensor<1x128xf32>) -> tensor<128xf32>
    %c_6 = stablehlo.constant dense<0> : tensor<i32>
    %8 = stablehlo.compare LT, %arg34, %c_6, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    %c_7 = stablehlo.constant dense<64> : tensor<i32>
    %9 = stablehlo.add %arg34, %c_7 : tensor<i32>
    %10 = stablehlo.select %8, %9, %arg34 : tensor<i1>, tensor<i32>
    %c_8 = stablehlo.constant dense<0> : tensor<i32>
    %c_9 = stablehlo.constant dense<0> : tensor<i32>
    %11 = stablehlo.compare LT, %c_8, %c_9, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    %c_10 = stablehlo.constant dense<0> : tensor<i32>
    %c_11 = stablehlo.constant dense<128> : tensor<i32>
    %12 = stablehlo.add %c_10, %c_11 : tensor<i32>
    %c_12 = stablehlo.constant dense<0> : tensor<i32>
    %13 = stablehlo.select %11, %12, %c_12 : tensor<i1>, tensor<i32>
    %14 = stablehlo.dynamic_slice %arg1, %10, %13, sizes = [1, 128] : (tensor<64x128xf32>, tensor<i32>, tensor<i32>) -> tensor<1x128xf32>
    %15 = stablehlo.reshape %14 : (tensor<1x128xf32>) -> tensor<128xf32>
    %16 = stablehlo.add %7, %15 : tensor<128xf32>
    %17 = stablehlo.iota dim = 0 : tensor<64xi32>
    %18 = stablehlo.broadcast_in_dim %arg34, dims = [] : (tensor<i32>) -> tensor<64xi32>
    %19 = stablehlo.compare LE, %17, %18, SIGNED : (tensor<64xi32>, tensor<64xi32>) -> tensor<64xi1>
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %20 = stablehlo.reduce(%16 init: %cst) applies stablehlo.add across dimensions = [0] : (tensor<128xf32>, tensor<f32>) -> tensor<f32>
    %21 = stablehlo.broadcast_in_dim %20, dims = [] : (tensor<f32>) -> tensor<1xf32>
    %cst_13 = stablehlo.constant dense<1.280000e+02> : tensor<f32>
    %22 = stablehlo.broadcast_in_dim %cst_13, dims = [] : (tensor<f32>) -> tensor<1xf32>
    %23 = stablehlo.divide %21, %22 : tensor<1xf32>
    %24 = stablehlo.broadcast_in_dim %23, dims = [0] : (tensor<1xf32>) -> tensor<128xf32>
    %25 = stablehlo.subtract %16, %24 : tensor<128xf32>
    %26 = stablehlo.multiply %25, %25 : tensor<128xf32>
    %cst_14 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %27 = stablehlo.reduce(%26 init: %cst_14) applies stablehlo.add across dimensions = [0] : (tensor<128xf32>, tensor<f32>) -> tensor<f32>
    %28 = stablehlo.broadcast_in_dim %27, dims = [] : (tensor<f32>) -> tensor<1xf32>
    %cst_15 = stablehlo.constant dense<1.280000e+02> : tensor<f32>
    %29 = stablehlo.broadcast_in_dim %cst_15, dims = [] : (tensor<f32>) -> tensor<1xf32>
    %30 = stablehlo.divide %28, %29 : tensor<1xf32>
    %31 = stablehlo.broadcast_in_dim %23, dims = [0] : (tensor<1xf32>) -> tensor<128xf32>
    %32 = stablehlo.subtract %16, %31 : tensor<128xf32>
    %cst_16 = stablehlo.constant dense<9.99999974E-6> : tensor<f32>
    %33 = stablehlo.broadcast_in_dim %cst_16, dims = [] : (tensor<f32>) -> tensor<1xf32>
    %34 = stablehlo.add %30, %33 : tensor<1xf32>
    %35 = stablehlo.rsqrt %34 : tensor<1xf32>
    %36 = stablehlo.broadcast_in_dim %35, dims = [0] : (tensor<1xf32>) -> tensor<128xf32>
    %37 = stablehlo.multiply %32, %36 : tensor<128xf32>
    %38 = stablehlo.multiply %37, %arg2 : tensor<128xf32>
    %39 = stablehlo.add %38, %arg3 : tensor<128xf32>
    %40 = stablehlo.dot_general %39, %arg4, contracting_dims = [0] x [0], precision = [DEFAULT, DEFAULT] : (tensor<128xf32>, tensor<128x384xf32>) -> tensor<384xf32>
    %41 = stablehlo.add %40, %arg5 : tensor<384xf32>
    %42 = stablehlo.slice %41 [0:128] : (tensor<384xf32>) -> tensor<128xf32>
    %43 = stablehlo.slice %41 [128:256] : (tensor<384xf32>) -> tensor<128xf32>
    %44 = stablehlo.slice %41 [256:384] : (tensor<384xf32>) -> tensor<128xf32>
    %45 = stablehlo.reshape %42 : (tensor<128xf32>) -> tensor<4x32xf32>
    %46 = stablehlo.reshape %43 : (tensor<128xf32>) -> tensor<4x32xf32>
    %47 = stablehlo.reshape %44 : (tensor<128xf32>) -> tensor<4x32xf32>
    %48 = stablehlo.broadcast_in_dim %46, dims = [1, 2] : (tensor<4x32xf32>) -> tensor<1x4x32xf32>
    %c_17 = stablehlo.constant dense<0> : tensor<i32>
    %49 = stablehlo.compare LT, %arg34, %c_17, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    %c_18 = stablehlo.constant dense<64> : tensor<i32>
    %50 = stablehlo.add %arg34, %c_18 : tensor<i32>
    %51 = stablehlo.select %49, %50, %arg34 : tensor<i1>, tensor<i32>
    %c_19 = stablehlo.constant dense<0> : tensor<i32>
    %c_20 = stablehlo.constant dense<0> : tensor<i32>
    %52 = stablehlo.dynamic_update_slice %arg29, %48, %51, %c_19, %c_20 : (tensor<64x4x32xf32>, tensor<1x4x32xf32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<64x4x32xf32>
    %53 = stablehlo.broadcast_in_dim %47, dims = [1, 2] : (tensor<4x32xf32>) -> tensor<1x4x32xf32>
    %c_21 = stablehlo.constant dense<0> : tensor<i32>
    %54 = stablehlo.compare LT, %arg34, %c_21, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    %c_22 = stablehlo.constant dense<64> : tensor<i32>
    %55 = stablehlo.add %arg34, %c_22 : tensor<i32>
    %56 = stablehlo.select %54, %55, %arg34 : tensor<i1>, tensor<i32>
    %c_23 = stablehlo.constant dense<0> : tensor<i32>
    %c_24 = stablehlo.constant dense<0> : tensor<i32>
    %57 = stablehlo.dynamic_update_slice %arg31, %53, %56, %c_23, %c_24 : (tensor<64x4x32xf32>, tensor<1x4x32xf32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<64x4x32xf32>
    %58 = stablehlo.dot_general %45, %52, batching_dims = [0] x [1], contracting_dims = [1] x [2], precision = [DEFAULT, DEFAULT] : (tensor<4x32xf32>, tensor<64x4x32xf32>) -> tensor<4x64xf32>
    %cst_25 = stablehlo.constant dense<5.65685415> : tensor<f32>
    %59 = stablehlo.broadcast_in_dim %cst_25, dims = [] : (tensor<f32>) -> tensor<4x64xf32>
    %60 = stablehlo.divide %58, %59 : tensor<4x64xf32>
    %61 = stablehlo.broadcast_in_dim %19, dims = [1] : (tensor<64xi1>) -> tensor<1x64xi1>
    %cst_26 = stablehlo.constant dense<-1.000000e+09> : tensor<f32>
    %62 = call @_where(%61, %60, %cst_26) : (tensor<1x64xi1>, tensor<4x64xf32>, tensor<f32>) -> tensor<4x64xf32>
    %cst_27 = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %63 = stablehlo.reduce(%62 init: %cst_27) applies stablehlo.maximum across dimensions = [1] : (tensor<4x64xf32>, tensor<f32>) -> tensor<4xf32>
    %cst_28 = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %64 = stablehlo.broadcast_in_dim %cst_28, dims = [] : (tensor<f32>) -> tensor<4xf32>
    %65 = stablehlo.maximum %64, %63 : tensor<4xf32>
    %66 = stablehlo.broadcast_in_dim %65, dims = [0] : (tensor<4xf32>) -> tensor<4x1xf32>
    %67 = stablehlo.broadcast_in_dim %66, dims = [0, 1] : (tensor<4x1xf32>) -> tensor<4x64xf32>
    %68 = stablehlo.subtract %62, %67 : tensor<4x64xf32>
    %69 = stablehlo.exponential %68 : tensor<4x64xf32>
    %cst_29 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %70 = stablehlo.reduce(%69 init: %cst_29) applies stablehlo.add across dimensions = [1] : (tensor<4x64xf32>, tensor<f32>) -> tensor<4xf32>
    %71 = stablehlo.broadcast_in_dim %70, dims = [0] : (tensor<4xf32>) -> tensor<4x1xf32>
    %72 = stablehlo.broadcast_in_dim %71, dims = [0, 1] : (tensor<4x1xf32>) -> tensor<4x64xf32>
    %73 = stablehlo.divide %69, %72 : tensor<4x64xf32>
    %74 = stablehlo.dot_general %73, %57, batching_dims = [0] x [1], contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<4x64xf32>, tensor<64x4x32xf32>) -> tensor<4x32xf32>
    %75 = stablehlo.reshape %74 : (tensor<4x32xf32>) -> tensor<128xf32>
    %76 = stablehlo.dot_general %75, %arg6, contracting_dims = [0] x [0], precision = [DEFAULT, DEFAULT] : (tensor<128xf32>, tensor<128x128xf32>) -> tensor<128xf32>
    %77 = stablehlo.add %16, %76 : tensor<128xf32>
    %78 = stablehlo.add %77, %arg7 : tensor<128xf32>
    %cst_30 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %79 = stablehlo.reduce(%78 init: %cst_30) applies stablehlo.add across dimensions = [0] : (tensor<128xf32>, tensor<f32>) -> tensor<f32>
    %80 = stablehlo.broadcast_in_dim %79, dims = [] : (tensor<f32>) -> tensor<1xf32>
    %cst_31 = stablehlo.constant dense<1.280000e+02> : tensor<f32>
    %81 = stablehlo.broadcast_in_dim %cst_31, dims = [] : (tensor<f32>) -> tensor<1xf32>
    %82 = stablehlo.divide %80, %81 : tensor<1xf32>
    %83 = stablehlo.broadcast_in_dim %82, dims = [0] : (tensor<1xf32>) -> tensor<128xf32>
    %84 = stablehlo.subtract %78, %83 : tensor<128xf32>
    %85 = stablehlo.multiply %84, %84 : tensor<128xf32>
    %cst_32 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %86 = stablehlo.reduce(%85 init: %cst_32) applies stablehlo.add across dimensions = [0] : (tensor<128xf32>, tensor<f32>) -> tensor<f32>
    %87 = stablehlo.broadcast_in_dim %86, dims = [] : (tensor<f32>) -> tensor<1xf32>
    %cst_33 = stablehlo.constant dense<1.280000e+02> : tensor<f32>
    %88 = stablehlo.broadcast_in_dim %cst_33, dims = [] : (tensor<f32>) -> tensor<1xf32>
    %89 = stablehlo.divide %87, %88 : tensor<1xf32>
    %90 = stablehlo.broadcast_in_dim %82, dims = [0] : (tensor<1xf32>) -> tensor<128xf32>
    %91 = stablehlo.subtract %78, %90 : tensor<128xf32>
    %cst_34 = stablehlo.constant dense<9.99999974E-6> : tensor<f32>
    %92 = stablehlo.broadcast_in_dim %cst_34, dims = [] : (tensor<f32>) -> tensor<1xf32>
    %93 = stablehlo.add %89, %92 : tensor<1xf32>
    %94 = stablehlo.rsqrt %93 : tensor<1xf32>
    %95 = stablehlo.broadcast_in_dim %94, dims = [0] : (tensor<1xf32>) -> tensor<128xf32>
    %96 = stablehlo.multiply %91, %95 : tensor<128xf32>
    %97 = stablehlo.multiply %96, %arg8 : tensor<128xf32>
    %98 = stablehlo.add %97, %arg9 : tensor<128xf32>
    %99 = stablehlo.dot_general %98, %arg10, contracting_dims = [0] x [0], precision = [DEFAULT, DEFAULT] : (tensor<128xf32>, tensor<128x512xf32>) -> tensor<512xf32>
    %100 = stablehlo.add %99, %arg11 : tensor<512xf32>
    %101 = stablehlo.multiply %100, %100 : tensor<512xf32>
    %102 = stablehlo.multiply %101, %100 : tensor<512xf32>
    %cst_35 = stablehlo.constant dense<4.471500e-02> : tensor<f32>
    %103 = stablehlo.broadcast_in_dim %cst_35, dims = [] : (tensor<f32>) -> tensor<512xf32>
    %104 = stablehlo.multiply %103, %102 : tensor<512xf32>
    %105 = stablehlo.add %100, %104 : tensor<512xf32>
    %cst_36 = stablehlo.constant dense<0.797884583> : tensor<f32>
    %106 = stablehlo.broadcast_in_dim %cst_36, dims = [] : (tensor<f32>) -> tensor<512xf32>
    %107 = stablehlo.multiply %106, %105 : tensor<512xf32>
    %108 = stablehlo.tanh %107 : tensor<512xf32>
    %cst_37 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %109 = stablehlo.broadcast_in_dim %cst_37, dims = [] : (tensor<f32>) -> tensor<512xf32>
    %110 = stablehlo.add %109, %108 : tensor<512xf32>
    %cst_38 = stablehlo.constant dense<5.000000e-01> : tensor<f32>
    %111 = stablehlo.broadcast_in_dim %cst_38, dims = [] : (tensor<f32>) -> tensor<512xf32>
    %112 = stablehlo.multiply %111, %110 : tensor<512xf32>
    %113 = stablehlo.multiply %100, %112 : tensor<512xf32>
    %114 = stablehlo.dot_general %113, %arg12, contracting_dims = [0] x [0], precision = [DEFAULT, DEFAULT] : (tensor<512xf32>, tensor<512x128xf32>) -> tensor<128xf32>
    %115 = stablehlo.add %78, %114 : tensor<128xf32>
    %116 = stablehlo.add %115, %arg13 : tensor<128xf32>
    %cst_39 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %117 = stablehlo.reduce(%116 init: %cst_39) applies stablehlo.add across dimensions = [0] : (tensor<128xf32>, tensor<f32>) -> tensor<f32>
    %118 = stablehlo.broadcast_in_dim %117, dims = [] : (tensor<f32>) -> tensor<1xf32>
    %cst_40 = stablehlo.constant dense<1.280000e+02> : tensor<f32>
    %119 = stablehlo.broadcast_in_dim %cst_40, dims = [] : (tensor<f32>) -> tensor<1xf32>
    %120 = stablehlo.divide %118, %119 : tensor<1xf32>
    %121 = stablehlo.broadcast_in_dim %120, dims = [0] : (tensor<1xf32>) -> tensor<128xf32>
    %122 = stablehlo.subtract %116, %121 : tensor<128xf32>
    %123 = stablehlo.multiply %122, %122 : tensor<128xf32>
    %cst_41 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %124 = stablehlo.reduce(%123 init: %cst_41) applies stablehlo.add across dimensions = [0] : (tensor<128xf32>, tensor<f32>) -> tensor<f32>
    %125 = stablehlo.broadcast_in_dim %124, dims = [] : (tensor<f32>) -> tensor<1xf32>
    %cst_42 = stablehlo.constant dense<1.280000e+02> : tensor<f32>
    %126 = stablehlo.broadcast_in_dim %cst_42, dims = [] : (tensor<f32>) -> tensor<1xf32>
    %127 = stablehlo.divide %125, %126 : tensor<1xf32>
    %128 = stablehlo.broadcast_in_dim %120, dims = [0] : (tensor<1xf32>) -> tensor<128xf32>
    %129 = stablehlo.subtract %116, %128 : tensor<128xf32>
    %cst_43 = stablehlo.constant dense<9.99999974E-6> : tensor<f32>
    %130 = stablehlo.broadcast_in_dim %cst_43, dims = [] : (tensor<f32>) -> tensor<1xf32>
    %131 = stablehlo.add %127, %130 : tensor<1xf32>
    %132 = stablehlo.rsqrt %131 : tensor<1xf32>
    %133 = stablehlo.broadcast_in_dim %132, dims = [0] : (tensor<1xf32>) -> tensor<128xf32>
    %134 = stablehlo.multiply %129, %133 : tensor<128xf32>
    %135 = stablehlo.multiply %134, %arg14 : tensor<128xf32>
    %136 = stablehlo.add %135, %arg15 : tensor<128xf32>
    %137 = stablehlo.dot_general %136, %arg16, contracting_dims = [0] x [0], precision = [DEFAULT, DEFAULT] : (tensor<128xf32>, tensor<128x384xf32>) -> tensor<384xf32>
    %138 = stablehlo.add %137, %arg17 : tensor<384xf32>
    %139 = stablehlo.slice %138 [0:128] : (tensor<384xf32>) -> tensor<128xf32>
    %140 = stablehlo.slice %138 [128:256] : (tensor<384xf32>) -> tensor<128xf32>
    %141 = stablehlo.slice %138 [256:384] : (tensor<384xf32>) -> tensor<128xf32>
    %142 = stablehlo.reshape %139 : (tensor<128xf32>) -> tensor<4x32xf32>
    %143 = stablehlo.reshape %140 : (tensor<128xf32>) -> tensor<4x32xf32>
    %144 = stablehlo.reshape %141 : (tensor<128xf32>) -> tensor<4x32xf32>
    %145 = stablehlo.broadcast_in_dim %143, dims = [1, 2] : (tensor<4x32xf32>) -> tensor<1x4x32xf32>
    %c_44 = stablehlo.constant dense<0> : tensor<i32>
    %146 = stablehlo.compare LT, %arg34, %c_44, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    %c_45 = stablehlo.constant dense<64> : tensor<i32>
    %147 = stablehlo.add %arg34, %c_45 : tensor<i32>
    %148 = stablehlo.select %146, %147, %arg34 : tensor<i1>, tensor<i32>
    %c_46 = stablehlo.constant dense<0> : tensor<i32>
    %c_47 = stablehlo.constant dense<0> : tensor<i32>
    %149 = stablehlo.dynamic_update_slice %arg30, %145, %148, %c_46, %c_47 : (tensor<64x4x32xf32>, tensor<1x4x32xf32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<64x4x32xf32>
    %150 = stablehlo.broadcast_in_dim %144, dims = [1, 2] : (tensor<4x32xf32>) -> tensor<1x4x32xf32>
    %c_48 = stablehlo.constant dense<0> : tensor<i32>
    %151 = stablehlo.compare LT, %arg34, %c_48, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    %c_49 = stablehlo.constant dense<64> : tensor<i32>
    %152 = stablehlo.add %arg34, %c_49 : tensor<i32>
    %153 = stablehlo.select %151, %152, %arg34 : tensor<i1>, tensor<i32>
    %c_50 = stablehlo.constant dense<0> : tensor<i32>
    %c_51 = stablehlo.constant dense<0> : tensor<i32>
    %154 = stablehlo.dynamic_update_slice %arg32, %150, %153, %c_50, %c_51 : (tensor<64x4x32xf32>, tensor<1x4x32xf32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<64x4x32xf32>
    %155 = stablehlo.dot_general %142, %149, batching_dims = [0] x [1], contracting_dims = [1] x [2], precision = [DEFAULT, DEFAULT] : (tensor<4x32xf32>, tensor<64x4x32xf32>) -> tensor<4x64xf32>
    %cst_52 = stablehlo.constant dense<5.65685415> : tensor<f32>
    %156 = stablehlo.broadcast_in_dim %cst_52, dims = [] : (tensor<f32>) -> tensor<4x64xf32>
    %157 = stablehlo.divide %155, %156 : tensor<4x64xf32>
    %158 = stablehlo.broadcast_in_dim %19, dims = [1] : (tensor<64xi1>) -> tensor<1x64xi1>
    %cst_53 = stablehlo.constant dense<-1.000000e+09> : tensor<f32>
    %159 = call @_where(%158, %157, %cst_53) : (tensor<1x64xi1>, tensor<4x64xf32>, tensor<f32>) -> tensor<4x64xf32>
    %cst_54 = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %160 = stablehlo.reduce(%159 init: %cst_54) applies stablehlo.maximum across dimensions = [1] : (tensor<4x64xf32>, tensor<f32>) -> tensor<4xf32>
    %cst_55 = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %161 = stablehlo.broadcast_in_dim %cst_55, dims = [] : (tensor<f32>) -> tensor<4xf32>
    %162 = stablehlo.maximum %161, %160 : tensor<4xf32>
    %163 = stablehlo.broadcast_in_dim %162, dims = [0] : (tensor<4xf32>) -> tensor<4x1xf32>
    %164 = stablehlo.broadcast_in_dim %163, dims = [0, 1] : (tensor<4x1xf32>) -> tensor<4x64xf32>
    %165 = stablehlo.subtract %159, %164 : tensor<4x64xf32>
    %166 = stablehlo.exponential %165 : tensor<4x64xf32>
    %cst_56 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %167 = stablehlo.reduce(%166 init: %cst_56) applies stablehlo.add across dimensions = [1] : (tensor<4x64xf32>, tensor<f32>) -> tensor<4xf32>
    %168 = stablehlo.broadcast_in_dim %167, dims = [0] : (tensor<4xf32>) -> tensor<4x1xf32>
    %169 = stablehlo.broadcast_in_dim %168, dims = [0, 1] : (tensor<4x1xf32>) -> tensor<4x64xf32>
    %170 = stablehlo.divide %166, %169 : tensor<4x64xf32>
    %171 = stablehlo.dot_general %170, %154, batching_dims = [0] x [1], contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<4x64xf32>, tensor<64x4x32xf32>) -> tensor<4x32xf32>
    %172 = stablehlo.reshape %171 : (tensor<4x32xf32>) -> tensor<128xf32>
    %173 = stablehlo.dot_general %172, %arg18, contracting_dims = [0] x [0], precision = [DEFAULT, DEFAULT] : (tensor<128xf32>, tensor<128x128xf32>) -> tensor<128xf32>
    %174 = stablehlo.add %116, %173 : tensor<128xf32>
    %175 = stablehlo.add %174, %arg19 : tensor<128xf32>
    %cst_57 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %176 = stablehlo.reduce(%175 init: %cst_57) applies stablehlo.add across dimensions = [0] : (tensor<128xf32>, tensor<f32>) -> tensor<f32>
    %177 = stablehlo.broadcast_in_dim %176, dims = [] : (tensor<f32>) -> tensor<1xf32>
    %cst_58 = stablehlo.constant dense<1.280000e+02> : tensor<f32>
    %178 = stablehlo.broadcast_in_dim %cst_58, dims = [] : (tensor<f32>) -> tensor<1xf32>
    %179 = stablehlo.divide %177, %178 : tensor<1xf32>
    %180 = stablehlo.broadcast_in_dim %179, dims = [0] : (tensor<1xf32>) -> tensor<128xf32>
    %181 = stablehlo.subtract %175, %180 : tensor<128xf32>
    %182 = stablehlo.multiply %181, %181 : tensor<128xf32>
    %cst_59 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %183 = stablehlo.reduce(%182 init: %cst_59) applies stablehlo.add across dimensions = [0] : (tensor<128xf32>, tensor<f32>) -> tensor<f32>
    %184 = stablehlo.broadcast_in_dim %183, dims = [] : (tensor<f32>) -> tensor<1xf32>
    %cst_60 = stablehlo.constant dense<1.280000e+02> : tensor<f32>
    %185 = stablehlo.broadcast_in_dim %cst_60, dims = [] : (tensor<f32>) -> tensor<1xf32>
    %186 = stablehlo.divide %184, %185 : tensor<1xf32>
    %187 = stablehlo.broadcast_in_dim %179, dims = [0] : (tensor<1xf32>) -> tensor<128xf32>
    %188 = stablehlo.subtract %175, %187 : tensor<128xf32>
    %cst_61 = stablehlo.constant dense<9.99999974E-6> : tensor<f32>
    %189 = stablehlo.broadcast_in_dim %cst_61, dims = [] : (tensor<f32>) -> tensor<1xf32>
    %190 = stablehlo.add %186, %189 : tensor<1xf32>
    %191 = stablehlo.rsqrt %190 : tensor<1xf32>
    %192 = stablehlo.broadcast_in_dim %191, dims = [0] : (tensor<1xf32>) -> tensor<128xf32>
    %193 = stablehlo.multiply %188, %192 : tensor<128xf32>
    %194 = stablehlo.multiply %193, %arg20 : tensor<128xf32>
    %195 = stablehlo.add %194, %arg21 : tensor<128xf32>
    %196 = stablehlo.dot_general %195, %arg22, contracting_dims = [0] x [0], precision = [DEFAULT, DEFAULT] : (tensor<128xf32>, tensor<128x512xf32>) -> tensor<512xf32>
    %197 = stablehlo.add %196, %arg23 : tensor<512xf32>
    %198 = stablehlo.multiply %197, %197 : tensor<512xf32>
    %199 = stablehlo.multiply %198, %197 : tensor<512xf32>
    %cst_62 = stablehlo.constant dense<4.471500e-02> : tensor<f32>
    %200 = stablehlo.broadcast_in_dim %cst_62, dims = [] : (tensor<f32>) -> tensor<512xf32>
    %201 = stablehlo.multiply %200, %199 : tensor<512xf32>
    %202 = stablehlo.add %197, %201 : tensor<512xf32>
    %cst_63 = stablehlo.constant dense<0.797884583> : tensor<f32>
    %203 = stablehlo.broadcast_in_dim %cst_63, dims = [] : (tensor<f32>) -> tensor<512xf32>
    %204 = stablehlo.multiply %203, %202 : tensor<512xf32>
    %205 = stablehlo.tanh %204 : tensor<512xf32>
    %cst_64 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %206 = stablehlo.broadcast_in_dim %cst_64, dims = [] : (tensor<f32>) -> tensor<512xf32>
    %207 = stablehlo.add %206, %205 : tensor<512xf32>
    %cst_65 = stablehlo.constant dense<5.000000e-01> : tensor<f32>
    %208 = stablehlo.broadcast_in_dim %cst_65, dims = [] : (tensor<f32>) -> tensor<512xf32>
    %209 = stablehlo.multiply %208, %207 : tensor<512xf32>
    %210 = stablehlo.multiply %197, %209 : tensor<512xf32>
    %211 = stablehlo.dot_general %210, %arg24, contracting_dims = [0] x [0], precision = [DEFAULT, DEFAULT] : (tensor<512xf32>, tensor<512x128xf32>) -> tensor<128xf32>
    %212 = stablehlo.add %175, %211 : tensor<128xf32>
    %213 = stablehlo.add %212, %arg25 : tensor<128xf32>
    %cst_66 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %214 = stablehlo.reduce(%213 init: %cst_66) applies stablehlo.add across dimensions = [0] : (tensor<128xf32>, tensor<f32>) -> tensor<f32>
    %215 = stablehlo.broadcast_in_dim %214, dims = [] : (tensor<f32>) -> tensor<1xf32>
    %cst_67 = stablehlo.constant dense<1.280000e+02> : tensor<f32>
    %216 = stablehlo.broadcast_in_dim %cst_67, dims = [] : (tensor<f32>) -> tensor<1xf32>
    %217 = stablehlo.divide %215, %216 : tensor<1xf32>
    %218 = stablehlo.broadcast_in_dim %217, dims = [0] : (tensor<1xf32>) -> tensor<128xf32>
    %219 = stablehlo.subtract %213, %218 : tensor<128xf32>
    %220 = stablehlo.multiply %219, %219 : tensor<128xf32>
    %cst_68 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %221 = stablehlo.reduce(%220 init: %cst_68) applies stablehlo.add across dimensions = [0] : (tensor<128xf32>, tensor<f32>) -> tensor<f32>
    %222 = stablehlo.broadcast_in_dim %221, dims = [] : (tensor<f32>) -> tensor<1xf32>
    %cst_69 = stablehlo.constant dense<1.280000e+02> : tensor<f32>
    %223 = stablehlo.broadcast_in_dim %cst_69, dims = [] : (tensor<f32>) -> tensor<1xf32>
    %224 = stablehlo.divide %222, %223 : tensor<1xf32>
    %225 = stablehlo.broadcast_in_dim %217, dims = [0] : (tensor<1xf32>) -> tensor<128xf32>
    %226 = stablehlo.subtract %213, %225 : tensor<128xf32>
    %cst_70 = stablehlo.constant dense<9.99999974E-6> : tensor<f32>
    %227 = stablehlo.broadcast_in_dim %cst_70, dims = [] : (tensor<f32>) -> tensor<1xf32>
    %228 = stablehlo.add %224, %227 : tensor<1xf32>
    %229 = stablehlo.rsqrt %228 : tensor<1xf32>
    %230 = stablehlo.broadcast_in_dim %229, dims = [0] : (tensor<1xf32>) -> tensor<128xf32>
    %231 = stablehlo.multiply %226, %230 : tensor<128xf32>
    %232 = stablehlo.multiply %231, %arg26 : tensor<128xf32>
    %233 = stablehlo.add %232, %arg27 : tensor<128xf32>
    %234 = stablehlo.dot_general %233, %arg28, contracting_dims = [0] x [0], precision = [DEFAULT, DEFAULT] : (tensor<128xf32>, tensor<128x512xf32>) -> tensor<512xf32>
    %235 = call @argmax(%234) : (tensor<512xf32>) -> tensor<i32>
    return %52, %149, %57, %154, %235 : tensor<64x4x32xf32>, tensor<64x4x32xf32>, tensor<64x4x32xf32>, tensor<64x4x32xf32>, tensor<i32>
  }
  func.func private @_where(%arg0: tensor<1x64xi1>, %arg1: tensor<4x64xf32>, %arg2: tensor<f32>) -> tensor<4x64xf32> {
    %0 = stablehlo.convert %arg2 : tensor<f32>
    %1 = stablehlo.broadcast_in_dim %arg0, dims = [0, 1] : (tensor<1x64xi1>) -> tensor<4x64xi1>
    %2 = stablehlo.broadcast_in_dim %0, dims = [] : (tensor<f32>) -> tensor<4x64xf32>
    %3 = stablehlo.select %1, %arg1, %2 : tensor<4x64xi1>, tensor<4x64xf32>
    return %3 : tensor<4x64xf32>
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
