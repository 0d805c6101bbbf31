/* lowprof-wlgen: speech-like 8 kHz audio.
 *
 * GSM 06.10 is a speech coder: its long-term predictor looks for the pitch
 * period and its short-term predictor models the formants. Feeding it tones
 * or white noise would exercise it unrealistically, so this synthesises
 * something closer to speech: syllables of a few hundred milliseconds, each
 * voiced (a sum of harmonics of a gliding pitch, weighted by three formant
 * resonances that move between syllables) or unvoiced (shaped noise, as in
 * s, f, sh), with attack and decay envelopes, short gaps between syllables
 * and longer pauses between phrases over a faint noise floor. */
#include <stdlib.h>

#include "wlgen.h"

#define RATE 8000
#define MAX_HARMONICS 40

struct wl_audio {
    wl_rng rng;
    /* current segment */
    int voiced;    /* 1 voiced syllable, 0 unvoiced, -1 silence */
    int length;    /* samples in the segment */
    int pos;       /* samples into it */
    int amplitude; /* peak, before the envelope */
    /* pitch in 1/16 Hz, gliding linearly from start to end */
    int pitch_start, pitch_end;
    int formant[3], bandwidth[3];
    uint32_t phase[MAX_HARMONICS];
    int32_t weight[MAX_HARMONICS]; /* Q12 amplitude per harmonic */
    int nharm;
    int32_t lp;         /* state of the one-pole filter that shapes noise */
    int syllables_left; /* before the phrase ends with a pause */
};

wl_audio *wl_audio_create(uint64_t seed)
{
    wl_sin_table_init();
    wl_audio *a = wl_xcalloc(1, sizeof *a);
    wl_rng_seed(&a->rng, seed);
    a->voiced = -1; /* start with a short silence */
    a->length = RATE / 10;
    return a;
}

void wl_audio_free(wl_audio *a)
{
    free(a);
}

static void next_segment(wl_audio *a)
{
    wl_rng *r = &a->rng;
    a->pos = 0;
    if (a->voiced != -1 && a->syllables_left <= 0) {
        /* phrase end: a pause of 0.15 to 0.6 s */
        a->voiced = -1;
        a->length = wl_rng_range(r, RATE * 15 / 100, RATE * 60 / 100);
        a->syllables_left = wl_rng_range(r, 3, 14);
        return;
    }
    if (a->voiced != -1 && wl_rng_chance(r, 25)) { /* gap between words */
        a->voiced = -1;
        a->length = wl_rng_range(r, RATE * 2 / 100, RATE * 8 / 100);
        return;
    }
    a->syllables_left--;
    a->voiced = wl_rng_chance(r, 78);
    a->length = a->voiced ? wl_rng_range(r, RATE * 8 / 100, RATE * 32 / 100)
                          : wl_rng_range(r, RATE * 4 / 100, RATE * 14 / 100);
    a->amplitude = wl_rng_range(r, 3000, 14000);
    /* Phrase intonation: pitch between 90 and 260 Hz, gliding. */
    a->pitch_start = wl_rng_range(r, 90 * 16, 260 * 16);
    a->pitch_end = a->pitch_start + wl_rng_range(r, -40 * 16, 30 * 16);
    if (a->pitch_end < 70 * 16)
        a->pitch_end = 70 * 16;
    static const int f1[] = {300, 400, 550, 700, 800}, f2[] = {900, 1200, 1700, 2100, 2400};
    /* One draw per statement: the order of two calls in one expression is
     * unspecified, and the output must not depend on the compiler. */
    a->formant[0] = f1[wl_rng_below(r, 5)];
    a->formant[0] += wl_rng_range(r, -50, 50);
    a->formant[1] = f2[wl_rng_below(r, 5)];
    a->formant[1] += wl_rng_range(r, -100, 100);
    a->formant[2] = wl_rng_range(r, 2500, 3300);
    a->bandwidth[0] = 90, a->bandwidth[1] = 120, a->bandwidth[2] = 200;
    int mean_pitch = (a->pitch_start + a->pitch_end) / 32;
    a->nharm = 3500 / (mean_pitch > 0 ? mean_pitch : 100);
    if (a->nharm > MAX_HARMONICS)
        a->nharm = MAX_HARMONICS;
    for (int k = 0; k < a->nharm; k++) {
        /* Resonance weight: sum over formants of 1 / (1 + (df / bw)^2),
         * with the spectral tilt of a glottal source (1/k). */
        long f = (long)(k + 1) * mean_pitch, w = 0;
        for (int i = 0; i < 3; i++) {
            long df = (f - a->formant[i]) * 64 / a->bandwidth[i];
            w += (4096L * 4096) / (4096 + df * df / 1) / (i + 1);
        }
        a->weight[k] = (int32_t)(w / (k + 1));
    }
}

int16_t wl_audio_next(wl_audio *a)
{
    if (a->pos >= a->length)
        next_segment(a);
    wl_rng *r = &a->rng;
    int32_t s = 0;
    /* Envelope: 15 ms attack, linear decay over the last 40 %. */
    int env = 4096;
    int attack = RATE * 15 / 1000;
    if (a->pos < attack)
        env = a->pos * 4096 / attack;
    else if (a->pos > a->length * 6 / 10)
        env = (a->length - a->pos) * 4096 / (a->length * 4 / 10 + 1);
    if (a->voiced == 1) {
        int pitch16 =
            a->pitch_start + (a->pitch_end - a->pitch_start) * a->pos / (a->length ? a->length : 1);
        /* phase increment of the fundamental: pitch / RATE turns */
        uint32_t inc = (uint32_t)(((uint64_t)pitch16 << 32) / 16 / RATE);
        int64_t acc = 0, norm = 0;
        for (int k = 0; k < a->nharm; k++) {
            a->phase[k] += inc * (uint32_t)(k + 1);
            acc += (int64_t)wl_sin_q15(a->phase[k]) * a->weight[k];
            norm += a->weight[k];
        }
        if (norm > 0)
            s = (int32_t)(acc / norm); /* Q15 */
        s = (int32_t)((int64_t)s * a->amplitude / 32768);
        s += (int32_t)wl_rng_below(r, 65) - 32; /* breath */
    } else if (a->voiced == 0) {
        /* Unvoiced: white noise through a one-pole high-pass, as fricatives
         * have most energy high up. */
        int32_t n = (int32_t)wl_rng_below(r, 65536) - 32768;
        int32_t hp = n - a->lp;
        a->lp += (n - a->lp) >> 2;
        s = (int32_t)((int64_t)hp * a->amplitude / 3 / 65536);
    } else {
        s = (int32_t)wl_rng_below(r, 41) - 20; /* room noise */
        env = 4096;
    }
    s = s * env / 4096;
    a->pos++;
    s = wl_clamp(s, -32768, 32767);
    return (int16_t)(s & ~7); /* 13 significant bits */
}
