// One call serves a stream: each iteration takes a batch from the infeed,
// runs a dense layer on it and puts the activations on the outfeed.  The
// host pushes batches and pops results while the call runs (run.py).
module @stream {
  func.func @main(%w: tensor<3x2xf32>, %b: tensor<2xf32>, %n: tensor<i32>) -> tensor<i32> {
    %t0 = stablehlo.after_all : !stablehlo.token
    %zero = stablehlo.constant dense<0> : tensor<i32>
    %r:2 = stablehlo.while(%i = %zero, %t = %t0) : tensor<i32>, !stablehlo.token
     cond {
      %c = stablehlo.compare LT, %i, %n : (tensor<i32>, tensor<i32>) -> tensor<i1>
      stablehlo.return %c : tensor<i1>
    } do {
      %x:2 = "stablehlo.infeed"(%t) : (!stablehlo.token) -> (tensor<4x3xf32>, !stablehlo.token)
      %y = stablehlo.dot_general %x#0, %w, contracting_dims = [1] x [0] : (tensor<4x3xf32>, tensor<3x2xf32>) -> tensor<4x2xf32>
      %bb = stablehlo.broadcast_in_dim %b, dims = [1] : (tensor<2xf32>) -> tensor<4x2xf32>
      %z = stablehlo.add %y, %bb : tensor<4x2xf32>
      %a = stablehlo.tanh %z : tensor<4x2xf32>
      %o = "stablehlo.outfeed"(%a, %x#1) : (tensor<4x2xf32>, !stablehlo.token) -> !stablehlo.token
      %one = stablehlo.constant dense<1> : tensor<i32>
      %i2 = stablehlo.add %i, %one : tensor<i32>
      stablehlo.return %i2, %o : tensor<i32>, !stablehlo.token
    }
    return %r#0 : tensor<i32>
  }
}
