-- lowprof's phase evaluation outside the workload suite: a query file for
-- the SQLite shell with stages of different character (bench/phase_outside.sh).
CREATE TABLE t(id INTEGER PRIMARY KEY, grp INTEGER, name TEXT, val REAL);
WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 300000)
INSERT INTO t SELECT i, i % 97, 'name' || (i * 7919 % 100003), (i * 31 % 1000) / 10.0 FROM n;
CREATE INDEX t_grp ON t(grp, val);
SELECT grp, count(*), sum(val), avg(val), max(name) FROM t GROUP BY grp ORDER BY grp LIMIT 5;
SELECT count(*) FROM t WHERE name LIKE '%77%';
SELECT a.grp, count(*) FROM t AS a
  JOIN (SELECT grp, avg(val) AS m FROM t GROUP BY grp) AS b ON a.grp = b.grp
  WHERE a.val > b.m GROUP BY a.grp ORDER BY 2 DESC LIMIT 5;
SELECT name, val FROM t ORDER BY name, val LIMIT 3;
UPDATE t SET val = val * 1.5 WHERE grp % 3 = 0;
DELETE FROM t WHERE grp % 5 = 1;
SELECT count(*), sum(val) FROM t;
