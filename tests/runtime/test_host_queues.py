"""Host transfers: infeed / outfeed / send and recv with ``is_host_transfer``,
compiled to ``hal.host_queue`` calls and served by ``module.host_queues``
(runtime/host_queues.py, docs/host_transfers.md)."""
import shutil
import threading
import time

import numpy as np
import pytest

from tensorvm import runtime
from tensorvm.compiler import compile_str
from tensorvm.compiler.errors import UnsupportedOpError
from tensorvm.hal.channel import PeerFailedError
from tensorvm.runtime import HostQueues, HostQueueTimeoutError, HostQueueTypeError, Token
from tensorvm.runtime.errors import InvalidArgumentError
from tensorvm.runtime.parallel import ParallelCallError

pytestmark = pytest.mark.skipif(shutil.which("cc") is None, reason="needs a C compiler")

T = "tensor<2x2xi64>"
TOK = "!stablehlo.token"


def _handle(h, kind):
    return f"channel_handle = #stablehlo.channel_handle<handle = {h}, type = {kind}>, " \
           f"is_host_transfer = true"


# infeed twice (a kernel between: the pop's result is read by a dispatch),
# an infeed of two tensors, outfeed of a computed value, send/recv per handle,
# and a loop that infeeds on every iteration (a token carried by the while).
PROGRAM = f"""
module @host_io {{
  func.func @feed(%t: {TOK}) -> ({T}, {T}, {TOK}) {{
    %a:2 = "stablehlo.infeed"(%t) : ({TOK}) -> ({T}, {TOK})
    %d = stablehlo.multiply %a#0, %a#0 : {T}
    %b:2 = "stablehlo.infeed"(%a#1) : ({TOK}) -> ({T}, {TOK})
    return %d, %b#0, %b#1 : {T}, {T}, {TOK}
  }}
  func.func @feed_pair() -> (tensor<3xf32>, tensor<i32>) {{
    %t = stablehlo.create_token : {TOK}
    %r:3 = "stablehlo.infeed"(%t) {{infeed_config = ""}} : ({TOK}) -> (tensor<3xf32>, tensor<i32>, {TOK})
    return %r#0, %r#1 : tensor<3xf32>, tensor<i32>
  }}
  func.func @out(%x: {T}) -> {TOK} {{
    %t = stablehlo.after_all : {TOK}
    %y = stablehlo.add %x, %x : {T}
    %r = "stablehlo.outfeed"(%y, %t) : ({T}, {TOK}) -> {TOK}
    %r2 = "stablehlo.outfeed"(%x, %y, %r) : ({T}, {T}, {TOK}) -> {TOK}
    return %r2 : {TOK}
  }}
  func.func @send(%x: {T}, %t: {TOK}) -> {TOK} {{
    %y = stablehlo.negate %x : {T}
    %r = "stablehlo.send"(%y, %t) {{{_handle(1, 2)}}} : ({T}, {TOK}) -> {TOK}
    %r2 = "stablehlo.send"(%x, %r) {{{_handle(1, 2)}}} : ({T}, {TOK}) -> {TOK}
    return %r2 : {TOK}
  }}
  func.func @recv(%t: {TOK}) -> ({T}, {T}) {{
    %a:2 = "stablehlo.recv"(%t) {{{_handle(1, 3)}}} : ({TOK}) -> ({T}, {TOK})
    %b:2 = "stablehlo.recv"(%a#1) {{{_handle(1, 3)}}} : ({TOK}) -> ({T}, {TOK})
    %s = stablehlo.subtract %b#0, %a#0 : {T}
    return %a#0, %s : {T}, {T}
  }}
  func.func @recv7() -> {T} {{
    %t = stablehlo.after_all : {TOK}
    %a:2 = "stablehlo.recv"(%t) {{{_handle(7, 3)}}} : ({TOK}) -> ({T}, {TOK})
    return %a#0 : {T}
  }}
  func.func @sum_feed(%n: tensor<i64>) -> tensor<i64> {{
    %t0 = stablehlo.after_all : {TOK}
    %z = stablehlo.constant dense<0> : tensor<i64>
    %w:3 = stablehlo.while(%i = %z, %acc = %z, %t = %t0) : tensor<i64>, tensor<i64>, {TOK}
     cond {{
      %c = stablehlo.compare LT, %i, %n : (tensor<i64>, tensor<i64>) -> tensor<i1>
      stablehlo.return %c : tensor<i1>
    }} do {{
      %v:2 = "stablehlo.infeed"(%t) : ({TOK}) -> (tensor<i64>, {TOK})
      %one = stablehlo.constant dense<1> : tensor<i64>
      %i2 = stablehlo.add %i, %one : tensor<i64>
      %a2 = stablehlo.add %acc, %v#0 : tensor<i64>
      stablehlo.return %i2, %a2, %v#1 : tensor<i64>, tensor<i64>, {TOK}
    }}
    return %w#1 : tensor<i64>
  }}
}}
"""


