# bbv-phases.awk: phase statistics of one run from Valgrind's exp-bbv output.
#
#   valgrind --tool=exp-bbv --interval-size=10000000 --bb-out-file=RUN.bb PROGRAM...
#   awk -f bbv-phases.awk [-v threshold=0.1] RUN.bb
#
# exp-bbv writes one line per interval: "T" then ":id:weight" pairs, where
# weight is the instructions executed in basic block id during the interval.
# Each interval's vector and the whole run's (the sum of all intervals) are
# normalised to sum 1 and compared by half the L1 distance, the measure
# lowprof uses for signatures (0 = the same proportions, 1 = disjoint).
#
# Prints one line: intervals, heterogeneity (the median over intervals of
# the distance to the whole run: how far a typical interval is from the
# average behaviour), clusters (leader clustering at `threshold`: an interval
# joins the first cluster whose leader is closer than threshold, else leads
# a new one), transitions (consecutive intervals in different clusters) and
# returns (transitions into a cluster seen before: recurring phases).
#
# Uses only POSIX awk features, so mawk and gawk agree.

BEGIN {
    if (threshold == "")
        threshold = 0.1
    n = 0
}

/^T/ {
    n++
    total = 0
    line = substr($0, 2)
    k = split(line, parts, ":")
    # parts: "", id, "weight   ", id, "weight", ...
    for (i = 2; i + 1 <= k; i += 2) {
        id = parts[i]
        w = parts[i + 1] + 0
        vec[n, id] += w
        total += w
        whole[id] += w
        if (!((n, id) in seen)) {
            seen[n, id] = 1
            ids[n] = ids[n] " " id
        }
    }
    tot[n] = total
}

function dist_to_whole(t,    m, s, id, a, j, d, all) {
    # sum over ids of |p_t - q|, where blocks absent from t contribute q:
    # sum_all |p - q| = sum_{id in t} (|p - q| - q) + sum_all q = ... + 1
    m = split(ids[t], a, " ")
    s = 0
    for (j = 1; j <= m; j++) {
        id = a[j]
        d = vec[t, id] / tot[t] - whole[id] / wholetot
        s += (d < 0 ? -d : d) - whole[id] / wholetot
    }
    s += 1
    return s / 2
}

function dist_between(t, u,    m, s, id, a, j, d, pu) {
    # Same trick: blocks of u absent from t contribute p_u, total 1 minus
    # the shared part, computed from t's side.
    m = split(ids[t], a, " ")
    s = 0
    for (j = 1; j <= m; j++) {
        id = a[j]
        pu = ((u, id) in seen) ? vec[u, id] / tot[u] : 0
        d = vec[t, id] / tot[t] - pu
        s += (d < 0 ? -d : d) - pu
    }
    s += 1
    return s / 2
}

END {
    if (n == 0) {
        print "intervals 0"
        exit 1
    }
    wholetot = 0
    for (id in whole)
        wholetot += whole[id]
    for (t = 1; t <= n; t++)
        d[t] = dist_to_whole(t)
    # median by insertion sort (n is at most a few thousand)
    for (i = 1; i <= n; i++)
        s[i] = d[i]
    for (i = 2; i <= n; i++) {
        v = s[i]
        j = i - 1
        while (j >= 1 && s[j] > v) {
            s[j + 1] = s[j]
            j--
        }
        s[j + 1] = v
    }
    med = (n % 2) ? s[(n + 1) / 2] : (s[n / 2] + s[n / 2 + 1]) / 2
    nclusters = 0
    transitions = 0
    returns = 0
    prev = 0
    for (t = 1; t <= n; t++) {
        c = 0
        for (j = 1; j <= nclusters && !c; j++)
            if (dist_between(t, leader[j]) < threshold)
                c = j
        if (!c) {
            nclusters++
            leader[nclusters] = t
            c = nclusters
        }
        if (prev && c != prev) {
            transitions++
            if (visited[c])
                returns++
        }
        visited[c] = 1
        prev = c
    }
    printf "intervals %d heterogeneity %.3f clusters %d transitions %d returns %d\n", \
        n, med, nclusters, transitions, returns
}
