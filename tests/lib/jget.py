#!/usr/bin/python3
# jget.py: the JSON reader of the bash tests (tests/lib/tap.sh jget and
# jeval call it).
#
#   jget.py PATH [FILE]      the field at PATH of the JSON document in FILE
#                            (default: stdin).  PATH is keys and array
#                            indexes joined by dots: rollout.state.phase,
#                            features.0.sysctl (-1 is the last element).
#                            A string prints as it is; a number, true,
#                            false and null as JSON writes them; an object
#                            or array as compact JSON.
#   jget.py -e EXPR [FILE]   print(EXPR), a Python expression over d, the
#                            document (and the json module), for what a
#                            path cannot say (a list made from many
#                            fields, a comparison).
#
# Exit 0; 1 if PATH is not in the document (saying which part is missing
# and what was there instead); 2 if the input is not JSON or the usage is
# wrong.
import json
import sys


def fail(code, msg):
    print("jget: " + msg, file=sys.stderr)
    sys.exit(code)


def walk(d, path):
    cur, done = d, []
    for part in path.split("."):
        where = ".".join(done) or "the top"
        if isinstance(cur, dict):
            if part not in cur:
                fail(1, "%s: no key %r at %s (keys: %s)"
                     % (path, part, where, ", ".join(sorted(cur)) or "none"))
            cur = cur[part]
        elif isinstance(cur, list):
            try:
                i = int(part)
                cur = cur[i]
            except (ValueError, IndexError):
                fail(1, "%s: no element %r at %s (an array of %d)"
                     % (path, part, where, len(cur)))
        else:
            fail(1, "%s: %s is %s, not an object or array"
                 % (path, where, json.dumps(cur)))
        done.append(part)
    return cur


def main(argv):
    expr = argv[:1] == ["-e"]
    args = argv[1:] if expr else argv
    if len(args) not in (1, 2) or not args[0]:
        fail(2, "usage: jget.py PATH [FILE] | jget.py -e EXPR [FILE]")
    name = args[1] if len(args) == 2 and args[1] != "-" else None
    try:
        if name:
            with open(name) as f:
                d = json.load(f)
        else:
            d = json.load(sys.stdin)
    except (OSError, ValueError) as e:
        fail(2, "%s: %s" % (name or "stdin", e))
    if expr:
        print(eval(args[0], {"d": d, "json": json}))
        return
    v = walk(d, args[0])
    print(v if isinstance(v, str) else json.dumps(v, separators=(",", ":")))


main(sys.argv[1:])
