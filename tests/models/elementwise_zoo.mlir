module @jit_zoo attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<16xf32>, %arg1: tensor<16xf32>, %arg2: tensor<16xf64>, %arg3: tensor<16xf64>, %arg4: tensor<16xi32>, %arg5: tensor<16xi32>) -> (tensor<16xf32> {jax.result_info = "result[0]"}, tensor<16xf32> {jax.result_info = "result[1]"}, tensor<16xf32> {jax.result_info = "result[2]"}, tensor<16xf32> {jax.result_info = "result[3]"}, tensor<16xf32> {jax.result_info = "result[4]"}, tensor<16xf32> {jax.result_info = "result[5]"}, tensor<16xf32> {jax.result_info = "result[6]"}, tensor<16xf32> {jax.result_info = "result[7]"}, tensor<16xf32> {jax.result_info = "result[8]"}, tensor<16xf32> {jax.result_info = "result[9]"}, tensor<16xf32> {jax.result_info = "result[10]"}, tensor<16xf32> {jax.result_info = "result[11]"}, tensor<16xf32> {jax.result_info = "result[12]"}, tensor<16xf32> {jax.result_info = "result[13]"}, tensor<16xf32> {jax.result_info = "result[14]"}, tensor<16xf32> {jax.result_info = "result[15]"}, tensor<16xf32> {jax.result_info = "result[16]"}, tensor<16xf32> {jax.result_info = "result[17]"}, tensor<16xf32> {jax.result_info = "result[18]"}, tensor<16xf32> {jax.result_info = "result[19]"}, tensor<16xf32> {jax.result_info = "result[20]"}, tensor<16xf32> {jax.result_info = "result[21]"}, tensor<16xf32> {jax.result_info = "result[22]"}, tensor<16xf32> {jax.result_info = "result[23]"}, tensor<16xf32> {jax.result_info = "result[24]"}, tensor<16xf32> {jax.result_info = "result[25]"}, tensor<16xf32> {jax.result_info = "result[26]"}, tensor<16xf32> {jax.result_info = "result[27]"}, tensor<16xf32> {jax.result_info = "result[28]"}, tensor<16xf32> {jax.result_info = "result[29]"}, tensor<16xf32> {jax.result_info = "result[30]"}, tensor<16xf32> {jax.result_info = "result[31]"}, tensor<16xf64> {jax.result_info = "result[32]"}, tensor<16xf64> {jax.result_info = "result[33]"}, tensor<16xf64> {jax.result_info = "result[34]"}, tensor<16xf64> {jax.result_info = "result[35]"}, tensor<16xf64> {jax.result_info = "result[36]"}, tensor<16xf64> {jax.result_info = "result[37]"}, tensor<16xf64> {jax.result_info = "result[38]"}, tensor<16xf64> {jax.result_info = "result[39]"}, tensor<16xf64> {jax.result_info = "result[40]"}, tensor<16xf64> {jax.result_info = "result[41]"}, tensor<16xi32> {jax.result_info = "result[42]"}, tensor<16xi32> {jax.result_info = "result[43]"}, tensor<16xi32> {jax.result_info = "result[44]"}, tensor<16xi32> {jax.result_info = "result[45]"}, tensor<16xi32> {jax.result_info = "result[46]"}, tensor<16xi32> {jax.result_info = "result[47]"}, tensor<16xi32> {jax.result_info = "result[48]"}, tensor<16xi32> {jax.result_info = "result[49]"}, tensor<16xi32> {jax.result_info = "result[50]"}, tensor<16xi32> {jax.result_info = "result[51]"}, tensor<16xi32> {jax.result_info = "result[52]"}, tensor<16xi32> {jax.result_info = "result[53]"}, tensor<16xi32> {jax.result_info = "result[54]"}, tensor<16xi32> {jax.result_info = "result[55]"}, tensor<16xi32> {jax.result_info = "result[56]"}, tensor<16xi32> {jax.result_info = "result[57]"}, tensor<16xi32> {jax.result_info = "result[58]"}, tensor<16xi32> {jax.result_info = "result[59]"}, tensor<16xi32> {jax.result_info = "result[60]"}, tensor<16xi32> {jax.result_info = "result[61]"}, tensor<16xi32> {jax.result_info = "result[62]"}, tensor<16xi1> {jax.result_info = "result[63]"}, tensor<16xi1> {jax.result_info = "result[64]"}, tensor<16xi1> {jax.result_info = "result[65]"}, tensor<16xi1> {jax.result_info = "result[66]"}, tensor<16xi1> {jax.result_info = "result[67]"}, tensor<16xi1> {jax.result_info = "result[68]"}, tensor<16xi1> {jax.result_info = "result[69]"}, tensor<16xi1> {jax.result_info = "result[70]"}, tensor<16xi1> {jax.result_info = "result[71]"}, tensor<16xi1> {jax.result_info = "result[72]"}, tensor<16xi1> {jax.result_info = "result[73]"}, tensor<16xi1> {jax.result_info = "result[74]"}, tensor<16xi1> {jax.result_info = "result[75]"}, tensor<16xi1> {jax.result_info = "result[76]"}) {
    %0 = stablehlo.abs %arg0 : tensor<16xf32>
    %cst = stablehlo.constant dense<5.000000e-01> : tensor<f32>
    %1 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<16xf32>
    %2 = stablehlo.add %0, %1 : tensor<16xf32>
    %3 = stablehlo.abs %arg0 : tensor<16xf32>
    %4 = stablehlo.negate %arg0 : tensor<16xf32>
    %5 = stablehlo.exponential %arg0 : tensor<16xf32>
    %6 = stablehlo.log %2 : tensor<16xf32>
    %7 = stablehlo.abs %arg0 : tensor<16xf32>
    %8 = stablehlo.log_plus_one %7 : tensor<16xf32>
    %9 = stablehlo.exponential_minus_one %arg0 : tensor<16xf32>
    %10 = stablehlo.sqrt %2 : tensor<16xf32>
    %11 = stablehlo.rsqrt %2 : tensor<16xf32>
    %12 = stablehlo.cbrt %arg0 : tensor<16xf32>
    %13 = stablehlo.tanh %arg0 : tensor<16xf32>
    %14 = stablehlo.negate %arg0 : tensor<16xf32>
    %15 = stablehlo.exponential %14 : tensor<16xf32>
    %cst_0 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %16 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<f32>) -> tensor<16xf32>
    %17 = stablehlo.add %16, %15 : tensor<16xf32>
    %cst_1 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %18 = stablehlo.broadcast_in_dim %cst_1, dims = [] : (tensor<f32>) -> tensor<16xf32>
    %19 = stablehlo.divide %18, %17 : tensor<16xf32>
    %20 = stablehlo.sine %arg0 : tensor<16xf32>
    %21 = stablehlo.cosine %arg0 : tensor<16xf32>
    %cst_2 = stablehlo.constant dense<5.000000e-01> : tensor<f32>
    %22 = stablehlo.broadcast_in_dim %cst_2, dims = [] : (tensor<f32>) -> tensor<16xf32>
    %23 = stablehlo.multiply %arg0, %22 : tensor<16xf32>
    %24 = stablehlo.tan %23 : tensor<16xf32>
    %25 = stablehlo.floor %arg0 : tensor<16xf32>
    %26 = stablehlo.ceil %arg0 : tensor<16xf32>
    %27 = stablehlo.round_nearest_even %arg0 : tensor<16xf32>
    %28 = stablehlo.round_nearest_afz %arg0 : tensor<16xf32>
    %29 = stablehlo.sign %arg0 : tensor<16xf32>
    %30 = stablehlo.add %arg0, %arg1 : tensor<16xf32>
    %31 = stablehlo.subtract %arg0, %arg1 : tensor<16xf32>
    %32 = stablehlo.multiply %arg0, %arg1 : tensor<16xf32>
    %33 = stablehlo.divide %arg0, %arg1 : tensor<16xf32>
    %34 = stablehlo.maximum %arg0, %arg1 : tensor<16xf32>
    %35 = stablehlo.minimum %arg0, %arg1 : tensor<16xf32>
    %36 = stablehlo.power %2, %arg1 : tensor<16xf32>
    %37 = stablehlo.atan2 %arg0, %arg1 : tensor<16xf32>
    %38 = stablehlo.remainder %arg0, %arg1 : tensor<16xf32>
    %cst_3 = stablehlo.constant dense<-5.000000e-01> : tensor<f32>
    %cst_4 = stablehlo.constant dense<5.000000e-01> : tensor<f32>
    %39 = stablehlo.broadcast_in_dim %cst_3, dims = [] : (tensor<f32>) -> tensor<16xf32>
    %40 = stablehlo.broadcast_in_dim %cst_4, dims = [] : (tensor<f32>) -> tensor<16xf32>
    %41 = stablehlo.clamp %39, %arg0, %40 : tensor<16xf32>
    %42 = stablehlo.compare GT, %arg0, %arg1, FLOAT : (tensor<16xf32>, tensor<16xf32>) -> tensor<16xi1>
    %cst_5 = stablehlo.constant dense<2.000000e+00> : tensor<f32>
    %43 = stablehlo.broadcast_in_dim %cst_5, dims = [] : (tensor<f32>) -> tensor<16xf32>
    %44 = stablehlo.multiply %arg1, %43 : tensor<16xf32>
    %45 = stablehlo.select %42, %arg0, %44 : tensor<16xi1>, tensor<16xf32>
    %46 = stablehlo.convert %arg4 : (tensor<16xi32>) -> tensor<16xf32>
    %47 = stablehlo.convert %arg2 : (tensor<16xf64>) -> tensor<16xf32>
    %48 = stablehlo.add %arg2, %arg3 : tensor<16xf64>
    %49 = stablehlo.multiply %arg2, %arg3 : tensor<16xf64>
    %50 = stablehlo.divide %arg2, %arg3 : tensor<16xf64>
    %51 = stablehlo.exponential %arg2 : tensor<16xf64>
    %52 = stablehlo.abs %arg2 : tensor<16xf64>
    %cst_6 = stablehlo.constant dense<1.000000e+00> : tensor<f64>
    %53 = stablehlo.broadcast_in_dim %cst_6, dims = [] : (tensor<f64>) -> tensor<16xf64>
    %54 = stablehlo.add %52, %53 : tensor<16xf64>
    %55 = stablehlo.log %54 : tensor<16xf64>
    %56 = stablehlo.abs %arg3 : tensor<16xf64>
    %57 = stablehlo.sqrt %56 : tensor<16xf64>
    %58 = stablehlo.tanh %arg2 : tensor<16xf64>
    %59 = stablehlo.maximum %arg2, %arg3 : tensor<16xf64>
    %60 = stablehlo.compare LE, %arg2, %arg3, FLOAT : (tensor<16xf64>, tensor<16xf64>) -> tensor<16xi1>
    %61 = stablehlo.select %60, %arg2, %arg3 : tensor<16xi1>, tensor<16xf64>
    %62 = stablehlo.convert %arg0 : (tensor<16xf32>) -> tensor<16xf64>
    %63 = stablehlo.add %arg4, %arg5 : tensor<16xi32>
    %64 = stablehlo.subtract %arg4, %arg5 : tensor<16xi32>
    %65 = stablehlo.multiply %arg4, %arg5 : tensor<16xi32>
    %66 = stablehlo.divide %arg4, %arg5 : tensor<16xi32>
    %67 = stablehlo.remainder %arg4, %arg5 : tensor<16xi32>
    %68 = stablehlo.negate %arg4 : tensor<16xi32>
    %69 = stablehlo.abs %arg4 : tensor<16xi32>
    %70 = stablehlo.sign %arg4 : tensor<16xi32>
    %71 = stablehlo.maximum %arg4, %arg5 : tensor<16xi32>
    %72 = stablehlo.minimum %arg4, %arg5 : tensor<16xi32>
    %c = stablehlo.constant dense<-3> : tensor<i32>
    %c_7 = stablehlo.constant dense<3> : tensor<i32>
    %73 = stablehlo.broadcast_in_dim %c, dims = [] : (tensor<i32>) -> tensor<16xi32>
    %74 = stablehlo.broadcast_in_dim %c_7, dims = [] : (tensor<i32>) -> tensor<16xi32>
    %75 = stablehlo.clamp %73, %arg4, %74 : tensor<16xi32>
    %76 = stablehlo.and %arg4, %arg5 : tensor<16xi32>
    %77 = stablehlo.or %arg4, %arg5 : tensor<16xi32>
    %78 = stablehlo.xor %arg4, %arg5 : tensor<16xi32>
    %79 = stablehlo.not %arg4 : tensor<16xi32>
    %c_8 = stablehlo.constant dense<2> : tensor<i32>
    %80 = stablehlo.broadcast_in_dim %c_8, dims = [] : (tensor<i32>) -> tensor<16xi32>
    %81 = stablehlo.shift_left %arg4, %80 : tensor<16xi32>
    %c_9 = stablehlo.constant dense<1> : tensor<i32>
    %82 = stablehlo.broadcast_in_dim %c_9, dims = [] : (tensor<i32>) -> tensor<16xi32>
    %83 = stablehlo.shift_right_arithmetic %arg4, %82 : tensor<16xi32>
    %c_10 = stablehlo.constant dense<1> : tensor<i32>
    %84 = stablehlo.broadcast_in_dim %c_10, dims = [] : (tensor<i32>) -> tensor<16xi32>
    %85 = stablehlo.shift_right_logical %arg4, %84 : tensor<16xi32>
    %86 = stablehlo.popcnt %arg4 : tensor<16xi32>
    %cst_11 = stablehlo.constant dense<1.000000e+01> : tensor<f32>
    %87 = stablehlo.broadcast_in_dim %cst_11, dims = [] : (tensor<f32>) -> tensor<16xf32>
    %88 = stablehlo.multiply %arg0, %87 : tensor<16xf32>
    %89 = stablehlo.convert %88 : (tensor<16xf32>) -> tensor<16xi32>
    %90 = stablehlo.compare EQ, %arg4, %arg5, SIGNED : (tensor<16xi32>, tensor<16xi32>) -> tensor<16xi1>
    %91 = stablehlo.select %90, %arg4, %arg5 : tensor<16xi1>, tensor<16xi32>
    %92 = stablehlo.compare LT, %arg0, %arg1, FLOAT : (tensor<16xf32>, tensor<16xf32>) -> tensor<16xi1>
    %93 = stablehlo.compare LE, %arg0, %arg1, FLOAT : (tensor<16xf32>, tensor<16xf32>) -> tensor<16xi1>
    %94 = stablehlo.compare EQ, %arg0, %arg1, FLOAT : (tensor<16xf32>, tensor<16xf32>) -> tensor<16xi1>
    %95 = stablehlo.compare NE, %arg0, %arg1, FLOAT : (tensor<16xf32>, tensor<16xf32>) -> tensor<16xi1>
    %96 = stablehlo.compare GE, %arg0, %arg1, FLOAT : (tensor<16xf32>, tensor<16xf32>) -> tensor<16xi1>
    %97 = stablehlo.compare GT, %arg0, %arg1, FLOAT : (tensor<16xf32>, tensor<16xf32>) -> tensor<16xi1>
    %98 = stablehlo.compare LT, %arg2, %arg3, FLOAT : (tensor<16xf64>, tensor<16xf64>) -> tensor<16xi1>
    %99 = stablehlo.compare LT, %arg4, %arg5, SIGNED : (tensor<16xi32>, tensor<16xi32>) -> tensor<16xi1>
    %100 = stablehlo.compare GE, %arg4, %arg5, SIGNED : (tensor<16xi32>, tensor<16xi32>) -> tensor<16xi1>
    %101 = stablehlo.subtract %arg1, %arg1 : tensor<16xf32>
    %102 = stablehlo.divide %arg0, %101 : tensor<16xf32>
    %103 = stablehlo.is_finite %102 : (tensor<16xf32>) -> tensor<16xi1>
    %104 = stablehlo.compare LT, %arg0, %arg1, FLOAT : (tensor<16xf32>, tensor<16xf32>) -> tensor<16xi1>
    %c_12 = stablehlo.constant dense<0> : tensor<i32>
    %105 = stablehlo.broadcast_in_dim %c_12, dims = [] : (tensor<i32>) -> tensor<16xi32>
    %106 = stablehlo.compare GT, %arg4, %105, SIGNED : (tensor<16xi32>, tensor<16xi32>) -> tensor<16xi1>
    %107 = stablehlo.and %104, %106 : tensor<16xi1>
    %108 = stablehlo.compare LT, %arg0, %arg1, FLOAT : (tensor<16xf32>, tensor<16xf32>) -> tensor<16xi1>
    %c_13 = stablehlo.constant dense<0> : tensor<i32>
    %109 = stablehlo.broadcast_in_dim %c_13, dims = [] : (tensor<i32>) -> tensor<16xi32>
    %110 = stablehlo.compare GT, %arg4, %109, SIGNED : (tensor<16xi32>, tensor<16xi32>) -> tensor<16xi1>
    %111 = stablehlo.or %108, %110 : tensor<16xi1>
    %112 = stablehlo.compare LT, %arg0, %arg1, FLOAT : (tensor<16xf32>, tensor<16xf32>) -> tensor<16xi1>
    %c_14 = stablehlo.constant dense<0> : tensor<i32>
    %113 = stablehlo.broadcast_in_dim %c_14, dims = [] : (tensor<i32>) -> tensor<16xi32>
    %114 = stablehlo.compare GT, %arg4, %113, SIGNED : (tensor<16xi32>, tensor<16xi32>) -> tensor<16xi1>
    %115 = stablehlo.xor %112, %114 : tensor<16xi1>
    %116 = stablehlo.compare LT, %arg0, %arg1, FLOAT : (tensor<16xf32>, tensor<16xf32>) -> tensor<16xi1>
    %117 = stablehlo.not %116 : tensor<16xi1>
    return %3, %4, %5, %6, %8, %9, %10, %11, %12, %13, %19, %20, %21, %24, %25, %26, %27, %28, %29, %30, %31, %32, %33, %34, %35, %36, %37, %38, %41, %45, %46, %47, %48, %49, %50, %51, %55, %57, %58, %59, %61, %62, %63, %64, %65, %66, %67, %68, %69, %70, %71, %72, %75, %76, %77, %78, %79, %81, %83, %85, %86, %89, %91, %92, %93, %94, %95, %96, %97, %98, %99, %100, %103, %107, %111, %115, %117 : tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf64>, tensor<16xf64>, tensor<16xf64>, tensor<16xf64>, tensor<16xf64>, tensor<16xf64>, tensor<16xf64>, tensor<16xf64>, tensor<16xf64>, tensor<16xf64>, tensor<16xi32>, tensor<16xi32>, tensor<16xi32>, tensor<16xi32>, tensor<16xi32>, tensor<16xi32>, tensor<16xi32>, tensor<16xi32>, tensor<16xi32>, tensor<16xi32>, tensor<16xi32>, tensor<16xi32>, tensor<16xi32>, tensor<16xi32>, tensor<16xi32>, tensor<16xi32>, tensor<16xi32>, tensor<16xi32>, tensor<16xi32>, tensor<16xi32>, tensor<16xi32>, tensor<16xi1>, tensor<16xi1>, tensor<16xi1>, tensor<16xi1>, tensor<16xi1>, tensor<16xi1>, tensor<16xi1>, tensor<16xi1>, tensor<16xi1>, tensor<16xi1>, tensor<16xi1>, tensor<16xi1>, tensor<16xi1>, tensor<16xi1>
  }
}
