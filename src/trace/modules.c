/* The module map: which object file each text range of the profiled process
 * came from, with the load bias and build id the symbolizer needs, and its
 * chunk. Processes map tens to hundreds of objects, so lookup is a linear
 * scan; the array grows by doubling (its capacity follows from the count,
 * see room()) because a map may be built one module at a time. */
#include "trace_internal.h"

/* The capacity an items array of n modules has: every function that makes
 * or grows one allocates exactly this, so add() can tell when it is full. */
static size_t room(size_t n)
{
    size_t cap = 8;
    while (cap < n)
        cap *= 2;
    return cap;
}

static int set_module(lp_module *md, const char *path, size_t path_len, uint64_t start,
                      uint64_t size, int64_t bias, const uint8_t *build_id, size_t build_id_len)
{
    __builtin_memset(md, 0, sizeof *md);
    md->path = lp__strndup(path, path_len);
    if (!md->path)
        return LP_ENOMEM;
    md->start = start;
    md->size = size;
    md->bias = bias;
    if (build_id_len)
        __builtin_memcpy(md->build_id, build_id, build_id_len);
    md->build_id_len = (uint8_t)build_id_len;
    return 0;
}

/* NULL m or path, a build id over 32 bytes or a NULL one with a non-zero
 * length give LP_EINVAL; a path over LP__MAX_STRING bytes or a map already
 * holding LP__MAX_MODULES modules give LP_ELIMIT. */
int lp_module_map_add(lp_module_map *m, const char *path, uint64_t start, uint64_t size,
                      int64_t bias, const uint8_t *build_id, size_t build_id_len)
{
    if (!m || !path || build_id_len > LP__MAX_BUILD_ID || (!build_id && build_id_len))
        return LP_EINVAL;
    size_t len = lp__strlen(path);
    if (len > LP__MAX_STRING || m->count >= LP__MAX_MODULES)
        return LP_ELIMIT;
    if (!m->items || m->count == room(m->count)) {
        size_t old = m->items ? room(m->count) : 0, cap = m->items ? 2 * old : room(0);
        lp_module *items = lp_realloc(m->items, old * sizeof *items, cap * sizeof *items);
        if (!items)
            return LP_ENOMEM;
        m->items = items;
    }
    int rc = set_module(&m->items[m->count], path, len, start, size, bias, build_id, build_id_len);
    if (!rc)
        m->count++;
    return rc;
}

const lp_module *lp_module_map_find(const lp_module_map *m, uint64_t pc)
{
    if (!m)
        return NULL;
    for (size_t i = 0; i < m->count; i++)
        if (pc >= m->items[i].start && pc - m->items[i].start < m->items[i].size)
            return &m->items[i];
    return NULL;
}

void lp_module_map_fini(lp_module_map *m)
{
    if (!m)
        return;
    for (size_t i = 0; i < m->count; i++)
        lp_free(m->items[i].path);
    lp_free(m->items);
    m->items = NULL;
    m->count = 0;
}

/* A NULL src copies as empty. On failure dst is left empty. */
int lp_module_map_copy(lp_module_map *dst, const lp_module_map *src)
{
    if (!dst)
        return LP_EINVAL;
    if (dst == src)
        return 0;
    lp_module_map_fini(dst);
    for (size_t i = 0; src && i < src->count; i++) {
        const lp_module *s = &src->items[i];
        int rc = lp_module_map_add(dst, s->path, s->start, s->size, s->bias, s->build_id,
                                   s->build_id_len);
        if (rc) {
            lp_module_map_fini(dst);
            return rc;
        }
    }
    return 0;
}

int lp__modules_write(lp_sink sink, const lp_module_map *m, lp__buf *scratch)
{
    size_t n = m ? m->count : 0;
    if (n > LP__MAX_MODULES)
        return LP_ELIMIT;
    lp__buf_reset(scratch);
    lp__buf_varint(scratch, n);
    for (size_t i = 0; i < n; i++) {
        const lp_module *md = &m->items[i];
        if (!md->path || md->build_id_len > LP__MAX_BUILD_ID)
            return LP_EINVAL;
        size_t len = lp__strlen(md->path);
        if (len > LP__MAX_STRING)
            return LP_ELIMIT;
        lp__buf_string(scratch, md->path, len);
        lp__buf_varint(scratch, md->start);
        lp__buf_varint(scratch, md->size);
        lp__buf_varint(scratch, lp__zigzag((uint64_t)md->bias));
        lp__buf_varint(scratch, md->build_id_len);
        lp__buf_put(scratch, md->build_id, md->build_id_len);
    }
    if (scratch->err)
        return scratch->err;
    return lp__chunk_write(sink, LP__CH_MODULES, scratch->data, scratch->size, NULL, 0);
}

int lp__modules_decode(const lp__reader *r, lp_module_map *out, lp_read_error *err)
{
    char field[48];
    lp__cur c = lp__reader_cursor(r);
    lp_module_map m = {NULL, 0};
    uint64_t count;
    /* Path length, start, size, bias and build-id length: 5 bytes at least. */
    int rc = lp__get_count(&c, &count, LP__MAX_MODULES, 5, "modules.count", err);
    if (!rc && count) {
        m.items = lp_calloc(room((size_t)count), sizeof *m.items);
        if (!m.items)
            rc = lp__fail(err, lp__cur_offset(&c), LP_ENOMEM, "modules", "no memory");
    }
    for (uint64_t i = 0; !rc && i < count; i++) {
        lp_module *md = &m.items[i];
        uint64_t zz, idlen;
        rc = lp__get_string(&c, &md->path,
                            lp__fmt(field, sizeof field, "module[%llu].path", LP__ULL(i)), err);
        if (rc)
            break;
        m.count++;
        rc = lp__get_varint(&c, &md->start,
                            lp__fmt(field, sizeof field, "module[%llu].start", LP__ULL(i)), err);
        if (!rc)
            rc = lp__get_varint(&c, &md->size,
                                lp__fmt(field, sizeof field, "module[%llu].size", LP__ULL(i)), err);
        if (!rc)
            rc = lp__get_varint(&c, &zz,
                                lp__fmt(field, sizeof field, "module[%llu].bias", LP__ULL(i)), err);
        if (!rc)
            md->bias = (int64_t)lp__unzigzag(zz);
        if (!rc)
            rc = lp__get_range(&c, &idlen, 0, LP__MAX_BUILD_ID, 0,
                               lp__fmt(field, sizeof field, "module[%llu].build_id", LP__ULL(i)),
                               err);
        if (!rc && idlen > lp__cur_left(&c))
            rc = lp__fail(err, lp__cur_offset(&c), LP_EFORMAT, field,
                          "build id runs past the end of the payload");
        if (!rc) {
            __builtin_memcpy(md->build_id, c.p + c.pos, (size_t)idlen);
            md->build_id_len = (uint8_t)idlen;
            c.pos += (size_t)idlen;
        }
    }
    if (!rc)
        rc = lp__cur_expect_end(&c, "modules", err);
    if (rc) {
        lp_module_map_fini(&m);
        return rc;
    }
    lp_module_map_fini(out);
    *out = m;
    return 0;
}
