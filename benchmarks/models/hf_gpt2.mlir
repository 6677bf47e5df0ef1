module @jit_fn attributes {jax.uses_shape_polymorphism = false, mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<1000x128xf32>, %arg1: tensor<64x128xf32>, %arg2: tensor<128xf32>, %arg3: tensor<128xf32>, %arg4: tensor<128x384xf32>, %arg5: tensor<384xf32>, %arg6: tensor<128x128xf32>, %arg7: tensor<128xf32>, %arg8: tensor<128xf32>, %arg9: tensor<128xf32>, %arg10: tensor<128x512xf32>, %arg11: tensor<512xf32>, %arg12: tensor<512x128xf32>, %arg13: tensor<128xf32>, %arg14: tensor<128xf32>, %arg15: tensor<128xf32>, %arg16: tensor<128x384xf32>, %arg17: tensor<384xf32>, %arg18: tensor<128x128xf32>, %arg19: tensor<128xf32>, %arg20: tensor<128xf32>, %arg21: tensor<128xf32>, %arg22: tensor<128x512xf32>, %arg23: tensor<512xf32>, %arg24: tensor<512x128xf32>, %arg25: tensor<128xf32>, %arg26: tensor<128xf32>, %arg27: tensor<128xf32>, %arg28: tensor<1000x128xf32>, %arg29: tensor<2x32xi64>) -> (tensor<2x32x1000xf32> {jax.result_info = "result[0]"}) {
    %cst = stablehlo.constant dense<0.797884583> : tensor<f32>
    %cst_0 = stablehlo.constant dense<4.471500e-02> : tensor<f32>
    %cst_1 = stablehlo.constant dense<3.000000e+00> : tensor<f32>
    %cst_2 = stablehlo.constant dense<5.000000e-01> : tensor<f32>
    %c = stablehlo.constant dense<false> : tensor<i1>
    %cst_3 = stablehlo.constant dense<0.353553385> : tensor<f32>
    %cst_4 = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %cst_5 = stablehlo.constant dense<9.99999974E-6> : tensor<f32>
    %cst_6 = stablehlo.constant dense<1.280000e+02> : tensor<f32>
    %cst_7 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %c_8 = stablehlo.constant dense<true> : tensor<i1>
    %c_9 = stablehlo.constant dense<32> : tensor<i64>
    %c_10 = stablehlo.constant dense<2> : tensor<i64>
    %c_11 = stablehlo.constant dense<1> : tensor<i64>
    %cst_12 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %c_13 = stablehlo.constant dense<0> : tensor<i64>
    %0 = call @_take(%arg28, %arg29) : (tensor<1000x128xf32>, tensor<2x32xi64>) -> tensor<2x32x128xf32>
    %1 = stablehlo.iota dim = 0 : tensor<32xi64>
    %2 = stablehlo.broadcast_in_dim %c_13, dims = [] : (tensor<i64>) -> tensor<32xi64>
    %3 = stablehlo.add %1, %2 : tensor<32xi64>
    %4 = stablehlo.broadcast_in_dim %3, dims = [1] : (tensor<32xi64>) -> tensor<1x32xi64>
    %5 = call @_take_0(%arg1, %4) : (tensor<64x128xf32>, tensor<1x32xi64>) -> tensor<1x32x128xf32>
    %6 = stablehlo.broadcast_in_dim %cst_12, dims = [] : (tensor<f32>) -> tensor<1x32x128xf32>
    %7 = stablehlo.multiply %5, %6 : tensor<1x32x128xf32>
    %8 = stablehlo.broadcast_in_dim %7, dims = [0, 1, 2] : (tensor<1x32x128xf32>) -> tensor<2x32x128xf32>
    %9 = stablehlo.add %0, %8 : tensor<2x32x128xf32>
    %10 = stablehlo.broadcast_in_dim %4, dims = [0, 1] : (tensor<1x32xi64>) -> tensor<2x32xi64>
    %11 = stablehlo.slice %10 [0:2, 0:1] : (tensor<2x32xi64>) -> tensor<2x1xi64>
    %12 = stablehlo.broadcast_in_dim %c_11, dims = [] : (tensor<i64>) -> tensor<2x1xi64>
    %13 = stablehlo.subtract %11, %12 : tensor<2x1xi64>
    %14 = stablehlo.concatenate %13, %10, dim = 1 : (tensor<2x1xi64>, tensor<2x32xi64>) -> tensor<2x33xi64>
    %15 = stablehlo.slice %14 [0:2, 0:32] : (tensor<2x33xi64>) -> tensor<2x32xi64>
    %16 = stablehlo.slice %14 [0:2, 1:33] : (tensor<2x33xi64>) -> tensor<2x32xi64>
    %17 = stablehlo.broadcast_in_dim %c_11, dims = [] : (tensor<i64>) -> tensor<2x32xi64>
    %18 = stablehlo.multiply %15, %17 : tensor<2x32xi64>
    %19 = stablehlo.subtract %16, %18 : tensor<2x32xi64>
    %20 = stablehlo.broadcast_in_dim %c_11, dims = [] : (tensor<i64>) -> tensor<2x32xi64>
    %21 = stablehlo.compare NE, %19, %20, SIGNED : (tensor<2x32xi64>, tensor<2x32xi64>) -> tensor<2x32xi1>
    %22 = call @cumsum(%21) : (tensor<2x32xi1>) -> tensor<2x32xi64>
    %23 = stablehlo.broadcast_in_dim %4, dims = [0, 1] : (tensor<1x32xi64>) -> tensor<2x32xi64>
    %24 = stablehlo.iota dim = 0 : tensor<2xi64>
    %25 = stablehlo.iota dim = 0 : tensor<32xi64>
    %26 = stablehlo.broadcast_in_dim %c_13, dims = [] : (tensor<i64>) -> tensor<32xi64>
    %27 = stablehlo.add %25, %26 : tensor<32xi64>
    %28 = stablehlo.iota dim = 0 : tensor<32xi64>
    %29 = stablehlo.broadcast_in_dim %c_13, dims = [] : (tensor<i64>) -> tensor<32xi64>
    %30 = stablehlo.add %28, %29 : tensor<32xi64>
    %31 = stablehlo.broadcast_in_dim %24, dims = [0] : (tensor<2xi64>) -> tensor<2x1xi64>
    %32 = stablehlo.broadcast_in_dim %31, dims = [0, 1] : (tensor<2x1xi64>) -> tensor<2x1x1xi64>
    %33 = stablehlo.broadcast_in_dim %32, dims = [0, 1, 2] : (tensor<2x1x1xi64>) -> tensor<2x1x1x1xi64>
    %34 = stablehlo.broadcast_in_dim %27, dims = [1] : (tensor<32xi64>) -> tensor<1x32xi64>
    %35 = stablehlo.broadcast_in_dim %34, dims = [0, 2] : (tensor<1x32xi64>) -> tensor<1x1x32xi64>
    %36 = stablehlo.broadcast_in_dim %35, dims = [0, 1, 2] : (tensor<1x1x32xi64>) -> tensor<1x1x32x1xi64>
    %37 = stablehlo.broadcast_in_dim %30, dims = [1] : (tensor<32xi64>) -> tensor<1x32xi64>
    %38 = stablehlo.broadcast_in_dim %37, dims = [0, 2] : (tensor<1x32xi64>) -> tensor<1x1x32xi64>
    %39 = stablehlo.broadcast_in_dim %38, dims = [0, 1, 3] : (tensor<1x1x32xi64>) -> tensor<1x1x1x32xi64>
    %40 = stablehlo.broadcast_in_dim %c_13, dims = [] : (tensor<i64>) -> tensor<2x1x1x1xi64>
    %41 = stablehlo.compare LT, %33, %40, SIGNED : (tensor<2x1x1x1xi64>, tensor<2x1x1x1xi64>) -> tensor<2x1x1x1xi1>
    %42 = stablehlo.broadcast_in_dim %c_10, dims = [] : (tensor<i64>) -> tensor<2x1x1x1xi64>
    %43 = stablehlo.add %33, %42 : tensor<2x1x1x1xi64>
    %44 = stablehlo.select %41, %43, %33 : tensor<2x1x1x1xi1>, tensor<2x1x1x1xi64>
    %45 = stablehlo.broadcast_in_dim %c_13, dims = [] : (tensor<i64>) -> tensor<1x1x32x1xi64>
    %46 = stablehlo.compare LT, %36, %45, SIGNED : (tensor<1x1x32x1xi64>, tensor<1x1x32x1xi64>) -> tensor<1x1x32x1xi1>
    %47 = stablehlo.broadcast_in_dim %c_9, dims = [] : (tensor<i64>) -> tensor<1x1x32x1xi64>
    %48 = stablehlo.add %36, %47 : tensor<1x1x32x1xi64>
    %49 = stablehlo.select %46, %48, %36 : tensor<1x1x32x1xi1>, tensor<1x1x32x1xi64>
    %50 = stablehlo.broadcast_in_dim %44, dims = [0, 1, 2, 3] : (tensor<2x1x1x1xi64>) -> tensor<2x1x32x1xi64>
    %51 = stablehlo.broadcast_in_dim %49, dims = [0, 1, 2, 3] : (tensor<1x1x32x1xi64>) -> tensor<2x1x32x1xi64>
    %52 = stablehlo.convert %50 : (tensor<2x1x32x1xi64>) -> tensor<2x1x32x1xi32>
    %53 = stablehlo.convert %51 : (tensor<2x1x32x1xi64>) -> tensor<2x1x32x1xi32>
    %54 = stablehlo.broadcast_in_dim %52, dims = [0, 1, 2, 3] : (tensor<2x1x32x1xi32>) -> tensor<2x1x32x1x1xi32>
    %55 = stablehlo.broadcast_in_dim %53, dims = [0, 1, 2, 3] : (tensor<2x1x32x1xi32>) -> tensor<2x1x32x1x1xi32>
    %56 = stablehlo.concatenate %54, %55, dim = 4 : (tensor<2x1x32x1x1xi32>, tensor<2x1x32x1x1xi32>) -> tensor<2x1x32x1x2xi32>
    %57 = "stablehlo.gather"(%23, %56) <{dimension_numbers = #stablehlo.gather<collapsed_slice_dims = [0, 1], start_index_map = [0, 1], index_vector_dim = 4>, slice_sizes = array<i64: 1, 1>}> : (tensor<2x32xi64>, tensor<2x1x32x1x2xi32>) -> tensor<2x1x32x1xi64>
    %58 = stablehlo.broadcast_in_dim %c_13, dims = [] : (tensor<i64>) -> tensor<2x1x1x1xi64>
    %59 = stablehlo.compare LT, %33, %58, SIGNED : (tensor<2x1x1x1xi64>, tensor<2x1x1x1xi64>) -> tensor<2x1x1x1xi1>
    %60 = stablehlo.broadcast_in_dim %c_10, dims = [] : (tensor<i64>) -> tensor<2x1x1x1xi64>
    %61 = stablehlo.add %33, %60 : tensor<2x1x1x1xi64>
    %62 = stablehlo.select %59, %61, %33 : tensor<2x1x1x1xi1>, tensor<2x1x1x1xi64>
    %63 = stablehlo.broadcast_in_dim %c_13, dims = [] : (tensor<i64>) -> tensor<1x1x1x32xi64>
    %64 = stablehlo.compare LT, %39, %63, SIGNED : (tensor<1x1x1x32xi64>, tensor<1x1x1x32xi64>) -> tensor<1x1x1x32xi1>
    %65 = stablehlo.broadcast_in_dim %c_9, dims = [] : (tensor<i64>) -> tensor<1x1x1x32xi64>
    %66 = stablehlo.add %39, %65 : tensor<1x1x1x32xi64>
    %67 = stablehlo.select %64, %66, %39 : tensor<1x1x1x32xi1>, tensor<1x1x1x32xi64>
    %68 = stablehlo.broadcast_in_dim %62, dims = [0, 1, 2, 3] : (tensor<2x1x1x1xi64>) -> tensor<2x1x1x32xi64>
    %69 = stablehlo.broadcast_in_dim %67, dims = [0, 1, 2, 3] : (tensor<1x1x1x32xi64>) -> tensor<2x1x1x32xi64>
    %70 = stablehlo.convert %68 : (tensor<2x1x1x32xi64>) -> tensor<2x1x1x32xi32>
    %71 = stablehlo.convert %69 : (tensor<2x1x1x32xi64>) -> tensor<2x1x1x32xi32>
    %72 = stablehlo.broadcast_in_dim %70, dims = [0, 1, 2, 3] : (tensor<2x1x1x32xi32>) -> tensor<2x1x1x32x1xi32>
    %73 = stablehlo.broadcast_in_dim %71, dims = [0, 1, 2, 3] : (tensor<2x1x1x32xi32>) -> tensor<2x1x1x32x1xi32>
    %74 = stablehlo.concatenate %72, %73, dim = 4 : (tensor<2x1x1x32x1xi32>, tensor<2x1x1x32x1xi32>) -> tensor<2x1x1x32x2xi32>
    %75 = "stablehlo.gather"(%23, %74) <{dimension_numbers = #stablehlo.gather<collapsed_slice_dims = [0, 1], start_index_map = [0, 1], index_vector_dim = 4>, slice_sizes = array<i64: 1, 1>}> : (tensor<2x32xi64>, tensor<2x1x1x32x2xi32>) -> tensor<2x1x1x32xi64>
    %76 = stablehlo.broadcast_in_dim %75, dims = [0, 1, 2, 3] : (tensor<2x1x1x32xi64>) -> tensor<2x1x32x32xi64>
    %77 = stablehlo.broadcast_in_dim %57, dims = [0, 1, 2, 3] : (tensor<2x1x32x1xi64>) -> tensor<2x1x32x32xi64>
    %78 = stablehlo.compare LE, %76, %77, SIGNED : (tensor<2x1x32x32xi64>, tensor<2x1x32x32xi64>) -> tensor<2x1x32x32xi1>
    %79 = stablehlo.broadcast_in_dim %c_8, dims = [] : (tensor<i1>) -> tensor<2x1x32x32xi1>
    %80 = stablehlo.and %79, %78 : tensor<2x1x32x32xi1>
    %81 = stablehlo.broadcast_in_dim %c_13, dims = [] : (tensor<i64>) -> tensor<2x1x1x1xi64>
    %82 = stablehlo.compare LT, %33, %81, SIGNED : (tensor<2x1x1x1xi64>, tensor<2x1x1x1xi64>) -> tensor<2x1x1x1xi1>
    %83 = stablehlo.broadcast_in_dim %c_10, dims = [] : (tensor<i64>) -> tensor<2x1x1x1xi64>
    %84 = stablehlo.add %33, %83 : tensor<2x1x1x1xi64>
    %85 = stablehlo.select %82, %84, %33 : tensor<2x1x1x1xi1>, tensor<2x1x1x1xi64>
    %86 = stablehlo.broadcast_in_dim %c_13, dims = [] : (tensor<i64>) -> tensor<1x1x32x1xi64>
    %87 = stablehlo.compare LT, %36, %86, SIGNED : (tensor<1x1x32x1xi64>, tensor<1x1x32x1xi64>) -> tensor<1x1x32x1xi1>
    %88 = stablehlo.broadcast_in_dim %c_9, dims = [] : (tensor<i64>) -> tensor<1x1x32x1xi64>
    %89 = stablehlo.add %36, %88 : tensor<1x1x32x1xi64>
    %90 = stablehlo.select %87, %89, %36 : tensor<1x1x32x1xi1>, tensor<1x1x32x1xi64>
    %91 = stablehlo.broadcast_in_dim %85, dims = [0, 1, 2, 3] : (tensor<2x1x1x1xi64>) -> tensor<2x1x32x1xi64>
    %92 = stablehlo.broadcast_in_dim %90, dims = [0, 1, 2, 3] : (tensor<1x1x32x1xi64>) -> tensor<2x1x32x1xi64>
    %93 = stablehlo.convert %91 : (tensor<2x1x32x1xi64>) -> tensor<2x1x32x1xi32>
    %94 = stablehlo.convert %92 : (tensor<2x1x32x1xi64>) -> tensor<2x1x32x1xi32>
    %95 = stablehlo.broadcast_in_dim %93, dims = [0, 1, 2, 3] : (tensor<2x1x32x1xi32>) -> tensor<2x1x32x1x1xi32>
    %96 = stablehlo.broadcast_in_dim %94, dims = [0, 1, 2, 3] : (tensor<2x1x32x1xi32>) -> tensor<2x1x32x1x1xi32>
    %97 = stablehlo.concatenate %95, %96, dim = 4 : (tensor<2x1x32x1x1xi32>, tensor<2x1x32x1x1xi32>) -> tensor<2x1x32x1x2xi32>
    %98 = "stablehlo.gather"(%22, %97) <{dimension_numbers = #stablehlo.gather<collapsed_slice_dims = [0, 1], start_index_map = [0, 1], index_vector_dim = 4>, slice_sizes = array<i64: 1, 1>}> : (tensor<2x32xi64>, tensor<2x1x32x1x2xi32>) -> tensor<2x1x32x1xi64>
    %99 = stablehlo.broadcast_in_dim %c_13, dims = [] : (tensor<i64>) -> tensor<2x1x1x1xi64>
    %100 = stablehlo.compare LT, %33, %99, SIGNED : (tensor<2x1x1x1xi64>, tensor<2x1x1x1xi64>) -> tensor<2x1x1x1xi1>
    %101 = stablehlo.broadcast_in_dim %c_10, dims = [] : (tensor<i64>) -> tensor<2x1x1x1xi64>
    %102 = stablehlo.add %33, %101 : tensor<2x1x1x1xi64>
    %103 = stablehlo.select %100, %102, %33 : tensor<2x1x1x1xi1>, tensor<2x1x1x1xi64>
    %104 = stablehlo.broadcast_in_dim %c_13, dims = [] : (tensor<i64>) -> tensor<1x1x1x32xi64>
    %105 = stablehlo.compare LT, %39, %104, SIGNED : (tensor<1x1x1x32xi64>, tensor<1x1x1x32xi64>) -> tensor<1x1x1x32xi1>
    %106 = stablehlo.broadcast_in_dim %c_9, dims = [] : (tensor<i64>) -> tensor<1x1x1x32xi64>
    %107 = stablehlo.add %39, %106 : tensor<1x1x1x32xi64>
    %108 = stablehlo.select %105, %107, %39 : tensor<1x1x1x32xi1>, tensor<1x1x1x32xi64>
    %109 = stablehlo.broadcast_in_dim %103, dims = [0, 1, 2, 3] : (tensor<2x1x1x1xi64>) -> tensor<2x1x1x32xi64>
    %110 = stablehlo.broadcast_in_dim %108, dims = [0, 1, 2, 3] : (tensor<1x1x1x32xi64>) -> tensor<2x1x1x32xi64>
    %111 = stablehlo.convert %109 : (tensor<2x1x1x32xi64>) -> tensor<2x1x1x32xi32>
    %112 = stablehlo.convert %110 : (tensor<2x1x1x32xi64>) -> tensor<2x1x1x32xi32>
    %113 = stablehlo.broadcast_in_dim %111, dims = [0, 1, 2, 3] : (tensor<2x1x1x32xi32>) -> tensor<2x1x1x32x1xi32>
    %114 = stablehlo.broadcast_in_dim %112, dims = [0, 1, 2, 3] : (tensor<2x1x1x32xi32>) -> tensor<2x1x1x32x1xi32>
    %115 = stablehlo.concatenate %113, %114, dim = 4 : (tensor<2x1x1x32x1xi32>, tensor<2x1x1x32x1xi32>) -> tensor<2x1x1x32x2xi32>
    %116 = "stablehlo.gather"(%22, %115) <{dimension_numbers = #stablehlo.gather<collapsed_slice_dims = [0, 1], start_index_map = [0, 1], index_vector_dim = 4>, slice_sizes = array<i64: 1, 1>}> : (tensor<2x32xi64>, tensor<2x1x1x32x2xi32>) -> tensor<2x1x1x32xi64>
    %117 = stablehlo.broadcast_in_dim %98, dims = [0, 1, 2, 3] : (tensor<2x1x32x1xi64>) -> tensor<2x1x32x32xi64>
    %118 = stablehlo.broadcast_in_dim %116, dims = [0, 1, 2, 3] : (tensor<2x1x1x32xi64>) -> tensor<2x1x32x32xi64>
    %119 = stablehlo.compare EQ, %117, %118, SIGNED : (tensor<2x1x32x32xi64>, tensor<2x1x32x32xi64>) -> tensor<2x1x32x32xi1>
    %120 = stablehlo.and %80, %119 : tensor<2x1x32x32xi1>
    %121 = stablehlo.reduce(%9 init: %cst_7) applies stablehlo.add across dimensions = [2] : (tensor<2x32x128xf32>, tensor<f32>) -> tensor<2x32xf32>
    %122 = stablehlo.broadcast_in_dim %121, dims = [0, 1] : (tensor<2x32xf32>) -> tensor<2x32x1xf32>
    %123 = stablehlo.broadcast_in_dim %cst_6, dims = [] : (tensor<f32>) -> tensor<2x32x1xf32>
    %124 = stablehlo.divide %122, %123 : tensor<2x32x1xf32>
    %125 = call @_var(%9, %c_13) : (tensor<2x32x128xf32>, tensor<i64>) -> tensor<2x32x1xf32>
    %126 = stablehlo.broadcast_in_dim %cst_5, dims = [] : (tensor<f32>) -> tensor<2x32x1xf32>
    %127 = stablehlo.add %125, %126 : tensor<2x32x1xf32>
    %128 = stablehlo.rsqrt %127 : tensor<2x32x1xf32>
    %129 = stablehlo.broadcast_in_dim %124, dims = [0, 1, 2] : (tensor<2x32x1xf32>) -> tensor<2x32x128xf32>
    %130 = stablehlo.subtract %9, %129 : tensor<2x32x128xf32>
    %131 = stablehlo.broadcast_in_dim %128, dims = [0, 1, 2] : (tensor<2x32x1xf32>) -> tensor<2x32x128xf32>
    %132 = stablehlo.multiply %130, %131 : tensor<2x32x128xf32>
    %133 = stablehlo.broadcast_in_dim %arg2, dims = [2] : (tensor<128xf32>) -> tensor<1x1x128xf32>
    %134 = stablehlo.broadcast_in_dim %133, dims = [0, 1, 2] : (tensor<1x1x128xf32>) -> tensor<2x32x128xf32>
    %135 = stablehlo.multiply %132, %134 : tensor<2x32x128xf32>
    %136 = stablehlo.broadcast_in_dim %arg3, dims = [2] : (tensor<128xf32>) -> tensor<1x1x128xf32>
    %137 = stablehlo.broadcast_in_dim %136, dims = [0, 1, 2] : (tensor<1x1x128xf32>) -> tensor<2x32x128xf32>
    %138 = stablehlo.add %135, %137 : tensor<2x32x128xf32>
    %139 = stablehlo.reshape %138 : (tensor<2x32x128xf32>) -> tensor<64x128xf32>
    %140 = stablehlo.broadcast_in_dim %cst_12, dims = [] : (tensor<f32>) -> tensor<384xf32>
    %141 = stablehlo.multiply %arg5, %140 : tensor<384xf32>
    %142 = stablehlo.dot_general %139, %arg4, contracting_dims = [1] x [0] : (tensor<64x128xf32>, tensor<128x384xf32>) -> tensor<64x384xf32>
    %143 = stablehlo.broadcast_in_dim %cst_12, dims = [] : (tensor<f32>) -> tensor<64x384xf32>
    %144 = stablehlo.multiply %143, %142 : tensor<64x384xf32>
    %145 = stablehlo.broadcast_in_dim %141, dims = [1] : (tensor<384xf32>) -> tensor<1x384xf32>
    %146 = stablehlo.broadcast_in_dim %145, dims = [0, 1] : (tensor<1x384xf32>) -> tensor<64x384xf32>
    %147 = stablehlo.add %146, %144 : tensor<64x384xf32>
    %148 = stablehlo.reshape %147 : (tensor<64x384xf32>) -> tensor<2x32x384xf32>
    %149 = stablehlo.slice %148 [0:2, 0:32, 0:128] : (tensor<2x32x384xf32>) -> tensor<2x32x128xf32>
    %150 = stablehlo.slice %148 [0:2, 0:32, 128:256] : (tensor<2x32x384xf32>) -> tensor<2x32x128xf32>
    %151 = stablehlo.slice %148 [0:2, 0:32, 256:384] : (tensor<2x32x384xf32>) -> tensor<2x32x128xf32>
    %152 = stablehlo.reshape %150 : (tensor<2x32x128xf32>) -> tensor<2x32x2x64xf32>
    %153 = stablehlo.transpose %152, dims = [0, 2, 1, 3] : (tensor<2x32x2x64xf32>) -> tensor<2x2x32x64xf32>
    %154 = stablehlo.reshape %151 : (tensor<2x32x128xf32>) -> tensor<2x32x2x64xf32>
    %155 = stablehlo.transpose %154, dims = [0, 2, 1, 3] : (tensor<2x32x2x64xf32>) -> tensor<2x2x32x64xf32>
    %156 = stablehlo.reshape %149 : (tensor<2x32x128xf32>) -> tensor<2x32x2x64xf32>
    %157 = stablehlo.transpose %156, dims = [0, 2, 1, 3] : (tensor<2x32x2x64xf32>) -> tensor<2x2x32x64xf32>
    %158 = call @_where_4(%120, %cst_7, %cst_4) : (tensor<2x1x32x32xi1>, tensor<f32>, tensor<f32>) -> tensor<2x1x32x32xf32>
    %159 = stablehlo.broadcast_in_dim %cst_3, dims = [] : (tensor<f32>) -> tensor<2x2x32x64xf32>
    %160 = stablehlo.multiply %157, %159 : tensor<2x2x32x64xf32>
    %161 = stablehlo.transpose %153, dims = [0, 1, 3, 2] : (tensor<2x2x32x64xf32>) -> tensor<2x2x64x32xf32>
    %162 = stablehlo.broadcast_in_dim %cst_3, dims = [] : (tensor<f32>) -> tensor<2x2x64x32xf32>
    %163 = stablehlo.multiply %161, %162 : tensor<2x2x64x32xf32>
    %164 = stablehlo.reshape %160 : (tensor<2x2x32x64xf32>) -> tensor<4x32x64xf32>
    %165 = stablehlo.reshape %163 : (tensor<2x2x64x32xf32>) -> tensor<4x64x32xf32>
    %166 = stablehlo.dot_general %164, %165, batching_dims = [0] x [0], contracting_dims = [2] x [1] : (tensor<4x32x64xf32>, tensor<4x64x32xf32>) -> tensor<4x32x32xf32>
    %167 = stablehlo.reshape %166 : (tensor<4x32x32xf32>) -> tensor<2x2x32x32xf32>
    %168 = stablehlo.broadcast_in_dim %cst_12, dims = [] : (tensor<f32>) -> tensor<2x1x32x32xf32>
    %169 = stablehlo.multiply %158, %168 : tensor<2x1x32x32xf32>
    %170 = stablehlo.broadcast_in_dim %169, dims = [0, 1, 2, 3] : (tensor<2x1x32x32xf32>) -> tensor<2x2x32x32xf32>
    %171 = stablehlo.add %167, %170 : tensor<2x2x32x32xf32>
    %172 = stablehlo.reduce(%171 init: %cst_4) applies stablehlo.maximum across dimensions = [3] : (tensor<2x2x32x32xf32>, tensor<f32>) -> tensor<2x2x32xf32>
    %173 = stablehlo.broadcast_in_dim %cst_4, dims = [] : (tensor<f32>) -> tensor<2x2x32xf32>
    %174 = stablehlo.maximum %173, %172 : tensor<2x2x32xf32>
    %175 = stablehlo.broadcast_in_dim %174, dims = [0, 1, 2] : (tensor<2x2x32xf32>) -> tensor<2x2x32x1xf32>
    %176 = stablehlo.broadcast_in_dim %175, dims = [0, 1, 2, 3] : (tensor<2x2x32x1xf32>) -> tensor<2x2x32x32xf32>
    %177 = stablehlo.subtract %171, %176 : tensor<2x2x32x32xf32>
    %178 = stablehlo.exponential %177 : tensor<2x2x32x32xf32>
    %179 = stablehlo.reduce(%178 init: %cst_7) applies stablehlo.add across dimensions = [3] : (tensor<2x2x32x32xf32>, tensor<f32>) -> tensor<2x2x32xf32>
    %180 = stablehlo.broadcast_in_dim %179, dims = [0, 1, 2] : (tensor<2x2x32xf32>) -> tensor<2x2x32x1xf32>
    %181 = stablehlo.broadcast_in_dim %180, dims = [0, 1, 2, 3] : (tensor<2x2x32x1xf32>) -> tensor<2x2x32x32xf32>
    %182 = stablehlo.divide %178, %181 : tensor<2x2x32x32xf32>
    %183 = stablehlo.broadcast_in_dim %cst_4, dims = [] : (tensor<f32>) -> tensor<2x2x32x32xf32>
    %184 = stablehlo.compare EQ, %171, %183, FLOAT : (tensor<2x2x32x32xf32>, tensor<2x2x32x32xf32>) -> tensor<2x2x32x32xi1>
    %185 = stablehlo.not %184 : tensor<2x2x32x32xi1>
    %186 = stablehlo.reduce(%185 init: %c) applies stablehlo.or across dimensions = [3] : (tensor<2x2x32x32xi1>, tensor<i1>) -> tensor<2x2x32xi1>
    %187 = stablehlo.broadcast_in_dim %186, dims = [0, 1, 2] : (tensor<2x2x32xi1>) -> tensor<2x2x32x1xi1>
    %188 = stablehlo.not %187 : tensor<2x2x32x1xi1>
    %189 = stablehlo.broadcast_in_dim %cst_7, dims = [] : (tensor<f32>) -> tensor<2x2x32x32xf32>
    %190 = call @_where_5(%188, %189, %182) : (tensor<2x2x32x1xi1>, tensor<2x2x32x32xf32>, tensor<2x2x32x32xf32>) -> tensor<2x2x32x32xf32>
    %191 = stablehlo.reshape %190 : (tensor<2x2x32x32xf32>) -> tensor<4x32x32xf32>
    %192 = stablehlo.reshape %155 : (tensor<2x2x32x64xf32>) -> tensor<4x32x64xf32>
    %193 = stablehlo.dot_general %191, %192, batching_dims = [0] x [0], contracting_dims = [2] x [1] : (tensor<4x32x32xf32>, tensor<4x32x64xf32>) -> tensor<4x32x64xf32>
    %194 = stablehlo.reshape %193 : (tensor<4x32x64xf32>) -> tensor<2x2x32x64xf32>
    %195 = stablehlo.transpose %194, dims = [0, 2, 1, 3] : (tensor<2x2x32x64xf32>) -> tensor<2x32x2x64xf32>
    %196 = stablehlo.reshape %195 : (tensor<2x32x2x64xf32>) -> tensor<2x32x128xf32>
    %197 = stablehlo.reshape %196 : (tensor<2x32x128xf32>) -> tensor<64x128xf32>
    %198 = stablehlo.broadcast_in_dim %cst_12, dims = [] : (tensor<f32>) -> tensor<128xf32>
    %199 = stablehlo.multiply %arg7, %198 : tensor<128xf32>
    %200 = stablehlo.dot_general %197, %arg6, contracting_dims = [1] x [0] : (tensor<64x128xf32>, tensor<128x128xf32>) -> tensor<64x128xf32>
    %201 = stablehlo.broadcast_in_dim %cst_12, dims = [] : (tensor<f32>) -> tensor<64x128xf32>
    %202 = stablehlo.multiply %201, %200 : tensor<64x128xf32>
    %203 = stablehlo.broadcast_in_dim %199, dims = [1] : (tensor<128xf32>) -> tensor<1x128xf32>
    %204 = stablehlo.broadcast_in_dim %203, dims = [0, 1] : (tensor<1x128xf32>) -> tensor<64x128xf32>
    %205 = stablehlo.add %204, %202 : tensor<64x128xf32>
    %206 = stablehlo.reshape %205 : (tensor<64x128xf32>) -> tensor<2x32x128xf32>
    %207 = stablehlo.broadcast_in_dim %cst_12, dims = [] : (tensor<f32>) -> tensor<2x32x128xf32>
    %208 = stablehlo.multiply %9, %207 : tensor<2x32x128xf32>
    %209 = stablehlo.add %206, %208 : tensor<2x32x128xf32>
    %210 = stablehlo.reduce(%209 init: %cst_7) applies stablehlo.add across dimensions = [2] : (tensor<2x32x128xf32>, tensor<f32>) -> tensor<2x32xf32>
    %211 = stablehlo.broadcast_in_dim %210, dims = [0, 1] : (tensor<2x32xf32>) -> tensor<2x32x1xf32>
    %212 = stablehlo.broadcast_in_dim %cst_6, dims = [] : (tensor<f32>) -> tensor<2x32x1xf32>
    %213 = stablehlo.divide %211, %212 : tensor<2x32x1xf32>
    %214 = call @_var(%209, %c_13) : (tensor<2x32x128xf32>, tensor<i64>) -> tensor<2x32x1xf32>
    %215 = stablehlo.broadcast_in_dim %cst_5, dims = [] : (tensor<f32>) -> tensor<2x32x1xf32>
    %216 = stablehlo.add %214, %215 : tensor<2x32x1xf32>
    %217 = stablehlo.rsqrt %216 : tensor<2x32x1xf32>
    %218 = stablehlo.broadcast_in_dim %213, dims = [0, 1, 2] : (tensor<2x32x1xf32>) -> tensor<2x32x128xf32>
    %219 = stablehlo.subtract %209, %218 : tensor<2x32x128xf32>
    %220 = stablehlo.broadcast_in_dim %217, dims = [0, 1, 2] : (tensor<2x32x1xf32>) -> tensor<2x32x128xf32>
    %221 = stablehlo.multiply %219, %220 : tensor<2x32x128xf32>
    %222 = stablehlo.broadcast_in_dim %arg8, dims = [2] : (tensor<128xf32>) -> tensor<1x1x128xf32>
    %223 = stablehlo.broadcast_in_dim %222, dims = [0, 1, 2] : (tensor<1x1x128xf32>) -> tensor<2x32x128xf32>
    %224 = stablehlo.multiply %221, %223 : tensor<2x32x128xf32>
    %225 = stablehlo.broadcast_in_dim %arg9, dims = [2] : (tensor<128xf32>) -> tensor<1x1x128xf32>
    %226 = stablehlo.broadcast_in_dim %225, dims = [0, 1, 2] : (tensor<1x1x128xf32>) -> tensor<2x32x128xf32>
    %227 = stablehlo.add %224, %226 : tensor<2x32x128xf32>
    %228 = stablehlo.reshape %227 : (tensor<2x32x128xf32>) -> tensor<64x128xf32>
    %229 = stablehlo.broadcast_in_dim %cst_12, dims = [] : (tensor<f32>) -> tensor<512xf32>
    %230 = stablehlo.multiply %arg11, %229 : tensor<512xf32>
    %231 = stablehlo.dot_general %228, %arg10, contracting_dims = [1] x [0] : (tensor<64x128xf32>, tensor<128x512xf32>) -> tensor<64x512xf32>
    %232 = stablehlo.broadcast_in_dim %cst_12, dims = [] : (tensor<f32>) -> tensor<64x512xf32>
    %233 = stablehlo.multiply %232, %231 : tensor<64x512xf32>
    %234 = stablehlo.broadcast_in_dim %230, dims = [1] : (tensor<512xf32>) -> tensor<1x512xf32>
    %235 = stablehlo.broadcast_in_dim %234, dims = [0, 1] : (tensor<1x512xf32>) -> tensor<64x512xf32>
    %236 = stablehlo.add %235, %233 : tensor<64x512xf32>
    %237 = stablehlo.reshape %236 : (tensor<64x512xf32>) -> tensor<2x32x512xf32>
    %238 = stablehlo.broadcast_in_dim %cst_2, dims = [] : (tensor<f32>) -> tensor<2x32x512xf32>
    %239 = stablehlo.multiply %237, %238 : tensor<2x32x512xf32>
    %240 = stablehlo.broadcast_in_dim %cst_1, dims = [] : (tensor<f32>) -> tensor<2x32x512xf32>
    %241 = stablehlo.power %237, %240 : tensor<2x32x512xf32>
    %242 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<f32>) -> tensor<2x32x512xf32>
    %243 = stablehlo.multiply %241, %242 : tensor<2x32x512xf32>
    %244 = stablehlo.broadcast_in_dim %cst_12, dims = [] : (tensor<f32>) -> tensor<2x32x512xf32>
    %245 = stablehlo.multiply %243, %244 : tensor<2x32x512xf32>
    %246 = stablehlo.add %237, %245 : tensor<2x32x512xf32>
    %247 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<2x32x512xf32>
    %248 = stablehlo.multiply %246, %247 : tensor<2x32x512xf32>
    %249 = stablehlo.tanh %248 : tensor<2x32x512xf32>
    %250 = stablehlo.broadcast_in_dim %cst_12, dims = [] : (tensor<f32>) -> tensor<2x32x512xf32>
    %251 = stablehlo.add %249, %250 : tensor<2x32x512xf32>
    %252 = stablehlo.multiply %239, %251 : tensor<2x32x512xf32>
    %253 = stablehlo.reshape %252 : (tensor<2x32x512xf32>) -> tensor<64x512xf32>
    %254 = stablehlo.broadcast_in_dim %cst_12, dims = [] : (tensor<f32>) -> tensor<128xf32>
    %255 = stablehlo.multiply %arg13, %254 : tensor<128xf32>
    %256 = stablehlo.dot_general %253, %arg12, contracting_dims = [1] x [0] : (tensor<64x512xf32>, tensor<512x128xf32>) -> tensor<64x128xf32>
    %257 = stablehlo.broadcast_in_dim %cst_12, dims = [] : (tensor<f32>) -> tensor<64x128xf32>
    %258 = stablehlo.multiply %257, %256 : tensor<64x128xf32>
    %259 = stablehlo.broadcast_in_dim %255, dims = [1] : (tensor<128xf32>) -> tensor<1x128xf32>
    %260 = stablehlo.broadcast_in_dim %259, dims = [0, 1] : (tensor<1x128xf32>) -> tensor<64x128xf32>
    %261 = stablehlo.add %260, %258 : tensor<64x128xf32>
    %262 = stablehlo.reshape %261 : (tensor<64x128xf32>) -> tensor<2x32x128xf32>
    %263 = stablehlo.broadcast_in_dim %cst_12, dims = [] : (tensor<f32>) -> tensor<2x32x128xf32>
    %264 = stablehlo.multiply %262, %263 : tensor<2x32x128xf32>
    %265 = stablehlo.add %209, %264 : tensor<2x32x128xf32>
    %266 = stablehlo.reduce(%265 init: %cst_7) applies stablehlo.add across dimensions = [2] : (tensor<2x32x128xf32>, tensor<f32>) -> tensor<2x32xf32>
    %267 = stablehlo.broadcast_in_dim %266, dims = [0, 1] : (tensor<2x32xf32>) -> tensor<2x32x1xf32>
    %268 = stablehlo.broadcast_in_dim %cst_6, dims = [] : (tensor<f32>) -> tensor<2x32x1xf32>
    %269 = stablehlo.divide %267, %268 : tensor<2x32x1xf32>
    %270 = call @_var(%265, %c_13) : (tensor<2x32x128xf32>, tensor<i64>) -> tensor<2x32x1xf32>
    %271 = stablehlo.broadcast_in_dim %cst_5, dims = [] : (tensor<f32>) -> tensor<2x32x1xf32>
    %272 = stablehlo.add %270, %271 : tensor<2x32x1xf32>
    %273 = stablehlo.rsqrt %272 : tensor<2x32x1xf32>
    %274 = stablehlo.broadcast_in_dim %269, dims = [0, 1, 2] : (tensor<2x32x1xf32>) -> tensor<2x32x128xf32>
    %275 = stablehlo.subtract %265, %274 : tensor<2x32x128xf32>
    %276 = stablehlo.broadcast_in_dim %273, dims = [0, 1, 2] : (tensor<2x32x1xf32>) -> tensor<2x32x128xf32>
    %277 = stablehlo.multiply %275, %276 : tensor<2x32x128xf32>
    %278 = stablehlo.broadcast_in_dim %arg14, dims = [2] : (tensor<128xf32>) -> tensor<1x1x128xf32>
    %279 = stablehlo.broadcast_in_dim %278, dims = [0, 1, 2] : (tensor<1x1x128xf32>) -> tensor<2x32x128xf32>
    %280 = stablehlo.multiply %277, %279 : tensor<2x32x128xf32>
    %281 = stablehlo.broadcast_in_dim %arg15, dims = [2] : (tensor<128xf32>) -> tensor<1x1x128xf32>
    %282 = stablehlo.broadcast_in_dim %281, dims = [0, 1, 2] : (tensor<1x1x128xf32>) -> tensor<2x32x128xf32>
    %283 = stablehlo.add %280, %282 : tensor<2x32x128xf32>
    %284 = stablehlo.reshape %283 : (tensor<2x32x128xf32>) -> tensor<64x128xf32>
    %285 = stablehlo.broadcast_in_dim %cst_12, dims = [] : (tensor<f32>) -> tensor<384xf32>
    %286 = stablehlo.multiply %arg17, %285 : tensor<384xf32>
    %287 = stablehlo.dot_general %284, %arg16, contracting_dims = [1] x [0] : (tensor<64x128xf32>, tensor<128x384xf32>) -> tensor<64x384xf32>
    %288 = stablehlo.broadcast_in_dim %cst_12, dims = [] : (tensor<f32>) -> tensor<64x384xf32>
    %289 = stablehlo.multiply %288, %287 : tensor<64x384xf32>
    %290 = stablehlo.broadcast_in_dim %286, dims = [1] : (tensor<384xf32>) -> tensor<1x384xf32>
    %291 = stablehlo.broadcast_in_dim %290, dims = [0, 1] : (tensor<1x384xf32>) -> tensor<64x384xf32>
    %292 = stablehlo.add %291, %289 : tensor<64x384xf32>
    %293 = stablehlo.reshape %292 : (tensor<64x384xf32>) -> tensor<2x32x384xf32>
    %294 = stablehlo.slice %293 [0:2, 0:32, 0:128] : (tensor<2x32x384xf32>) -> tensor<2x32x128xf32>
    %295 = stablehlo.slice %293 [0:2, 0:32, 128:256] : (tensor<2x32x384xf32>) -> tensor<2x32x128xf32>
    %296 = stablehlo.slice %293 [0:2, 0:32, 256:384] : (tensor<2x32x384xf32>) -> tensor<2x32x128xf32>
    %297 = stablehlo.reshape %295 : (tensor<2x32x128xf32>) -> tensor<2x32x2x64xf32>
    %298 = stablehlo.transpose %297, dims = [0, 2, 1, 3] : (tensor<2x32x2x64xf32>) -> tensor<2x2x32x64xf32>
    %299 = stablehlo.reshape %296 : (tensor<2x32x128xf32>) -> tensor<2x32x2x64xf32>
    %300 = stablehlo.transpose %299, dims = [0, 2, 1, 3] : (tensor<2x32x2x64xf32>) -> tensor<2x2x32x64xf32>
    %301 = stablehlo.reshape %294 : (tensor<2x32x128xf32>) -> tensor<2x32x2x64xf32>
    %302 = stablehlo.transpose %301, dims = [0, 2, 1, 3] : (tensor<2x32x2x64xf32>) -> tensor<2x2x32x64xf32>
    %303 = call @_where_4(%120, %cst_7, %cst_4) : (tensor<2x1x32x32xi1>, tensor<f32>, tensor<f32>) -> tensor<2x1x32x32xf32>
    %304 = stablehlo.broadcast_in_dim %cst_3, dims = [] : (tensor<f32>) -> tensor<2x2x32x64xf32>
    %305 = stablehlo.multiply %302, %304 : tensor<2x2x32x64xf32>
    %306 = stablehlo.transpose %298, dims = [0, 1, 3, 2] : (tensor<2x2x32x64xf32>) -> tensor<2x2x64x32xf32>
    %307 = stablehlo.broadcast_in_dim %cst_3, dims = [] : (tensor<f32>) -> tensor<2x2x64x32xf32>
    %308 = stablehlo.multiply %306, %307 : tensor<2x2x64x32xf32>
    %309 = stablehlo.reshape %305 : (tensor<2x2x32x64xf32>) -> tensor<4x32x64xf32>
    %310 = stablehlo.reshape %308 : (tensor<2x2x64x32xf32>) -> tensor<4x64x32xf32>
    %311 = stablehlo.dot_general %309, %310, batching_dims = [0] x [0], contracting_dims = [2] x [1] : (tensor<4x32x64xf32>, tensor<4x64x32xf32>) -> tensor<4x32x32xf32>
    %312 = stablehlo.reshape %311 : (tensor<4x32x32xf32>) -> tensor<2x2x32x32xf32>
    %313 = stablehlo.broadcast_in_dim %cst_12, dims = [] : (tensor<f32>) -> tensor<2x1x32x32xf32>
    %314 = stablehlo.multiply %303, %313 : tensor<2x1x32x32xf32>
    %315 = stablehlo.broadcast_in_dim %314, dims = [0, 1, 2, 3] : (tensor<2x1x32x32xf32>) -> tensor<2x2x32x32xf32>
    %316 = stablehlo.add %312, %315 : tensor<2x2x32x32xf32>
    %317 = stablehlo.reduce(%316 init: %cst_4) applies stablehlo.maximum across dimensions = [3] : (tensor<2x2x32x32xf32>, tensor<f32>) -> tensor<2x2x32xf32>
    %318 = stablehlo.broadcast_in_dim %cst_4, dims = [] : (tensor<f32>) -> tensor<2x2x32xf32>
    %319 = stablehlo.maximum %318, %317 : tensor<2x2x32xf32>
    %320 = stablehlo.broadcast_in_dim %319, dims = [0, 1, 2] : (tensor<2x2x32xf32>) -> tensor<2x2x32x1xf32>
    %321 = stablehlo.broadcast_in_dim %320, dims = [0, 1, 2, 3] : (tensor<2x2x32x1xf32>) -> tensor<2x2x32x32xf32>
    %322 = stablehlo.subtract %316, %321 : tensor<2x2x32x32xf32>
    %323 = stablehlo.exponential %322 : tensor<2x2x32x32xf32>
    %324 = stablehlo.reduce(%323 init: %cst_7) applies stablehlo.add across dimensions = [3] : (tensor<2x2x32x32xf32>, tensor<f32>) -> tensor<2x2x32xf32>
    %325 = stablehlo.broadcast_in_dim %324, dims = [0, 1, 2] : (tensor<2x2x32xf32>) -> tensor<2x2x32x1xf32>
    %326 = stablehlo.broadcast_in_dim %325, dims = [0, 1, 2, 3] : (tensor<2x2x32x1xf32>) -> tensor<2x2x32x32xf32>
    %327 = stablehlo.divide %323, %326 : tensor<2x2x32x32xf32>
    %328 = stablehlo.broadcast_in_dim %cst_4, dims = [] : (tensor<f32>) -> tensor<2x2x32x32xf32>
    %329 = stablehlo.compare EQ, %316, %328, FLOAT : (tensor<2x2x32x32xf32>, tensor<2x2x32x32xf32>) -> tensor<2x2x32x32xi1>
    %330 = stablehlo.not %329 : tensor<2x2x32x32xi1>
    %331 = stablehlo.reduce(%330 init: %c) applies stablehlo.or across dimensions = [3] : (tensor<2x2x32x32xi1>, tensor<i1>) -> tensor<2x2x32xi1>
    %332 = stablehlo.broadcast_in_dim %331, dims = [0, 1, 2] : (tensor<2x2x32xi1>) -> tensor<2x2x32x1xi1>
    %333 = stablehlo.not %332 : tensor<2x2x32x1xi1>
    %334 = stablehlo.broadcast_in_dim %cst_7, dims = [] : (tensor<f32>) -> tensor<2x2x32x32xf32>
    %335 = call @_where_5(%333, %334, %327) : (tensor<2x2x32x1xi1>, tensor<2x2x32x32xf32>, tensor<2x2x32x32xf32>) -> tensor<2x2x32x32xf32>
    %336 = stablehlo.reshape %335 : (tensor<2x2x32x32xf32>) -> tensor<4x32x32xf32>
    %337 = stablehlo.reshape %300 : (tensor<2x2x32x64xf32>) -> tensor<4x32x64xf32>
    %338 = stablehlo.dot_general %336, %337, batching_dims = [0] x [0], contracting_dims = [2] x [1] : (tensor<4x32x32xf32>, tensor<4x32x64xf32>) -> tensor<4x32x64xf32>
    %339 = stablehlo.reshape %338 : (tensor<4x32x64xf32>) -> tensor<2x2x32x64xf32>
    %340 = stablehlo.transpose %339, dims = [0, 2, 1, 3] : (tensor<2x2x32x64xf32>) -> tensor<2x32x2x64xf32>
    %341 = stablehlo.reshape %340 : (tensor<2x32x2x64xf32>) -> tensor<2x32x128xf32>
    %342 = stablehlo.reshape %341 : (tensor<2x32x128xf32>) -> tensor<64x128xf32>
    %343 = stablehlo.broadcast_in_dim %cst_12, dims = [] : (tensor<f32>) -> tensor<128xf32>
    %344 = stablehlo.multiply %arg19, %343 : tensor<128xf32>
    %345 = stablehlo.dot_general %342, %arg18, contracting_dims = [1] x [0] : (tensor<64x128xf32>, tensor<128x128xf32>) -> tensor<64x128xf32>
    %346 = stablehlo.broadcast_in_dim %cst_12, dims = [] : (tensor<f32>) -> tensor<64x128xf32>
    %347 = stablehlo.multiply %346, %345 : tensor<64x128xf32>
    %348 = stablehlo.broadcast_in_dim %344, dims = [1] : (tensor<128xf32>) -> tensor<1x128xf32>
    %349 = stablehlo.broadcast_in_dim %348, dims = [0, 1] : (tensor<1x128xf32>) -> tensor<64x128xf32>
    %350 = stablehlo.add %349, %347 : tensor<64x128xf32>
    %351 = stablehlo.reshape %350 : (tensor<64x128xf32>) -> tensor<2x32x128xf32>
    %352 = stablehlo.broadcast_in_dim %cst_12, dims = [] : (tensor<f32>) -> tensor<2x32x128xf32>
    %353 = stablehlo.multiply %265, %352 : tensor<2x32x128xf32>
    %354 = stablehlo.add %351, %353 : tensor<2x32x128xf32>
    %355 = stablehlo.reduce(%354 init: %cst_7) applies stablehlo.add across dimensions = [2] : (tensor<2x32x128xf32>, tensor<f32>) -> tensor<2x32xf32>
    %356 = stablehlo.broadcast_in_dim %355, dims = [0, 1] : (tensor<2x32xf32>) -> tensor<2x32x1xf32>
    %357 = stablehlo.broadcast_in_dim %cst_6, dims = [] : (tensor<f32>) -> tensor<2x32x1xf32>
    %358 = stablehlo.divide %356, %357 : tensor<2x32x1xf32>
    %359 = call @_var(%354, %c_13) : (tensor<2x32x128xf32>, tensor<i64>) -> tensor<2x32x1xf32>
    %360 = stablehlo.broadcast_in_dim %cst_5, dims = [] : (tensor<f32>) -> tensor<2x32x1xf32>
    %361 = stablehlo.add %359, %360 : tensor<2x32x1xf32>
    %362 = stablehlo.rsqrt %361 : tensor<2x32x1xf32>
    %363 = stablehlo.broadcast_in_dim %358, dims = [0, 1, 2] : (tensor<2x32x1xf32>) -> tensor<2x32x128xf32>
    %364 = stablehlo.subtract %354, %363 : tensor<2x32x128xf32>
    %365 = stablehlo.broadcast_in_dim %362, dims = [0, 1, 2] : (tensor<2x32x1xf32>) -> tensor<2x32x128xf32>
    %366 = stablehlo.multiply %364, %365 : tensor<2x32x128xf32>
    %367 = stablehlo.broadcast_in_dim %arg20, dims = [2] : (tensor<128xf32>) -> tensor<1x1x128xf32>
    %368 = stablehlo.broadcast_in_dim %367, dims = [0, 1, 2] : (tensor<1x1x128xf32>) -> tensor<2x32x128xf32>
    %369 = stablehlo.multiply %366, %368 : tensor<2x32x128xf32>
    %370 = stablehlo.broadcast_in_dim %arg21, dims = [2] : (tensor<128xf32>) -> tensor<1x1x128xf32>
    %371 = stablehlo.broadcast_in_dim %370, dims = [0, 1, 2] : (tensor<1x1x128xf32>) -> tensor<2x32x128xf32>
    %372 = stablehlo.add %369, %371 : tensor<2x32x128xf32>
    %373 = stablehlo.reshape %372 : (tensor<2x32x128xf32>) -> tensor<64x128xf32>
    %374 = stablehlo.broadcast_in_dim %cst_12, dims = [] : (tensor<f32>) -> tensor<512xf32>
    %375 = stablehlo.multiply %arg23, %374 : tensor<512xf32>
    %376 = stablehlo.dot_general %373, %arg22, contracting_dims = [1] x [0] : (tensor<64x128xf32>, tensor<128x512xf32>) -> tensor<64x512xf32>
    %377 = stablehlo.broadcast_in_dim %cst_12, dims = [] : (tensor<f32>) -> tensor<64x512xf32>
    %378 = stablehlo.multiply %377, %376 : tensor<64x512xf32>
    %379 = stablehlo.broadcast_in_dim %375, dims = [1] : (tensor<512xf32>) -> tensor<1x512xf32>
    %380 = stablehlo.broadcast_in_dim %379, dims = [0, 1] : (tensor<1x512xf32>) -> tensor<64x512xf32>
    %381 = stablehlo.add %380, %378 : tensor<64x512xf32>
    %382 = stablehlo.reshape %381 : (tensor<64x512xf32>) -> tensor<2x32x512xf32>
    %383 = stablehlo.broadcast_in_dim %cst_2, dims = [] : (tensor<f32>) -> tensor<2x32x512xf32>
    %384 = stablehlo.multiply %382, %383 : tensor<2x32x512xf32>
    %385 = stablehlo.broadcast_in_dim %cst_1, dims = [] : (tensor<f32>) -> tensor<2x32x512xf32>
    %386 = stablehlo.power %382, %385 : tensor<2x32x512xf32>
    %387 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<f32>) -> tensor<2x32x512xf32>
    %388 = stablehlo.multiply %386, %387 : tensor<2x32x512xf32>
    %389 = stablehlo.broadcast_in_dim %cst_12, dims = [] : (tensor<f32>) -> tensor<2x32x512xf32>
    %390 = stablehlo.multiply %388, %389 : tensor<2x32x512xf32>
    %391 = stablehlo.add %382, %390 : tensor<2x32x512xf32>
    %392 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<2x32x512xf32>
    %393 = stablehlo.multiply %391, %392 : tensor<2x32x512xf32>
    %394 = stablehlo.tanh %393 : tensor<2x32x512xf32>
    %395 = stablehlo.broadcast_in_dim %cst_12, dims = [] : (tensor<f32>) -> tensor<2x32x512xf32>
    %396 = stablehlo.add %394, %395 : tensor<2x32x512xf32>
    %397 = stablehlo.multiply %384, %396 : tensor<2x32x512xf32>
    %398 = stablehlo.reshape %397 : (tensor<2x32x512xf32>) -> tensor<64x512xf32>
    %399 = stablehlo.broadcast_in_dim %cst_12, dims = [] : (tensor<f32>) -> tensor<128xf32>
    %400 = stablehlo.multiply %arg25, %399 : tensor<128xf32>
    %401 = stablehlo.dot_general %398, %arg24, contracting_dims = [1] x [0] : (tensor<64x512xf32>, tensor<512x128xf32>) -> tensor<64x128xf32>
    %402 = stablehlo.broadcast_in_dim %cst_12, dims = [] : (tensor<f32>) -> tensor<64x128xf32>
    %403 = stablehlo.multiply %402, %401 : tensor<64x128xf32>
    %404 = stablehlo.broadcast_in_dim %400, dims = [1] : (tensor<128xf32>) -> tensor<1x128xf32>
    %405 = stablehlo.broadcast_in_dim %404, dims = [0, 1] : (tensor<1x128xf32>) -> tensor<64x128xf32>
    %406 = stablehlo.add %405, %403 : tensor<64x128xf32>
    %407 = stablehlo.reshape %406 : (tensor<64x128xf32>) -> tensor<2x32x128xf32>
    %408 = stablehlo.broadcast_in_dim %cst_12, dims = [] : (tensor<f32>) -> tensor<2x32x128xf32>
    %409 = stablehlo.multiply %407, %408 : tensor<2x32x128xf32>
    %410 = stablehlo.add %354, %409 : tensor<2x32x128xf32>
    %411 = stablehlo.reduce(%410 init: %cst_7) applies stablehlo.add across dimensions = [2] : (tensor<2x32x128xf32>, tensor<f32>) -> tensor<2x32xf32>
    %412 = stablehlo.broadcast_in_dim %411, dims = [0, 1] : (tensor<2x32xf32>) -> tensor<2x32x1xf32>
    %413 = stablehlo.broadcast_in_dim %cst_6, dims = [] : (tensor<f32>) -> tensor<2x32x1xf32>
    %414 = stablehlo.divide %412, %413 : tensor<2x32x1xf32>
    %415 = call @_var(%410, %c_13) : (tensor<2x32x128xf32>, tensor<i64>) -> tensor<2x32x1xf32>
    %416 = stablehlo.broadcast_in_dim %cst_5, dims = [] : (tensor<f32>) -> tensor<2x32x1xf32>
    %417 = stablehlo.add %415, %416 : tensor<2x32x1xf32>
    %418 = stablehlo.rsqrt %417 : tensor<2x32x1xf32>
    %419 = stablehlo.broadcast_in_dim %414, dims = [0, 1, 2] : (tensor<2x32x1xf32>) -> tensor<2x32x128xf32>
    %420 = stablehlo.subtract %410, %419 : tensor<2x32x128xf32>
    %421 = stablehlo.broadcast_in_dim %418, dims = [0, 1, 2] : (tensor<2x32x1xf32>) -> tensor<2x32x128xf32>
    %422 = stablehlo.multiply %420, %421 : tensor<2x32x128xf32>
    %423 = stablehlo.broadcast_in_dim %arg26, dims = [2] : (tensor<128xf32>) -> tensor<1x1x128xf32>
    %424 = stablehlo.broadcast_in_dim %423, dims = [0, 1, 2] : (tensor<1x1x128xf32>) -> tensor<2x32x128xf32>
    %425 = stablehlo.multiply %422, %424 : tensor<2x32x128xf32>
    %426 = stablehlo.broadcast_in_dim %arg27, dims = [2] : (tensor<128xf32>) -> tensor<1x1x128xf32>
    %427 = stablehlo.broadcast_in_dim %426, dims = [0, 1, 2] : (tensor<1x1x128xf32>) -> tensor<2x32x128xf32>
    %428 = stablehlo.add %425, %427 : tensor<2x32x128xf32>
    %429 = stablehlo.transpose %arg28, dims = [1, 0] : (tensor<1000x128xf32>) -> tensor<128x1000xf32>
    %430 = stablehlo.reshape %428 : (tensor<2x32x128xf32>) -> tensor<64x128xf32>
    %431 = stablehlo.dot_general %430, %429, contracting_dims = [1] x [0] : (tensor<64x128xf32>, tensor<128x1000xf32>) -> tensor<64x1000xf32>
    %432 = stablehlo.reshape %431 : (tensor<64x1000xf32>) -> tensor<2x32x1000xf32>
    return %432 : tensor<2x32x1000xf32>
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
  func.func private @_take_0(%arg0: tensor<64x128xf32>, %arg1: tensor<1x32xi64>) -> tensor<1x32x128xf32> {
    %cst = stablehlo.constant dense<0x7FC00000> : tensor<f32>
    %c = stablehlo.constant dense<true> : tensor<i1>
    %c_0 = stablehlo.constant dense<0> : tensor<i32>
    %c_1 = stablehlo.constant dense<63> : tensor<1xi32>
    %c_2 = stablehlo.constant dense<64> : tensor<i64>
    %c_3 = stablehlo.constant dense<0> : tensor<i64>
    %0 = stablehlo.broadcast_in_dim %c_3, dims = [] : (tensor<i64>) -> tensor<1x32xi64>
    %1 = stablehlo.compare LT, %arg1, %0, SIGNED : (tensor<1x32xi64>, tensor<1x32xi64>) -> tensor<1x32xi1>
    %2 = stablehlo.broadcast_in_dim %c_2, dims = [] : (tensor<i64>) -> tensor<1x32xi64>
    %3 = stablehlo.add %arg1, %2 : tensor<1x32xi64>
    %4 = call @_where_1(%1, %3, %arg1) : (tensor<1x32xi1>, tensor<1x32xi64>, tensor<1x32xi64>) -> tensor<1x32xi64>
    %5 = stablehlo.broadcast_in_dim %4, dims = [0, 1] : (tensor<1x32xi64>) -> tensor<1x32x1xi64>
    %6 = stablehlo.convert %5 : (tensor<1x32x1xi64>) -> tensor<1x32x1xi32>
    %7 = stablehlo.broadcast_in_dim %c_0, dims = [] : (tensor<i32>) -> tensor<1x32x1xi32>
    %8 = stablehlo.compare GE, %6, %7, SIGNED : (tensor<1x32x1xi32>, tensor<1x32x1xi32>) -> tensor<1x32x1xi1>
    %9 = stablehlo.broadcast_in_dim %c_1, dims = [2] : (tensor<1xi32>) -> tensor<1x1x1xi32>
    %10 = stablehlo.broadcast_in_dim %9, dims = [0, 1, 2] : (tensor<1x1x1xi32>) -> tensor<1x32x1xi32>
    %11 = stablehlo.compare LE, %6, %10, SIGNED : (tensor<1x32x1xi32>, tensor<1x32x1xi32>) -> tensor<1x32x1xi1>
    %12 = stablehlo.and %8, %11 : tensor<1x32x1xi1>
    %13 = stablehlo.reduce(%12 init: %c) applies stablehlo.and across dimensions = [2] : (tensor<1x32x1xi1>, tensor<i1>) -> tensor<1x32xi1>
    %14 = "stablehlo.gather"(%arg0, %6) <{dimension_numbers = #stablehlo.gather<offset_dims = [2], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 2>, slice_sizes = array<i64: 1, 128>}> : (tensor<64x128xf32>, tensor<1x32x1xi32>) -> tensor<1x32x128xf32>
    %15 = stablehlo.broadcast_in_dim %13, dims = [0, 1] : (tensor<1x32xi1>) -> tensor<1x32x128xi1>
    %16 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<1x32x128xf32>
    %17 = stablehlo.select %15, %14, %16 : tensor<1x32x128xi1>, tensor<1x32x128xf32>
    return %17 : tensor<1x32x128xf32>
  }
  func.func private @_where_1(%arg0: tensor<1x32xi1>, %arg1: tensor<1x32xi64>, %arg2: tensor<1x32xi64>) -> tensor<1x32xi64> {
    %0 = stablehlo.select %arg0, %arg1, %arg2 : tensor<1x32xi1>, tensor<1x32xi64>
    return %0 : tensor<1x32xi64>
  }
  func.func private @cumsum(%arg0: tensor<2x32xi1>) -> tensor<2x32xi64> {
    %0 = stablehlo.convert %arg0 : (tensor<2x32xi1>) -> tensor<2x32xi64>
    %1 = call @cumsum_2(%0) : (tensor<2x32xi64>) -> tensor<2x32xi64>
    return %1 : tensor<2x32xi64>
  }
  func.func private @cumsum_2(%arg0: tensor<2x32xi64>) -> tensor<2x32xi64> {
    %c = stablehlo.constant dense<0> : tensor<i64>
    %0 = stablehlo.broadcast_in_dim %c, dims = [] : (tensor<i64>) -> tensor<i64>
    %1 = "stablehlo.reduce_window"(%arg0, %0) <{padding = dense<[[0, 0], [31, 0]]> : tensor<2x2xi64>, window_dimensions = array<i64: 1, 32>}> ({
    ^bb0(%arg1: tensor<i64>, %arg2: tensor<i64>):
      %2 = stablehlo.add %arg1, %arg2 : tensor<i64>
      stablehlo.return %2 : tensor<i64>
    }) : (tensor<2x32xi64>, tensor<i64>) -> tensor<2x32xi64>
    return %1 : tensor<2x32xi64>
  }
  func.func private @_var(%arg0: tensor<2x32x128xf32>, %arg1: tensor<i64>) -> tensor<2x32x1xf32> {
    %cst = stablehlo.constant dense<0x7FF8000000000000> : tensor<f64>
    %cst_0 = stablehlo.constant dense<1.280000e+02> : tensor<f32>
    %cst_1 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %0 = stablehlo.reduce(%arg0 init: %cst_1) applies stablehlo.add across dimensions = [2] : (tensor<2x32x128xf32>, tensor<f32>) -> tensor<2x32xf32>
    %1 = stablehlo.broadcast_in_dim %0, dims = [0, 1] : (tensor<2x32xf32>) -> tensor<2x32x1xf32>
    %2 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<f32>) -> tensor<2x32x1xf32>
    %3 = stablehlo.divide %1, %2 : tensor<2x32x1xf32>
    %4 = stablehlo.broadcast_in_dim %3, dims = [0, 1, 2] : (tensor<2x32x1xf32>) -> tensor<2x32x128xf32>
    %5 = stablehlo.subtract %arg0, %4 : tensor<2x32x128xf32>
    %6 = stablehlo.multiply %5, %5 : tensor<2x32x128xf32>
    %7 = stablehlo.convert %arg1 : (tensor<i64>) -> tensor<f32>
    %8 = stablehlo.subtract %cst_0, %7 : tensor<f32>
    %9 = stablehlo.reduce(%6 init: %cst_1) applies stablehlo.add across dimensions = [2] : (tensor<2x32x128xf32>, tensor<f32>) -> tensor<2x32xf32>
    %10 = stablehlo.broadcast_in_dim %9, dims = [0, 1] : (tensor<2x32xf32>) -> tensor<2x32x1xf32>
    %11 = stablehlo.broadcast_in_dim %8, dims = [] : (tensor<f32>) -> tensor<2x32x1xf32>
    %12 = stablehlo.divide %10, %11 : tensor<2x32x1xf32>
    %13 = stablehlo.compare GT, %8, %cst_1, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
    %14 = call @_where_3(%13, %12, %cst) : (tensor<i1>, tensor<2x32x1xf32>, tensor<f64>) -> tensor<2x32x1xf32>
    return %14 : tensor<2x32x1xf32>
  }
  func.func private @_where_3(%arg0: tensor<i1>, %arg1: tensor<2x32x1xf32>, %arg2: tensor<f64>) -> tensor<2x32x1xf32> {
    %0 = stablehlo.convert %arg2 : (tensor<f64>) -> tensor<f32>
    %1 = stablehlo.broadcast_in_dim %0, dims = [] : (tensor<f32>) -> tensor<2x32x1xf32>
    %2 = stablehlo.select %arg0, %arg1, %1 : tensor<i1>, tensor<2x32x1xf32>
    return %2 : tensor<2x32x1xf32>
  }
  func.func private @_where_4(%arg0: tensor<2x1x32x32xi1>, %arg1: tensor<f32>, %arg2: tensor<f32>) -> tensor<2x1x32x32xf32> {
    %0 = stablehlo.broadcast_in_dim %arg1, dims = [] : (tensor<f32>) -> tensor<2x1x32x32xf32>
    %1 = stablehlo.broadcast_in_dim %arg2, dims = [] : (tensor<f32>) -> tensor<2x1x32x32xf32>
    %2 = stablehlo.select %arg0, %0, %1 : tensor<2x1x32x32xi1>, tensor<2x1x32x32xf32>
    return %2 : tensor<2x1x32x32xf32>
  }
  func.func private @_where_5(%arg0: tensor<2x2x32x1xi1>, %arg1: tensor<2x2x32x32xf32>, %arg2: tensor<2x2x32x32xf32>) -> tensor<2x2x32x32xf32> {
    %0 = stablehlo.broadcast_in_dim %arg0, dims = [0, 1, 2, 3] : (tensor<2x2x32x1xi1>) -> tensor<2x2x32x32xi1>
    %1 = stablehlo.select %0, %arg1, %arg2 : tensor<2x2x32x32xi1>, tensor<2x2x32x32xf32>
    return %1 : tensor<2x2x32x32xf32>
  }
}
