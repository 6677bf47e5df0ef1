module @jit_fn attributes {jax.uses_shape_polymorphism = false, mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<1x1x128xf32>, %arg1: tensor<1x37x128xf32>, %arg2: tensor<128x3x8x8xf32>, %arg3: tensor<128xf32>, %arg4: tensor<128x128xf32>, %arg5: tensor<128xf32>, %arg6: tensor<128x128xf32>, %arg7: tensor<128xf32>, %arg8: tensor<128x128xf32>, %arg9: tensor<128xf32>, %arg10: tensor<128x128xf32>, %arg11: tensor<128xf32>, %arg12: tensor<128xf32>, %arg13: tensor<128xf32>, %arg14: tensor<128xf32>, %arg15: tensor<128xf32>, %arg16: tensor<512x128xf32>, %arg17: tensor<512xf32>, %arg18: tensor<128x512xf32>, %arg19: tensor<128xf32>, %arg20: tensor<128x128xf32>, %arg21: tensor<128xf32>, %arg22: tensor<128x128xf32>, %arg23: tensor<128xf32>, %arg24: tensor<128x128xf32>, %arg25: tensor<128xf32>, %arg26: tensor<128x128xf32>, %arg27: tensor<128xf32>, %arg28: tensor<128xf32>, %arg29: tensor<128xf32>, %arg30: tensor<128xf32>, %arg31: tensor<128xf32>, %arg32: tensor<512x128xf32>, %arg33: tensor<512xf32>, %arg34: tensor<128x512xf32>, %arg35: tensor<128xf32>, %arg36: tensor<128xf32>, %arg37: tensor<128xf32>, %arg38: tensor<128x128xf32>, %arg39: tensor<128xf32>, %arg40: tensor<2x3x48x48xf32>) -> (tensor<2x37x128xf32> {jax.result_info = "result[0]"}, tensor<2x128xf32> {jax.result_info = "result[1]"}) {
    %cst = stablehlo.constant dense<1.12837911> : tensor<2x37x512xf32>
    %cst_0 = stablehlo.constant dense<-0.37612626> : tensor<2x37x512xf32>
    %cst_1 = stablehlo.constant dense<0.112835854> : tensor<2x37x512xf32>
    %cst_2 = stablehlo.constant dense<-0.0268538129> : tensor<2x37x512xf32>
    %cst_3 = stablehlo.constant dense<0.00518832775> : tensor<2x37x512xf32>
    %cst_4 = stablehlo.constant dense<-8.0101937E-4> : tensor<2x37x512xf32>
    %cst_5 = stablehlo.constant dense<7.85386146E-5> : tensor<2x37x512xf32>
    %cst_6 = stablehlo.constant dense<0.000000e+00> : tensor<2x37x512xf32>
    %cst_7 = stablehlo.constant dense<-88.7228394> : tensor<2x37x512xf32>
    %cst_8 = stablehlo.constant dense<0.564189494> : tensor<2x37x512xf32>
    %cst_9 = stablehlo.constant dense<-0.282076746> : tensor<2x37x512xf32>
    %cst_10 = stablehlo.constant dense<0.42184633> : tensor<2x37x512xf32>
    %cst_11 = stablehlo.constant dense<-1.01526523> : tensor<2x37x512xf32>
    %cst_12 = stablehlo.constant dense<2.92101908> : tensor<2x37x512xf32>
    %cst_13 = stablehlo.constant dense<-7.49551868> : tensor<2x37x512xf32>
    %cst_14 = stablehlo.constant dense<1.297720e+01> : tensor<2x37x512xf32>
    %cst_15 = stablehlo.constant dense<-10.477664> : tensor<2x37x512xf32>
    %cst_16 = stablehlo.constant dense<0.563825965> : tensor<2x37x512xf32>
    %cst_17 = stablehlo.constant dense<-0.274112701> : tensor<2x37x512xf32>
    %cst_18 = stablehlo.constant dense<3.404880e-01> : tensor<2x37x512xf32>
    %cst_19 = stablehlo.constant dense<-0.494451523> : tensor<2x37x512xf32>
    %cst_20 = stablehlo.constant dense<0.621000468> : tensor<2x37x512xf32>
    %cst_21 = stablehlo.constant dense<-0.582473278> : tensor<2x37x512xf32>
    %cst_22 = stablehlo.constant dense<0.368742466> : tensor<2x37x512xf32>
    %cst_23 = stablehlo.constant dense<-0.138703942> : tensor<2x37x512xf32>
    %cst_24 = stablehlo.constant dense<2.326820e-02> : tensor<2x37x512xf32>
    %cst_25 = stablehlo.constant dense<2.000000e+00> : tensor<2x37x512xf32>
    %cst_26 = stablehlo.constant dense<1.000000e+00> : tensor<2x37x512xf32>
    %cst_27 = stablehlo.constant dense<0.707106769> : tensor<f32>
    %cst_28 = stablehlo.constant dense<5.000000e-01> : tensor<f32>
    %c = stablehlo.constant dense<false> : tensor<i1>
    %cst_29 = stablehlo.constant dense<0.353553385> : tensor<f32>
    %cst_30 = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %cst_31 = stablehlo.constant dense<9.99999996E-13> : tensor<f32>
    %cst_32 = stablehlo.constant dense<1.280000e+02> : tensor<f32>
    %cst_33 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %c_34 = stablehlo.constant dense<0> : tensor<i64>
    %cst_35 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %0 = stablehlo.convolution(%arg40, %arg2) dim_numbers = [b, f, 0, 1]x[o, i, 0, 1]->[b, f, 0, 1], window = {stride = [8, 8]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<2x3x48x48xf32>, tensor<128x3x8x8xf32>) -> tensor<2x128x6x6xf32>
    %1 = stablehlo.reshape %arg3 : (tensor<128xf32>) -> tensor<1x128x1x1xf32>
    %2 = stablehlo.broadcast_in_dim %1, dims = [0, 1, 2, 3] : (tensor<1x128x1x1xf32>) -> tensor<2x128x6x6xf32>
    %3 = stablehlo.add %0, %2 : tensor<2x128x6x6xf32>
    %4 = stablehlo.reshape %3 : (tensor<2x128x6x6xf32>) -> tensor<2x128x36xf32>
    %5 = stablehlo.transpose %4, dims = [0, 2, 1] : (tensor<2x128x36xf32>) -> tensor<2x36x128xf32>
    %6 = stablehlo.broadcast_in_dim %arg0, dims = [0, 1, 2] : (tensor<1x1x128xf32>) -> tensor<2x1x128xf32>
    %7 = stablehlo.concatenate %6, %5, dim = 1 : (tensor<2x1x128xf32>, tensor<2x36x128xf32>) -> tensor<2x37x128xf32>
    %8 = stablehlo.broadcast_in_dim %cst_35, dims = [] : (tensor<f32>) -> tensor<1x37x128xf32>
    %9 = stablehlo.multiply %arg1, %8 : tensor<1x37x128xf32>
    %10 = stablehlo.broadcast_in_dim %9, dims = [0, 1, 2] : (tensor<1x37x128xf32>) -> tensor<2x37x128xf32>
    %11 = stablehlo.add %7, %10 : tensor<2x37x128xf32>
    %12 = stablehlo.iota dim = 0 : tensor<37xi64>
    %13 = stablehlo.broadcast_in_dim %c_34, dims = [] : (tensor<i64>) -> tensor<37xi64>
    %14 = stablehlo.add %12, %13 : tensor<37xi64>
    %15 = stablehlo.broadcast_in_dim %14, dims = [1] : (tensor<37xi64>) -> tensor<1x37xi64>
    %16 = stablehlo.broadcast_in_dim %15, dims = [0, 2] : (tensor<1x37xi64>) -> tensor<1x1x37xi64>
    %17 = stablehlo.broadcast_in_dim %16, dims = [0, 1, 2] : (tensor<1x1x37xi64>) -> tensor<1x1x37x1xi64>
    %18 = stablehlo.broadcast_in_dim %c_34, dims = [] : (tensor<i64>) -> tensor<1x1x37x1xi64>
    %19 = stablehlo.compare GE, %17, %18, SIGNED : (tensor<1x1x37x1xi64>, tensor<1x1x37x1xi64>) -> tensor<1x1x37x1xi1>
    %20 = stablehlo.broadcast_in_dim %19, dims = [0, 1, 2, 3] : (tensor<1x1x37x1xi1>) -> tensor<2x1x37x37xi1>
    %21 = stablehlo.reduce(%11 init: %cst_33) applies stablehlo.add across dimensions = [2] : (tensor<2x37x128xf32>, tensor<f32>) -> tensor<2x37xf32>
    %22 = stablehlo.broadcast_in_dim %21, dims = [0, 1] : (tensor<2x37xf32>) -> tensor<2x37x1xf32>
    %23 = stablehlo.broadcast_in_dim %cst_32, dims = [] : (tensor<f32>) -> tensor<2x37x1xf32>
    %24 = stablehlo.divide %22, %23 : tensor<2x37x1xf32>
    %25 = call @_var(%11, %c_34) : (tensor<2x37x128xf32>, tensor<i64>) -> tensor<2x37x1xf32>
    %26 = stablehlo.broadcast_in_dim %cst_31, dims = [] : (tensor<f32>) -> tensor<2x37x1xf32>
    %27 = stablehlo.add %25, %26 : tensor<2x37x1xf32>
    %28 = stablehlo.rsqrt %27 : tensor<2x37x1xf32>
    %29 = stablehlo.broadcast_in_dim %24, dims = [0, 1, 2] : (tensor<2x37x1xf32>) -> tensor<2x37x128xf32>
    %30 = stablehlo.subtract %11, %29 : tensor<2x37x128xf32>
    %31 = stablehlo.broadcast_in_dim %28, dims = [0, 1, 2] : (tensor<2x37x1xf32>) -> tensor<2x37x128xf32>
    %32 = stablehlo.multiply %30, %31 : tensor<2x37x128xf32>
    %33 = stablehlo.broadcast_in_dim %arg12, dims = [2] : (tensor<128xf32>) -> tensor<1x1x128xf32>
    %34 = stablehlo.broadcast_in_dim %33, dims = [0, 1, 2] : (tensor<1x1x128xf32>) -> tensor<2x37x128xf32>
    %35 = stablehlo.multiply %32, %34 : tensor<2x37x128xf32>
    %36 = stablehlo.broadcast_in_dim %arg13, dims = [2] : (tensor<128xf32>) -> tensor<1x1x128xf32>
    %37 = stablehlo.broadcast_in_dim %36, dims = [0, 1, 2] : (tensor<1x1x128xf32>) -> tensor<2x37x128xf32>
    %38 = stablehlo.add %35, %37 : tensor<2x37x128xf32>
    %39 = stablehlo.reshape %38 : (tensor<2x37x128xf32>) -> tensor<74x128xf32>
    %40 = stablehlo.transpose %arg4, dims = [1, 0] : (tensor<128x128xf32>) -> tensor<128x128xf32>
    %41 = stablehlo.broadcast_in_dim %cst_35, dims = [] : (tensor<f32>) -> tensor<128xf32>
    %42 = stablehlo.multiply %arg5, %41 : tensor<128xf32>
    %43 = stablehlo.dot_general %39, %40, contracting_dims = [1] x [0] : (tensor<74x128xf32>, tensor<128x128xf32>) -> tensor<74x128xf32>
    %44 = stablehlo.broadcast_in_dim %cst_35, dims = [] : (tensor<f32>) -> tensor<74x128xf32>
    %45 = stablehlo.multiply %44, %43 : tensor<74x128xf32>
    %46 = stablehlo.broadcast_in_dim %42, dims = [1] : (tensor<128xf32>) -> tensor<1x128xf32>
    %47 = stablehlo.broadcast_in_dim %46, dims = [0, 1] : (tensor<1x128xf32>) -> tensor<74x128xf32>
    %48 = stablehlo.add %47, %45 : tensor<74x128xf32>
    %49 = stablehlo.reshape %48 : (tensor<74x128xf32>) -> tensor<2x37x128xf32>
    %50 = stablehlo.reshape %49 : (tensor<2x37x128xf32>) -> tensor<2x37x2x64xf32>
    %51 = stablehlo.transpose %50, dims = [0, 2, 1, 3] : (tensor<2x37x2x64xf32>) -> tensor<2x2x37x64xf32>
    %52 = stablehlo.reshape %38 : (tensor<2x37x128xf32>) -> tensor<74x128xf32>
    %53 = stablehlo.transpose %arg6, dims = [1, 0] : (tensor<128x128xf32>) -> tensor<128x128xf32>
    %54 = stablehlo.broadcast_in_dim %cst_35, dims = [] : (tensor<f32>) -> tensor<128xf32>
    %55 = stablehlo.multiply %arg7, %54 : tensor<128xf32>
    %56 = stablehlo.dot_general %52, %53, contracting_dims = [1] x [0] : (tensor<74x128xf32>, tensor<128x128xf32>) -> tensor<74x128xf32>
    %57 = stablehlo.broadcast_in_dim %cst_35, dims = [] : (tensor<f32>) -> tensor<74x128xf32>
    %58 = stablehlo.multiply %57, %56 : tensor<74x128xf32>
    %59 = stablehlo.broadcast_in_dim %55, dims = [1] : (tensor<128xf32>) -> tensor<1x128xf32>
    %60 = stablehlo.broadcast_in_dim %59, dims = [0, 1] : (tensor<1x128xf32>) -> tensor<74x128xf32>
    %61 = stablehlo.add %60, %58 : tensor<74x128xf32>
    %62 = stablehlo.reshape %61 : (tensor<74x128xf32>) -> tensor<2x37x128xf32>
    %63 = stablehlo.reshape %62 : (tensor<2x37x128xf32>) -> tensor<2x37x2x64xf32>
    %64 = stablehlo.transpose %63, dims = [0, 2, 1, 3] : (tensor<2x37x2x64xf32>) -> tensor<2x2x37x64xf32>
    %65 = stablehlo.reshape %38 : (tensor<2x37x128xf32>) -> tensor<74x128xf32>
    %66 = stablehlo.transpose %arg8, dims = [1, 0] : (tensor<128x128xf32>) -> tensor<128x128xf32>
    %67 = stablehlo.broadcast_in_dim %cst_35, dims = [] : (tensor<f32>) -> tensor<128xf32>
    %68 = stablehlo.multiply %arg9, %67 : tensor<128xf32>
    %69 = stablehlo.dot_general %65, %66, contracting_dims = [1] x [0] : (tensor<74x128xf32>, tensor<128x128xf32>) -> tensor<74x128xf32>
    %70 = stablehlo.broadcast_in_dim %cst_35, dims = [] : (tensor<f32>) -> tensor<74x128xf32>
    %71 = stablehlo.multiply %70, %69 : tensor<74x128xf32>
    %72 = stablehlo.broadcast_in_dim %68, dims = [1] : (tensor<128xf32>) -> tensor<1x128xf32>
    %73 = stablehlo.broadcast_in_dim %72, dims = [0, 1] : (tensor<1x128xf32>) -> tensor<74x128xf32>
    %74 = stablehlo.add %73, %71 : tensor<74x128xf32>
    %75 = stablehlo.reshape %74 : (tensor<74x128xf32>) -> tensor<2x37x128xf32>
    %76 = stablehlo.reshape %75 : (tensor<2x37x128xf32>) -> tensor<2x37x2x64xf32>
    %77 = stablehlo.transpose %76, dims = [0, 2, 1, 3] : (tensor<2x37x2x64xf32>) -> tensor<2x2x37x64xf32>
    %78 = call @_where_0(%20, %cst_33, %cst_30) : (tensor<2x1x37x37xi1>, tensor<f32>, tensor<f32>) -> tensor<2x1x37x37xf32>
    %79 = stablehlo.broadcast_in_dim %cst_29, dims = [] : (tensor<f32>) -> tensor<2x2x37x64xf32>
    %80 = stablehlo.multiply %51, %79 : tensor<2x2x37x64xf32>
    %81 = stablehlo.transpose %64, dims = [0, 1, 3, 2] : (tensor<2x2x37x64xf32>) -> tensor<2x2x64x37xf32>
    %82 = stablehlo.broadcast_in_dim %cst_29, dims = [] : (tensor<f32>) -> tensor<2x2x64x37xf32>
    %83 = stablehlo.multiply %81, %82 : tensor<2x2x64x37xf32>
    %84 = stablehlo.reshape %80 : (tensor<2x2x37x64xf32>) -> tensor<4x37x64xf32>
    %85 = stablehlo.reshape %83 : (tensor<2x2x64x37xf32>) -> tensor<4x64x37xf32>
    %86 = stablehlo.dot_general %84, %85, batching_dims = [0] x [0], contracting_dims = [2] x [1] : (tensor<4x37x64xf32>, tensor<4x64x37xf32>) -> tensor<4x37x37xf32>
    %87 = stablehlo.reshape %86 : (tensor<4x37x37xf32>) -> tensor<2x2x37x37xf32>
    %88 = stablehlo.broadcast_in_dim %cst_35, dims = [] : (tensor<f32>) -> tensor<2x1x37x37xf32>
    %89 = stablehlo.multiply %78, %88 : tensor<2x1x37x37xf32>
    %90 = stablehlo.broadcast_in_dim %89, dims = [0, 1, 2, 3] : (tensor<2x1x37x37xf32>) -> tensor<2x2x37x37xf32>
    %91 = stablehlo.add %87, %90 : tensor<2x2x37x37xf32>
    %92 = stablehlo.reduce(%91 init: %cst_30) applies stablehlo.maximum across dimensions = [3] : (tensor<2x2x37x37xf32>, tensor<f32>) -> tensor<2x2x37xf32>
    %93 = stablehlo.broadcast_in_dim %cst_30, dims = [] : (tensor<f32>) -> tensor<2x2x37xf32>
    %94 = stablehlo.maximum %93, %92 : tensor<2x2x37xf32>
    %95 = stablehlo.broadcast_in_dim %94, dims = [0, 1, 2] : (tensor<2x2x37xf32>) -> tensor<2x2x37x1xf32>
    %96 = stablehlo.broadcast_in_dim %95, dims = [0, 1, 2, 3] : (tensor<2x2x37x1xf32>) -> tensor<2x2x37x37xf32>
    %97 = stablehlo.subtract %91, %96 : tensor<2x2x37x37xf32>
    %98 = stablehlo.exponential %97 : tensor<2x2x37x37xf32>
    %99 = stablehlo.reduce(%98 init: %cst_33) applies stablehlo.add across dimensions = [3] : (tensor<2x2x37x37xf32>, tensor<f32>) -> tensor<2x2x37xf32>
    %100 = stablehlo.broadcast_in_dim %99, dims = [0, 1, 2] : (tensor<2x2x37xf32>) -> tensor<2x2x37x1xf32>
    %101 = stablehlo.broadcast_in_dim %100, dims = [0, 1, 2, 3] : (tensor<2x2x37x1xf32>) -> tensor<2x2x37x37xf32>
    %102 = stablehlo.divide %98, %101 : tensor<2x2x37x37xf32>
    %103 = stablehlo.broadcast_in_dim %cst_30, dims = [] : (tensor<f32>) -> tensor<2x2x37x37xf32>
    %104 = stablehlo.compare EQ, %91, %103, FLOAT : (tensor<2x2x37x37xf32>, tensor<2x2x37x37xf32>) -> tensor<2x2x37x37xi1>
    %105 = stablehlo.not %104 : tensor<2x2x37x37xi1>
    %106 = stablehlo.reduce(%105 init: %c) applies stablehlo.or across dimensions = [3] : (tensor<2x2x37x37xi1>, tensor<i1>) -> tensor<2x2x37xi1>
    %107 = stablehlo.broadcast_in_dim %106, dims = [0, 1, 2] : (tensor<2x2x37xi1>) -> tensor<2x2x37x1xi1>
    %108 = stablehlo.not %107 : tensor<2x2x37x1xi1>
    %109 = stablehlo.broadcast_in_dim %cst_33, dims = [] : (tensor<f32>) -> tensor<2x2x37x37xf32>
    %110 = call @_where_1(%108, %109, %102) : (tensor<2x2x37x1xi1>, tensor<2x2x37x37xf32>, tensor<2x2x37x37xf32>) -> tensor<2x2x37x37xf32>
    %111 = stablehlo.reshape %110 : (tensor<2x2x37x37xf32>) -> tensor<4x37x37xf32>
    %112 = stablehlo.reshape %77 : (tensor<2x2x37x64xf32>) -> tensor<4x37x64xf32>
    %113 = stablehlo.dot_general %111, %112, batching_dims = [0] x [0], contracting_dims = [2] x [1] : (tensor<4x37x37xf32>, tensor<4x37x64xf32>) -> tensor<4x37x64xf32>
    %114 = stablehlo.reshape %113 : (tensor<4x37x64xf32>) -> tensor<2x2x37x64xf32>
    %115 = stablehlo.transpose %114, dims = [0, 2, 1, 3] : (tensor<2x2x37x64xf32>) -> tensor<2x37x2x64xf32>
    %116 = stablehlo.reshape %115 : (tensor<2x37x2x64xf32>) -> tensor<2x37x128xf32>
    %117 = stablehlo.reshape %116 : (tensor<2x37x128xf32>) -> tensor<74x128xf32>
    %118 = stablehlo.transpose %arg10, dims = [1, 0] : (tensor<128x128xf32>) -> tensor<128x128xf32>
    %119 = stablehlo.broadcast_in_dim %cst_35, dims = [] : (tensor<f32>) -> tensor<128xf32>
    %120 = stablehlo.multiply %arg11, %119 : tensor<128xf32>
    %121 = stablehlo.dot_general %117, %118, contracting_dims = [1] x [0] : (tensor<74x128xf32>, tensor<128x128xf32>) -> tensor<74x128xf32>
    %122 = stablehlo.broadcast_in_dim %cst_35, dims = [] : (tensor<f32>) -> tensor<74x128xf32>
    %123 = stablehlo.multiply %122, %121 : tensor<74x128xf32>
    %124 = stablehlo.broadcast_in_dim %120, dims = [1] : (tensor<128xf32>) -> tensor<1x128xf32>
    %125 = stablehlo.broadcast_in_dim %124, dims = [0, 1] : (tensor<1x128xf32>) -> tensor<74x128xf32>
    %126 = stablehlo.add %125, %123 : tensor<74x128xf32>
    %127 = stablehlo.reshape %126 : (tensor<74x128xf32>) -> tensor<2x37x128xf32>
    %128 = stablehlo.broadcast_in_dim %cst_35, dims = [] : (tensor<f32>) -> tensor<2x37x128xf32>
    %129 = stablehlo.multiply %11, %128 : tensor<2x37x128xf32>
    %130 = stablehlo.add %127, %129 : tensor<2x37x128xf32>
    %131 = stablehlo.reduce(%130 init: %cst_33) applies stablehlo.add across dimensions = [2] : (tensor<2x37x128xf32>, tensor<f32>) -> tensor<2x37xf32>
    %132 = stablehlo.broadcast_in_dim %131, dims = [0, 1] : (tensor<2x37xf32>) -> tensor<2x37x1xf32>
    %133 = stablehlo.broadcast_in_dim %cst_32, dims = [] : (tensor<f32>) -> tensor<2x37x1xf32>
    %134 = stablehlo.divide %132, %133 : tensor<2x37x1xf32>
    %135 = call @_var(%130, %c_34) : (tensor<2x37x128xf32>, tensor<i64>) -> tensor<2x37x1xf32>
    %136 = stablehlo.broadcast_in_dim %cst_31, dims = [] : (tensor<f32>) -> tensor<2x37x1xf32>
    %137 = stablehlo.add %135, %136 : tensor<2x37x1xf32>
    %138 = stablehlo.rsqrt %137 : tensor<2x37x1xf32>
    %139 = stablehlo.broadcast_in_dim %134, dims = [0, 1, 2] : (tensor<2x37x1xf32>) -> tensor<2x37x128xf32>
    %140 = stablehlo.subtract %130, %139 : tensor<2x37x128xf32>
    %141 = stablehlo.broadcast_in_dim %138, dims = [0, 1, 2] : (tensor<2x37x1xf32>) -> tensor<2x37x128xf32>
    %142 = stablehlo.multiply %140, %141 : tensor<2x37x128xf32>
    %143 = stablehlo.broadcast_in_dim %arg14, dims = [2] : (tensor<128xf32>) -> tensor<1x1x128xf32>
    %144 = stablehlo.broadcast_in_dim %143, dims = [0, 1, 2] : (tensor<1x1x128xf32>) -> tensor<2x37x128xf32>
    %145 = stablehlo.multiply %142, %144 : tensor<2x37x128xf32>
    %146 = stablehlo.broadcast_in_dim %arg15, dims = [2] : (tensor<128xf32>) -> tensor<1x1x128xf32>
    %147 = stablehlo.broadcast_in_dim %146, dims = [0, 1, 2] : (tensor<1x1x128xf32>) -> tensor<2x37x128xf32>
    %148 = stablehlo.add %145, %147 : tensor<2x37x128xf32>
    %149 = stablehlo.reshape %148 : (tensor<2x37x128xf32>) -> tensor<74x128xf32>
    %150 = stablehlo.transpose %arg16, dims = [1, 0] : (tensor<512x128xf32>) -> tensor<128x512xf32>
    %151 = stablehlo.broadcast_in_dim %cst_35, dims = [] : (tensor<f32>) -> tensor<512xf32>
    %152 = stablehlo.multiply %arg17, %151 : tensor<512xf32>
    %153 = stablehlo.dot_general %149, %150, contracting_dims = [1] x [0] : (tensor<74x128xf32>, tensor<128x512xf32>) -> tensor<74x512xf32>
    %154 = stablehlo.broadcast_in_dim %cst_35, dims = [] : (tensor<f32>) -> tensor<74x512xf32>
    %155 = stablehlo.multiply %154, %153 : tensor<74x512xf32>
    %156 = stablehlo.broadcast_in_dim %152, dims = [1] : (tensor<512xf32>) -> tensor<1x512xf32>
    %157 = stablehlo.broadcast_in_dim %156, dims = [0, 1] : (tensor<1x512xf32>) -> tensor<74x512xf32>
    %158 = stablehlo.add %157, %155 : tensor<74x512xf32>
    %159 = stablehlo.reshape %158 : (tensor<74x512xf32>) -> tensor<2x37x512xf32>
    %160 = stablehlo.broadcast_in_dim %cst_28, dims = [] : (tensor<f32>) -> tensor<2x37x512xf32>
    %161 = stablehlo.multiply %160, %159 : tensor<2x37x512xf32>
    %162 = stablehlo.negate %159 : tensor<2x37x512xf32>
    %163 = stablehlo.broadcast_in_dim %cst_27, dims = [] : (tensor<f32>) -> tensor<2x37x512xf32>
    %164 = stablehlo.multiply %162, %163 : tensor<2x37x512xf32>
    %165 = stablehlo.multiply %164, %164 : tensor<2x37x512xf32>
    %166 = stablehlo.negate %165 : tensor<2x37x512xf32>
    %167 = stablehlo.abs %164 : tensor<2x37x512xf32>
    %168 = stablehlo.divide %cst_26, %165 : tensor<2x37x512xf32>
    %169 = stablehlo.exponential %166 : tensor<2x37x512xf32>
    %170 = stablehlo.divide %cst_26, %167 : tensor<2x37x512xf32>
    %171 = stablehlo.multiply %169, %170 : tensor<2x37x512xf32>
    %172 = stablehlo.compare LT, %167, %cst_25 : (tensor<2x37x512xf32>, tensor<2x37x512xf32>) -> tensor<2x37x512xi1>
    %173 = stablehlo.multiply %cst_24, %168 : tensor<2x37x512xf32>
    %174 = stablehlo.add %173, %cst_23 : tensor<2x37x512xf32>
    %175 = stablehlo.multiply %174, %168 : tensor<2x37x512xf32>
    %176 = stablehlo.add %175, %cst_22 : tensor<2x37x512xf32>
    %177 = stablehlo.multiply %176, %168 : tensor<2x37x512xf32>
    %178 = stablehlo.add %177, %cst_21 : tensor<2x37x512xf32>
    %179 = stablehlo.multiply %178, %168 : tensor<2x37x512xf32>
    %180 = stablehlo.add %179, %cst_20 : tensor<2x37x512xf32>
    %181 = stablehlo.multiply %180, %168 : tensor<2x37x512xf32>
    %182 = stablehlo.add %181, %cst_19 : tensor<2x37x512xf32>
    %183 = stablehlo.multiply %182, %168 : tensor<2x37x512xf32>
    %184 = stablehlo.add %183, %cst_18 : tensor<2x37x512xf32>
    %185 = stablehlo.multiply %184, %168 : tensor<2x37x512xf32>
    %186 = stablehlo.add %185, %cst_17 : tensor<2x37x512xf32>
    %187 = stablehlo.multiply %186, %168 : tensor<2x37x512xf32>
    %188 = stablehlo.add %187, %cst_16 : tensor<2x37x512xf32>
    %189 = stablehlo.multiply %cst_15, %168 : tensor<2x37x512xf32>
    %190 = stablehlo.add %189, %cst_14 : tensor<2x37x512xf32>
    %191 = stablehlo.multiply %190, %168 : tensor<2x37x512xf32>
    %192 = stablehlo.add %191, %cst_13 : tensor<2x37x512xf32>
    %193 = stablehlo.multiply %192, %168 : tensor<2x37x512xf32>
    %194 = stablehlo.add %193, %cst_12 : tensor<2x37x512xf32>
    %195 = stablehlo.multiply %194, %168 : tensor<2x37x512xf32>
    %196 = stablehlo.add %195, %cst_11 : tensor<2x37x512xf32>
    %197 = stablehlo.multiply %196, %168 : tensor<2x37x512xf32>
    %198 = stablehlo.add %197, %cst_10 : tensor<2x37x512xf32>
    %199 = stablehlo.multiply %198, %168 : tensor<2x37x512xf32>
    %200 = stablehlo.add %199, %cst_9 : tensor<2x37x512xf32>
    %201 = stablehlo.multiply %200, %168 : tensor<2x37x512xf32>
    %202 = stablehlo.add %201, %cst_8 : tensor<2x37x512xf32>
    %203 = stablehlo.select %172, %188, %202 : tensor<2x37x512xi1>, tensor<2x37x512xf32>
    %204 = stablehlo.multiply %171, %203 : tensor<2x37x512xf32>
    %205 = stablehlo.compare LT, %166, %cst_7 : (tensor<2x37x512xf32>, tensor<2x37x512xf32>) -> tensor<2x37x512xi1>
    %206 = stablehlo.select %205, %cst_6, %204 : tensor<2x37x512xi1>, tensor<2x37x512xf32>
    %207 = stablehlo.compare LT, %164, %cst_6 : (tensor<2x37x512xf32>, tensor<2x37x512xf32>) -> tensor<2x37x512xi1>
    %208 = stablehlo.subtract %cst_25, %206 : tensor<2x37x512xf32>
    %209 = stablehlo.select %207, %208, %206 : tensor<2x37x512xi1>, tensor<2x37x512xf32>
    %210 = stablehlo.multiply %164, %164 : tensor<2x37x512xf32>
    %211 = stablehlo.multiply %cst_5, %210 : tensor<2x37x512xf32>
    %212 = stablehlo.add %211, %cst_4 : tensor<2x37x512xf32>
    %213 = stablehlo.multiply %212, %210 : tensor<2x37x512xf32>
    %214 = stablehlo.add %213, %cst_3 : tensor<2x37x512xf32>
    %215 = stablehlo.multiply %214, %210 : tensor<2x37x512xf32>
    %216 = stablehlo.add %215, %cst_2 : tensor<2x37x512xf32>
    %217 = stablehlo.multiply %216, %210 : tensor<2x37x512xf32>
    %218 = stablehlo.add %217, %cst_1 : tensor<2x37x512xf32>
    %219 = stablehlo.multiply %218, %210 : tensor<2x37x512xf32>
    %220 = stablehlo.add %219, %cst_0 : tensor<2x37x512xf32>
    %221 = stablehlo.multiply %220, %210 : tensor<2x37x512xf32>
    %222 = stablehlo.add %221, %cst : tensor<2x37x512xf32>
    %223 = stablehlo.multiply %164, %222 : tensor<2x37x512xf32>
    %224 = stablehlo.subtract %cst_26, %223 : tensor<2x37x512xf32>
    %225 = stablehlo.abs %164 : tensor<2x37x512xf32>
    %226 = stablehlo.compare LT, %225, %cst_26 : (tensor<2x37x512xf32>, tensor<2x37x512xf32>) -> tensor<2x37x512xi1>
    %227 = stablehlo.select %226, %224, %209 : tensor<2x37x512xi1>, tensor<2x37x512xf32>
    %228 = stablehlo.multiply %161, %227 : tensor<2x37x512xf32>
    %229 = stablehlo.reshape %228 : (tensor<2x37x512xf32>) -> tensor<74x512xf32>
    %230 = stablehlo.transpose %arg18, dims = [1, 0] : (tensor<128x512xf32>) -> tensor<512x128xf32>
    %231 = stablehlo.broadcast_in_dim %cst_35, dims = [] : (tensor<f32>) -> tensor<128xf32>
    %232 = stablehlo.multiply %arg19, %231 : tensor<128xf32>
    %233 = stablehlo.dot_general %229, %230, contracting_dims = [1] x [0] : (tensor<74x512xf32>, tensor<512x128xf32>) -> tensor<74x128xf32>
    %234 = stablehlo.broadcast_in_dim %cst_35, dims = [] : (tensor<f32>) -> tensor<74x128xf32>
    %235 = stablehlo.multiply %234, %233 : tensor<74x128xf32>
    %236 = stablehlo.broadcast_in_dim %232, dims = [1] : (tensor<128xf32>) -> tensor<1x128xf32>
    %237 = stablehlo.broadcast_in_dim %236, dims = [0, 1] : (tensor<1x128xf32>) -> tensor<74x128xf32>
    %238 = stablehlo.add %237, %235 : tensor<74x128xf32>
    %239 = stablehlo.reshape %238 : (tensor<74x128xf32>) -> tensor<2x37x128xf32>
    %240 = stablehlo.broadcast_in_dim %cst_35, dims = [] : (tensor<f32>) -> tensor<2x37x128xf32>
    %241 = stablehlo.multiply %130, %240 : tensor<2x37x128xf32>
    %242 = stablehlo.add %239, %241 : tensor<2x37x128xf32>
    %243 = stablehlo.reduce(%242 init: %cst_33) applies stablehlo.add across dimensions = [2] : (tensor<2x37x128xf32>, tensor<f32>) -> tensor<2x37xf32>
    %244 = stablehlo.broadcast_in_dim %243, dims = [0, 1] : (tensor<2x37xf32>) -> tensor<2x37x1xf32>
    %245 = stablehlo.broadcast_in_dim %cst_32, dims = [] : (tensor<f32>) -> tensor<2x37x1xf32>
    %246 = stablehlo.divide %244, %245 : tensor<2x37x1xf32>
    %247 = call @_var(%242, %c_34) : (tensor<2x37x128xf32>, tensor<i64>) -> tensor<2x37x1xf32>
    %248 = stablehlo.broadcast_in_dim %cst_31, dims = [] : (tensor<f32>) -> tensor<2x37x1xf32>
    %249 = stablehlo.add %247, %248 : tensor<2x37x1xf32>
    %250 = stablehlo.rsqrt %249 : tensor<2x37x1xf32>
    %251 = stablehlo.broadcast_in_dim %246, dims = [0, 1, 2] : (tensor<2x37x1xf32>) -> tensor<2x37x128xf32>
    %252 = stablehlo.subtract %242, %251 : tensor<2x37x128xf32>
    %253 = stablehlo.broadcast_in_dim %250, dims = [0, 1, 2] : (tensor<2x37x1xf32>) -> tensor<2x37x128xf32>
    %254 = stablehlo.multiply %252, %253 : tensor<2x37x128xf32>
    %255 = stablehlo.broadcast_in_dim %arg28, dims = [2] : (tensor<128xf32>) -> tensor<1x1x128xf32>
    %256 = stablehlo.broadcast_in_dim %255, dims = [0, 1, 2] : (tensor<1x1x128xf32>) -> tensor<2x37x128xf32>
    %257 = stablehlo.multiply %254, %256 : tensor<2x37x128xf32>
    %258 = stablehlo.broadcast_in_dim %arg29, dims = [2] : (tensor<128xf32>) -> tensor<1x1x128xf32>
    %259 = stablehlo.broadcast_in_dim %258, dims = [0, 1, 2] : (tensor<1x1x128xf32>) -> tensor<2x37x128xf32>
    %260 = stablehlo.add %257, %259 : tensor<2x37x128xf32>
    %261 = stablehlo.reshape %260 : (tensor<2x37x128xf32>) -> tensor<74x128xf32>
    %262 = stablehlo.transpose %arg20, dims = [1, 0] : (tensor<128x128xf32>) -> tensor<128x128xf32>
    %263 = stablehlo.broadcast_in_dim %cst_35, dims = [] : (tensor<f32>) -> tensor<128xf32>
    %264 = stablehlo.multiply %arg21, %263 : tensor<128xf32>
    %265 = stablehlo.dot_general %261, %262, contracting_dims = [1] x [0] : (tensor<74x128xf32>, tensor<128x128xf32>) -> tensor<74x128xf32>
    %266 = stablehlo.broadcast_in_dim %cst_35, dims = [] : (tensor<f32>) -> tensor<74x128xf32>
    %267 = stablehlo.multiply %266, %265 : tensor<74x128xf32>
    %268 = stablehlo.broadcast_in_dim %264, dims = [1] : (tensor<128xf32>) -> tensor<1x128xf32>
    %269 = stablehlo.broadcast_in_dim %268, dims = [0, 1] : (tensor<1x128xf32>) -> tensor<74x128xf32>
    %270 = stablehlo.add %269, %267 : tensor<74x128xf32>
    %271 = stablehlo.reshape %270 : (tensor<74x128xf32>) -> tensor<2x37x128xf32>
    %272 = stablehlo.reshape %271 : (tensor<2x37x128xf32>) -> tensor<2x37x2x64xf32>
    %273 = stablehlo.transpose %272, dims = [0, 2, 1, 3] : (tensor<2x37x2x64xf32>) -> tensor<2x2x37x64xf32>
    %274 = stablehlo.reshape %260 : (tensor<2x37x128xf32>) -> tensor<74x128xf32>
    %275 = stablehlo.transpose %arg22, dims = [1, 0] : (tensor<128x128xf32>) -> tensor<128x128xf32>
    %276 = stablehlo.broadcast_in_dim %cst_35, dims = [] : (tensor<f32>) -> tensor<128xf32>
    %277 = stablehlo.multiply %arg23, %276 : tensor<128xf32>
    %278 = stablehlo.dot_general %274, %275, contracting_dims = [1] x [0] : (tensor<74x128xf32>, tensor<128x128xf32>) -> tensor<74x128xf32>
    %279 = stablehlo.broadcast_in_dim %cst_35, dims = [] : (tensor<f32>) -> tensor<74x128xf32>
    %280 = stablehlo.multiply %279, %278 : tensor<74x128xf32>
    %281 = stablehlo.broadcast_in_dim %277, dims = [1] : (tensor<128xf32>) -> tensor<1x128xf32>
    %282 = stablehlo.broadcast_in_dim %281, dims = [0, 1] : (tensor<1x128xf32>) -> tensor<74x128xf32>
    %283 = stablehlo.add %282, %280 : tensor<74x128xf32>
    %284 = stablehlo.reshape %283 : (tensor<74x128xf32>) -> tensor<2x37x128xf32>
    %285 = stablehlo.reshape %284 : (tensor<2x37x128xf32>) -> tensor<2x37x2x64xf32>
    %286 = stablehlo.transpose %285, dims = [0, 2, 1, 3] : (tensor<2x37x2x64xf32>) -> tensor<2x2x37x64xf32>
    %287 = stablehlo.reshape %260 : (tensor<2x37x128xf32>) -> tensor<74x128xf32>
    %288 = stablehlo.transpose %arg24, dims = [1, 0] : (tensor<128x128xf32>) -> tensor<128x128xf32>
    %289 = stablehlo.broadcast_in_dim %cst_35, dims = [] : (tensor<f32>) -> tensor<128xf32>
    %290 = stablehlo.multiply %arg25, %289 : tensor<128xf32>
    %291 = stablehlo.dot_general %287, %288, contracting_dims = [1] x [0] : (tensor<74x128xf32>, tensor<128x128xf32>) -> tensor<74x128xf32>
    %292 = stablehlo.broadcast_in_dim %cst_35, dims = [] : (tensor<f32>) -> tensor<74x128xf32>
    %293 = stablehlo.multiply %292, %291 : tensor<74x128xf32>
    %294 = stablehlo.broadcast_in_dim %290, dims = [1] : (tensor<128xf32>) -> tensor<1x128xf32>
    %295 = stablehlo.broadcast_in_dim %294, dims = [0, 1] : (tensor<1x128xf32>) -> tensor<74x128xf32>
    %296 = stablehlo.add %295, %293 : tensor<74x128xf32>
    %297 = stablehlo.reshape %296 : (tensor<74x128xf32>) -> tensor<2x37x128xf32>
    %298 = stablehlo.reshape %297 : (tensor<2x37x128xf32>) -> tensor<2x37x2x64xf32>
    %299 = stablehlo.transpose %298, dims = [0, 2, 1, 3] : (tensor<2x37x2x64xf32>) -> tensor<2x2x37x64xf32>
    %300 = call @_where_0(%20, %cst_33, %cst_30) : (tensor<2x1x37x37xi1>, tensor<f32>, tensor<f32>) -> tensor<2x1x37x37xf32>
    %301 = stablehlo.broadcast_in_dim %cst_29, dims = [] : (tensor<f32>) -> tensor<2x2x37x64xf32>
    %302 = stablehlo.multiply %273, %301 : tensor<2x2x37x64xf32>
    %303 = stablehlo.transpose %286, dims = [0, 1, 3, 2] : (tensor<2x2x37x64xf32>) -> tensor<2x2x64x37xf32>
    %304 = stablehlo.broadcast_in_dim %cst_29, dims = [] : (tensor<f32>) -> tensor<2x2x64x37xf32>
    %305 = stablehlo.multiply %303, %304 : tensor<2x2x64x37xf32>
    %306 = stablehlo.reshape %302 : (tensor<2x2x37x64xf32>) -> tensor<4x37x64xf32>
    %307 = stablehlo.reshape %305 : (tensor<2x2x64x37xf32>) -> tensor<4x64x37xf32>
    %308 = stablehlo.dot_general %306, %307, batching_dims = [0] x [0], contracting_dims = [2] x [1] : (tensor<4x37x64xf32>, tensor<4x64x37xf32>) -> tensor<4x37x37xf32>
    %309 = stablehlo.reshape %308 : (tensor<4x37x37xf32>) -> tensor<2x2x37x37xf32>
    %310 = stablehlo.broadcast_in_dim %cst_35, dims = [] : (tensor<f32>) -> tensor<2x1x37x37xf32>
    %311 = stablehlo.multiply %300, %310 : tensor<2x1x37x37xf32>
    %312 = stablehlo.broadcast_in_dim %311, dims = [0, 1, 2, 3] : (tensor<2x1x37x37xf32>) -> tensor<2x2x37x37xf32>
    %313 = stablehlo.add %309, %312 : tensor<2x2x37x37xf32>
    %314 = stablehlo.reduce(%313 init: %cst_30) applies stablehlo.maximum across dimensions = [3] : (tensor<2x2x37x37xf32>, tensor<f32>) -> tensor<2x2x37xf32>
    %315 = stablehlo.broadcast_in_dim %cst_30, dims = [] : (tensor<f32>) -> tensor<2x2x37xf32>
    %316 = stablehlo.maximum %315, %314 : tensor<2x2x37xf32>
    %317 = stablehlo.broadcast_in_dim %316, dims = [0, 1, 2] : (tensor<2x2x37xf32>) -> tensor<2x2x37x1xf32>
    %318 = stablehlo.broadcast_in_dim %317, dims = [0, 1, 2, 3] : (tensor<2x2x37x1xf32>) -> tensor<2x2x37x37xf32>
    %319 = stablehlo.subtract %313, %318 : tensor<2x2x37x37xf32>
    %320 = stablehlo.exponential %319 : tensor<2x2x37x37xf32>
    %321 = stablehlo.reduce(%320 init: %cst_33) applies stablehlo.add across dimensions = [3] : (tensor<2x2x37x37xf32>, tensor<f32>) -> tensor<2x2x37xf32>
    %322 = stablehlo.broadcast_in_dim %321, dims = [0, 1, 2] : (tensor<2x2x37xf32>) -> tensor<2x2x37x1xf32>
    %323 = stablehlo.broadcast_in_dim %322, dims = [0, 1, 2, 3] : (tensor<2x2x37x1xf32>) -> tensor<2x2x37x37xf32>
    %324 = stablehlo.divide %320, %323 : tensor<2x2x37x37xf32>
    %325 = stablehlo.broadcast_in_dim %cst_30, dims = [] : (tensor<f32>) -> tensor<2x2x37x37xf32>
    %326 = stablehlo.compare EQ, %313, %325, FLOAT : (tensor<2x2x37x37xf32>, tensor<2x2x37x37xf32>) -> tensor<2x2x37x37xi1>
    %327 = stablehlo.not %326 : tensor<2x2x37x37xi1>
    %328 = stablehlo.reduce(%327 init: %c) applies stablehlo.or across dimensions = [3] : (tensor<2x2x37x37xi1>, tensor<i1>) -> tensor<2x2x37xi1>
    %329 = stablehlo.broadcast_in_dim %328, dims = [0, 1, 2] : (tensor<2x2x37xi1>) -> tensor<2x2x37x1xi1>
    %330 = stablehlo.not %329 : tensor<2x2x37x1xi1>
    %331 = stablehlo.broadcast_in_dim %cst_33, dims = [] : (tensor<f32>) -> tensor<2x2x37x37xf32>
    %332 = call @_where_1(%330, %331, %324) : (tensor<2x2x37x1xi1>, tensor<2x2x37x37xf32>, tensor<2x2x37x37xf32>) -> tensor<2x2x37x37xf32>
    %333 = stablehlo.reshape %332 : (tensor<2x2x37x37xf32>) -> tensor<4x37x37xf32>
    %334 = stablehlo.reshape %299 : (tensor<2x2x37x64xf32>) -> tensor<4x37x64xf32>
    %335 = stablehlo.dot_general %333, %334, batching_dims = [0] x [0], contracting_dims = [2] x [1] : (tensor<4x37x37xf32>, tensor<4x37x64xf32>) -> tensor<4x37x64xf32>
    %336 = stablehlo.reshape %335 : (tensor<4x37x64xf32>) -> tensor<2x2x37x64xf32>
    %337 = stablehlo.transpose %336, dims = [0, 2, 1, 3] : (tensor<2x2x37x64xf32>) -> tensor<2x37x2x64xf32>
    %338 = stablehlo.reshape %337 : (tensor<2x37x2x64xf32>) -> tensor<2x37x128xf32>
    %339 = stablehlo.reshape %338 : (tensor<2x37x128xf32>) -> tensor<74x128xf32>
    %340 = stablehlo.transpose %arg26, dims = [1, 0] : (tensor<128x128xf32>) -> tensor<128x128xf32>
    %341 = stablehlo.broadcast_in_dim %cst_35, dims = [] : (tensor<f32>) -> tensor<128xf32>
    %342 = stablehlo.multiply %arg27, %341 : tensor<128xf32>
    %343 = stablehlo.dot_general %339, %340, contracting_dims = [1] x [0] : (tensor<74x128xf32>, tensor<128x128xf32>) -> tensor<74x128xf32>
    %344 = stablehlo.broadcast_in_dim %cst_35, dims = [] : (tensor<f32>) -> tensor<74x128xf32>
    %345 = stablehlo.multiply %344, %343 : tensor<74x128xf32>
    %346 = stablehlo.broadcast_in_dim %342, dims = [1] : (tensor<128xf32>) -> tensor<1x128xf32>
    %347 = stablehlo.broadcast_in_dim %346, dims = [0, 1] : (tensor<1x128xf32>) -> tensor<74x128xf32>
    %348 = stablehlo.add %347, %345 : tensor<74x128xf32>
    %349 = stablehlo.reshape %348 : (tensor<74x128xf32>) -> tensor<2x37x128xf32>
    %350 = stablehlo.broadcast_in_dim %cst_35, dims = [] : (tensor<f32>) -> tensor<2x37x128xf32>
    %351 = stablehlo.multiply %242, %350 : tensor<2x37x128xf32>
    %352 = stablehlo.add %349, %351 : tensor<2x37x128xf32>
    %353 = stablehlo.reduce(%352 init: %cst_33) applies stablehlo.add across dimensions = [2] : (tensor<2x37x128xf32>, tensor<f32>) -> tensor<2x37xf32>
    %354 = stablehlo.broadcast_in_dim %353, dims = [0, 1] : (tensor<2x37xf32>) -> tensor<2x37x1xf32>
    %355 = stablehlo.broadcast_in_dim %cst_32, dims = [] : (tensor<f32>) -> tensor<2x37x1xf32>
    %356 = stablehlo.divide %354, %355 : tensor<2x37x1xf32>
    %357 = call @_var(%352, %c_34) : (tensor<2x37x128xf32>, tensor<i64>) -> tensor<2x37x1xf32>
    %358 = stablehlo.broadcast_in_dim %cst_31, dims = [] : (tensor<f32>) -> tensor<2x37x1xf32>
    %359 = stablehlo.add %357, %358 : tensor<2x37x1xf32>
    %360 = stablehlo.rsqrt %359 : tensor<2x37x1xf32>
    %361 = stablehlo.broadcast_in_dim %356, dims = [0, 1, 2] : (tensor<2x37x1xf32>) -> tensor<2x37x128xf32>
    %362 = stablehlo.subtract %352, %361 : tensor<2x37x128xf32>
    %363 = stablehlo.broadcast_in_dim %360, dims = [0, 1, 2] : (tensor<2x37x1xf32>) -> tensor<2x37x128xf32>
    %364 = stablehlo.multiply %362, %363 : tensor<2x37x128xf32>
    %365 = stablehlo.broadcast_in_dim %arg30, dims = [2] : (tensor<128xf32>) -> tensor<1x1x128xf32>
    %366 = stablehlo.broadcast_in_dim %365, dims = [0, 1, 2] : (tensor<1x1x128xf32>) -> tensor<2x37x128xf32>
    %367 = stablehlo.multiply %364, %366 : tensor<2x37x128xf32>
    %368 = stablehlo.broadcast_in_dim %arg31, dims = [2] : (tensor<128xf32>) -> tensor<1x1x128xf32>
    %369 = stablehlo.broadcast_in_dim %368, dims = [0, 1, 2] : (tensor<1x1x128xf32>) -> tensor<2x37x128xf32>
    %370 = stablehlo.add %367, %369 : tensor<2x37x128xf32>
    %371 = stablehlo.reshape %370 : (tensor<2x37x128xf32>) -> tensor<74x128xf32>
    %372 = stablehlo.transpose %arg32, dims = [1, 0] : (tensor<512x128xf32>) -> tensor<128x512xf32>
    %373 = stablehlo.broadcast_in_dim %cst_35, dims = [] : (tensor<f32>) -> tensor<512xf32>
    %374 = stablehlo.multiply %arg33, %373 : tensor<512xf32>
    %375 = stablehlo.dot_general %371, %372, contracting_dims = [1] x [0] : (tensor<74x128xf32>, tensor<128x512xf32>) -> tensor<74x512xf32>
    %376 = stablehlo.broadcast_in_dim %cst_35, dims = [] : (tensor<f32>) -> tensor<74x512xf32>
    %377 = stablehlo.multiply %376, %375 : tensor<74x512xf32>
    %378 = stablehlo.broadcast_in_dim %374, dims = [1] : (tensor<512xf32>) -> tensor<1x512xf32>
    %379 = stablehlo.broadcast_in_dim %378, dims = [0, 1] : (tensor<1x512xf32>) -> tensor<74x512xf32>
    %380 = stablehlo.add %379, %377 : tensor<74x512xf32>
    %381 = stablehlo.reshape %380 : (tensor<74x512xf32>) -> tensor<2x37x512xf32>
    %382 = stablehlo.broadcast_in_dim %cst_28, dims = [] : (tensor<f32>) -> tensor<2x37x512xf32>
    %383 = stablehlo.multiply %382, %381 : tensor<2x37x512xf32>
    %384 = stablehlo.negate %381 : tensor<2x37x512xf32>
    %385 = stablehlo.broadcast_in_dim %cst_27, dims = [] : (tensor<f32>) -> tensor<2x37x512xf32>
    %386 = stablehlo.multiply %384, %385 : tensor<2x37x512xf32>
    %387 = stablehlo.multiply %386, %386 : tensor<2x37x512xf32>
    %388 = stablehlo.negate %387 : tensor<2x37x512xf32>
    %389 = stablehlo.abs %386 : tensor<2x37x512xf32>
    %390 = stablehlo.divide %cst_26, %387 : tensor<2x37x512xf32>
    %391 = stablehlo.exponential %388 : tensor<2x37x512xf32>
    %392 = stablehlo.divide %cst_26, %389 : tensor<2x37x512xf32>
    %393 = stablehlo.multiply %391, %392 : tensor<2x37x512xf32>
    %394 = stablehlo.compare LT, %389, %cst_25 : (tensor<2x37x512xf32>, tensor<2x37x512xf32>) -> tensor<2x37x512xi1>
    %395 = stablehlo.multiply %cst_24, %390 : tensor<2x37x512xf32>
    %396 = stablehlo.add %395, %cst_23 : tensor<2x37x512xf32>
    %397 = stablehlo.multiply %396, %390 : tensor<2x37x512xf32>
    %398 = stablehlo.add %397, %cst_22 : tensor<2x37x512xf32>
    %399 = stablehlo.multiply %398, %390 : tensor<2x37x512xf32>
    %400 = stablehlo.add %399, %cst_21 : tensor<2x37x512xf32>
    %401 = stablehlo.multiply %400, %390 : tensor<2x37x512xf32>
    %402 = stablehlo.add %401, %cst_20 : tensor<2x37x512xf32>
    %403 = stablehlo.multiply %402, %390 : tensor<2x37x512xf32>
    %404 = stablehlo.add %403, %cst_19 : tensor<2x37x512xf32>
    %405 = stablehlo.multiply %404, %390 : tensor<2x37x512xf32>
    %406 = stablehlo.add %405, %cst_18 : tensor<2x37x512xf32>
    %407 = stablehlo.multiply %406, %390 : tensor<2x37x512xf32>
    %408 = stablehlo.add %407, %cst_17 : tensor<2x37x512xf32>
    %409 = stablehlo.multiply %408, %390 : tensor<2x37x512xf32>
    %410 = stablehlo.add %409, %cst_16 : tensor<2x37x512xf32>
    %411 = stablehlo.multiply %cst_15, %390 : tensor<2x37x512xf32>
    %412 = stablehlo.add %411, %cst_14 : tensor<2x37x512xf32>
    %413 = stablehlo.multiply %412, %390 : tensor<2x37x512xf32>
    %414 = stablehlo.add %413, %cst_13 : tensor<2x37x512xf32>
    %415 = stablehlo.multiply %414, %390 : tensor<2x37x512xf32>
    %416 = stablehlo.add %415, %cst_12 : tensor<2x37x512xf32>
    %417 = stablehlo.multiply %416, %390 : tensor<2x37x512xf32>
    %418 = stablehlo.add %417, %cst_11 : tensor<2x37x512xf32>
    %419 = stablehlo.multiply %418, %390 : tensor<2x37x512xf32>
    %420 = stablehlo.add %419, %cst_10 : tensor<2x37x512xf32>
    %421 = stablehlo.multiply %420, %390 : tensor<2x37x512xf32>
    %422 = stablehlo.add %421, %cst_9 : tensor<2x37x512xf32>
    %423 = stablehlo.multiply %422, %390 : tensor<2x37x512xf32>
    %424 = stablehlo.add %423, %cst_8 : tensor<2x37x512xf32>
    %425 = stablehlo.select %394, %410, %424 : tensor<2x37x512xi1>, tensor<2x37x512xf32>
    %426 = stablehlo.multiply %393, %425 : tensor<2x37x512xf32>
    %427 = stablehlo.compare LT, %388, %cst_7 : (tensor<2x37x512xf32>, tensor<2x37x512xf32>) -> tensor<2x37x512xi1>
    %428 = stablehlo.select %427, %cst_6, %426 : tensor<2x37x512xi1>, tensor<2x37x512xf32>
    %429 = stablehlo.compare LT, %386, %cst_6 : (tensor<2x37x512xf32>, tensor<2x37x512xf32>) -> tensor<2x37x512xi1>
    %430 = stablehlo.subtract %cst_25, %428 : tensor<2x37x512xf32>
    %431 = stablehlo.select %429, %430, %428 : tensor<2x37x512xi1>, tensor<2x37x512xf32>
    %432 = stablehlo.multiply %386, %386 : tensor<2x37x512xf32>
    %433 = stablehlo.multiply %cst_5, %432 : tensor<2x37x512xf32>
    %434 = stablehlo.add %433, %cst_4 : tensor<2x37x512xf32>
    %435 = stablehlo.multiply %434, %432 : tensor<2x37x512xf32>
    %436 = stablehlo.add %435, %cst_3 : tensor<2x37x512xf32>
    %437 = stablehlo.multiply %436, %432 : tensor<2x37x512xf32>
    %438 = stablehlo.add %437, %cst_2 : tensor<2x37x512xf32>
    %439 = stablehlo.multiply %438, %432 : tensor<2x37x512xf32>
    %440 = stablehlo.add %439, %cst_1 : tensor<2x37x512xf32>
    %441 = stablehlo.multiply %440, %432 : tensor<2x37x512xf32>
    %442 = stablehlo.add %441, %cst_0 : tensor<2x37x512xf32>
    %443 = stablehlo.multiply %442, %432 : tensor<2x37x512xf32>
    %444 = stablehlo.add %443, %cst : tensor<2x37x512xf32>
    %445 = stablehlo.multiply %386, %444 : tensor<2x37x512xf32>
    %446 = stablehlo.subtract %cst_26, %445 : tensor<2x37x512xf32>
    %447 = stablehlo.abs %386 : tensor<2x37x512xf32>
    %448 = stablehlo.compare LT, %447, %cst_26 : (tensor<2x37x512xf32>, tensor<2x37x512xf32>) -> tensor<2x37x512xi1>
    %449 = stablehlo.select %448, %446, %431 : tensor<2x37x512xi1>, tensor<2x37x512xf32>
    %450 = stablehlo.multiply %383, %449 : tensor<2x37x512xf32>
    %451 = stablehlo.reshape %450 : (tensor<2x37x512xf32>) -> tensor<74x512xf32>
    %452 = stablehlo.transpose %arg34, dims = [1, 0] : (tensor<128x512xf32>) -> tensor<512x128xf32>
    %453 = stablehlo.broadcast_in_dim %cst_35, dims = [] : (tensor<f32>) -> tensor<128xf32>
    %454 = stablehlo.multiply %arg35, %453 : tensor<128xf32>
    %455 = stablehlo.dot_general %451, %452, contracting_dims = [1] x [0] : (tensor<74x512xf32>, tensor<512x128xf32>) -> tensor<74x128xf32>
    %456 = stablehlo.broadcast_in_dim %cst_35, dims = [] : (tensor<f32>) -> tensor<74x128xf32>
    %457 = stablehlo.multiply %456, %455 : tensor<74x128xf32>
    %458 = stablehlo.broadcast_in_dim %454, dims = [1] : (tensor<128xf32>) -> tensor<1x128xf32>
    %459 = stablehlo.broadcast_in_dim %458, dims = [0, 1] : (tensor<1x128xf32>) -> tensor<74x128xf32>
    %460 = stablehlo.add %459, %457 : tensor<74x128xf32>
    %461 = stablehlo.reshape %460 : (tensor<74x128xf32>) -> tensor<2x37x128xf32>
    %462 = stablehlo.broadcast_in_dim %cst_35, dims = [] : (tensor<f32>) -> tensor<2x37x128xf32>
    %463 = stablehlo.multiply %352, %462 : tensor<2x37x128xf32>
    %464 = stablehlo.add %461, %463 : tensor<2x37x128xf32>
    %465 = stablehlo.reduce(%464 init: %cst_33) applies stablehlo.add across dimensions = [2] : (tensor<2x37x128xf32>, tensor<f32>) -> tensor<2x37xf32>
    %466 = stablehlo.broadcast_in_dim %465, dims = [0, 1] : (tensor<2x37xf32>) -> tensor<2x37x1xf32>
    %467 = stablehlo.broadcast_in_dim %cst_32, dims = [] : (tensor<f32>) -> tensor<2x37x1xf32>
    %468 = stablehlo.divide %466, %467 : tensor<2x37x1xf32>
    %469 = call @_var(%464, %c_34) : (tensor<2x37x128xf32>, tensor<i64>) -> tensor<2x37x1xf32>
    %470 = stablehlo.broadcast_in_dim %cst_31, dims = [] : (tensor<f32>) -> tensor<2x37x1xf32>
    %471 = stablehlo.add %469, %470 : tensor<2x37x1xf32>
    %472 = stablehlo.rsqrt %471 : tensor<2x37x1xf32>
    %473 = stablehlo.broadcast_in_dim %468, dims = [0, 1, 2] : (tensor<2x37x1xf32>) -> tensor<2x37x128xf32>
    %474 = stablehlo.subtract %464, %473 : tensor<2x37x128xf32>
    %475 = stablehlo.broadcast_in_dim %472, dims = [0, 1, 2] : (tensor<2x37x1xf32>) -> tensor<2x37x128xf32>
    %476 = stablehlo.multiply %474, %475 : tensor<2x37x128xf32>
    %477 = stablehlo.broadcast_in_dim %arg36, dims = [2] : (tensor<128xf32>) -> tensor<1x1x128xf32>
    %478 = stablehlo.broadcast_in_dim %477, dims = [0, 1, 2] : (tensor<1x1x128xf32>) -> tensor<2x37x128xf32>
    %479 = stablehlo.multiply %476, %478 : tensor<2x37x128xf32>
    %480 = stablehlo.broadcast_in_dim %arg37, dims = [2] : (tensor<128xf32>) -> tensor<1x1x128xf32>
    %481 = stablehlo.broadcast_in_dim %480, dims = [0, 1, 2] : (tensor<1x1x128xf32>) -> tensor<2x37x128xf32>
    %482 = stablehlo.add %479, %481 : tensor<2x37x128xf32>
    %483 = stablehlo.slice %482 [0:2, 0:1, 0:128] : (tensor<2x37x128xf32>) -> tensor<2x1x128xf32>
    %484 = stablehlo.reshape %483 : (tensor<2x1x128xf32>) -> tensor<2x128xf32>
    %485 = stablehlo.transpose %arg38, dims = [1, 0] : (tensor<128x128xf32>) -> tensor<128x128xf32>
    %486 = stablehlo.broadcast_in_dim %cst_35, dims = [] : (tensor<f32>) -> tensor<128xf32>
    %487 = stablehlo.multiply %arg39, %486 : tensor<128xf32>
    %488 = stablehlo.dot_general %484, %485, contracting_dims = [1] x [0] : (tensor<2x128xf32>, tensor<128x128xf32>) -> tensor<2x128xf32>
    %489 = stablehlo.broadcast_in_dim %cst_35, dims = [] : (tensor<f32>) -> tensor<2x128xf32>
    %490 = stablehlo.multiply %489, %488 : tensor<2x128xf32>
    %491 = stablehlo.broadcast_in_dim %487, dims = [1] : (tensor<128xf32>) -> tensor<1x128xf32>
    %492 = stablehlo.broadcast_in_dim %491, dims = [0, 1] : (tensor<1x128xf32>) -> tensor<2x128xf32>
    %493 = stablehlo.add %492, %490 : tensor<2x128xf32>
    %494 = stablehlo.tanh %493 : tensor<2x128xf32>
    return %482, %494 : tensor<2x37x128xf32>, tensor<2x128xf32>
  }
  func.func private @_var(%arg0: tensor<2x37x128xf32>, %arg1: tensor<i64>) -> tensor<2x37x1xf32> {
    %cst = stablehlo.constant dense<0x7FF8000000000000> : tensor<f64>
    %cst_0 = stablehlo.constant dense<1.280000e+02> : tensor<f32>
    %cst_1 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %0 = stablehlo.reduce(%arg0 init: %cst_1) applies stablehlo.add across dimensions = [2] : (tensor<2x37x128xf32>, tensor<f32>) -> tensor<2x37xf32>
    %1 = stablehlo.broadcast_in_dim %0, dims = [0, 1] : (tensor<2x37xf32>) -> tensor<2x37x1xf32>
    %2 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<f32>) -> tensor<2x37x1xf32>
    %3 = stablehlo.divide %1, %2 : tensor<2x37x1xf32>
    %4 = stablehlo.broadcast_in_dim %3, dims = [0, 1, 2] : (tensor<2x37x1xf32>) -> tensor<2x37x128xf32>
    %5 = stablehlo.subtract %arg0, %4 : tensor<2x37x128xf32>
    %6 = stablehlo.multiply %5, %5 : tensor<2x37x128xf32>
    %7 = stablehlo.convert %arg1 : (tensor<i64>) -> tensor<f32>
    %8 = stablehlo.subtract %cst_0, %7 : tensor<f32>
    %9 = stablehlo.reduce(%6 init: %cst_1) applies stablehlo.add across dimensions = [2] : (tensor<2x37x128xf32>, tensor<f32>) -> tensor<2x37xf32>
    %10 = stablehlo.broadcast_in_dim %9, dims = [0, 1] : (tensor<2x37xf32>) -> tensor<2x37x1xf32>
    %11 = stablehlo.broadcast_in_dim %8, dims = [] : (tensor<f32>) -> tensor<2x37x1xf32>
    %12 = stablehlo.divide %10, %11 : tensor<2x37x1xf32>
    %13 = stablehlo.compare GT, %8, %cst_1, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
    %14 = call @_where(%13, %12, %cst) : (tensor<i1>, tensor<2x37x1xf32>, tensor<f64>) -> tensor<2x37x1xf32>
    return %14 : tensor<2x37x1xf32>
  }
  func.func private @_where(%arg0: tensor<i1>, %arg1: tensor<2x37x1xf32>, %arg2: tensor<f64>) -> tensor<2x37x1xf32> {
    %0 = stablehlo.convert %arg2 : (tensor<f64>) -> tensor<f32>
    %1 = stablehlo.broadcast_in_dim %0, dims = [] : (tensor<f32>) -> tensor<2x37x1xf32>
    %2 = stablehlo.select %arg0, %arg1, %1 : tensor<i1>, tensor<2x37x1xf32>
    return %2 : tensor<2x37x1xf32>
  }
  func.func private @_where_0(%arg0: tensor<2x1x37x37xi1>, %arg1: tensor<f32>, %arg2: tensor<f32>) -> tensor<2x1x37x37xf32> {
    %0 = stablehlo.broadcast_in_dim %arg1, dims = [] : (tensor<f32>) -> tensor<2x1x37x37xf32>
    %1 = stablehlo.broadcast_in_dim %arg2, dims = [] : (tensor<f32>) -> tensor<2x1x37x37xf32>
    %2 = stablehlo.select %arg0, %0, %1 : tensor<2x1x37x37xi1>, tensor<2x1x37x37xf32>
    return %2 : tensor<2x1x37x37xf32>
  }
  func.func private @_where_1(%arg0: tensor<2x2x37x1xi1>, %arg1: tensor<2x2x37x37xf32>, %arg2: tensor<2x2x37x37xf32>) -> tensor<2x2x37x37xf32> {
    %0 = stablehlo.broadcast_in_dim %arg0, dims = [0, 1, 2, 3] : (tensor<2x2x37x1xi1>) -> tensor<2x2x37x37xi1>
    %1 = stablehlo.select %0, %arg1, %arg2 : tensor<2x2x37x37xi1>, tensor<2x2x37x37xf32>
    return %1 : tensor<2x2x37x37xf32>
  }
}
