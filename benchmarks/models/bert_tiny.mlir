module @jit__lambda attributes {jax.uses_shape_polymorphism = false, mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<1000x128xf32>, %arg1: tensor<32x128xf32>, %arg2: tensor<2x128xf32>, %arg3: tensor<128xf32>, %arg4: tensor<128xf32>, %arg5: tensor<128x2x64xf32>, %arg6: tensor<2x64xf32>, %arg7: tensor<128x2x64xf32>, %arg8: tensor<2x64xf32>, %arg9: tensor<128x2x64xf32>, %arg10: tensor<2x64xf32>, %arg11: tensor<2x64x128xf32>, %arg12: tensor<128xf32>, %arg13: tensor<128xf32>, %arg14: tensor<128xf32>, %arg15: tensor<128xf32>, %arg16: tensor<128xf32>, %arg17: tensor<128x512xf32>, %arg18: tensor<512xf32>, %arg19: tensor<512x128xf32>, %arg20: tensor<128xf32>, %arg21: tensor<128x2x64xf32>, %arg22: tensor<2x64xf32>, %arg23: tensor<128x2x64xf32>, %arg24: tensor<2x64xf32>, %arg25: tensor<128x2x64xf32>, %arg26: tensor<2x64xf32>, %arg27: tensor<2x64x128xf32>, %arg28: tensor<128xf32>, %arg29: tensor<128xf32>, %arg30: tensor<128xf32>, %arg31: tensor<128xf32>, %arg32: tensor<128xf32>, %arg33: tensor<128x512xf32>, %arg34: tensor<512xf32>, %arg35: tensor<512x128xf32>, %arg36: tensor<128xf32>, %arg37: tensor<128x128xf32>, %arg38: tensor<128xf32>, %arg39: tensor<2x32xi32>, %arg40: tensor<2x32xi32>, %arg41: tensor<2x32xi32>) -> (tensor<2x128xf32> {jax.result_info = "result['pooled_output']"}, tensor<2x32x128xf32> {jax.result_info = "result['sequence_output']"}) {
    %cst = stablehlo.constant dense<5.000000e-01> : tensor<f32>
    %cst_0 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %cst_1 = stablehlo.constant dense<0.797884583> : tensor<f32>
    %cst_2 = stablehlo.constant dense<4.471500e-02> : tensor<f32>
    %cst_3 = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %cst_4 = stablehlo.constant dense<-2.38197633E+38> : tensor<f32>
    %c = stablehlo.constant dense<true> : tensor<i1>
    %cst_5 = stablehlo.constant dense<1.250000e-01> : tensor<f32>
    %cst_6 = stablehlo.constant dense<9.99999996E-13> : tensor<f32>
    %cst_7 = stablehlo.constant dense<1.280000e+02> : tensor<f32>
    %cst_8 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %c_9 = stablehlo.constant dense<0> : tensor<i32>
    %0 = call @_take(%arg0, %arg41) : (tensor<1000x128xf32>, tensor<2x32xi32>) -> tensor<2x32x128xf32>
    %1 = stablehlo.dynamic_slice %arg1, %c_9, %c_9, sizes = [32, 128] : (tensor<32x128xf32>, tensor<i32>, tensor<i32>) -> tensor<32x128xf32>
    %2 = stablehlo.broadcast_in_dim %1, dims = [1, 2] : (tensor<32x128xf32>) -> tensor<2x32x128xf32>
    %3 = call @_take_0(%arg2, %arg40) : (tensor<2x128xf32>, tensor<2x32xi32>) -> tensor<2x32x128xf32>
    %4 = stablehlo.add %0, %2 : tensor<2x32x128xf32>
    %5 = stablehlo.add %4, %3 : tensor<2x32x128xf32>
    %6 = stablehlo.reduce(%5 init: %cst_8) applies stablehlo.add across dimensions = [2] : (tensor<2x32x128xf32>, tensor<f32>) -> tensor<2x32xf32>
    %7 = stablehlo.broadcast_in_dim %6, dims = [0, 1] : (tensor<2x32xf32>) -> tensor<2x32x1xf32>
    %8 = stablehlo.broadcast_in_dim %cst_7, dims = [] : (tensor<f32>) -> tensor<2x32x1xf32>
    %9 = stablehlo.divide %7, %8 : tensor<2x32x1xf32>
    %10 = call @_var(%5, %c_9) : (tensor<2x32x128xf32>, tensor<i32>) -> tensor<2x32x1xf32>
    %11 = stablehlo.reshape %arg3 : (tensor<128xf32>) -> tensor<1x1x128xf32>
    %12 = stablehlo.reshape %arg4 : (tensor<128xf32>) -> tensor<1x1x128xf32>
    %13 = stablehlo.broadcast_in_dim %cst_6, dims = [] : (tensor<f32>) -> tensor<2x32x1xf32>
    %14 = stablehlo.add %10, %13 : tensor<2x32x1xf32>
    %15 = stablehlo.rsqrt %14 : tensor<2x32x1xf32>
    %16 = stablehlo.broadcast_in_dim %15, dims = [0, 1, 2] : (tensor<2x32x1xf32>) -> tensor<2x32x128xf32>
    %17 = stablehlo.broadcast_in_dim %11, dims = [0, 1, 2] : (tensor<1x1x128xf32>) -> tensor<2x32x128xf32>
    %18 = stablehlo.multiply %16, %17 : tensor<2x32x128xf32>
    %19 = stablehlo.negate %9 : tensor<2x32x1xf32>
    %20 = stablehlo.broadcast_in_dim %19, dims = [0, 1, 2] : (tensor<2x32x1xf32>) -> tensor<2x32x128xf32>
    %21 = stablehlo.multiply %20, %18 : tensor<2x32x128xf32>
    %22 = stablehlo.broadcast_in_dim %12, dims = [0, 1, 2] : (tensor<1x1x128xf32>) -> tensor<2x32x128xf32>
    %23 = stablehlo.add %21, %22 : tensor<2x32x128xf32>
    %24 = stablehlo.multiply %5, %18 : tensor<2x32x128xf32>
    %25 = stablehlo.add %24, %23 : tensor<2x32x128xf32>
    %26 = stablehlo.broadcast_in_dim %arg39, dims = [0, 2] : (tensor<2x32xi32>) -> tensor<2x1x32xi32>
    %27 = stablehlo.broadcast_in_dim %c_9, dims = [] : (tensor<i32>) -> tensor<2x1x32xi32>
    %28 = stablehlo.compare NE, %26, %27, SIGNED : (tensor<2x1x32xi32>, tensor<2x1x32xi32>) -> tensor<2x1x32xi1>
    %29 = stablehlo.convert %28 : tensor<2x1x32xi1>
    %30 = stablehlo.dot_general %25, %arg5, contracting_dims = [2] x [0] : (tensor<2x32x128xf32>, tensor<128x2x64xf32>) -> tensor<2x32x2x64xf32>
    %31 = stablehlo.broadcast_in_dim %arg6, dims = [2, 3] : (tensor<2x64xf32>) -> tensor<1x1x2x64xf32>
    %32 = stablehlo.broadcast_in_dim %31, dims = [0, 1, 2, 3] : (tensor<1x1x2x64xf32>) -> tensor<2x32x2x64xf32>
    %33 = stablehlo.add %30, %32 : tensor<2x32x2x64xf32>
    %34 = stablehlo.dot_general %25, %arg7, contracting_dims = [2] x [0] : (tensor<2x32x128xf32>, tensor<128x2x64xf32>) -> tensor<2x32x2x64xf32>
    %35 = stablehlo.broadcast_in_dim %arg8, dims = [2, 3] : (tensor<2x64xf32>) -> tensor<1x1x2x64xf32>
    %36 = stablehlo.broadcast_in_dim %35, dims = [0, 1, 2, 3] : (tensor<1x1x2x64xf32>) -> tensor<2x32x2x64xf32>
    %37 = stablehlo.add %34, %36 : tensor<2x32x2x64xf32>
    %38 = stablehlo.dot_general %25, %arg9, contracting_dims = [2] x [0] : (tensor<2x32x128xf32>, tensor<128x2x64xf32>) -> tensor<2x32x2x64xf32>
    %39 = stablehlo.broadcast_in_dim %arg10, dims = [2, 3] : (tensor<2x64xf32>) -> tensor<1x1x2x64xf32>
    %40 = stablehlo.broadcast_in_dim %39, dims = [0, 1, 2, 3] : (tensor<1x1x2x64xf32>) -> tensor<2x32x2x64xf32>
    %41 = stablehlo.add %38, %40 : tensor<2x32x2x64xf32>
    %42 = stablehlo.broadcast_in_dim %29, dims = [0, 2, 3] : (tensor<2x1x32xi1>) -> tensor<2x1x1x32xi1>
    %43 = stablehlo.reshape %33 : (tensor<2x32x2x64xf32>) -> tensor<2x32x2x1x64xf32>
    %44 = stablehlo.broadcast_in_dim %42, dims = [0, 1, 3, 4] : (tensor<2x1x1x32xi1>) -> tensor<2x1x1x1x32xi1>
    %45 = stablehlo.dot_general %43, %37, batching_dims = [0, 2] x [0, 2], contracting_dims = [4] x [3] : (tensor<2x32x2x1x64xf32>, tensor<2x32x2x64xf32>) -> tensor<2x2x32x1x32xf32>
    %46 = stablehlo.broadcast_in_dim %cst_5, dims = [] : (tensor<f32>) -> tensor<2x2x32x1x32xf32>
    %47 = stablehlo.multiply %45, %46 : tensor<2x2x32x1x32xf32>
    %48 = stablehlo.broadcast_in_dim %c, dims = [] : (tensor<i1>) -> tensor<2x2x32x32xi1>
    %49 = stablehlo.broadcast_in_dim %48, dims = [1, 2, 3, 4] : (tensor<2x2x32x32xi1>) -> tensor<1x2x2x32x32xi1>
    %50 = stablehlo.transpose %44, dims = [2, 0, 1, 3, 4] : (tensor<2x1x1x1x32xi1>) -> tensor<1x2x1x1x32xi1>
    %51 = stablehlo.broadcast_in_dim %50, dims = [0, 1, 2, 3, 4] : (tensor<1x2x1x1x32xi1>) -> tensor<1x2x2x32x32xi1>
    %52 = stablehlo.and %49, %51 : tensor<1x2x2x32x32xi1>
    %53 = call @_where_2(%52, %47, %cst_4) : (tensor<1x2x2x32x32xi1>, tensor<2x2x32x1x32xf32>, tensor<f32>) -> tensor<1x2x2x32x32xf32>
    %54 = stablehlo.reduce(%53 init: %cst_3) applies stablehlo.maximum across dimensions = [4] : (tensor<1x2x2x32x32xf32>, tensor<f32>) -> tensor<1x2x2x32xf32>
    %55 = stablehlo.broadcast_in_dim %cst_3, dims = [] : (tensor<f32>) -> tensor<1x2x2x32xf32>
    %56 = stablehlo.maximum %55, %54 : tensor<1x2x2x32xf32>
    %57 = stablehlo.broadcast_in_dim %56, dims = [0, 1, 2, 3] : (tensor<1x2x2x32xf32>) -> tensor<1x2x2x32x1xf32>
    %58 = stablehlo.broadcast_in_dim %57, dims = [0, 1, 2, 3, 4] : (tensor<1x2x2x32x1xf32>) -> tensor<1x2x2x32x32xf32>
    %59 = stablehlo.subtract %53, %58 : tensor<1x2x2x32x32xf32>
    %60 = stablehlo.exponential %59 : tensor<1x2x2x32x32xf32>
    %61 = stablehlo.reduce(%60 init: %cst_8) applies stablehlo.add across dimensions = [4] : (tensor<1x2x2x32x32xf32>, tensor<f32>) -> tensor<1x2x2x32xf32>
    %62 = stablehlo.broadcast_in_dim %61, dims = [0, 1, 2, 3] : (tensor<1x2x2x32xf32>) -> tensor<1x2x2x32x1xf32>
    %63 = stablehlo.broadcast_in_dim %62, dims = [0, 1, 2, 3, 4] : (tensor<1x2x2x32x1xf32>) -> tensor<1x2x2x32x32xf32>
    %64 = stablehlo.divide %60, %63 : tensor<1x2x2x32x32xf32>
    %65 = stablehlo.dot_general %41, %64, batching_dims = [0, 2] x [1, 2], contracting_dims = [1] x [4] : (tensor<2x32x2x64xf32>, tensor<1x2x2x32x32xf32>) -> tensor<2x2x64x1x32xf32>
    %66 = stablehlo.transpose %65, dims = [3, 0, 4, 1, 2] : (tensor<2x2x64x1x32xf32>) -> tensor<1x2x32x2x64xf32>
    %67 = stablehlo.transpose %66, dims = [1, 2, 3, 0, 4] : (tensor<1x2x32x2x64xf32>) -> tensor<2x32x2x1x64xf32>
    %68 = stablehlo.reshape %67 : (tensor<2x32x2x1x64xf32>) -> tensor<2x32x2x64xf32>
    %69 = stablehlo.dot_general %68, %arg11, contracting_dims = [2, 3] x [0, 1] : (tensor<2x32x2x64xf32>, tensor<2x64x128xf32>) -> tensor<2x32x128xf32>
    %70 = stablehlo.broadcast_in_dim %arg12, dims = [2] : (tensor<128xf32>) -> tensor<1x1x128xf32>
    %71 = stablehlo.broadcast_in_dim %70, dims = [0, 1, 2] : (tensor<1x1x128xf32>) -> tensor<2x32x128xf32>
    %72 = stablehlo.add %69, %71 : tensor<2x32x128xf32>
    %73 = stablehlo.add %72, %25 : tensor<2x32x128xf32>
    %74 = stablehlo.reduce(%73 init: %cst_8) applies stablehlo.add across dimensions = [2] : (tensor<2x32x128xf32>, tensor<f32>) -> tensor<2x32xf32>
    %75 = stablehlo.broadcast_in_dim %74, dims = [0, 1] : (tensor<2x32xf32>) -> tensor<2x32x1xf32>
    %76 = stablehlo.broadcast_in_dim %cst_7, dims = [] : (tensor<f32>) -> tensor<2x32x1xf32>
    %77 = stablehlo.divide %75, %76 : tensor<2x32x1xf32>
    %78 = call @_var(%73, %c_9) : (tensor<2x32x128xf32>, tensor<i32>) -> tensor<2x32x1xf32>
    %79 = stablehlo.reshape %arg13 : (tensor<128xf32>) -> tensor<1x1x128xf32>
    %80 = stablehlo.reshape %arg14 : (tensor<128xf32>) -> tensor<1x1x128xf32>
    %81 = stablehlo.broadcast_in_dim %cst_6, dims = [] : (tensor<f32>) -> tensor<2x32x1xf32>
    %82 = stablehlo.add %78, %81 : tensor<2x32x1xf32>
    %83 = stablehlo.rsqrt %82 : tensor<2x32x1xf32>
    %84 = stablehlo.broadcast_in_dim %83, dims = [0, 1, 2] : (tensor<2x32x1xf32>) -> tensor<2x32x128xf32>
    %85 = stablehlo.broadcast_in_dim %79, dims = [0, 1, 2] : (tensor<1x1x128xf32>) -> tensor<2x32x128xf32>
    %86 = stablehlo.multiply %84, %85 : tensor<2x32x128xf32>
    %87 = stablehlo.negate %77 : tensor<2x32x1xf32>
    %88 = stablehlo.broadcast_in_dim %87, dims = [0, 1, 2] : (tensor<2x32x1xf32>) -> tensor<2x32x128xf32>
    %89 = stablehlo.multiply %88, %86 : tensor<2x32x128xf32>
    %90 = stablehlo.broadcast_in_dim %80, dims = [0, 1, 2] : (tensor<1x1x128xf32>) -> tensor<2x32x128xf32>
    %91 = stablehlo.add %89, %90 : tensor<2x32x128xf32>
    %92 = stablehlo.multiply %73, %86 : tensor<2x32x128xf32>
    %93 = stablehlo.add %92, %91 : tensor<2x32x128xf32>
    %94 = stablehlo.dot_general %93, %arg17, contracting_dims = [2] x [0] : (tensor<2x32x128xf32>, tensor<128x512xf32>) -> tensor<2x32x512xf32>
    %95 = stablehlo.broadcast_in_dim %arg18, dims = [2] : (tensor<512xf32>) -> tensor<1x1x512xf32>
    %96 = stablehlo.broadcast_in_dim %95, dims = [0, 1, 2] : (tensor<1x1x512xf32>) -> tensor<2x32x512xf32>
    %97 = stablehlo.add %94, %96 : tensor<2x32x512xf32>
    %98 = stablehlo.multiply %97, %97 : tensor<2x32x512xf32>
    %99 = stablehlo.multiply %98, %97 : tensor<2x32x512xf32>
    %100 = stablehlo.broadcast_in_dim %cst_2, dims = [] : (tensor<f32>) -> tensor<2x32x512xf32>
    %101 = stablehlo.multiply %100, %99 : tensor<2x32x512xf32>
    %102 = stablehlo.add %97, %101 : tensor<2x32x512xf32>
    %103 = stablehlo.broadcast_in_dim %cst_1, dims = [] : (tensor<f32>) -> tensor<2x32x512xf32>
    %104 = stablehlo.multiply %103, %102 : tensor<2x32x512xf32>
    %105 = stablehlo.tanh %104 : tensor<2x32x512xf32>
    %106 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<f32>) -> tensor<2x32x512xf32>
    %107 = stablehlo.add %106, %105 : tensor<2x32x512xf32>
    %108 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<2x32x512xf32>
    %109 = stablehlo.multiply %108, %107 : tensor<2x32x512xf32>
    %110 = stablehlo.multiply %97, %109 : tensor<2x32x512xf32>
    %111 = stablehlo.dot_general %110, %arg19, contracting_dims = [2] x [0] : (tensor<2x32x512xf32>, tensor<512x128xf32>) -> tensor<2x32x128xf32>
    %112 = stablehlo.broadcast_in_dim %arg20, dims = [2] : (tensor<128xf32>) -> tensor<1x1x128xf32>
    %113 = stablehlo.broadcast_in_dim %112, dims = [0, 1, 2] : (tensor<1x1x128xf32>) -> tensor<2x32x128xf32>
    %114 = stablehlo.add %111, %113 : tensor<2x32x128xf32>
    %115 = stablehlo.add %114, %93 : tensor<2x32x128xf32>
    %116 = stablehlo.reduce(%115 init: %cst_8) applies stablehlo.add across dimensions = [2] : (tensor<2x32x128xf32>, tensor<f32>) -> tensor<2x32xf32>
    %117 = stablehlo.broadcast_in_dim %116, dims = [0, 1] : (tensor<2x32xf32>) -> tensor<2x32x1xf32>
    %118 = stablehlo.broadcast_in_dim %cst_7, dims = [] : (tensor<f32>) -> tensor<2x32x1xf32>
    %119 = stablehlo.divide %117, %118 : tensor<2x32x1xf32>
    %120 = call @_var(%115, %c_9) : (tensor<2x32x128xf32>, tensor<i32>) -> tensor<2x32x1xf32>
    %121 = stablehlo.reshape %arg15 : (tensor<128xf32>) -> tensor<1x1x128xf32>
    %122 = stablehlo.reshape %arg16 : (tensor<128xf32>) -> tensor<1x1x128xf32>
    %123 = stablehlo.broadcast_in_dim %cst_6, dims = [] : (tensor<f32>) -> tensor<2x32x1xf32>
    %124 = stablehlo.add %120, %123 : tensor<2x32x1xf32>
    %125 = stablehlo.rsqrt %124 : tensor<2x32x1xf32>
    %126 = stablehlo.broadcast_in_dim %125, dims = [0, 1, 2] : (tensor<2x32x1xf32>) -> tensor<2x32x128xf32>
    %127 = stablehlo.broadcast_in_dim %121, dims = [0, 1, 2] : (tensor<1x1x128xf32>) -> tensor<2x32x128xf32>
    %128 = stablehlo.multiply %126, %127 : tensor<2x32x128xf32>
    %129 = stablehlo.negate %119 : tensor<2x32x1xf32>
    %130 = stablehlo.broadcast_in_dim %129, dims = [0, 1, 2] : (tensor<2x32x1xf32>) -> tensor<2x32x128xf32>
    %131 = stablehlo.multiply %130, %128 : tensor<2x32x128xf32>
    %132 = stablehlo.broadcast_in_dim %122, dims = [0, 1, 2] : (tensor<1x1x128xf32>) -> tensor<2x32x128xf32>
    %133 = stablehlo.add %131, %132 : tensor<2x32x128xf32>
    %134 = stablehlo.multiply %115, %128 : tensor<2x32x128xf32>
    %135 = stablehlo.add %134, %133 : tensor<2x32x128xf32>
    %136 = stablehlo.broadcast_in_dim %arg39, dims = [0, 2] : (tensor<2x32xi32>) -> tensor<2x1x32xi32>
    %137 = stablehlo.broadcast_in_dim %c_9, dims = [] : (tensor<i32>) -> tensor<2x1x32xi32>
    %138 = stablehlo.compare NE, %136, %137, SIGNED : (tensor<2x1x32xi32>, tensor<2x1x32xi32>) -> tensor<2x1x32xi1>
    %139 = stablehlo.convert %138 : tensor<2x1x32xi1>
    %140 = stablehlo.dot_general %135, %arg21, contracting_dims = [2] x [0] : (tensor<2x32x128xf32>, tensor<128x2x64xf32>) -> tensor<2x32x2x64xf32>
    %141 = stablehlo.broadcast_in_dim %arg22, dims = [2, 3] : (tensor<2x64xf32>) -> tensor<1x1x2x64xf32>
    %142 = stablehlo.broadcast_in_dim %141, dims = [0, 1, 2, 3] : (tensor<1x1x2x64xf32>) -> tensor<2x32x2x64xf32>
    %143 = stablehlo.add %140, %142 : tensor<2x32x2x64xf32>
    %144 = stablehlo.dot_general %135, %arg23, contracting_dims = [2] x [0] : (tensor<2x32x128xf32>, tensor<128x2x64xf32>) -> tensor<2x32x2x64xf32>
    %145 = stablehlo.broadcast_in_dim %arg24, dims = [2, 3] : (tensor<2x64xf32>) -> tensor<1x1x2x64xf32>
    %146 = stablehlo.broadcast_in_dim %145, dims = [0, 1, 2, 3] : (tensor<1x1x2x64xf32>) -> tensor<2x32x2x64xf32>
    %147 = stablehlo.add %144, %146 : tensor<2x32x2x64xf32>
    %148 = stablehlo.dot_general %135, %arg25, contracting_dims = [2] x [0] : (tensor<2x32x128xf32>, tensor<128x2x64xf32>) -> tensor<2x32x2x64xf32>
    %149 = stablehlo.broadcast_in_dim %arg26, dims = [2, 3] : (tensor<2x64xf32>) -> tensor<1x1x2x64xf32>
    %150 = stablehlo.broadcast_in_dim %149, dims = [0, 1, 2, 3] : (tensor<1x1x2x64xf32>) -> tensor<2x32x2x64xf32>
    %151 = stablehlo.add %148, %150 : tensor<2x32x2x64xf32>
    %152 = stablehlo.broadcast_in_dim %139, dims = [0, 2, 3] : (tensor<2x1x32xi1>) -> tensor<2x1x1x32xi1>
    %153 = stablehlo.reshape %143 : (tensor<2x32x2x64xf32>) -> tensor<2x32x2x1x64xf32>
    %154 = stablehlo.broadcast_in_dim %152, dims = [0, 1, 3, 4] : (tensor<2x1x1x32xi1>) -> tensor<2x1x1x1x32xi1>
    %155 = stablehlo.dot_general %153, %147, batching_dims = [0, 2] x [0, 2], contracting_dims = [4] x [3] : (tensor<2x32x2x1x64xf32>, tensor<2x32x2x64xf32>) -> tensor<2x2x32x1x32xf32>
    %156 = stablehlo.broadcast_in_dim %cst_5, dims = [] : (tensor<f32>) -> tensor<2x2x32x1x32xf32>
    %157 = stablehlo.multiply %155, %156 : tensor<2x2x32x1x32xf32>
    %158 = stablehlo.broadcast_in_dim %c, dims = [] : (tensor<i1>) -> tensor<2x2x32x32xi1>
    %159 = stablehlo.broadcast_in_dim %158, dims = [1, 2, 3, 4] : (tensor<2x2x32x32xi1>) -> tensor<1x2x2x32x32xi1>
    %160 = stablehlo.transpose %154, dims = [2, 0, 1, 3, 4] : (tensor<2x1x1x1x32xi1>) -> tensor<1x2x1x1x32xi1>
    %161 = stablehlo.broadcast_in_dim %160, dims = [0, 1, 2, 3, 4] : (tensor<1x2x1x1x32xi1>) -> tensor<1x2x2x32x32xi1>
    %162 = stablehlo.and %159, %161 : tensor<1x2x2x32x32xi1>
    %163 = call @_where_2(%162, %157, %cst_4) : (tensor<1x2x2x32x32xi1>, tensor<2x2x32x1x32xf32>, tensor<f32>) -> tensor<1x2x2x32x32xf32>
    %164 = stablehlo.reduce(%163 init: %cst_3) applies stablehlo.maximum across dimensions = [4] : (tensor<1x2x2x32x32xf32>, tensor<f32>) -> tensor<1x2x2x32xf32>
    %165 = stablehlo.broadcast_in_dim %cst_3, dims = [] : (tensor<f32>) -> tensor<1x2x2x32xf32>
    %166 = stablehlo.maximum %165, %164 : tensor<1x2x2x32xf32>
    %167 = stablehlo.broadcast_in_dim %166, dims = [0, 1, 2, 3] : (tensor<1x2x2x32xf32>) -> tensor<1x2x2x32x1xf32>
    %168 = stablehlo.broadcast_in_dim %167, dims = [0, 1, 2, 3, 4] : (tensor<1x2x2x32x1xf32>) -> tensor<1x2x2x32x32xf32>
    %169 = stablehlo.subtract %163, %168 : tensor<1x2x2x32x32xf32>
    %170 = stablehlo.exponential %169 : tensor<1x2x2x32x32xf32>
    %171 = stablehlo.reduce(%170 init: %cst_8) applies stablehlo.add across dimensions = [4] : (tensor<1x2x2x32x32xf32>, tensor<f32>) -> tensor<1x2x2x32xf32>
    %172 = stablehlo.broadcast_in_dim %171, dims = [0, 1, 2, 3] : (tensor<1x2x2x32xf32>) -> tensor<1x2x2x32x1xf32>
    %173 = stablehlo.broadcast_in_dim %172, dims = [0, 1, 2, 3, 4] : (tensor<1x2x2x32x1xf32>) -> tensor<1x2x2x32x32xf32>
    %174 = stablehlo.divide %170, %173 : tensor<1x2x2x32x32xf32>
    %175 = stablehlo.dot_general %151, %174, batching_dims = [0, 2] x [1, 2], contracting_dims = [1] x [4] : (tensor<2x32x2x64xf32>, tensor<1x2x2x32x32xf32>) -> tensor<2x2x64x1x32xf32>
    %176 = stablehlo.transpose %175, dims = [3, 0, 4, 1, 2] : (tensor<2x2x64x1x32xf32>) -> tensor<1x2x32x2x64xf32>
    %177 = stablehlo.transpose %176, dims = [1, 2, 3, 0, 4] : (tensor<1x2x32x2x64xf32>) -> tensor<2x32x2x1x64xf32>
    %178 = stablehlo.reshape %177 : (tensor<2x32x2x1x64xf32>) -> tensor<2x32x2x64xf32>
    %179 = stablehlo.dot_general %178, %arg27, contracting_dims = [2, 3] x [0, 1] : (tensor<2x32x2x64xf32>, tensor<2x64x128xf32>) -> tensor<2x32x128xf32>
    %180 = stablehlo.broadcast_in_dim %arg28, dims = [2] : (tensor<128xf32>) -> tensor<1x1x128xf32>
    %181 = stablehlo.broadcast_in_dim %180, dims = [0, 1, 2] : (tensor<1x1x128xf32>) -> tensor<2x32x128xf32>
    %182 = stablehlo.add %179, %181 : tensor<2x32x128xf32>
    %183 = stablehlo.add %182, %135 : tensor<2x32x128xf32>
    %184 = stablehlo.reduce(%183 init: %cst_8) applies stablehlo.add across dimensions = [2] : (tensor<2x32x128xf32>, tensor<f32>) -> tensor<2x32xf32>
    %185 = stablehlo.broadcast_in_dim %184, dims = [0, 1] : (tensor<2x32xf32>) -> tensor<2x32x1xf32>
    %186 = stablehlo.broadcast_in_dim %cst_7, dims = [] : (tensor<f32>) -> tensor<2x32x1xf32>
    %187 = stablehlo.divide %185, %186 : tensor<2x32x1xf32>
    %188 = call @_var(%183, %c_9) : (tensor<2x32x128xf32>, tensor<i32>) -> tensor<2x32x1xf32>
    %189 = stablehlo.reshape %arg29 : (tensor<128xf32>) -> tensor<1x1x128xf32>
    %190 = stablehlo.reshape %arg30 : (tensor<128xf32>) -> tensor<1x1x128xf32>
    %191 = stablehlo.broadcast_in_dim %cst_6, dims = [] : (tensor<f32>) -> tensor<2x32x1xf32>
    %192 = stablehlo.add %188, %191 : tensor<2x32x1xf32>
    %193 = stablehlo.rsqrt %192 : tensor<2x32x1xf32>
    %194 = stablehlo.broadcast_in_dim %193, dims = [0, 1, 2] : (tensor<2x32x1xf32>) -> tensor<2x32x128xf32>
    %195 = stablehlo.broadcast_in_dim %189, dims = [0, 1, 2] : (tensor<1x1x128xf32>) -> tensor<2x32x128xf32>
    %196 = stablehlo.multiply %194, %195 : tensor<2x32x128xf32>
    %197 = stablehlo.negate %187 : tensor<2x32x1xf32>
    %198 = stablehlo.broadcast_in_dim %197, dims = [0, 1, 2] : (tensor<2x32x1xf32>) -> tensor<2x32x128xf32>
    %199 = stablehlo.multiply %198, %196 : tensor<2x32x128xf32>
    %200 = stablehlo.broadcast_in_dim %190, dims = [0, 1, 2] : (tensor<1x1x128xf32>) -> tensor<2x32x128xf32>
    %201 = stablehlo.add %199, %200 : tensor<2x32x128xf32>
    %202 = stablehlo.multiply %183, %196 : tensor<2x32x128xf32>
    %203 = stablehlo.add %202, %201 : tensor<2x32x128xf32>
    %204 = stablehlo.dot_general %203, %arg33, contracting_dims = [2] x [0] : (tensor<2x32x128xf32>, tensor<128x512xf32>) -> tensor<2x32x512xf32>
    %205 = stablehlo.broadcast_in_dim %arg34, dims = [2] : (tensor<512xf32>) -> tensor<1x1x512xf32>
    %206 = stablehlo.broadcast_in_dim %205, dims = [0, 1, 2] : (tensor<1x1x512xf32>) -> tensor<2x32x512xf32>
    %207 = stablehlo.add %204, %206 : tensor<2x32x512xf32>
    %208 = stablehlo.multiply %207, %207 : tensor<2x32x512xf32>
    %209 = stablehlo.multiply %208, %207 : tensor<2x32x512xf32>
    %210 = stablehlo.broadcast_in_dim %cst_2, dims = [] : (tensor<f32>) -> tensor<2x32x512xf32>
    %211 = stablehlo.multiply %210, %209 : tensor<2x32x512xf32>
    %212 = stablehlo.add %207, %211 : tensor<2x32x512xf32>
    %213 = stablehlo.broadcast_in_dim %cst_1, dims = [] : (tensor<f32>) -> tensor<2x32x512xf32>
    %214 = stablehlo.multiply %213, %212 : tensor<2x32x512xf32>
    %215 = stablehlo.tanh %214 : tensor<2x32x512xf32>
    %216 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<f32>) -> tensor<2x32x512xf32>
    %217 = stablehlo.add %216, %215 : tensor<2x32x512xf32>
    %218 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<2x32x512xf32>
    %219 = stablehlo.multiply %218, %217 : tensor<2x32x512xf32>
    %220 = stablehlo.multiply %207, %219 : tensor<2x32x512xf32>
    %221 = stablehlo.dot_general %220, %arg35, contracting_dims = [2] x [0] : (tensor<2x32x512xf32>, tensor<512x128xf32>) -> tensor<2x32x128xf32>
    %222 = stablehlo.broadcast_in_dim %arg36, dims = [2] : (tensor<128xf32>) -> tensor<1x1x128xf32>
    %223 = stablehlo.broadcast_in_dim %222, dims = [0, 1, 2] : (tensor<1x1x128xf32>) -> tensor<2x32x128xf32>
    %224 = stablehlo.add %221, %223 : tensor<2x32x128xf32>
    %225 = stablehlo.add %224, %203 : tensor<2x32x128xf32>
    %226 = stablehlo.reduce(%225 init: %cst_8) applies stablehlo.add across dimensions = [2] : (tensor<2x32x128xf32>, tensor<f32>) -> tensor<2x32xf32>
    %227 = stablehlo.broadcast_in_dim %226, dims = [0, 1] : (tensor<2x32xf32>) -> tensor<2x32x1xf32>
    %228 = stablehlo.broadcast_in_dim %cst_7, dims = [] : (tensor<f32>) -> tensor<2x32x1xf32>
    %229 = stablehlo.divide %227, %228 : tensor<2x32x1xf32>
    %230 = call @_var(%225, %c_9) : (tensor<2x32x128xf32>, tensor<i32>) -> tensor<2x32x1xf32>
    %231 = stablehlo.reshape %arg31 : (tensor<128xf32>) -> tensor<1x1x128xf32>
    %232 = stablehlo.reshape %arg32 : (tensor<128xf32>) -> tensor<1x1x128xf32>
    %233 = stablehlo.broadcast_in_dim %cst_6, dims = [] : (tensor<f32>) -> tensor<2x32x1xf32>
    %234 = stablehlo.add %230, %233 : tensor<2x32x1xf32>
    %235 = stablehlo.rsqrt %234 : tensor<2x32x1xf32>
    %236 = stablehlo.broadcast_in_dim %235, dims = [0, 1, 2] : (tensor<2x32x1xf32>) -> tensor<2x32x128xf32>
    %237 = stablehlo.broadcast_in_dim %231, dims = [0, 1, 2] : (tensor<1x1x128xf32>) -> tensor<2x32x128xf32>
    %238 = stablehlo.multiply %236, %237 : tensor<2x32x128xf32>
    %239 = stablehlo.negate %229 : tensor<2x32x1xf32>
    %240 = stablehlo.broadcast_in_dim %239, dims = [0, 1, 2] : (tensor<2x32x1xf32>) -> tensor<2x32x128xf32>
    %241 = stablehlo.multiply %240, %238 : tensor<2x32x128xf32>
    %242 = stablehlo.broadcast_in_dim %232, dims = [0, 1, 2] : (tensor<1x1x128xf32>) -> tensor<2x32x128xf32>
    %243 = stablehlo.add %241, %242 : tensor<2x32x128xf32>
    %244 = stablehlo.multiply %225, %238 : tensor<2x32x128xf32>
    %245 = stablehlo.add %244, %243 : tensor<2x32x128xf32>
    %246 = stablehlo.slice %245 [0:2, 0:1, 0:128] : (tensor<2x32x128xf32>) -> tensor<2x1x128xf32>
    %247 = stablehlo.reshape %246 : (tensor<2x1x128xf32>) -> tensor<2x128xf32>
    %248 = stablehlo.dot_general %247, %arg37, contracting_dims = [1] x [0] : (tensor<2x128xf32>, tensor<128x128xf32>) -> tensor<2x128xf32>
    %249 = stablehlo.broadcast_in_dim %arg38, dims = [1] : (tensor<128xf32>) -> tensor<1x128xf32>
    %250 = stablehlo.broadcast_in_dim %249, dims = [0, 1] : (tensor<1x128xf32>) -> tensor<2x128xf32>
    %251 = stablehlo.add %248, %250 : tensor<2x128xf32>
    %252 = stablehlo.tanh %251 : tensor<2x128xf32>
    return %252, %245 : tensor<2x128xf32>, tensor<2x32x128xf32>
  }
  func.func private @_take(%arg0: tensor<1000x128xf32>, %arg1: tensor<2x32xi32>) -> tensor<2x32x128xf32> {
    %cst = stablehlo.constant dense<0x7FC00000> : tensor<f32>
    %c = stablehlo.constant dense<true> : tensor<i1>
    %c_0 = stablehlo.constant dense<999> : tensor<1xi32>
    %c_1 = stablehlo.constant dense<1000> : tensor<i32>
    %c_2 = stablehlo.constant dense<0> : tensor<i32>
    %0 = stablehlo.broadcast_in_dim %c_2, dims = [] : (tensor<i32>) -> tensor<2x32xi32>
    %1 = stablehlo.compare LT, %arg1, %0, SIGNED : (tensor<2x32xi32>, tensor<2x32xi32>) -> tensor<2x32xi1>
    %2 = stablehlo.broadcast_in_dim %c_1, dims = [] : (tensor<i32>) -> tensor<2x32xi32>
    %3 = stablehlo.add %arg1, %2 : tensor<2x32xi32>
    %4 = call @_where(%1, %3, %arg1) : (tensor<2x32xi1>, tensor<2x32xi32>, tensor<2x32xi32>) -> tensor<2x32xi32>
    %5 = stablehlo.broadcast_in_dim %4, dims = [0, 1] : (tensor<2x32xi32>) -> tensor<2x32x1xi32>
    %6 = stablehlo.broadcast_in_dim %c_2, dims = [] : (tensor<i32>) -> tensor<2x32x1xi32>
    %7 = stablehlo.compare GE, %5, %6, SIGNED : (tensor<2x32x1xi32>, tensor<2x32x1xi32>) -> tensor<2x32x1xi1>
    %8 = stablehlo.broadcast_in_dim %c_0, dims = [2] : (tensor<1xi32>) -> tensor<1x1x1xi32>
    %9 = stablehlo.broadcast_in_dim %8, dims = [0, 1, 2] : (tensor<1x1x1xi32>) -> tensor<2x32x1xi32>
    %10 = stablehlo.compare LE, %5, %9, SIGNED : (tensor<2x32x1xi32>, tensor<2x32x1xi32>) -> tensor<2x32x1xi1>
    %11 = stablehlo.and %7, %10 : tensor<2x32x1xi1>
    %12 = stablehlo.reduce(%11 init: %c) applies stablehlo.and across dimensions = [2] : (tensor<2x32x1xi1>, tensor<i1>) -> tensor<2x32xi1>
    %13 = "stablehlo.gather"(%arg0, %5) <{dimension_numbers = #stablehlo.gather<offset_dims = [2], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 2>, slice_sizes = array<i64: 1, 128>}> : (tensor<1000x128xf32>, tensor<2x32x1xi32>) -> tensor<2x32x128xf32>
    %14 = stablehlo.broadcast_in_dim %12, dims = [0, 1] : (tensor<2x32xi1>) -> tensor<2x32x128xi1>
    %15 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<2x32x128xf32>
    %16 = stablehlo.select %14, %13, %15 : tensor<2x32x128xi1>, tensor<2x32x128xf32>
    return %16 : tensor<2x32x128xf32>
  }
  func.func private @_where(%arg0: tensor<2x32xi1>, %arg1: tensor<2x32xi32>, %arg2: tensor<2x32xi32>) -> tensor<2x32xi32> {
    %0 = stablehlo.select %arg0, %arg1, %arg2 : tensor<2x32xi1>, tensor<2x32xi32>
    return %0 : tensor<2x32xi32>
  }
  func.func private @_take_0(%arg0: tensor<2x128xf32>, %arg1: tensor<2x32xi32>) -> tensor<2x32x128xf32> {
    %cst = stablehlo.constant dense<0x7FC00000> : tensor<f32>
    %c = stablehlo.constant dense<true> : tensor<i1>
    %c_0 = stablehlo.constant dense<1> : tensor<1xi32>
    %c_1 = stablehlo.constant dense<2> : tensor<i32>
    %c_2 = stablehlo.constant dense<0> : tensor<i32>
    %0 = stablehlo.broadcast_in_dim %c_2, dims = [] : (tensor<i32>) -> tensor<2x32xi32>
    %1 = stablehlo.compare LT, %arg1, %0, SIGNED : (tensor<2x32xi32>, tensor<2x32xi32>) -> tensor<2x32xi1>
    %2 = stablehlo.broadcast_in_dim %c_1, dims = [] : (tensor<i32>) -> tensor<2x32xi32>
    %3 = stablehlo.add %arg1, %2 : tensor<2x32xi32>
    %4 = call @_where(%1, %3, %arg1) : (tensor<2x32xi1>, tensor<2x32xi32>, tensor<2x32xi32>) -> tensor<2x32xi32>
    %5 = stablehlo.broadcast_in_dim %4, dims = [0, 1] : (tensor<2x32xi32>) -> tensor<2x32x1xi32>
    %6 = stablehlo.broadcast_in_dim %c_2, dims = [] : (tensor<i32>) -> tensor<2x32x1xi32>
    %7 = stablehlo.compare GE, %5, %6, SIGNED : (tensor<2x32x1xi32>, tensor<2x32x1xi32>) -> tensor<2x32x1xi1>
    %8 = stablehlo.broadcast_in_dim %c_0, dims = [2] : (tensor<1xi32>) -> tensor<1x1x1xi32>
    %9 = stablehlo.broadcast_in_dim %8, dims = [0, 1, 2] : (tensor<1x1x1xi32>) -> tensor<2x32x1xi32>
    %10 = stablehlo.compare LE, %5, %9, SIGNED : (tensor<2x32x1xi32>, tensor<2x32x1xi32>) -> tensor<2x32x1xi1>
    %11 = stablehlo.and %7, %10 : tensor<2x32x1xi1>
    %12 = stablehlo.reduce(%11 init: %c) applies stablehlo.and across dimensions = [2] : (tensor<2x32x1xi1>, tensor<i1>) -> tensor<2x32xi1>
    %13 = "stablehlo.gather"(%arg0, %5) <{dimension_numbers = #stablehlo.gather<offset_dims = [2], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 2>, slice_sizes = array<i64: 1, 128>}> : (tensor<2x128xf32>, tensor<2x32x1xi32>) -> tensor<2x32x128xf32>
    %14 = stablehlo.broadcast_in_dim %12, dims = [0, 1] : (tensor<2x32xi1>) -> tensor<2x32x128xi1>
    %15 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<2x32x128xf32>
    %16 = stablehlo.select %14, %13, %15 : tensor<2x32x128xi1>, tensor<2x32x128xf32>
    return %16 : tensor<2x32x128xf32>
  }
  func.func private @_var(%arg0: tensor<2x32x128xf32>, %arg1: tensor<i32>) -> tensor<2x32x1xf32> {
    %cst = stablehlo.constant dense<0x7FC00000> : tensor<f32>
    %cst_0 = stablehlo.constant dense<1.280000e+02> : tensor<f32>
    %cst_1 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %0 = stablehlo.reduce(%arg0 init: %cst_1) applies stablehlo.add across dimensions = [2] : (tensor<2x32x128xf32>, tensor<f32>) -> tensor<2x32xf32>
    %1 = stablehlo.broadcast_in_dim %0, dims = [0, 1] : (tensor<2x32xf32>) -> tensor<2x32x1xf32>
    %2 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<f32>) -> tensor<2x32x1xf32>
    %3 = stablehlo.divide %1, %2 : tensor<2x32x1xf32>
    %4 = stablehlo.broadcast_in_dim %3, dims = [0, 1, 2] : (tensor<2x32x1xf32>) -> tensor<2x32x128xf32>
    %5 = stablehlo.subtract %arg0, %4 : tensor<2x32x128xf32>
    %6 = stablehlo.multiply %5, %5 : tensor<2x32x128xf32>
    %7 = stablehlo.convert %arg1 : (tensor<i32>) -> tensor<f32>
    %8 = stablehlo.subtract %cst_0, %7 : tensor<f32>
    %9 = stablehlo.reduce(%6 init: %cst_1) applies stablehlo.add across dimensions = [2] : (tensor<2x32x128xf32>, tensor<f32>) -> tensor<2x32xf32>
    %10 = stablehlo.broadcast_in_dim %9, dims = [0, 1] : (tensor<2x32xf32>) -> tensor<2x32x1xf32>
    %11 = stablehlo.broadcast_in_dim %8, dims = [] : (tensor<f32>) -> tensor<2x32x1xf32>
    %12 = stablehlo.divide %10, %11 : tensor<2x32x1xf32>
    %13 = stablehlo.compare GT, %8, %cst_1, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
    %14 = call @_where_1(%13, %12, %cst) : (tensor<i1>, tensor<2x32x1xf32>, tensor<f32>) -> tensor<2x32x1xf32>
    return %14 : tensor<2x32x1xf32>
  }
  func.func private @_where_1(%arg0: tensor<i1>, %arg1: tensor<2x32x1xf32>, %arg2: tensor<f32>) -> tensor<2x32x1xf32> {
    %0 = stablehlo.convert %arg2 : tensor<f32>
    %1 = stablehlo.broadcast_in_dim %0, dims = [] : (tensor<f32>) -> tensor<2x32x1xf32>
    %2 = stablehlo.select %arg0, %arg1, %1 : tensor<i1>, tensor<2x32x1xf32>
    return %2 : tensor<2x32x1xf32>
  }
  func.func private @_where_2(%arg0: tensor<1x2x2x32x32xi1>, %arg1: tensor<2x2x32x1x32xf32>, %arg2: tensor<f32>) -> tensor<1x2x2x32x32xf32> {
    %0 = stablehlo.broadcast_in_dim %arg2, dims = [] : (tensor<f32>) -> tensor<2x2x32x32xf32>
    %1 = stablehlo.broadcast_in_dim %0, dims = [1, 2, 3, 4] : (tensor<2x2x32x32xf32>) -> tensor<1x2x2x32x32xf32>
    %2 = stablehlo.transpose %arg1, dims = [3, 0, 1, 2, 4] : (tensor<2x2x32x1x32xf32>) -> tensor<1x2x2x32x32xf32>
    %3 = stablehlo.select %arg0, %2, %1 : tensor<1x2x2x32x32xi1>, tensor<1x2x2x32x32xf32>
    return %3 : tensor<1x2x2x32x32xf32>
  }
}
