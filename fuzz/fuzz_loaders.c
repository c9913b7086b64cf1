/*
 * fuzz_loaders.c — libFuzzer target: the language's own readers of bytes and
 * text. Each input is bound as `data` (bytes) in the target's interpreter, which then
 * hands it to pickle.loads, struct.unpack/iter_unpack, base64/binascii decoding,
 * bytes.decode, json.loads, datetime's fromisoformat/strptime, hashlib and
 * int/float parsing, each in its own try: only Python exceptions may come out,
 * within one second (then Ctrl-C). torch.load has its own target
 * (fuzz_torch_load.c).
 */
#include "fuzz.h"

#include "repl/bytes_int.h"
#include "repl/repl.h"

static const char loaders_program[] =
    "import pickle, struct, base64, binascii, json, datetime, hashlib\n"
    "def _try(f):\n"
    "    try:\n"
    "        r = f()\n"
    "        repr(r)\n"
    "    except Exception:\n"
    "        pass\n"
    "text = data.decode('latin-1')\n"
    "fmt = text[:8]\n"
    "_try(lambda: pickle.loads(data))\n"
    "_try(lambda: struct.unpack(fmt, data[8:]))\n"
    "_try(lambda: list(struct.iter_unpack(fmt, data[8:])))\n"
    "_try(lambda: struct.calcsize(text))\n"
    "_try(lambda: base64.b64decode(data))\n"
    "_try(lambda: base64.b64decode(data, validate=True))\n"
    "_try(lambda: base64.urlsafe_b64decode(data))\n"
    "_try(lambda: base64.b32decode(data))\n"
    "_try(lambda: base64.b16decode(data))\n"
    "_try(lambda: binascii.unhexlify(data))\n"
    "_try(lambda: binascii.a2b_base64(data))\n"
    "_try(lambda: data.decode('utf-8'))\n"
    "_try(lambda: data.decode('utf-8', 'replace'))\n"
    "_try(lambda: data.decode('ascii', 'backslashreplace'))\n"
    "_try(lambda: json.loads(data))\n"
    "_try(lambda: datetime.datetime.fromisoformat(text))\n"
    "_try(lambda: datetime.date.fromisoformat(text))\n"
    "_try(lambda: datetime.datetime.strptime(text[8:], fmt))\n"
    "_try(lambda: hashlib.sha256(data).hexdigest())\n"
    "_try(lambda: hashlib.md5(data).hexdigest())\n"
    "_try(lambda: int(text))\n"
    "_try(lambda: int(text, 16))\n"
    "_try(lambda: float(text))\n"
    "_try(lambda: int.from_bytes(data, 'little'))\n";

static void loaders_discard(void *ud, const char *s, size_t n)
{
    (void)ud;
    (void)s;
    (void)n;
}

/* One interpreter for every input (the modules imported once: a fresh one per
   input ran about two inputs a second); `data` is bound anew each time. */
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static repl_interp *in;
    fuzz_setup();
    if (size > 65536) return 0;
    if (!in && (in = repl_interp_new())) repl_set_writer(in, loaders_discard, NULL);
    if (in) {
        nn_object *bytes = repl_bytes_new(data, size, false);
        if (bytes && repl_set_global(in, "data", bytes) == 0) {
            fuzz_start(1);
            if (repl_exec(in, loaders_program, "<fuzz>", REPL_PARSE_FILE, NULL) < 0) {
                char *tb = repl_traceback(in);
                nn_free(tb);
            }
            fuzz_stop();
        }
        NN_RELEASE(bytes);
    }
    nn_error_clear();
    return 0;
}
