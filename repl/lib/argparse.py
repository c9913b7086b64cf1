# argparse, written in the language: ArgumentParser with optional and
# positional arguments (type, default, choices, required, nargs None/N/'?'/'*'/
# '+', dest, metavar, const, actions store/store_const/store_true/store_false/
# append/count/help/version), argument groups, set_defaults, parse_args /
# parse_known_args into a Namespace, and HelpFormatter's usage and help text
# (width 78, as CPython without COLUMNS) with its error messages and exit 2.
# Subcommands: add_subparsers / add_parser (aliases, help, set_defaults(func=...)),
# the command and everything after it going to the subcommand's parser as
# CPython's PARSER nargs does. Not offered: fromfile_prefix_chars and the mutual
# exclusion check of add_mutually_exclusive_group.

import sys
import os

SUPPRESS = '==SUPPRESS=='
OPTIONAL = '?'
ZERO_OR_MORE = '*'
ONE_OR_MORE = '+'
REMAINDER = '...'
PARSER = 'A...'
_UNRECOGNIZED_ARGS_ATTR = '_unrecognized_args'


class ArgumentError(Exception):
    def __init__(self, argument, message):
        self.argument_name = None if argument is None else '/'.join(argument.option_strings) or argument.metavar or argument.dest
        self.message = message
        Exception.__init__(self, message if self.argument_name is None else
                           'argument ' + self.argument_name + ': ' + message)


class ArgumentTypeError(Exception):
    pass


class HelpFormatter:
    pass


class RawDescriptionHelpFormatter(HelpFormatter):
    pass


class RawTextHelpFormatter(RawDescriptionHelpFormatter):
    pass


class ArgumentDefaultsHelpFormatter(HelpFormatter):
    pass


class MetavarTypeHelpFormatter(HelpFormatter):
    pass


class Namespace:
    def __init__(self, **kwargs):
        for k in kwargs:
            setattr(self, k, kwargs[k])

    def __repr__(self):
        return 'Namespace(' + ', '.join([k + '=' + repr(v) for k, v in self.__dict__.items()]) + ')'

    def __eq__(self, other):
        if not isinstance(other, Namespace):
            return NotImplemented
        return self.__dict__ == other.__dict__

    def __contains__(self, key):
        return key in self.__dict__


class Action:
    def __init__(self, option_strings, dest, nargs=None, const=None, default=None, type=None, choices=None,
                 required=False, help=None, metavar=None, action='store', version=None):
        self.option_strings = option_strings
        self.dest = dest
        self.nargs = nargs
        self.const = const
        self.default = default
        self.type = type
        self.choices = choices
        self.required = required
        self.help = help
        self.metavar = metavar
        self.action = action
        self.version = version
        self.container = None

    def __repr__(self):
        names = ['option_strings', 'dest', 'nargs', 'const', 'default', 'type', 'choices', 'required', 'help',
                 'metavar']
        return '_' + self.action.title().replace('_', '') + 'Action(' + ', '.join(
            [n + '=' + repr(getattr(self, n)) for n in names]) + ')'


class _ChoicesPseudoAction(Action):
    # one line of a subcommand in the help: its name (and aliases) and help
    def __init__(self, name, aliases, help):
        metavar = name if not aliases else name + ' (' + ', '.join(aliases) + ')'
        Action.__init__(self, [], name, help=help, metavar=metavar)


