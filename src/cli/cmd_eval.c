/* lowprof eval: the papers' experiments, one subcommand each
 * ("experiments"), reproduced on the workload suite. This file holds the
 * help and the dispatch; the experiments are src/eval's (lowprof/eval.h). */
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "lowprof/eval.h"


const char cmd_eval_help[] =
    "usage: lowprof eval EXPERIMENT [OPTIONS]\n"
    "\n"
    "Reproduces a paper's evaluation on the workload suite and writes tables\n"
    "(CSV, Markdown) and plots (SVG through gnuplot, when installed) under a\n"
    "results folder, then prints a summary. Each experiment has a small mode\n"
    "(the default, minutes, run in CI) and a full mode for a person (--full).\n"
    "\n"
    "Experiments:\n"
    "  compressors   stream compressors of the stratified-sampling paper:\n"
    "                Monte Carlo (Fig. 4), load-value profiling (Figs. 7-8),\n"
    "                table size (Fig. 9), +A16 (Fig. 10), edges and call\n"
    "                targets (Fig. 11)\n"
    "  flag-prediction  the profile flag predictor of the profile-flags paper\n"
    "                (section IV) on trace-pc-guard blocks of the native\n"
    "                programs: accuracy, skips, fetches saved per duty:\n"
    "                lowprof eval flag-prediction [--full] [--out DIR]\n"
    "                [--workloads LIST] [--program FILE.c,...]\n"
    "  phase         phase-aware, periodic and random interval sampling of the\n"
    "                remote-profiling paper (Figs. 10-15):\n"
    "                lowprof eval phase [--full] [--out DIR] [--workloads LIST]\n"
    "                [--matrices DIR]\n"
    "  hps           the instructions DISE and HPS add to sample one event in\n"
    "                100 (Fig. 9), and the counter trigger against the\n"
    "                software sampling framework:\n"
    "                lowprof eval hps [--out DIR] [--workloads LIST] [--period N]\n"
    "  native        overhead and accuracy of the native runtime's call-graph\n"
    "                and block profiles in 0-100 % windows (the profile-flags\n"
    "                paper's Tables IV-VI), against gprof, clang's profile,\n"
    "                -finstrument-functions and perf on the native programs:\n"
    "                lowprof eval native [--programs LIST] [--rounds N]\n"
    "                [--size default|small] [--hot N] [--no-callgrind]\n"
    "                [--no-real] [--out DIR]   (doc/eval-native.md)\n"
    "  bursty        bursty tracing's basic overhead per check placement\n"
    "                (Fig. 6), hot-data-stream overlap per sampling setting\n"
    "                (Fig. 7) and per placement (Fig. 8):\n"
    "                lowprof eval bursty [--full] [--out DIR] [--workloads LIST]\n"
    "                (doc/eval-bursty.md)\n"
    "\n"
    "lowprof eval compressors [--full] [--out DIR] [--workloads LIST] [--events N]\n"
    "  --full            every workload, 16M loads, 2500 Monte Carlo trials\n"
    "                    (about an hour); default: bzip2-9, gzip-9, cc1, 4M\n"
    "                    loads, 300 trials (a few minutes)\n"
    "  --out DIR         results folder [results/eval-compressors]\n"
    "  --workloads LIST  comma-separated workloads of workloads/suite.tsv\n"
    "  --events N        load events replayed per workload (K, M suffixes:\n"
    "                    binary) [4M; 16M with --full]\n"
    "  --trials N        Monte Carlo trials per stream length [300; 2500]\n"
    "  --mc-lengths LIST Monte Carlo stream lengths [1000,2000,...,20000]\n"
    "  --mc-n N          n of H[X]_n in the Monte Carlo study [4]\n"
    "  --mc-only         run the Monte Carlo study alone\n"
    "  --no-mc           skip the Monte Carlo study\n"
    "  --trace FILES     replay these event traces (comma-separated, from\n"
    "                    `lowprof record --trace`) instead of recording workloads\n"
    "  --compressors L   value compressors of Figs. 7-8 instead of R256, P256,\n"
    "                    H[P256]2048, H[P512]2048, T2:256x2048w2\n"
    "  --size SIZE       data set of the workloads: small or full [small]\n"
    "  --data DIR        inputs already prepared by `lowprof workloads`\n"
    "                    (its DIR/data) [OUT/data, generated when needed]\n"
    "  --seed N          seed of the compressors and the Monte Carlo streams [1]\n"
    "  --keep-traces     keep OUT/traces/*.lpev (deleted after replay otherwise)\n"
    "\n"
    "Each workload is recorded once with `lowprof record --trace` (loads,\n"
    "branches, calls) and replayed offline through every compressor. The\n"
    "files, their columns and the modeling choices are in doc/lowprof-eval.md.\n"
    "\n"
    "lowprof eval flag-prediction [--full] [--out DIR] [--workloads LIST]\n"
    "                             [--program FILE.c,...] [OPTIONS]\n"
    "  --full            native size `default`, the paper's 20M period (default:\n"
    "                    size `small`, period 2M; under 2 minutes)\n"
    "  --out DIR         results folder [results/eval-flags]\n"
    "  --workloads LIST  comma-separated programs of workloads/native [all]\n"
    "  --program FILES   comma-separated C files, each a whole program run without\n"
    "                    arguments, instead of the native programs\n"
    "  --period N        instructions per window period (K, M: decimal) [2M]\n"
    "  --duties LIST     profiling-on shares in percent [0,10,25,50,100]\n"
    "  --hot N           also with the flag on only in the N hottest instrumented\n"
    "                    methods; 0: every method only [10]\n"
    "  --sets N, --ways N, --min-skip N\n"
    "                    block descriptor table and shortest skipped block [64, 2, 4]\n"
    "  --trace-limit N   events kept per trace [200M]\n"
    "  --clang PATH      the compiler [clang]\n"
    "  --keep-traces     keep OUT/traces/*.lpev\n"
    "Each program is built with clang -O2 -fsanitize-coverage=trace-pc-guard and\n"
    "a counting callback, recorded with `lowprof record --trace` (calls, returns,\n"
    "blocks), and every callback call replayed as one profile block through the\n"
    "predictor; definitions and results in doc/flags.md.\n"
    "\n"
    "Exit status: 0 when everything ran, 1 when a workload or a file failed\n"
    "(the others are still reported), 2 for a bad command line.\n"
    "\n"
    "Examples:\n"
    "  lowprof eval compressors\n"
    "  lowprof eval compressors --mc-only --trials 2500\n"
    "  lowprof eval compressors --workloads gzip-9,cc1 --events 16M --out /tmp/ec\n";

int cmd_eval(int argc, char **argv)
{
    if (argc < 2)
        return lp_host_usage("eval", "name an experiment: compressors, flag-prediction, "
                                    "phase, hps, native or bursty");
    const lp_eval_experiment *e = lp_eval_find(argv[1]);
    if (e)
        return e->run(argc - 1, argv + 1);
    fprintf(stderr, "lowprof eval: unknown experiment '%s'; the experiments are:", argv[1]);
    for (e = lp_eval_experiments; e->name; e++)
        fprintf(stderr, " %s", e->name);
    fprintf(stderr, "\nTry 'lowprof help eval'.\n");
    return 2;
}
