"""One context shared by 16 threads: invocations never see each other's registers."""
import threading

from vmasm import context_for

PROGRAM = """
module @shared
global @base : i64 = 0
func @__init() -> () export {
entry:
  %b = const.i64 1000
  global.store.i64 %b, @base
  ret
}
func @work(%seed: i64, %n: i32) -> (i64, i32) export {
entry:
  %acc = global.load.i64 @base
  %i = const.i32 0
  %one = const.i32 1
  %l = list.alloc %n
  list.resize %l, %n
  br loop
loop:
  %wide = ext.i32.i64.s %i
  %t = mul.i64 %seed, %wide
  %acc = add.i64 %acc, %t
  list.set.i64 %l, %i, %acc
  %i = add.i32 %i, %one
  %c = cmp.lt.s.i32 %i, %n
  cond_br %c, loop, done
done:
  %size = list.size %l
  %r = call @tail(%acc)
  ret %r, %size
}
func @tail(%x: i64) -> (i64) {
entry:
  %two = const.i64 2
  %y = mul.i64 %x, %two
  ret %y
}
"""


def test_sixteen_threads_share_one_context():
    ctx = context_for(PROGRAM)
    errors, results = [], {}
    start = threading.Barrier(16)

    def worker(k):
        try:
            start.wait()
            for rep in range(30):
                seed, n = k * 7 + rep, 50 + k
                got = ctx.invoke("work", [seed, n])
                want = 2 * (1000 + seed * n * (n - 1) // 2)
                if got != [want, n]:
                    errors.append((k, rep, got, want))
            results[k] = True
        except BaseException as e:          # noqa: BLE001 - report any failure
            errors.append((k, repr(e)))

    threads = [threading.Thread(target=worker, args=(k,)) for k in range(16)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    assert not errors, errors[:3]
    assert len(results) == 16
