module @jit_fn attributes {jax.uses_shape_polymorphism = false, mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<1000x128xf32>, %arg1: tensor<64x128xf32>, %arg2: tensor<2x128xf32>, %arg3: tensor<128xf32>, %arg4: tensor<128xf32>, %arg5: tensor<128x128xf32>, %arg6: tensor<128xf32>, %arg7: tensor<128x128xf32>, %arg8: tensor<128xf32>, %arg9: tensor<128x128xf32>, %arg10: tensor<128xf32>, %arg11: tensor<128x128xf32>, %arg12: tensor<128xf32>, %arg13: tensor<128xf32>, %arg14: tensor<128xf32>, %arg15: tensor<512x128xf32>, %arg16: tensor<512xf32>, %arg17: tensor<128x512xf32>, %arg18: tensor<128xf32>, %arg19: tensor<128xf32>, %arg20: tensor<128xf32>, %arg21: tensor<128x128xf32>, %arg22: tensor<128xf32>, %arg23: tensor<128x128xf32>, %arg24: tensor<128xf32>, %arg25: tensor<128x128xf32>, %arg26: tensor<128xf32>, %arg27: tensor<128x128xf32>, %arg28: tensor<128xf32>, %arg29: tensor<128xf32>, %arg30: tensor<128xf32>, %arg31: tensor<512x128xf32>, %arg32: tensor<512xf32>, %arg33: tensor<128x512xf32>, %arg34: tensor<128xf32>, %arg35: tensor<128xf32>, %arg36: tensor<128xf32>, %arg37: tensor<128x128xf32>, %arg38: tensor<128xf32>, %arg39: tensor<2x32xi64>, %arg40: tensor<2x32xi64>, %arg41: tensor<2x32xi64>) -> (tensor<2x32x128xf32> {jax.result_info = "result[0]"}, tensor<2x128xf32> {jax.result_info = "result[1]"}) {
    %cst = stablehlo.constant dense<1.12837911> : tensor<2x32x512xf32>
    %cst_0 = stablehlo.constant dense<-0.37612626> : tensor<2x32x512xf32>
    %cst_1 = stablehlo.constant dense<0.112835854> : tensor<2x32x512xf32>
    %cst_2 = stablehlo.constant dense<-0.0268538129> : tensor<2x32x512xf32>
    %cst_3 = stablehlo.constant dense<0.00518832775> : tensor<2x32x512xf32>
    %cst_4 = stablehlo.constant dense<-8.0101937E-4> : tensor<2x32x512xf32>
    %cst_5 = stablehlo.constant dense<7.85386146E-5> : tensor<2x32x512xf32>
    %cst_6 = stablehlo.constant dense<0.000000e+00> : tensor<2x32x512xf32>
    %cst_7 = stablehlo.constant dense<-88.7228394> : tensor<2x32x512xf32>
    %cst_8 = stablehlo.constant dense<0.564189494> : tensor<2x32x512xf32>
    %cst_9 = stablehlo.constant dense<-0.282076746> : tensor<2x32x512xf32>
    %cst_10 = stablehlo.constant dense<0.42184633> : tensor<2x32x512xf32>
    %cst_11 = stablehlo.constant dense<-1.01526523> : tensor<2x32x512xf32>
    %cst_12 = stablehlo.constant dense<2.92101908> : tensor<2x32x512xf32>
    %cst_13 = stablehlo.constant dense<-7.49551868> : tensor<2x32x512xf32>
    %cst_14 = stablehlo.constant dense<1.297720e+01> : tensor<2x32x512xf32>
    %cst_15 = stablehlo.constant dense<-10.477664> : tensor<2x32x512xf32>
    %cst_16 = stablehlo.constant dense<0.563825965> : tensor<2x32x512xf32>
    %cst_17 = stablehlo.constant dense<-0.274112701> : tensor<2x32x512xf32>
    %cst_18 = stablehlo.constant dense<3.404880e-01> : tensor<2x32x512xf32>
    %cst_19 = stablehlo.constant dense<-0.494451523> : tensor<2x32x512xf32>
    %cst_20 = stablehlo.constant dense<0.621000468> : tensor<2x32x512xf32>
    %cst_21 = stablehlo.constant dense<-0.582473278> : tensor<2x32x512xf32>
    %cst_22 = stablehlo.constant dense<0.368742466> : tensor<2x32x512xf32>
    %cst_23 = stablehlo.constant dense<-0.138703942> : tensor<2x32x512xf32>
    %cst_24 = stablehlo.constant dense<2.326820e-02> : tensor<2x32x512xf32>
    %cst_25 = stablehlo.constant dense<2.000000e+00> : tensor<2x32x512xf32>
    %cst_26 = stablehlo.constant dense<1.000000e+00> : tensor<2x32x512xf32>
    %cst_27 = stablehlo.constant dense<0.707106769> : tensor<f32>
    %cst_28 = stablehlo.constant dense<5.000000e-01> : tensor<f32>
    %c = stablehlo.constant dense<false> : tensor<i1>
    %cst_29 = stablehlo.constant dense<0.353553385> : tensor<f32>
    %cst_30 = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %c_31 = stablehlo.constant dense<32> : tensor<i64>
    %c_32 = stablehlo.constant dense<2> : tensor<i64>
    %c_33 = stablehlo.constant dense<true> : tensor<i1>
    %cst_34 = stablehlo.constant dense<9.99999996E-13> : tensor<f32>
    %c_35 = stablehlo.constant dense<0> : tensor<i64>
    %cst_36 = stablehlo.constant dense<1.280000e+02> : tensor<f32>
    %cst_37 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %cst_38 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %c_39 = stablehlo.constant dense<[[0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31, 32, 33, 34, 35, 36, 37, 38, 39, 40, 41, 42, 43, 44, 45, 46, 47, 48, 49, 50, 51, 52, 53, 54, 55, 56, 57, 58, 59, 60, 61, 62, 63]]> : tensor<1x64xi64>
    %0 = stablehlo.slice %c_39 [0:1, 0:32] : (tensor<1x64xi64>) -> tensor<1x32xi64>
    %1 = call @_take(%arg0, %arg39) : (tensor<1000x128xf32>, tensor<2x32xi64>) -> tensor<2x32x128xf32>
    %2 = call @_take_0(%arg2, %arg41) : (tensor<2x128xf32>, tensor<2x32xi64>) -> tensor<2x32x128xf32>
    %3 = stablehlo.broadcast_in_dim %cst_38, dims = [] : (tensor<f32>) -> tensor<2x32x128xf32>
    %4 = stablehlo.multiply %2, %3 : tensor<2x32x128xf32>
    %5 = stablehlo.add %1, %4 : tensor<2x32x128xf32>
    %6 = call @_take_1(%arg1, %0) : (tensor<64x128xf32>, tensor<1x32xi64>) -> tensor<1x32x128xf32>
    %7 = stablehlo.broadcast_in_dim %cst_38, dims = [] : (tensor<f32>) -> tensor<1x32x128xf32>
    %8 = stablehlo.multiply %6, %7 : tensor<1x32x128xf32>
    %9 = stablehlo.broadcast_in_dim %8, dims = [0, 1, 2] : (tensor<1x32x128xf32>) -> tensor<2x32x128xf32>
    %10 = stablehlo.add %5, %9 : tensor<2x32x128xf32>
    %11 = stablehlo.reduce(%10 init: %cst_37) applies stablehlo.add across dimensions = [2] : (tensor<2x32x128xf32>, tensor<f32>) -> tensor<2x32xf32>
    %12 = stablehlo.broadcast_in_dim %11, dims = [0, 1] : (tensor<2x32xf32>) -> tensor<2x32x1xf32>
    %13 = stablehlo.broadcast_in_dim %cst_36, dims = [] : (tensor<f32>) -> tensor<2x32x1xf32>
    %14 = stablehlo.divide %12, %13 : tensor<2x32x1xf32>
    %15 = call @_var(%10, %c_35) : (tensor<2x32x128xf32>, tensor<i64>) -> tensor<2x32x1xf32>
    %16 = stablehlo.broadcast_in_dim %cst_34, dims = [] : (tensor<f32>) -> tensor<2x32x1xf32>
    %17 = stablehlo.add %15, %16 : tensor<2x32x1xf32>
    %18 = stablehlo.rsqrt %17 : tensor<2x32x1xf32>
    %19 = stablehlo.broadcast_in_dim %14, dims = [0, 1, 2] : (tensor<2x32x1xf32>) -> tensor<2x32x128xf32>
    %20 = stablehlo.subtract %10, %19 : tensor<2x32x128xf32>
    %21 = stablehlo.broadcast_in_dim %18, dims = [0, 1, 2] : (tensor<2x32x1xf32>) -> tensor<2x32x128xf32>
    %22 = stablehlo.multiply %20, %21 : tensor<2x32x128xf32>
    %23 = stablehlo.broadcast_in_dim %arg3, dims = [2] : (tensor<128xf32>) -> tensor<1x1x128xf32>
    %24 = stablehlo.broadcast_in_dim %23, dims = [0, 1, 2] : (tensor<1x1x128xf32>) -> tensor<2x32x128xf32>
    %25 = stablehlo.multiply %22, %24 : tensor<2x32x128xf32>
    %26 = stablehlo.broadcast_in_dim %arg4, dims = [2] : (tensor<128xf32>) -> tensor<1x1x128xf32>
    %27 = stablehlo.broadcast_in_dim %26, dims = [0, 1, 2] : (tensor<1x1x128xf32>) -> tensor<2x32x128xf32>
    %28 = stablehlo.add %25, %27 : tensor<2x32x128xf32>
    %29 = stablehlo.broadcast_in_dim %c_35, dims = [] : (tensor<i64>) -> tensor<2x32xi64>
    %30 = stablehlo.compare NE, %arg40, %29, SIGNED : (tensor<2x32xi64>, tensor<2x32xi64>) -> tensor<2x32xi1>
    %31 = stablehlo.convert %30 : tensor<2x32xi1>
    %32 = stablehlo.iota dim = 0 : tensor<2xi64>
    %33 = stablehlo.iota dim = 0 : tensor<32xi64>
    %34 = stablehlo.broadcast_in_dim %c_35, dims = [] : (tensor<i64>) -> tensor<32xi64>
    %35 = stablehlo.add %33, %34 : tensor<32xi64>
    %36 = stablehlo.iota dim = 0 : tensor<32xi64>
    %37 = stablehlo.broadcast_in_dim %c_35, dims = [] : (tensor<i64>) -> tensor<32xi64>
    %38 = stablehlo.add %36, %37 : tensor<32xi64>
    %39 = stablehlo.broadcast_in_dim %32, dims = [0] : (tensor<2xi64>) -> tensor<2x1xi64>
    %40 = stablehlo.broadcast_in_dim %39, dims = [0, 1] : (tensor<2x1xi64>) -> tensor<2x1x1xi64>
    %41 = stablehlo.broadcast_in_dim %40, dims = [0, 1, 2] : (tensor<2x1x1xi64>) -> tensor<2x1x1x1xi64>
    %42 = stablehlo.broadcast_in_dim %35, dims = [1] : (tensor<32xi64>) -> tensor<1x32xi64>
    %43 = stablehlo.broadcast_in_dim %42, dims = [0, 2] : (tensor<1x32xi64>) -> tensor<1x1x32xi64>
    %44 = stablehlo.broadcast_in_dim %43, dims = [0, 1, 2] : (tensor<1x1x32xi64>) -> tensor<1x1x32x1xi64>
    %45 = stablehlo.broadcast_in_dim %38, dims = [1] : (tensor<32xi64>) -> tensor<1x32xi64>
    %46 = stablehlo.broadcast_in_dim %45, dims = [0, 2] : (tensor<1x32xi64>) -> tensor<1x1x32xi64>
    %47 = stablehlo.broadcast_in_dim %46, dims = [0, 1, 3] : (tensor<1x1x32xi64>) -> tensor<1x1x1x32xi64>
    %48 = stablehlo.broadcast_in_dim %c_35, dims = [] : (tensor<i64>) -> tensor<1x1x32x1xi64>
    %49 = stablehlo.compare GE, %44, %48, SIGNED : (tensor<1x1x32x1xi64>, tensor<1x1x32x1xi64>) -> tensor<1x1x32x1xi1>
    %50 = stablehlo.broadcast_in_dim %c_33, dims = [] : (tensor<i1>) -> tensor<1x1x32x1xi1>
    %51 = stablehlo.and %50, %49 : tensor<1x1x32x1xi1>
    %52 = stablehlo.broadcast_in_dim %c_35, dims = [] : (tensor<i64>) -> tensor<2x1x1x1xi64>
    %53 = stablehlo.compare LT, %41, %52, SIGNED : (tensor<2x1x1x1xi64>, tensor<2x1x1x1xi64>) -> tensor<2x1x1x1xi1>
    %54 = stablehlo.broadcast_in_dim %c_32, dims = [] : (tensor<i64>) -> tensor<2x1x1x1xi64>
    %55 = stablehlo.add %41, %54 : tensor<2x1x1x1xi64>
    %56 = stablehlo.select %53, %55, %41 : tensor<2x1x1x1xi1>, tensor<2x1x1x1xi64>
    %57 = stablehlo.broadcast_in_dim %c_35, dims = [] : (tensor<i64>) -> tensor<1x1x1x32xi64>
    %58 = stablehlo.compare LT, %47, %57, SIGNED : (tensor<1x1x1x32xi64>, tensor<1x1x1x32xi64>) -> tensor<1x1x1x32xi1>
    %59 = stablehlo.broadcast_in_dim %c_31, dims = [] : (tensor<i64>) -> tensor<1x1x1x32xi64>
    %60 = stablehlo.add %47, %59 : tensor<1x1x1x32xi64>
    %61 = stablehlo.select %58, %60, %47 : tensor<1x1x1x32xi1>, tensor<1x1x1x32xi64>
    %62 = stablehlo.broadcast_in_dim %56, dims = [0, 1, 2, 3] : (tensor<2x1x1x1xi64>) -> tensor<2x1x1x32xi64>
    %63 = stablehlo.broadcast_in_dim %61, dims = [0, 1, 2, 3] : (tensor<1x1x1x32xi64>) -> tensor<2x1x1x32xi64>
    %64 = stablehlo.convert %62 : (tensor<2x1x1x32xi64>) -> tensor<2x1x1x32xi32>
    %65 = stablehlo.convert %63 : (tensor<2x1x1x32xi64>) -> tensor<2x1x1x32xi32>
    %66 = stablehlo.broadcast_in_dim %64, dims = [0, 1, 2, 3] : (tensor<2x1x1x32xi32>) -> tensor<2x1x1x32x1xi32>
    %67 = stablehlo.broadcast_in_dim %65, dims = [0, 1, 2, 3] : (tensor<2x1x1x32xi32>) -> tensor<2x1x1x32x1xi32>
    %68 = stablehlo.concatenate %66, %67, dim = 4 : (tensor<2x1x1x32x1xi32>, tensor<2x1x1x32x1xi32>) -> tensor<2x1x1x32x2xi32>
    %69 = "stablehlo.gather"(%31, %68) <{dimension_numbers = #stablehlo.gather<collapsed_slice_dims = [0, 1], start_index_map = [0, 1], index_vector_dim = 4>, slice_sizes = array<i64: 1, 1>}> : (tensor<2x32xi1>, tensor<2x1x1x32x2xi32>) -> tensor<2x1x1x32xi1>
    %70 = stablehlo.broadcast_in_dim %51, dims = [0, 1, 2, 3] : (tensor<1x1x32x1xi1>) -> tensor<2x1x32x32xi1>
    %71 = stablehlo.broadcast_in_dim %69, dims = [0, 1, 2, 3] : (tensor<2x1x1x32xi1>) -> tensor<2x1x32x32xi1>
    %72 = stablehlo.and %70, %71 : tensor<2x1x32x32xi1>
    %73 = stablehlo.reshape %28 : (tensor<2x32x128xf32>) -> tensor<64x128xf32>
    %74 = stablehlo.transpose %arg5, dims = [1, 0] : (tensor<128x128xf32>) -> tensor<128x128xf32>
    %75 = stablehlo.broadcast_in_dim %cst_38, dims = [] : (tensor<f32>) -> tensor<128xf32>
    %76 = stablehlo.multiply %arg6, %75 : tensor<128xf32>
    %77 = stablehlo.dot_general %73, %74, contracting_dims = [1] x [0] : (tensor<64x128xf32>, tensor<128x128xf32>) -> tensor<64x128xf32>
    %78 = stablehlo.broadcast_in_dim %cst_38, dims = [] : (tensor<f32>) -> tensor<64x128xf32>
    %79 = stablehlo.multiply %78, %77 : tensor<64x128xf32>
    %80 = stablehlo.broadcast_in_dim %76, dims = [1] : (tensor<128xf32>) -> tensor<1x128xf32>
    %81 = stablehlo.broadcast_in_dim %80, dims = [0, 1] : (tensor<1x128xf32>) -> tensor<64x128xf32>
    %82 = stablehlo.add %81, %79 : tensor<64x128xf32>
    %83 = stablehlo.reshape %82 : (tensor<64x128xf32>) -> tensor<2x32x128xf32>
    %84 = stablehlo.reshape %83 : (tensor<2x32x128xf32>) -> tensor<2x32x2x64xf32>
    %85 = stablehlo.transpose %84, dims = [0, 2, 1, 3] : (tensor<2x32x2x64xf32>) -> tensor<2x2x32x64xf32>
    %86 = stablehlo.reshape %28 : (tensor<2x32x128xf32>) -> tensor<64x128xf32>
    %87 = stablehlo.transpose %arg7, dims = [1, 0] : (tensor<128x128xf32>) -> tensor<128x128xf32>
    %88 = stablehlo.broadcast_in_dim %cst_38, dims = [] : (tensor<f32>) -> tensor<128xf32>
    %89 = stablehlo.multiply %arg8, %88 : tensor<128xf32>
    %90 = stablehlo.dot_general %86, %87, contracting_dims = [1] x [0] : (tensor<64x128xf32>, tensor<128x128xf32>) -> tensor<64x128xf32>
    %91 = stablehlo.broadcast_in_dim %cst_38, dims = [] : (tensor<f32>) -> tensor<64x128xf32>
    %92 = stablehlo.multiply %91, %90 : tensor<64x128xf32>
    %93 = stablehlo.broadcast_in_dim %89, dims = [1] : (tensor<128xf32>) -> tensor<1x128xf32>
    %94 = stablehlo.broadcast_in_dim %93, dims = [0, 1] : (tensor<1x128xf32>) -> tensor<64x128xf32>
    %95 = stablehlo.add %94, %92 : tensor<64x128xf32>
    %96 = stablehlo.reshape %95 : (tensor<64x128xf32>) -> tensor<2x32x128xf32>
    %97 = stablehlo.reshape %96 : (tensor<2x32x128xf32>) -> tensor<2x32x2x64xf32>
    %98 = stablehlo.transpose %97, dims = [0, 2, 1, 3] : (tensor<2x32x2x64xf32>) -> tensor<2x2x32x64xf32>
    %99 = stablehlo.reshape %28 : (tensor<2x32x128xf32>) -> tensor<64x128xf32>
    %100 = stablehlo.transpose %arg9, dims = [1, 0] : (tensor<128x128xf32>) -> tensor<128x128xf32>
    %101 = stablehlo.broadcast_in_dim %cst_38, dims = [] : (tensor<f32>) -> tensor<128xf32>
    %102 = stablehlo.multiply %arg10, %101 : tensor<128xf32>
    %103 = stablehlo.dot_general %99, %100, contracting_dims = [1] x [0] : (tensor<64x128xf32>, tensor<128x128xf32>) -> tensor<64x128xf32>
    %104 = stablehlo.broadcast_in_dim %cst_38, dims = [] : (tensor<f32>) -> tensor<64x128xf32>
    %105 = stablehlo.multiply %104, %103 : tensor<64x128xf32>
    %106 = stablehlo.broadcast_in_dim %102, dims = [1] : (tensor<128xf32>) -> tensor<1x128xf32>
    %107 = stablehlo.broadcast_in_dim %106, dims = [0, 1] : (tensor<1x128xf32>) -> tensor<64x128xf32>
    %108 = stablehlo.add %107, %105 : tensor<64x128xf32>
    %109 = stablehlo.reshape %108 : (tensor<64x128xf32>) -> tensor<2x32x128xf32>
    %110 = stablehlo.reshape %109 : (tensor<2x32x128xf32>) -> tensor<2x32x2x64xf32>
    %111 = stablehlo.transpose %110, dims = [0, 2, 1, 3] : (tensor<2x32x2x64xf32>) -> tensor<2x2x32x64xf32>
    %112 = call @_where_4(%72, %cst_37, %cst_30) : (tensor<2x1x32x32xi1>, tensor<f32>, tensor<f32>) -> tensor<2x1x32x32xf32>
    %113 = stablehlo.broadcast_in_dim %cst_29, dims = [] : (tensor<f32>) -> tensor<2x2x32x64xf32>
    %114 = stablehlo.multiply %85, %113 : tensor<2x2x32x64xf32>
    %115 = stablehlo.transpose %98, dims = [0, 1, 3, 2] : (tensor<2x2x32x64xf32>) -> tensor<2x2x64x32xf32>
    %116 = stablehlo.broadcast_in_dim %cst_29, dims = [] : (tensor<f32>) -> tensor<2x2x64x32xf32>
    %117 = stablehlo.multiply %115, %116 : tensor<2x2x64x32xf32>
    %118 = stablehlo.reshape %114 : (tensor<2x2x32x64xf32>) -> tensor<4x32x64xf32>
    %119 = stablehlo.reshape %117 : (tensor<2x2x64x32xf32>) -> tensor<4x64x32xf32>
    %120 = stablehlo.dot_general %118, %119, batching_dims = [0] x [0], contracting_dims = [2] x [1] : (tensor<4x32x64xf32>, tensor<4x64x32xf32>) -> tensor<4x32x32xf32>
    %121 = stablehlo.reshape %120 : (tensor<4x32x32xf32>) -> tensor<2x2x32x32xf32>
    %122 = stablehlo.broadcast_in_dim %cst_38, dims = [] : (tensor<f32>) -> tensor<2x1x32x32xf32>
    %123 = stablehlo.multiply %112, %122 : tensor<2x1x32x32xf32>
    %124 = stablehlo.broadcast_in_dim %123, dims = [0, 1, 2, 3] : (tensor<2x1x32x32xf32>) -> tensor<2x2x32x32xf32>
    %125 = stablehlo.add %121, %124 : tensor<2x2x32x32xf32>
    %126 = stablehlo.reduce(%125 init: %cst_30) applies stablehlo.maximum across dimensions = [3] : (tensor<2x2x32x32xf32>, tensor<f32>) -> tensor<2x2x32xf32>
    %127 = stablehlo.broadcast_in_dim %cst_30, dims = [] : (tensor<f32>) -> tensor<2x2x32xf32>
    %128 = stablehlo.maximum %127, %126 : tensor<2x2x32xf32>
    %129 = stablehlo.broadcast_in_dim %128, dims = [0, 1, 2] : (tensor<2x2x32xf32>) -> tensor<2x2x32x1xf32>
    %130 = stablehlo.broadcast_in_dim %129, dims = [0, 1, 2, 3] : (tensor<2x2x32x1xf32>) -> tensor<2x2x32x32xf32>
    %131 = stablehlo.subtract %125, %130 : tensor<2x2x32x32xf32>
    %132 = stablehlo.exponential %131 : tensor<2x2x32x32xf32>
    %133 = stablehlo.reduce(%132 init: %cst_37) applies stablehlo.add across dimensions = [3] : (tensor<2x2x32x32xf32>, tensor<f32>) -> tensor<2x2x32xf32>
    %134 = stablehlo.broadcast_in_dim %133, dims = [0, 1, 2] : (tensor<2x2x32xf32>) -> tensor<2x2x32x1xf32>
    %135 = stablehlo.broadcast_in_dim %134, dims = [0, 1, 2, 3] : (tensor<2x2x32x1xf32>) -> tensor<2x2x32x32xf32>
    %136 = stablehlo.divide %132, %135 : tensor<2x2x32x32xf32>
    %137 = stablehlo.broadcast_in_dim %cst_30, dims = [] : (tensor<f32>) -> tensor<2x2x32x32xf32>
    %138 = stablehlo.compare EQ, %125, %137, FLOAT : (tensor<2x2x32x32xf32>, tensor<2x2x32x32xf32>) -> tensor<2x2x32x32xi1>
    %139 = stablehlo.not %138 : tensor<2x2x32x32xi1>
    %140 = stablehlo.reduce(%139 init: %c) applies stablehlo.or across dimensions = [3] : (tensor<2x2x32x32xi1>, tensor<i1>) -> tensor<2x2x32xi1>
    %141 = stablehlo.broadcast_in_dim %140, dims = [0, 1, 2] : (tensor<2x2x32xi1>) -> tensor<2x2x32x1xi1>
    %142 = stablehlo.not %141 : tensor<2x2x32x1xi1>
    %143 = stablehlo.broadcast_in_dim %cst_37, dims = [] : (tensor<f32>) -> tensor<2x2x32x32xf32>
    %144 = call @_where_5(%142, %143, %136) : (tensor<2x2x32x1xi1>, tensor<2x2x32x32xf32>, tensor<2x2x32x32xf32>) -> tensor<2x2x32x32xf32>
    %145 = stablehlo.reshape %144 : (tensor<2x2x32x32xf32>) -> tensor<4x32x32xf32>
    %146 = stablehlo.reshape %111 : (tensor<2x2x32x64xf32>) -> tensor<4x32x64xf32>
    %147 = stablehlo.dot_general %145, %146, batching_dims = [0] x [0], contracting_dims = [2] x [1] : (tensor<4x32x32xf32>, tensor<4x32x64xf32>) -> tensor<4x32x64xf32>
    %148 = stablehlo.reshape %147 : (tensor<4x32x64xf32>) -> tensor<2x2x32x64xf32>
    %149 = stablehlo.transpose %148, dims = [0, 2, 1, 3] : (tensor<2x2x32x64xf32>) -> tensor<2x32x2x64xf32>
    %150 = stablehlo.reshape %149 : (tensor<2x32x2x64xf32>) -> tensor<2x32x128xf32>
    %151 = stablehlo.reshape %150 : (tensor<2x32x128xf32>) -> tensor<64x128xf32>
    %152 = stablehlo.transpose %arg11, dims = [1, 0] : (tensor<128x128xf32>) -> tensor<128x128xf32>
    %153 = stablehlo.broadcast_in_dim %cst_38, dims = [] : (tensor<f32>) -> tensor<128xf32>
    %154 = stablehlo.multiply %arg12, %153 : tensor<128xf32>
    %155 = stablehlo.dot_general %151, %152, contracting_dims = [1] x [0] : (tensor<64x128xf32>, tensor<128x128xf32>) -> tensor<64x128xf32>
    %156 = stablehlo.broadcast_in_dim %cst_38, dims = [] : (tensor<f32>) -> tensor<64x128xf32>
    %157 = stablehlo.multiply %156, %155 : tensor<64x128xf32>
    %158 = stablehlo.broadcast_in_dim %154, dims = [1] : (tensor<128xf32>) -> tensor<1x128xf32>
    %159 = stablehlo.broadcast_in_dim %158, dims = [0, 1] : (tensor<1x128xf32>) -> tensor<64x128xf32>
    %160 = stablehlo.add %159, %157 : tensor<64x128xf32>
    %161 = stablehlo.reshape %160 : (tensor<64x128xf32>) -> tensor<2x32x128xf32>
    %162 = stablehlo.broadcast_in_dim %cst_38, dims = [] : (tensor<f32>) -> tensor<2x32x128xf32>
    %163 = stablehlo.multiply %28, %162 : tensor<2x32x128xf32>
    %164 = stablehlo.add %161, %163 : tensor<2x32x128xf32>
    %165 = stablehlo.reduce(%164 init: %cst_37) applies stablehlo.add across dimensions = [2] : (tensor<2x32x128xf32>, tensor<f32>) -> tensor<2x32xf32>
    %166 = stablehlo.broadcast_in_dim %165, dims = [0, 1] : (tensor<2x32xf32>) -> tensor<2x32x1xf32>
    %167 = stablehlo.broadcast_in_dim %cst_36, dims = [] : (tensor<f32>) -> tensor<2x32x1xf32>
    %168 = stablehlo.divide %166, %167 : tensor<2x32x1xf32>
    %169 = call @_var(%164, %c_35) : (tensor<2x32x128xf32>, tensor<i64>) -> tensor<2x32x1xf32>
    %170 = stablehlo.broadcast_in_dim %cst_34, dims = [] : (tensor<f32>) -> tensor<2x32x1xf32>
    %171 = stablehlo.add %169, %170 : tensor<2x32x1xf32>
    %172 = stablehlo.rsqrt %171 : tensor<2x32x1xf32>
    %173 = stablehlo.broadcast_in_dim %168, dims = [0, 1, 2] : (tensor<2x32x1xf32>) -> tensor<2x32x128xf32>
    %174 = stablehlo.subtract %164, %173 : tensor<2x32x128xf32>
    %175 = stablehlo.broadcast_in_dim %172, dims = [0, 1, 2] : (tensor<2x32x1xf32>) -> tensor<2x32x128xf32>
    %176 = stablehlo.multiply %174, %175 : tensor<2x32x128xf32>
    %177 = stablehlo.broadcast_in_dim %arg13, dims = [2] : (tensor<128xf32>) -> tensor<1x1x128xf32>
    %178 = stablehlo.broadcast_in_dim %177, dims = [0, 1, 2] : (tensor<1x1x128xf32>) -> tensor<2x32x128xf32>
    %179 = stablehlo.multiply %176, %178 : tensor<2x32x128xf32>
    %180 = stablehlo.broadcast_in_dim %arg14, dims = [2] : (tensor<128xf32>) -> tensor<1x1x128xf32>
    %181 = stablehlo.broadcast_in_dim %180, dims = [0, 1, 2] : (tensor<1x1x128xf32>) -> tensor<2x32x128xf32>
    %182 = stablehlo.add %179, %181 : tensor<2x32x128xf32>
    %183 = stablehlo.reshape %182 : (tensor<2x32x128xf32>) -> tensor<64x128xf32>
    %184 = stablehlo.transpose %arg15, dims = [1, 0] : (tensor<512x128xf32>) -> tensor<128x512xf32>
    %185 = stablehlo.broadcast_in_dim %cst_38, dims = [] : (tensor<f32>) -> tensor<512xf32>
    %186 = stablehlo.multiply %arg16, %185 : tensor<512xf32>
    %187 = stablehlo.dot_general %183, %184, contracting_dims = [1] x [0] : (tensor<64x128xf32>, tensor<128x512xf32>) -> tensor<64x512xf32>
    %188 = stablehlo.broadcast_in_dim %cst_38, dims = [] : (tensor<f32>) -> tensor<64x512xf32>
    %189 = stablehlo.multiply %188, %187 : tensor<64x512xf32>
    %190 = stablehlo.broadcast_in_dim %186, dims = [1] : (tensor<512xf32>) -> tensor<1x512xf32>
    %191 = stablehlo.broadcast_in_dim %190, dims = [0, 1] : (tensor<1x512xf32>) -> tensor<64x512xf32>
    %192 = stablehlo.add %191, %189 : tensor<64x512xf32>
    %193 = stablehlo.reshape %192 : (tensor<64x512xf32>) -> tensor<2x32x512xf32>
    %194 = stablehlo.broadcast_in_dim %cst_28, dims = [] : (tensor<f32>) -> tensor<2x32x512xf32>
    %195 = stablehlo.multiply %194, %193 : tensor<2x32x512xf32>
    %196 = stablehlo.negate %193 : tensor<2x32x512xf32>
    %197 = stablehlo.broadcast_in_dim %cst_27, dims = [] : (tensor<f32>) -> tensor<2x32x512xf32>
    %198 = stablehlo.multiply %196, %197 : tensor<2x32x512xf32>
    %199 = stablehlo.multiply %198, %198 : tensor<2x32x512xf32>
    %200 = stablehlo.negate %199 : tensor<2x32x512xf32>
    %201 = stablehlo.abs %198 : tensor<2x32x512xf32>
    %202 = stablehlo.divide %cst_26, %199 : tensor<2x32x512xf32>
    %203 = stablehlo.exponential %200 : tensor<2x32x512xf32>
    %204 = stablehlo.divide %cst_26, %201 : tensor<2x32x512xf32>
    %205 = stablehlo.multiply %203, %204 : tensor<2x32x512xf32>
    %206 = stablehlo.compare LT, %201, %cst_25 : (tensor<2x32x512xf32>, tensor<2x32x512xf32>) -> tensor<2x32x512xi1>
    %207 = stablehlo.multiply %cst_24, %202 : tensor<2x32x512xf32>
    %208 = stablehlo.add %207, %cst_23 : tensor<2x32x512xf32>
    %209 = stablehlo.multiply %208, %202 : tensor<2x32x512xf32>
    %210 = stablehlo.add %209, %cst_22 : tensor<2x32x512xf32>
    %211 = stablehlo.multiply %210, %202 : tensor<2x32x512xf32>
    %212 = stablehlo.add %211, %cst_21 : tensor<2x32x512xf32>
    %213 = stablehlo.multiply %212, %202 : tensor<2x32x512xf32>
    %214 = stablehlo.add %213, %cst_20 : tensor<2x32x512xf32>
    %215 = stablehlo.multiply %214, %202 : tensor<2x32x512xf32>
    %216 = stablehlo.add %215, %cst_19 : tensor<2x32x512xf32>
    %217 = stablehlo.multiply %216, %202 : tensor<2x32x512xf32>
    %218 = stablehlo.add %217, %cst_18 : tensor<2x32x512xf32>
    %219 = stablehlo.multiply %218, %202 : tensor<2x32x512xf32>
    %220 = stablehlo.add %219, %cst_17 : tensor<2x32x512xf32>
    %221 = stablehlo.multiply %220, %202 : tensor<2x32x512xf32>
    %222 = stablehlo.add %221, %cst_16 : tensor<2x32x512xf32>
    %223 = stablehlo.multiply %cst_15, %202 : tensor<2x32x512xf32>
    %224 = stablehlo.add %223, %cst_14 : tensor<2x32x512xf32>
    %225 = stablehlo.multiply %224, %202 : tensor<2x32x512xf32>
    %226 = stablehlo.add %225, %cst_13 : tensor<2x32x512xf32>
    %227 = stablehlo.multiply %226, %202 : tensor<2x32x512xf32>
    %228 = stablehlo.add %227, %cst_12 : tensor<2x32x512xf32>
    %229 = stablehlo.multiply %228, %202 : tensor<2x32x512xf32>
    %230 = stablehlo.add %229, %cst_11 : tensor<2x32x512xf32>
    %231 = stablehlo.multiply %230, %202 : tensor<2x32x512xf32>
    %232 = stablehlo.add %231, %cst_10 : tensor<2x32x512xf32>
    %233 = stablehlo.multiply %232, %202 : tensor<2x32x512xf32>
    %234 = stablehlo.add %233, %cst_9 : tensor<2x32x512xf32>
    %235 = stablehlo.multiply %234, %202 : tensor<2x32x512xf32>
    %236 = stablehlo.add %235, %cst_8 : tensor<2x32x512xf32>
    %237 = stablehlo.select %206, %222, %236 : tensor<2x32x512xi1>, tensor<2x32x512xf32>
    %238 = stablehlo.multiply %205, %237 : tensor<2x32x512xf32>
    %239 = stablehlo.compare LT, %200, %cst_7 : (tensor<2x32x512xf32>, tensor<2x32x512xf32>) -> tensor<2x32x512xi1>
    %240 = stablehlo.select %239, %cst_6, %238 : tensor<2x32x512xi1>, tensor<2x32x512xf32>
    %241 = stablehlo.compare LT, %198, %cst_6 : (tensor<2x32x512xf32>, tensor<2x32x512xf32>) -> tensor<2x32x512xi1>
    %242 = stablehlo.subtract %cst_25, %240 : tensor<2x32x512xf32>
    %243 = stablehlo.select %241, %242, %240 : tensor<2x32x512xi1>, tensor<2x32x512xf32>
    %244 = stablehlo.multiply %198, %198 : tensor<2x32x512xf32>
    %245 = stablehlo.multiply %cst_5, %244 : tensor<2x32x512xf32>
    %246 = stablehlo.add %245, %cst_4 : tensor<2x32x512xf32>
    %247 = stablehlo.multiply %246, %244 : tensor<2x32x512xf32>
    %248 = stablehlo.add %247, %cst_3 : tensor<2x32x512xf32>
    %249 = stablehlo.multiply %248, %244 : tensor<2x32x512xf32>
    %250 = stablehlo.add %249, %cst_2 : tensor<2x32x512xf32>
    %251 = stablehlo.multiply %250, %244 : tensor<2x32x512xf32>
    %252 = stablehlo.add %251, %cst_1 : tensor<2x32x512xf32>
    %253 = stablehlo.multiply %252, %244 : tensor<2x32x512xf32>
    %254 = stablehlo.add %253, %cst_0 : tensor<2x32x512xf32>
    %255 = stablehlo.multiply %254, %244 : tensor<2x32x512xf32>
    %256 = stablehlo.add %255, %cst : tensor<2x32x512xf32>
    %257 = stablehlo.multiply %198, %256 : tensor<2x32x512xf32>
    %258 = stablehlo.subtract %cst_26, %257 : tensor<2x32x512xf32>
    %259 = stablehlo.abs %198 : tensor<2x32x512xf32>
    %260 = stablehlo.compare LT, %259, %cst_26 : (tensor<2x32x512xf32>, tensor<2x32x512xf32>) -> tensor<2x32x512xi1>
    %261 = stablehlo.select %260, %258, %243 : tensor<2x32x512xi1>, tensor<2x32x512xf32>
    %262 = stablehlo.multiply %195, %261 : tensor<2x32x512xf32>
    %263 = stablehlo.reshape %262 : (tensor<2x32x512xf32>) -> tensor<64x512xf32>
    %264 = stablehlo.transpose %arg17, dims = [1, 0] : (tensor<128x512xf32>) -> tensor<512x128xf32>
    %265 = stablehlo.broadcast_in_dim %cst_38, dims = [] : (tensor<f32>) -> tensor<128xf32>
    %266 = stablehlo.multiply %arg18, %265 : tensor<128xf32>
    %267 = stablehlo.dot_general %263, %264, contracting_dims = [1] x [0] : (tensor<64x512xf32>, tensor<512x128xf32>) -> tensor<64x128xf32>
    %268 = stablehlo.broadcast_in_dim %cst_38, dims = [] : (tensor<f32>) -> tensor<64x128xf32>
    %269 = stablehlo.multiply %268, %267 : tensor<64x128xf32>
    %270 = stablehlo.broadcast_in_dim %266, dims = [1] : (tensor<128xf32>) -> tensor<1x128xf32>
    %271 = stablehlo.broadcast_in_dim %270, dims = [0, 1] : (tensor<1x128xf32>) -> tensor<64x128xf32>
    %272 = stablehlo.add %271, %269 : tensor<64x128xf32>
    %273 = stablehlo.reshape %272 : (tensor<64x128xf32>) -> tensor<2x32x128xf32>
    %274 = stablehlo.broadcast_in_dim %cst_38, dims = [] : (tensor<f32>) -> tensor<2x32x128xf32>
    %275 = stablehlo.multiply %182, %274 : tensor<2x32x128xf32>
    %276 = stablehlo.add %273, %275 : tensor<2x32x128xf32>
    %277 = stablehlo.reduce(%276 init: %cst_37) applies stablehlo.add across dimensions = [2] : (tensor<2x32x128xf32>, tensor<f32>) -> tensor<2x32xf32>
    %278 = stablehlo.broadcast_in_dim %277, dims = [0, 1] : (tensor<2x32xf32>) -> tensor<2x32x1xf32>
    %279 = stablehlo.broadcast_in_dim %cst_36, dims = [] : (tensor<f32>) -> tensor<2x32x1xf32>
    %280 = stablehlo.divide %278, %279 : tensor<2x32x1xf32>
    %281 = call @_var(%276, %c_35) : (tensor<2x32x128xf32>, tensor<i64>) -> tensor<2x32x1xf32>
    %282 = stablehlo.broadcast_in_dim %cst_34, dims = [] : (tensor<f32>) -> tensor<2x32x1xf32>
    %283 = stablehlo.add %281, %282 : tensor<2x32x1xf32>
    %284 = stablehlo.rsqrt %283 : tensor<2x32x1xf32>
    %285 = stablehlo.broadcast_in_dim %280, dims = [0, 1, 2] : (tensor<2x32x1xf32>) -> tensor<2x32x128xf32>
    %286 = stablehlo.subtract %276, %285 : tensor<2x32x128xf32>
    %287 = stablehlo.broadcast_in_dim %284, dims = [0, 1, 2] : (tensor<2x32x1xf32>) -> tensor<2x32x128xf32>
    %288 = stablehlo.multiply %286, %287 : tensor<2x32x128xf32>
    %289 = stablehlo.broadcast_in_dim %arg19, dims = [2] : (tensor<128xf32>) -> tensor<1x1x128xf32>
    %290 = stablehlo.broadcast_in_dim %289, dims = [0, 1, 2] : (tensor<1x1x128xf32>) -> tensor<2x32x128xf32>
    %291 = stablehlo.multiply %288, %290 : tensor<2x32x128xf32>
    %292 = stablehlo.broadcast_in_dim %arg20, dims = [2] : (tensor<128xf32>) -> tensor<1x1x128xf32>
    %293 = stablehlo.broadcast_in_dim %292, dims = [0, 1, 2] : (tensor<1x1x128xf32>) -> tensor<2x32x128xf32>
    %294 = stablehlo.add %291, %293 : tensor<2x32x128xf32>
    %295 = stablehlo.reshape %294 : (tensor<2x32x128xf32>) -> tensor<64x128xf32>
    %296 = stablehlo.transpose %arg21, dims = [1, 0] : (tensor<128x128xf32>) -> tensor<128x128xf32>
    %297 = stablehlo.broadcast_in_dim %cst_38, dims = [] : (tensor<f32>) -> tensor<128xf32>
    %298 = stablehlo.multiply %arg22, %297 : tensor<128xf32>
    %299 = stablehlo.dot_general %295, %296, contracting_dims = [1] x [0] : (tensor<64x128xf32>, tensor<128x128xf32>) -> tensor<64x128xf32>
    %300 = stablehlo.broadcast_in_dim %cst_38, dims = [] : (tensor<f32>) -> tensor<64x128xf32>
    %301 = stablehlo.multiply %300, %299 : tensor<64x128xf32>
    %302 = stablehlo.broadcast_in_dim %298, dims = [1] : (tensor<128xf32>) -> tensor<1x128xf32>
    %303 = stablehlo.broadcast_in_dim %302, dims = [0, 1] : (tensor<1x128xf32>) -> tensor<64x128xf32>
    %304 = stablehlo.add %303, %301 : tensor<64x128xf32>
    %305 = stablehlo.reshape %304 : (tensor<64x128xf32>) -> tensor<2x32x128xf32>
    %306 = stablehlo.reshape %305 : (tensor<2x32x128xf32>) -> tensor<2x32x2x64xf32>
    %307 = stablehlo.transpose %306, dims = [0, 2, 1, 3] : (tensor<2x32x2x64xf32>) -> tensor<2x2x32x64xf32>
    %308 = stablehlo.reshape %294 : (tensor<2x32x128xf32>) -> tensor<64x128xf32>
    %309 = stablehlo.transpose %arg23, dims = [1, 0] : (tensor<128x128xf32>) -> tensor<128x128xf32>
    %310 = stablehlo.broadcast_in_dim %cst_38, dims = [] : (tensor<f32>) -> tensor<128xf32>
    %311 = stablehlo.multiply %arg24, %310 : tensor<128xf32>
    %312 = stablehlo.dot_general %308, %309, contracting_dims = [1] x [0] : (tensor<64x128xf32>, tensor<128x128xf32>) -> tensor<64x128xf32>
    %313 = stablehlo.broadcast_in_dim %cst_38, dims = [] : (tensor<f32>) -> tensor<64x128xf32>
    %314 = stablehlo.multiply %313, %312 : tensor<64x128xf32>
    %315 = stablehlo.broadcast_in_dim %311, dims = [1] : (tensor<128xf32>) -> tensor<1x128xf32>
    %316 = stablehlo.broadcast_in_dim %315, dims = [0, 1] : (tensor<1x128xf32>) -> tensor<64x128xf32>
    %317 = stablehlo.add %316, %314 : tensor<64x128xf32>
    %318 = stablehlo.reshape %317 : (tensor<64x128xf32>) -> tensor<2x32x128xf32>
    %319 = stablehlo.reshape %318 : (tensor<2x32x128xf32>) -> tensor<2x32x2x64xf32>
    %320 = stablehlo.transpose %319, dims = [0, 2, 1, 3] : (tensor<2x32x2x64xf32>) -> tensor<2x2x32x64xf32>
    %321 = stablehlo.reshape %294 : (tensor<2x32x128xf32>) -> tensor<64x128xf32>
    %322 = stablehlo.transpose %arg25, dims = [1, 0] : (tensor<128x128xf32>) -> tensor<128x128xf32>
    %323 = stablehlo.broadcast_in_dim %cst_38, dims = [] : (tensor<f32>) -> tensor<128xf32>
    %324 = stablehlo.multiply %arg26, %323 : tensor<128xf32>
    %325 = stablehlo.dot_general %321, %322, contracting_dims = [1] x [0] : (tensor<64x128xf32>, tensor<128x128xf32>) -> tensor<64x128xf32>
    %326 = stablehlo.broadcast_in_dim %cst_38, dims = [] : (tensor<f32>) -> tensor<64x128xf32>
    %327 = stablehlo.multiply %326, %325 : tensor<64x128xf32>
    %328 = stablehlo.broadcast_in_dim %324, dims = [1] : (tensor<128xf32>) -> tensor<1x128xf32>
    %329 = stablehlo.broadcast_in_dim %328, dims = [0, 1] : (tensor<1x128xf32>) -> tensor<64x128xf32>
    %330 = stablehlo.add %329, %327 : tensor<64x128xf32>
    %331 = stablehlo.reshape %330 : (tensor<64x128xf32>) -> tensor<2x32x128xf32>
    %332 = stablehlo.reshape %331 : (tensor<2x32x128xf32>) -> tensor<2x32x2x64xf32>
    %333 = stablehlo.transpose %332, dims = [0, 2, 1, 3] : (tensor<2x32x2x64xf32>) -> tensor<2x2x32x64xf32>
    %334 = call @_where_4(%72, %cst_37, %cst_30) : (tensor<2x1x32x32xi1>, tensor<f32>, tensor<f32>) -> tensor<2x1x32x32xf32>
    %335 = stablehlo.broadcast_in_dim %cst_29, dims = [] : (tensor<f32>) -> tensor<2x2x32x64xf32>
    %336 = stablehlo.multiply %307, %335 : tensor<2x2x32x64xf32>
    %337 = stablehlo.transpose %320, dims = [0, 1, 3, 2] : (tensor<2x2x32x64xf32>) -> tensor<2x2x64x32xf32>
    %338 = stablehlo.broadcast_in_dim %cst_29, dims = [] : (tensor<f32>) -> tensor<2x2x64x32xf32>
    %339 = stablehlo.multiply %337, %338 : tensor<2x2x64x32xf32>
    %340 = stablehlo.reshape %336 : (tensor<2x2x32x64xf32>) -> tensor<4x32x64xf32>
    %341 = stablehlo.reshape %339 : (tensor<2x2x64x32xf32>) -> tensor<4x64x32xf32>
    %342 = stablehlo.dot_general %340, %341, batching_dims = [0] x [0], contracting_dims = [2] x [1] : (tensor<4x32x64xf32>, tensor<4x64x32xf32>) -> tensor<4x32x32xf32>
    %343 = stablehlo.reshape %342 : (tensor<4x32x32xf32>) -> tensor<2x2x32x32xf32>
    %344 = stablehlo.broadcast_in_dim %cst_38, dims = [] : (tensor<f32>) -> tensor<2x1x32x32xf32>
    %345 = stablehlo.multiply %334, %344 : tensor<2x1x32x32xf32>
    %346 = stablehlo.broadcast_in_dim %345, dims = [0, 1, 2, 3] : (tensor<2x1x32x32xf32>) -> tensor<2x2x32x32xf32>
    %347 = stablehlo.add %343, %346 : tensor<2x2x32x32xf32>
    %348 = stablehlo.reduce(%347 init: %cst_30) applies stablehlo.maximum across dimensions = [3] : (tensor<2x2x32x32xf32>, tensor<f32>) -> tensor<2x2x32xf32>
    %349 = stablehlo.broadcast_in_dim %cst_30, dims = [] : (tensor<f32>) -> tensor<2x2x32xf32>
    %350 = stablehlo.maximum %349, %348 : tensor<2x2x32xf32>
    %351 = stablehlo.broadcast_in_dim %350, dims = [0, 1, 2] : (tensor<2x2x32xf32>) -> tensor<2x2x32x1xf32>
    %352 = stablehlo.broadcast_in_dim %351, dims = [0, 1, 2, 3] : (tensor<2x2x32x1xf32>) -> tensor<2x2x32x32xf32>
    %353 = stablehlo.subtract %347, %352 : tensor<2x2x32x32xf32>
    %354 = stablehlo.exponential %353 : tensor<2x2x32x32xf32>
    %355 = stablehlo.reduce(%354 init: %cst_37) applies stablehlo.add across dimensions = [3] : (tensor<2x2x32x32xf32>, tensor<f32>) -> tensor<2x2x32xf32>
    %356 = stablehlo.broadcast_in_dim %355, dims = [0, 1, 2] : (tensor<2x2x32xf32>) -> tensor<2x2x32x1xf32>
    %357 = stablehlo.broadcast_in_dim %356, dims = [0, 1, 2, 3] : (tensor<2x2x32x1xf32>) -> tensor<2x2x32x32xf32>
    %358 = stablehlo.divide %354, %357 : tensor<2x2x32x32xf32>
    %359 = stablehlo.broadcast_in_dim %cst_30, dims = [] : (tensor<f32>) -> tensor<2x2x32x32xf32>
    %360 = stablehlo.compare EQ, %347, %359, FLOAT : (tensor<2x2x32x32xf32>, tensor<2x2x32x32xf32>) -> tensor<2x2x32x32xi1>
    %361 = stablehlo.not %360 : tensor<2x2x32x32xi1>
    %362 = stablehlo.reduce(%361 init: %c) applies stablehlo.or across dimensions = [3] : (tensor<2x2x32x32xi1>, tensor<i1>) -> tensor<2x2x32xi1>
    %363 = stablehlo.broadcast_in_dim %362, dims = [0, 1, 2] : (tensor<2x2x32xi1>) -> tensor<2x2x32x1xi1>
    %364 = stablehlo.not %363 : tensor<2x2x32x1xi1>
    %365 = stablehlo.broadcast_in_dim %cst_37, dims = [] : (tensor<f32>) -> tensor<2x2x32x32xf32>
    %366 = call @_where_5(%364, %365, %358) : (tensor<2x2x32x1xi1>, tensor<2x2x32x32xf32>, tensor<2x2x32x32xf32>) -> tensor<2x2x32x32xf32>
    %367 = stablehlo.reshape %366 : (tensor<2x2x32x32xf32>) -> tensor<4x32x32xf32>
    %368 = stablehlo.reshape %333 : (tensor<2x2x32x64xf32>) -> tensor<4x32x64xf32>
    %369 = stablehlo.dot_general %367, %368, batching_dims = [0] x [0], contracting_dims = [2] x [1] : (tensor<4x32x32xf32>, tensor<4x32x64xf32>) -> tensor<4x32x64xf32>
    %370 = stablehlo.reshape %369 : (tensor<4x32x64xf32>) -> tensor<2x2x32x64xf32>
    %371 = stablehlo.transpose %370, dims = [0, 2, 1, 3] : (tensor<2x2x32x64xf32>) -> tensor<2x32x2x64xf32>
    %372 = stablehlo.reshape %371 : (tensor<2x32x2x64xf32>) -> tensor<2x32x128xf32>
    %373 = stablehlo.reshape %372 : (tensor<2x32x128xf32>) -> tensor<64x128xf32>
    %374 = stablehlo.transpose %arg27, dims = [1, 0] : (tensor<128x128xf32>) -> tensor<128x128xf32>
    %375 = stablehlo.broadcast_in_dim %cst_38, dims = [] : (tensor<f32>) -> tensor<128xf32>
    %376 = stablehlo.multiply %arg28, %375 : tensor<128xf32>
    %377 = stablehlo.dot_general %373, %374, contracting_dims = [1] x [0] : (tensor<64x128xf32>, tensor<128x128xf32>) -> tensor<64x128xf32>
    %378 = stablehlo.broadcast_in_dim %cst_38, dims = [] : (tensor<f32>) -> tensor<64x128xf32>
    %379 = stablehlo.multiply %378, %377 : tensor<64x128xf32>
    %380 = stablehlo.broadcast_in_dim %376, dims = [1] : (tensor<128xf32>) -> tensor<1x128xf32>
    %381 = stablehlo.broadcast_in_dim %380, dims = [0, 1] : (tensor<1x128xf32>) -> tensor<64x128xf32>
    %382 = stablehlo.add %381, %379 : tensor<64x128xf32>
    %383 = stablehlo.reshape %382 : (tensor<64x128xf32>) -> tensor<2x32x128xf32>
    %384 = stablehlo.broadcast_in_dim %cst_38, dims = [] : (tensor<f32>) -> tensor<2x32x128xf32>
    %385 = stablehlo.multiply %294, %384 : tensor<2x32x128xf32>
    %386 = stablehlo.add %383, %385 : tensor<2x32x128xf32>
    %387 = stablehlo.reduce(%386 init: %cst_37) applies stablehlo.add across dimensions = [2] : (tensor<2x32x128xf32>, tensor<f32>) -> tensor<2x32xf32>
    %388 = stablehlo.broadcast_in_dim %387, dims = [0, 1] : (tensor<2x32xf32>) -> tensor<2x32x1xf32>
    %389 = stablehlo.broadcast_in_dim %cst_36, dims = [] : (tensor<f32>) -> tensor<2x32x1xf32>
    %390 = stablehlo.divide %388, %389 : tensor<2x32x1xf32>
    %391 = call @_var(%386, %c_35) : (tensor<2x32x128xf32>, tensor<i64>) -> tensor<2x32x1xf32>
    %392 = stablehlo.broadcast_in_dim %cst_34, dims = [] : (tensor<f32>) -> tensor<2x32x1xf32>
    %393 = stablehlo.add %391, %392 : tensor<2x32x1xf32>
    %394 = stablehlo.rsqrt %393 : tensor<2x32x1xf32>
    %395 = stablehlo.broadcast_in_dim %390, dims = [0, 1, 2] : (tensor<2x32x1xf32>) -> tensor<2x32x128xf32>
    %396 = stablehlo.subtract %386, %395 : tensor<2x32x128xf32>
    %397 = stablehlo.broadcast_in_dim %394, dims = [0, 1, 2] : (tensor<2x32x1xf32>) -> tensor<2x32x128xf32>
    %398 = stablehlo.multiply %396, %397 : tensor<2x32x128xf32>
    %399 = stablehlo.broadcast_in_dim %arg29, dims = [2] : (tensor<128xf32>) -> tensor<1x1x128xf32>
    %400 = stablehlo.broadcast_in_dim %399, dims = [0, 1, 2] : (tensor<1x1x128xf32>) -> tensor<2x32x128xf32>
    %401 = stablehlo.multiply %398, %400 : tensor<2x32x128xf32>
    %402 = stablehlo.broadcast_in_dim %arg30, dims = [2] : (tensor<128xf32>) -> tensor<1x1x128xf32>
    %403 = stablehlo.broadcast_in_dim %402, dims = [0, 1, 2] : (tensor<1x1x128xf32>) -> tensor<2x32x128xf32>
    %404 = stablehlo.add %401, %403 : tensor<2x32x128xf32>
    %405 = stablehlo.reshape %404 : (tensor<2x32x128xf32>) -> tensor<64x128xf32>
    %406 = stablehlo.transpose %arg31, dims = [1, 0] : (tensor<512x128xf32>) -> tensor<128x512xf32>
    %407 = stablehlo.broadcast_in_dim %cst_38, dims = [] : (tensor<f32>) -> tensor<512xf32>
    %408 = stablehlo.multiply %arg32, %407 : tensor<512xf32>
    %409 = stablehlo.dot_general %405, %406, contracting_dims = [1] x [0] : (tensor<64x128xf32>, tensor<128x512xf32>) -> tensor<64x512xf32>
    %410 = stablehlo.broadcast_in_dim %cst_38, dims = [] : (tensor<f32>) -> tensor<64x512xf32>
    %411 = stablehlo.multiply %410, %409 : tensor<64x512xf32>
    %412 = stablehlo.broadcast_in_dim %408, dims = [1] : (tensor<512xf32>) -> tensor<1x512xf32>
    %413 = stablehlo.broadcast_in_dim %412, dims = [0, 1] : (tensor<1x512xf32>) -> tensor<64x512xf32>
    %414 = stablehlo.add %413, %411 : tensor<64x512xf32>
    %415 = stablehlo.reshape %414 : (tensor<64x512xf32>) -> tensor<2x32x512xf32>
    %416 = stablehlo.broadcast_in_dim %cst_28, dims = [] : (tensor<f32>) -> tensor<2x32x512xf32>
    %417 = stablehlo.multiply %416, %415 : tensor<2x32x512xf32>
    %418 = stablehlo.negate %415 : tensor<2x32x512xf32>
    %419 = stablehlo.broadcast_in_dim %cst_27, dims = [] : (tensor<f32>) -> tensor<2x32x512xf32>
    %420 = stablehlo.multiply %418, %419 : tensor<2x32x512xf32>
    %421 = stablehlo.multiply %420, %420 : tensor<2x32x512xf32>
    %422 = stablehlo.negate %421 : tensor<2x32x512xf32>
    %423 = stablehlo.abs %420 : tensor<2x32x512xf32>
    %424 = stablehlo.divide %cst_26, %421 : tensor<2x32x512xf32>
    %425 = stablehlo.exponential %422 : tensor<2x32x512xf32>
    %426 = stablehlo.divide %cst_26, %423 : tensor<2x32x512xf32>
    %427 = stablehlo.multiply %425, %426 : tensor<2x32x512xf32>
    %428 = stablehlo.compare LT, %423, %cst_25 : (tensor<2x32x512xf32>, tensor<2x32x512xf32>) -> tensor<2x32x512xi1>
    %429 = stablehlo.multiply %cst_24, %424 : tensor<2x32x512xf32>
    %430 = stablehlo.add %429, %cst_23 : tensor<2x32x512xf32>
    %431 = stablehlo.multiply %430, %424 : tensor<2x32x512xf32>
    %432 = stablehlo.add %431, %cst_22 : tensor<2x32x512xf32>
    %433 = stablehlo.multiply %432, %424 : tensor<2x32x512xf32>
    %434 = stablehlo.add %433, %cst_21 : tensor<2x32x512xf32>
    %435 = stablehlo.multiply %434, %424 : tensor<2x32x512xf32>
    %436 = stablehlo.add %435, %cst_20 : tensor<2x32x512xf32>
    %437 = stablehlo.multiply %436, %424 : tensor<2x32x512xf32>
    %438 = stablehlo.add %437, %cst_19 : tensor<2x32x512xf32>
    %439 = stablehlo.multiply %438, %424 : tensor<2x32x512xf32>
    %440 = stablehlo.add %439, %cst_18 : tensor<2x32x512xf32>
    %441 = stablehlo.multiply %440, %424 : tensor<2x32x512xf32>
    %442 = stablehlo.add %441, %cst_17 : tensor<2x32x512xf32>
    %443 = stablehlo.multiply %442, %424 : tensor<2x32x512xf32>
    %444 = stablehlo.add %443, %cst_16 : tensor<2x32x512xf32>
    %445 = stablehlo.multiply %cst_15, %424 : tensor<2x32x512xf32>
    %446 = stablehlo.add %445, %cst_14 : tensor<2x32x512xf32>
    %447 = stablehlo.multiply %446, %424 : tensor<2x32x512xf32>
    %448 = stablehlo.add %447, %cst_13 : tensor<2x32x512xf32>
    %449 = stablehlo.multiply %448, %424 : tensor<2x32x512xf32>
    %450 = stablehlo.add %449, %cst_12 : tensor<2x32x512xf32>
    %451 = stablehlo.multiply %450, %424 : tensor<2x32x512xf32>
    %452 = stablehlo.add %451, %cst_11 : tensor<2x32x512xf32>
    %453 = stablehlo.multiply %452, %424 : tensor<2x32x512xf32>
    %454 = stablehlo.add %453, %cst_10 : tensor<2x32x512xf32>
    %455 = stablehlo.multiply %454, %424 : tensor<2x32x512xf32>
    %456 = stablehlo.add %455, %cst_9 : tensor<2x32x512xf32>
    %457 = stablehlo.multiply %456, %424 : tensor<2x32x512xf32>
    %458 = stablehlo.add %457, %cst_8 : tensor<2x32x512xf32>
    %459 = stablehlo.select %428, %444, %458 : tensor<2x32x512xi1>, tensor<2x32x512xf32>
    %460 = stablehlo.multiply %427, %459 : tensor<2x32x512xf32>
    %461 = stablehlo.compare LT, %422, %cst_7 : (tensor<2x32x512xf32>, tensor<2x32x512xf32>) -> tensor<2x32x512xi1>
    %462 = stablehlo.select %461, %cst_6, %460 : tensor<2x32x512xi1>, tensor<2x32x512xf32>
    %463 = stablehlo.compare LT, %420, %cst_6 : (tensor<2x32x512xf32>, tensor<2x32x512xf32>) -> tensor<2x32x512xi1>
    %464 = stablehlo.subtract %cst_25, %462 : tensor<2x32x512xf32>
    %465 = stablehlo.select %463, %464, %462 : tensor<2x32x512xi1>, tensor<2x32x512xf32>
    %466 = stablehlo.multiply %420, %420 : tensor<2x32x512xf32>
    %467 = stablehlo.multiply %cst_5, %466 : tensor<2x32x512xf32>
    %468 = stablehlo.add %467, %cst_4 : tensor<2x32x512xf32>
    %469 = stablehlo.multiply %468, %466 : tensor<2x32x512xf32>
    %470 = stablehlo.add %469, %cst_3 : tensor<2x32x512xf32>
    %471 = stablehlo.multiply %470, %466 : tensor<2x32x512xf32>
    %472 = stablehlo.add %471, %cst_2 : tensor<2x32x512xf32>
    %473 = stablehlo.multiply %472, %466 : tensor<2x32x512xf32>
    %474 = stablehlo.add %473, %cst_1 : tensor<2x32x512xf32>
    %475 = stablehlo.multiply %474, %466 : tensor<2x32x512xf32>
    %476 = stablehlo.add %475, %cst_0 : tensor<2x32x512xf32>
    %477 = stablehlo.multiply %476, %466 : tensor<2x32x512xf32>
    %478 = stablehlo.add %477, %cst : tensor<2x32x512xf32>
    %479 = stablehlo.multiply %420, %478 : tensor<2x32x512xf32>
    %480 = stablehlo.subtract %cst_26, %479 : tensor<2x32x512xf32>
    %481 = stablehlo.abs %420 : tensor<2x32x512xf32>
    %482 = stablehlo.compare LT, %481, %cst_26 : (tensor<2x32x512xf32>, tensor<2x32x512xf32>) -> tensor<2x32x512xi1>
    %483 = stablehlo.select %482, %480, %465 : tensor<2x32x512xi1>, tensor<2x32x512xf32>
    %484 = stablehlo.multiply %417, %483 : tensor<2x32x512xf32>
    %485 = stablehlo.reshape %484 : (tensor<2x32x512xf32>) -> tensor<64x512xf32>
    %486 = stablehlo.transpose %arg33, dims = [1, 0] : (tensor<128x512xf32>) -> tensor<512x128xf32>
    %487 = stablehlo.broadcast_in_dim %cst_38, dims = [] : (tensor<f32>) -> tensor<128xf32>
    %488 = stablehlo.multiply %arg34, %487 : tensor<128xf32>
    %489 = stablehlo.dot_general %485, %486, contracting_dims = [1] x [0] : (tensor<64x512xf32>, tensor<512x128xf32>) -> tensor<64x128xf32>
    %490 = stablehlo.broadcast_in_dim %cst_38, dims = [] : (tensor<f32>) -> tensor<64x128xf32>
    %491 = stablehlo.multiply %490, %489 : tensor<64x128xf32>
    %492 = stablehlo.broadcast_in_dim %488, dims = [1] : (tensor<128xf32>) -> tensor<1x128xf32>
    %493 = stablehlo.broadcast_in_dim %492, dims = [0, 1] : (tensor<1x128xf32>) -> tensor<64x128xf32>
    %494 = stablehlo.add %493, %491 : tensor<64x128xf32>
    %495 = stablehlo.reshape %494 : (tensor<64x128xf32>) -> tensor<2x32x128xf32>
    %496 = stablehlo.broadcast_in_dim %cst_38, dims = [] : (tensor<f32>) -> tensor<2x32x128xf32>
    %497 = stablehlo.multiply %404, %496 : tensor<2x32x128xf32>
    %498 = stablehlo.add %495, %497 : tensor<2x32x128xf32>
    %499 = stablehlo.reduce(%498 init: %cst_37) applies stablehlo.add across dimensions = [2] : (tensor<2x32x128xf32>, tensor<f32>) -> tensor<2x32xf32>
    %500 = stablehlo.broadcast_in_dim %499, dims = [0, 1] : (tensor<2x32xf32>) -> tensor<2x32x1xf32>
    %501 = stablehlo.broadcast_in_dim %cst_36, dims = [] : (tensor<f32>) -> tensor<2x32x1xf32>
    %502 = stablehlo.divide %500, %501 : tensor<2x32x1xf32>
    %503 = call @_var(%498, %c_35) : (tensor<2x32x128xf32>, tensor<i64>) -> tensor<2x32x1xf32>
    %504 = stablehlo.broadcast_in_dim %cst_34, dims = [] : (tensor<f32>) -> tensor<2x32x1xf32>
    %505 = stablehlo.add %503, %504 : tensor<2x32x1xf32>
    %506 = stablehlo.rsqrt %505 : tensor<2x32x1xf32>
    %507 = stablehlo.broadcast_in_dim %502, dims = [0, 1, 2] : (tensor<2x32x1xf32>) -> tensor<2x32x128xf32>
    %508 = stablehlo.subtract %498, %507 : tensor<2x32x128xf32>
    %509 = stablehlo.broadcast_in_dim %506, dims = [0, 1, 2] : (tensor<2x32x1xf32>) -> tensor<2x32x128xf32>
    %510 = stablehlo.multiply %508, %509 : tensor<2x32x128xf32>
    %511 = stablehlo.broadcast_in_dim %arg35, dims = [2] : (tensor<128xf32>) -> tensor<1x1x128xf32>
    %512 = stablehlo.broadcast_in_dim %511, dims = [0, 1, 2] : (tensor<1x1x128xf32>) -> tensor<2x32x128xf32>
    %513 = stablehlo.multiply %510, %512 : tensor<2x32x128xf32>
    %514 = stablehlo.broadcast_in_dim %arg36, dims = [2] : (tensor<128xf32>) -> tensor<1x1x128xf32>
    %515 = stablehlo.broadcast_in_dim %514, dims = [0, 1, 2] : (tensor<1x1x128xf32>) -> tensor<2x32x128xf32>
    %516 = stablehlo.add %513, %515 : tensor<2x32x128xf32>
    %517 = stablehlo.slice %516 [0:2, 0:1, 0:128] : (tensor<2x32x128xf32>) -> tensor<2x1x128xf32>
    %518 = stablehlo.reshape %517 : (tensor<2x1x128xf32>) -> tensor<2x128xf32>
    %519 = stablehlo.transpose %arg37, dims = [1, 0] : (tensor<128x128xf32>) -> tensor<128x128xf32>
    %520 = stablehlo.broadcast_in_dim %cst_38, dims = [] : (tensor<f32>) -> tensor<128xf32>
    %521 = stablehlo.multiply %arg38, %520 : tensor<128xf32>
    %522 = stablehlo.dot_general %518, %519, contracting_dims = [1] x [0] : (tensor<2x128xf32>, tensor<128x128xf32>) -> tensor<2x128xf32>
    %523 = stablehlo.broadcast_in_dim %cst_38, dims = [] : (tensor<f32>) -> tensor<2x128xf32>
    %524 = stablehlo.multiply %523, %522 : tensor<2x128xf32>
    %525 = stablehlo.broadcast_in_dim %521, dims = [1] : (tensor<128xf32>) -> tensor<1x128xf32>
    %526 = stablehlo.broadcast_in_dim %525, dims = [0, 1] : (tensor<1x128xf32>) -> tensor<2x128xf32>
    %527 = stablehlo.add %526, %524 : tensor<2x128xf32>
    %528 = stablehlo.tanh %527 : tensor<2x128xf32>
    return %516, %528 : tensor<2x32x128xf32>, tensor<2x128xf32>
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
  func.func private @_take_0(%arg0: tensor<2x128xf32>, %arg1: tensor<2x32xi64>) -> tensor<2x32x128xf32> {
    %cst = stablehlo.constant dense<0x7FC00000> : tensor<f32>
    %c = stablehlo.constant dense<true> : tensor<i1>
    %c_0 = stablehlo.constant dense<0> : tensor<i32>
    %c_1 = stablehlo.constant dense<1> : tensor<1xi32>
    %c_2 = stablehlo.constant dense<2> : tensor<i64>
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
    %14 = "stablehlo.gather"(%arg0, %6) <{dimension_numbers = #stablehlo.gather<offset_dims = [2], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 2>, slice_sizes = array<i64: 1, 128>}> : (tensor<2x128xf32>, tensor<2x32x1xi32>) -> tensor<2x32x128xf32>
    %15 = stablehlo.broadcast_in_dim %13, dims = [0, 1] : (tensor<2x32xi1>) -> tensor<2x32x128xi1>
    %16 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<2x32x128xf32>
    %17 = stablehlo.select %15, %14, %16 : tensor<2x32x128xi1>, tensor<2x32x128xf32>
    return %17 : tensor<2x32x128xf32>
  }
  func.func private @_take_1(%arg0: tensor<64x128xf32>, %arg1: tensor<1x32xi64>) -> tensor<1x32x128xf32> {
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
    %4 = call @_where_2(%1, %3, %arg1) : (tensor<1x32xi1>, tensor<1x32xi64>, tensor<1x32xi64>) -> tensor<1x32xi64>
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
  func.func private @_where_2(%arg0: tensor<1x32xi1>, %arg1: tensor<1x32xi64>, %arg2: tensor<1x32xi64>) -> tensor<1x32xi64> {
    %0 = stablehlo.select %arg0, %arg1, %arg2 : tensor<1x32xi1>, tensor<1x32xi64>
    return %0 : tensor<1x32xi64>
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
