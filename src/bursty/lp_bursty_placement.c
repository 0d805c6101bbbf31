/* bursty: the names of the check-placement variants of sections 4 and
 * 5.1 (the bars of Figs. 6 and 8: orig, EL, EC, EN, L4, L10, LN, EC+L4),
 * parsed and printed.
 *
 * Runs once per experiment on a short option string; written for exact
 * error positions rather than speed. */
#include "lowprof/bursty.h"

/* Parses the entry part at text[*at]; returns 1 and advances on a match. */
static int parse_entry(const char *text, size_t len, size_t *at, uint8_t *out)
{
    if (len - *at < 2 || text[*at] != 'E')
        return 0;
    switch (text[*at + 1]) {
    case 'L': *out = LP_BURSTY_ENTRY_NON_LEAF; break;
    case 'C': *out = LP_BURSTY_ENTRY_SET_C; break;
    case 'N': *out = LP_BURSTY_ENTRY_NONE; break;
    default: return 0;
    }
    *at += 2;
    return 1;
}

/* Parses the loop part at text[*at]. Returns 1 and advances on a match,
 * 0 when text[*at] does not start one, -1 for a bad or overflowing number
 * (with *at at the offending byte). */
static int parse_loop(const char *text, size_t len, size_t *at, uint8_t *out_loop,
                      uint32_t *out_k)
{
    if (*at >= len || text[*at] != 'L')
        return 0;
    size_t p = *at + 1;
    if (p < len && text[p] == 'N') {
        *out_loop = LP_BURSTY_LOOP_NONE;
        *out_k = 0;
        *at = p + 1;
        return 1;
    }
    if (p >= len || text[p] < '0' || text[p] > '9') {
        *at = p;
        return -1;
    }
    uint64_t k = 0;
    while (p < len && text[p] >= '0' && text[p] <= '9') {
        k = k * 10 + (uint64_t)(text[p] - '0');
        if (k > UINT32_MAX) {
            *at = p;
            return -1;
        }
        p++;
    }
    *out_loop = LP_BURSTY_LOOP_SKIP_BORING;
    *out_k = (uint32_t)k;
    *at = p;
    return 1;
}

int lp_bursty_placement_parse(const char *text, size_t len, lp_bursty_placement *out,
                              size_t *out_pos)
{
    lp_bursty_placement p = {LP_BURSTY_ENTRY_ALL, LP_BURSTY_LOOP_ALL, 0};
    size_t at = 0;
    int r;

    if (!text) {
        len = 0;
        text = "";
    }
    if (len == 4 && text[0] == 'o' && text[1] == 'r' && text[2] == 'i' && text[3] == 'g') {
        *out = p;
        return 0;
    }
    if (parse_entry(text, len, &at, &p.entry)) {
        if (at == len)
            goto done;
        if (text[at] != '+')
            goto fail;
        at++;
        r = parse_loop(text, len, &at, &p.loop, &p.k);
    } else if (len && text[0] == 'E') {
        at = 1; /* "E" then something other than L, C or N */
        goto fail;
    } else {
        r = parse_loop(text, len, &at, &p.loop, &p.k);
    }
    if (r <= 0 || at != len)
        goto fail;
done:
    *out = p;
    return 0;
fail:
    if (out_pos)
        *out_pos = at;
    return LP_ESPEC;
}

/* Appends s to buf while room lasts; returns the new length. */
static size_t put(char *buf, size_t cap, size_t n, const char *s)
{
    for (; *s; s++, n++)
        if (n + 1 < cap)
            buf[n] = *s;
    return n;
}

size_t lp_bursty_placement_format(const lp_bursty_placement *p, char *buf, size_t cap)
{
    static const char *const entry_names[] = {"", "EL", "EC", "EN"};
    size_t n = 0;

    if (p->entry > LP_BURSTY_ENTRY_NONE || p->loop > LP_BURSTY_LOOP_NONE)
        return 0;
    if (p->entry == LP_BURSTY_ENTRY_ALL && p->loop == LP_BURSTY_LOOP_ALL) {
        n = put(buf, cap, n, "orig");
    } else {
        n = put(buf, cap, n, entry_names[p->entry]);
        if (p->entry != LP_BURSTY_ENTRY_ALL && p->loop != LP_BURSTY_LOOP_ALL)
            n = put(buf, cap, n, "+");
        if (p->loop == LP_BURSTY_LOOP_NONE) {
            n = put(buf, cap, n, "LN");
        } else if (p->loop == LP_BURSTY_LOOP_SKIP_BORING) {
            char digits[12];
            size_t d = sizeof digits - 1;
            uint32_t k = p->k;
            digits[d] = '\0';
            do {
                digits[--d] = (char)('0' + k % 10);
                k /= 10;
            } while (k);
            n = put(buf, cap, n, "L");
            n = put(buf, cap, n, digits + d);
        }
    }
    if (cap)
        buf[n < cap ? n : cap - 1] = '\0';
    return n;
}
