//===- Plugin.cpp - Load a backend plugin and call into it ----------------===//
//
// Part of the TLE project.
//
//===----------------------------------------------------------------------===//
//
// Built with -fexceptions (see CMakeLists.txt). Every entry into plugin code
// is wrapped in try/catch so that nothing thrown by Boost.DLL or by a plugin
// unwinds through LLVM frames, which are built without exceptions.
//
//===----------------------------------------------------------------------===//

// Boost.DLL would otherwise need libboost_filesystem.
#define BOOST_DLL_USE_STD_FS

#include "core/plugins/Plugin.h"
#include "core/hwdesc/HwDesc.h"
#include "tle/Backend/PluginABI.h"

#include "mlir/IR/BuiltinOps.h"
#include "llvm/ADT/ScopeExit.h"
#include "llvm/ADT/Twine.h"
#include "llvm/Demangle/Demangle.h"
#include "llvm/Support/ErrorHandling.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/Signals.h"
#include "llvm/Support/raw_ostream.h"

#include <boost/dll/shared_library.hpp>

#include <dlfcn.h>
#include <exception>
#include <mutex>

using namespace llvm;
using namespace tle;
using namespace tle::plugins;

struct Plugin::Library {
  boost::dll::shared_library Handle;
};

static Error makeError(const Twine &Message) {
  return createStringError(inconvertibleErrorCode(), Message);
}

/// The plugin this thread is compiling with and its target, for a fatal
/// error's message.
static thread_local const Plugin *CompilingPlugin = nullptr;
static thread_local const hwdesc::HwDesc *CompilingFor = nullptr;

/// LLVM ends the process on a fatal error (report_fatal_error: an
/// instruction a backend cannot select, a SPIR-V requirement it cannot
/// meet), by default as a crash: "LLVM ERROR", a stack dump and SIGABRT.
/// There is no going on after one (the backend's state is unknown), but the
/// message names the plugin and the target and the exit status is 1.
static void reportFatalError(void *, const char *Reason, bool) {
  if (!CompilingPlugin || !CompilingFor) {
    // Not in a plugin: the compiler's own bug, reported as LLVM does (it
    // goes on to its crash report once the handler returns).
    errs() << "LLVM ERROR: " << Reason << "\n";
    return;
  }
  errs() << "error: target " << CompilingFor->Name << ": plugin '"
         << CompilingPlugin->getName() << "' stopped with LLVM's fatal error '"
         << Reason << "' while compiling; nothing is written\n";
  errs().flush();
  outs().flush();
  sys::RunInterruptHandlers();
  sys::Process::Exit(1, /*NoCleanup=*/true);
}

static std::string describeException(std::exception_ptr E) {
  try {
    std::rethrow_exception(E);
  } catch (const std::exception &Ex) {
    return std::string("'") + Ex.what() + "'";
  } catch (...) {
    return "of a non-standard type";
  }
}

/// Reports ELF magic up front: dlopen's own message for a text file ("invalid
/// ELF header", "file too short") does not say what is wrong in user terms.
static Error checkIsSharedLibrary(StringRef Path) {
  auto Head = MemoryBuffer::getFileSlice(Path, 4, 0);
  if (!Head)
    return makeError("cannot be read: " + Head.getError().message());
  if ((*Head)->getBuffer() != "\x7f"
                              "ELF")
    return makeError("not a shared library (no ELF header)");
  return Error::success();
}

/// Turns dlerror()'s text for Path into a cause: Boost.DLL keeps that text
/// only in the message of the exceptions it throws, so the error_code overload
/// is used and dlerror() read right after it.
static Error describeLoadFailure(StringRef Path) {
  const char *Text = ::dlerror();
  if (!Text)
    return makeError("cannot be loaded");
  StringRef Reason(Text);
  Reason.consume_front(Path);
  Reason.consume_front(": ");
  if (Reason.consume_front("undefined symbol: ")) {
    // glibc may append ", version X" or " (file)".
    StringRef Symbol = Reason.take_until([](char C) { return C == ','; });
    Symbol = Symbol.take_until([](char C) { return C == ' '; });
    return makeError("needs symbol '" + demangle(Symbol.str()) +
                     "', which no loaded library defines");
  }
  return makeError("cannot be loaded: " + Reason);
}

