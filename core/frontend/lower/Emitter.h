//===- Emitter.h - Lowering state and helpers -------------------*- C++ -*-===//
//
// The Emitter walks a jit function's syntax tree and builds tile IR. Python
// semantics (scoping, constexpr folding, static `if`) are applied while
// walking; Triton semantics (type promotion, broadcasting, pointer
// arithmetic) live in Semantics.cpp; library calls in Builtins*.cpp.
//
//===----------------------------------------------------------------------===//

#ifndef TLE_FRONTEND_LOWER_EMITTER_H
#define TLE_FRONTEND_LOWER_EMITTER_H

#include "core/frontend/AST.h"
#include "core/frontend/Diagnostics.h"
#include "core/frontend/Module.h"
#include "core/frontend/lower/Lowering.h"
#include "core/frontend/lower/TValue.h"
#include "core/frontend/lower/Types.h"
#include "mlir/IR/Builders.h"
#include "mlir/Support/LogicalResult.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/StringMap.h"

#include <variant>

namespace tle::frontend {

/// One argument of a call, with the expression it came from (for
/// diagnostics; null for arguments the compiler synthesized).
struct CallArg {
  TValue Value;
  const Node *Source = nullptr;
};

struct CallArgs {
  std::vector<CallArg> Positional;
  std::vector<std::pair<std::string, CallArg>> Keywords;
};

/// Arguments bound to a parameter list by name.
class BoundArgs {
public:
  /// The argument bound to `Name`, or null when it was not passed.
  const CallArg *get(llvm::StringRef Name) const;
  bool has(llvm::StringRef Name) const;
  /// Extra positional arguments of a `*args` parameter.
  std::vector<CallArg> Rest;

private:
  friend class Emitter;
  llvm::StringMap<CallArg> ByName;
};

/// Lowering failures are reported when they happen; a failed result only
/// unwinds.
using Result = mlir::FailureOr<TValue>;

class Emitter {
public:
  /// `Loader`, when given, finds jit functions the kernel's file imports
  /// from other modules.
  Emitter(const Module &M, mlir::MLIRContext &Context, DiagnosticEngine &Diags,
          ModuleLoader *Loader = nullptr);

  mlir::OwningOpRef<mlir::ModuleOp> lowerKernel(const FunctionDef &F,
                                                const KernelSpec &Spec);

  //===--- Diagnostics and locations --------------------------------------===//
  mlir::LogicalResult error(const Node *N, const llvm::Twine &Msg);
  mlir::LogicalResult error(llvm::SMRange R, const llvm::Twine &Msg);
  /// A note at N that is not an error (tl.static_print's text).
  void note(const Node *N, const llvm::Twine &Msg);
  mlir::Location loc(llvm::SMLoc L);
  mlir::Location loc(const Node *N) {
    return N ? loc(N->getLoc()) : CurrentLoc;
  }

  //===--- Binding and calling --------------------------------------------===//
  /// Binds `Args` to `Params` ("*rest" collects extra positionals); the
  /// first `NumRequired` parameters must be passed.
  mlir::FailureOr<BoundArgs> bind(const CallArgs &Args,
                                  llvm::ArrayRef<llvm::StringRef> Params,
                                  unsigned NumRequired, llvm::StringRef FnName,
                                  const Node *Site);
  Result call(const TValue &Callee, CallArgs &Args, const Node *Site);
  Result callJit(const FunctionDef &F, CallArgs &Args, const Node *Site);
  Result callBuiltin(llvm::StringRef Name, CallArgs &Args, const Node *Site);
  Result callMethod(const TValue &Self, llvm::StringRef Name, CallArgs &Args,
                    const Node *Site);

