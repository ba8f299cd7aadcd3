//===- TLEAttrs.td - Enums and attributes of the tle dialect -*- tablegen -*-===//

#ifndef TLE_ATTRS_TD
#define TLE_ATTRS_TD

include "dialects/TLE/TLEDialect.td"
include "mlir/IR/EnumAttr.td"

class TLE_I32Enum<string name, string summary, list<I32EnumAttrCase> cases>
    : I32EnumAttr<name, summary, cases> {
  let genSpecializedAttr = 0;
  let cppNamespace = "::mlir::tle";
}
class TLE_KeywordEnum<string name, string summary, list<I32EnumAttrCase> cases>
    : I32EnumAttr<name, summary, cases> {
  let cppNamespace = "::mlir::tle";
}
class TLE_EnumAttr<EnumAttrInfo info, string mnemonic>
    : EnumAttr<TLE_Dialect, info, mnemonic> {
  let assemblyFormat = "`<` $value `>`";
}

def TLE_CacheModifier : TLE_I32Enum<"CacheModifier", "cache modifier of a load or store", [
  I32EnumAttrCase<"None", 0, "none">, I32EnumAttrCase<"CA", 1, "ca">,
  I32EnumAttrCase<"CG", 2, "cg">, I32EnumAttrCase<"CS", 3, "cs">,
  I32EnumAttrCase<"WB", 4, "wb">, I32EnumAttrCase<"WT", 5, "wt">,
  I32EnumAttrCase<"CV", 6, "cv">]>;
def TLE_CacheModifierAttr : TLE_EnumAttr<TLE_CacheModifier, "cache">;

def TLE_EvictionPolicy : TLE_I32Enum<"EvictionPolicy", "eviction policy hint", [
  I32EnumAttrCase<"Normal", 0, "normal">,
  I32EnumAttrCase<"EvictFirst", 1, "evict_first">,
  I32EnumAttrCase<"EvictLast", 2, "evict_last">]>;
def TLE_EvictionPolicyAttr : TLE_EnumAttr<TLE_EvictionPolicy, "evict">;

def TLE_RMWKindAttr : TLE_KeywordEnum<"RMWKind", "atomic read-modify-write operation", [
  I32EnumAttrCase<"Add", 0, "add">, I32EnumAttrCase<"FAdd", 1, "fadd">,
  I32EnumAttrCase<"Max", 2, "max">, I32EnumAttrCase<"Min", 3, "min">,
  I32EnumAttrCase<"UMax", 4, "umax">, I32EnumAttrCase<"UMin", 5, "umin">,
  I32EnumAttrCase<"And", 6, "and">, I32EnumAttrCase<"Or", 7, "or">,
  I32EnumAttrCase<"Xor", 8, "xor">, I32EnumAttrCase<"Xchg", 9, "xchg">]>;

def TLE_MemSemantic : TLE_I32Enum<"MemSemantic", "memory ordering of an atomic", [
  I32EnumAttrCase<"Relaxed", 0, "relaxed">,
  I32EnumAttrCase<"Acquire", 1, "acquire">,
  I32EnumAttrCase<"Release", 2, "release">,
  I32EnumAttrCase<"AcqRel", 3, "acq_rel">]>;
def TLE_MemSemanticAttr : TLE_EnumAttr<TLE_MemSemantic, "sem">;

def TLE_MemScope : TLE_I32Enum<"MemScope", "set of threads an atomic is coherent with", [
  I32EnumAttrCase<"Block", 0, "block">, I32EnumAttrCase<"Cluster", 1, "cluster">,
  I32EnumAttrCase<"Device", 2, "device">, I32EnumAttrCase<"System", 3, "system">]>;
def TLE_MemScopeAttr : TLE_EnumAttr<TLE_MemScope, "scope">;

def TLE_RoundingMode : TLE_I32Enum<"RoundingMode", "floating-point rounding mode", [
  I32EnumAttrCase<"RTNE", 0, "rtne">, I32EnumAttrCase<"RTZ", 1, "rtz">]>;
def TLE_RoundingModeAttr : TLE_EnumAttr<TLE_RoundingMode, "rounding">;

def TLE_InputPrecision : TLE_I32Enum<"InputPrecision", "precision of fp32 dot inputs", [
  I32EnumAttrCase<"TF32", 0, "tf32">, I32EnumAttrCase<"TF32x3", 1, "tf32x3">,
  I32EnumAttrCase<"IEEE", 2, "ieee">]>;
def TLE_InputPrecisionAttr : TLE_EnumAttr<TLE_InputPrecision, "precision">;

def TLE_PaddingOption : TLE_I32Enum<"PaddingOption", "value of out-of-bounds descriptor elements", [
  I32EnumAttrCase<"Zero", 0, "zero">, I32EnumAttrCase<"NaN", 1, "nan">]>;
def TLE_PaddingOptionAttr : TLE_EnumAttr<TLE_PaddingOption, "padding">;

def TLE_SignalKindAttr : TLE_KeywordEnum<"SignalKind", "update applied by tle.signal", [
  I32EnumAttrCase<"Set", 0, "set">, I32EnumAttrCase<"Add", 1, "add">]>;

def TLE_WaitCmpAttr : TLE_KeywordEnum<"WaitCmp", "condition tle.signal_wait waits for", [
  I32EnumAttrCase<"EQ", 0, "eq">, I32EnumAttrCase<"NE", 1, "ne">,
  I32EnumAttrCase<"GE", 2, "ge">, I32EnumAttrCase<"GT", 3, "gt">,
  I32EnumAttrCase<"LE", 4, "le">, I32EnumAttrCase<"LT", 5, "lt">]>;

def TLE_RemoteSpace : TLE_I32Enum<"RemoteSpace", "where a remote pointer points", [
  I32EnumAttrCase<"Cluster", 0, "cluster">, I32EnumAttrCase<"Device", 1, "device">,
  I32EnumAttrCase<"Node", 2, "node">]>;
def TLE_RemoteSpaceAttr : TLE_EnumAttr<TLE_RemoteSpace, "remote">;

#endif // TLE_ATTRS_TD
