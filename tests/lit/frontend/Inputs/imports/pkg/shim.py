# FlagGems' utils/triton_lang_helper.py idiom: the math library is picked
# by probing the device when the module is imported, with
# triton.language.extra.libdevice as the handler's fallback.


def device_math_library():
    raise ImportError("no device here")


try:
    math_lib = device_math_library()
except ImportError:
    import triton.language.extra.libdevice

    try:
        math_lib = triton.language.extra.libdevice
    except AttributeError:
        math_lib = triton.language.math
