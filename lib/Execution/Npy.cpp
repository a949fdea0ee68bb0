//===- Npy.cpp - NumPy .npy files for pp-exec -----------------------------===//

#include "pp/Execution/Npy.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"

#include <cstring>

using namespace mlir::pp::exec;
using llvm::StringRef;

static llvm::Error npyError(StringRef path, const llvm::Twine &msg) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                 path + ": " + msg);
}

/// The value of `key` in the header dict, as raw text up to the next
/// top-level comma or closing brace (tuples kept whole).
static std::optional<StringRef> dictValue(StringRef header, StringRef key) {
  for (char quote : {'\'', '"'}) {
    std::string quoted = std::string(1, quote) + key.str() + quote;
    size_t pos = header.find(quoted);
    if (pos == StringRef::npos)
      continue;
    StringRef rest = header.drop_front(pos + quoted.size()).ltrim();
    if (!rest.consume_front(":"))
      return std::nullopt;
    rest = rest.ltrim();
    size_t end = 0;
    int depth = 0;
    for (; end < rest.size(); ++end) {
      char c = rest[end];
      if (c == '(')
        ++depth;
      else if (c == ')')
        --depth;
      else if ((c == ',' || c == '}') && depth == 0)
        break;
    }
    return rest.take_front(end).trim();
  }
  return std::nullopt;
}

llvm::Expected<HostTensor> mlir::pp::exec::readNpy(StringRef path) {
  auto bufferOrErr =
      llvm::MemoryBuffer::getFile(path, /*IsText=*/false,
                                  /*RequiresNullTerminator=*/false);
  if (std::error_code ec = bufferOrErr.getError())
    return npyError(path, "cannot read: " + ec.message());
  return parseNpy((*bufferOrErr)->getBuffer(), path);
}

llvm::Expected<HostTensor> mlir::pp::exec::parseNpy(StringRef bytes,
                                                    StringRef path) {
  if (bytes.size() < 10 || !bytes.starts_with("\x93NUMPY"))
    return npyError(path, "not an .npy file (no \\x93NUMPY magic)");
  unsigned major = static_cast<unsigned char>(bytes[6]);
  size_t headerLen, headerStart;
  auto u8 = [&](size_t i) {
    return static_cast<size_t>(static_cast<unsigned char>(bytes[i]));
  };
  if (major == 1) {
    headerLen = u8(8) | u8(9) << 8;
    headerStart = 10;
  } else if (major == 2 || major == 3) {
    if (bytes.size() < 12)
      return npyError(path, "truncated header");
    headerLen = u8(8) | u8(9) << 8 | u8(10) << 16 | u8(11) << 24;
    headerStart = 12;
  } else {
    return npyError(path, "unsupported .npy version " + llvm::Twine(major) +
                              " (1.0, 2.0 and 3.0 are read)");
  }
  if (bytes.size() < headerStart + headerLen)
    return npyError(path, "truncated header");
  StringRef header = bytes.substr(headerStart, headerLen);

  std::optional<StringRef> descr = dictValue(header, "descr");
  std::optional<StringRef> fortran = dictValue(header, "fortran_order");
  std::optional<StringRef> shapeText = dictValue(header, "shape");
  if (!descr || !fortran || !shapeText)
    return npyError(path, "header lacks 'descr', 'fortran_order' or 'shape': " +
                              header.trim());
  StringRef d = descr->trim("'\"");
  if (*fortran != "False")
    return npyError(path, "Fortran-order arrays are not supported (save a "
                          "C-contiguous array, e.g. np.ascontiguousarray)");
  if (d.size() != 3 || (d[0] != '<' && d[0] != '=' && d[0] != '|'))
    return npyError(path, "unsupported dtype '" + d +
                              "' (little-endian <f4, <f8, <i4, <i8 are read)");
  TensorSpec spec;
  StringRef code = d.drop_front();
  if (code == "f4")
    spec.kind = ElemKind::F32;
  else if (code == "f8")
    spec.kind = ElemKind::F64;
  else if (code == "i4")
    spec.kind = ElemKind::I32;
  else if (code == "i8")
    spec.kind = ElemKind::I64;
  else
    return npyError(path, "unsupported dtype '" + d +
                              "' (little-endian <f4, <f8, <i4, <i8 are read)");

  StringRef dims = *shapeText;
  if (!dims.consume_front("(") || !dims.consume_back(")"))
    return npyError(path, "malformed shape " + *shapeText);
  while (!dims.trim().empty()) {
    auto [item, rest] = dims.split(',');
    item = item.trim();
    if (item.empty())
      break;
    int64_t dim;
    if (item.getAsInteger(10, dim) || dim < 0)
      return npyError(path, "malformed shape " + *shapeText);
    spec.shape.push_back(dim);
    dims = rest;
  }

  // Check the shape against the data before allocating: its product can be
  // far beyond the file or overflow (a corrupt or hostile header).
  size_t dataStart = headerStart + headerLen;
  uint64_t dataBytes = bytes.size() - dataStart, needed = elemSize(spec.kind);
  bool overflow = false;
  if (llvm::is_contained(spec.shape, 0))
    needed = 0;
  for (int64_t dim : spec.shape)
    overflow = overflow || __builtin_mul_overflow(
                               needed, static_cast<uint64_t>(dim), &needed);
  if (overflow || needed != dataBytes)
    return npyError(
        path,
        "holds " + llvm::Twine(dataBytes) + " bytes of data, but shape " +
            spec.shapeStr() + " of " + numpyName(spec.kind) + " needs " +
            (overflow ? llvm::Twine("more than 2^64") : llvm::Twine(needed)));
  HostTensor t(spec);
  if (t.byteSize())
    std::memcpy(t.data(), bytes.data() + dataStart, t.byteSize());
  return t;
}

llvm::Error mlir::pp::exec::writeNpy(StringRef path, const HostTensor &t) {
  std::string dict = "{'descr': '<";
  dict += t.kind() == ElemKind::F32   ? "f4"
          : t.kind() == ElemKind::F64 ? "f8"
          : t.kind() == ElemKind::I32 ? "i4"
                                      : "i8";
  dict += "', 'fortran_order': False, 'shape': " + t.spec().shapeStr() + ", }";
  // magic (6) + version (2) + length (2) + dict + padding + '\n' is a
  // multiple of 64.
  size_t total = 10 + dict.size() + 1;
  size_t padded = (total + 63) / 64 * 64;
  dict.append(padded - total, ' ');
  dict += '\n';

  std::error_code ec;
  llvm::raw_fd_ostream os(path, ec, llvm::sys::fs::OF_None);
  if (ec)
    return npyError(path, "cannot write: " + ec.message());
  os << "\x93NUMPY" << '\x01' << '\x00';
  os << static_cast<char>(dict.size() & 0xff)
     << static_cast<char>((dict.size() >> 8) & 0xff);
  os << dict;
  os.write(static_cast<const char *>(t.data()), t.byteSize());
  os.close();
  if (os.has_error())
    return npyError(path, "write failed: " + os.error().message());
  return llvm::Error::success();
}