@pytest.fixture(scope="module")
def vmfb():
    return compile_str(PROGRAM, targets=["cpu"])


def a2(*xs):
    return np.array(xs, np.int64).reshape(2, 2)


def check_two_infeeds(m):
    """@feed pops two entries in push order (the first squared by a kernel)."""
    q = m.host_queues
    q.infeed.push(a2(1, 2, 3, 4))
    q.infeed.push(a2(5, 6, 7, 8))
    d, b, tok = m.feed(Token())
    np.testing.assert_array_equal(np.asarray(d), a2(1, 4, 9, 16))
    np.testing.assert_array_equal(np.asarray(b), a2(5, 6, 7, 8))
    assert tok is Token() and len(q.infeed) == 0


@pytest.mark.parametrize("device", ["local-sync", "local-task"])
def test_infeed_pops_entries_in_order(vmfb, device):
    m = runtime.load_module(vmfb, device=device, timeout_s=5)
    check_two_infeeds(m)
    q = m.host_queues
    q.infeed.push(np.array([1.5, 2, 3], np.float32), np.array(7, np.int32))   # one entry, two arrays
    x, n = m.feed_pair()
    np.testing.assert_array_equal(np.asarray(x), [1.5, 2, 3])
    assert int(np.asarray(n)) == 7


def test_infeed_in_a_loop_carries_its_token(vmfb):
    m = runtime.load_module(vmfb, device="local-sync", timeout_s=5)
    for v in (10, 20, 30):
        m.host_queues.infeed.push(np.array(v, np.int64))
    assert int(np.asarray(m.sum_feed(np.array(3, np.int64)))) == 60
    assert len(m.host_queues.infeed) == 0


def test_infeed_entry_of_the_wrong_type_names_both(vmfb):
    m = runtime.load_module(vmfb, device="local-sync", timeout_s=5)
    q = m.host_queues.infeed
    q.push(np.zeros(3, np.int64))
    with pytest.raises(HostQueueTypeError, match=r"infeed: array #0 of the entry is tensor<3xi64>, "
                                                 r"the program expects tensor<2x2xi64>") as e:
        m.feed(Token())
    assert e.value.queue == "infeed" and isinstance(e.value, InvalidArgumentError)
    q.push(np.zeros((2, 2), np.int32))
    with pytest.raises(HostQueueTypeError, match=r"tensor<2x2xi32>, the program expects tensor<2x2xi64>"):
        m.feed(Token())
    q.push(np.zeros(3, np.float32))                    # one array where two are expected
    with pytest.raises(HostQueueTypeError, match=r"holds 1 arrays .*expects 2"):
        m.feed_pair()
    with pytest.raises(HostQueueTypeError, match="push numpy arrays"):
        q.push([[1, 2], [3, 4]])


def test_empty_infeed_times_out_naming_the_queue(vmfb):
    m = runtime.load_module(vmfb, device="local-sync", timeout_s=5)
    m.host_queues.timeout_s = 0.3
    t0 = time.monotonic()
    with pytest.raises(HostQueueTimeoutError, match=r"stablehlo.infeed on infeed: no entry within "
                                                    r"0.3 s") as e:
        m.feed(Token())
    assert 0.25 < time.monotonic() - t0 < 3 and e.value.queue == "infeed"


def test_outfeed_pushes_computed_operands(vmfb):
    m = runtime.load_module(vmfb, device="local-task", timeout_s=5)
    x = a2(1, -2, 3, 4)
    assert m.out(x) is Token()
    q = m.host_queues.outfeed
    np.testing.assert_array_equal(q.pop(0), 2 * x)          # one array: the array itself
    first, second = q.pop(0)                                # two operands: a tuple
    np.testing.assert_array_equal(first, x)
    np.testing.assert_array_equal(second, 2 * x)
    with pytest.raises(HostQueueTimeoutError, match=r"pop on outfeed: no entry within 0.05 s"):
        q.pop(0.05)


