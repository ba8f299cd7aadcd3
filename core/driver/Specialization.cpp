//===- Specialization.cpp - What one kernel is compiled with --------------===//
//
// Part of the TLE project.
//
//===----------------------------------------------------------------------===//

#include "core/driver/Specialization.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/StringSaver.h"

using namespace llvm;
using namespace tle::driver;

Expected<std::pair<std::string, std::string>>
tle::driver::parseDefine(StringRef Text) {
  auto [Name, Value] = Text.split('=');
  Name = Name.trim();
  Value = Value.trim();
  if (!Text.contains('=') || Name.empty() || Value.empty())
    return createStringError("-D" + Text + ": expected -D NAME=VALUE");
  return std::make_pair(Name.str(), Value.str());
}

std::optional<std::string> tle::driver::findSourceArgsLine(StringRef Source) {
  static constexpr StringLiteral Marker = "# tlec-args:";
  for (StringRef Line : llvm::split(Source, '\n'))
    if (Line.trim().starts_with(Marker))
      return Line.trim().drop_front(Marker.size()).trim().str();
  return std::nullopt;
}

/// The value of `--NAME=V`, `--NAME V`, `-NAME V` at Args[I] (advancing I
/// past it), or std::nullopt if Args[I] is not that option.
static Expected<std::optional<StringRef>>
takeValue(ArrayRef<const char *> Args, size_t &I, StringRef Name) {
  StringRef Arg = Args[I];
  StringRef Bare = Arg.starts_with("--") ? Arg.drop_front(2)
                                         : Arg.starts_with("-") ? Arg.drop_front(1)
                                                                : StringRef();
  if (Bare == Name) {
    if (I + 1 >= Args.size())
      return createStringError(Arg + " needs a value");
    return std::optional<StringRef>(Args[++I]);
  }
  if (Bare.consume_front(Name) && Bare.consume_front("="))
    return std::optional<StringRef>(Bare);
  return std::optional<StringRef>();
}

static Error parseUnsigned(StringRef Option, StringRef Value, unsigned &Out) {
  if (Value.getAsInteger(10, Out))
    return createStringError("--" + Option + "=" + Value +
                             ": expected a number");
  return Error::success();
}

Expected<Specialization> tle::driver::parseSourceArgs(StringRef Line) {
  BumpPtrAllocator Alloc;
  StringSaver Saver(Alloc);
  SmallVector<const char *> Args;
  cl::TokenizeGNUCommandLine(Line, Saver, Args);
  Specialization Spec;
  for (size_t I = 0; I < Args.size(); ++I) {
    StringRef Arg = Args[I];
    if (Arg.starts_with("-D")) {
      StringRef Text = Arg.drop_front(2);
      if (Text.empty()) {
        if (I + 1 >= Args.size())
          return createStringError("-D needs NAME=VALUE");
        Text = Args[++I];
      }
      Expected<std::pair<std::string, std::string>> D = parseDefine(Text);
      if (!D)
        return D.takeError();
      Spec.Defines.push_back(std::move(*D));
      continue;
    }
    bool Matched = false;
    for (StringRef Name :
         {"kernel", "signature", "num-warps", "num-stages"}) {
      Expected<std::optional<StringRef>> V = takeValue(Args, I, Name);
      if (!V)
        return V.takeError();
      if (!*V)
        continue;
      Matched = true;
      if (Name == "kernel")
        Spec.KernelName = (*V)->str();
      else if (Name == "signature")
        Spec.Signature = (*V)->str();
      else if (Error E = parseUnsigned(Name, **V,
                                       Name == "num-warps" ? Spec.NumWarps
                                                           : Spec.NumStages))
        return std::move(E);
      break;
    }
    if (!Matched)
      return createStringError("'" + Arg +
                               "' is not allowed in a '# tlec-args:' line "
                               "(only --kernel, -D, --signature, "
                               "--num-warps, --num-stages)");
  }
  return Spec;
}