static Expected<std::vector<std::string>>
readBackendKeys(const TLEBackendPluginInfo &Info) {
  std::vector<std::string> Keys;
  if (!Info.BackendKeys)
    return makeError("plugin info lists no backend keys");
  for (const char *const *Key = Info.BackendKeys; *Key; ++Key) {
    if (!**Key)
      return makeError("plugin info lists an empty backend key");
    Keys.emplace_back(*Key);
  }
  if (Keys.empty())
    return makeError("plugin info lists no backend keys");
  return Keys;
}

Expected<std::unique_ptr<Plugin>> Plugin::open(StringRef Path) {
  if (Error E = checkIsSharedLibrary(Path))
    return std::move(E);
  std::unique_ptr<Plugin> P(new Plugin());
  P->Path = Path.str();
  P->Lib = std::make_shared<Library>();
  const TLEBackendPluginInfo *Info = nullptr;
  try {
    boost::dll::fs::error_code EC;
    // RTLD_NOW: an unresolved symbol must fail here, with a message, rather
    // than abort the host when the plugin first calls it. RTLD_LOCAL: two
    // plugins must not resolve to each other's symbols.
    P->Lib->Handle.load(std::string(Path),
                        boost::dll::load_mode::rtld_now |
                            boost::dll::load_mode::rtld_local,
                        EC);
    if (EC)
      return describeLoadFailure(Path);
    if (!P->Lib->Handle.has(TLE_BACKEND_PLUGIN_ENTRY))
      return makeError("not a TLE backend plugin (no " TLE_BACKEND_PLUGIN_ENTRY
                       " symbol)");
    auto &Entry = P->Lib->Handle.get<const TLEBackendPluginInfo *()>(
        TLE_BACKEND_PLUGIN_ENTRY);
    Info = Entry();
  } catch (...) {
    return makeError(TLE_BACKEND_PLUGIN_ENTRY " threw an exception " +
                     describeException(std::current_exception()));
  }
  if (!Info)
    return makeError(TLE_BACKEND_PLUGIN_ENTRY " returned null");
  // Nothing but the version may be read before it matches: the layout of
  // the rest belongs to the plugin's ABI version.
  if (Info->AbiVersion != TLE_BACKEND_ABI_VERSION)
    return makeError("built for plugin ABI " + Twine(Info->AbiVersion) +
                     " (LLVM " + Twine(Info->AbiVersion / 1000) + "), but " +
                     "this host needs ABI " + Twine(TLE_BACKEND_ABI_VERSION) +
                     " (LLVM " + Twine(LLVM_VERSION_MAJOR) + ")");
  if (!Info->PluginName || !*Info->PluginName)
    return makeError("plugin info has no name");
  if (!Info->PluginVersion || !*Info->PluginVersion)
    return makeError("plugin info has no version");
  if (!Info->CreateBackend)
    return makeError("plugin info has no backend factory");
  auto Keys = readBackendKeys(*Info);
  if (!Keys)
    return Keys.takeError();
  P->Name = Info->PluginName;
  P->Version = Info->PluginVersion;
  P->BackendKeys = std::move(*Keys);
  P->Factory = Info->CreateBackend;
  return std::move(P);
}

Plugin::~Plugin() = default;

Error Plugin::createBackend() {
  backend::Backend *Raw = nullptr;
  try {
    Raw = Factory();
  } catch (...) {
    return makeError("backend factory threw an exception " +
                     describeException(std::current_exception()));
  }
  if (!Raw)
    return makeError("backend factory returned null");
  // The deleter owns a reference to the library: the backend's code and
  // vtable live there, so it must stay mapped until the backend is gone.
  std::shared_ptr<Library> KeepLoaded = Lib;
  TheBackend = std::shared_ptr<backend::Backend>(
      Raw, [KeepLoaded](backend::Backend *B) { delete B; });
  return Error::success();
}

Expected<backend::CompiledKernel>
Plugin::compile(mlir::ModuleOp Module, const hwdesc::HwDesc &Desc,
                const backend::CompileOptions &Options) const {
  static std::once_flag Installed;
  std::call_once(Installed,
                 [] { install_fatal_error_handler(reportFatalError); });
  CompilingPlugin = this;
  CompilingFor = &Desc;
  llvm::scope_exit Done([] {
    CompilingPlugin = nullptr;
    CompilingFor = nullptr;
  });
  try {
    return TheBackend->compile(Module, Desc, Options);
  } catch (...) {
    return makeError("plugin '" + Name + "' threw an exception " +
                     describeException(std::current_exception()) +
                     " while compiling");
  }
}
