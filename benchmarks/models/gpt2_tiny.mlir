module @jit_fn attributes {jax.uses_shape_polymorphism = false, mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<1000x128xf32>, %arg1: tensor<32x128xf32>, %arg2: tensor<128x2x64xf32>, %arg3: tensor<2x64xf32>, %arg4: tensor<128x2x64xf32>, %arg5: tensor<2x64xf32>, %arg6: tensor<128x2x64xf32>, %arg7: tensor<2x64xf32>, %arg8: tensor<2x64x128xf32>, %arg9: tensor<128xf32>, %arg10: tensor<128xf32>, %arg11: tensor<128xf32>, %arg12: tensor<128x512xf32>, %arg13: tensor<512xf32>, %arg14: tensor<512x128xf32>, %arg15: tensor<128xf32>, %arg16: tensor<128xf32>, %arg17: tensor<128xf32>, %arg18: tensor<128x2x64xf32>, %arg19: tensor<2x64xf32>, %arg20: tensor<128x2x64xf32>, %arg21: tensor<2x64xf32>, %arg22: tensor<128x2x64xf32>, %arg23: tensor<2x64xf32>, %arg24: tensor<2x64x128xf32>, %arg25: tensor<128xf32>, %arg26: tensor<128xf32>, %arg27: tensor<128xf32>, %arg28: tensor<128x512xf32>, %arg29: tensor<512xf32>, %arg30: tensor<512x128xf32>, %arg31: tensor<128xf32>, %arg32: tensor<128xf32>, %arg33: tensor<128xf32>, %arg34: tensor<128xf32>, %arg35: tensor<128xf32>, %arg36: tensor<2x32xi32>, %arg37: tensor<2x32xi32>) -> (tensor<2x32x1000xf32> {jax.result_info = "result"}) {
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
    %0 = call @_take(%arg0, %arg37) : (tensor<1000x128xf32>, tensor<2x32xi32>) -> tensor<2x32x128xf32>
    %1 = stablehlo.dynamic_slice %arg1, %c_9, %c_9, sizes = [32, 128] : (tensor<32x128xf32>, tensor<i32>, tensor<i32>) -> tensor<32x128xf32>
    %2 = stablehlo.broadcast_in_dim %1, dims = [1, 2] : (tensor<32x128xf32>) -> tensor<2x32x128xf32>
    %3 = stablehlo.add %0, %2 : tensor<2x32x128xf32>
    %4 = stablehlo.broadcast_in_dim %arg36, dims = [0, 2] : (tensor<2x32xi32>) -> tensor<2x1x32xi32>
    %5 = stablehlo.iota dim = 0 : tensor<32xf32>
    %6 = stablehlo.broadcast_in_dim %cst_8, dims = [] : (tensor<f32>) -> tensor<32xf32>
    %7 = stablehlo.add %5, %6 : tensor<32xf32>
    %8 = stablehlo.broadcast_in_dim %7, dims = [0] : (tensor<32xf32>) -> tensor<32x1xf32>
    %9 = stablehlo.iota dim = 0 : tensor<32xf32>
    %10 = stablehlo.broadcast_in_dim %9, dims = [1] : (tensor<32xf32>) -> tensor<1x32xf32>
    %11 = stablehlo.broadcast_in_dim %8, dims = [0, 1] : (tensor<32x1xf32>) -> tensor<32x32xf32>
    %12 = stablehlo.broadcast_in_dim %10, dims = [0, 1] : (tensor<1x32xf32>) -> tensor<32x32xf32>
    %13 = stablehlo.compare GE, %11, %12, FLOAT : (tensor<32x32xf32>, tensor<32x32xf32>) -> tensor<32x32xi1>
    %14 = stablehlo.broadcast_in_dim %13, dims = [1, 2] : (tensor<32x32xi1>) -> tensor<1x32x32xi1>
    %15 = stablehlo.broadcast_in_dim %14, dims = [0, 1, 2] : (tensor<1x32x32xi1>) -> tensor<2x32x32xi1>
    %16 = stablehlo.convert %15 : (tensor<2x32x32xi1>) -> tensor<2x32x32xi32>
    %17 = stablehlo.broadcast_in_dim %4, dims = [0, 1, 2] : (tensor<2x1x32xi32>) -> tensor<2x32x32xi32>
    %18 = stablehlo.minimum %17, %16 : tensor<2x32x32xi32>
    %19 = stablehlo.reduce(%3 init: %cst_8) applies stablehlo.add across dimensions = [2] : (tensor<2x32x128xf32>, tensor<f32>) -> tensor<2x32xf32>
    %20 = stablehlo.broadcast_in_dim %19, dims = [0, 1] : (tensor<2x32xf32>) -> tensor<2x32x1xf32>
    %21 = stablehlo.broadcast_in_dim %cst_7, dims = [] : (tensor<f32>) -> tensor<2x32x1xf32>
    %22 = stablehlo.divide %20, %21 : tensor<2x32x1xf32>
    %23 = call @_var(%3, %c_9) : (tensor<2x32x128xf32>, tensor<i32>) -> tensor<2x32x1xf32>
    %24 = stablehlo.reshape %arg10 : (tensor<128xf32>) -> tensor<1x1x128xf32>
    %25 = stablehlo.reshape %arg11 : (tensor<128xf32>) -> tensor<1x1x128xf32>
    %26 = stablehlo.broadcast_in_dim %cst_6, dims = [] : (tensor<f32>) -> tensor<2x32x1xf32>
    %27 = stablehlo.add %23, %26 : tensor<2x32x1xf32>
    %28 = stablehlo.rsqrt %27 : tensor<2x32x1xf32>
    %29 = stablehlo.broadcast_in_dim %28, dims = [0, 1, 2] : (tensor<2x32x1xf32>) -> tensor<2x32x128xf32>
    %30 = stablehlo.broadcast_in_dim %24, dims = [0, 1, 2] : (tensor<1x1x128xf32>) -> tensor<2x32x128xf32>
    %31 = stablehlo.multiply %29, %30 : tensor<2x32x128xf32>
    %32 = stablehlo.negate %22 : tensor<2x32x1xf32>
    %33 = stablehlo.broadcast_in_dim %32, dims = [0, 1, 2] : (tensor<2x32x1xf32>) -> tensor<2x32x128xf32>
    %34 = stablehlo.multiply %33, %31 : tensor<2x32x128xf32>
    %35 = stablehlo.broadcast_in_dim %25, dims = [0, 1, 2] : (tensor<1x1x128xf32>) -> tensor<2x32x128xf32>
    %36 = stablehlo.add %34, %35 : tensor<2x32x128xf32>
    %37 = stablehlo.multiply %3, %31 : tensor<2x32x128xf32>
    %38 = stablehlo.add %37, %36 : tensor<2x32x128xf32>
    %39 = stablehlo.dot_general %38, %arg2, contracting_dims = [2] x [0] : (tensor<2x32x128xf32>, tensor<128x2x64xf32>) -> tensor<2x32x2x64xf32>
    %40 = stablehlo.broadcast_in_dim %arg3, dims = [2, 3] : (tensor<2x64xf32>) -> tensor<1x1x2x64xf32>
    %41 = stablehlo.broadcast_in_dim %40, dims = [0, 1, 2, 3] : (tensor<1x1x2x64xf32>) -> tensor<2x32x2x64xf32>
    %42 = stablehlo.add %39, %41 : tensor<2x32x2x64xf32>
    %43 = stablehlo.dot_general %38, %arg4, contracting_dims = [2] x [0] : (tensor<2x32x128xf32>, tensor<128x2x64xf32>) -> tensor<2x32x2x64xf32>
    %44 = stablehlo.broadcast_in_dim %arg5, dims = [2, 3] : (tensor<2x64xf32>) -> tensor<1x1x2x64xf32>
    %45 = stablehlo.broadcast_in_dim %44, dims = [0, 1, 2, 3] : (tensor<1x1x2x64xf32>) -> tensor<2x32x2x64xf32>
    %46 = stablehlo.add %43, %45 : tensor<2x32x2x64xf32>
    %47 = stablehlo.dot_general %38, %arg6, contracting_dims = [2] x [0] : (tensor<2x32x128xf32>, tensor<128x2x64xf32>) -> tensor<2x32x2x64xf32>
    %48 = stablehlo.broadcast_in_dim %arg7, dims = [2, 3] : (tensor<2x64xf32>) -> tensor<1x1x2x64xf32>
    %49 = stablehlo.broadcast_in_dim %48, dims = [0, 1, 2, 3] : (tensor<1x1x2x64xf32>) -> tensor<2x32x2x64xf32>
    %50 = stablehlo.add %47, %49 : tensor<2x32x2x64xf32>
    %51 = stablehlo.broadcast_in_dim %18, dims = [0, 2, 3] : (tensor<2x32x32xi32>) -> tensor<2x1x32x32xi32>
    %52 = stablehlo.broadcast_in_dim %c_9, dims = [] : (tensor<i32>) -> tensor<2x1x32x32xi32>
    %53 = stablehlo.compare NE, %51, %52, SIGNED : (tensor<2x1x32x32xi32>, tensor<2x1x32x32xi32>) -> tensor<2x1x32x32xi1>
    %54 = stablehlo.convert %53 : tensor<2x1x32x32xi1>
    %55 = stablehlo.reshape %42 : (tensor<2x32x2x64xf32>) -> tensor<2x32x2x1x64xf32>
    %56 = stablehlo.broadcast_in_dim %54, dims = [0, 1, 3, 4] : (tensor<2x1x32x32xi1>) -> tensor<2x1x1x32x32xi1>
    %57 = stablehlo.dot_general %55, %46, batching_dims = [0, 2] x [0, 2], contracting_dims = [4] x [3] : (tensor<2x32x2x1x64xf32>, tensor<2x32x2x64xf32>) -> tensor<2x2x32x1x32xf32>
    %58 = stablehlo.broadcast_in_dim %cst_5, dims = [] : (tensor<f32>) -> tensor<2x2x32x1x32xf32>
    %59 = stablehlo.multiply %57, %58 : tensor<2x2x32x1x32xf32>
    %60 = stablehlo.broadcast_in_dim %c, dims = [] : (tensor<i1>) -> tensor<2x2x32x32xi1>
    %61 = stablehlo.broadcast_in_dim %60, dims = [1, 2, 3, 4] : (tensor<2x2x32x32xi1>) -> tensor<1x2x2x32x32xi1>
    %62 = stablehlo.transpose %56, dims = [2, 0, 1, 3, 4] : (tensor<2x1x1x32x32xi1>) -> tensor<1x2x1x32x32xi1>
    %63 = stablehlo.broadcast_in_dim %62, dims = [0, 1, 2, 3, 4] : (tensor<1x2x1x32x32xi1>) -> tensor<1x2x2x32x32xi1>
    %64 = stablehlo.and %61, %63 : tensor<1x2x2x32x32xi1>
    %65 = call @_where_1(%64, %59, %cst_4) : (tensor<1x2x2x32x32xi1>, tensor<2x2x32x1x32xf32>, tensor<f32>) -> tensor<1x2x2x32x32xf32>
    %66 = stablehlo.reduce(%65 init: %cst_3) applies stablehlo.maximum across dimensions = [4] : (tensor<1x2x2x32x32xf32>, tensor<f32>) -> tensor<1x2x2x32xf32>
    %67 = stablehlo.broadcast_in_dim %cst_3, dims = [] : (tensor<f32>) -> tensor<1x2x2x32xf32>
    %68 = stablehlo.maximum %67, %66 : tensor<1x2x2x32xf32>
    %69 = stablehlo.broadcast_in_dim %68, dims = [0, 1, 2, 3] : (tensor<1x2x2x32xf32>) -> tensor<1x2x2x32x1xf32>
    %70 = stablehlo.broadcast_in_dim %69, dims = [0, 1, 2, 3, 4] : (tensor<1x2x2x32x1xf32>) -> tensor<1x2x2x32x32xf32>
    %71 = stablehlo.subtract %65, %70 : tensor<1x2x2x32x32xf32>
    %72 = stablehlo.exponential %71 : tensor<1x2x2x32x32xf32>
    %73 = stablehlo.reduce(%72 init: %cst_8) applies stablehlo.add across dimensions = [4] : (tensor<1x2x2x32x32xf32>, tensor<f32>) -> tensor<1x2x2x32xf32>
    %74 = stablehlo.broadcast_in_dim %73, dims = [0, 1, 2, 3] : (tensor<1x2x2x32xf32>) -> tensor<1x2x2x32x1xf32>
    %75 = stablehlo.broadcast_in_dim %74, dims = [0, 1, 2, 3, 4] : (tensor<1x2x2x32x1xf32>) -> tensor<1x2x2x32x32xf32>
    %76 = stablehlo.divide %72, %75 : tensor<1x2x2x32x32xf32>
    %77 = stablehlo.dot_general %50, %76, batching_dims = [0, 2] x [1, 2], contracting_dims = [1] x [4] : (tensor<2x32x2x64xf32>, tensor<1x2x2x32x32xf32>) -> tensor<2x2x64x1x32xf32>
    %78 = stablehlo.transpose %77, dims = [3, 0, 4, 1, 2] : (tensor<2x2x64x1x32xf32>) -> tensor<1x2x32x2x64xf32>
    %79 = stablehlo.transpose %78, dims = [1, 2, 3, 0, 4] : (tensor<1x2x32x2x64xf32>) -> tensor<2x32x2x1x64xf32>
    %80 = stablehlo.reshape %79 : (tensor<2x32x2x1x64xf32>) -> tensor<2x32x2x64xf32>
    %81 = stablehlo.dot_general %80, %arg8, contracting_dims = [2, 3] x [0, 1] : (tensor<2x32x2x64xf32>, tensor<2x64x128xf32>) -> tensor<2x32x128xf32>
    %82 = stablehlo.broadcast_in_dim %arg9, dims = [2] : (tensor<128xf32>) -> tensor<1x1x128xf32>
    %83 = stablehlo.broadcast_in_dim %82, dims = [0, 1, 2] : (tensor<1x1x128xf32>) -> tensor<2x32x128xf32>
    %84 = stablehlo.add %81, %83 : tensor<2x32x128xf32>
    %85 = stablehlo.add %84, %3 : tensor<2x32x128xf32>
    %86 = stablehlo.reduce(%85 init: %cst_8) applies stablehlo.add across dimensions = [2] : (tensor<2x32x128xf32>, tensor<f32>) -> tensor<2x32xf32>
    %87 = stablehlo.broadcast_in_dim %86, dims = [0, 1] : (tensor<2x32xf32>) -> tensor<2x32x1xf32>
    %88 = stablehlo.broadcast_in_dim %cst_7, dims = [] : (tensor<f32>) -> tensor<2x32x1xf32>
    %89 = stablehlo.divide %87, %88 : tensor<2x32x1xf32>
    %90 = call @_var(%85, %c_9) : (tensor<2x32x128xf32>, tensor<i32>) -> tensor<2x32x1xf32>
    %91 = stablehlo.reshape %arg16 : (tensor<128xf32>) -> tensor<1x1x128xf32>
    %92 = stablehlo.reshape %arg17 : (tensor<128xf32>) -> tensor<1x1x128xf32>
    %93 = stablehlo.broadcast_in_dim %cst_6, dims = [] : (tensor<f32>) -> tensor<2x32x1xf32>
    %94 = stablehlo.add %90, %93 : tensor<2x32x1xf32>
    %95 = stablehlo.rsqrt %94 : tensor<2x32x1xf32>
    %96 = stablehlo.broadcast_in_dim %95, dims = [0, 1, 2] : (tensor<2x32x1xf32>) -> tensor<2x32x128xf32>
    %97 = stablehlo.broadcast_in_dim %91, dims = [0, 1, 2] : (tensor<1x1x128xf32>) -> tensor<2x32x128xf32>
    %98 = stablehlo.multiply %96, %97 : tensor<2x32x128xf32>
    %99 = stablehlo.negate %89 : tensor<2x32x1xf32>
    %100 = stablehlo.broadcast_in_dim %99, dims = [0, 1, 2] : (tensor<2x32x1xf32>) -> tensor<2x32x128xf32>
    %101 = stablehlo.multiply %100, %98 : tensor<2x32x128xf32>
    %102 = stablehlo.broadcast_in_dim %92, dims = [0, 1, 2] : (tensor<1x1x128xf32>) -> tensor<2x32x128xf32>
    %103 = stablehlo.add %101, %102 : tensor<2x32x128xf32>
    %104 = stablehlo.multiply %85, %98 : tensor<2x32x128xf32>
    %105 = stablehlo.add %104, %103 : tensor<2x32x128xf32>
    %106 = stablehlo.dot_general %105, %arg12, contracting_dims = [2] x [0] : (tensor<2x32x128xf32>, tensor<128x512xf32>) -> tensor<2x32x512xf32>
    %107 = stablehlo.broadcast_in_dim %arg13, dims = [2] : (tensor<512xf32>) -> tensor<1x1x512xf32>
    %108 = stablehlo.broadcast_in_dim %107, dims = [0, 1, 2] : (tensor<1x1x512xf32>) -> tensor<2x32x512xf32>
    %109 = stablehlo.add %106, %108 : tensor<2x32x512xf32>
    %110 = stablehlo.multiply %109, %109 : tensor<2x32x512xf32>
    %111 = stablehlo.multiply %110, %109 : tensor<2x32x512xf32>
    %112 = stablehlo.broadcast_in_dim %cst_2, dims = [] : (tensor<f32>) -> tensor<2x32x512xf32>
    %113 = stablehlo.multiply %112, %111 : tensor<2x32x512xf32>
    %114 = stablehlo.add %109, %113 : tensor<2x32x512xf32>
    %115 = stablehlo.broadcast_in_dim %cst_1, dims = [] : (tensor<f32>) -> tensor<2x32x512xf32>
    %116 = stablehlo.multiply %115, %114 : tensor<2x32x512xf32>
    %117 = stablehlo.tanh %116 : tensor<2x32x512xf32>
    %118 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<f32>) -> tensor<2x32x512xf32>
    %119 = stablehlo.add %118, %117 : tensor<2x32x512xf32>
    %120 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<2x32x512xf32>
    %121 = stablehlo.multiply %120, %119 : tensor<2x32x512xf32>
    %122 = stablehlo.multiply %109, %121 : tensor<2x32x512xf32>
    %123 = stablehlo.dot_general %122, %arg14, contracting_dims = [2] x [0] : (tensor<2x32x512xf32>, tensor<512x128xf32>) -> tensor<2x32x128xf32>
    %124 = stablehlo.broadcast_in_dim %arg15, dims = [2] : (tensor<128xf32>) -> tensor<1x1x128xf32>
    %125 = stablehlo.broadcast_in_dim %124, dims = [0, 1, 2] : (tensor<1x1x128xf32>) -> tensor<2x32x128xf32>
    %126 = stablehlo.add %123, %125 : tensor<2x32x128xf32>
    %127 = stablehlo.add %126, %85 : tensor<2x32x128xf32>
    %128 = stablehlo.broadcast_in_dim %arg36, dims = [0, 2] : (tensor<2x32xi32>) -> tensor<2x1x32xi32>
    %129 = stablehlo.iota dim = 0 : tensor<32xf32>
    %130 = stablehlo.broadcast_in_dim %cst_8, dims = [] : (tensor<f32>) -> tensor<32xf32>
    %131 = stablehlo.add %129, %130 : tensor<32xf32>
    %132 = stablehlo.broadcast_in_dim %131, dims = [0] : (tensor<32xf32>) -> tensor<32x1xf32>
    %133 = stablehlo.iota dim = 0 : tensor<32xf32>
    %134 = stablehlo.broadcast_in_dim %133, dims = [1] : (tensor<32xf32>) -> tensor<1x32xf32>
    %135 = stablehlo.broadcast_in_dim %132, dims = [0, 1] : (tensor<32x1xf32>) -> tensor<32x32xf32>
    %136 = stablehlo.broadcast_in_dim %134, dims = [0, 1] : (tensor<1x32xf32>) -> tensor<32x32xf32>
    %137 = stablehlo.compare GE, %135, %136, FLOAT : (tensor<32x32xf32>, tensor<32x32xf32>) -> tensor<32x32xi1>
    %138 = stablehlo.broadcast_in_dim %137, dims = [1, 2] : (tensor<32x32xi1>) -> tensor<1x32x32xi1>
    %139 = stablehlo.broadcast_in_dim %138, dims = [0, 1, 2] : (tensor<1x32x32xi1>) -> tensor<2x32x32xi1>
    %140 = stablehlo.convert %139 : (tensor<2x32x32xi1>) -> tensor<2x32x32xi32>
    %141 = stablehlo.broadcast_in_dim %128, dims = [0, 1, 2] : (tensor<2x1x32xi32>) -> tensor<2x32x32xi32>
    %142 = stablehlo.minimum %141, %140 : tensor<2x32x32xi32>
    %143 = stablehlo.reduce(%127 init: %cst_8) applies stablehlo.add across dimensions = [2] : (tensor<2x32x128xf32>, tensor<f32>) -> tensor<2x32xf32>
    %144 = stablehlo.broadcast_in_dim %143, dims = [0, 1] : (tensor<2x32xf32>) -> tensor<2x32x1xf32>
    %145 = stablehlo.broadcast_in_dim %cst_7, dims = [] : (tensor<f32>) -> tensor<2x32x1xf32>
    %146 = stablehlo.divide %144, %145 : tensor<2x32x1xf32>
    %147 = call @_var(%127, %c_9) : (tensor<2x32x128xf32>, tensor<i32>) -> tensor<2x32x1xf32>
    %148 = stablehlo.reshape %arg26 : (tensor<128xf32>) -> tensor<1x1x128xf32>
    %149 = stablehlo.reshape %arg27 : (tensor<128xf32>) -> tensor<1x1x128xf32>
    %150 = stablehlo.broadcast_in_dim %cst_6, dims = [] : (tensor<f32>) -> tensor<2x32x1xf32>
    %151 = stablehlo.add %147, %150 : tensor<2x32x1xf32>
    %152 = stablehlo.rsqrt %151 : tensor<2x32x1xf32>
    %153 = stablehlo.broadcast_in_dim %152, dims = [0, 1, 2] : (tensor<2x32x1xf32>) -> tensor<2x32x128xf32>
    %154 = stablehlo.broadcast_in_dim %148, dims = [0, 1, 2] : (tensor<1x1x128xf32>) -> tensor<2x32x128xf32>
    %155 = stablehlo.multiply %153, %154 : tensor<2x32x128xf32>
    %156 = stablehlo.negate %146 : tensor<2x32x1xf32>
    %157 = stablehlo.broadcast_in_dim %156, dims = [0, 1, 2] : (tensor<2x32x1xf32>) -> tensor<2x32x128xf32>
    %158 = stablehlo.multiply %157, %155 : tensor<2x32x128xf32>
    %159 = stablehlo.broadcast_in_dim %149, dims = [0, 1, 2] : (tensor<1x1x128xf32>) -> tensor<2x32x128xf32>
    %160 = stablehlo.add %158, %159 : tensor<2x32x128xf32>
    %161 = stablehlo.multiply %127, %155 : tensor<2x32x128xf32>
    %162 = stablehlo.add %161, %160 : tensor<2x32x128xf32>
    %163 = stablehlo.dot_general %162, %arg18, contracting_dims = [2] x [0] : (tensor<2x32x128xf32>, tensor<128x2x64xf32>) -> tensor<2x32x2x64xf32>
    %164 = stablehlo.broadcast_in_dim %arg19, dims = [2, 3] : (tensor<2x64xf32>) -> tensor<1x1x2x64xf32>
    %165 = stablehlo.broadcast_in_dim %164, dims = [0, 1, 2, 3] : (tensor<1x1x2x64xf32>) -> tensor<2x32x2x64xf32>
    %166 = stablehlo.add %163, %165 : tensor<2x32x2x64xf32>
    %167 = stablehlo.dot_general %162, %arg20, contracting_dims = [2] x [0] : (tensor<2x32x128xf32>, tensor<128x2x64xf32>) -> tensor<2x32x2x64xf32>
    %168 = stablehlo.broadcast_in_dim %arg21, dims = [2, 3] : (tensor<2x64xf32>) -> tensor<1x1x2x64xf32>
    %169 = stablehlo.broadcast_in_dim %168, dims = [0, 1, 2, 3] : (tensor<1x1x2x64xf32>) -> tensor<2x32x2x64xf32>
    %170 = stablehlo.add %167, %169 : tensor<2x32x2x64xf32>
    %171 = stablehlo.dot_general %162, %arg22, contracting_dims = [2] x [0] : (tensor<2x32x128xf32>, tensor<128x2x64xf32>) -> tensor<2x32x2x64xf32>
    %172 = stablehlo.broadcast_in_dim %arg23, dims = [2, 3] : (tensor<2x64xf32>) -> tensor<1x1x2x64xf32>
    %173 = stablehlo.broadcast_in_dim %172, dims = [0, 1, 2, 3] : (tensor<1x1x2x64xf32>) -> tensor<2x32x2x64xf32>
    %174 = stablehlo.add %171, %173 : tensor<2x32x2x64xf32>
    %175 = stablehlo.broadcast_in_dim %142, dims = [0, 2, 3] : (tensor<2x32x32xi32>) -> tensor<2x1x32x32xi32>
    %176 = stablehlo.broadcast_in_dim %c_9, dims = [] : (tensor<i32>) -> tensor<2x1x32x32xi32>
    %177 = stablehlo.compare NE, %175, %176, SIGNED : (tensor<2x1x32x32xi32>, tensor<2x1x32x32xi32>) -> tensor<2x1x32x32xi1>
    %178 = stablehlo.convert %177 : tensor<2x1x32x32xi1>
    %179 = stablehlo.reshape %166 : (tensor<2x32x2x64xf32>) -> tensor<2x32x2x1x64xf32>
    %180 = stablehlo.broadcast_in_dim %178, dims = [0, 1, 3, 4] : (tensor<2x1x32x32xi1>) -> tensor<2x1x1x32x32xi1>
    %181 = stablehlo.dot_general %179, %170, batching_dims = [0, 2] x [0, 2], contracting_dims = [4] x [3] : (tensor<2x32x2x1x64xf32>, tensor<2x32x2x64xf32>) -> tensor<2x2x32x1x32xf32>
    %182 = stablehlo.broadcast_in_dim %cst_5, dims = [] : (tensor<f32>) -> tensor<2x2x32x1x32xf32>
    %183 = stablehlo.multiply %181, %182 : tensor<2x2x32x1x32xf32>
    %184 = stablehlo.broadcast_in_dim %c, dims = [] : (tensor<i1>) -> tensor<2x2x32x32xi1>
    %185 = stablehlo.broadcast_in_dim %184, dims = [1, 2, 3, 4] : (tensor<2x2x32x32xi1>) -> tensor<1x2x2x32x32xi1>
    %186 = stablehlo.transpose %180, dims = [2, 0, 1, 3, 4] : (tensor<2x1x1x32x32xi1>) -> tensor<1x2x1x32x32xi1>
    %187 = stablehlo.broadcast_in_dim %186, dims = [0, 1, 2, 3, 4] : (tensor<1x2x1x32x32xi1>) -> tensor<1x2x2x32x32xi1>
    %188 = stablehlo.and %185, %187 : tensor<1x2x2x32x32xi1>
    %189 = call @_where_1(%188, %183, %cst_4) : (tensor<1x2x2x32x32xi1>, tensor<2x2x32x1x32xf32>, tensor<f32>) -> tensor<1x2x2x32x32xf32>
    %190 = stablehlo.reduce(%189 init: %cst_3) applies stablehlo.maximum across dimensions = [4] : (tensor<1x2x2x32x32xf32>, tensor<f32>) -> tensor<1x2x2x32xf32>
    %191 = stablehlo.broadcast_in_dim %cst_3, dims = [] : (tensor<f32>) -> tensor<1x2x2x32xf32>
    %192 = stablehlo.maximum %191, %190 : tensor<1x2x2x32xf32>
    %193 = stablehlo.broadcast_in_dim %192, dims = [0, 1, 2, 3] : (tensor<1x2x2x32xf32>) -> tensor<1x2x2x32x1xf32>
    %194 = stablehlo.broadcast_in_dim %193, dims = [0, 1, 2, 3, 4] : (tensor<1x2x2x32x1xf32>) -> tensor<1x2x2x32x32xf32>
    %195 = stablehlo.subtract %189, %194 : tensor<1x2x2x32x32xf32>
    %196 = stablehlo.exponential %195 : tensor<1x2x2x32x32xf32>
    %197 = stablehlo.reduce(%196 init: %cst_8) applies stablehlo.add across dimensions = [4] : (tensor<1x2x2x32x32xf32>, tensor<f32>) -> tensor<1x2x2x32xf32>
    %198 = stablehlo.broadcast_in_dim %197, dims = [0, 1, 2, 3] : (tensor<1x2x2x32xf32>) -> tensor<1x2x2x32x1xf32>
    %199 = stablehlo.broadcast_in_dim %198, dims = [0, 1, 2, 3, 4] : (tensor<1x2x2x32x1xf32>) -> tensor<1x2x2x32x32xf32>
    %200 = stablehlo.divide %196, %199 : tensor<1x2x2x32x32xf32>
    %201 = stablehlo.dot_general %174, %200, batching_dims = [0, 2] x [1, 2], contracting_dims = [1] x [4] : (tensor<2x32x2x64xf32>, tensor<1x2x2x32x32xf32>) -> tensor<2x2x64x1x32xf32>
    %202 = stablehlo.transpose %201, dims = [3, 0, 4, 1, 2] : (tensor<2x2x64x1x32xf32>) -> tensor<1x2x32x2x64xf32>
    %203 = stablehlo.transpose %202, dims = [1, 2, 3, 0, 4] : (tensor<1x2x32x2x64xf32>) -> tensor<2x32x2x1x64xf32>
    %204 = stablehlo.reshape %203 : (tensor<2x32x2x1x64xf32>) -> tensor<2x32x2x64xf32>
    %205 = stablehlo.dot_general %204, %arg24, contracting_dims = [2, 3] x [0, 1] : (tensor<2x32x2x64xf32>, tensor<2x64x128xf32>) -> tensor<2x32x128xf32>
    %206 = stablehlo.broadcast_in_dim %arg25, dims = [2] : (tensor<128xf32>) -> tensor<1x1x128xf32>
    %207 = stablehlo.broadcast_in_dim %206, dims = [0, 1, 2] : (tensor<1x1x128xf32>) -> tensor<2x32x128xf32>
    %208 = stablehlo.add %205, %207 : tensor<2x32x128xf32>
    %209 = stablehlo.add %208, %127 : tensor<2x32x128xf32>
    %210 = stablehlo.reduce(%209 init: %cst_8) applies stablehlo.add across dimensions = [2] : (tensor<2x32x128xf32>, tensor<f32>) -> tensor<2x32xf32>
    %211 = stablehlo.broadcast_in_dim %210, dims = [0, 1] : (tensor<2x32xf32>) -> tensor<2x32x1xf32>
    %212 = stablehlo.broadcast_in_dim %cst_7, dims = [] : (tensor<f32>) -> tensor<2x32x1xf32>
    %213 = stablehlo.divide %211, %212 : tensor<2x32x1xf32>
    %214 = call @_var(%209, %c_9) : (tensor<2x32x128xf32>, tensor<i32>) -> tensor<2x32x1xf32>
    %215 = stablehlo.reshape %arg32 : (tensor<128xf32>) -> tensor<1x1x128xf32>
    %216 = stablehlo.reshape %arg33 : (tensor<128xf32>) -> tensor<1x1x128xf32>
    %217 = stablehlo.broadcast_in_dim %cst_6, dims = [] : (tensor<f32>) -> tensor<2x32x1xf32>
    %218 = stablehlo.add %214, %217 : tensor<2x32x1xf32>
    %219 = stablehlo.rsqrt %218 : tensor<2x32x1xf32>
    %220 = stablehlo.broadcast_in_dim %219, dims = [0, 1, 2] : (tensor<2x32x1xf32>) -> tensor<2x32x128xf32>
    %221 = stablehlo.broadcast_in_dim %215, dims = [0, 1, 2] : (tensor<1x1x128xf32>) -> tensor<2x32x128xf32>
    %222 = stablehlo.multiply %220, %221 : tensor<2x32x128xf32>
    %223 = stablehlo.negate %213 : tensor<2x32x1xf32>
    %224 = stablehlo.broadcast_in_dim %223, dims = [0, 1, 2] : (tensor<2x32x1xf32>) -> tensor<2x32x128xf32>
    %225 = stablehlo.multiply %224, %222 : tensor<2x32x128xf32>
    %226 = stablehlo.broadcast_in_dim %216, dims = [0, 1, 2] : (tensor<1x1x128xf32>) -> tensor<2x32x128xf32>
    %227 = stablehlo.add %225, %226 : tensor<2x32x128xf32>
    %228 = stablehlo.multiply %209, %222 : tensor<2x32x128xf32>
    %229 = stablehlo.add %228, %227 : tensor<2x32x128xf32>
    %230 = stablehlo.dot_general %229, %arg28, contracting_dims = [2] x [0] : (tensor<2x32x128xf32>, tensor<128x512xf32>) -> tensor<2x32x512xf32>
    %231 = stablehlo.broadcast_in_dim %arg29, dims = [2] : (tensor<512xf32>) -> tensor<1x1x512xf32>
    %232 = stablehlo.broadcast_in_dim %231, dims = [0, 1, 2] : (tensor<1x1x512xf32>) -> tensor<2x32x512xf32>
    %233 = stablehlo.add %230, %232 : tensor<2x32x512xf32>
    %234 = stablehlo.multiply %233, %233 : tensor<2x32x512xf32>
    %235 = stablehlo.multiply %234, %233 : tensor<2x32x512xf32>
    %236 = stablehlo.broadcast_in_dim %cst_2, dims = [] : (tensor<f32>) -> tensor<2x32x512xf32>
    %237 = stablehlo.multiply %236, %235 : tensor<2x32x512xf32>
    %238 = stablehlo.add %233, %237 : tensor<2x32x512xf32>
    %239 = stablehlo.broadcast_in_dim %cst_1, dims = [] : (tensor<f32>) -> tensor<2x32x512xf32>
    %240 = stablehlo.multiply %239, %238 : tensor<2x32x512xf32>
    %241 = stablehlo.tanh %240 : tensor<2x32x512xf32>
    %242 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<f32>) -> tensor<2x32x512xf32>
    %243 = stablehlo.add %242, %241 : tensor<2x32x512xf32>
    %244 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<2x32x512xf32>
    %245 = stablehlo.multiply %244, %243 : tensor<2x32x512xf32>
    %246 = stablehlo.multiply %233, %245 : tensor<2x32x512xf32>
    %247 = stablehlo.dot_general %246, %arg30, contracting_dims = [2] x [0] : (tensor<2x32x512xf32>, tensor<512x128xf32>) -> tensor<2x32x128xf32>
    %248 = stablehlo.broadcast_in_dim %arg31, dims = [2] : (tensor<128xf32>) -> tensor<1x1x128xf32>
    %249 = stablehlo.broadcast_in_dim %248, dims = [0, 1, 2] : (tensor<1x1x128xf32>) -> tensor<2x32x128xf32>
    %250 = stablehlo.add %247, %249 : tensor<2x32x128xf32>
    %251 = stablehlo.add %250, %209 : tensor<2x32x128xf32>
    %252 = stablehlo.reduce(%251 init: %cst_8) applies stablehlo.add across dimensions = [2] : (tensor<2x32x128xf32>, tensor<f32>) -> tensor<2x32xf32>
    %253 = stablehlo.broadcast_in_dim %252, dims = [0, 1] : (tensor<2x32xf32>) -> tensor<2x32x1xf32>
    %254 = stablehlo.broadcast_in_dim %cst_7, dims = [] : (tensor<f32>) -> tensor<2x32x1xf32>
    %255 = stablehlo.divide %253, %254 : tensor<2x32x1xf32>
    %256 = call @_var(%251, %c_9) : (tensor<2x32x128xf32>, tensor<i32>) -> tensor<2x32x1xf32>
    %257 = stablehlo.reshape %arg34 : (tensor<128xf32>) -> tensor<1x1x128xf32>
    %258 = stablehlo.reshape %arg35 : (tensor<128xf32>) -> tensor<1x1x128xf32>
    %259 = stablehlo.broadcast_in_dim %cst_6, dims = [] : (tensor<f32>) -> tensor<2x32x1xf32>
    %260 = stablehlo.add %256, %259 : tensor<2x32x1xf32>
    %261 = stablehlo.rsqrt %260 : tensor<2x32x1xf32>
    %262 = stablehlo.broadcast_in_dim %261, dims = [0, 1, 2] : (tensor<2x32x1xf32>) -> tensor<2x32x128xf32>
    %263 = stablehlo.broadcast_in_dim %257, dims = [0, 1, 2] : (tensor<1x1x128xf32>) -> tensor<2x32x128xf32>
    %264 = stablehlo.multiply %262, %263 : tensor<2x32x128xf32>
    %265 = stablehlo.negate %255 : tensor<2x32x1xf32>
    %266 = stablehlo.broadcast_in_dim %265, dims = [0, 1, 2] : (tensor<2x32x1xf32>) -> tensor<2x32x128xf32>
    %267 = stablehlo.multiply %266, %264 : tensor<2x32x128xf32>
    %268 = stablehlo.broadcast_in_dim %258, dims = [0, 1, 2] : (tensor<1x1x128xf32>) -> tensor<2x32x128xf32>
    %269 = stablehlo.add %267, %268 : tensor<2x32x128xf32>
    %270 = stablehlo.multiply %251, %264 : tensor<2x32x128xf32>
    %271 = stablehlo.add %270, %269 : tensor<2x32x128xf32>
    %272 = stablehlo.dot_general %271, %arg0, contracting_dims = [2] x [1] : (tensor<2x32x128xf32>, tensor<1000x128xf32>) -> tensor<2x32x1000xf32>
    return %272 : tensor<2x32x1000xf32>
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
    %14 = call @_where_0(%13, %12, %cst) : (tensor<i1>, tensor<2x32x1xf32>, tensor<f32>) -> tensor<2x32x1xf32>
    return %14 : tensor<2x32x1xf32>
  }
  func.func private @_where_0(%arg0: tensor<i1>, %arg1: tensor<2x32x1xf32>, %arg2: tensor<f32>) -> tensor<2x32x1xf32> {
    %0 = stablehlo.convert %arg2 : tensor<f32>
    %1 = stablehlo.broadcast_in_dim %0, dims = [] : (tensor<f32>) -> tensor<2x32x1xf32>
    %2 = stablehlo.select %arg0, %arg1, %1 : tensor<i1>, tensor<2x32x1xf32>
    return %2 : tensor<2x32x1xf32>
  }
  func.func private @_where_1(%arg0: tensor<1x2x2x32x32xi1>, %arg1: tensor<2x2x32x1x32xf32>, %arg2: tensor<f32>) -> tensor<1x2x2x32x32xf32> {
    %0 = stablehlo.broadcast_in_dim %arg2, dims = [] : (tensor<f32>) -> tensor<2x2x32x32xf32>
    %1 = stablehlo.broadcast_in_dim %0, dims = [1, 2, 3, 4] : (tensor<2x2x32x32xf32>) -> tensor<1x2x2x32x32xf32>
    %2 = stablehlo.transpose %arg1, dims = [3, 0, 1, 2, 4] : (tensor<2x2x32x1x32xf32>) -> tensor<1x2x2x32x32xf32>
    %3 = stablehlo.select %arg0, %2, %1 : tensor<1x2x2x32x32xi1>, tensor<1x2x2x32x32xf32>
    return %3 : tensor<1x2x2x32x32xf32>
  }
}
