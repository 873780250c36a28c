# A test kernel: split-K matmul. Each program adds its K slice's partial product into C with
# tl.atomic_add, which the subset refuses (line and column named).
# launch: a_ptr=512x2048:fp16 b_ptr=2048x512:fp16 c_ptr=512x512:fp32 M=512 N=512 K=2048
# launch: BLOCK_M=64 BLOCK_N=64 BLOCK_K=64 SPLIT_K=4 grid=64,4
import triton
import triton.language as tl


@triton.jit
def split_k_matmul(a_ptr, b_ptr, c_ptr, M, N, K, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr,
                   BLOCK_K: tl.constexpr, SPLIT_K: tl.constexpr):
    pid = tl.program_id(0)
    pid_k = tl.program_id(1)
    num_pid_n = tl.cdiv(N, BLOCK_N)
    pid_m = pid // num_pid_n
    pid_n = pid % num_pid_n
    offs_m = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    offs_n = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    k_per_split = K // SPLIT_K
    for k0 in range(pid_k * k_per_split, (pid_k + 1) * k_per_split, BLOCK_K):
        offs_k = k0 + tl.arange(0, BLOCK_K)
        a = tl.load(a_ptr + offs_m[:, None] * K + offs_k[None, :])
        b = tl.load(b_ptr + offs_k[:, None] * N + offs_n[None, :])
        acc += tl.dot(a, b)
    c_ptrs = c_ptr + offs_m[:, None] * N + offs_n[None, :]
    tl.atomic_add(c_ptrs, acc)
