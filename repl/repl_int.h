/*
 * repl_int.h — private to repl/: the lexer's tokens and the syntax-error
 * helper shared by lexer.c and parser.c. Not for use outside repl/.
 */
#ifndef REPL_INT_H
#define REPL_INT_H

#include "ast.h"

/* Operators and delimiters, longest first where prefixes overlap. */
#define REPL_TOKEN_OPS(X) \
    X(DOUBLESTAREQUAL, "**=") X(DOUBLESLASHEQUAL, "//=") X(LSHIFTEQUAL, "<<=") \
    X(RSHIFTEQUAL, ">>=") X(ELLIPSIS, "...") \
    X(DOUBLESTAR, "**") X(DOUBLESLASH, "//") X(LSHIFT, "<<") X(RSHIFT, ">>") \
    X(EQEQUAL, "==") X(NOTEQUAL, "!=") X(LESSEQUAL, "<=") X(GREATEREQUAL, ">=") \
    X(PLUSEQUAL, "+=") X(MINEQUAL, "-=") X(STAREQUAL, "*=") X(SLASHEQUAL, "/=") \
    X(PERCENTEQUAL, "%=") X(ATEQUAL, "@=") X(AMPEREQUAL, "&=") X(VBAREQUAL, "|=") \
    X(CIRCUMFLEXEQUAL, "^=") X(RARROW, "->") X(COLONEQUAL, ":=") \
    X(LPAR, "(") X(RPAR, ")") X(LSQB, "[") X(RSQB, "]") X(LBRACE, "{") X(RBRACE, "}") \
    X(COLON, ":") X(COMMA, ",") X(SEMI, ";") X(PLUS, "+") X(MINUS, "-") X(STAR, "*") \
    X(SLASH, "/") X(VBAR, "|") X(AMPER, "&") X(LESS, "<") X(GREATER, ">") \
    X(EQUAL, "=") X(DOT, ".") X(PERCENT, "%") X(TILDE, "~") X(CIRCUMFLEX, "^") X(AT, "@")

#define REPL_TOKEN_KEYWORDS(X) \
    X(FALSE, "False") X(NONE, "None") X(TRUE, "True") X(AND, "and") X(AS, "as") \
    X(ASSERT, "assert") X(BREAK, "break") X(CLASS, "class") X(CONTINUE, "continue") \
    X(DEF, "def") X(DEL, "del") X(ELIF, "elif") X(ELSE, "else") X(EXCEPT, "except") \
    X(FINALLY, "finally") X(FOR, "for") X(FROM, "from") X(GLOBAL, "global") X(IF, "if") \
    X(IMPORT, "import") X(IN, "in") X(IS, "is") X(LAMBDA, "lambda") \
    X(NONLOCAL, "nonlocal") X(NOT, "not") X(OR, "or") X(PASS, "pass") X(RAISE, "raise") \
    X(RETURN, "return") X(TRY, "try") X(WHILE, "while") X(WITH, "with") X(YIELD, "yield") \
    X(ASYNC, "async") X(AWAIT, "await")

typedef enum repl_token_kind {
    TK_ENDMARKER, TK_NAME, TK_INT, TK_FLOAT, TK_STRING, TK_NEWLINE, TK_INDENT, TK_DEDENT,
#define X(id, text) TK_##id,
    REPL_TOKEN_OPS(X)
    REPL_TOKEN_KEYWORDS(X)
#undef X
    TK_COUNT
} repl_token_kind;

typedef struct repl_token {
    repl_token_kind kind;
    int line, col;               /* start: 1-based line, 0-based byte column */
    int end_line, end_col;
    const char *start;           /* into the source (borrowed); len bytes */
    size_t len;
    /* TK_INT / TK_FLOAT */
    int64_t ival;
    double fval;
    bool overflow;               /* TK_INT beyond int64 */
    bool imag;                   /* TK_FLOAT: an imaginary literal (2j, 1.5e3J) */
    /* TK_STRING: the decoded value (arena) for plain strings; for f-strings
       the raw body between the quotes (into the source) and where it starts */
    bool fstring, raw, bytes;    /* bytes: a b'' literal (str holds its bytes) */
    const char *str;
    size_t str_len;
    int body_line, body_col;
} repl_token;

/* The lexer's result: tokens ending with TK_ENDMARKER, in an nn_malloc'd
   array the caller frees with nn_free. */
typedef struct repl_tokens {
    repl_token *items;
    int n, cap;
    bool deferred;   /* an unclosed bracket at the end: the error (or incomplete
                        input) is set and *err filled, yet the tokens so far
                        are returned (0) so the parser may report an earlier error */
} repl_tokens;

/* Tokenizes src[0..len) (borrowed). line0/col0 place the first byte (f-string
   parts are lexed in place); interactive enables incomplete-input results;
   in_fstring lexes one f-string expression (no NEWLINE/INDENT handling).
   Strings are decoded into arena. 0, or -1 with the error set (see below). */
int repl_lex(const char *src, size_t len, int line0, int col0, bool interactive,
             bool in_fstring, repl_ast_arena *arena, repl_tokens *out, repl_parse_error *err);

/* Decodes a string literal's body s[0..n) (escapes unless raw; "{{" and "}}"
   become single braces when fstring) into a new arena string *out of *out_len
   bytes. line/col locate s for errors. 0, or -1 with the error set. */
int repl_decode_string(const char *s, size_t n, bool raw, bool fstring, int line, int col,
                       repl_ast_arena *arena, char **out, size_t *out_len, repl_parse_error *err);

/* Sets the current error to kind (NN_ERR_SYNTAX or NN_ERR_INDENTATION) with
   the message, and fills *err (may be NULL) with status, line and 1-based
   offset (col + 1). Returns -1. */
int repl_syntax_error(repl_parse_error *err, repl_parse_status status, nn_error_kind kind,
                      int line, int col, const char *fmt, ...)
    __attribute__((format(printf, 6, 7)));

/* The token kind's text for messages ("(", "if"; "NAME" for the others). */
const char *repl_token_text(repl_token_kind kind);

#endif
