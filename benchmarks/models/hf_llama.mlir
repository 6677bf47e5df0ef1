module @jit_fn attributes {jax.uses_shape_polymorphism = false, mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<1000x128xf32>, %arg1: tensor<128x128xf32>, %arg2: tensor<64x128xf32>, %arg3: tensor<64x128xf32>, %arg4: tensor<128x128xf32>, %arg5: tensor<256x128xf32>, %arg6: tensor<256x128xf32>, %arg7: tensor<128x256xf32>, %arg8: tensor<128xf32>, %arg9: tensor<128xf32>, %arg10: tensor<128x128xf32>, %arg11: tensor<64x128xf32>, %arg12: tensor<64x128xf32>, %arg13: tensor<128x128xf32>, %arg14: tensor<256x128xf32>, %arg15: tensor<256x128xf32>, %arg16: tensor<128x256xf32>, %arg17: tensor<128xf32>, %arg18: tensor<128xf32>, %arg19: tensor<128xf32>, %arg20: tensor<1000x128xf32>, %arg21: tensor<2x32xi64>) -> (tensor<2x32x1000xf32> {jax.result_info = "result[0]"}) {
    %c = stablehlo.constant dense<false> : tensor<i1>
    %cst = stablehlo.constant dense<0.420448214> : tensor<f32>
    %cst_0 = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %cst_1 = stablehlo.constant dense<-1.000000e+00> : tensor<f32>
    %cst_2 = stablehlo.constant dense<9.99999997E-7> : tensor<f32>
    %cst_3 = stablehlo.constant dense<1.280000e+02> : tensor<f32>
    %cst_4 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %cst_5 = stablehlo.constant dense<2.000000e+00> : tensor<f32>
    %cst_6 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %c_7 = stablehlo.constant dense<true> : tensor<i1>
    %c_8 = stablehlo.constant dense<32> : tensor<i64>
    %c_9 = stablehlo.constant dense<2> : tensor<i64>
    %c_10 = stablehlo.constant dense<1> : tensor<i64>
    %c_11 = stablehlo.constant dense<0> : tensor<i64>
    %cst_12 = stablehlo.constant dense<[1.000000e+00, 0.562341332, 0.316227764, 0.177827939, 1.000000e-01, 0.0562341288, 0.0316227786, 0.0177827943, 0.00999999977, 0.00562341325, 0.00316227786, 0.00177827943, 1.000000e-03, 5.62341302E-4, 3.16227786E-4, 1.7782794E-4]> : tensor<16xf32>
    %0 = call @_take(%arg0, %arg21) : (tensor<1000x128xf32>, tensor<2x32xi64>) -> tensor<2x32x128xf32>
    %1 = stablehlo.iota dim = 0 : tensor<32xi64>
    %2 = stablehlo.broadcast_in_dim %c_11, dims = [] : (tensor<i64>) -> tensor<32xi64>
    %3 = stablehlo.add %1, %2 : tensor<32xi64>
    %4 = stablehlo.broadcast_in_dim %3, dims = [1] : (tensor<32xi64>) -> tensor<1x32xi64>
    %5 = stablehlo.broadcast_in_dim %4, dims = [0, 1] : (tensor<1x32xi64>) -> tensor<2x32xi64>
    %6 = stablehlo.slice %5 [0:2, 0:1] : (tensor<2x32xi64>) -> tensor<2x1xi64>
    %7 = stablehlo.broadcast_in_dim %c_10, dims = [] : (tensor<i64>) -> tensor<2x1xi64>
    %8 = stablehlo.subtract %6, %7 : tensor<2x1xi64>
    %9 = stablehlo.concatenate %8, %5, dim = 1 : (tensor<2x1xi64>, tensor<2x32xi64>) -> tensor<2x33xi64>
    %10 = stablehlo.slice %9 [0:2, 0:32] : (tensor<2x33xi64>) -> tensor<2x32xi64>
    %11 = stablehlo.slice %9 [0:2, 1:33] : (tensor<2x33xi64>) -> tensor<2x32xi64>
    %12 = stablehlo.broadcast_in_dim %c_10, dims = [] : (tensor<i64>) -> tensor<2x32xi64>
    %13 = stablehlo.multiply %10, %12 : tensor<2x32xi64>
    %14 = stablehlo.subtract %11, %13 : tensor<2x32xi64>
    %15 = stablehlo.broadcast_in_dim %c_10, dims = [] : (tensor<i64>) -> tensor<2x32xi64>
    %16 = stablehlo.compare NE, %14, %15, SIGNED : (tensor<2x32xi64>, tensor<2x32xi64>) -> tensor<2x32xi1>
    %17 = call @cumsum(%16) : (tensor<2x32xi1>) -> tensor<2x32xi64>
    %18 = stablehlo.broadcast_in_dim %4, dims = [0, 1] : (tensor<1x32xi64>) -> tensor<2x32xi64>
    %19 = stablehlo.iota dim = 0 : tensor<2xi64>
    %20 = stablehlo.iota dim = 0 : tensor<32xi64>
    %21 = stablehlo.broadcast_in_dim %c_11, dims = [] : (tensor<i64>) -> tensor<32xi64>
    %22 = stablehlo.add %20, %21 : tensor<32xi64>
    %23 = stablehlo.iota dim = 0 : tensor<32xi64>
    %24 = stablehlo.broadcast_in_dim %c_11, dims = [] : (tensor<i64>) -> tensor<32xi64>
    %25 = stablehlo.add %23, %24 : tensor<32xi64>
    %26 = stablehlo.broadcast_in_dim %19, dims = [0] : (tensor<2xi64>) -> tensor<2x1xi64>
    %27 = stablehlo.broadcast_in_dim %26, dims = [0, 1] : (tensor<2x1xi64>) -> tensor<2x1x1xi64>
    %28 = stablehlo.broadcast_in_dim %27, dims = [0, 1, 2] : (tensor<2x1x1xi64>) -> tensor<2x1x1x1xi64>
    %29 = stablehlo.broadcast_in_dim %22, dims = [1] : (tensor<32xi64>) -> tensor<1x32xi64>
    %30 = stablehlo.broadcast_in_dim %29, dims = [0, 2] : (tensor<1x32xi64>) -> tensor<1x1x32xi64>
    %31 = stablehlo.broadcast_in_dim %30, dims = [0, 1, 2] : (tensor<1x1x32xi64>) -> tensor<1x1x32x1xi64>
    %32 = stablehlo.broadcast_in_dim %25, dims = [1] : (tensor<32xi64>) -> tensor<1x32xi64>
    %33 = stablehlo.broadcast_in_dim %32, dims = [0, 2] : (tensor<1x32xi64>) -> tensor<1x1x32xi64>
    %34 = stablehlo.broadcast_in_dim %33, dims = [0, 1, 3] : (tensor<1x1x32xi64>) -> tensor<1x1x1x32xi64>
    %35 = stablehlo.broadcast_in_dim %c_11, dims = [] : (tensor<i64>) -> tensor<2x1x1x1xi64>
    %36 = stablehlo.compare LT, %28, %35, SIGNED : (tensor<2x1x1x1xi64>, tensor<2x1x1x1xi64>) -> tensor<2x1x1x1xi1>
    %37 = stablehlo.broadcast_in_dim %c_9, dims = [] : (tensor<i64>) -> tensor<2x1x1x1xi64>
    %38 = stablehlo.add %28, %37 : tensor<2x1x1x1xi64>
    %39 = stablehlo.select %36, %38, %28 : tensor<2x1x1x1xi1>, tensor<2x1x1x1xi64>
    %40 = stablehlo.broadcast_in_dim %c_11, dims = [] : (tensor<i64>) -> tensor<1x1x32x1xi64>
    %41 = stablehlo.compare LT, %31, %40, SIGNED : (tensor<1x1x32x1xi64>, tensor<1x1x32x1xi64>) -> tensor<1x1x32x1xi1>
    %42 = stablehlo.broadcast_in_dim %c_8, dims = [] : (tensor<i64>) -> tensor<1x1x32x1xi64>
    %43 = stablehlo.add %31, %42 : tensor<1x1x32x1xi64>
    %44 = stablehlo.select %41, %43, %31 : tensor<1x1x32x1xi1>, tensor<1x1x32x1xi64>
    %45 = stablehlo.broadcast_in_dim %39, dims = [0, 1, 2, 3] : (tensor<2x1x1x1xi64>) -> tensor<2x1x32x1xi64>
    %46 = stablehlo.broadcast_in_dim %44, dims = [0, 1, 2, 3] : (tensor<1x1x32x1xi64>) -> tensor<2x1x32x1xi64>
    %47 = stablehlo.convert %45 : (tensor<2x1x32x1xi64>) -> tensor<2x1x32x1xi32>
    %48 = stablehlo.convert %46 : (tensor<2x1x32x1xi64>) -> tensor<2x1x32x1xi32>
    %49 = stablehlo.broadcast_in_dim %47, dims = [0, 1, 2, 3] : (tensor<2x1x32x1xi32>) -> tensor<2x1x32x1x1xi32>
    %50 = stablehlo.broadcast_in_dim %48, dims = [0, 1, 2, 3] : (tensor<2x1x32x1xi32>) -> tensor<2x1x32x1x1xi32>
    %51 = stablehlo.concatenate %49, %50, dim = 4 : (tensor<2x1x32x1x1xi32>, tensor<2x1x32x1x1xi32>) -> tensor<2x1x32x1x2xi32>
    %52 = "stablehlo.gather"(%18, %51) <{dimension_numbers = #stablehlo.gather<collapsed_slice_dims = [0, 1], start_index_map = [0, 1], index_vector_dim = 4>, slice_sizes = array<i64: 1, 1>}> : (tensor<2x32xi64>, tensor<2x1x32x1x2xi32>) -> tensor<2x1x32x1xi64>
    %53 = stablehlo.broadcast_in_dim %c_11, dims = [] : (tensor<i64>) -> tensor<2x1x1x1xi64>
    %54 = stablehlo.compare LT, %28, %53, SIGNED : (tensor<2x1x1x1xi64>, tensor<2x1x1x1xi64>) -> tensor<2x1x1x1xi1>
    %55 = stablehlo.broadcast_in_dim %c_9, dims = [] : (tensor<i64>) -> tensor<2x1x1x1xi64>
    %56 = stablehlo.add %28, %55 : tensor<2x1x1x1xi64>
    %57 = stablehlo.select %54, %56, %28 : tensor<2x1x1x1xi1>, tensor<2x1x1x1xi64>
    %58 = stablehlo.broadcast_in_dim %c_11, dims = [] : (tensor<i64>) -> tensor<1x1x1x32xi64>
    %59 = stablehlo.compare LT, %34, %58, SIGNED : (tensor<1x1x1x32xi64>, tensor<1x1x1x32xi64>) -> tensor<1x1x1x32xi1>
    %60 = stablehlo.broadcast_in_dim %c_8, dims = [] : (tensor<i64>) -> tensor<1x1x1x32xi64>
    %61 = stablehlo.add %34, %60 : tensor<1x1x1x32xi64>
    %62 = stablehlo.select %59, %61, %34 : tensor<1x1x1x32xi1>, tensor<1x1x1x32xi64>
    %63 = stablehlo.broadcast_in_dim %57, dims = [0, 1, 2, 3] : (tensor<2x1x1x1xi64>) -> tensor<2x1x1x32xi64>
    %64 = stablehlo.broadcast_in_dim %62, dims = [0, 1, 2, 3] : (tensor<1x1x1x32xi64>) -> tensor<2x1x1x32xi64>
    %65 = stablehlo.convert %63 : (tensor<2x1x1x32xi64>) -> tensor<2x1x1x32xi32>
    %66 = stablehlo.convert %64 : (tensor<2x1x1x32xi64>) -> tensor<2x1x1x32xi32>
    %67 = stablehlo.broadcast_in_dim %65, dims = [0, 1, 2, 3] : (tensor<2x1x1x32xi32>) -> tensor<2x1x1x32x1xi32>
    %68 = stablehlo.broadcast_in_dim %66, dims = [0, 1, 2, 3] : (tensor<2x1x1x32xi32>) -> tensor<2x1x1x32x1xi32>
    %69 = stablehlo.concatenate %67, %68, dim = 4 : (tensor<2x1x1x32x1xi32>, tensor<2x1x1x32x1xi32>) -> tensor<2x1x1x32x2xi32>
    %70 = "stablehlo.gather"(%18, %69) <{dimension_numbers = #stablehlo.gather<collapsed_slice_dims = [0, 1], start_index_map = [0, 1], index_vector_dim = 4>, slice_sizes = array<i64: 1, 1>}> : (tensor<2x32xi64>, tensor<2x1x1x32x2xi32>) -> tensor<2x1x1x32xi64>
    %71 = stablehlo.broadcast_in_dim %70, dims = [0, 1, 2, 3] : (tensor<2x1x1x32xi64>) -> tensor<2x1x32x32xi64>
    %72 = stablehlo.broadcast_in_dim %52, dims = [0, 1, 2, 3] : (tensor<2x1x32x1xi64>) -> tensor<2x1x32x32xi64>
    %73 = stablehlo.compare LE, %71, %72, SIGNED : (tensor<2x1x32x32xi64>, tensor<2x1x32x32xi64>) -> tensor<2x1x32x32xi1>
    %74 = stablehlo.broadcast_in_dim %c_7, dims = [] : (tensor<i1>) -> tensor<2x1x32x32xi1>
    %75 = stablehlo.and %74, %73 : tensor<2x1x32x32xi1>
    %76 = stablehlo.broadcast_in_dim %c_11, dims = [] : (tensor<i64>) -> tensor<2x1x1x1xi64>
    %77 = stablehlo.compare LT, %28, %76, SIGNED : (tensor<2x1x1x1xi64>, tensor<2x1x1x1xi64>) -> tensor<2x1x1x1xi1>
    %78 = stablehlo.broadcast_in_dim %c_9, dims = [] : (tensor<i64>) -> tensor<2x1x1x1xi64>
    %79 = stablehlo.add %28, %78 : tensor<2x1x1x1xi64>
    %80 = stablehlo.select %77, %79, %28 : tensor<2x1x1x1xi1>, tensor<2x1x1x1xi64>
    %81 = stablehlo.broadcast_in_dim %c_11, dims = [] : (tensor<i64>) -> tensor<1x1x32x1xi64>
    %82 = stablehlo.compare LT, %31, %81, SIGNED : (tensor<1x1x32x1xi64>, tensor<1x1x32x1xi64>) -> tensor<1x1x32x1xi1>
    %83 = stablehlo.broadcast_in_dim %c_8, dims = [] : (tensor<i64>) -> tensor<1x1x32x1xi64>
    %84 = stablehlo.add %31, %83 : tensor<1x1x32x1xi64>
    %85 = stablehlo.select %82, %84, %31 : tensor<1x1x32x1xi1>, tensor<1x1x32x1xi64>
    %86 = stablehlo.broadcast_in_dim %80, dims = [0, 1, 2, 3] : (tensor<2x1x1x1xi64>) -> tensor<2x1x32x1xi64>
    %87 = stablehlo.broadcast_in_dim %85, dims = [0, 1, 2, 3] : (tensor<1x1x32x1xi64>) -> tensor<2x1x32x1xi64>
    %88 = stablehlo.convert %86 : (tensor<2x1x32x1xi64>) -> tensor<2x1x32x1xi32>
    %89 = stablehlo.convert %87 : (tensor<2x1x32x1xi64>) -> tensor<2x1x32x1xi32>
    %90 = stablehlo.broadcast_in_dim %88, dims = [0, 1, 2, 3] : (tensor<2x1x32x1xi32>) -> tensor<2x1x32x1x1xi32>
    %91 = stablehlo.broadcast_in_dim %89, dims = [0, 1, 2, 3] : (tensor<2x1x32x1xi32>) -> tensor<2x1x32x1x1xi32>
    %92 = stablehlo.concatenate %90, %91, dim = 4 : (tensor<2x1x32x1x1xi32>, tensor<2x1x32x1x1xi32>) -> tensor<2x1x32x1x2xi32>
    %93 = "stablehlo.gather"(%17, %92) <{dimension_numbers = #stablehlo.gather<collapsed_slice_dims = [0, 1], start_index_map = [0, 1], index_vector_dim = 4>, slice_sizes = array<i64: 1, 1>}> : (tensor<2x32xi64>, tensor<2x1x32x1x2xi32>) -> tensor<2x1x32x1xi64>
    %94 = stablehlo.broadcast_in_dim %c_11, dims = [] : (tensor<i64>) -> tensor<2x1x1x1xi64>
    %95 = stablehlo.compare LT, %28, %94, SIGNED : (tensor<2x1x1x1xi64>, tensor<2x1x1x1xi64>) -> tensor<2x1x1x1xi1>
    %96 = stablehlo.broadcast_in_dim %c_9, dims = [] : (tensor<i64>) -> tensor<2x1x1x1xi64>
    %97 = stablehlo.add %28, %96 : tensor<2x1x1x1xi64>
    %98 = stablehlo.select %95, %97, %28 : tensor<2x1x1x1xi1>, tensor<2x1x1x1xi64>
    %99 = stablehlo.broadcast_in_dim %c_11, dims = [] : (tensor<i64>) -> tensor<1x1x1x32xi64>
    %100 = stablehlo.compare LT, %34, %99, SIGNED : (tensor<1x1x1x32xi64>, tensor<1x1x1x32xi64>) -> tensor<1x1x1x32xi1>
    %101 = stablehlo.broadcast_in_dim %c_8, dims = [] : (tensor<i64>) -> tensor<1x1x1x32xi64>
    %102 = stablehlo.add %34, %101 : tensor<1x1x1x32xi64>
    %103 = stablehlo.select %100, %102, %34 : tensor<1x1x1x32xi1>, tensor<1x1x1x32xi64>
    %104 = stablehlo.broadcast_in_dim %98, dims = [0, 1, 2, 3] : (tensor<2x1x1x1xi64>) -> tensor<2x1x1x32xi64>
    %105 = stablehlo.broadcast_in_dim %103, dims = [0, 1, 2, 3] : (tensor<1x1x1x32xi64>) -> tensor<2x1x1x32xi64>
    %106 = stablehlo.convert %104 : (tensor<2x1x1x32xi64>) -> tensor<2x1x1x32xi32>
    %107 = stablehlo.convert %105 : (tensor<2x1x1x32xi64>) -> tensor<2x1x1x32xi32>
    %108 = stablehlo.broadcast_in_dim %106, dims = [0, 1, 2, 3] : (tensor<2x1x1x32xi32>) -> tensor<2x1x1x32x1xi32>
    %109 = stablehlo.broadcast_in_dim %107, dims = [0, 1, 2, 3] : (tensor<2x1x1x32xi32>) -> tensor<2x1x1x32x1xi32>
    %110 = stablehlo.concatenate %108, %109, dim = 4 : (tensor<2x1x1x32x1xi32>, tensor<2x1x1x32x1xi32>) -> tensor<2x1x1x32x2xi32>
    %111 = "stablehlo.gather"(%17, %110) <{dimension_numbers = #stablehlo.gather<collapsed_slice_dims = [0, 1], start_index_map = [0, 1], index_vector_dim = 4>, slice_sizes = array<i64: 1, 1>}> : (tensor<2x32xi64>, tensor<2x1x1x32x2xi32>) -> tensor<2x1x1x32xi64>
    %112 = stablehlo.broadcast_in_dim %93, dims = [0, 1, 2, 3] : (tensor<2x1x32x1xi64>) -> tensor<2x1x32x32xi64>
    %113 = stablehlo.broadcast_in_dim %111, dims = [0, 1, 2, 3] : (tensor<2x1x1x32xi64>) -> tensor<2x1x32x32xi64>
    %114 = stablehlo.compare EQ, %112, %113, SIGNED : (tensor<2x1x32x32xi64>, tensor<2x1x32x32xi64>) -> tensor<2x1x32x32xi1>
    %115 = stablehlo.and %75, %114 : tensor<2x1x32x32xi1>
    %116 = stablehlo.broadcast_in_dim %4, dims = [0, 1] : (tensor<1x32xi64>) -> tensor<1x32x1xi64>
    %117 = stablehlo.convert %116 : (tensor<1x32x1xi64>) -> tensor<1x32x1xf32>
    %118 = stablehlo.broadcast_in_dim %cst_12, dims = [2] : (tensor<16xf32>) -> tensor<1x1x16xf32>
    %119 = stablehlo.broadcast_in_dim %117, dims = [0, 1, 2] : (tensor<1x32x1xf32>) -> tensor<1x32x16xf32>
    %120 = stablehlo.broadcast_in_dim %118, dims = [0, 1, 2] : (tensor<1x1x16xf32>) -> tensor<1x32x16xf32>
    %121 = stablehlo.multiply %119, %120 : tensor<1x32x16xf32>
    %122 = stablehlo.concatenate %121, %121, dim = 2 : (tensor<1x32x16xf32>, tensor<1x32x16xf32>) -> tensor<1x32x32xf32>
    %123 = stablehlo.cosine %122 : tensor<1x32x32xf32>
    %124 = stablehlo.broadcast_in_dim %cst_6, dims = [] : (tensor<f32>) -> tensor<1x32x32xf32>
    %125 = stablehlo.multiply %123, %124 : tensor<1x32x32xf32>
    %126 = stablehlo.sine %122 : tensor<1x32x32xf32>
    %127 = stablehlo.broadcast_in_dim %cst_6, dims = [] : (tensor<f32>) -> tensor<1x32x32xf32>
    %128 = stablehlo.multiply %126, %127 : tensor<1x32x32xf32>
    %129 = stablehlo.broadcast_in_dim %cst_5, dims = [] : (tensor<f32>) -> tensor<2x32x128xf32>
    %130 = stablehlo.power %0, %129 : tensor<2x32x128xf32>
    %131 = stablehlo.reduce(%130 init: %cst_4) applies stablehlo.add across dimensions = [2] : (tensor<2x32x128xf32>, tensor<f32>) -> tensor<2x32xf32>
    %132 = stablehlo.broadcast_in_dim %131, dims = [0, 1] : (tensor<2x32xf32>) -> tensor<2x32x1xf32>
    %133 = stablehlo.broadcast_in_dim %cst_3, dims = [] : (tensor<f32>) -> tensor<2x32x1xf32>
    %134 = stablehlo.divide %132, %133 : tensor<2x32x1xf32>
    %135 = stablehlo.broadcast_in_dim %cst_2, dims = [] : (tensor<f32>) -> tensor<2x32x1xf32>
    %136 = stablehlo.add %134, %135 : tensor<2x32x1xf32>
    %137 = stablehlo.rsqrt %136 : tensor<2x32x1xf32>
    %138 = stablehlo.broadcast_in_dim %137, dims = [0, 1, 2] : (tensor<2x32x1xf32>) -> tensor<2x32x128xf32>
    %139 = stablehlo.multiply %0, %138 : tensor<2x32x128xf32>
    %140 = stablehlo.broadcast_in_dim %arg8, dims = [2] : (tensor<128xf32>) -> tensor<1x1x128xf32>
    %141 = stablehlo.broadcast_in_dim %140, dims = [0, 1, 2] : (tensor<1x1x128xf32>) -> tensor<2x32x128xf32>
    %142 = stablehlo.multiply %141, %139 : tensor<2x32x128xf32>
    %143 = stablehlo.transpose %arg1, dims = [1, 0] : (tensor<128x128xf32>) -> tensor<128x128xf32>
    %144 = stablehlo.reshape %142 : (tensor<2x32x128xf32>) -> tensor<64x128xf32>
    %145 = stablehlo.dot_general %144, %143, contracting_dims = [1] x [0] : (tensor<64x128xf32>, tensor<128x128xf32>) -> tensor<64x128xf32>
    %146 = stablehlo.reshape %145 : (tensor<64x128xf32>) -> tensor<2x32x128xf32>
    %147 = stablehlo.reshape %146 : (tensor<2x32x128xf32>) -> tensor<2x32x4x32xf32>
    %148 = stablehlo.transpose %147, dims = [0, 2, 1, 3] : (tensor<2x32x4x32xf32>) -> tensor<2x4x32x32xf32>
    %149 = stablehlo.transpose %arg2, dims = [1, 0] : (tensor<64x128xf32>) -> tensor<128x64xf32>
    %150 = stablehlo.reshape %142 : (tensor<2x32x128xf32>) -> tensor<64x128xf32>
    %151 = stablehlo.dot_general %150, %149, contracting_dims = [1] x [0] : (tensor<64x128xf32>, tensor<128x64xf32>) -> tensor<64x64xf32>
    %152 = stablehlo.reshape %151 : (tensor<64x64xf32>) -> tensor<2x32x64xf32>
    %153 = stablehlo.reshape %152 : (tensor<2x32x64xf32>) -> tensor<2x32x2x32xf32>
    %154 = stablehlo.transpose %153, dims = [0, 2, 1, 3] : (tensor<2x32x2x32xf32>) -> tensor<2x2x32x32xf32>
    %155 = stablehlo.transpose %arg3, dims = [1, 0] : (tensor<64x128xf32>) -> tensor<128x64xf32>
    %156 = stablehlo.reshape %142 : (tensor<2x32x128xf32>) -> tensor<64x128xf32>
    %157 = stablehlo.dot_general %156, %155, contracting_dims = [1] x [0] : (tensor<64x128xf32>, tensor<128x64xf32>) -> tensor<64x64xf32>
    %158 = stablehlo.reshape %157 : (tensor<64x64xf32>) -> tensor<2x32x64xf32>
    %159 = stablehlo.reshape %158 : (tensor<2x32x64xf32>) -> tensor<2x32x2x32xf32>
    %160 = stablehlo.transpose %159, dims = [0, 2, 1, 3] : (tensor<2x32x2x32xf32>) -> tensor<2x2x32x32xf32>
    %161 = stablehlo.broadcast_in_dim %125, dims = [0, 2, 3] : (tensor<1x32x32xf32>) -> tensor<1x1x32x32xf32>
    %162 = stablehlo.broadcast_in_dim %128, dims = [0, 2, 3] : (tensor<1x32x32xf32>) -> tensor<1x1x32x32xf32>
    %163 = stablehlo.broadcast_in_dim %161, dims = [0, 1, 2, 3] : (tensor<1x1x32x32xf32>) -> tensor<2x4x32x32xf32>
    %164 = stablehlo.multiply %148, %163 : tensor<2x4x32x32xf32>
    %165 = stablehlo.slice %148 [0:2, 0:4, 0:32, 0:16] : (tensor<2x4x32x32xf32>) -> tensor<2x4x32x16xf32>
    %166 = stablehlo.slice %148 [0:2, 0:4, 0:32, 16:32] : (tensor<2x4x32x32xf32>) -> tensor<2x4x32x16xf32>
    %167 = stablehlo.broadcast_in_dim %cst_1, dims = [] : (tensor<f32>) -> tensor<2x4x32x16xf32>
    %168 = stablehlo.multiply %167, %166 : tensor<2x4x32x16xf32>
    %169 = stablehlo.concatenate %168, %165, dim = 3 : (tensor<2x4x32x16xf32>, tensor<2x4x32x16xf32>) -> tensor<2x4x32x32xf32>
    %170 = stablehlo.broadcast_in_dim %162, dims = [0, 1, 2, 3] : (tensor<1x1x32x32xf32>) -> tensor<2x4x32x32xf32>
    %171 = stablehlo.multiply %169, %170 : tensor<2x4x32x32xf32>
    %172 = stablehlo.broadcast_in_dim %cst_6, dims = [] : (tensor<f32>) -> tensor<2x4x32x32xf32>
    %173 = stablehlo.multiply %171, %172 : tensor<2x4x32x32xf32>
    %174 = stablehlo.add %164, %173 : tensor<2x4x32x32xf32>
    %175 = stablehlo.broadcast_in_dim %161, dims = [0, 1, 2, 3] : (tensor<1x1x32x32xf32>) -> tensor<2x2x32x32xf32>
    %176 = stablehlo.multiply %154, %175 : tensor<2x2x32x32xf32>
    %177 = stablehlo.slice %154 [0:2, 0:2, 0:32, 0:16] : (tensor<2x2x32x32xf32>) -> tensor<2x2x32x16xf32>
    %178 = stablehlo.slice %154 [0:2, 0:2, 0:32, 16:32] : (tensor<2x2x32x32xf32>) -> tensor<2x2x32x16xf32>
    %179 = stablehlo.broadcast_in_dim %cst_1, dims = [] : (tensor<f32>) -> tensor<2x2x32x16xf32>
    %180 = stablehlo.multiply %179, %178 : tensor<2x2x32x16xf32>
    %181 = stablehlo.concatenate %180, %177, dim = 3 : (tensor<2x2x32x16xf32>, tensor<2x2x32x16xf32>) -> tensor<2x2x32x32xf32>
    %182 = stablehlo.broadcast_in_dim %162, dims = [0, 1, 2, 3] : (tensor<1x1x32x32xf32>) -> tensor<2x2x32x32xf32>
    %183 = stablehlo.multiply %181, %182 : tensor<2x2x32x32xf32>
    %184 = stablehlo.broadcast_in_dim %cst_6, dims = [] : (tensor<f32>) -> tensor<2x2x32x32xf32>
    %185 = stablehlo.multiply %183, %184 : tensor<2x2x32x32xf32>
    %186 = stablehlo.add %176, %185 : tensor<2x2x32x32xf32>
    %187 = stablehlo.broadcast_in_dim %186, dims = [0, 1, 3, 4] : (tensor<2x2x32x32xf32>) -> tensor<2x2x1x32x32xf32>
    %188 = stablehlo.broadcast_in_dim %187, dims = [0, 1, 2, 3, 4] : (tensor<2x2x1x32x32xf32>) -> tensor<2x2x2x32x32xf32>
    %189 = stablehlo.reshape %188 : (tensor<2x2x2x32x32xf32>) -> tensor<2x4x32x32xf32>
    %190 = stablehlo.broadcast_in_dim %160, dims = [0, 1, 3, 4] : (tensor<2x2x32x32xf32>) -> tensor<2x2x1x32x32xf32>
    %191 = stablehlo.broadcast_in_dim %190, dims = [0, 1, 2, 3, 4] : (tensor<2x2x1x32x32xf32>) -> tensor<2x2x2x32x32xf32>
    %192 = stablehlo.reshape %191 : (tensor<2x2x2x32x32xf32>) -> tensor<2x4x32x32xf32>
    %193 = call @_where_1(%115, %cst_4, %cst_0) : (tensor<2x1x32x32xi1>, tensor<f32>, tensor<f32>) -> tensor<2x1x32x32xf32>
    %194 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<2x4x32x32xf32>
    %195 = stablehlo.multiply %174, %194 : tensor<2x4x32x32xf32>
    %196 = stablehlo.transpose %189, dims = [0, 1, 3, 2] : (tensor<2x4x32x32xf32>) -> tensor<2x4x32x32xf32>
    %197 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<2x4x32x32xf32>
    %198 = stablehlo.multiply %196, %197 : tensor<2x4x32x32xf32>
    %199 = stablehlo.reshape %195 : (tensor<2x4x32x32xf32>) -> tensor<8x32x32xf32>
    %200 = stablehlo.reshape %198 : (tensor<2x4x32x32xf32>) -> tensor<8x32x32xf32>
    %201 = stablehlo.dot_general %199, %200, batching_dims = [0] x [0], contracting_dims = [2] x [1] : (tensor<8x32x32xf32>, tensor<8x32x32xf32>) -> tensor<8x32x32xf32>
    %202 = stablehlo.reshape %201 : (tensor<8x32x32xf32>) -> tensor<2x4x32x32xf32>
    %203 = stablehlo.broadcast_in_dim %cst_6, dims = [] : (tensor<f32>) -> tensor<2x1x32x32xf32>
    %204 = stablehlo.multiply %193, %203 : tensor<2x1x32x32xf32>
    %205 = stablehlo.broadcast_in_dim %204, dims = [0, 1, 2, 3] : (tensor<2x1x32x32xf32>) -> tensor<2x4x32x32xf32>
    %206 = stablehlo.add %202, %205 : tensor<2x4x32x32xf32>
    %207 = stablehlo.reduce(%206 init: %cst_0) applies stablehlo.maximum across dimensions = [3] : (tensor<2x4x32x32xf32>, tensor<f32>) -> tensor<2x4x32xf32>
    %208 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<f32>) -> tensor<2x4x32xf32>
    %209 = stablehlo.maximum %208, %207 : tensor<2x4x32xf32>
    %210 = stablehlo.broadcast_in_dim %209, dims = [0, 1, 2] : (tensor<2x4x32xf32>) -> tensor<2x4x32x1xf32>
    %211 = stablehlo.broadcast_in_dim %210, dims = [0, 1, 2, 3] : (tensor<2x4x32x1xf32>) -> tensor<2x4x32x32xf32>
    %212 = stablehlo.subtract %206, %211 : tensor<2x4x32x32xf32>
    %213 = stablehlo.exponential %212 : tensor<2x4x32x32xf32>
    %214 = stablehlo.reduce(%213 init: %cst_4) applies stablehlo.add across dimensions = [3] : (tensor<2x4x32x32xf32>, tensor<f32>) -> tensor<2x4x32xf32>
    %215 = stablehlo.broadcast_in_dim %214, dims = [0, 1, 2] : (tensor<2x4x32xf32>) -> tensor<2x4x32x1xf32>
    %216 = stablehlo.broadcast_in_dim %215, dims = [0, 1, 2, 3] : (tensor<2x4x32x1xf32>) -> tensor<2x4x32x32xf32>
    %217 = stablehlo.divide %213, %216 : tensor<2x4x32x32xf32>
    %218 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<f32>) -> tensor<2x4x32x32xf32>
    %219 = stablehlo.compare EQ, %206, %218, FLOAT : (tensor<2x4x32x32xf32>, tensor<2x4x32x32xf32>) -> tensor<2x4x32x32xi1>
    %220 = stablehlo.not %219 : tensor<2x4x32x32xi1>
    %221 = stablehlo.reduce(%220 init: %c) applies stablehlo.or across dimensions = [3] : (tensor<2x4x32x32xi1>, tensor<i1>) -> tensor<2x4x32xi1>
    %222 = stablehlo.broadcast_in_dim %221, dims = [0, 1, 2] : (tensor<2x4x32xi1>) -> tensor<2x4x32x1xi1>
    %223 = stablehlo.not %222 : tensor<2x4x32x1xi1>
    %224 = stablehlo.broadcast_in_dim %cst_4, dims = [] : (tensor<f32>) -> tensor<2x4x32x32xf32>
    %225 = call @_where_2(%223, %224, %217) : (tensor<2x4x32x1xi1>, tensor<2x4x32x32xf32>, tensor<2x4x32x32xf32>) -> tensor<2x4x32x32xf32>
    %226 = stablehlo.reshape %225 : (tensor<2x4x32x32xf32>) -> tensor<8x32x32xf32>
    %227 = stablehlo.reshape %192 : (tensor<2x4x32x32xf32>) -> tensor<8x32x32xf32>
    %228 = stablehlo.dot_general %226, %227, batching_dims = [0] x [0], contracting_dims = [2] x [1] : (tensor<8x32x32xf32>, tensor<8x32x32xf32>) -> tensor<8x32x32xf32>
    %229 = stablehlo.reshape %228 : (tensor<8x32x32xf32>) -> tensor<2x4x32x32xf32>
    %230 = stablehlo.transpose %229, dims = [0, 2, 1, 3] : (tensor<2x4x32x32xf32>) -> tensor<2x32x4x32xf32>
    %231 = stablehlo.reshape %230 : (tensor<2x32x4x32xf32>) -> tensor<2x32x128xf32>
    %232 = stablehlo.transpose %arg4, dims = [1, 0] : (tensor<128x128xf32>) -> tensor<128x128xf32>
    %233 = stablehlo.reshape %231 : (tensor<2x32x128xf32>) -> tensor<64x128xf32>
    %234 = stablehlo.dot_general %233, %232, contracting_dims = [1] x [0] : (tensor<64x128xf32>, tensor<128x128xf32>) -> tensor<64x128xf32>
    %235 = stablehlo.reshape %234 : (tensor<64x128xf32>) -> tensor<2x32x128xf32>
    %236 = stablehlo.broadcast_in_dim %cst_6, dims = [] : (tensor<f32>) -> tensor<2x32x128xf32>
    %237 = stablehlo.multiply %235, %236 : tensor<2x32x128xf32>
    %238 = stablehlo.add %0, %237 : tensor<2x32x128xf32>
    %239 = stablehlo.broadcast_in_dim %cst_5, dims = [] : (tensor<f32>) -> tensor<2x32x128xf32>
    %240 = stablehlo.power %238, %239 : tensor<2x32x128xf32>
    %241 = stablehlo.reduce(%240 init: %cst_4) applies stablehlo.add across dimensions = [2] : (tensor<2x32x128xf32>, tensor<f32>) -> tensor<2x32xf32>
    %242 = stablehlo.broadcast_in_dim %241, dims = [0, 1] : (tensor<2x32xf32>) -> tensor<2x32x1xf32>
    %243 = stablehlo.broadcast_in_dim %cst_3, dims = [] : (tensor<f32>) -> tensor<2x32x1xf32>
    %244 = stablehlo.divide %242, %243 : tensor<2x32x1xf32>
    %245 = stablehlo.broadcast_in_dim %cst_2, dims = [] : (tensor<f32>) -> tensor<2x32x1xf32>
    %246 = stablehlo.add %244, %245 : tensor<2x32x1xf32>
    %247 = stablehlo.rsqrt %246 : tensor<2x32x1xf32>
    %248 = stablehlo.broadcast_in_dim %247, dims = [0, 1, 2] : (tensor<2x32x1xf32>) -> tensor<2x32x128xf32>
    %249 = stablehlo.multiply %238, %248 : tensor<2x32x128xf32>
    %250 = stablehlo.broadcast_in_dim %arg9, dims = [2] : (tensor<128xf32>) -> tensor<1x1x128xf32>
    %251 = stablehlo.broadcast_in_dim %250, dims = [0, 1, 2] : (tensor<1x1x128xf32>) -> tensor<2x32x128xf32>
    %252 = stablehlo.multiply %251, %249 : tensor<2x32x128xf32>
    %253 = stablehlo.transpose %arg5, dims = [1, 0] : (tensor<256x128xf32>) -> tensor<128x256xf32>
    %254 = stablehlo.reshape %252 : (tensor<2x32x128xf32>) -> tensor<64x128xf32>
    %255 = stablehlo.dot_general %254, %253, contracting_dims = [1] x [0] : (tensor<64x128xf32>, tensor<128x256xf32>) -> tensor<64x256xf32>
    %256 = stablehlo.reshape %255 : (tensor<64x256xf32>) -> tensor<2x32x256xf32>
    %257 = stablehlo.negate %256 : tensor<2x32x256xf32>
    %258 = stablehlo.exponential %257 : tensor<2x32x256xf32>
    %259 = stablehlo.broadcast_in_dim %cst_6, dims = [] : (tensor<f32>) -> tensor<2x32x256xf32>
    %260 = stablehlo.add %259, %258 : tensor<2x32x256xf32>
    %261 = stablehlo.broadcast_in_dim %cst_6, dims = [] : (tensor<f32>) -> tensor<2x32x256xf32>
    %262 = stablehlo.divide %261, %260 : tensor<2x32x256xf32>
    %263 = stablehlo.multiply %256, %262 : tensor<2x32x256xf32>
    %264 = stablehlo.transpose %arg6, dims = [1, 0] : (tensor<256x128xf32>) -> tensor<128x256xf32>
    %265 = stablehlo.reshape %252 : (tensor<2x32x128xf32>) -> tensor<64x128xf32>
    %266 = stablehlo.dot_general %265, %264, contracting_dims = [1] x [0] : (tensor<64x128xf32>, tensor<128x256xf32>) -> tensor<64x256xf32>
    %267 = stablehlo.reshape %266 : (tensor<64x256xf32>) -> tensor<2x32x256xf32>
    %268 = stablehlo.multiply %263, %267 : tensor<2x32x256xf32>
    %269 = stablehlo.transpose %arg7, dims = [1, 0] : (tensor<128x256xf32>) -> tensor<256x128xf32>
    %270 = stablehlo.reshape %268 : (tensor<2x32x256xf32>) -> tensor<64x256xf32>
    %271 = stablehlo.dot_general %270, %269, contracting_dims = [1] x [0] : (tensor<64x256xf32>, tensor<256x128xf32>) -> tensor<64x128xf32>
    %272 = stablehlo.reshape %271 : (tensor<64x128xf32>) -> tensor<2x32x128xf32>
    %273 = stablehlo.broadcast_in_dim %cst_6, dims = [] : (tensor<f32>) -> tensor<2x32x128xf32>
    %274 = stablehlo.multiply %272, %273 : tensor<2x32x128xf32>
    %275 = stablehlo.add %238, %274 : tensor<2x32x128xf32>
    %276 = stablehlo.broadcast_in_dim %cst_5, dims = [] : (tensor<f32>) -> tensor<2x32x128xf32>
    %277 = stablehlo.power %275, %276 : tensor<2x32x128xf32>
    %278 = stablehlo.reduce(%277 init: %cst_4) applies stablehlo.add across dimensions = [2] : (tensor<2x32x128xf32>, tensor<f32>) -> tensor<2x32xf32>
    %279 = stablehlo.broadcast_in_dim %278, dims = [0, 1] : (tensor<2x32xf32>) -> tensor<2x32x1xf32>
    %280 = stablehlo.broadcast_in_dim %cst_3, dims = [] : (tensor<f32>) -> tensor<2x32x1xf32>
    %281 = stablehlo.divide %279, %280 : tensor<2x32x1xf32>
    %282 = stablehlo.broadcast_in_dim %cst_2, dims = [] : (tensor<f32>) -> tensor<2x32x1xf32>
    %283 = stablehlo.add %281, %282 : tensor<2x32x1xf32>
    %284 = stablehlo.rsqrt %283 : tensor<2x32x1xf32>
    %285 = stablehlo.broadcast_in_dim %284, dims = [0, 1, 2] : (tensor<2x32x1xf32>) -> tensor<2x32x128xf32>
    %286 = stablehlo.multiply %275, %285 : tensor<2x32x128xf32>
    %287 = stablehlo.broadcast_in_dim %arg17, dims = [2] : (tensor<128xf32>) -> tensor<1x1x128xf32>
    %288 = stablehlo.broadcast_in_dim %287, dims = [0, 1, 2] : (tensor<1x1x128xf32>) -> tensor<2x32x128xf32>
    %289 = stablehlo.multiply %288, %286 : tensor<2x32x128xf32>
    %290 = stablehlo.transpose %arg10, dims = [1, 0] : (tensor<128x128xf32>) -> tensor<128x128xf32>
    %291 = stablehlo.reshape %289 : (tensor<2x32x128xf32>) -> tensor<64x128xf32>
    %292 = stablehlo.dot_general %291, %290, contracting_dims = [1] x [0] : (tensor<64x128xf32>, tensor<128x128xf32>) -> tensor<64x128xf32>
    %293 = stablehlo.reshape %292 : (tensor<64x128xf32>) -> tensor<2x32x128xf32>
    %294 = stablehlo.reshape %293 : (tensor<2x32x128xf32>) -> tensor<2x32x4x32xf32>
    %295 = stablehlo.transpose %294, dims = [0, 2, 1, 3] : (tensor<2x32x4x32xf32>) -> tensor<2x4x32x32xf32>
    %296 = stablehlo.transpose %arg11, dims = [1, 0] : (tensor<64x128xf32>) -> tensor<128x64xf32>
    %297 = stablehlo.reshape %289 : (tensor<2x32x128xf32>) -> tensor<64x128xf32>
    %298 = stablehlo.dot_general %297, %296, contracting_dims = [1] x [0] : (tensor<64x128xf32>, tensor<128x64xf32>) -> tensor<64x64xf32>
    %299 = stablehlo.reshape %298 : (tensor<64x64xf32>) -> tensor<2x32x64xf32>
    %300 = stablehlo.reshape %299 : (tensor<2x32x64xf32>) -> tensor<2x32x2x32xf32>
    %301 = stablehlo.transpose %300, dims = [0, 2, 1, 3] : (tensor<2x32x2x32xf32>) -> tensor<2x2x32x32xf32>
    %302 = stablehlo.transpose %arg12, dims = [1, 0] : (tensor<64x128xf32>) -> tensor<128x64xf32>
    %303 = stablehlo.reshape %289 : (tensor<2x32x128xf32>) -> tensor<64x128xf32>
    %304 = stablehlo.dot_general %303, %302, contracting_dims = [1] x [0] : (tensor<64x128xf32>, tensor<128x64xf32>) -> tensor<64x64xf32>
    %305 = stablehlo.reshape %304 : (tensor<64x64xf32>) -> tensor<2x32x64xf32>
    %306 = stablehlo.reshape %305 : (tensor<2x32x64xf32>) -> tensor<2x32x2x32xf32>
    %307 = stablehlo.transpose %306, dims = [0, 2, 1, 3] : (tensor<2x32x2x32xf32>) -> tensor<2x2x32x32xf32>
    %308 = stablehlo.broadcast_in_dim %125, dims = [0, 2, 3] : (tensor<1x32x32xf32>) -> tensor<1x1x32x32xf32>
    %309 = stablehlo.broadcast_in_dim %128, dims = [0, 2, 3] : (tensor<1x32x32xf32>) -> tensor<1x1x32x32xf32>
    %310 = stablehlo.broadcast_in_dim %308, dims = [0, 1, 2, 3] : (tensor<1x1x32x32xf32>) -> tensor<2x4x32x32xf32>
    %311 = stablehlo.multiply %295, %310 : tensor<2x4x32x32xf32>
    %312 = stablehlo.slice %295 [0:2, 0:4, 0:32, 0:16] : (tensor<2x4x32x32xf32>) -> tensor<2x4x32x16xf32>
    %313 = stablehlo.slice %295 [0:2, 0:4, 0:32, 16:32] : (tensor<2x4x32x32xf32>) -> tensor<2x4x32x16xf32>
    %314 = stablehlo.broadcast_in_dim %cst_1, dims = [] : (tensor<f32>) -> tensor<2x4x32x16xf32>
    %315 = stablehlo.multiply %314, %313 : tensor<2x4x32x16xf32>
    %316 = stablehlo.concatenate %315, %312, dim = 3 : (tensor<2x4x32x16xf32>, tensor<2x4x32x16xf32>) -> tensor<2x4x32x32xf32>
    %317 = stablehlo.broadcast_in_dim %309, dims = [0, 1, 2, 3] : (tensor<1x1x32x32xf32>) -> tensor<2x4x32x32xf32>
    %318 = stablehlo.multiply %316, %317 : tensor<2x4x32x32xf32>
    %319 = stablehlo.broadcast_in_dim %cst_6, dims = [] : (tensor<f32>) -> tensor<2x4x32x32xf32>
    %320 = stablehlo.multiply %318, %319 : tensor<2x4x32x32xf32>
    %321 = stablehlo.add %311, %320 : tensor<2x4x32x32xf32>
    %322 = stablehlo.broadcast_in_dim %308, dims = [0, 1, 2, 3] : (tensor<1x1x32x32xf32>) -> tensor<2x2x32x32xf32>
    %323 = stablehlo.multiply %301, %322 : tensor<2x2x32x32xf32>
    %324 = stablehlo.slice %301 [0:2, 0:2, 0:32, 0:16] : (tensor<2x2x32x32xf32>) -> tensor<2x2x32x16xf32>
    %325 = stablehlo.slice %301 [0:2, 0:2, 0:32, 16:32] : (tensor<2x2x32x32xf32>) -> tensor<2x2x32x16xf32>
    %326 = stablehlo.broadcast_in_dim %cst_1, dims = [] : (tensor<f32>) -> tensor<2x2x32x16xf32>
    %327 = stablehlo.multiply %326, %325 : tensor<2x2x32x16xf32>
    %328 = stablehlo.concatenate %327, %324, dim = 3 : (tensor<2x2x32x16xf32>, tensor<2x2x32x16xf32>) -> tensor<2x2x32x32xf32>
    %329 = stablehlo.broadcast_in_dim %309, dims = [0, 1, 2, 3] : (tensor<1x1x32x32xf32>) -> tensor<2x2x32x32xf32>
    %330 = stablehlo.multiply %328, %329 : tensor<2x2x32x32xf32>
    %331 = stablehlo.broadcast_in_dim %cst_6, dims = [] : (tensor<f32>) -> tensor<2x2x32x32xf32>
    %332 = stablehlo.multiply %330, %331 : tensor<2x2x32x32xf32>
    %333 = stablehlo.add %323, %332 : tensor<2x2x32x32xf32>
    %334 = stablehlo.broadcast_in_dim %333, dims = [0, 1, 3, 4] : (tensor<2x2x32x32xf32>) -> tensor<2x2x1x32x32xf32>
    %335 = stablehlo.broadcast_in_dim %334, dims = [0, 1, 2, 3, 4] : (tensor<2x2x1x32x32xf32>) -> tensor<2x2x2x32x32xf32>
    %336 = stablehlo.reshape %335 : (tensor<2x2x2x32x32xf32>) -> tensor<2x4x32x32xf32>
    %337 = stablehlo.broadcast_in_dim %307, dims = [0, 1, 3, 4] : (tensor<2x2x32x32xf32>) -> tensor<2x2x1x32x32xf32>
    %338 = stablehlo.broadcast_in_dim %337, dims = [0, 1, 2, 3, 4] : (tensor<2x2x1x32x32xf32>) -> tensor<2x2x2x32x32xf32>
    %339 = stablehlo.reshape %338 : (tensor<2x2x2x32x32xf32>) -> tensor<2x4x32x32xf32>
    %340 = call @_where_1(%115, %cst_4, %cst_0) : (tensor<2x1x32x32xi1>, tensor<f32>, tensor<f32>) -> tensor<2x1x32x32xf32>
    %341 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<2x4x32x32xf32>
    %342 = stablehlo.multiply %321, %341 : tensor<2x4x32x32xf32>
    %343 = stablehlo.transpose %336, dims = [0, 1, 3, 2] : (tensor<2x4x32x32xf32>) -> tensor<2x4x32x32xf32>
    %344 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<2x4x32x32xf32>
    %345 = stablehlo.multiply %343, %344 : tensor<2x4x32x32xf32>
    %346 = stablehlo.reshape %342 : (tensor<2x4x32x32xf32>) -> tensor<8x32x32xf32>
    %347 = stablehlo.reshape %345 : (tensor<2x4x32x32xf32>) -> tensor<8x32x32xf32>
    %348 = stablehlo.dot_general %346, %347, batching_dims = [0] x [0], contracting_dims = [2] x [1] : (tensor<8x32x32xf32>, tensor<8x32x32xf32>) -> tensor<8x32x32xf32>
    %349 = stablehlo.reshape %348 : (tensor<8x32x32xf32>) -> tensor<2x4x32x32xf32>
    %350 = stablehlo.broadcast_in_dim %cst_6, dims = [] : (tensor<f32>) -> tensor<2x1x32x32xf32>
    %351 = stablehlo.multiply %340, %350 : tensor<2x1x32x32xf32>
    %352 = stablehlo.broadcast_in_dim %351, dims = [0, 1, 2, 3] : (tensor<2x1x32x32xf32>) -> tensor<2x4x32x32xf32>
    %353 = stablehlo.add %349, %352 : tensor<2x4x32x32xf32>
    %354 = stablehlo.reduce(%353 init: %cst_0) applies stablehlo.maximum across dimensions = [3] : (tensor<2x4x32x32xf32>, tensor<f32>) -> tensor<2x4x32xf32>
    %355 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<f32>) -> tensor<2x4x32xf32>
    %356 = stablehlo.maximum %355, %354 : tensor<2x4x32xf32>
    %357 = stablehlo.broadcast_in_dim %356, dims = [0, 1, 2] : (tensor<2x4x32xf32>) -> tensor<2x4x32x1xf32>
    %358 = stablehlo.broadcast_in_dim %357, dims = [0, 1, 2, 3] : (tensor<2x4x32x1xf32>) -> tensor<2x4x32x32xf32>
    %359 = stablehlo.subtract %353, %358 : tensor<2x4x32x32xf32>
    %360 = stablehlo.exponential %359 : tensor<2x4x32x32xf32>
    %361 = stablehlo.reduce(%360 init: %cst_4) applies stablehlo.add across dimensions = [3] : (tensor<2x4x32x32xf32>, tensor<f32>) -> tensor<2x4x32xf32>
    %362 = stablehlo.broadcast_in_dim %361, dims = [0, 1, 2] : (tensor<2x4x32xf32>) -> tensor<2x4x32x1xf32>
    %363 = stablehlo.broadcast_in_dim %362, dims = [0, 1, 2, 3] : (tensor<2x4x32x1xf32>) -> tensor<2x4x32x32xf32>
    %364 = stablehlo.divide %360, %363 : tensor<2x4x32x32xf32>
    %365 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<f32>) -> tensor<2x4x32x32xf32>
    %366 = stablehlo.compare EQ, %353, %365, FLOAT : (tensor<2x4x32x32xf32>, tensor<2x4x32x32xf32>) -> tensor<2x4x32x32xi1>
    %367 = stablehlo.not %366 : tensor<2x4x32x32xi1>
    %368 = stablehlo.reduce(%367 init: %c) applies stablehlo.or across dimensions = [3] : (tensor<2x4x32x32xi1>, tensor<i1>) -> tensor<2x4x32xi1>
    %369 = stablehlo.broadcast_in_dim %368, dims = [0, 1, 2] : (tensor<2x4x32xi1>) -> tensor<2x4x32x1xi1>
    %370 = stablehlo.not %369 : tensor<2x4x32x1xi1>
    %371 = stablehlo.broadcast_in_dim %cst_4, dims = [] : (tensor<f32>) -> tensor<2x4x32x32xf32>
    %372 = call @_where_2(%370, %371, %364) : (tensor<2x4x32x1xi1>, tensor<2x4x32x32xf32>, tensor<2x4x32x32xf32>) -> tensor<2x4x32x32xf32>
    %373 = stablehlo.reshape %372 : (tensor<2x4x32x32xf32>) -> tensor<8x32x32xf32>
    %374 = stablehlo.reshape %339 : (tensor<2x4x32x32xf32>) -> tensor<8x32x32xf32>
    %375 = stablehlo.dot_general %373, %374, batching_dims = [0] x [0], contracting_dims = [2] x [1] : (tensor<8x32x32xf32>, tensor<8x32x32xf32>) -> tensor<8x32x32xf32>
    %376 = stablehlo.reshape %375 : (tensor<8x32x32xf32>) -> tensor<2x4x32x32xf32>
    %377 = stablehlo.transpose %376, dims = [0, 2, 1, 3] : (tensor<2x4x32x32xf32>) -> tensor<2x32x4x32xf32>
    %378 = stablehlo.reshape %377 : (tensor<2x32x4x32xf32>) -> tensor<2x32x128xf32>
    %379 = stablehlo.transpose %arg13, dims = [1, 0] : (tensor<128x128xf32>) -> tensor<128x128xf32>
    %380 = stablehlo.reshape %378 : (tensor<2x32x128xf32>) -> tensor<64x128xf32>
    %381 = stablehlo.dot_general %380, %379, contracting_dims = [1] x [0] : (tensor<64x128xf32>, tensor<128x128xf32>) -> tensor<64x128xf32>
    %382 = stablehlo.reshape %381 : (tensor<64x128xf32>) -> tensor<2x32x128xf32>
    %383 = stablehlo.broadcast_in_dim %cst_6, dims = [] : (tensor<f32>) -> tensor<2x32x128xf32>
    %384 = stablehlo.multiply %382, %383 : tensor<2x32x128xf32>
    %385 = stablehlo.add %275, %384 : tensor<2x32x128xf32>
    %386 = stablehlo.broadcast_in_dim %cst_5, dims = [] : (tensor<f32>) -> tensor<2x32x128xf32>
    %387 = stablehlo.power %385, %386 : tensor<2x32x128xf32>
    %388 = stablehlo.reduce(%387 init: %cst_4) applies stablehlo.add across dimensions = [2] : (tensor<2x32x128xf32>, tensor<f32>) -> tensor<2x32xf32>
    %389 = stablehlo.broadcast_in_dim %388, dims = [0, 1] : (tensor<2x32xf32>) -> tensor<2x32x1xf32>
    %390 = stablehlo.broadcast_in_dim %cst_3, dims = [] : (tensor<f32>) -> tensor<2x32x1xf32>
    %391 = stablehlo.divide %389, %390 : tensor<2x32x1xf32>
    %392 = stablehlo.broadcast_in_dim %cst_2, dims = [] : (tensor<f32>) -> tensor<2x32x1xf32>
    %393 = stablehlo.add %391, %392 : tensor<2x32x1xf32>
    %394 = stablehlo.rsqrt %393 : tensor<2x32x1xf32>
    %395 = stablehlo.broadcast_in_dim %394, dims = [0, 1, 2] : (tensor<2x32x1xf32>) -> tensor<2x32x128xf32>
    %396 = stablehlo.multiply %385, %395 : tensor<2x32x128xf32>
    %397 = stablehlo.broadcast_in_dim %arg18, dims = [2] : (tensor<128xf32>) -> tensor<1x1x128xf32>
    %398 = stablehlo.broadcast_in_dim %397, dims = [0, 1, 2] : (tensor<1x1x128xf32>) -> tensor<2x32x128xf32>
    %399 = stablehlo.multiply %398, %396 : tensor<2x32x128xf32>
    %400 = stablehlo.transpose %arg14, dims = [1, 0] : (tensor<256x128xf32>) -> tensor<128x256xf32>
    %401 = stablehlo.reshape %399 : (tensor<2x32x128xf32>) -> tensor<64x128xf32>
    %402 = stablehlo.dot_general %401, %400, contracting_dims = [1] x [0] : (tensor<64x128xf32>, tensor<128x256xf32>) -> tensor<64x256xf32>
    %403 = stablehlo.reshape %402 : (tensor<64x256xf32>) -> tensor<2x32x256xf32>
    %404 = stablehlo.negate %403 : tensor<2x32x256xf32>
    %405 = stablehlo.exponential %404 : tensor<2x32x256xf32>
    %406 = stablehlo.broadcast_in_dim %cst_6, dims = [] : (tensor<f32>) -> tensor<2x32x256xf32>
    %407 = stablehlo.add %406, %405 : tensor<2x32x256xf32>
    %408 = stablehlo.broadcast_in_dim %cst_6, dims = [] : (tensor<f32>) -> tensor<2x32x256xf32>
    %409 = stablehlo.divide %408, %407 : tensor<2x32x256xf32>
    %410 = stablehlo.multiply %403, %409 : tensor<2x32x256xf32>
    %411 = stablehlo.transpose %arg15, dims = [1, 0] : (tensor<256x128xf32>) -> tensor<128x256xf32>
    %412 = stablehlo.reshape %399 : (tensor<2x32x128xf32>) -> tensor<64x128xf32>
    %413 = stablehlo.dot_general %412, %411, contracting_dims = [1] x [0] : (tensor<64x128xf32>, tensor<128x256xf32>) -> tensor<64x256xf32>
    %414 = stablehlo.reshape %413 : (tensor<64x256xf32>) -> tensor<2x32x256xf32>
    %415 = stablehlo.multiply %410, %414 : tensor<2x32x256xf32>
    %416 = stablehlo.transpose %arg16, dims = [1, 0] : (tensor<128x256xf32>) -> tensor<256x128xf32>
    %417 = stablehlo.reshape %415 : (tensor<2x32x256xf32>) -> tensor<64x256xf32>
    %418 = stablehlo.dot_general %417, %416, contracting_dims = [1] x [0] : (tensor<64x256xf32>, tensor<256x128xf32>) -> tensor<64x128xf32>
    %419 = stablehlo.reshape %418 : (tensor<64x128xf32>) -> tensor<2x32x128xf32>
    %420 = stablehlo.broadcast_in_dim %cst_6, dims = [] : (tensor<f32>) -> tensor<2x32x128xf32>
    %421 = stablehlo.multiply %419, %420 : tensor<2x32x128xf32>
    %422 = stablehlo.add %385, %421 : tensor<2x32x128xf32>
    %423 = stablehlo.broadcast_in_dim %cst_5, dims = [] : (tensor<f32>) -> tensor<2x32x128xf32>
    %424 = stablehlo.power %422, %423 : tensor<2x32x128xf32>
    %425 = stablehlo.reduce(%424 init: %cst_4) applies stablehlo.add across dimensions = [2] : (tensor<2x32x128xf32>, tensor<f32>) -> tensor<2x32xf32>
    %426 = stablehlo.broadcast_in_dim %425, dims = [0, 1] : (tensor<2x32xf32>) -> tensor<2x32x1xf32>
    %427 = stablehlo.broadcast_in_dim %cst_3, dims = [] : (tensor<f32>) -> tensor<2x32x1xf32>
    %428 = stablehlo.divide %426, %427 : tensor<2x32x1xf32>
    %429 = stablehlo.broadcast_in_dim %cst_2, dims = [] : (tensor<f32>) -> tensor<2x32x1xf32>
    %430 = stablehlo.add %428, %429 : tensor<2x32x1xf32>
    %431 = stablehlo.rsqrt %430 : tensor<2x32x1xf32>
    %432 = stablehlo.broadcast_in_dim %431, dims = [0, 1, 2] : (tensor<2x32x1xf32>) -> tensor<2x32x128xf32>
    %433 = stablehlo.multiply %422, %432 : tensor<2x32x128xf32>
    %434 = stablehlo.broadcast_in_dim %arg19, dims = [2] : (tensor<128xf32>) -> tensor<1x1x128xf32>
    %435 = stablehlo.broadcast_in_dim %434, dims = [0, 1, 2] : (tensor<1x1x128xf32>) -> tensor<2x32x128xf32>
    %436 = stablehlo.multiply %435, %433 : tensor<2x32x128xf32>
    %437 = stablehlo.transpose %arg20, dims = [1, 0] : (tensor<1000x128xf32>) -> tensor<128x1000xf32>
    %438 = stablehlo.reshape %436 : (tensor<2x32x128xf32>) -> tensor<64x128xf32>
    %439 = stablehlo.dot_general %438, %437, contracting_dims = [1] x [0] : (tensor<64x128xf32>, tensor<128x1000xf32>) -> tensor<64x1000xf32>
    %440 = stablehlo.reshape %439 : (tensor<64x1000xf32>) -> tensor<2x32x1000xf32>
    return %440 : tensor<2x32x1000xf32>
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
  func.func private @cumsum(%arg0: tensor<2x32xi1>) -> tensor<2x32xi64> {
    %0 = stablehlo.convert %arg0 : (tensor<2x32xi1>) -> tensor<2x32xi64>
    %1 = call @cumsum_0(%0) : (tensor<2x32xi64>) -> tensor<2x32xi64>
    return %1 : tensor<2x32xi64>
  }
  func.func private @cumsum_0(%arg0: tensor<2x32xi64>) -> tensor<2x32xi64> {
    %c = stablehlo.constant dense<0> : tensor<i64>
    %0 = stablehlo.broadcast_in_dim %c, dims = [] : (tensor<i64>) -> tensor<i64>
    %1 = "stablehlo.reduce_window"(%arg0, %0) <{padding = dense<[[0, 0], [31, 0]]> : tensor<2x2xi64>, window_dimensions = array<i64: 1, 32>}> ({
    ^bb0(%arg1: tensor<i64>, %arg2: tensor<i64>):
      %2 = stablehlo.add %arg1, %arg2 : tensor<i64>
      stablehlo.return %2 : tensor<i64>
    }) : (tensor<2x32xi64>, tensor<i64>) -> tensor<2x32xi64>
    return %1 : tensor<2x32xi64>
  }
  func.func private @_where_1(%arg0: tensor<2x1x32x32xi1>, %arg1: tensor<f32>, %arg2: tensor<f32>) -> tensor<2x1x32x32xf32> {
    %0 = stablehlo.broadcast_in_dim %arg1, dims = [] : (tensor<f32>) -> tensor<2x1x32x32xf32>
    %1 = stablehlo.broadcast_in_dim %arg2, dims = [] : (tensor<f32>) -> tensor<2x1x32x32xf32>
    %2 = stablehlo.select %arg0, %0, %1 : tensor<2x1x32x32xi1>, tensor<2x1x32x32xf32>
    return %2 : tensor<2x1x32x32xf32>
  }
  func.func private @_where_2(%arg0: tensor<2x4x32x1xi1>, %arg1: tensor<2x4x32x32xf32>, %arg2: tensor<2x4x32x32xf32>) -> tensor<2x4x32x32xf32> {
    %0 = stablehlo.broadcast_in_dim %arg0, dims = [0, 1, 2, 3] : (tensor<2x4x32x1xi1>) -> tensor<2x4x32x32xi1>
    %1 = stablehlo.select %0, %arg1, %arg2 : tensor<2x4x32x32xi1>, tensor<2x4x32x32xf32>
    return %1 : tensor<2x4x32x32xf32>
  }
}