class _SubParsersAction(Action):
    def __init__(self, option_strings, prog, parser_class, dest=SUPPRESS, required=False, help=None, metavar=None):
        self._prog_prefix = prog
        self._parser_class = parser_class
        self._name_parser_map = {}
        self._choices_actions = []
        Action.__init__(self, option_strings, dest, nargs=PARSER, choices=self._name_parser_map, required=required,
                        help=help, metavar=metavar, action='parsers')

    def __repr__(self):
        names = ['option_strings', 'dest', 'nargs', 'const', 'default', 'type', 'choices', 'required', 'help',
                 'metavar']
        return '_SubParsersAction(' + ', '.join([n + '=' + repr(getattr(self, n)) for n in names]) + ')'

    def add_parser(self, name, **kwargs):
        if kwargs.get('prog') is None:
            kwargs['prog'] = self._prog_prefix + ' ' + name
        aliases = kwargs.pop('aliases', ())
        if name in self._name_parser_map:
            raise ArgumentError(self, 'conflicting subparser: ' + name)
        for alias in aliases:
            if alias in self._name_parser_map:
                raise ArgumentError(self, 'conflicting subparser alias: ' + alias)
        if 'help' in kwargs:
            self._choices_actions.append(_ChoicesPseudoAction(name, aliases, kwargs.pop('help')))
        parser = self._parser_class(**kwargs)
        self._name_parser_map[name] = parser
        for alias in aliases:
            self._name_parser_map[alias] = parser
        return parser

    def _get_subactions(self):
        return self._choices_actions

    def __call__(self, parser, namespace, values, option_string=None):
        name = values[0]
        if self.dest != SUPPRESS:
            setattr(namespace, self.dest, name)
        sub = self._name_parser_map.get(name)
        if sub is None:
            raise ArgumentError(self, 'invalid choice: ' + repr(name) + ' (choose from ' +
                                ', '.join([repr(c) for c in self._name_parser_map]) + ')')
        subnamespace, extras = sub.parse_known_args(values[1:], None)
        for key, value in vars(subnamespace).items():
            setattr(namespace, key, value)
        if extras:
            if not hasattr(namespace, _UNRECOGNIZED_ARGS_ATTR):
                setattr(namespace, _UNRECOGNIZED_ARGS_ATTR, [])
            getattr(namespace, _UNRECOGNIZED_ARGS_ATTR).extend(extras)


_ACTIONS = ['store', 'store_const', 'store_true', 'store_false', 'append', 'append_const', 'count', 'help',
            'version', 'extend']


def _wrap(text, width):
    lines = []
    line = ''
    for word in text.split():
        if line and len(line) + 1 + len(word) > width:
            lines.append(line)
            line = word
        else:
            line = word if not line else line + ' ' + word
    if line:
        lines.append(line)
    return lines


# A group keeps its parser's action list, not the parser, and its own nested groups:
# a reference cycle would never be freed (the language has no cycle collector).
class _Group:
    def __init__(self, parser_actions, argument_default, title, description):
        self._parser_actions = parser_actions
        self._argument_default = argument_default
        self.title = title
        self.description = description
        self._actions = []
        self._subgroups = []

    def add_argument(self, *args, **kwargs):
        action = _add_action(self._parser_actions, self._argument_default, args, kwargs)
        self._actions.append(action)
        return action

    def add_argument_group(self, title=None, description=None):
        g = _Group(self._parser_actions, self._argument_default, title, description)
        self._subgroups.append(g)
        return g

    def add_mutually_exclusive_group(self, required=False):
        return self


def _subactions(a):
    return a._get_subactions() if isinstance(a, _SubParsersAction) else []


# how an error names an argument (CPython's _get_action_name)
def _action_name(a):
    if a.option_strings:
        return '/'.join(a.option_strings)
    if a.metavar is not None and a.metavar != SUPPRESS:
        return a.metavar
    if a.dest is not None and a.dest != SUPPRESS:
        return a.dest
    if a.choices:
        return '{' + ','.join(a.choices) + '}'
    return None


def _flatten_groups(groups):
    out = []
    for g in groups:
        out.append(g)
        out.extend(_flatten_groups(g._subgroups))
    return out


def _add_action(actions, argument_default, args, kwargs):
    if not args or (len(args) == 1 and not args[0].startswith('-')):
        if len(args) != 1:
            raise TypeError('add_argument() missing required positional argument')
        if 'dest' in kwargs:
            raise ValueError('dest supplied twice for positional argument')
        option_strings = []
        dest = args[0]
        if kwargs.get('required'):
            raise TypeError("'required' is an invalid argument for positionals")
        nargs = kwargs.get('nargs')
        required = nargs not in ['?', '*', '...'] or (nargs == '*' and 'default' not in kwargs)
    else:
        option_strings = list(args)
        for s in option_strings:
            if not s.startswith('-'):
                raise ValueError('invalid option string ' + repr(s) + ': must start with a character ' + repr('-'))
        dest = kwargs.get('dest')
        if dest is None:
            longs = [s for s in option_strings if s.startswith('--')]
            dest = (longs[0] if longs else option_strings[0]).lstrip('-').replace('-', '_')
        required = kwargs.get('required', False)
    for s in option_strings:
        for a in actions:
            if s in a.option_strings:
                raise ArgumentError(a, 'conflicting option string: ' + s)
    action = kwargs.get('action', 'store')
    if action not in _ACTIONS:
        raise ValueError('unknown action ' + repr(action))
    nargs = kwargs.get('nargs')
    const = kwargs.get('const')
    default = kwargs.get('default', argument_default)
    if action == 'store_true':
        nargs, const = 0, True
        default = kwargs.get('default', False)
    elif action == 'store_false':
        nargs, const = 0, False
        default = kwargs.get('default', True)
    elif action in ['store_const', 'append_const', 'count', 'help', 'version']:
        nargs = 0
    elif nargs == 0:
        raise ValueError('nargs for store actions must be != 0; if you have nothing to store, actions such '
                         'as store true or store const may be more appropriate')
    if action == 'help':
        default = SUPPRESS
    if 'type' in kwargs and not callable(kwargs['type']):
        raise ValueError(repr(kwargs['type']) + ' is not callable')
    a = Action(option_strings, dest, nargs, const, default, kwargs.get('type'), kwargs.get('choices'), required,
               kwargs.get('help'), kwargs.get('metavar'), action, kwargs.get('version'))
    actions.append(a)
    return a