def test_host_channel_fifo_per_handle(vmfb):
    m = runtime.load_module(vmfb, device="local-sync", timeout_s=5)
    x = a2(1, 2, 3, 4)
    m.send(x, Token())
    ch = m.host_queues.channel(1)
    assert len(ch) == 2 and set(m.host_queues.channels) == {1}
    np.testing.assert_array_equal(ch.pop(0), -x)             # sent first, popped first
    np.testing.assert_array_equal(ch.pop(0), x)
    ch.push(a2(1, 1, 1, 1))                                  # the host feeds the recvs
    ch.push(a2(4, 5, 6, 7))
    first, diff = m.recv(Token())
    np.testing.assert_array_equal(np.asarray(first), a2(1, 1, 1, 1))
    np.testing.assert_array_equal(np.asarray(diff), a2(3, 4, 5, 6))


def test_send_feeds_recv_across_ranks(vmfb):
    """Two ranks of one ParallelModule share the host: the send of one is the
    recv of the other (StableHLO's run_parallel), whichever runs first."""
    pm = runtime.load_module(vmfb, device="local-task", replicas=2, timeout_s=5)
    x = a2(2, 4, 6, 8)
    for _ in range(3):                          # repeatable: nothing is left over
        calls = [(pm.modules[0].send, (x, Token())), (pm.modules[1].recv, (Token(),))]
        from tensorvm.runtime.parallel import run_ranks
        tok, (first, diff) = run_ranks(calls, pm.channels, host_queues=pm.host_queues)
        assert tok is Token()
        np.testing.assert_array_equal(np.asarray(first), -x)
        np.testing.assert_array_equal(np.asarray(diff), 2 * x)
        assert len(pm.host_queues.channel(1)) == 0


def test_modules_share_host_queues(vmfb):
    hq = HostQueues(timeout_s=5)
    producer = runtime.load_module(vmfb, device="local-sync", host_queues=hq)
    consumer = runtime.load_module(vmfb, device="local-task", host_queues=hq)
    assert producer.host_queues is hq and consumer.host_queues is hq
    done = []
    t = threading.Thread(target=lambda: done.append(consumer.recv(Token())))
    t.start()                                    # waits for the producer's sends
    time.sleep(0.1)
    producer.send(a2(1, 2, 3, 4), Token())
    t.join(10)
    first, diff = done[0]
    np.testing.assert_array_equal(np.asarray(first), -a2(1, 2, 3, 4))
    np.testing.assert_array_equal(np.asarray(diff), 2 * a2(1, 2, 3, 4))


def test_recv_without_send_times_out_naming_the_channel(vmfb):
    m = runtime.load_module(vmfb, device="local-task", timeout_s=5)
    m.host_queues.timeout_s = 0.3
    with pytest.raises(HostQueueTimeoutError, match=r"stablehlo.recv on channel 7: no entry within "
                                                    r"0.3 s \(no send on this channel") as e:
        m.recv7()
    assert e.value.queue == "channel 7"
    m.host_queues.channel(7).push(a2(9, 9, 9, 9))            # the next call finds it
    np.testing.assert_array_equal(np.asarray(m.recv7()), a2(9, 9, 9, 9))


def test_recv_waits_without_blocking_the_caller(vmfb):
    """invoke_async of a recv returns at once; the push completes it."""
    m = runtime.load_module(vmfb, device="local-task", timeout_s=5)
    fut = m.recv7.invoke_async()
    time.sleep(0.1)
    assert not fut.done()
    m.host_queues.channel(7).push(a2(1, 2, 3, 4))
    np.testing.assert_array_equal(np.asarray(fut.result(10)), a2(1, 2, 3, 4))


def test_cancelled_recv_leaves_the_next_entry_queued(vmfb):
    m = runtime.load_module(vmfb, device="local-task", timeout_s=5)
    m.host_queues.timeout_s = 1
    fut = m.recv7.invoke_async()
    time.sleep(0.1)
    assert fut.cancel()
    m.host_queues.channel(7).push(a2(5, 5, 5, 5))      # refused by the cancelled pop
    assert len(m.host_queues.channel(7)) == 1
    np.testing.assert_array_equal(np.asarray(m.recv7()), a2(5, 5, 5, 5))


