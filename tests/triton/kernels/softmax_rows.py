# A test kernel: a row softmax in the style of Triton's fused-softmax tutorial — one program per
# row, a masked 1-d load, max and sum reductions, a masked store. Not a copy, transpose or
# matmul: it evaluates, and the bridge to sim refuses it.
# launch: out_ptr=100x200:fp32 in_ptr=100x200:fp32 in_row_stride=200 out_row_stride=200
# launch: n_cols=200 BLOCK_SIZE=256 grid=100
import triton
import triton.language as tl


@triton.jit
def softmax_kernel(out_ptr, in_ptr, in_row_stride, out_row_stride, n_cols,
                   BLOCK_SIZE: tl.constexpr):
    row = tl.program_id(0)
    row_start_ptr = in_ptr + row * in_row_stride
    col_offsets = tl.arange(0, BLOCK_SIZE)
    input_ptrs = row_start_ptr + col_offsets
    mask = col_offsets < n_cols
    row_x = tl.load(input_ptrs, mask=mask, other=-float('inf'))
    row_minus_max = row_x - tl.max(row_x, axis=0)
    numerator = tl.exp(row_minus_max)
    denominator = tl.sum(numerator, axis=0)
    softmax_output = numerator / denominator
    out_row_start_ptr = out_ptr + row * out_row_stride
    tl.store(out_row_start_ptr + col_offsets, softmax_output, mask=mask)