  //===--- Triton semantics (Semantics.cpp) -------------------------------===//
  /// Materializes a constexpr number as an IR scalar of Triton's default
  /// type (i32, or i64 when it does not fit; fp32; i1).
  mlir::FailureOr<TValue> toIR(const TValue &V, const Node *Site);
  mlir::FailureOr<mlir::Value> toIRValue(const TValue &V, const Node *Site);
  /// Converts an IR value (or constexpr) to `To` keeping its shape.
  Result convert(const TValue &V, DType To, const Node *Site,
              bool Bitcast = false);
  /// Broadcasts an IR value to `Shape` (splatting scalars).
  Result broadcastTo(const TValue &V, llvm::ArrayRef<int64_t> Shape,
                     const Node *Site);
  /// Brings two IR values to one shape (Triton's broadcast_impl_value).
  mlir::LogicalResult broadcastPair(TValue &L, TValue &R, const Node *Site);
  /// Brings any number of values to one shape (scalars stay scalars when
  /// all are).
  mlir::LogicalResult broadcastAll(llvm::MutableArrayRef<TValue> Values,
                                   const Node *Site);
  /// Triton's computation type for an arithmetic operation.
  /// The same for a computed type `L` (a tile's, never a weak scalar's).
  mlir::FailureOr<DType> promote(DType L, const TValue &R, bool DivOrMod,
                                 const Node *Site);
  mlir::FailureOr<DType> promote(const TValue &L, const TValue &R,
                                 bool DivOrMod, const Node *Site);
  /// The loop variable's type for range() bounds (Triton's visit_For).
  mlir::FailureOr<DType> promoteLoopBounds(llvm::ArrayRef<TValue> Bounds,
                                           const Node *Site);
  Result binaryOp(BinaryOpKind Op, const TValue &L, const TValue &R,
                  const Node *Site);
  Result compare(CmpOpKind Op, const TValue &L, const TValue &R,
                 const Node *Site);
  Result unaryOp(UnaryOpKind Op, const TValue &V, const Node *Site);
  /// arith.select with Triton's promotion of the two branches.
  Result where(const TValue &Cond, const TValue &X, const TValue &Y,
               const Node *Site);
  /// Triton's `/` on floats: fp32 division may be approximate (Triton
  /// emits div.full.f32 on NVIDIA, at most 2 ulp), marked `afn` for the
  /// backend; other widths divide exactly. tl.math.div_rn is the exact one.
  mlir::Value trueDivide(mlir::Value X, mlir::Value Y, mlir::Location L);
  /// A constexpr scalar splat into a tile of `Shape` and type `Elem`.
  mlir::Value splatConstant(const TValue &V, DType Elem,
                            llvm::ArrayRef<int64_t> Shape, const Node *Site);

  //===--- Requirements on arguments (for builtins) -----------------------===//
  mlir::FailureOr<int64_t> requireInt(const CallArg *A, llvm::StringRef What,
                                      const Node *Site);
  mlir::FailureOr<std::vector<int64_t>>
  requireShape(const CallArg *A, llvm::StringRef What, const Node *Site);
  mlir::FailureOr<DType> requireDType(const CallArg *A, llvm::StringRef What,
                                      const Node *Site);
  mlir::FailureOr<std::string> requireStr(const CallArg *A,
                                          llvm::StringRef What,
                                          const Node *Site);
  /// An IR value (constexpr numbers are materialized).
  Result requireIR(const CallArg *A, llvm::StringRef What, const Node *Site);
  /// An IR tile (not a scalar).
  Result requireTensor(const CallArg *A, llvm::StringRef What,
                       const Node *Site);

  //===--- Expressions and statements -------------------------------------===//
  Result lowerExpr(const Expr *E);
  mlir::LogicalResult lowerBlock(StmtList Body);
  /// The body of a loop (or parallel region): a `return` in it stays an
  /// error, so an `if` that returns there does not take the rest of the
  /// function into its branches.
  mlir::LogicalResult lowerLoopBody(StmtList Body);
  mlir::LogicalResult lowerStmt(const Stmt *S);
  mlir::LogicalResult assign(const Expr *Target, const TValue &V);

  /// Lowers a combiner (jit function or lambda) of `Inputs` on scalar block
  /// arguments (two elements of each input) into `Body`, ending with the
  /// terminator built by `MakeTerminator`.
  mlir::LogicalResult
  lowerCombiner(const TValue &Fn, mlir::Block &Body,
                llvm::ArrayRef<TValue> Inputs, const Node *Site,
                llvm::function_ref<void(mlir::ValueRange)> MakeTerminator);