def test_one_scheduler_thread_drives_receiver_and_sender(vmfb):
    """On local-sync both async calls run on the scheduler's one thread: the
    recv suspends instead of blocking it, so the send can run and feed it."""
    m = runtime.load_module(vmfb, device="local-sync", timeout_s=5)
    x = a2(3, 1, 4, 1)
    got = m.recv.invoke_async(Token())
    sent = m.send.invoke_async(x, Token())
    assert sent.result(10) is Token()
    first, diff = got.result(10)
    np.testing.assert_array_equal(np.asarray(first), -x)
    np.testing.assert_array_equal(np.asarray(diff), 2 * x)


def test_failed_sender_fails_the_waiting_receiver_at_once(vmfb):
    pm = runtime.load_module(vmfb, device="local-sync", replicas=2, timeout_s=20)
    from tensorvm.runtime.parallel import run_ranks
    bad = np.zeros((3, 3), np.int64)                         # the sender's call fails
    t0 = time.monotonic()
    with pytest.raises(ParallelCallError, match="rank 0 failed: InvalidArgumentError") as e:
        run_ranks([(pm.modules[0].send, (bad, Token())), (pm.modules[1].recv, (Token(),))],
                  pm.channels, host_queues=pm.host_queues)
    assert time.monotonic() - t0 < 5                          # not the 20 s timeout
    assert isinstance(e.value.errors[1], PeerFailedError) and e.value.errors[1].rank == 0
    assert "channel 1" in str(e.value.errors[1])
    x = a2(1, 2, 3, 4)                                        # the queues recovered
    _, (first, _) = run_ranks([(pm.modules[0].send, (x, Token())),
                               (pm.modules[1].recv, (Token(),))], pm.channels,
                              host_queues=pm.host_queues)
    np.testing.assert_array_equal(np.asarray(first), -x)


def test_token_arguments_are_checked(vmfb):
    m = runtime.load_module(vmfb, device="local-sync", timeout_s=5)
    with pytest.raises(InvalidArgumentError, match=r"feed: argument 'arg0' \(#0\): expected a token"):
        m.feed(np.zeros(1))
    assert "arg0: !stablehlo.token" in repr(m.feed)


def test_device_to_device_send_is_a_typed_error():
    text = f"""
    func.func @main(%x: {T}) -> {TOK} {{
      %t = stablehlo.after_all : {TOK}
      %r = "stablehlo.send"(%x, %t) {{channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>}} : ({T}, {TOK}) -> {TOK}
      return %r : {TOK}
    }}"""
    with pytest.raises(UnsupportedOpError, match=r"stablehlo.send.*is_host_transfer = false"):
        compile_str(text, targets=["cpu"])


def test_compiled_imports_match_the_hal_module():
    """Every hal import compiled code makes (host_queue.* from the contract in
    vmfb/host_transfers.py among them) has the hal module's signature."""
    from tensorvm.compiler.host.vm_host import HAL_IMPORTS
    from tensorvm.runtime.modules.hal import FUNCTIONS
    from tensorvm.vmfb import host_transfers
    for name, sig in host_transfers.SIGNATURES.items():
        assert HAL_IMPORTS[name] == sig == FUNCTIONS[name][0]
    assert {n: c for n, c in HAL_IMPORTS.items() if FUNCTIONS[n][0] != c} == {}


@pytest.mark.parametrize("driver", ["opencl", "cuda"])
def test_host_transfers_on_gpu_drivers(driver):
    """Pops write device buffers and pushes read them back on every driver."""
    from tensorvm import hal
    reason = hal.registry.driver_availability(driver)
    if reason:
        pytest.skip(f"{driver} unavailable: {reason}")
    m = runtime.load_module(compile_str(PROGRAM, targets=[driver]), device=driver, timeout_s=60)
    check_two_infeeds(m)
    q = m.host_queues
    assert m.out(a2(1, 2, 3, 4)) is Token()
    np.testing.assert_array_equal(q.outfeed.pop(0), a2(2, 4, 6, 8))
    m.send(a2(1, 2, 3, 4), Token())
    first, diff = m.recv(Token())
    np.testing.assert_array_equal(np.asarray(first), -a2(1, 2, 3, 4))
    np.testing.assert_array_equal(np.asarray(diff), a2(2, 4, 6, 8))


@pytest.mark.parametrize("device", ["local-sync", "local-task"])
def test_streaming_sample(device):
    """samples/host_io: one call loops over infeed batches, outfeeding each
    result while the host keeps pushing."""
    import importlib.util
    import pathlib
    path = pathlib.Path(__file__).resolve().parents[2] / "samples" / "host_io" / "run.py"
    spec = importlib.util.spec_from_file_location("host_io_sample", path)
    sample = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(sample)
    assert sample.stream(device, batches=6) == 6
