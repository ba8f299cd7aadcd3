//===- ResultsDB.cpp - Tuning results keyed by kernel, shape, device ------===//
//
// Part of the TLE project.
//
//===----------------------------------------------------------------------===//

#include "core/tune/ResultsDB.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdio>

using namespace llvm;

namespace tle {
namespace tune {

static constexpr StringLiteral Header = "# tle-tune results v1";
static constexpr StringLiteral Columns =
    "# kernel\tdevice\tshape\tmode\tconfig\tstatus\ttime_ms\tdetail";

ResultsDB::ResultsDB() = default;
ResultsDB::~ResultsDB() = default;
ResultsDB::ResultsDB(ResultsDB &&) = default;
ResultsDB &ResultsDB::operator=(ResultsDB &&) = default;

/// Fields must not contain the separators; details (compiler messages) are
/// flattened.
static std::string clean(StringRef S) {
  std::string Out;
  for (char C : S)
    Out += (C == '\t' || C == '\n' || C == '\r') ? ' ' : C;
  return Out;
}

static std::string keyOf(StringRef K, StringRef D, StringRef S, StringRef M,
                         StringRef C) {
  return (K + "\t" + D + "\t" + S + "\t" + M + "\t" + C).str();
}

/// Nine significant digits: far below timing noise, and what a resumed run
/// reads back.
static std::string printTime(double Ms) {
  char Buf[64];
  std::snprintf(Buf, sizeof(Buf), "%.9g", Ms);
  return Buf;
}

std::string ResultsDB::format(const Record &R) {
  return formatv("{0}\t{1}\t{2}\t{3}\t{4}\t{5}\t{6}\t{7}", clean(R.Kernel),
                 clean(R.Device), clean(R.Shape), clean(R.Mode),
                 clean(R.Config), clean(R.Status),
                 R.isOk() ? printTime(R.TimeMs) : "-",
                 clean(R.Detail))
      .str();
}

Expected<Record> ResultsDB::parseLine(StringRef Line, StringRef Where) {
  SmallVector<StringRef, 8> F;
  Line.split(F, '\t');
  if (F.size() != 8)
    return createStringError(
        formatv("{0}: expected 8 tab-separated fields, found {1}", Where,
                F.size())
            .str());
  Record R{F[0].str(), F[1].str(), F[2].str(), F[3].str(),
           F[4].str(), F[5].str(), 0,          F[7].str()};
  if (R.Kernel.empty() || R.Shape.empty() || R.Mode.empty() ||
      R.Config.empty() || R.Status.empty())
    return createStringError(
        formatv("{0}: kernel, shape, mode, config and status must not be "
                "empty",
                Where)
            .str());
  if (R.isOk()) {
    if (F[6].getAsDouble(R.TimeMs) || !(R.TimeMs > 0))
      return createStringError(
          formatv("{0}: an ok record needs a positive time, got '{1}'", Where,
                  F[6])
              .str());
  } else if (F[6] != "-") {
    return createStringError(
        formatv("{0}: a '{1}' record has no time ('-'), got '{2}'", Where,
                R.Status, F[6])
            .str());
  }
  return R;
}

void ResultsDB::index(size_t I) {
  const Record &R = Records[I];
  ByKey[keyOf(R.Kernel, R.Device, R.Shape, R.Mode, R.Config)] = I;
}

Error ResultsDB::load(StringRef Text) {
  SmallVector<StringRef, 0> Lines;
  Text.split(Lines, '\n');
  // Text ends with '\n' unless the last write was torn: split leaves an
  // empty last element in the first case, the torn line in the second.
  if (!Lines.empty()) {
    DroppedTorn = !Lines.back().empty();
    Lines.pop_back();
  }
  for (size_t I = 0; I < Lines.size(); ++I) {
    StringRef L = Lines[I].rtrim('\r');
    if (I == 0 && L != Header)
      return createStringError(
          formatv("{0}:1: not a tle-tune results file (expected '{1}')", Path,
                  Header)
              .str());
    if (L.empty() || L.starts_with("#"))
      continue;
    Expected<Record> R = parseLine(L, formatv("{0}:{1}", Path, I + 1).str());
    if (!R)
      return R.takeError();
    Records.push_back(std::move(*R));
    index(Records.size() - 1);
  }
  return Error::success();
}

Expected<ResultsDB> ResultsDB::read(StringRef Path) {
  ResultsDB DB;
  DB.Path = Path.str();
  ErrorOr<std::unique_ptr<MemoryBuffer>> Buf =
      MemoryBuffer::getFile(Path, /*IsText=*/false,
                            /*RequiresNullTerminator=*/false);
  if (!Buf)
    return createStringError(formatv("cannot read results '{0}': {1}", Path,
                                     Buf.getError().message())
                                 .str());
  if (Error E = DB.load((*Buf)->getBuffer()))
    return std::move(E);
  return DB;
}

Expected<ResultsDB> ResultsDB::open(StringRef Path) {
  ResultsDB DB;
  DB.Path = Path.str();
  // What the file keeps: all of it, or everything before a torn last line;
  // a new or empty file gets the header.
  std::optional<std::string> Rewrite;
  if (sys::fs::exists(Path)) {
    ErrorOr<std::unique_ptr<MemoryBuffer>> Buf =
        MemoryBuffer::getFile(Path, /*IsText=*/false,
                              /*RequiresNullTerminator=*/false);
    if (!Buf)
      return createStringError(formatv("cannot read results '{0}': {1}",
                                       Path, Buf.getError().message())
                                   .str());
    StringRef Text = (*Buf)->getBuffer();
    if (Error E = DB.load(Text))
      return std::move(E);
    size_t NL = Text.rfind('\n');
    if (NL == StringRef::npos)
      Rewrite = "";
    else if (DB.DroppedTorn)
      Rewrite = Text.substr(0, NL + 1).str();
  } else {
    Rewrite = "";
  }
  std::error_code EC;
  if (Rewrite) {
    raw_fd_ostream W(Path, EC);
    if (!EC) {
      if (Rewrite->empty())
        W << Header << "\n" << Columns << "\n";
      else
        W << *Rewrite;
      W.close();
      if (W.has_error()) {
        EC = W.error();
        W.clear_error();
      }
    }
  }
  if (!EC)
    DB.Out = std::make_unique<raw_fd_ostream>(Path, EC, sys::fs::OF_Append);
  if (EC)
    return createStringError(formatv("cannot write results '{0}': {1}", Path,
                                     EC.message())
                                 .str());
  return DB;
}

const Record *ResultsDB::find(StringRef Kernel, StringRef Device,
                              StringRef Shape, StringRef Mode,
                              StringRef Config) const {
  auto It = ByKey.find(keyOf(Kernel, Device, Shape, Mode, Config));
  return It == ByKey.end() ? nullptr : &Records[It->second];
}

const Record *ResultsDB::best(StringRef Kernel, StringRef Device,
                              StringRef Shape, StringRef Mode) const {
  const Record *Best = nullptr;
  for (const Record &R : Records)
    if (R.isOk() && R.Kernel == Kernel && R.Device == Device &&
        R.Shape == Shape && R.Mode == Mode && (!Best || R.TimeMs < Best->TimeMs))
      Best = &R;
  return Best;
}

Error ResultsDB::append(Record R) {
  if (!Out)
    return createStringError(
        formatv("results '{0}' were opened read-only", Path).str());
  *Out << format(R) << "\n";
  Out->flush();
  if (Out->has_error()) {
    std::error_code EC = Out->error();
    Out->clear_error();
    return createStringError(
        formatv("cannot write results '{0}': {1}", Path, EC.message()).str());
  }
  // Stored as they will read back (flattened fields).
  Expected<Record> Back = parseLine(format(R), Path);
  if (!Back)
    return Back.takeError();
  Records.push_back(std::move(*Back));
  index(Records.size() - 1);
  return Error::success();
}

} // namespace tune
} // namespace tle