  /// Bindings of the current function, so that a region without results
  /// (tle_struct.parallel) can keep names bound inside it from leaking out.
  llvm::StringMap<TValue> saveLocals() { return frame().Vars; }
  void restoreLocals(llvm::StringMap<TValue> Vars) {
    frame().Vars = std::move(Vars);
  }

  mlir::OpBuilder &getBuilder() { return B; }
  mlir::MLIRContext *getContext() { return &Context; }
  const Module &getModule() const { return M; }

  /// Names that a statement list may (re)bind, in first-assignment order.
  static void collectAssignedNames(StmtList Body,
                                   llvm::SmallVectorImpl<std::string> &Names);

  /// TLE-Lite pipes: reads and writes seen while lowering the kernel, so
  /// that a pipe read with nothing writing to it (a reader that would wait
  /// forever) is an error at its first read when the kernel is complete.
  void notePipeRead(mlir::Value Pipe, const Node *Site) {
    if (!PipeUses[Pipe].FirstRead)
      PipeUses[Pipe].FirstRead = Site;
  }
  void notePipeWrite(mlir::Value Pipe) { PipeUses[Pipe].Written = true; }
  /// Which fields of a pipe are unsigned integers (or pointers to them):
  /// the pipe's type keeps only signless types.
  void setPipeFieldsUnsigned(mlir::Value Pipe, llvm::SmallVector<bool> Flags) {
    PipeUses[Pipe].FieldsUnsigned = std::move(Flags);
  }
  bool isPipeFieldUnsigned(mlir::Value Pipe, size_t Field) const {
    auto It = PipeUses.find(Pipe);
    return It != PipeUses.end() && Field < It->second.FieldsUnsigned.size() &&
           It->second.FieldsUnsigned[Field];
  }

private:
  struct PipeUse {
    const Node *FirstRead = nullptr;
    bool Written = false;
    llvm::SmallVector<bool> FieldsUnsigned;
  };
  llvm::MapVector<mlir::Value, PipeUse> PipeUses;

  struct Frame {
    llvm::StringMap<TValue> Vars;
    const FunctionDef *Fn = nullptr;
    /// The module whose names the frame's code sees (null: the kernel's).
    const Module *Mod = nullptr;
    /// Set by `return` at the end of an inlined function body.
    std::optional<TValue> ReturnValue;
    /// Loops (and parallel regions) the current statement is in.
    unsigned LoopDepth = 0;
    /// What runs after the blocks of the returning ifs being lowered, the
    /// outermost first (lowerReturningIf).
    std::vector<StmtList> Continuations;
  };

  Result lookupName(const NameExpr *N);
  /// A triton name as a value: the dtype for `triton.language.float16`
  /// (however imported), else the builtin of its canonical name.
  TValue builtinOrDType(llvm::StringRef Dotted);
  Result lowerConstant(const ConstantExpr *C);
  Result lowerJoinedStr(const JoinedStrExpr *E);
  Result lowerCall(const CallExpr *C);
  Result lowerAttribute(const AttributeExpr *A);
  Result lowerSubscript(const SubscriptExpr *S);
  /// Seq[lower:upper:step] of a constexpr tuple or string, as Python slices.
  Result sliceSequence(const TValue &Seq, const SliceExpr *Slice);
  Result lowerBoolOp(const BoolOpExpr *E);
  Result lowerCompare(const CompareExpr *E);
  Result lowerIfExp(const IfExpExpr *E);
  Result attributeOf(const TValue &V, llvm::StringRef Attr, const Node *Site);
  Result evalModuleConstant(const Module &Mod, const ModuleConstant &C);
  /// The module the current code's names resolve in.
  const Module &mod() {
    return !Frames.empty() && frame().Mod ? *frame().Mod : M;
  }
  /// The module the part of `Dotted` before its last dot names (a resolved
  /// name such as "flag_gems.utils.triton_lang_extension.program_id"),
  /// loaded; `Name` is set to the last part. Null when there is no loader or
  /// no such module.
  const Module *loadImportedModule(llvm::StringRef Dotted,
                                   llvm::StringRef &Name);
  /// What `Dotted` names in another module: a jit function, or a
  /// module-level constant (or function alias) evaluated, following a name
  /// the module imports itself (ReExports: levels followed); none if neither.
  std::optional<Result> lookupImported(llvm::StringRef Dotted,
                                       unsigned ReExports = 0);
  /// The public function `tl.<Name>` of the jit libraries (the random
  /// numbers, also as `tl.random.<Name>`, and triton.language.standard),
  /// each parsed on first use; null if none has it.
  const FunctionDef *getLibraryFunction(llvm::StringRef Name);
  /// Whether Mod is one of the jit libraries.
  bool isLibrary(const Module &Mod) const;
  /// The module whose names `F`'s body sees.
  const Module &getOwner(const FunctionDef &F);