class ArgumentParser:
    def __init__(self, prog=None, usage=None, description=None, epilog=None, parents=[], formatter_class=HelpFormatter,
                 prefix_chars='-', fromfile_prefix_chars=None, argument_default=None, conflict_handler='error',
                 add_help=True, allow_abbrev=True, exit_on_error=True):
        if prog is None:
            prog = os.path.basename(sys.argv[0]) if sys.argv and sys.argv[0] else 'nnscope'
        self.prog = prog
        self.usage = usage
        self.description = description
        self.epilog = epilog
        self.formatter_class = formatter_class
        self.argument_default = argument_default
        self.add_help = add_help
        self.allow_abbrev = allow_abbrev
        self.exit_on_error = exit_on_error
        self._actions = []
        self._defaults = {}
        self._subparsers = None
        self._groups = []
        self._positionals = self._new_group('positional arguments', None)
        self._optionals = self._new_group('options', None)
        if add_help:
            self.add_argument('-h', '--help', action='help', default=SUPPRESS,
                              help='show this help message and exit')
        for parent in parents:
            for a in parent._actions:
                if a.action != 'help':
                    self._actions.append(a)
            self._defaults.update(parent._defaults)

    def add_argument(self, *args, **kwargs):
        return _add_action(self._actions, self.argument_default, args, kwargs)

    def _new_group(self, title, description):
        return _Group(self._actions, self.argument_default, title, description)

    def add_argument_group(self, title=None, description=None):
        g = self._new_group(title, description)
        self._groups.append(g)
        return g

    def add_mutually_exclusive_group(self, required=False):
        return self._new_group(None, None)

    def add_subparsers(self, title=None, description=None, prog=None, parser_class=None, dest=SUPPRESS,
                       required=False, help=None, metavar=None):
        if self._subparsers is not None:
            self.error('cannot have multiple subparser arguments')
        if prog is None:
            before = [self._usage_part(a) for a in self._actions if not a.option_strings and a.help != SUPPRESS]
            prog = ' '.join([self.prog] + before)
        action = _SubParsersAction([], prog, parser_class or type(self), dest, required, help, metavar)
        self._actions.append(action)
        if title is not None or description is not None:
            group = self.add_argument_group(title or 'subcommands', description)
            group._actions.append(action)
        self._subparsers = action
        return action

    def __repr__(self):
        names = ['prog', 'usage', 'description', 'formatter_class', 'conflict_handler', 'add_help']
        return 'ArgumentParser(' + ', '.join([n + '=' + repr(getattr(self, n, 'error')) for n in names]) + ')'

    def set_defaults(self, **kwargs):
        self._defaults.update(kwargs)
        for a in self._actions:
            if a.dest in kwargs:
                a.default = kwargs[a.dest]

    def get_default(self, dest):
        for a in self._actions:
            if a.dest == dest and a.default is not None:
                return a.default
        return self._defaults.get(dest)

    # ---------------------------------------------------------------- help

    def _metavar(self, a):
        if a.metavar is not None:
            return a.metavar
        if a.choices is not None:
            return '{' + ','.join([str(c) for c in a.choices]) + '}'
        return a.dest.upper() if a.option_strings else a.dest

    def _format_args(self, a):
        m = self._metavar(a)
        if isinstance(m, tuple):
            parts = list(m)
        else:
            parts = None
        if a.nargs is None:
            return m if parts is None else parts[0]
        if a.nargs == '?':
            return '[' + m + ']'
        if a.nargs == '*':
            return '[' + m + ' ...]'
        if a.nargs == '+':
            return m + ' [' + m + ' ...]'
        if a.nargs == '...':
            return '...'
        if a.nargs == PARSER:
            return m + ' ...'
        if isinstance(a.nargs, int):
            return ' '.join(parts if parts is not None else [m] * a.nargs)
        return m

    def _invocation(self, a):
        if not a.option_strings:
            return self._metavar(a) if a.metavar is not None or a.choices is None else self._metavar(a)
        if a.nargs == 0:
            return ', '.join(a.option_strings)
        args = self._format_args(a)
        return ', '.join([s + ' ' + args for s in a.option_strings])

    def _usage_part(self, a):
        if not a.option_strings:
            return self._format_args(a)
        part = a.option_strings[0]
        if a.nargs != 0:
            part = part + ' ' + self._format_args(a)
        return part if a.required else '[' + part + ']'

    def format_usage(self):
        return self._usage_text() + '\n'

    def _usage_text(self):
        prefix = 'usage: '
        if self.usage is not None:
            return prefix + self.usage.replace('%(prog)s', self.prog)
        width = 78
        visible = [a for a in self._actions if a.help != SUPPRESS]
        opt_parts = [self._usage_part(a) for a in visible if a.option_strings]
        pos_parts = [self._usage_part(a) for a in visible if not a.option_strings]
        full = ' '.join([self.prog] + opt_parts + pos_parts)
        if len(prefix) + len(full) <= width:
            return prefix + full
        indent = ' ' * (len(prefix) + len(self.prog) + 1)

        def get_lines(parts, indent, with_prefix):
            lines = []
            line = []
            line_len = len(prefix) - 1 if with_prefix else len(indent) - 1
            for part in parts:
                if line_len + 1 + len(part) > width and line:
                    lines.append(indent + ' '.join(line))
                    line = []
                    line_len = len(indent) - 1
                line.append(part)
                line_len += len(part) + 1
            if line:
                lines.append(indent + ' '.join(line))
            if with_prefix:
                lines[0] = lines[0][len(indent):]
            return lines

        if len(prefix) + len(self.prog) <= 0.75 * width:
            if opt_parts:
                lines = get_lines([self.prog] + opt_parts, indent, True)
                lines.extend(get_lines(pos_parts, indent, False))
            elif pos_parts:
                lines = get_lines([self.prog] + pos_parts, indent, True)
            else:
                lines = [self.prog]
        else:
            indent = ' ' * len(prefix)
            lines = get_lines(opt_parts + pos_parts, indent, False)
            lines = [self.prog] + lines
        return prefix + '\n'.join(lines)

    def _help_text(self, a):
        text = a.help
        if issubclass(self.formatter_class, ArgumentDefaultsHelpFormatter) and '%(default)' not in text:
            if a.default != SUPPRESS and (a.option_strings or a.nargs in ['?', '*']):
                text = text + ' (default: %(default)s)'
        if '%' in text:
            params = dict(vars(a))
            params['prog'] = self.prog
            if params.get('choices') is not None:
                params['choices'] = ', '.join([str(c) for c in params['choices']])
            if params.get('type') is not None and hasattr(params['type'], '__name__'):
                params['type'] = params['type'].__name__
            text = text % params
        return text

    def format_help(self):
        width = 78
        visible = [a for a in self._actions if a.help != SUPPRESS]
        max_len = 0
        for a in visible:
            max_len = max(max_len, len(self._invocation(a)) + 2)
            for sub in _subactions(a):
                max_len = max(max_len, len(sub.metavar) + 4)
        help_position = min(max_len + 2, 24)
        help_width = max(width - help_position, 11)
        raw_text = issubclass(self.formatter_class, RawTextHelpFormatter)
        raw_description = issubclass(self.formatter_class, RawDescriptionHelpFormatter)

        def text_block(text):
            if raw_description:
                return text.strip('\n') + '\n'
            return '\n'.join(_wrap(text, width)) + '\n'

        def action_lines(a, indent=2):
            header = self._invocation(a)
            action_width = help_position - indent - 2
            if not a.help:
                out = ' ' * indent + header + '\n'
            else:
                if len(header) <= action_width:
                    out = ' ' * indent + header + ' ' * (action_width - len(header)) + '  '
                    first_indent = False
                else:
                    out = ' ' * indent + header + '\n'
                    first_indent = True
                text = self._help_text(a)
                lines = text.splitlines() if raw_text else _wrap(text, help_width)
                for i in range(len(lines)):
                    if i > 0 or first_indent:
                        out = out + ' ' * help_position
                    out = out + lines[i] + '\n'
            for sub in _subactions(a):
                out = out + action_lines(sub, indent + 2)
            return out

        sections = []
        grouped = {}
        for g in _flatten_groups(self._groups):
            for a in g._actions:
                grouped[id(a)] = g
        pos = [a for a in visible if not a.option_strings and id(a) not in grouped]
        opt = [a for a in visible if a.option_strings and id(a) not in grouped]
        if pos:
            sections.append('positional arguments:\n' + ''.join([action_lines(a) for a in pos]))
        if opt:
            sections.append('options:\n' + ''.join([action_lines(a) for a in opt]))
        for g in _flatten_groups(self._groups):
            acts = [a for a in g._actions if a.help != SUPPRESS]
            if not acts and not g.description:
                continue
            body = ''
            if g.description:
                body = '  ' + '\n  '.join(_wrap(g.description, width - 2)) + '\n\n'
            sections.append((g.title or '') + ':\n' + body + ''.join([action_lines(a) for a in acts]))
        out = self._usage_text() + '\n\n'
        if self.description:
            out = out + text_block(self.description) + '\n'
        out = out + '\n'.join(sections)
        if self.epilog:
            out = out + '\n' + text_block(self.epilog)
        return out

    def print_usage(self, file=None):
        (file or sys.stdout).write(self.format_usage())

    def print_help(self, file=None):
        (file or sys.stdout).write(self.format_help())

    def exit(self, status=0, message=None):
        if message:
            sys.stderr.write(message)
        sys.exit(status)

    def error(self, message):
        sys.stderr.write(self.format_usage())
        self.exit(2, self.prog + ': error: ' + message + '\n')

    # ---------------------------------------------------------------- parsing

    def _find_option(self, arg):
        for a in self._actions:
            if arg in a.option_strings:
                return a
        if self.allow_abbrev and arg.startswith('--'):
            hits = [a for a in self._actions for s in a.option_strings if s.startswith(arg)]
            if len(hits) == 1:
                return hits[0]
            if len(hits) > 1:
                names = [s for a in hits for s in a.option_strings if s.startswith(arg)]
                self.error('ambiguous option: ' + arg + ' could match ' + ', '.join(names))
        return None

    def _convert(self, a, s):
        if a.type is None:
            return s
        try:
            return a.type(s)
        except ArgumentTypeError as e:
            raise ArgumentError(a, str(e))
        except (TypeError, ValueError):
            name = getattr(a.type, '__name__', repr(a.type))
            raise ArgumentError(a, 'invalid ' + name + ' value: ' + repr(s))

    def _values(self, a, strings):
        if a.nargs is None or (a.nargs == '?' and strings) or a.nargs == 0:
            v = self._convert(a, strings[0]) if strings else None
            values = [v]
        else:
            values = [self._convert(a, s) for s in strings]
        if a.choices is not None:
            for v in values:
                if v not in a.choices:
                    raise ArgumentError(a, 'invalid choice: ' + repr(v) + ' (choose from ' +
                                        ', '.join([repr(c) for c in a.choices]) + ')')
        if a.nargs is None or a.nargs == '?':
            return values[0]
        return values

    def _take(self, a, ns, strings):
        kind = a.action
        if kind == 'parsers':
            a(self, ns, strings)
            return
        if kind == 'help':
            self.print_help()
            sys.exit(0)
        if kind == 'version':
            sys.stdout.write(a.version.replace('%(prog)s', self.prog) + '\n')
            sys.exit(0)
        if kind in ['store_true', 'store_false', 'store_const']:
            setattr(ns, a.dest, a.const)
        elif kind == 'count':
            n = getattr(ns, a.dest, None)
            setattr(ns, a.dest, 1 if n is None else n + 1)
        elif kind == 'append_const':
            items = list(getattr(ns, a.dest, None) or [])
            items.append(a.const)
            setattr(ns, a.dest, items)
        elif kind in ['append', 'extend']:
            items = list(getattr(ns, a.dest, None) or [])
            v = self._values(a, strings)
            if kind == 'append':
                items.append(v)
            else:
                items.extend(v)
            setattr(ns, a.dest, items)
        else:
            if a.nargs == '?' and not strings:
                setattr(ns, a.dest, a.const if a.option_strings else a.default)
            else:
                setattr(ns, a.dest, self._values(a, strings))

    def _arity(self, a):
        n = a.nargs
        if n is None:
            return 1, 1
        if n == '?':
            return 0, 1
        if n == '*' or n == '...':
            return 0, 1 << 30
        if n == '+' or n == PARSER:
            return 1, 1 << 30
        return n, n

    def _expected(self, a):
        n = a.nargs
        if n is None:
            return 'expected one argument'
        if n == '?':
            return 'expected at most one argument'
        if n == '+':
            return 'expected at least one argument'
        return 'expected ' + str(n) + ' argument' + ('s' if n != 1 else '')

    def _is_option(self, s):
        if not s.startswith('-') or s == '-':
            return False
        try:
            float(s)
            return False
        except ValueError:
            return True

    def parse_known_args(self, args=None, namespace=None):
        if args is None:
            args = sys.argv[1:]
        args = list(args)
        ns = namespace if namespace is not None else Namespace()
        for a in self._actions:
            if a.dest != SUPPRESS and a.default != SUPPRESS and not hasattr(ns, a.dest):
                setattr(ns, a.dest, a.default)
        for k in self._defaults:
            if not hasattr(ns, k):
                setattr(ns, k, self._defaults[k])
        try:
            extras = self._parse(args, ns)
            if hasattr(ns, _UNRECOGNIZED_ARGS_ATTR):
                extras.extend(getattr(ns, _UNRECOGNIZED_ARGS_ATTR))
                delattr(ns, _UNRECOGNIZED_ARGS_ATTR)
        except ArgumentError as e:
            if not self.exit_on_error:
                raise
            self.error(str(e))
        return ns, extras

    def _parse(self, args, ns):
        extras = []
        positional_strings = []
        seen = []
        before_command = 0
        for a in self._actions:
            if a is self._subparsers:
                break
            if not a.option_strings:
                before_command += self._arity(a)[0]
        i = 0
        while i < len(args):
            arg = args[i]
            i += 1
            if arg == '--':
                positional_strings.extend(args[i:])
                break
            if not self._is_option(arg):
                if self._subparsers is not None and len(positional_strings) == before_command:
                    # the command: it and all after it, options included, go to its parser
                    positional_strings.extend(args[i - 1:])
                    break
                positional_strings.append(arg)
                continue
            explicit = None
            a = None
            if '=' in arg:
                name, value = arg.split('=', 1)
                a = self._find_option(name)
                if a is not None:
                    explicit = value
            if a is None:
                a = self._find_option(arg)
            if a is None and not arg.startswith('--') and len(arg) > 2:
                a = self._find_option(arg[:2])
                if a is not None:
                    rest = arg[2:]
                    if a.nargs == 0:
                        # -vv: the flag repeated, or flags clustered
                        self._take(a, ns, [])
                        seen.append(a)
                        args = args[:i] + ['-' + rest] + args[i:]
                        continue
                    explicit = rest
            if a is None:
                extras.append(arg)
                continue
            seen.append(a)
            lo, hi = self._arity(a)
            if explicit is not None:
                if hi == 0:
                    raise ArgumentError(a, 'ignored explicit argument ' + repr(explicit))
                self._take(a, ns, [explicit])
                continue
            strings = []
            while i < len(args) and len(strings) < hi and not self._is_option(args[i]) and args[i] != '--':
                strings.append(args[i])
                i += 1
            if len(strings) < lo:
                raise ArgumentError(a, self._expected(a))
            self._take(a, ns, strings)
        positionals = [a for a in self._actions if not a.option_strings]
        mins = [self._arity(a)[0] for a in positionals]
        # the longest run of leading positionals that the strings can fill, as
        # CPython's _match_arguments_partial; the rest stay missing
        while positionals and sum(mins) > len(positional_strings):
            positionals.pop()
            mins.pop()
        k = 0
        for j in range(len(positionals)):
            a = positionals[j]
            lo, hi = self._arity(a)
            room = len(positional_strings) - k - sum(mins[j + 1:])
            take = max(min(hi, room), 0)
            if take < lo:
                break
            self._take(a, ns, positional_strings[k:k + take])
            seen.append(a)
            k += take
        extras.extend(positional_strings[k:])
        missing = [a for a in self._actions if a.required and a not in seen]
        if missing:
            names = [_action_name(a) for a in missing]
            raise ArgumentError(None, 'the following arguments are required: ' + ', '.join(names))
        for a in self._actions:
            if a not in seen and isinstance(a.default, str) and a.type is not None and \
                    getattr(ns, a.dest, None) is a.default:
                setattr(ns, a.dest, self._convert(a, a.default))
        return extras

    def parse_args(self, args=None, namespace=None):
        ns, extras = self.parse_known_args(args, namespace)
        if extras:
            self.error('unrecognized arguments: ' + ' '.join(extras))
        return ns
