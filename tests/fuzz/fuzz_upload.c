/* Fuzz target for the collector's message decoder (lp_upload_unpack): the
 * bytes anyone with a token can POST. With a 1 MiB limit it must never
 * allocate past the limit (the sanitizers' malloc limit catches that in
 * libFuzzer runs), and:
 *   - on success, the set packs again and unpacks to the same identity
 *     and the same profile file;
 *   - on failure, it says why, and leaves nothing to free.
 * Plain inputs run a second time with their chunk checksums repaired
 * (fuzz_common.h), so the mutations reach the profile reader and the
 * identity checks behind the CRCs. */
#include "fuzz_common.h"
#include "lowprof/upload.h"

#define FUZZ_LIMIT ((size_t)1 << 20)

static void run(const uint8_t *data, size_t size)
{
    lp_profile_set set;
    lp_upload_id id;
    lp_membuf raw = {0};
    char why[256];
    memset(why, 0x7f, sizeof why);
    int rc = lp_upload_unpack(data, size, FUZZ_LIMIT, &set, &id, &raw, why, sizeof why);
    if (rc) {
        FUZZ_ASSERT(rc < 0 && rc >= LP_ESPEC);
        FUZZ_ASSERT(memchr(why, '\0', sizeof why) != NULL && why[0] != '\0');
        FUZZ_ASSERT(set.count == 0 && set.profiles == NULL && set.meta.count == 0 &&
                    set.modules.count == 0);
        FUZZ_ASSERT(raw.size == 0);
        lp_membuf_free(&raw);
        return;
    }
    FUZZ_ASSERT(raw.size <= FUZZ_LIMIT);
    FUZZ_ASSERT(id.message_id[0] && id.build_id[0] && id.program[0] && id.device[0]);
    lp_membuf body = {0}, raw2 = {0};
    FUZZ_ASSERT(lp_upload_pack(&set, &body) == 0);
    lp_profile_set again;
    lp_upload_id id2;
    FUZZ_ASSERT(lp_upload_unpack(body.data, body.size, FUZZ_LIMIT, &again, &id2, &raw2, why,
                                 sizeof why) == 0);
    FUZZ_ASSERT(strcmp(id.message_id, id2.message_id) == 0);
    FUZZ_ASSERT(strcmp(id.build_id, id2.build_id) == 0);
    FUZZ_ASSERT(strcmp(id.program, id2.program) == 0);
    FUZZ_ASSERT(strcmp(id.device, id2.device) == 0);
    FUZZ_ASSERT(id.instructions == id2.instructions);
    FUZZ_ASSERT(fuzz_same_meta(&set.meta, &again.meta));
    FUZZ_ASSERT(fuzz_same_modules(&set.modules, &again.modules));
    FUZZ_ASSERT(set.count == again.count);
    /* The writer is deterministic: what was re-packed is what was read,
     * once written the one canonical way. */
    lp_membuf canon = {0};
    FUZZ_ASSERT(lp_profile_file_write(&set, lp_membuf_sink(&canon)) == 0);
    FUZZ_ASSERT(canon.size == raw2.size && memcmp(canon.data, raw2.data, canon.size) == 0);
    lp_membuf_free(&canon);
    lp_membuf_free(&body);
    lp_membuf_free(&raw);
    lp_membuf_free(&raw2);
    lp_profile_set_fini(&again);
    lp_profile_set_fini(&set);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    run(data, size);
    uint8_t *fixed = fuzz_fix_checksums(data, size);
    if (fixed) {
        run(fixed, size);
        free(fixed);
    }
    return 0;
}
