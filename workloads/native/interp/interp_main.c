/* interp: the driver. Parses and compiles the embedded script, calls its
 * main(rounds) with rounds from the size argument, and prints a checksum of
 * the result, everything the script emitted and the number of calls. */
#include "interp.h"
#include "../support/native_common.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(int argc, char **argv)
{
    static const nw_sizes sizes = {2, 900, 3600};
    long rounds;
    if (nw_args_parse(argc, argv, "SIZE: rounds of the script's main loop (small 2, default 900)",
                      &sizes, &rounds, NULL))
        return 2;

    nw_arena *ar = nw_arena_create();
    it_node *script = it_parse(ar, it_script_source);
    if (!script) {
        nw_arena_free(ar);
        return 1;
    }
    it_vm vm;
    it_vm_init(&vm);
    it_program prog;
    memset(&prog, 0, sizeof prog);
    int rc = it_compile(&vm, script, &prog);
    nw_arena_free(ar);
    if (rc) {
        it_vm_free(&vm);
        return 1;
    }
    if (getenv("INTERP_LISTING")) {
        for (int i = 0; i < prog.n_funcs; i++)
            it_disassemble(&prog.funcs[i]);
    }

    int entry = it_program_find(&prog, "main");
    it_value arg = it_int(rounds), result;
    if (entry < 0 || it_vm_invoke(&vm, &prog, entry, 1, &arg, &result)) {
        fprintf(stderr, "interp: %s\n", entry < 0 ? "no main" : vm.error);
        it_program_free(&prog);
        it_vm_free(&vm);
        return 1;
    }
    uint64_t h = it_value_hash(NW_HASH_INIT, result);
    h = nw_hash_u64(h, vm.emitted);
    h = nw_hash_u64(h, vm.calls);
    fprintf(stderr, "interp: %ld rounds, result %lld, %llu calls, max depth %d, %llu collections\n",
            rounds, (long long)result.as.i, (unsigned long long)vm.calls, vm.max_depth,
            (unsigned long long)vm.heap.collections);
    nw_report("interp", h);
    it_program_free(&prog);
    it_vm_free(&vm);
    return 0;
}
