module @jit_fn attributes {jax.uses_shape_polymorphism = false, mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<1000x128xf32>, %arg1: tensor<1000x128xf32>, %arg2: tensor<128x128xf32>, %arg3: tensor<128x128xf32>, %arg4: tensor<128x128xf32>, %arg5: tensor<128x128xf32>, %arg6: tensor<32x2xf32>, %arg7: tensor<128xf32>, %arg8: tensor<256x128xf32>, %arg9: tensor<128x256xf32>, %arg10: tensor<128xf32>, %arg11: tensor<128x128xf32>, %arg12: tensor<128x128xf32>, %arg13: tensor<128x128xf32>, %arg14: tensor<128x128xf32>, %arg15: tensor<128xf32>, %arg16: tensor<256x128xf32>, %arg17: tensor<128x256xf32>, %arg18: tensor<128xf32>, %arg19: tensor<128xf32>, %arg20: tensor<1000x128xf32>, %arg21: tensor<128x128xf32>, %arg22: tensor<128x128xf32>, %arg23: tensor<128x128xf32>, %arg24: tensor<128x128xf32>, %arg25: tensor<32x2xf32>, %arg26: tensor<128xf32>, %arg27: tensor<128x128xf32>, %arg28: tensor<128x128xf32>, %arg29: tensor<128x128xf32>, %arg30: tensor<128x128xf32>, %arg31: tensor<128xf32>, %arg32: tensor<256x128xf32>, %arg33: tensor<128x256xf32>, %arg34: tensor<128xf32>, %arg35: tensor<128x128xf32>, %arg36: tensor<128x128xf32>, %arg37: tensor<128x128xf32>, %arg38: tensor<128x128xf32>, %arg39: tensor<128xf32>, %arg40: tensor<128x128xf32>, %arg41: tensor<128x128xf32>, %arg42: tensor<128x128xf32>, %arg43: tensor<128x128xf32>, %arg44: tensor<128xf32>, %arg45: tensor<256x128xf32>, %arg46: tensor<128x256xf32>, %arg47: tensor<128xf32>, %arg48: tensor<128xf32>, %arg49: tensor<1000x128xf32>, %arg50: tensor<2x32xi64>, %arg51: tensor<2x32xi64>, %arg52: tensor<2x32xi64>) -> (tensor<2x32x1000xf32> {jax.result_info = "result[0]"}) {
    %cst = stablehlo.constant dense<0.0883883461> : tensor<f32>
    %c = stablehlo.constant dense<31> : tensor<i64>
    %cst_0 = stablehlo.constant dense<2.07944155> : tensor<f32>
    %cst_1 = stablehlo.constant dense<1.600000e+01> : tensor<f32>
    %c_2 = stablehlo.constant dense<-1> : tensor<i64>
    %c_3 = stablehlo.constant dense<false> : tensor<i1>
    %cst_4 = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %cst_5 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %cst_6 = stablehlo.constant dense<-3.40282347E+38> : tensor<f32>
    %c_7 = stablehlo.constant dense<15> : tensor<i64>
    %cst_8 = stablehlo.constant dense<2.77258873> : tensor<f32>
    %cst_9 = stablehlo.constant dense<8.000000e+00> : tensor<f32>
    %c_10 = stablehlo.constant dense<8> : tensor<i64>
    %c_11 = stablehlo.constant dense<16> : tensor<i64>
    %c_12 = stablehlo.constant dense<1> : tensor<i64>
    %cst_13 = stablehlo.constant dense<9.99999997E-7> : tensor<f32>
    %cst_14 = stablehlo.constant dense<1.280000e+02> : tensor<f32>
    %cst_15 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %cst_16 = stablehlo.constant dense<2.000000e+00> : tensor<f32>
    %c_17 = stablehlo.constant dense<32> : tensor<i64>
    %c_18 = stablehlo.constant dense<2> : tensor<i64>
    %c_19 = stablehlo.constant dense<true> : tensor<i1>
    %c_20 = stablehlo.constant dense<0> : tensor<i64>
    %0 = call @_take(%arg49, %arg50) : (tensor<1000x128xf32>, tensor<2x32xi64>) -> tensor<2x32x128xf32>
    %1 = stablehlo.broadcast_in_dim %c_20, dims = [] : (tensor<i64>) -> tensor<2x32xi64>
    %2 = stablehlo.compare NE, %arg51, %1, SIGNED : (tensor<2x32xi64>, tensor<2x32xi64>) -> tensor<2x32xi1>
    %3 = stablehlo.convert %2 : tensor<2x32xi1>
    %4 = stablehlo.iota dim = 0 : tensor<2xi64>
    %5 = stablehlo.iota dim = 0 : tensor<32xi64>
    %6 = stablehlo.broadcast_in_dim %c_20, dims = [] : (tensor<i64>) -> tensor<32xi64>
    %7 = stablehlo.add %5, %6 : tensor<32xi64>
    %8 = stablehlo.iota dim = 0 : tensor<32xi64>
    %9 = stablehlo.broadcast_in_dim %c_20, dims = [] : (tensor<i64>) -> tensor<32xi64>
    %10 = stablehlo.add %8, %9 : tensor<32xi64>
    %11 = stablehlo.broadcast_in_dim %4, dims = [0] : (tensor<2xi64>) -> tensor<2x1xi64>
    %12 = stablehlo.broadcast_in_dim %11, dims = [0, 1] : (tensor<2x1xi64>) -> tensor<2x1x1xi64>
    %13 = stablehlo.broadcast_in_dim %12, dims = [0, 1, 2] : (tensor<2x1x1xi64>) -> tensor<2x1x1x1xi64>
    %14 = stablehlo.broadcast_in_dim %7, dims = [1] : (tensor<32xi64>) -> tensor<1x32xi64>
    %15 = stablehlo.broadcast_in_dim %14, dims = [0, 2] : (tensor<1x32xi64>) -> tensor<1x1x32xi64>
    %16 = stablehlo.broadcast_in_dim %15, dims = [0, 1, 2] : (tensor<1x1x32xi64>) -> tensor<1x1x32x1xi64>
    %17 = stablehlo.broadcast_in_dim %10, dims = [1] : (tensor<32xi64>) -> tensor<1x32xi64>
    %18 = stablehlo.broadcast_in_dim %17, dims = [0, 2] : (tensor<1x32xi64>) -> tensor<1x1x32xi64>
    %19 = stablehlo.broadcast_in_dim %18, dims = [0, 1, 3] : (tensor<1x1x32xi64>) -> tensor<1x1x1x32xi64>
    %20 = stablehlo.broadcast_in_dim %c_20, dims = [] : (tensor<i64>) -> tensor<1x1x32x1xi64>
    %21 = stablehlo.compare GE, %16, %20, SIGNED : (tensor<1x1x32x1xi64>, tensor<1x1x32x1xi64>) -> tensor<1x1x32x1xi1>
    %22 = stablehlo.broadcast_in_dim %c_19, dims = [] : (tensor<i1>) -> tensor<1x1x32x1xi1>
    %23 = stablehlo.and %22, %21 : tensor<1x1x32x1xi1>
    %24 = stablehlo.broadcast_in_dim %c_20, dims = [] : (tensor<i64>) -> tensor<2x1x1x1xi64>
    %25 = stablehlo.compare LT, %13, %24, SIGNED : (tensor<2x1x1x1xi64>, tensor<2x1x1x1xi64>) -> tensor<2x1x1x1xi1>
    %26 = stablehlo.broadcast_in_dim %c_18, dims = [] : (tensor<i64>) -> tensor<2x1x1x1xi64>
    %27 = stablehlo.add %13, %26 : tensor<2x1x1x1xi64>
    %28 = stablehlo.select %25, %27, %13 : tensor<2x1x1x1xi1>, tensor<2x1x1x1xi64>
    %29 = stablehlo.broadcast_in_dim %c_20, dims = [] : (tensor<i64>) -> tensor<1x1x1x32xi64>
    %30 = stablehlo.compare LT, %19, %29, SIGNED : (tensor<1x1x1x32xi64>, tensor<1x1x1x32xi64>) -> tensor<1x1x1x32xi1>
    %31 = stablehlo.broadcast_in_dim %c_17, dims = [] : (tensor<i64>) -> tensor<1x1x1x32xi64>
    %32 = stablehlo.add %19, %31 : tensor<1x1x1x32xi64>
    %33 = stablehlo.select %30, %32, %19 : tensor<1x1x1x32xi1>, tensor<1x1x1x32xi64>
    %34 = stablehlo.broadcast_in_dim %28, dims = [0, 1, 2, 3] : (tensor<2x1x1x1xi64>) -> tensor<2x1x1x32xi64>
    %35 = stablehlo.broadcast_in_dim %33, dims = [0, 1, 2, 3] : (tensor<1x1x1x32xi64>) -> tensor<2x1x1x32xi64>
    %36 = stablehlo.convert %34 : (tensor<2x1x1x32xi64>) -> tensor<2x1x1x32xi32>
    %37 = stablehlo.convert %35 : (tensor<2x1x1x32xi64>) -> tensor<2x1x1x32xi32>
    %38 = stablehlo.broadcast_in_dim %36, dims = [0, 1, 2, 3] : (tensor<2x1x1x32xi32>) -> tensor<2x1x1x32x1xi32>
    %39 = stablehlo.broadcast_in_dim %37, dims = [0, 1, 2, 3] : (tensor<2x1x1x32xi32>) -> tensor<2x1x1x32x1xi32>
    %40 = stablehlo.concatenate %38, %39, dim = 4 : (tensor<2x1x1x32x1xi32>, tensor<2x1x1x32x1xi32>) -> tensor<2x1x1x32x2xi32>
    %41 = "stablehlo.gather"(%3, %40) <{dimension_numbers = #stablehlo.gather<collapsed_slice_dims = [0, 1], start_index_map = [0, 1], index_vector_dim = 4>, slice_sizes = array<i64: 1, 1>}> : (tensor<2x32xi1>, tensor<2x1x1x32x2xi32>) -> tensor<2x1x1x32xi1>
    %42 = stablehlo.broadcast_in_dim %23, dims = [0, 1, 2, 3] : (tensor<1x1x32x1xi1>) -> tensor<2x1x32x32xi1>
    %43 = stablehlo.broadcast_in_dim %41, dims = [0, 1, 2, 3] : (tensor<2x1x1x32xi1>) -> tensor<2x1x32x32xi1>
    %44 = stablehlo.and %42, %43 : tensor<2x1x32x32xi1>
    %45 = stablehlo.broadcast_in_dim %cst_16, dims = [] : (tensor<f32>) -> tensor<2x32x128xf32>
    %46 = stablehlo.power %0, %45 : tensor<2x32x128xf32>
    %47 = stablehlo.reduce(%46 init: %cst_15) applies stablehlo.add across dimensions = [2] : (tensor<2x32x128xf32>, tensor<f32>) -> tensor<2x32xf32>
    %48 = stablehlo.broadcast_in_dim %47, dims = [0, 1] : (tensor<2x32xf32>) -> tensor<2x32x1xf32>
    %49 = stablehlo.broadcast_in_dim %cst_14, dims = [] : (tensor<f32>) -> tensor<2x32x1xf32>
    %50 = stablehlo.divide %48, %49 : tensor<2x32x1xf32>
    %51 = stablehlo.broadcast_in_dim %cst_13, dims = [] : (tensor<f32>) -> tensor<2x32x1xf32>
    %52 = stablehlo.add %50, %51 : tensor<2x32x1xf32>
    %53 = stablehlo.rsqrt %52 : tensor<2x32x1xf32>
    %54 = stablehlo.broadcast_in_dim %53, dims = [0, 1, 2] : (tensor<2x32x1xf32>) -> tensor<2x32x128xf32>
    %55 = stablehlo.multiply %0, %54 : tensor<2x32x128xf32>
    %56 = stablehlo.broadcast_in_dim %arg7, dims = [2] : (tensor<128xf32>) -> tensor<1x1x128xf32>
    %57 = stablehlo.broadcast_in_dim %56, dims = [0, 1, 2] : (tensor<1x1x128xf32>) -> tensor<2x32x128xf32>
    %58 = stablehlo.multiply %57, %55 : tensor<2x32x128xf32>
    %59 = stablehlo.transpose %arg2, dims = [1, 0] : (tensor<128x128xf32>) -> tensor<128x128xf32>
    %60 = stablehlo.reshape %58 : (tensor<2x32x128xf32>) -> tensor<64x128xf32>
    %61 = stablehlo.dot_general %60, %59, contracting_dims = [1] x [0] : (tensor<64x128xf32>, tensor<128x128xf32>) -> tensor<64x128xf32>
    %62 = stablehlo.reshape %61 : (tensor<64x128xf32>) -> tensor<2x32x128xf32>
    %63 = stablehlo.reshape %62 : (tensor<2x32x128xf32>) -> tensor<2x32x2x64xf32>
    %64 = stablehlo.transpose %63, dims = [0, 2, 1, 3] : (tensor<2x32x2x64xf32>) -> tensor<2x2x32x64xf32>
    %65 = stablehlo.transpose %arg3, dims = [1, 0] : (tensor<128x128xf32>) -> tensor<128x128xf32>
    %66 = stablehlo.reshape %58 : (tensor<2x32x128xf32>) -> tensor<64x128xf32>
    %67 = stablehlo.dot_general %66, %65, contracting_dims = [1] x [0] : (tensor<64x128xf32>, tensor<128x128xf32>) -> tensor<64x128xf32>
    %68 = stablehlo.reshape %67 : (tensor<64x128xf32>) -> tensor<2x32x128xf32>
    %69 = stablehlo.reshape %68 : (tensor<2x32x128xf32>) -> tensor<2x32x2x64xf32>
    %70 = stablehlo.transpose %69, dims = [0, 2, 1, 3] : (tensor<2x32x2x64xf32>) -> tensor<2x2x32x64xf32>
    %71 = stablehlo.transpose %arg4, dims = [1, 0] : (tensor<128x128xf32>) -> tensor<128x128xf32>
    %72 = stablehlo.reshape %58 : (tensor<2x32x128xf32>) -> tensor<64x128xf32>
    %73 = stablehlo.dot_general %72, %71, contracting_dims = [1] x [0] : (tensor<64x128xf32>, tensor<128x128xf32>) -> tensor<64x128xf32>
    %74 = stablehlo.reshape %73 : (tensor<64x128xf32>) -> tensor<2x32x128xf32>
    %75 = stablehlo.reshape %74 : (tensor<2x32x128xf32>) -> tensor<2x32x2x64xf32>
    %76 = stablehlo.transpose %75, dims = [0, 2, 1, 3] : (tensor<2x32x2x64xf32>) -> tensor<2x2x32x64xf32>
    %77 = stablehlo.iota dim = 0 : tensor<32xi64>
    %78 = stablehlo.broadcast_in_dim %77, dims = [0] : (tensor<32xi64>) -> tensor<32x1xi64>
    %79 = stablehlo.broadcast_in_dim %c_20, dims = [] : (tensor<i64>) -> tensor<32x1xi64>
    %80 = stablehlo.add %78, %79 : tensor<32x1xi64>
    %81 = stablehlo.iota dim = 0 : tensor<32xi64>
    %82 = stablehlo.broadcast_in_dim %81, dims = [1] : (tensor<32xi64>) -> tensor<1x32xi64>
    %83 = stablehlo.broadcast_in_dim %c_12, dims = [] : (tensor<i64>) -> tensor<32x1xi64>
    %84 = stablehlo.multiply %80, %83 : tensor<32x1xi64>
    %85 = stablehlo.broadcast_in_dim %82, dims = [0, 1] : (tensor<1x32xi64>) -> tensor<32x32xi64>
    %86 = stablehlo.broadcast_in_dim %84, dims = [0, 1] : (tensor<32x1xi64>) -> tensor<32x32xi64>
    %87 = stablehlo.subtract %85, %86 : tensor<32x32xi64>
    %88 = stablehlo.broadcast_in_dim %c_20, dims = [] : (tensor<i64>) -> tensor<32x32xi64>
    %89 = stablehlo.compare GT, %87, %88, SIGNED : (tensor<32x32xi64>, tensor<32x32xi64>) -> tensor<32x32xi1>
    %90 = stablehlo.convert %89 : (tensor<32x32xi1>) -> tensor<32x32xi64>
    %91 = stablehlo.broadcast_in_dim %c_11, dims = [] : (tensor<i64>) -> tensor<32x32xi64>
    %92 = stablehlo.multiply %90, %91 : tensor<32x32xi64>
    %93 = stablehlo.broadcast_in_dim %c_20, dims = [] : (tensor<i64>) -> tensor<32x32xi64>
    %94 = stablehlo.add %92, %93 : tensor<32x32xi64>
    %95 = stablehlo.abs %87 : tensor<32x32xi64>
    %96 = stablehlo.broadcast_in_dim %c_10, dims = [] : (tensor<i64>) -> tensor<32x32xi64>
    %97 = stablehlo.compare LT, %95, %96, SIGNED : (tensor<32x32xi64>, tensor<32x32xi64>) -> tensor<32x32xi1>
    %98 = stablehlo.convert %95 : (tensor<32x32xi64>) -> tensor<32x32xf32>
    %99 = stablehlo.broadcast_in_dim %cst_9, dims = [] : (tensor<f32>) -> tensor<32x32xf32>
    %100 = stablehlo.divide %98, %99 : tensor<32x32xf32>
    %101 = stablehlo.log %100 : tensor<32x32xf32>
    %102 = stablehlo.broadcast_in_dim %cst_8, dims = [] : (tensor<f32>) -> tensor<32x32xf32>
    %103 = stablehlo.divide %101, %102 : tensor<32x32xf32>
    %104 = stablehlo.broadcast_in_dim %cst_9, dims = [] : (tensor<f32>) -> tensor<32x32xf32>
    %105 = stablehlo.multiply %103, %104 : tensor<32x32xf32>
    %106 = stablehlo.convert %105 : (tensor<32x32xf32>) -> tensor<32x32xi64>
    %107 = stablehlo.broadcast_in_dim %c_10, dims = [] : (tensor<i64>) -> tensor<32x32xi64>
    %108 = stablehlo.add %106, %107 : tensor<32x32xi64>
    %109 = stablehlo.broadcast_in_dim %c_7, dims = [] : (tensor<i64>) -> tensor<32x32xi64>
    %110 = stablehlo.minimum %108, %109 : tensor<32x32xi64>
    %111 = call @_where_0(%97, %95, %110) : (tensor<32x32xi1>, tensor<32x32xi64>, tensor<32x32xi64>) -> tensor<32x32xi64>
    %112 = stablehlo.broadcast_in_dim %c_12, dims = [] : (tensor<i64>) -> tensor<32x32xi64>
    %113 = stablehlo.multiply %111, %112 : tensor<32x32xi64>
    %114 = stablehlo.add %94, %113 : tensor<32x32xi64>
    %115 = call @_take_1(%arg6, %114) : (tensor<32x2xf32>, tensor<32x32xi64>) -> tensor<32x32x2xf32>
    %116 = stablehlo.transpose %115, dims = [2, 0, 1] : (tensor<32x32x2xf32>) -> tensor<2x32x32xf32>
    %117 = stablehlo.broadcast_in_dim %116, dims = [1, 2, 3] : (tensor<2x32x32xf32>) -> tensor<1x2x32x32xf32>
    %118 = call @_where_2(%44, %117, %cst_6) : (tensor<2x1x32x32xi1>, tensor<1x2x32x32xf32>, tensor<f32>) -> tensor<2x2x32x32xf32>
    %119 = stablehlo.broadcast_in_dim %cst_5, dims = [] : (tensor<f32>) -> tensor<2x2x32x64xf32>
    %120 = stablehlo.multiply %64, %119 : tensor<2x2x32x64xf32>
    %121 = stablehlo.transpose %70, dims = [0, 1, 3, 2] : (tensor<2x2x32x64xf32>) -> tensor<2x2x64x32xf32>
    %122 = stablehlo.broadcast_in_dim %cst_5, dims = [] : (tensor<f32>) -> tensor<2x2x64x32xf32>
    %123 = stablehlo.multiply %121, %122 : tensor<2x2x64x32xf32>
    %124 = stablehlo.reshape %120 : (tensor<2x2x32x64xf32>) -> tensor<4x32x64xf32>
    %125 = stablehlo.reshape %123 : (tensor<2x2x64x32xf32>) -> tensor<4x64x32xf32>
    %126 = stablehlo.dot_general %124, %125, batching_dims = [0] x [0], contracting_dims = [2] x [1] : (tensor<4x32x64xf32>, tensor<4x64x32xf32>) -> tensor<4x32x32xf32>
    %127 = stablehlo.reshape %126 : (tensor<4x32x32xf32>) -> tensor<2x2x32x32xf32>
    %128 = stablehlo.broadcast_in_dim %cst_5, dims = [] : (tensor<f32>) -> tensor<2x2x32x32xf32>
    %129 = stablehlo.multiply %118, %128 : tensor<2x2x32x32xf32>
    %130 = stablehlo.add %127, %129 : tensor<2x2x32x32xf32>
    %131 = stablehlo.reduce(%130 init: %cst_4) applies stablehlo.maximum across dimensions = [3] : (tensor<2x2x32x32xf32>, tensor<f32>) -> tensor<2x2x32xf32>
    %132 = stablehlo.broadcast_in_dim %cst_4, dims = [] : (tensor<f32>) -> tensor<2x2x32xf32>
    %133 = stablehlo.maximum %132, %131 : tensor<2x2x32xf32>
    %134 = stablehlo.broadcast_in_dim %133, dims = [0, 1, 2] : (tensor<2x2x32xf32>) -> tensor<2x2x32x1xf32>
    %135 = stablehlo.broadcast_in_dim %134, dims = [0, 1, 2, 3] : (tensor<2x2x32x1xf32>) -> tensor<2x2x32x32xf32>
    %136 = stablehlo.subtract %130, %135 : tensor<2x2x32x32xf32>
    %137 = stablehlo.exponential %136 : tensor<2x2x32x32xf32>
    %138 = stablehlo.reduce(%137 init: %cst_15) applies stablehlo.add across dimensions = [3] : (tensor<2x2x32x32xf32>, tensor<f32>) -> tensor<2x2x32xf32>
    %139 = stablehlo.broadcast_in_dim %138, dims = [0, 1, 2] : (tensor<2x2x32xf32>) -> tensor<2x2x32x1xf32>
    %140 = stablehlo.broadcast_in_dim %139, dims = [0, 1, 2, 3] : (tensor<2x2x32x1xf32>) -> tensor<2x2x32x32xf32>
    %141 = stablehlo.divide %137, %140 : tensor<2x2x32x32xf32>
    %142 = stablehlo.broadcast_in_dim %cst_4, dims = [] : (tensor<f32>) -> tensor<2x2x32x32xf32>
    %143 = stablehlo.compare EQ, %130, %142, FLOAT : (tensor<2x2x32x32xf32>, tensor<2x2x32x32xf32>) -> tensor<2x2x32x32xi1>
    %144 = stablehlo.not %143 : tensor<2x2x32x32xi1>
    %145 = stablehlo.reduce(%144 init: %c_3) applies stablehlo.or across dimensions = [3] : (tensor<2x2x32x32xi1>, tensor<i1>) -> tensor<2x2x32xi1>
    %146 = stablehlo.broadcast_in_dim %145, dims = [0, 1, 2] : (tensor<2x2x32xi1>) -> tensor<2x2x32x1xi1>
    %147 = stablehlo.not %146 : tensor<2x2x32x1xi1>
    %148 = stablehlo.broadcast_in_dim %cst_15, dims = [] : (tensor<f32>) -> tensor<2x2x32x32xf32>
    %149 = call @_where_3(%147, %148, %141) : (tensor<2x2x32x1xi1>, tensor<2x2x32x32xf32>, tensor<2x2x32x32xf32>) -> tensor<2x2x32x32xf32>
    %150 = stablehlo.reshape %149 : (tensor<2x2x32x32xf32>) -> tensor<4x32x32xf32>
    %151 = stablehlo.reshape %76 : (tensor<2x2x32x64xf32>) -> tensor<4x32x64xf32>
    %152 = stablehlo.dot_general %150, %151, batching_dims = [0] x [0], contracting_dims = [2] x [1] : (tensor<4x32x32xf32>, tensor<4x32x64xf32>) -> tensor<4x32x64xf32>
    %153 = stablehlo.reshape %152 : (tensor<4x32x64xf32>) -> tensor<2x2x32x64xf32>
    %154 = stablehlo.transpose %153, dims = [0, 2, 1, 3] : (tensor<2x2x32x64xf32>) -> tensor<2x32x2x64xf32>
    %155 = stablehlo.reshape %154 : (tensor<2x32x2x64xf32>) -> tensor<2x32x128xf32>
    %156 = stablehlo.transpose %arg5, dims = [1, 0] : (tensor<128x128xf32>) -> tensor<128x128xf32>
    %157 = stablehlo.reshape %155 : (tensor<2x32x128xf32>) -> tensor<64x128xf32>
    %158 = stablehlo.dot_general %157, %156, contracting_dims = [1] x [0] : (tensor<64x128xf32>, tensor<128x128xf32>) -> tensor<64x128xf32>
    %159 = stablehlo.reshape %158 : (tensor<64x128xf32>) -> tensor<2x32x128xf32>
    %160 = stablehlo.broadcast_in_dim %cst_5, dims = [] : (tensor<f32>) -> tensor<2x32x128xf32>
    %161 = stablehlo.multiply %159, %160 : tensor<2x32x128xf32>
    %162 = stablehlo.add %0, %161 : tensor<2x32x128xf32>
    %163 = stablehlo.broadcast_in_dim %cst_16, dims = [] : (tensor<f32>) -> tensor<2x32x128xf32>
    %164 = stablehlo.power %162, %163 : tensor<2x32x128xf32>
    %165 = stablehlo.reduce(%164 init: %cst_15) applies stablehlo.add across dimensions = [2] : (tensor<2x32x128xf32>, tensor<f32>) -> tensor<2x32xf32>
    %166 = stablehlo.broadcast_in_dim %165, dims = [0, 1] : (tensor<2x32xf32>) -> tensor<2x32x1xf32>
    %167 = stablehlo.broadcast_in_dim %cst_14, dims = [] : (tensor<f32>) -> tensor<2x32x1xf32>
    %168 = stablehlo.divide %166, %167 : tensor<2x32x1xf32>
    %169 = stablehlo.broadcast_in_dim %cst_13, dims = [] : (tensor<f32>) -> tensor<2x32x1xf32>
    %170 = stablehlo.add %168, %169 : tensor<2x32x1xf32>
    %171 = stablehlo.rsqrt %170 : tensor<2x32x1xf32>
    %172 = stablehlo.broadcast_in_dim %171, dims = [0, 1, 2] : (tensor<2x32x1xf32>) -> tensor<2x32x128xf32>
    %173 = stablehlo.multiply %162, %172 : tensor<2x32x128xf32>
    %174 = stablehlo.broadcast_in_dim %arg10, dims = [2] : (tensor<128xf32>) -> tensor<1x1x128xf32>
    %175 = stablehlo.broadcast_in_dim %174, dims = [0, 1, 2] : (tensor<1x1x128xf32>) -> tensor<2x32x128xf32>
    %176 = stablehlo.multiply %175, %173 : tensor<2x32x128xf32>
    %177 = stablehlo.transpose %arg8, dims = [1, 0] : (tensor<256x128xf32>) -> tensor<128x256xf32>
    %178 = stablehlo.reshape %176 : (tensor<2x32x128xf32>) -> tensor<64x128xf32>
    %179 = stablehlo.dot_general %178, %177, contracting_dims = [1] x [0] : (tensor<64x128xf32>, tensor<128x256xf32>) -> tensor<64x256xf32>
    %180 = stablehlo.reshape %179 : (tensor<64x256xf32>) -> tensor<2x32x256xf32>
    %181 = call @relu(%180) : (tensor<2x32x256xf32>) -> tensor<2x32x256xf32>
    %182 = stablehlo.transpose %arg9, dims = [1, 0] : (tensor<128x256xf32>) -> tensor<256x128xf32>
    %183 = stablehlo.reshape %181 : (tensor<2x32x256xf32>) -> tensor<64x256xf32>
    %184 = stablehlo.dot_general %183, %182, contracting_dims = [1] x [0] : (tensor<64x256xf32>, tensor<256x128xf32>) -> tensor<64x128xf32>
    %185 = stablehlo.reshape %184 : (tensor<64x128xf32>) -> tensor<2x32x128xf32>
    %186 = stablehlo.broadcast_in_dim %cst_5, dims = [] : (tensor<f32>) -> tensor<2x32x128xf32>
    %187 = stablehlo.multiply %185, %186 : tensor<2x32x128xf32>
    %188 = stablehlo.add %162, %187 : tensor<2x32x128xf32>
    %189 = stablehlo.broadcast_in_dim %cst_16, dims = [] : (tensor<f32>) -> tensor<2x32x128xf32>
    %190 = stablehlo.power %188, %189 : tensor<2x32x128xf32>
    %191 = stablehlo.reduce(%190 init: %cst_15) applies stablehlo.add across dimensions = [2] : (tensor<2x32x128xf32>, tensor<f32>) -> tensor<2x32xf32>
    %192 = stablehlo.broadcast_in_dim %191, dims = [0, 1] : (tensor<2x32xf32>) -> tensor<2x32x1xf32>
    %193 = stablehlo.broadcast_in_dim %cst_14, dims = [] : (tensor<f32>) -> tensor<2x32x1xf32>
    %194 = stablehlo.divide %192, %193 : tensor<2x32x1xf32>
    %195 = stablehlo.broadcast_in_dim %cst_13, dims = [] : (tensor<f32>) -> tensor<2x32x1xf32>
    %196 = stablehlo.add %194, %195 : tensor<2x32x1xf32>
    %197 = stablehlo.rsqrt %196 : tensor<2x32x1xf32>
    %198 = stablehlo.broadcast_in_dim %197, dims = [0, 1, 2] : (tensor<2x32x1xf32>) -> tensor<2x32x128xf32>
    %199 = stablehlo.multiply %188, %198 : tensor<2x32x128xf32>
    %200 = stablehlo.broadcast_in_dim %arg15, dims = [2] : (tensor<128xf32>) -> tensor<1x1x128xf32>
    %201 = stablehlo.broadcast_in_dim %200, dims = [0, 1, 2] : (tensor<1x1x128xf32>) -> tensor<2x32x128xf32>
    %202 = stablehlo.multiply %201, %199 : tensor<2x32x128xf32>
    %203 = stablehlo.transpose %arg11, dims = [1, 0] : (tensor<128x128xf32>) -> tensor<128x128xf32>
    %204 = stablehlo.reshape %202 : (tensor<2x32x128xf32>) -> tensor<64x128xf32>
    %205 = stablehlo.dot_general %204, %203, contracting_dims = [1] x [0] : (tensor<64x128xf32>, tensor<128x128xf32>) -> tensor<64x128xf32>
    %206 = stablehlo.reshape %205 : (tensor<64x128xf32>) -> tensor<2x32x128xf32>
    %207 = stablehlo.reshape %206 : (tensor<2x32x128xf32>) -> tensor<2x32x2x64xf32>
    %208 = stablehlo.transpose %207, dims = [0, 2, 1, 3] : (tensor<2x32x2x64xf32>) -> tensor<2x2x32x64xf32>
    %209 = stablehlo.transpose %arg12, dims = [1, 0] : (tensor<128x128xf32>) -> tensor<128x128xf32>
    %210 = stablehlo.reshape %202 : (tensor<2x32x128xf32>) -> tensor<64x128xf32>
    %211 = stablehlo.dot_general %210, %209, contracting_dims = [1] x [0] : (tensor<64x128xf32>, tensor<128x128xf32>) -> tensor<64x128xf32>
    %212 = stablehlo.reshape %211 : (tensor<64x128xf32>) -> tensor<2x32x128xf32>
    %213 = stablehlo.reshape %212 : (tensor<2x32x128xf32>) -> tensor<2x32x2x64xf32>
    %214 = stablehlo.transpose %213, dims = [0, 2, 1, 3] : (tensor<2x32x2x64xf32>) -> tensor<2x2x32x64xf32>
    %215 = stablehlo.transpose %arg13, dims = [1, 0] : (tensor<128x128xf32>) -> tensor<128x128xf32>
    %216 = stablehlo.reshape %202 : (tensor<2x32x128xf32>) -> tensor<64x128xf32>
    %217 = stablehlo.dot_general %216, %215, contracting_dims = [1] x [0] : (tensor<64x128xf32>, tensor<128x128xf32>) -> tensor<64x128xf32>
    %218 = stablehlo.reshape %217 : (tensor<64x128xf32>) -> tensor<2x32x128xf32>
    %219 = stablehlo.reshape %218 : (tensor<2x32x128xf32>) -> tensor<2x32x2x64xf32>
    %220 = stablehlo.transpose %219, dims = [0, 2, 1, 3] : (tensor<2x32x2x64xf32>) -> tensor<2x2x32x64xf32>
    %221 = call @_where_2(%44, %117, %cst_6) : (tensor<2x1x32x32xi1>, tensor<1x2x32x32xf32>, tensor<f32>) -> tensor<2x2x32x32xf32>
    %222 = stablehlo.broadcast_in_dim %cst_5, dims = [] : (tensor<f32>) -> tensor<2x2x32x64xf32>
    %223 = stablehlo.multiply %208, %222 : tensor<2x2x32x64xf32>
    %224 = stablehlo.transpose %214, dims = [0, 1, 3, 2] : (tensor<2x2x32x64xf32>) -> tensor<2x2x64x32xf32>
    %225 = stablehlo.broadcast_in_dim %cst_5, dims = [] : (tensor<f32>) -> tensor<2x2x64x32xf32>
    %226 = stablehlo.multiply %224, %225 : tensor<2x2x64x32xf32>
    %227 = stablehlo.reshape %223 : (tensor<2x2x32x64xf32>) -> tensor<4x32x64xf32>
    %228 = stablehlo.reshape %226 : (tensor<2x2x64x32xf32>) -> tensor<4x64x32xf32>
    %229 = stablehlo.dot_general %227, %228, batching_dims = [0] x [0], contracting_dims = [2] x [1] : (tensor<4x32x64xf32>, tensor<4x64x32xf32>) -> tensor<4x32x32xf32>
    %230 = stablehlo.reshape %229 : (tensor<4x32x32xf32>) -> tensor<2x2x32x32xf32>
    %231 = stablehlo.broadcast_in_dim %cst_5, dims = [] : (tensor<f32>) -> tensor<2x2x32x32xf32>
    %232 = stablehlo.multiply %221, %231 : tensor<2x2x32x32xf32>
    %233 = stablehlo.add %230, %232 : tensor<2x2x32x32xf32>
    %234 = stablehlo.reduce(%233 init: %cst_4) applies stablehlo.maximum across dimensions = [3] : (tensor<2x2x32x32xf32>, tensor<f32>) -> tensor<2x2x32xf32>
    %235 = stablehlo.broadcast_in_dim %cst_4, dims = [] : (tensor<f32>) -> tensor<2x2x32xf32>
    %236 = stablehlo.maximum %235, %234 : tensor<2x2x32xf32>
    %237 = stablehlo.broadcast_in_dim %236, dims = [0, 1, 2] : (tensor<2x2x32xf32>) -> tensor<2x2x32x1xf32>
    %238 = stablehlo.broadcast_in_dim %237, dims = [0, 1, 2, 3] : (tensor<2x2x32x1xf32>) -> tensor<2x2x32x32xf32>
    %239 = stablehlo.subtract %233, %238 : tensor<2x2x32x32xf32>
    %240 = stablehlo.exponential %239 : tensor<2x2x32x32xf32>
    %241 = stablehlo.reduce(%240 init: %cst_15) applies stablehlo.add across dimensions = [3] : (tensor<2x2x32x32xf32>, tensor<f32>) -> tensor<2x2x32xf32>
    %242 = stablehlo.broadcast_in_dim %241, dims = [0, 1, 2] : (tensor<2x2x32xf32>) -> tensor<2x2x32x1xf32>
    %243 = stablehlo.broadcast_in_dim %242, dims = [0, 1, 2, 3] : (tensor<2x2x32x1xf32>) -> tensor<2x2x32x32xf32>
    %244 = stablehlo.divide %240, %243 : tensor<2x2x32x32xf32>
    %245 = stablehlo.broadcast_in_dim %cst_4, dims = [] : (tensor<f32>) -> tensor<2x2x32x32xf32>
    %246 = stablehlo.compare EQ, %233, %245, FLOAT : (tensor<2x2x32x32xf32>, tensor<2x2x32x32xf32>) -> tensor<2x2x32x32xi1>
    %247 = stablehlo.not %246 : tensor<2x2x32x32xi1>
    %248 = stablehlo.reduce(%247 init: %c_3) applies stablehlo.or across dimensions = [3] : (tensor<2x2x32x32xi1>, tensor<i1>) -> tensor<2x2x32xi1>
    %249 = stablehlo.broadcast_in_dim %248, dims = [0, 1, 2] : (tensor<2x2x32xi1>) -> tensor<2x2x32x1xi1>
    %250 = stablehlo.not %249 : tensor<2x2x32x1xi1>
    %251 = stablehlo.broadcast_in_dim %cst_15, dims = [] : (tensor<f32>) -> tensor<2x2x32x32xf32>
    %252 = call @_where_3(%250, %251, %244) : (tensor<2x2x32x1xi1>, tensor<2x2x32x32xf32>, tensor<2x2x32x32xf32>) -> tensor<2x2x32x32xf32>
    %253 = stablehlo.reshape %252 : (tensor<2x2x32x32xf32>) -> tensor<4x32x32xf32>
    %254 = stablehlo.reshape %220 : (tensor<2x2x32x64xf32>) -> tensor<4x32x64xf32>
    %255 = stablehlo.dot_general %253, %254, batching_dims = [0] x [0], contracting_dims = [2] x [1] : (tensor<4x32x32xf32>, tensor<4x32x64xf32>) -> tensor<4x32x64xf32>
    %256 = stablehlo.reshape %255 : (tensor<4x32x64xf32>) -> tensor<2x2x32x64xf32>
    %257 = stablehlo.transpose %256, dims = [0, 2, 1, 3] : (tensor<2x2x32x64xf32>) -> tensor<2x32x2x64xf32>
    %258 = stablehlo.reshape %257 : (tensor<2x32x2x64xf32>) -> tensor<2x32x128xf32>
    %259 = stablehlo.transpose %arg14, dims = [1, 0] : (tensor<128x128xf32>) -> tensor<128x128xf32>
    %260 = stablehlo.reshape %258 : (tensor<2x32x128xf32>) -> tensor<64x128xf32>
    %261 = stablehlo.dot_general %260, %259, contracting_dims = [1] x [0] : (tensor<64x128xf32>, tensor<128x128xf32>) -> tensor<64x128xf32>
    %262 = stablehlo.reshape %261 : (tensor<64x128xf32>) -> tensor<2x32x128xf32>
    %263 = stablehlo.broadcast_in_dim %cst_5, dims = [] : (tensor<f32>) -> tensor<2x32x128xf32>
    %264 = stablehlo.multiply %262, %263 : tensor<2x32x128xf32>
    %265 = stablehlo.add %188, %264 : tensor<2x32x128xf32>
    %266 = stablehlo.broadcast_in_dim %cst_16, dims = [] : (tensor<f32>) -> tensor<2x32x128xf32>
    %267 = stablehlo.power %265, %266 : tensor<2x32x128xf32>
    %268 = stablehlo.reduce(%267 init: %cst_15) applies stablehlo.add across dimensions = [2] : (tensor<2x32x128xf32>, tensor<f32>) -> tensor<2x32xf32>
    %269 = stablehlo.broadcast_in_dim %268, dims = [0, 1] : (tensor<2x32xf32>) -> tensor<2x32x1xf32>
    %270 = stablehlo.broadcast_in_dim %cst_14, dims = [] : (tensor<f32>) -> tensor<2x32x1xf32>
    %271 = stablehlo.divide %269, %270 : tensor<2x32x1xf32>
    %272 = stablehlo.broadcast_in_dim %cst_13, dims = [] : (tensor<f32>) -> tensor<2x32x1xf32>
    %273 = stablehlo.add %271, %272 : tensor<2x32x1xf32>
    %274 = stablehlo.rsqrt %273 : tensor<2x32x1xf32>
    %275 = stablehlo.broadcast_in_dim %274, dims = [0, 1, 2] : (tensor<2x32x1xf32>) -> tensor<2x32x128xf32>
    %276 = stablehlo.multiply %265, %275 : tensor<2x32x128xf32>
    %277 = stablehlo.broadcast_in_dim %arg18, dims = [2] : (tensor<128xf32>) -> tensor<1x1x128xf32>
    %278 = stablehlo.broadcast_in_dim %277, dims = [0, 1, 2] : (tensor<1x1x128xf32>) -> tensor<2x32x128xf32>
    %279 = stablehlo.multiply %278, %276 : tensor<2x32x128xf32>
    %280 = stablehlo.transpose %arg16, dims = [1, 0] : (tensor<256x128xf32>) -> tensor<128x256xf32>
    %281 = stablehlo.reshape %279 : (tensor<2x32x128xf32>) -> tensor<64x128xf32>
    %282 = stablehlo.dot_general %281, %280, contracting_dims = [1] x [0] : (tensor<64x128xf32>, tensor<128x256xf32>) -> tensor<64x256xf32>
    %283 = stablehlo.reshape %282 : (tensor<64x256xf32>) -> tensor<2x32x256xf32>
    %284 = call @relu(%283) : (tensor<2x32x256xf32>) -> tensor<2x32x256xf32>
    %285 = stablehlo.transpose %arg17, dims = [1, 0] : (tensor<128x256xf32>) -> tensor<256x128xf32>
    %286 = stablehlo.reshape %284 : (tensor<2x32x256xf32>) -> tensor<64x256xf32>
    %287 = stablehlo.dot_general %286, %285, contracting_dims = [1] x [0] : (tensor<64x256xf32>, tensor<256x128xf32>) -> tensor<64x128xf32>
    %288 = stablehlo.reshape %287 : (tensor<64x128xf32>) -> tensor<2x32x128xf32>
    %289 = stablehlo.broadcast_in_dim %cst_5, dims = [] : (tensor<f32>) -> tensor<2x32x128xf32>
    %290 = stablehlo.multiply %288, %289 : tensor<2x32x128xf32>
    %291 = stablehlo.add %265, %290 : tensor<2x32x128xf32>
    %292 = stablehlo.broadcast_in_dim %cst_16, dims = [] : (tensor<f32>) -> tensor<2x32x128xf32>
    %293 = stablehlo.power %291, %292 : tensor<2x32x128xf32>
    %294 = stablehlo.reduce(%293 init: %cst_15) applies stablehlo.add across dimensions = [2] : (tensor<2x32x128xf32>, tensor<f32>) -> tensor<2x32xf32>
    %295 = stablehlo.broadcast_in_dim %294, dims = [0, 1] : (tensor<2x32xf32>) -> tensor<2x32x1xf32>
    %296 = stablehlo.broadcast_in_dim %cst_14, dims = [] : (tensor<f32>) -> tensor<2x32x1xf32>
    %297 = stablehlo.divide %295, %296 : tensor<2x32x1xf32>
    %298 = stablehlo.broadcast_in_dim %cst_13, dims = [] : (tensor<f32>) -> tensor<2x32x1xf32>
    %299 = stablehlo.add %297, %298 : tensor<2x32x1xf32>
    %300 = stablehlo.rsqrt %299 : tensor<2x32x1xf32>
    %301 = stablehlo.broadcast_in_dim %300, dims = [0, 1, 2] : (tensor<2x32x1xf32>) -> tensor<2x32x128xf32>
    %302 = stablehlo.multiply %291, %301 : tensor<2x32x128xf32>
    %303 = stablehlo.broadcast_in_dim %arg19, dims = [2] : (tensor<128xf32>) -> tensor<1x1x128xf32>
    %304 = stablehlo.broadcast_in_dim %303, dims = [0, 1, 2] : (tensor<1x1x128xf32>) -> tensor<2x32x128xf32>
    %305 = stablehlo.multiply %304, %302 : tensor<2x32x128xf32>
    %306 = call @_take(%arg49, %arg52) : (tensor<1000x128xf32>, tensor<2x32xi64>) -> tensor<2x32x128xf32>
    %307 = stablehlo.iota dim = 0 : tensor<32xi64>
    %308 = stablehlo.broadcast_in_dim %c_20, dims = [] : (tensor<i64>) -> tensor<32xi64>
    %309 = stablehlo.add %307, %308 : tensor<32xi64>
    %310 = stablehlo.iota dim = 0 : tensor<32xi64>
    %311 = stablehlo.broadcast_in_dim %c_20, dims = [] : (tensor<i64>) -> tensor<32xi64>
    %312 = stablehlo.add %310, %311 : tensor<32xi64>
    %313 = stablehlo.broadcast_in_dim %309, dims = [1] : (tensor<32xi64>) -> tensor<1x32xi64>
    %314 = stablehlo.broadcast_in_dim %313, dims = [0, 2] : (tensor<1x32xi64>) -> tensor<1x1x32xi64>
    %315 = stablehlo.broadcast_in_dim %314, dims = [0, 1, 2] : (tensor<1x1x32xi64>) -> tensor<1x1x32x1xi64>
    %316 = stablehlo.broadcast_in_dim %312, dims = [1] : (tensor<32xi64>) -> tensor<1x32xi64>
    %317 = stablehlo.broadcast_in_dim %316, dims = [0, 2] : (tensor<1x32xi64>) -> tensor<1x1x32xi64>
    %318 = stablehlo.broadcast_in_dim %317, dims = [0, 1, 3] : (tensor<1x1x32xi64>) -> tensor<1x1x1x32xi64>
    %319 = stablehlo.broadcast_in_dim %318, dims = [0, 1, 2, 3] : (tensor<1x1x1x32xi64>) -> tensor<1x1x32x32xi64>
    %320 = stablehlo.broadcast_in_dim %315, dims = [0, 1, 2, 3] : (tensor<1x1x32x1xi64>) -> tensor<1x1x32x32xi64>
    %321 = stablehlo.compare LE, %319, %320, SIGNED : (tensor<1x1x32x32xi64>, tensor<1x1x32x32xi64>) -> tensor<1x1x32x32xi1>
    %322 = stablehlo.broadcast_in_dim %321, dims = [0, 1, 2, 3] : (tensor<1x1x32x32xi1>) -> tensor<2x1x32x32xi1>
    %323 = stablehlo.broadcast_in_dim %c_20, dims = [] : (tensor<i64>) -> tensor<2x32xi64>
    %324 = stablehlo.compare NE, %arg51, %323, SIGNED : (tensor<2x32xi64>, tensor<2x32xi64>) -> tensor<2x32xi1>
    %325 = stablehlo.convert %324 : tensor<2x32xi1>
    %326 = stablehlo.iota dim = 0 : tensor<2xi64>
    %327 = stablehlo.iota dim = 0 : tensor<32xi64>
    %328 = stablehlo.broadcast_in_dim %c_20, dims = [] : (tensor<i64>) -> tensor<32xi64>
    %329 = stablehlo.add %327, %328 : tensor<32xi64>
    %330 = stablehlo.iota dim = 0 : tensor<32xi64>
    %331 = stablehlo.broadcast_in_dim %c_20, dims = [] : (tensor<i64>) -> tensor<32xi64>
    %332 = stablehlo.add %330, %331 : tensor<32xi64>
    %333 = stablehlo.broadcast_in_dim %326, dims = [0] : (tensor<2xi64>) -> tensor<2x1xi64>
    %334 = stablehlo.broadcast_in_dim %333, dims = [0, 1] : (tensor<2x1xi64>) -> tensor<2x1x1xi64>
    %335 = stablehlo.broadcast_in_dim %334, dims = [0, 1, 2] : (tensor<2x1x1xi64>) -> tensor<2x1x1x1xi64>
    %336 = stablehlo.broadcast_in_dim %329, dims = [1] : (tensor<32xi64>) -> tensor<1x32xi64>
    %337 = stablehlo.broadcast_in_dim %336, dims = [0, 2] : (tensor<1x32xi64>) -> tensor<1x1x32xi64>
    %338 = stablehlo.broadcast_in_dim %337, dims = [0, 1, 2] : (tensor<1x1x32xi64>) -> tensor<1x1x32x1xi64>
    %339 = stablehlo.broadcast_in_dim %332, dims = [1] : (tensor<32xi64>) -> tensor<1x32xi64>
    %340 = stablehlo.broadcast_in_dim %339, dims = [0, 2] : (tensor<1x32xi64>) -> tensor<1x1x32xi64>
    %341 = stablehlo.broadcast_in_dim %340, dims = [0, 1, 3] : (tensor<1x1x32xi64>) -> tensor<1x1x1x32xi64>
    %342 = stablehlo.broadcast_in_dim %c_20, dims = [] : (tensor<i64>) -> tensor<1x1x32x1xi64>
    %343 = stablehlo.compare GE, %338, %342, SIGNED : (tensor<1x1x32x1xi64>, tensor<1x1x32x1xi64>) -> tensor<1x1x32x1xi1>
    %344 = stablehlo.broadcast_in_dim %c_19, dims = [] : (tensor<i1>) -> tensor<1x1x32x1xi1>
    %345 = stablehlo.and %344, %343 : tensor<1x1x32x1xi1>
    %346 = stablehlo.broadcast_in_dim %c_20, dims = [] : (tensor<i64>) -> tensor<2x1x1x1xi64>
    %347 = stablehlo.compare LT, %335, %346, SIGNED : (tensor<2x1x1x1xi64>, tensor<2x1x1x1xi64>) -> tensor<2x1x1x1xi1>
    %348 = stablehlo.broadcast_in_dim %c_18, dims = [] : (tensor<i64>) -> tensor<2x1x1x1xi64>
    %349 = stablehlo.add %335, %348 : tensor<2x1x1x1xi64>
    %350 = stablehlo.select %347, %349, %335 : tensor<2x1x1x1xi1>, tensor<2x1x1x1xi64>
    %351 = stablehlo.broadcast_in_dim %c_20, dims = [] : (tensor<i64>) -> tensor<1x1x1x32xi64>
    %352 = stablehlo.compare LT, %341, %351, SIGNED : (tensor<1x1x1x32xi64>, tensor<1x1x1x32xi64>) -> tensor<1x1x1x32xi1>
    %353 = stablehlo.broadcast_in_dim %c_17, dims = [] : (tensor<i64>) -> tensor<1x1x1x32xi64>
    %354 = stablehlo.add %341, %353 : tensor<1x1x1x32xi64>
    %355 = stablehlo.select %352, %354, %341 : tensor<1x1x1x32xi1>, tensor<1x1x1x32xi64>
    %356 = stablehlo.broadcast_in_dim %350, dims = [0, 1, 2, 3] : (tensor<2x1x1x1xi64>) -> tensor<2x1x1x32xi64>
    %357 = stablehlo.broadcast_in_dim %355, dims = [0, 1, 2, 3] : (tensor<1x1x1x32xi64>) -> tensor<2x1x1x32xi64>
    %358 = stablehlo.convert %356 : (tensor<2x1x1x32xi64>) -> tensor<2x1x1x32xi32>
    %359 = stablehlo.convert %357 : (tensor<2x1x1x32xi64>) -> tensor<2x1x1x32xi32>
    %360 = stablehlo.broadcast_in_dim %358, dims = [0, 1, 2, 3] : (tensor<2x1x1x32xi32>) -> tensor<2x1x1x32x1xi32>
    %361 = stablehlo.broadcast_in_dim %359, dims = [0, 1, 2, 3] : (tensor<2x1x1x32xi32>) -> tensor<2x1x1x32x1xi32>
    %362 = stablehlo.concatenate %360, %361, dim = 4 : (tensor<2x1x1x32x1xi32>, tensor<2x1x1x32x1xi32>) -> tensor<2x1x1x32x2xi32>
    %363 = "stablehlo.gather"(%325, %362) <{dimension_numbers = #stablehlo.gather<collapsed_slice_dims = [0, 1], start_index_map = [0, 1], index_vector_dim = 4>, slice_sizes = array<i64: 1, 1>}> : (tensor<2x32xi1>, tensor<2x1x1x32x2xi32>) -> tensor<2x1x1x32xi1>
    %364 = stablehlo.broadcast_in_dim %345, dims = [0, 1, 2, 3] : (tensor<1x1x32x1xi1>) -> tensor<2x1x32x32xi1>
    %365 = stablehlo.broadcast_in_dim %363, dims = [0, 1, 2, 3] : (tensor<2x1x1x32xi1>) -> tensor<2x1x32x32xi1>
    %366 = stablehlo.and %364, %365 : tensor<2x1x32x32xi1>
    %367 = stablehlo.broadcast_in_dim %cst_16, dims = [] : (tensor<f32>) -> tensor<2x32x128xf32>
    %368 = stablehlo.power %306, %367 : tensor<2x32x128xf32>
    %369 = stablehlo.reduce(%368 init: %cst_15) applies stablehlo.add across dimensions = [2] : (tensor<2x32x128xf32>, tensor<f32>) -> tensor<2x32xf32>
    %370 = stablehlo.broadcast_in_dim %369, dims = [0, 1] : (tensor<2x32xf32>) -> tensor<2x32x1xf32>
    %371 = stablehlo.broadcast_in_dim %cst_14, dims = [] : (tensor<f32>) -> tensor<2x32x1xf32>
    %372 = stablehlo.divide %370, %371 : tensor<2x32x1xf32>
    %373 = stablehlo.broadcast_in_dim %cst_13, dims = [] : (tensor<f32>) -> tensor<2x32x1xf32>
    %374 = stablehlo.add %372, %373 : tensor<2x32x1xf32>
    %375 = stablehlo.rsqrt %374 : tensor<2x32x1xf32>
    %376 = stablehlo.broadcast_in_dim %375, dims = [0, 1, 2] : (tensor<2x32x1xf32>) -> tensor<2x32x128xf32>
    %377 = stablehlo.multiply %306, %376 : tensor<2x32x128xf32>
    %378 = stablehlo.broadcast_in_dim %arg26, dims = [2] : (tensor<128xf32>) -> tensor<1x1x128xf32>
    %379 = stablehlo.broadcast_in_dim %378, dims = [0, 1, 2] : (tensor<1x1x128xf32>) -> tensor<2x32x128xf32>
    %380 = stablehlo.multiply %379, %377 : tensor<2x32x128xf32>
    %381 = stablehlo.transpose %arg21, dims = [1, 0] : (tensor<128x128xf32>) -> tensor<128x128xf32>
    %382 = stablehlo.reshape %380 : (tensor<2x32x128xf32>) -> tensor<64x128xf32>
    %383 = stablehlo.dot_general %382, %381, contracting_dims = [1] x [0] : (tensor<64x128xf32>, tensor<128x128xf32>) -> tensor<64x128xf32>
    %384 = stablehlo.reshape %383 : (tensor<64x128xf32>) -> tensor<2x32x128xf32>
    %385 = stablehlo.reshape %384 : (tensor<2x32x128xf32>) -> tensor<2x32x2x64xf32>
    %386 = stablehlo.transpose %385, dims = [0, 2, 1, 3] : (tensor<2x32x2x64xf32>) -> tensor<2x2x32x64xf32>
    %387 = stablehlo.transpose %arg22, dims = [1, 0] : (tensor<128x128xf32>) -> tensor<128x128xf32>
    %388 = stablehlo.reshape %380 : (tensor<2x32x128xf32>) -> tensor<64x128xf32>
    %389 = stablehlo.dot_general %388, %387, contracting_dims = [1] x [0] : (tensor<64x128xf32>, tensor<128x128xf32>) -> tensor<64x128xf32>
    %390 = stablehlo.reshape %389 : (tensor<64x128xf32>) -> tensor<2x32x128xf32>
    %391 = stablehlo.reshape %390 : (tensor<2x32x128xf32>) -> tensor<2x32x2x64xf32>
    %392 = stablehlo.transpose %391, dims = [0, 2, 1, 3] : (tensor<2x32x2x64xf32>) -> tensor<2x2x32x64xf32>
    %393 = stablehlo.transpose %arg23, dims = [1, 0] : (tensor<128x128xf32>) -> tensor<128x128xf32>
    %394 = stablehlo.reshape %380 : (tensor<2x32x128xf32>) -> tensor<64x128xf32>
    %395 = stablehlo.dot_general %394, %393, contracting_dims = [1] x [0] : (tensor<64x128xf32>, tensor<128x128xf32>) -> tensor<64x128xf32>
    %396 = stablehlo.reshape %395 : (tensor<64x128xf32>) -> tensor<2x32x128xf32>
    %397 = stablehlo.reshape %396 : (tensor<2x32x128xf32>) -> tensor<2x32x2x64xf32>
    %398 = stablehlo.transpose %397, dims = [0, 2, 1, 3] : (tensor<2x32x2x64xf32>) -> tensor<2x2x32x64xf32>
    %399 = stablehlo.iota dim = 0 : tensor<32xi64>
    %400 = stablehlo.broadcast_in_dim %399, dims = [0] : (tensor<32xi64>) -> tensor<32x1xi64>
    %401 = stablehlo.broadcast_in_dim %c_20, dims = [] : (tensor<i64>) -> tensor<32x1xi64>
    %402 = stablehlo.add %400, %401 : tensor<32x1xi64>
    %403 = stablehlo.iota dim = 0 : tensor<32xi64>
    %404 = stablehlo.broadcast_in_dim %403, dims = [1] : (tensor<32xi64>) -> tensor<1x32xi64>
    %405 = stablehlo.broadcast_in_dim %c_12, dims = [] : (tensor<i64>) -> tensor<32x1xi64>
    %406 = stablehlo.multiply %402, %405 : tensor<32x1xi64>
    %407 = stablehlo.broadcast_in_dim %404, dims = [0, 1] : (tensor<1x32xi64>) -> tensor<32x32xi64>
    %408 = stablehlo.broadcast_in_dim %406, dims = [0, 1] : (tensor<32x1xi64>) -> tensor<32x32xi64>
    %409 = stablehlo.subtract %407, %408 : tensor<32x32xi64>
    %410 = stablehlo.broadcast_in_dim %c_20, dims = [] : (tensor<i64>) -> tensor<32x32xi64>
    %411 = stablehlo.minimum %409, %410 : tensor<32x32xi64>
    %412 = stablehlo.broadcast_in_dim %c_2, dims = [] : (tensor<i64>) -> tensor<32x32xi64>
    %413 = stablehlo.multiply %412, %411 : tensor<32x32xi64>
    %414 = stablehlo.broadcast_in_dim %c_11, dims = [] : (tensor<i64>) -> tensor<32x32xi64>
    %415 = stablehlo.compare LT, %413, %414, SIGNED : (tensor<32x32xi64>, tensor<32x32xi64>) -> tensor<32x32xi1>
    %416 = stablehlo.convert %413 : (tensor<32x32xi64>) -> tensor<32x32xf32>
    %417 = stablehlo.broadcast_in_dim %cst_1, dims = [] : (tensor<f32>) -> tensor<32x32xf32>
    %418 = stablehlo.divide %416, %417 : tensor<32x32xf32>
    %419 = stablehlo.log %418 : tensor<32x32xf32>
    %420 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<f32>) -> tensor<32x32xf32>
    %421 = stablehlo.divide %419, %420 : tensor<32x32xf32>
    %422 = stablehlo.broadcast_in_dim %cst_1, dims = [] : (tensor<f32>) -> tensor<32x32xf32>
    %423 = stablehlo.multiply %421, %422 : tensor<32x32xf32>
    %424 = stablehlo.convert %423 : (tensor<32x32xf32>) -> tensor<32x32xi64>
    %425 = stablehlo.broadcast_in_dim %c_11, dims = [] : (tensor<i64>) -> tensor<32x32xi64>
    %426 = stablehlo.add %424, %425 : tensor<32x32xi64>
    %427 = stablehlo.broadcast_in_dim %c, dims = [] : (tensor<i64>) -> tensor<32x32xi64>
    %428 = stablehlo.minimum %426, %427 : tensor<32x32xi64>
    %429 = call @_where_0(%415, %413, %428) : (tensor<32x32xi1>, tensor<32x32xi64>, tensor<32x32xi64>) -> tensor<32x32xi64>
    %430 = stablehlo.broadcast_in_dim %c_20, dims = [] : (tensor<i64>) -> tensor<32x32xi64>
    %431 = stablehlo.add %429, %430 : tensor<32x32xi64>
    %432 = call @_take_1(%arg25, %431) : (tensor<32x2xf32>, tensor<32x32xi64>) -> tensor<32x32x2xf32>
    %433 = stablehlo.transpose %432, dims = [2, 0, 1] : (tensor<32x32x2xf32>) -> tensor<2x32x32xf32>
    %434 = stablehlo.broadcast_in_dim %433, dims = [1, 2, 3] : (tensor<2x32x32xf32>) -> tensor<1x2x32x32xf32>
    %435 = call @_where_2(%322, %434, %cst_6) : (tensor<2x1x32x32xi1>, tensor<1x2x32x32xf32>, tensor<f32>) -> tensor<2x2x32x32xf32>
    %436 = stablehlo.broadcast_in_dim %cst_5, dims = [] : (tensor<f32>) -> tensor<2x2x32x64xf32>
    %437 = stablehlo.multiply %386, %436 : tensor<2x2x32x64xf32>
    %438 = stablehlo.transpose %392, dims = [0, 1, 3, 2] : (tensor<2x2x32x64xf32>) -> tensor<2x2x64x32xf32>
    %439 = stablehlo.broadcast_in_dim %cst_5, dims = [] : (tensor<f32>) -> tensor<2x2x64x32xf32>
    %440 = stablehlo.multiply %438, %439 : tensor<2x2x64x32xf32>
    %441 = stablehlo.reshape %437 : (tensor<2x2x32x64xf32>) -> tensor<4x32x64xf32>
    %442 = stablehlo.reshape %440 : (tensor<2x2x64x32xf32>) -> tensor<4x64x32xf32>
    %443 = stablehlo.dot_general %441, %442, batching_dims = [0] x [0], contracting_dims = [2] x [1] : (tensor<4x32x64xf32>, tensor<4x64x32xf32>) -> tensor<4x32x32xf32>
    %444 = stablehlo.reshape %443 : (tensor<4x32x32xf32>) -> tensor<2x2x32x32xf32>
    %445 = stablehlo.broadcast_in_dim %cst_5, dims = [] : (tensor<f32>) -> tensor<2x2x32x32xf32>
    %446 = stablehlo.multiply %435, %445 : tensor<2x2x32x32xf32>
    %447 = stablehlo.add %444, %446 : tensor<2x2x32x32xf32>
    %448 = stablehlo.reduce(%447 init: %cst_4) applies stablehlo.maximum across dimensions = [3] : (tensor<2x2x32x32xf32>, tensor<f32>) -> tensor<2x2x32xf32>
    %449 = stablehlo.broadcast_in_dim %cst_4, dims = [] : (tensor<f32>) -> tensor<2x2x32xf32>
    %450 = stablehlo.maximum %449, %448 : tensor<2x2x32xf32>
    %451 = stablehlo.broadcast_in_dim %450, dims = [0, 1, 2] : (tensor<2x2x32xf32>) -> tensor<2x2x32x1xf32>
    %452 = stablehlo.broadcast_in_dim %451, dims = [0, 1, 2, 3] : (tensor<2x2x32x1xf32>) -> tensor<2x2x32x32xf32>
    %453 = stablehlo.subtract %447, %452 : tensor<2x2x32x32xf32>
    %454 = stablehlo.exponential %453 : tensor<2x2x32x32xf32>
    %455 = stablehlo.reduce(%454 init: %cst_15) applies stablehlo.add across dimensions = [3] : (tensor<2x2x32x32xf32>, tensor<f32>) -> tensor<2x2x32xf32>
    %456 = stablehlo.broadcast_in_dim %455, dims = [0, 1, 2] : (tensor<2x2x32xf32>) -> tensor<2x2x32x1xf32>
    %457 = stablehlo.broadcast_in_dim %456, dims = [0, 1, 2, 3] : (tensor<2x2x32x1xf32>) -> tensor<2x2x32x32xf32>
    %458 = stablehlo.divide %454, %457 : tensor<2x2x32x32xf32>
    %459 = stablehlo.broadcast_in_dim %cst_4, dims = [] : (tensor<f32>) -> tensor<2x2x32x32xf32>
    %460 = stablehlo.compare EQ, %447, %459, FLOAT : (tensor<2x2x32x32xf32>, tensor<2x2x32x32xf32>) -> tensor<2x2x32x32xi1>
    %461 = stablehlo.not %460 : tensor<2x2x32x32xi1>
    %462 = stablehlo.reduce(%461 init: %c_3) applies stablehlo.or across dimensions = [3] : (tensor<2x2x32x32xi1>, tensor<i1>) -> tensor<2x2x32xi1>
    %463 = stablehlo.broadcast_in_dim %462, dims = [0, 1, 2] : (tensor<2x2x32xi1>) -> tensor<2x2x32x1xi1>
    %464 = stablehlo.not %463 : tensor<2x2x32x1xi1>
    %465 = stablehlo.broadcast_in_dim %cst_15, dims = [] : (tensor<f32>) -> tensor<2x2x32x32xf32>
    %466 = call @_where_3(%464, %465, %458) : (tensor<2x2x32x1xi1>, tensor<2x2x32x32xf32>, tensor<2x2x32x32xf32>) -> tensor<2x2x32x32xf32>
    %467 = stablehlo.reshape %466 : (tensor<2x2x32x32xf32>) -> tensor<4x32x32xf32>
    %468 = stablehlo.reshape %398 : (tensor<2x2x32x64xf32>) -> tensor<4x32x64xf32>
    %469 = stablehlo.dot_general %467, %468, batching_dims = [0] x [0], contracting_dims = [2] x [1] : (tensor<4x32x32xf32>, tensor<4x32x64xf32>) -> tensor<4x32x64xf32>
    %470 = stablehlo.reshape %469 : (tensor<4x32x64xf32>) -> tensor<2x2x32x64xf32>
    %471 = stablehlo.transpose %470, dims = [0, 2, 1, 3] : (tensor<2x2x32x64xf32>) -> tensor<2x32x2x64xf32>
    %472 = stablehlo.reshape %471 : (tensor<2x32x2x64xf32>) -> tensor<2x32x128xf32>
    %473 = stablehlo.transpose %arg24, dims = [1, 0] : (tensor<128x128xf32>) -> tensor<128x128xf32>
    %474 = stablehlo.reshape %472 : (tensor<2x32x128xf32>) -> tensor<64x128xf32>
    %475 = stablehlo.dot_general %474, %473, contracting_dims = [1] x [0] : (tensor<64x128xf32>, tensor<128x128xf32>) -> tensor<64x128xf32>
    %476 = stablehlo.reshape %475 : (tensor<64x128xf32>) -> tensor<2x32x128xf32>
    %477 = stablehlo.broadcast_in_dim %cst_5, dims = [] : (tensor<f32>) -> tensor<2x32x128xf32>
    %478 = stablehlo.multiply %476, %477 : tensor<2x32x128xf32>
    %479 = stablehlo.add %306, %478 : tensor<2x32x128xf32>
    %480 = stablehlo.broadcast_in_dim %cst_16, dims = [] : (tensor<f32>) -> tensor<2x32x128xf32>
    %481 = stablehlo.power %479, %480 : tensor<2x32x128xf32>
    %482 = stablehlo.reduce(%481 init: %cst_15) applies stablehlo.add across dimensions = [2] : (tensor<2x32x128xf32>, tensor<f32>) -> tensor<2x32xf32>
    %483 = stablehlo.broadcast_in_dim %482, dims = [0, 1] : (tensor<2x32xf32>) -> tensor<2x32x1xf32>
    %484 = stablehlo.broadcast_in_dim %cst_14, dims = [] : (tensor<f32>) -> tensor<2x32x1xf32>
    %485 = stablehlo.divide %483, %484 : tensor<2x32x1xf32>
    %486 = stablehlo.broadcast_in_dim %cst_13, dims = [] : (tensor<f32>) -> tensor<2x32x1xf32>
    %487 = stablehlo.add %485, %486 : tensor<2x32x1xf32>
    %488 = stablehlo.rsqrt %487 : tensor<2x32x1xf32>
    %489 = stablehlo.broadcast_in_dim %488, dims = [0, 1, 2] : (tensor<2x32x1xf32>) -> tensor<2x32x128xf32>
    %490 = stablehlo.multiply %479, %489 : tensor<2x32x128xf32>
    %491 = stablehlo.broadcast_in_dim %arg31, dims = [2] : (tensor<128xf32>) -> tensor<1x1x128xf32>
    %492 = stablehlo.broadcast_in_dim %491, dims = [0, 1, 2] : (tensor<1x1x128xf32>) -> tensor<2x32x128xf32>
    %493 = stablehlo.multiply %492, %490 : tensor<2x32x128xf32>
    %494 = stablehlo.transpose %arg27, dims = [1, 0] : (tensor<128x128xf32>) -> tensor<128x128xf32>
    %495 = stablehlo.reshape %493 : (tensor<2x32x128xf32>) -> tensor<64x128xf32>
    %496 = stablehlo.dot_general %495, %494, contracting_dims = [1] x [0] : (tensor<64x128xf32>, tensor<128x128xf32>) -> tensor<64x128xf32>
    %497 = stablehlo.reshape %496 : (tensor<64x128xf32>) -> tensor<2x32x128xf32>
    %498 = stablehlo.reshape %497 : (tensor<2x32x128xf32>) -> tensor<2x32x2x64xf32>
    %499 = stablehlo.transpose %498, dims = [0, 2, 1, 3] : (tensor<2x32x2x64xf32>) -> tensor<2x2x32x64xf32>
    %500 = stablehlo.transpose %arg28, dims = [1, 0] : (tensor<128x128xf32>) -> tensor<128x128xf32>
    %501 = stablehlo.reshape %305 : (tensor<2x32x128xf32>) -> tensor<64x128xf32>
    %502 = stablehlo.dot_general %501, %500, contracting_dims = [1] x [0] : (tensor<64x128xf32>, tensor<128x128xf32>) -> tensor<64x128xf32>
    %503 = stablehlo.reshape %502 : (tensor<64x128xf32>) -> tensor<2x32x128xf32>
    %504 = stablehlo.reshape %503 : (tensor<2x32x128xf32>) -> tensor<2x32x2x64xf32>
    %505 = stablehlo.transpose %504, dims = [0, 2, 1, 3] : (tensor<2x32x2x64xf32>) -> tensor<2x2x32x64xf32>
    %506 = stablehlo.transpose %arg29, dims = [1, 0] : (tensor<128x128xf32>) -> tensor<128x128xf32>
    %507 = stablehlo.reshape %305 : (tensor<2x32x128xf32>) -> tensor<64x128xf32>
    %508 = stablehlo.dot_general %507, %506, contracting_dims = [1] x [0] : (tensor<64x128xf32>, tensor<128x128xf32>) -> tensor<64x128xf32>
    %509 = stablehlo.reshape %508 : (tensor<64x128xf32>) -> tensor<2x32x128xf32>
    %510 = stablehlo.reshape %509 : (tensor<2x32x128xf32>) -> tensor<2x32x2x64xf32>
    %511 = stablehlo.transpose %510, dims = [0, 2, 1, 3] : (tensor<2x32x2x64xf32>) -> tensor<2x2x32x64xf32>
    %512 = stablehlo.broadcast_in_dim %cst_15, dims = [] : (tensor<f32>) -> tensor<1x2x32x32xf32>
    %513 = call @_where_2(%366, %512, %cst_6) : (tensor<2x1x32x32xi1>, tensor<1x2x32x32xf32>, tensor<f32>) -> tensor<2x2x32x32xf32>
    %514 = stablehlo.broadcast_in_dim %cst_5, dims = [] : (tensor<f32>) -> tensor<2x2x32x64xf32>
    %515 = stablehlo.multiply %499, %514 : tensor<2x2x32x64xf32>
    %516 = stablehlo.transpose %505, dims = [0, 1, 3, 2] : (tensor<2x2x32x64xf32>) -> tensor<2x2x64x32xf32>
    %517 = stablehlo.broadcast_in_dim %cst_5, dims = [] : (tensor<f32>) -> tensor<2x2x64x32xf32>
    %518 = stablehlo.multiply %516, %517 : tensor<2x2x64x32xf32>
    %519 = stablehlo.reshape %515 : (tensor<2x2x32x64xf32>) -> tensor<4x32x64xf32>
    %520 = stablehlo.reshape %518 : (tensor<2x2x64x32xf32>) -> tensor<4x64x32xf32>
    %521 = stablehlo.dot_general %519, %520, batching_dims = [0] x [0], contracting_dims = [2] x [1] : (tensor<4x32x64xf32>, tensor<4x64x32xf32>) -> tensor<4x32x32xf32>
    %522 = stablehlo.reshape %521 : (tensor<4x32x32xf32>) -> tensor<2x2x32x32xf32>
    %523 = stablehlo.broadcast_in_dim %cst_5, dims = [] : (tensor<f32>) -> tensor<2x2x32x32xf32>
    %524 = stablehlo.multiply %513, %523 : tensor<2x2x32x32xf32>
    %525 = stablehlo.add %522, %524 : tensor<2x2x32x32xf32>
    %526 = stablehlo.reduce(%525 init: %cst_4) applies stablehlo.maximum across dimensions = [3] : (tensor<2x2x32x32xf32>, tensor<f32>) -> tensor<2x2x32xf32>
    %527 = stablehlo.broadcast_in_dim %cst_4, dims = [] : (tensor<f32>) -> tensor<2x2x32xf32>
    %528 = stablehlo.maximum %527, %526 : tensor<2x2x32xf32>
    %529 = stablehlo.broadcast_in_dim %528, dims = [0, 1, 2] : (tensor<2x2x32xf32>) -> tensor<2x2x32x1xf32>
    %530 = stablehlo.broadcast_in_dim %529, dims = [0, 1, 2, 3] : (tensor<2x2x32x1xf32>) -> tensor<2x2x32x32xf32>
    %531 = stablehlo.subtract %525, %530 : tensor<2x2x32x32xf32>
    %532 = stablehlo.exponential %531 : tensor<2x2x32x32xf32>
    %533 = stablehlo.reduce(%532 init: %cst_15) applies stablehlo.add across dimensions = [3] : (tensor<2x2x32x32xf32>, tensor<f32>) -> tensor<2x2x32xf32>
    %534 = stablehlo.broadcast_in_dim %533, dims = [0, 1, 2] : (tensor<2x2x32xf32>) -> tensor<2x2x32x1xf32>
    %535 = stablehlo.broadcast_in_dim %534, dims = [0, 1, 2, 3] : (tensor<2x2x32x1xf32>) -> tensor<2x2x32x32xf32>
    %536 = stablehlo.divide %532, %535 : tensor<2x2x32x32xf32>
    %537 = stablehlo.broadcast_in_dim %cst_4, dims = [] : (tensor<f32>) -> tensor<2x2x32x32xf32>
    %538 = stablehlo.compare EQ, %525, %537, FLOAT : (tensor<2x2x32x32xf32>, tensor<2x2x32x32xf32>) -> tensor<2x2x32x32xi1>
    %539 = stablehlo.not %538 : tensor<2x2x32x32xi1>
    %540 = stablehlo.reduce(%539 init: %c_3) applies stablehlo.or across dimensions = [3] : (tensor<2x2x32x32xi1>, tensor<i1>) -> tensor<2x2x32xi1>
    %541 = stablehlo.broadcast_in_dim %540, dims = [0, 1, 2] : (tensor<2x2x32xi1>) -> tensor<2x2x32x1xi1>
    %542 = stablehlo.not %541 : tensor<2x2x32x1xi1>
    %543 = stablehlo.broadcast_in_dim %cst_15, dims = [] : (tensor<f32>) -> tensor<2x2x32x32xf32>
    %544 = call @_where_3(%542, %543, %536) : (tensor<2x2x32x1xi1>, tensor<2x2x32x32xf32>, tensor<2x2x32x32xf32>) -> tensor<2x2x32x32xf32>
    %545 = stablehlo.reshape %544 : (tensor<2x2x32x32xf32>) -> tensor<4x32x32xf32>
    %546 = stablehlo.reshape %511 : (tensor<2x2x32x64xf32>) -> tensor<4x32x64xf32>
    %547 = stablehlo.dot_general %545, %546, batching_dims = [0] x [0], contracting_dims = [2] x [1] : (tensor<4x32x32xf32>, tensor<4x32x64xf32>) -> tensor<4x32x64xf32>
    %548 = stablehlo.reshape %547 : (tensor<4x32x64xf32>) -> tensor<2x2x32x64xf32>
    %549 = stablehlo.transpose %548, dims = [0, 2, 1, 3] : (tensor<2x2x32x64xf32>) -> tensor<2x32x2x64xf32>
    %550 = stablehlo.reshape %549 : (tensor<2x32x2x64xf32>) -> tensor<2x32x128xf32>
    %551 = stablehlo.transpose %arg30, dims = [1, 0] : (tensor<128x128xf32>) -> tensor<128x128xf32>
    %552 = stablehlo.reshape %550 : (tensor<2x32x128xf32>) -> tensor<64x128xf32>
    %553 = stablehlo.dot_general %552, %551, contracting_dims = [1] x [0] : (tensor<64x128xf32>, tensor<128x128xf32>) -> tensor<64x128xf32>
    %554 = stablehlo.reshape %553 : (tensor<64x128xf32>) -> tensor<2x32x128xf32>
    %555 = stablehlo.broadcast_in_dim %cst_5, dims = [] : (tensor<f32>) -> tensor<2x32x128xf32>
    %556 = stablehlo.multiply %554, %555 : tensor<2x32x128xf32>
    %557 = stablehlo.add %479, %556 : tensor<2x32x128xf32>
    %558 = stablehlo.broadcast_in_dim %cst_16, dims = [] : (tensor<f32>) -> tensor<2x32x128xf32>
    %559 = stablehlo.power %557, %558 : tensor<2x32x128xf32>
    %560 = stablehlo.reduce(%559 init: %cst_15) applies stablehlo.add across dimensions = [2] : (tensor<2x32x128xf32>, tensor<f32>) -> tensor<2x32xf32>
    %561 = stablehlo.broadcast_in_dim %560, dims = [0, 1] : (tensor<2x32xf32>) -> tensor<2x32x1xf32>
    %562 = stablehlo.broadcast_in_dim %cst_14, dims = [] : (tensor<f32>) -> tensor<2x32x1xf32>
    %563 = stablehlo.divide %561, %562 : tensor<2x32x1xf32>
    %564 = stablehlo.broadcast_in_dim %cst_13, dims = [] : (tensor<f32>) -> tensor<2x32x1xf32>
    %565 = stablehlo.add %563, %564 : tensor<2x32x1xf32>
    %566 = stablehlo.rsqrt %565 : tensor<2x32x1xf32>
    %567 = stablehlo.broadcast_in_dim %566, dims = [0, 1, 2] : (tensor<2x32x1xf32>) -> tensor<2x32x128xf32>
    %568 = stablehlo.multiply %557, %567 : tensor<2x32x128xf32>
    %569 = stablehlo.broadcast_in_dim %arg34, dims = [2] : (tensor<128xf32>) -> tensor<1x1x128xf32>
    %570 = stablehlo.broadcast_in_dim %569, dims = [0, 1, 2] : (tensor<1x1x128xf32>) -> tensor<2x32x128xf32>
    %571 = stablehlo.multiply %570, %568 : tensor<2x32x128xf32>
    %572 = stablehlo.transpose %arg32, dims = [1, 0] : (tensor<256x128xf32>) -> tensor<128x256xf32>
    %573 = stablehlo.reshape %571 : (tensor<2x32x128xf32>) -> tensor<64x128xf32>
    %574 = stablehlo.dot_general %573, %572, contracting_dims = [1] x [0] : (tensor<64x128xf32>, tensor<128x256xf32>) -> tensor<64x256xf32>
    %575 = stablehlo.reshape %574 : (tensor<64x256xf32>) -> tensor<2x32x256xf32>
    %576 = call @relu(%575) : (tensor<2x32x256xf32>) -> tensor<2x32x256xf32>
    %577 = stablehlo.transpose %arg33, dims = [1, 0] : (tensor<128x256xf32>) -> tensor<256x128xf32>
    %578 = stablehlo.reshape %576 : (tensor<2x32x256xf32>) -> tensor<64x256xf32>
    %579 = stablehlo.dot_general %578, %577, contracting_dims = [1] x [0] : (tensor<64x256xf32>, tensor<256x128xf32>) -> tensor<64x128xf32>
    %580 = stablehlo.reshape %579 : (tensor<64x128xf32>) -> tensor<2x32x128xf32>
    %581 = stablehlo.broadcast_in_dim %cst_5, dims = [] : (tensor<f32>) -> tensor<2x32x128xf32>
    %582 = stablehlo.multiply %580, %581 : tensor<2x32x128xf32>
    %583 = stablehlo.add %557, %582 : tensor<2x32x128xf32>
    %584 = stablehlo.broadcast_in_dim %cst_16, dims = [] : (tensor<f32>) -> tensor<2x32x128xf32>
    %585 = stablehlo.power %583, %584 : tensor<2x32x128xf32>
    %586 = stablehlo.reduce(%585 init: %cst_15) applies stablehlo.add across dimensions = [2] : (tensor<2x32x128xf32>, tensor<f32>) -> tensor<2x32xf32>
    %587 = stablehlo.broadcast_in_dim %586, dims = [0, 1] : (tensor<2x32xf32>) -> tensor<2x32x1xf32>
    %588 = stablehlo.broadcast_in_dim %cst_14, dims = [] : (tensor<f32>) -> tensor<2x32x1xf32>
    %589 = stablehlo.divide %587, %588 : tensor<2x32x1xf32>
    %590 = stablehlo.broadcast_in_dim %cst_13, dims = [] : (tensor<f32>) -> tensor<2x32x1xf32>
    %591 = stablehlo.add %589, %590 : tensor<2x32x1xf32>
    %592 = stablehlo.rsqrt %591 : tensor<2x32x1xf32>
    %593 = stablehlo.broadcast_in_dim %592, dims = [0, 1, 2] : (tensor<2x32x1xf32>) -> tensor<2x32x128xf32>
    %594 = stablehlo.multiply %583, %593 : tensor<2x32x128xf32>
    %595 = stablehlo.broadcast_in_dim %arg39, dims = [2] : (tensor<128xf32>) -> tensor<1x1x128xf32>
    %596 = stablehlo.broadcast_in_dim %595, dims = [0, 1, 2] : (tensor<1x1x128xf32>) -> tensor<2x32x128xf32>
    %597 = stablehlo.multiply %596, %594 : tensor<2x32x128xf32>
    %598 = stablehlo.transpose %arg35, dims = [1, 0] : (tensor<128x128xf32>) -> tensor<128x128xf32>
    %599 = stablehlo.reshape %597 : (tensor<2x32x128xf32>) -> tensor<64x128xf32>
    %600 = stablehlo.dot_general %599, %598, contracting_dims = [1] x [0] : (tensor<64x128xf32>, tensor<128x128xf32>) -> tensor<64x128xf32>
    %601 = stablehlo.reshape %600 : (tensor<64x128xf32>) -> tensor<2x32x128xf32>
    %602 = stablehlo.reshape %601 : (tensor<2x32x128xf32>) -> tensor<2x32x2x64xf32>
    %603 = stablehlo.transpose %602, dims = [0, 2, 1, 3] : (tensor<2x32x2x64xf32>) -> tensor<2x2x32x64xf32>
    %604 = stablehlo.transpose %arg36, dims = [1, 0] : (tensor<128x128xf32>) -> tensor<128x128xf32>
    %605 = stablehlo.reshape %597 : (tensor<2x32x128xf32>) -> tensor<64x128xf32>
    %606 = stablehlo.dot_general %605, %604, contracting_dims = [1] x [0] : (tensor<64x128xf32>, tensor<128x128xf32>) -> tensor<64x128xf32>
    %607 = stablehlo.reshape %606 : (tensor<64x128xf32>) -> tensor<2x32x128xf32>
    %608 = stablehlo.reshape %607 : (tensor<2x32x128xf32>) -> tensor<2x32x2x64xf32>
    %609 = stablehlo.transpose %608, dims = [0, 2, 1, 3] : (tensor<2x32x2x64xf32>) -> tensor<2x2x32x64xf32>
    %610 = stablehlo.transpose %arg37, dims = [1, 0] : (tensor<128x128xf32>) -> tensor<128x128xf32>
    %611 = stablehlo.reshape %597 : (tensor<2x32x128xf32>) -> tensor<64x128xf32>
    %612 = stablehlo.dot_general %611, %610, contracting_dims = [1] x [0] : (tensor<64x128xf32>, tensor<128x128xf32>) -> tensor<64x128xf32>
    %613 = stablehlo.reshape %612 : (tensor<64x128xf32>) -> tensor<2x32x128xf32>
    %614 = stablehlo.reshape %613 : (tensor<2x32x128xf32>) -> tensor<2x32x2x64xf32>
    %615 = stablehlo.transpose %614, dims = [0, 2, 1, 3] : (tensor<2x32x2x64xf32>) -> tensor<2x2x32x64xf32>
    %616 = call @_where_2(%322, %434, %cst_6) : (tensor<2x1x32x32xi1>, tensor<1x2x32x32xf32>, tensor<f32>) -> tensor<2x2x32x32xf32>
    %617 = stablehlo.broadcast_in_dim %cst_5, dims = [] : (tensor<f32>) -> tensor<2x2x32x64xf32>
    %618 = stablehlo.multiply %603, %617 : tensor<2x2x32x64xf32>
    %619 = stablehlo.transpose %609, dims = [0, 1, 3, 2] : (tensor<2x2x32x64xf32>) -> tensor<2x2x64x32xf32>
    %620 = stablehlo.broadcast_in_dim %cst_5, dims = [] : (tensor<f32>) -> tensor<2x2x64x32xf32>
    %621 = stablehlo.multiply %619, %620 : tensor<2x2x64x32xf32>
    %622 = stablehlo.reshape %618 : (tensor<2x2x32x64xf32>) -> tensor<4x32x64xf32>
    %623 = stablehlo.reshape %621 : (tensor<2x2x64x32xf32>) -> tensor<4x64x32xf32>
    %624 = stablehlo.dot_general %622, %623, batching_dims = [0] x [0], contracting_dims = [2] x [1] : (tensor<4x32x64xf32>, tensor<4x64x32xf32>) -> tensor<4x32x32xf32>
    %625 = stablehlo.reshape %624 : (tensor<4x32x32xf32>) -> tensor<2x2x32x32xf32>
    %626 = stablehlo.broadcast_in_dim %cst_5, dims = [] : (tensor<f32>) -> tensor<2x2x32x32xf32>
    %627 = stablehlo.multiply %616, %626 : tensor<2x2x32x32xf32>
    %628 = stablehlo.add %625, %627 : tensor<2x2x32x32xf32>
    %629 = stablehlo.reduce(%628 init: %cst_4) applies stablehlo.maximum across dimensions = [3] : (tensor<2x2x32x32xf32>, tensor<f32>) -> tensor<2x2x32xf32>
    %630 = stablehlo.broadcast_in_dim %cst_4, dims = [] : (tensor<f32>) -> tensor<2x2x32xf32>
    %631 = stablehlo.maximum %630, %629 : tensor<2x2x32xf32>
    %632 = stablehlo.broadcast_in_dim %631, dims = [0, 1, 2] : (tensor<2x2x32xf32>) -> tensor<2x2x32x1xf32>
    %633 = stablehlo.broadcast_in_dim %632, dims = [0, 1, 2, 3] : (tensor<2x2x32x1xf32>) -> tensor<2x2x32x32xf32>
    %634 = stablehlo.subtract %628, %633 : tensor<2x2x32x32xf32>
    %635 = stablehlo.exponential %634 : tensor<2x2x32x32xf32>
    %636 = stablehlo.reduce(%635 init: %cst_15) applies stablehlo.add across dimensions = [3] : (tensor<2x2x32x32xf32>, tensor<f32>) -> tensor<2x2x32xf32>
    %637 = stablehlo.broadcast_in_dim %636, dims = [0, 1, 2] : (tensor<2x2x32xf32>) -> tensor<2x2x32x1xf32>
    %638 = stablehlo.broadcast_in_dim %637, dims = [0, 1, 2, 3] : (tensor<2x2x32x1xf32>) -> tensor<2x2x32x32xf32>
    %639 = stablehlo.divide %635, %638 : tensor<2x2x32x32xf32>
    %640 = stablehlo.broadcast_in_dim %cst_4, dims = [] : (tensor<f32>) -> tensor<2x2x32x32xf32>
    %641 = stablehlo.compare EQ, %628, %640, FLOAT : (tensor<2x2x32x32xf32>, tensor<2x2x32x32xf32>) -> tensor<2x2x32x32xi1>
    %642 = stablehlo.not %641 : tensor<2x2x32x32xi1>
    %643 = stablehlo.reduce(%642 init: %c_3) applies stablehlo.or across dimensions = [3] : (tensor<2x2x32x32xi1>, tensor<i1>) -> tensor<2x2x32xi1>
    %644 = stablehlo.broadcast_in_dim %643, dims = [0, 1, 2] : (tensor<2x2x32xi1>) -> tensor<2x2x32x1xi1>
    %645 = stablehlo.not %644 : tensor<2x2x32x1xi1>
    %646 = stablehlo.broadcast_in_dim %cst_15, dims = [] : (tensor<f32>) -> tensor<2x2x32x32xf32>
    %647 = call @_where_3(%645, %646, %639) : (tensor<2x2x32x1xi1>, tensor<2x2x32x32xf32>, tensor<2x2x32x32xf32>) -> tensor<2x2x32x32xf32>
    %648 = stablehlo.reshape %647 : (tensor<2x2x32x32xf32>) -> tensor<4x32x32xf32>
    %649 = stablehlo.reshape %615 : (tensor<2x2x32x64xf32>) -> tensor<4x32x64xf32>
    %650 = stablehlo.dot_general %648, %649, batching_dims = [0] x [0], contracting_dims = [2] x [1] : (tensor<4x32x32xf32>, tensor<4x32x64xf32>) -> tensor<4x32x64xf32>
    %651 = stablehlo.reshape %650 : (tensor<4x32x64xf32>) -> tensor<2x2x32x64xf32>
    %652 = stablehlo.transpose %651, dims = [0, 2, 1, 3] : (tensor<2x2x32x64xf32>) -> tensor<2x32x2x64xf32>
    %653 = stablehlo.reshape %652 : (tensor<2x32x2x64xf32>) -> tensor<2x32x128xf32>
    %654 = stablehlo.transpose %arg38, dims = [1, 0] : (tensor<128x128xf32>) -> tensor<128x128xf32>
    %655 = stablehlo.reshape %653 : (tensor<2x32x128xf32>) -> tensor<64x128xf32>
    %656 = stablehlo.dot_general %655, %654, contracting_dims = [1] x [0] : (tensor<64x128xf32>, tensor<128x128xf32>) -> tensor<64x128xf32>
    %657 = stablehlo.reshape %656 : (tensor<64x128xf32>) -> tensor<2x32x128xf32>
    %658 = stablehlo.broadcast_in_dim %cst_5, dims = [] : (tensor<f32>) -> tensor<2x32x128xf32>
    %659 = stablehlo.multiply %657, %658 : tensor<2x32x128xf32>
    %660 = stablehlo.add %583, %659 : tensor<2x32x128xf32>
    %661 = stablehlo.broadcast_in_dim %cst_16, dims = [] : (tensor<f32>) -> tensor<2x32x128xf32>
    %662 = stablehlo.power %660, %661 : tensor<2x32x128xf32>
    %663 = stablehlo.reduce(%662 init: %cst_15) applies stablehlo.add across dimensions = [2] : (tensor<2x32x128xf32>, tensor<f32>) -> tensor<2x32xf32>
    %664 = stablehlo.broadcast_in_dim %663, dims = [0, 1] : (tensor<2x32xf32>) -> tensor<2x32x1xf32>
    %665 = stablehlo.broadcast_in_dim %cst_14, dims = [] : (tensor<f32>) -> tensor<2x32x1xf32>
    %666 = stablehlo.divide %664, %665 : tensor<2x32x1xf32>
    %667 = stablehlo.broadcast_in_dim %cst_13, dims = [] : (tensor<f32>) -> tensor<2x32x1xf32>
    %668 = stablehlo.add %666, %667 : tensor<2x32x1xf32>
    %669 = stablehlo.rsqrt %668 : tensor<2x32x1xf32>
    %670 = stablehlo.broadcast_in_dim %669, dims = [0, 1, 2] : (tensor<2x32x1xf32>) -> tensor<2x32x128xf32>
    %671 = stablehlo.multiply %660, %670 : tensor<2x32x128xf32>
    %672 = stablehlo.broadcast_in_dim %arg44, dims = [2] : (tensor<128xf32>) -> tensor<1x1x128xf32>
    %673 = stablehlo.broadcast_in_dim %672, dims = [0, 1, 2] : (tensor<1x1x128xf32>) -> tensor<2x32x128xf32>
    %674 = stablehlo.multiply %673, %671 : tensor<2x32x128xf32>
    %675 = stablehlo.transpose %arg40, dims = [1, 0] : (tensor<128x128xf32>) -> tensor<128x128xf32>
    %676 = stablehlo.reshape %674 : (tensor<2x32x128xf32>) -> tensor<64x128xf32>
    %677 = stablehlo.dot_general %676, %675, contracting_dims = [1] x [0] : (tensor<64x128xf32>, tensor<128x128xf32>) -> tensor<64x128xf32>
    %678 = stablehlo.reshape %677 : (tensor<64x128xf32>) -> tensor<2x32x128xf32>
    %679 = stablehlo.reshape %678 : (tensor<2x32x128xf32>) -> tensor<2x32x2x64xf32>
    %680 = stablehlo.transpose %679, dims = [0, 2, 1, 3] : (tensor<2x32x2x64xf32>) -> tensor<2x2x32x64xf32>
    %681 = stablehlo.transpose %arg41, dims = [1, 0] : (tensor<128x128xf32>) -> tensor<128x128xf32>
    %682 = stablehlo.reshape %305 : (tensor<2x32x128xf32>) -> tensor<64x128xf32>
    %683 = stablehlo.dot_general %682, %681, contracting_dims = [1] x [0] : (tensor<64x128xf32>, tensor<128x128xf32>) -> tensor<64x128xf32>
    %684 = stablehlo.reshape %683 : (tensor<64x128xf32>) -> tensor<2x32x128xf32>
    %685 = stablehlo.reshape %684 : (tensor<2x32x128xf32>) -> tensor<2x32x2x64xf32>
    %686 = stablehlo.transpose %685, dims = [0, 2, 1, 3] : (tensor<2x32x2x64xf32>) -> tensor<2x2x32x64xf32>
    %687 = stablehlo.transpose %arg42, dims = [1, 0] : (tensor<128x128xf32>) -> tensor<128x128xf32>
    %688 = stablehlo.reshape %305 : (tensor<2x32x128xf32>) -> tensor<64x128xf32>
    %689 = stablehlo.dot_general %688, %687, contracting_dims = [1] x [0] : (tensor<64x128xf32>, tensor<128x128xf32>) -> tensor<64x128xf32>
    %690 = stablehlo.reshape %689 : (tensor<64x128xf32>) -> tensor<2x32x128xf32>
    %691 = stablehlo.reshape %690 : (tensor<2x32x128xf32>) -> tensor<2x32x2x64xf32>
    %692 = stablehlo.transpose %691, dims = [0, 2, 1, 3] : (tensor<2x32x2x64xf32>) -> tensor<2x2x32x64xf32>
    %693 = call @_where_2(%366, %512, %cst_6) : (tensor<2x1x32x32xi1>, tensor<1x2x32x32xf32>, tensor<f32>) -> tensor<2x2x32x32xf32>
    %694 = stablehlo.broadcast_in_dim %cst_5, dims = [] : (tensor<f32>) -> tensor<2x2x32x64xf32>
    %695 = stablehlo.multiply %680, %694 : tensor<2x2x32x64xf32>
    %696 = stablehlo.transpose %686, dims = [0, 1, 3, 2] : (tensor<2x2x32x64xf32>) -> tensor<2x2x64x32xf32>
    %697 = stablehlo.broadcast_in_dim %cst_5, dims = [] : (tensor<f32>) -> tensor<2x2x64x32xf32>
    %698 = stablehlo.multiply %696, %697 : tensor<2x2x64x32xf32>
    %699 = stablehlo.reshape %695 : (tensor<2x2x32x64xf32>) -> tensor<4x32x64xf32>
    %700 = stablehlo.reshape %698 : (tensor<2x2x64x32xf32>) -> tensor<4x64x32xf32>
    %701 = stablehlo.dot_general %699, %700, batching_dims = [0] x [0], contracting_dims = [2] x [1] : (tensor<4x32x64xf32>, tensor<4x64x32xf32>) -> tensor<4x32x32xf32>
    %702 = stablehlo.reshape %701 : (tensor<4x32x32xf32>) -> tensor<2x2x32x32xf32>
    %703 = stablehlo.broadcast_in_dim %cst_5, dims = [] : (tensor<f32>) -> tensor<2x2x32x32xf32>
    %704 = stablehlo.multiply %693, %703 : tensor<2x2x32x32xf32>
    %705 = stablehlo.add %702, %704 : tensor<2x2x32x32xf32>
    %706 = stablehlo.reduce(%705 init: %cst_4) applies stablehlo.maximum across dimensions = [3] : (tensor<2x2x32x32xf32>, tensor<f32>) -> tensor<2x2x32xf32>
    %707 = stablehlo.broadcast_in_dim %cst_4, dims = [] : (tensor<f32>) -> tensor<2x2x32xf32>
    %708 = stablehlo.maximum %707, %706 : tensor<2x2x32xf32>
    %709 = stablehlo.broadcast_in_dim %708, dims = [0, 1, 2] : (tensor<2x2x32xf32>) -> tensor<2x2x32x1xf32>
    %710 = stablehlo.broadcast_in_dim %709, dims = [0, 1, 2, 3] : (tensor<2x2x32x1xf32>) -> tensor<2x2x32x32xf32>
    %711 = stablehlo.subtract %705, %710 : tensor<2x2x32x32xf32>
    %712 = stablehlo.exponential %711 : tensor<2x2x32x32xf32>
    %713 = stablehlo.reduce(%712 init: %cst_15) applies stablehlo.add across dimensions = [3] : (tensor<2x2x32x32xf32>, tensor<f32>) -> tensor<2x2x32xf32>
    %714 = stablehlo.broadcast_in_dim %713, dims = [0, 1, 2] : (tensor<2x2x32xf32>) -> tensor<2x2x32x1xf32>
    %715 = stablehlo.broadcast_in_dim %714, dims = [0, 1, 2, 3] : (tensor<2x2x32x1xf32>) -> tensor<2x2x32x32xf32>
    %716 = stablehlo.divide %712, %715 : tensor<2x2x32x32xf32>
    %717 = stablehlo.broadcast_in_dim %cst_4, dims = [] : (tensor<f32>) -> tensor<2x2x32x32xf32>
    %718 = stablehlo.compare EQ, %705, %717, FLOAT : (tensor<2x2x32x32xf32>, tensor<2x2x32x32xf32>) -> tensor<2x2x32x32xi1>
    %719 = stablehlo.not %718 : tensor<2x2x32x32xi1>
    %720 = stablehlo.reduce(%719 init: %c_3) applies stablehlo.or across dimensions = [3] : (tensor<2x2x32x32xi1>, tensor<i1>) -> tensor<2x2x32xi1>
    %721 = stablehlo.broadcast_in_dim %720, dims = [0, 1, 2] : (tensor<2x2x32xi1>) -> tensor<2x2x32x1xi1>
    %722 = stablehlo.not %721 : tensor<2x2x32x1xi1>
    %723 = stablehlo.broadcast_in_dim %cst_15, dims = [] : (tensor<f32>) -> tensor<2x2x32x32xf32>
    %724 = call @_where_3(%722, %723, %716) : (tensor<2x2x32x1xi1>, tensor<2x2x32x32xf32>, tensor<2x2x32x32xf32>) -> tensor<2x2x32x32xf32>
    %725 = stablehlo.reshape %724 : (tensor<2x2x32x32xf32>) -> tensor<4x32x32xf32>
    %726 = stablehlo.reshape %692 : (tensor<2x2x32x64xf32>) -> tensor<4x32x64xf32>
    %727 = stablehlo.dot_general %725, %726, batching_dims = [0] x [0], contracting_dims = [2] x [1] : (tensor<4x32x32xf32>, tensor<4x32x64xf32>) -> tensor<4x32x64xf32>
    %728 = stablehlo.reshape %727 : (tensor<4x32x64xf32>) -> tensor<2x2x32x64xf32>
    %729 = stablehlo.transpose %728, dims = [0, 2, 1, 3] : (tensor<2x2x32x64xf32>) -> tensor<2x32x2x64xf32>
    %730 = stablehlo.reshape %729 : (tensor<2x32x2x64xf32>) -> tensor<2x32x128xf32>
    %731 = stablehlo.transpose %arg43, dims = [1, 0] : (tensor<128x128xf32>) -> tensor<128x128xf32>
    %732 = stablehlo.reshape %730 : (tensor<2x32x128xf32>) -> tensor<64x128xf32>
    %733 = stablehlo.dot_general %732, %731, contracting_dims = [1] x [0] : (tensor<64x128xf32>, tensor<128x128xf32>) -> tensor<64x128xf32>
    %734 = stablehlo.reshape %733 : (tensor<64x128xf32>) -> tensor<2x32x128xf32>
    %735 = stablehlo.broadcast_in_dim %cst_5, dims = [] : (tensor<f32>) -> tensor<2x32x128xf32>
    %736 = stablehlo.multiply %734, %735 : tensor<2x32x128xf32>
    %737 = stablehlo.add %660, %736 : tensor<2x32x128xf32>
    %738 = stablehlo.broadcast_in_dim %cst_16, dims = [] : (tensor<f32>) -> tensor<2x32x128xf32>
    %739 = stablehlo.power %737, %738 : tensor<2x32x128xf32>
    %740 = stablehlo.reduce(%739 init: %cst_15) applies stablehlo.add across dimensions = [2] : (tensor<2x32x128xf32>, tensor<f32>) -> tensor<2x32xf32>
    %741 = stablehlo.broadcast_in_dim %740, dims = [0, 1] : (tensor<2x32xf32>) -> tensor<2x32x1xf32>
    %742 = stablehlo.broadcast_in_dim %cst_14, dims = [] : (tensor<f32>) -> tensor<2x32x1xf32>
    %743 = stablehlo.divide %741, %742 : tensor<2x32x1xf32>
    %744 = stablehlo.broadcast_in_dim %cst_13, dims = [] : (tensor<f32>) -> tensor<2x32x1xf32>
    %745 = stablehlo.add %743, %744 : tensor<2x32x1xf32>
    %746 = stablehlo.rsqrt %745 : tensor<2x32x1xf32>
    %747 = stablehlo.broadcast_in_dim %746, dims = [0, 1, 2] : (tensor<2x32x1xf32>) -> tensor<2x32x128xf32>
    %748 = stablehlo.multiply %737, %747 : tensor<2x32x128xf32>
    %749 = stablehlo.broadcast_in_dim %arg47, dims = [2] : (tensor<128xf32>) -> tensor<1x1x128xf32>
    %750 = stablehlo.broadcast_in_dim %749, dims = [0, 1, 2] : (tensor<1x1x128xf32>) -> tensor<2x32x128xf32>
    %751 = stablehlo.multiply %750, %748 : tensor<2x32x128xf32>
    %752 = stablehlo.transpose %arg45, dims = [1, 0] : (tensor<256x128xf32>) -> tensor<128x256xf32>
    %753 = stablehlo.reshape %751 : (tensor<2x32x128xf32>) -> tensor<64x128xf32>
    %754 = stablehlo.dot_general %753, %752, contracting_dims = [1] x [0] : (tensor<64x128xf32>, tensor<128x256xf32>) -> tensor<64x256xf32>
    %755 = stablehlo.reshape %754 : (tensor<64x256xf32>) -> tensor<2x32x256xf32>
    %756 = call @relu(%755) : (tensor<2x32x256xf32>) -> tensor<2x32x256xf32>
    %757 = stablehlo.transpose %arg46, dims = [1, 0] : (tensor<128x256xf32>) -> tensor<256x128xf32>
    %758 = stablehlo.reshape %756 : (tensor<2x32x256xf32>) -> tensor<64x256xf32>
    %759 = stablehlo.dot_general %758, %757, contracting_dims = [1] x [0] : (tensor<64x256xf32>, tensor<256x128xf32>) -> tensor<64x128xf32>
    %760 = stablehlo.reshape %759 : (tensor<64x128xf32>) -> tensor<2x32x128xf32>
    %761 = stablehlo.broadcast_in_dim %cst_5, dims = [] : (tensor<f32>) -> tensor<2x32x128xf32>
    %762 = stablehlo.multiply %760, %761 : tensor<2x32x128xf32>
    %763 = stablehlo.add %737, %762 : tensor<2x32x128xf32>
    %764 = stablehlo.broadcast_in_dim %cst_16, dims = [] : (tensor<f32>) -> tensor<2x32x128xf32>
    %765 = stablehlo.power %763, %764 : tensor<2x32x128xf32>
    %766 = stablehlo.reduce(%765 init: %cst_15) applies stablehlo.add across dimensions = [2] : (tensor<2x32x128xf32>, tensor<f32>) -> tensor<2x32xf32>
    %767 = stablehlo.broadcast_in_dim %766, dims = [0, 1] : (tensor<2x32xf32>) -> tensor<2x32x1xf32>
    %768 = stablehlo.broadcast_in_dim %cst_14, dims = [] : (tensor<f32>) -> tensor<2x32x1xf32>
    %769 = stablehlo.divide %767, %768 : tensor<2x32x1xf32>
    %770 = stablehlo.broadcast_in_dim %cst_13, dims = [] : (tensor<f32>) -> tensor<2x32x1xf32>
    %771 = stablehlo.add %769, %770 : tensor<2x32x1xf32>
    %772 = stablehlo.rsqrt %771 : tensor<2x32x1xf32>
    %773 = stablehlo.broadcast_in_dim %772, dims = [0, 1, 2] : (tensor<2x32x1xf32>) -> tensor<2x32x128xf32>
    %774 = stablehlo.multiply %763, %773 : tensor<2x32x128xf32>
    %775 = stablehlo.broadcast_in_dim %arg48, dims = [2] : (tensor<128xf32>) -> tensor<1x1x128xf32>
    %776 = stablehlo.broadcast_in_dim %775, dims = [0, 1, 2] : (tensor<1x1x128xf32>) -> tensor<2x32x128xf32>
    %777 = stablehlo.multiply %776, %774 : tensor<2x32x128xf32>
    %778 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<2x32x128xf32>
    %779 = stablehlo.multiply %777, %778 : tensor<2x32x128xf32>
    %780 = stablehlo.transpose %arg49, dims = [1, 0] : (tensor<1000x128xf32>) -> tensor<128x1000xf32>
    %781 = stablehlo.reshape %779 : (tensor<2x32x128xf32>) -> tensor<64x128xf32>
    %782 = stablehlo.dot_general %781, %780, contracting_dims = [1] x [0] : (tensor<64x128xf32>, tensor<128x1000xf32>) -> tensor<64x1000xf32>
    %783 = stablehlo.reshape %782 : (tensor<64x1000xf32>) -> tensor<2x32x1000xf32>
    return %783 : tensor<2x32x1000xf32>
  }
  func.func private @_take(%arg0: tensor<1000x128xf32>, %arg1: tensor<2x32xi64>) -> tensor<2x32x128xf32> {
    %cst = stablehlo.constant dense<0x7FC00000> : tensor<f32>
    %c = stablehlo.constant dense<true> : tensor<i1>
    %c_0 = stablehlo.constant dense<0> : tensor<i32>
    %c_1 = stablehlo.constant dense<999> : tensor<1xi32>
    %c_2 = stablehlo.constant dense<1000> : tensor<i64>
    %c_3 = stablehlo.constant dense<0> : tensor<i64>
    %0 = stablehlo.broadcast_in_dim %c_3, dims = [] : (tensor<i64>) -> tensor<2x32xi64>
    %1 = stablehlo.compare LT, %arg1, %0, SIGNED : (tensor<2x32xi64>, tensor<2x32xi64>) -> tensor<2x32xi1>
    %2 = stablehlo.broadcast_in_dim %c_2, dims = [] : (tensor<i64>) -> tensor<2x32xi64>
    %3 = stablehlo.add %arg1, %2 : tensor<2x32xi64>
    %4 = call @_where(%1, %3, %arg1) : (tensor<2x32xi1>, tensor<2x32xi64>, tensor<2x32xi64>) -> tensor<2x32xi64>
    %5 = stablehlo.broadcast_in_dim %4, dims = [0, 1] : (tensor<2x32xi64>) -> tensor<2x32x1xi64>
    %6 = stablehlo.convert %5 : (tensor<2x32x1xi64>) -> tensor<2x32x1xi32>
    %7 = stablehlo.broadcast_in_dim %c_0, dims = [] : (tensor<i32>) -> tensor<2x32x1xi32>
    %8 = stablehlo.compare GE, %6, %7, SIGNED : (tensor<2x32x1xi32>, tensor<2x32x1xi32>) -> tensor<2x32x1xi1>
    %9 = stablehlo.broadcast_in_dim %c_1, dims = [2] : (tensor<1xi32>) -> tensor<1x1x1xi32>
    %10 = stablehlo.broadcast_in_dim %9, dims = [0, 1, 2] : (tensor<1x1x1xi32>) -> tensor<2x32x1xi32>
    %11 = stablehlo.compare LE, %6, %10, SIGNED : (tensor<2x32x1xi32>, tensor<2x32x1xi32>) -> tensor<2x32x1xi1>
    %12 = stablehlo.and %8, %11 : tensor<2x32x1xi1>
    %13 = stablehlo.reduce(%12 init: %c) applies stablehlo.and across dimensions = [2] : (tensor<2x32x1xi1>, tensor<i1>) -> tensor<2x32xi1>
    %14 = "stablehlo.gather"(%arg0, %6) <{dimension_numbers = #stablehlo.gather<offset_dims = [2], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 2>, slice_sizes = array<i64: 1, 128>}> : (tensor<1000x128xf32>, tensor<2x32x1xi32>) -> tensor<2x32x128xf32>
    %15 = stablehlo.broadcast_in_dim %13, dims = [0, 1] : (tensor<2x32xi1>) -> tensor<2x32x128xi1>
    %16 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<2x32x128xf32>
    %17 = stablehlo.select %15, %14, %16 : tensor<2x32x128xi1>, tensor<2x32x128xf32>
    return %17 : tensor<2x32x128xf32>
  }
  func.func private @_where(%arg0: tensor<2x32xi1>, %arg1: tensor<2x32xi64>, %arg2: tensor<2x32xi64>) -> tensor<2x32xi64> {
    %0 = stablehlo.select %arg0, %arg1, %arg2 : tensor<2x32xi1>, tensor<2x32xi64>
    return %0 : tensor<2x32xi64>
  }
  func.func private @_where_0(%arg0: tensor<32x32xi1>, %arg1: tensor<32x32xi64>, %arg2: tensor<32x32xi64>) -> tensor<32x32xi64> {
    %0 = stablehlo.select %arg0, %arg1, %arg2 : tensor<32x32xi1>, tensor<32x32xi64>
    return %0 : tensor<32x32xi64>
  }
  func.func private @_take_1(%arg0: tensor<32x2xf32>, %arg1: tensor<32x32xi64>) -> tensor<32x32x2xf32> {
    %cst = stablehlo.constant dense<0x7FC00000> : tensor<f32>
    %c = stablehlo.constant dense<true> : tensor<i1>
    %c_0 = stablehlo.constant dense<0> : tensor<i32>
    %c_1 = stablehlo.constant dense<31> : tensor<1xi32>
    %c_2 = stablehlo.constant dense<32> : tensor<i64>
    %c_3 = stablehlo.constant dense<0> : tensor<i64>
    %0 = stablehlo.broadcast_in_dim %c_3, dims = [] : (tensor<i64>) -> tensor<32x32xi64>
    %1 = stablehlo.compare LT, %arg1, %0, SIGNED : (tensor<32x32xi64>, tensor<32x32xi64>) -> tensor<32x32xi1>
    %2 = stablehlo.broadcast_in_dim %c_2, dims = [] : (tensor<i64>) -> tensor<32x32xi64>
    %3 = stablehlo.add %arg1, %2 : tensor<32x32xi64>
    %4 = call @_where_0(%1, %3, %arg1) : (tensor<32x32xi1>, tensor<32x32xi64>, tensor<32x32xi64>) -> tensor<32x32xi64>
    %5 = stablehlo.broadcast_in_dim %4, dims = [0, 1] : (tensor<32x32xi64>) -> tensor<32x32x1xi64>
    %6 = stablehlo.convert %5 : (tensor<32x32x1xi64>) -> tensor<32x32x1xi32>
    %7 = stablehlo.broadcast_in_dim %c_0, dims = [] : (tensor<i32>) -> tensor<32x32x1xi32>
    %8 = stablehlo.compare GE, %6, %7, SIGNED : (tensor<32x32x1xi32>, tensor<32x32x1xi32>) -> tensor<32x32x1xi1>
    %9 = stablehlo.broadcast_in_dim %c_1, dims = [2] : (tensor<1xi32>) -> tensor<1x1x1xi32>
    %10 = stablehlo.broadcast_in_dim %9, dims = [0, 1, 2] : (tensor<1x1x1xi32>) -> tensor<32x32x1xi32>
    %11 = stablehlo.compare LE, %6, %10, SIGNED : (tensor<32x32x1xi32>, tensor<32x32x1xi32>) -> tensor<32x32x1xi1>
    %12 = stablehlo.and %8, %11 : tensor<32x32x1xi1>
    %13 = stablehlo.reduce(%12 init: %c) applies stablehlo.and across dimensions = [2] : (tensor<32x32x1xi1>, tensor<i1>) -> tensor<32x32xi1>
    %14 = "stablehlo.gather"(%arg0, %6) <{dimension_numbers = #stablehlo.gather<offset_dims = [2], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 2>, slice_sizes = array<i64: 1, 2>}> : (tensor<32x2xf32>, tensor<32x32x1xi32>) -> tensor<32x32x2xf32>
    %15 = stablehlo.broadcast_in_dim %13, dims = [0, 1] : (tensor<32x32xi1>) -> tensor<32x32x2xi1>
    %16 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<32x32x2xf32>
    %17 = stablehlo.select %15, %14, %16 : tensor<32x32x2xi1>, tensor<32x32x2xf32>
    return %17 : tensor<32x32x2xf32>
  }
  func.func private @_where_2(%arg0: tensor<2x1x32x32xi1>, %arg1: tensor<1x2x32x32xf32>, %arg2: tensor<f32>) -> tensor<2x2x32x32xf32> {
    %0 = stablehlo.broadcast_in_dim %arg0, dims = [0, 1, 2, 3] : (tensor<2x1x32x32xi1>) -> tensor<2x2x32x32xi1>
    %1 = stablehlo.broadcast_in_dim %arg1, dims = [0, 1, 2, 3] : (tensor<1x2x32x32xf32>) -> tensor<2x2x32x32xf32>
    %2 = stablehlo.broadcast_in_dim %arg2, dims = [] : (tensor<f32>) -> tensor<2x2x32x32xf32>
    %3 = stablehlo.select %0, %1, %2 : tensor<2x2x32x32xi1>, tensor<2x2x32x32xf32>
    return %3 : tensor<2x2x32x32xf32>
  }
  func.func private @_where_3(%arg0: tensor<2x2x32x1xi1>, %arg1: tensor<2x2x32x32xf32>, %arg2: tensor<2x2x32x32xf32>) -> tensor<2x2x32x32xf32> {
    %0 = stablehlo.broadcast_in_dim %arg0, dims = [0, 1, 2, 3] : (tensor<2x2x32x1xi1>) -> tensor<2x2x32x32xi1>
    %1 = stablehlo.select %0, %arg1, %arg2 : tensor<2x2x32x32xi1>, tensor<2x2x32x32xf32>
    return %1 : tensor<2x2x32x32xf32>
  }
  func.func private @relu(%arg0: tensor<2x32x256xf32>) -> tensor<2x32x256xf32> {
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %0 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<2x32x256xf32>
    %1 = stablehlo.maximum %arg0, %0 : tensor<2x32x256xf32>
    return %1 : tensor<2x32x256xf32>
  }
}
