import triton
import triton.language as tl


@triton.jit
def descriptor_attributes(x_ptr, y_ptr, n):
    x_desc = tl.make_tensor_descriptor(x_ptr, shape=[n, 64], strides=[64, 1],
                                       block_shape=[16, 32])
    y_desc = tl.make_tensor_descriptor(y_ptr, shape=[n, 64], strides=[64, 1],
                                       block_shape=x_desc.block_shape)
    tile = x_desc.load([0, 0])
    y_desc.store([0, 0], (tile * 2).to(y_desc.dtype))