  mlir::LogicalResult lowerIf(const IfStmt *S);
  /// An `if`'s condition: its truth when it is a compile-time value, else
  /// the i1 it converts to.
  mlir::FailureOr<std::variant<bool, mlir::Value>>
  lowerIfCondition(const IfStmt *S);
  /// An `if` with a `return` in it, outside loops: the statements after it
  /// (`Rest`, then those after each enclosing `if` of the function) run at
  /// the end of whichever branch does not return, and the function's result
  /// is the scf.if's.
  mlir::LogicalResult lowerReturningIf(const IfStmt *S, StmtList Rest);
  /// `Body`, then the pending continuations innermost first, until a
  /// `return`; falling off the end returns None.
  mlir::LogicalResult lowerTail(StmtList Body);
  mlir::LogicalResult lowerFor(const ForStmt *S);
  mlir::LogicalResult lowerStaticFor(const ForStmt *S,
                                     const std::vector<int64_t> &Values);
  mlir::LogicalResult lowerWhile(const WhileStmt *S);
  mlir::LogicalResult lowerReturn(const ReturnStmt *S);
  mlir::LogicalResult lowerAssert(const AssertStmt *S);

  /// A name carried through a loop, with its value when the loop starts:
  /// its run-time parts (numbers materialized, a tuple's elements, a block
  /// pointer's offsets) become the loop's iteration values.
  struct CarriedName {
    std::string Name;
    TValue Shape;
  };
  /// The names of `Names` bound in the frame, and their run-time parts in
  /// order (`Leaves`).
  mlir::LogicalResult
  collectCarried(llvm::ArrayRef<std::string> Names, const Node *Site,
                 std::vector<CarriedName> &Carried,
                 llvm::SmallVectorImpl<mlir::Value> &Leaves);
  /// Binds each carried name to its value rebuilt from `Leaves`.
  void bindCarried(llvm::ArrayRef<CarriedName> Carried,
                   mlir::ValueRange Leaves);
  /// The run-time parts of the carried names' current values, converted to
  /// `Types`; each value must keep the structure it started the loop with.
  mlir::FailureOr<llvm::SmallVector<mlir::Value>>
  yieldCarried(llvm::ArrayRef<CarriedName> Carried, mlir::TypeRange Types,
               const Node *Site);

  Frame &frame() { return Frames.back(); }

  const Module &M;
  ModuleLoader *Loader;
  mlir::MLIRContext &Context;
  DiagnosticEngine &Diags;
  mlir::OpBuilder B;
  mlir::Location CurrentLoc;
  std::vector<Frame> Frames;
  /// Format specs already reported as ignored (a function lowers once per
  /// specialization and call site).
  llvm::DenseSet<const JoinedStrExpr *> WarnedFormatSpecs;
  /// The parsed jit libraries (getLibraryFunction).
  std::unique_ptr<Module> RandomLibrary, StandardLibrary;
  /// Evaluated module constants, per module.
  llvm::DenseMap<std::pair<const Module *, llvm::StringRef>, TValue>
      ModuleConstants;
  unsigned InlineDepth = 0;
};

} // namespace tle::frontend

#endif // TLE_FRONTEND_LOWER_EMITTER_H
