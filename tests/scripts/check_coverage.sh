#!/bin/sh
# check_coverage.sh — every name the language and its bindings export must appear
# in at least one tests/scripts/*.py, written the way a script uses it ("torch.zeros",
# "F.relu", "nn.Linear", ".masked_fill", "sorted(", ...). The names come from the
# binding tables themselves (repl/bind_*.c, repl/builtins.c, repl/eval_int.h), so a
# binding added without a script fails `make test`. Prints the missing names, one
# per line, and exits 1 when there are any. Run from the repository's root.
# Needs only sh, awk and grep (no PyTorch).

scripts=$(ls tests/scripts/*.py) || exit 1
# the scripts' text without full-line comments: a name mentioned in a comment is not a test
text=$(mktemp) || exit 1
trap 'rm -f "$text"' EXIT
grep -hv '^[[:space:]]*#' $scripts > "$text"

# table FILE START: the quoted names ({"name", ...}, NNCLASS(Name, ...), X(Name, ...))
# of the initializer that starts at the first line matching START, up to its "};".
table() {
    awk -v start="$2" '
        !inside && $0 ~ start { inside = 1; macro = $0 ~ /^#define/ }
        inside {
            line = $0
            while (match(line, /\{"[A-Za-z_][A-Za-z_0-9]*"|NNCLASS\([A-Za-z_0-9]+|X\([A-Za-z_0-9]+/)) {
                word = substr(line, RSTART, RLENGTH)
                sub(/^(\{"|NNCLASS\(|X\()/, "", word); sub(/"$/, "", word)
                print word
                line = substr(line, RSTART + RLENGTH)
            }
            if (macro ? $0 !~ /\\$/ : $0 ~ /\};/) exit
        }' "$1"
}
# strcmp(name, "x") tests inside the function whose definition line matches START
attrs() {
    awk -v start="$2" '
        !inside && $0 ~ start { inside = 1 }
        inside {
            line = $0
            while (match(line, /strcmp\(name, "[A-Za-z_][A-Za-z_0-9]*"\)/)) {
                word = substr(line, RSTART + 14, RLENGTH - 16)
                print word
                line = substr(line, RSTART + RLENGTH)
            }
            if ($0 ~ /^}/) exit
        }' "$1"
}

missing=0
# need_word NAME...: each NAME must occur as a whole word in a script
need_word() {
    for name in "$@"; do
        if ! grep -qw -- "$name" "$text"; then
            echo "not in any tests/scripts/*.py: $name"
            missing=$((missing + 1))
        fi
    done
}
# need PREFIX SUFFIX NAME...: each PREFIX+NAME+SUFFIX must occur in a script
need() {
    prefix=$1 suffix=$2
    shift 2
    for name in "$@"; do
        case "$name" in
        __*) continue ;; # dunders: reached through the language, not by name
        _*) continue ;;  # a module's private helper (time._tm): reached through its public functions
        esac
        if ! grep -qF -- "$prefix$name$suffix" "$text"; then
            echo "not in any tests/scripts/*.py: $prefix$name$suffix"
            missing=$((missing + 1))
        fi
    done
}

# torch: factories, functions, dtypes, classes, torch.cuda
need torch. "" $(table repl/bind_torch.c 'torch_functions\[\] = \{')
need torch. "" $(table repl/bind_tensor.c 'tensor_functions\[\] = \{')
need torch. "" $(table repl/bind_math.c 'math_functions\[\] = \{')
need . "(" $(table repl/bind_math.c 'math_inplace\[\] = \{')
need torch. "" $(table repl/bind_torch.c 'dts\[\] = \{')
need torch. "" Tensor Size Generator
need torch.cuda. "" $(table repl/bind_torch.c 'cuda_functions\[\] = \{')
# Tensor methods and properties (the torch functions double as methods, but cat/stack/where)
need . "" $(table repl/bind_tensor.c 'tensor_methods\[\] = \{')
need . "" $(table repl/bind_tensor.c 'tensor_fn_methods\[\] = \{')
need . "" $(table repl/bind_tensor.c 'tensor_functions\[\] = \{' | grep -vx 'cat\|stack\|where')
need . "" $(attrs repl/bind_tensor.c '^nn_object \*repl_tensor_getattr')
need . "" $(table repl/bind_random.c 'generator_methods\[\] = \{')
need torch. "" $(table repl/bind_random.c 'random_functions\[\] = \{')
need . "(" $(table repl/bind_random.c 'random_methods\[\] = \{')
need torch. "" $(table repl/bind_select.c 'select_functions\[\] = \{')
need . "(" $(table repl/bind_select.c 'select_methods\[\] = \{')
need F. "(" $(table repl/bind_select.c 'select_functional\[\] = \{')
need torch. "" $(table repl/bind_ops_more.c 'ops_more_functions\[\] = \{')
need . "(" $(table repl/bind_ops_more.c 'ops_more_methods\[\] = \{')
need torch. "" FloatTensor DoubleTensor HalfTensor BFloat16Tensor LongTensor IntTensor BoolTensor
need nn. "" $(table repl/bind_act.c 'classes\[\] = \{')
need F. "(" $(table repl/bind_act.c 'functional\[\] = \{')
need nn. "" $(table repl/bind_loss.c 'classes\[\] = \{')
need F. "(" $(table repl/bind_loss.c 'functional\[\] = \{')
# torch.nn: module classes, Module methods, container methods, Parameter, global hooks
need nn. "" $(table repl/bind_nn.c 'nn_classes\[\] = \{') Parameter
need . "(" $(table repl/bind_nn.c 'module_methods\[\] = \{')
need . "(" $(table repl/bind_nn.c 'static const repl_method_def list_methods\[\] = \{')
need . "(" $(table repl/bind_nn.c 'static const repl_method_def dict_methods\[\] = \{')
# (imported by name: from torch.nn.modules.module import register_module_forward_hook)
need "" "(" $(table repl/bind_nn.c 'global_hook_fns\[\] = \{') $(table repl/bind_nn.c 'is_lazy = \{')
need F. "(" $(table repl/bind_nn.c 'functional\[\] = \{')
need nn. "" $(table repl/bind_nn_more.c 'classes\[\] = \{')
need F. "(" $(table repl/bind_nn_more.c 'functional\[\] = \{')
need nn. "" $(table repl/bind_rnn.c 'classes\[\] = \{')
need "" "(" $(table repl/bind_rnn.c 'rnn_utils\[\] = \{')
need F. "(" $(table repl/bind_rnn.c 'functional\[\] = \{')
need init. "(" $(table repl/bind_nn.c 'init_fns\[\] = \{')
# torch.optim
need optim. "" $(table repl/bind_optim.c 'optim_classes\[\] = \{')
need . "(" $(table repl/bind_optim.c 'optim_methods\[\] = \{')
# sys: exit, argv, maxsize and the streams' methods
need sys. "" exit argv maxsize stdout.write stdout.flush stderr.write
# built-in functions, types, exceptions and the methods of str, list, tuple, dict, OrderedDict, set, int, float
# (help prints nnscope's own docs, tested by tests/repl/test_eval.c)
need "" "(" $(table repl/builtins.c 'builtin_functions\[\] = \{' | grep -vx help)
need_word int float str bool list tuple dict set frozenset range object type staticmethod classmethod property
need_word collections OrderedDict
need_word $(table repl/eval_int.h 'define EXC_LIST')
for kind in str list tuple dict odict set float int; do
    need . "(" $(table repl/builtins.c "^static const method_def ${kind}_methods\\[\\] = \\{")
done
# the standard library's modules (repl/mod_*.c): each function and constant as a script uses it
need math. "(" $(table repl/mod_math.c 'define MATH_1\(') $(table repl/mod_math.c 'math_functions\[\] = \{')
need math. "" pi e tau inf nan
need random. "(" $(table repl/mod_random.c 'random_functions\[\] = \{')
need os. "(" $(table repl/mod_os.c 'os_functions\[\] = \{')
need os. "" environ sep linesep name curdir pardir path
need os.path. "(" $(table repl/mod_os.c 'path_functions\[\] = \{') $(table repl/mod_os.c 'define STAT_PREDICATES')
need time. "(" $(table repl/mod_time.c 'time_functions\[\] = \{') $(table repl/mod_time.c 'define CLOCKS') \
    $(table repl/mod_time.c 'define CLOCKS' | sed 's/$/_ns/')
need string. "" $(table repl/mod_string.c 'constants\[\] = \{') $(table repl/mod_string.c 'string_functions\[\] = \{')
need functools. "" $(table repl/mod_functools.c 'functools_functions\[\] = \{') partial
need . "(" $(table repl/mod_functools.c 'lru_methods\[\] = \{')
need typing. "" $(table repl/mod_typing.c 'typing_functions\[\] = \{') TYPE_CHECKING
need_word $(sed -n '/form_names\[\] = {/,/};/p' repl/mod_typing.c | grep -o '"[A-Za-z]*"' | tr -d '"')
# statements and operators (each as a script writes it)
need "" "" 'if ' 'elif ' 'else:' 'while ' 'for ' ' in ' 'break' 'continue' 'pass' 'return ' 'raise ' 'assert ' \
    'global ' 'nonlocal ' 'import ' 'from ' 'try:' 'except ' 'except:' 'finally:' 'with ' 'def ' 'class ' 'lambda ' \
    'del ' 'not ' ' and ' ' or ' ' is ' ' if ' ' else ' '; '
need " " " " + - '*' / // % '**' @ '<<' '>>' '&' '|' '^' += -= '*=' /= //= %= '**=' @= '&=' '|=' '^=' '<<=' '>>=' \
    == != '<' '<=' '>' '>=' 'is not' 'not in'
need "" "" '~' '*args' '**kwargs' '[::' 'f"' '"""' '@property' '@staticmethod' '@classmethod' 'super().'

if [ "$missing" -gt 0 ]; then
    echo "check_coverage: $missing names not used by any script"
    exit 1
fi
echo "check_coverage: every exported name appears in tests/scripts"
