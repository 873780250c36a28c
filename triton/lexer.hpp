// Lexer for the Python subset Triton kernels are written in: names, numbers, strings, operators
// and Python's layout tokens (NEWLINE, INDENT, DEDENT). Newlines inside brackets and after a
// backslash join lines, as in Python; comments and blank lines produce nothing.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "triton/source_error.hpp"

namespace tilesim::triton {

enum class TokenKind { name, integer, real, string, op, newline, indent, dedent, end };

struct Token {
  TokenKind kind = TokenKind::end;
  std::string text;       // the name, the operator, or the string's value (quotes removed)
  std::int64_t ival = 0;  // integer literals
  double fval = 0;        // real literals
  SourcePos pos;
  bool is_op(std::string_view s) const { return kind == TokenKind::op && text == s; }
  bool is_name(std::string_view s) const { return kind == TokenKind::name && text == s; }
};

// Throws SourceError (file:line:col) on a character or literal outside the subset, a file
// over kMaxSourceBytes or more than kMaxTokens tokens.
std::vector<Token> tokenize(std::string_view source, const std::string& file);

}  // namespace tilesim::triton
